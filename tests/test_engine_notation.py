"""NOTATION.md: squares, cards, moves, positions (JSON) and game records (JSON Lines) —
round trips, case-insensitivity, and refusals that name the field and the fault."""
import copy
import json
import re

import pytest

from engine.errors import NotationError, PositionError, RecordError, RoseKingError
from engine.jsonio import brief, label
from engine.moves import Move
from engine.notation import parse_card, parse_square, square_name, card_name
from engine.position import Position
from engine.record import dumps, make_record, read_records, replay, result

from engine_testkit import ALL_CARDS, FILES, make, position_json

# --- squares ----------------------------------------------------------------------------------


def test_square_names_round_trip_and_corners():
    """NOTATION: a1 south-west, i9 north-east, e5 the centre; name → index → name."""
    names = [f + str(r) for r in range(1, 10) for f in FILES]
    assert sorted(parse_square(n) for n in names) == list(range(81))
    for n in names:
        assert square_name(parse_square(n)) == n
        assert parse_square(n.upper()) == parse_square(n)
    # where each square lies on the board is checked through JSON rows in test_engine_rules (R1)


@pytest.mark.parametrize("bad", ["", "e", "5", "j1", "a0", "a10", "e55", "5e", " e5", "e5 ", "ee",
                                 "a-1", None, 5, ["e5"]])
def test_malformed_squares_raise_notation_error(bad):
    with pytest.raises(NotationError):
        parse_square(bad)


# --- cards ----------------------------------------------------------------------------------


def test_card_names_round_trip_case_insensitively():
    """R3/NOTATION: direction then distance; parsing ignores case, writing uses capitals."""
    assert sorted(parse_card(c) for c in ALL_CARDS) == list(range(24))
    for c in ALL_CARDS:
        assert card_name(parse_card(c)) == c
        assert parse_card(c.lower()) == parse_card(c) == parse_card(c.title())
    assert card_name(parse_card("sw3")) == "SW3" and card_name(parse_card("nE2")) == "NE2"


@pytest.mark.parametrize("bad", ["", "N", "N0", "N4", "N10", "X1", "NNE1", "1N", "EN1", "N 1", "N-1",
                                 "H+N1", "draw", None, 1, ["N1"]])
def test_malformed_cards_raise_notation_error(bad):
    with pytest.raises(NotationError):
        parse_card(bad)


# --- moves ----------------------------------------------------------------------------------


def test_every_move_round_trips():
    """NOTATION: `NE2`, `H+NE2`, `draw`, `pass` — str(parse(text)) == text for all 50 moves."""
    texts = ALL_CARDS + ["H+" + c for c in ALL_CARDS] + ["draw", "pass"]
    moves = [Move.parse(t) for t in texts]
    assert len(set(moves)) == 50
    assert [str(m) for m in moves] == texts
    for t, m in zip(texts, moves):
        assert Move.parse(str(m)) == m
        assert Move.parse(t.lower()) == m and Move.parse(t.upper()) == m


def test_move_properties():
    m = Move.parse("h+sw3")
    assert m.is_hero and not m.is_draw and not m.is_pass and card_name(m.card) == "SW3"
    assert str(m) == "H+SW3"
    assert Move.parse("NE2").card == parse_card("NE2") and not Move.parse("NE2").is_hero
    assert Move.parse("Draw").is_draw and Move.parse("PASS").is_pass
    assert Move.parse("draw").card is None


def test_record_draw_token_names_a_card():
    """NOTATION: in a record a draw may name its card, `draw:SW3` (any case); it is a draw."""
    assert Move.parse("draw:SW3") == Move.parse("DRAW:sw3") == Move.parse("draw")


@pytest.mark.parametrize("bad", ["", "H+", "H+N4", "h+draw", "hero", "N", "NE4", "draw3", "draw:",
                                 "draw:N4", "draw:xyz", "pass:N1", "H+H+N1", "N1 N2", "H-N1", None, 3])
def test_malformed_moves_raise_notation_error(bad):
    with pytest.raises(NotationError):
        Move.parse(bad)


def test_play_accepts_notation_and_refuses_bad_moves_with_notation_error():
    pos = Position.new(seed=1)
    with pytest.raises(NotationError):
        pos.play("N7")


# --- positions ------------------------------------------------------------------------------


def base():
    return position_json(stones={"e5": "R", "e6": "W"}, crown="e6", to_move="white",
                         hands={"red": ["N1", "SE3", "W2", "E1"], "white": ["S2", "NW1", "E3", "N3", "SW2"]},
                         discard=["E2"])


