"""The table in a browser: aiohttp, inside the table's own asyncio loop.

One more receiver of the loop (`Mirror`) sends each frame, as the devices get it, with the
table's state in words, to every page over a WebSocket; one more source of presses
(`RemoteButtons`) turns the page's presses into the events the GPIO buttons make and submits
them to the loop. The pages (`static/`: HTML, CSS and JavaScript, no build step) are the mirror
at `/`, the operator's page at `/status`, the club's ladder at `/club` and the replay of a game at
`/replay`; they compute nothing of the game: every fact they show comes from here, every word from
the table's message catalogue in its language (`firmware_py.web.language`). The table's loop beats
to every page once a second, so a page knows when it has lost the table.

Who may do what: anyone who reaches the port may watch (the loopback address unless the
configuration says otherwise); the simulated table's buttons may be pressed by anyone at the
page; anything that changes a real table (its buttons from the page, naming the players, unless
`allow_naming`) needs the operator's token, compared in constant time, else 403 and nothing
changes. Every message and request is checked and bounded, and each client (address) has a
bounded number of connections and of messages a second; a slow client is sent the latest frame
only, so no client can hold up the table. The page answers only to its own names (`guard`: no DNS
rebinding) and, behind a trusted reverse proxy, to what the proxy forwards; what it refuses is
counted and said at a bounded rate (`refusals`), never among the service's own errors.
"""
import asyncio
import contextlib
import errno
import hmac
import json
import logging
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from engine.errors import RecordError
from engine.jsonio import brief
from engine.record import MAX_NAME, check_names, dumps as record_line
from firmware_py.errors import UsageError
from firmware_py.table.game import Mode, Setup
from firmware_py.table.loop import TableLoop
from firmware_py.table.messages import Language
from firmware_py.table.settings import LEVELS, table_settings
from firmware_py.table.shutdown import shut_down
from firmware_py.table.scenes import COLOURS, CROWN
from firmware_py.table.state import TableState
from firmware_py.table.status import StatusCollector
from firmware_py.web import health, language
from firmware_py.web.language import dumps
from firmware_py.web.archive import Archive, plies
from firmware_py.web.guard import Hosts, Proxies, Unforwarded, host_name, same_origin
from firmware_py.web.refusals import Refusals
from firmware_py.web.remote import RemoteButtons
from firmware_py.web.settings import LOCALHOST, WebSettings
from hardware.config import Config
from hardware.events import ButtonTiming
from hardware.frame import Frame, hex_colour
from hardware.keyboard import key_map
from hardware.names import panels_by_side
from hardware.sim import as_seen
from hardware.snapshot import DOT_DIM, DOT_OFF, DOT_ON

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/status": "status.html", "/club": "club.html", "/replay": "replay.html"}
MAX_MESSAGE = 512           # bytes of one message from a page (a button's is about 50)
MAX_FRAME = 4096            # the WebSocket's own cap: a longer message closes the connection
MAX_BODY = 4096             # bytes of a request's body
STRIKES = 100               # refused messages in a row that end a connection
RECENT_GAMES = 20
HEARTBEAT_SECONDS = 10.0   # the WebSocket's ping: a page that does not answer within half of it is gone
SHUTDOWN_SECONDS = 2.0
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
Log = Callable[[str], None]
TOKEN_IN_TEXT = re.compile(r"token=[^&\s]*")


LIMITED = ("/records.jsonl", "/ws", "/metrics")
"""Paths outside /api/ and /games/ that a client's rate limits too."""


