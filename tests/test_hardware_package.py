"""The device layer's contracts: it never imports the rules or the service, and importing
it needs no Pi driver (those are imported by the Pi backend only)."""
import ast
import os
import sys
from pathlib import Path

import processes

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
PI_ONLY = {"board", "neopixel", "lgpio", "spidev", "digitalio", "gpiod"}


def imported_modules(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""


def test_hardware_never_imports_engine_or_firmware():
    for path in HARDWARE.glob("*.py"):
        for name in imported_modules(path):
            assert name.split(".")[0] not in {"engine", "firmware_py"}, f"{path.name} imports {name}"


def test_pi_drivers_are_imported_inside_functions_only():
    for path in HARDWARE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:       # module level only
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                assert not PI_ONLY & {n.split(".")[0] for n in names}, f"{path.name} imports {names} at load"


def test_the_package_imports_and_opens_the_simulator_without_blinka():
    """No Pi driver is loaded beyond what gpiozero's mock pins load themselves (gpiozero
    imports spidev when it is installed, as it is on a Pi with `.[pi]`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("BLINKA_OS_AGNOSTIC", "GPIOZERO_PIN_FACTORY")}
    code = ("import sys\n"
            "drivers = ('board', 'neopixel', 'lgpio', 'spidev', 'gpiod', '_rpi_ws281x', "
            "'adafruit_raspberry_pi5_neopixel_write')\n"
            "import gpiozero.pins.mock\n"
            "before = {m for m in drivers if m in sys.modules}\n"
            "import hardware\n"
            "d = hardware.open_devices(hardware.parse_config({}), sim=True, view=False)\n"
            "d.show(hardware.Frame()); d.close()\n"
            "print(sorted(m for m in drivers if m in sys.modules and m not in before))")
    out = processes.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_docstring_examples():
    import doctest
    import importlib
    for path in sorted(HARDWARE.glob("*.py")):
        module = importlib.import_module(f"hardware.{path.stem}" if path.stem != "__init__" else "hardware")
        assert doctest.testmod(module).failed == 0, path.name
