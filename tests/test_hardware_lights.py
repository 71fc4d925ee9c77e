"""The board's bytes on the wire: the real adafruit NeoPixel code with only
`neopixel_write` captured (BLINKA_OS_AGNOSTIC=1, set in conftest)."""
import board
import neopixel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.config import parse_config
from hardware.layout import CORNERS, ROTATIONS, cell_of_led, led_of_cell
from hardware.lights import NeoPixelLights

layouts = st.tuples(st.sampled_from(CORNERS), st.booleans(), st.sampled_from(ROTATIONS))
colours = st.tuples(*[st.integers(0, 255)] * 3)


def cell(square):
    """Frame index of a square such as 'a9' (rank 9 first, file a first)."""
    return (9 - int(square[1])) * 9 + "abcdefghi".index(square[0])


@pytest.fixture
def wire(monkeypatch):
    """The buffers `neopixel_write` was given, newest last."""
    sent = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append(bytes(buf)))
    return sent


def lights(**board_keys):
    settings = {"gamma": 1.0, "brightness": 1.0, "supply_amps": 100.0} | board_keys
    return NeoPixelLights(parse_config({"board": settings}).board, board.NEOPIXEL)


def one_lit(square, colour=(255, 255, 255)):
    frame = [(0, 0, 0)] * 81
    frame[cell(square)] = colour
    return frame


def lit_leds(buffer):
    return [i for i in range(81) if any(buffer[3 * i:3 * i + 3])]


@given(layouts)
def test_layout_is_a_bijection(layout):
    leds = led_of_cell(*layout)
    assert sorted(leds) == list(range(81))
    cells = cell_of_led(*layout)
    assert all(cells[leds[c]] == c for c in range(81))


