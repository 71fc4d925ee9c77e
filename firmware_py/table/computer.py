"""The thinking worker: computer players in a process of their own, one question at a time, cancellable.

Pure-Python search holds the GIL, so a thread would starve the loop's frames; a separate process
keeps button-to-frame latency low while the computer thinks. The worker is forked by
multiprocessing's fork server (Linux, macOS), a process of its own that `roseking play` starts
before it opens its devices and that imports the engine meanwhile: never a fork of the loop's
process, which has gpiozero threads.
Cancelling terminates the worker; the next question forks a fresh one in milliseconds, where a
spawned one would import the engine anew (a start that finds the fork server just died spawns its
worker; the next start starts another server). Answers depend only on the question (position
without its pile order, level, seed), so a cancelled and re-asked question gets the same answer.
"""
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Iterator
from multiprocessing import forkserver, resource_tracker
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from firmware_py.table.game import Request

WORKER_NICENESS = 10
# What the fork server imports once, so that a worker it forks imports nothing: the worker's code, and what the
# `roseking` command's module imports. multiprocessing runs that module again in each worker as its main script;
# the module itself is not preloaded (run again over its import, it would warn).
PRELOAD = ["argparse", "firmware_py.streams", "firmware_py.errors", "firmware_py.table.computer"]
START = "forkserver"    # how workers are started ("spawn" only to compare: docs/PERFORMANCE.md)


def think(level: str, seed: int, position: dict[str, Any], cap: float) -> str:
    """The move (notation) player `level` seeded `seed` chooses in `position`, thinking at most `cap` s."""
    from engine.players import Level, make_player
    from engine.position import Position
    player = Level.parse(level)
    budget = player.budget
    seconds = min(cap, budget.seconds) if budget is not None else None
    pos = Position.from_json(position, seed=seed)
    return str(make_player(player, seed=seed, seconds=seconds).choose(pos))


def _serve(conn: Connection, cap: float) -> None:
    """The worker's loop: (level, seed, position) in, the move out, until the pipe closes.

    It runs at a lower priority than the loop, so that on a busy core the loop's frames come first,
    and leaves Ctrl-C (sent to the terminal's whole process group) to the service, which stops it:
    SIGINT, blocked since the worker was started (`Computer.start`), is ignored before it is let in.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if hasattr(os, "sched_setscheduler"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))   # Linux: only spare CPU time
    else:
        os.nice(WORKER_NICENESS)
    while True:
        try:
            level, seed, position = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(think(level, seed, position, cap))


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile: a process started meanwhile inherits the mask (a forked worker
    the fork server's), so that a Ctrl-C while it starts up waits, and `_serve` ignores it, instead of a
    KeyboardInterrupt traceback. Here it waits a moment only. multiprocessing's resource tracker is started
    first, as starting it unblocks SIGINT."""
    resource_tracker.ensure_running()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _fork_server() -> ForkServerContext:
    """multiprocessing's fork server, to be started (if it does not run) with `PRELOAD` imported."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


def prepare() -> None:
    """Start the fork server (if it does not run), not waiting for its imports: the service does it first, so that
    they are done while it opens its devices, and its first question does not wait for them."""
    if START == "forkserver":
        _fork_server()
        with _sigint_held():
            forkserver.ensure_running()


def _started(method: str, conn: Connection, cap: float) -> BaseProcess:
    """A worker serving `conn`, started by `method` (forkserver or spawn), the fork server started if need be."""
    context: ForkServerContext | SpawnContext = (_fork_server() if method == "forkserver"
                                                 else multiprocessing.get_context("spawn"))
    process = context.Process(target=_serve, args=(conn, cap), daemon=True, name="roseking-computer")
    process.start()
    return process


class Computer:
    """Asks the worker; `fileno()` becomes readable when `receive()` has an answer."""

    def __init__(self, cap_seconds: float) -> None:
        self.cap = cap_seconds
        self.busy: Request | None = None
        self.exitcode: int | None = None
        """How the last worker ended (negative: the signal that ended it), once it has."""
        self._conn: Connection | None = None
        self._process: BaseProcess | None = None

    def start(self) -> None:
        """Start the worker now."""
        if self._process is None:
            ours, theirs = multiprocessing.Pipe()
            try:
                with _sigint_held():
                    try:
                        process = _started(START, theirs, self.cap)
                    except (OSError, EOFError):
                        # the fork server just died (out of memory, say) or cannot be reached: spawned instead
                        process = _started("spawn", theirs, self.cap)
                    self._process, self._conn = process, ours
            finally:
                theirs.close()
                if self._conn is not ours:          # it did not start
                    ours.close()

    def pid(self) -> int | None:
        """The worker's process id, if it runs."""
        return self._process.pid if self._process is not None else None

    def fileno(self) -> int:
        self.start()
        assert self._conn is not None
        return self._conn.fileno()

    def ask(self, request: Request) -> None:
        """Think about `request`; any question still being thought about is cancelled first."""
        if self.busy is not None:
            self.cancel()
        self.start()
        assert self._conn is not None
        self._conn.send((request.level, request.seed, request.position))
        self.busy = request

    def receive(self, timeout: float = 0.0) -> tuple[Request, str] | None:
        """The answer and its question, if one has come within `timeout` seconds.

        A worker that died is cleared away: the question is no longer `busy`, so the loop
        asks it again of a fresh worker.
        """
        if self.busy is None or self._conn is None:
            return None
        try:
            if not self._conn.poll(timeout):
                return None
            answer = self._conn.recv()
        except (EOFError, OSError):
            self.cancel()
            return None
        request, self.busy = self.busy, None
        return request, answer

    def cancel(self) -> None:
        """Stop thinking: the worker is terminated (a new one starts at the next question)."""
        self.busy = None
        self.close()

    def close(self) -> None:
        if self._process is not None:
            if self._process.exitcode is None:      # one that ended may have its id taken by now
                self._process.terminate()
            self._process.join()
            self.exitcode = self._process.exitcode
            assert self._conn is not None
            self._conn.close()
        self._process = self._conn = None
