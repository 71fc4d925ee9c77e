"""`roseking report` (issue 11): figures, page and CSV of game records, in one streaming pass."""
from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import re
import sys
import tempfile
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import processes
from engine.record import read_records, replay
from engine.tally import CSV_COLUMNS, SQUARES, Tally, facts
from engine.variants import COLOURS
from firmware_py.cli import main
from firmware_py.inputs import read_lines
from firmware_py.report.elo import elo_intervals

FIGURES = ["results", "scores", "length", "heroes", "board", "tournament"]


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def simulate(path: Path, *argv: str) -> dict[str, Any]:
    """Records at `path`; the summary `roseking simulate --json` printed for them."""
    code, out, err = cli("simulate", "--records", str(path), "--json", *argv)
    assert code == 0, err
    summary: dict[str, Any] = json.loads(out)
    return summary


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Records of a classic and a teams simulation with fixed seeds, their summaries, and one report of both."""
    tmp = tmp_path_factory.mktemp("report")
    classic, teams = tmp / "classic.jsonl", tmp / "teams.jsonl"
    summaries = {"classic": simulate(classic, "--games", "40", "--seed", "5", "--players", "random,greedy"),
                 "teams": simulate(teams, "--games", "24", "--seed", "3", "--variant", "teams",
                                   "--players", "greedy,random")}
    out, table, numbers = tmp / "out", tmp / "games.csv", tmp / "numbers.json"
    code, _, err = cli("report", str(classic), str(teams), "--out", str(out), "--csv", str(table), "--json",
                       str(numbers))
    assert code == 0, err
    return {"files": {"classic": classic, "teams": teams}, "summaries": summaries, "out": out, "csv": table,
            "json": numbers, "report": json.loads((out / "report.json").read_text())}


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A tournament's records and table (`--json`) and the report of the records."""
    tmp = tmp_path_factory.mktemp("tournament")
    records, out = tmp / "t.jsonl", tmp / "out"
    code, printed, err = cli("tournament", "--players", "random,greedy,easy:2", "--games", "4", "--seed", "2",
                             "--json", "--records", str(records))
    assert code == 0, err
    code, _, err = cli("report", str(records), "--out", str(out))
    assert code == 0, err
    return {"records": records, "table": json.loads(printed), "out": out,
            "report": json.loads((out / "report.json").read_text())}


def finals(path: Path) -> list[Any]:
    """The final position of every game in a records file, replayed here."""
    return [replay(r) for _, r in read_records(read_lines(str(path)))]


@pytest.mark.parametrize("variant", ["classic", "teams"])
def test_the_reports_numbers_are_the_summarys(runs: dict[str, Any], variant: str) -> None:
    """Wins per colour/team and player with Wilson intervals, draws, scores, moves, ends (R16, R17), heroes."""
    tally = runs["report"][variant]
    assert tally["summary"] == runs["summaries"][variant]
    assert tally["games"] == runs["summaries"][variant]["games"] and tally["unfinished"] == 0
    page = (runs["out"] / "index.html").read_text()
    for c in COLOURS:  # the page shows the same rates and intervals
        r = tally["summary"]["colours"][c]
        assert f"{100 * r['rate']:.1f}% <small>[{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}]" in page


