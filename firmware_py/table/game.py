"""The game in progress and its play-screen state: preview, messages, the move being shown, the end.

Every method takes the time `now` from the loop's one clock and changes state only;
scenes draw it and the loop saves it. Seats are the engine's seat numbers (0 = red
or red 1), controls the button names `card1`…`card5`, `hero`, `draw`; a button acts when
it goes down, however long it is held. Each card stays on the button it was dealt or
drawn to (`slots`): a played card leaves its slot empty and a drawn card fills the first
empty one, while the engine and the record keep the hand in their own order.

>>> from engine.notation import CARD_NAMES
>>> from engine.position import Position
>>> game = Game(Setup(Mode.HUMANS, seed=7), Position.new(seed=7))
>>> game.press(0, "card1", 0.0); game.preview.kind, str(game.preview.move)
('play', 'NE3')
>>> game.press(0, "card1", 0.5); game.pos.history()
['NE3']
>>> [CARD_NAMES[c] if c is not None else None for c in game.slots[0]]
[None, 'W1', 'NW2', 'SW1', 'E2']
"""
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from engine.moves import DRAW, HERO, MOVES, PASS, Move, drawn_card
from engine.notation import CARD_NAMES, TARGET
from engine.position import Position, Score
from engine.record import make_record
from firmware_py.table.messages import Language, Phrase, seat_words
from firmware_py.table.settings import DEFAULT_SETTINGS, Settings

HUMAN = "human"
TRAVEL_SHARE = 0.4      # of the time a computer's move is shown, the last part: the crown travels
PASS_SECONDS = 2.0      # a forced pass is shown this long before play goes on (R14)
NO_SECONDS = 0.6        # the board's "no"
Slots = list[list[int | None]]
"""Per seat, the card on each of its card buttons (None: an empty slot)."""


class Mode(StrEnum):
    """How a game is played at the table (`roseking play --mode`): two people, a person against the
    computer, the computer against itself, or four people in two teams (R20–R22)."""

    HUMANS = "humans"
    VS_COMPUTER = "vs-computer"
    DEMO = "demo"
    TEAMS = "teams"


@dataclass(frozen=True)
class Setup:
    """How a game is played: its `mode`, the computer's `level`, the colour a `human` plays against
    it, and the deal's `seed` (the same deal as `roseking new --seed`). A mode given as its text is
    taken as the `Mode` of that text.

    >>> Setup("vs-computer", "hard").players()
    ('human', 'hard')
    """
    mode: Mode = Mode.HUMANS
    level: str = "medium"
    human: str = "red"
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))

    @property
    def variant(self) -> str:
        return "teams" if self.mode is Mode.TEAMS else "classic"

    def players(self) -> tuple[str, ...]:
        """Who plays each seat: `human` or a computer player's name."""
        if self.mode is Mode.TEAMS:
            return (HUMAN,) * 4
        if self.mode is Mode.DEMO:
            return (self.level, self.level)
        if self.mode is Mode.VS_COMPUTER:
            return (HUMAN, self.level) if self.human == "red" else (self.level, HUMAN)
        return (HUMAN, HUMAN)


@dataclass(frozen=True)
class Table:
    """A table's seat panels, as far as the rules care: the seats' names and each panel's card slots."""
    seats: tuple[str, ...]
    cards: int


class Unplayable(Enum):
    """Why a table cannot play a game; the value is the message the new-game menu says."""

    SEATS = "teams-need-seats"      # R20–R22: four players, a seat panel each
    CARDS = "two-need-cards"        # R7: a hand of five cards

    def explain(self, table: Table) -> str:
        """The reason in a sentence, naming what `table` has."""
        if self is Unplayable.SEATS:
            return (f"a teams game needs four seat panels (seats = [...] lists {len(table.seats)}: "
                    f"{', '.join(table.seats)})")
        return f"a two-player game needs five card slots per seat (R7; cards_per_seat = {table.cards})"


