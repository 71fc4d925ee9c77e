"""The hardware configuration: the shipped example is valid and documents the defaults;
every bad key is refused with its name."""
import dataclasses
import re
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.device_options import load_config
from firmware_py.errors import UsageError
from hardware.config import parse_config, read_config
from hardware.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "roseking.example.toml"


def test_example_is_valid_and_its_values_are_the_defaults():
    example = load_config(str(EXAMPLE))
    defaults = parse_config({"backend": "pi"})
    assert dataclasses.replace(example, source="", table={}, web={}, exhibit={}) == \
        dataclasses.replace(defaults, source="", table={}, web={}, exhibit={})
    from firmware_py.table.exhibit import Exhibit, exhibit_settings
    from firmware_py.table.settings import Settings, table_settings
    assert table_settings(example) == Settings() and exhibit_settings(example) == Exhibit()


def test_defaults_follow_the_pin_plan():
    pins = parse_config({}).buttons.pins
    assert [pins[f"red.{c}"] for c in ("card1", "card2", "card3", "card4", "card5", "hero", "draw")] == \
        [4, 17, 27, 22, 5, 6, 13]
    assert [pins[f"white.{c}"] for c in ("card1", "card2", "card3", "card4", "card5", "hero", "draw")] == \
        [23, 24, 25, 12, 16, 20, 26]
    assert pins["menu"] == 19
    assert parse_config({}).board.pin == 18


@pytest.mark.parametrize("data, message", [
    ({"board": {"rotation": 45}}, "board.rotation: must be one of 0, 90, 180, 270 (got 45)"),
    ({"backend": "pie"}, 'backend: must be one of "pi", "sim" (got "pie")'),
    ({"board": {"brightnes": 0.2}}, "board.brightnes: unknown key"),
    ({"board": {"brightness": 0}}, "board.brightness: must be above 0 and at most 1 (got 0)"),
    ({"board": {"brightness": 1.5}}, "board.brightness: must be above 0 and at most 1 (got 1.5)"),
    ({"board": {"pin": True}}, "board.pin: must be a whole number (got true)"),
    ({"board": {"pin": 10}}, "board.pin: GPIO 10 is used by SPI0"),
    ({"board": {"pixel_order": "GRBW"}}, "board.pixel_order: must be one of"),
    ({"board": {"start": "middle"}}, 'board.start: must be one of "top-left"'),
    ({"board": {"serpentine": "yes"}}, 'board.serpentine: must be true or false (got "yes")'),
    ({"board": {"supply_amps": 0.05}}, "board.supply_amps: must exceed the 0.100 A"),
    ({"board": {"gamma": 0.5}}, "board.gamma: must be at least 1.0 and at most 4.0 (got 0.5)"),
    ({"board": 3}, "board: must be a table (got 3)"),
    ({"displays": {"chain": ["red.card1", "red.card9"]}}, 'displays.chain: "red.card9" is not a display slot'),
    ({"displays": {"chain": ["red.card1", "red.card1"]}}, "displays.chain: names a slot twice"),
    ({"displays": {"chain": []}}, "displays.chain: must be a list of display slots"),
    ({"displays": {"intensity": 16}}, "displays.intensity: must be between 0 and 15 (got 16)"),
    ({"displays": {"spi_speed_hz": 16000000}}, "displays.spi_speed_hz: must be one of"),
    ({"displays": {"block_orientation": 45}}, "displays.block_orientation: must be one of 0, 90, -90, 180"),
    ({"buttons": {"red": {"card2": 4}}}, "buttons.red.card2: GPIO 4 is already used by buttons.red.card1"),
    ({"buttons": {"menu": 18}}, "buttons.menu: GPIO 18 is the board's LED data pin"),
    ({"buttons": {"white": {"hero": 8}}}, "buttons.white.hero: GPIO 8 is used by SPI0"),
    ({"buttons": {"red": {"card1": 1}}}, "buttons.red.card1: must be between 2 and 27 (got 1)"),
    ({"buttons": {"red": {"knob": 3}}}, "buttons.red.knob: unknown key"),
    ({"buttons": {"hold_seconds": 0}}, "buttons.hold_seconds: must be above 0"),
    ({"buttons": {"hold_seconds": 2, "stuck_seconds": 2}}, "buttons.stuck_seconds: must be above 2.0 and at most 3600"),
    ({"seats": ["red", "white", "blue"]}, "buttons.blue.card1: missing (no default pin for this seat)"),
    ({"seats": ["Red"]}, 'seats: "Red" is not a seat name'),
    ({"seats": ["red", "red"]}, "seats: names a seat twice"),
    ({"displays": {"spi_port": 1}}, "board.pin: GPIO 18 is used by SPI1"),
    ({"displays": {"spi_port": 1}, "board": {"pin": 21}}, "board.pin: GPIO 21 is used by SPI1"),
    ({"displays": {"spi_port": 1, "spi_device": 1}, "board": {"pin": 12}, "buttons": {"white": {"card4": 2}}},
     "buttons.red.card2: GPIO 17 is used by SPI1"),
    ({"displays": {"spi_device": 1}, "buttons": {"menu": 7}}, "buttons.menu: GPIO 7 is used by SPI0"),   # CE1
    ({"buttons": {"menu": 9}}, "buttons.menu: GPIO 9 is used by SPI0"),                                 # MISO
    ({"cards_per_seat": 2}, "cards_per_seat: must be between 3 and 5 (got 2)"),
    ({"cards_per_seat": 3, "buttons": {"red": {"card4": 9}}}, "buttons.red.card4: unknown key"),
    ({"cards_per_seat": 3, "displays": {"chain": ["red.card4"]}}, 'displays.chain: "red.card4" is not a display'),
])
def test_errors_name_the_file_and_key(data, message):
    with pytest.raises(ConfigError) as caught:
        parse_config(data, "roseking.toml")
    assert str(caught.value).startswith(f"roseking.toml: {message}")


