"""Where games run: this process, a local process pool, or a Dask cluster (`--cluster`)."""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, TypeVar


from firmware_py.errors import UsageError

if TYPE_CHECKING:  # concurrent.futures and logging load for a pool or a cluster only: one process starts sooner
    from concurrent.futures import Executor

T = TypeVar("T")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--workers` and `--cluster` options shared by simulate, tournament and report."""
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="local worker processes (default 1: this process)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run on the Dask scheduler at ADDRESS (needs the 'cluster' extra)")


MAX_WORKERS = 256


def check(args: argparse.Namespace) -> None:
    """UsageError for a worker count out of 1 … MAX_WORKERS."""
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers: must be from 1 to {MAX_WORKERS}, got {args.workers}")


@dataclass
class Workers:
    """Where a run's tasks go: `executor` (None: this process) with `slots` tasks running at
    once, `name` for messages, `lost`, the exceptions that mean the workers went away, and
    `alive`, which tells whether they are still there (None: as long as no task says otherwise)."""

    executor: Executor | None
    slots: int
    name: str
    lost: tuple[type[BaseException], ...] = ()
    alive: Callable[[], bool] | None = None
    failure: BaseException | None = None

    def watch(self) -> None:
        """CancelledError once the workers have gone (what `engine.simulate.ordered` calls while it waits)."""
        if self.alive and not self.alive():
            from concurrent.futures import CancelledError
            raise CancelledError(f"{self.name} has gone")

    def guard(self, results: Iterable[T]) -> Generator[T, None, None]:
        """`results` until the workers go away, which ends them early and is kept in `failure`: any
        error once they have gone, whatever form it takes on the way."""
        try:
            yield from results
        except Exception as exc:
            if not isinstance(exc, self.lost) and not (self.alive and not self.alive()):
                raise
            self.failure = exc

    def raise_if_gone(self, done: int, total: int | None, unit: str, kept: str) -> None:
        """UsageError once the workers have gone: they went away after `done` of `total` (if known)
        units, and `kept` says what became of those."""
        if self.failure is not None:
            of = f" of {total:,}" if total is not None else ""
            raise UsageError(f"{self.name} went away after {done:,}{of} {unit}s; {kept}")


class DaskClient(Protocol):
    """What is used of distributed's `Client` (its methods have no annotations)."""

    status: str

    def wait_for_workers(self, n_workers: int, timeout: float | None = None) -> None: ...

    def nthreads(self) -> dict[str, int]: ...

    def get_executor(self, *, pure: bool) -> Executor: ...

    def run(self, function: Callable[[], T]) -> dict[str, T]: ...

    def __enter__(self) -> DaskClient: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None: ...


WAIT_FOR_WORKERS = 60.0  # seconds a run waits for the first worker to join the scheduler


@contextlib.contextmanager
def executor(args: argparse.Namespace) -> Iterator[Workers]:
    """The workers `args` name: a Dask cluster, a local process pool, or this process."""
    if args.cluster:
        with _dask(args.cluster) as workers:
            yield workers
    elif args.workers > 1:
        from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
        with ProcessPoolExecutor(args.workers) as pool:
            yield Workers(pool, args.workers, "a worker process", (BrokenExecutor,))
    else:
        yield Workers(None, 1, "this process")


@contextlib.contextmanager
def _dask(address: str) -> Iterator[Workers]:
    import logging
    from concurrent.futures import CancelledError
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'roseking[cluster]'") from None
    try:
        client: DaskClient = Client(address, timeout=10)
    except (OSError, ValueError, TypeError) as exc:
        raise UsageError(f"--cluster: cannot reach {address}: {exc}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=WAIT_FOR_WORKERS)
        except TimeoutError:
            raise UsageError(f"--cluster: no worker joined the scheduler at {address} "
                             f"within {WAIT_FOR_WORKERS:.0f} s") from None
        slots = sum(client.nthreads().values())
        workers = Workers(client.get_executor(pure=False), slots, f"the Dask scheduler at {address}",
                          (CancelledError, OSError), lambda: client.status == "running")
        try:
            yield workers
        finally:
            if workers.failure is not None:  # the client's attempts to reconnect are not the user's concern
                for name in ("distributed", "distributed.client"):  # the latter has a level of its own
                    logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class Bar(Protocol):
    """What the commands use of a progress bar."""

    n: float | int
    total: float | int | None

    def update(self, n: float | None = 1) -> bool | None: ...

    def __enter__(self) -> Bar: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None: ...


class Silent:
    """What a progress bar does where nobody sees one: counts."""

    def __init__(self, total: float | None) -> None:
        self.n: float | int = 0
        self.total: float | int | None = total

    def update(self, n: float | None = 1) -> bool | None:
        self.n += n or 0
        return None

    def __enter__(self) -> Silent:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        return None


def progress(total: int | None, unit: str = "game") -> Bar:
    """A tqdm progress bar of `total` units (None: unknown) on standard error when it is a terminal, else
    a Silent one (tqdm takes a tenth of a second to load: a run in a script does without it)."""
    if not sys.stderr.isatty():
        return Silent(total)
    from tqdm import tqdm   # loaded by the commands that show progress only
    return tqdm(total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)
