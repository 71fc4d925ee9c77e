"""Computer players: legal moves only, hidden pile order, budgets, tactics (issue 3)."""
import random

import pytest
from hypothesis import assume, given, settings, strategies as st

from engine.errors import RoseKingError, UnknownPlayerError
from engine.moves import DRAW, Move
from engine.players import LEVELS, NAMES, Level, make_player
from engine.players import ab7 as ab7_module, negamax as negamax_module
from engine.players.ab7 import AB7
from engine.players.base import Budget
from engine.players.evaluate import margin
from engine.players.expectimax import Expectimax
from engine.players.mcts import MCTS
from engine.players.negamax import Negamax, zobrist
from engine.playout import random_playout
from engine.position import Position

from engine_testkit import make

# Small budgets keep the tests fast; the algorithms are those of the full levels.
SMALL = ["random", "greedy", "easy:8", "medium:20", "hard:300", "alphabeta:300", "ab7"]

# White to move: W2 places the last stone and wins (R16, R19); drawing lets Red place it and win.
LAST_STONE = {
    "format": "roseking-position/1", "variant": "classic",
    "board": [".RW.RWR.W", "WRWR.W..R", "WWRRRWWR.", "WWWWRWW..", "R.RRWRR..",
              "WRRR..RW.", "WRRRWW.W.", "..W...W..", ".W.WR...."],
    "crown": "e1", "to_move": "white",
    "hands": {"red": ["N3", "NE1", "NW3", "N2"], "white": ["SE1", "W2", "NE3", "SE3"]},
    "heroes": {"red": 0, "white": 0},
    "draw_pile": ["NE2", "W1", "W3", "SE2", "N1", "E1", "NW2", "S3"],
    "discard": ["E2", "S1", "SW2", "SW3", "SW1", "NW1", "S2", "E3"]}

# Red to move: N1 places the last stone and loses (R16, R19); H+E3 flips a stone and plays
# on with fair chances (R12).
BLUNDER = {
    "format": "roseking-position/1", "variant": "classic",
    "board": ["WR.R...WR", "RRW.W..WW", ".WWWWRWR.", "W.RR.WRW.", ".R.RWR.RW",
              ".WWWRWR..", "R.RWRR.WR", ".WRRWWWRR", "........."],
    "crown": "a3", "to_move": "red",
    "hands": {"red": ["SE3", "NW1", "SW3", "E3", "N1"], "white": ["N3", "NE1", "SE1", "S2", "SE2"]},
    "heroes": {"red": 1, "white": 0},
    "draw_pile": ["W3", "N2", "E1", "S1", "NE2", "W1", "NW2", "NE3", "W2", "E2", "SW1"],
    "discard": ["NW3", "SW2", "S3"]}


def random_position(variant, seed, plies):
    pos = Position.new(variant, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[rng.randrange(len(moves))])
    return pos


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(["classic", "teams"]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 130), name=st.sampled_from(SMALL))
def test_players_return_legal_moves_and_leave_the_position_alone(variant, seed, plies, name):
    pos = random_position(variant, seed, plies)
    assume(pos.legal_moves())
    before = pos.copy(stack=True)
    move = make_player(name, seed=seed).choose(pos)
    assert isinstance(move, Move) and move in pos.legal_moves()
    assert pos == before and pos.stack == before.stack


# Teams, Red 2 to move: NE3 places the last stone and wins; a draw lets White 2 win (R16, R22).
TEAMS_LAST_STONE = {
    "format": "roseking-position/1", "variant": "teams",
    "board": ["RW.WWRR..", "RWRWR....", "RWW.RRRR.", "RRWWWW.WW", "WWRRRR...",
              "WWRRR.RW.", ".WW.R....", ".RWW.WRW.", "...RR..R."],
    "crown": "d2", "to_move": "red2",
    "hands": {"red1": ["W2"], "white1": ["N3", "S3"], "red2": ["SW2", "NE3"], "white2": ["SE2", "N2", "NE2"]},
    "heroes": {"red1": 0, "white1": 0, "red2": 0, "white2": 0},
    "draw_pile": ["E1", "NW3", "SW1", "NW2", "E2", "SE1", "NW1", "NE1", "SE3"],
    "discard": ["SW3", "E3", "S2", "S1", "W3", "W1", "N1"]}

# Teams, White 1 to move: N2 places the last stone and loses; H+E3 plays on with fair chances.
TEAMS_BLUNDER = {
    "format": "roseking-position/1", "variant": "teams",
    "board": ["..R......", "WRR.W.RW.", "RRWWR..R.", "...W.RR.R", "WWRRR.WW.",
              "WWRWWRWW.", "RRWRW.W..", "RR.WRW.RR", "WWR.WR.W."],
    "crown": "b7", "to_move": "white1",
    "hands": {"red1": ["E2", "SE3", "NE1"], "white1": ["SW2", "E3", "N2"],
              "red2": ["E1", "NE3", "S2"], "white2": ["W3", "W2", "NE2"]},
    "heroes": {"red1": 0, "white1": 2, "red2": 0, "white2": 0},
    "draw_pile": ["SE2", "NW1", "S1", "SW1", "NW2"],
    "discard": ["N1", "S3", "SW3", "NW3", "N3", "W1", "SE1"]}

