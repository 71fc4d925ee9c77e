"""`--frames PATH`: a JSON Lines record of every shown frame, one whole line per frame.

Each line: `{"t": seconds since start, "board": [81 "#rrggbb", rank 9 first, file a
first], "displays": {slot: [8 rows of "#" and "."]}}`, with `"dimmed": [slots]` and
`"caption": text` when the frame has them. Each line is written with a
single write and flushed. The caller opens the file (and decides how it is replaced).
"""
import json
from collections.abc import Iterable
from typing import Any, Protocol

from hardware.frame import Frame, bitmap_rows


class TextSink(Protocol):
    """Where frame lines go: an open text file, or anything that writes and flushes like one."""

    def write(self, text: str) -> object: ...

    def flush(self) -> None: ...


def frame_record(frame: Frame, slots: Iterable[str], t: float) -> dict[str, Any]:
    """The JSON-ready record of `frame` shown at `t` seconds on display `slots`."""
    record: dict[str, Any] = {"t": round(t, 4), "board": frame.hex_board(),
                              "displays": {slot: bitmap_rows(frame.bitmap(slot)) for slot in slots}}
    if frame.dimmed:
        record["dimmed"] = sorted(frame.dimmed)
    if frame.caption:
        record["caption"] = frame.caption
    return record


class FrameLog:
    """Writes one JSON line per shown frame to an open text file `sink`."""

    def __init__(self, sink: TextSink, slots: tuple[str, ...]) -> None:
        self.slots, self._sink = slots, sink

    def write(self, frame: Frame, t: float) -> None:
        self._sink.write(json.dumps(frame_record(frame, self.slots, t), separators=(",", ":")) + "\n")
        self._sink.flush()
