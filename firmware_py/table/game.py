"""The game in progress and its play-screen state: preview, messages, the move being shown, the end.

Every method takes the time `now` from the loop's one clock and changes state only;
scenes draw it and the loop saves it. Seats are the engine's seat numbers (0 = red
or red 1), controls the button names `card1`…`card5`, `hero`, `draw`.

>>> from engine.position import Position
>>> game = Game(Setup("humans", seed=7), Position.new(seed=7))
>>> game.press(0, "card1", "press", 0.0); game.preview.kind, str(game.preview.move)
('play', 'NE3')
>>> game.press(0, "card1", "press", 0.5); game.pos.history()
['NE3']
"""
from dataclasses import dataclass, field
from typing import Any

from engine.moves import DRAW, HERO, MOVES, PASS, Move
from engine.notation import TARGET
from engine.position import Position
from engine.record import make_record
from firmware_py.table.settings import DEFAULT_SETTINGS, Settings

HUMAN = "human"
MODES = ("humans", "vs-computer", "demo", "teams")
TRAVEL_SHARE = 0.4      # of the time a computer's move is shown, the last part: the crown travels
PASS_SECONDS = 1.5      # a forced pass is shown this long before play goes on (R14)
NO_SECONDS = 0.6        # the board's "no"


@dataclass(frozen=True)
class Setup:
    """How a game is played: `mode` (one of MODES), the computer's `level`, the colour a `human`
    plays against it, and the deal's `seed` (the same deal as `roseking new --seed`)."""
    mode: str = "humans"
    level: str = "medium"
    human: str = "red"
    seed: int = 0

    @property
    def variant(self) -> str:
        return "teams" if self.mode == "teams" else "classic"

    def players(self) -> tuple[str, ...]:
        """Who plays each seat: `human` or a computer player's name."""
        if self.mode == "teams":
            return (HUMAN,) * 4
        if self.mode == "demo":
            return (self.level, self.level)
        if self.mode == "vs-computer":
            return (HUMAN, self.level) if self.human == "red" else (self.level, HUMAN)
        return (HUMAN, HUMAN)


