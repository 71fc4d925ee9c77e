"""The table service's doctests (pytest collects doctests under `engine/` only)."""
import doctest

import pytest

from firmware_py.table import game, game_menu, menu, settings


@pytest.mark.parametrize("module", [game, game_menu, menu, settings])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0
