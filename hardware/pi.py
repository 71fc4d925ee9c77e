"""The Raspberry Pi backend: opens the real drivers, or fails with one line naming the cause and the fix.

The Pi-only drivers (gpiod under Blinka, lgpio, spidev, rpi_ws281x on a Pi 4, the PIO
NeoPixel driver on a Pi 5) are imported here and nowhere else, so the package imports
on any machine.
"""
import contextlib
import os
import shlex
from pathlib import Path
from hardware.buttons import Buttons, PinFactory
from hardware.config import BoardConfig, ButtonConfig, Config, DisplayConfig
from hardware.devices import Devices
from hardware.errors import HardwareError
from hardware.lights import NeoPixelLights
from hardware.matrices import MatrixDisplays

MODEL_FILE = Path("/proc/device-tree/model")
DEV = Path("/dev")
PI_EXTRA = "pip install 'roseking[pi]'"
GPIO_GROUP = "join the gpio group (sudo usermod -aG gpio $USER, then log in again)"


def pi_model() -> str | None:
    """The board's model string, e.g. 'Raspberry Pi 5 Model B Rev 1.0', or None off a Pi."""
    try:
        model = MODEL_FILE.read_text(errors="replace").rstrip("\x00\n")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def is_pi5(model: str) -> bool:
    """Whether `model` (from `pi_model`) is a Raspberry Pi 5, whose NeoPixel driver is the RP1's PIO."""
    return "Pi 5" in model


def gpio_chip_problem() -> str | None:
    """Why no GPIO chip can be opened (none there, or no permission), or None if that is not it."""
    chips = sorted(DEV.glob("gpiochip*"))
    if not chips:
        return f"there is no {DEV}/gpiochip* (run Raspberry Pi OS with its own kernel)"
    if not all(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return f"no permission for {chips[0]}: {GPIO_GROUP}"
    return None


def pin_factory() -> PinFactory:
    """gpiozero's lgpio pin factory (the one that works on both the Pi 4 and the Pi 5)."""
    try:
        import lgpio
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:
        raise HardwareError(f"the buttons need lgpio, which is not installed: {PI_EXTRA}") from None
    try:
        factory: PinFactory = LGPIOFactory()
    except lgpio.error as exc:
        raise HardwareError(f"cannot open the GPIO chip ({exc}): "
                            f"{gpio_chip_problem() or 'it is busy or broken; reboot'}") from None
    return factory


def blinka_missing() -> list[str]:
    """What Blinka 10 wants on this board and cannot import: pip requirements, e.g. ['gpiod>=2.2.2,<3'].

    Asked before `import board`, which would otherwise offer to pip install them at a
    terminal (a hang in a service, pip as root under sudo).
    """
    from adafruit_blinka.agnostic import detector
    from adafruit_blinka.platform_dependencies import get_missing_platform_dependencies
    missing: list[str] = get_missing_platform_dependencies(detector)
    return missing


def neopixel_fix(model: str) -> str:
    """What a person does when the NeoPixel driver of `model` cannot start."""
    if is_pi5(model):
        return ("the Pi 5 driver needs /dev/pio0: update Raspberry Pi OS (sudo apt full-upgrade, then reboot) "
                f"and {GPIO_GROUP}")
    return ("rpi_ws281x needs root and a PWM or PCM pin: run with sudo, and use GPIO 18 (or 12, 21) "
            "for board.pin")


def open_lights(config: BoardConfig, model: str) -> NeoPixelLights:
    """The board's NeoPixel chain, blanked once so that a driver that cannot start fails now, not mid-game."""
    missing = blinka_missing()
    if missing:
        raise HardwareError(f"Blinka needs {', '.join(missing)} on a {model}, which is not installed: "
                            f"pip install {shlex.join(missing)} (or {PI_EXTRA})")
    try:
        import board
        import neopixel  # noqa: F401  (loads the model's NeoPixel driver)
    except ImportError as exc:
        raise HardwareError(f"cannot load the NeoPixel driver ({exc.name} is missing): {PI_EXTRA}") from None
    except (RuntimeError, NotImplementedError) as exc:
        raise HardwareError(f"cannot load the NeoPixel driver ({exc}): {PI_EXTRA}") from None
    pin = getattr(board, f"D{config.pin}", None)
    if pin is None:
        raise HardwareError(f"board.pin: a {model} has no GPIO {config.pin} for NeoPixels")
    problem = gpio_chip_problem()
    if problem:
        raise HardwareError(f"cannot claim GPIO {config.pin} for the NeoPixels: {problem}")
    try:
        return NeoPixelLights(config, pin)
    except OSError as exc:      # from the GPIO chip, not the driver
        raise HardwareError(f"cannot claim GPIO {config.pin} for the NeoPixels ({exc}): another program "
                            "or an overlay holds it (gpioinfo shows which)") from None
    except (RuntimeError, ValueError) as exc:
        raise HardwareError(f"cannot drive the NeoPixels on GPIO {config.pin} ({exc}): {neopixel_fix(model)}") from None


def open_displays(config: DisplayConfig) -> MatrixDisplays:
    """The MAX7219 chain on spidev, with luma's DC/RST pins disabled (`gpio=noop()`)."""
    try:
        import spidev  # noqa: F401  (luma imports it too; this names what is missing)
    except ImportError:
        raise HardwareError(f"the card displays need spidev, which is not installed: {PI_EXTRA}") from None
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface.serial import noop, spi
    device = f"/dev/spidev{config.spi_port}.{config.spi_device}"
    try:
        serial = spi(port=config.spi_port, device=config.spi_device, bus_speed_hz=config.spi_speed_hz, gpio=noop())
    except DeviceNotFoundError:
        raise HardwareError(f"no {device}: enable SPI (sudo raspi-config nonint do_spi 0, then reboot)") from None
    except PermissionError:
        raise HardwareError(f"no permission for {device}: join the spi group "
                            "(sudo usermod -aG spi $USER, then log in again)") from None
    return MatrixDisplays(config, serial)


def open_buttons(config: ButtonConfig, factory: PinFactory) -> Buttons:
    """The buttons on the pin factory; a pin another program holds is a HardwareError, not a traceback."""
    from gpiozero import GPIOZeroError
    errors: tuple[type[Exception], ...] = (GPIOZeroError, OSError)
    with contextlib.suppress(ImportError):
        import lgpio
        errors += (lgpio.error,)             # a pin lgpio cannot claim
    try:
        return Buttons(config.pins, config.timing, factory)
    except errors as exc:
        raise HardwareError(f"cannot claim the button pins ({exc}); is another program using them?") from None


def open_pi(config: Config, factory: PinFactory | None = None) -> Devices:
    """The `Devices` of this Raspberry Pi; HardwareError off a Pi or without a driver.

    `factory` is the buttons' gpiozero pin factory (default: lgpio's).
    """
    model = pi_model()
    if model is None:
        raise HardwareError('backend "pi" needs a Raspberry Pi (this machine is not one); '
                            'pass --sim or set backend = "sim"')
    with contextlib.ExitStack() as stack:
        factory = factory or pin_factory()
        stack.callback(factory.close)
        lights = open_lights(config.board, model)
        stack.callback(lights.close)
        displays = open_displays(config.displays)
        stack.callback(displays.close)
        buttons = open_buttons(config.buttons, factory)
        stack.pop_all()
    return Devices("pi", lights, displays, buttons, [factory.close])
