"""The learned evaluation: its features, its model and weights file, training, and the players that use it."""
import contextlib
import io
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from engine.errors import RoseKingError
from engine.learn.features import NAMES, Features, features, neighbours, phase
from engine.learn.model import CLASSICAL, Model, shipped
from engine.learn.train import CLIP, SelfPlay, Settings, error, fit, train
from engine.players import LEVELS, Budget, make_player
from engine.players.evaluate import WIN
from engine.players.mcts import MCTS
from engine.players.negamax import Negamax
from engine.playout import random_playout
from engine.position import Position
from engine_testkit import make, snapshot
from firmware_py.cli import main

SYMMETRIC = {"pile", "supply"}  # the same for both colours; every other feature is mine minus theirs


def played(seed, plies):
    """The classic deal of `seed` after `plies` random moves (fewer if the game ends first)."""
    pos = Position.new(seed=seed)
    random_playout(pos, random.Random(seed), plies=plies)
    return pos


def swapped(pos):
    """`pos` with the colours exchanged: every stone, hand, hero and the turn changes side."""
    other = pos.copy()
    other.board = [(3 - s) if s else 0 for s in pos.board]
    other.bits = pos.bits[::-1]
    other.hands = [h[:] for h in pos.hands[::-1]]
    other.heroes = pos.heroes[::-1]
    other.to_move = 1 - pos.to_move
    return other


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90))
def test_features_turn_with_the_colours(seed, plies):
    """A feature is the same for a colour as for the other colour of the position with colours exchanged
    (R18, R5: nothing favours red), and a difference feature changes sign between the colours."""
    pos = played(seed, plies)
    mine, theirs = features(pos, 0), features(pos, 1)
    assert features(swapped(pos), 1) == mine and features(swapped(pos), 0) == theirs
    for name, a, b in zip(NAMES, mine, theirs):
        assert a == (b if name in SYMMETRIC else -b), name


def test_each_feature_counts_what_it_says():
    """Red: a1 b1 (one region of 2, R18) and e7; White: e3 alone. Red holds E1 (target f5, empty, beside
    no red stone), N2 (e7: red's own, unplayable, R13), S2 (e3: White's, a hero flips it, R12);
    White holds N1 (e6: empty, beside red's e7 only) and W3 (b5: empty)."""
    pos = make(stones={"a1": "R", "b1": "R", "e7": "R", "e3": "W"}, crown="e5",
               hands={"red": ["E1", "N2", "S2"], "white": ["N1", "W3"]}, heroes={"red": 4, "white": 2})
    got = dict(zip(NAMES, Features()(pos, 0)))
    assert got["score"] == (4 + 1) - 1 and got["heroes"] == 2 and got["largest"] == 1 and got["stones"] == 2
    assert got["liberties"] == (3 + 4) - 4  # a2 b2 c1 and e7's four, against e3's four
    assert got["reach"] == 1 - 2 and got["grow"] == 0 and got["threats"] == 1 - 0
    assert got["hand"] == 3 - 2 and got["full"] == 0
    assert got["pile"] == len(pos.pile) == 24 - 5 and got["supply"] == 52 - 4


def test_liberties_are_the_empty_squares_beside_a_colour():
    """neighbours: the squares sharing an edge (R18), never wrapping from file i to file a."""
    a1, i1, a2 = 1, 1 << 8, 1 << 9
    assert neighbours(a1) == (1 << 1) | a2
    assert neighbours(i1) == (1 << 7) | (1 << 17)


def test_the_stages_split_the_game_by_stones():
    assert [phase(s) for s in (0, 17, 18, 35, 36, 52)] == [0, 0, 1, 1, 2, 2]


def test_the_classical_weights_are_todays_evaluation():
    """The model with CLASSICAL weights is score difference + 30 a hero (R18, R5), as `hard` evaluates."""
    model, search = Model(CLASSICAL), Negamax()
    search.scores = {}
    for seed in range(20):
        pos = played(seed, 40)
        for colour in (0, 1):
            assert model(pos, colour) == search.evaluate(pos, colour)


def test_a_negamax_searches_with_the_evaluation_it_is_given():
    """The hook: with CLASSICAL weights the same moves as `hard`; with a different evaluation other moves."""
    budget = Budget(600, 60.0)
    same = different = 0
    for seed in range(8):
        pos = played(seed, 30)
        if len(pos.legal_moves()) < 2:
            continue
        plain = Negamax(seed, budget).choose(pos)
        assert Negamax(seed, budget, evaluation=Model(CLASSICAL)).choose(pos) == plain
        same += 1
        different += Negamax(seed, budget, evaluation=lambda p, c: -Model(CLASSICAL)(p, c)).choose(pos) != plain
    assert same >= 5 and different >= 1


