"""The web page's server, with aiohttp's test client, round a table service on mock pins: the stream
sends the current frame on connect and every new one; a page's button messages are the events the
pins make; bad messages and requests are refused and change nothing; whatever changes the table
needs the operator's token; each client is bounded; the archive's pages replay what the engine
replays; no token reaches the log."""
import asyncio
import json
import logging
import random
import sys
import time

import aiohttp
import pytest
from gpiozero.pins.mock import MockFactory

from engine.players import make_player
from engine.position import Position
from engine.record import dumps as record_line
from engine.tally import Tally, facts
from firmware_py.report.elo import elo_ratings_with_errors
from firmware_py.table.game import Game, Mode, Setup
from firmware_py.table.session import Screen
from firmware_py.table.status import StatusCollector
from firmware_py.web.server import MAX_FRAME, MAX_MESSAGE, WebServer, _LogBridge, listen
from firmware_py.web.settings import WebSettings
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.events import PRESS, ButtonEvent, Origin
from hardware.frame import turn
from hardware.names import seat_slots
from table_kit import Rig

TOKEN = "operator-token-0123456789"
HOLD = 0.3
CHAIN = [slot for seat in ("red", "white") for slot in seat_slots(seat)]        # cards and hero: as the Rig has them
CONFIG = {"buttons": {"hold_seconds": HOLD, "min_pulse_ms": 0}, "displays": {"chain": CHAIN}}
HUMANS = Setup(Mode.HUMANS, seed=7)


class Table:
    """A table service on mock pins (`rig`), its loop running, and the web server round it (`client`);
    `handled` are the button events the loop has handled, `log` its log."""

    def __init__(self, rig, server, client, log, handled):
        self.rig, self.server, self.client, self.log, self.handled = rig, server, client, log, handled

    @property
    def game(self):
        return self.rig.game

    async def socket(self, **kwargs):
        ws = await self.client.ws_connect("/ws", **kwargs)
        hello = await ws.receive_json(timeout=5)
        assert hello["type"] == "hello"
        return ws, hello

    async def frame(self, ws, timeout=5):
        """The next frame message (errors and rights in between are skipped)."""
        while True:
            message = await ws.receive_json(timeout=timeout)
            if message["type"] == "frame":
                return message


@pytest.fixture
async def table(tmp_path, aiohttp_client):
    made = []

    async def make(backend="sim", config=CONFIG, setup=HUMANS, **web):
        rig = Rig(tmp_path / "data", slots=tuple(CHAIN))
        log, handled = [], []
        status = StatusCollector(str(tmp_path), backend, log.append)
        rig.loop.receivers.append(status)
        status.watch(rig.loop)
        handle = rig.loop.handle
        rig.loop.handle = lambda event: (handled.append(event), handle(event))
        rig.start(setup)
        sock = listen(WebSettings(port=0))
        server = WebServer(WebSettings(**web), sock, parse_config(config), backend, status, rig.saves.archive,
                           status.log)
        client = await aiohttp_client(server.app(rig.loop))
        running = asyncio.create_task(rig.loop.run())
        made.append((rig, running, sock))
        return Table(rig, server, client, log, handled)
    yield make
    for rig, running, sock in made:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
        sock.close()
        rig.close()


