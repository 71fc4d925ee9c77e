"""`roseking play`: the table service, a whole game of The Rose King on the lit board through the buttons.

Without `--mode` a saved game is resumed (a teams game on the simulated four-panel table
under `--sim`; one the table cannot play is set aside), else the menu, or, on the simulated
board with neither a terminal nor an input script, a demonstration. With `--mode` a new game
of that mode is dealt at once, and an unfinished save is archived first (result
`unfinished`), never lost. What happened to the save is said on the table and in the
terminal's caption, and its log lines are printed once the terminal picture is up. With
`--web` (or `[web] port`) the table is also served to browsers (docs/WEB.md).
"""
import argparse
import asyncio
import contextlib
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.players import check_names
from engine.variants import TEAMS
from firmware_py.device_options import add_device_arguments, check_device_args, config_from_args, open_from_args
from firmware_py.atomic import check_output
from firmware_py.errors import UsageError
from firmware_py.inputs import shown
from firmware_py.table.exhibit import Exhibit, exhibit_settings
from firmware_py.table.game import Mode, Setup, Table, Unplayable, why_unplayable
from firmware_py.table.settings import Settings, table_settings
from firmware_py.table.staff import Access
from hardware.config import Config, parse_config
from hardware.names import MENU_BUTTON, STAFF_KEY, controls, seat_slots

if TYPE_CHECKING:
    from firmware_py.commands import Subparsers
    from firmware_py.web.settings import WebSettings

TEAM_CARDS = 3      # R21
HELP = "MENU: score, last move, hint, take back, new game (buttons: docs/GESTURES.md)"
"""One line under the terminal picture (80 columns, beside the log lines of the start)."""


TEAMS_PINS = {"red1": (4, 17, 27, 22, 5), "white1": (23, 24, 25, 12, 16), "red2": (6, 13, 26, 19, 20),
              "white2": (21, 2, 3, 14, 15)}
"""The four-panel table's buttons (card1–3, hero, draw per seat), as examples/config/teams-pi.toml wires them."""
TEAMS_MENU_PIN = 7      # CE1 of SPI0, free with dtoverlay=spi0-1cs (hardware/README.md)


def teams_sim_config() -> Config:
    """The simulated four-panel table (three cards, hero and draw per seat, R20–R22) that
    `--sim` without `--config` plays a teams game on: examples/config/teams-pi.toml's pins and chain."""
    buttons: dict[str, object] = {seat: dict(zip(controls(TEAM_CARDS), pins)) for seat, pins in TEAMS_PINS.items()}
    buttons[MENU_BUTTON] = TEAMS_MENU_PIN
    chain = [slot for seat in TEAMS.seats for slot in seat_slots(seat, TEAM_CARDS)]
    return parse_config({"backend": "sim", "seats": list(TEAMS.seats), "cards_per_seat": TEAM_CARDS,
                         "displays": {"chain": chain}, "buttons": buttons}, "<the simulated teams table>")


def register(sub: "Subparsers") -> None:
    p = sub.add_parser("play", help="the table service: play The Rose King on the lit board")
    add_device_arguments(p)
    g = p.add_argument_group("game")
    g.add_argument("--mode", choices=[m.value for m in Mode],
                   help="deal a new game of this mode at once (default: resume, or menu)")
    g.add_argument("--level", metavar="PLAYER", help="the computer's level (default: [table] level, else medium)")
    g.add_argument("--human", choices=("red", "white"), default="red",
                   help="the colour the person plays in vs-computer (default red)")
    g.add_argument("--seed", type=int, metavar="S", help="deal as `roseking new --seed S` (default: random)")
    g.add_argument("--data-dir", metavar="DIR", help="where the game in progress and finished games are kept "
                   "(default: [table] data_dir, else $XDG_DATA_HOME/roseking or ~/.local/share/roseking)")
    g.add_argument("--records", metavar="PATH", help="also append each game archived to PATH (JSON Lines): "
                   "each finished game, and each one a new game replaced (its result unfinished)")
    p.add_argument("--web", metavar="[HOST:]PORT", help="serve the table to browsers at HOST:PORT (default host: "
                   "[web] host, else 127.0.0.1; port 0: any free port): the mirror, the operator's page, the ladder")
    p.set_defaults(func=run)


