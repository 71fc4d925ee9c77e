"""The visitors' language (issue 25): every text the table scrolls comes from one message catalogue in
English, German, Danish and Spanish, chosen by `[table] language`, and the 8 × 8 font has every letter
those languages need: a test renders every message in every language and finds no missing glyph."""
from string import Formatter
from unicodedata import decomposition

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.moves import MOVES
from engine.notation import CARD_NAMES, parse_card
from engine.position import Position
from firmware_py.cli import main
from firmware_py.table.faults import FAULT_MESSAGES
from firmware_py.table.game import Mode, Setup, Unplayable
from firmware_py.table.game_menu import ITEMS, MORE
from firmware_py.table.messages import CATALOGUE, DA, DE, EN, ES, LANGUAGE_NAMES, Language, say, seat_title
from firmware_py.table.reading import lasts, text
from firmware_py.table.scenes import caption, ending
from firmware_py.table.session import Screen
from firmware_py.table.settings import LEVELS, Settings, parse_settings
from firmware_py.table.state import table_state
from hardware.errors import ConfigError
from luma.core.legacy.font import CP437_FONT, proportional
from hardware.glyphs import LETTERS, REPLACEMENT, letter, missing, text_columns
from table_kit import Rig
from test_table_service import played


def fields(template):
    """The `{field}` names of a catalogue text."""
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def literal(template):
    """A catalogue text without its `{field}`s: what the catalogue itself puts on the displays."""
    return "".join(part for part, _, _, _ in Formatter().parse(template))


ALPHABET = sorted({ch for texts in CATALOGUE.values() for t in texts.values() for ch in literal(t)}
                  | set("0123456789") | {ch for name in CARD_NAMES for ch in name} | set("+x=²"))
"""Every character the table writes: the catalogue's, the numbers', and the notation's (`H+NE2`, `7²=49`)."""


# --- the catalogue ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_message_has_all_four_languages_with_the_same_fields(key):
    texts = CATALOGUE[key]
    assert set(texts) == set(Language)
    assert len({frozenset(fields(t)) for t in texts.values()}) == 1, texts
    assert all(literal(t).strip() and literal(t) == literal(t).upper() for t in texts.values()), texts   # capitals


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_message_in_every_language_renders_with_no_missing_glyph(key, language):
    template = CATALOGUE[key][language]
    filled = say(key, language, **{name: f"{say('white', language)} 12 H+NE2" for name in fields(template)})
    assert not missing(filled), (key, language, filled)
    assert REPLACEMENT not in filled and letter(REPLACEMENT) not in [letter(ch) for ch in filled]


def test_say_fills_in_the_fields_and_names_what_is_wrong():
    assert say("undo-ask", DE, count=2) == "2 ZURÜCKNEHMEN? ZURÜCK DRÜCKEN"
    assert say("drew", ES, seat=seat_title("white2", ES), card="S2") == "BLANCO 2 ROBÓ S2"
    assert say("last", "da", move="RØD NE3") == "SIDST: RØD NE3"
    with pytest.raises(KeyError, match="count"):
        say("undo-ask", DE)                     # a field left out
    with pytest.raises(KeyError, match="no-such-message"):
        say("no-such-message", EN)


def test_every_word_the_code_names_by_its_key_is_in_the_catalogue():
    """The keys made of a value (a mode, a level, a colour, a reason, a part) exist for every value."""
    keys = ([f"mode-{m}" for m in Mode] + [f"level-{lv}" for lv in LEVELS] + ["red", "white"]
            + [f"item-{i}" for i in (*ITEMS, MORE)] + [u.value for u in Unplayable] + list(FAULT_MESSAGES.values())
            + [f"end-{reason}" for reason in ("last-stone", "blockade")])   # R16, R17
    assert [k for k in keys if k not in CATALOGUE] == []


def test_the_games_own_names_are_its_rule_sheets():
    assert say("invite", DE).startswith("DER ROSENKÖNIG") and say("invite", DA).startswith("ROSENKONGEN")
    assert say("invite", ES).startswith("EL REY DE LAS ROSAS")
    assert (say("hero", DE), say("hero", DA), say("hero", ES)) == ("HELD", "HELT", "HÉROE")   # Heldenkarte, heltekort


# --- the font --------------------------------------------------------------------------------------------

def test_letters_are_looked_up_by_their_cp437_code_not_their_unicode_number():
    """`ord("Ä")` is 196, CP437's box-drawing '─': the font drew that, another wrong sign for every letter
    above 127, and '?' for anything above 255."""
    cp437 = proportional(CP437_FONT)
    for ch in "ÉÑÜÆæåñéáíóú¿¡":
        assert text_columns(ch) == cp437[ch.encode("cp437")[0]] != cp437[ord(ch)]
    for ch in "ÄÅÖØÁÍÓÚ":                               # drawn here
        assert text_columns(ch) not in (cp437[ord(ch)], cp437[ord("?")])


def test_every_character_of_the_catalogue_looks_different():
    pictures = {ch: letter(ch) for ch in ALPHABET}
    assert len(set(pictures.values())) == len(pictures)
    assert letter(REPLACEMENT) not in pictures.values()


