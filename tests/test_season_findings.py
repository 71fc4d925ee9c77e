"""What a season of strangers found at the simulated table besides the big things: the terminal (a held key, a
small window, the caption, the legend, Ctrl-C, a busy port), the texts (HERO's reason, the end's sums, one
word for a stone), the gestures page."""
import io
import os
import pty
import re
import subprocess
import time
from pathlib import Path

import pytest

import processes

from engine.moves import MOVES
from engine.notation import parse_card
from firmware_py.errors import UsageError
from firmware_py.table.game import Game, Mode, Setup
from firmware_py.table.messages import CATALOGUE, Language, say
from firmware_py.table.scenes import end_schedule
from firmware_py.table.session import Screen, deal
from firmware_py.table.settings import Settings
from firmware_py.table.staff import Access
from firmware_py.web.server import listen
from firmware_py.web.settings import WebSettings
from hardware import terminal
from hardware.frame import Frame
from hardware.keyboard import Keyboard, key_map, legend
from hardware.script import parse_script
from hardware.terminal import TerminalView
from table_kit import Rig
from test_table_players import ends, near_its_end

ROOT = Path(__file__).resolve().parent.parent


# --- the terminal ---------------------------------------------------------------------------------------------

class Fingers:
    """What the keyboard pressed."""

    def __init__(self):
        self.pressed = []

    def press(self, name, seconds):
        self.pressed.append(name)

    def down(self, name):
        self.pressed.append(f"{name} down")

    def up(self, name):
        self.pressed.append(f"{name} up")


def typed(chunks, pause=0.0, **staff):
    """The buttons a Keyboard on a terminal presses when `chunks` are typed, `pause` seconds apart."""
    main, side = pty.openpty()
    fingers = Fingers()
    with os.fdopen(side, "r", closefd=True) as stream:
        keyboard = Keyboard(stream, key_map(["red", "white"]), fingers, 0.0, **staff)
        try:
            for chunk in chunks:
                os.write(main, chunk.encode())
                time.sleep(pause)
            time.sleep(0.4)
        finally:
            keyboard.close()
            os.close(main)
    return fingers.pressed


def test_a_held_key_is_one_press_and_a_card_typed_twice_still_plays():
    """A held key repeats (the terminal sends it again and again): it played the card at once."""
    assert typed(["1", "1" * 12]) == ["red.card1"]                  # held: its repeats come close together
    assert typed(["1", "1"], pause=0.3) == ["red.card1", "red.card1"]     # typed twice: two presses


def test_the_staff_menu_can_be_tried_on_the_simulated_table_with_a_key_or_a_script():
    steps = Access(("red", "white"), key=False).steps()
    assert typed(["S"], staff=steps) == ["menu down", "red.hero", "white.hero", "red.draw", "white.draw", "menu up"]
    assert typed(["S", "S"], pause=0.3, key_switch=True) == ["staff down", "staff up"]
    script = parse_script("menu down\nred.hero press\nmenu up\n", ["menu", "red.hero"], "staff.txt")
    assert [(step.action, step.name) for step in script] == [("down", "menu"), ("press", "red.hero"), ("up", "menu")]


def test_a_terminal_too_small_is_told_the_size_it_needs_and_nothing_draws_over_it(monkeypatch):
    out = io.StringIO()
    size = [(60, 20)]
    monkeypatch.setattr(terminal, "_size", lambda stream: size[0])
    view = TerminalView(out, ("red.card1", "white.card1"), {"red": "south", "white": "north"}, ["keys"])
    view.draw(Frame(caption="the new-game menu"))
    view.draw(Frame(caption="red to move"))
    text = out.getvalue()
    told = f"roseking: the picture needs a terminal of {view.need[0]} x {view.need[1]} (this one is 60 x 20)"
    assert text.count(told) == 1 and "new-game menu" not in text and "red to move" not in text
    size[0] = (120, 40)                                             # made larger: the picture comes back
    view.draw(Frame(caption="white to move"))
    assert "white to move" in out.getvalue().split(told)[1]


def test_the_caption_shows_the_last_move_and_drops_resumed_once_the_game_has_ended(tmp_path):
    rig = Rig(tmp_path, Settings(show_seconds=0.05))
    try:
        game = near_its_end(Setup(Mode.HUMANS, seed=4))
        pos = game.pos
        last = next(m for m in pos.legal_moves() if ends(pos, m))
        rig.resume(game)
        rig.session.announce("RESUMED", f"RESUMED ({len(pos.stack)} moves)", rig.time.now)
        rig.wait(0.1)
        mover = pos.variant.seats[(pos.to_move - 1) % 2]
        assert f" · last {mover} {pos.history()[-1]}" in rig.frame.caption and "RESUMED" in rig.frame.caption
        rig.play(last)
        rig.wait(0.5)
        assert rig.session.screen is Screen.OVER and "RESUMED" not in rig.frame.caption
    finally:
        rig.close()


def test_the_legend_says_a_card_is_pressed_twice_and_names_the_staff_key():
    lines = terminal.picture_lines(Frame(), ("red.card1",), {"red": "south"}, legend(key_map(["red"]), staff=True))
    assert any("a card twice: see, then play" in line for line in lines)
    assert any("S=staff" in line for line in lines)


