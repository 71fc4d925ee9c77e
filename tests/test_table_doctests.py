"""firmware_py's doctests (pytest collects doctests under `engine/` only)."""
import doctest

import pytest

from firmware_py import inputs, soak, streams
from firmware_py.report import figures
from firmware_py.table import faults, game, game_menu, loop, menu, messages, notify, reading, saves, settings, state, \
    status, unit
from firmware_py.web import guard, language, refusals, server, settings as web_settings


@pytest.mark.parametrize("module", [game, game_menu, menu, reading, saves, settings, inputs, streams, figures, faults,
                                    notify, loop, status, unit, messages, state, soak, guard, language, refusals,
                                    server, web_settings])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0
