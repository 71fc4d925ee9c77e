"""`roseking status`: how the table service is, from the status file it writes while it runs.

The service writes `DATA/status.json` every few seconds and on every change
(`firmware_py.table.status.StatusFile`); this command reads it and says whether the service
is healthy: exit status 0 when it runs and the file is fresh, 1 when the file is stale (the
service's process is there but its loop has not written for STALE_SECONDS: stuck, and about
to be restarted by the watchdog), 3 when the service is down (stopped, its process gone, or it
never ran with this data directory), 2 for a bad option or an unreadable file.
"""
import argparse
import datetime
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_py.atomic import alive
from firmware_py.errors import UsageError
from firmware_py.inputs import read_text, shown

if TYPE_CHECKING:
    from firmware_py.commands import Subparsers

HEALTHY, STALE, DOWN = 0, 1, 3


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


def verdict(status: dict[str, Any], now: float) -> tuple[int, str]:
    """(exit status, the verdict in words) of a status file's contents at the time of day `now`."""
    from firmware_py.table.status import STALE_SECONDS
    written, pid = status.get("written"), status.get("pid")
    when = _clock(written) if isinstance(written, (int, float)) else "an unknown time"
    if status.get("running") is False:
        return DOWN, f"roseking is DOWN: the service stopped at {when}"
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or not alive(pid):
        return DOWN, f"roseking is DOWN: its process {pid} is gone (it last wrote its status at {when})"
    if not isinstance(written, (int, float)) or now - written > STALE_SECONDS:
        age = f"{now - written:.0f} s" if isinstance(written, (int, float)) else "an unknown time"
        return STALE, (f"roseking is STUCK: process {pid} runs, but its status is {age} old (more than "
                       f"{STALE_SECONDS:g} s): its loop does not turn, and the watchdog will restart it")
    return HEALTHY, f"roseking is running (process {pid})"


def _clock(t: float) -> str:
    return datetime.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M:%S")


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
    """The status file's facts, a line each."""
    ping = status.get("last_ping")
    watchdog = "not armed (not run by systemd with WatchdogSec=)"
    if status.get("watchdog_armed"):
        watchdog = "armed, no ping yet"
        if isinstance(ping, (int, float)):
            watchdog = f"armed, last ping {now - ping:.0f} s ago"
    faults = status.get("faults") or []
    lines = [
        f"up:           {_duration(status.get('uptime_seconds', 0))} (since {_clock(status.get('started', 0))}), "
        f"backend {status.get('backend')}",
        f"mode:         {status.get('mode')} ({status.get('screen')})",
        f"games today:  {status.get('games_started')} started in this run, {status.get('games_finished')} finished "
        f"({status.get('today')})",
        f"frames:       {status.get('frames_per_second')} a second ({status.get('frames')} shown)",
        f"watchdog:     {watchdog}",
        f"brightness:   {float(status.get('brightness', 1.0)):.0%}",
        f"at fault:     {', '.join(map(str, faults)) if faults else 'nothing'}",
        f"free space:   {_bytes(status.get('free_bytes'))} in {status.get('data_dir')}",
    ]
    errors = status.get("errors") or []
    lines.append("last errors:" + ("" if errors else "  none"))
    lines += [f"  {_clock(e['at'])}  {e['line']}" for e in errors[-10:] if isinstance(e, dict)]
    return lines


def run(args: argparse.Namespace) -> int:
    from firmware_py.table.status import STATUS_FILE
    path = data_dir(args) / STATUS_FILE
    if not path.exists():
        code, said, status = DOWN, (f"roseking is DOWN: no status in {shown(str(path.parent))} (the service has "
                                    "not run with this data directory; --data-dir names another)"), None
    else:
        text = read_text(str(path))
        try:
            status = json.loads(text)
        except ValueError:
            status = None
        if not isinstance(status, dict):
            raise UsageError(f"{shown(str(path))}: not a status file of roseking")
        code, said = verdict(status, time.time())
    if args.json:
        print(json.dumps({"healthy": code == HEALTHY, "verdict": said, "status": status}, indent=1))
    else:
        print(said)
        if status is not None:
            print("\n".join(facts(status, time.time())))
    return code
