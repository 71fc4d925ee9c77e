"""One test (or more) for every rule R1–R22 of RULES.md, in both variants where it applies.

Positions are built by hand through the JSON position format (NOTATION.md); expected
squares, scores and winners are worked out from the rules in the test, not read off
the engine.
"""
import json
import os
import sys

import pytest

import processes

from engine.errors import IllegalMoveError, PositionError, RoseKingError
from engine.notation import parse_card, parse_square, square_name
from engine.position import Position

from engine_testkit import ALL_CARDS, FILES, SEATS, colour_of, make, moves_of, name, stone_at, target

VARIANTS = ("classic", "teams")
EMPTY = ["." * 9] * 9


def cards_everywhere(obj):
    """Every card of a JSON position: hands, draw pile, discard (R3, R11)."""
    return [c for h in obj["hands"].values() for c in h] + obj["draw_pile"] + obj["discard"]


def stones_on(obj):
    return sum(ch != "." for row in obj["board"] for ch in row)


# --- R1 board ------------------------------------------------------------------------------

def test_r1_square_names_cover_the_9x9_board_once():
    """R1: files a–i, ranks 1–9: 81 distinct squares, each name round-trips."""
    names = [f + str(r) for r in range(1, 10) for f in FILES]
    indexes = [parse_square(n) for n in names]
    assert len(set(indexes)) == 81
    assert [square_name(i) for i in indexes] == names


def test_r1_board_rows_are_rank_9_first_and_file_a_first():
    """R1 + NOTATION: board row 0 is rank 9 (north, crown edge), its first character file a."""
    rows = ["R........"] + ["." * 9] * 7 + ["........W"]
    s = make(rows=rows).score().to_dict()
    assert s["red"]["regions"] == [["a9"]]  # north-west corner
    assert s["white"]["regions"] == [["i1"]]  # south-east corner


@pytest.mark.parametrize("variant", VARIANTS)
def test_r1_r6_crown_starts_on_the_centre_e5(variant):
    """R1: the centre is e5 — four squares on every side; R6: the crown starts there."""
    pos = Position.new(variant, seed=3)
    assert pos.to_json()["crown"] == "e5"
    # Four squares on every side: the longest cards reach b, h, 2 and 8 and stay on the board.
    for card, square in (("N3", "e8"), ("S3", "e2"), ("E3", "h5"), ("W3", "b5")):
        p = make(variant, hands={SEATS[variant][0]: [card]})
        p.play(card)
        assert stone_at(p, square) == "R"


# --- R2 absolute directions ----------------------------------------------------------------

@pytest.mark.parametrize("card", ALL_CARDS)
def test_r2_a_card_means_the_same_board_direction_for_either_colour(card):
    """R2: N = rank+1, E = file+1, diagonals combine; the same card, the same square, for Red
    and for White (and every seat in teams, R20)."""
    expected = target("e5", card)  # worked out by hand from the direction table
    assert expected is not None  # R1: from the centre every card stays on the board
    landed = set()
    for variant in VARIANTS:
        for seat in SEATS[variant]:
            pos = make(variant, to_move=seat, hands={seat: [card]})
            pos.play(card)
            assert stone_at(pos, expected) == colour_of(seat)[0].upper()
            assert pos.to_json()["crown"] == expected
            landed.add(expected)
    assert len(landed) == 1


def test_r2_named_examples():
    """R2: N1 from e5 is e6 (north = rank 9 side), E2 is g5, SW3 is b2, NW1 is d6."""
    for card, square in (("N1", "e6"), ("E2", "g5"), ("SW3", "b2"), ("NW1", "d6"), ("S3", "e2")):
        pos = make(hands={"red": [card]})
        pos.play(card)
        assert stone_at(pos, square) == "R"


# --- R3 cards -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_24_distinct_power_cards(variant):
    """R3: every direction with every distance 1–3, exactly once: 24 cards."""
    obj = Position.new(variant, seed=11).to_json()
    cards = cards_everywhere(obj)
    assert sorted(cards) == sorted(ALL_CARDS)
    assert len(set(cards)) == 24
    assert {parse_card(c) for c in ALL_CARDS} == set(range(24))


# --- R4 stones --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_shared_supply_of_52_decreases_only_by_card_plays(variant):
    """R4: 52 stones in one supply; a power card takes one (R10), a hero flip none (R12)."""
    seats = SEATS[variant]
    pos = make(variant, stones={"e7": "W"}, to_move=seats[0],
               hands={seats[0]: ["N1"], seats[1]: ["S3"]})
    assert pos.supply == 52 - 1
    pos.play("N1")  # e5 -> e6, a new red stone
    assert pos.supply == 50
    # seats[1] (white) plays S3: e6 -> e3, a new white stone from the same supply
    pos.play("S3")
    assert pos.supply == 49
    obj = make(variant, stones={"e6": "W"}, hands={seats[0]: ["N1"]})
    before = obj.supply
    obj.play("H+N1")
    assert obj.supply == before  # the flip takes nothing from the supply
    assert stones_on(obj.to_json()) == 52 - obj.supply