@pytest.mark.parametrize("variant", ["classic", "teams"])
def test_the_heat_map_adds_up_to_the_stones_on_the_final_boards(runs: dict[str, Any], variant: str) -> None:
    """Per square and colour, the board counts equal the stones read off every replayed final board (R18, R19)."""
    board = runs["report"][variant]["board"]
    expected = {c: [0] * SQUARES for c in ("R", "W")}
    won = [0] * SQUARES
    for pos in finals(runs["files"][variant]):
        rows = pos.to_json()["board"]  # rank 9 first, file a first (NOTATION.md)
        for sq in range(SQUARES):
            stone = rows[8 - sq // 9][sq % 9]
            if stone != ".":
                expected[stone][sq] += 1
        score = pos.score()
        if score.winner != "draw":
            won = [w + (pos.bits[COLOURS.index(score.winner)] >> sq & 1) for sq, w in enumerate(won)]
    assert board["red"] == expected["R"] and board["white"] == expected["W"]
    assert board["winner"] == won
    assert sum(board["winner"]) + sum(board["loser"]) <= sum(board["red"]) + sum(board["white"])


def test_the_csv_has_one_row_per_game_and_round_trips_the_figures(runs: dict[str, Any]) -> None:
    with open(runs["csv"], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(CSV_COLUMNS)
    for variant, path in runs["files"].items():
        mine = [r for r in rows if r["variant"] == variant]
        records = [r for _, r in read_records(read_lines(str(path)))]
        assert len(mine) == len(records)
        assert [int(r["seed"]) for r in mine] == [r["seed"] for r in records]
        assert [r["players"].split(",") for r in mine] == [list(r["players"].values()) for r in records]
        summary = runs["report"][variant]["summary"]
        for c in COLOURS:
            assert sum(r["winner"] == c for r in mine) == summary["colours"][c]["wins"]
            assert round(sum(int(r[f"{c}_score"]) for r in mine) / len(mine), 2) == summary["scores"][c]["mean"]
            assert round(sum(int(r[f"{c}_heroes"]) for r in mine) / len(mine), 2) == \
                summary["heroes_used"][c]["mean"]
            assert sum(int(r[f"{c}_stones"]) for r in mine) == sum(runs["report"][variant]["board"][c])
        assert round(sum(int(r["moves"]) for r in mine) / len(mine), 2) == summary["moves"]["mean"]
        assert {k: sum(r["reason"] == k for r in mine) for k in summary["reasons"]} == summary["reasons"]
        for r, record in zip(mine, records):  # R19: higher score, then larger region, then more stones
            red = (int(r["red_score"]), int(r["red_largest"]), int(r["red_stones"]))
            white = (int(r["white_score"]), int(r["white_largest"]), int(r["white_stones"]))
            assert r["winner"] == ("red" if red > white else "white" if white > red else "draw")
            assert r["winner"] == record["result"]["winner"]


def test_the_page_and_every_image_exist_and_open_at_the_stated_size(runs: dict[str, Any]) -> None:
    out = runs["out"]
    page = (out / "index.html").read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//|<script|<link""", page)  # offline: nothing fetched
    shown = re.findall(r'<figure id="([\w-]+)">.*?<img src="data:image/svg\+xml;base64,[^"]+" '
                       r'width="(\d+)" height="(\d+)"', page)
    # two different sides met (greedy and random), so each variant has its pairing chart too
    assert [name for name, _, _ in shown] == [f"{v}-{f}" for v in ("classic", "teams") for f in FIGURES]
    for name, width, height in shown:
        with Image.open(out / f"{name}.png") as png:
            png.load()
            assert png.format == "PNG" and png.size == (int(width), int(height))
        assert ET.parse(out / f"{name}.svg").getroot().tag == "{http://www.w3.org/2000/svg}svg"


def test_json_gives_the_numbers_of_the_page(runs: dict[str, Any]) -> None:
    """`--json FILE` writes the bytes of the page's report.json (for scripts; test_cluster reads it)."""
    assert runs["json"].read_bytes() == (runs["out"] / "report.json").read_bytes()


def test_teams_are_reported_per_team_and_per_seat(runs: dict[str, Any]) -> None:
    """R20–R22: seats red1, white1, red2, white2 in turn order; teams score and win together."""
    teams = runs["report"]["teams"]
    assert list(teams["seats"]) == ["red1", "white1", "red2", "white2"]
    assert teams["seats"]["red1"]["players"] == {"greedy": 24} and teams["seats"]["white2"]["players"] == {"random": 24}
    for k, moves in enumerate(teams["histograms"]["hero_moves"].values()):
        assert moves and all((n - 1) % 4 == k for n in map(int, moves))  # red1 moves first (R22)
    heroes = sum(s["heroes"] for s in teams["seats"].values())
    assert heroes == sum(int(n) * k for c in COLOURS for n, k in teams["histograms"]["heroes_used"][c].items())
    assert all(int(n) <= 4 for c in COLOURS for n in teams["histograms"]["heroes_used"][c])  # 2 per seat (R21)
    assert "Teams: 24 games" in (runs["out"] / "index.html").read_text()


def test_tournament_records_give_the_tournament_table_and_elo_with_intervals(tournament: dict[str, Any]) -> None:
    table, mine = tournament["table"], tournament["report"]["classic"]["tournament"]
    def rows(t: dict[str, Any]) -> dict[str, dict[str, Any]]:  # records carry no thinking time
        return {r["player"]: {k: v for k, v in r.items() if k != "seconds_per_move"} for r in t["players"]}
    assert rows(mine) == rows(table)
    assert mine["pairings"] == table["pairings"]
    assert (tournament["out"] / "classic-tournament.png").exists()
    page = (tournament["out"] / "index.html").read_text()
    for r in table["players"]:
        elo = re.escape(format(r["elo"], "+d"))
        assert re.search(rf"<td>{re.escape(r['player'])}</td>.*?<td>{elo} ± \d+</td>", page)


def test_the_same_records_give_the_same_files(tournament: dict[str, Any], tmp_path: Path) -> None:
    """The page, every figure as PNG and SVG, the numbers: byte for byte, run after run (no date in them, the
    SVG's ids made from its content), so that a report made on a cluster is the one made in one process
    (test_cluster checks the numbers) and a report can be compared with the last one."""
    code, _, err = cli("report", str(tournament["records"]), "--out", str(tmp_path / "again"))
    assert code == 0, err
    first = {p.name: p.read_bytes() for p in sorted(tournament["out"].iterdir())}
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "again").iterdir())} == first
    assert len([name for name in first if name.endswith((".png", ".svg"))]) == 2 * len(FIGURES)


