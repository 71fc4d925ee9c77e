"""One pass over game records: the simulation summary and the counts `roseking report` draws.

Every game is replayed (`engine.record.replay` checks each move and the stored result);
what is kept are running sums and histograms, never the games, so a report of millions
of games takes little memory, and reports of consecutive parts of the records merge into
the report of the whole (`Report.merge`). Each variant is tallied on its own (R20–R22).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.outcomes import Outcome, Winner
from engine.record import replay
from engine.scoring import figures, squares, winner
from engine.simulate import Game
from engine.summary import Summary
from engine.tournament import Standings
from engine.variants import COLOURS, Variant
from engine.variants import variant as find_variant

SQUARES = 81
CROWN_START = 40  # e5 (R6)
KINDS = ("stones", "heroes", "draws", "passes")  # what a seat's moves did (R10, R12, R11, R14)
CSV_COLUMNS = ("file", "line", "variant", "seed", "players", "first", "red_score", "white_score", "red_largest",
               "white_largest", "red_stones", "white_stones", "red_heroes", "white_heroes", "moves", "reason",
               "winner")


@dataclass(frozen=True)
class Facts:
    """One replayed game: what the CSV row and the report need of it."""

    file: str
    line: int
    variant: str
    seed: int | None
    players: tuple[str, ...]  # one name per seat, in seat order
    first: int  # the colour that moved first: 0 red, 1 white
    scores: tuple[int, int]  # red, white (R18)
    largest: tuple[int, int]  # largest region, red and white (R19)
    stones: tuple[int, int]  # stones on the board, red and white
    kinds: tuple[tuple[int, int, int, int], ...]  # per seat: stones placed, heroes, draws, passes
    hero_moves: tuple[tuple[int, int], ...]  # (move number from 1, seat) of every hero move
    moves: int  # all moves, draws and passes included
    reason: Outcome | None  # last-stone (R16) or blockade (R17); None while unfinished
    winner: Winner | None  # red, white or draw (R19); None while unfinished
    bits: tuple[int, int]  # the final board: red stones, white stones (bitboards)

    @property
    def heroes(self) -> tuple[int, int]:
        """Heroes used by each colour, its seats together (R5, R21)."""
        return (sum(k[1] for k in self.kinds[0::2]), sum(k[1] for k in self.kinds[1::2]))

    def game(self, index: int = 0) -> Game:
        """The engine.simulate.Game of a finished game, as `Summary.add` takes it (a missing seed is 0)."""
        assert self.winner is not None, "an unfinished game has no Game"
        return Game(index, self.seed or 0, self.players, self.winner, self.scores[0], self.scores[1], self.moves,
                    self.reason, self.first, self.heroes, None)

    def row(self) -> dict[str, Any]:
        """The CSV row (CSV_COLUMNS): `players` in seat order as `--players` takes them, `first` the
        colour that moved first, `winner` empty while unfinished."""
        return {"file": self.file, "line": self.line, "variant": self.variant, "seed": self.seed,
                "players": ",".join(self.players), "first": COLOURS[self.first],
                **{f"{c}_{key}": v[k] for key, v in (("score", self.scores), ("largest", self.largest),
                                                     ("stones", self.stones), ("heroes", self.heroes))
                   for k, c in enumerate(COLOURS)},
                "moves": self.moves, "reason": self.reason or "unfinished", "winner": self.winner or ""}

    def sides(self) -> tuple[str, str]:
        """The name of each colour's side: its player, or its players joined by `+` (teams, R20)."""
        return ("+".join(dict.fromkeys(self.players[0::2])), "+".join(dict.fromkeys(self.players[1::2])))


def facts(record: Any, file: str, line: int) -> Facts:
    """Replay one record (RecordError names `file:line` and the fault) and take its facts."""
    end = replay(record, where=f"{file}:{line}")
    seats = len(end.variant.seats)
    first = (end.to_move - len(end.stack)) % seats
    kinds = [[0, 0, 0, 0] for _ in range(seats)]
    hero_moves = []
    for n, token in enumerate(record["moves"]):
        seat = (first + n) % seats  # every move, a pass too, hands the turn on (R14, R22)
        kind = 1 if token[:2].upper() == "H+" else 2 if token[:4].lower() == "draw" else \
            3 if token.lower() == "pass" else 0
        kinds[seat][kind] += 1
        if kind == 1:
            hero_moves.append((n + 1, seat))
    red, white = figures(end.bits[0]), figures(end.bits[1])
    reason = end.outcome()
    players = record.get("players")
    names = tuple(str(players.get(s, "?")) if isinstance(players, dict) else "?" for s in end.variant.seats)
    seed = record.get("seed")
    return Facts(file, line, end.variant.name, seed if isinstance(seed, int) else None, names, first & 1,
                 (red[0], white[0]), (red[1], white[1]), (red[2], white[2]),
                 tuple((a, b, c, d) for a, b, c, d in kinds), tuple(hero_moves), len(end.stack),
                 reason, winner(red, white) if reason else None, (end.bits[0], end.bits[1]))


