"""A fake spidev: `/dev/spidevX.Y` is there unless $FAKE_SPI says `missing` or `denied`."""
import errno
import os

from log import record


class SpiDev:
    def __init__(self):
        self.max_speed_hz = 0
        self.mode = 0

    def open(self, port, device):
        state = os.environ.get("FAKE_SPI")
        if state == "missing":
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        if state == "denied":
            raise PermissionError(errno.EACCES, "Permission denied")
        record("spi-open", port, device)

    def writebytes(self, data):
        record("spi-write", self.max_speed_hz, list(data))

    def close(self):
        record("spi-close")
