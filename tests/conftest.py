"""Shared test set-up: no test touches real hardware, and no test leaves a process behind.

gpiozero uses its mock pin factory and Blinka its OS-agnostic board, so that
`import neopixel` works on any machine and `neopixel.neopixel_write` can be captured.
The processes the tests start are marked and looked for after each test and at the end
(tests/processes.py).
"""
import os

from processes import no_process_left, pytest_configure, pytest_sessionfinish  # noqa: F401 (pytest's hooks)

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

collect_ignore = ["fakepi"]     # fake Pi drivers for subprocess tests, not tests (tests/fakepi/README.md)