async def until(condition, timeout=5.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


# --- the stream ---------------------------------------------------------------------------------

async def test_the_stream_sends_the_current_frame_on_connect_and_every_new_one(table):
    t = await table()
    ws, hello = await t.socket()
    assert hello["table"]["buttons"][0] == "red.card1" and hello["rights"]["play"]
    first = await t.frame(ws)
    shown = t.rig.frame
    assert first["board"] == shown.hex_board()
    white = "white.card1"      # White sits north: its displays are shown as the matrices light them, turned
    assert tuple(first["displays"][white]) == turn(shown.bitmap(white), 180)
    assert first["state"]["to_move"] == "red" and first["state"]["seats"][0]["cards"][0] == "NE3"   # R7
    t.rig.loop.submit(ButtonEvent("red", "card1", PRESS))
    answer = await t.frame(ws)
    assert answer["seq"] > first["seq"]
    await until(lambda: t.game.preview is not None)
    assert answer["board"] == t.rig.frame.hex_board() != first["board"]     # NE3 previewed: f6 blinks
    await ws.close()


async def test_a_slow_page_is_sent_the_latest_frame_not_a_backlog(table):
    t = await table()
    ws, _ = await t.socket()
    await t.frame(ws)
    viewer = next(iter(t.server.mirror.viewers))
    for n in range(50):                 # fifty frames while the page reads nothing
        viewer.offer(json.dumps({"type": "frame", "n": n}))
    got = []
    while True:
        try:
            got.append((await ws.receive_json(timeout=0.3)).get("n"))
        except asyncio.TimeoutError:
            break
    assert got[-1] == 49 and len(got) <= 3


# --- buttons ------------------------------------------------------------------------------------

def pin_events(name, seconds):
    """The events the GPIO buttons make of `name` held down `seconds` on its mock pin."""
    config = parse_config(CONFIG)
    factory = MockFactory()
    buttons = Buttons(config.buttons.pins, config.buttons.timing, factory)
    pin = factory.pin(config.buttons.pins[name])
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()
    time.sleep(0.2)
    events = []
    while (event := buttons.get(timeout=0)) is not None:
        events.append(event)
    buttons.close()
    factory.close()
    return events


async def page_events(t, ws, name, seconds):
    """The events the loop handles of a page's `name` held down `seconds`."""
    before = len(t.handled)
    await ws.send_json({"type": "button", "name": name, "down": True})
    await asyncio.sleep(seconds)
    await ws.send_json({"type": "button", "name": name, "down": False})
    await asyncio.sleep(0.2)
    return t.handled[before:]


@pytest.mark.parametrize("seconds", [0.1, HOLD + 0.2])
async def test_a_page_s_button_makes_the_events_its_pin_makes(table, seconds):
    """A tap is press, release; a press held past hold_seconds is press, hold, release: the same rule."""
    t = await table()
    ws, _ = await t.socket()
    pin = await asyncio.to_thread(pin_events, "red.card1", seconds)
    page = await page_events(t, ws, "red.card1", seconds)
    assert [e[:3] for e in page] == [e[:3] for e in pin]
    assert {e.origin for e in page} == {Origin.NETWORK} and {e.origin for e in pin} == {Origin.PANEL}
    assert [e.kind for e in page] == (["press", "release"] if seconds < HOLD else ["press", "hold", "release"])
    assert t.game.preview is not None and str(t.game.preview.move) == "NE3"     # and the table took it


async def test_a_click_shorter_than_the_glitch_filter_is_still_a_press(table):
    """Down and up in one breath (a click can arrive so) last a tap, as a finger's do."""
    t = await table(config={**CONFIG, "buttons": {"min_pulse_ms": 30}})
    ws, _ = await t.socket()
    page = await page_events(t, ws, "red.card1", 0)
    assert [str(e) for e in page] == ["red.card1 press", "red.card1 release"]


async def test_clicking_red_s_first_card_twice_plays_it(table):
    t = await table()
    ws, _ = await t.socket()
    for _ in range(2):
        await page_events(t, ws, "red.card1", 0.08)
    await until(lambda: t.game.pos.history() == ["NE3"])
    assert t.game.pos.board[t.game.pos.crown] == 1         # h8: the crown on Red's new stone (R10)


async def test_a_page_that_goes_away_lets_go_of_its_buttons(table):
    t = await table()
    ws, _ = await t.socket()
    await ws.send_json({"type": "button", "name": "menu", "down": True})
    await asyncio.sleep(0.1)
    await ws.close()
    await until(lambda: len(t.handled) == 2)
    assert [str(e) for e in t.handled] == ["menu press", "menu release"]


# --- refused messages ------------------------------------------------------------------------------

@pytest.mark.parametrize("message, error", [
    ('{"type": "button", "name": "red.card9", "down": true}', "no button 'red.card9'"),
    ('{"type": "button", "name": "red.card1", "down": 1}', "down: must be true or false"),
    ('{"type": "button", "name": "red.card1", "down": true, "x": 1}', "expected"),
    ('{"type": "press", "name": "red.card1"}', "expected"),
    ("[1, 2]", "expected"),
    ("red.card1 press", "not JSON"),
    ('{"type": "button", "name": "' + "x" * MAX_MESSAGE + '", "down": true}', "message too long"),
])
async def test_a_bad_message_gets_a_clear_error_and_changes_nothing(table, message, error):
    t = await table()
    ws, _ = await t.socket()
    await t.frame(ws)
    await ws.send_str(message)
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert error in reply["error"]
    await asyncio.sleep(0.1)
    assert t.handled == [] and t.game.preview is None


async def test_a_binary_message_is_refused_and_an_oversized_one_closes_the_connection(table):
    t = await table()
    ws, _ = await t.socket()
    await ws.send_bytes(b"\x00\x01")
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert "text" in reply["error"]
    await ws.send_str("x" * (MAX_FRAME + 1))
    while (await ws.receive(timeout=5)).type is aiohttp.WSMsgType.TEXT:
        pass
    assert ws.closed and ws.close_code == 1009


# --- who may act --------------------------------------------------------------------------------------

async def test_on_a_pi_the_page_only_watches(table):
    t = await table(backend="pi", token=TOKEN)      # allow_remote_play is off: even the token does not play
    ws, hello = await t.socket()
    assert not hello["rights"]["play"]
    await ws.send_json({"type": "button", "name": "red.card1", "down": True})
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert "only watches" in reply["error"]
    await ws.send_json({"type": "auth", "token": TOKEN})
    while (reply := await ws.receive_json(timeout=5))["type"] != "rights":
        pass
    assert reply["rights"] == {"play": False, "operator": True, "name": True, "token": True, "shutdown": False}
    assert t.handled == []


async def test_on_a_pi_remote_play_needs_the_operator_s_token(table):
    t = await table(backend="pi", token=TOKEN, allow_remote_play=True)
    ws, _ = await t.socket()
    await ws.send_json({"type": "auth", "token": TOKEN[:-1] + "x"})
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert reply["error"] == "wrong token"
    assert any("a wrong operator token" in line for line in t.log)
    await ws.send_json({"type": "button", "name": "red.card1", "down": True})
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert "only watches" in reply["error"] and t.game.preview is None
    await ws.send_json({"type": "auth", "token": TOKEN})
    while (reply := await ws.receive_json(timeout=5))["type"] != "rights":
        pass
    assert reply["rights"]["play"]
    await ws.send_json({"type": "button", "name": "red.card1", "down": True})
    await until(lambda: t.game.preview is not None)


async def test_naming_the_players_needs_the_token(table):
    t = await table(token=TOKEN)
    body = {"names": {"red": "Ann", "white": "Bo"}}
    for headers in ({}, {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": TOKEN}):
        answer = await t.client.post("/api/names", json=body, headers=headers)
        assert answer.status == 403 and "token" in (await answer.json())["error"]
    assert t.rig.session.names == {} and t.game.names == {}
    answer = await t.client.post("/api/names", json=body, headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status == 200 and await answer.json() == body
    assert t.rig.session.names == t.game.names == {"red": "Ann", "white": "Bo"}   # no move yet: this game too
    await until(lambda: t.rig.saved().get("names") == body["names"])          # and its save says so


async def test_without_a_token_in_the_configuration_nobody_names_unless_naming_is_open(table):
    t = await table()
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}})
    assert answer.status == 403 and "[web] token" in (await answer.json())["error"]
    t = await table(allow_naming=True)
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}})
    assert answer.status == 200 and t.game.names == {"red": "Ann"}