def test_elo_intervals_narrow_with_more_games() -> None:
    few = elo_intervals({("a", "b"): (30, 40), ("b", "c"): (25, 40)})
    many = elo_intervals({("a", "b"): (300, 400), ("b", "c"): (250, 400)})
    assert sum(r for r, _ in few.values()) == pytest.approx(0, abs=1e-6)
    for name in "abc":
        assert 0 < many[name][1] < few[name][1] / 2.5  # about 1/√10 as wide
    assert many["a"][0] > many["b"][0] > many["c"][0]


def test_a_bad_line_names_file_and_line_and_writes_nothing(tmp_path: Path, runs: dict[str, Any]) -> None:
    good = runs["files"]["classic"].read_text().splitlines()
    record = json.loads(good[1])
    record["moves"][3] = "H+N1"
    path = tmp_path / "bad.jsonl"
    path.write_text(f"{good[0]}\n\n{json.dumps(record)}\n{good[2]}\n")
    out, table = tmp_path / "out", tmp_path / "games.csv"
    code, printed, err = cli("report", str(path), "--out", str(out), "--csv", str(table))
    assert code == 2 and printed == ""
    assert err.startswith(f"error: {path}:3") and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not out.exists() and list(tmp_path.iterdir()) == [path]  # no half-written file


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_torn_line_is_skipped_with_one_warning(tmp_path: Path, runs: dict[str, Any], workers: str) -> None:
    """What a write cut short leaves (not JSON) is no game: skipped, said once, the rest reported."""
    good = runs["files"]["classic"].read_text().splitlines()
    path = tmp_path / "torn.jsonl"
    path.write_text(f"{good[0]}\n{good[1][:500]}\n{good[2]}\npartial")
    table = tmp_path / "games.csv"
    code, printed, err = cli("report", str(path), "--csv", str(table), "--workers", workers)
    assert code == 0 and printed == f"{table}: 2 rows\n"
    warnings = err.splitlines()
    assert [w.partition(": not JSON")[0] for w in warnings] == [f"warning: {path}:2", f"warning: {path}:4"], err
    assert all(w.endswith("; a torn line, skipped") for w in warnings)
    assert [row["line"] for row in csv.DictReader(table.open())] == ["1", "3"]


