"""The device layer: the lit board, the card displays and the buttons.

It knows pixels, 8 × 8 bitmaps and buttons, never the rules. Devices are chosen once
at start-up with `open_devices(config, sim=…)`; scenes hand them `Frame`s. The names
below load their module on first use, so `import hardware.errors` (as the analysis
commands do) loads no gpiozero, luma or Pillow.

>>> from hardware import Frame, glyph, open_devices, parse_config
>>> devices = open_devices(parse_config({}), sim=True, view=False)
>>> devices.show(Frame.solid((0, 0, 255), {"red.card1": glyph("NE2")}))
>>> devices.close()
"""
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.backends import open_devices
    from hardware.events import ButtonEvent, InputEnded
    from hardware.config import Config, parse_config, read_config
    from hardware.devices import Devices
    from hardware.errors import ConfigError, HardwareError
    from hardware.frame import BLANK, RGB, Bitmap, Frame
    from hardware.glyphs import glyph, scroll
    from hardware.roles import ButtonSource, CardDisplays, Lights

_HOME = {
    "open_devices": "backends", "ButtonEvent": "events", "InputEnded": "events", "Config": "config",
    "read_config": "config", "parse_config": "config", "Devices": "devices", "ConfigError": "errors",
    "HardwareError": "errors", "BLANK": "frame", "RGB": "frame", "Bitmap": "frame", "Frame": "frame",
    "glyph": "glyphs", "scroll": "glyphs", "ButtonSource": "roles", "CardDisplays": "roles", "Lights": "roles",
}
__all__ = ["BLANK", "RGB", "Bitmap", "ButtonEvent", "ButtonSource", "CardDisplays", "Config", "ConfigError", "Devices",
           "Frame", "HardwareError", "InputEnded", "Lights", "glyph", "open_devices", "parse_config", "read_config",
           "scroll"]


def __getattr__(name: str) -> Any:
    """Load the module that defines `name` (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module 'hardware' has no attribute {name!r}")
    return getattr(import_module(f"hardware.{_HOME[name]}"), name)