def test_r4_a_full_board_of_52_stones_is_valid_and_53_are_refused():
    """R4: at most 52 stones exist."""
    squares = [name(f, r) for r in range(9) for f in range(9)]
    full = {s: "RW"[i % 2] for i, s in enumerate(squares[:52])}
    pos = make(stones=full, crown=squares[51], hands={"red": ["N1"]})
    assert pos.supply == 0
    assert pos.legal_moves() == [] and pos.outcome() == "last-stone"  # R16
    over = {s: "R" for s in squares[:53]}
    with pytest.raises(PositionError, match=r"^board: 53 stones"):
        make(stones=over)


# --- R5 heroes --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,count", [("classic", 4), ("teams", 2)])
def test_r5_r21_heroes_per_seat(variant, count):
    """R5: 4 heroes each; R21: 2 per seat in teams."""
    obj = Position.new(variant, seed=5).to_json()
    assert obj["heroes"] == {s: count for s in SEATS[variant]}


# --- R6 crown -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_crown_on_e5_and_no_stone_at_the_start(variant):
    """R6: the crown starts on e5, which holds no stone (nor does any square)."""
    pos = Position.new(variant, seed=9)
    obj = pos.to_json()
    assert obj["crown"] == "e5"
    assert obj["board"] == EMPTY
    assert pos.supply == 52


def test_r6_e5_stays_a_normal_empty_square_after_the_crown_leaves():
    """R6: e5 holds no stone, so once the crown has left, a card can put a stone there (R10)."""
    pos = make(stones={"e6": "W"}, crown="e6", hands={"red": ["S1"]})
    pos.play("S1")
    assert stone_at(pos, "e5") == "R"


# --- R7 deal -----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,hand,pile", [("classic", 5, 14), ("teams", 3, 12)])
def test_r7_r21_deal_sizes_and_empty_discard(variant, hand, pile):
    """R7: 5 cards to each player, 14 in the pile, empty discard; R21: 3 each, 12 in the pile."""
    obj = Position.new(variant, seed=21).to_json()
    assert [len(obj["hands"][s]) for s in SEATS[variant]] == [hand] * len(SEATS[variant])
    assert len(obj["draw_pile"]) == pile
    assert obj["discard"] == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_deal_is_deterministic_per_seed(variant):
    """R7 + issue: the same seed gives the same deal; different seeds give different deals."""
    deals = [json.dumps(Position.new(variant, seed=s).to_json()) for s in range(20)]
    assert deals == [json.dumps(Position.new(variant, seed=s).to_json()) for s in range(20)]
    assert len(set(deals)) == 20


def test_r7_deal_is_the_same_in_another_process():
    """R7: 'the same on every machine' — at least independent of hash randomisation."""
    code = ("import json; from engine.position import Position; "
            "print(json.dumps([Position.new(v, seed=s).to_json() for v in ('classic', 'teams') "
            "for s in (0, 1, 99)]))")
    here = [Position.new(v, seed=s).to_json() for v in ("classic", "teams") for s in (0, 1, 99)]
    for hashseed in ("1", "12345"):
        out = processes.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": hashseed},
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        assert json.loads(out.stdout) == here


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_hands_are_open_only_the_pile_order_is_hidden(variant):
    """R7: hands are face up; the draw pile is face down. The public view keeps every hand,
    and a determinized copy differs from the game at most in the order of the pile."""
    import random

    pos = Position.new(variant, seed=4)
    public = pos.to_json(pile=False)
    full = pos.to_json()
    assert "draw_pile" not in public
    assert public["hands"] == full["hands"]
    guess = pos.determinized(random.Random(1)).to_json()
    assert {k: v for k, v in guess.items() if k != "draw_pile"} == \
           {k: v for k, v in full.items() if k != "draw_pile"}
    assert sorted(guess["draw_pile"]) == sorted(full["draw_pile"])


# --- R8 first move ----------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_r22_red_moves_first(variant):
    """R8: Red moves first (R22: Red 1 in teams), for every seed."""
    for seed in range(10):
        assert Position.new(variant, seed=seed).to_json()["to_move"] == SEATS[variant][0]