LINES: list[str] = []


def record_lines() -> list[str]:
    """Three records of whole games, as a records file holds them (built once)."""
    if not LINES:
        from engine.simulate import play
        LINES.extend(play("classic", seed, ("random", "random"), record=True).line for seed in range(3))
    return LINES


RECORD_LINE = st.integers(0, 2).map(lambda k: record_lines()[k])
ZEROS = st.sampled_from(["", "\0" * 40])    # what a file system may leave of an append cut short
BAD_LINE = (st.tuples(ZEROS, RECORD_LINE, st.integers(1, 300), ZEROS).map(lambda c: c[0] + c[1][:c[2]] + c[3])
            | st.sampled_from(["xx", "partial", "# notes", "{oops", "[1,", "{\"", "\0\0\0"]))      # text, not JSON


class Cuts:
    """A Pace that gives the parts the sizes drawn, in turn."""

    def __init__(self, slots: int, sizes: list[int]) -> None:
        self.sizes, self.ahead, self.n = sizes, 3 * slots, 0

    def size(self, kind: str, left: int, unit: int = 1) -> int:
        self.n += 1
        return self.sizes[self.n % len(self.sizes)]

    def observe(self, kind: str, games: int, seconds: float) -> None:
        pass


@settings(max_examples=40, deadline=None)
@given(st.lists(RECORD_LINE | BAD_LINE | st.sampled_from(["", "  "]), max_size=10), st.booleans(),
       st.lists(st.integers(1, 4), min_size=1, max_size=5), st.integers(1, 2500))
def test_report_gives_replays_verdict_on_torn_lines_wherever_the_parts_are_cut(
        lines: list[str], newline: bool, sizes: list[int], part_bytes: int) -> None:
    """Whether a line is torn (skipped with a warning) or an error depends on the lines around it, never on
    where the parts are cut or how many workers replay them (parts of 1 to 4 lines, and of at most
    `part_bytes` where no record ends them): `report` says what `replay` says, with 1 or 2 workers alike."""
    import firmware_py.commands.report as command
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        path.write_text("\n".join(lines) + ("\n" if newline and lines else ""))
        code, out, err = cli("replay", str(path))
        assert "Traceback" not in err
        games = 0 if code or out == "no games\n" else len(out.splitlines())
        table, reports = Path(folder) / "games.csv", []
        for workers in ("1", "2"):
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(command, "Pace", lambda slots: Cuts(slots, sizes))
                mp.setattr(command, "MAX_PART_BYTES", part_bytes)
                reports.append((*cli("report", str(path), "--csv", str(table), "--workers", workers),
                                table.read_text() if table.exists() else None))
        assert reports[0] == reports[1]
        status, printed, warned, rows = reports[0]
        assert (status, warned) == (code, err)
        assert status or (printed == f"{table}: {games} rows\n" and rows.count("\n") == 1 + games)


def test_usage_errors_and_an_existing_directory_keeps_its_files(tmp_path: Path, runs: dict[str, Any]) -> None:
    records = str(runs["files"]["classic"])
    assert cli("report", records)[0] == 2  # neither --out nor --csv
    code, _, err = cli("report", str(tmp_path / "missing.jsonl"), "--csv", str(tmp_path / "g.csv"))
    assert code == 2 and "missing.jsonl" in err and not (tmp_path / "g.csv").exists()
    (tmp_path / "file").write_text("x")
    code, _, err = cli("report", records, "--out", str(tmp_path / "file"))
    assert code == 2 and "not a directory" in err
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "notes.txt").write_text("mine")
    assert cli("report", records, "--csv", str(tmp_path / "dir" / "g.csv"))[0] == 0
    assert (tmp_path / "dir" / "notes.txt").read_text() == "mine"


