"""The simulated backend: what it records (frame dump, PNG) is the frame it was shown,
its buttons are gpiozero MockFactory pins driven by a script, and the backend is
always chosen explicitly."""
import io
import json
import os
import sys

import pytest
from PIL import Image

from hardware import Frame, HardwareError, InputEnded, open_devices, parse_config
from hardware.events import ButtonEvent
from hardware.glyphs import glyph
from hardware.script import parse_script
from hardware.snapshot import DOT_DIM, DOT_OFF, DOT_ON, Picture
from hardware.terminal import TerminalView, picture_lines

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

CONFIG = parse_config({})


def sample_frame():
    board = [((c * 3) % 256, (c * 7 + 1) % 256, 255 - c) for c in range(81)]
    return Frame(board, {"red.card1": glyph("NE2"), "white.card5": glyph("hero3")})


def rows(bitmap):
    return [format(row, "08b").replace("0", ".").replace("1", "#") for row in bitmap]


class Ticks:
    """A clock that moves 0.25 s per reading."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.25
        return self.now


def test_frame_dump_matches_the_frames(tmp_path):
    path = tmp_path / "frames.jsonl"
    frame = sample_frame()
    with open(path, "w") as sink, open_devices(CONFIG, sim=True, frames=sink, view=False, clock=Ticks()) as devices:
        devices.show(frame)
        devices.lights.show([(255, 0, 0)] * 81)           # the board alone keeps the displays
        devices.displays.show({"white.card2": glyph("S")})  # the displays alone keep the board
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["t"] for r in records] == [0.25, 0.5, 0.75, 1.0, 1.25]
    assert records[3]["board"] == records[2]["board"]                                  # closing blanks the displays,
    assert all(rows == ["........"] * 8 for rows in records[3]["displays"].values())
    assert records[4]["board"] == ["#000000"] * 81                                     # then the board
    first = records[0]
    assert first["board"] == ["#%02x%02x%02x" % c for c in frame.board]
    assert first["board"][0] == "#0001ff"    # a9 first
    assert first["board"][80] == "#f031af"   # i1 last
    assert list(first["displays"]) == list(CONFIG.displays.chain)
    assert first["displays"]["red.card1"] == rows(glyph("NE2"))
    assert first["displays"]["red.card2"] == ["........"] * 8
    assert records[1]["board"] == ["#ff0000"] * 81
    assert records[1]["displays"] == first["displays"]
    assert records[2]["board"] == ["#ff0000"] * 81
    assert records[2]["displays"]["white.card2"] == rows(glyph("S"))
    assert records[2]["displays"]["red.card1"] == ["........"] * 8


def test_the_simulator_shows_the_brightness_set_at_run_time(tmp_path):
    """Half: the board's colours halved and every display dimmed; 0: dark and blank; 1: the frame as given.
    Each change shows the picture of now at once, and a level that is no change shows nothing."""
    path = tmp_path / "frames.jsonl"
    frame = Frame.solid((200, 100, 0), {"red.card1": glyph("NE2")})
    with open(path, "w") as sink, open_devices(CONFIG, sim=True, frames=sink, view=False, clock=Ticks()) as devices:
        devices.show(frame)
        devices.set_brightness(0.5)
        devices.set_brightness(0.5)
        devices.lights.set_brightness(0.0)
        devices.displays.set_brightness(0.0)
        devices.set_brightness(1.0)
        with pytest.raises(ValueError, match="a brightness level is a number from 0 to 1"):
            devices.set_brightness(float("nan"))
    shown = [json.loads(line) for line in path.read_text().splitlines()][:5]
    assert [r["board"][0] for r in shown] == ["#c86400", "#643200", "#000000", "#000000", "#c86400"]
    assert shown[1]["displays"]["red.card1"] == rows(glyph("NE2"))
    assert set(shown[1]["dimmed"]) == set(CONFIG.displays.chain)
    assert shown[3]["displays"]["red.card1"] == ["........"] * 8
    assert shown[4]["displays"]["red.card1"] == rows(glyph("NE2")) and "dimmed" not in shown[4]


def test_frame_dump_records_dimmed_displays_and_the_caption():
    from hardware.framelog import frame_record
    record = frame_record(Frame(dimmed={"white.card2", "white.card1"}, caption="red to move"), ["red.card1"], 0.5)
    assert record["dimmed"] == ["white.card1", "white.card2"] and record["caption"] == "red to move"
    assert "dimmed" not in frame_record(Frame(), ["red.card1"], 0.5)


def test_snapshot_matches_the_frame(tmp_path):
    """The table from above: each display as its matrix lights it (White's turned by its 180°), dimmed
    displays in the dim red with every dot still lit, White's card 1 at White's left (Red's right)."""
    from hardware.frame import turn
    frame = Frame(sample_frame().board, sample_frame().displays, dimmed={"white.card5"})
    saved = {}
    with open_devices(CONFIG, sim=True, snapshot=saved.__setitem__, view=False) as devices:
        devices.show(frame)
        devices.show(Frame())
    assert sorted(saved) == ["frame-000001.png", "frame-000002.png"]
    image = Image.open(io.BytesIO(saved["frame-000001.png"])).convert("RGB")
    picture = Picture(CONFIG.displays.chain, CONFIG.displays.sides())
    for i, colour in enumerate(frame.board):
        x0, y0, x1, y1 = picture.cell_box(*divmod(i, 9))
        assert image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == colour
    for slot in CONFIG.displays.chain:
        bitmap = turn(frame.bitmap(slot), 180) if slot.startswith("white") else frame.bitmap(slot)
        for y in range(8):
            for x in range(8):
                x0, y0, _, _ = picture.dot_box(slot, x, y)
                lit = bool(bitmap[y] & (0x80 >> x))
                on = DOT_DIM if slot == "white.card5" else DOT_ON
                assert image.getpixel((x0 + 1, y0 + 1)) == (on if lit else DOT_OFF)
    # the first seat's displays are below the board, the second's above, its card 1 on the right
    board_top = picture.cell_box(0, 0)[1]
    assert picture.dot_box("red.card1", 0, 0)[1] > board_top > picture.dot_box("white.card1", 0, 0)[1]
    assert picture.dot_box("red.card1", 0, 0)[0] < picture.dot_box("red.card5", 0, 0)[0]
    assert picture.dot_box("white.card1", 0, 0)[0] > picture.dot_box("white.card5", 0, 0)[0]


def test_a_teams_table_has_a_panel_on_every_edge():
    from firmware_py.commands.play import teams_sim_config
    config = teams_sim_config()
    picture = Picture(config.displays.chain, config.displays.sides())
    left, top, right, bottom = picture.cell_box(0, 0)[0], picture.cell_box(0, 0)[1], \
        picture.cell_box(8, 8)[2], picture.cell_box(8, 8)[3]
    assert picture.dot_box("red1.card1", 0, 0)[1] > bottom and picture.dot_box("red2.card1", 0, 0)[3] < top
    assert picture.dot_box("white1.card1", 7, 0)[2] < left and picture.dot_box("white2.card1", 0, 0)[0] > right
    # along the west edge card 1 is at the top (north, white 1's left); along the east at the bottom
    assert picture.dot_box("white1.card1", 0, 0)[1] < picture.dot_box("white1.card3", 0, 0)[1]
    assert picture.dot_box("white2.card1", 0, 0)[1] > picture.dot_box("white2.card3", 0, 0)[1]


def test_input_script_drives_the_mock_pins(tmp_path):
    script = parse_script("# a demo\nred.card3 press\nwait 0.01\nmenu press   # the menu\n",
                          list(CONFIG.buttons.pins), "demo.txt")
    devices = open_devices(CONFIG, sim=True, input_script=script, exit_after_script=True, view=False)
    try:
        events = []
        with pytest.raises(InputEnded):
            while True:
                events.append(devices.buttons.get(timeout=10))
    finally:
        devices.close()
    assert events == [ButtonEvent("red", "card3", "press"), ButtonEvent("red", "card3", "release"),
                      ButtonEvent(None, "menu", "press"), ButtonEvent(None, "menu", "release")]


def test_a_scripted_tap_passes_a_glitch_filter_longer_than_the_old_tap():
    """A script's (and a key's) tap lasts `ButtonTiming.tap_seconds`: with min_pulse_ms = 80 a tap of the
    old fixed 50 ms was taken for a glitch and lost; now it outlasts the filter and is a press."""
    config = parse_config({"buttons": {"min_pulse_ms": 80}})
    script = parse_script("red.card1 press\n", list(config.buttons.pins), "tap.txt")
    devices = open_devices(config, sim=True, input_script=script, exit_after_script=True, view=False)
    try:
        events = []
        with pytest.raises(InputEnded):
            while True:
                events.append(devices.buttons.get(timeout=10))
    finally:
        devices.close()
    assert events == [ButtonEvent("red", "card1", "press"), ButtonEvent("red", "card1", "release")]


def test_a_scripted_tap_is_seen_however_late_the_buttons_timers_run():
    """On a busy machine the buttons' timers ran late, after a scripted tap was over, and the press was never
    reported (a flaky test_finding_4: its second tap was lost, so nothing was played). The simulated finger
    waits until each press and each release has been reported before it moves on."""
    from gpiozero.pins.mock import MockFactory
    from hardware.buttons import Buttons
    from hardware.events import ButtonTiming, start_timer
    from hardware.script import Step, run_script
    from hardware.sim import SimPins
    factory = MockFactory()
    buttons = Buttons({"red.card1": 4}, ButtonTiming(), factory,
                      after=lambda delay, call: start_timer(delay + 0.2, call))     # every timer 0.2 s late
    try:
        run_script([Step("press", "red.card1", 0.0)] * 2, SimPins(factory, buttons), ButtonTiming().tap_seconds)
        events = [str(buttons.get(timeout=0)) for _ in range(5)]
    finally:
        buttons.close()
        factory.close()
    assert events == ["red.card1 press", "red.card1 release"] * 2 + ["None"]


@pytest.mark.parametrize("line, message", [
    ("red.card9 press", "unknown button 'red.card9' (buttons: red.card1, "),
    ("wait soon", "'soon' is not a number of seconds"),
    ("white.draw hold", "expected 'BUTTON press', 'BUTTON hold SECONDS', 'BUTTON down', 'BUTTON up' or 'wait SECONDS'"),
    ("white.draw hold -1", "'-1' is not a number of seconds"),
    ("wait hold 0.01", "expected 'BUTTON press', 'BUTTON hold SECONDS', 'BUTTON down', 'BUTTON up' or 'wait SECONDS'"),
    ("wait press", "'press' is not a number of seconds"),
])
def test_script_errors_name_the_line(line, message):
    with pytest.raises(HardwareError) as caught:
        parse_script(f"menu press\n{line}\n", list(CONFIG.buttons.pins), "demo.txt")
    assert str(caught.value).startswith(f"demo.txt:2: {message}")


def test_backend_is_chosen_explicitly(tmp_path, monkeypatch):
    with pytest.raises(HardwareError, match="no backend chosen"):
        open_devices(CONFIG)
    monkeypatch.setattr("hardware.pi.MODEL_FILE", tmp_path / "model")    # not a Raspberry Pi
    with pytest.raises(HardwareError, match='backend "pi" needs a Raspberry Pi'):
        open_devices(parse_config({"backend": "pi"}))
    with pytest.raises(HardwareError, match="--frames needs the simulated backend"):
        open_devices(parse_config({"backend": "pi"}), frames=io.StringIO())
    open_devices(parse_config({"backend": "sim"}), view=False).close()


def test_unknown_slot_is_refused():
    with open_devices(CONFIG, sim=True, view=False) as devices:
        with pytest.raises(ValueError, match="no display slot 'red.hero'"):
            devices.show(Frame(displays={"red.hero": glyph("hero1")}))


def test_terminal_picture_shows_colours_glyphs_keys_and_the_caption():
    frame = Frame([(1, 2, 3)] + [(0, 0, 0)] * 80, {"red.card1": glyph("N")}, caption="red to move")
    lines = picture_lines(frame, CONFIG.displays.chain, CONFIG.displays.sides(), ["keys: 1=card1"])
    text = "\n".join(lines)
    board_top = next(ln for ln in lines if ln.lstrip().startswith("9 "))
    assert "\x1b[48;2;1;2;3m" in board_top and board_top.endswith("keys: 1=card1")   # the keys beside the board
    red_rows = lines[lines.index(next(ln for ln in lines if ln.startswith("red:"))) + 1]
    # the first display's top half-row: N's row 0 is ...##... → lit in columns 3 and 4
    lit = "\x1b[38;2;%d;%d;%dm" % DOT_ON
    assert red_rows.count(lit) == 2
    assert lines[-2:] == ["red to move", ""]
    white = next(ln for ln in lines if ln.startswith("white:"))
    assert lines.index(white) < lines.index(board_top) and white.index("card5") < white.index("card1")
    assert "abcdefghi" not in text and "a  b  c" in text


@pytest.mark.parametrize("teams", [False, True])
def test_the_terminal_picture_fits_80_by_24(teams):
    """The picture, the caption and two lines of scrolling messages below them fit 80 × 24, hero
    counts and all."""
    from firmware_py.commands.play import teams_sim_config
    from hardware.keyboard import key_map, legend
    from hardware.terminal import visible_width
    config = teams_sim_config() if teams else CONFIG
    slots = tuple(s for seat in config.seats for s in (*config.displays.chain, f"{seat}.hero") if s.startswith(seat))
    keys = {k: name for k, name in key_map(config.seats).items() if name in config.buttons.pins}
    caption = " · ".join(["RESUMED (3 moves)", "red1 to move", "red 0, white 0", "52 stones left", "pile 12",
                          "heroes red1 2, white1 2, red2 2, white2 2"])         # 120 characters
    lines = picture_lines(Frame(caption=caption), slots, config.displays.sides(), legend(keys))
    assert max(map(visible_width, lines)) <= 80 and len(lines) + 2 <= 24
    assert " ".join(lines[-2:]) == caption              # the status line was cut at 80: the hero counts lost


def test_a_terminal_too_small_for_the_picture_is_told_what_it_needs():
    import fcntl
    import pty
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 20, 60, 0, 0))
    with os.fdopen(slave, "w") as out:
        view = TerminalView(out, CONFIG.displays.chain, CONFIG.displays.sides(), ["keys"])
        view.draw(Frame())
        view.close()
    said = b""
    while chunk := _read_or_none(master):       # every write, however the terminal hands them out
        said += chunk
    os.close(master)
    assert "the picture needs a terminal of 80 x 24 (this one is 60 x 20)" in said.decode()