def test_r8_players_alternate():
    """R8: then the players alternate."""
    pos = Position.new("classic", seed=2)
    seen = []
    for _ in range(6):
        seen.append(pos.seat)
        pos.play(pos.legal_moves()[0])
    assert seen == ["red", "white"] * 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_option_random_first_player(variant):
    """R8 option: `first="random"` picks the starting seat from the seed."""
    starts = [Position.new(variant, seed=s, first="random").seat for s in range(60)]
    assert set(starts) == set(SEATS[variant])
    assert starts == [Position.new(variant, seed=s, first="random").seat for s in range(60)]
    with pytest.raises(RoseKingError, match="first"):
        Position.new(variant, seed=1, first="white")


# --- R9 choice --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_draw_allowed_while_playable_cards_are_held(variant):
    """R9: drawing is a free choice even when cards could be played."""
    seat = SEATS[variant][0]
    pos = make(variant, hands={seat: ["N1", "E1"]})
    assert moves_of(pos) == ["E1", "N1", "draw"]
    pos.play("draw")
    assert len(pos.to_json()["hands"][seat]) == 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_plain_move_allowed_while_a_hero_move_exists(variant):
    """R9: holding a hero move does not force it."""
    seat = SEATS[variant][0]
    pos = make(variant, stones={"e4": "W"}, hands={seat: ["N1", "S1"]})
    assert moves_of(pos) == ["H+S1", "N1", "draw"]
    pos.play("N1")
    assert stone_at(pos, "e6") == "R" and stone_at(pos, "e4") == "W"


def test_r9_exactly_one_action_per_turn():
    """R9: one action, then the turn passes: one card less, one stone more, White to move."""
    pos = make(hands={"red": ["N1", "E1"], "white": ["S1"]})
    pos.play("N1")
    obj = pos.to_json()
    assert obj["hands"]["red"] == ["E1"] and obj["to_move"] == "white"
    assert stones_on(obj) == 1
    with pytest.raises(IllegalMoveError):
        pos.play("E1")  # not Red's turn: White does not hold E1


# --- R10 power card ---------------------------------------------------------------------------

def test_r10_crown_jumps_over_stones_of_either_colour():
    """R10: only the target matters; e6 and e7 may hold anything."""
    pos = make(stones={"e6": "R", "e7": "W"}, hands={"red": ["N3"]})
    assert "N3" in moves_of(pos)
    pos.play("N3")
    assert [stone_at(pos, s) for s in ("e6", "e7", "e8")] == ["R", "W", "R"]


@pytest.mark.parametrize("colour", "RW")
def test_r10_card_lands_on_empty_square_only(colour):
    """R10: a plain card needs an empty target; a stone of either colour blocks it."""
    pos = make(stones={"e8": colour}, hands={"red": ["N3"]}, heroes={"red": 0})
    assert "N3" not in moves_of(pos)
    assert pos.why_illegal("N3")


@pytest.mark.parametrize("crown,card", [("e8", "N2"), ("a1", "SW1"), ("i5", "E1"), ("c3", "S3"),
                                        ("g7", "NE3"), ("b5", "W2")])
def test_r10_off_board_target_is_illegal(crown, card):
    """R10/R13: the target must be on the board (checked by hand: it is off)."""
    assert target(crown, card) is None
    pos = make(stones={crown: "W"}, crown=crown, hands={"red": [card]})
    assert card not in moves_of(pos) and "H+" + card not in moves_of(pos)
    assert "leaves the board" in pos.why_illegal(card)


@pytest.mark.parametrize("variant", VARIANTS)
def test_r10_effect_discard_stone_crown_no_replacement(variant):
    """R10: the card goes to the discard, a stone of the mover's colour lands on T, the crown
    moves there, and no card is drawn in replacement."""
    seats = SEATS[variant]
    pos = make(variant, stones={"d4": "W"}, crown="d4", to_move=seats[1],
               hands={seats[1]: ["NE2", "S1"]}, discard=["W3"])
    before = pos.to_json()
    t = target("d4", "NE2")
    assert t == "f6"
    pos.play("NE2")
    after = pos.to_json()
    assert after["discard"] == ["W3", "NE2"]
    assert after["hands"][seats[1]] == ["S1"]
    assert after["draw_pile"] == before["draw_pile"]
    assert stone_at(pos, "f6") == "W" and after["crown"] == "f6"
    assert stones_on(after) == stones_on(before) + 1
    assert after["to_move"] == seats[2 % len(seats)]


