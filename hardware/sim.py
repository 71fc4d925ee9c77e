"""The simulated backend: a real backend without a Pi.

Frames go to the terminal (when it is one), to `--frames` (JSON Lines) and to
`--snapshot` (PNGs). Buttons are the same gpiozero input devices as on the Pi, on
`MockFactory` pins driven by the keyboard or by an input script.
"""
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TextIO

from gpiozero.pins.mock import MockFactory

from hardware.buttons import Buttons
from hardware.config import Config
from hardware.devices import Devices
from hardware.frame import CELLS, RGB, Bitmap, Frame, check_slots, turn
from hardware.framelog import FrameLog, TextSink
from hardware.keyboard import Keyboard, interactive, key_map, legend
from hardware.names import STAFF_KEY
from hardware.power import Dimmer, check_level, on_screen
from hardware.script import Step, run_script
from hardware.snapshot import Snapshots
from hardware.terminal import TerminalView

REPORT_SECONDS = 10.0       # the longest a finger waits for its press or release to be reported


class SimPins:
    """Drives the mock pins under named buttons as a finger would (pressed = low).

    Like a finger, it is slower than the buttons' timers: it keeps a button down until its
    press has been reported, and after letting go waits until its release has been, so that
    however late a busy machine runs those timers no tap is lost, nor merged with the next.
    """

    def __init__(self, factory: MockFactory, buttons: Buttons, sleep: Callable[[float], None] = time.sleep) -> None:
        self._factory, self._buttons, self._sleep = factory, buttons, sleep

    def down(self, name: str) -> None:
        """Push `name` down and keep it down (until its press is reported)."""
        self._factory.pin(self._buttons.pins[name]).drive_low()
        self._buttons.reported(name, True, REPORT_SECONDS)

    def up(self, name: str) -> None:
        """Let `name` go (until its release is reported)."""
        self._factory.pin(self._buttons.pins[name]).drive_high()
        self._buttons.reported(name, False, REPORT_SECONDS)

    def press(self, name: str, seconds: float) -> None:
        """Hold `name` down for `seconds` (and until its press is reported), then let go (until its
        release is reported)."""
        self._factory.pin(self._buttons.pins[name]).drive_low()
        self._sleep(seconds)
        self._buttons.reported(name, True, REPORT_SECONDS)
        self.up(name)


