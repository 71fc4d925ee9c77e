"""Whether the machine's time of day can be trusted, for the opening hours.

A Raspberry Pi 4 has no real-time clock, and a Pi 5's keeps time through a power cut only with its
battery: after a night-time power cut without network the clock starts where it last stopped, and
opening hours read from it would keep the table dark while the museum is open. So the table acts on
the time of day only once it is known to be right (`how_known`), which is either of:

- **synchronised**: the kernel's clock is kept by NTP (systemd-timesyncd, chrony, ntpd). This is
  the test `timedatectl` makes for "System clock synchronized: yes": `adjtimex(2)`, which changes
  nothing when asked nothing, says the clock's maximum error is below 16 s.
- **a real-time clock set it at boot**: `/sys/class/rtc/rtc0/hctosys` reads 1 (the Pi 5 with its
  battery, an RTC module).

Until then the table stays awake (always open, at its day brightness), and asks again every minute.
"""
import contextlib
import ctypes
from pathlib import Path

RTC_SET_AT_BOOT = Path("/sys/class/rtc/rtc0/hctosys")
MOST_ERROR_US = 16_000_000      # systemd's bound: a clock whose maximum error is below it is synchronised


class Timex(ctypes.Structure):
    """The start of `struct timex` (adjtimex(2)), as the C library lays it out on this machine, with room
    for the rest."""
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("rest", ctypes.c_byte * 256)]


def synchronised() -> bool:
    """True when the kernel's clock is synchronised (False where adjtimex cannot be asked)."""
    try:
        adjtimex = ctypes.CDLL(None, use_errno=True).adjtimex
    except (OSError, AttributeError):
        return False
    timex = Timex()                     # modes 0: only read
    state: int = adjtimex(ctypes.byref(timex))
    return state >= 0 and 0 <= timex.maxerror < MOST_ERROR_US


def set_by_rtc(path: Path = RTC_SET_AT_BOOT) -> bool:
    """True when a real-time clock set the system clock at boot."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return path.read_text().strip() == "1"
    return False


def how_known() -> str | None:
    """How the time of day is known to be right, in words, or None while it is not.

    >>> how_known() in (None, "synchronised by network time", "set from the real-time clock at boot")
    True
    """
    if synchronised():
        return "synchronised by network time"
    if set_by_rtc():
        return "set from the real-time clock at boot"
    return None
