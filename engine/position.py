"""The game state with legal moves, make/unmake and the end of the game (R6–R17, R20–R22).

>>> pos = Position.new(seed=7)
>>> moves = pos.legal_moves()
>>> pos.push(moves[0]); pos.pop() == moves[0]
True

The fast core is plain lists and ints: `board` holds 0 (empty), 1 (red) or 2 (white)
per square, `bits` one bitboard per colour, `hands` card lists per seat, `pile` the
draw pile with its top card last. `push` trusts its move; `play` checks it first.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from engine import scoring, serialize
from engine.errors import IllegalMoveError, RoseKingError
from engine.moves import DRAW, HERO, MOVES, PASS, Move
from engine.notation import CARD_NAMES, CENTRE, FILES, TARGET, square_name
from engine.outcomes import Outcome, Winner
from engine.variants import CLASSIC, STONES, First, Reshuffle, Variant, variant as find_variant

# One entry of the move stack: (move, hand index or drawn card, crown before or the saved piles).
Undo = tuple[int, int, Any]


class Position:
    """A position of a game in progress, and the stack of moves that led to it."""

    __slots__ = ("variant", "board", "bits", "crown", "stones", "hands", "heroes",
                 "pile", "discard", "to_move", "reshuffle", "rng", "stack", "n_seats", "hand_limit")

    variant: Variant
    n_seats: int  # len(variant.seats), kept at hand for the fast core
    hand_limit: int  # variant.hand_limit (R11, R21)
    board: list[int]
    bits: list[int]
    crown: int
    stones: int
    hands: list[list[int]]
    heroes: list[int]
    pile: list[int]
    discard: list[int]
    to_move: int
    reshuffle: Reshuffle
    rng: random.Random
    stack: list[Undo]

    def __init__(self, variant: Variant = CLASSIC, *, reshuffle: Reshuffle = Reshuffle.LAZY,
                 rng: random.Random | None = None) -> None:
        """An empty board: crown on e5 (R6), no cards dealt, full heroes (R5)."""
        self.variant = variant
        self.n_seats = len(variant.seats)
        self.hand_limit = variant.hand_limit
        self.board = [0] * 81
        self.bits = [0, 0]
        self.crown = CENTRE
        self.stones = 0
        self.hands = [[] for _ in variant.seats]
        self.heroes = [variant.heroes] * len(variant.seats)
        self.pile = []
        self.discard = []
        self.to_move = 0
        self.reshuffle = reshuffle
        self.rng = rng or random.Random()
        self.stack = []

    @classmethod
    def new(cls, variant: str | Variant = "classic", seed: int | None = None, *, first: str = First.RED,
            reshuffle: str = Reshuffle.LAZY) -> Position:
        """A freshly dealt game (R7), the same for the same seed on every machine.

        `first` is `red` (R8, R22) or `random`; `reshuffle` is `lazy` or `eager` (R11).
        """
        v = find_variant(variant) if isinstance(variant, str) else variant
        rng = random.Random(seed)
        pos = cls(v, reshuffle=_choice("reshuffle", reshuffle, Reshuffle), rng=rng)
        cards = list(range(24))
        shuffle(rng, cards)
        n = v.hand_limit
        for s in range(len(v.seats)):
            pos.hands[s] = cards[s * n:(s + 1) * n]
        pos.pile = cards[len(v.seats) * n:][::-1]
        if _choice("first", first, First) == First.RANDOM:
            pos.to_move = rng.randrange(len(v.seats))
        return pos

    def copy(self, stack: bool = False, rng: random.Random | None = None) -> Position:
        """An independent copy; with `stack=True` it can also be unmade to the start.

        The copy reshuffles (R11) as the original would, or with `rng` when given.
        """
        pos = Position.__new__(Position)
        pos.variant = self.variant
        pos.n_seats = self.n_seats
        pos.hand_limit = self.hand_limit
        pos.board = self.board[:]
        pos.bits = self.bits[:]
        pos.crown = self.crown
        pos.stones = self.stones
        pos.hands = [h[:] for h in self.hands]
        pos.heroes = self.heroes[:]
        pos.pile = self.pile[:]
        pos.discard = self.discard[:]
        pos.to_move = self.to_move
        pos.reshuffle = self.reshuffle
        if rng is None:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
        pos.rng = rng
        pos.stack = self.stack[:] if stack else []
        return pos

    def determinized(self, rng: random.Random) -> Position:
        """A copy in which the draw pile is shuffled by `rng`: what a player may know (R7).

        Everything at the table is open except the order of the face-down pile, so a
        player's search must start from a copy like this, never from the real pile.
        """
        pos = self.copy(rng=rng)  # later reshuffles are the player's guesses, never the game's
        shuffle(rng, pos.pile)
        return pos

    def to_json(self, pile: bool = True) -> dict[str, Any]:
        """The position as a NOTATION.md JSON dict (see engine.serialize)."""
        return serialize.to_json(self, pile)

    @classmethod
    def from_json(cls, obj: object, seed: int | None = None, reshuffle: str = Reshuffle.LAZY) -> Position:
        """The position a NOTATION.md JSON dict describes; PositionError names the fault.

        When `draw_pile` is absent, the cards in no hand and not discarded form the pile
        in an order drawn from `seed`; `seed` also drives later reshuffles (R11).
        """
        f = serialize.read(obj)
        pos = cls(f.variant, reshuffle=_choice("reshuffle", reshuffle, Reshuffle), rng=random.Random(seed))
        pos.board, pos.bits, pos.stones, pos.crown, pos.to_move = f.board, f.bits, f.stones, f.crown, f.to_move
        pos.hands, pos.heroes, pos.discard = f.hands, f.heroes, f.discard
        if f.pile is None:
            held = {c for cards in f.hands for c in cards}.union(f.discard)
            pos.pile = [c for c in range(24) if c not in held]
            shuffle(pos.rng, pos.pile)
        else:
            pos.pile = f.pile
        return pos

    # --- who is who -------------------------------------------------------

    @property
    def seat(self) -> str:
        """The name of the seat to move, e.g. `red` or `white2`."""
        return self.variant.seats[self.to_move]

    @property
    def supply(self) -> int:
        """Stones left in the shared supply (R4)."""
        return STONES - self.stones

    # --- legal moves ------------------------------------------------------

    def actions(self, seat: int) -> list[Move]:
        """The actions seat `seat` could take if it were to move (R9–R13), ignoring the end."""
        target = TARGETS[self.crown]
        board = self.board
        hand = self.hands[seat]
        out = []
        if self.heroes[seat]:
            mine = (seat & 1) + 1
            for card in hand:
                t = target[card]
                if t >= 0:
                    s = board[t]
                    if not s:
                        out.append(MOVES[card])  # R10
                    elif s != mine:
                        out.append(_HEROES[card])  # R12
        else:
            for card in hand:
                t = target[card]
                if t >= 0 and not board[t]:
                    out.append(MOVES[card])  # R10
        if len(hand) < self.hand_limit:
            out.append(_DRAW)  # R11
        return out

    def can_act(self, seat: int) -> bool:
        """Whether seat `seat` has any action (R14): a free draw, a card or a hero move."""
        hand = self.hands[seat]
        if len(hand) < self.hand_limit:
            return True
        target = TARGETS[self.crown]
        board = self.board
        mine = (seat & 1) + 1
        hero = self.heroes[seat] > 0
        for card in hand:
            t = target[card]
            if t >= 0:
                s = board[t]
                if not s or (hero and s != mine):
                    return True
        return False

    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to move; `[pass]` when it must pass (R14), [] when over."""
        if self.stones >= STONES:
            return []  # R16
        out = self.actions(self.to_move)
        if out:
            return out
        n = len(self.hands)
        for k in range(1, n):
            if self.can_act((self.to_move + k) % n):
                return [MOVES[PASS]]  # R14, R22: skipped
        return []  # R17: blockade

    def outcome(self) -> Outcome | None:
        """Why the game is over — `last-stone` (R16) or `blockade` (R17) — or None."""
        if self.stones >= STONES:
            return Outcome.LAST_STONE
        if any(self.can_act(s) for s in range(len(self.hands))):
            return None
        return Outcome.BLOCKADE

    def is_over(self) -> bool:
        """Whether the game has ended (R16, R17)."""
        return self.outcome() is not None

    def why_illegal(self, move: int | str) -> str | None:
        """None if `move` (a Move, a number 0–49 or its notation) is legal here, else the reason in words."""
        move = Move(move)
        if move in self.legal_moves():
            return None
        reason = self.outcome()
        if reason:
            return f"the game is over ({reason})"
        who = self.seat
        hand = self.hands[self.to_move]
        if move.is_pass:
            return f"{who} has a legal action, so may not pass (R14)"
        if move.is_draw:
            return f"{who} already holds {len(hand)} cards (R11)"
        if not self.actions(self.to_move):
            return f"{who} has no legal action and must pass (R14)"
        card = int(move) % HERO
        name = CARD_NAMES[card]
        if card not in hand:
            return f"{who} does not hold {name}"
        t = TARGET[self.crown * 24 + card]
        if t < 0:
            return f"{name} from {square_name(self.crown)} leaves the board (R10, R13)"
        here = self.board[t]
        if here == (self.to_move & 1) + 1:
            return f"{square_name(t)} holds {who}'s own stone (R13)"
        if move.is_hero and not here:
            return f"a hero needs an opponent's stone, and {square_name(t)} is empty (R12, R13)"
        if move.is_hero:
            return f"{who} has no hero left (R12)"
        return f"{square_name(t)} holds an opponent's stone: that takes a hero (R10, R12)"

    # --- make and unmake --------------------------------------------------

    def play(self, move: int | str) -> Move:
        """Check `move` (a Move, a number 0–49 or its notation) and make it; IllegalMoveError if not legal."""
        move = Move(move)
        reason = self.why_illegal(move)
        if reason:
            raise IllegalMoveError(f"{move}: {reason}")
        self.push(move)
        return move

    def push(self, move: int, card: int | None = None) -> None:
        """Make a legal move. For a draw, `card` names the card to take (a replayed record)."""
        move = _INT[move]  # a plain int keeps the interpreter's fast paths for int arithmetic
        seat = self.to_move
        if move < DRAW:
            hand = self.hands[seat]
            if move < HERO:
                c = move
                self.stones += 1  # R10: a stone from the supply
            else:
                c = move - HERO
            i = hand.index(c)
            del hand[i]
            self.discard.append(c)  # R10, R12: the power card is discarded
            crown = self.crown
            t = TARGETS[crown][c]
            colour = seat & 1
            self.board[t] = colour + 1
            bit = 1 << t
            bits = self.bits
            bits[colour] |= bit
            if move >= HERO:
                bits[1 - colour] ^= bit  # R12: the stone is flipped
                self.heroes[seat] -= 1  # R12: the hero leaves the game
            self.stack.append((move, i, crown))
            self.crown = t
        elif move == DRAW:
            # Keep the piles when this draw may reshuffle (R11), so that pop restores them.
            pile = self.pile
            saved: tuple[list[int], list[int]] | None = None
            if len(pile) < 2 or (card is not None and pile[-1] != card):
                saved = (pile[:], self.discard[:])
                if not pile:
                    self._reshuffle()  # R11: lazy, at the next draw
                    pile = self.pile
            if card is None:
                card = pile.pop()
            else:
                pile.remove(card)
            self.hands[seat].append(card)
            if not pile and self.reshuffle == Reshuffle.EAGER:
                self._reshuffle()  # R11 option: eager, on the last card
            self.stack.append((move, card, saved))
        else:
            self.stack.append((move, 0, None))  # R14
        seat += 1
        self.to_move = seat if seat < self.n_seats else 0

    def _reshuffle(self) -> None:
        """Shuffle the discard pile into the empty draw pile (R11).

        A Fisher–Yates shuffle on `rng.random()`: the same order on every machine, and
        several times cheaper than `random.shuffle`, which random games call often.
        """
        pile = self.pile = self.discard
        rand = self.rng.random
        for i in range(len(pile) - 1, 0, -1):
            j = int(rand() * FLOATS[i + 1])
            pile[i], pile[j] = pile[j], pile[i]
        self.discard = []

    def pop(self) -> Move:
        """Unmake the last move exactly and return it."""
        move, a, b = self.stack.pop()
        seat = self.to_move = (self.to_move or self.n_seats) - 1
        if move < DRAW:
            t = self.crown
            c = self.discard.pop()
            self.hands[seat].insert(a, c)
            self.crown = b
            colour = seat & 1
            if move < HERO:
                self.board[t] = 0
                self.bits[colour] ^= 1 << t
                self.stones -= 1
            else:
                self.board[t] = 2 - colour
                self.bits[colour] ^= 1 << t
                self.bits[1 - colour] |= 1 << t
                self.heroes[seat] += 1
        elif move == DRAW:
            self.hands[seat].pop()
            if b is None:
                self.pile.append(a)
            else:
                self.pile, self.discard = b[0][:], b[1][:]
        return MOVES[move]

    # --- the result -------------------------------------------------------

    def score(self) -> Score:
        """Both colours' standing (R18) and the winner by R19."""
        red, white = (scoring.Side.of(b) for b in self.bits)
        return Score(red, white, scoring.winner(red.figures, white.figures), self.outcome())

    def last_drawn(self) -> int:
        """The card the last move drew; only meaningful when that move was a draw."""
        return self.stack[-1][1]

    def history(self) -> list[str]:
        """The moves made so far in record notation; draws name their card (`draw:SW3`)."""
        return [_notation(m, a) for m, a, _ in self.stack]

    def last_move(self) -> str | None:
        """The last move in record notation (`history()[-1]`, without the others), None before the first."""
        return _notation(self.stack[-1][0], self.stack[-1][1]) if self.stack else None

    def __eq__(self, other: object) -> bool:
        """Positions are equal when board, crown, hands, heroes, both piles and turn are equal."""
        return isinstance(other, Position) and self._key() == other._key()

    def _key(self) -> tuple[object, ...]:
        return (self.variant, self.board, self.crown, self.hands, self.heroes,
                self.pile, self.discard, self.to_move)

    __hash__ = None  # type: ignore[assignment]  # positions change: not hashable

    def __str__(self) -> str:
        """The board as a person sees it from Red's seat: rank 9 at the top, `*` an empty crown square."""
        rows = serialize.board_rows(self.board)
        if not self.board[self.crown]:
            r, f = 8 - self.crown // 9, self.crown % 9
            rows[r] = rows[r][:f] + "*" + rows[r][f + 1:]
        return "\n".join(f"{9 - i} {row}" for i, row in enumerate(rows)) + "\n  " + FILES

    def __repr__(self) -> str:
        return (f"<Position {self.variant.name}: {self.seat} to move, crown {square_name(self.crown)}, "
                f"{self.stones} stones, {len(self.stack)} moves made>")


