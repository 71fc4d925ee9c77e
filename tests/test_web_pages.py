"""The pages as a stranger, a phone and a screen reader meet them (issue 33), in headless Chromium (Debian's,
through Selenium) at 1280 × 900 and 390 × 844: every page fits a phone and every control is a finger wide;
axe-core (vendored, tests/vendor/axe-core) finds no serious violation; the board is said in words; the crown
stands still when motion is not wanted; a square a card reaches previews and plays it, and a refusal is said in
words; each seat sees its side at the bottom; the moves are listed and looked back on without disturbing the
game; a missing game is said to be missing; the page says when it has lost the table and comes back by itself;
and it speaks the table's language. One Chromium serves the tests (one `-n` worker runs them all), and one
table the tests that only look; in CI these tests run, never skip (`browser_kit`)."""
import contextlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

from browser_kit import Table, for_a_test, game_record, need_browser, until, viewport
from engine.record import replay
from firmware_py.table.game import movers

TOKEN = "pages-test-token-0123456789"
SIZES = [(1280, 900), (390, 844)]
AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
PAGES = ["", "status", "club", "replay?game=2"]


@pytest.fixture
def driver(browser):
    """The browser with a viewport of 1280 × 900 (`open_page` sets the one it is given), a blank page after the
    test."""
    yield from for_a_test(browser, *SIZES[0])


def config(tmp_path, language="en", table="", web=""):
    """A simulated table's configuration in `language`, with the operator's token and the other `[table]` and
    `[web]` lines given."""
    path = tmp_path / "web.toml"
    path.write_text(f'backend = "sim"\n[table]\nlanguage = "{language}"\n{table}\n[web]\ntoken = "{TOKEN}"\n{web}\n')
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
        assert what == (", ".join(filter(None, [stone, "the crown" if square == crown else None])) or "empty")
    label = driver.find_element("id", "board").get_attribute("aria-label")
    assert f"the crown on {crown}, on a {'red' if pos.board[pos.crown] == 1 else 'white'} stone" in label
    marked = driver.find_elements("css selector", ".cell.crown .crown-mark")         # seen without its colour
    assert len(marked) == 1 and marked[0].find_element("xpath", "..").get_attribute("data-square") == crown
    cards = driver.find_elements("css selector", 'button.display[data-button^="red.card"]')
    assert any("NE2" in c.get_attribute("aria-label") for c in cards)               # cards say their move
    for seat in state(driver)["seats"]:                 # each hand in words: its cards, its empty buttons counted
        held, empty = [c for c in seat["cards"] if c], seat["cards"].count("")
        hand = " ".join(held) or "—"
        words = f"Heroes {seat['heroes']} · cards {hand}" + (f" ({empty} empty)" if empty else "")
        section = driver.find_element("css selector", f'#seats section[aria-label="{seat["seat"].capitalize()}"] p')
        assert section.text == words


FRAMES = "return fetch('/api/status').then(r => r.json()).then(s => s.frames)"
WATCH_BOARD = """
window.boards = new Set();
const leds = [...document.querySelectorAll('#board .led')];
const note = () => window.boards.add(leds.map((led) => led.dataset.colour).join());
note();
new MutationObserver(note).observe(document.getElementById('board'),
                                   {attributes: true, subtree: true, attributeFilter: ['data-colour']});"""


def less_motion(driver, wanted):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion",
                                                                          "value": "reduce" if wanted else ""}]})


