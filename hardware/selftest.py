"""The builder's self-test: every LED in every colour, every glyph on every display, then
the buttons echoed as they are pressed.

The pictures are plain `Frame` sequences (`led_frames`, `glyph_frames`), so the same
test runs on the Pi and in the simulator.
"""
import time
from collections.abc import Callable, Iterable, Iterator, Sequence

from hardware.devices import Devices
from hardware.events import PRESS, InputEnded
from hardware.frame import BLACK, CELLS, RGB, Frame
from hardware.glyphs import NAMES, glyph, scroll, scroll_length

COLOURS = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)), ("white", (255, 255, 255)))
BANNER = "ROSE KING"


def led_frames() -> Iterator[Frame]:
    """Each LED in turn (rank 9 first, file a first) in red, green, blue and white."""
    for cell in range(CELLS):
        for _, colour in COLOURS:
            board: list[RGB] = [BLACK] * CELLS
            board[cell] = colour
            yield Frame(board)


def glyph_frames(slots: Sequence[str]) -> Iterator[Frame]:
    """Every glyph on every display at once."""
    for name in NAMES:
        yield Frame(displays={slot: glyph(name) for slot in slots})


def banner_frames(slots: Sequence[str]) -> Iterator[Frame]:
    """A banner scrolled along the whole chain, one column per frame."""
    for offset in range(scroll_length(BANNER)):
        yield Frame(displays=dict(zip(slots, scroll(BANNER, offset, len(slots)))))


def run(devices: Devices, buttons: Iterable[str], led_seconds: float = 0.02, glyph_seconds: float = 0.4,
        say: Callable[[str], None] = print, sleep: Callable[[float], None] = time.sleep) -> list[str]:
    """Run the self-test on `devices`, whose buttons are named `buttons`; returns the names of those never
    pressed.

    The button phase ends when input ends (a finished input script) or on Ctrl-C.
    """
    say(f"LEDs: each of the {CELLS} in turn, red, green, blue, white (a9, b9, … i1)")
    for frame in led_frames():
        devices.show(frame)
        sleep(led_seconds)
    say(f"displays: {len(NAMES)} glyphs on all {len(devices.slots)} ({', '.join(devices.slots)}), then text")
    for frame in glyph_frames(devices.slots):
        devices.show(frame)
        sleep(glyph_seconds)
    for frame in banner_frames(devices.slots):
        devices.show(frame)
        sleep(glyph_seconds / 8)
    devices.show(Frame())
    missing = list(buttons)
    say(f"buttons: press each of the {len(missing)}; Ctrl-C ends")
    try:
        while True:
            event = devices.buttons.get()
            if event is None:
                continue
            say(str(event))
            if event.kind is PRESS and event.name in missing:
                missing.remove(event.name)
    except (InputEnded, KeyboardInterrupt):
        pass
    say("every button was pressed" if not missing else f"never pressed: {', '.join(missing)}")
    return missing