def test_without_matplotlib_the_csv_works_and_the_page_says_what_to_install(tmp_path: Path,
                                                                            runs: dict[str, Any]) -> None:
    block = ("import importlib.abc, sys\n"
             "class NoPlots(importlib.abc.MetaPathFinder):\n"
             "    def find_spec(self, name, path, target=None):\n"
             "        if name.split('.')[0] in ('matplotlib', 'numpy'):\n"
             "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
             "sys.meta_path.insert(0, NoPlots())\n"
             "from firmware_py.cli import main\n"
             "sys.exit(main(sys.argv[1:]))\n")
    records = str(runs["files"]["classic"])
    for argv, status in (([records, "--csv", str(tmp_path / "g.csv"), "--json", str(tmp_path / "g.json")], 0),
                         ([records, "--out", str(tmp_path)], 2)):
        proc = processes.run([sys.executable, "-c", block, "report", *argv], capture_output=True, text=True,
                              timeout=60, check=False)
        assert proc.returncode == status, proc.stderr
    assert proc.stderr == "error: --out needs matplotlib: pip install 'roseking[report]'\n"
    assert sorted(tmp_path.iterdir()) == [tmp_path / "g.csv", tmp_path / "g.json"]
    assert json.loads((tmp_path / "g.json").read_text())["classic"] == runs["report"]["classic"]