SEARCHERS = ["easy:200", "hard:300", "alphabeta:2000", "ab7"]


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("position, winning", [(LAST_STONE, "W2"), (TEAMS_LAST_STONE, "NE3")])
def test_a_searching_player_takes_the_last_stone_that_wins(name, position, winning):
    assert str(make_player(name, seed=1).choose(Position.from_json(position))) == winning


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("position, losing", [(BLUNDER, "N1"), (TEAMS_BLUNDER, "N2")])
def test_a_searching_player_does_not_place_a_losing_last_stone(name, position, losing):
    assert str(make_player(name, seed=1).choose(Position.from_json(position))) != losing


def test_greedy_takes_an_immediate_win():
    assert str(make_player("greedy", seed=1).choose(Position.from_json(LAST_STONE))) == "W2"


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(["classic", "teams"]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 100), name=st.sampled_from(["random", "easy:30", "hard:400", "alphabeta:300", "ab7"]))
def test_the_order_of_the_draw_pile_changes_nothing(variant, seed, plies, name):
    """R7: players never see the pile's order, so reordering it gives the same move."""
    pos = random_position(variant, seed, plies)
    assume(len(pos.legal_moves()) >= 2)
    first = make_player(name, seed=seed).choose(pos)
    pos.pile.reverse()
    assert make_player(name, seed=seed).choose(pos) == first


def test_budgets_are_iterations_and_nodes():
    pos = Position.new(seed=4)
    for name, work in [("easy:50", 50), ("medium:120", 120), ("hard:900", 900), ("alphabeta:700", 700)]:
        player = make_player(name, seed=2)
        player.choose(pos)
        assert 0 < player.work <= work + 1


@pytest.mark.parametrize("variant", ["classic", "teams"])
@pytest.mark.parametrize("name", ["medium:100", "hard:2000", "ab7"])
def test_same_seed_and_budget_give_the_same_moves(variant, name):
    for seed in range(3):
        pos = random_position(variant, seed, 30)
        first = [make_player(name, seed=9).choose(pos) for _ in range(2)]
        assert first[0] == first[1]


@pytest.mark.parametrize("cls", [MCTS, Negamax, Expectimax, AB7])
def test_a_player_made_without_a_budget_searches_with_a_default_one(cls):
    pos = Position.new(seed=5)
    player = cls(seed=1)
    assert player.choose(pos) in pos.legal_moves() and player.work > 0


def test_hint_is_the_players_move():
    pos = Position.new(seed=8)
    assert make_player("easy:40", seed=3).hint(pos) == make_player("easy:40", seed=3).choose(pos)


def test_every_level_is_registered():
    for name in ["random", "greedy", "easy", "medium", "hard", "max", "alphabeta", "ab7"]:
        assert name in NAMES
    assert make_player("hard", work=10).budget.work == 10


@pytest.mark.parametrize("spec", ["champion", "hard:0", "hard:x", "random:5"])
def test_unknown_or_malformed_names_are_refused_with_the_choices(spec):
    with pytest.raises(RoseKingError, match="random, greedy, easy|budget"):
        make_player(spec)


@given(st.sampled_from(NAMES), st.none() | st.integers(1, 999_999_999))
def test_a_level_reads_back_as_written_and_gives_the_players_budget(name, work):
    """`hard:5000`: a searching player's own work budget, its time cap the level's."""
    spec = name if work is None else f"{name}:{work}"
    default = LEVELS[name][1]
    if work is not None and default is None:
        with pytest.raises(RoseKingError, match="budget"):
            Level.parse(spec)
        return
    level = Level.parse(spec)
    assert (level.name, level.work, str(level)) == (name, work, spec)
    assert level.budget == (None if default is None else Budget(work or default.work, default.seconds))
    player = make_player(spec)
    assert player.budget == make_player(level).budget and player.name == spec
    assert level.budget is None or player.budget == level.budget


@pytest.mark.parametrize("spec, error", [("champion", UnknownPlayerError), ("champion:5", UnknownPlayerError),
                                         ("hard:0", RoseKingError), ("hard:1000000000", RoseKingError),
                                         ("hard:０５", RoseKingError), ("ab7:5", RoseKingError)])
def test_an_unknown_name_and_a_bad_budget_are_told_apart(spec, error):
    with pytest.raises(error) as caught:
        Level.parse(spec)
    assert (type(caught.value) is UnknownPlayerError) == (error is UnknownPlayerError)


