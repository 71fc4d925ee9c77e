"""Runs on a Dask cluster (`--cluster`) and on local processes (`--workers`) give what one process
gives: the same records, summaries, tournaments and reports, for cheap and searching lineups;
tasks are sized by what they cost; the parts of a run merge into the whole; a scheduler that
goes away mid-run is one `error:` line and the finished games are kept.

The Dask clusters here run their workers as threads of the test process (processes=False),
except `test_a_cluster_of_worker_processes_gives_the_same_records`, whose worker is a process.
"""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.record import read_records
from engine.tally import Report, facts
from engine.simulate import Pace, play, tasks
from engine.summary import Summary
from firmware_py import executors
from firmware_py.cli import main
from firmware_py.inputs import read_lines


@pytest.fixture(scope="module")
def distributed() -> Any:
    """Dask's `distributed`, imported by the tests that start a cluster (a skip without it)."""
    return pytest.importorskip("distributed")


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def cluster(distributed: Any) -> Any:
    """A scheduler with two one-thread workers."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


PLACES = {"one process": ("--workers", "1"), "two processes": ("--workers", "2"), "cluster": ("--cluster",)}
LINEUPS = {
    "cheap": ("--players", "random,random", "--games", "400"),
    "searching": ("--players", "easy:5,greedy", "--games", "12"),
    "teams": ("--variant", "teams", "--players", "greedy,random", "--games", "30"),
}


def place(name: str, cluster: str) -> tuple[str, ...]:
    return PLACES[name] + ((cluster,) if name == "cluster" else ())


def without_times(table: dict[str, Any]) -> dict[str, Any]:
    """A tournament table less the CPU seconds per move, which no two runs share."""
    return {**table, "players": [{k: v for k, v in r.items() if k != "seconds_per_move"} for r in table["players"]]}


@pytest.mark.parametrize("lineup", LINEUPS)
def test_cluster_processes_and_one_process_give_the_same_records_and_summary(tmp_path: Path, cluster: str,
                                                                              lineup: str) -> None:
    runs = {}
    for name in PLACES:
        path = tmp_path / f"{name}.jsonl"
        code, out, err = cli("simulate", *LINEUPS[lineup], "--seed", "5", "--json", "--records", str(path),
                             *place(name, cluster))
        assert code == 0 and err == "", err
        runs[name] = (path.read_bytes(), out)
    assert runs["cluster"] == runs["two processes"] == runs["one process"]
    records = [r for _, r in read_records(read_lines(str(tmp_path / "cluster.jsonl")))]
    assert len(records) == json.loads(runs["cluster"][1])["games"] == int(LINEUPS[lineup][-1])


@pytest.mark.parametrize("extra", [("--players", "random,greedy,easy:4", "--games", "8"),
                                   ("--players", "greedy,random", "--games", "200", "--sprt", "50,70")],
                         ids=["round robin", "sequential test"])
def test_cluster_and_one_process_give_the_same_tournament(tmp_path: Path, cluster: str, extra: tuple[str, ...]) -> None:
    runs = {}
    for name in ("one process", "cluster"):
        path = tmp_path / f"{name}.jsonl"
        code, out, err = cli("tournament", *extra, "--seed", "2", "--json", "--records", str(path),
                             *place(name, cluster))
        assert code == 0 and err == "", err
        runs[name] = (path.read_bytes(), without_times(json.loads(out)))
    assert runs["cluster"] == runs["one process"]
    records = runs["cluster"][0].decode().splitlines()
    seeds = [json.loads(line)["seed"] for line in records]
    assert seeds[0::2] == seeds[1::2]  # each deal twice, one game after the other (paired deals stay paired)
    if "--sprt" in extra:
        table = runs["cluster"][1]
        assert table["sprt"]["verdict"] == "H1" and len(records) == table["sprt"]["games"] < 200


REPORTED = {  # the records files of a report: the commands that write them
    "classic and a tournament": [("simulate", "--games", "150", "--players", "random,greedy"),
                                 ("tournament", "--players", "greedy,random,easy:3", "--games", "10")],
    "teams": [("simulate", "--games", "40", "--variant", "teams", "--players", "random,greedy")],
}


def test_training_on_the_cluster_learns_what_one_process_learns(tmp_path: Path, cluster: str) -> None:
    """`roseking train` sends its self-play and its judging games to the workers; the seed alone decides."""
    small = ("--seed", "3", "--generations", "1", "--games", "3", "--nodes", "30", "--references", "random",
             "--eval-games", "2", "--eval-nodes", "30")
    files = {}
    for name in ("one process", "cluster"):
        code, out, err = cli("train", "--out", str(tmp_path / name), *small, *place(name, cluster))
        assert code == 0 and err == "", err
        files[name] = {f: (tmp_path / name / f).read_bytes() for f in ("weights.json", "curve.json")}
    assert files["cluster"] == files["one process"]


@pytest.mark.parametrize("reported", REPORTED)
def test_the_cluster_reports_games_as_one_process_and_the_engine_do(tmp_path: Path, cluster: str,
                                                                    reported: str) -> None:
    """Classic games and a tournament whose pairings meet both ways round, and teams games, in several parts:
    the cluster's numbers (`--json`, the page's report.json) are the engine's tally of the records one by one,
    its CSV is one process's. The page and the figures are drawn from those numbers in the process that runs
    the command, whatever replayed the games (test_report draws them)."""
    files = [tmp_path / f"{k}.jsonl" for k in range(len(REPORTED[reported]))]
    for path, argv in zip(files, REPORTED[reported]):
        assert cli(*argv, "--seed", "3", "--records", str(path))[0] == 0
    out, printed = tmp_path / "numbers.json", {}
    for name, argv in (("cluster", ("--json", str(out))), ("one process", ())):
        code, printed[name], err = cli("report", *map(str, files), "--csv", str(tmp_path / f"{name}.csv"), *argv,
                                       *place(name, cluster))
        assert code == 0 and err == "", err
    assert (tmp_path / "cluster.csv").read_bytes() == (tmp_path / "one process.csv").read_bytes()
    tally = Report()
    for path in files:
        for line, record in read_records(read_lines(str(path))):
            tally.add(facts(record, str(path), line))
    numbers = tally.to_dict()
    assert json.loads(out.read_text()) == json.loads(json.dumps(numbers))
    games = sum(t["games"] for t in numbers.values())
    assert printed == {"cluster": f"{tmp_path / 'cluster.csv'}: {games} rows\n{out}: the numbers of {games} games\n",
                       "one process": f"{tmp_path / 'one process.csv'}: {games} rows\n"}


def test_a_cluster_of_worker_processes_gives_the_same_records(tmp_path: Path, distributed: Any) -> None:
    """Real processes: the tasks and their results cross a process boundary through Dask."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as local:
        code, out, err = cli("simulate", "--games", "40", "--seed", "9", "--players", "greedy,random", "--json",
                             "--records", str(tmp_path / "dask.jsonl"), "--cluster", local.scheduler_address)
    assert code == 0 and err == "", err
    assert cli("simulate", "--games", "40", "--seed", "9", "--players", "greedy,random", "--json",
               "--records", str(tmp_path / "local.jsonl")) == (0, out, "")
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_a_run_in_parts_gives_the_records_of_the_whole(tmp_path: Path) -> None:
    whole, first, rest = (tmp_path / n for n in ("whole.jsonl", "first.jsonl", "rest.jsonl"))
    common = ("--seed", "4", "--players", "greedy,random")
    assert cli("simulate", *common, "--games", "30", "--records", str(whole))[0] == 0
    assert cli("simulate", *common, "--games", "12", "--records", str(first))[0] == 0
    assert cli("simulate", *common, "--games", "18", "--first", "12", "--records", str(rest), "--workers", "2")[0] == 0
    assert first.read_bytes() + rest.read_bytes() == whole.read_bytes()
    assert cli("simulate", "--first", "-1")[2] == "error: --first: must be at least 0, got -1\n"