def service_settings(config: Config, sim: bool) -> tuple[str, Settings, Exhibit, "WebSettings"]:
    """What `play` reads of `config` before it opens anything, each part checked: the backend (`sim` for
    `--sim`), the `[table]`, `[exhibit]` and `[web]` sections, the computer's level. `install-service` checks
    a configuration with it, so that no unit is written for one the service would refuse."""
    from firmware_py.web.settings import parse_web
    from hardware.backends import backend_of
    backend = backend_of(config, sim)
    settings = table_settings(config)
    exhibit = exhibit_settings(config)
    check_names([settings.level])
    return backend, settings, exhibit, parse_web(config.web, config.source)


def check_table(setup: Setup, table: Table) -> None:
    """UsageError when the configured table cannot play `setup` (`--mode`)."""
    why = why_unplayable(setup, table)
    if why is not None:
        hint = "--sim without --config brings a four-panel table" if why is Unplayable.SEATS else "use --mode teams"
        raise UsageError(f"--mode {setup.mode}: {why.explain(table)}; {hint}")


def run(args: argparse.Namespace) -> int:
    from firmware_py.table import computer, service  # the service and the devices need the table libraries
    from firmware_py.table.saves import table_file
    from firmware_py.table.notify import Notifier
    from firmware_py.table.status import StatusCollector, StatusFile, runtime_directory
    from firmware_py.web.settings import with_address
    from hardware.keyboard import interactive
    sim_table = args.sim and not args.config                # the simulated table: two seats, or four for teams
    config = teams_sim_config() if sim_table and args.mode == Mode.TEAMS else config_from_args(args)
    backend, settings, exhibit, web = service_settings(config, args.sim)
    level = settings.level if args.level is None else args.level
    check_names([level])
    if args.seed is not None and not 0 <= args.seed < 2 ** 63:
        raise UsageError(f"--seed: must be between 0 and {2 ** 63 - 1} (got {args.seed})")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    setup = Setup(args.mode or Mode.HUMANS, level, args.human, seed)
    if args.mode:
        check_table(setup, Table(config.seats, settings.cards_per_seat))
    if args.records is not None:
        check_output(args.records)
    if args.data_dir == "":
        raise UsageError("--data-dir: the directory name is empty")
    data = Path(args.data_dir or settings.data_path())
    for option, path in (("--records", args.records), ("--frames", args.frames), ("--snapshot", args.snapshot)):
        if path is not None and (what := table_file(data, path)):
            raise UsageError(f"{option}: {shown(path)} is the table's own {what} (in {shown(str(data))})")
    if args.web is not None:
        web = with_address(web, args.web)
    held = HeldLog()
    status = StatusCollector(str(data), backend, held)
    log = status.log
    saves, saved = service.open_saves(data, args.records, settings, log)
    status.count_archive(saves.archive)
    if saved.game is not None and not args.mode and sim_table and saved.game.setup.mode is Mode.TEAMS:
        config = teams_sim_config()             # the simulated table it was played on
        settings = table_settings(config)
    steps = check_device_args(args, config)     # every option checked
    nobody_presses = backend == "sim" and not args.input_script and not interactive(sys.stdin)
    computer.prepare()                          # the computer's imports, while the devices open
    try:
        with contextlib.ExitStack() as stack:
            server = None
            if web.port is not None:
                server = service.open_web(web, config, backend, status, saves, log)
                stack.callback(server.close)
            staff = Access(config.seats, key=STAFF_KEY in config.buttons.pins).steps()
            devices = stack.enter_context(open_from_args(args, config, exit_after_script=args.exit_after_script,
                                                         steps=steps, staff=staff))
            notifier = Notifier.from_environment(log)
            stack.callback(notifier.close)
            loop = service.start(devices, config, settings, saves, saved, setup, deal=bool(args.mode),
                                 demo=nobody_presses, log=log, receivers=[status], notifier=notifier, exhibit=exhibit)
            status.watch(loop)
            status_file = StatusFile(data, status, log, runtime_directory(), failing=loop.faults.save.failing)
            loop.tickers.append(status_file)
            stack.callback(status_file.close)
            held.release()
            if interactive(sys.stdout) and not args.input_script:
                print(HELP, file=sys.stderr)
            return asyncio.run(service.serve(loop, devices.buttons, args.exit_after_script, server))
    finally:
        held.release()


class HeldLog:
    """Log lines to standard error, held until `release` (the terminal picture clears the screen when it
    comes up, and would take them with it), then printed as they come."""

    def __init__(self) -> None:
        self.held: list[str] | None = []

    def __call__(self, line: str) -> None:
        if self.held is None:
            print(line, file=sys.stderr)
        else:
            self.held.append(line)

    def release(self) -> None:
        held, self.held = self.held or [], None
        for line in held:
            print(line, file=sys.stderr)
