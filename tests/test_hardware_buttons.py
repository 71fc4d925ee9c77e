"""Buttons: gpiozero input devices on MockFactory pins, the one rule of press, hold and release
(`hardware.events`), events on a queue; the same rule driven by a source with no pins.

The rule runs on fake timers, so no test depends on real time."""
import pytest

import processes
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import Buttons
from hardware.events import ButtonEvent, ButtonTiming, Contact, InputEnded, Origin

WINDOW = 0.02
PULSE = 0.002
PINS = {"red.card3": 27, "white.draw": 26, "menu": 19}
TIMING = ButtonTiming(hold_seconds=5.0, debounce_seconds=WINDOW, min_pulse_seconds=PULSE)


class FakeTimer:
    def __init__(self, fake, due, callback):
        self.fake, self.due, self.callback = fake, due, callback

    def cancel(self):
        if self in self.fake.timers:
            self.fake.timers.remove(self)


class FakeTime:
    """A clock and a timer queue whose time moves only when told."""

    def __init__(self):
        self.now = 100.0
        self.timers = []

    def clock(self):
        return self.now

    def after(self, delay, callback):
        timer = FakeTimer(self, self.now + delay, callback)
        self.timers.append(timer)
        return timer

    def advance(self, seconds):
        """Move time on by `seconds`, running each timer that falls due on the way, in order."""
        end = self.now + seconds
        while due := sorted((t for t in self.timers if t.due <= end), key=lambda t: t.due):
            timer = due[0]
            self.timers.remove(timer)
            self.now = timer.due
            timer.callback()
        self.now = end


@pytest.fixture
def rig():
    factory = MockFactory()
    fake = FakeTime()
    buttons = Buttons(PINS, TIMING, factory, after=fake.after)
    yield buttons, factory, fake
    buttons.close()
    factory.close()


def drain(buttons):
    events = []
    while (event := buttons.get(timeout=0)) is not None:
        events.append(event)
    return events


def toggle(pin, fake, levels, gap=0.001):
    """Drive the pin through `levels` (True = high = released), `gap` seconds apart."""
    for high in levels:
        pin.drive_high() if high else pin.drive_low()
        fake.advance(gap)


def test_one_event_per_press_and_release_despite_bounce(rig):
    buttons, factory, fake = rig
    pin = factory.pin(27)
    toggle(pin, fake, [False, True, False, True, False])      # bouncing down
    fake.advance(0.5)
    toggle(pin, fake, [True, False, True, False, True])       # bouncing up
    fake.advance(0.5)
    assert drain(buttons) == [ButtonEvent("red", "card3", "press"), ButtonEvent("red", "card3", "release")]


def test_a_tap_shorter_than_the_window_still_ends_in_a_release(rig):
    buttons, factory, fake = rig
    toggle(factory.pin(19), fake, [False, True], gap=0.005)
    assert drain(buttons) == [ButtonEvent(None, "menu", "press")]
    fake.advance(WINDOW)
    assert drain(buttons) == [ButtonEvent(None, "menu", "release")]


@pytest.mark.parametrize("glitch", [0.0001, PULSE * 0.9])
def test_a_glitch_shorter_than_the_minimum_pulse_is_no_press(rig, glitch):
    buttons, factory, fake = rig
    toggle(factory.pin(19), fake, [False, True], gap=glitch)
    fake.advance(1.0)
    assert drain(buttons) == []
    toggle(factory.pin(19), fake, [False], gap=PULSE * 1.5)     # a real press still counts
    assert drain(buttons) == [ButtonEvent(None, "menu", "press")]


def test_a_button_held_for_minutes_holds_up_no_other(rig):
    buttons, factory, fake = rig
    factory.pin(27).drive_low()
    fake.advance(0.1)
    for _ in range(30):                                   # ten minutes of presses on the others
        toggle(factory.pin(26), fake, [False, True], gap=0.05)
        toggle(factory.pin(19), fake, [False, True], gap=0.05)
        fake.advance(20.0)
    factory.pin(27).drive_high()
    fake.advance(0.1)
    events = drain(buttons)
    assert [e.kind for e in events if e.control == "card3"] == ["press", "hold", "stuck", "release"]
    assert [e.kind for e in events if e.control == "draw"] == ["press", "release"] * 30
    assert [e.kind for e in events if e.control == "menu"] == ["press", "release"] * 30


