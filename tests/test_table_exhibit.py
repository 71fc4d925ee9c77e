"""Exhibit mode on the simulated table, on one fake clock (and a wall clock running with it): attract mode,
walk-aways, what the table does with nothing saved, the opening hours, the staff's combination."""
import datetime
import json
import random
import re
import sys
from dataclasses import replace

import pytest

from firmware_py.table import service
from firmware_py.table.exhibit import Exhibit, Span, exhibit_settings, parse_exhibit
from firmware_py.table.game import Mode, Setup
from firmware_py.table.messages import say
from firmware_py.table.saves import ARCHIVE, CURRENT
from firmware_py.table.session import ATTRACT_END_SECONDS, Screen
from firmware_py.table.settings import Settings
from firmware_py.table.staff import CHORD_SECONDS
from firmware_py.table.reading import text
from hardware import ConfigError, parse_config
from hardware.frame import BLANK
from table_kit import Rig

FAST = Settings(show_seconds=0.05)
EXHIBIT = Exhibit(attract_after=60, walk_away=120, warning=20)


@pytest.fixture
def make(tmp_path):
    made = []

    def rig(exhibit=EXHIBIT, settings=FAST, **kw):
        made.append(Rig(tmp_path / f"data{len(made)}", settings, exhibit=exhibit, **kw))
        return made[-1]
    yield rig
    for r in made:
        r.close()


def archived(rig):
    path = rig.saves.directory / ARCHIVE
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def shows(rig, message, since, seat="red", cards=5):
    """True if the first `cards` displays of `seat` show `message`, said from `since`, in the last frame."""
    said = text(message, since, rig.time.now, cards, FAST.scroll_speed)
    return said == tuple(rig.frame.bitmap(f"{seat}.card{k + 1}") for k in range(cards))


def humans_with_a_move(rig):
    game = rig.start(Setup(Mode.HUMANS, seed=3))
    rig.play(game.pos.legal_moves()[0])
    rig.wait(0.5)
    return game


def test_the_menu_left_alone_goes_to_attract_mode_and_a_press_wakes_it_to_the_menu_doing_nothing_else(make):
    rig = make()
    rig.session.open_menu(rig.time.now)
    rig.wait(59)
    assert rig.session.screen is Screen.MENU
    rig.wait(1.5)
    assert rig.session.screen is Screen.ATTRACT and rig.game.transient and rig.game.setup.level == "easy"
    assert rig.game.players == ("easy", "easy")
    assert shows(rig, say("invite", "en"), rig.session.touched)       # the invitation
    chosen = rig.session.menu.setup
    rig.tap("red.card1")                                             # card 1 would change the mode in the menu
    assert rig.session.screen is Screen.MENU and rig.game is None
    assert rig.session.menu.setup == chosen                          # the waking press did nothing else
    assert not (rig.saves.directory / CURRENT).exists() and not archived(rig)


def test_a_game_walked_away_from_warns_then_is_archived_unfinished_and_the_table_attracts_until_a_press(make):
    rig = make()
    game = humans_with_a_move(rig)
    assert (rig.saves.directory / CURRENT).exists()
    rig.wait(EXHIBIT.walk_away - 1)
    assert rig.session.warning_left(rig.time.now) is None
    rig.wait(1.5)
    left = rig.session.warning_left(rig.time.now)
    assert left is not None and 18 < left <= 20
    since = rig.session.touched + EXHIBIT.walk_away
    assert shows(rig, say("walk-away", "en"), since, cards=4) and rig.frame.bitmap("red.card5") != BLANK  # counted down
    assert rig.frame.board[0] == (255, 150, 0)                      # the board's edge counts down in gold
    rig.wait(EXHIBIT.warning)
    assert rig.session.screen is Screen.ATTRACT and rig.game is not game
    records = archived(rig)
    assert len(records) == 1 and records[0]["result"]["reason"] == "unfinished"
    assert records[0]["moves"] == game.pos.history()
    assert not (rig.saves.directory / CURRENT).exists()
    rig.tap("white.hero")
    assert rig.session.screen is Screen.MENU


def test_a_press_during_the_warning_cancels_it_and_the_game_goes_on_unchanged(make):
    rig = make()
    game = humans_with_a_move(rig)
    rig.wait(EXHIBIT.walk_away + 5)
    assert rig.session.warning_left(rig.time.now) is not None
    before = (game.pos.history(), game.preview, [list(s) for s in game.slots])
    seat = rig.session.seats[game.pos.to_move]
    rig.tap(f"{seat}.card1")                                        # would preview a card: here it only cancels
    assert rig.session.warning_left(rig.time.now) is None
    assert (game.pos.history(), game.preview, [list(s) for s in game.slots]) == before
    assert rig.session.screen is Screen.PLAY and rig.game is game
    rig.wait(EXHIBIT.walk_away - 1)                                 # the time starts again from the press
    assert rig.session.warning_left(rig.time.now) is None and not archived(rig)