def _read_or_none(fd):
    """What a pseudo-terminal's master has left to read; b"" once its other end is closed and read out."""
    try:
        return os.read(fd, 1 << 16)
    except OSError:                             # EIO: the other end closed, nothing left
        return b""


def test_terminal_view_draws_in_place():
    out = io.StringIO()
    with open_devices(CONFIG, sim=True, view=True, stdout=out, stdin=io.StringIO()) as devices:
        devices.show(Frame.solid((9, 8, 7)))
    written = out.getvalue()
    assert "\x1b[48;2;9;8;7m" in written
    assert written.endswith("\x1b[r\x1b[999;1H\n")      # scroll region given back


def test_keyboard_taps_through_a_terminal_and_offers_no_hold():
    """The legend offered `h,key=hold` though nothing at the table acts on a hold: `h` is no key any more."""
    import os
    import pty
    import queue

    from hardware.keyboard import Keyboard, key_map, legend

    pressed = queue.Queue()

    class Pins:
        def press(self, name, seconds):
            pressed.put((name, seconds))

    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as terminal:
        keyboard = Keyboard(terminal, key_map(["red", "white"]), Pins(), tap_seconds=0.05)
        try:
            os.write(master, b"3xhpm")
            assert [pressed.get(timeout=10) for _ in range(3)] == [
                ("red.card3", 0.05), ("white.draw", 0.05), ("menu", 0.05)]
            assert not any("hold" in line for line in legend(key_map(["red", "white"])))
        finally:
            keyboard.close()
            os.close(master)