@pytest.mark.parametrize("body, status, error", [
    ({"names": {"red": "Ann\x07"}}, 400, "names.red: holds the control character U+0007"),
    ({"names": {"red": "A" * 33}}, 400, "names.red: must be 1 to 32 characters (got 33)"),
    ({"names": {"red": "Ann", "white": "Ann"}}, 400, "names.white: 'Ann' sits at red already"),
    ({"names": {"green": "Ann"}}, 400, "names: 'green' is not a seat"),
    ({"names": ["Ann"]}, 400, "names: must be an object"),
    ({"names": {"red": "Ann"}, "game": 1}, 400, 'send {"names"'),
    ({"names": {"red": "<b>Ann</b>"}}, 200, None),
])
async def test_names_are_checked_and_a_refused_one_changes_nothing(table, body, status, error):
    t = await table(allow_naming=True)
    answer = await t.client.post("/api/names", json=body)
    assert answer.status == status
    if error is not None:
        assert error in (await answer.json())["error"]
        assert t.rig.session.names == {}
    else:
        assert "<" not in await answer.text()          # escaped on the server: \u003c
        assert (await answer.json())["names"]["red"] == "<b>Ann</b>"


async def test_names_are_refused_once_the_game_has_a_move_and_taken_for_the_next(table):
    t = await table(allow_naming=True)
    ws, _ = await t.socket()
    for _ in range(2):
        await page_events(t, ws, "red.card1", 0.08)
    await until(lambda: len(t.game.pos.history()) == 1)
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}})
    assert answer.status == 409 and "a game is in progress (1 moves)" in (await answer.json())["error"]
    answer = await t.client.post("/api/names", data="names", headers={"Content-Type": "application/json"})
    assert answer.status == 400


