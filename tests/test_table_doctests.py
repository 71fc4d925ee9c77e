"""firmware_py's doctests (pytest collects doctests under `engine/` only), each module imported by its test:
collecting them costs no worker the report's matplotlib nor the web server's aiohttp."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", [
    "table.game", "table.game_menu", "table.menu", "table.reading", "table.saves", "table.settings", "inputs",
    "streams", "report.figures", "table.faults", "table.notify", "table.loop", "table.status", "table.unit",
    "table.messages", "table.state", "soak", "web.guard", "web.language", "web.refusals", "web.server",
    "web.settings"])
def test_doctests(name):
    assert doctest.testmod(importlib.import_module(f"firmware_py.{name}")).failed == 0
