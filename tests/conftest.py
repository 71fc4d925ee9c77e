"""Shared test set-up: no test touches real hardware.

gpiozero uses its mock pin factory and Blinka its OS-agnostic board, so that
`import neopixel` works on any machine and `neopixel.neopixel_write` can be captured.
"""
import os

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

collect_ignore = ["fakepi"]     # fake Pi drivers for subprocess tests, not tests (tests/fakepi/README.md)
