"""The staff's way in and the staff menu on the simulated table, on one fake clock: the combination (MENU held,
four taps in order) and the key switch open it; no palm on the panel, no stuck button and no press from the
network ever does; SHUT DOWN is confirmed by holding it, which no play gesture does."""
import random
import sys

import pytest

from firmware_py.soak import palm_row
from firmware_py.table.exhibit import Exhibit
from firmware_py.table.game import Mode, Setup
from firmware_py.table.messages import say
from firmware_py.table.saves import CURRENT
from firmware_py.table.session import Screen
from firmware_py.table.settings import Settings
from firmware_py.table.staff import HOLD_SECONDS, STEP_SECONDS
from hardware import ConfigError, parse_config
from hardware.events import PRESS, RELEASE, ButtonEvent, Origin
from table_kit import Rig
from test_table_exhibit import EXHIBIT, FAST, archived, shows

SEQUENCE = ("red.hero", "white.hero", "red.draw", "white.draw")


@pytest.fixture
def make(tmp_path):
    made = []

    def rig(exhibit=EXHIBIT, settings=FAST, **kw):
        made.append(Rig(tmp_path / f"data{len(made)}", settings, exhibit=exhibit, **kw))
        return made[-1]
    yield rig
    for r in made:
        r.close()


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


def combination(rig, taps=SEQUENCE):
    """MENU held while `taps` are tapped one after the other, then let go."""
    hold_down(rig, "menu")
    for name in taps:
        rig.tap(name)
        rig.wait(0.3)
    let_go(rig, "menu")


def humans_with_a_move(rig):
    game = rig.start(Setup(Mode.HUMANS, seed=3))
    rig.play(game.pos.legal_moves()[0])
    rig.wait(0.5)
    return game


def test_the_combination_opens_the_staff_menu_and_leaves_the_game_as_it_was(make):
    rig = make()
    game = humans_with_a_move(rig)
    before = (game.pos.history(), [list(s) for s in game.slots], game.pos.heroes)
    hold_down(rig, "menu")
    for name in SEQUENCE[:-1]:
        rig.tap(name)
    assert rig.session.screen is Screen.OPTIONS                      # MENU first: the game menu, for now
    rig.tap(SEQUENCE[-1])
    assert rig.session.screen is Screen.STAFF
    assert shows(rig, say("staff-new", "en"), rig.session.staff.since, cards=1)
    let_go(rig, "menu")
    assert (game.pos.history(), [list(s) for s in game.slots], game.pos.heroes) == before
    rig.tap("red.card2")                                             # LIGHT: a step down
    assert rig.loop.brightness == 0.75 and rig.loop.lit == 0.75
    rig.tap("menu")                                                  # MENU leaves it: back to the game itself
    assert rig.session.screen is Screen.PLAY and rig.game is game
    combination(rig)
    rig.tap("white.card1")                                           # NEW GAME: archived, the new-game menu
    assert rig.session.screen is Screen.MENU and rig.game is None
    assert [r["moves"] for r in archived(rig)] == [game.pos.history()]
    assert not (rig.saves.directory / CURRENT).exists()


@pytest.mark.parametrize("taps", [SEQUENCE[::-1], SEQUENCE[:3] + ("red.card1", "white.draw"),
                                  SEQUENCE[:3] + ("red.draw",)])
def test_a_wrong_order_or_a_stray_tap_opens_nothing(make, taps):
    rig = make()
    rig.session.open_menu(rig.time.now)
    combination(rig, taps)
    assert rig.session.screen is not Screen.STAFF


