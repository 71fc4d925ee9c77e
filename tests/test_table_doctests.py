"""firmware_py's doctests (pytest collects doctests under `engine/` only)."""
import doctest

import pytest

from firmware_py import inputs, streams
from firmware_py.report import figures
from firmware_py.table import game, game_menu, menu, reading, saves, settings


@pytest.mark.parametrize("module", [game, game_menu, menu, reading, saves, settings, inputs, streams, figures])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0