def test_a_seat_of_its_own_and_a_hero_display():
    blue = dict(zip(("card1", "card2", "card3", "card4", "card5", "hero", "draw"), (2, 3, 14, 15, 21, 12, 16)))
    c = parse_config({"seats": ["red", "blue"], "displays": {"chain": ["blue.hero", "red.card1"]},
                      "buttons": {"blue": blue}})
    assert c.seats == ("red", "blue")
    assert c.displays.chain == ("blue.hero", "red.card1")
    assert c.buttons.pins["blue.draw"] == 16
    assert len(c.buttons.pins) == 15


def test_only_the_chip_select_in_use_is_reserved():
    """SPI0 holds MISO 9, MOSI 10, SCLK 11 and CE0 8 or CE1 7, as `spi_device` says: the other one is a pin."""
    assert parse_config({"buttons": {"menu": 7}}).buttons.pins["menu"] == 7
    assert parse_config({"displays": {"spi_device": 1}, "buttons": {"menu": 8}}).buttons.pins["menu"] == 8


def test_a_teams_seat_has_three_card_buttons_hero_and_draw():
    """R21: three cards a seat in teams, so three card displays and buttons, and no card4/card5."""
    c = parse_config({"cards_per_seat": 3})
    assert c.cards_per_seat == 3
    assert [n for n in c.buttons.pins if n.startswith("red.")] == ["red.card1", "red.card2", "red.card3",
                                                                  "red.hero", "red.draw"]
    assert c.displays.chain == ("red.card1", "red.card2", "red.card3", "white.card1", "white.card2", "white.card3")