def test_when_the_scheduler_goes_away_the_finished_games_are_kept_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                        distributed: Any) -> None:
    """The cluster closes once the first games are in: one error line, status 2, and a records file
    that holds exactly the games reported finished, each record whole and as a local run writes it."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address="127.0.0.1:0") as local:

        class Bar:
            """The progress bar: once games are done, the scheduler goes away."""

            def update(self, n: int) -> None:
                if local.status.name == "running":
                    local.close()

        monkeypatch.setattr(executors, "progress", lambda total, unit="game": contextlib.nullcontext(Bar()))
        path = tmp_path / "games.jsonl"
        code, out, err = cli("simulate", "--games", "300", "--seed", "6", "--players", "greedy,random",
                             "--records", str(path), "--cluster", local.scheduler_address)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    kept = path.read_text().splitlines()
    assert 0 < len(kept) < 300
    assert err == (f"error: the Dask scheduler at {local.scheduler_address} went away after {len(kept)} of 300 "
                   f"games; their records are in {path}, each whole; the same command with --first {len(kept)} "
                   f"--games {300 - len(kept)} plays the rest (into another file)\n")
    monkeypatch.undo()
    assert cli("simulate", "--games", str(len(kept)), "--seed", "6", "--players", "greedy,random",
               "--records", str(tmp_path / "local.jsonl"))[0] == 0
    assert kept == (tmp_path / "local.jsonl").read_text().splitlines()


@settings(max_examples=60, deadline=None)
@given(games=st.integers(1, 5000), paired=st.booleans(), slots=st.integers(1, 64),
       per_game=st.floats(1e-6, 5.0), first=st.integers(0, 10).map(lambda k: 2 * k))
def test_tasks_sized_by_cost_cover_the_run_in_order(games: int, paired: bool, slots: int, per_game: float,
                                                    first: int) -> None:
    """Whatever the cost, every game once, in order, in whole deals when paired; a task is about a second
    of work, and at most a share of what is left, so that every slot has work until the end."""
    pace = Pace(slots)
    lineups = [("random", "greedy"), ("greedy", "random")] if paired else [("random", "greedy")]
    covered = []
    for k, task in enumerate(tasks("classic", 1, lineups, games, paired=paired, pace=pace, first=first)):
        covered.extend(range(task.first, task.first + task.count))
        unit = 2 if paired else 1
        assert task.first % unit == 0 and (task.count % unit == 0 or task.first + task.count == first + games)
        if k:  # once one task has been timed
            left = first + games - task.first
            assert task.count <= max(unit, 1.0 / per_game, left / (2 * slots))
            assert task.count >= min(left, unit, int(min(1.0 / per_game, left / (2 * slots))) // unit * unit)
        pace.observe(task.lineups, task.count, task.count * per_game)
    assert covered == list(range(first, first + games))


def test_a_cheap_lineup_gets_few_large_tasks_and_a_dear_one_a_game_each() -> None:
    pace = Pace(slots=2)
    cheap, dear = [("random", "random")], [("max", "max")]
    pace.observe(tuple(cheap), 100, 0.01)  # 0.1 ms a game
    pace.observe(tuple(dear), 1, 30.0)  # 30 s a game
    assert [t.count for t in tasks("classic", 1, cheap, 40_000, pace=pace)][:3] == [10_000, 7_500, 5_625]
    assert {t.count for t in tasks("classic", 1, dear, 20, pace=pace)} == {1}


POOL: list[Any] = []


def pool() -> list[Any]:
    """Finished games of both variants with their facts, sides met both ways round (built once)."""
    if not POOL:
        lineups = {"classic": [("random", "greedy"), ("greedy", "random"), ("random", "random")],
                   "teams": [("greedy", "random") * 2, ("random",) * 4]}
        for variant, choices in lineups.items():
            for seed in range(24):
                g = play(variant, seed, choices[seed % len(choices)], seed, record=True)
                POOL.append((g, facts(json.loads(g.line), "pool", seed)))
    return POOL


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_parts_of_a_run_merge_into_the_whole(data: st.DataObject) -> None:
    """Summaries and reports (with their standings) of consecutive parts merge into those of all the games,
    whatever the cuts: what `--workers` and `--cluster` rely on."""
    games = data.draw(st.lists(st.sampled_from(pool()), max_size=30))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(games)), max_size=4)))
    parts = [games[a:b] for a, b in zip([0, *cuts], [*cuts, len(games)])]
    summary, report = Summary(), Report()
    for part in parts:
        summary.merge(Summary.of([g for g, _ in part]))
        piece = Report()
        for _, f in part:
            piece.add(f)
        report.merge(piece)
    whole = Report()
    for _, f in games:
        whole.add(f)
    assert summary.to_dict() == Summary.of([g for g, _ in games]).to_dict()
    assert json.dumps(report.to_dict()) == json.dumps(whole.to_dict())  # the same keys in the same order too

