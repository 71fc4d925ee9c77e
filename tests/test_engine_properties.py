"""Property tests over random games (hypothesis draws the deal's seed, the move choices, the
variant and the reshuffle option): the invariants of R3, R4, R6/R10, R11, R18 and the
make/unmake, JSON and record round trips hold after every move."""
import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import scoring
from engine.playout import random_playout
from engine.position import Position, shuffle
from engine.record import dumps, make_record, replay

from engine_testkit import ALL_CARDS, SEATS, naive_figures, naive_legal, naive_winner, snapshot

games = st.fixed_dictionaries({
    "variant": st.sampled_from(["classic", "teams"]),
    "seed": st.integers(0, 2**32 - 1),
    "moves_seed": st.integers(0, 2**32 - 1),
    "reshuffle": st.sampled_from(["lazy", "eager"]),
    "first": st.sampled_from(["red", "random"]),
})
# Hands-off games: few examples, each a whole game, so that the file runs in a few seconds.
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(g):
    return Position.new(g["variant"], g["seed"], first=g["first"], reshuffle=g["reshuffle"])


def random_game(g, limit=400):
    """Yield the position after each random legal move (the same object, moved on)."""
    pos = new_game(g)
    rng = random.Random(g["moves_seed"])
    yield pos
    for _ in range(limit):
        moves = pos.legal_moves()
        if not moves:
            return
        pos.play(rng.choice(moves))
        yield pos


@SETTINGS
@given(games)
def test_r3_r11_24_cards_conserved(g):
    """R3/R11: hands + draw pile + discard hold each of the 24 cards exactly once; hands never
    exceed the limit (R11, R21)."""
    limit = 5 if g["variant"] == "classic" else 3
    for pos in random_game(g):
        obj = pos.to_json()
        cards = [c for h in obj["hands"].values() for c in h] + obj["draw_pile"] + obj["discard"]
        assert sorted(cards) == sorted(ALL_CARDS)
        assert all(len(h) <= limit for h in obj["hands"].values())


@SETTINGS
@given(games)
def test_r4_stones_and_supply_consistent_with_board_and_bitboards(g):
    """R4: at most 52 stones; supply + stones on the board = 52; the board list, the JSON rows
    and the two bitboards say the same thing."""
    for pos in random_game(g):
        rows = pos.to_json()["board"]
        on_board = sum(ch != "." for row in rows for ch in row)
        assert on_board <= 52
        assert pos.supply + on_board == 52
        red = sum(1 << (r * 9 + f) for i, row in enumerate(rows) for f, ch in enumerate(row)
                  if ch == "R" for r in [8 - i])
        white = sum(1 << (r * 9 + f) for i, row in enumerate(rows) for f, ch in enumerate(row)
                    if ch == "W" for r in [8 - i])
        assert pos.bits == [red, white]
        assert [sq for sq in range(81) if pos.board[sq]] == [sq for sq in range(81) if (red | white) >> sq & 1]


@SETTINGS
@given(games)
def test_r6_r10_crown_on_a_stone_after_the_first_card(g):
    """R6: the crown starts on the empty e5; R10/R12: after any card move it sits on a stone
    (the one just placed or flipped) for the rest of the game."""
    played = False
    for pos in random_game(g):
        obj = pos.to_json()
        if pos.stack and pos.stack[-1][0] < 48:  # the last move was a card (Move < draw)
            played = True
        f, r = "abcdefghi".index(obj["crown"][0]), int(obj["crown"][1]) - 1
        under = obj["board"][8 - r][f]
        if played:
            assert under != "."
        else:
            assert obj["crown"] == "e5" and under == "."


@SETTINGS
@given(games)
def test_legal_moves_agree_with_the_rules_from_scratch(g):
    """R9–R17, R22: the engine's legal moves equal those worked out naively from the JSON."""
    for pos in random_game(g):
        obj = pos.to_json()
        assert sorted(str(m) for m in pos.legal_moves()) == naive_legal(obj)
        assert (pos.outcome() is None) == bool(naive_legal(obj))