def why_unplayable(setup: Setup, table: Table) -> Unplayable | None:
    """Why `table` cannot play `setup`, or None when it can: the one check of the new-game menu,
    `roseking play --mode` and a resumed save.

    >>> why_unplayable(Setup("teams"), Table(("red", "white"), 5))
    <Unplayable.SEATS: 'teams-need-seats'>
    """
    if setup.mode is Mode.TEAMS:
        return Unplayable.SEATS if len(table.seats) < 4 else None
    return Unplayable.CARDS if table.cards < 5 else None


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
    """A card chosen but not yet played: `kind` is play, hero (HERO confirms) or no (`reason`, a message)."""
    seat: int
    slot: int
    move: Move | None
    kind: str
    reason: str
    since: float


@dataclass(frozen=True)
class Note:
    """Short text on a seat's card displays (on one card `slot` when given; every seat's when `seat` is None):
    its `words`, said in the table's language (`text`); `by` is the seat whose doing it tells of (who passes)."""
    seat: int | None
    words: Phrase
    text: str
    since: float
    slot: int | None = None
    by: int | None = None

    @property
    def key(self) -> str:
        """The note's message key (`firmware_py.table.messages`)."""
        return self.words.key


def movers(pos: Position) -> tuple[str, ...]:
    """The seat that made each move of `pos.history()` (every move, a pass or a draw too, ends a turn)."""
    seats = pos.variant.seats
    moves = len(pos.stack)
    return tuple(seats[(pos.to_move - moves + n) % len(seats)] for n in range(moves))


@dataclass(frozen=True)
class Shown:
    """A move shown before it is made: the computer's choice, or a forced pass (R14)."""
    move: Move
    since: float


@dataclass(frozen=True)
class Jump:
    """The last card move, marked briefly: the crown went from `origin` to `target`, flipping a stone
    if `hero` (R12)."""
    origin: int
    target: int
    seat: int
    since: float
    hero: bool = False


def take_slot(slots: Slots, seat: int, token: str) -> None:
    """Move the cards of `slots` as the move written `token` (record notation) by `seat` does."""
    move = Move.parse(token)
    if move.card is not None:
        slots[seat][slots[seat].index(move.card)] = None
    elif move.is_draw:
        slots[seat][slots[seat].index(None)] = drawn_card(token)


def slot_map(start: Position, pos: Position) -> Slots:
    """The cards on each seat's buttons after the moves of `pos`, made from `start`: derived from
    the moves alone, so a resumed game shows every card on the button it was on.

    >>> from engine.notation import CARD_NAMES
    >>> start = Position.new(seed=7)
    >>> pos = start.copy()
    >>> for m in ("NE3", "NW1", "draw"): pos.push(Move(m))
    >>> [CARD_NAMES[c] if c is not None else None for c in slot_map(start, pos)[0]]
    ['S2', 'W1', 'NW2', 'SW1', 'E2']
    """
    slots: Slots = [[*hand, *[None] * (start.hand_limit - len(hand))] for hand in start.hands]
    seat = start.to_move
    for token in pos.history():
        take_slot(slots, seat, token)
        seat = (seat + 1) % len(slots)
    return slots