@pytest.fixture
def menu_table(tmp_path):
    """A simulated table whose game is left for the new-game menu (MENU, NEW GAME): its ring turns on the board,
    four steps a second."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path)), "--mode", "humans", "--seed", "7")
    yield table
    table.stop()


def test_with_less_motion_asked_for_nothing_on_the_board_moves(driver, museum, menu_table):
    """The crown blinks on the table, and the new-game menu's ring turns; a visitor who asked for less motion sees
    the board stand still while the table shows frame after frame (the crown in its stone's colour, its mark on
    it), and the same pages without the wish see it move."""
    try:
        open_page(driver, menu_table.url, SIZES[0])
        elsewhere(driver, "menu", "red.card5")
        until(lambda: state(driver)["screen"] == "menu", what="the new-game menu")
        for table in (museum, menu_table):
            less_motion(driver, True)
            open_page(driver, table.url, SIZES[0])
            driver.execute_script(WATCH_BOARD)
            start = driver.execute_script(FRAMES)
            until(lambda start=start: driver.execute_script(FRAMES) >= start + 3, what="three more frames")
            assert driver.execute_script("return window.boards.size") == 1, table.url
            less_motion(driver, False)
            open_page(driver, table.url, SIZES[0])
            driver.execute_script(WATCH_BOARD)
            until(lambda: driver.execute_script("return window.boards.size") > 1, what="the board moving")
        less_motion(driver, True)
        open_page(driver, museum.url, SIZES[0])
        crown = state(driver)["crown"]
        cell = driver.find_element("css selector", f'.cell[data-square="{crown}"]')
        assert cell.find_elements("css selector", ".crown-mark")
        pos = replay(json.loads(game_record(7, {"red": "Ann", "white": "Bo"}, moves=40)))
        colour = {1: "#ff0000", 2: "#aaaaaa"}.get(pos.board[pos.crown], "#ff9600")
        assert cell.find_element("css selector", ".led").get_attribute("data-colour") == colour
    finally:
        less_motion(driver, False)


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


def test_each_seat_sees_its_own_side_at_the_bottom(driver, museum):
    """?seat=white turns the picture: White's displays along the bottom, card 1 at the left as its keys go, the
    board upside down (a1 at the top right); Turn the board turns it back."""
    open_page(driver, f"{museum.url}?seat=white", SIZES[0])

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


def test_a_game_against_the_computer_is_seen_from_its_persons_seat(driver, tmp_path):
    """Without a seat in the address, the page turns to the one person's seat: White at the bottom."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path)), "--mode", "vs-computer", "--human", "white",
                  "--level", "easy", "--seed", "7")
    try:
        open_page(driver, table.url, SIZES[0])
        until(lambda: driver.find_element("id", "table").get_attribute("data-turns") == "2", what="turned to White")
        assert driver.find_element("css selector", "#south .seat-title").get_attribute("data-seat") == "white"
        assert "seat" not in driver.current_url
    finally:
        table.stop()


SIDE = """
const [names, done] = [arguments[0], arguments[arguments.length - 1]];
const sleep = (ms) => new Promise((wake) => setTimeout(wake, ms));
(async () => {
  if (!window.side) window.side = new WebSocket(`ws://${location.host}/ws`);
  while (window.side.readyState !== 1) await sleep(20);
  for (const name of names) {
    window.side.send(JSON.stringify({ type: "button", name, down: true }));
    await sleep(80);
    window.side.send(JSON.stringify({ type: "button", name, down: false }));
    await sleep(120);
  }
  done(true);
})();"""


def elsewhere(driver, *names):
    """Press `names` one after the other as another page would (its own WebSocket): the page itself is left be."""
    driver.execute_async_script(SIDE, list(names))


def play_a_card(driver, avoid=None):
    """The seat to move plays the first card that reaches an empty square (not `avoid`), from another page; the
    card played."""
    before = state(driver)
    reach = next(r for r in before["reach"] if r["kind"] == "play" and r["card"] != avoid)
    elsewhere(driver, *[f"{before['to_move']}.card{reach['slot']}"] * 2)
    until(lambda: state(driver)["moves"] == before["moves"] + 1, what="the move made")
    return reach["card"]


def test_looking_back_follows_takebacks_and_a_turned_board(tmp_path, driver):
    """Looking back on move 1 while the game goes on elsewhere: the board turned keeps the position looked back on
    (and its words); two moves taken back and two others made, the list says the new moves and a step shows the new
    position, never the one taken back."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path, table="takeback_agree = false")), "--mode",
                  "humans", "--seed", "7")
    try:
        open_page(driver, table.url, SIZES[0])
        white = [play_a_card(driver), play_a_card(driver), play_a_card(driver)][1]
        until(lambda: len(driver.find_elements("css selector", "#moves li")) == 3, what="three moves listed")
        driver.find_element("css selector", '#moves button[data-ply="1"]').click()
        until(lambda: driver.find_element("id", "review").is_displayed(), what="looking back")
        game = driver.execute_script("return fetch('/api/games/current').then(r => r.json())")

        def shown():
            return driver.execute_script("return [...document.querySelectorAll('#board .led')]"
                                         ".map((led) => led.dataset.colour)")
        assert shown() == game["plies"][1]["board"]
        assert "the crown on h8" in driver.find_element("id", "board").get_attribute("aria-label")   # NE3's h8
        driver.find_element("id", "flip").click()                       # the board made anew
        assert shown() == game["plies"][1]["board"] and driver.find_element("id", "review").is_displayed()
        for _ in range(2):
            elsewhere(driver, "menu", "red.card4")                       # TAKE BACK, one colour's press enough
        until(lambda: state(driver)["moves"] == 1, what="two moves taken back")
        other = play_a_card(driver, avoid=white)
        play_a_card(driver)
        history = state(driver)["history"]
        until(lambda: [b.text for b in driver.find_elements("css selector", "#moves button")] ==
              [f"{seat.capitalize()} {move}" for seat, move in history], what="the new moves listed")
        assert history[1] == ["white", other] and other != white
        driver.find_element("css selector", '#moves button[data-ply="2"]').click()
        now = driver.execute_script("return fetch('/api/games/current').then(r => r.json())")
        until(lambda: shown() == now["plies"][2]["board"], what="the new move 2")
        assert now["plies"][2]["board"] != game["plies"][2]["board"]
    finally:
        table.stop()


# --- truthful: the page knows when it has lost the table ---------------------------------------------------------

SOCKETS = """
window.sockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.sockets.push({ socket: this, at: performance.now() }); }
};"""


@contextlib.contextmanager
def on_new_pages(driver, source):
    """Run the script `source` first in every page opened in the block."""
    script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


@pytest.fixture
def counted(driver):
    """The pages opened from now on count their WebSockets (`window.sockets`: each one and when it was made)."""
    with on_new_pages(driver, SOCKETS):
        yield


@pytest.fixture
def quick(tmp_path):
    """A new game between two people at a simulated table that beats five times a second: a page misses three
    beats in 0.6 s, and gives the connection up after six (the same rules, five times as fast)."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path, web="beat_seconds = 0.2")), "--mode", "humans",
                  "--seed", "7")
    yield table
    table.stop()


