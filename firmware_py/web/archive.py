"""The table's archive (`DATA/records.jsonl`) as the pages read it: recent games, one game move by move,
the club's ladder.

The archive only grows (whole lines, `firmware_py.table.saves`), so it is read once and then
only what was appended; a game is known by its line number, which never changes. Every game
shown is replayed by the engine (`engine.tally.facts`, `engine.record.replay`): the pages show
what the moves give, never what a line claims. The ladder ranks the people named in the
records (`names`) by the report's own Elo with its 95% interval (`firmware_py.report.elo`),
from their finished two-player games against each other.

The work is plain blocking file reading and replaying: the server runs it off the loop's
thread, one call at a time (`Archive.lock`).
"""
import dataclasses
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from engine.errors import RoseKingError
from engine.jsonio import MAX_BYTES, loads
from engine.notation import square_name
from engine.record import replay
from engine.tally import Facts, Tally, facts
from engine.variants import COLOURS, variant
from firmware_py.table.game import movers
from firmware_py.table.scenes import board_at
from firmware_py.table.state import stones_of
from hardware.frame import hex_colour

CHUNK = 1 << 20
KEPT = 512              # games remembered besides the ladder's
NAMED = b'"names"'      # a line without it names nobody: the ladder need not replay it


@dataclasses.dataclass(frozen=True)
class Entry:
    """A game of the archive: its replayed `facts` and the `names` of the people at its seats."""
    facts: Facts
    names: dict[str, str]


