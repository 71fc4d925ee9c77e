"""`roseking status`: how the table service is, from the status file it writes while it runs.

The service writes `DATA/status.json` (under systemd a link to the runtime directory's) every few
seconds and on every change (`firmware_py.table.status.StatusFile`); this command reads it and
says whether the service is healthy, as `firmware_py.table.health` judges it: exit status 0 when it
runs, its status fresh and nothing at fault, 1 when the status is stale (the process is there but
its loop has not written for STALE_SECONDS: stuck, and about to be restarted by the watchdog), 3
when the service is down (stopped, its process gone, or it never ran with this data directory), 4
when it runs degraded (a part at fault: the lights, the displays, the computer, the saves), 2 for a
bad option or a file that is not a status of roseking (one `error:` line naming the field).
"""
import argparse
import json
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.jsonio import MAX_BYTES
from firmware_py.errors import UsageError
from firmware_py.inputs import decode, shown

if TYPE_CHECKING:
    from firmware_py.commands import Subparsers


def register(sub: "Subparsers") -> None:
    p = sub.add_parser("status", help="how the table service is: uptime, mode, games today, errors, watchdog")
    p.add_argument("--data-dir", metavar="DIR", help="the service's data directory (default: [table] data_dir of "
                   "--config, else $XDG_DATA_HOME/roseking or ~/.local/share/roseking)")
    p.add_argument("--config", metavar="FILE", help="the service's configuration, for its data directory")
    p.add_argument("--json", action="store_true", help="print the status as JSON, with the verdict")
    p.set_defaults(func=run)


def data_dir(args: argparse.Namespace) -> Path:
    """The data directory the options name, as `roseking play` finds it."""
    from firmware_py.table.settings import DEFAULT_SETTINGS, table_settings
    if args.data_dir == "":
        raise UsageError("--data-dir: the directory name is empty")
    if args.data_dir:
        return Path(args.data_dir)
    if args.config:
        from firmware_py.device_options import load_config
        return table_settings(load_config(args.config)).data_path()
    return DEFAULT_SETTINGS.data_path()


def _duration(seconds: float) -> str:
    s = int(seconds)
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days or hours:
        return f"{days} d {hours} h" if days else f"{hours} h {minutes} min"
    return f"{minutes} min {s % 60} s" if minutes else f"{s} s"


def _bytes(n: object) -> str:
    if not isinstance(n, (int, float)):
        return "unknown (the data directory cannot be read)"
    size, unit = float(n), "B"
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if size < 1000 or unit == "TB":
            break
        size /= 1000
    return f"{size:.1f} {unit}" if unit != "B" else f"{size:.0f} B"


def facts(status: dict[str, Any], now: float) -> list[str]:
    """The facts of a `checked` status, a line each (a field an older service did not write: unknown)."""
    from firmware_py.table.health import clock
    ping = status.get("last_ping")
    watchdog = "not armed (not run by systemd with WatchdogSec=)"
    if status.get("watchdog_armed"):
        watchdog = "armed, no ping yet"
        if isinstance(ping, (int, float)):
            watchdog = f"armed, last ping {now - ping:.0f} s ago"
    faults = status.get("faults") or []
    known = status.get("clock")
    lines = [
        f"up:           {_duration(status.get('uptime_seconds', 0))} (since {clock(status.get('started', 0))}), "
        f"backend {status.get('backend')}",
        f"mode:         {status.get('mode')} ({status.get('screen')})",
        f"games today:  {status.get('games_started')} started in this run, {status.get('games_finished')} finished "
        f"({status.get('today')})",
        f"frames:       {status.get('frames_per_second')} a second ({status.get('frames')} shown)",
        f"watchdog:     {watchdog}",
        f"brightness:   {float(status.get('brightness', 1.0)):.0%}",
        f"time of day:  {known if known else 'not known yet: the opening hours wait (no network time, no RTC)'}",
        f"at fault:     {', '.join(map(str, faults)) if faults else 'nothing'}",
        f"free space:   {_bytes(status.get('free_bytes'))} in {status.get('data_dir')}",
    ]
    errors = status.get("errors") or []
    lines.append("last errors:" + ("" if errors else "  none"))
    lines += [f"  {clock(e['at'])}  {e['line']}" for e in errors[-10:]]
    return lines


def read_status(path: Path) -> dict[str, Any]:
    """The status file at `path`, `checked`; UsageError naming the file (and the field) if it is not one. A
    FIFO or a device is refused before anything is read from it, a file is read up to MAX_BYTES."""
    from firmware_py.table.health import StatusError, checked
    where = shown(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read ({exc.strerror})") from None
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise UsageError(f"{where}: not a status file of roseking (not a regular file)")
        try:
            data = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"{where}: cannot read ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise UsageError(f"{where}: not a status file of roseking (larger than {MAX_BYTES} bytes)")
    try:
        return checked(json.loads(decode(data, where)))
    except RecursionError:
        raise UsageError(f"{where}: not a status file of roseking (nested too deeply)") from None
    except ValueError as exc:
        what = str(exc) if isinstance(exc, StatusError) else "not JSON"
        raise UsageError(f"{where}: not a status file of roseking ({what})") from None


def run(args: argparse.Namespace) -> int:
    from firmware_py.table.faults import PARTS
    from firmware_py.table.health import DOWN, HEALTHY, verdict
    from firmware_py.table.status import STATUS_FILE
    path = data_dir(args) / STATUS_FILE
    status: dict[str, Any] | None = None
    if not path.exists():
        code, said = DOWN, (f"roseking is DOWN: no status in {shown(str(path.parent))} (the service has not run "
                            "with this data directory since the machine started; --data-dir names another)")
    else:
        status = read_status(path)
        code, said = verdict(status, time.time(), PARTS)
    if args.json:
        print(json.dumps({"healthy": code == HEALTHY, "verdict": said, "status": status}, indent=1))
    else:
        print(said)
        if status is not None:
            print("\n".join(facts(status, time.time())))
    return code
