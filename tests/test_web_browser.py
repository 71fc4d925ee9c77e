"""The pages in a real browser: headless Chromium (Debian's, through Selenium) against `roseking play
--sim --web` in a process of its own. What the page draws is read back from the rendered page and
compared with the frames and the engine; in CI these tests run, never skip (`browser_kit`). One browser
serves the tests (one `-n` worker runs them all), each table on a port (an origin) of its own."""
import io
import json
import random
import sys
import time

import pytest
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains

from browser_kit import Table, for_a_test, until, viewport
from engine.players import make_player
from engine.record import dumps, replay
from firmware_py.table.game import Game, Mode, Setup
from firmware_py.table.saves import CURRENT
from firmware_py.table.scenes import board_at
from firmware_py.table.session import deal
from firmware_py.table.scenes import cell
from hardware.frame import bitmap_from_rows, hex_colour
from hardware.snapshot import DOT_DIM, DOT_OFF, DOT_ON

TOKEN = "browser-test-token-0123"
CROWN, RED = "#ff9600", "#ff0000"
MARK = "#fff3c4"            # the crown's mark over its square


@pytest.fixture
def driver(browser):
    """The browser with a viewport of 1280 × 800 (a test may set its own), a blank page after the test."""
    yield from for_a_test(browser, 1280, 800)


def hex_of(pixel):
    return hex_colour(pixel[:3])


def rendered(driver, selector):
    """The colour rendered at the centre of each element `selector` finds, from a screenshot."""
    centres = driver.execute_script("""
        const found = [...document.querySelectorAll(arguments[0])];
        found[Math.floor(found.length / 2)].scrollIntoView({block: 'center'});
        return found.map((element) => {      // where it is in the window, as the screenshot shows the window
          const r = element.getBoundingClientRect();
          return [r.x + r.width / 2, r.y + r.height / 2];
        });""", selector)
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return [hex_of(shot.getpixel((int(x), int(y)))) for x, y in centres]


