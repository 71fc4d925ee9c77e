"""`roseking selftest --sim` with an input script ends by itself and shows everything;
`roseking bench --only frame` reports the frame figures."""
import json

import pytest

from firmware_py.cli import main
from hardware.frame import CELLS
from hardware.glyphs import NAMES, scroll_length
from hardware.selftest import BANNER, led_frames

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


def test_led_frames_light_each_led_alone_in_each_colour():
    frames = list(led_frames())
    assert len(frames) == 4 * CELLS
    for i, frame in enumerate(frames):
        lit = [c for c, colour in enumerate(frame.board) if colour != (0, 0, 0)]
        assert lit == [i // 4]
        assert frame.board[i // 4] == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)][i % 4]


def test_selftest_in_the_simulator_with_a_script(tmp_path, capsys):
    script = tmp_path / "press.txt"
    script.write_text("red.card1 press\nwhite.hero press\nmenu press\n")
    frames = tmp_path / "frames.jsonl"
    code = main(["selftest", "--sim", "--input-script", str(script), "--frames", str(frames),
                 "--led-seconds", "0", "--glyph-seconds", "0"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "self-test on the sim backend"
    echoed = [ln for ln in out if ln.endswith((" press", " release"))]
    assert echoed == ["red.card1 press", "red.card1 release", "white.hero press", "white.hero release",
                      "menu press", "menu release"]
    assert out[-1].startswith("never pressed: red.card2, ")
    records = [json.loads(ln) for ln in frames.read_text().splitlines()]
    assert len(records) == 4 * CELLS + len(NAMES) + scroll_length(BANNER) + 1
    assert records[0]["board"][0] == "#ff0000" and records[3]["board"][0] == "#ffffff"
    glyph_records = records[4 * CELLS:4 * CELLS + len(NAMES)]
    assert all(len(set(map(tuple, r["displays"].values()))) == 1 for r in glyph_records)   # same on all ten
    assert records[-1]["board"] == ["#000000"] * 81


def test_selftest_without_a_backend_is_a_user_error(capsys):
    assert main(["selftest"]) == 2
    assert capsys.readouterr().err.startswith("error: no backend chosen")


def test_bench_frame_section(capsys):
    assert main(["bench", "--only", "frame"]) == 0
    figures = json.loads(capsys.readouterr().out)["frame"]
    assert figures["displays"] == 10
    assert 0 < figures["board_ms"] and 0 < figures["displays_ms"] and 0 < figures["frame_ms"]