# --- R11 draw ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,limit", [("classic", 5), ("teams", 3)])
def test_r11_r21_draw_only_below_the_hand_limit(variant, limit):
    """R11: draw only with fewer than 5 cards (R21: fewer than 3 in teams)."""
    seat = SEATS[variant][0]
    full = make(variant, hands={seat: ALL_CARDS[:limit]})
    assert "draw" not in moves_of(full)
    assert "R11" in full.why_illegal("draw")
    with pytest.raises(IllegalMoveError):
        full.play("draw")
    short = make(variant, hands={seat: ALL_CARDS[:limit - 1]})
    top = short.to_json()["draw_pile"][0]
    assert "draw" in moves_of(short)
    short.play("draw")
    obj = short.to_json()
    assert obj["hands"][seat] == ALL_CARDS[:limit - 1] + [top]  # the top card, face up
    assert top not in obj["draw_pile"]


def _last_card_setup(reshuffle, seed=0):
    red, white = ["N1", "N2", "N3", "E1"], ["E2", "E3", "S1", "S2"]
    pile = ["W1"]
    discard = [c for c in ALL_CARDS if c not in red + white + pile]
    return make(hands={"red": red, "white": white}, draw_pile=pile, discard=discard,
                reshuffle=reshuffle, seed=seed), discard


def test_r11_lazy_reshuffle_at_the_next_draw():
    """R11 (default lazy): drawing the last card leaves the pile empty; the next draw first
    turns the shuffled discard pile into the draw pile."""
    pos, discard = _last_card_setup("lazy")
    pos.play("draw")
    obj = pos.to_json()
    assert obj["hands"]["red"][-1] == "W1"
    assert obj["draw_pile"] == [] and obj["discard"] == discard
    pos.play("draw")  # White: the pile is empty, so reshuffle first
    obj = pos.to_json()
    drawn = obj["hands"]["white"][-1]
    assert drawn in discard
    assert obj["discard"] == []
    assert sorted(obj["draw_pile"] + [drawn]) == sorted(discard)
    assert sorted(cards_everywhere(obj)) == sorted(ALL_CARDS)


def test_r11_eager_option_reshuffles_on_the_last_card():
    """R11 option eager: the discard pile becomes the draw pile as soon as the last card is drawn."""
    pos, discard = _last_card_setup("eager")
    pos.play("draw")
    obj = pos.to_json()
    assert obj["hands"]["red"][-1] == "W1"
    assert obj["discard"] == [] and sorted(obj["draw_pile"]) == sorted(discard)
    top = obj["draw_pile"][0]
    pos.play("draw")
    assert pos.to_json()["hands"]["white"][-1] == top
    assert sorted(cards_everywhere(pos.to_json())) == sorted(ALL_CARDS)


def test_r11_reshuffle_order_comes_from_the_seed():
    """R11 + issue: reshuffles are seeded, so the same seed reshuffles the same way."""
    piles = []
    for seed in (1, 1, 2, 3, 4):
        pos, _ = _last_card_setup("eager", seed)
        pos.play("draw")
        piles.append(pos.to_json()["draw_pile"])
    assert piles[0] == piles[1]
    assert len({tuple(p) for p in piles}) > 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_r11_24_cards_conserved_through_plays_and_draws(variant):
    """R11: hands + draw pile + discard = 24 cards at every step."""
    pos = Position.new(variant, seed=8)
    for _ in range(120):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.play(moves[-1])  # draws come last: exercises draws and reshuffles
        assert sorted(cards_everywhere(pos.to_json())) == sorted(ALL_CARDS)


# --- R12 hero ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_hero_flips_an_opponent_stone(variant):
    """R12: the power card is discarded, one hero leaves the game, the stone on T turns to the
    mover's colour, the crown moves there, no stone comes from the supply."""
    seats = SEATS[variant]
    pos = make(variant, stones={"e7": "W"}, hands={seats[0]: ["N2"]}, heroes={seats[0]: 1})
    assert moves_of(pos) == ["H+N2", "draw"]
    supply = pos.supply
    pos.play("H+N2")
    obj = pos.to_json()
    assert stone_at(pos, "e7") == "R" and obj["crown"] == "e7"
    assert obj["heroes"][seats[0]] == 0
    full = 4 if variant == "classic" else 2
    assert obj["heroes"] == {s: 0 if s == seats[0] else full for s in seats}
    assert obj["discard"] == ["N2"] and obj["hands"][seats[0]] == []
    assert pos.supply == supply and stones_on(obj) == 1


def test_r12_white_hero_flips_red():
    """R12 for White: a red stone becomes white."""
    pos = make(stones={"c3": "R", "e5": "R"}, to_move="white", hands={"white": ["SW2"]})
    pos.play("H+SW2")
    assert stone_at(pos, "c3") == "W" and pos.to_json()["heroes"]["white"] == 3


# --- R13 never legal --------------------------------------------------------------------------

