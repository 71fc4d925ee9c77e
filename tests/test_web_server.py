"""The web page's server, with aiohttp's test client, round a table service on mock pins: the stream
sends the current frame on connect and every new one; a page's button messages are the events the
pins make; bad messages and requests are refused and change nothing; whatever changes the table
needs the operator's token; each client is bounded; the archive's pages replay what the engine
replays; no token reaches the log."""
import asyncio
import contextlib
import json
import logging
import random
import socket
import struct
import sys
import time

import aiohttp
import pytest
from gpiozero.pins.mock import MockFactory

from engine.players import make_player
from engine.position import Position
from engine.record import dumps as record_line
from engine.tally import Tally, facts
from firmware_py.cli import main
from firmware_py.report.elo import elo_ratings_with_errors
from firmware_py.table.game import Game, Mode, Setup
from firmware_py.table.session import Screen
from firmware_py.table.status import StatusCollector
from firmware_py.web.refusals import Refusals
from firmware_py.web.server import MAX_FRAME, MAX_MESSAGE, WebServer, _LogBridge, listen
from firmware_py.web.settings import WebSettings
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.events import PRESS, RELEASE, ButtonEvent, Origin
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

    async def frame(self, ws, timeout=5, kind="frame"):
        """The next frame message (or state message: `kind`; the other messages in between are skipped)."""
        while True:
            message = await ws.receive_json(timeout=timeout)
            if message["type"] == kind:
                return message

    async def state(self, ws, timeout=5):
        """The next state of the table in words."""
        return (await self.frame(ws, timeout, "state"))["state"]


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
        if setup is not None:
            rig.start(setup)
        else:
            rig.session.open_menu(rig.time.clock())
            rig.loop.step()
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
    first = await t.frame(ws)                   # the picture first, then the state in words
    state = await t.state(ws)
    shown = t.rig.frame
    assert first["board"] == shown.hex_board()
    white = "white.card1"      # White sits north: its displays are shown as the matrices light them, turned
    assert tuple(first["displays"][white]) == turn(shown.bitmap(white), 180)
    assert state["to_move"] == "red" and state["seats"][0]["cards"][0] == "NE3"   # R7
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
    while not got or got[-1] != 49:         # the latest comes, and little before it
        message = await ws.receive_json(timeout=5)
        if "n" in message:
            got.append(message["n"])
    assert len(got) <= 3


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
    assert any("refused 403 a WebSocket message from 127.0.0.1: wrong token" in line for line in t.log)
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
    on_table = {"mode": "humans", "over": False, "recorded": body["names"], "moves": 0}
    assert answer.status == 200 and await answer.json() == {**body, "game": on_table}
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
    while (reply := await ws.receive_json(timeout=5))["type"] != "error":
        pass
    assert "too many messages" in reply["error"]
    answers = [(await t.client.get("/api/games")).status for _ in range(8)]
    assert 429 in answers


@contextlib.asynccontextmanager
async def served(tmp_path, **web):
    """The server as the service runs it, on its own socket, aiohttp's own records in its log: (server, log)."""
    rig = Rig(tmp_path / "data", slots=tuple(CHAIN))
    rig.start(Setup(Mode.HUMANS, seed=7))
    log = []
    settings = WebSettings(port=0, **web)
    status = StatusCollector(str(tmp_path), "sim", log.append)
    server = WebServer(settings, listen(settings), parse_config(CONFIG), "sim", status, rig.saves.archive, status.log)
    try:
        async with server.serving(rig.loop):
            yield server, log
    finally:
        rig.close()


async def test_the_rates_of_addresses_gone_quiet_are_forgotten(table):
    """Each address's rate is kept while it may still be over its limit; once it has been quiet as long as it takes
    to fill up again, it is forgotten whenever many are kept (they were kept for ever)."""
    t = await table(trusted_proxies=("127.0.0.1",), max_connections=2, messages_per_second=1)
    now = [0.0]
    t.server.clock = lambda: now[0]
    for k in range(12):
        assert (await t.client.get("/api/games", headers={"X-Forwarded-For": f"203.0.113.{k}"})).status == 200
    assert len(t.server.buckets) == 12                       # all within their two seconds: none is forgotten
    now[0] = 2.0                                             # 1 a second, 2 at once: full again
    await t.client.get("/api/games", headers={"X-Forwarded-For": "203.0.113.99"})
    assert list(t.server.buckets) == ["203.0.113.99"]


