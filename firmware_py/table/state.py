"""The table's state in words and numbers: what a mirror of the table says beside its picture.

A pure function of the session and the time, as the scenes are (`table_state`), handed by the
loop to its receivers with each frame: whose turn it is, the scores (R18), each seat's player,
name, heroes and cards, the stones of each colour and the crown (a board in words), the stones
left, the pile, the moves made and the last one, the card previewed and what the table says
about a press (a refusal, HERO?), which square each card of the seat to move reaches, the menus'
cards, the end. A view of the table shows these and computes nothing of its own. Its words (the
menus' cards, the last move, the end, what the displays say) are the displays' own, kept as
phrases (`messages.Phrase`) and said in the language a view asks for (`to_dict(language)`): the
table's, or a page's own.

>>> from firmware_py.table.game import Mode, Setup
>>> from firmware_py.table.settings import DEFAULT_SETTINGS
>>> session = Session(DEFAULT_SETTINGS, ("red", "white"), Setup())
>>> _ = session.start(Setup(Mode.HUMANS, seed=7), 0.0)
>>> state = table_state(session)
>>> state.to_move, state.scores, state.seats[0].cards, state.crown
('red', (0, 0), ('NE3', 'W1', 'NW2', 'SW1', 'E2'), 'e5')
>>> state.reach[0]
Reach(slot=1, card='NE3', kind='play', square='h8')
>>> session.game.press(0, "card1", 0.0); session.game.press(0, "card1", 0.5)
>>> [table_state(session).to_dict(lang)["last_move"] for lang in ("en", "de")]
['RED NE3', 'ROT NE3']
"""
import functools
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.notation import CARD_NAMES, TARGET, square_name
from engine.position import Position
from firmware_py.table.game import Game, classify, move_words, movers
from firmware_py.table.messages import Language, Phrase
from firmware_py.table.reading import lasts
from firmware_py.table.scenes import ending_words
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
class Reach:
    """What card button `slot` (1…) of the seat to move would do: its `card`, `kind` (play, hero: a hero
    turns the stone there, R12; no) and the `square` the crown would go to (None: off the board)."""
    slot: int
    card: str
    kind: str
    square: str | None


@dataclass(frozen=True)
class Preview:
    """The card previewed: `seat`, card button `slot`, the `move` it makes (None when it cannot), `kind`
    (play: press it again; hero: press HERO; no) and the `square` it reaches."""
    seat: str
    slot: int
    move: str | None
    kind: str
    square: str | None


@dataclass(frozen=True)
class Said:
    """What the displays say of a press now: its `words` (their message `key`, `firmware_py.table.messages`), the
    `seat` it is said to (None: every seat) and the seat whose doing it tells of (`by`: who passes)."""
    words: Phrase
    seat: str | None
    by: str | None = None

    @property
    def key(self) -> str:
        return self.words.key


@dataclass(frozen=True)
class LastMove:
    """The last move: who made it (`seat`), the move in notation (`move`), and for a card the squares the
    crown went `origin` → `target`."""
    seat: str
    move: str
    origin: str | None
    target: str | None


@dataclass(frozen=True)
class TableState:
    """What the table is doing: the `screen` (menu, play, options, over, attract, staff, asleep); during a
    game its `mode`, `number` (this run's count), `moves` made (`history`: each move's seat and notation), the seat
    `to_move`, `scores` (red, white), the `seats`, the `crown` and each colour's stones (`red_stones`,
    `white_stones`: square names), `stones_left` in the supply (R4), cards in the `pile`, the `last_move`
    in words and as a `last` move, the `preview`, what the displays `said` of a press, what each card of
    the seat to move would do (`reach`, while a person is to move) and, at the end, `result`; in a menu
    the words of its card displays (`menu`), card 1 first (None for a card that shows nothing). `names`
    are the people named at the table's seats for the games to come, `naming_refused` why they cannot
    be named now (English, as the server's answers are)."""
    screen: str
    mode: str | None = None
    number: int = 0
    moves: int = 0
    to_move: str | None = None
    scores: tuple[int, int] = (0, 0)
    seats: tuple[SeatState, ...] = ()
    stones_left: int = 0
    pile: int = 0
    last_move: Phrase | None = None
    result: Phrase | None = None
    menu: tuple[Phrase | None, ...] = ()
    names: tuple[tuple[str, str], ...] = ()
    naming_refused: str | None = None
    history: tuple[tuple[str, str], ...] = ()
    crown: str | None = None
    red_stones: tuple[str, ...] = ()
    white_stones: tuple[str, ...] = ()
    last: LastMove | None = None
    preview: Preview | None = None
    said: Said | None = None
    reach: tuple[Reach, ...] = ()

    def to_dict(self, language: Language | str) -> dict[str, Any]:
        """As plain data for JSON, its words said in `language`: the menus' cards as `menu` (texts, "" for none)
        and as `menu_keys` (their message keys), what the displays say as `said` (`key`, `text`, `seat`, `by`)."""
        def words(phrase: Phrase | None) -> str | None:
            return phrase.say(language) if phrase is not None else None
        out = asdict(replace(self, last_move=None, result=None, menu=(), said=None))
        said = self.said
        out.update(names=dict(self.names), last_move=words(self.last_move), result=words(self.result),
                   menu=[words(card) or "" for card in self.menu],
                   menu_keys=[card.key if card else "" for card in self.menu],
                   said=None if said is None else {"key": said.key, "text": said.words.say(language),
                                                   "seat": said.seat, "by": said.by})
        return out