def test_ctrl_c_out_of_make_run_is_no_error_of_make_s(tmp_path):
    """`make run` ended with `make: *** Error 130` on Ctrl-C."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / ".installed").write_text("")
    os.utime(bin_dir / ".installed", (time.time() + 60, time.time() + 60))   # newer than pyproject.toml
    (bin_dir / "roseking").write_text("#!/bin/sh\nexit 130\n")               # as the table ends on Ctrl-C
    (bin_dir / "roseking").chmod(0o755)
    done = processes.run(["make", "-s", "-C", str(ROOT), "run", f"BIN={bin_dir}"], capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "Error" not in done.stderr, done.stderr
    (bin_dir / "roseking").write_text("#!/bin/sh\nexit 2\n")                 # a real failure still is one
    failed = processes.run(["make", "-s", "-C", str(ROOT), "run", f"BIN={bin_dir}"], capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL)
    assert failed.returncode != 0


def test_a_busy_port_suggests_another_one():
    taken = listen(WebSettings(port=0))
    try:
        with pytest.raises(UsageError, match=r"Address already in use.*; another program has it: choose another port, "
                                             r"--web PORT \(make run WEB=PORT\)$"):
            listen(WebSettings(port=taken.getsockname()[1]))
    finally:
        taken.close()


# --- the texts ------------------------------------------------------------------------------------------------

def test_hero_after_a_plain_card_says_the_real_reason(tmp_path):
    """HERO after showing a move that needs no hero said CARD FIRST, as if no card had been shown."""
    rig = Rig(tmp_path, Settings(show_seconds=0.05))
    try:
        game = rig.start(Setup(Mode.HUMANS, seed=7))
        rig.tap("red.hero")
        assert game.note.text == say("card-first", "en")            # no card shown: a card first
        rig.tap("red.card1")                                        # NE3: a plain move
        rig.tap("red.hero")
        assert game.note.text == "NO HERO NEEDED: PRESS THE CARD AGAIN" and game.pos.history() == []
        rig.tap("red.card1")
        rig.tap("red.card1")                                        # the card again plays it
        assert game.pos.history() == ["NE3"]
    finally:
        rig.close()


SUM = re.compile(r"\d+²=\d+|(\d+x)?[12]²(\+(\d+x)?[12]²)*=\d+")


def test_the_end_s_sums_give_x_one_meaning():
    """The end wrote 4x1+3x4=16 (four regions of one point) beside 7x7=49 (a region of seven, squared)."""
    seen = set()
    for seed in range(12):
        setup = Setup(Mode.DEMO, "random", seed=seed)
        game = Game(setup, deal(setup))
        while game.pos.outcome() is None:
            game.make(game.pos.legal_moves()[seed % len(game.pos.legal_moves())], 0.0)
        for _, _, _, bits, said in end_schedule(game, 5, 10.0):
            assert SUM.fullmatch(said), said                        # x counts regions, ² squares a size
            left, right = said.split("=")
            terms = [term.partition("x") if "x" in term else ("1", "x", term) for term in left.split("+")]
            assert sum(int(count) * int(size[:-1]) ** 2 for count, _, size in terms) == int(right)
            if "+" not in left and "x" not in left and int(left[:-1]) > 2:
                assert int(left[:-1]) == bits.bit_count()           # one region: its size, squared
            seen.add("x" in said)
    assert seen == {True, False}


STONE = {Language.DA: ("ROSENSTEN", ("BRIK", "ROSER")), Language.ES: ("PIEDRA", ("FICHA",))}


@pytest.mark.parametrize("language", list(STONE))
def test_a_stone_has_one_word_in_each_language(language):
    """Danish said ROSENSTEN, BRIK and ROSER, Spanish PIEDRA and FICHA, for the same stone."""
    word, others = STONE[language]
    texts = " ".join(texts[language] for texts in CATALOGUE.values())
    assert word in texts
    for other in others:
        assert not re.search(rf"\b{other}", texts), other


def test_the_gestures_page_names_an_edge_a_player_can_see():
    page = (ROOT / "docs/GESTURES.md").read_text()
    assert "edge with the crown" not in page and "White's edge" in page


def test_the_caption_names_the_last_move_in_english_whatever_the_table_speaks(tmp_path):
    rig = Rig(tmp_path, Settings(show_seconds=0.05, language=Language.DE))
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        rig.play(MOVES[parse_card("NE3")])
        assert rig.frame.caption.endswith("last red NE3")
    finally:
        rig.close()


def test_the_museum_configuration_of_installing_is_the_example_file_whole():
    """Step 5's [exhibit] was a placeholder: a museum that followed it got no opening hours. It is the example
    file now, whole (and `roseking config check` checks that file in INSTALLING.md's own sh block)."""
    guide = (ROOT / "docs/INSTALLING.md").read_text()
    step = guide.split("## 5. The configuration file")[1].split("\n## ")[0]
    shown = step.split("```toml\n")[1].split("```")[0]
    assert shown == (ROOT / "examples/config/museum.toml").read_text()
    assert "```sh\nroseking config check examples/config/museum.toml\n```" in step
    assert 'opens = "10:00"' in shown and "[exhibit]" in shown and "placeholder" not in step
