"""A part that fails: the board's LED driver or the card displays raising, the computer's worker dying,
a save the disk will not take. The game goes on with what still works.

Each failing part is tried again after 1 s, then 2 s, 4 s … at most a minute (`Backoff`), on the
loop's clock, and at once again after it has worked. Each kind of failure is logged once, then
counted (a line at the 10th, 100th, 1000th …), and its return after an outage is logged
(`FaultLog`), so a part failing for months, or every tenth frame, costs a handful of log lines.
A device that fails is guarded (`guard`): the table shows the fault on what still works
(`FAULT_MESSAGES` on the displays when the board's lights fail, a steady mark on the board when the
displays fail; `firmware_py.table.scenes`), and the part's latest picture is sent when it is
tried again.

>>> times = Backoff()
>>> [times.failed(0.0) for _ in range(8)]
[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
>>> times.ready(59.0), times.ready(60.0), times.succeeded(), times.failing
(False, True, True, False)
"""
import math
from collections.abc import Callable, Mapping, Sequence

from hardware.devices import Devices
from hardware.frame import RGB, Bitmap
from hardware.roles import CardDisplays, Lights

FAULT_MESSAGES = {"lights": "fault-lights", "computer": "fault-computer"}
"""Part → the message (`firmware_py.table.messages`) the table says of its fault on every seat's card displays."""

FIRST_RETRY_SECONDS = 1.0
MOST_RETRY_SECONDS = 60.0
UNAVAILABLE_AFTER = 3       # deaths of the computer's worker in a row after which the table says so
OUTAGE = 3                  # failures in a row that make an outage, whose end is logged
PARTS = {"lights": "the board's lights", "displays": "the card displays", "computer": "the computer's worker",
         "save": "saving the game"}
Log = Callable[[str], None]
Clock = Callable[[], float]


class Backoff:
    """When to try a failing part again: FIRST_RETRY_SECONDS after its first failure, twice as long after
    each further failure in a row, at most MOST_RETRY_SECONDS; at once after a success."""

    def __init__(self) -> None:
        self.failures = 0               # in a row
        self.since: float | None = None     # when the first of them came
        self.until = -math.inf

    @property
    def failing(self) -> bool:
        return self.failures > 0

    def ready(self, now: float) -> bool:
        """True when the part may be tried (again) at `now`."""
        return now >= self.until

    def failed(self, now: float) -> float:
        """One more failure at `now`: the seconds until the next try."""
        delay = min(MOST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2.0 ** min(self.failures, 32))
        if self.failures == 0:
            self.since = now
        self.failures += 1
        self.until = now + delay
        return delay

    def succeeded(self) -> bool:
        """The part worked: True if it had been failing."""
        was = self.failing
        self.failures, self.since, self.until = 0, None, -math.inf
        return was


