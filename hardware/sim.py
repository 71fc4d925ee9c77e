"""The simulated backend: a real backend without a Pi.

Frames go to the terminal (when it is one), to `--frames` (JSON Lines) and to
`--snapshot` (PNGs). Buttons are the same gpiozero `Button`s as on the Pi, on
`MockFactory` pins driven by the keyboard or by an input script.
"""
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from gpiozero.pins.mock import MockFactory

from hardware.buttons import Buttons
from hardware.config import Config
from hardware.devices import Devices
from hardware.frame import RGB, Bitmap, Frame, check_slots
from hardware.framelog import FrameLog, TextSink
from hardware.keyboard import Keyboard, interactive, key_map, legend
from hardware.script import Step, run_script
from hardware.snapshot import Snapshots
from hardware.terminal import TerminalView

MIN_TAP_SECONDS = 0.05
HOLD_MARGIN_SECONDS = 0.3


class SimPins:
    """Drives the mock pins under named buttons as a finger would (pressed = low)."""

    def __init__(self, factory: MockFactory, pins: Mapping[str, int],
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._factory, self._pins, self._sleep = factory, pins, sleep

    def down(self, name: str) -> None:
        self._factory.pin(self._pins[name]).drive_low()

    def up(self, name: str) -> None:
        self._factory.pin(self._pins[name]).drive_high()

    def press(self, name: str, seconds: float) -> None:
        """Hold `name` down for `seconds`, then let go."""
        self.down(name)
        self._sleep(seconds)
        self.up(name)


class SimScreen:
    """Shows frames on every output: each output is called with `(frame, seconds since start)`."""

    def __init__(self, slots: tuple[str, ...], outputs: Sequence[Callable[[Frame, float], object]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.slots, self._outputs, self._clock = slots, outputs, clock
        self._start = clock()
        self.current = Frame()

    def show(self, frame: Frame) -> None:
        """Show `frame` on every output."""
        check_slots(frame.displays, self.slots)
        self.current = frame
        t = self._clock() - self._start
        for output in self._outputs:
            output(frame, t)


class SimLights:
    """The board part of the simulated screen."""

    def __init__(self, screen: SimScreen) -> None:
        self._screen = screen

    def show(self, board: Sequence[RGB]) -> None:
        """Show `board` beside the displays' current bitmaps."""
        self._screen.show(Frame(board, self._screen.current.displays))

    def close(self) -> None:
        """Nothing to release: the screen's outputs are closed by `SimDevices`."""


class SimDisplays:
    """The card-display part of the simulated screen."""

    def __init__(self, screen: SimScreen) -> None:
        self._screen = screen
        self.slots = screen.slots

    def show(self, bitmaps: Mapping[str, Bitmap]) -> None:
        """Show `bitmaps` beside the board's current colours."""
        self._screen.show(Frame(self._screen.current.board, bitmaps))

    def close(self) -> None:
        """Nothing to release: the screen's outputs are closed by `SimDevices`."""


class SimDevices(Devices):
    """Devices whose `show(frame)` records one frame, not a board and then the displays."""

    def __init__(self, screen: SimScreen, buttons: Buttons, closers: Sequence[Callable[[], object]]) -> None:
        super().__init__("sim", SimLights(screen), SimDisplays(screen), buttons, closers)
        self.screen = screen

    def show(self, frame: Frame) -> None:
        """Show `frame` as one picture."""
        self.screen.show(frame)


def open_sim(config: Config, snapshot: Callable[[str, bytes], None] | None = None, frames: TextSink | None = None,
             input_script: list[Step] | None = None, exit_after_script: bool = False, view: bool | None = None,
             stdin: TextIO | None = None, stdout: TextIO | None = None,
             clock: Callable[[], float] = time.monotonic) -> SimDevices:
    """Open the simulated backend; `view` None draws in the terminal when stdout is one.

    `frames` is an open text file for the frame log (`hardware.framelog`), `snapshot` a
    `save(name, png)` callable for pictures (`hardware.snapshot`), `input_script` the
    steps of a parsed script (`hardware.script.parse_script`)."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    b = config.buttons
    slots, seats = config.displays.chain, config.seats
    outputs: list[Callable[[Frame, float], object]] = []
    closers: list[Callable[[], object]] = []
    keys = {key: name for key, name in key_map(seats).items() if name in b.pins}
    show_view = view if view is not None else interactive(stdout)
    if show_view:
        terminal = TerminalView(stdout, slots, seats, legend(keys))
        outputs.append(lambda frame, t: terminal.draw(frame))
        closers.append(terminal.close)
    if frames is not None:
        outputs.append(FrameLog(frames, slots).write)
    if snapshot is not None:
        snapshots = Snapshots(snapshot, slots, seats)
        outputs.append(lambda frame, t: snapshots.write(frame))
    factory = MockFactory()
    buttons = Buttons(b.pins, b.hold_seconds, b.debounce_seconds, factory)
    pins = SimPins(factory, b.pins)
    tap = max(2 * b.debounce_seconds, MIN_TAP_SECONDS)
    if input_script is not None:
        steps = input_script

        def play() -> None:
            run_script(steps, pins, tap)
            if exit_after_script:
                buttons.end()
        threading.Thread(target=play, daemon=True, name="sim-script").start()
    elif show_view and interactive(stdin):
        keyboard = Keyboard(stdin, keys, pins, tap, b.hold_seconds + HOLD_MARGIN_SECONDS)
        closers.insert(0, keyboard.close)
    closers.append(factory.close)
    return SimDevices(SimScreen(slots, outputs, clock), buttons, closers)