class Archive:
    """The records file at `path` (it need not exist yet)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self._identity: tuple[int, int] | None = None    # (device, inode) of the file read
        self._read = 0                                   # bytes read into `_lines`
        self._lines: list[tuple[int, int]] = []          # (offset, length) of each whole line, line 1 first
        self._named: dict[int, Entry | None] = {}        # line -> its game, for the lines that name people
        self._games: OrderedDict[int, Entry | None] = OrderedDict()     # line -> its game, lately asked for

    # --- reading ----------------------------------------------------------

    def refresh(self) -> None:
        """Take in what was appended since the last call (all of it again if the file was replaced or cut)."""
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            info = None
        identity = (info.st_dev, info.st_ino) if info is not None else None
        if identity != self._identity or info is None or info.st_size < self._read:
            self._identity, self._read = identity, 0
            self._lines, self._named, self._games = [], {}, OrderedDict()
        if info is None or info.st_size == self._read:
            return
        with open(self.path, "rb") as f:
            f.seek(self._read)
            rest = b""
            while chunk := f.read(CHUNK):
                data = rest + chunk
                start = 0
                base = self._read - len(rest)
                while (end := data.find(b"\n", start)) >= 0:
                    self._take(base + start, data[start:end])
                    start = end + 1
                self._read = base + start
                rest = data[start:]
                if len(rest) > MAX_BYTES:       # a line too long to be a record: passed over
                    self._read += len(rest)
                    rest = b""

    def _take(self, offset: int, line: bytes) -> None:
        self._lines.append((offset, len(line)))
        if NAMED in line:
            self._named[len(self._lines)] = self._entry(len(self._lines), line)

    def _line(self, number: int) -> bytes:
        offset, length = self._lines[number - 1]
        with open(self.path, "rb") as f:
            f.seek(offset)
            return f.read(length)

    def _record(self, number: int, line: bytes | None = None) -> Any:
        """The record on line `number`; None for a blank line, a torn one or one that is no record."""
        data = self._line(number) if line is None else line
        if not data.strip() or len(data) > MAX_BYTES:
            return None
        try:
            return loads(data.decode("utf-8"), f"{self.path.name}:{number}")
        except (RoseKingError, UnicodeDecodeError):
            return None

    def _entry(self, number: int, line: bytes | None = None) -> Entry | None:
        """The game on line `number`, replayed; None if it is no game that replays (remembered)."""
        if number in self._named:
            return self._named[number]
        if number in self._games:
            self._games.move_to_end(number)
            return self._games[number]
        record = self._record(number, line)
        try:
            found = Entry(facts(record, self.path.name, number), record.get("names", {})) \
                if isinstance(record, dict) else None
        except RoseKingError:
            found = None
        self._games[number] = found
        if len(self._games) > KEPT:
            self._games.popitem(last=False)
        return found

    # --- what the pages ask -------------------------------------------------

    def recent(self, count: int, look: int = 400) -> list[dict[str, Any]]:
        """The last `count` finished games, newest first (among the last `look` lines)."""
        self.refresh()
        out: list[dict[str, Any]] = []
        for number in range(len(self._lines), max(0, len(self._lines) - look), -1):
            if len(out) == count:
                break
            entry = self._entry(number)
            if entry is not None and entry.facts.winner is not None:
                f = entry.facts
                out.append({"line": number, "variant": f.variant, "seed": f.seed,
                            "players": dict(zip(variant(f.variant).seats, f.players)), "names": entry.names,
                            "scores": {"red": f.scores[0], "white": f.scores[1]}, "winner": f.winner,
                            "reason": f.reason, "moves": f.moves})
        return out

    def _document(self, number: int) -> dict[str, Any] | None:
        self.refresh()
        if not 1 <= number <= len(self._lines):
            return None
        record = self._record(number)
        return record if isinstance(record, dict) else None

    def record(self, number: int) -> dict[str, Any] | None:
        """The record on line `number`, if it holds a game that replays (None else)."""
        record = self._document(number)
        if record is None:
            return None
        try:
            replay(record, f"{self.path.name}:{number}")
        except RoseKingError:
            return None
        return record

    def game(self, number: int) -> dict[str, Any] | None:
        """Game `number` move by move, for the replay viewer (`plies`); None if that line holds no game."""
        record = self._document(number)
        try:
            return None if record is None else {"line": number, **plies(record, f"{self.path.name}:{number}")}
        except RoseKingError:
            return None

    def ladder(self) -> dict[str, Any]:
        """The club's ladder: each member's Elo with its 95% interval, games, wins, draws, losses and score,
        best first, and each member's games (newest first) with their line numbers, from the finished
        two-player games whose both seats are named."""
        from firmware_py.report.elo import elo_ratings_with_errors    # numpy: loaded once a ladder is asked for
        self.refresh()
        tally = Tally("classic")
        games: dict[str, list[dict[str, Any]]] = {}
        for number, entry in self._named.items():
            if entry is None or entry.facts.winner is None or entry.facts.variant != "classic" \
                    or set(entry.names) != set(COLOURS):
                continue
            f, people = entry.facts, tuple(entry.names[c] for c in COLOURS)
            tally.add(dataclasses.replace(f, players=people))
            for k, colour in enumerate(COLOURS):
                result = "draw" if f.winner == "draw" else "won" if f.winner == colour else "lost"
                games.setdefault(people[k], []).append(
                    {"line": number, "colour": colour, "opponent": people[1 - k], "result": result,
                     "score": f"{f.scores[k]}–{f.scores[1 - k]}"})
        if not tally.standings.pairs:
            return {"members": [], "games": 0}
        table = tally.standings.to_dict()
        elo = elo_ratings_with_errors(table)
        members = sorted(table["players"], key=lambda p: -elo[p["player"]][0])
        return {"games": tally.summary.games, "members": [
            {"name": p["player"], "elo": round(elo[p["player"]][0]), "plus_minus": round(elo[p["player"]][1]),
             "games": p["games"], "wins": p["wins"], "draws": p["draws"], "losses": p["losses"],
             "score": p["score"], "played": games[p["player"]][::-1]} for p in members]}


def plies(record: dict[str, Any], where: str) -> dict[str, Any]:
    """A game `record` (one that replays; RecordError else, naming `where`) move by move, for the replay
    viewer: after each move the board as the table lights it and in words (each colour's stones, the crown), the
    move in notation, who made it, the scores (R18) and the stones left; the players, their names and the result."""
    end = replay(record, where)
    tokens = end.history()
    pos = end.copy(stack=True)
    out: list[dict[str, Any]] = []
    while True:
        score = pos.score()
        red, white = stones_of(pos)
        out.append({"board": [hex_colour(c) for c in board_at(pos)], "crown": square_name(pos.crown),
                    "red_stones": list(red), "white_stones": list(white),
                    "scores": {"red": score.red.score, "white": score.white.score},
                    "stones_left": pos.supply, "to_move": pos.seat})
        if not pos.stack:
            break
        pos.pop()
    out.reverse()
    for n, (seat, token) in enumerate(zip(movers(end), tokens), 1):
        out[n]["move"] = token
        out[n]["by"] = seat
    score = end.score()
    return {"variant": end.variant.name, "seed": record.get("seed"), "players": record.get("players"),
            "names": record.get("names", {}),
            "result": {"winner": score.winner if score.over else None, "reason": score.reason or "unfinished"},
            "plies": out}
