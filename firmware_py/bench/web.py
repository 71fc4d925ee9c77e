"""`roseking bench --only web`: the web page under load, 50 pages watching the mirror.

Two measurements, each with the pages in a process of their own (`firmware_py.bench.spectators`):

- a real `roseking play --sim --mode demo --web` (the computer plays itself, the frames move):
  the frames each page gets a second against the frames the table shows, how long after the
  table showed a frame it reached a page (p99), and the service's memory and CPU with the pages
  connected;
- presses from a page while the pages watch, on a table service in this process (the real loop,
  web server and buttons' rule, without the glitch filter's wait, as `--only play` measures the
  pins): from the page sending a button down to the loop showing the answering frame (to the
  devices and the mirror alike), and to that frame reaching the pressing page.
"""
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
from gpiozero.pins.mock import MockFactory

from firmware_py.bench.play import process_usage
from firmware_py.table.computer import Computer
from firmware_py.table.game import Mode, Setup
from firmware_py.table.loop import TableLoop
from firmware_py.table.saves import Saves
from firmware_py.table.session import Session
from firmware_py.table.settings import Settings
from firmware_py.table.status import StatusCollector
from firmware_py.web.server import WebServer, listen
from firmware_py.web.settings import WebSettings
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.events import PRESS, ButtonEvent
from hardware.sim import SimDevices, SimScreen

PAGES = 50
WATCH_SECONDS = 10.0
PRESSES = 200
GAP_SECONDS = 0.03
TARGET_MS = 20.0
ENV = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1")


def _spectators(url: str, seconds: float) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "firmware_py.bench.spectators", url, str(PAGES), str(seconds)],
                            stdout=subprocess.PIPE, text=True, env=ENV)


def _p99(values: list[float]) -> float:
    return round(statistics.quantiles(values, n=100)[98], 2) if len(values) > 1 else float("nan")


def _address(stderr: Any, timeout: float = 30.0) -> str:
    """The page's address, from the service's log line."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = stderr.readline()
        if "the table in a browser: " in line:
            return str(line.split("the table in a browser: ")[1].split()[0])
    raise RuntimeError("the table service did not serve its page")


def _demo() -> dict[str, Any]:
    """A real service playing a demonstration, watched by PAGES pages for WATCH_SECONDS."""
    with tempfile.TemporaryDirectory() as work:
        config = Path(work, "bench.toml")
        config.write_text(f'backend = "sim"\n[web]\nconnections_per_client = {PAGES + 10}\n'
                          f'messages_per_second = 1000\n')
        proc = subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "play", "--sim", "--config", str(config),
                                 "--mode", "demo", "--level", "easy", "--seed", "1", "--data-dir",
                                 str(Path(work, "data")), "--web", "127.0.0.1:0"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=ENV)
        try:
            url = _address(proc.stderr)
            time.sleep(2.0)
            _, alone_mb = process_usage(proc.pid)
            pages = _spectators(url, WATCH_SECONDS)
            time.sleep(1.5)                         # connected; the watch starts
            cpu0, _ = process_usage(proc.pid)
            time.sleep(WATCH_SECONDS / 2)
            _, watched_mb = process_usage(proc.pid)
            out, _ = pages.communicate(timeout=WATCH_SECONDS + 30)
            cpu1, _ = process_usage(proc.pid)
            with urllib.request.urlopen(f"{url}api/status", timeout=5) as answer:
                status = json.load(answer)
        finally:
            proc.terminate()
            proc.wait(30)
    watched = json.loads(out)
    return {**watched, "table_frames_per_second": status["frames_per_second"],
            "service_rss_mb": {"alone": round(alone_mb, 1), "watched": round(watched_mb, 1)},
            "service_cpu_percent_watched": round(100 * (cpu1 - cpu0) / (WATCH_SECONDS - 1.5), 1)}


class _Timed(TableLoop):
    """The loop, noting when it has shown the frame that answers a press, and that frame's number."""

    answered: tuple[float, int] | None = None
    mirror_seq: Any = None

    def handle(self, event: ButtonEvent) -> None:
        super().handle(event)
        if event.kind is PRESS:
            self.answered = (time.perf_counter(), self.mirror_seq())


