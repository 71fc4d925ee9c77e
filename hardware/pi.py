"""The Raspberry Pi backend: opens the real drivers, or fails saying what to install or join.

The Pi-only drivers (lgpio, spidev, rpi_ws281x on a Pi 4, the PIO NeoPixel driver on
a Pi 5) are imported here and nowhere else, so the package imports on any machine.
"""
import contextlib
from pathlib import Path

from hardware.buttons import Buttons
from hardware.devices import Devices
from hardware.errors import HardwareError
from hardware.frame import BLACK, CELLS
from hardware.lights import NeoPixelLights
from hardware.matrices import MatrixDisplays

MODEL_FILE = Path("/proc/device-tree/model")
PI_EXTRA = "pip install 'roseking[pi]'"


def pi_model():
    """The board's model string, e.g. 'Raspberry Pi 5 Model B Rev 1.0', or None off a Pi."""
    try:
        model = MODEL_FILE.read_text(errors="replace").rstrip("\x00\n")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def pin_factory():
    """gpiozero's lgpio pin factory (the one that works on both the Pi 4 and the Pi 5)."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:
        raise HardwareError(f"the buttons need lgpio: sudo apt install python3-lgpio, or {PI_EXTRA}") from None
    try:
        return LGPIOFactory()
    except Exception as exc:   # lgpio.error has no narrower base
        raise HardwareError(f"cannot open the GPIO chip ({exc}): join the gpio group "
                            "(sudo usermod -aG gpio $USER, then log in again)") from None


def _neopixel_hint(model):
    if "Pi 5" in model:
        return ("the Pi 5 NeoPixel driver: pip install Adafruit-Blinka-Raspberry-Pi5-Neopixel "
                f"(or {PI_EXTRA}); it needs /dev/pio0, which Raspberry Pi OS gives the gpio group "
                "(update the OS, sudo usermod -aG gpio $USER)")
    return (f"the Pi 4 NeoPixel driver: {PI_EXTRA} (rpi_ws281x); it drives GPIO 18 by PWM and needs "
            "root: run with sudo")


def open_lights(config, model):
    """The board's NeoPixel chain, blanked once so that a missing driver fails now, not mid-game."""
    try:
        import board
        pin = getattr(board, f"D{config.pin}")
        lights = NeoPixelLights(config, pin)
    except AttributeError:
        raise HardwareError(f"board.pin: GPIO {config.pin} cannot drive NeoPixels on a {model}") from None
    except (ImportError, NotImplementedError, RuntimeError) as exc:
        raise HardwareError(f"cannot load the NeoPixel driver ({exc}); install {_neopixel_hint(model)}") from None
    try:
        lights.show((BLACK,) * CELLS)
    except (OSError, RuntimeError) as exc:
        lights.close()
        raise HardwareError(f"cannot drive the NeoPixels ({exc}); {_neopixel_hint(model)}") from None
    return lights


def open_displays(config):
    """The MAX7219 chain on spidev, with luma's DC/RST pins disabled (`gpio=noop()`)."""
    try:
        import spidev  # noqa: F401  (luma imports it too; this names what is missing)
    except ImportError:
        raise HardwareError(f"the card displays need spidev: sudo apt install python3-spidev, or {PI_EXTRA}") from None
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface.serial import noop, spi
    try:
        serial = spi(port=config.spi_port, device=config.spi_device, bus_speed_hz=config.spi_speed_hz, gpio=noop())
    except DeviceNotFoundError:
        raise HardwareError(f"no /dev/spidev{config.spi_port}.{config.spi_device}: enable SPI "
                            "(sudo raspi-config nonint do_spi 0, then reboot)") from None
    except PermissionError:
        raise HardwareError(f"no permission for /dev/spidev{config.spi_port}.{config.spi_device}: join the spi "
                            "group (sudo usermod -aG spi $USER, then log in again)") from None
    return MatrixDisplays(config, serial)


def open_buttons(config, factory):
    """The buttons on lgpio; a pin another program holds is a HardwareError, not a traceback."""
    import lgpio
    from gpiozero import GPIOZeroError
    try:
        return Buttons(config.pins, config.hold_seconds, config.debounce_seconds, factory)
    except (GPIOZeroError, lgpio.error, OSError) as exc:
        raise HardwareError(f"cannot claim the button pins ({exc}); is another program using them?") from None


def open_pi(config):
    """The `Devices` of this Raspberry Pi; HardwareError off a Pi or without a driver."""
    model = pi_model()
    if model is None:
        raise HardwareError('backend "pi" needs a Raspberry Pi (this machine is not one); '
                            'pass --sim or set backend = "sim"')
    with contextlib.ExitStack() as stack:
        factory = pin_factory()
        stack.callback(factory.close)
        lights = open_lights(config.board, model)
        stack.callback(lights.close)
        displays = open_displays(config.displays)
        stack.callback(displays.close)
        buttons = open_buttons(config.buttons, factory)
        stack.pop_all()
    return Devices("pi", lights, displays, buttons, [factory.close])
