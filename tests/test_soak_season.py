"""The soak's season: palms flat on the panel and the staff with their combination and menu, every deal compared
with the one before, SIGKILL rounds that must resume what the killed service saved, another language, the
museum's configuration. Short soaks, their visitors coming often (the idle stretches shortened)."""
import json
import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest

from engine.record import replay
from firmware_py import soak as soak_module
from firmware_py.cli import main
from firmware_py.device_options import load_config
from firmware_py.soak import soak
from firmware_py.table import staff
from firmware_py.table.saves import ARCHIVE
from firmware_py.table.status import STATUS_FILE
from hardware.events import PRESS
from hardware.names import MENU_BUTTON

ROOT = Path(__file__).resolve().parent.parent
MUSEUM = ROOT / "examples/config/museum.toml"
pytestmark = pytest.mark.usefixtures("no_waiting_for_the_disk")  # the soaks' hundreds of saves would wait


@pytest.fixture
def busy(monkeypatch):
    """Visitors every minute or so, palms and staff among them often."""
    monkeypatch.setattr(soak_module, "MEAN_IDLE_SECONDS", 60.0)
    monkeypatch.setattr(soak_module, "VISITS", {"player": 1, "walk-away": 1, "child": 1, "staff": 4})
    monkeypatch.setattr(soak_module, "PALM_VISITS", 6)


def test_palms_never_open_the_staff_menu_the_staff_do_and_no_deal_repeats(busy, tmp_path):
    report = soak(0.25, seed=4, data_dir=tmp_path, config=load_config(str(MUSEUM)), config_file=MUSEUM)
    tally = report.tally
    assert report.errors == 0, tally.errors
    assert tally.palms >= 10 and tally.visits["palm"] >= 2
    assert tally.staff_menus["staff"] == tally.visits["staff"] >= 2 and sum(tally.staff_menus.values()) == \
        tally.staff_menus["staff"]
    assert tally.deals >= 3 and tally.repeated_deals == 0
    assert "palms flat on the panel: " in "\n".join(report.lines())


def test_a_staff_menu_a_visitor_opens_and_a_repeated_deal_are_errors(busy, tmp_path, monkeypatch):
    """The checks themselves: a combination any MENU press makes (as a palm made the old one), deals all alike."""
    monkeypatch.setattr(staff.Access, "event",
                        lambda self, event, now: event.kind is PRESS and event.name == MENU_BUTTON)
    monkeypatch.setattr(soak_module, "deal_of", lambda game: "the same cards")
    report = soak(0.12, seed=4, data_dir=tmp_path, config=load_config(str(MUSEUM)))
    errors = report.tally.errors
    assert any(e.startswith("the staff menu opened while palm was at the table") for e in errors)
    assert any(" dealt as the game before it (seed " in e for e in errors) and report.tally.repeated_deals >= 1


def test_a_sigkill_round_resumes_what_the_killed_service_saved(busy, tmp_path, monkeypatch):
    monkeypatch.setattr(soak_module, "KILL_WITHIN_SECONDS", (0.5, 2.5))
    report = soak(0.1, seed=6, data_dir=tmp_path, kills=1)
    assert report.errors == 0, report.tally.errors
    assert report.tally.kills == 1 and "SIGKILL rounds: 1" in "\n".join(report.lines())
    for line in (tmp_path / ARCHIVE).read_text().splitlines():
        replay(json.loads(line))


def test_the_soak_speaks_the_language_asked_and_measures_its_writes(busy, tmp_path, capsys):
    assert main(["soak", "--sim", "--hours", "0.1", "--seed", "2", "--language", "da", "--config", str(MUSEUM),
                 "--kills", "0", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "the table's language: da" in out and "errors: 0" in out
    assert "writes to the disk: " in out and "MB a simulated day (the status file in the data directory)" in out
    assert main(["soak", "--sim", "--hours", "1", "--language", "xx"]) == 2
    assert "argument --language: invalid choice: 'xx'" in capsys.readouterr().err
    assert main(["soak", "--sim", "--hours", "1", "--kills", "-1"]) == 2
    assert "--kills: must be between 0 and 1000 (got -1)" in capsys.readouterr().err


def test_a_signal_ends_the_soak_early_and_it_reports_the_hours_it_ran(tmp_path, capsys):
    """A 200-hour soak stopped with Ctrl-C (or SIGTERM) still says what it found, in the hours it ran."""
    original = signal.getsignal(signal.SIGINT)

    def interrupt():
        while signal.getsignal(signal.SIGINT) is original or not (tmp_path / STATUS_FILE).exists():
            time.sleep(0.01)                                            # until the soak's table is up
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    assert main(["soak", "--sim", "--hours", "100", "--seed", "1", "--kills", "0", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    ran = re.search(r"^simulated: (\d+\.\d\d) hours of the 100 asked \(stopped by a signal\) in 0 min", out, re.M)
    assert ran and 0 < float(ran[1]) < 100, out
    assert "\nerrors: 0 " in out and re.search(r"MB at the end \([+-]\d+\.\d% from the start\)\n", out)   # not 10 h
    assert signal.getsignal(signal.SIGINT) is original                 # and given back