def _presses() -> dict[str, Any]:
    """PRESSES presses from a page, alternating Red's first two cards, while PAGES pages watch."""
    config = parse_config({"buttons": {"hold_seconds": 5.0}})
    config = replace(config, buttons=replace(config.buttons, timing=replace(config.buttons.timing,
                                                                            min_pulse_seconds=0.0)))
    factory = MockFactory()
    devices = SimDevices(SimScreen(config.displays.chain, []), Buttons(config.buttons.pins, config.buttons.timing,
                                                                       factory), [factory.close])
    setup = Setup(Mode.HUMANS, seed=1)
    settings = WebSettings(port=0, connections_per_client=PAGES + 10, messages_per_second=1000)
    with tempfile.TemporaryDirectory() as data:
        session = Session(Settings(), config.seats, setup)
        status = StatusCollector(data, "sim")
        loop = _Timed(session, devices.slots, Computer(10), Saves(Path(data), log=lambda line: None),
                      [status], devices=devices)
        session.start(setup, loop.clock())
        server = WebServer(settings, listen(settings), config, "sim", status, Path(data, "records.jsonl"),
                           lambda line: None)
        loop.mirror_seq = lambda: server.mirror.seq
        stop = asyncio.Event()
        started = threading.Event()

        async def serve() -> None:
            async with server.serving(loop):
                started.set()
                await loop.run(False, stop)
        aio = asyncio.new_event_loop()
        runner = threading.Thread(target=aio.run_until_complete, args=(serve(),), daemon=True)
        runner.start()
        started.wait(30)
        pages = _spectators(server.url, PRESSES * (2 * GAP_SECONDS + 0.01) + 3)
        time.sleep(1.5)
        to_loop, to_page = asyncio.run(_press(server.url, loop))
        pages.communicate(timeout=60)
        aio.call_soon_threadsafe(stop.set)
        runner.join(30)
        devices.close()
    return {"presses": PRESSES, "answered": len(to_loop),
            "press_to_frame_ms": {"median": round(statistics.median(to_loop), 2), "p99": _p99(to_loop)},
            "press_to_frame_at_the_page_ms": {"median": round(statistics.median(to_page), 2), "p99": _p99(to_page)}}


async def _press(url: str, loop: _Timed) -> tuple[list[float], list[float]]:
    """Press from a page as a person would, and time the answering frame: at the loop, and at this page."""
    to_loop: list[float] = []
    to_page: list[float] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(url.replace("http", "ws", 1) + "ws") as ws:
        for i in range(PRESSES):
            name = ("red.card1", "red.card2")[i % 2]
            loop.answered = None
            t0 = time.perf_counter()
            await ws.send_str(json.dumps({"type": "button", "name": name, "down": True}))
            while True:
                try:
                    msg = await ws.receive(timeout=1.0)
                except asyncio.TimeoutError:
                    break
                data = json.loads(msg.data)
                answered = loop.answered
                if data.get("type") == "frame" and answered is not None and data["seq"] >= answered[1]:
                    to_loop.append((answered[0] - t0) * 1000)
                    to_page.append((time.perf_counter() - t0) * 1000)
                    break
            await asyncio.sleep(GAP_SECONDS)
            await ws.send_str(json.dumps({"type": "button", "name": name, "down": False}))
            await asyncio.sleep(GAP_SECONDS)
    return to_loop, to_page


def figures() -> dict[str, Any]:
    """The demonstration watched by 50 pages, and presses from a page while they watch."""
    return {"watching": _demo(), "pressing": _presses(), "pages": PAGES,
            "targets": {"press_to_frame_p99_ms": TARGET_MS}}