class SimScreen:
    """Shows frames on every output: each output is called with `(frame, seconds since start)`, the frame
    as lit at the brightness levels of the board and of the displays (`set_levels`)."""

    def __init__(self, slots: tuple[str, ...], outputs: Sequence[Callable[[Frame, float], object]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.slots, self._outputs, self._clock = slots, outputs, clock
        self._start = clock()
        self.current = Frame()
        self.levels = (1.0, 1.0)

    def show(self, frame: Frame) -> None:
        """Show `frame` on every output."""
        check_slots(frame.displays, self.slots)
        check_slots(frame.dimmed, self.slots)
        self.current = frame
        t = self._clock() - self._start
        lit = self._lit(frame)
        for output in self._outputs:
            output(lit, t)

    def set_levels(self, board: float | None = None, displays: float | None = None) -> None:
        """Light the board, the displays or both at a new level (`hardware.power.check_level`), the picture
        shown now included: the board's colours scaled, the displays all dimmed below 1 and blank at 0."""
        levels = (self.levels[0] if board is None else check_level(board),
                  self.levels[1] if displays is None else check_level(displays))
        if levels != self.levels:
            self.levels = levels
            self.show(self.current)

    def _lit(self, frame: Frame) -> Frame:
        board, displays = self.levels
        if (board, displays) == (1.0, 1.0):
            return frame
        return replace(frame, board=[(int(r * board), int(g * board), int(b * board)) for r, g, b in frame.board],
                       displays=frame.displays if displays else {},
                       dimmed=frame.dimmed if displays == 1.0 else frozenset(self.slots))


class SimLights:
    """The board part of the simulated screen."""

    def __init__(self, screen: SimScreen) -> None:
        self._screen = screen

    def show(self, board: Sequence[RGB]) -> None:
        """Show `board` beside the displays' current bitmaps."""
        self._screen.show(replace(self._screen.current, board=board))

    def set_brightness(self, level: float) -> None:
        """Draw the board's colours scaled by `level` (0: dark)."""
        self._screen.set_levels(board=level)

    def close(self) -> None:
        """Turn every LED off, as the Pi's lights do when closed (a new frame only if one is lit)."""
        if any(map(any, self._screen.current.board)):
            self.show(Frame().board)


class SimDisplays:
    """The card-display part of the simulated screen."""

    def __init__(self, screen: SimScreen) -> None:
        self._screen = screen
        self.slots = screen.slots

    def show(self, bitmaps: Mapping[str, Bitmap], dimmed: frozenset[str] = frozenset()) -> None:
        """Show `bitmaps` beside the board's current colours."""
        self._screen.show(replace(self._screen.current, displays=bitmaps, dimmed=dimmed))

    def set_brightness(self, level: float) -> None:
        """Draw every display dimmed below `level` 1, and blank at 0."""
        self._screen.set_levels(displays=level)

    def close(self) -> None:
        """Blank every display, as the Pi's matrices do when closed (a new frame only if one is lit)."""
        if any(map(any, self._screen.current.displays.values())):
            self.show({})


class SimDevices(Devices):
    """Devices whose `show(frame)` records one frame, not a board and then the displays."""

    def __init__(self, screen: SimScreen, buttons: Buttons, closers: Sequence[Callable[[], object]]) -> None:
        super().__init__("sim", SimLights(screen), SimDisplays(screen), buttons, closers)
        self.screen = screen

    def show(self, frame: Frame) -> None:
        """Show `frame` as one picture."""
        self.screen.show(frame)

    def set_brightness(self, level: float) -> None:
        """Both at `level`, in one picture."""
        self.screen.set_levels(level, level)


def as_seen(config: Config, led_levels: bool = False) -> Callable[[Frame], Frame]:
    """What the pictures show of a frame: the table from above, rank 9 at the top, each display as its
    matrix lights it, and with `led_levels` the board as the LEDs light it (after gamma, the brightness
    cap and the supply limit).

    The matrices are taken to be mounted as the builder's guide says, all the same way up as seen
    from the south edge, so a display shows its bitmap turned by its seat's configured rotation and
    flip, exactly as the Pi turns it: the text of a seat across the table reads upside down, as it
    does for the player facing it, and a card's arrow points where it points on the table.
    """
    d, b = config.displays, config.board
    turns = {slot: d.turn_of(slot) for slot in d.chain}
    dimmer = Dimmer(b.gamma, b.brightness, b.supply_amps, CELLS) if led_levels else None

    def seen(frame: Frame) -> Frame:
        board = tuple(on_screen(dimmer.levels(frame.board))) if dimmer else frame.board
        displays = {slot: turn(bitmap, *turns[slot]) for slot, bitmap in frame.displays.items()}
        return replace(frame, board=board, displays=displays)
    return seen


def open_sim(config: Config, snapshot: Callable[[str, bytes], None] | None = None, frames: TextSink | None = None,
             input_script: list[Step] | None = None, exit_after_script: bool = False, view: bool | None = None,
             stdin: TextIO | None = None, stdout: TextIO | None = None,
             clock: Callable[[], float] = time.monotonic, led_levels: bool = False,
             staff: Sequence[Step] = ()) -> SimDevices:
    """Open the simulated backend; `view` None draws in the terminal when stdout is one.

    `frames` is an open text file for the frame log (`hardware.framelog`), `snapshot` a
    `save(name, png)` callable for pictures (`hardware.snapshot`), `input_script` the
    steps of a parsed script (`hardware.script.parse_script`), `staff` the steps of the staff's
    combination, which the key `S` plays (on a table with the staff's key switch, `S` turns it). The
    terminal and the snapshots show frames `as_seen`; the frame log records them as given."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    b = config.buttons
    slots, seats, sides = config.displays.chain, config.seats, config.displays.sides()
    outputs: list[Callable[[Frame, float], object]] = []
    closers: list[Callable[[], object]] = []
    keys = {key: name for key, name in key_map(seats).items() if name in b.pins}
    show_view = view if view is not None else interactive(stdout)
    seen = as_seen(config, led_levels)
    if show_view:
        terminal = TerminalView(stdout, slots, sides, legend(keys, staff=bool(staff) or STAFF_KEY in b.pins))
        outputs.append(lambda frame, t: terminal.draw(seen(frame)))
        closers.append(terminal.close)
    if frames is not None:
        outputs.append(FrameLog(frames, slots).write)
    if snapshot is not None:
        snapshots = Snapshots(snapshot, slots, sides)
        outputs.append(lambda frame, t: snapshots.write(seen(frame)))
    factory = MockFactory()
    timing = b.timing
    buttons = Buttons(b.pins, timing, factory)
    pins = SimPins(factory, buttons)
    tap = timing.tap_seconds
    if input_script is not None:
        steps = input_script

        def play() -> None:
            run_script(steps, pins, tap)
            if exit_after_script:
                buttons.end()
        threading.Thread(target=play, daemon=True, name="sim-script").start()
    elif show_view and interactive(stdin):
        keyboard = Keyboard(stdin, keys, pins, tap, staff, key_switch=STAFF_KEY in b.pins)
        closers.insert(0, keyboard.close)
    closers.append(factory.close)
    return SimDevices(SimScreen(slots, outputs, clock), buttons, closers)