def test_config_check_command(tmp_path, capsys):
    bad = tmp_path / "roseking.toml"
    bad.write_text('backend = "pi"\n[board]\nrotation = 45\n')
    assert main(["config", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {bad}: board.rotation: must be one of 0, 90, 180, 270 (got 45)\n"

    assert main(["config", "check", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{EXAMPLE}: ok\n")
    assert "all white is shown at 30% at most" in out


def test_unreadable_and_malformed_files(tmp_path):
    with pytest.raises(UsageError, match=r"missing\.toml: cannot read"):
        load_config(str(tmp_path / "missing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("[board\n")
    with pytest.raises(ConfigError, match=r"broken\.toml: not valid TOML: .*line 1"):
        load_config(str(broken))
    broken.write_bytes(b"backend = 'sim'\n# caf\xe9\n")
    with pytest.raises(UsageError, match=r"broken\.toml: not UTF-8 text \(byte 21\)"):
        load_config(str(broken))
    with pytest.raises(UsageError, match=r"/dev/zero: larger than 1048576 bytes"):
        load_config("/dev/zero")
    with pytest.raises(ConfigError, match=r"deep\.toml: not valid TOML: arrays or tables nested too deeply"):
        read_config("a = " + "[" * 100_000, "deep.toml")


NUMBERS = [("board", "brightness"), ("board", "supply_amps"), ("board", "gamma"),
           ("buttons", "hold_seconds"), ("buttons", "debounce_ms"), ("buttons", "min_pulse_ms"),
           ("buttons", "stuck_seconds")]


@pytest.mark.parametrize("table, key", NUMBERS)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-nan"])
def test_every_number_must_be_finite(table, key, value):
    with pytest.raises(ConfigError, match=rf"^t\.toml: {table}\.{key}: must be a finite number \(got -?{value[-3:]}\)"):
        read_config(f"[{table}]\n{key} = {value}\n", "t.toml")


@pytest.mark.parametrize("table, key, value", [("board", "pin", "18.0"), ("board", "rotation", "90.0"),
                                               ("displays", "intensity", "4.0"), ("displays", "spi_port", "0.0"),
                                               ("displays", "spi_speed_hz", "8000000.0"), ("buttons", "menu", "19.0")])
def test_whole_number_keys_refuse_floats_alike(table, key, value):
    with pytest.raises(ConfigError, match=rf"^t\.toml: {table}\.{key}: must be .*\(got {value}"):
        read_config(f"[{table}]\n{key} = {value}\n", "t.toml")


def test_number_keys_take_whole_numbers():
    assert read_config("[board]\nbrightness = 1\ngamma = 2", "t.toml").board.brightness == 1.0


@pytest.mark.parametrize("text, message", [
    ("backend = 1979-05-27", "backend: must be one of \"pi\", \"sim\" (got 1979-05-27)"),
    ("[board]\nstart = 07:32:00", "board.start: must be one of"),
    ("[board]\npin = 1979-05-27T07:32:00", "board.pin: must be a whole number (got 1979-05-27T07:32:00)"),
    ("seats = [1979-05-27]", "seats: 1979-05-27 is not a seat name"),
])
def test_dates_and_other_wrong_types_are_named_by_key(text, message):
    with pytest.raises(ConfigError) as caught:
        read_config(text, "t.toml")
    assert str(caught.value).startswith(f"t.toml: {message}")


EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples" / "config").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_configs_are_valid(path):
    config = load_config(str(path))
    assert config.backend == ("sim" if path.stem == "sim" else "pi")
    opposite = config.seats[len(config.seats) // 2]          # the seat across the board from the first
    assert config.displays.panel(opposite).side == "north" and config.displays.turn_of(f"{opposite}.card1") == \
        (180, False)


@pytest.mark.parametrize("seats, sides, rotations", [
    (["red", "white"], ["south", "north"], [0, 180]),                                     # R8: White at the crown edge
    (["red1", "white1", "red2", "white2"], ["south", "west", "north", "east"], [0, 90, 180, 270]),  # R20, R22
])
def test_seats_sit_round_the_board_and_each_reads_its_displays_upright(seats, sides, rotations):
    """By default seats face each other (partners in teams, R20); each seat's default turn is the one that
    makes its text upright on matrices all mounted the same way up as seen from the south."""
    free = [2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27]
    buttons = {s: dict(zip(("card1", "card2", "card3", "hero", "draw"), free[5 * i:])) for i, s in enumerate(seats)}
    d = parse_config({"seats": seats, "cards_per_seat": 3, "buttons": {**buttons, "menu": free[-1]}}).displays
    assert [d.panel(s).side for s in seats] == sides
    assert [d.turn_of(f"{s}.card1") for s in seats] == [(r, False) for r in rotations]
    assert [d.view_of(s) for s in seats] == [(360 - r) % 360 for r in rotations]
    moved = parse_config({"displays": {"white": {"side": "east"}}}).displays
    assert moved.turn_of("white.card1") == (270, False) and moved.view_of("white") == 90


@pytest.mark.parametrize("keys, message", [
    ({"white": {"side": "up"}}, 'displays.white.side: must be one of "south", "west", "north", "east" (got "up")'),
    ({"intensity": 4, "dim_intensity": 5}, "displays.dim_intensity: must be between 0 and 4 (got 5)"),
    ({"white": {"side": "south"}}, 'displays.white.side: "south" is the side of red too; each seat needs an edge'),
    ({"red": {"side": "north"}}, 'displays.white.side: "north" is the side of red too'),   # white's default edge
])
def test_bad_panel_keys_are_named(keys, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config({"displays": keys}, "t.toml")


def test_there_are_examples_for_a_pi4_a_pi5_the_simulator_a_teams_table_and_a_museum():
    assert [p.name for p in EXAMPLES] == ["museum.toml", "pi4.toml", "pi5.toml", "sim.toml", "teams-pi.toml"]