OPEN_SOCKETS = "return window.sockets.filter((s) => s.socket.readyState <= 1).length"


def test_a_page_without_the_tables_beat_says_stale_and_comes_back_by_itself(driver, quick, counted):
    """The table's process stopped (a network gone quiet): after three beats the page says it has had no news
    (said once, not at each second it counts), after six it gives the connection up and tries again by itself,
    one connection at a time (coming back online while one is on its way makes no second); the table back, the
    page is live again, no reload."""
    open_page(driver, quick.url, SIZES[1])
    connection = driver.find_element("id", "connection")
    until(lambda: connection.get_attribute("data-state") == "live")
    assert connection.get_attribute("role") is None and connection.get_attribute("aria-live") is None
    driver.execute_script("window.said = []; new MutationObserver(() => window.said.push(document.getElementById("
                          "'connection-said').textContent)).observe(document.getElementById('connection-said'), "
                          "{childList: true, characterData: true, subtree: true});")
    os.kill(quick.process.pid, signal.SIGSTOP)
    try:
        until(lambda: connection.get_attribute("data-state") == "stale", timeout=5, what="stale")
        assert connection.text.startswith("no news from the table for ")
        until(lambda: driver.execute_script("return window.sockets.length") == 2, timeout=5, what="a new try")
        until(lambda: connection.get_attribute("data-state") == "connecting", timeout=5, what="connecting")
        driver.execute_script("window.dispatchEvent(new Event('online'))")     # the one on its way is left be
        assert driver.execute_script(OPEN_SOCKETS) == 1
    finally:
        os.kill(quick.process.pid, signal.SIGCONT)
    until(lambda: connection.get_attribute("data-state") == "live", timeout=10, what="live again")
    assert driver.execute_script(OPEN_SOCKETS) == 1
    said = driver.execute_script("return window.said")
    assert [line for line in said if line.startswith("no news")] == [said[0]] and said[-1] == "live"
    driver.find_element("css selector", 'button[data-button="red.card1"]').click()     # and it plays
    until(lambda: (state(driver)["preview"] or {}).get("move") == "NE3", what="the press after the reconnection")


def test_a_page_that_lost_the_table_tries_again_less_and_less_often(driver, quick, counted):
    """The table gone, the page tries again after half a beat, then twice as long each time, up to eight beats
    (0.1, 0.2, 0.4, 0.8, 1.6 s at five beats a second), each wait a fifth longer or shorter at random."""
    open_page(driver, quick.url, SIZES[1])
    until(lambda: driver.find_element("id", "connection").get_attribute("data-state") == "live")
    quick.stop()
    until(lambda: driver.execute_script("return window.sockets.length") >= 6, timeout=8, what="five tries")
    at = driver.execute_script("return window.sockets.map((s) => s.at)")
    waits = [(b - a) / 1000 for a, b in zip(at[1:], at[2:6])]         # each try refused at once: the waits
    for wait, beats in zip(waits, (1, 2, 4, 8), strict=True):
        assert 0.8 * beats * 0.2 <= wait <= 1.2 * beats * 0.2 + 0.25, waits
    assert driver.find_element("id", "connection").text.startswith("connection lost: trying again in")


# --- the table's language -----------------------------------------------------------------------------------

