"""`roseking config check FILE`: validate a hardware configuration and summarise it."""
import argparse

from firmware_py.commands import Subparsers
from firmware_py.device_options import load_config
from firmware_py.inputs import input_name
from hardware.config import Config
from hardware.frame import CELLS
from hardware.power import Dimmer


def register(sub: Subparsers) -> None:
    p = sub.add_parser("config", help="check a hardware configuration file")
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    check = actions.add_parser("check", help="validate FILE; errors name the key")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(func=run)


def summary(config: Config) -> list[str]:
    """Human-readable lines describing a valid configuration."""
    b, d, k = config.board, config.displays, config.buttons
    white = Dimmer(b.gamma, b.brightness, b.supply_amps, CELLS).scale(255 * 3 * CELLS)
    return [
        f"backend: {config.backend or 'not set (pass --sim or set backend)'}",
        f"seats: {', '.join(config.seats)}",
        f"board: {CELLS} LEDs on GPIO {b.pin}, {b.pixel_order}, {'serpentine' if b.serpentine else 'progressive'} "
        f"from {b.start}, turned {b.rotation}°, gamma {b.gamma}",
        f"power: brightness cap {b.brightness:.2f}, supply {b.supply_amps:g} A "
        f"(all white is shown at {white:.0%} at most)",
        f"displays: {len(d.chain)} MAX7219 on SPI{d.spi_port}.{d.spi_device} at {d.spi_speed_hz / 1e6:g} MHz, "
        f"block orientation {d.block_orientation}, intensity {d.intensity} (dimmed {d.dim_intensity}): "
        f"{', '.join(d.chain)}",
        "panels: " + ", ".join(f"{p.seat} at the {p.side} edge, turned {p.rotation}°{' and flipped' if p.flip else ''}"
                               for p in d.panels),
        f"buttons: {len(k.pins)}, hold {k.timing.hold_seconds:g} s, debounce {k.timing.debounce_seconds * 1000:g} ms, "
        f"glitches under {k.timing.min_pulse_seconds * 1000:g} ms ignored, stuck after {k.timing.stuck_seconds:g} s: "
        + ", ".join(f"{name}={pin}" for name, pin in k.pins.items()),
    ]


NO_SECTION = "none (a home or a café table: no attract mode, no walk-away, always open)"


def run(args: argparse.Namespace) -> int:
    from firmware_py.table.messages import LANGUAGE_NAMES
    from firmware_py.table.staff import Access
    from hardware.names import STAFF_KEY
    from firmware_py.table.exhibit import exhibit_settings
    from firmware_py.table.settings import table_settings
    from firmware_py.web.settings import parse_web
    config = load_config(args.file)
    table = table_settings(config)
    web = parse_web(config.web, config.source)
    exhibit = exhibit_settings(config)
    print(f"{input_name(args.file)}: ok")
    for line in summary(config):
        print(f"  {line}")
    agree = " (each colour agrees)" if table.takeback_agree else " (one press)"
    print(f"  table: hint {'on' if table.hint else 'off'}, takeback {'on' + agree if table.takeback else 'off'}, "
          f"level {table.level}, thinking at most {table.think_seconds:g} s, the computer's move shown "
          f"{table.show_seconds:g} s, text scrolled at {table.scroll_speed:g} columns a second, "
          f"{table.cards_per_seat} cards per seat, texts in {LANGUAGE_NAMES[table.language]} ({table.language}), "
          f"data in {table.data_path()}")
    print(f"  web: {web.summary()}")
    print(f"  exhibit: {exhibit.summary() if config.exhibit is not None else NO_SECTION}")
    key = config.buttons.pins.get(STAFF_KEY)
    sequence = ", ".join(Access(config.seats, key=False).sequence)
    print(f"  staff: {f'the key switch on GPIO {key}' if key is not None else f'MENU held, then {sequence}'}")
    return 0