@dataclass(frozen=True)
class Request:
    """A question for the computer: `kind` move|hint for ply `ply` of game `game`, at `level`, seeded."""
    kind: str
    game: int
    ply: int
    level: str
    seed: int
    position: dict[str, Any] = field(compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class Preview:
    """A card chosen but not yet played: `kind` is play, hero (HERO confirms) or no (`reason`)."""
    seat: int
    slot: int
    move: Move | None
    kind: str
    reason: str
    since: float


@dataclass(frozen=True)
class Note:
    """Short text scrolled on a seat's displays (on one card `slot` when given)."""
    seat: int
    text: str
    since: float
    slot: int | None = None


@dataclass(frozen=True)
class Shown:
    """A move shown before it is made: the computer's choice, or a forced pass (R14)."""
    move: Move
    since: float


@dataclass(frozen=True)
class Jump:
    """The last card move, marked briefly: the crown went from `origin` to `target`."""
    origin: int
    target: int
    seat: int
    since: float


def classify(pos: Position, card: int) -> tuple[str, Move | None, str]:
    """What playing `card` would do now: (`play`|`hero`|`no`, the move, the reason for no).

    >>> pos = Position.new(seed=7)
    >>> classify(pos, pos.hands[0][0])
    ('play', Move('NE3'), '')
    """
    legal = pos.legal_moves()
    if MOVES[card] in legal:
        return "play", MOVES[card], ""                      # R10
    if MOVES[card + HERO] in legal:
        return "hero", MOVES[card + HERO], ""               # R12
    target = TARGET[pos.crown * 24 + card]
    if target < 0:
        return "no", None, "OFF BOARD"                      # R10, R13
    if pos.board[target] == (pos.to_move & 1) + 1:
        return "no", None, "OWN STONE"                      # R13
    return "no", None, "NO HERO"                            # R12


class Game:
    """One game at the table: the position, who plays each seat, and what the play screen shows."""

    def __init__(self, setup: Setup, start: Position, pos: Position | None = None, number: int = 0,
                 settings: Settings = DEFAULT_SETTINGS) -> None:
        self.setup, self.start, self.number = setup, start, number
        self.pos = pos if pos is not None else start.copy()
        self.players = setup.players()
        self.hint_allowed = settings.hint
        self.takeback_allowed = settings.takeback and setup.mode == "vs-computer"
        self.show_seconds = settings.show_seconds
        self.preview: Preview | None = None
        self.note: Note | None = None
        self.shown: Shown | None = None
        self.jump: Jump | None = None
        self.no_since: float | None = None
        self.hint_wanted = False
        self.held: set[tuple[int, str]] = set()
        self.changes = 0        # raised whenever the position changes: the loop saves
        self.ended: float | None = None if self.pos.outcome() is None else 0.0

    # --- what the loop asks ----------------------------------------------

    @property
    def over(self) -> bool:
        return self.ended is not None

    def is_computer(self, seat: int) -> bool:
        return self.players[seat] != HUMAN

    def record(self) -> dict[str, Any]:
        """The game record (NOTATION.md); its result is `unfinished` until the end."""
        players = dict(zip(self.pos.variant.seats, self.players))
        return make_record(self.start, self.pos, players, seed=self.setup.seed)

    def want(self) -> Request | None:
        """What the computer should be thinking about now, if anything."""
        if self.over or self.shown is not None:
            return None
        seat = self.pos.to_move
        if self.is_computer(seat):
            return self._request("move", self.players[seat])
        if self.hint_wanted:
            return self._request("hint", "hard")
        return None

    def _request(self, kind: str, level: str) -> Request:
        ply = len(self.pos.stack)
        return Request(kind, self.number, ply, level, self.setup.seed * 1000 + ply, self.pos.to_json(pile=False))

    def answer(self, request: Request, move: Move, now: float) -> None:
        """The computer's answer to `request` (the loop only hands over answers to `want()`)."""
        if request.kind == "move":
            self.shown = Shown(move, now)
            return
        self.hint_wanted = False
        seat = self.pos.to_move
        if move.card is None:
            self.note = Note(seat, str(move).upper(), now)
        else:
            slot = self.pos.hands[seat].index(move.card)
            kind = "hero" if move.is_hero else "play"
            self.preview = Preview(seat, slot, move, kind, "", now)

    # --- time -------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Make a shown move once it has been shown; show a forced pass (R14)."""
        if self.over:
            return
        if self.shown is None and self.pos.legal_moves() == [MOVES[PASS]]:
            self.shown = Shown(MOVES[PASS], now)
            self.note = Note(self.pos.to_move, "PASS", now)
        shown = self.shown
        if shown is not None and now >= shown.since + (PASS_SECONDS if shown.move.is_pass else self.show_seconds):
            self.make(shown.move, now)

    def make(self, move: Move, now: float) -> None:
        """Make `move` (legal) now and clear the play screen's state."""
        seat, origin = self.pos.to_move, self.pos.crown
        self.pos.push(move)
        if move.card is not None:
            self.jump = Jump(origin, self.pos.crown, seat, now)
        self.preview = self.shown = None
        self.hint_wanted = False
        self.changes += 1
        if self.pos.outcome() is not None:
            self.ended = now

    # --- buttons ----------------------------------------------------------

    def press(self, seat: int, control: str, kind: str, now: float) -> None:
        """A button event of seat `seat` (already known to play in this game)."""
        if kind == "hold":
            self.held.add((seat, control))
        elif kind == "release" and (seat, control) in self.held:
            self.held.discard((seat, control))
            return      # a hold has been acted on
        if self.over:
            return
        acts = {"press": control.startswith("card"), "release": control in ("hero", "draw"),
                "hold": control in ("hero", "draw")}
        if not acts[kind]:
            return
        mover = self.pos.to_move
        if seat != mover or self.shown is not None or self.is_computer(seat):
            self._refuse(seat, "WAIT", now, flash=False)      # not this seat's turn (R8, R22)
        elif kind == "hold":
            self._help(seat, control, now)
        elif control == "hero":
            self._hero(seat, now)
        elif control == "draw":
            self._draw(seat, now)
        else:
            self._card(seat, int(control[4:]) - 1, now)

    def _refuse(self, seat: int, text: str, now: float, slot: int | None = None, flash: bool = True) -> None:
        self.note = Note(seat, text, now, slot)
        if flash:
            self.no_since = now

    def _card(self, seat: int, slot: int, now: float) -> None:
        hand = self.pos.hands[seat]
        if slot >= len(hand):
            self._refuse(seat, "NO CARD", now, slot)
            return
        p = self.preview
        if p is not None and p.seat == seat and p.slot == slot and p.kind == "play" and p.move is not None:
            self.make(p.move, now)
            return
        kind, move, reason = classify(self.pos, hand[slot])
        self.preview = Preview(seat, slot, move, kind, reason, now)
        self.note = None
        if kind == "no":
            self._refuse(seat, reason, now, slot)
        elif kind == "hero":
            self.note = Note(seat, "HERO?", now, slot)

    def _hero(self, seat: int, now: float) -> None:
        p = self.preview
        if p is not None and p.seat == seat and p.kind == "hero" and p.move is not None:
            self.make(p.move, now)
        elif self.pos.heroes[seat] == 0:
            self._refuse(seat, "NO HERO", now)
        else:
            self._refuse(seat, "CARD FIRST", now)

    def _draw(self, seat: int, now: float) -> None:
        if MOVES[DRAW] in self.pos.legal_moves():
            self.make(MOVES[DRAW], now)   # R11
        else:
            self._refuse(seat, "HAND FULL", now)   # R11: fewer than the hand limit only

    def _help(self, seat: int, control: str, now: float) -> None:
        """Held HERO asks for a hint, held DRAW takes back the last move pair (when switched on)."""
        if control == "hero":
            if self.hint_allowed:
                self.hint_wanted = True
                self.note = Note(seat, "HINT", now)
            else:
                self._refuse(seat, "NO HINTS", now)
        elif not self.takeback_allowed:
            self._refuse(seat, "NO TAKEBACK", now)
        elif not self.takeback():
            self._refuse(seat, "NOTHING", now)

    def takeback(self) -> bool:
        """Unmake moves back to the person's previous turn (the last move pair); False if there is none."""
        pos, n = self.pos, len(self.pos.hands)
        if not any(not self.is_computer((pos.to_move - k) % n) for k in range(1, len(pos.stack) + 1)):
            return False
        took_human = False
        while pos.stack and not (took_human and not self.is_computer(pos.to_move)):
            pos.pop()
            took_human = took_human or not self.is_computer(pos.to_move)
        self.preview = self.shown = self.jump = None
        self.hint_wanted = False
        self.changes += 1
        return True
