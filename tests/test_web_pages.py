"""The pages as a stranger, a phone and a screen reader meet them (issue 33), in headless Chromium (Debian's,
through Selenium) at 1280 × 900 and 390 × 844: every page fits a phone and every control is a finger wide;
axe-core (vendored, tests/vendor/axe-core) finds no serious violation; the board is said in words; the crown
stands still when motion is not wanted; a square a card reaches previews and plays it, and a refusal is said in
words; each seat sees its side at the bottom; the moves are listed and looked back on without disturbing the
game; a missing game is said to be missing; the page says when it has lost the table and comes back by itself;
and it speaks the table's language. One Chromium serves the whole module, and one table the tests that only
look; in CI these tests run, never skip (`browser_kit`)."""
import json
import os
import signal
import time
from pathlib import Path

import pytest

from browser_kit import Table, chromium, game_record, need_browser, viewport
from engine.record import replay
from test_web_browser import until

TOKEN = "pages-test-token-0123456789"
SIZES = [(1280, 900), (390, 844)]
AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
PAGES = ["", "status", "club", "replay?game=2"]


@pytest.fixture(scope="module")
def driver():
    need_browser()
    with chromium(*SIZES[0]) as browser:
        yield browser


def config(tmp_path, language="en"):
    path = tmp_path / "web.toml"
    path.write_text(f'backend = "sim"\n[table]\nlanguage = "{language}"\n[web]\ntoken = "{TOKEN}"\n')
    return path


@pytest.fixture(scope="module")
def museum(tmp_path_factory):
    """A table resumed 40 moves into Ann's game against Bo, with three finished games in its archive, two of
    them between named members; nobody presses on it."""
    need_browser()
    work = tmp_path_factory.mktemp("museum")
    data = work / "data"
    data.mkdir()
    (data / "records.jsonl").write_text(game_record(100, {"red": "Ann", "white": "Bo"}) + game_record(101)
                                        + game_record(102, {"red": "Cy", "white": "Ann"}))
    (data / "current-game.json").write_text(game_record(7, {"red": "Ann", "white": "Bo"}, moves=40))
    table = Table(data, "--config", str(config(work)))
    yield table
    table.stop()


def open_page(driver, url, size):
    viewport(driver, *size)
    driver.get(url)
    until(lambda: driver.execute_script("return document.readyState") == "complete")
    if "replay" in url:
        until(lambda: driver.find_element("id", "replay-move").text or driver.find_element("id", "replay-missing").text)
    elif "status" in url:
        until(lambda: driver.find_elements("css selector", "#games tr"), what="the recent games")
    elif "club" in url:
        until(lambda: driver.find_elements("css selector", "#ladder tr"), what="the ladder")
    else:
        until(lambda: driver.find_element("id", "summary").text, what="the game in words")


def text(driver, id_):
    return driver.find_element("id", id_).text


def state(driver):
    return driver.execute_script("return fetch('/api/state').then(r => r.json()).then(s => s.state)")


# --- on a phone, for everyone ---------------------------------------------------------------------------------

SMALL = """
const out = [];
for (const el of document.querySelectorAll('button, a[href], input, select, summary, [role="button"]')) {
  if (!el.getClientRects().length || el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
  if (el.matches('.cell') || el.matches('p a')) continue;     // the board's squares; a link inside a sentence
  const r = el.getBoundingClientRect();
  if (r.width < 43.5 || r.height < 43.5) {
    const name = el.id || el.className || el.textContent;
    out.push(`${el.tagName} ${name}: ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
}
return out;"""