async def test_websocket_opens_are_limited_per_address_too(table):
    t = await table(messages_per_second=1)
    statuses = []
    for _ in range(3):
        try:
            ws, _ = await t.socket()
            statuses.append(101)
        except aiohttp.WSServerHandshakeError as exc:
            statuses.append(exc.status)
    assert statuses == [101, 101, 429]


async def test_a_token_in_an_address_never_reaches_the_log(tmp_path):
    """The server as the service runs it, on its own socket, with its own log of refused requests."""
    async with served(tmp_path, token=TOKEN) as (server, log), aiohttp.ClientSession() as http:
        assert (await http.get(f"{server.url}?token={TOKEN}")).status == 200
        answer = await http.post(f"{server.url}api/names?token={TOKEN}", json={"names": {}})
        assert answer.status == 403
    assert any("refused 403 POST /api/names from 127.0.0.1: naming the players needs the operator's token" in line
               for line in log)
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
    _LogBridge(lines.append, Refusals(lines.append)).emit(record)
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


# --- on a network (issue 33): the page's names, a reverse proxy, what is refused ------------------------------

PROXIED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "table.museum.example",
           "Origin": "https://table.museum.example"}


@pytest.mark.parametrize("host, status", [("evil.example", 421), ("evil.example:8080", 421), ("127.0.0.1", 200),
                                          ("192.168.1.20:8080", 200), ("[::1]:8080", 200), ("localhost", 200),
                                          ("table.museum.example", 200), ("TABLE.museum.example.", 200)])
async def test_a_page_on_any_address_answers_to_its_own_names_only(table, host, status):
    """DNS rebinding: another site's name, resolved to the table, is refused whatever address the page listens on;
    an IP address, this machine's names and `[web] hostnames` are the page's."""
    t = await table(host="0.0.0.0", token=TOKEN, hostnames=("table.museum.example",))
    answer = await t.client.get("/api/status", headers={"Host": host})
    assert answer.status == status
    if status == 421:
        assert "does not answer to" in (await answer.json())["error"]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await t.client.ws_connect("/ws", headers={"Host": host})
        assert refused.value.status == 421


async def test_this_machines_own_name_is_the_pages(table):
    t = await table()
    for name in (socket.gethostname(), socket.gethostname().split(".")[0] + ".local"):
        assert (await t.client.get("/api/state", headers={"Host": name})).status == 200


async def test_behind_a_trusted_proxy_a_browser_acts_and_is_limited_as_itself(table):
    """HTTPS at a reverse proxy: the browser's origin is https://table.museum.example, which the proxy forwards;
    the table believes it from the proxy only, and counts each browser (X-Forwarded-For) on its own."""
    t = await table(allow_naming=True, hostnames=("table.museum.example",), trusted_proxies=("127.0.0.1/32",),
                    messages_per_second=1)
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}}, headers=PROXIED)
    assert answer.status == 200 and t.rig.session.names == {"red": "Ann"}
    ws = await t.client.ws_connect("/ws", headers=PROXIED)
    assert (await ws.receive_json(timeout=5))["type"] == "hello"
    await ws.close()
    statuses = [(await t.client.get("/api/games", headers=PROXIED)).status for _ in range(4)]
    assert statuses[-1] == 429                                 # 203.0.113.7 has used up its two at once
    other = {**PROXIED, "X-Forwarded-For": "203.0.113.8"}
    assert (await t.client.get("/api/games", headers=other)).status == 200     # another browser has its own
    assert any("from 203.0.113.7" in line for line in t.log)
    claimed = {**PROXIED, "X-Forwarded-For": "198.51.100.1, 203.0.113.7"}       # what a browser said, then the proxy
    assert (await t.client.get("/api/games", headers=claimed)).status == 429    # still 203.0.113.7, as the proxy saw it
    on_8443 = {**PROXIED, "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Host": "table.museum.example:8443",
               "Origin": "https://table.museum.example:8443"}                   # nginx's $http_host keeps the port
    answer = await t.client.post("/api/names", json={"names": {"red": "Bo"}}, headers=on_8443)
    assert answer.status == 200 and t.rig.session.names == {"red": "Bo"}


