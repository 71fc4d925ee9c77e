"""A fake libgpiod 2 binding: one header GPIO chip whose lines can be requested."""
import os

from log import record

from gpiod import line

__version__ = "2.2.2"
LABEL = "pinctrl-rp1" if os.environ.get("FAKE_PI_MODEL") == "5" else "pinctrl-bcm2711"
BUSY = {int(p) for p in os.environ.get("FAKE_GPIO_BUSY", "").split(",") if p}


class ChipInfo:
    def __init__(self):
        self.label, self.num_lines, self.name = LABEL, 54, "gpiochip0"


class LineInfo:
    def __init__(self, offset):
        self.used = offset in BUSY
        self.consumer = "another-program" if self.used else ""


class LineSettings:
    def __init__(self, **kwargs):
        self.direction = self.bias = self.output_value = None


class Request:
    def __init__(self, offsets):
        self.offsets = offsets
        self.values = {o: line.Value.INACTIVE for o in offsets}

    def reconfigure_lines(self, config):
        pass

    def set_value(self, offset, value):
        self.values[offset] = value

    def get_value(self, offset):
        return self.values[offset]

    def release(self):
        record("gpio-release", list(self.offsets))


class Chip:
    def __init__(self, path):
        self.path = path

    def get_info(self):
        return ChipInfo()

    def get_line_info(self, offset):
        return LineInfo(offset)

    def request_lines(self, config, consumer=None):
        record("gpio-request", list(config))
        return Request(list(config))

    def close(self):
        pass