async def test_another_site_cannot_act_and_a_loopback_page_answers_to_its_own_name_only(table):
    t = await table(allow_naming=True)
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}},
                                 headers={"Origin": "http://evil.example"})
    assert answer.status == 403 and t.rig.session.names == {}
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await t.client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
    assert refused.value.status == 403
    answer = await t.client.get("/api/state", headers={"Host": "evil.example"})     # DNS rebinding
    assert answer.status == 421
    answer = await t.client.get("/api/state")
    assert answer.status == 200 and answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]


# --- bounds -----------------------------------------------------------------------------------------

async def test_connections_per_client_and_in_all_are_bounded(table):
    t = await table(connections_per_client=2, max_connections=3)
    open_ = [(await t.socket())[0] for _ in range(2)]
    answer = await t.client.get("/ws", headers={"Connection": "Upgrade", "Upgrade": "websocket",
                                                 "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "x" * 24})
    assert answer.status == 429 and "at most 2 connections" in (await answer.json())["error"]
    for ws in open_:
        await ws.close()


async def test_messages_per_client_are_bounded(table):
    t = await table(messages_per_second=2)
    ws, _ = await t.socket()
    for _ in range(8):
        await ws.send_json({"type": "button", "name": "red.draw", "down": False})
    errors = []
    while True:
        try:
            reply = await ws.receive_json(timeout=0.5)
        except asyncio.TimeoutError:
            break
        if reply["type"] == "error":
            errors.append(reply["error"])
    assert errors and all("too many messages" in e for e in errors)
    answers = [(await t.client.get("/api/games")).status for _ in range(8)]
    assert 429 in answers


async def test_a_token_in_an_address_never_reaches_the_log(tmp_path):
    """The server as the service runs it, on its own socket, with its own log of refused requests."""
    rig = Rig(tmp_path / "data", slots=tuple(CHAIN))
    rig.start(Setup(Mode.HUMANS, seed=7))
    log = []
    settings = WebSettings(port=0, token=TOKEN)
    server = WebServer(settings, listen(settings), parse_config(CONFIG), "sim", StatusCollector(str(tmp_path), "sim"),
                       rig.saves.archive, log.append)
    try:
        async with server.serving(rig.loop), aiohttp.ClientSession() as http:
            assert (await http.get(f"{server.url}?token={TOKEN}")).status == 200
            answer = await http.post(f"{server.url}api/names?token={TOKEN}", json={"names": {}})
            assert answer.status == 403
    finally:
        rig.close()
    assert any("403 POST /api/names" in line for line in log)
    assert not any(TOKEN in line for line in log)


# --- the archive ---------------------------------------------------------------------------------------

def finished_game(seed, names=None):
    """A game the `random` player finishes against itself, with `names` at its seats."""
    start = Position.new(seed=seed)
    pos = start.copy()
    pos.rng = random.Random(seed)
    player = make_player("random", seed=seed)
    while pos.outcome() is None:
        pos.push(player.choose(pos.copy()))
    game = Game(Setup(Mode.HUMANS, seed=seed), start, pos, names=names)
    return game.record()


async def test_the_recent_games_the_replay_and_the_download(table, tmp_path):
    t = await table()
    lines = [finished_game(1), finished_game(2, {"red": "Ann", "white": "Bo"})]
    (tmp_path / "data" / "records.jsonl").write_text("".join(record_line(r) + "\n" for r in lines) + '{"torn')
    games = (await (await t.client.get("/api/games")).json())["games"]
    assert [g["line"] for g in games] == [2, 1]
    assert games[0]["names"] == {"red": "Ann", "white": "Bo"}
    end = facts(lines[1], "records.jsonl", 2)
    assert (games[0]["scores"]["red"], games[0]["scores"]["white"]) == end.scores and games[0]["winner"] == end.winner
    replay = await (await t.client.get("/api/games/2")).json()
    assert len(replay["plies"]) == end.moves + 1
    assert [p.get("move") for p in replay["plies"][1:]] == lines[1]["moves"]
    assert replay["plies"][0]["board"][40] == "#ff9600"            # the crown on e5 at the start (R6)
    assert (replay["plies"][-1]["scores"]["red"], replay["plies"][-1]["scores"]["white"]) == end.scores
    for bad, status in (("3", 404), ("0", 404), ("x", 400), ("1" * 12, 400)):
        assert (await t.client.get(f"/api/games/{bad}")).status == status
    download = await t.client.get("/records.jsonl")
    assert download.status == 200 and "attachment" in download.headers["Content-Disposition"]
    assert (await download.read()) == (tmp_path / "data" / "records.jsonl").read_bytes()


async def test_the_ladder_ranks_the_named_members_by_the_report_s_elo(table, tmp_path):
    t = await table()
    people = [("Ann", "Bo"), ("Bo", "Cy"), ("Ann", "Cy"), ("Cy", "Ann"), ("Ann", "Bo")]
    records = [finished_game(10 + k, {"red": a, "white": b}) for k, (a, b) in enumerate(people)]
    records.append(finished_game(20, {"red": "Ann"}))                 # one seat named: not on the ladder
    records.append(finished_game(21))
    (tmp_path / "data" / "records.jsonl").write_text("".join(record_line(r) + "\n" for r in records))
    club = await (await t.client.get("/api/club")).json()
    tally = Tally("classic")
    for k, r in enumerate(records[:5]):
        f = facts(r, "x", k + 1)
        tally.add(f.__class__(**{**f.__dict__, "players": (r["names"]["red"], r["names"]["white"])}))
    elo = elo_ratings_with_errors(tally.standings.to_dict())
    assert club["games"] == 5
    assert [m["name"] for m in club["members"]] == sorted(elo, key=lambda n: -elo[n][0])
    for m in club["members"]:
        assert (m["elo"], m["plus_minus"]) == (round(elo[m["name"]][0]), round(elo[m["name"]][1]))
    ann = next(m for m in club["members"] if m["name"] == "Ann")
    assert ann["games"] == 4 and [g["line"] for g in ann["played"]] == [5, 4, 3, 1]


async def test_the_status_says_what_the_table_does(table):
    t = await table()
    ws, _ = await t.socket()
    await t.frame(ws)
    status = await (await t.client.get("/api/status")).json()
    assert status["backend"] == "sim" and status["mode"] == "humans" and status["viewers"] == 1
    assert status["games_started"] == 1 and status["frames"] >= 1 and status["free_bytes"] > 0


def test_aiohttp_s_own_errors_reach_the_log_in_one_line_without_a_token():
    lines = []
    try:
        raise ValueError(f"Invalid method in GET /?token={TOKEN} HTTP/1.1\nHost: x")
    except ValueError:
        record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling request",
                                   None, sys.exc_info())
    _LogBridge(lines.append).emit(record)
    assert lines == ["roseking: web: Error handling request: ValueError: Invalid method in GET /?token=… HTTP/1.1 "
                     "Host: x"]


# --- the operator's actions ---------------------------------------------------------------------------

OPERATOR = {"Authorization": f"Bearer {TOKEN}"}


def with_shutdown(command):
    """The server's configuration with `[table] shutdown_command`."""
    return {**CONFIG, "table": {"shutdown_command": command}}


@pytest.mark.parametrize("path, body", [("/api/new-game", {}), ("/api/brightness", {"level": 0.5}),
                                        ("/api/shutdown", {})])
async def test_each_operator_action_needs_the_token_and_without_it_changes_nothing(table, tmp_path, path, body):
    marker = tmp_path / "off"
    t = await table(token=TOKEN, allow_shutdown=True,
                    config=with_shutdown([sys.executable, "-c", f"open({str(marker)!r}, 'w')"]))
    game = t.game
    for headers in ({}, {"Authorization": f"Bearer {TOKEN[:-1]}"}, {"Authorization": TOKEN}):
        answer = await t.client.post(path, json=body, headers=headers)
        assert answer.status == 403 and "operator's token" in (await answer.json())["error"]
    assert t.game is game and t.rig.loop.brightness == 1.0 and not marker.exists()
    t = await table(allow_shutdown=True)                 # no token configured: nobody may
    answer = await t.client.post(path, json=body, headers=OPERATOR)
    assert answer.status == 403 and "set [web] token" in (await answer.json())["error"]


async def test_a_new_game_from_the_page_archives_the_one_in_progress_as_the_menu_does(table):
    t = await table(token=TOKEN)
    old = t.game
    ws, _ = await t.socket()
    for _ in range(2):
        await page_events(t, ws, "red.card1", 0.08)
    await until(lambda: len(old.pos.history()) == 1)
    answer = await t.client.post("/api/new-game", json={"mode": "vs-computer", "level": "easy", "human": "white"},
                                 headers=OPERATOR)
    assert answer.status == 200 and await answer.json() == {"mode": "vs-computer", "level": "easy", "human": "white"}
    assert t.game is not old and t.game.pos.stack == [] and t.game.players == ("easy", "human")
    [archived] = [json.loads(line) for line in t.rig.saves.archive.read_text().splitlines()]
    assert archived["moves"] == old.pos.history() and archived["result"]["reason"] == "unfinished"
    assert "the operator dealt a new game (vs-computer)" in t.log[-1]


@pytest.mark.parametrize("body, status, error", [
    ({"mode": "chess"}, 400, "mode: 'chess' is not one of humans"),
    ({"human": "green"}, 400, "human: 'green' is not red or white"),
    ({"level": "godlike"}, 400, "level: 'godlike' is not one of easy, medium, hard, max"),
    ({"mode": "humans", "seed": 1}, 400, "send {\"mode\": MODE"),
    ({"mode": "teams"}, 409, "a teams game needs four seat panels"),
])
async def test_a_bad_new_game_is_refused_and_the_game_stays(table, body, status, error):
    t = await table(token=TOKEN)
    game = t.game
    answer = await t.client.post("/api/new-game", json=body, headers=OPERATOR)
    assert answer.status == status and error in (await answer.json())["error"]
    assert t.game is game


async def test_the_brightness_from_the_page_lights_the_table_at_once_and_the_status_says_it(table):
    t = await table(token=TOKEN)
    answer = await t.client.post("/api/brightness", json={"level": 0.25}, headers=OPERATOR)
    assert answer.status == 200 and await answer.json() == {"level": 0.25}
    assert t.rig.devices.screen.levels == (0.25, 0.25)
    assert t.rig.frames[-1].board[40] == tuple(int(c * 0.25) for c in (255, 150, 0))    # the crown, dimmed
    status = await (await t.client.get("/api/status")).json()
    assert status["brightness"] == 0.25
    for level in (1.5, -0.1, "half", True, None):
        answer = await t.client.post("/api/brightness", json={"level": level}, headers=OPERATOR)
        assert answer.status == 400 and "level: a brightness level is a number from 0 to 1" in \
            (await answer.json())["error"]
    answer = await t.client.post("/api/brightness", data='{"level": NaN}', headers={**OPERATOR,
                                                                                  "Content-Type": "application/json"})
    assert answer.status == 400 and t.rig.loop.brightness == 0.25


async def test_a_clean_shutdown_runs_the_configured_command_without_a_shell_only_when_allowed(table, tmp_path):
    marker = tmp_path / "off"
    words = [sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])", str(marker), "$(reboot); x"]
    t = await table(token=TOKEN, config=with_shutdown(words))
    answer = await t.client.post("/api/shutdown", json={}, headers=OPERATOR)
    assert answer.status == 403 and "[web] allow_shutdown = true" in (await answer.json())["error"]
    assert not marker.exists()
    t = await table(token=TOKEN, allow_shutdown=True, config=with_shutdown(words))
    rights = (await (await t.client.get("/api/state", headers=OPERATOR)).json())["rights"]
    assert rights["shutdown"]
    answer = await t.client.post("/api/shutdown", json={}, headers=OPERATOR)
    assert answer.status == 202 and (await answer.json())["status"] == 0
    assert marker.read_text() == "$(reboot); x"                 # its words as they are: no shell
    assert any("the operator shuts the table down" in line for line in t.log)