@SETTINGS
@given(games, st.data())
def test_pop_restores_the_position_exactly(g, data):
    """Unmake restores everything (JSON incl. the pile order, heroes, turn) after any sequence,
    also across reshuffles; popping everything returns to the start."""
    seen = []
    pos = None
    for pos in random_game(g):
        seen.append((snapshot(pos), pos.heroes[:], pos.to_move, pos.history()))
        assert pos.last_move() == (seen[-1][3][-1] if pos.stack else None)    # the last alone, as in the history
    # pop back a drawn number of moves, check, then push different random moves and pop again
    back = data.draw(st.integers(0, len(seen) - 1), label="back")
    for _ in range(back):
        pos.pop()
    assert (snapshot(pos), pos.heroes, pos.to_move, pos.history()) == seen[len(seen) - 1 - back]
    rng = random.Random(g["moves_seed"] + 1)
    for _ in range(30):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    while len(pos.stack) > len(seen) - 1 - back:
        pos.pop()
    assert (snapshot(pos), pos.heroes, pos.to_move) == seen[len(seen) - 1 - back][:3]
    while pos.stack:
        pos.pop()
    assert (snapshot(pos), pos.heroes, pos.to_move, pos.history()) == seen[0]
    assert pos == new_game(g)


@SETTINGS
@given(games)
def test_pop_returns_each_move_and_undoes_step_by_step(g):
    """Each pop undoes exactly the last push and returns that move."""
    pos = new_game(g)
    rng = random.Random(g["moves_seed"])
    trail = []
    while True:
        moves = pos.legal_moves()
        if not moves:
            break
        trail.append(snapshot(pos))
        move = rng.choice(moves)
        pos.push(move)
        if len(trail) % 7 == 0:  # every so often, step back once and forth again
            assert pos.pop() == move
            assert snapshot(pos) == trail[-1]
            pos.push(move)
    for before in reversed(trail):
        pos.pop()
        assert snapshot(pos) == before


@SETTINGS
@given(games, st.booleans())
def test_json_round_trip(g, with_pile):
    """NOTATION: to_json → JSON text → from_json gives an equal position (the pile order kept
    when given; without it the same cards are in the pile)."""
    for pos in random_game(g):
        text = json.dumps(pos.to_json(pile=with_pile))
        back = Position.from_json(json.loads(text))
        if with_pile:
            assert back == pos and back.to_json() == pos.to_json()
        else:
            assert back.to_json(pile=False) == pos.to_json(pile=False)
            assert sorted(back.pile) == sorted(pos.pile)


@SETTINGS
@given(games)
def test_r18_r19_scores_recomputed_from_scratch_agree(g):
    """R18/R19: a naive flood fill over the 9 JSON rows gives the same figures and winner."""
    for pos in random_game(g):
        rows = pos.to_json()["board"]
        s = pos.score()
        assert (s.red.score, s.red.largest, s.red.stones) == naive_figures(rows, "R")
        assert (s.white.score, s.white.largest, s.white.stones) == naive_figures(rows, "W")
        assert s.winner == naive_winner(rows)
        d = s.to_dict()
        for colour, letter in (("red", "R"), ("white", "W")):
            sizes = [len(r) for r in d[colour]["regions"]]
            assert sizes == sorted(sizes, reverse=True)
            assert sum(sizes) == d[colour]["stones"]
            named = {q for r in d[colour]["regions"] for q in r}
            assert named == {"abcdefghi"[f] + str(9 - i) for i, row in enumerate(rows)
                             for f, ch in enumerate(row) if ch == letter}


@SETTINGS
@given(games, st.one_of(st.just(1000), st.integers(0, 150)))
def test_records_replay_to_the_same_result(g, stop):
    """NOTATION records: make_record → one JSON line → json.loads → replay gives the same board,
    hands, history and result, for finished and unfinished games."""
    start = new_game(g)
    pos = start.copy()
    rng = random.Random(g["moves_seed"])
    for _ in range(stop):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.play(rng.choice(moves))
    players = {s: "random" for s in SEATS[g["variant"]]}
    line = dumps(make_record(start, pos, players, seed=g["seed"]))
    assert "\n" not in line
    record = json.loads(line)
    assert record["moves"] == pos.history()
    back = replay(record)
    a, b = back.to_json(), pos.to_json()
    assert (a["board"], a["crown"], a["hands"], a["heroes"], a["to_move"]) == \
           (b["board"], b["crown"], b["hands"], b["heroes"], b["to_move"])
    assert back.history() == pos.history()
    s, t = back.score(), pos.score()
    assert (s.red.figures, s.white.figures, s.winner, s.reason) == \
           (t.red.figures, t.white.figures, t.winner, t.reason)
    assert record["result"]["reason"] == (t.reason or "unfinished")


