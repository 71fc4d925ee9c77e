"""systemd's notify protocol, spoken directly: `READY=1`, `WATCHDOG=1`, `STATUS=…` and `STOPPING=1`.

A service of `Type=notify` tells systemd how it is by datagrams to the `AF_UNIX` socket named in
`$NOTIFY_SOCKET` (a path, or an abstract name when it starts with `@`), each newline-separated
`KEY=VALUE` lines. `$WATCHDOG_USEC` (with `WatchdogSec=`) is how often systemd wants `WATCHDOG=1`,
and `$WATCHDOG_PID` which process is to send it. The table's loop pings at half that period from
its own step, on its own clock, so a loop that no longer turns sends nothing and systemd restarts it.

No library: sdnotify, the pure-Python one, has had no release since 2017; systemd-python wraps
libsystemd and needs its headers and a compiler to build on a Pi; the protocol is one `sendto`.

>>> quiet = Notifier({})          # not started by systemd: every message goes nowhere
>>> quiet.ready("menu"), quiet.armed
(False, False)
"""
import os
import socket
import time
from collections.abc import Callable, Mapping

ENVIRONMENT = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")
Log = Callable[[str], None]


class Notifier:
    """Messages to systemd, when `env` names its socket (else they go nowhere). `step(now)`, called by the
    loop at each step on its `clock`, pings the watchdog when `env` arms it; `last_ping` is the time of
    day (`wall`) of the latest ping. A message that cannot be sent is logged once for each reason."""

    def __init__(self, env: Mapping[str, str], log: Log = lambda line: None, wall: Callable[[], float] = time.time
                 ) -> None:
        self.log, self.wall = log, wall
        path = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + path[1:] if path.startswith("@") else path
        self.interval: float | None = None
        """Seconds between pings: half of `$WATCHDOG_USEC`, when the watchdog is armed for this process."""
        usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
        if self.address and usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval = int(usec) / 2e6
        self.last_ping: float | None = None
        self._next = -float("inf")
        self._status: str | None = None
        self._told: set[str] = set()
        self._socket: socket.socket | None = None
        if self.address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.setblocking(False)

    @classmethod
    def from_environment(cls, log: Log = lambda line: None) -> "Notifier":
        """The notifier systemd's environment asks for, its variables then taken out of the environment so
        that no process started from here (the computer's worker, a shutdown command) speaks for the service."""
        env = {key: os.environ.pop(key) for key in ENVIRONMENT if key in os.environ}
        return cls(env, log)

    @property
    def armed(self) -> bool:
        """True when systemd watches this process with a watchdog."""
        return self.interval is not None

    def send(self, *lines: str) -> bool:
        """Send `lines` as one message; True if sent."""
        if self._socket is None:
            return False
        try:
            self._socket.sendto("\n".join(lines).encode("utf-8", "replace"), self.address)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            if reason not in self._told:
                self._told.add(reason)
                self.log(f"roseking: cannot tell systemd how the table is ({reason}); the table goes on")
            return False
        return True

    def ready(self, status: str) -> bool:
        """The service is up (the devices open, the first frame shown), and how it is."""
        self._status = status
        return self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> None:
        """Say `status` (one short line: the mode, the screen, what is at fault) if it is new."""
        if status != self._status:
            self._status = status
            self.send(f"STATUS={status}")

    def step(self, now: float) -> None:
        """The loop turns: ping the watchdog if its half period has passed since the last ping."""
        if self.interval is not None and now >= self._next:
            if self.send("WATCHDOG=1"):
                self.last_ping = self.wall()
            self._next = now + self.interval

    def stopping(self) -> bool:
        """The service stops of its own accord or as asked; what follows is its clean end."""
        return self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