async def test_a_proxys_headers_that_cannot_be_read_are_a_refusal_with_the_pages_headers(table):
    t = await table(hostnames=("table.museum.example",), trusted_proxies=("127.0.0.1",))
    for headers in ({**PROXIED, "X-Forwarded-For": "not-an-address"},
                    [*PROXIED.items(), ("X-Forwarded-Proto", "http")]):        # X-Forwarded-Proto given twice
        answer = await t.client.get("/api/games", headers=headers)
        assert answer.status == 400 and "X-Forwarded headers cannot be read" in (await answer.json())["error"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert t.server.refusals.to_dict()["by_status"] == {"400": 2}


async def test_forwarded_headers_from_anyone_but_a_trusted_proxy_are_ignored(table):
    """A visitor that is not the proxy cannot name its own address: its limits and its refusals are its own."""
    for proxies in ((), ("10.0.0.1",)):
        t = await table(allow_naming=True, hostnames=("table.museum.example",), trusted_proxies=proxies,
                        messages_per_second=1)
        answer = await t.client.post("/api/names", json={"names": {"red": "Ann"}}, headers=PROXIED)
        assert answer.status == 403 and "another site" in (await answer.json())["error"]     # http://127.0.0.1:…
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await t.client.ws_connect("/ws", headers=PROXIED)
        assert t.rig.session.names == {}
        rotating = [(await t.client.get("/api/games", headers={"X-Forwarded-For": f"203.0.113.{k}"})).status
                    for k in range(6)]
        assert 429 in rotating and t.server.refusals.to_dict()["last"][-1]["from"] == "127.0.0.1"


async def test_a_crowd_of_refused_requests_is_counted_and_cannot_wipe_the_operators_log(table):
    """Sixty POSTs without the token and a thousand WebSocket opens over the limit: the service's own error is still
    among the last errors, the refusals are counted apart, and the log hears at most four lines of them a minute."""
    t = await table(token=TOKEN, connections_per_client=1, messages_per_second=1000)
    t.server.status.log("roseking: the save cannot be written: disk full")
    ws, _ = await t.socket()
    for _ in range(60):
        assert (await t.client.post("/api/names", json={"names": {"red": "Eve"}})).status == 403
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "x" * 24}
    for _ in range(1000):
        assert (await t.client.get("/ws", headers=upgrade)).status == 429
    await ws.close()
    status = await (await t.client.get("/api/status")).json()
    assert [e["line"] for e in status["errors"]] == ["roseking: the save cannot be written: disk full"]
    assert status["refused"]["total"] == 1060 and status["refused"]["by_status"] == {"403": 60, "429": 1000}
    assert len(status["refused"]["last"]) == 10 and status["refused"]["last"][-1]["what"] == "GET /ws"
    said = [line for line in t.log if line.startswith("roseking: web:") and "refus" in line]
    assert len(said) == 3
    t.server.refusals.clock = lambda: time.monotonic() + 61          # the minute is over
    t.server.refusals.tick()
    assert t.log[-1] == "roseking: web: 1057 more refusals in the last minute (403 ×57, 429 ×1000) from 1 address"