@pytest.mark.parametrize("ch", sorted({ch for ch in [*ALPHABET, *LETTERS] if ch.isupper() and decomposition(ch)}))
def test_accented_capitals_fit_in_eight_rows_with_their_mark_above(ch):
    """Mark in row 0, a blank row, the letter in rows 2–6 (as CP437's own É, Ñ, Ü), row 7 free: the catalogue's
    and the drawn ones."""
    columns = letter(ch)[:-1]
    rows = [sum(1 for c in columns if c >> y & 1) for y in range(8)]
    assert rows[0] and not rows[1] and all(rows[2:7]) and not rows[7], rows
    assert len(columns) <= 7


def test_a_character_the_font_lacks_is_a_visible_box_not_another_letter():
    assert letter("Ж") == letter("€") == letter("\n") == letter(REPLACEMENT)
    assert missing("ROSENKÖNIG Ж\t") == {"Ж", "\t"}
    assert sum(bin(c).count("1") for c in letter(REPLACEMENT)) > 12      # a box, plainly not a blank


@given(st.text(alphabet=ALPHABET, max_size=40))
def test_any_text_of_the_catalogues_alphabet_renders_without_the_replacement(message):
    columns = text_columns(message)
    assert not missing(message)
    assert columns == [c for ch in message for c in letter(ch)] and all(0 <= c < 256 for c in columns)
    assert len(columns) == sum(len(letter(ch)) for ch in message)


# --- the configuration ---------------------------------------------------------------------------------------

def test_table_language_chooses_the_language_and_refuses_one_it_does_not_speak(tmp_path, capsys):
    assert parse_settings({}).language is EN
    assert parse_settings({"language": "da"}).language is DA
    with pytest.raises(ConfigError, match=r'roseking.toml: table.language: must be one of "en", "de", "da", "es" '
                                          r'\(got "fr"\)'):
        parse_settings({"language": "fr"}, "roseking.toml")
    config = tmp_path / "roseking.toml"
    config.write_text('[table]\nlanguage = "es"\n')
    assert main(["config", "check", str(config)]) == 0
    assert f"texts in {LANGUAGE_NAMES[ES]} (es)" in capsys.readouterr().out
    config.write_text('[table]\nlanguage = "DE"\n')
    assert main(["config", "check", str(config)]) == 2
    assert "table.language: must be one of" in capsys.readouterr().err


# --- the table speaks it ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("language", list(Language))
def test_the_new_game_menu_speaks_the_tables_language(tmp_path, language):
    rig = Rig(tmp_path, Settings(language=language))
    try:
        rig.session.open_menu(rig.time.now)
        rig.wait(0.1)
        speed = rig.session.settings.scroll_speed
        title = say("menu-mode", language, mode=say("mode-humans", language))
        assert rig.session.menu.labels(language)[0] == title
        assert rig.frame.bitmap("red.card1") == text(title, rig.session.menu.since, rig.time.now, 1, speed)[0]
        assert rig.frame.bitmap("white.card5") == text(say("menu-start", language), rig.session.menu.since,
                                                       rig.time.now, 1, speed)[0]
    finally:
        rig.close()


def test_a_german_table_refuses_in_german_for_its_whole_reading_window(tmp_path):
    """R10: a card that would take the crown off the board is refused, its reason shown from its first letter
    until it has been read whole: "ÜBER DEN RAND" on one display is longer than "OFF BOARD"."""
    rig = Rig(tmp_path, Settings(language=DE))
    try:
        rig.start(Setup("humans", seed=7))
        rig.play(MOVES[parse_card("NE3")])
        rig.tap("white.card2")                               # NW3 from h8 leaves the board
        note = rig.game.note
        assert note.text == "ÜBER DEN RAND"
        window = lasts(note.text, 1, rig.session.settings.scroll_speed)
        assert window > lasts("OFF BOARD", 1, rig.session.settings.scroll_speed)
        rig.wait(note.since + window - 0.05 - rig.time.now)
        assert rig.frame.bitmap("white.card2") == text(note.text, note.since, rig.time.now, 1, 20.0)[0]
        rig.wait(0.2)
        assert rig.frame.bitmap("white.card2") != text(note.text, note.since, rig.time.now, 1, 20.0)[0]
    finally:
        rig.close()


@pytest.mark.parametrize("language", list(Language))
def test_the_end_says_why_the_scores_and_the_winner_in_the_tables_language(language):
    game = played(Setup("demo", "random", seed=3), 400)
    score = game.pos.score()
    red, white = say("red", language), say("white", language)
    winner = {"red": red, "white": white}.get(score.winner)
    assert ending(game, language).split("  ") == [
        say(f"end-{score.reason}", language),                                # R16, R17
        f"{red} {score.red.score}", f"{white} {score.white.score}",         # R18
        say("tie", language) if winner is None else say("wins", language, winner=winner)]     # R19
    assert ending(game, ES).endswith(("EMPATE", "GANA ROJO", "GANA BLANCO"))


