"""Run `python as_pi.py 4|5 -c CODE` or `python as_pi.py 4|5 roseking ARGS…` as if on that Raspberry Pi.

Blinka is forced to the model and told its revision code (what it would read in
/proc/cpuinfo); the header GPIO chip is the fake `gpiod`'s; the buttons use gpiozero's
MockFactory; the pre-flight reads a tree of $FAKE_PI_ROOT that passes. The modules
named in $FAKE_PI_ABSENT (comma-separated) cannot be imported, installed or not.
"""
import importlib.abc
import os
import sys
from pathlib import Path

MODELS = {"4": ("RASPBERRY_PI_4B", "c03114", "Raspberry Pi 4 Model B Rev 1.4"),
          "5": ("RASPBERRY_PI_5", "d04170", "Raspberry Pi 5 Model B Rev 1.0")}


class Absent(importlib.abc.MetaPathFinder):
    """Makes modules look not installed."""

    def __init__(self, names):
        self.names = names

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def pretend(model):
    board, revision, name = MODELS[model]
    sys.meta_path.insert(0, Absent(set(filter(None, os.environ.get("FAKE_PI_ABSENT", "").split(",")))))
    os.environ.update(BLINKA_FORCEBOARD=board, BLINKA_FORCECHIP="BCM2XXX", FAKE_PI_MODEL=model)
    os.environ.pop("BLINKA_OS_AGNOSTIC", None)
    import adafruit_platformdetect
    cpuinfo = adafruit_platformdetect.Detector.get_cpuinfo_field
    adafruit_platformdetect.Detector.get_cpuinfo_field = (
        lambda self, field: revision if field == "Revision" else cpuinfo(self, field))
    try:
        from adafruit_blinka.microcontroller.generic_linux import raspberry_pi_pin
    except ImportError:
        pass                                                      # a Pi without gpiod
    else:
        raspberry_pi_pin._find_chip = lambda offset: 0            # /dev/gpiochip0, the fake chip
    from gpiozero.pins.mock import MockFactory

    import hardware.pi
    import hardware.preflight
    model_file = Path(os.environ["FAKE_PI_ROOT"]) / "model"
    model_file.write_text(name + "\0")
    hardware.pi.MODEL_FILE = model_file
    hardware.pi.DEV = Path(os.environ["FAKE_PI_ROOT"]) / "dev"
    hardware.pi.pin_factory = MockFactory
    check = hardware.preflight.check
    hardware.preflight.check = lambda config, model: check(config, model, Path(os.environ["FAKE_PI_ROOT"]), 0)


if __name__ == "__main__":
    pretend(sys.argv[1])
    if sys.argv[2] == "-c":
        exec(sys.argv[3])  # noqa: S102  (what `python -c` would do)
    else:
        from firmware_py.cli import main
        sys.exit(main(sys.argv[3:]))