@pytest.mark.parametrize("heroes", [0, 4])
def test_r13_never_onto_own_stone_with_or_without_hero(heroes):
    """R13: landing on one's own stone is never legal, hero or not."""
    pos = make(stones={"e7": "R"}, hands={"red": ["N2"]}, heroes={"red": heroes})
    assert moves_of(pos) == ["draw"]
    for move in ("N2", "H+N2"):
        assert "own stone" in pos.why_illegal(move)
        with pytest.raises(IllegalMoveError):
            pos.play(move)


def test_r13_hero_onto_an_empty_square_is_illegal():
    """R13/R12: a hero needs an opponent's stone."""
    pos = make(hands={"red": ["N2"]})
    assert "H+N2" not in moves_of(pos)
    assert "empty" in pos.why_illegal("H+N2")


def test_r13_hero_off_the_board_is_illegal():
    """R13: leaving the board is never legal, with a hero neither."""
    pos = make(stones={"a1": "W"}, crown="a1", hands={"red": ["S2"]})
    assert "leaves the board" in pos.why_illegal("H+S2")


def test_r13_cannot_stop_short_of_the_card_distance():
    """R13: the crown moves the full distance; N3 onto an own stone cannot stop on e6 or e7."""
    pos = make(stones={"e8": "R"}, hands={"red": ["N3"]})
    assert moves_of(pos) == ["draw"]


def test_r13_classic_cannot_use_the_opponents_heroes():
    """R13: Red without heroes cannot flip, though White still has 4."""
    pos = make(stones={"e6": "W"}, hands={"red": ["N1"]}, heroes={"red": 0, "white": 4})
    assert moves_of(pos) == ["draw"]
    assert "no hero left" in pos.why_illegal("H+N1")


def test_r13_r21_teams_seat_cannot_use_its_partners_heroes():
    """R13, R21: in teams the 2 heroes are the seat's own; red1 with none cannot use red2's."""
    common = dict(stones={"e6": "W"}, heroes={"red1": 0, "red2": 2})
    red1 = make("teams", to_move="red1", hands={"red1": ["N1"]}, **common)
    assert moves_of(red1) == ["draw"]
    assert "no hero left" in red1.why_illegal("H+N1")
    red2 = make("teams", to_move="red2", hands={"red2": ["N1"]}, **common)
    assert "H+N1" in moves_of(red2)


def test_r13_cannot_play_a_card_one_does_not_hold():
    """R13 (another player's material): Red cannot play White's card."""
    pos = make(hands={"red": ["N1"], "white": ["E1"]})
    assert "does not hold" in pos.why_illegal("E1")


# --- R14 forced pass --------------------------------------------------------------------------

def _stuck_red(white_hand=("N1", "N2", "N3", "E1")):
    # Crown on a1: S*, W*, SW*, SE*, NW* all leave the board (checked with target()).
    red = ["S1", "S2", "S3", "W1", "W2"]
    assert all(target("a1", c) is None for c in red)
    return make(stones={"a1": "R"}, crown="a1", hands={"red": red, "white": list(white_hand)})


def test_r14_forced_pass_is_the_only_legal_move_and_the_opponent_moves_again():
    """R14: no legal action → pass is the only move; the opponent keeps moving until the
    first player has an action again."""
    pos = _stuck_red()
    assert moves_of(pos) == ["pass"]
    assert "must pass" in pos.why_illegal("S1")
    pos.play("pass")
    assert pos.seat == "white"
    pos.play("draw")  # the crown stays on a1: Red is still stuck
    assert pos.seat == "red" and moves_of(pos) == ["pass"]
    pos.play("pass")
    pos.play("N1")  # crown a1 -> a2 (white stone)
    # From a2, S1 lands on a1 — Red's own stone — and S2, S3, W1, W2 leave the board.
    assert target("a2", "S1") == "a1" and all(target("a2", c) is None for c in ("S2", "S3", "W1", "W2"))
    assert pos.seat == "red" and moves_of(pos) == ["pass"]


def test_r14_player_gets_moving_again_once_an_action_exists():
    """R14: the pass lasts only while there is no action."""
    pos = _stuck_red(white_hand=("N2", "E1", "E2", "E3"))
    pos.play("pass")
    pos.play("N2")  # crown a1 -> a3, empty: now S1 (a2, empty) is playable for Red
    assert "S1" in moves_of(pos) and "pass" not in moves_of(pos)


@pytest.mark.parametrize("variant", VARIANTS)
def test_r14_pass_is_never_voluntary(variant):
    """R14: passing is never voluntary — refused by why_illegal and play."""
    pos = Position.new(variant, seed=3)
    assert "pass" not in moves_of(pos)
    assert "R14" in pos.why_illegal("pass")
    with pytest.raises(IllegalMoveError):
        pos.play("pass")