def test_the_notation_example_position_lists_e1_twice():
    """NOTATION: the example position, as printed, holds E1 in Red's hand and in the discard;
    with that fixed it loads and round-trips."""
    obj = {
        "format": "roseking-position/1", "variant": "classic",
        "board": [".........", ".........", ".........", ".........", "....R....",
                  ".........", ".........", ".........", "........."],
        "crown": "e5", "to_move": "white",
        "hands": {"red": ["N1", "SE3", "W2", "E1"], "white": ["S2", "NW1", "E3", "N3", "SW2"]},
        "heroes": {"red": 4, "white": 4},
        "discard": ["E1"],
    }
    # The example lists E1 both in Red's hand and in the discard: that is a duplicate card,
    # which the validity rules refuse — so the example, taken literally, is invalid.
    with pytest.raises(PositionError, match=r"^discard\[0\]: card E1 appears twice \(also at hands\.red\[3\]\)"):
        Position.from_json(obj)
    obj["discard"] = ["E2"]
    pos = Position.from_json(obj, seed=1)
    assert pos.to_json(pile=False) == {**obj, "discard": ["E2"]}
    assert len(pos.pile) == 24 - 9 - 1  # no draw_pile: every other card is in the pile


def test_position_without_draw_pile_puts_every_other_card_in_it():
    """NOTATION: draw_pile left out → all cards in no hand and not discarded, order from the seed."""
    obj = base()
    del obj["draw_pile"]
    a, b = Position.from_json(obj, seed=5), Position.from_json(obj, seed=5)
    assert a.to_json() == b.to_json()
    pile = a.to_json()["draw_pile"]
    assert sorted(pile) == sorted(set(ALL_CARDS) - {"N1", "SE3", "W2", "E1", "S2", "NW1", "E3", "N3", "SW2", "E2"})
    orders = {tuple(Position.from_json(obj, seed=s).to_json()["draw_pile"]) for s in range(6)}
    assert len(orders) > 1


def test_position_json_round_trip_is_exact():
    obj = base()
    assert Position.from_json(json.loads(json.dumps(obj))).to_json() == obj


def test_board_characters_are_case_insensitive_on_input():
    obj = base()
    obj["board"][4] = "....r...."
    assert Position.from_json(obj).to_json()["board"][4] == "....R...."


def _set(path, value):
    """A mutation of base() setting obj[path...] = value (or deleting it when value is DELETE)."""
    def mutate(obj):
        *head, last = path
        for k in head:
            obj = obj[k]
        if value is DELETE:
            del obj[last]
        else:
            obj[last] = value
    return mutate


