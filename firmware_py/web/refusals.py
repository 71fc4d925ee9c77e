"""What the page refused to the network, counted and summed up, so that no crowd of requests wipes the
operator's log.

Every refusal (a request without the token, another site's, a name the page does not answer to,
too many messages, a request aiohttp could not read, a connection over the limits) is counted by
its status, with what was asked (the path, never the query: no token reaches the log) and from
where. The service's log is told the first `WHOLE_LINES` refusals of each minute whole and, once
the minute is over, how many more there were: at most `WHOLE_LINES + 1` lines a minute come from
the network, however much it sends. What a visitor does that is worth a line (naming the seats,
where anyone may) shares the same budget (`note`). None of them is kept among the service's own last errors
(the status keeps those for the operator's page): the page shows the refusals apart (`to_dict`).

>>> lines, now = [], [0.0]
>>> refusals = Refusals(lines.append, clock=lambda: now[0], wall=lambda: 0.0)
>>> for _ in range(60):
...     refusals.refused(403, "POST /api/names", "10.0.0.7", "naming the players needs the operator's token")
>>> now[0] = 61.0; refusals.tick()
>>> len(lines), lines[-1]
(4, 'roseking: web: 57 more refusals in the last minute (403 ×57) from 1 address')
>>> refusals.to_dict()["total"], refusals.to_dict()["by_status"]
(60, {'403': 60})
"""
import collections
import time
from collections.abc import Callable
from typing import Any

WINDOW_SECONDS = 60.0
WHOLE_LINES = 3             # refusals a minute said whole in the log; the rest are summed up
KEPT = 10                   # the last refusals the operator's page shows
MOST_ADDRESSES = 10_000     # addresses told apart in a minute's summary
Log = Callable[[str], None]


class Refusals:
    """The refusals of the page's server, said to `log` (a log whose lines are not kept among the service's
    errors) at a bounded rate; `clock` counts the minutes, `wall` stamps the last ones."""

    def __init__(self, log: Log, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.log, self.clock, self.wall = log, clock, wall
        self.total = 0
        self.by_status: collections.Counter[int] = collections.Counter()
        self.last: collections.deque[tuple[float, int, str, str, str]] = collections.deque(maxlen=KEPT)
        self._since: float | None = None            # the minute being counted began then
        self._said = 0
        self._held: collections.Counter[int] = collections.Counter()
        self._notes = 0                             # notes held back this minute
        self._from: set[str] = set()

    def refused(self, status: int, what: str, address: str, why: str) -> None:
        """`what` (`METHOD PATH`, or what a message asked) from `address` was refused with `status`, saying `why`."""
        self.tick()
        what, why = what[:200], " ".join(why.split())[:200]
        self.total += 1
        self.by_status[status] += 1
        self.last.append((self.wall(), status, what, address, why))
        if self._whole():
            self.log(f"roseking: web: refused {status} {what} from {address}: {why}")
        else:
            self._held[status] += 1
            if len(self._from) < MOST_ADDRESSES:
                self._from.add(address)

    def note(self, line: str) -> None:
        """Say `line`, something a visitor did, within this minute's lines (else it is counted and summed up)."""
        self.tick()
        if self._whole():
            self.log(line)
        else:
            self._notes += 1

    def _whole(self) -> bool:
        """Whether one more line may be said whole this minute (and count it)."""
        if self._since is None:
            self._since = self.clock()
        if self._said >= WHOLE_LINES:
            return False
        self._said += 1
        return True

    def tick(self) -> None:
        """Once the minute is over: how many refusals were not said whole, in one line; a new minute begins."""
        if self._since is None or self.clock() < self._since + WINDOW_SECONDS:
            return
        if self._held:
            held = sum(self._held.values())
            kinds = ", ".join(f"{status} ×{n}" for status, n in sorted(self._held.items()))
            senders = f"{len(self._from)}{'+' if len(self._from) >= MOST_ADDRESSES else ''} address" + \
                ("es" if len(self._from) != 1 else "")
            notes = f"; {self._notes} more note{'s' if self._notes != 1 else ''} held back" if self._notes else ""
            self.log(f"roseking: web: {held} more refusal{'s' if held != 1 else ''} in the last minute ({kinds}) "
                     f"from {senders}{notes}")
        elif self._notes:
            self.log(f"roseking: web: {self._notes} more note{'s' if self._notes != 1 else ''} from the network "
                     "held back in the last minute")
        self._since, self._said, self._notes = None, 0, 0
        self._held.clear()
        self._from.clear()

    def to_dict(self) -> dict[str, Any]:
        """For the operator's page: the refusals in all and by status, and the last few (newest last)."""
        return {"total": self.total, "by_status": {str(s): n for s, n in sorted(self.by_status.items())},
                "last": [{"at": at, "status": status, "what": what, "from": address, "why": why}
                         for at, status, what, address, why in self.last]}
