"""A fake rpi_ws281x C module (the Pi 4's NeoPixel driver).

`ws2811_init` returns $FAKE_WS281X_INIT (0 = success; -5 is rpi_ws281x's "not root").
As in the real library after a failed init, the channel pointers are null: any later
call that uses the strip kills the process with SIGSEGV, as the real one does.
"""
import os
import signal

from log import record

WS2811_SUCCESS = 0
WS2811_STRIP_RGB = 0x00100800
SK6812_STRIP_RGBW = 0x18100800
_failed = False
_leds = {}


def _touch():
    if _failed:
        os.kill(os.getpid(), signal.SIGSEGV)


def new_ws2811_t():
    return {"channels": [{}, {}]}


def ws2811_channel_get(strip, n):
    _touch()
    return strip["channels"][n]


def _setter(key):
    def set_(channel, value):
        _touch()
        channel[key] = value
    return set_


ws2811_channel_t_count_set = _setter("count")
ws2811_channel_t_gpionum_set = _setter("gpio")
ws2811_channel_t_invert_set = _setter("invert")
ws2811_channel_t_brightness_set = _setter("brightness")
ws2811_channel_t_strip_type_set = _setter("strip")
ws2811_t_freq_set = _setter("freq")
ws2811_t_dmanum_set = _setter("dma")


def ws2811_channel_t_gpionum_get(channel):
    _touch()
    return channel["gpio"]


def ws2811_channel_t_strip_type_get(channel):
    _touch()
    return channel["strip"]


def ws2811_init(strip):
    global _failed
    code = int(os.environ.get("FAKE_WS281X_INIT", "0"))
    _failed = code != 0
    record("ws2811_init", code)
    return code


def ws2811_get_return_t_str(code):
    return {-5: "mmap() failed", -11: "Selected GPIO not possible"}.get(code, "Generic failure")


def ws2811_led_set(channel, i, pixel):
    _touch()
    _leds[i] = pixel


def ws2811_render(strip):
    _touch()
    record("ws2811_render", [_leds[i] for i in sorted(_leds)])
    return WS2811_SUCCESS


def ws2811_fini(strip):
    _touch()
    record("ws2811_fini")


def delete_ws2811_t(strip):
    pass