DELETE = object()
INVALID = [
    ("unknown card", _set(("hands", "red", 2), "N4"), r"^hands\.red\[2\]: unknown card 'N4'$"),
    ("card not text", _set(("hands", "white", 0), 7), r"^hands\.white\[0\]: unknown card 7$"),
    ("duplicate in hands", _set(("hands", "white", 1), "N1"),
     r"^hands\.white\[1\]: card N1 appears twice \(also at hands\.red\[0\]\)$"),
    ("duplicate in pile", _set(("draw_pile", 0), "E2"),
     r"^draw_pile\[0\]: card E2 appears twice \(also at discard\[0\]\)$"),
    ("too many cards", _set(("hands", "red"), ["N1", "SE3", "W2", "E1", "S1", "S3"]),
     r"^hands\.red: 6 cards, at most 5$"),
    ("hand not a list", _set(("hands", "red"), "N1"), r"^hands\.red: must be a list"),
    ("heroes 5", _set(("heroes", "white"), 5), r"^heroes\.white: .*0–4.*5"),
    ("heroes -1", _set(("heroes", "red"), -1), r"^heroes\.red: .*-1"),
    ("heroes text", _set(("heroes", "red"), "4"), r"^heroes\.red: "),
    ("heroes bool", _set(("heroes", "red"), True), r"^heroes\.red: "),
    ("heroes float", _set(("heroes", "red"), 2.5), r"^heroes\.red: "),
    ("53 stones", _set(("board",), ["RRRRRRRRR"] * 5 + ["WWWWWWWW."] + ["........."] * 3),
     r"^board: 53 stones, at most 52"),
    ("short row", _set(("board", 3), "........"), r"^board\[3\]: must be a string of 9 characters"),
    ("long row", _set(("board", 0), ".........."), r"^board\[0\]: "),
    ("row not text", _set(("board", 8), None), r"^board\[8\]: "),
    ("bad stone", _set(("board", 2), "...X....."), r"^board\[2\]\[3\]: unknown stone 'X'"),
    ("8 rows", _set(("board",), ["........."] * 8), r"^board: must be a list of 9 strings"),
    ("board text", _set(("board",), "........."), r"^board: "),
    ("unknown seat to move", _set(("to_move",), "blue"), r"^to_move: unknown seat 'blue'"),
    ("teams seat in classic", _set(("to_move",), "red1"), r"^to_move: unknown seat 'red1'"),
    ("unknown seat in hands", _set(("hands", "green"), []), r"^hands\.green: unknown seat"),
    ("unknown seat in heroes", _set(("heroes", "red2"), 1), r"^heroes\.red2: unknown seat"),
    ("missing hand", _set(("hands", "white"), DELETE), r"^hands\.white: missing"),
    ("missing heroes seat", _set(("heroes", "red"), DELETE), r"^heroes\.red: missing"),
    ("missing board", _set(("board",), DELETE), r"^board: missing"),
    ("missing crown", _set(("crown",), DELETE), r"^crown: missing"),
    ("missing to_move", _set(("to_move",), DELETE), r"^to_move: missing"),
    ("missing hands", _set(("hands",), DELETE), r"^hands: missing"),
    ("missing heroes", _set(("heroes",), DELETE), r"^heroes: missing"),
    ("hands not an object", _set(("hands",), []), r"^hands: must be an object"),
    ("bad crown", _set(("crown",), "j5"), r"^crown: .*'j5'"),
    ("crown not text", _set(("crown",), 40), r"^crown: "),
    ("wrong format", _set(("format",), "roseking-position/2"), r"^format: "),
    ("missing format", _set(("format",), DELETE), r"^format: "),
    ("unknown variant", _set(("variant",), "solo"), r"^variant: unknown variant 'solo'"),
    ("variant not text", _set(("variant",), ["classic"]), r"^variant: "),
    ("unknown field", _set(("colour",), "red"), r"^colour: unknown field"),
    ("pile incomplete", _set(("draw_pile",), ["N2"]), r"^draw_pile: cards in no pile or hand: "),
    ("pile not a list", _set(("draw_pile",), "N2"), r"^draw_pile: must be a list"),
    ("discard not a list", _set(("discard",), None), r"^discard: must be a list"),
    ("bad discard card", _set(("discard", 0), "Q1"), r"^discard\[0\]: unknown card 'Q1'"),
]