@dataclass(slots=True)
class Score:
    """The standing of both colours: `red` and `white` (scoring.Side), `winner` (R19), `reason` (None while playing)."""

    red: scoring.Side
    white: scoring.Side
    winner: Winner
    reason: Outcome | None

    @property
    def over(self) -> bool:
        """Whether the game has ended, so that `winner` stands."""
        return self.reason is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of `roseking score`."""
        def side(s: scoring.Side) -> dict[str, Any]:
            return {"score": s.score, "largest": s.largest, "stones": s.stones,
                    "regions": [[square_name(q) for q in scoring.squares(r)] for r in s.regions]}
        return {"red": side(self.red), "white": side(self.white), "winner": self.winner,
                "over": self.over, "reason": self.reason}


_INT: Final = tuple(range(len(MOVES)))  # Move -> the same number as a plain int
_DRAW: Final = MOVES[DRAW]
_HEROES: Final = MOVES[HERO:DRAW]  # card -> the hero move with that card
TARGETS: Final = tuple(TARGET[sq * 24:sq * 24 + 24] for sq in range(81))  # crown -> card -> target square or -1
FLOATS: Final = tuple(float(n) for n in range(26))  # n -> n as a float: the compiled core multiplies floats unboxed


def _notation(move: int, drawn: int) -> str:
    """A move of the stack in record notation: a draw names its card."""
    return f"draw:{CARD_NAMES[drawn]}" if move == DRAW else str(MOVES[move])


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` would, about 1.7 times faster.

    CPython's Fisher–Yates on `getrandbits`, without its `_randbelow` call per item: a seed
    deals the same game as with `random.shuffle`, and deals are a tenth of a random game.

    >>> a, b = list(range(24)), list(range(24))
    >>> shuffle(random.Random(7), a); random.Random(7).shuffle(b); a == b
    True
    """
    getrandbits = rng.getrandbits
    n = len(items)
    lengths = _LENGTHS if n <= len(_LENGTHS) else [(i + 1).bit_length() for i in range(n)]
    for i in range(n - 1, 0, -1):
        k = lengths[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_LENGTHS: Final = tuple((i + 1).bit_length() for i in range(64))  # i -> the bits of a number 0 … i


def _choice(name: str, value: str, allowed: type[StrEnum]) -> Any:
    """`value` as a member of the enum `allowed`; RoseKingError names the choices otherwise."""
    member = _MEMBERS[allowed].get(value) if isinstance(value, str) else None
    if member is None:
        raise RoseKingError(f"{name}: {value!r} is not one of {', '.join(allowed)}")
    return member


_MEMBERS: dict[type[StrEnum], dict[str, StrEnum]] = {e: {m.value: m for m in e} for e in (Reshuffle, First)}
"""Each option's members by value: quicker than calling the enum, which a deal does twice."""