@pytest.mark.parametrize("size", SIZES, ids=["1280", "390"])
def test_every_page_fits_the_screen_and_every_control_is_a_finger_wide(driver, museum, size):
    """No page is wider than the screen (at 390 px the operator's page was 539 px, the ladder 566 px, the replay
    738 px), every button, link and field is at least 44 × 44 px, and the mirror's HERO and DRAW read at 16 px."""
    for page in PAGES:
        open_page(driver, museum.url + page, size)
        if page == "club":
            driver.find_element("css selector", "#ladder a").click()      # a member's games, open
        width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"/{page} is {width[0]} px wide at {size[0]}"
        assert driver.execute_script(SMALL) == [], f"/{page} at {size[0]}"
    open_page(driver, museum.url, size)
    for control in driver.find_elements("css selector", ".side button.control"):
        fits = driver.execute_script("const s = getComputedStyle(arguments[0]); return [parseFloat(s.fontSize), "
                                     "arguments[0].scrollWidth <= arguments[0].clientWidth]", control)
        assert fits[0] >= 16 and fits[1], control.text
    assert {c.text for c in driver.find_elements("css selector", ".side button.control")} == {"HERO", "DRAW"}


def axe(driver):
    """The serious and critical violations axe-core finds in the page as it is."""
    driver.execute_script(AXE)
    found = driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                        "axe.run(document).then((r) => done(r.violations), (e) => done(String(e)));")
    assert isinstance(found, list), found
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", SIZES, ids=["1280", "390"])
def test_axe_finds_no_serious_violation_on_any_page(driver, museum, size):
    for page in PAGES + ["replay?game=99"]:
        open_page(driver, museum.url + page, size)
        assert axe(driver) == [], f"/{page} at {size[0]}"


CONTRAST = """
const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const back = (el) => { for (let e = el; e; e = e.parentElement) { const s = getComputedStyle(e);
  if (s.backgroundImage.includes('gradient')) return s.backgroundImage.match(/rgba?\\([^)]*\\)/)[0];
  if (!/rgba\\(0, 0, 0, 0\\)|transparent/.test(s.backgroundColor)) return s.backgroundColor; }
  return 'rgb(11, 11, 13)'; };
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  if (!el.getClientRects().length) continue;
  const [a, b] = [lum(getComputedStyle(el).color), lum(back(el))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) out.push(`${el.className || el.tagName} ${el.textContent.slice(0, 20)}: ${ratio.toFixed(2)}`);
}
return out;"""
LABELS = ".board .rank, .board .file, .seat-title span, .muted, .facts dt, .keys, .caption, nav a, .connection, .said"


def test_every_label_reads_at_4_5_to_1_at_least(driver, museum):
    """The board's ranks and files were 2.77:1; the seats' titles stand on the table's gradient, whose lighter
    end is taken (axe-core cannot tell a gradient's colour, so the test computes the ratio itself)."""
    for page in ("", "status", "club"):
        open_page(driver, museum.url + page, SIZES[0])
        assert driver.execute_script(CONTRAST, LABELS) == [], f"/{page}"
    driver.execute_script("document.querySelector('.muted').style.color = '#555'")
    assert len(driver.execute_script(CONTRAST, LABELS)) == 1           # the check sees a dim label


def test_the_board_is_said_in_words_every_stone_and_the_crown_with_its_mark(driver, museum):
    open_page(driver, museum.url, SIZES[0])
    pos = replay(json.loads(game_record(7, {"red": "Ann", "white": "Bo"}, moves=40)))
    squares = {"abcdefghi"[sq % 9] + str(sq // 9 + 1): stone for sq, stone in enumerate(pos.board) if stone}
    crown = "abcdefghi"[pos.crown % 9] + str(pos.crown // 9 + 1)
    words = driver.execute_script("return [...document.querySelectorAll('#text-board td')].map(td => "
                                  "td.getAttribute('aria-label'))")
    said = dict(w.split(": ", 1) for w in words)
    assert len(said) == 81
    for square, what in said.items():
        stone = {1: "red stone", 2: "white stone"}.get(squares.get(square))
        assert what == ", ".join(filter(None, [stone, "the crown" if square == crown else None])) or what == "empty"
    label = driver.find_element("id", "board").get_attribute("aria-label")
    assert f"the crown on {crown}, on a {'red' if pos.board[pos.crown] == 1 else 'white'} stone" in label
    marked = driver.find_elements("css selector", ".cell.crown .crown-mark")         # seen without its colour
    assert len(marked) == 1 and marked[0].find_element("xpath", "..").get_attribute("data-square") == crown
    cards = driver.find_elements("css selector", 'button.display[data-button^="red.card"]')
    assert any("NE2" in c.get_attribute("aria-label") for c in cards)               # cards say their move


def test_with_less_motion_asked_for_the_crown_stands_still(driver, museum):
    """The crown blinks gold and its stone's colour on the table; a visitor who asked for less motion sees it
    steady, its mark on it (and the same page without the wish sees it blink)."""
    def colours():
        seen = set()
        for _ in range(14):
            seen.add(driver.execute_script("return document.querySelector('.cell.crown .led').dataset.colour"))
            time.sleep(0.1)
        return seen
    try:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion",
                                                                              "value": "reduce"}]})
        open_page(driver, museum.url, SIZES[0])
        assert len(colours()) == 1
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    open_page(driver, museum.url, SIZES[0])
    assert len(colours()) == 2