@dataclass(frozen=True)
class TableInfo:
    """What a page needs to know of the table once: the backend, the seats and the board edge each sits at,
    the display slots along each edge as seen from above (`hardware.names.panels_by_side`), the buttons,
    the terminal's keys for them, how often the table beats (`beat`, seconds), the colours of the displays'
    dots and of the stones and the crown, and the longest name of a person."""
    backend: str
    seats: tuple[str, ...]
    sides: dict[str, str]
    panels: dict[str, tuple[str, ...]]
    buttons: tuple[str, ...]
    keys: tuple[tuple[str, str], ...]
    beat: float = 1.0
    dots: dict[str, str] = field(default_factory=lambda: {"on": hex_colour(DOT_ON), "dim": hex_colour(DOT_DIM),
                                                           "off": hex_colour(DOT_OFF)})

    @classmethod
    def of(cls, config: Config, backend: str, beat: float) -> "TableInfo":
        sides = config.displays.sides()
        buttons = config.buttons.panel         # never the staff's key: only a hand at the table turns it
        return cls(backend, config.seats, sides, panels_by_side(config.displays.chain, sides), buttons,
                   tuple((key, name) for key, name in key_map(config.seats).items() if name in buttons), beat)

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "seats": list(self.seats), "sides": self.sides,
                "panels": {side: list(slots) for side, slots in self.panels.items()}, "buttons": list(self.buttons),
                "keys": [list(pair) for pair in self.keys], "dots": self.dots, "max_name": MAX_NAME,
                "modes": list(Mode), "beat": self.beat,
                "colours": {"red": hex_colour(COLOURS[0]), "white": hex_colour(COLOURS[1]), "crown": hex_colour(CROWN)}}


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=dumps)


def frame_message(frame: Frame, seq: int, at: float) -> str:
    """The WebSocket message of a frame, as the table shows it: `seq` counts the frames, `at` is the server's
    monotonic clock when the loop showed it."""
    return dumps({"type": "frame", "seq": seq, "at": at, "board": frame.hex_board(),
                  "displays": {slot: list(bitmap) for slot, bitmap in frame.displays.items()},
                  "dimmed": sorted(frame.dimmed), "caption": frame.caption})


def state_message(state: TableState, seq: int, words: Language) -> str:
    """The WebSocket message of the table's state in words (in the language `words`), sent when it changes, with
    the `seq` of the frame shown with it."""
    return dumps({"type": "state", "seq": seq, "state": state.to_dict(words)})


class Bucket:
    """At most `rate` a second, `2 * rate` at once: `take()` is False when over; `full()` when nothing has been
    taken for as long as it takes to fill up again (a bucket that can be forgotten).

    >>> now = [0.0]
    >>> bucket = Bucket(2, lambda: now[0])
    >>> [bucket.take() for _ in range(5)], bucket.full()
    ([True, True, True, True, False], False)
    >>> now[0] = 2.0; bucket.full()
    True
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, 2 * rate, clock
        self.level, self.at = self.burst, clock()

    def _refill(self) -> float:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        return self.level

    def take(self) -> bool:
        if self._refill() < 1:
            return False
        self.level -= 1
        return True

    def full(self) -> bool:
        return self._refill() >= self.burst


class Viewer:
    """One page's WebSocket, from `address`, in the page's `language`: it is sent the latest state, the latest
    frame and the latest beat, never a backlog (a slow page skips frames, never a change of the state: each
    is whole)."""

    KINDS = ("frame", "state", "beat")

    def __init__(self, ws: web.WebSocketResponse, address: str, language: Language) -> None:
        self.ws, self.address, self.language = ws, address, language
        self.pending: dict[str, str] = {}
        self.ready = asyncio.Event()
        self.play = False
        self.strikes = 0

    def offer(self, message: str, kind: str = "frame") -> None:
        self.pending[kind] = message
        self.ready.set()

    async def send(self) -> None:
        """Send the latest of each kind, the picture first, until the connection closes."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not self.ws.closed:
                await self.ready.wait()
                self.ready.clear()
                for kind in self.KINDS:
                    message = self.pending.pop(kind, None)
                    if message is not None:
                        await self.ws.send_str(message)