# --- R15 zugzwang -----------------------------------------------------------------------------

@pytest.mark.parametrize("variant,hand,expected", [
    ("classic", ["N1", "S1", "E1", "W3", "NE3"], ["H+E1", "H+N1", "H+NE3", "H+S1"]),
    ("teams", ["N1", "W3", "S1"], ["H+N1", "H+S1"]),  # R21: a full hand is 3 cards
])
def test_r15_only_hero_moves_must_make_one(variant, hand, expected):
    """R15: a full hand whose every usable card needs a hero → the legal moves are exactly the
    hero moves: no draw (R11), no pass (R14)."""
    # N1, S1, E1 -> e6, e4, f5 (white); W3 -> b5 (Red's own); NE3 -> h8 (white)
    stones = {"e5": "R", "e6": "W", "e4": "W", "f5": "W", "b5": "R", "h8": "W"}
    assert {c: target("e5", c) for c in ("N1", "S1", "E1", "W3", "NE3")} == \
        {"N1": "e6", "S1": "e4", "E1": "f5", "W3": "b5", "NE3": "h8"}
    seat = SEATS[variant][0]
    pos = make(variant, stones=stones, hands={seat: hand}, heroes={seat: 1})
    assert moves_of(pos) == expected
    assert pos.why_illegal("pass") and pos.why_illegal("draw")
    pos.play(expected[0])
    assert pos.to_json()["heroes"][seat] == 0


# --- R16 last stone --------------------------------------------------------------------------

def _fifty_one(variant):
    """51 stones: everything except ranks 1–3 and d4, e4, f4; checkerboard colours:
    'R' where file+rank (0-based) is even — so e5 is R and e6 is W."""
    empty = {name(f, r) for f in range(9) for r in range(3)} | {"d4", "e4", "f4"}
    stones = {name(f, r): "RW"[(f + r) % 2] for f in range(9) for r in range(9)
              if name(f, r) not in empty}
    assert len(stones) == 51 and stones["e5"] == "R" and stones["e6"] == "W"
    seat = SEATS[variant][0]
    return make(variant, stones=stones, crown="e5", hands={seat: ["S1", "N1"]})


@pytest.mark.parametrize("variant", VARIANTS)
def test_r16_game_ends_after_the_52nd_stone(variant):
    """R16: the action that places the 52nd stone ends the game at once."""
    pos = _fifty_one(variant)
    assert pos.outcome() is None
    pos.play("S1")  # e5 -> e4, empty
    assert pos.supply == 0
    assert pos.outcome() == "last-stone" and pos.is_over()
    assert pos.legal_moves() == []
    assert "over" in pos.why_illegal("draw")
    assert pos.score().over and pos.score().reason == "last-stone"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r16_a_hero_flip_places_no_stone_and_does_not_end_the_game(variant):
    """R16: a hero flip places no stone, so 51 stones stay 51 and play goes on."""
    pos = _fifty_one(variant)
    pos.play("H+N1")  # e6 W -> R
    assert pos.supply == 1 and pos.outcome() is None and pos.legal_moves()


# --- R17 blockade -----------------------------------------------------------------------------

def test_r17_blockade_when_neither_player_can_act():
    """R17: both hold 5 cards and none can be used → the game ends."""
    red, white = ["S1", "S2", "S3", "W1", "W2"], ["W3", "SW1", "SW2", "SW3", "SE1"]
    assert all(target("a1", c) is None for c in red + white)
    pos = make(stones={"a1": "R"}, crown="a1", hands={"red": red, "white": white})
    assert pos.legal_moves() == []
    assert pos.outcome() == "blockade"
    assert pos.score().over and pos.score().reason == "blockade"
    assert "over" in pos.why_illegal("pass")


def test_r17_heroes_count_an_opponent_stone_with_a_hero_is_an_action():
    """R17: 'none can be used, heroes included' — with a hero Red must flip (R15); without any
    hero and White stuck too, it is a blockade."""
    red = ["N1", "S1", "E1", "W1", "N2"]  # -> e6 e4 f5 d5 e7: all white stones
    white = ["N3", "S3", "E3", "W3", "NE1"]  # -> e8 e2 h5 b5 f6: all White's own stones
    assert [target("e5", c) for c in red + white] == ["e6", "e4", "f5", "d5", "e7",
                                                      "e8", "e2", "h5", "b5", "f6"]
    stones = {"e5": "R", "e6": "W", "e4": "W", "f5": "W", "d5": "W", "e7": "W",
              "e8": "W", "e2": "W", "h5": "W", "b5": "W", "f6": "W"}
    blocked = make(stones=stones, hands={"red": red, "white": white}, heroes={"red": 0})
    assert blocked.legal_moves() == [] and blocked.outcome() == "blockade"
    hero = make(stones=stones, hands={"red": red, "white": white}, heroes={"red": 1, "white": 4})
    assert moves_of(hero) == sorted("H+" + c for c in red)
    # White has 4 heroes but every white target is its own stone: still stuck itself.
    white_turn = make(stones=stones, hands={"red": red, "white": white}, heroes={"red": 1},
                      to_move="white")
    assert moves_of(white_turn) == ["pass"]