async def test_a_shutdown_command_that_fails_says_why(table):
    t = await table(token=TOKEN, allow_shutdown=True,
                    config=with_shutdown([sys.executable, "-c", "import sys; sys.exit('Access denied')"]))
    answer = await t.client.post("/api/shutdown", json={}, headers=OPERATOR)
    assert answer.status == 500 and "failed (status 1: Access denied)" in (await answer.json())["error"]
    t = await table(token=TOKEN, allow_shutdown=True, config=with_shutdown(["/nonexistent/poweroff"]))
    answer = await t.client.post("/api/shutdown", json={}, headers=OPERATOR)
    assert answer.status == 500 and "cannot run (No such file or directory)" in (await answer.json())["error"]


# --- what the page can never do, and what a museum's monitoring reads ---------------------------------------

async def test_presses_from_the_page_never_open_the_staff_menu_nor_shut_the_table_down(table, tmp_path):
    """Anyone at the page of a simulated table reached the staff menu and ran the shutdown command without the
    token, with allow_shutdown off."""
    marker = tmp_path / "off"
    t = await table(config=with_shutdown([sys.executable, "-c", f"open({str(marker)!r}, 'w')"]))
    ws, _ = await t.socket()
    session = t.rig.session
    await ws.send_json({"type": "button", "name": "menu", "down": True})
    for name in ("red.hero", "white.hero", "red.draw", "white.draw"):          # the staff's combination
        await page_events(t, ws, name, 0.08)
    for name in ("white.hero", "white.draw"):                                  # and the old one, held
        await ws.send_json({"type": "button", "name": name, "down": True})
    await asyncio.sleep(0.2)
    for _ in range(40):
        t.rig.time.advance(0.1)
        t.rig.loop.step()
    assert session.screen is not Screen.STAFF
    for name in ("menu", "white.hero", "white.draw"):
        await ws.send_json({"type": "button", "name": name, "down": False})
    session.open_staff(t.rig.time.now)                                         # the staff, at the table
    game = t.game
    for _ in range(2):
        await page_events(t, ws, "red.card3", 0.08)                            # SHUT DOWN, twice …
    await ws.send_json({"type": "button", "name": "red.card3", "down": True})  # … and held
    await asyncio.sleep(0.1)
    for _ in range(50):
        t.rig.time.advance(0.1)
        t.rig.loop.step()
    await ws.send_json({"type": "button", "name": "red.card3", "down": False})
    await page_events(t, ws, "red.card1", 0.08)                                # NEW GAME
    await asyncio.sleep(0.3)
    assert not marker.exists() and t.game is game and session.screen is Screen.STAFF
    assert "staff" not in (await (await t.client.get("/api/state")).json())["table"]["buttons"]