def test_the_random_games_reach_every_kind_of_move_and_ending():
    """Guard against vacuous properties: the games above (same generator) include passes
    (R14), hero flips (R12), reshuffles (R11) and both endings (R16, R17) in both variants."""
    for variant in ("classic", "teams"):
        kinds, endings = set(), set()
        for seed in range(40):
            g = {"variant": variant, "seed": seed, "moves_seed": seed, "reshuffle": "lazy", "first": "red"}
            discard = 0
            for pos in random_game(g):
                if pos.stack:
                    move = str(pos.history()[-1])
                    kinds.add("pass" if move == "pass" else "hero" if move.startswith("H+") else
                              "draw" if move.startswith("draw") else "card")
                    if len(pos.discard) < discard:
                        kinds.add("reshuffle")
                discard = len(pos.discard)
            endings.add(pos.outcome())
        assert kinds == {"pass", "hero", "draw", "card", "reshuffle"}
        assert endings == {"last-stone", "blockade"}


@SETTINGS
@given(games, st.one_of(st.none(), st.integers(0, 150)))
def test_random_playout_is_the_same_game_as_pushing_legal_moves(g, plies):
    """The fast playout makes exactly the moves, stack entries and reshuffles (R11) of choosing
    `legal_moves()[int(random() * n)]` and pushing, stops on R14/R16/R17 or after `plies`,
    says how many moves it made, and pops back to the start; without undo it reaches the same
    position with an empty stack."""
    fast, slow, bare = new_game(g), new_game(g), new_game(g)
    made = random_playout(fast, random.Random(g["moves_seed"]), plies)
    rng = random.Random(g["moves_seed"])
    for _ in range(10**4 if plies is None else plies):
        moves = slow.legal_moves()
        if not moves:
            break
        slow.push(moves[int(rng.random() * len(moves))])
    assert fast == slow and fast.stack == slow.stack and (fast.bits, fast.stones) == (slow.bits, slow.stones)
    assert made == len(slow.stack) and fast.outcome() == slow.outcome()
    assert random_playout(bare, random.Random(g["moves_seed"]), plies, undo=False) == made
    assert bare == slow and bare.stack == [] and (bare.bits, bare.stones) == (slow.bits, slow.stones)
    while fast.stack:
        fast.pop()
    assert fast == new_game(g)


@given(st.integers(0, 2**64), st.integers(0, 60))
def test_r7_shuffle_deals_as_random_shuffle_does(seed, n):
    """R7: the engine's own shuffle gives random.shuffle's order and leaves the generator where it would."""
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b and ours.getstate() == theirs.getstate()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**81 - 1), st.integers(0, 2**81 - 1))
def test_r18_regions_of_any_board_are_its_edge_connected_sets_largest_first(a, b):
    """R18 on any stones at all (dense, sparse, whole ranks, the corners): the regions, found rank by
    rank, are the edge-connected sets of a flood fill over squares, largest first and equal sizes in
    the order of their lowest square; the figures are theirs (R19)."""
    for bits in (a, a & b, a & b & random.Random(a).getrandbits(81)):
        cells = {sq for sq in range(81) if bits >> sq & 1}
        found, seen = [], set()
        for start in sorted(cells):
            if start in seen:
                continue
            region, todo = 0, [start]
            seen.add(start)
            while todo:
                sq = todo.pop()
                region |= 1 << sq
                for n in (sq + 9, sq - 9) + ((sq + 1,) if sq % 9 < 8 else ()) + ((sq - 1,) if sq % 9 else ()):
                    if n in cells and n not in seen:
                        seen.add(n)
                        todo.append(n)
            found.append(region)
        found.sort(key=int.bit_count, reverse=True)  # stable: the lower lowest square first among equals
        assert scoring.regions(bits) == found
        sizes = [r.bit_count() for r in found]
        assert scoring.figures(bits) == (sum(n * n for n in sizes), max(sizes, default=0), len(cells))