def table_state(session: Session, now: float | None = None) -> TableState:
    """The state of `session` at `now` (None: whatever the displays say of a press, however old), as a mirror
    shows it in words."""
    names = tuple(session.names.items())
    game = session.game
    if game is None or session.screen is Screen.MENU:
        screen = session.screen if game is None else Screen.MENU      # asleep or attract mode with no game
        return TableState(screen, menu=tuple(session.menu.words()), names=names,
                          naming_refused=session.naming_refused())
    pos = game.pos
    score = game.score()
    seats = tuple(SeatState(seat, ("red", "white")[k & 1], game.players[k], game.names.get(seat), pos.heroes[k],
                            tuple(CARD_NAMES[c] if c is not None else "" for c in game.slots[k]))
                  for k, seat in enumerate(pos.variant.seats))
    over = session.screen is Screen.OVER
    menu = tuple(session.options.words()) if session.screen is Screen.OPTIONS else ()
    board = _board(game, game.changes)
    return TableState(session.screen, game.setup.mode, game.number, len(pos.stack),
                      None if over else pos.seat, (score.red.score, score.white.score), seats, pos.supply,
                      len(pos.pile), board.last_words, ending_words(game) if over else None, menu, names,
                      session.naming_refused(), board.history, board.crown, board.red, board.white, board.last,
                      _preview(game), _said(session, game, now), board.reach if _may_press(session, game) else ())


@dataclass(frozen=True)
class _Board:
    history: tuple[tuple[str, str], ...]
    last: LastMove | None
    last_words: Phrase | None
    crown: str
    red: tuple[str, ...]
    white: tuple[str, ...]
    reach: tuple[Reach, ...]


@functools.lru_cache(maxsize=4)
def _board(game: Game, changes: int) -> _Board:
    """What the position of `game` after its `changes`-th change says: the moves (each seat and its notation),
    the last one, the crown, each colour's stones, and what each card of the seat to move would do; worked out
    once a move, not at every step of the loop."""
    pos = game.pos
    history = tuple(zip(movers(pos), pos.history()))
    last = last_words = None
    if history:
        jump = game.last_jump()
        last = LastMove(*history[-1], *((square_name(jump[0]), square_name(jump[1])) if jump else (None, None)))
        last_words = move_words(*history[-1])
    red, white = stones_of(pos)
    reach = []
    for slot, card in enumerate(game.slots[pos.to_move] if not game.over else (), 1):
        if card is not None:
            kind, _, _ = classify(pos, card)
            target = TARGET[pos.crown * 24 + card]
            reach.append(Reach(slot, CARD_NAMES[card], kind, square_name(target) if target >= 0 else None))
    return _Board(history, last, last_words, square_name(pos.crown), red, white, tuple(reach))


def stones_of(pos: Position) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The squares of each colour's stones (red, white), a1 first."""
    stones: tuple[list[str], list[str]] = ([], [])
    for square, stone in enumerate(pos.board):
        if stone:
            stones[stone - 1].append(square_name(square))
    return tuple(stones[0]), tuple(stones[1])


def _preview(game: Game) -> Preview | None:
    p = game.preview
    if p is None or game.over:
        return None
    card = game.slots[p.seat][p.slot] if p.slot < len(game.slots[p.seat]) else None
    target = TARGET[game.pos.crown * 24 + card] if card is not None else -1
    return Preview(game.pos.variant.seats[p.seat], p.slot + 1, str(p.move) if p.move is not None else None, p.kind,
                   square_name(target) if target >= 0 else None)


def _said(session: Session, game: Game, now: float | None) -> Said | None:
    """The game's note while the displays show it (all of it, without `now`)."""
    note = game.note
    if note is None or not note.key or session.screen is not Screen.PLAY:
        return None
    settings = session.settings
    count = settings.cards_per_seat if note.slot is None else 1
    if now is not None and now >= note.since + lasts(note.text, count, settings.scroll_speed):
        return None
    seats = game.pos.variant.seats
    def seat(k: int | None) -> str | None:
        return seats[k] if k is not None and k < len(seats) else None
    return Said(note.words, seat(note.seat), seat(note.by))


def _may_press(session: Session, game: Game) -> bool:
    """Whether a person is to move and may press a card now."""
    return session.screen is Screen.PLAY and not game.over and game.shown is None and \
        not game.is_computer(game.pos.to_move)
