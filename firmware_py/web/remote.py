"""The page's buttons: presses and releases from browsers, made into the very events the GPIO buttons make.

Each button has one `hardware.events.Contact`, the rule the GPIO buttons use (glitch filter,
debounce, hold), whose events go to `put` (the loop's `submit`), each saying it comes from the
network (`Origin.NETWORK`: the table never lets such a press reach what only the staff may do).
Its level is down while any client holds the button down (two fingers on one button are still
one button), and for at least the timing's `tap_seconds` after each press, as a finger's tap
lasts (a click's down and up may arrive together); a client that goes away lets go of all it held.

>>> from types import SimpleNamespace
>>> from hardware.events import ButtonTiming
>>> events, timers = [], []
>>> def after(delay, call):
...     timers.append((delay, call))
...     return SimpleNamespace(cancel=lambda: None)
>>> remote = RemoteButtons(["red.card1"], ButtonTiming(1.0, 0.02, 0.0), events.append, after)
>>> remote.set("ann", "red.card1", True); remote.set("ann", "red.card1", False)
>>> [str(e) for e in events]              # the release waits for the tap to have lasted
['red.card1 press']
>>> for delay, call in sorted(timers, key=lambda t: t[0]): call()     # the debounce, the tap, the hold
>>> [str(e) for e in events]
['red.card1 press', 'red.card1 release']
"""
import itertools
from collections.abc import Callable, Hashable, Iterable

from hardware.events import After, ButtonEvent, ButtonTiming, Contact, Origin, Timer


class RemoteButtons:
    """The buttons `names` (e.g. `red.card1`, `menu`) pressed from browsers, by `timing`, each event to
    `put` saying it comes from `origin` (the network; a stand-in for the table's own buttons says so);
    `after(delay, callback)` is the timer (the asyncio loop's `call_later`)."""

    def __init__(self, names: Iterable[str], timing: ButtonTiming, put: Callable[[ButtonEvent], None],
                 after: After, origin: Origin = Origin.NETWORK) -> None:
        self.timing, self._after = timing, after
        self._holders: dict[str, set[Hashable]] = {}
        self._tapping: dict[str, int] = {}      # presses still within their tap
        self._timers: dict[int, Timer] = {}    # the pending taps' timers
        self._count = itertools.count()
        self._contacts: dict[str, Contact] = {}
        for name in names:
            self._holders[name], self._tapping[name] = set(), 0
            self._contacts[name] = Contact(name, timing, put, self._level(name), after, origin)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._contacts)

    def _level(self, name: str) -> Callable[[], bool]:
        return lambda: bool(self._holders[name]) or self._tapping[name] > 0

    def set(self, client: Hashable, name: str, down: bool) -> None:
        """`client` pushes button `name` down (`down`) or lets it go; KeyError for an unknown name."""
        holders, contact = self._holders[name], self._contacts[name]
        if down:
            holders.add(client)
            self._tapping[name] += 1
            key = next(self._count)

            def tapped() -> None:
                self._tapping[name] -= 1
                self._timers.pop(key, None)
                contact.changed()
            self._timers[key] = self._after(self.timing.tap_seconds, tapped)
        else:
            holders.discard(client)
        contact.changed()

    def release(self, client: Hashable) -> None:
        """`client` has gone: every button it held is let go."""
        for name, holders in self._holders.items():
            if client in holders:
                self.set(client, name, False)

    def close(self) -> None:
        """Cancel every pending timer; later presses do nothing."""
        for contact in self._contacts.values():
            contact.close()
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