@given(st.sampled_from(CORNERS), st.booleans())
def test_four_quarter_turns_are_different_and_the_turn_of_180_is_the_opposite_corner(start, serpentine):
    turns = [led_of_cell(start, serpentine, r) for r in ROTATIONS]
    assert len(set(turns)) == 4
    # turning by 180° puts LED 0 in the diagonally opposite corner
    corner0 = turns[0].index(0)
    corner180 = turns[2].index(0)
    assert (corner0 // 9 + corner180 // 9, corner0 % 9 + corner180 % 9) == (8, 8)


@pytest.mark.parametrize("layout, expected", [
    (("bottom-left", True, 0), {"a1": 0, "i1": 8, "i2": 9, "a2": 17, "a3": 18, "a9": 72, "i9": 80}),
    (("bottom-left", False, 0), {"a1": 0, "i1": 8, "a2": 9, "i2": 17, "a9": 72}),
    (("top-left", False, 0), {"a9": 0, "i9": 8, "a8": 9, "i1": 80}),
    (("top-right", True, 0), {"i9": 0, "a9": 8, "a8": 9, "i8": 17}),
    (("top-left", False, 90), {"i9": 0, "i8": 1, "i1": 8, "h9": 9, "a1": 80}),
    (("top-left", False, 180), {"i1": 0, "h1": 1, "a9": 80}),
    (("top-left", False, 270), {"a1": 0, "a2": 1, "a9": 8, "b1": 9}),
    (("bottom-right", True, 90), {"a1": 0, "a9": 8, "b9": 9, "b1": 17}),
])
def test_known_layouts_on_the_wire(wire, layout, expected):
    start, serpentine, rotation = layout
    lamp = lights(start=start, serpentine=serpentine, rotation=rotation)
    for square, led in expected.items():
        lamp.show(one_lit(square))
        assert lit_leds(wire[-1]) == [led], square


@pytest.mark.parametrize("order, expected", [
    ("GRB", bytes([20, 10, 30])), ("RGB", bytes([10, 20, 30])), ("BGR", bytes([30, 20, 10])),
    ("BRG", bytes([30, 10, 20])),
])
def test_pixel_order(wire, order, expected):
    lights(pixel_order=order, start="bottom-left").show(one_lit("a1", (10, 20, 30)))
    assert wire[-1][:3] == expected
    assert len(wire[-1]) == 243


def test_brightness_cap_scales_and_rounds_down_but_keeps_a_lit_channel_lit(wire):
    lights(brightness=0.5, pixel_order="RGB").show(one_lit("a1", (200, 101, 1)))
    assert wire[-1][:3] == bytes([100, 50, 1])


def test_dim_colours_stay_visible_at_the_default_gamma_and_cap(wire):
    """A dim crown trail (colour 20/255) was black on the board: gamma 2.6 and the cap 0.3 took it to 0."""
    lamp = NeoPixelLights(parse_config({"board": {"pixel_order": "RGB"}}).board, board.NEOPIXEL)
    lamp.show(one_lit("a1", (20, 1, 0)))
    assert wire[-1][:3] == bytes([1, 1, 0])


def test_gamma(wire):
    lights(gamma=2.0, pixel_order="RGB").show(one_lit("a1", (255, 128, 16)))
    assert wire[-1][:3] == bytes([255, round(255 * (128 / 255) ** 2), round(255 * (16 / 255) ** 2)])


def estimated_ma(buffer):
    """The documented estimate: 1 mA per LED plus 20 mA per fully lit channel."""
    return 81 * 1.0 + sum(buffer) * 20 / 255


def test_current_limit_dims_full_white_to_the_supply(wire):
    lights(supply_amps=2.0).show([(255, 255, 255)] * 81)
    sent = wire[-1]
    assert len(set(sent)) == 1                   # dimmed evenly
    assert estimated_ma(sent) <= 2000
    reserve = 243 * 20 / 255                     # room for level 1 on every channel, so dim colours stay lit
    assert estimated_ma([sent[0] + 1] * 243) > 2000 - reserve   # and no more than needed


@settings(max_examples=60, deadline=None)
@given(st.lists(colours, min_size=81, max_size=81), st.floats(0.11, 6.0), st.floats(0.05, 1.0),
       st.floats(1.0, 3.0))
def test_never_over_the_supply_and_never_over_the_cap(frame, amps, cap, gamma):
    sent = []
    original = neopixel.neopixel_write
    neopixel.neopixel_write = lambda pin, buf: sent.append(bytes(buf))
    try:
        lights(supply_amps=amps, brightness=cap, gamma=gamma, pixel_order="RGB").show(frame)
    finally:
        neopixel.neopixel_write = original
    buffer = sent[-1]
    assert estimated_ma(buffer) <= amps * 1000 + 1e-6
    leds = cell_of_led("bottom-left", True, 0)
    wanted = [frame[leds[i // 3]][i % 3] for i in range(243)]
    full = [max(1, round(255 * (v / 255) ** gamma)) if v else 0 for v in wanted]
    assert all(bool(level) == bool(v) for level, v in zip(buffer, wanted))      # lit stays lit, dark stays dark
    assert all(level <= max(1, int(f * cap)) for level, f in zip(buffer, full))
    if 81 + (sum(full) * cap + 243) * 20 / 255 <= amps * 1000:     # within the supply: only the cap applies
        assert list(buffer) == [max(1, int(f * cap)) if f else 0 for f in full]


def test_brightness_at_run_time_scales_the_board_within_the_cap_and_zero_is_dark(wire):
    """A level is a share of the configured cap (brightness 0.5 here): the board shown now is sent again at
    once; 0 sends every LED dark, even the dim colours the cap keeps at level 1."""
    lamp = lights(brightness=0.5)
    lamp.show(one_lit("e5", (200, 100, 2)))
    led = lit_leds(wire[-1])[0]
    assert wire[-1][3 * led:3 * led + 3] == bytes((50, 100, 1))          # GRB at the cap: half of each
    lamp.set_brightness(0.5)
    assert wire[-1][3 * led:3 * led + 3] == bytes((25, 50, 1))
    lamp.set_brightness(0)
    assert wire[-1] == bytes(3 * 81)
    lamp.show(one_lit("a1"))
    assert wire[-1] == bytes(3 * 81)
    lamp.set_brightness(1)
    assert wire[-1][3 * lit_leds(wire[-1])[0]] == 127
    with pytest.raises(ValueError, match="from 0 to 1"):
        lamp.set_brightness(1.01)