def test_a_slow_combination_or_one_with_menu_let_go_or_another_button_down_opens_nothing(make):
    rig = make()
    rig.session.open_menu(rig.time.now)
    hold_down(rig, "menu")
    for name in SEQUENCE[:2]:
        rig.tap(name)
    rig.wait(STEP_SECONDS + 0.5)                                     # too long a pause: from the start again
    for name in SEQUENCE[2:]:
        rig.tap(name)
    let_go(rig, "menu")
    hold_down(rig, "menu")
    rig.tap(SEQUENCE[0])
    let_go(rig, "menu")                                              # MENU let go in the middle
    hold_down(rig, "menu")
    for name in SEQUENCE[1:]:
        rig.tap(name)
    let_go(rig, "menu")
    hold_down(rig, "menu", "red.card3")                              # something else down the whole time
    for name in SEQUENCE:
        rig.tap(name)
    let_go(rig, "menu", "red.card3")
    assert rig.session.screen is not Screen.STAFF
    combination(rig)                                                 # and then done right
    assert rig.session.screen is Screen.STAFF


def test_a_palm_flat_on_the_panel_never_opens_the_staff_menu(make):
    """A hand flat on the panel holds a run of neighbouring buttons at once, MENU beside both DRAWs (the worst
    place for it), for a moment or many seconds, again and again: it never opens the staff menu (the combination
    of three buttons held together opened it 205 times in ten simulated hours)."""
    rig = make(Exhibit(attract_after=0, walk_away=0))
    rig.start(Setup(Mode.HUMANS, seed=9))
    row = palm_row(parse_config({}))
    rng = random.Random(32)
    for _ in range(400):
        width = rng.randint(1, 4)
        first = rng.randrange(len(row) - width + 1)
        palm = row[first:first + width]
        for name in rng.sample(palm, len(palm)):                     # a palm lands in any order, within moments
            rig.factory.pin(rig.pins[name]).drive_low()
            rig.pump()
            rig.wait(0.03)
        rig.wait(rng.choice((0.1, 1.0, 3.5)), step=0.5)
        for name in palm:
            rig.factory.pin(rig.pins[name]).drive_high()
        rig.pump()
        rig.wait(rng.choice((0.05, 0.5)))
        assert rig.session.screen is not Screen.STAFF, palm


def test_ordinary_play_never_opens_the_staff_menu(make):
    rig = make(Exhibit(attract_after=0, walk_away=0))
    rig.start(Setup(Mode.HUMANS, seed=9))
    names = [name for name in rig.pins if name != "menu"]
    rng = random.Random(5)
    for _ in range(300):                                             # taps, any button, at any pace
        rig.tap(rng.choice(names + ["menu"]))
        rig.wait(rng.choice((0.0, 0.2, 1.0)))
        assert rig.session.screen is not Screen.STAFF
    hold_down(rig, "menu")
    for _ in range(200):                                             # taps with MENU held, none in order
        rig.tap(rng.choice([n for n in names if n not in SEQUENCE]))
        assert rig.session.screen is not Screen.STAFF
    let_go(rig, "menu")


def test_a_stuck_menu_never_stands_in_the_combination(make):
    rig = make(Exhibit(attract_after=0, walk_away=0))
    rig.session.open_menu(rig.time.now)
    hold_down(rig, "menu")
    rig.wait(61)                                                     # MENU is taken to be stuck: it counts as up
    for name in SEQUENCE:
        rig.tap(name)
    assert rig.session.screen is not Screen.STAFF
    let_go(rig, "menu")


