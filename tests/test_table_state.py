"""The table's state in words (issue 33): what a press did and where each card goes, said beside the picture
as the displays say it, so that a page can say it in words, preview a card from a square, and draw the board in
words; a refusal is said while the displays show it, and no longer; its words are said in the language a page
asks for, whatever the table's."""
from engine.moves import MOVES, PASS
from engine.position import Position
from firmware_py.table.game import PASS_SECONDS, Mode, Setup
from firmware_py.table.messages import DE, ES, Phrase, say
from firmware_py.table.settings import Settings
from firmware_py.table.state import LastMove, Preview, Reach, Said, table_state
from table_kit import Rig, game_from
from test_table_play import position


def state(rig):
    return table_state(rig.session, rig.time.now)


def test_each_card_of_the_seat_to_move_says_where_it_takes_the_crown(tmp_path):
    rig = Rig(tmp_path)
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        s = state(rig)
        assert s.crown == "e5" and s.reach[:2] == (Reach(1, "NE3", "play", "h8"), Reach(2, "W1", "play", "d5"))  # R10
        rig.tap("red.card1")
        s = state(rig)
        assert s.preview == Preview("red", 1, "NE3", "play", "h8") and s.said is None
        rig.tap("red.card1")
        s = state(rig)
        assert s.history == (("red", "NE3"),) and s.last == LastMove("red", "NE3", "e5", "h8")
        assert s.red_stones == ("h8",) and s.crown == "h8" and s.preview is None and s.to_move == "white"
    finally:
        rig.close()


def test_a_refusal_is_said_with_its_key_while_the_displays_show_it(tmp_path):
    rig = Rig(tmp_path, Settings(language=DE))
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        rig.tap("white.card1")                                  # not White's turn (R8)
        s = state(rig)
        assert s.said == Said(Phrase("wait"), "white")
        assert s.to_dict(DE)["said"] == {"key": "wait", "text": say("wait", DE), "seat": "white", "by": None}
        rig.wait(10.0)                                          # the displays have said it
        assert state(rig).said is None
        assert table_state(rig.session).said is not None         # without the time: whatever was said last
    finally:
        rig.close()


def test_a_card_onto_the_other_colours_stone_reaches_it_with_a_hero(tmp_path):
    """R12: a card that lands on White's stone is Red's hero move; the preview asks HERO?."""
    pos = Position.new(seed=7)
    pos.board[70] = 2                                          # a white stone on h8, where NE3 goes
    rig = Rig(tmp_path)
    try:
        rig.resume(game_from(pos.to_json(), Setup(Mode.HUMANS, seed=7), seed=7))
        assert state(rig).reach[0] == Reach(1, "NE3", "hero", "h8")
        rig.tap("red.card1")
        s = state(rig)
        assert s.preview == Preview("red", 1, "H+NE3", "hero", "h8") and s.said.key == "hero-ask"
        assert s.white_stones == ("h8",)
    finally:
        rig.close()


def test_nobody_is_offered_a_square_while_the_computer_is_to_move(tmp_path):
    rig = Rig(tmp_path)
    try:
        rig.start(Setup(Mode.VS_COMPUTER, "easy", "white", seed=7))
        assert state(rig).to_move == "red" and state(rig).reach == ()
    finally:
        rig.close()


def test_the_menus_cards_are_said_in_their_places(tmp_path):
    """Each card of the new-game menu says what it sets, in its place: the last one starts, after an empty card."""
    rig = Rig(tmp_path)
    try:
        rig.session.open_menu(rig.time.now)
        said = state(rig).to_dict("en")
        assert said["menu"] == ["MODE 2 PLAYERS", "NO COMPUTER", "RED PERSON", "", "START"]
        assert said["menu_keys"] == ["menu-mode", "menu-no-computer", "menu-red-person", "", "menu-start"]
    finally:
        rig.close()


def test_the_words_are_said_in_the_language_a_page_asks_for(tmp_path):
    """A German table's state said in Spanish for a page that asks for it: the last move, the game menu's cards
    (with their keys, whatever the language), what the displays say; the table itself goes on in German."""
    rig = Rig(tmp_path, Settings(language=DE))
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        rig.tap("red.card1")
        rig.tap("red.card1")                                    # NE3
        rig.tap("red.card2")                                    # not Red's turn: WAIT
        s = state(rig)
        assert s.to_dict(DE)["last_move"] == "ROT NE3" and s.to_dict(ES)["last_move"] == "ROJO NE3"
        assert s.to_dict(ES)["said"]["text"] == "ESPERA" and rig.game.note.text == "WARTEN"
        rig.tap("menu")
        options = state(rig).to_dict(ES)
        assert options["menu"][:2] == ["MARCADOR", "ÚLTIMA JUGADA"] and options["menu_keys"][:2] == ["item-score",
                                                                                                   "item-last"]
    finally:
        rig.close()


def test_a_pass_is_said_of_the_seat_that_passes_until_the_end_of_its_note(tmp_path):
    """R14: Red cannot move and passes; the note says so on every seat, and names Red (`by`) for as long as the
    displays show it, after the pass too, when White is to move."""
    start = position({"a1": "R"}, "a1", "red", (["S1", "S2", "S3", "W1", "W2"], ["N1", "E1", "NE1", "E2", "N2"]))
    rig = Rig(tmp_path)
    try:
        rig.resume(game_from(start, Setup(Mode.HUMANS)))
        assert rig.game.pos.legal_moves() == [MOVES[PASS]]
        rig.wait(0.1)
        s = state(rig)
        assert s.said == Said(Phrase.of("passes", seat=Phrase("red")), None, "red") and s.to_move == "red"
        rig.wait(PASS_SECONDS)
        s = state(rig)
        assert rig.game.pos.history() == ["pass"] and s.to_move == "white"
        assert s.said is not None and s.said.by == "red"                # still said, of Red
        assert s.to_dict("en")["said"]["text"] == "RED PASSES"
    finally:
        rig.close()
