"""Every game a new deal: whatever starts a game (the menu's START, attract mode, after a walk-away, a
demonstration's next game, the staff's NEW GAME, the operator's page, a restart), it does not deal the cards of
the game before it; a seed asked for deals the first game only."""
import pytest

from firmware_py.table import service
from firmware_py.table.game import Mode, Setup
from firmware_py.table.session import OVER_GUARD_SECONDS, Screen
from firmware_py.table.settings import Settings
from hardware import parse_config
from hardware.events import PRESS, ButtonEvent
from table_kit import Rig
from test_table_exhibit import EXHIBIT, FAST
from test_table_players import ends, near_its_end

ASKED = 100                     # the seed asked for (`roseking play --seed 100`)


@pytest.fixture
def rig(tmp_path):
    made = Rig(tmp_path / "data", FAST, exhibit=EXHIBIT)
    made.session.menu.setup = Setup(Mode.HUMANS, seed=ASKED)
    made.session.open_menu(made.time.now)
    yield made
    made.close()


def dealt(game):
    """What a game dealt: its seed, each hand and the pile's order."""
    return game.setup.seed, tuple(map(tuple, game.start.hands)), tuple(game.start.pile)


def test_three_visitors_in_a_row_each_walking_away_are_each_dealt_anew(rig):
    """Each START → one move → walk away dealt seed 100 and the same hands three times."""
    deals = []
    for _ in range(3):
        rig.tap("red.card5")                                         # START
        game = rig.game
        deals.append(dealt(game))
        rig.play(game.pos.legal_moves()[0])
        rig.wait(EXHIBIT.walk_away + EXHIBIT.warning + 1, step=1.0)  # walked away: attract mode
        assert rig.session.screen is Screen.ATTRACT
        deals.append(dealt(rig.game))
        rig.tap("red.card1")                                         # a press wakes it to the menu
    assert deals[0][0] == ASKED                                      # the seed asked for: the first game only
    assert all(a != b for a, b in zip(deals, deals[1:]))             # no game deals as the one before it
    assert len({d[0] for d in deals}) == len(deals)


def test_a_game_played_to_its_end_then_attract_mode_then_start_deals_anew(rig):
    """A finished game idled into attract mode; the next START dealt the finished game's cards again."""
    game = near_its_end(Setup(Mode.HUMANS, seed=ASKED))             # the table's first game, one move from its end
    rig.resume(game)
    rig.play(next(m for m in game.pos.legal_moves() if ends(game.pos, m)))
    rig.wait(OVER_GUARD_SECONDS)
    assert rig.session.screen is Screen.OVER
    rig.wait(EXHIBIT.attract_after + 1, step=1.0)                    # nobody: attract mode
    assert rig.session.screen is Screen.ATTRACT
    rig.tap("red.card1")                                             # wakes it to the menu
    rig.tap("red.card5")                                             # START
    assert rig.session.screen is Screen.PLAY and dealt(rig.game) != dealt(game)


def test_the_staff_s_new_game_the_operator_s_page_and_a_restart_deal_anew(rig, tmp_path):
    rig.tap("red.card5")
    first = rig.game
    rig.play(first.pos.legal_moves()[0])
    rig.session.open_staff(rig.time.now)
    rig.tap("red.card1")                                             # the staff menu's NEW GAME, then START
    rig.tap("red.card5")
    second = rig.game
    assert dealt(second) != dealt(first)
    assert rig.loop.new_game(Setup(Mode.HUMANS, seed=second.setup.seed)) is None   # the page, by chance the same
    third = rig.game
    assert dealt(third) != dealt(second)
    rig.play(third.pos.legal_moves()[0])
    rig.wait(0.1)
    saves, saved = service.open_saves(rig.saves.directory, None, FAST, print)      # a restart resumes it
    loop = service.start(rig.devices, parse_config({}), FAST, saves, saved, Setup(seed=third.setup.seed), deal=False,
                         demo=False, log=print, time_known=None)
    loop.computer.close()
    session = loop.session
    resumed = session.game
    assert resumed.pos.history() == third.pos.history()
    session.open_menu(0.0)
    for now in (0.1, 0.2):                                           # START, twice to leave the game
        session.event(ButtonEvent("red", "card5", PRESS), now)
    assert session.game is not resumed and dealt(session.game) != dealt(third)


def test_a_demonstration_the_table_deals_deals_its_next_game_anew(tmp_path):
    rig = Rig(tmp_path, Settings(show_seconds=0.01, think_seconds=0.2))
    try:
        rig.start(Setup(Mode.DEMO, "random", seed=7))
        first = rig.game
        for _ in range(400):
            if first.over:
                break
            if not rig.think():
                rig.wait(0.5)                                       # a forced pass is shown (R14)
            rig.wait(0.05)
        rig.wait(25.0, step=1.0)                                     # the end shown, then the next deal
        assert rig.game is not first and rig.session.screen is Screen.PLAY
        assert dealt(rig.game) != dealt(first)
    finally:
        rig.close()
