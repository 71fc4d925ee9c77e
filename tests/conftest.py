"""Shared test set-up: no test touches real hardware, and no test leaves a process behind.

gpiozero uses its mock pin factory and Blinka its OS-agnostic board, so that
`import neopixel` works on any machine and `neopixel.neopixel_write` can be captured.
The processes the tests start are marked and looked for after each test and at the end
(tests/processes.py). The browser tests share one headless Chromium (tests/browser_kit.py), and
under `pytest -n` one worker runs each of the modules in WHOLE (a browser's, the reports', the faults', the
cluster's), the others' tests go one by one to whichever worker is free (as xdist's `load` does).
"""
import os

import pytest
from browser_kit import browser  # noqa: F401 (a fixture)
from processes import (no_process_left, pytest_configure, pytest_sessionfinish,  # noqa: F401 (pytest's hooks)
                       pytest_unconfigure)

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

collect_ignore = ["fakepi"]     # fake Pi drivers for subprocess tests, not tests (tests/fakepi/README.md)


@pytest.fixture
def no_waiting_for_the_disk(monkeypatch):
    """fsync returns at once (its failures, where a test injects them, all the same), for modules whose tests
    make hundreds of saves and look at what the program does, not at what reaches the disk (what does is
    tested by real processes: the SIGKILL rounds). A module asks for it with `pytest.mark.usefixtures`."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


WHOLE = {"tests/test_web_pages.py", "tests/test_web_browser.py", "tests/test_report.py", "tests/test_faults.py",
         "tests/test_cluster.py"}
"""Modules whose tests share a costly start (a browser, a table, drawn reports, what each command writes, a Dask
cluster): one worker runs each of them."""


def pytest_xdist_make_scheduler(config, log):
    """xdist's `loadscope` with each test a scope of its own but those of a WHOLE module, whose scope is the
    module (the biggest first); for `-n` without `--dist`. (`--dist loadgroup` would do, were it not blind
    to its marks with pytest 9.2.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            return module if module in WHOLE else nodeid
    return Scheduling(config, log)