def test_a_stuck_button_says_so_once_at_its_time_and_is_a_button_again_once_released():
    """Held down past `stuck_seconds`: one `stuck` (it counts as up from then on), nothing more however long
    it stays down (never a stream of presses), and after its release it presses as any button does."""
    factory, fake = MockFactory(), FakeTime()
    timing = ButtonTiming(hold_seconds=1.0, debounce_seconds=WINDOW, min_pulse_seconds=PULSE, stuck_seconds=30.0)
    buttons = Buttons({"red.card3": 27}, timing, factory, after=fake.after)
    try:
        pin = factory.pin(27)
        pin.drive_low()
        fake.advance(30.0)
        assert [e.kind for e in drain(buttons)] == ["press", "hold"]     # not yet: 30 s after the edge
        fake.advance(PULSE)
        assert [e.kind for e in drain(buttons)] == ["stuck"]
        fake.advance(3600.0)                                            # an hour more: nothing
        assert drain(buttons) == [] and fake.timers == []
        pin.drive_high()
        fake.advance(0.5)
        assert [e.kind for e in drain(buttons)] == ["release"]
        toggle(pin, fake, [False, True], gap=0.2)                       # recovered: a tap is a tap
        fake.advance(0.5)
        assert [e.kind for e in drain(buttons)] == ["press", "release"]
    finally:
        buttons.close()
        factory.close()


def test_close_cancels_the_pending_timers():
    factory, fake = MockFactory(), FakeTime()
    buttons = Buttons(PINS, TIMING, factory, after=fake.after)
    factory.pin(26).drive_low()
    fake.advance(PULSE)                  # pressed: the hold's and the debounce window's timers are pending
    factory.pin(19).drive_low()          # the minimum-pulse check's timer is pending
    assert len(fake.timers) == 3
    buttons.close()
    factory.close()
    assert fake.timers == []


def test_quick_closes_with_real_timers_print_no_traceback():
    """A real debounce timer that outlives `close()` would read a closed pin (GPIODeviceClosed)."""
    import sys
    code = ("from gpiozero.pins.mock import MockFactory\n"
            "from hardware.buttons import Buttons\n"
            "from hardware.events import ButtonTiming\n"
            "import time\n"
            "for _ in range(30):\n"
            "    f = MockFactory()\n"
            "    b = Buttons({'menu': 19}, ButtonTiming(0.001, 0.005, 0.001), f)\n"
            "    f.pin(19).drive_low(); time.sleep(0.0012); f.pin(19).drive_high()\n"
            "    b.close(); f.close()\n"
            "time.sleep(0.05)\n")
    run = processes.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr


@pytest.fixture(scope="module")
def one_button():
    """One button shared by the examples below (each leaves it released and settled)."""
    factory, fake = MockFactory(), FakeTime()
    buttons = Buttons({"white.draw": 26}, TIMING, factory, after=fake.after)
    yield buttons, factory.pin(26), fake
    buttons.close()
    factory.close()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=12), st.lists(st.integers(1, 5), min_size=1, max_size=12))
def test_any_bounce_within_the_window_gives_exactly_one_press_and_one_release(one_button, down_steps, up_steps):
    """Each bounce lasts at most 12 × 5 × WINDOW/100 = 0.6 WINDOW and ends at the settled level."""
    buttons, pin, fake = one_button
    for steps, settled_high in ((down_steps, False), (up_steps, True)):
        levels = [settled_high == ((len(steps) - 1 - i) % 2 == 0) for i in range(len(steps))]
        for high, step in zip(levels, steps):
            pin.drive_high() if high else pin.drive_low()
            fake.advance(step * WINDOW / 100)
        fake.advance(1.0)
    assert [e.kind for e in drain(buttons)] == ["press", "release"]