def test_a_game_against_the_computer_counts_as_walked_away_but_a_demonstration_never_does(make):
    rig = make()
    rig.start(Setup(Mode.DEMO, "easy", seed=1))
    rig.wait(EXHIBIT.walk_away + EXHIBIT.warning + 10, step=1.0)
    assert rig.session.warning_left(rig.time.now) is None and rig.session.screen is Screen.PLAY
    rig.start(Setup(Mode.VS_COMPUTER, "easy", "white", seed=2))     # the computer moves first: red
    assert rig.think()
    rig.wait(1.0)
    rig.wait(EXHIBIT.walk_away + EXHIBIT.warning, step=1.0)
    assert rig.session.screen is Screen.ATTRACT
    assert [r["result"]["reason"] for r in archived(rig)] == ["unfinished"]


def test_attract_games_never_touch_the_save_nor_the_archive_and_how_to_play_comes_between_them(make):
    rig = make(replace(EXHIBIT, attract_level="random"))            # a whole game of it: the cheapest player
    saved = humans_with_a_move(rig)
    rig.session.open_menu(rig.time.now)                              # the visitor's game waits behind the menu
    rig.wait(0.1)
    rig.session.attract(rig.time.now)                                # as the table does, left alone
    rig.wait(0.1)
    assert [r["moves"] for r in archived(rig)] == [saved.pos.history()]     # the visitor's game went to the archive
    assert not (rig.saves.directory / CURRENT).exists()
    first = rig.game
    while not first.over:                                            # a whole attract game
        rig.think()
        rig.wait(0.1)
    assert not (rig.saves.directory / CURRENT).exists() and len(archived(rig)) == 1
    rig.wait(ATTRACT_END_SECONDS + 0.5)
    assert rig.session.howto_since() is not None and rig.game is first
    assert shows(rig, say("howto-move", "en"), rig.session.howto_since())
    rig.wait(rig.session.howto_length(), step=0.5)
    assert rig.session.screen is Screen.ATTRACT and rig.game is not first and rig.game.transient
    assert not (rig.saves.directory / CURRENT).exists() and len(archived(rig)) == 1


def test_club_mode_never_warns(make):
    rig = make(Exhibit(walk_away=0))
    game = humans_with_a_move(rig)
    for _ in range(10 * 60):                                         # ten hours, a minute at a time
        rig.wait(60, step=60.0)
        assert rig.session.warning_left(rig.time.now) is None
    assert rig.session.screen is Screen.PLAY and rig.game is game and not archived(rig)


@pytest.mark.parametrize("start, screen, mode", [("menu", Screen.MENU, None), ("attract", Screen.ATTRACT, Mode.DEMO),
                                                  ("demo", Screen.PLAY, Mode.DEMO)])
def test_with_nothing_saved_the_table_does_what_exhibit_start_says_and_a_saved_game_always_resumes(
        make, tmp_path, start, screen, mode):
    rig = make()
    config = parse_config({"exhibit": {"start": start}})
    exhibit = parse_exhibit(config.exhibit)

    def started(data):
        saves, saved = service.open_saves(data, None, FAST, print)
        loop = service.start(rig.devices, config, FAST, saves, saved, Setup(seed=4), deal=False, demo=False,
                             log=print, exhibit=exhibit)
        loop.computer.close()
        return loop.session

    session = started(tmp_path / "empty")
    assert session.screen is screen and (session.game.setup.mode if session.game else None) == mode
    assert (session.game is not None and session.game.transient) == (start == "attract")
    game = humans_with_a_move(rig)                                   # a visitor's game, saved
    session = started(rig.saves.directory)
    assert session.screen is Screen.PLAY and session.game.pos.history() == game.pos.history()
    assert session.game.setup.mode is Mode.HUMANS


NIGHT_CLUB = Exhibit(attract_after=60, walk_away=120, warning=20, sleep_after=60,
                     hours=Span(datetime.time(18), datetime.time(2)), night=Span(datetime.time(20), datetime.time(6)),
                     night_brightness=0.3)