class Mirror:
    """The loop's receiver for the pages: each new frame, turned as the table's displays light it (`as_seen`),
    and each new state, encoded once (a state once in each language its viewers read) and offered to every
    viewer (and encoded only when someone watches); and, as a ticker of the loop, its beat every `beat`
    seconds of the loop's clock."""

    def __init__(self, seen: Callable[[Frame], Frame], beat: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seen, self.every, self.clock = seen, beat, clock
        self.viewers: set[Viewer] = set()
        self.frame: Frame | None = None
        self.state: TableState | None = None
        self.at = 0.0
        self.seq = 0
        self.beaten = -float("inf")
        self._frame: str | None = None                  # the frame's message, once made
        self._states: dict[Language, str] = {}           # the state's message in each language, once made

    def show(self, frame: Frame, state: TableState) -> None:
        new_frame, new_state = frame != self.frame, state != self.state
        if new_frame:
            self.seq += 1
            self._frame = None
        if new_state:
            self._states.clear()
        self.frame, self.state, self.at = frame, state, self.clock()
        for viewer in self.viewers:
            if new_state:
                viewer.offer(self.state_message(viewer.language), "state")
            if new_frame:
                viewer.offer(self.frame_message(), "frame")

    def frame_message(self) -> str:
        """The message of the frame shown last (`show` has been called)."""
        if self._frame is None:
            assert self.frame is not None
            self._frame = frame_message(self.seen(self.frame), self.seq, self.at)
        return self._frame

    def state_message(self, words: Language) -> str:
        """The message of the state shown last (`show` has been called), in the language `words`."""
        message = self._states.get(words)
        if message is None:
            assert self.state is not None
            message = self._states[words] = state_message(self.state, self.seq, words)
        return message

    def welcome(self, viewer: Viewer) -> None:
        """A new page is offered the state and the frame shown last, if any."""
        if self.frame is not None:
            viewer.offer(self.state_message(viewer.language), "state")
            viewer.offer(self.frame_message(), "frame")

    def beat(self, now: float) -> None:
        """A ticker of the loop: every `beat` seconds, a beat to every page (the table's loop turns)."""
        if now >= self.beaten + self.every:
            self.beaten = now
            message = dumps({"type": "beat", "seq": self.seq})
            for viewer in self.viewers:
                viewer.offer(message, "beat")


class Refused(Exception):
    """A message or request refused: `status` (400, 403, 409, 429), what is wrong, and `about` what (a page's
    message: its type, `auth` for a wrong token)."""

    def __init__(self, status: int, message: str, about: str | None = None) -> None:
        super().__init__(message)
        self.status, self.about = status, about


def listen(settings: WebSettings) -> socket.socket:
    """A socket bound to the page's address, before anything else starts; UsageError if it cannot be."""
    host = "127.0.0.1" if settings.host == LOCALHOST else settings.host
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, settings.port or 0), family=family, reuse_port=False)
    except OSError as exc:
        hint = "; another program has it: choose another port, --web PORT (make run WEB=PORT)" \
            if exc.errno == errno.EADDRINUSE else ""
        raise UsageError(f"--web: cannot listen on {_address(host, settings.port or 0)} ({exc.strerror}){hint}") \
            from None


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class WebServer:
    """The page's server on the bound socket `sock`, for a table of `config` on `backend`; `status` is the
    table's status, `archive` its records file, `log` the service's log."""

    def __init__(self, settings: WebSettings, sock: socket.socket, config: Config, backend: str,
                 status: StatusCollector, archive: Path, log: Log) -> None:
        self.settings, self.sock, self.status, self.log = settings, sock, status, log
        self.info = TableInfo.of(config, backend, settings.beat_seconds)
        self.language = table_settings(config).language
        self.hosts = Hosts(settings.hostnames)
        self.proxies = Proxies(settings.trusted_proxies)
        self.refusals = Refusals(status.note)
        self.timing: ButtonTiming = config.buttons.timing
        self.shutdown_command = table_settings(config).shutdown_command
        self.mirror = Mirror(as_seen(config), settings.beat_seconds)
        self.archive = Archive(archive)
        self.buckets: dict[str, Bucket] = {}
        self.clock: Callable[[], float] = time.monotonic        # the buckets' clock
        self.loop: TableLoop | None = None
        self.remote: RemoteButtons | None = None

    def close(self) -> None:
        """Give the address back (when the page was never served)."""
        self.sock.close()

    @property
    def url(self) -> str:
        """The page's address, as a person types it."""
        host, port = self.sock.getsockname()[:2]
        shown = host if host not in ("0.0.0.0", "::") else socket.gethostname()
        return f"http://{_address(shown, port)}/"

    # --- rights ---------------------------------------------------------------

    def operator(self, token: object) -> bool:
        """True if `token` is the operator's (compared in constant time); never without a configured token."""
        mine = self.settings.token
        return mine is not None and isinstance(token, str) and hmac.compare_digest(token.encode(), mine.encode())

    def may_play(self, operator: bool) -> bool:
        """The simulated table's buttons are anyone's at the page; a real table's only with the operator's
        token, and only when `allow_remote_play`."""
        return self.info.backend == "sim" or (self.settings.allow_remote_play and operator)

    def _bearer(self, request: web.Request) -> bool:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        return scheme == "Bearer" and self.operator(token)

    def _bucket(self, address: str) -> Bucket:
        """The rate of `address`; the buckets of the addresses that have been quiet long enough are forgotten
        whenever there are many."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= 4 * self.settings.max_connections:
                self.buckets = {a: b for a, b in self.buckets.items() if not b.full()}
            bucket = self.buckets[address] = Bucket(self.settings.messages_per_second, self.clock)
        return bucket

    # --- the application -------------------------------------------------------

    def app(self, loop: TableLoop) -> web.Application:
        """The aiohttp application around `loop`, made in the asyncio loop that runs it: the mirror joins
        the loop's receivers and the page's buttons submit to it, until the application is cleaned up."""
        self.loop = loop
        self.remote = RemoteButtons(self.info.buttons, self.timing, loop.submit, asyncio.get_running_loop().call_later)
        loop.receivers.append(self.mirror)
        loop.tickers.extend((self.mirror.beat, self._tick))
        if loop.shown is not None and loop.state is not None:      # a loop already running: its picture now
            self.mirror.show(loop.shown, loop.state)
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.on_shutdown.append(self._shutdown)
        app.on_cleanup.append(self._cleanup)
        for path in PAGES:
            app.router.add_get(path, self._page)
        app.router.add_static("/static", STATIC, follow_symlinks=False)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/status", self._status)
        app.router.add_get("/api/games", self._games)
        app.router.add_get("/api/games/current", self._current)      # before {line}, whatever the router tries first
        app.router.add_get("/api/games/{line}", self._game)
        app.router.add_get("/api/club", self._club)
        app.router.add_post("/api/names", self._names)
        app.router.add_post("/api/new-game", self._new_game)
        app.router.add_post("/api/brightness", self._brightness)
        app.router.add_post("/api/shutdown", self._power_off)
        app.router.add_get("/records.jsonl", self._records)
        app.router.add_get("/games/{line}.json", self._record)
        health.add_routes(app, self.status)
        return app

    def _tick(self, now: float) -> None:
        self.refusals.tick()

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Every request, as a trusted proxy forwards it (`guard.Proxies`): the names the page answers to (no DNS
        rebinding), the same origin for anything that acts, the client's rate for the API, the downloads and
        the WebSocket; the security headers on every answer. A refusal is counted (`refusals`)."""
        async def checked(request: web.Request) -> web.StreamResponse:
            try:
                self._check_origin(request)
                if request.path.startswith(("/api/", "/games/")) or request.path in LIMITED:
                    if not self._bucket(request.remote or "?").take():
                        raise Refused(429, "too many requests: wait a second")
                return await handler(request)
            except Refused as exc:
                return self._refused(request, exc)
        try:
            response = await self.proxies.forward(request, checked)
        except Unforwarded as exc:
            response = self._refused(request, Refused(400, str(exc)))
        except web.HTTPException as exc:
            exc.headers.update(SECURITY_HEADERS)
            raise
        if not response.prepared:               # a WebSocket's answer has gone already
            response.headers.update(SECURITY_HEADERS)
            if request.path.startswith("/api/"):
                response.headers["Cache-Control"] = "no-store"
        return response

    def _refused(self, request: web.Request, refused: "Refused") -> web.Response:
        """The answer to a refused request, counted (`refusals`)."""
        self.refusals.refused(refused.status, f"{request.method} {request.rel_url.raw_path}", request.remote or "?",
                              str(refused))
        return _json({"error": str(refused)}, status=refused.status)

    def _check_origin(self, request: web.Request) -> None:
        host = host_name(request.host)
        if host is None:
            raise Refused(400, f"the Host header names no host ({brief(request.host)})")
        if not self.hosts.allows(host):
            raise Refused(421, f"this page does not answer to {brief(request.host)}: add it to [web] hostnames")
        acts = request.method != "GET" or request.path == "/ws"
        if acts and not same_origin(request):
            raise Refused(403, f"a request from another site ({brief(request.headers.get('Origin'))}) is refused")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(body=language.page(STATIC / PAGES[request.path], self._language(request)),
                            content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-cache"})

    def _language(self, request: web.Request) -> Language:
        """The language the page asks for (`?lang=`), else the table's."""
        return language.choose(request.query.get("lang"), self.language)

    async def _state(self, request: web.Request) -> web.Response:
        operator = self._bearer(request)
        state = self.mirror.state
        return _json({"table": self.info.to_dict(), "state": state.to_dict(self._language(request)) if state else None,
                      "rights": self._rights(operator)})

    def _rights(self, operator: bool) -> dict[str, bool]:
        return {"play": self.may_play(operator), "operator": operator,
                "name": operator or self.settings.allow_naming, "token": self.settings.token is not None,
                "shutdown": operator and self.settings.allow_shutdown}

    async def _status(self, request: web.Request) -> web.Response:
        return _json({**self.status.status().to_dict(), "viewers": len(self.mirror.viewers),
                      "refused": self.refusals.to_dict()})

    async def _archived(self, work: Callable[[], Any]) -> Any:
        """Run `work` on the archive off the loop's thread, one at a time."""
        def locked() -> Any:
            with self.archive.lock:
                return work()
        return await asyncio.to_thread(locked)

    async def _games(self, request: web.Request) -> web.Response:
        return _json({"games": await self._archived(lambda: self.archive.recent(RECENT_GAMES))})

    async def _game(self, request: web.Request) -> web.Response:
        line = self._line(request)
        game = await self._archived(lambda: self.archive.game(line))
        if game is None:
            raise Refused(404, f"line {line} of the archive holds no game")
        return _json(game)

    @staticmethod
    def _line(request: web.Request) -> int:
        text = request.match_info["line"]
        if not text.isdigit() or len(text) > 9:
            raise Refused(400, f"a game is named by its line number (got {brief(text)})")
        return int(text)

    def _on_the_table(self) -> dict[str, Any]:
        """The record of the game on the table (result `unfinished` until its end); Refused (404) when there is
        none."""
        assert self.loop is not None
        game = self.loop.session.game
        if game is None or game.transient:
            raise Refused(404, "no game is on the table")
        return game.record()

    async def _current(self, request: web.Request) -> web.Response:
        """The game on the table move by move, as the replay viewer shows a game of the archive."""
        record = self._on_the_table()
        return _json(await asyncio.to_thread(plies, record, "the game on the table"))

    async def _record(self, request: web.Request) -> web.StreamResponse:
        """One game's record, as `roseking replay` and `roseking show` read it: `/games/LINE.json` (a game of
        the archive) or `/games/current.json` (the game on the table)."""
        if request.match_info["line"] == "current":
            record, name = self._on_the_table(), "roseking-current-game.json"
        else:
            line = self._line(request)
            record = await self._archived(lambda: self.archive.record(line))
            if record is None:
                raise Refused(404, f"line {line} of the archive holds no game")
            name = f"roseking-game-{line}.json"
        return web.Response(text=record_line(record) + "\n", content_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})

    async def _club(self, request: web.Request) -> web.Response:
        return _json(await self._archived(self.archive.ladder))

    async def _records(self, request: web.Request) -> web.StreamResponse:
        if not self.archive.path.is_file():
            raise Refused(404, "no game has been archived yet")
        return web.FileResponse(self.archive.path, headers={
            "Content-Type": "application/x-ndjson", "Content-Disposition": 'attachment; filename="records.jsonl"'})

    async def _body(self, request: web.Request, keys: set[str], shape: str) -> dict[str, Any]:
        """The request's JSON object, whose keys are among `keys`; Refused (400) saying `shape` else."""
        if request.content_type != "application/json":
            raise Refused(400, f"send {shape} as JSON (Content-Type: application/json)")
        try:
            body = json.loads(await request.text())
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the body is not JSON") from None
        if not isinstance(body, dict) or not set(body) <= keys:
            raise Refused(400, f"send {shape}")
        return body

    def _operator_only(self, request: web.Request, what: str) -> None:
        """Refused (403) unless the request gives the operator's token."""
        if not self._bearer(request):
            raise Refused(403, f"{what} needs the operator's token" if self.settings.token else
                          f"{what} is off: set [web] token in the configuration")

    async def _names(self, request: web.Request) -> web.Response:
        """Name the people at the seats: `{"names": {seat: name}}` (a seat left out is not named)."""
        if not (self.settings.allow_naming or self._bearer(request)):
            raise Refused(403, "naming the players needs the operator's token" if self.settings.token else
                          "naming the players is off: set [web] token (or allow_naming) in the configuration")
        body = await self._body(request, {"names"}, '{"names": {"SEAT": "NAME", …}}')
        if "names" not in body:
            raise Refused(400, 'send {"names": {"SEAT": "NAME", …}}')
        assert self.loop is not None
        try:
            names = check_names(body["names"], self.loop.session.seats)
        except RecordError as exc:
            raise Refused(400, str(exc)) from None
        refused = self.loop.name(names)
        if refused is not None:
            raise Refused(409, refused)
        line = f"roseking: web: the seats are named {json.dumps(names)}"
        if self._bearer(request):
            self.status.note(line)
        else:
            self.refusals.note(line)            # anyone may name (allow_naming): within the network's lines
        game = self.loop.session.game
        on_table = None if game is None or game.transient else {
            "mode": game.setup.mode, "over": game.over, "recorded": {} if game.over else game.names,
            "moves": len(game.pos.stack)}
        return _json({"names": names, "game": on_table})

    async def _new_game(self, request: web.Request) -> web.Response:
        """Deal a new game at once, the one on the table archived first (as the menu's START does):
        `{"mode": MODE, "level": PLAYER, "human": "red"|"white"}`, each optional (default: the menu's)."""
        self._operator_only(request, "a new game from the page")
        body = await self._body(request, {"mode", "level", "human"},
                                '{"mode": MODE, "level": LEVEL, "human": "red"|"white"} (each optional)')
        assert self.loop is not None
        chosen = self.loop.session.menu.setup
        mode, level, human = body.get("mode", chosen.mode), body.get("level", chosen.level), body.get("human",
                                                                                                      chosen.human)
        if mode not in tuple(Mode):
            raise Refused(400, f"mode: {brief(mode)} is not one of {', '.join(Mode)}")
        if human not in ("red", "white"):
            raise Refused(400, f"human: {brief(human)} is not red or white")
        if "level" in body and (not isinstance(level, str) or level not in LEVELS):
            raise Refused(400, f"level: {brief(level)} is not one of {', '.join(LEVELS)}")
        setup = Setup(Mode(mode), level, human, secrets.randbelow(2 ** 31))
        refused = self.loop.new_game(setup)
        if refused is not None:
            raise Refused(409, refused)
        self.status.note(f"roseking: web: the operator dealt a new game ({setup.mode})")
        return _json({"mode": setup.mode, "level": setup.level, "human": setup.human})

    async def _brightness(self, request: web.Request) -> web.Response:
        """Light the board and the displays at `{"level": 0–1}` (0: dark and off, 1: as configured)."""
        self._operator_only(request, "the brightness from the page")
        body = await self._body(request, {"level"}, '{"level": a number from 0 to 1}')
        level = body.get("level")
        try:
            if isinstance(level, bool) or not isinstance(level, (int, float)):
                raise ValueError(f"a brightness level is a number from 0 to 1 (got {brief(level)})")
            assert self.loop is not None
            self.loop.set_brightness(level)
        except ValueError as exc:
            raise Refused(400, f"level: {exc}") from None
        self.status.note(f"roseking: web: the operator set the brightness to {level:.0%}")
        return _json({"level": self.loop.brightness})

    async def _power_off(self, request: web.Request) -> web.Response:
        """Shut the machine down cleanly: `[table] shutdown_command`, run without a shell, when `[web]
        allow_shutdown` and the operator's token allow it. 202 once it runs (or has run without error),
        500 with its words when it fails."""
        self._operator_only(request, "shutting the table down from the page")
        if not self.settings.allow_shutdown:
            raise Refused(403, "shutting the table down from the page is off: set [web] allow_shutdown = true")
        await self._body(request, set(), "{}")
        command = self.shutdown_command
        done = await shut_down(command, self.log, "web: the operator")
        if done.why is not None:
            raise Refused(500, done.why)
        return _json({"command": list(command), "status": done.status}, status=202)

    # --- the stream -------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "?"
        viewers = self.mirror.viewers
        if len(viewers) >= self.settings.max_connections:
            raise Refused(503, f"the table has {len(viewers)} viewers, its most: try again later")
        if sum(v.address == address for v in viewers) >= self.settings.connections_per_client:
            raise Refused(429, f"at most {self.settings.connections_per_client} connections from one client")
        if "Sec-WebSocket-Protocol" in request.headers:
            raise Refused(400, "the table's WebSocket speaks no subprotocol: ask for none")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_FRAME, compress=False)
        viewer = Viewer(ws, address, self._language(request))
        viewer.play = self.may_play(False)
        viewers.add(viewer)                 # counted from now on, while its handshake is still going
        sender: asyncio.Task[None] | None = None
        try:
            try:
                await ws.prepare(request)
                await ws.send_str(dumps({"type": "hello", "table": self.info.to_dict(), "rights": self._rights(False)}))
            except ConnectionError:         # gone during the handshake (a phone off the Wi-Fi): nothing to answer
                return web.Response(status=499, reason="Client Closed Request")
            self.mirror.welcome(viewer)
            sender = asyncio.create_task(viewer.send())
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    self.refusals.refused(400, "a WebSocket message", viewer.address, "not text")
                    await self._refuse(viewer, Refused(400, "send text messages (JSON)"))
                    continue
                try:
                    await self._message(viewer, msg.data)
                    viewer.strikes = 0
                except Refused as exc:
                    self.refusals.refused(exc.status, "a WebSocket message", viewer.address, str(exc))
                    await self._refuse(viewer, exc)
        finally:
            viewers.discard(viewer)
            if self.remote is not None:
                self.remote.release(viewer)
            if sender is not None:
                sender.cancel()
        return ws

    async def _refuse(self, viewer: Viewer, refused: Refused) -> None:
        viewer.strikes += 1
        if viewer.strikes >= STRIKES:
            await viewer.ws.close(code=1008, message=b"too many refused messages")
        elif viewer.strikes <= 3 or viewer.strikes % 10 == 0:
            await viewer.ws.send_str(dumps({"type": "error", "status": refused.status, "error": str(refused),
                                            "about": refused.about}))

    async def _message(self, viewer: Viewer, text: str) -> None:
        """One message of a page: a button going down or up, or the operator's token."""
        if len(text.encode()) > MAX_MESSAGE:
            raise Refused(400, f"message too long ({len(text.encode())} bytes; at most {MAX_MESSAGE})")
        if not self._bucket(viewer.address).take():
            raise Refused(429, "too many messages: at most "
                          f"{self.settings.messages_per_second:g} a second")
        try:
            message = json.loads(text)
        except ValueError:
            raise Refused(400, "not JSON") from None
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "button" and set(message) == {"type", "name", "down"}:
            name, down = message["name"], message["down"]
            if not isinstance(name, str) or name not in self.info.buttons:
                raise Refused(400, f"no button {brief(name)} (buttons: {', '.join(self.info.buttons)})")
            if not isinstance(down, bool):
                raise Refused(400, f"down: must be true or false (got {brief(down)})")
            if not viewer.play:
                raise Refused(403, "this page only watches: pressing a real table's buttons needs the operator's "
                              "token and [web] allow_remote_play")
            assert self.remote is not None
            self.remote.set(viewer, name, down)
        elif kind == "auth" and set(message) == {"type", "token"}:
            if not self.operator(message["token"]):
                raise Refused(403, "wrong token", "auth")
            viewer.play = self.may_play(True)
            await viewer.ws.send_str(dumps({"type": "rights", "rights": self._rights(True)}))
        else:
            raise Refused(400, 'expected {"type": "button", "name": BUTTON, "down": true|false} or '
                          '{"type": "auth", "token": TOKEN}')

    # --- running ---------------------------------------------------------------

    async def _shutdown(self, app: web.Application) -> None:
        for viewer in list(self.mirror.viewers):
            with contextlib.suppress(Exception):
                await viewer.ws.close(code=1001, message=b"the table is stopping")

    async def _cleanup(self, app: web.Application) -> None:
        if self.remote is not None:
            self.remote.close()
        if self.loop is not None and self.mirror in self.loop.receivers:
            self.loop.receivers.remove(self.mirror)
            self.loop.tickers.remove(self.mirror.beat)
            self.loop.tickers.remove(self._tick)

    @contextlib.asynccontextmanager
    async def serving(self, loop: TableLoop) -> AsyncIterator["WebServer"]:
        """Serve the pages of `loop` while the block runs (in the running asyncio loop)."""
        bridge = _LogBridge(self.log, self.refusals)
        aiohttp_log = logging.getLogger("aiohttp")
        aiohttp_log.addHandler(bridge)
        aiohttp_log.propagate = False
        runner = web.AppRunner(self.app(loop), access_log=None, handle_signals=False,
                               shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            await web.SockSite(runner, self.sock).start()
            self.status.note(f"roseking: the table in a browser: {self.url} (and /status, /club)")
            yield self
        finally:
            await runner.cleanup()
            aiohttp_log.removeHandler(bridge)
            aiohttp_log.propagate = True


class _LogBridge(logging.Handler):
    """aiohttp's own warnings and errors as one line each (no traceback on the terminal picture; the log keeps
    what it says), with any `token=…` a bad request carried blotted out. Only an error of the service's own
    (an exception in a handler) is the service's log's: what a client causes is within the network's lines
    (`refusals`), so no crowd can wipe the operator's last errors: a request aiohttp could not read is a
    refusal, a connection the client dropped and aiohttp's warnings about a client are notes."""

    def __init__(self, log: Log, refusals: Refusals) -> None:
        super().__init__(logging.WARNING)
        self.forward, self.refusals = log, refusals

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage().splitlines()[0][:300] if record.getMessage() else record.name
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            line += f": {type(error).__name__}: {' '.join(str(error).split())[:200]}"
        line = TOKEN_IN_TEXT.sub("token=…", line)
        if isinstance(error, HttpProcessingError):
            sender = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            self.refusals.refused(error.code, "a request", str(sender), line)
        elif error is None or isinstance(error, ConnectionError):
            self.refusals.note(f"roseking: web: {line}")
        else:
            self.forward(f"roseking: web: {line}")
