"""`roseking bench --only play`: the table service's latency, idle CPU and memory on the simulated backend.

Latency is measured from the moment a button's mock pin goes low to the moment the loop
has put the frame that answers the press on the devices (or found that the frame on them
already is that frame, e.g. a second "wait" right after the first), with the real asyncio
loop, the real debounce and the real thinking worker; once while the table waits for a person and once while the
computer thinks (level `max`, so it is still thinking when the presses come). Idle CPU
and memory are read from /proc for a real `roseking play --sim` process waiting for a person. A cancelled
question's cost: from asking a fresh worker (the one before it terminated) to its answer; and how long the
first question, asked as the service starts, holds the loop while the fork server imports.
"""
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from engine.position import Position
from firmware_py.table.computer import Computer, prepare
from firmware_py.table.game import Mode, Request, Setup
from firmware_py.table.loop import TableLoop
from firmware_py.table.saves import Saves
from firmware_py.table.service import ButtonBridge
from firmware_py.table.session import Session
from firmware_py.table.settings import Settings
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.events import PRESS, ButtonEvent
from hardware.sim import SimDevices, SimScreen

PRESSES = 200
GAP_SECONDS = 0.03
IDLE_SECONDS = 5.0
RESTARTS = 11
TARGET_MS, TARGET_CPU, TARGET_MB = 20.0, 3.0, 80.0


def _latencies(setup: Setup, names: list[str]) -> tuple[list[float], float | None]:
    """Milliseconds from pin-down to the answering frame, for PRESSES presses cycling through `names`,
    and the thinking worker's resident MB (None if it did not run)."""
    config = parse_config({})
    factory = MockFactory()
    timing = replace(config.buttons.timing, hold_seconds=5.0, min_pulse_seconds=0.0)    # no glitch filter's wait
    buttons = Buttons(config.buttons.pins, timing, factory)
    shown = threading.Event()

    class Timed(TableLoop):
        def handle(self, event: ButtonEvent) -> None:
            super().handle(event)
            if event.kind is PRESS:
                shown.set()

    devices = SimDevices(SimScreen(config.displays.chain, []), buttons, [factory.close])
    with tempfile.TemporaryDirectory() as data:
        session = Session(Settings(think_seconds=60), config.seats, setup)
        computer = Computer(60)
        loop = Timed(session, devices.slots, computer, Saves(Path(data), log=lambda line: None),
                     devices=devices)
        session.start(setup, loop.clock())
        stop = asyncio.Event()

        async def serve() -> None:
            with ButtonBridge(buttons, loop):
                await loop.run(False, stop)
        aio = asyncio.new_event_loop()
        runner = threading.Thread(target=aio.run_until_complete, args=(serve(),), daemon=True)
        runner.start()
        time.sleep(1.0)                     # the loop and (for the computer) its worker are running
        out = []
        for i in range(PRESSES):
            pin = factory.pin(config.buttons.pins[names[i % len(names)]])
            shown.clear()
            t0 = time.perf_counter()
            pin.drive_low()
            if shown.wait(1.0):
                out.append((time.perf_counter() - t0) * 1000)
            time.sleep(GAP_SECONDS)
            pin.drive_high()
            time.sleep(GAP_SECONDS)
        worker = computer.pid()
        worker_mb = process_usage(worker)[1] if worker else None
        aio.call_soon_threadsafe(stop.set)
        runner.join()
        devices.close()
    return out, worker_mb


def _p99(values: list[float]) -> float:
    return round(statistics.quantiles(values, n=100)[98], 2) if len(values) > 1 else float("nan")


def process_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, resident MB) of process `pid`."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(ln.split()[1]) for ln in f if ln.startswith("VmRSS:"))
    return (int(fields[11]) + int(fields[12])) / ticks, rss / 1024


def _idle() -> dict[str, Any]:
    """CPU % of one core and resident MB of `roseking play --sim` waiting for a person (its own process)."""
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-m", "firmware_py.cli", "play", "--sim", "--mode", "humans",
                                 "--seed", "1", "--data-dir", data],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1"))
        try:
            time.sleep(2.0)
            cpu0, _ = process_usage(proc.pid)
            time.sleep(IDLE_SECONDS)
            cpu1, rss = process_usage(proc.pid)
        finally:
            proc.terminate()
            proc.wait()
    return {"idle_cpu_percent": round(100 * (cpu1 - cpu0) / IDLE_SECONDS, 2), "rss_mb": round(rss, 1)}


def worker_figures() -> dict[str, float]:
    """Milliseconds the loop is held by a first question asked at once after `prepare` (at worst: the service
    opens its devices in between); the median from asking a fresh worker, the one before cancelled, to its
    answer (level random)."""
    position = Position.new(seed=1).to_json()
    computer = Computer(60)
    times = []
    try:
        prepare()
        for ply in range(RESTARTS + 1):
            t0 = time.perf_counter()
            computer.ask(Request("move", 1, ply, "random", ply, position))
            if ply == 0:
                held = (time.perf_counter() - t0) * 1000
            if computer.receive(timeout=60) is None:
                raise RuntimeError("the computer's worker did not answer within a minute")
            times.append((time.perf_counter() - t0) * 1000)
            computer.cancel()
    finally:
        computer.close()
    return {"first_question_at_once_held_loop_ms": round(held, 1),
            "fresh_worker_answer_ms_median": round(statistics.median(times[1:]), 1)}


def figures() -> dict[str, Any]:
    """Button-to-frame p99 (idle and while the computer thinks), idle CPU and resident memory; the worker's."""
    worker = worker_figures()           # first: its first question finds no fork server running
    idle, _ = _latencies(Setup(Mode.HUMANS, seed=1), ["red.card1", "red.card2"])
    thinking, worker_mb = _latencies(Setup(Mode.VS_COMPUTER, "max", "white", seed=1), ["white.card1", "white.card2"])
    return {
        "button_to_frame_p99_ms_idle": _p99(idle),
        "button_to_frame_median_ms_idle": round(statistics.median(idle), 2),
        "button_to_frame_p99_ms_thinking": _p99(thinking),
        "button_to_frame_median_ms_thinking": round(statistics.median(thinking), 2),
        "presses": PRESSES,
        "answered": {"idle": len(idle), "thinking": len(thinking)},
        **_idle(),
        "worker_rss_mb": round(worker_mb, 1) if worker_mb else None,
        **worker,
        "targets": {"p99_ms": TARGET_MS, "idle_cpu_percent": TARGET_CPU, "rss_mb": TARGET_MB},
    }
