"""A fake of the Pi 5's PIO NeoPixel driver (a C++ module).

With $FAKE_PIO_ERROR set, the first write raises it as the real driver raises its
`std::runtime_error`, and a retry raises the real driver's "pio_init() failed".
"""
import os

from log import record

_tries = 0


def neopixel_write(gpio, buf):
    global _tries
    error = os.environ.get("FAKE_PIO_ERROR")
    _tries += 1
    if error:
        raise RuntimeError(error if _tries == 1 else "pio_init() failed")
    record("pio_write", gpio._pin.id, list(buf))


def free_pio():
    record("free_pio")