async def test_the_health_and_the_metrics_are_read_without_the_token(table):
    t = await table(token=TOKEN)
    health = await (await t.client.get("/api/health")).json()
    assert health["healthy"] and health["verdict"].startswith("roseking is running (process ")
    assert health["status"]["backend"] == "sim" and health["status"]["running"]
    answer = await t.client.get("/metrics")
    assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/plain; version=")
    metrics = await answer.text()
    for line in ("roseking_up 1.0", "roseking_healthy 1.0", "roseking_games_started_today 1.0",
                 'roseking_fault{part="lights"} 0.0', 'roseking_fault{part="save"} 0.0', "roseking_watchdog_armed 0.0",
                 "roseking_time_known 1.0"):
        assert f"\n{line}\n" in metrics, line
    assert "\nroseking_free_bytes " in metrics and "# TYPE roseking_up gauge" in metrics
    t.rig.loop.faults.save.failed(t.rig.time.now)                              # the saves fail: degraded
    metrics = await (await t.client.get("/metrics")).text()
    assert "\nroseking_healthy 0.0\n" in metrics and '\nroseking_fault{part="save"} 1.0\n' in metrics
    health = await (await t.client.get("/api/health")).json()
    assert not health["healthy"] and health["verdict"].endswith("at fault: saving the game")
    assert (await t.client.post("/metrics")).status == 405