def test_the_shipped_weights_load_and_evaluate():
    model = shipped()
    assert len(model.weights) == 3 and all(len(w) == len(NAMES) + 1 for w in model.weights)
    value = model(played(3, 50), 0)
    assert isinstance(value, int) and abs(value) < 1000  # a margin, below a decided game's WIN
    assert json.loads(json.dumps(model.to_json())) == model.to_json()


@pytest.mark.parametrize("change, message", [
    ({"format": 2}, "format 1"), ({"features": ["score"]}, "features"),
    ({"weights": [[1.0]]}, "rows"), ({"weights": "x"}, "list of rows"),
])
def test_a_weights_file_of_another_shape_is_refused(change, message):
    with pytest.raises(RoseKingError, match=message):
        Model.from_json(shipped().to_json() | change)


def test_a_weight_that_is_not_a_finite_number_is_refused():
    rows = [list(w) for w in CLASSICAL]
    rows[1][2] = float("nan")
    with pytest.raises(RoseKingError, match="finite"):
        Model(rows)


def test_the_fit_recovers_the_weights_that_made_the_margins():
    """Margins made by known weights at each stage are fitted back (ridge aside) with no error."""
    rng = random.Random(1)
    truth = [[5.0, 1.0, 25.0] + [0.0] * (len(NAMES) - 2), [0.0, 1.5, 10.0] + [0.0] * (len(NAMES) - 2),
             [-2.0, 1.0, 2.0] + [3.0] + [0.0] * (len(NAMES) - 3)]
    samples = []
    for _ in range(600):
        stage = rng.randrange(3)
        x = [rng.randrange(-10, 11), rng.randrange(-2, 3)] + [rng.randrange(-3, 4) for _ in NAMES[2:]]
        y = truth[stage][0] + sum(w * xi for w, xi in zip(truth[stage][1:], x))
        samples.append((stage, x, y))
    got = fit(samples)
    assert error(got, samples) < 0.5
    assert got[0][2] == pytest.approx(25.0, abs=0.5) and got[2][3] == pytest.approx(3.0, abs=0.2)


def test_self_play_keeps_each_choice_with_the_movers_final_margin():
    """A self-play game's samples: one per position with a choice, the two colours' margins (R18) opposite."""
    weights = tuple(tuple(w) for w in CLASSICAL)
    samples = SelfPlay(weights, seed=1, generation=1, index=0, nodes=40, explore=4)()
    assert len(samples) > 20
    margins = {y for _, _, y in samples}
    assert len(margins) <= 2 and all(-y in margins for y in margins)


def test_search_targets_keep_one_choice_in_six_with_what_a_deeper_search_concludes():
    """The same game as with outcome targets (the targets' searches draw from their own generators), one
    position in about TARGET_EVERY kept, each with the mean of its piles' best values, within ±CLIP."""
    weights = tuple(tuple(w) for w in CLASSICAL)
    outcome = SelfPlay(weights, seed=1, generation=1, index=0, nodes=40, explore=4)()
    searched = SelfPlay(weights, seed=1, generation=1, index=0, nodes=40, explore=4, target_nodes=5000)()
    assert searched == SelfPlay(weights, seed=1, generation=1, index=0, nodes=40, explore=4, target_nodes=5000)()
    assert 0 < len(searched) < len(outcome) / 3
    kept = [(stage, x) for stage, x, _ in outcome]
    assert all((stage, x) in kept for stage, x, _ in searched)
    assert all(-CLIP <= y <= CLIP for _, _, y in searched) and len({y for _, _, y in searched}) > 2


def near_the_end(seed):
    """The deal of `seed` played at random to its 50th stone (R16 ends it at 52)."""
    pos, rng = Position.new(seed=seed), random.Random(seed)
    while pos.legal_moves() and pos.stones < 50:
        random_playout(pos, rng, plies=1)
    return pos


def test_root_values_are_each_piles_best_value_for_the_side_to_move():
    """One value a pile, as the budget splits them; two stones from the end each pile's search sees the
    result (R19): a decided value, the same for the same seed."""
    budget = Budget(2 * Negamax.WORLD_NODES, 60.0)
    assert len(Negamax(seed=3, budget=budget).root_values(played(4, 30))) == 2
    pos = near_the_end(1)
    assert len(pos.legal_moves()) > 1
    values = Negamax(seed=3, budget=budget).root_values(pos)
    assert len(values) == 2 and all(abs(v) >= WIN - 400 for v in values)
    assert Negamax(seed=3, budget=budget).root_values(pos) == values


