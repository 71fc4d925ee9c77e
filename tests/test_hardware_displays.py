"""The card displays' register writes: the real luma max7219 driver on a recording serial."""
import pytest

from hardware.config import parse_config
from hardware.frame import BLANK, turn
from hardware.glyphs import glyph
from hardware.matrices import MatrixDisplays

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

DIGIT_0, INTENSITY, SHUTDOWN = 0x01, 0x0A, 0x0C
CHAIN = [f"{seat}.card{i}" for seat in ("red", "white") for i in range(1, 6)]


class RecordingSerial:
    """A luma serial interface that keeps every data write."""

    def __init__(self):
        self.writes = []

    def command(self, *cmd):
        self.writes.append(("command", list(cmd)))

    def data(self, data):
        self.writes.append(("data", list(data)))

    def cleanup(self):
        pass


def displays(**keys):
    serial = RecordingSerial()
    return MatrixDisplays(parse_config({"displays": keys}).displays, serial), serial


def column_byte(bitmap, x):
    """The MAX7219 digit byte luma sends for column x: bit y is row y."""
    return sum(1 << y for y in range(8) if bitmap[y] & (0x80 >> x))


def turned_anticlockwise(bitmap):
    """The bitmap turned 90° anticlockwise (what block_orientation 90 asks luma to do)."""
    return tuple(sum(0x80 >> x for x in range(8) if bitmap[x] & (0x80 >> (7 - y))) for y in range(8))


def test_brightness_at_run_time_scales_both_intensities_and_zero_shuts_the_chain_down():
    """Through luma's own max7219: half of intensity 8 and of the dimmed slots' 2, written down the chain
    (White's matrices dimmed, nearest the Pi last); 0 is the MAX7219's shutdown mode, the way back wakes it."""
    device, serial = displays(intensity=8, dim_intensity=2)
    white = frozenset(CHAIN[5:])
    device.show({}, white)
    serial.writes.clear()
    device.set_brightness(0.5)
    assert serial.writes == [("data", [INTENSITY, 1] * 5 + [INTENSITY, 4] * 5)]
    serial.writes.clear()
    device.set_brightness(0.0)
    assert serial.writes == [("data", [SHUTDOWN, 0] * 10)]
    serial.writes.clear()
    device.set_brightness(1.0)
    assert serial.writes == [("data", [SHUTDOWN, 1] * 10), ("data", [INTENSITY, 2] * 5 + [INTENSITY, 8] * 5)]
    with pytest.raises(ValueError):
        device.set_brightness(2)


def test_start_up_sets_intensity_on_every_matrix():
    _, serial = displays(intensity=9)
    assert ("data", [INTENSITY, 9] * 10) in serial.writes


@pytest.mark.parametrize("position", [0, 3, 9])
def test_glyph_register_writes(position):
    """Red's displays show the bitmap as it is; White's, opposite, turned by 180° (the default)."""
    device, serial = displays()
    serial.writes.clear()
    device.show({CHAIN[position]: glyph("NE2")})
    card = glyph("NE2") if position < 5 else turn(glyph("NE2"), 180)
    assert len(serial.writes) == 8                    # one write per digit register, all matrices at once
    for x, (kind, data) in enumerate(serial.writes):
        assert kind == "data" and len(data) == 20
        pairs = [data[i:i + 2] for i in range(0, 20, 2)]
        # the first pair shifts through to the far end of the chain: nearest the Pi comes last
        for chain_index, (register, value) in enumerate(reversed(pairs)):
            assert register == DIGIT_0 + x
            assert value == (column_byte(card, x) if chain_index == position else 0)


def test_block_orientation_turns_each_matrix():
    device, serial = displays(block_orientation=90)
    serial.writes.clear()
    arrow = glyph("N")
    device.show({"red.card1": arrow})
    turned = turned_anticlockwise(arrow)
    assert turned != arrow
    assert [data[-1] for _, data in serial.writes] == [column_byte(turned, x) for x in range(8)]


def test_reverse_order_puts_the_first_slot_at_the_far_end():
    device, serial = displays(reverse_order=True)
    serial.writes.clear()
    device.show({"red.card1": glyph("3")})
    assert [data[1] for _, data in serial.writes] == [column_byte(glyph("3"), x) for x in range(8)]


def test_missing_slots_are_blank_and_unknown_slots_refused():
    device, serial = displays()
    serial.writes.clear()
    device.show({})
    assert all(v == 0 for _, data in serial.writes for v in data[1::2])
    with pytest.raises(ValueError, match="no display slot 'red.hero'"):
        device.show({"red.hero": BLANK})


@pytest.mark.parametrize("seat, keys, expected", [
    ("white", {"rotation": 0}, lambda b: b),
    ("red", {"rotation": 180}, lambda b: turn(b, 180)),
    ("red", {"rotation": 90, "flip": True}, lambda b: turn(b, 90, True)),
    ("white", {"flip": True}, lambda b: turn(b, 180, True)),
])
def test_each_seat_turns_its_own_displays(seat, keys, expected):
    device, serial = displays(**{seat: keys})
    other = "red" if seat == "white" else "white"
    serial.writes.clear()
    card = glyph("SW3")
    device.show({f"{seat}.card2": card, f"{other}.card2": card})
    sent = {CHAIN.index(f"{seat}.card2"): expected(card),
            CHAIN.index(f"{other}.card2"): card if other == "red" else turn(card, 180)}
    for x, (_, data) in enumerate(serial.writes):
        values = [data[i + 1] for i in range(0, 20, 2)][::-1]
        for index, bitmap in sent.items():
            assert values[index] == column_byte(bitmap, x)


def test_four_quarter_turns_are_the_identity_and_turns_keep_the_lit_dots():
    card = glyph("N1")
    assert turn(turn(card, 180), 180) == card == turn(turn(card, 90), 270) == turn(turn(card, 0, True), 0, True)
    assert sum(bin(r).count("1") for r in turn(card, 90, True)) == sum(bin(r).count("1") for r in card)


@pytest.mark.parametrize("reverse", [False, True])
def test_dimmed_slots_get_their_own_intensity_and_keep_every_dot(reverse):
    """Whose turn it is shows by intensity, per matrix (luma's contrast sets the whole chain): the
    intensity register of each dimmed slot's matrix gets the dim level, written once per change."""
    device, serial = displays(intensity=8, dim_intensity=2, reverse_order=reverse)
    serial.writes.clear()
    card = glyph("SW2")
    device.show({"white.card3": card}, frozenset({"white.card3", "red.card1"}))
    intensity = [data for _, data in serial.writes if data[0] == INTENSITY]
    assert len(intensity) == 1
    levels = [intensity[0][i + 1] for i in range(0, 20, 2)][::-1]   # nearest the Pi first
    if reverse:
        levels = levels[::-1]
    assert levels == [2, 8, 8, 8, 8, 8, 8, 2, 8, 8]
    digits = [data for _, data in serial.writes if data[0] != INTENSITY]
    sent = [[data[i + 1] for i in range(0, 20, 2)][::-1] for data in digits]
    position = CHAIN.index("white.card3")
    if reverse:
        position = 9 - position
    assert [row[position] for row in sent] == [column_byte(turn(card, 180), x) for x in range(8)]
    serial.writes.clear()
    device.show({}, frozenset({"white.card3", "red.card1"}))
    assert not [data for _, data in serial.writes if data[0] == INTENSITY]      # unchanged: not written again
    device.show({})
    assert [data[1::2] for _, data in serial.writes if data[0] == INTENSITY] == [[8] * 10]