def test_outside_the_opening_hours_across_midnight_the_table_sleeps_and_a_press_wakes_it_for_one_game(make):
    rig = make(NIGHT_CLUB, wall=datetime.datetime(2024, 5, 1, 1, 55))
    rig.session.open_menu(rig.time.now)
    rig.wait(4 * 60, step=1.0)                                       # 01:59: open, at night
    assert rig.session.screen is Screen.ATTRACT and rig.loop.lit == pytest.approx(0.3)
    rig.wait(2 * 60, step=1.0)                                       # 02:01: closed
    assert rig.session.screen is Screen.ASLEEP and rig.loop.lit == 0
    assert set(rig.frame.board) == {(0, 0, 0)} and not rig.frame.displays
    rig.tap("red.card2")                                             # wakes it, to the menu
    assert rig.session.screen is Screen.MENU and rig.loop.lit == pytest.approx(0.3)
    assert shows(rig, say("after-hours", "en"), rig.session.notice.since)
    rig.tap("red.card5")                                             # START: one game
    game = rig.game
    rig.play(game.pos.legal_moves()[0])
    rig.wait(NIGHT_CLUB.walk_away + NIGHT_CLUB.warning + 1, step=0.5)     # left: archived, and asleep again
    assert rig.session.screen is Screen.ASLEEP and archived(rig)[0]["moves"] == game.pos.history()
    rig.wait(16 * 3600, step=30.0)                                   # 18:0x: open again, day brightness
    assert rig.session.screen is Screen.ATTRACT and rig.loop.lit == 1.0
    rig.wait(2 * 3600, step=30.0)                                    # 20:0x: night brightness
    assert rig.loop.lit == pytest.approx(0.3)


def test_a_club_game_left_at_closing_time_sleeps_kept_and_wakes_as_it_was(make):
    rig = make(Exhibit(walk_away=0, hours=Span(datetime.time(9), datetime.time(12, 1))))
    game = humans_with_a_move(rig)
    rig.wait(2 * 60, step=1.0)
    assert rig.session.screen is Screen.ASLEEP and rig.game is game and not archived(rig)
    rig.tap("menu")
    assert rig.session.screen is Screen.PLAY and rig.game is game


def hold_down(rig, *names):
    for name in names:
        rig.factory.pin(rig.pins[name]).drive_low()
        rig.pump()
        rig.wait(0.1)


def let_go(rig, *names):
    for name in names:
        rig.factory.pin(rig.pins[name]).drive_high()
        rig.pump()
    rig.wait(0.1)


CHORD = ("menu", "white.hero", "white.draw")


def test_the_staff_combination_opens_the_staff_menu_after_three_seconds_and_leaves_the_game_as_it_was(make):
    rig = make()
    game = humans_with_a_move(rig)
    before = (game.pos.history(), [list(s) for s in game.slots], game.pos.heroes)
    hold_down(rig, *CHORD)
    rig.wait(CHORD_SECONDS - 0.3)
    assert rig.session.screen is Screen.OPTIONS                      # MENU first: the game menu, for now
    rig.wait(0.3)
    assert rig.session.screen is Screen.STAFF
    assert shows(rig, say("staff-new", "en"), rig.session.staff.since, cards=1)
    let_go(rig, *CHORD)
    assert (game.pos.history(), [list(s) for s in game.slots], game.pos.heroes) == before
    rig.tap("red.card2")                                             # LIGHT: a step down
    assert rig.loop.brightness == 0.75 and rig.loop.lit == 0.75
    rig.tap("menu")                                                  # MENU leaves it
    assert rig.session.screen is Screen.OPTIONS and rig.game is game
    hold_down(rig, *CHORD)
    rig.wait(CHORD_SECONDS + 0.1)
    let_go(rig, *CHORD)
    rig.tap("white.card1")                                           # NEW GAME: archived, the new-game menu
    assert rig.session.screen is Screen.MENU and rig.game is None
    assert [r["moves"] for r in archived(rig)] == [game.pos.history()]
    assert not (rig.saves.directory / CURRENT).exists()