def test_the_mirror_draws_the_frames_colours(tmp_path, driver):
    """A scripted game (examples/first-moves.txt): every square of the board and every dot of Red's first
    display, as the page renders them, are the colours of the frame the table shows (its frame dump,
    written when it stops: its last frame before the displays and the board are blanked; only the crown
    blinks)."""
    table = Table(tmp_path / "data", "--mode", "humans", "--seed", "7", "--input-script", "examples/first-moves.txt",
                  "--frames", str(tmp_path / "frames.jsonl"))
    try:
        driver.get(table.url)
        until(lambda: "Last move: WHITE DREW SW2" in driver.find_element("id", "summary").text,
              what="the script's last move")
        time.sleep(1.2)         # the refusal's purple X (0.6 s) has faded: the picture stands still
        board = rendered(driver, "#board .led")
        dots = driver.execute_script("""
            const canvas = document.querySelector('[data-button="red.card1"] canvas');
            const ctx = canvas.getContext('2d'), out = [];
            for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
              const [r, g, b] = ctx.getImageData(x * 10 + 5, y * 10 + 5, 1, 1).data;
              out.push([r, g, b]);
            }
            return out;""")
        table.stop()
        frames = [json.loads(line) for line in (tmp_path / "frames.jsonl").read_text().splitlines()]
        blank = ["." * 8] * 8
        last = [f for f in frames if any(rows != blank for rows in f["displays"].values())][-1]   # then it closed
        crown = cell(replay(json.loads((tmp_path / "data" / "current-game.json").read_text())).crown)
        assert len(board) == 81
        for i, colour in enumerate(last["board"]):
            if i == crown:                                  # the crown blinks on White's stone on g9, its mark on it
                assert board[i] in (CROWN, "#aaaaaa", MARK) and colour in (CROWN, "#aaaaaa")
            else:
                assert board[i] == colour, f"square {i}: page {board[i]}, frame {colour}"
        assert board.count(RED) == 1 and board.count("#000000") == 79        # NE3 on h8; NW1 on g9 (R10)
        rows = bitmap_from_rows(last["displays"]["red.card1"])
        lit = DOT_DIM if "red.card1" in last.get("dimmed", []) else DOT_ON
        assert any(rows)
        for k, pixel in enumerate(dots):
            assert tuple(pixel) == (lit if rows[k // 8] & (0x80 >> (k % 8)) else DOT_OFF), f"dot {k}"
    finally:
        table.stop()


def test_clicking_red_s_first_card_twice_puts_the_stone_in_the_page_and_the_engine(tmp_path, driver):
    table = Table(tmp_path / "data", "--mode", "humans", "--seed", "7")
    try:
        driver.get(table.url)
        card = until(lambda: driver.find_elements("css selector", 'button[data-button="red.card1"]'),
                     what="Red's first card")[0]
        h8 = driver.find_element("css selector", '[data-square="h8"] .led')
        until(lambda: h8.get_attribute("data-colour") == "#000000", what="the first frame: h8 empty")
        card.click()
        until(lambda: h8.get_attribute("data-colour") == RED, what="the preview of NE3 on h8")
        time.sleep(0.1)         # as a person's: two clicks within a tap (50 ms) would be one press
        card.click()
        until(lambda: "Last move: RED NE3" in driver.find_element("id", "summary").text, what="NE3 played")
        until(lambda: h8.get_attribute("data-colour") == RED, what="Red's stone on h8 (the crown blinks)")
        assert rendered(driver, '[data-square="h8"] .led')[0] in (RED, CROWN, MARK)
        save = json.loads((tmp_path / "data" / "current-game.json").read_text())
        pos = replay(save)
        assert save["moves"] == ["NE3"] and pos.board[70] == 1 == pos.board[pos.crown]     # h8: Red's (R10)
    finally:
        table.stop()


def random_game(seed, moves=None):
    """A game the `random` player plays against itself on the table's deal `seed` (to its end, or its first
    `moves` moves); the board as the table lights it (stones, the crown) at its start and after each move; and
    each move as (seat, notation)."""
    start = deal(Setup(Mode.HUMANS, seed=seed))
    pos = start.copy()
    pos.rng = random.Random(seed)
    player = make_player("random", seed=seed)
    boards, turns = [board_at(pos)], []
    while pos.outcome() is None and len(turns) != moves:
        seat = pos.seat
        pos.push(player.choose(pos.copy()))
        boards.append(board_at(pos))
        turns.append((seat, pos.history()[-1]))
    return Game(Setup(Mode.HUMANS, seed=seed), start, pos), boards, turns


def test_the_replay_viewer_steps_through_a_finished_game(tmp_path, driver):
    game, boards, _ = random_game(3)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "records.jsonl").write_text(dumps(game.record()) + "\n")
    table = Table(tmp_path / "data", "--mode", "humans", "--seed", "1")
    try:
        viewport(driver, 1280, 1000)
        driver.get(f"{table.url}status")
        replay_link = until(lambda: driver.find_elements("css selector", "#games a"), what="the recent games")
        replay_link[0].click()
        caption = driver.find_element("id", "replay-move")
        last = len(boards) - 1
        until(lambda: caption.text.startswith(f"Move {last} of {last}:"), what="the replay's last move")

        def shown():
            return driver.execute_script("""return [...document.querySelectorAll('#replay-board .led')]
                                              .map((led) => led.getAttribute('data-colour'))""")

        def hex_board(board):
            return [hex_colour(c) for c in board]
        assert shown() == hex_board(boards[last])
        driver.find_element("id", "first").click()
        assert caption.text.startswith("The start.") and shown() == hex_board(boards[0])
        moves = game.pos.history()
        for n in (1, 2, 3):
            driver.find_element("id", "next").click()
            assert caption.text.startswith(f"Move {n} of {last}: ") and moves[n - 1] in caption.text
            assert shown() == hex_board(boards[n])
        driver.find_element("id", "previous").click()
        assert shown() == hex_board(boards[2])
        drawn = rendered(driver, "#replay-board .led")                          # as the page draws it
        assert [CROWN if colour == MARK else colour for colour in drawn] == hex_board(boards[2])
    finally:
        table.stop()


def test_the_names_given_on_the_club_page_go_with_the_game_played_next(tmp_path, driver):
    """Name Ann and Bo on the club page (with the operator's token) before the first move: the game they then
    start with the page's buttons is saved under their names."""
    config = tmp_path / "web.toml"
    config.write_text(f'backend = "sim"\n[web]\ntoken = "{TOKEN}"\n')
    seed = 242
    _, _, turns = random_game(seed)
    table = Table(tmp_path / "data", "--config", str(config), "--mode", "humans", "--seed", str(seed))
    try:
        viewport(driver, 1280, 900)
        driver.get(f"{table.url}club?token={TOKEN}")
        assert "token" not in driver.current_url                # taken out of the address bar
        fields = until(lambda: driver.find_elements("css selector", "#seat-fields input"), what="the seats")
        until(lambda: driver.find_element("id", "name-button").is_enabled(), what="naming open")
        fields[0].send_keys("Ann")
        fields[1].send_keys("Bo")
        driver.find_element("id", "name-button").click()
        until(lambda: "Named: Red: Ann, White: Bo." in driver.find_element("id", "names-state").text,
              what="the names taken")
        driver.get(table.url)
        until(lambda: driver.find_elements("css selector", 'button[data-button="red.card1"]'), what="buttons")
        play_with_the_page(driver, turns[:2])
        saved = tmp_path / "data" / CURRENT
        until(lambda: saved.exists() and len(json.loads(saved.read_text())["moves"]) == 2, what="two moves saved")
        assert json.loads(saved.read_text())["names"] == {"red": "Ann", "white": "Bo"}
    finally:
        table.stop()


def test_two_named_players_are_on_the_ladder_after_their_game(tmp_path, driver):
    """Ann and Bo finish their game with the page's buttons (the table's saved game, resumed five moves before
    its end) and find themselves on the ladder, the game listed under each with its replay."""
    config = tmp_path / "web.toml"
    config.write_text(f'backend = "sim"\n[web]\ntoken = "{TOKEN}"\n')
    seed = 242                  # 63 moves; Red wins
    game, _, turns = random_game(seed)
    left = 5
    saved = random_game(seed, len(turns) - left)[0]
    saved.names = {"red": "Ann", "white": "Bo"}
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / CURRENT).write_text(dumps(saved.record()))
    table = Table(tmp_path / "data", "--config", str(config))
    try:
        viewport(driver, 1280, 900)
        driver.get(table.url)
        until(lambda: driver.find_elements("css selector", 'button[data-button="red.card1"]'), what="buttons")
        play_with_the_page(driver, turns[-left:])
        until(lambda: driver.find_element("id", "summary").text.startswith("Game over:"), timeout=60,
              what="the game's end")
        driver.get(f"{table.url}club")
        rows = until(lambda: driver.find_elements("css selector", "#ladder tr"), what="the ladder")
        names = sorted(row.find_elements("css selector", "td")[1].text for row in rows)
        assert names == ["Ann", "Bo"]
        winner = game.pos.score().winner
        top = rows[0].find_elements("css selector", "td")
        assert top[3].text == "1" and (winner == "draw" or top[1].text == {"red": "Ann", "white": "Bo"}[winner])
        rows[0].find_element("css selector", "a").click()
        link = until(lambda: [a for a in driver.find_elements("css selector", "#members a") if a.is_displayed()],
                     what="the member's games")[0]
        link.click()
        caption = driver.find_element("id", "replay-move")
        until(lambda: caption.text.startswith(f"Move {len(game.pos.stack)} of {len(game.pos.stack)}"),
              what="the game in the replay viewer")
        record = json.loads((tmp_path / "data" / "records.jsonl").read_text().splitlines()[-1])
        assert record["names"] == {"red": "Ann", "white": "Bo"} and record["moves"] == game.pos.history()
    finally:
        table.stop()