def test_a_pi_without_its_drivers_says_what_to_install(monkeypatch):
    import hardware.pi as pi

    monkeypatch.setattr(pi, "pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    for driver in ("lgpio", "gpiozero.pins.lgpio", "spidev"):
        monkeypatch.setitem(sys.modules, driver, None)     # importing it raises ImportError
    with pytest.raises(HardwareError, match=r"the buttons need lgpio, which is not installed"):
        open_devices(parse_config({"backend": "pi"}))
    with pytest.raises(HardwareError, match=r"the card displays need spidev"):
        pi.open_displays(CONFIG.displays)


def test_the_pictures_show_each_display_as_the_pi_lights_it():
    """Seen from above, with the matrices all mounted the same way up as seen from the south (the
    builder's guide): a display shows its bitmap turned as the Pi turns it, so nothing is turned back
    and a wrongly turned picture shows wrong (White's text upside down to Red, as at the table)."""
    from hardware.frame import turn
    from hardware.sim import as_seen
    card = glyph("NE2")
    frame = Frame(displays={"red.card1": card, "white.card1": card}, dimmed={"white.card1"}, caption="c")
    seen = as_seen(CONFIG)(frame)
    assert dict(seen.displays) == {"red.card1": card, "white.card1": turn(card, 180)}
    assert (seen.dimmed, seen.caption) == (frame.dimmed, "c")
    unturned = parse_config({"displays": {"white": {"rotation": 0}}})
    assert as_seen(unturned)(frame).displays["white.card1"] == card
    mirrored = parse_config({"displays": {"red": {"flip": True}}})
    assert as_seen(mirrored)(frame).displays["red.card1"] == turn(card, 0, flip=True)


def test_led_levels_show_the_board_as_the_leds_light_it(tmp_path):
    """Gamma, the cap and the supply limit, seen on screen: dim stays visible, full red is capped."""
    from hardware.sim import as_seen
    board = [(0, 0, 0)] * 81
    board[0], board[1] = (20, 0, 0), (255, 0, 0)
    seen = as_seen(CONFIG, led_levels=True)(Frame(board)).board
    assert seen[0][0] > 0 and seen[0][1:] == (0, 0)
    assert 0 < seen[1][0] < 255 and seen[2] == (0, 0, 0)
    assert as_seen(CONFIG)(Frame(board)).board == Frame(board).board
    def save(name, png):
        (tmp_path / name).write_bytes(png)
    with open_devices(CONFIG, sim=True, view=False, snapshot=save, led_levels=True) as devices:
        devices.show(Frame(board))
    picture = Image.open(tmp_path / "frame-000001.png").convert("RGB")
    assert picture.getpixel(Picture(CONFIG.displays.chain, CONFIG.displays.sides()).cell_box(0, 1)[:2]) == seen[1]