UPGRADE = (b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
           b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")


async def raw(server, request, reset=False):
    """Send `request` as it is, on a connection of its own: the answer's status line; or, with `reset`, tear the
    connection down at once (a TCP reset, as a phone that leaves the Wi-Fi)."""
    reader, writer = await asyncio.open_connection(*server.sock.getsockname()[:2])
    writer.write(request)
    await writer.drain()
    if reset:
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
        return b""
    answer = await reader.readline()
    writer.close()
    return answer


async def test_a_bad_host_a_subprotocol_or_a_reset_handshake_cannot_wipe_the_operators_log(tmp_path):
    """Three ways a stranger made aiohttp log a line apiece among the service's errors (review of issue 33): a Host
    that names no host (a 500 once), a WebSocket asking for a subprotocol, a WebSocket whose connection is reset
    in its handshake. The first two are refused (400) and counted, the third ends quietly; the service's own error
    is still the only one kept, and the log hears at most three of them a minute."""
    class Viewers(set):
        """The pages watching, and how many came and went (their handler done with them)."""
        came = gone = 0

        def add(self, viewer):
            self.came += 1
            super().add(viewer)

        def discard(self, viewer):
            self.gone += 1
            super().discard(viewer)
    async with served(tmp_path, messages_per_second=1000) as (server, log):
        server.mirror.viewers = viewers = Viewers()
        server.status.log("roseking: the save cannot be written: disk full")
        for _ in range(25):
            for host in (b"a:b:c", b"127.0.0.1:99999"):
                assert await raw(server, b"GET /api/state HTTP/1.1\r\nHost: " + host + b"\r\n\r\n") == \
                    b"HTTP/1.1 400 Bad Request\r\n"
            assert await raw(server, UPGRADE + b"Sec-WebSocket-Protocol: evil\r\n\r\n") == \
                b"HTTP/1.1 400 Bad Request\r\n"
        for _ in range(25):
            await raw(server, UPGRADE + b"\r\n", reset=True)
        assert await raw(server, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") == b"HTTP/1.1 200 OK\r\n"
        await until(lambda: viewers.gone == viewers.came > 0)     # a reset before the handshake is not handled
        status = server.status.status()
        assert [line for _, line in status.errors] == ["roseking: the save cannot be written: disk full"]
        refused = server.refusals.to_dict()
        assert refused["by_status"] == {"400": 75}
        assert {r["why"] for r in refused["last"]} == {"the Host header names no host ('a:b:c')",
                                                       "the Host header names no host ('127.0.0.1:99999')",
                                                       "the table's WebSocket speaks no subprotocol: ask for none"}
        assert len([line for line in log if line.startswith("roseking: web:")]) == 3


def test_aiohttp_s_records_of_a_client_s_doing_are_within_the_networks_lines():
    """A connection the client dropped and aiohttp's warnings about a client are notes within the network's lines;
    only an exception of the service's own handlers is the service's error."""
    errors, network = [], []
    bridge = _LogBridge(errors.append, Refusals(network.append))

    def record(error, level=logging.ERROR, message="Error handling request from %s"):
        try:
            raise error
        except type(error):
            return logging.LogRecord("aiohttp.server", level, __file__, 1, message, ("10.0.0.9",), sys.exc_info())
    from aiohttp import ClientConnectionResetError
    bridge.emit(record(ClientConnectionResetError("Cannot write to closing transport")))
    bridge.emit(logging.LogRecord("aiohttp.websocket", logging.WARNING, __file__, 1, "%s: Client protocols %r don't "
                                  "overlap server-known ones %r", ("10.0.0.9", ["evil"], ()), None))
    assert errors == [] and len(network) == 2 and "Cannot write to closing transport" in network[0]
    bridge.emit(record(KeyError("red.hero")))
    assert errors == ["roseking: web: Error handling request from 10.0.0.9: KeyError: 'red.hero'"]


def test_a_request_aiohttp_cannot_read_is_a_refusal_not_an_error():
    from aiohttp.http_exceptions import BadHttpMessage
    lines, refused = [], []
    refusals = Refusals(refused.append)
    try:
        raise BadHttpMessage("Invalid header value char")
    except BadHttpMessage:
        record = logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling request from %s",
                                   ("10.0.0.9",), sys.exc_info())
    _LogBridge(lines.append, refusals).emit(record)
    assert lines == [] and refusals.total == 1 and "refused 400 a request from 10.0.0.9" in refused[0]


# --- the heartbeat (issue 33) ---------------------------------------------------------------------------------

async def test_the_table_beats_to_every_page_as_often_as_configured_on_its_loops_clock(table):
    """The beat comes from the table's loop (its clock), every `beat_seconds`, which the page is told; a loop
    whose clock stands still does not beat."""
    t = await table(beat_seconds=0.5)
    ws, hello = await t.socket()
    assert hello["table"]["beat"] == 0.5
    beats = []
    for _ in range(3):
        t.rig.time.advance(0.5)                   # the loop's clock; its next step beats
        while (message := await ws.receive_json(timeout=5))["type"] != "beat":
            pass
        beats.append(message)
    assert len(beats) == 3 and all(b["seq"] >= 1 for b in beats)
    mirror = t.server.mirror
    beaten = mirror.beaten
    for _ in range(10):                            # the loop turns, its clock standing still: no beat
        t.rig.loop.step()
    assert mirror.beaten == beaten and all("beat" not in viewer.pending for viewer in mirror.viewers)


# --- the games: in progress and archived, to download and replay (issue 33) -----------------------------------

async def test_the_game_in_progress_downloads_as_a_record_the_cli_reads_and_replays_move_by_move(table, tmp_path):
    t = await table()
    ws, _ = await t.socket()
    for _ in range(2):
        await page_events(t, ws, "red.card1", 0.08)
    await until(lambda: len(t.game.pos.history()) == 1)
    state = await t.state(ws)
    while state["moves"] != 1:
        state = await t.state(ws)
    assert state["history"] == [["red", "NE3"]]
    assert state["last"] == {"seat": "red", "move": "NE3", "origin": "e5", "target": "h8"}
    assert state["crown"] == "h8" and state["red_stones"] == ["h8"] and state["white_stones"] == []
    answer = await t.client.get("/games/current.json")
    assert answer.status == 200 and "attachment" in answer.headers["Content-Disposition"]
    path = tmp_path / "current.json"
    path.write_bytes(await answer.read())
    assert main(["replay", str(path)]) == 0
    game = await (await t.client.get("/api/games/current")).json()
    assert [p.get("move") for p in game["plies"]] == [None, "NE3"] and game["plies"][1]["crown"] == "h8"
    assert game["result"] == {"winner": None, "reason": "unfinished"}


async def test_an_archived_game_downloads_alone_and_a_missing_one_is_404(table, tmp_path):
    t = await table()
    lines = [finished_game(1), finished_game(2)]
    (tmp_path / "data" / "records.jsonl").write_text("".join(record_line(r) + "\n" for r in lines) + "not json\n")
    answer = await t.client.get("/games/2.json")
    assert answer.status == 200 and json.loads(await answer.read()) == json.loads(record_line(lines[1]))
    assert 'filename="roseking-game-2.json"' in answer.headers["Content-Disposition"]
    for line, status in (("3", 404), ("4", 404), ("x", 400)):
        assert (await t.client.get(f"/games/{line}.json")).status == status
    menu = await table(setup=None)
    assert (await menu.client.get("/games/current.json")).status == 404


@pytest.mark.parametrize("setup, recorded", [(Setup(Mode.DEMO, "easy", seed=7), {}),
                                              (Setup(Mode.VS_COMPUTER, "easy", "white", seed=7), {"white": "Bo"})])
async def test_naming_says_what_the_game_on_the_table_records(table, setup, recorded):
    """A demonstration records no names, a game against the computer its person's only: the answer says so."""
    t = await table(allow_naming=True, setup=setup)
    answer = await t.client.post("/api/names", json={"names": {"red": "Ann", "white": "Bo"}})
    body = await answer.json()
    assert answer.status == 200 and body["game"] == {"mode": setup.mode, "over": False, "recorded": recorded,
                                                     "moves": 0}
    assert t.game.names == recorded and t.rig.session.names == {"red": "Ann", "white": "Bo"}


# --- the pages' language (issue 33) ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/status", "/club", "/replay"])
async def test_the_pages_speak_the_tables_language_or_the_one_asked_for(table, path):
    t = await table(config={**CONFIG, "table": {"language": "de"}})
    page = await (await t.client.get(path)).text()
    assert '<html lang="de">' in page and "<h1>Der Rosenkönig</h1>" in page and "{{" not in page
    assert '"lang": "de"' in page
    asked = await (await t.client.get(f"{path}?lang=es")).text()
    assert '<html lang="es">' in asked and "El Rey de las Rosas" in asked
    other = await (await t.client.get(f"{path}?lang=xx")).text()
    assert '<html lang="de">' in other


async def test_a_page_hears_the_table_in_the_language_it_asks_for(table):
    """A German table's state in words, to a page that asks for Spanish: the last move, what the displays say, the
    game menu's cards (with their keys: the page says what each does)."""
    t = await table(config={**CONFIG, "table": {"language": "de"}})
    spanish, _ = await t.socket(params={"lang": "es"})
    german, _ = await t.socket()
    for _ in range(2):
        t.rig.loop.submit(ButtonEvent("red", "card1", PRESS))
        t.rig.loop.submit(ButtonEvent("red", "card1", RELEASE))
    await until(lambda: t.game.pos.history() == ["NE3"])
    said = [await t.state(ws) for ws in (spanish, german)]
    while said[0]["last_move"] is None:
        said = [await t.state(ws) for ws in (spanish, german)]
    assert [s["last_move"] for s in said] == ["ROJO NE3", "ROT NE3"]
    state = (await (await t.client.get("/api/state?lang=es")).json())["state"]
    assert state["last_move"] == "ROJO NE3" and "language" not in state
    t.rig.loop.submit(ButtonEvent(None, "menu", PRESS))
    t.rig.loop.submit(ButtonEvent(None, "menu", RELEASE))
    state = await t.state(spanish)
    while state["screen"] != "options":
        state = await t.state(spanish)
    assert state["menu"][0] == "MARCADOR" and state["menu_keys"][0] == "item-score"


async def test_naming_by_anyone_is_said_within_the_networks_lines(table):
    """With `allow_naming`, anyone may name the seats, as often as the limits let them: the log hears at most three
    lines of it a minute, then how many were held back."""
    t = await table(allow_naming=True, messages_per_second=1000)
    for k in range(40):
        assert (await t.client.post("/api/names", json={"names": {"red": f"Ann {k}"}})).status == 200
    assert len([line for line in t.log if "the seats are named" in line]) == 3
    t.server.refusals.clock = lambda: time.monotonic() + 61
    t.server.refusals.tick()
    assert t.log[-1] == "roseking: web: 37 more notes from the network held back in the last minute"
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
