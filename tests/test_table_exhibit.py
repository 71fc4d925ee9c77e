"""Exhibit mode on the simulated table, on one fake clock (and a wall clock running with it): attract mode,
walk-aways, what the table does with nothing saved, the opening hours, the staff's combination."""
import datetime
import json
import re
from dataclasses import replace

import pytest

from firmware_py.table import service
from firmware_py.table.exhibit import Exhibit, Span, exhibit_settings, parse_exhibit
from firmware_py.table.game import Mode, Setup
from firmware_py.table.messages import say
from firmware_py.table.saves import ARCHIVE, CURRENT
from firmware_py.table.session import ATTRACT_END_SECONDS, Screen
from firmware_py.table.settings import Settings
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


# --- walk-away and attract mode belong to exhibits --------------------------------------------------------------

def test_without_an_exhibit_section_nothing_is_archived_nor_attracts_however_long_the_table_waits(make):
    """`make run` and a home or café table archived a game nobody touched for 5½ minutes."""
    rig = make(exhibit_settings(parse_config({})))
    game = humans_with_a_move(rig)
    rig.wait(3 * 3600, step=10.0)
    assert rig.session.screen is Screen.PLAY and rig.game is game and not archived(rig)
    assert rig.session.warning_left(rig.time.now) is None
    rig.new_game_menu()
    rig.wait(3 * 3600, step=10.0)
    assert rig.session.screen is Screen.MENU and rig.game is game


def test_a_game_walked_away_from_comes_back_from_the_menu_until_another_game_has_a_move(make):
    rig = make()
    game = humans_with_a_move(rig)
    rig.wait(EXHIBIT.walk_away + 5)
    said = re.match(r"STILL PLAYING\? archived in (\d+) s unless a button is pressed · white to move",
                    rig.frame.caption)
    assert said and 14 <= int(said[1]) <= 16                        # the terminal's caption counts it down
    rig.wait(10)
    assert re.search(r"archived in [4-6] s", rig.frame.caption)
    rig.wait(EXHIBIT.warning)
    assert rig.session.screen is Screen.ATTRACT
    rig.tap("red.card2")                                            # wakes it: the new-game menu offers it back
    assert rig.session.menu.labels("en")[3] == say("menu-resume", "en") == "RESUME LAST GAME"
    assert rig.frame.bitmap("red.card4") == text("RESUME LAST GAME", rig.session.menu.since, rig.time.now, 1,
                                                 FAST.scroll_speed)[0]
    assert "card 4 resumes the game walked away from" in rig.frame.caption
    rig.tap("red.card4")                                            # RESUME: the very game, where it was
    assert rig.session.screen is Screen.PLAY and rig.game is game and game.pos.history() == archived(rig)[0]["moves"]
    assert shows(rig, say("resumed", "en"), rig.session.notice.since)
    rig.play(game.pos.legal_moves()[0])                             # it goes on, saved again
    rig.wait(0.5)
    assert rig.saved()["moves"] == game.pos.history()
    rig.wait(EXHIBIT.walk_away + EXHIBIT.warning + 1, step=1.0)     # walked away again
    rig.tap("red.card1")
    assert rig.session.menu.resume_card == 4
    rig.tap("red.card5")                                            # START: another game …
    rig.play(rig.game.pos.legal_moves()[0])                         # … with a move: the walked-away one stays archived
    rig.wait(0.5)
    rig.new_game_menu()
    assert rig.session.menu.resume_card is None and rig.session.menu.labels("en")[3] == ""


# --- a demonstration a visitor starts ends like any other game ------------------------------------------------

def demo_from_the_menu(rig, level="random"):
    rig.session.menu.setup = Setup(Mode.DEMO, level, seed=5)       # as the menu's MODE and LEVEL cards set it
    rig.session.open_menu(rig.time.now)
    rig.tap("red.card5")                                            # START
    assert rig.game.setup.mode is Mode.DEMO and rig.session.screen is Screen.PLAY
    return rig.game


def test_a_demonstration_a_visitor_starts_is_one_game_and_then_the_table_attracts(make):
    """57 demonstrations an hour went into a museum's archive: each dealt the next by itself."""
    rig = make(settings=Settings(show_seconds=0.01, think_seconds=0.2))
    game = demo_from_the_menu(rig)
    for _ in range(400):                                            # a random player's game: a few hundred moves
        if game.over:
            break
        if not rig.think():
            rig.wait(0.5)                                           # a forced pass is shown (R14)
        rig.wait(0.05)
    rig.wait(30, step=1.0)                                          # longer than a demonstration's pause
    assert rig.session.screen is Screen.OVER and rig.game is game
    assert [r["moves"] for r in archived(rig)] == [game.pos.history()]      # archived once, finished
    rig.wait(EXHIBIT.attract_after, step=1.0)
    assert rig.session.screen is Screen.ATTRACT and len(archived(rig)) == 1


def test_a_press_during_a_demonstration_offers_the_menu_and_walk_away_applies_to_it(make):
    rig = make()
    game = demo_from_the_menu(rig, "easy")
    rig.tap("white.card2")                                          # never just WAIT: the menu
    assert rig.session.screen is Screen.MENU and rig.session.menu.confirming(rig.time.now) is None
    assert game.note is None
    rig.tap("menu")                                                 # MENU again: back to it
    assert rig.session.screen is Screen.PLAY and rig.game is game
    rig.wait(EXHIBIT.walk_away + 1, step=1.0)                       # nobody presses: the warning, then attract
    assert rig.session.warning_left(rig.time.now) is not None
    rig.wait(EXHIBIT.warning, step=1.0)
    assert rig.session.screen is Screen.ATTRACT
    rig.tap("red.card1")                                            # wakes it to the menu
    second = demo_from_the_menu(rig, "easy")
    rig.tap("red.hero")
    assert rig.session.screen is Screen.MENU
    rig.tap("red.card5")                                            # START leaves a demonstration at once
    assert rig.game is not second and rig.session.screen is Screen.PLAY