def classify(pos: Position, card: int) -> tuple[str, Move | None, str]:
    """What playing `card` would do now: (`play`|`hero`|`no`, the move, the reason for no: its message).

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
        return "no", None, "off-board"                      # R10, R13
    if pos.board[target] == (pos.to_move & 1) + 1:
        return "no", None, "own-stone"                      # R13
    return "no", None, "no-hero"                            # R12


class Game:
    """One game at the table: the position, who plays each seat, and what the play screen shows."""

    def __init__(self, setup: Setup, start: Position, pos: Position | None = None, number: int = 0,
                 settings: Settings = DEFAULT_SETTINGS, names: Mapping[str, str] | None = None,
                 ended_at: str | None = None) -> None:
        self.setup, self.start, self.number = setup, start, number
        self.names: dict[str, str] = dict(names or {})
        """Who sits at each seat, by name (a club's members), for the record: seat → name, any seat left out."""
        self.ended_at = ended_at
        """When the game was archived, ended or left (the record's `ended`, UTC), once it has been."""
        self.transient = False
        """An attract game: never saved, never archived (`firmware_py.table.exhibit`)."""
        self.chosen = False
        """Started from the new-game menu by someone at the table (a demonstration so started is one game)."""
        self.pos = pos if pos is not None else start.copy()
        self.players = setup.players()
        self.show_seconds = settings.show_seconds
        self.language = settings.language
        self.slots = slot_map(self.start, self.pos)
        self.preview: Preview | None = None
        self.note: Note | None = None
        self.shown: Shown | None = None
        self.jump: Jump | None = None
        self.no_since: float | None = None
        self.hint_wanted = False
        self.changes = 0        # raised whenever the position changes: the loop saves
        self._scored: tuple[int, Score] | None = None  # (changes, the score after them)
        self.ended: float | None = None if self.pos.outcome() is None else 0.0

    # --- what the loop asks ----------------------------------------------

    @property
    def over(self) -> bool:
        return self.ended is not None

    def is_computer(self, seat: int) -> bool:
        return self.players[seat] != HUMAN

    def score(self) -> Score:
        """The position's score (R18, R19), worked out once a change, not at every step of the loop."""
        if self._scored is None or self._scored[0] != self.changes:  # `make` and `takeback` raise `changes`
            self._scored = (self.changes, self.pos.score())
        return self._scored[1]

    def record(self) -> dict[str, Any]:
        """The game record (NOTATION.md); its result is `unfinished` until the end."""
        players = dict(zip(self.pos.variant.seats, self.players))
        return make_record(self.start, self.pos, players, seed=self.setup.seed, names=self.names, ended=self.ended_at)

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
            self.note = self._note(seat, "draw" if move.is_draw else "pass", now)
        else:
            slot = self.slots[seat].index(move.card)
            kind = "hero" if move.is_hero else "play"
            self.preview = Preview(seat, slot, move, kind, "", now)

    # --- time -------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Make a shown move once it has been shown; show a forced pass (R14)."""
        if self.over:
            return
        if self.shown is None and self.pos.legal_moves() == [MOVES[PASS]]:
            self.shown = Shown(MOVES[PASS], now)
            self.note = self._note(None, "passes", now, by=self.pos.to_move, seat=seat_words(self.pos.seat))  # R14
        shown = self.shown
        if shown is not None and now >= shown.since + (PASS_SECONDS if shown.move.is_pass else self.show_seconds):
            self.make(shown.move, now)

    def make(self, move: Move, now: float) -> None:
        """Make `move` (legal) now and clear the play screen's state; a hero move is said to every seat."""
        seat, origin = self.pos.to_move, self.pos.crown
        self.pos.push(move)
        take_slot(self.slots, seat, self.pos.history()[-1])
        if move.card is not None:
            self.jump = Jump(origin, self.pos.crown, seat, now, move.is_hero)
        if move.is_hero:
            self.note = self._note(None, "hero", now)
        self.preview = self.shown = None
        self.hint_wanted = False
        self.changes += 1
        if self.pos.outcome() is not None:
            self.ended = now

    # --- buttons ----------------------------------------------------------

    def press(self, seat: int, control: str, now: float) -> None:
        """A button of seat `seat` (already known to play in this game) went down."""
        if self.over:
            return
        mover = self.pos.to_move
        if seat != mover or self.shown is not None or self.is_computer(seat):
            self._refuse(seat, "wait", now, flash=False)      # not this seat's turn (R8, R22)
        elif control == "hero":
            self._hero(seat, now)
        elif control == "draw":
            self._draw(seat, now)
        elif control.startswith("card"):
            self._card(seat, int(control[4:]) - 1, now)

    def _note(self, to: int | None, key: str, now: float, slot: int | None = None, by: int | None = None,
              **fields: str | Phrase) -> Note:
        """A note to seat `to` (None: every seat) of message `key` with its `fields`, said in the table's language."""
        words = Phrase.of(key, **fields)
        return Note(to, words, words.say(self.language), now, slot, by)

    def _refuse(self, seat: int, key: str, now: float, slot: int | None = None, flash: bool = True) -> None:
        self.note = self._note(seat, key, now, slot)
        if flash:
            self.no_since = now

    def _card(self, seat: int, slot: int, now: float) -> None:
        card = self.slots[seat][slot] if slot < len(self.slots[seat]) else None
        if card is None:
            self._refuse(seat, "empty", now, slot)
            return
        p = self.preview
        if p is not None and p.seat == seat and p.slot == slot and p.kind == "play" and p.move is not None:
            self.make(p.move, now)
            return
        kind, move, reason = classify(self.pos, card)
        self.preview = Preview(seat, slot, move, kind, reason, now)
        self.note = None
        if kind == "no":
            self._refuse(seat, reason, now, slot)
        elif kind == "hero":
            self.note = self._note(seat, "hero-ask", now, slot)

    def _hero(self, seat: int, now: float) -> None:
        """HERO: makes the hero move the card shown asks for; else says why not: no hero left, the card shown
        needs none (its square is free: the card again plays it) or cannot be played at all (its reason), or
        no card has been shown yet."""
        p = self.preview
        shown = p if p is not None and p.seat == seat else None
        if shown is not None and shown.kind == "hero" and shown.move is not None:
            self.make(shown.move, now)
        elif self.pos.heroes[seat] == 0:
            self._refuse(seat, "no-hero", now)
        elif shown is not None and shown.kind == "play":
            self._refuse(seat, "hero-not-needed", now)
        elif shown is not None and shown.kind == "no":
            self._refuse(seat, shown.reason, now)
        else:
            self._refuse(seat, "card-first", now)

    def _draw(self, seat: int, now: float) -> None:
        if MOVES[DRAW] in self.pos.legal_moves():
            self.make(MOVES[DRAW], now)   # R11
        else:
            self._refuse(seat, "hand-full", now)   # R11: fewer than the hand limit only

    def ask_hint(self, now: float) -> None:
        """A hint for the seat to move: the `hard` player's move, previewed (the game menu offers it when
        `[table] hint` allows)."""
        seat = self.pos.to_move
        if self.over or self.shown is not None or self.is_computer(seat):
            self._refuse(seat, "wait", now, flash=False)
        else:
            self.hint_wanted = True
            self.preview = None
            self.note = self._note(seat, "item-hint", now)

    def takeback_count(self) -> int:
        """How many moves a takeback unmakes: back to the turn of the last person who chose a move
        (a forced pass or the computer's move is nobody's choice); 0 when nobody has chosen one yet."""
        n, seat = 0, self.pos.to_move
        for token in reversed(self.pos.history()):
            seat = (seat - 1) % len(self.players)
            n += 1
            if token != "pass" and not self.is_computer(seat):
                return n
        return 0

    def takeback(self, now: float) -> int:
        """Unmake `takeback_count()` moves, say so on every seat ("UNDO 2"), and return how many."""
        n = self.takeback_count()
        for _ in range(n):
            self.pos.pop()
        self.slots = slot_map(self.start, self.pos)
        self.preview = self.shown = self.jump = None
        self.hint_wanted = False
        self.note = self._note(None, "undone", now, count=str(n))
        self.changes += 1
        return n

    def last_jump(self) -> tuple[int, int, int] | None:
        """(origin, target, seat) of the last move if it moved the crown, else None."""
        if not self.pos.stack:
            return None
        before = self.pos.copy(stack=True)
        move = before.pop()
        return (before.crown, self.pos.crown, before.to_move) if move.card is not None else None

    def last_move(self, language: Language) -> str:
        """The last move in words in `language`, for the displays: `RED NE3`, `WHITE HERO NE2`, `RED DREW S2`,
        `WHITE PASSED`."""
        token = self.pos.last_move()
        return move_words(movers(self.pos)[-1], token).say(language) if token is not None else \
            Phrase("no-move-yet").say(language)


def move_words(seat: str, token: str) -> Phrase:
    """A move of the history (`token`) by `seat`, in words: `RED NE3`, `WHITE HERO NE2`, `RED DREW S2`,
    `WHITE PASSED`."""
    who = seat_words(seat)
    move, drawn = Move.parse(token), drawn_card(token)
    if drawn is not None:                   # the history names every card drawn
        return Phrase.of("drew", seat=who, card=CARD_NAMES[drawn])
    if move.is_pass:
        return Phrase.of("passed", seat=who)
    if move.is_hero:
        return Phrase.of("moved-hero", seat=who, move=str(move).removeprefix("H+"))
    return Phrase.joined(who, str(move))
