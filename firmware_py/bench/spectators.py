"""Spectators for `roseking bench --only web`, in a process of their own: N pages watching the mirror.

`python -m firmware_py.bench.spectators URL N SECONDS` opens N WebSockets to the table at URL,
reads its frames for SECONDS, and prints JSON: the frames each page got a second, and how long
after the table showed it each frame reached its page (the frame's `at`, the table's monotonic
clock, against this process's: one clock on one machine).
"""
import asyncio
import json
import statistics
import sys
import time
from typing import Any

import aiohttp


async def _watch(session: aiohttp.ClientSession, url: str, seconds: float, ready: asyncio.Event,
                 start: list[float]) -> tuple[int, list[float], list[int]]:
    frames, delays, seqs = 0, [], []
    async with session.ws_connect(url.replace("http", "ws", 1) + "ws", max_msg_size=1 << 20) as ws:
        await ready.wait()
        end = start[0] + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                msg = await ws.receive(timeout=left)
            except asyncio.TimeoutError:
                break
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            data = json.loads(msg.data)
            if data.get("type") == "frame" and data["at"] >= start[0]:     # shown since the watch began
                frames += 1
                delays.append((now - data["at"]) * 1000)
                seqs.append(data["seq"])
    return frames, delays, seqs


async def watch(url: str, count: int, seconds: float) -> dict[str, Any]:
    """Watch the table at `url` with `count` pages for `seconds` (counted once all are connected)."""
    ready, start = asyncio.Event(), [0.0]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(_watch(session, url, seconds, ready, start)) for _ in range(count)]
        await asyncio.sleep(1.0)            # every page connected and sent its first frame
        start[0] = time.monotonic()
        ready.set()
        results = await asyncio.gather(*tasks)
    rates = [frames / seconds for frames, _, _ in results]
    delays = sorted(d for _, ds, _ in results for d in ds)
    shown = max((max(s) - min(s) + 1 for _, _, s in results if s), default=0)
    return {"pages": count, "seconds": seconds,
            "frames_per_second_per_page": {"min": round(min(rates), 2), "median": round(statistics.median(rates), 2)},
            "frames_the_table_showed": shown,
            "frames_a_page_missed": {"max": max((shown - f for f, _, _ in results), default=0)},
            "frame_to_page_ms": {"median": round(statistics.median(delays), 2) if delays else None,
                                 "p99": round(statistics.quantiles(delays, n=100)[98], 2) if len(delays) > 1 else None}}


def main() -> None:
    url, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    print(json.dumps(asyncio.run(watch(url, count, seconds))))


if __name__ == "__main__":
    main()
