"""Where games run: this process, a local process pool, or a Dask cluster (`--cluster`)."""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tqdm import tqdm

from firmware_py.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--workers` and `--cluster` options shared by simulate and tournament."""
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="local worker processes (default 1: this process)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run on the Dask scheduler at ADDRESS (needs the 'cluster' extra)")


MAX_WORKERS = 256


def check(args: argparse.Namespace) -> None:
    """UsageError for a worker count out of 1 … MAX_WORKERS."""
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(f"--workers: must be from 1 to {MAX_WORKERS}, got {args.workers}")


@contextlib.contextmanager
def executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    """A concurrent.futures-style executor for `args`, or None to run in this process."""
    if args.cluster:
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("--cluster needs Dask: pip install 'roseking[cluster]'") from None
        try:
            client = Client(args.cluster, timeout=10)
        except (OSError, ValueError, TypeError) as exc:
            raise UsageError(f"--cluster: cannot reach {args.cluster}: {exc}") from None
        with client:
            yield client.get_executor()
    elif args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            yield pool
    else:
        yield None


def progress(total: int | None, unit: str = "game") -> tqdm[Any]:
    """A tqdm progress bar of `total` units (None: unknown) on standard error when it is a terminal, else silent."""
    from tqdm import tqdm   # loaded by the commands that show progress only
    return tqdm(total=total, unit=unit, file=sys.stderr, disable=not sys.stderr.isatty(),
                leave=False, dynamic_ncols=True)
