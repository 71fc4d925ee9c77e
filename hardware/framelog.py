"""`--frames PATH`: a JSON Lines record of every shown frame, one whole line per frame.

Each line: `{"t": seconds since start, "board": [81 "#rrggbb", rank 9 first, file a
first], "displays": {slot: [8 rows of "#" and "."]}}`. Each line is written with a
single write and flushed, so a reader never sees half a frame.
"""
import json

from hardware.errors import HardwareError
from hardware.frame import bitmap_rows


def frame_record(frame, slots, t):
    """The JSON-ready record of `frame` shown at `t` seconds on display `slots`."""
    return {"t": round(t, 4), "board": frame.hex_board(),
            "displays": {slot: bitmap_rows(frame.bitmap(slot)) for slot in slots}}


class FrameLog:
    """Appends one JSON line per shown frame to a file, truncated when opened."""

    def __init__(self, path, slots):
        self.slots = slots
        try:
            self._file = open(path, "w", encoding="utf-8")
        except OSError as exc:
            raise HardwareError(f"--frames {path}: cannot write ({exc.strerror})") from None

    def write(self, frame, t):
        self._file.write(json.dumps(frame_record(frame, self.slots, t), separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self):
        self._file.close()