def test_the_moves_are_listed_and_looked_back_on_without_disturbing_the_game(driver, museum):
    open_page(driver, museum.url, SIZES[1])
    moves = driver.find_elements("css selector", "#moves li")
    assert len(moves) == 40 and moves[-1].get_attribute("aria-current") == "step"
    game = driver.execute_script("return fetch('/api/games/current').then(r => r.json())")
    moves[9].find_element("css selector", "button").click()
    until(lambda: driver.find_element("id", "review").is_displayed(), what="looking back")
    shown = driver.execute_script("return [...document.querySelectorAll('#board .led')].map(l => l.dataset.colour)")
    assert shown == game["plies"][10]["board"] and "Move 10 of 40" in text(driver, "review-text")
    driver.find_element("id", "back").click()
    until(lambda: "Move 9 of 40" in text(driver, "review-text"))
    assert state(driver)["moves"] == 40                   # the table's game is as it was
    driver.find_element("id", "live").click()
    assert not driver.find_element("id", "review").is_displayed()
    assert driver.find_element("id", "share").get_attribute("value") == museum.url
    assert driver.find_element("id", "download").get_attribute("href") == f"{museum.url}games/current.json"


def test_a_game_that_is_not_in_the_archive_is_said_to_be_missing(driver, museum):
    open_page(driver, f"{museum.url}replay?game=2", SIZES[1])
    assert "Replay of game 2" in text(driver, "replay-title")
    assert driver.find_element("id", "download").get_attribute("href").endswith("/games/2.json")
    driver.get(f"{museum.url}replay?game=99")
    until(lambda: text(driver, "replay-missing"))
    assert text(driver, "replay-missing") == "There is no game 99 in the table's archive."
    assert not driver.find_element("id", "replay").is_displayed()
    assert driver.find_elements("css selector", "#replay-board .led") == []     # nothing of another game
    driver.get(f"{museum.url}status#game=2")                                      # the replay's old address
    until(lambda: "replay?game=2" in driver.current_url)


# --- a stranger plays -----------------------------------------------------------------------------------------

