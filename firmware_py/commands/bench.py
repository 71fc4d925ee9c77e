"""`roseking bench`: speed figures as JSON, measured on fixed seeds.

Each section is the `figures()` of a bench module of the package whose code it times
(`engine.bench`, `hardware.bench`, `firmware_py.bench`); `--only` picks sections. Figures are
medians of several runs, single thread, but for the `cluster` section (parallel efficiency on a
local Dask cluster), which runs only when named. Where the engine runs compiled (`engine.COMPILED`),
the engine's sections are also taken in pure Python and printed under `pure`. `--quick` runs the
sections of `QUICK` once on a small workload: a check of the command (the docs' blocks under test).
"""
import argparse
import importlib
import json
import os
import platform
import subprocess

import engine

from firmware_py.bench.engine import roseking
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError

SECTIONS = {
    "engine": "firmware_py.bench.engine",
    "frame": "hardware.bench",
    "search": "engine.bench.search",
    "startup": "firmware_py.bench.startup",
    "play": "firmware_py.bench.play",
    "web": "firmware_py.bench.web",
    "cluster": "firmware_py.bench.cluster",
}
BY_NAME_ONLY = ("cluster",)  # minutes long and needs the `cluster` extra: run when named
QUICK = ("engine", "frame", "search", "startup")
"""The sections `--quick` shortens: one run of a small workload, to try the command, not to compare."""


def register(sub: Subparsers) -> None:
    p = sub.add_parser("bench", help="measure speed and print JSON figures")
    p.add_argument("--only", metavar="SECTION[,SECTION…]",
                   help=f"sections to run (default all but {', '.join(BY_NAME_ONLY)}): {', '.join(SECTIONS)}")
    p.add_argument("--quick", action="store_true",
                   help=f"one run of a small workload in {', '.join(QUICK)}: seconds, to try the command; "
                        "its figures are not for comparing")
    p.set_defaults(func=run)


def machine() -> dict[str, str]:
    """The Python version and CPU the figures were taken on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(), "cpu": cpu}


def run(args: argparse.Namespace) -> None:
    names = args.only.split(",") if args.only is not None else [n for n in SECTIONS if n not in BY_NAME_ONLY]
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        raise UsageError(f"--only: unknown section {unknown[0]!r} (choose from {', '.join(SECTIONS)})")
    out: dict[str, object] = {"machine": machine(), "compiled": engine.COMPILED}
    for name in names:
        figures = importlib.import_module(SECTIONS[name]).figures
        out[name] = figures(quick=True) if args.quick and name in QUICK else figures()
    engine_sections = [n for n in names if n in ENGINE_SECTIONS]
    if engine_sections and engine.COMPILED:
        out["pure"] = pure_figures(engine_sections, args.quick)
    print(json.dumps(out, indent=2))


ENGINE_SECTIONS = ("engine", "search")
"""The sections that time the engine's core: with the compiled core in use, they are taken in pure
Python too (ROSEKING_PURE=1, a process of its own), and both are printed."""


def pure_figures(sections: list[str], quick: bool = False) -> dict[str, object]:
    """`roseking bench --only SECTIONS` (`--quick`) run on the pure-Python engine: its sections' figures."""
    argv = [*roseking(), "bench", "--only", ",".join(sections), *(["--quick"] if quick else [])]
    done = subprocess.run(argv, env={**os.environ, "ROSEKING_PURE": "1"}, capture_output=True, text=True, check=True)
    figures: dict[str, object] = json.loads(done.stdout)
    return {name: figures[name] for name in sections}
