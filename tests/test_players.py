"""Computer players: legal moves only, hidden pile order, budgets, tactics (issue 3)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine.errors import RoseKingError
from engine.moves import Move
from engine.players import NAMES, make_player
from engine.position import Position
from engine.serialize import from_json

# Small budgets keep the tests fast; the algorithms are those of the full levels.
SMALL = ["random", "greedy", "easy:8", "medium:20", "alphabeta:300"]

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

# White to move: NW3 places the last stone and loses (R16, R19); H+SE2 and draw play on safely.
BLUNDER = {
    "format": "roseking-position/1", "variant": "classic",
    "board": ["......WWR", "....RRR..", "...WR.WR.", "R.WWRRRRW", ".WWWWRWWW",
              "WRRWWR..W", "RRWRWRWR.", "WRWRWR.RR", "..R..R..."],
    "crown": "d5", "to_move": "white",
    "hands": {"red": ["S3", "W2", "E2"], "white": ["W1", "NW3", "E3", "SE2"]},
    "heroes": {"red": 0, "white": 2},
    "draw_pile": ["SW2"],
    "discard": ["NE2", "NW2", "NE3", "NE1", "E1", "S2", "SW3", "W3", "SE1", "N1", "SW1", "NW1",
                "S1", "N3", "SE3", "N2"]}


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
    if not pos.legal_moves():
        return
    before = pos.copy(stack=True)
    move = make_player(name, seed=seed).choose(pos)
    assert isinstance(move, Move) and move in pos.legal_moves()
    assert pos == before and pos.stack == before.stack


@pytest.mark.parametrize("name", ["easy:200", "alphabeta:2000", "greedy"])
def test_a_searching_player_takes_the_last_stone_that_wins(name):
    pos = from_json(LAST_STONE)
    assert str(make_player(name, seed=1).choose(pos)) == "W2"


@pytest.mark.parametrize("name", ["easy:200", "alphabeta:2000"])
def test_a_searching_player_does_not_place_a_losing_last_stone(name):
    pos = from_json(BLUNDER)
    assert str(make_player(name, seed=1).choose(pos)) != "NW3"


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(["classic", "teams"]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 100), name=st.sampled_from(["random", "easy:30", "alphabeta:300"]))
def test_the_order_of_the_draw_pile_changes_nothing(variant, seed, plies, name):
    """R7: players never see the pile's order, so reordering it gives the same move."""
    pos = random_position(variant, seed, plies)
    if len(pos.legal_moves()) < 2:
        return
    first = make_player(name, seed=seed).choose(pos)
    pos.pile.reverse()
    assert make_player(name, seed=seed).choose(pos) == first


def test_budgets_are_iterations_and_nodes():
    pos = Position.new(seed=4)
    for name, work in [("easy:50", 50), ("medium:120", 120), ("alphabeta:700", 700)]:
        player = make_player(name, seed=2)
        player.choose(pos)
        assert 0 < player.work <= work + 1


def test_same_seed_and_budget_give_the_same_moves():
    pos = random_position("teams", 3, 20)
    first = [make_player("medium:100", seed=9).choose(pos) for _ in range(2)]
    assert first[0] == first[1]


def test_hint_is_the_players_move():
    pos = Position.new(seed=8)
    assert make_player("easy:40", seed=3).hint(pos) == make_player("easy:40", seed=3).choose(pos)


def test_every_level_is_registered():
    for name in ["random", "greedy", "easy", "medium", "hard", "max", "alphabeta"]:
        assert name in NAMES
    assert make_player("hard", work=10).budget.work == 10


@pytest.mark.parametrize("spec", ["champion", "hard:0", "hard:x", "random:5"])
def test_unknown_or_malformed_names_are_refused_with_the_choices(spec):
    with pytest.raises(RoseKingError, match="random, greedy, easy|budget"):
        make_player(spec)
