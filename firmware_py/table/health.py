"""How the table service is, judged from its status: the one verdict `roseking status` gives of the status
file and the web page of the live status (`/api/health`, `/metrics`).

- 0 `HEALTHY`: it runs, its status is fresh, nothing is at fault;
- 1 `STUCK`: its process is there, but its status is more than STALE_SECONDS old (the loop does not turn);
- 3 `DOWN`: it stopped, or its process is gone (a process of another boot, or a later one given the same id,
  is not it);
- 4 `DEGRADED`: it runs, but a part is at fault: the board's lights, the displays, the computer, or the saves
  (the data directory takes no file).

(2 is an error: a bad option, or a status file that is not one.) A status is checked field by field
first (`checked`): a value of the wrong kind, out of range, not finite, or nested where none should be
is a `StatusError` naming the field, never a traceback nor a verdict made of it.

>>> checked({"running": True, "written": 10.0, "pid": 1, "faults": ["lights"]})["faults"]
['lights']
>>> checked({"running": True, "written": float("nan"), "pid": 1})
Traceback (most recent call last):
...
firmware_py.table.health.StatusError: written: must be a finite number from 0 to 1e+12 (got nan)
"""
import datetime
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.jsonio import brief
from firmware_py.atomic import alive

HEALTHY, STUCK, DOWN, DEGRADED = 0, 1, 3, 4
STALE_SECONDS = 30.0        # a status older than this, of a service said to run, is stale: the loop is stuck
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
MOST_TIME = 1e12            # seconds: a Unix time, an uptime, an age
MOST_COUNT = 2 ** 53
MOST_TEXT = 4096
MOST_ITEMS = 1000


class StatusError(ValueError):
    """A status whose field `field` is not what it should be."""


def _number(most: float) -> Callable[[object], float]:
    def read(v: object) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not 0 <= v <= most:
            raise ValueError(f"must be a finite number from 0 to {most:g}")
        return float(v)
    return read


def _count(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MOST_COUNT:
        raise ValueError("must be a whole number from 0")
    return v


def _pid(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 < v < 2 ** 31:
        raise ValueError("must be a process id (a whole number from 1)")
    return v


def _text(v: object) -> str:
    if not isinstance(v, str) or len(v) > MOST_TEXT:
        raise ValueError(f"must be text of at most {MOST_TEXT} characters")
    return v


def _flag(v: object) -> bool:
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


def _texts(v: object) -> list[str]:
    if not isinstance(v, list) or len(v) > MOST_ITEMS:
        raise ValueError(f"must be a list of at most {MOST_ITEMS} texts")
    return [_text(item) for item in v]


def _errors(v: object) -> list[dict[str, Any]]:
    if not isinstance(v, list) or len(v) > MOST_ITEMS:
        raise ValueError(f"must be a list of at most {MOST_ITEMS} errors")
    out = []
    for item in v:
        if not isinstance(item, dict) or set(item) != {"at", "line"}:
            raise ValueError('each error must be {"at": TIME, "line": TEXT}')
        out.append({"at": _number(MOST_TIME)(item["at"]), "line": _text(item["line"])})
    return out


def _or_none(read: Callable[[object], Any]) -> Callable[[object], Any]:
    return lambda v: None if v is None else read(v)


FIELDS: Mapping[str, Callable[[object], Any]] = {
    "running": _flag, "written": _number(MOST_TIME), "pid": _pid,
    "started": _number(MOST_TIME), "uptime_seconds": _number(MOST_TIME), "backend": _text, "mode": _text,
    "screen": _text, "today": _text, "games_started": _count, "games_finished": _count, "frames": _count,
    "frames_per_second": _number(1e6), "errors": _errors, "data_dir": _text, "free_bytes": _or_none(_count),
    "watchdog_armed": _flag, "last_ping": _or_none(_number(MOST_TIME)), "faults": _texts,
    "brightness": _number(1.0), "clock": _or_none(_text), "process": _or_none(_text),
}
"""Each field of a status, read and checked; the first three are needed."""
NEEDED = ("running", "written", "pid")


def checked(status: object) -> dict[str, Any]:
    """The status with every known field checked (others are left as they are); StatusError naming the first
    field at fault."""
    if not isinstance(status, dict):
        raise StatusError("not a status of roseking (a JSON object)")
    out = dict(status)
    for name in NEEDED:
        if name not in status:
            raise StatusError(f"{name}: missing")
    for name, read in FIELDS.items():
        if name in status:
            try:
                out[name] = read(status[name])
            except ValueError as exc:
                raise StatusError(f"{name}: {exc} (got {brief(status[name])})") from None
    return out


def process_identity(pid: int) -> str | None:
    """What tells process `pid` from a later one given the same id, or one of another boot: the boot's id and
    the process's start (Linux); None where that cannot be read (the process gone, or no /proc)."""
    try:
        boot = BOOT_ID.read_text().strip()
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, UnicodeDecodeError):
        return None
    fields = stat.rpartition(")")[2].split()
    return f"{boot}:{fields[19]}" if len(fields) > 19 else None


def clock(t: float) -> str:
    """A Unix time as the local date and time."""
    return datetime.datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M:%S")


def verdict(status: Mapping[str, Any], now: float, parts: Mapping[str, str] | None = None) -> tuple[int, str]:
    """(exit status, the verdict in words) of a `checked` status at the Unix time `now`; `parts` names the
    parts that may be at fault."""
    written, pid, process = status["written"], status["pid"], status.get("process")
    when = clock(written)
    if not status["running"]:
        return DOWN, f"roseking is DOWN: the service stopped at {when}"
    if not alive(pid) or (process is not None and process_identity(pid) != process):
        return DOWN, f"roseking is DOWN: its process {pid} is gone (it last wrote its status at {when})"
    if now - written > STALE_SECONDS:
        return STUCK, (f"roseking is STUCK: process {pid} runs, but its status is {now - written:.0f} s old (more "
                       f"than {STALE_SECONDS:g} s): its loop does not turn, and the watchdog will restart it")
    faults = status.get("faults") or []
    if faults:
        named = ", ".join((parts or {}).get(part, part) for part in faults)
        return DEGRADED, f"roseking is DEGRADED: process {pid} runs, but at fault: {named}"
    return HEALTHY, f"roseking is running (process {pid})"
