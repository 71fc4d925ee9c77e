"""The Pi's pre-flight: what would stop the devices from starting, each finding with its fix, before any LED is lit.

Reads only files (`/dev`, `/proc`) and the GPIO chip's line information, so it can
run before the drivers are opened; `root` is the file system's root (tests use a
tree of their own).
"""
import os
from pathlib import Path
from typing import NamedTuple, Protocol

from hardware.config import Config
from hardware.pi import GPIO_GROUP, PI_EXTRA, is_pi5

PWM_PINS = {12, 13, 18, 19}          # a Pi 4's PWM pins, shared with its analogue audio
SPI0_CE1 = 7                         # held by dtparam=spi=on's second chip select; dtoverlay=spi0-1cs frees it
FREE_PIN = "stop that program or its overlay, or choose another pin in the config"
FREE_CE1 = ("enable SPI with dtoverlay=spi0-1cs instead of dtparam=spi=on in /boot/firmware/config.txt "
            "(one chip select, GPIO 7 free), then reboot")
HEADER_CHIPS = {"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"}


class LineInfo(Protocol):
    """What is used of a gpiod `LineInfo` (gpiod is a Pi-only driver, without type information here)."""
    used: bool
    consumer: str | None


class ChipInfo(Protocol):
    """What is used of a gpiod `ChipInfo`."""
    label: str


class GpioChip(Protocol):
    """What is used of a gpiod `Chip`."""

    def get_info(self) -> ChipInfo: ...

    def get_line_info(self, line: int) -> LineInfo: ...

    def close(self) -> None: ...


class Finding(NamedTuple):
    """One problem and what a person does about it."""
    problem: str
    fix: str

    def __str__(self) -> str:
        return f"{self.problem}: {self.fix}"


def _spi(config: Config, root: Path) -> list[Finding]:
    name = f"spidev{config.displays.spi_port}.{config.displays.spi_device}"
    device = root / "dev" / name
    if not device.exists():
        return [Finding(f"no /dev/{name}: SPI is off", "sudo raspi-config nonint do_spi 0, then reboot")]
    if not os.access(device, os.R_OK | os.W_OK):
        return [Finding(f"no permission for /dev/{name}",
                        "join the spi group (sudo usermod -aG spi $USER, then log in again)")]
    return []


def _leds(config: Config, model: str, root: Path, euid: int) -> list[Finding]:
    if is_pi5(model):
        pio = root / "dev" / "pio0"
        if not pio.exists():
            return [Finding("no /dev/pio0 (the Pi 5 NeoPixel driver needs it)",
                            "update Raspberry Pi OS: sudo apt full-upgrade, then reboot")]
        if not os.access(pio, os.R_OK | os.W_OK):
            return [Finding("no permission for /dev/pio0", GPIO_GROUP)]
        return []
    findings: list[Finding] = []
    if euid != 0:
        findings.append(Finding("not root (the Pi 4 NeoPixel driver, rpi_ws281x, needs it)",
                                "run with sudo, e.g. sudo .venv/bin/roseking selftest --config roseking.toml"))
    cards = root / "proc" / "asound" / "cards"
    if config.board.pin in PWM_PINS and cards.exists() and "Headphones" in cards.read_text(errors="replace"):
        findings.append(Finding(f"analogue audio is on and shares GPIO {config.board.pin}'s PWM with the LEDs",
                                "add dtparam=audio=off to /boot/firmware/config.txt, then reboot"))
    return findings


def _pins(config: Config, root: Path) -> list[Finding]:
    try:
        import gpiod
    except ImportError:
        return [Finding("gpiod is not installed (Blinka needs it on every Pi)", PI_EXTRA)]
    wanted = {config.board.pin: "board.pin"} | {pin: f"buttons {name}" for name, pin in config.buttons.pins.items()}
    for path in sorted((root / "dev").glob("gpiochip*")):
        try:
            chip: GpioChip = gpiod.Chip(str(path))
        except OSError as exc:
            return [Finding(f"cannot open {path.name} ({exc.strerror or exc})", GPIO_GROUP)]
        try:
            if chip.get_info().label not in HEADER_CHIPS:
                continue
            return [Finding(f"GPIO {pin} ({what}) is in use by {info.consumer or 'another program'}",
                            FREE_CE1 if pin == SPI0_CE1 else FREE_PIN)
                    for pin, what in sorted(wanted.items()) if (info := chip.get_line_info(pin)).used]
        finally:
            chip.close()
    return [Finding("no GPIO chip of the Pi's header in /dev", "run Raspberry Pi OS with its own kernel")]


def check(config: Config, model: str, root: Path = Path("/"), euid: int | None = None) -> list[Finding]:
    """Every finding on the Pi `model` for `config`; empty when the devices can start."""
    euid = os.geteuid() if euid is None else euid
    return _spi(config, root) + _leds(config, model, root, euid) + _pins(config, root)
