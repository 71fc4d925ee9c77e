"""`roseking install-service`: the systemd unit of this install (`firmware_py.table.unit`), written.

It runs this virtual environment's `roseking play` with the configuration given and the data
directory (`--data-dir`, else `[table] data_dir`, else the user's `~/.local/share/roseking`), as
the user running the command (under sudo, the one who ran sudo) or `--user NAME`. The unit is
written atomically to /etc/systemd/system/roseking.service (or `--path`), or printed with
`--print`; a different unit already there is left alone unless `--force`. The data directory is
made if missing (and given to the user, when run as root), since systemd needs it to exist.

The configuration is checked as `roseking play` will read it (`play.service_settings`: the unit has no
`--sim`, so it names its backend). On a Raspberry Pi older than the 5 the board's LED driver
(rpi_ws281x) needs root (`/dev/mem`): a unit for another user would fail and restart every few
seconds for ever, so it is refused, saying so; a Pi 5 runs as any user in the `gpio` and `spi` groups.
"""
import argparse
import os
import pwd
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_py.atomic import check_output, write_file
from firmware_py.errors import UsageError
from firmware_py.inputs import shown

if TYPE_CHECKING:
    from firmware_py.commands import Subparsers

SYSTEM_UNITS = Path("/etc/systemd/system")


def register(sub: "Subparsers") -> None:
    p = sub.add_parser("install-service", help="write the systemd unit that runs the table service at boot")
    p.add_argument("--config", metavar="FILE", required=True, help="the table's configuration (TOML)")
    p.add_argument("--data-dir", metavar="DIR", help="where games are kept, the one path the service writes "
                   "(default: [table] data_dir, else ~USER/.local/share/roseking)")
    p.add_argument("--user", metavar="NAME", help="the user the service runs as (default: you; under sudo, "
                   "the user who ran sudo)")
    p.add_argument("--path", metavar="FILE", default=str(SYSTEM_UNITS / "roseking.service"),
                   help="where to write the unit (default: %(default)s)")
    p.add_argument("--print", action="store_true", help="print the unit instead of writing it")
    p.add_argument("--force", action="store_true", help="replace a different unit already at --path")
    p.set_defaults(func=run)


def default_user() -> str:
    """Who runs this command; under sudo, who ran sudo."""
    name = pwd.getpwuid(os.getuid()).pw_name
    sudo = os.environ.get("SUDO_USER")
    return sudo if os.getuid() == 0 and sudo else name


def check_user(user: str, backend: str, model: str | None) -> None:
    """UsageError when the service cannot light the board as `user` on the Pi `model` (None: not a Pi).

    >>> check_user("pi", "pi", "Raspberry Pi 5 Model B Rev 1.0"), check_user("root", "pi", "Raspberry Pi 4 Model B")
    (None, None)
    >>> check_user("pi", "pi", "Raspberry Pi 4 Model B Rev 1.5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    firmware_py.errors.UsageError: --user pi: on a Raspberry Pi 4 Model B Rev 1.5 the board's LED driver ... root ...
    """
    from hardware.pi import is_pi5
    if backend == "pi" and model is not None and not is_pi5(model) and user != "root":
        raise UsageError(f"--user {shown(user)}: on a {model} the board's LED driver (rpi_ws281x) needs root "
                         "(/dev/mem): add --user root (a Pi 5 runs the service as any user in the gpio and spi groups)")


def run(args: argparse.Namespace) -> int:
    from firmware_py.commands.play import service_settings
    from firmware_py.device_options import load_config
    from firmware_py.table.unit import Unit, UnitError, unit_text
    from hardware.pi import pi_model
    roseking = Path(sys.executable).parent / "roseking"
    if not os.access(roseking, os.X_OK):
        raise UsageError(f"{shown(str(roseking))}: no roseking beside this Python (install roseking in a virtual "
                         "environment first: make run, or pip install -e '.[table,pi]')")
    config = Path(args.config).resolve()
    backend, settings, _, _ = service_settings(load_config(str(config)), sim=False)   # as the service reads it
    if args.user == "":
        raise UsageError("--user: the user name is empty")
    user = args.user or default_user()
    try:
        account = pwd.getpwnam(user)
    except (KeyError, UnicodeEncodeError, ValueError):
        raise UsageError(f"--user: no user {shown(user)} on this machine") from None
    check_user(user, backend, pi_model())
    if args.data_dir == "":
        raise UsageError("--data-dir: the directory name is empty")
    home = Path(account.pw_dir) / ".local" / "share" / "roseking"
    data = Path(args.data_dir or (settings.data_dir and settings.data_path()) or home).absolute()
    try:
        text = unit_text(Unit(str(roseking), str(config), str(data), user))
    except UnitError as exc:
        raise UsageError(str(exc)) from None
    if args.print:
        print(text, end="")
        return 0
    target = Path(args.path)
    found = check_output(str(target))
    if found is not None:
        try:
            old = target.read_bytes() if target.is_file() else None
        except OSError:
            old = None
        if old == text.encode():
            print(f"{target} is already this unit: nothing to change")
            return 0
        if not args.force:
            raise UsageError(f"{shown(str(target))}: a different unit is there; --force replaces it "
                             "(--print shows the new one)")
    _make_data_dir(data, account)
    write_file(str(target), text.encode(), permissions=0o644)
    print(f"wrote {target} (the table service, as {user}, keeping its games in {data}); now run:\n"
          f"  sudo systemctl daemon-reload\n"
          f"  sudo systemctl enable --now {target.name}")
    return 0


def _make_data_dir(data: Path, account: pwd.struct_passwd) -> None:
    """The data directory, made if missing (systemd refuses to start a unit whose ReadWritePaths= is not
    there) and, when made by root, given to the service's user."""
    try:
        if data.is_dir():
            return
        data.mkdir(parents=True)
        if os.getuid() == 0:
            os.chown(data, account.pw_uid, account.pw_gid)
    except OSError as exc:
        raise UsageError(f"{shown(str(data))}: cannot make the data directory ({exc.strerror})") from None