class Tally:
    """Everything the report shows of one variant's games, added one game at a time."""

    def __init__(self, variant: str) -> None:
        self.variant: Variant = find_variant(variant)
        seats = len(self.variant.seats)
        self.summary = Summary()
        self.standings = Standings()
        self.orientation: dict[frozenset[str], tuple[str, str]] = {}  # a pairing as first met
        self.unfinished = 0
        self.scores: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        self.margin: Counter[int] = Counter()
        self.length: Counter[int] = Counter()
        self.heroes_used: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        self.hero_moves: list[Counter[int]] = [Counter() for _ in range(seats)]
        self.kinds = [[0] * len(KINDS) for _ in range(seats)]
        self.seat_players: list[Counter[str]] = [Counter() for _ in range(seats)]
        self.colour_squares = ([0] * SQUARES, [0] * SQUARES)
        self.winner_squares, self.loser_squares = [0] * SQUARES, [0] * SQUARES

    def add(self, f: Facts) -> None:
        """Count one game; an unfinished one only as such."""
        if f.winner is None:
            self.unfinished += 1
            return
        self.summary.add(f.game(self.summary.games))
        sides = f.sides()
        if sides[0] != sides[1]:
            pair = self.orientation.setdefault(frozenset(sides), sides)
            self.standings.add(pair, [f.game()._replace(players=sides)])
        for c in (0, 1):
            self.scores[c][f.scores[c]] += 1
            self.heroes_used[c][f.heroes[c]] += 1
            for sq in squares(f.bits[c]):
                self.colour_squares[c][sq] += 1
        self.margin[f.scores[0] - f.scores[1]] += 1
        self.length[f.moves] += 1
        for n, seat in f.hero_moves:
            self.hero_moves[seat][n] += 1
        for seat, kinds in enumerate(f.kinds):
            self.seat_players[seat][f.players[seat]] += 1
            for k, count in enumerate(kinds):
                self.kinds[seat][k] += count
        if f.winner != Winner.DRAW:
            won = COLOURS.index(f.winner)
            for sq in squares(f.bits[won]):
                self.winner_squares[sq] += 1
            for sq in squares(f.bits[1 - won]):
                self.loser_squares[sq] += 1

    def merge(self, other: Tally) -> None:
        """Count the games `other` counted, as if added after these ones."""
        self.summary.merge(other.summary)
        self.standings.merge(other.standings)
        for sides, pair in other.orientation.items():
            self.orientation.setdefault(sides, pair)
        self.unfinished += other.unfinished
        counters: list[tuple[Counter[Any], Counter[Any]]] = [
            (self.margin, other.margin), (self.length, other.length), *zip(self.scores, other.scores),
            *zip(self.heroes_used, other.heroes_used), *zip(self.hero_moves, other.hero_moves),
            *zip(self.seat_players, other.seat_players)]
        for mine, theirs in counters:
            mine.update(theirs)
        for mine_list, theirs_list in (*zip(self.kinds, other.kinds), *zip(self.colour_squares, other.colour_squares),
                                       (self.winner_squares, other.winner_squares),
                                       (self.loser_squares, other.loser_squares)):
            for k, v in enumerate(theirs_list):
                mine_list[k] += v

    def to_dict(self) -> dict[str, Any]:
        """The tally as plain data: the summary's figures, histograms, per-seat sums, the board
        counts per square (a1 = 0 … i9 = 80) and, when two different sides met, the standings."""
        summary = self.summary.to_dict()
        n = summary["games"]
        return {
            "variant": self.variant.name,
            "games": n,
            "unfinished": self.unfinished,
            "summary": summary,
            "histograms": {
                "score": {c: dict(sorted(self.scores[k].items())) for k, c in enumerate(COLOURS)},
                "margin_red": dict(sorted(self.margin.items())),
                "moves": dict(sorted(self.length.items())),
                "heroes_used": {c: dict(sorted(self.heroes_used[k].items())) for k, c in enumerate(COLOURS)},
                "hero_moves": {s: dict(sorted(self.hero_moves[k].items())) for k, s in enumerate(self.variant.seats)},
            },
            "seats": {s: {"players": dict(self.seat_players[k].most_common()),
                          **{kind: self.kinds[k][i] for i, kind in enumerate(KINDS)}}
                      for k, s in enumerate(self.variant.seats)},
            "board": {"red": self.colour_squares[0], "white": self.colour_squares[1],
                      "winner": self.winner_squares, "loser": self.loser_squares,
                      "decided": n - summary["colours"]["draws"]},
            "tournament": self.standings.to_dict() if self.standings.pairs else None,
        }


class Report:
    """A Tally per variant, in the order the variants are met."""

    def __init__(self) -> None:
        self.tallies: dict[str, Tally] = {}

    def add(self, f: Facts) -> None:
        if f.variant not in self.tallies:
            self.tallies[f.variant] = Tally(f.variant)
        self.tallies[f.variant].add(f)

    def merge(self, other: Report) -> None:
        """Count the games `other` counted, as if added after these ones."""
        for name, tally in other.tallies.items():
            if name in self.tallies:
                self.tallies[name].merge(tally)
            else:
                self.tallies[name] = tally

    def to_dict(self) -> dict[str, Any]:
        """One entry per variant met, in that order."""
        return {name: t.to_dict() for name, t in self.tallies.items()}