class FaultLog:
    """The log of failures: each kind (a part and what it raised) said once, then at its 10th, 100th,
    1000th … time; a part that works again said the first time and after each outage."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.counts: dict[tuple[str, str], int] = {}
        self.returned: set[str] = set()

    def failed(self, part: str, what: str, retry: float) -> None:
        """`part` (a key of PARTS) failed with `what` (an exception's type and text); next try in `retry` s."""
        kind = (part, what.split(":", 1)[0])
        count = self.counts[kind] = self.counts.get(kind, 0) + 1
        if count == 1:
            self.log(f"roseking: {PARTS[part]} failed ({what}); the game goes on, tried again in {retry:g} s, "
                     f"then less often (at most every {MOST_RETRY_SECONDS:g} s)")
        elif math.log10(count).is_integer():
            self.log(f"roseking: {PARTS[part]} failed {count} times so far ({kind[1]})")

    def recovered(self, part: str, failures: int) -> None:
        """`part` works again after `failures` in a row: said the first time, and after an outage (three
        failures in a row or more: out for 7 s at least), never for each blink of a flaky part."""
        if failures >= OUTAGE or part not in self.returned:
            self.returned.add(part)
            self.log(f"roseking: {PARTS[part]} work{'' if part in ('lights', 'displays') else 's'} again "
                     f"(after {failures} failure{'s' if failures != 1 else ''} in a row)")


def described(exc: BaseException) -> str:
    """An exception in a line: its type and its text."""
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Guard:
    """One device kept at arm's length: `call(key, action)` runs `action` now unless the device waits for
    its next try, when only the latest action of each key is kept for that try (`retry`)."""

    def __init__(self, part: str, clock: Clock, faults: FaultLog) -> None:
        self.part, self.clock, self.faults = part, clock, faults
        self.backoff = Backoff()
        self._pending: dict[str, Callable[[], None]] = {}

    def call(self, key: str, action: Callable[[], None]) -> None:
        self._pending[key] = action
        now = self.clock()
        if self.backoff.ready(now):
            self._try(now)

    def retry(self, now: float) -> None:
        """Try the device again if it is failing and its time has come."""
        if self.backoff.failing and self.backoff.ready(now):
            self._try(now)

    def _try(self, now: float) -> None:
        try:
            for key, action in list(self._pending.items()):
                action()
                del self._pending[key]
        except Exception as exc:  # noqa: BLE001  (whatever a driver raises, the game goes on)
            self.faults.failed(self.part, described(exc), self.backoff.failed(now))
            return
        failures = self.backoff.failures
        if self.backoff.succeeded():
            self.faults.recovered(self.part, failures)


class GuardedLights:
    """The board's lights behind a `Guard`."""

    def __init__(self, lights: Lights, guard: Guard) -> None:
        self.inner, self.guard = lights, guard

    def show(self, board: Sequence[RGB]) -> None:
        self.guard.call("show", lambda: self.inner.show(board))

    def set_brightness(self, level: float) -> None:
        self.guard.call("brightness", lambda: self.inner.set_brightness(level))

    def close(self) -> None:
        self.inner.close()


class GuardedDisplays:
    """The card displays behind a `Guard`."""

    def __init__(self, displays: CardDisplays, guard: Guard) -> None:
        self.inner, self.guard = displays, guard

    @property
    def slots(self) -> tuple[str, ...]:
        return self.inner.slots

    def show(self, bitmaps: Mapping[str, Bitmap], dimmed: frozenset[str] = frozenset()) -> None:
        self.guard.call("show", lambda: self.inner.show(bitmaps, dimmed))

    def set_brightness(self, level: float) -> None:
        self.guard.call("brightness", lambda: self.inner.set_brightness(level))

    def close(self) -> None:
        self.inner.close()


class Faults:
    """The table's failing parts, on the loop's `clock`: the guarded devices, the computer's worker and the
    save, each with its `Backoff`, their failures in one `FaultLog`."""

    def __init__(self, clock: Clock, log: Log) -> None:
        self.clock, self.log = clock, FaultLog(log)
        self.guards: list[Guard] = []
        self.computer = Backoff()
        self.save = Backoff()

    def guard(self, devices: Devices) -> None:
        """Put `devices`' lights and displays behind guards (in place: `devices.show` goes through them)."""
        lights, displays = Guard("lights", self.clock, self.log), Guard("displays", self.clock, self.log)
        devices.lights = GuardedLights(devices.lights, lights)
        devices.displays = GuardedDisplays(devices.displays, displays)
        self.guards += [lights, displays]

    def tick(self, now: float) -> None:
        """Try again the devices whose time has come."""
        for guard in self.guards:
            guard.retry(now)

    def down(self) -> dict[str, float]:
        """The parts the table says are at fault, and since when (the loop's clock): a device failing, the
        computer after UNAVAILABLE_AFTER deaths in a row, the saves while the data directory takes none."""
        out = {g.part: g.backoff.since for g in self.guards if g.backoff.since is not None}
        if self.computer.failures >= UNAVAILABLE_AFTER and self.computer.since is not None:
            out["computer"] = self.computer.since
        if self.save.since is not None:
            out["save"] = self.save.since
        return out

    def computer_died(self, now: float, exitcode: int | None) -> None:
        """The computer's worker died while it thought: asked again after its backoff."""
        self.log.failed("computer", f"exit status {exitcode}", self.computer.failed(now))

    def computer_answered(self) -> None:
        failures = self.computer.failures
        if self.computer.succeeded():
            self.log.recovered("computer", failures)