def test_the_pages_speak_the_tables_language(driver, tmp_path):
    table = Table(tmp_path / "data", "--config", str(config(tmp_path, "de")), "--mode", "humans", "--seed", "7")
    try:
        open_page(driver, table.url, SIZES[1])
        assert driver.find_element("css selector", "h1").text == "Der Rosenkönig"
        assert driver.find_element("css selector", "html").get_attribute("lang") == "de"
        assert text(driver, "summary").startswith("Rot ist am Zug")
        controls = driver.find_elements("css selector", ".side button.control")
        assert {c.text for c in controls} == {"HELD", "KARTE ZIEHEN"} and text(driver, "menu") == "MENÜ"
        howto = text(driver, "howto")                     # the buttons called as the table calls them
        assert "So wird gespielt" in howto and "KARTE ZIEHEN nimmt eine Karte" in howto and "MENÜ öffnet" in howto
        assert "NACHZIEHEN" not in howto and "MENU" not in howto
        select = driver.find_element("id", "language")
        driver.execute_script("arguments[0].value = 'es'; arguments[0].dispatchEvent(new Event('change'))", select)
        until(lambda: "lang=es" in driver.current_url)
        until(lambda: text(driver, "summary").startswith("Juega Rojo"))
        assert driver.find_element("link text", "Clasificación").get_attribute("href").endswith("/club?lang=es")
        driver.get(f"{table.url}status")
        mode = until(lambda: driver.execute_script("return [...document.querySelectorAll('#health dt')].find((dt) => "
                                                   "dt.textContent === 'Modus')?.nextElementSibling.textContent"),
                     what="the operator's facts")
        assert mode == "zwei Spieler (im Spiel)"
    finally:
        table.stop()


def test_a_visitor_reads_a_german_table_in_spanish_the_menu_help_too(driver, tmp_path):
    """?lang=es on a German table: the last move, what the displays say and the game menu's cards with what each
    does are Spanish (the menu's help was blank, its cards compared in two languages)."""
    table = Table(tmp_path / "data", "--config", str(config(tmp_path, "de")), "--mode", "humans", "--seed", "7")
    try:
        open_page(driver, f"{table.url}?lang=es", SIZES[0])
        elsewhere(driver, "red.card1", "red.card1", "red.card2")          # NE3, then a press out of turn
        until(lambda: "Última jugada: ROJO NE3." in text(driver, "summary"), what="the last move in Spanish")
        until(lambda: text(driver, "said").startswith("Rojo: ESPERA."), what="the refusal in Spanish")
        assert text(driver, "menu") == "MENÚ"
        driver.find_element("id", "menu").click()
        until(lambda: driver.find_element("id", "menu-help").is_displayed(), what="the game menu's help")
        cards = [li.text for li in driver.find_elements("css selector", "#menu-cards li")]
        assert cards[0] == "carta 1: MARCADOR — dice el marcador" and len(cards) == 5
        assert all(not card.endswith("— ") and card.split(" — ")[1] for card in cards), cards
    finally:
        table.stop()


WATCH_SAID = """
window.seen = [];
document.addEventListener("DOMContentLoaded", () => {
  const [said, summary] = [document.getElementById("said"), document.getElementById("summary")];
  const note = () => window.seen.push([said.textContent, summary.textContent]);
  const watching = new MutationObserver(note);
  for (const node of [said, summary]) watching.observe(node, { childList: true, characterData: true, subtree: true });
});"""


def test_a_pass_names_the_seat_that_passes_for_as_long_as_it_is_said(driver, tmp_path):
    """R14: the table shows a forced pass for two seconds, then makes it, and says it a while longer: the page names
    the seat that passes all along (it named the seat to move, the other one once the pass was made)."""
    record = json.loads(game_record(12))
    end = replay(record)
    k = end.history().index("pass")
    passer = movers(end)[k]
    data = tmp_path / "data"
    data.mkdir()
    (data / "current-game.json").write_text(game_record(12, moves=k))
    table = Table(data, "--config", str(config(tmp_path)))
    try:
        with on_new_pages(driver, WATCH_SAID):
            open_page(driver, table.url, SIZES[0])
        until(lambda: state(driver)["moves"] == k + 1, what="the pass made")
        until(lambda: "cannot move" not in text(driver, "said"), what="the pass no longer said")
        seen = driver.execute_script("return window.seen")
        passes = [(said, summary) for said, summary in seen if "cannot move and passes" in said]
        assert passes and all(said == f"{passer.capitalize()} cannot move and passes (R14)." for said, _ in passes)
        other = "White" if passer == "red" else "Red"
        assert any(summary.startswith(f"{other} to move") for _, summary in passes)    # said after the pass too
    finally:
        table.stop()


def test_a_wrong_token_is_said_to_be_wrong_and_forgotten(driver, museum):
    open_page(driver, f"{museum.url}?token=not-the-operators-token", SIZES[0])
    until(lambda: text(driver, "error"), what="the refusal")
    assert text(driver, "error").startswith("That is not the operator's token")
    assert driver.execute_script("return sessionStorage.getItem('roseking-token')") is None