@pytest.fixture
def fresh(tmp_path):
    """A new game between two people at the simulated table, on its own."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path)), "--mode", "humans", "--seed", "7")
    yield table
    table.stop()


def test_a_stranger_plays_by_clicking_squares_and_reads_why_a_press_is_refused(driver, fresh):
    open_page(driver, fresh.url, SIZES[1])
    assert "A card moves" not in text(driver, "howto") and "Press one of your cards" in text(driver, "howto")
    driver.find_element("css selector", 'button[data-button="white.card1"]').click()      # not White's turn
    until(lambda: text(driver, "said").startswith("White: WAIT."), what="the refusal in words")
    assert "it is Red's turn" in text(driver, "said")
    h8 = until(lambda: driver.find_elements("css selector", '.cell.reach[data-square="h8"]'), what="h8 offered")[0]
    assert "Red NE3" in h8.get_attribute("aria-label")
    h8.click()
    until(lambda: "Red chose NE3: the crown would go to h8" in text(driver, "said"), what="the preview in words")
    time.sleep(0.1)                    # as a person's: two clicks within a tap (50 ms) would be one press
    driver.find_element("css selector", '.cell[data-square="h8"]').click()
    until(lambda: state(driver)["history"] == [["red", "NE3"]], what="NE3 played")
    until(lambda: driver.find_elements("css selector", '.cell.last[data-square="h8"]'), what="the last move marked")
    assert driver.find_elements("css selector", '.cell.last-from[data-square="e5"]')


def test_each_seat_sees_its_own_side_at_the_bottom(driver, fresh):
    """?seat=white turns the picture: White's displays along the bottom, card 1 at the left as its keys go, the
    board upside down (a1 at the top right); Turn the board turns it back."""
    open_page(driver, f"{fresh.url}?seat=white", SIZES[0])

    def where(selector):
        return driver.execute_script("return arguments[0].getBoundingClientRect()",
                                     driver.find_element("css selector", selector))
    board = where("#board")
    first, last = where('[data-button="white.card1"]'), where('[data-button="white.card5"]')
    assert first["y"] > board["y"] + board["height"] and first["x"] < last["x"]
    assert where('[data-button="red.card1"]')["y"] < board["y"]
    a1, i9 = where('.cell[data-square="a1"]'), where('.cell[data-square="i9"]')
    assert a1["x"] > i9["x"] and a1["y"] < i9["y"]
    turned = driver.execute_script("return getComputedStyle(document.querySelector("
                                   "'[data-button=\"white.card1\"] canvas')).transform")
    assert turned.startswith("matrix(-1")                # its text upright for White: turned half round
    driver.find_element("id", "flip").click()
    assert "seat=red" in driver.current_url
    assert where('[data-button="red.card1"]')["y"] > where("#board")["y"]


# --- truthful: the page knows when it has lost the table ---------------------------------------------------------

def test_a_page_without_the_tables_beat_says_stale_and_comes_back_by_itself(driver, fresh):
    """The table's process stopped (a network gone quiet): within seconds the page says it has had no news, then
    gives the connection up and tries again by itself; the table back, the page is live again, no reload."""
    open_page(driver, fresh.url, SIZES[1])
    connection = driver.find_element("id", "connection")
    until(lambda: connection.get_attribute("data-state") == "live")
    os.kill(fresh.process.pid, signal.SIGSTOP)
    try:
        until(lambda: connection.get_attribute("data-state") == "stale", timeout=8, what="stale")
        assert connection.text.startswith("no news from the table for ")
        until(lambda: connection.get_attribute("data-state") in ("lost", "connecting"), timeout=8, what="a new try")
    finally:
        os.kill(fresh.process.pid, signal.SIGCONT)
    until(lambda: connection.get_attribute("data-state") == "live", timeout=15, what="live again")
    driver.find_element("css selector", 'button[data-button="red.card1"]').click()     # and it plays
    until(lambda: (state(driver)["preview"] or {}).get("move") == "NE3", what="the press after the reconnection")


# --- the table's language -----------------------------------------------------------------------------------

def test_the_pages_speak_the_tables_language(driver, tmp_path):
    table = Table(tmp_path / "data", "--config", str(config(tmp_path, "de")), "--mode", "humans", "--seed", "7")
    try:
        open_page(driver, table.url, SIZES[1])
        assert driver.find_element("css selector", "h1").text == "Der Rosenkönig"
        assert driver.find_element("css selector", "html").get_attribute("lang") == "de"
        assert text(driver, "summary").startswith("Rot ist am Zug")
        controls = driver.find_elements("css selector", ".side button.control")
        assert {c.text for c in controls} == {"HELD", "KARTE ZIEHEN"}
        assert "So wird gespielt" in text(driver, "howto")
        select = driver.find_element("id", "language")
        driver.execute_script("arguments[0].value = 'es'; arguments[0].dispatchEvent(new Event('change'))", select)
        until(lambda: "lang=es" in driver.current_url)
        until(lambda: text(driver, "summary").startswith("Juega Rojo"))
        assert driver.find_element("link text", "Clasificación").get_attribute("href").endswith("/club?lang=es")
    finally:
        table.stop()