@pytest.mark.parametrize("label,mutate,message", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_positions_are_refused_naming_the_field(label, mutate, message):
    """NOTATION validity rules: each fault is refused with `field: fault`."""
    obj = base()
    Position.from_json(copy.deepcopy(obj))  # the base itself is valid
    mutate(obj)
    with pytest.raises(PositionError, match=message):
        Position.from_json(obj)


@pytest.mark.parametrize("obj", [None, [], "position", 3])
def test_a_position_must_be_an_object(obj):
    with pytest.raises(PositionError, match="JSON object"):
        Position.from_json(obj)


def test_teams_limits_and_seats():
    """NOTATION/R21: teams hands hold at most 3 cards, heroes are 0–2, seats red1…white2."""
    with pytest.raises(PositionError, match=r"^hands\.red2: 4 cards, at most 3$"):
        make("teams", hands={"red2": ["N1", "N2", "N3", "E1"]})
    with pytest.raises(PositionError, match=r"^heroes\.white2: .*0–2"):
        make("teams", heroes={"white2": 3})
    obj = position_json("teams")
    obj["hands"]["red"] = []
    with pytest.raises(PositionError, match=r"^hands\.red: unknown seat"):
        Position.from_json(obj)
    obj = position_json("teams")
    obj["to_move"] = "white"
    with pytest.raises(PositionError, match=r"^to_move: unknown seat 'white'"):
        Position.from_json(obj)
    assert make("teams", heroes={"red1": 0, "white2": 2}).to_json()["heroes"]["white2"] == 2


# --- records --------------------------------------------------------------------------------


def played(seed=3, n=30, variant="classic"):
    start = Position.new(variant, seed)
    pos = start.copy()
    for _ in range(n):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.play(moves[-1])  # draws come last: records with draws
    return start, pos


def test_record_round_trip_and_draws_name_their_card():
    """NOTATION: one JSON line per game; draws written `draw:CARD`; replay reproduces it."""
    start, pos = played()
    rec = make_record(start, pos, {"red": "a", "white": "b"}, seed=3)
    line = dumps(rec)
    assert "\n" not in line
    rec = json.loads(line)
    assert rec["format"] == "roseking-game/1" and rec["variant"] == "classic" and rec["seed"] == 3
    assert rec["players"] == {"red": "a", "white": "b"}
    assert "draw_pile" in rec["start"]
    draws = [m for m in rec["moves"] if m.startswith("draw")]
    assert draws and all(len(m.split(":")) == 2 and m.split(":")[1] in ALL_CARDS for m in draws)
    assert rec["result"] == {"scores": {"red": pos.score().red.score, "white": pos.score().white.score},
                             "winner": None, "reason": "unfinished"}
    assert replay(rec).to_json() == pos.to_json()


def _record():
    start, pos = played(n=12)
    return make_record(start, pos, {"red": "a", "white": "b"})


def test_record_with_an_illegal_move_names_the_move_number_and_reason():
    rec = _record()
    rec["moves"][4] = "pass"  # never legal while the player has an action (R14)
    del rec["result"]
    with pytest.raises(RecordError, match=r"^game 9, move 5 \(pass\): .*may not pass \(R14\)"):
        replay(rec, where="game 9")


def test_record_with_a_card_the_player_does_not_hold():
    rec = _record()
    start = Position.from_json(rec["start"])
    other = start.to_json()["hands"]["white"][0]  # Red cannot play White's card
    rec["moves"] = [other]
    del rec["result"]
    with pytest.raises(RecordError, match=rf"^record, move 1 \({other}\): red does not hold {other}"):
        replay(rec)


def test_record_draw_of_a_card_not_in_the_pile():
    """R11: a draw takes the top card of the pile; naming a held card or another card is refused."""
    obj = position_json(hands={"red": ["N1"], "white": ["E1"]})
    rec = {"format": "roseking-game/1", "variant": "classic", "start": obj, "moves": ["draw:E1"]}
    with pytest.raises(RecordError, match=r"^record, move 1 \(draw:E1\): E1 is not in the draw pile"):
        replay(rec)
    rec["moves"] = ["draw:N2", "draw:S2"]
    with pytest.raises(RecordError, match=r"^record, move 2 \(draw:S2\): S2 is not the top card .*N3 is"):
        replay(rec)
    rec["moves"] = ["draw:N2", "draw:N3"]
    pos = replay(rec)
    assert pos.to_json()["hands"] == {"red": ["N1", "N2"], "white": ["E1", "N3"]}


def test_record_draw_after_a_reshuffle_may_name_any_discarded_card():
    """R11: once the empty pile is the reshuffled discard pile, its order is unknown to a record."""
    obj = position_json(hands={"red": ["N1"], "white": ["E1"]}, draw_pile=[],
                        discard=[c for c in ALL_CARDS if c not in ("N1", "E1")])
    rec = {"format": "roseking-game/1", "variant": "classic", "start": obj, "moves": ["draw:S2", "draw:N3"]}
    pos = replay(rec)
    assert pos.to_json()["hands"] == {"red": ["N1", "S2"], "white": ["E1", "N3"]}
    assert pos.discard == []


@pytest.mark.parametrize("token", ["H+N4", "fly", 7, "draw:Z9"])
def test_record_with_a_malformed_move(token):
    rec = _record()
    rec["moves"][2] = token
    del rec["result"]
    with pytest.raises(RecordError, match=r"^record, move 3 "):
        replay(rec)


def test_record_with_a_wrong_result_is_refused():
    rec = _record()
    rec["result"]["scores"]["red"] += 1
    with pytest.raises(RecordError, match=r"^record: result: recorded"):
        replay(rec)


@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(format="roseking-game/9"), r"^record: format: "),
    (lambda r: r["start"].pop("draw_pile"), r"^record: start: must be a position with its full draw_pile"),
    (lambda r: r.update(start=None), r"^record: start: "),
    (lambda r: r["start"]["hands"]["red"].__setitem__(0, "N9"), r"^record: start\.hands\.red\[0\]: unknown card 'N9'"),
    (lambda r: r.update(variant="teams"), r"^record: variant: 'teams' but start is 'classic'"),
    (lambda r: r.update(moves="N1 N2"), r"^record: moves: must be a list"),
    (lambda r: r.update(reshuffle="sometimes"), r"^record: reshuffle: 'sometimes' is not one of lazy, eager"),
    (lambda r: r.update(reshuffle=["eager"]), r"^record: reshuffle: "),
])
def test_malformed_records_name_the_field(change, message):
    rec = _record()
    change(rec)
    with pytest.raises(RecordError, match=message):
        replay(rec)


