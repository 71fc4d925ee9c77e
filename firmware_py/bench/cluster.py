"""The `cluster` section of `roseking bench`: how near to linear the commands scale on Dask.

A `distributed.LocalCluster` of K worker processes with one thread each (K = the cores this
process may use) against one process, each timed as a user runs it (`roseking simulate` and
`roseking report` through `firmware_py.cli.main`, client connection included): for each
workload, the speed-up and the parallel efficiency (speed-up ÷ K, the target 0.8 or more),
the CPU time the cluster run spent (workers, scheduler and client) beyond the one-process
run's, as a fraction (`cpu_efficiency`: the one-process CPU ÷ the cluster's) and per game
(`overhead_us_per_game`: the scheduler, transfers and merging), which other jobs on the
machine do not blur as they blur wall-clock times; the games a task gets (about a second
of the one-process run's time), and the scheduler's round trip for an empty task. Needs
the `cluster` extra; takes minutes.
"""
from __future__ import annotations

import contextlib
import io
import os
import tempfile
import time
from collections.abc import Sequence
from typing import Any

from engine.simulate import TASK_SECONDS
from firmware_py.cli import main
from firmware_py.executors import DaskClient
from firmware_py.errors import UsageError

LINEUPS = {"random,random": 100_000, "random,greedy": 10_000, "medium,easy": 40}
REPORT_RECORDS = 100_000
SEED = 1
EMPTY_TASKS = 300


def _timed(argv: Sequence[str], client: DaskClient | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds of `roseking ARGV`, its output dropped: the CPU of this process
    (the command, and the scheduler of an in-process cluster) and of `client`'s workers."""
    def workers_cpu() -> float:
        return sum(client.run(time.process_time).values()) if client else 0.0

    before = workers_cpu()
    with contextlib.redirect_stdout(io.StringIO()):
        t, cpu = time.perf_counter(), time.process_time()
        code = main(list(argv))
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    if code:
        raise UsageError(f"bench: roseking {' '.join(argv)} failed with status {code}")
    return seconds, cpu + workers_cpu() - before


def _compare(argv: Sequence[str], games: int, client: DaskClient, address: str, workers: int) -> dict[str, Any]:
    """One process against the cluster: wall-clock speed-up and efficiency, and the CPU the cluster
    spent beyond the one-process run's, per game (what a busy machine does not blur)."""
    one, one_cpu = _timed([*argv, "--workers", "1"])
    many, many_cpu = _timed([*argv, "--cluster", address], client)
    return {"games": games, "one_process_s": round(one, 2), "cluster_s": round(many, 2),
            "speedup": round(one / many, 2), "efficiency": round(one / many / workers, 2),
            "cpu_efficiency": round(one_cpu / many_cpu, 2),
            "overhead_us_per_game": round(1e6 * (many_cpu - one_cpu) / games, 1)}


def _round_trip_ms(client: DaskClient, workers: int) -> float:
    """Milliseconds per empty task through the scheduler, as a run sends them (a window of 3 per worker)."""
    from engine.simulate import ordered

    executor = client.get_executor(pure=False)
    jobs = (int for _ in range(EMPTY_TASKS))
    t = time.perf_counter()
    for _ in ordered(jobs, executor, 3 * workers):
        pass
    return round(1e3 * (time.perf_counter() - t) / EMPTY_TASKS, 2)


def figures() -> dict[str, Any]:
    """Efficiency of `simulate` for a cheap, a mixed and a searching lineup and of `report`
    over REPORT_RECORDS records, on K one-thread worker processes against one process."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("bench --only cluster needs Dask: pip install 'roseking[cluster]'") from None
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    out: dict[str, Any] = {"workers": workers, "task_seconds": TASK_SECONDS}
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address="127.0.0.1:0") as cluster, Client(cluster) as client, \
            tempfile.TemporaryDirectory() as folder:
        address = cluster.scheduler_address
        _timed(["simulate", "--games", str(20 * workers), "--players", "greedy,random", "--cluster", address])  # warm
        out["scheduler_ms_per_empty_task"] = _round_trip_ms(client, workers)
        for lineup, games in LINEUPS.items():
            argv = ["simulate", "--games", str(games), "--seed", str(SEED), "--players", lineup]
            out[lineup] = _compare(argv, games, client, address, workers)
            out[lineup]["games_per_task"] = max(1, round(TASK_SECONDS * games / out[lineup]["one_process_s"]))
        records = os.path.join(folder, "records.jsonl")
        _timed(["simulate", "--games", str(REPORT_RECORDS), "--seed", str(SEED), "--records", records,
                "--cluster", address])
        argv = ["report", records, "--out", os.path.join(folder, "page"), "--csv", os.path.join(folder, "g.csv")]
        out["report"] = _compare(argv, REPORT_RECORDS, client, address, workers)
    return out
