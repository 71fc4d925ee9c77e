"""Headless Chromium for the browser tests and the pictures of the pages: Debian's `chromium` and
`chromium-driver`, driven by Selenium, never a browser downloaded by a tool.

Missing, the browser is a failure in CI (`CI` set: `.ci/run` installs it) and a skip, saying
why, anywhere else. One browser (`browser`, a fixture conftest.py offers) serves every browser test of
a pytest process, and under `pytest -n` one worker runs each module of browser tests whole (conftest.py's
WHOLE), so that one browser and the module's shared tables are started, not one in each worker.
"""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import processes

CHROMIUM = os.environ.get("ROSEKING_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("ROSEKING_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1")
ROOT = Path(__file__).resolve().parent.parent


def need_browser():
    """Fail (in CI) or skip (elsewhere) when Chromium or its driver is missing."""
    missing = [path for path in (CHROMIUM, DRIVER) if not shutil.which(path)]
    if missing:
        why = f"headless Chromium is needed: {', '.join(missing)} missing (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


@contextmanager
def chromium(width=1280, height=800):
    """A headless Chromium with a fresh profile and a viewport of `width` × `height`, closed at the end."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="roseking-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    try:
        viewport(driver, width, height)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    """The pytest process's headless Chromium (its viewport as a test last set it), started once."""
    need_browser()
    with chromium() as driver:
        yield driver


def for_a_test(browser, width, height):
    """The shared browser with a viewport of `width` × `height` for one test (a fixture yields from it); then a
    blank page, so that no page goes on drawing the test's table while it stops and the next test starts."""
    viewport(browser, width, height)
    yield browser
    browser.get("about:blank")


def until(condition, timeout=20.0, what="the page"):
    """`condition()`'s first true value, asked every 50 ms; a failure naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        got = condition()
        if got:
            return got
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)


def viewport(driver, width, height):
    """Make the page's viewport `width` × `height` CSS pixels (the window's size counts its frame too)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


class Table:
    """`roseking play --sim --web` in a process of its own, on a free loopback port: `url`, `stop()`."""

    def __init__(self, data_dir, *args, cwd=ROOT):
        command = [sys.executable, "-m", "firmware_py.cli", "play", "--sim", "--web", "127.0.0.1:0",
                   "--data-dir", str(data_dir), *args]
        env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1",
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.log = Path(cwd, data_dir).parent / f"{Path(data_dir).name}.log"
        self._log = open(self.log, "w")
        self._group = contextlib.ExitStack()      # the service's whole process group ends with `stop`
        self.process = self._group.enter_context(processes.started(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                                                   stdout=subprocess.DEVNULL, stderr=self._log))
        self.url = self._address()

    def _address(self, timeout=30.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.log.read_text().splitlines():
                if "the table in a browser: " in line:
                    return line.split("the table in a browser: ")[1].split()[0]
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the table did not come up: {self.log.read_text()}")

    def stop(self):
        """Stop the service as systemd would (SIGTERM: it saves and writes its frame dump), then end whatever of
        its process group is left (`processes.started`)."""
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(30)
        self._group.close()
        self._log.close()


def game_record(seed, names=None, moves=None):
    """A game the `random` player plays against itself on deal `seed` (to its end, or `moves` moves), with `names`
    at its seats, as the table records it: one line of an archive, or a save."""
    import random
    from engine.players import make_player
    from engine.position import Position
    from engine.record import dumps
    from firmware_py.table.game import Game, Mode, Setup
    start = Position.new(seed=seed)
    pos = start.copy()
    pos.rng = random.Random(seed)
    player = make_player("random", seed=seed)
    while pos.outcome() is None and len(pos.stack) != moves:
        pos.push(player.choose(pos.copy()))
    return dumps(Game(Setup(Mode.HUMANS, seed=seed), start, pos, names=names).record()) + "\n"