TINY = Settings(seed=5, generations=1, games=2, nodes=30, explore=4, references=("random",), eval_games=2,
                eval_nodes=30)


def test_training_is_reproducible_from_its_seed():
    first, again = list(train(TINY)), list(train(TINY))
    assert first == again and len(first) == 2
    assert first[1]["weights"] != [list(w) for w in CLASSICAL]  # the fit moved the weights
    other = list(train(Settings(**{**vars(TINY), "seed": 6, "eval_games": 0})))
    assert other[1]["weights"] != first[1]["weights"]
    searched = list(train(Settings(**{**vars(TINY), "eval_games": 0, "target_nodes": 200})))
    assert 0 < searched[1]["positions"] < first[1]["positions"] / 3


def test_the_fixed_references_and_the_table_levels_stay_as_they_were():
    """easy and medium (what a museum visitor can beat) are the MCTS of before; hard-2026 and max-2026 are
    today's hard and max with the classical evaluation, whatever hard and max become."""
    assert LEVELS["easy"] == (MCTS, Budget(60, 1.0)) and LEVELS["medium"] == (MCTS, Budget(400, 1.0))
    assert LEVELS["hard-2026"] == (Negamax, Budget(10000, 2.0))
    assert LEVELS["max-2026"] == (Negamax, Budget(120000, 10.0))
    for name in ("hard-2026", "max-2026"):
        assert make_player(name).evaluation is None


def test_the_learned_levels_search_with_the_shipped_weights():
    for name in ("hard-learned", "max-learned"):
        player = make_player(name, seed=1)
        assert isinstance(player.evaluation, Model) and player.evaluation.weights == shipped().weights



def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


SMALL = ("--seed", "5", "--generations", "1", "--games", "2", "--nodes", "30", "--explore", "4",
         "--references", "random", "--eval-games", "2", "--eval-nodes", "30", "--target-nodes", "0")


def test_train_writes_the_weights_the_curve_and_its_figure(tmp_path):
    code, out, err = cli("train", "--out", str(tmp_path / "run"), *SMALL)
    assert code == 0, err
    assert out.splitlines()[0].startswith("generation 0: 0 self-play games") and "random" in out
    files = {p.name: p.read_bytes() for p in (tmp_path / "run").iterdir()}
    assert set(files) == {"weights.json", "curve.json", "curve.png"} and files["curve.png"][:4] == b"\x89PNG"
    model = Model.from_json(json.loads(files["weights.json"]))
    curve = json.loads(files["curve.json"])["curve"]
    assert [p["generation"] for p in curve] == [0, 1] and curve[1]["games"] == 2
    assert model.weights != [list(w) for w in CLASSICAL] and model.trained["seed"] == 5
    assert model.trained["target_nodes"] == 0


@pytest.mark.parametrize("option, value, message", [
    ("--games", "0", "--games: must be from 1"), ("--nodes", "-3", "--nodes"),
    ("--generations", "5000", "--generations"),
    ("--references", "champion", "unknown player"), ("--eval-games", "-1", "--eval-games"),
    ("--target-nodes", "-1", "--target-nodes"),
])
def test_train_refuses_an_option_out_of_range_in_one_line(tmp_path, option, value, message):
    args = list(SMALL)
    args[args.index(option) + 1] = value
    code, out, err = cli("train", "--out", str(tmp_path / "run"), *args)
    assert code == 2 and err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


def test_train_leaves_a_file_where_its_directory_should_be(tmp_path):
    (tmp_path / "run").write_text("mine")
    code, _, err = cli("train", "--out", str(tmp_path / "run"), *SMALL)
    assert code == 2 and "not a directory" in err and (tmp_path / "run").read_text() == "mine"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 90))
def test_ismcts_plays_a_legal_move_and_the_same_one_for_the_same_seed(seed, plies):
    pos = played(seed, plies)
    if not pos.legal_moves():
        return
    before = snapshot(pos)
    move = make_player("ismcts:40", seed=seed).choose(pos)
    assert move in pos.legal_moves() and snapshot(pos) == before  # R7: the real pile is untouched
    assert make_player("ismcts:40", seed=seed).choose(pos) == move


def test_ismcts_beats_random_play():
    """A reference worth the name: on four fixed deals, colours swapped, ismcts wins every game against random."""
    for deal in range(2):
        for colour in (0, 1):
            pos = Position.new(seed=deal)
            seats = [make_player("ismcts:30", seed=deal), make_player("random", seed=deal)]
            if colour:
                seats.reverse()
            while pos.legal_moves():
                pos.push(seats[pos.to_move].choose(pos))
            assert pos.score().winner == ("red", "white")[colour]