def test_r17_r22_teams_blockade_when_no_player_can_act():
    """R17 with R22: in teams the game ends when none of the four can act."""
    offboard = ["S1", "S2", "S3", "W1", "W2", "W3", "SW1", "SW2", "SW3", "SE1", "SE2", "SE3"]
    assert all(target("a1", c) is None for c in offboard)
    hands = {s: offboard[3 * i:3 * i + 3] for i, s in enumerate(SEATS["teams"])}
    pos = make("teams", stones={"a1": "R"}, crown="a1", hands=hands)
    assert pos.legal_moves() == [] and pos.outcome() == "blockade"
    hands["white2"] = hands["white2"][:2]  # white2 can draw: not over; red1 is skipped
    pos = make("teams", stones={"a1": "R"}, crown="a1", hands=hands)
    assert pos.outcome() is None and moves_of(pos) == ["pass"]


# --- R18 regions ------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_r18_rules_example_8_2_1_scores_69(variant):
    """R18: white regions of 8, 2 and 1 stones score 64 + 4 + 1 = 69. The single stone on c4
    touches b3 only diagonally, so it stays its own region."""
    stones = {name(f, 0): "W" for f in range(8)}  # a1–h1
    stones.update({"a3": "W", "b3": "W", "c4": "W"})
    pos = make(variant, stones=stones)
    s = pos.score()
    assert (s.white.score, s.white.largest, s.white.stones) == (69, 8, 11)
    assert (s.red.score, s.red.largest, s.red.stones) == (0, 0, 0)
    regions = s.to_dict()["white"]["regions"]
    assert [sorted(r) for r in regions] == [sorted(name(f, 0) for f in range(8)), ["a3", "b3"], ["c4"]]
    assert s.winner == "white"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r18_edges_connect_diagonals_do_not(variant):
    """R18: a1–a2 share an edge (one region, 4 points); a1–b2 only a corner (two regions, 2)."""
    edge = make(variant, stones={"a1": "R", "a2": "R"}).score().red
    corner = make(variant, stones={"a1": "R", "b2": "R"}).score().red
    assert (edge.score, edge.largest, len(edge.regions)) == (4, 2, 1)
    assert (corner.score, corner.largest, len(corner.regions)) == (2, 1, 2)


@pytest.mark.parametrize("pair", [("i1", "a2"), ("a2", "i1"), ("i8", "a9"), ("a5", "i4")])
def test_r18_no_wrap_around_between_the_east_and_west_edges(pair):
    """R18: i1 and a2 are at opposite ends of the board (neighbours only in a flat index)."""
    s = make(stones={pair[0]: "W", pair[1]: "W"}).score().white
    assert s.score == 2 and len(s.regions) == 2


def test_r18_colours_do_not_mix():
    """R18: a region is same-coloured: R W R in a row is three regions."""
    s = make(stones={"c3": "R", "d3": "W", "e3": "R"}).score()
    assert s.red.score == 2 and s.white.score == 1


# --- R19 winner and tie-breaks ---------------------------------------------------------------

def row_stones(colour, *runs):
    """Horizontal runs of `colour`, one per odd rank (1, 3, 5 …), so runs never touch."""
    out = {}
    for i, n in enumerate(runs):
        for f in range(n):
            out[name(f, 2 * i)] = colour
    return out


def both(red_runs, white_runs):
    """Red runs on files a–… of ranks 1, 3, 5…; white runs on ranks 2, 4, 6… shifted right so
    that no red and white runs matter to each other's regions (colours never mix anyway)."""
    stones = row_stones("R", *red_runs)
    for i, n in enumerate(white_runs):
        for f in range(n):
            stones[name(8 - f, 2 * i + 1)] = "W"
    return stones


