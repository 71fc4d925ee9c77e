"""`roseking selftest [--sim]`: what a builder runs after soldering.

On a Pi it first runs the pre-flight (SPI, root or /dev/pio0, audio, free pins) and
stops, listing each finding with its fix, before any LED is lit. Then it lights every
LED in turn in red, green, blue and white at the brightness cap, shows every glyph on
every display, then echoes each button as it is pressed until Ctrl-C (in the
simulator with `--input-script`, until the script ends).
"""
import argparse

from firmware_py.commands import Subparsers
from firmware_py.device_options import add_device_arguments, config_from_args, open_from_args
from hardware import Config, HardwareError, script
from hardware.backends import backend_of


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 60."""
    try:
        return script.seconds(text, most=60)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub: Subparsers) -> None:
    p = sub.add_parser("selftest", help="light every LED, show every glyph, echo the buttons")
    add_device_arguments(p)
    p.add_argument("--led-seconds", type=seconds, default=0.02, metavar="S", help="time per LED colour (0.02)")
    p.add_argument("--glyph-seconds", type=seconds, default=0.4, metavar="S", help="time per glyph (0.4)")
    p.set_defaults(func=run)


def preflight(config: Config) -> None:
    """On a Pi, print each pre-flight finding with its fix and stop if there is any."""
    from hardware.pi import pi_model
    from hardware.preflight import check
    model = pi_model()
    if model is None:
        return                       # opening the Pi backend says what is wrong
    findings = check(config, model)
    for finding in findings:
        print(f"pre-flight: {finding}")
    if findings:
        raise HardwareError(f"pre-flight: {len(findings)} problem(s) on this {model}, listed above with their fixes")
    print(f"pre-flight: {model}: SPI, LED driver access and pins are ready")


def run(args: argparse.Namespace) -> int:
    from hardware import selftest   # the table libraries, loaded only when the test runs
    config = config_from_args(args)
    if backend_of(config, args.sim) == "pi":
        preflight(config)
    with open_from_args(args, config, exit_after_script=args.exit_after_script or bool(args.input_script)) as devices:
        print(f"self-test on the {devices.backend} backend")
        selftest.run(devices, config.buttons.pins, args.led_seconds, args.glyph_seconds)
    return 0
