"""`roseking soak --sim --hours H`: the table service for H simulated hours, visited at random (`firmware_py.soak`).

It prints what happened (games, walk-aways, palms, staff menus, deals, kills, errors, memory, the
disk's writes, the worst press → frame latency) and exits 1 if anything went wrong. `--config FILE`
soaks that table (a museum's, docs/INSTALLING.md) on the simulated board, `--language` makes it
speak another language, `--kills N` kills it N times (default: one per 25 simulated hours). Ctrl-C (SIGINT)
or SIGTERM ends it early: it reports the hours it ran."""
import argparse
import signal
import threading
from pathlib import Path

from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError


def register(sub: Subparsers) -> None:
    p = sub.add_parser("soak", help="run the table service for hours of simulated visitors on an accelerated clock")
    p.add_argument("--sim", action="store_true", required=True, help="on the simulated board (the only one, for now)")
    p.add_argument("--hours", type=float, required=True, metavar="H", help="simulated hours to run (at most 2000)")
    p.add_argument("--data-dir", metavar="DIR", help="keep the table's data (the archive of games) in DIR "
                   "(default: a temporary directory, removed at the end)")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="the visitors' and the deals' seed (default 1)")
    p.add_argument("--config", metavar="FILE", help="the table to soak, on the simulated board (default: a museum's "
                   "day, open 10:00 to 18:00)")
    p.add_argument("--language", choices=("en", "de", "da", "es"), help="the table's language (default: the "
                   "configuration's)")
    p.add_argument("--kills", type=int, metavar="N", help="SIGKILL rounds: the service killed at a random moment and "
                   "started again (default: one per 25 simulated hours)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware_py.commands.play import service_settings
    from firmware_py.device_options import load_config
    from firmware_py.soak import KILL_EVERY_HOURS, check_hours, soak
    check_hours(args.hours)
    if not 0 <= args.seed < 2 ** 63:
        raise UsageError(f"--seed: must be between 0 and {2 ** 63 - 1} (got {args.seed})")
    if args.data_dir == "":
        raise UsageError("--data-dir: the directory name is empty")
    kills = int(args.hours // KILL_EVERY_HOURS) if args.kills is None else args.kills
    if not 0 <= kills <= 1000:
        raise UsageError(f"--kills: must be between 0 and 1000 (got {kills})")
    config = None
    if args.config is not None:
        config = load_config(args.config)
        service_settings(config, sim=True)          # as `roseking play --sim --config FILE` would check it
    stop = threading.Event()
    before = {number: signal.signal(number, lambda *_: stop.set()) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        report = soak(args.hours, args.seed, Path(args.data_dir) if args.data_dir else None, config=config,
                      config_file=Path(args.config).absolute() if args.config else None, language=args.language,
                      kills=kills, stop=stop)
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    for line in report.lines():
        print(line)
    return 1 if report.errors else 0
