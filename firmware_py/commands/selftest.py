"""`roseking selftest [--sim]`: what a builder runs after soldering.

Lights every LED in turn in red, green, blue and white at the brightness cap, shows
every glyph on every display, then echoes each button as it is pressed until Ctrl-C
(in the simulator with `--input-script`, until the script ends).
"""
import argparse

from firmware_py.device_options import add_device_arguments, open_from_args
from hardware import script


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 60."""
    try:
        return script.seconds(text, most=60)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(sub):
    p = sub.add_parser("selftest", help="light every LED, show every glyph, echo the buttons")
    add_device_arguments(p)
    p.add_argument("--led-seconds", type=seconds, default=0.02, metavar="S", help="time per LED colour (0.02)")
    p.add_argument("--glyph-seconds", type=seconds, default=0.4, metavar="S", help="time per glyph (0.4)")
    p.set_defaults(func=run)


def run(args):
    from hardware import selftest   # the table libraries, loaded only when the test runs
    with open_from_args(args, exit_after_script=args.exit_after_script or bool(args.input_script)) as devices:
        print(f"self-test on the {devices.backend} backend")
        selftest.run(devices, args.led_seconds, args.glyph_seconds)
    return 0