def play_with_the_page(driver, turns):
    """Make every move of `turns` (seat, notation) with the page's keys, as a person at the keyboard would:
    a card is pressed twice (HERO after it for a hero move), DRAW draws; a forced pass the table makes. Each
    move waits for its seat's turn, which comes once the move before it is made."""
    keys = {name: key for key, name in driver.execute_script(
        "return fetch('/api/state').then(r => r.json()).then(s => s.table.keys)")}
    keyboard = ActionChains(driver)      # keys to the page as it has the focus (send_keys to an element: 0.1 s a key)
    summary = driver.find_element("id", "summary")
    for n, (seat, token) in enumerate(turns, 1):
        until(lambda seat=seat: f"{seat.capitalize()} to move" in summary.text, what=f"move {n - 1} made")
        if token == "pass":
            presses = []
        elif token.startswith("draw"):
            presses = [f"{seat}.draw"]
        else:
            state = driver.execute_script("return fetch('/api/state').then(r => r.json()).then(s => s.state)")
            card = token.removeprefix("H+")
            slot = next(s for s in state["seats"] if s["seat"] == seat)["cards"].index(card) + 1
            presses = [f"{seat}.card{slot}", f"{seat}.hero" if token.startswith("H+") else f"{seat}.card{slot}"]
        for k, name in enumerate(presses):
            if k:
                time.sleep(0.15)    # the press before: its tap, its release and the debounce window after it
            keyboard.send_keys(keys[name]).perform()