@pytest.mark.parametrize("variant", VARIANTS)
def test_r19_higher_score_wins(variant):
    """R19: 2² = 4 beats 1+1+1 = 3, though White has more stones."""
    s = make(variant, stones=both([2], [1, 1, 1])).score()
    assert (s.red.score, s.white.score) == (4, 3) and s.white.stones > s.red.stones
    assert s.winner == "red"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r19_tie_on_score_larger_single_region_wins(variant):
    """R19: 5² = 25 against 4² + 3² = 25; Red's largest region (5) beats 4 although White
    has more stones (7 against 5)."""
    s = make(variant, stones=both([5], [4, 3])).score()
    assert (s.red.score, s.white.score) == (25, 25)
    assert (s.red.largest, s.white.largest) == (5, 4)
    assert s.winner == "red"
    s = make(variant, stones=both([4, 3], [5])).score()
    assert s.winner == "white"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r19_tie_on_score_and_largest_more_stones_wins(variant):
    """R19: 3²+3² = 18 = 3²+2²+2²+1²; largest 3 each; White has 8 stones to Red's 6."""
    s = make(variant, stones=both([3, 3], [3, 2, 2, 1])).score()
    assert (s.red.score, s.white.score) == (18, 18)
    assert (s.red.largest, s.white.largest) == (3, 3)
    assert (s.red.stones, s.white.stones) == (6, 8)
    assert s.winner == "white"
    assert make(variant, stones=both([3, 2, 2, 1], [3, 3])).score().winner == "red"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r19_all_equal_is_a_draw(variant):
    """R19: equal score, largest region and stones → a draw (also on an empty board)."""
    s = make(variant, stones=both([2, 1], [2, 1])).score()
    assert (s.red.score, s.red.largest, s.red.stones) == (s.white.score, s.white.largest, s.white.stones) == (5, 2, 3)
    assert s.winner == "draw"
    assert make(variant).score().winner == "draw"


def test_r19_whole_board_is_scored_not_shortcuts():
    """R19: always score the full board — the winner and reason appear in the score dict."""
    stones = both([3, 3], [3, 2, 2, 1])
    d = make(stones=stones).score().to_dict()
    assert d["red"]["score"] == 18 and d["white"]["score"] == 18 and d["winner"] == "white"
    assert d["over"] is False and d["reason"] is None


# --- R20–R22 teams ----------------------------------------------------------------------------

def test_r20_teams_seats_and_colours():
    """R20: two teams; seats red1, white1, red2, white2; each seat plays its team's colour."""
    pos = Position.new("teams", seed=1)
    assert list(pos.to_json()["hands"]) == ["red1", "white1", "red2", "white2"]
    for seat in SEATS["teams"]:
        p = make("teams", to_move=seat, hands={seat: ["E1"]})
        p.play("E1")
        assert stone_at(p, "f5") == colour_of(seat)[0].upper()


def test_r21_teams_hand_limit_of_3_is_enforced_in_positions():
    """R21: at most 3 cards per hand and 0–2 heroes in teams."""
    with pytest.raises(PositionError, match=r"^hands\.white1: 4 cards, at most 3"):
        make("teams", hands={"white1": ["N1", "N2", "N3", "E1"]})
    with pytest.raises(PositionError, match=r"^heroes\.red2"):
        make("teams", heroes={"red2": 3})


def test_r22_seat_order_red1_white1_red2_white2():
    """R22: the order is Red 1, White 1, Red 2, White 2, Red 1 …, Red 1 starts."""
    pos = Position.new("teams", seed=6)
    order = []
    for _ in range(9):
        order.append(pos.seat)
        move = pos.legal_moves()[0]
        assert str(move) != "pass"
        pos.play(move)
    assert order == ["red1", "white1", "red2", "white2"] * 2 + ["red1"]


def test_r22_a_seat_without_action_is_skipped():
    """R22 (R14): white1 with no legal action passes, and red2 moves next."""
    # Crown a1; white1's cards all leave the board; the others can draw.
    pos = make("teams", stones={"a1": "R"}, crown="a1", to_move="white1",
               hands={"white1": ["S1", "W1", "SW1"], "red2": ["N1"]})
    assert moves_of(pos) == ["pass"]
    pos.play("pass")
    assert pos.seat == "red2"
    pos.play("N1")
    assert stone_at(pos, "a2") == "R" and pos.seat == "white2"


def test_r22_partners_score_together():
    """R22: stones score per colour: red1's e6 and red2's f6 form one red region of 2 (4 points)."""
    pos = make("teams", hands={"red1": ["N1"], "white1": ["E2"], "red2": ["W1"]})
    pos.play("N1")  # red1: e5 -> e6
    pos.play("E2")  # white1: e6 -> g6
    pos.play("W1")  # red2: g6 -> f6
    s = pos.score()
    assert [stone_at(pos, q) for q in ("e6", "f6", "g6")] == ["R", "R", "W"]
    assert (s.red.score, s.red.largest, s.red.stones) == (4, 2, 2)
    assert (s.white.score, s.white.stones) == (1, 1)
    assert s.winner == "red"
