"""Buttons: gpiozero Buttons on MockFactory pins, our own debounce, events on a queue.

The debounce runs on fake timers, so no test depends on real time."""
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, Buttons, InputEnded

WINDOW = 0.02
PULSE = 0.002
PINS = {"red.card3": 27, "white.draw": 26, "menu": 19}


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
    buttons = Buttons(PINS, hold_seconds=5.0, debounce_seconds=WINDOW, pin_factory=factory, after=fake.after,
                      min_pulse_seconds=PULSE)
    yield buttons, factory, fake
    for pin in PINS.values():
        factory.pin(pin).drive_high()     # let gpiozero's hold threads stop at once
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
    assert events[0] == ButtonEvent("red", "card3", "press") and events[-1] == ButtonEvent("red", "card3", "release")
    assert [e.kind for e in events if e.control == "draw"] == ["press", "release"] * 30
    assert [e.kind for e in events if e.control == "menu"] == ["press", "release"] * 30


def test_close_cancels_the_pending_timers():
    factory, fake = MockFactory(), FakeTime()
    buttons = Buttons(PINS, 0.01, WINDOW, factory, after=fake.after, min_pulse_seconds=PULSE)
    factory.pin(26).drive_low()
    fake.advance(PULSE)                  # pressed: the debounce window's timer is pending
    factory.pin(19).drive_low()          # the minimum-pulse check's timer is pending
    assert len(fake.timers) == 2
    buttons.close()
    factory.close()
    assert fake.timers == []


def test_quick_closes_with_real_timers_print_no_traceback():
    """A real debounce timer that outlives `close()` would read a closed pin (GPIODeviceClosed)."""
    import subprocess
    import sys
    code = ("from gpiozero.pins.mock import MockFactory\n"
            "from hardware.buttons import Buttons\n"
            "import time\n"
            "for _ in range(30):\n"
            "    f = MockFactory()\n"
            "    b = Buttons({'menu': 19}, 1.0, 0.005, f, min_pulse_seconds=0.001)\n"
            "    f.pin(19).drive_low(); time.sleep(0.0012); f.pin(19).drive_high()\n"
            "    b.close(); f.close()\n"
            "time.sleep(0.05)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr


@pytest.fixture(scope="module")
def one_button():
    """One button shared by the examples below (each leaves it released and settled)."""
    factory, fake = MockFactory(), FakeTime()
    buttons = Buttons({"white.draw": 26}, 5.0, WINDOW, factory, after=fake.after, min_pulse_seconds=PULSE)
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


def test_hold_comes_from_gpiozero_while_the_button_is_down():
    factory = MockFactory()
    buttons = Buttons({"white.draw": 26}, hold_seconds=0.01, debounce_seconds=WINDOW, pin_factory=factory)
    try:
        factory.pin(26).drive_low()
        assert buttons.get(timeout=10) == ButtonEvent("white", "draw", "press")
        assert buttons.get(timeout=10) == ButtonEvent("white", "draw", "hold")   # gpiozero's hold thread
    finally:
        buttons.close()
        factory.close()


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
    assert tuple(ButtonEvent("white", "hero", "release")) == ("white", "hero", "release")