def test_the_staff_menu_shuts_down_with_the_configured_command_after_a_second_press_and_says_a_failure(make,
                                                                                                        tmp_path):
    marker = tmp_path / "off"
    command = (sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write('off')", str(marker))
    rig = make(settings=Settings(show_seconds=0.05, shutdown_command=command))
    rig.session.open_menu(rig.time.now)
    hold_down(rig, *CHORD)
    rig.wait(CHORD_SECONDS)
    let_go(rig, *CHORD)
    rig.tap("red.card3")
    assert not marker.exists() and rig.frame.bitmap("red.card3") != rig.frame.bitmap("white.card4")
    assert shows(rig, say("staff-confirm", "en"), rig.session.staff.confirm.since, cards=2)
    rig.tap("red.card3")
    assert marker.read_text() == "off" and any("the staff menu shuts the table down" in line for line in rig.log)
    failing = make(settings=Settings(shutdown_command=(sys.executable, "-c", "import sys; sys.exit('Access denied')")))
    failing.session.open_staff(failing.time.now)
    failing.tap("red.card3")
    failing.wait(10)                                                 # a first press alone: nothing
    failing.tap("red.card3")
    failing.tap("red.card3")
    assert any("failed (status 1: Access denied)" in line for line in failing.log)
    assert shows(failing, say("shutdown-failed", "en"), failing.session.notice.since)


def test_ordinary_play_never_opens_the_staff_menu(make):
    rig = make(Exhibit(attract_after=0, walk_away=0))
    rig.start(Setup(Mode.HUMANS, seed=9))
    names = list(rig.pins)
    rng = random.Random(5)
    for _ in range(400):                                             # taps, any button, at any pace
        rig.tap(rng.choice(names))
        rig.wait(rng.choice((0.0, 0.2, 1.0)))
        assert rig.session.screen is not Screen.STAFF
    hold_down(rig, "menu", "red.hero")                               # two of the three, however long
    rig.wait(10)
    let_go(rig, "menu", "red.hero")
    hold_down(rig, "menu", "red.hero", "white.draw")                 # three, but not of one seat
    rig.wait(10)
    let_go(rig, "menu", "red.hero", "white.draw")
    assert rig.session.screen is not Screen.STAFF


def test_a_stuck_button_never_stands_in_the_combination(make):
    rig = make(Exhibit(attract_after=0, walk_away=0))
    rig.session.open_menu(rig.time.now)
    hold_down(rig, "menu")
    rig.wait(61)                                                     # MENU is taken to be stuck: it counts as up
    hold_down(rig, "red.hero", "red.draw")
    rig.wait(2 * CHORD_SECONDS)
    assert rig.session.screen is not Screen.STAFF
    let_go(rig, "menu", "red.hero", "red.draw")


@pytest.mark.parametrize("key, value, message", [
    ("start", "sleep", 'must be one of "menu", "attract", "demo"'),
    ("attract_after", 5, "must be 0 (off) or from 10 to 86400 seconds (got 5)"),
    ("attract_after", True, "must be 0 (off) or from 10 to 86400 seconds"),
    ("attract_level", "max", 'must be one of "random", "greedy", "easy", "medium"'),
    ("how_to_play", "yes", "must be true or false"),
    ("walk_away", -1, "must be 0 (off) or from 30 to 86400 seconds (got -1)"),
    ("walk_away", float("nan"), "must be 0 (off) or from 30 to 86400 seconds"),
    ("warning", 1, "must be at least 5 and at most 600 (got 1)"),
    ("opens", "9:00", 'must be a time of day "HH:MM", 00:00 to 23:59 (got "9:00")'),
    ("closes", 1800, 'must be a time of day "HH:MM"'),
    ("sleep_after", 0, "must be at least 10 and at most 3600"),
    ("night_starts", "24:00", 'must be a time of day "HH:MM"'),
    ("night_ends", "07:60", 'must be a time of day "HH:MM"'),
    ("day_brightness", 0, "must be above 0 and at most 1"),
    ("night_brightness", 1.5, "must be above 0 and at most 1"),
    ("lights", 1, "unknown key"),
])
def test_every_bad_exhibit_key_is_named(key, value, message):
    data = {key: value}
    if key in ("opens", "closes"):
        data.setdefault("closes" if key == "opens" else "opens", "10:00")
    if key in ("night_starts", "night_ends"):
        data.setdefault("night_ends" if key == "night_starts" else "night_starts", "10:00")
    with pytest.raises(ConfigError) as error:
        exhibit_settings(parse_config({"exhibit": data}, "t.toml"))
    assert str(error.value).startswith(f"t.toml: exhibit.{key}: ") and message in str(error.value)


@pytest.mark.parametrize("data, message", [
    ({"opens": "10:00"}, "t.toml: exhibit.closes: missing: opens and closes go together"),
    ({"night_ends": "06:00"}, "t.toml: exhibit.night_starts: missing: night_starts and night_ends go together"),
    ({"opens": "10:00", "closes": "10:00"}, "t.toml: exhibit.closes: must differ from opens (10:00)"),
])
def test_spans_need_both_ends_and_some_length(data, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_exhibit(data, "t.toml")


def test_a_bad_exhibit_key_stops_play_before_anything_opens(tmp_path, capsys):
    from firmware_py.cli import main
    config = tmp_path / "t.toml"
    config.write_text('backend = "sim"\n[exhibit]\nwalk_away = 10\n')
    assert main(["play", "--sim", "--config", str(config), "--data-dir", str(tmp_path / "d")]) == 2
    assert "exhibit.walk_away: must be 0 (off) or from 30 to 86400 seconds (got 10)" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()