def test_a_button_down_for_the_hold_time_holds_once_and_a_shorter_press_never(rig):
    buttons, factory, fake = rig
    pin = factory.pin(26)
    toggle(pin, fake, [False], gap=TIMING.hold_seconds - 0.01)
    toggle(pin, fake, [True], gap=1.0)                        # up just before the hold time
    toggle(pin, fake, [False], gap=3 * TIMING.hold_seconds)   # down three hold times: one hold
    toggle(pin, fake, [True], gap=1.0)
    assert [e.kind for e in drain(buttons)] == ["press", "release", "press", "hold", "release"]


def test_a_hold_timer_of_an_earlier_press_never_fires_in_a_later_one():
    """The hold timer of a press that was let go is cancelled; should it run all the same (a real timer
    already on its way), it belongs to another press and says nothing."""
    events, down, timers = [], [False], []
    fake = FakeTime()

    def late_after(delay, callback):          # timers whose cancel comes too late
        timers.append(callback)
        return fake.after(delay, callback)

    contact = Contact("red.hero", ButtonTiming(1.0, WINDOW, 0.0), events.append, lambda: down[0], late_after)
    down[0] = True
    contact.changed()                         # press 1: its hold timer is timers[0]
    fake.advance(0.5)
    down[0] = False
    contact.changed()
    fake.advance(0.1)
    down[0] = True
    contact.changed()                         # press 2
    timers[0]()                               # press 1's hold, late
    assert [e.kind for e in events] == ["press", "release", "press"]
    fake.advance(1.0)
    assert [e.kind for e in events] == ["press", "release", "press", "hold"]


@pytest.mark.parametrize("timeline", [
    [(True, 0.3), (False, 1.0)],
    [(True, 6.0), (False, 0.5), (True, 0.01), (False, 2.0)],
    [(True, 0.001), (False, 0.001), (True, 5.5), (False, 0.3)],
])
def test_a_source_without_pins_gets_the_same_events_by_the_same_rule(timeline):
    """A web page's presses and releases (say) go through `Contact` as the GPIO edges do: the same
    press, hold and release at the same times, from the one rule and its one timing."""
    def run(source):
        fake = FakeTime()
        drive, drain_events = source(fake)
        seen = []
        for down, seconds in timeline:
            drive(down)
            for _ in range(round(seconds / 0.001)):
                fake.advance(0.001)
                seen += [(round(fake.now - 100.0, 3), str(e)) for e in drain_events()]
        return seen

    def gpio(fake):
        factory = MockFactory()
        buttons = Buttons({"red.hero": 6}, TIMING, factory, after=fake.after)
        pin = factory.pin(6)
        return (lambda down: pin.drive_low() if down else pin.drive_high()), lambda: drain(buttons)

    def page(fake):
        level, events = [False], []
        contact = Contact("red.hero", TIMING, events.append, lambda: level[0], fake.after)

        def drive(down):
            level[0] = down
            contact.changed()

        def taken():
            out = events[:]
            events.clear()
            return out
        return drive, taken

    by_page = run(page)
    assert by_page == run(gpio)
    holds = sum(seconds >= TIMING.hold_seconds for down, seconds in timeline if down)
    assert [event for _, event in by_page].count("red.hero hold") == holds


def test_end_of_input_comes_after_the_last_event(rig):
    buttons, factory, fake = rig
    factory.pin(26).drive_low()
    fake.advance(PULSE)
    buttons.end()
    assert buttons.get() == ButtonEvent("white", "draw", "press")
    with pytest.raises(InputEnded):
        buttons.get()
    with pytest.raises(InputEnded):
        buttons.get(timeout=0)


def test_event_names():
    assert str(ButtonEvent("red", "card3", "press")) == "red.card3 press"
    assert ButtonEvent(None, "menu", "hold").name == "menu"
    assert tuple(ButtonEvent("white", "hero", "release")) == ("white", "hero", "release", "panel")   # the table's own
    assert ButtonEvent("red", "card1", "press", Origin.NETWORK).origin == "network"
