"""The device layer: the lit board, the card displays and the buttons.

It knows pixels, 8 × 8 bitmaps and buttons, never the rules. Devices are chosen once
at start-up with `open_devices(config, sim=…)`; scenes hand them `Frame`s.

>>> devices = open_devices(parse_config({}), sim=True, view=False)
>>> devices.show(Frame.solid((0, 0, 255), {"red.card1": glyph("NE2")}))
>>> devices.close()
"""
from hardware.backends import open_devices
from hardware.buttons import ButtonEvent, InputEnded
from hardware.config import Config, load_config, parse_config
from hardware.errors import ConfigError, HardwareError
from hardware.frame import BLANK, Frame
from hardware.glyphs import glyph, scroll

__all__ = ["BLANK", "ButtonEvent", "Config", "ConfigError", "Frame", "HardwareError", "InputEnded", "glyph",
           "load_config", "open_devices", "parse_config", "scroll"]