def test_the_caption_is_english_and_the_pages_state_speaks_the_tables_language(tmp_path):
    """The caption (the terminal's, for the operator) is English prose; the state the web pages show speaks the
    table's language, as its displays do (issue 33)."""
    rig = Rig(tmp_path, Settings(language=DE))
    try:
        rig.start(Setup("humans", seed=7))
        rig.play(MOVES[parse_card("NE3")])
        rig.new_game_menu()
        assert rig.session.screen is Screen.MENU
        state = table_state(rig.session)
        assert state.to_dict(DE)["menu"][0] == rig.session.menu.labels(DE)[0] == "MODUS 2 SPIELER"
        assert caption(rig.session, rig.time.now) == "the new-game menu"
    finally:
        rig.close()


def test_a_seats_title_is_its_colour_and_its_number():
    assert [seat_title(s, DE) for s in Position.new("teams").variant.seats] == ["ROT 1", "WEISS 1", "ROT 2", "WEISS 2"]


# --- the web pages' words (issue 33) -----------------------------------------------------------------------

def test_every_word_of_the_pages_is_in_every_language_with_the_same_fields():
    from firmware_py.table.messages import PAGE_CATALOGUE
    for key, texts in PAGE_CATALOGUE.items():
        assert set(texts) == set(Language), key
        assert len({frozenset(fields(text)) for text in texts.values()}) == 1, key
        assert all(text.strip() == text and text for text in texts.values()), key


def test_every_word_the_pages_and_their_scripts_name_is_in_the_catalogue():
    """A `{{key}}` of a page, a `t("key")` of its scripts, and the keys the scripts make (`why-` of each refusal,
    `mode-` of each mode, …) are all the catalogue's: no page shows a word the catalogue does not have."""
    import re
    from pathlib import Path
    from firmware_py.table.messages import PAGE_CATALOGUE
    from firmware_py.web.language import PLACE
    static = Path(__file__).resolve().parent.parent / "firmware_py" / "web" / "static"
    named = {key for page in static.glob("*.html") for key in PLACE.findall(page.read_text())} - {"lang", "words"}
    for script in static.glob("*.js"):
        code = script.read_text()
        named |= set(re.findall(r'\bt\("([a-z0-9-]+)"', code))
        for pair in re.findall(r'\bt\([^()"]*\?\s*"([a-z0-9-]+)"\s*:\s*"([a-z0-9-]+)"', code):     # t(one ? "a" : "b")
            named |= set(pair)
    made = {f"why-{key}" for key in ("wait", "empty", "off-board", "own-stone", "no-hero", "card-first", "hand-full")}
    made |= {f"mode-{mode}" for mode in Mode} | {f"colour-{c}" for c in ("red", "white")}
    made |= {f"item-{item}-does" for item in (*ITEMS, MORE)} | {f"language-{lang}" for lang in Language}
    made |= {f"reason-{r}" for r in ("last-stone", "blockade", "unfinished")} | {f"stone-{c}" for c in ("red", "white")}
    made |= {f"member-{r}" for r in ("won", "draw", "lost")} | {f"menu-card-{k}" for k in ("1", "2", "3", "start")}
    made |= {f"screen-{screen}" for screen in (*Screen, "starting")}
    assert named | made <= set(PAGE_CATALOGUE)
    assert set(PAGE_CATALOGUE) <= named | made          # and none is left over
    assert {key.removeprefix("why-") for key in made if key.startswith("why-")} <= set(CATALOGUE)   # refusals


def test_the_how_to_calls_each_button_by_the_name_it_has():
    """The displays' how-to and the pages name DRAW, HERO and MENU as the table's buttons do, in every language
    (the German how-to said NACHZIEHEN beside a KARTE ZIEHEN button); the pages take the word from the catalogue
    (`{@draw}`), so the two cannot part again."""
    from firmware_py.web.language import page_text
    for language in Language:
        assert say("howto-draw", language).startswith(say("draw", language) + ":")
        assert say("howto-hero", language).startswith(say("hero", language) + ":")
        assert page_text("howto-draw", language).startswith(say("draw", language) + " ")
        assert say("draw", language) in page_text("why-empty", language)
        assert page_text("howto-menu", language).startswith(say("menu", language) + " ")
        assert say("hero-ask", language) in page_text("said-hero", language)


def test_every_page_in_every_language_gives_each_id_once():
    """An id names one element of a page (the page's words were in a `<script id="words">` beside a `<section
    id="words">`: invalid HTML, and `getElementById` took whichever came first)."""
    from collections import Counter
    from html.parser import HTMLParser
    from firmware_py.web import language
    from firmware_py.web.server import PAGES, STATIC

    class Ids(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids = Counter()

        def handle_starttag(self, tag, attrs):
            self.ids.update(value for name, value in attrs if name == "id")
    for name in PAGES.values():
        for lang in Language:
            ids = Ids()
            ids.feed(language.page(STATIC / name, lang).decode())
            assert ids.ids and max(ids.ids.values()) == 1, (name, lang, ids.ids.most_common(1))
