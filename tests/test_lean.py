"""The bench's lean loop (engine/bench/lean.py) plays the rules' games and scores them right:
each of its games, replayed move by move on the engine, offers the engine's legal moves at every
turn (R9–R14), passes and ends where the engine does (R14, R16, R17), and scores as the engine
scores (R18, R19). Its yardstick is only as honest as these games."""
import random

from hypothesis import given, settings, strategies as st

from engine.bench import lean
from engine.moves import DRAW, PASS
from engine.position import Position

from engine_testkit import naive_figures


class Recorder(random.Random):
    """A generator that remembers what the lean loop asked of it: each shuffle's result, and each
    choice with the moves it was chosen from."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.shuffles: list[list[int]] = []
        self.choices: list[tuple[list[int], int]] = []

    def shuffle(self, x):  # type: ignore[override]
        super().shuffle(x)
        self.shuffles.append(list(x))

    def choice(self, seq):  # type: ignore[override]
        move = super().choice(seq)
        self.choices.append((list(seq), move))
        return move


def replay_on_the_engine(seed: int) -> tuple[Position, tuple, tuple, int, Recorder]:
    """A lean game of `seed` made again on the engine, move by move, checking each step."""
    rng = Recorder(seed)
    red, white, moves = lean.game(rng)
    deal, *reshuffles = rng.shuffles
    pos = Position.new(seed=0)
    pos.hands, pos.pile = [deal[:5], deal[5:10]], deal[10:]  # R7: the lean deal
    pile = deal[10:]  # the lean loop's pile, its top card last
    choices = iter(rng.choices)
    while legal := pos.legal_moves():
        if legal == [PASS]:
            pos.push(PASS)  # R14: the lean loop passes without a choice
            continue
        offered, move = next(choices)
        assert sorted(offered) == sorted(legal)  # R9–R13: the same moves offered
        if move == DRAW:
            if not pile:
                pile = reshuffles.pop(0)  # R11: the discard pile, shuffled
                assert sorted(pile) == sorted(pos.discard)
            pos.push(DRAW, pile.pop())
        else:
            pos.push(move)
    assert next(choices, None) is None and not reshuffles  # the lean game ended where the engine's did
    return pos, red, white, moves, rng


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_lean_games_are_the_engines_games_and_score_alike(seed):
    """R9–R19: every lean game is a legal game of the engine, ending as it ends, scored as it scores."""
    pos, red, white, moves, _ = replay_on_the_engine(seed)
    score = pos.score()
    assert (red, white) == (score.red.figures, score.white.figures)  # R18
    assert moves == len(pos.stack)
    assert (red > white, red == white) == (score.winner == "red", score.winner == "draw")  # R19


def test_lean_scoring_agrees_with_a_flood_fill_from_scratch():
    """R18: the lean loop's figures equal the test kit's own count on the final boards."""
    for seed in range(20):
        pos, red, white, _, _ = replay_on_the_engine(seed)
        rows = pos.to_json()["board"]
        assert (red, white) == (naive_figures(rows, "R"), naive_figures(rows, "W"))


def test_the_lean_games_reach_every_kind_of_move_and_ending():
    """The checks above are not vacuous: the lean games include heroes (R12), draws, reshuffles (R11),
    passes (R14) and both endings (R16, R17)."""
    seen = set()
    for seed in range(60):
        pos, *_, rng = replay_on_the_engine(seed)
        history = pos.history()
        seen |= {"hero" for m in history if m.startswith("H+")} | {"pass" for m in history if m == "pass"}
        seen |= {"draw" for m in history if m.startswith("draw")} | ({"reshuffle"} if len(rng.shuffles) > 1 else set())
        seen.add(pos.outcome())
    assert seen == {"hero", "pass", "draw", "reshuffle", "last-stone", "blockade"}


def test_games_counts_red_wins_of_the_same_games():
    """`games` plays the games `game` plays from one generator and counts Red's wins (R19)."""
    rng = random.Random(3)
    wins = sum(red > white for red, white, _ in (lean.game(rng) for _ in range(30)))
    assert lean.games(30, seed=3) == wins