def test_ab7_counts_each_unused_hero_at_30_points():
    """ab7's evaluation: score difference (R18) + 30 × (own unused heroes − the opponent's) (R5)."""
    # Red: a region of 3 (9) and a lone stone (1) = 10; White: a region of 2 = 4.
    pos = make(stones={"a1": "R", "b1": "R", "c1": "R", "i9": "R", "a9": "W", "b9": "W"},
               hands={"red": ["N1"], "white": ["S1"]}, heroes={"red": 1, "white": 3})
    assert ab7_module.HERO == 30 and ab7_module.DEPTH == 7
    assert margin(pos, 0, ab7_module.HERO) == 10 - 4 + 30 * (1 - 3)
    assert margin(pos, 1, ab7_module.HERO) == 4 - 10 + 30 * (3 - 1)


def test_ab7_keeps_a_hero_unless_the_flip_is_worth_more_than_30_points():
    """R12: flipping e6 joins two red pairs (+18 points) — worth a hero at 6 points (greedy takes it),
    not at 30 (ab7 plays a plain card)."""
    pos = make(stones={"c6": "R", "d6": "R", "e6": "W", "f6": "R", "g6": "R"},
               hands={"red": ["E1", "N1"], "white": ["S3"]}, heroes={"red": 1, "white": 1})
    assert {str(m) for m in pos.legal_moves()} >= {"E1", "H+N1"}
    assert str(make_player("greedy", seed=1).choose(pos)) == "H+N1"
    assert str(AB7(seed=1).choose(pos)) != "H+N1"


def test_the_zobrist_key_follows_every_kind_of_move():
    """The search's incremental key equals the key computed from scratch after cards, heroes (R12),
    draws (R11) and passes (R14), in both variants."""
    for variant in ("classic", "teams"):
        for seed in range(4):
            pos = Position.new(variant, seed)
            rng = random.Random(seed)
            player = Negamax(seed=seed)
            while pos.legal_moves():
                moves = pos.legal_moves()
                move = moves[rng.randrange(len(moves))]
                key = player.key_after(pos, zobrist(pos), move)
                assert key == zobrist(pos)


@pytest.mark.parametrize("name", ["medium", "hard", "max", "alphabeta"])
def test_the_wall_clock_cap_still_gives_a_legal_move(name):
    """The table's cap (make_player's `seconds`) cuts a search short; the move is still legal."""
    pos = random_position("classic", 11, 40)
    player = make_player(name, seed=1, seconds=1e-6)
    assert player.budget.seconds == 1e-6 and player.budget.work == make_player(name).budget.work
    assert player.choose(pos) in pos.legal_moves()
    assert player.work < player.budget.work


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["classic", "teams"]), seed=st.integers(0, 10**6), plies=st.integers(0, 130))
def test_the_search_evaluation_is_the_score_margin_with_heroes_at_30(variant, seed, plies):
    """`hard`'s evaluation, with its scores kept by bitboard, is the score difference (R18) + 30 per
    unused hero difference (R5, R21) for either colour, however many positions it has seen."""
    player = Negamax(seed=1)
    player.scores = {}
    for pos in (random_position(variant, seed, plies), random_position(variant, seed + 1, plies)):
        for colour in (0, 1):
            assert player.evaluate(pos, colour) == margin(pos, colour, 30)


def test_views_are_summed_squashed_so_winning_in_more_piles_beats_winning_bigger_in_one():
    """`hard` sums v / (|v| + 20) over its views: +10 in all four views beats +200 in one and −5 in
    three, though the plain sum (40 against 185) would say otherwise; a view out of time ends the sum."""
    pos = Position.new(seed=1)
    steady, lucky, *rest = pos.legal_moves()
    views = [{steady: 10, lucky: v, **{m: -500 for m in rest}} for v in (200, -5, -5, -5)]
    assert negamax_module.squashed_best([lucky, steady, *rest], iter(views)) == steady
    assert negamax_module.squashed_best([steady, lucky, *rest], iter([views[0], None, *views[1:]])) == lucky


def test_a_draw_near_the_root_is_worth_the_mean_of_the_top_two_cards(monkeypatch):
    """R11, R7: in the search's first plies a draw averages the view's top two cards, so a root
    choice cannot count on the card a draw will bring: the draw is worth the same for either
    order of those two cards, though which card comes makes a difference three plies deep."""
    monkeypatch.setattr(negamax_module, "MAX_DEPTH", 3)
    pos = Position.new(seed=5)
    random_playout(pos, random.Random(5), 10)  # the side to move may draw
    assert DRAW in pos.legal_moves()
    rest = pos.pile[:-2]

    def draw_value(pile):
        view = pos.copy()
        view.pile = rest + pile
        player = Negamax(seed=1)
        player.deadline = float("inf")
        return player._values(view, pos.legal_moves(), 10**6)[DRAW]

    values = {top: draw_value([next(c for c in pos.pile[-2:] if c != top), top]) for top in pos.pile[-2:]}
    alone = {card: draw_value([card]) for card in pos.pile[-2:]}  # a pile of one: no chance node
    assert len(set(values.values())) == 1 and len(set(alone.values())) == 2