def test_the_table_commands_do_not_need_matplotlib(runs: dict[str, Any], tmp_path: Path) -> None:
    """`roseking legal` and the engine's report tally import no plotting library."""
    out = str(tmp_path / "g.csv")
    code = ("import sys; from firmware_py.cli import main; import engine.tally; "
            f"main(['legal', '-']); main(['report', {str(runs['files']['classic'])!r}, '--csv', {out!r}]); "
            "assert 'matplotlib' not in sys.modules and 'numpy' not in sys.modules, 'plotting imported'")
    pos = json.dumps(finals(runs["files"]["classic"])[0].to_json())
    proc = processes.run([sys.executable, "-c", code], input=pos, capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr


POOL: list[Any] = []


def pool() -> list[Any]:
    """Facts of a few dozen games of each variant (built once)."""
    if not POOL:
        from engine.simulate import play
        for variant, players in (("classic", ("random", "random")), ("teams", ("random",) * 4)):
            for seed in range(30):
                g = play(variant, seed, players, record=True)
                POOL.append(facts(json.loads(g.line), "pool", seed))
    return POOL


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_tally_is_a_sum_over_games(data: st.DataObject) -> None:
    """Histograms and board counts do not depend on the order of the games, and count each game once."""
    variant = data.draw(st.sampled_from(["classic", "teams"]))
    games = [f for f in pool() if f.variant == variant]
    chosen = data.draw(st.lists(st.sampled_from(games), max_size=12))
    shuffled = data.draw(st.permutations(chosen))
    a, b = Tally(variant), Tally(variant)
    for f in chosen:
        a.add(f)
    for f in shuffled:
        b.add(f)
    da, db = a.to_dict(), b.to_dict()
    assert da["histograms"] == db["histograms"] and da["board"] == db["board"]
    assert sum(da["histograms"]["moves"].values()) == da["games"] == len(chosen)
    assert sum(da["board"]["red"]) == sum(f.stones[0] for f in chosen)
    decided = [f for f in chosen if f.winner != "draw"]
    assert sum(da["board"]["winner"]) + sum(da["board"]["loser"]) == sum(sum(f.stones) for f in decided)


def test_two_workers_give_the_same_csv_as_one(tmp_path: Path, runs: dict[str, Any]) -> None:
    records = str(runs["files"]["classic"])
    for k in ("1", "2"):
        assert cli("report", records, "--csv", str(tmp_path / f"{k}.csv"), "--workers", k)[0] == 0
    assert (tmp_path / "1.csv").read_text() == (tmp_path / "2.csv").read_text()


def test_unfinished_games_are_counted_and_left_out(tmp_path: Path, runs: dict[str, Any]) -> None:
    """A record may stop before R16/R17 (`reason: unfinished`): a CSV row with no winner, no figures."""
    from engine.record import result

    lines = runs["files"]["classic"].read_text().splitlines()[:3]
    record = json.loads(lines[0])
    record["moves"] = record["moves"][:10]
    del record["result"]
    record["result"] = result(replay(record))
    path = tmp_path / "some.jsonl"
    path.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")
    code, _, err = cli("report", str(path), "--csv", str(tmp_path / "g.csv"))
    assert code == 0, err
    with open(tmp_path / "g.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert (rows[0]["reason"], rows[0]["winner"]) == ("unfinished", "") and all(r["winner"] for r in rows[1:])
    tally = Tally("classic")
    for line, r in read_records(read_lines(str(path))):
        tally.add(facts(r, str(path), line))
    d = tally.to_dict()
    assert (d["unfinished"], d["games"], sum(d["histograms"]["moves"].values())) == (1, 2, 2)


def test_records_from_standard_input(tmp_path: Path, runs: dict[str, Any]) -> None:
    path = runs["files"]["teams"]
    proc = processes.run([sys.executable, "-m", "firmware_py.cli", "report", "-", "--csv", str(tmp_path / "g.csv")],
                          input=path.read_text(), capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    with open(tmp_path / "g.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 24 and {r["file"] for r in rows} == {"standard input"}
    assert [int(r["line"]) for r in rows] == list(range(1, 25))


def test_any_player_name_is_drawn_without_a_warning(tmp_path: Path, runs: dict[str, Any]) -> None:
    """A very long name collapsed the figures' layout (matplotlib warned); `$…$` was taken for mathtext.
    Each name plays red in a game of one report, so each has its row in the same figures."""
    names = ["x" * 3000, "$\\frac{$", "a$b$c"]
    lines = runs["files"]["classic"].read_text().splitlines()[:len(names)]
    records = [json.loads(line) | {"players": {"red": name, "white": "greedy"}} for line, name in zip(lines, names)]
    path = tmp_path / "named.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # a library's warning fails the test
        code, printed, err = cli("report", str(path), "--out", str(tmp_path / "out"))
    assert code == 0 and err == "", err
    page = (tmp_path / "out" / "index.html").read_text()
    numbers = json.loads((tmp_path / "out" / "report.json").read_text())
    assert set(numbers["classic"]["summary"]["players"]) == {*names, "greedy"}      # whole in the numbers
    for name in names:
        assert html.escape(name[:59]) in page and (len(name) <= 60 or name[:61] not in page)   # cut on the page


def test_empty_output_names_and_a_csv_over_its_own_input_are_refused(tmp_path: Path, runs: dict[str, Any]) -> None:
    records = str(runs["files"]["classic"])
    copy = tmp_path / "games.jsonl"
    copy.write_bytes(runs["files"]["classic"].read_bytes())
    for argv, message in [(["--out", "", "--csv", str(tmp_path / "g.csv")], "an output directory name is empty"),
                          (["--csv", ""], "an output file name is empty"),
                          (["--csv", str(copy)], f"--csv: {copy} is a records file read ({copy})"),
                          (["--json", str(copy)], f"--json: {copy} is a records file read ({copy})")]:
        code, printed, err = cli("report", records, str(copy), *argv)
        assert (code, printed) == (2, "") and err == f"error: {message}\n", err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert copy.read_bytes() == runs["files"]["classic"].read_bytes()