def test_read_records_names_line_of_bad_json():
    good = dumps(_record())
    with pytest.raises(RoseKingError, match=r"^games\.jsonl:3: not JSON"):
        list(read_records(enumerate([good, "", "{not json"], 1), "games.jsonl"))
    assert [n for n, _ in read_records(enumerate([good, "", good], 1))] == [1, 3]


@pytest.mark.parametrize("line, fault", [
    ("[" * 1000 + "]" * 1000, "nested more than 32 deep"),
    ('{"seed": ' + "9" * 5000 + "}", "an integer of more than 40 digits"),
    ('{"seed": NaN}', "NaN is not a JSON number"),
])
def test_records_beyond_the_input_limits_are_refused_by_line(line, fault):
    with pytest.raises(RoseKingError, match=rf"^games\.jsonl:1: not JSON: {fault}"):
        list(read_records([(1, line)], "games.jsonl"))


def test_a_record_with_an_unknown_field_is_refused_like_a_position():
    rec = _record()
    rec["comment"] = "nice game"
    with pytest.raises(RecordError, match=r"^record: 'comment': unknown field"):
        replay(rec)


# --- fuzzing: bad input is refused with the engine's own errors, never a crash ------------------

from hypothesis import assume, given, settings, strategies as st  # noqa: E402

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(ALL_CARDS + ["red", "white", "red1", "e5", ".........", "RRRRRRRRR", "classic", "teams"]),
    lambda inner: st.lists(inner, max_size=10) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["format", "variant", "board", "crown", "to_move", "hands", "heroes", "draw_pile",
                        "discard", "extra"]), json_values, st.sampled_from(["classic", "teams"]))
def test_any_field_value_is_accepted_or_refused_with_position_error(field, value, variant):
    obj = position_json(variant, hands={"red": ["N1"]} if variant == "classic" else {"red1": ["N1"]})
    obj[field] = value
    try:
        Position.from_json(obj)
    except PositionError as exc:
        named = re.match(r"^([a-z_]+)[.\[:]", str(exc))
        assert named, str(exc)
        # the changed field is named — or, for a card now listed twice, the draw pile where the
        # second copy is met; a changed variant changes which seats the other fields may name
        assert named.group(1) in {field, "draw_pile"} or field == "variant", str(exc)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=10) | st.sampled_from(["H+", "draw:", "h+ne", "pass", "draw:n1"]).flatmap(
    lambda p: st.text(max_size=4).map(lambda t: p + t)))
def test_any_move_text_parses_or_raises_notation_error(text):
    try:
        move = Move.parse(text)
    except NotationError as exc:
        assert brief(text) in str(exc)  # the error quotes what it could not read (cut short when long)
    else:
        assert Move.parse(str(move)) == move


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["format", "variant", "start", "moves", "result", "reshuffle", "seed"]), json_values)
def test_any_record_field_value_replays_or_raises_record_error(field, value):
    """A record with one field changed replays only if the change cannot matter; otherwise the
    RecordError names that field, or the move or result the change spoils."""
    original = _record()
    rec = copy.deepcopy(original)
    rec[field] = value
    try:
        pos = replay(rec)
    except RecordError as exc:
        spoils = {"moves": ("moves", "result"), "reshuffle": ("reshuffle", "result"), "start": ("start",)}
        assert field != "seed", "the seed is not needed to replay a record"
        assert re.match(rf"^record(: ({'|'.join(spoils.get(field, (field,)))})[.:]|, move \d+ )", str(exc)), str(exc)
    else:
        must_equal = {"format": "roseking-game/1", "variant": "classic", "start": original["start"],
                      "result": original["result"], "moves": original["moves"]}
        if field in must_equal:
            assert value == must_equal[field]
        if field == "reshuffle":
            assert value in ("lazy", "eager")
        assert pos.history() == original["moves"] or field == "moves"
        assert result(pos) == original["result"] or field == "result"


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=300), st.sampled_from(["field", "hands", "heroes", "move"]))
def test_odd_names_and_moves_are_quoted_on_one_short_line(name, where):
    """An error names a field, seat or move as it is when it is short and printable, else quoted and cut:
    never a second line, never a message the size of the input."""
    obj, rec = position_json("classic"), _record()
    if where == "move":
        rec["moves"] = [name]
    elif where == "field":
        obj[name] = 1
    else:
        obj[where][name] = 1
    try:
        replay(rec) if where == "move" else Position.from_json(obj)
    except (PositionError, RecordError) as exc:
        message = str(exc)
    else:
        assume(False)  # a known seat given a valid number of heroes
    assert "\n" not in message and len(message) < 250, message
    assert label(name) in message, message