def test_a_visitor_at_the_page_never_reaches_the_staff_menu(tmp_path, driver):
    """Issue 33, point 3: whatever a visitor presses at the page, even the staff's whole combination with MENU held
    (and the old one: MENU, HERO and DRAW held together), the table never opens its staff menu, so neither its
    SHUT DOWN nor its brightness; the page's presses do reach the table (MENU opens the game's menu and closes
    it)."""
    marker = tmp_path / "off"
    config = tmp_path / "web.toml"
    config.write_text(f'backend = "sim"\n[table]\nshutdown_command = ["{sys.executable}", "-c", '
                      f'"open({str(marker)!r}, \'w\')"]\n[web]\ntoken = "{TOKEN}"\n')
    table = Table(tmp_path / "data", "--config", str(config), "--mode", "humans", "--seed", "5")

    def screen():
        return driver.execute_script("return fetch('/api/state').then(r => r.json()).then(s => s.state.screen)")
    try:
        viewport(driver, 1280, 900)
        driver.get(table.url)
        until(lambda: driver.find_elements("css selector", 'button[data-button="red.card1"]'), what="buttons")
        until(lambda: screen() == "play", what="the game")
        keys = {name: key for key, name in driver.execute_script(
            "return fetch('/api/state').then(r => r.json()).then(s => s.table.keys)")}
        staff = ["red.hero", "white.hero", "red.draw", "white.draw"]       # the staff's taps, MENU held
        chain = ActionChains(driver).key_down(keys["menu"]).pause(0.2)
        for name in staff:
            chain = chain.key_down(keys[name]).pause(0.1).key_up(keys[name]).pause(0.2)
        chain.key_up(keys["menu"]).perform()
        until(lambda: screen() == "options", what="the game's menu, which MENU from the page opens")
        ActionChains(driver).key_down(keys["menu"]).key_down(keys["white.hero"]).key_down(keys["white.draw"]) \
            .pause(3.5).key_up(keys["white.draw"]).key_up(keys["white.hero"]).key_up(keys["menu"]).perform()
        until(lambda: screen() == "play", what="the game again, MENU pressed once more")
        for _ in range(3):                                                  # SHUT DOWN's place in the staff menu
            ActionChains(driver).send_keys(keys["red.card3"]).pause(0.2).perform()
        time.sleep(0.5)
        assert screen() != "staff" and not marker.exists()
        assert "staff" not in driver.execute_script(
            "return fetch('/api/state').then(r => r.json()).then(s => s.table.buttons)")
    finally:
        table.stop()


def test_the_operator_sets_the_brightness_and_deals_a_new_game_from_the_operators_page(tmp_path, driver):
    """With the token, the operator's page shows its actions: the brightness at 40% lights the table at 40% (its
    status says so, and the page's health), and NEW GAME deals a game of the mode chosen, the one in progress
    archived first."""
    import urllib.request
    config = tmp_path / "web.toml"
    config.write_text(f'backend = "sim"\n[web]\ntoken = "{TOKEN}"\n')
    table = Table(tmp_path / "data", "--config", str(config), "--mode", "humans", "--seed", "7")

    def status():
        with urllib.request.urlopen(f"{table.url}api/status", timeout=10) as answer:
            return json.loads(answer.read())
    try:
        viewport(driver, 1280, 1000)
        driver.get(f"{table.url}status")
        assert driver.find_element("id", "actions").is_displayed() is False        # no token: no actions
        driver.get(f"{table.url}status?token={TOKEN}")
        until(lambda: driver.find_element("id", "actions").is_displayed(), what="the actions")
        assert not driver.find_element("id", "shutdown-form").is_displayed()   # allow_shutdown is off
        slider = driver.find_element("id", "brightness")
        driver.execute_script("arguments[0].value = 40; arguments[0].dispatchEvent(new Event('input'))", slider)
        assert driver.find_element("id", "brightness-value").text == "40%"
        driver.find_element("css selector", "#brightness-form button").click()
        until(lambda: driver.find_element("id", "action-state").text == "The brightness is 40%.",
              what="the brightness set")
        assert status()["brightness"] == 0.4
        until(lambda: "40%" in driver.find_element("id", "health").text, what="the health saying it")
        driver.find_element("css selector", '#new-mode option[value="demo"]').click()
        driver.find_element("css selector", "#new-game-form button").click()
        dealt = "A new game is on the table: demonstration."
        until(lambda: driver.find_element("id", "action-state").text == dealt, what="the new game")
        until(lambda: status()["mode"] == "demo", what="the table playing it")
    finally:
        table.stop()
