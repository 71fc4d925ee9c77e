"""The table's state in words and numbers: what a mirror of the table says beside its picture.

A pure function of the session, as the scenes are (`table_state`), handed by the loop to its
receivers with each frame: whose turn it is, the scores (R18), each seat's player, name,
heroes and cards, the stones left, the pile, the last move, the end. A view of the table
shows these and computes nothing of its own. Its words (the menu's, the last move, the end)
are English, as the web page is, whatever language the table speaks.

>>> from firmware_py.table.game import Mode, Setup
>>> from firmware_py.table.settings import DEFAULT_SETTINGS
>>> session = Session(DEFAULT_SETTINGS, ("red", "white"), Setup())
>>> _ = session.start(Setup(Mode.HUMANS, seed=7), 0.0)
>>> state = table_state(session)
>>> state.to_move, state.scores, state.seats[0].cards
('red', (0, 0), ('NE3', 'W1', 'NW2', 'SW1', 'E2'))
"""
from dataclasses import asdict, dataclass
from typing import Any

from engine.notation import CARD_NAMES
from firmware_py.table.messages import EN
from firmware_py.table.scenes import ending
from firmware_py.table.session import Screen, Session


@dataclass(frozen=True)
class SeatState:
    """One seat: its `seat` name and `colour`, who plays it (`player`: `human` or the computer's level),
    the person's `name` when the seat is named, heroes left (R5) and the cards on its buttons
    (card 1 first, "" for an empty button)."""
    seat: str
    colour: str
    player: str
    name: str | None
    heroes: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TableState:
    """What the table is doing: the `screen` (menu, play, options, over); during a game its `mode`,
    `number` (this run's count), `moves` made, the seat `to_move`, `scores` (red, white), the
    `seats`, `stones_left` in the supply (R4), cards in the `pile`, the `last_move` in words and, at
    the end, `result`; in the new-game menu its displays' `menu` texts. `names` are the people
    named at the table's seats for the games to come, `naming_refused` why they cannot be named now."""
    screen: str
    mode: str | None = None
    number: int = 0
    moves: int = 0
    to_move: str | None = None
    scores: tuple[int, int] = (0, 0)
    seats: tuple[SeatState, ...] = ()
    stones_left: int = 0
    pile: int = 0
    last_move: str | None = None
    result: str | None = None
    menu: tuple[str, ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    naming_refused: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As plain data for JSON."""
        out = asdict(self)
        out["names"] = dict(self.names)
        return out


def table_state(session: Session) -> TableState:
    """The state of `session`, as a mirror shows it in words."""
    names = tuple(session.names.items())
    game = session.game
    if game is None or session.screen is Screen.MENU:
        screen = session.screen if game is None else Screen.MENU      # asleep or attract mode with no game
        return TableState(screen, menu=tuple(label for label in session.menu.labels(EN) if label), names=names,
                          naming_refused=session.naming_refused())
    pos = game.pos
    score = pos.score()
    seats = tuple(SeatState(seat, ("red", "white")[k & 1], game.players[k], game.names.get(seat), pos.heroes[k],
                            tuple(CARD_NAMES[c] if c is not None else "" for c in game.slots[k]))
                  for k, seat in enumerate(pos.variant.seats))
    over = session.screen is Screen.OVER
    return TableState(session.screen, game.setup.mode, game.number, len(pos.stack),
                      None if over else pos.seat, (score.red.score, score.white.score), seats, pos.supply,
                      len(pos.pile), game.last_move(EN) if pos.stack else None, ending(game, EN) if over else None,
                      names=names, naming_refused=session.naming_refused())