def test_shut_down_is_confirmed_by_holding_it_and_a_double_press_only_says_how(make, tmp_path):
    marker = tmp_path / "off"
    command = (sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write('off')", str(marker))
    rig = make(settings=Settings(show_seconds=0.05, shutdown_command=command))
    rig.session.open_menu(rig.time.now)
    combination(rig)
    rig.tap("red.card3")
    rig.tap("red.card3")                                             # twice, as a card is played: not a confirmation
    rig.wait(HOLD_SECONDS + 1)
    assert not marker.exists() and rig.session.screen is Screen.STAFF
    short = say("staff-held-short", "en", seconds=f"{HOLD_SECONDS:g}")
    assert shows(rig, short, rig.session.staff.confirm.let_go)
    hold_down(rig, "red.card3")
    rig.wait(HOLD_SECONDS - 0.5)
    assert not marker.exists()
    assert shows(rig, say("staff-hold", "en"), rig.session.staff.confirm.since, cards=2)
    assert rig.frame.bitmap("red.card3") != rig.frame.bitmap("red.card4")    # its seconds counted down
    rig.wait(0.6)
    let_go(rig, "red.card3")
    assert marker.read_text() == "off" and any("the staff menu shuts the table down" in line for line in rig.log)
    failing = make(settings=Settings(shutdown_command=(sys.executable, "-c", "import sys; sys.exit('Access denied')")))
    failing.session.open_staff(failing.time.now)
    hold_down(failing, "red.card3")
    failing.wait(HOLD_SECONDS)
    let_go(failing, "red.card3")
    assert any("failed (status 1: Access denied)" in line for line in failing.log)
    assert shows(failing, say("shutdown-failed", "en"), failing.session.notice.since)


def network(seat, control, kind):
    return ButtonEvent(seat, control, kind, Origin.NETWORK)


def test_presses_from_the_network_never_open_the_staff_menu_nor_act_in_it(make, tmp_path):
    marker = tmp_path / "off"
    command = (sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write('off')", str(marker))
    rig = make(settings=Settings(show_seconds=0.05, shutdown_command=command))
    game = humans_with_a_move(rig)
    session, now = rig.session, rig.time.now
    session.event(network(None, "menu", PRESS), now)
    for name in SEQUENCE:
        seat, control = name.split(".")
        session.event(network(seat, control, PRESS), now + 0.2)
        session.event(network(seat, control, RELEASE), now + 0.3)
    assert session.screen is not Screen.STAFF
    session.open_staff(now)                                          # the staff opened it at the table
    session.event(network("red", "card1", PRESS), now + 1)           # NEW GAME from a page: nothing
    session.event(network("red", "card3", PRESS), now + 2)           # SHUT DOWN held from a page: nothing
    rig.wait(HOLD_SECONDS + 1)
    session.event(network(None, "menu", PRESS), rig.time.now)       # nor does its MENU close the menu
    assert session.screen is Screen.STAFF and rig.game is game and not marker.exists()


KEYED = parse_config({"staff": {"key_pin": 21}}).buttons.pins


def test_the_key_switch_opens_the_staff_menu_while_turned_and_the_combination_is_off(make):
    rig = make(pins=KEYED)
    game = humans_with_a_move(rig)
    combination(rig)
    assert rig.session.screen is not Screen.STAFF                    # a table with a key has no combination
    rig.tap("menu")
    hold_down(rig, "staff")                                          # the key turned
    assert rig.session.screen is Screen.STAFF
    rig.tap("red.card2")
    assert rig.loop.brightness == 0.75
    let_go(rig, "staff")                                             # turned back
    assert rig.session.screen is Screen.PLAY and rig.game is game
    rig.session.event(ButtonEvent(None, "staff", PRESS, Origin.NETWORK), rig.time.now)
    assert rig.session.screen is Screen.PLAY


def test_the_key_pin_is_checked_as_every_pin_is():
    assert "staff" not in parse_config({}).buttons.pins
    assert parse_config({"staff": {"key_pin": 21}}).buttons.panel == tuple(parse_config({}).buttons.pins)
    for data, message in [({"staff": {"key_pin": 19}}, "staff.key_pin: GPIO 19 is already used by buttons.menu"),
                          ({"staff": {"key_pin": 18}}, "staff.key_pin: GPIO 18 is the board's LED data pin"),
                          ({"staff": {"key_pin": "21"}}, "staff.key_pin: must be a whole number"),
                          ({"staff": {"key": 21}}, "staff.key: unknown key")]:
        with pytest.raises(ConfigError, match=message):
            parse_config(data)
