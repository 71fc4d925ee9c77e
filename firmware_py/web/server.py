"""The table in a browser: aiohttp, inside the table's own asyncio loop.

One more receiver of the loop (`Mirror`) sends each frame, as the devices get it, with the
table's state in words, to every page over a WebSocket; one more source of presses
(`RemoteButtons`) turns the page's presses into the events the GPIO buttons make and submits
them to the loop. The pages (`static/`: HTML, CSS and JavaScript, no build step) are the mirror
at `/`, the operator's page at `/status` and the club's ladder at `/club`; they compute nothing
of the game: every text they show comes from here.

Who may do what: anyone who reaches the port may watch (the loopback address unless the
configuration says otherwise); the simulated table's buttons may be pressed by anyone at the
page; anything that changes a real table (its buttons from the page, naming the players, unless
`allow_naming`) needs the operator's token, compared in constant time, else 403 and nothing
changes. Every message and request is checked and bounded, and each client (address) has a
bounded number of connections and of messages a second; a slow client is sent the latest frame
only, so no client can hold up the table.
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
from aiohttp.abc import AbstractAccessLogger

from engine.errors import RecordError
from engine.jsonio import brief
from engine.record import MAX_NAME, check_names
from firmware_py.errors import UsageError
from firmware_py.table.game import Mode, Setup
from firmware_py.table.loop import TableLoop
from firmware_py.table.settings import LEVELS, table_settings
from firmware_py.table.shutdown import shut_down
from firmware_py.table.state import TableState
from firmware_py.table.status import StatusCollector
from firmware_py.web import health
from firmware_py.web.archive import Archive
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
PAGES = {"/": "index.html", "/status": "status.html", "/club": "club.html"}
MAX_MESSAGE = 512           # bytes of one message from a page (a button's is about 50)
MAX_FRAME = 4096            # the WebSocket's own cap: a longer message closes the connection
MAX_BODY = 4096             # bytes of a request's body
STRIKES = 100               # refused messages in a row that end a connection
RECENT_GAMES = 20
HEARTBEAT_SECONDS = 20.0
SHUTDOWN_SECONDS = 2.0
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
Log = Callable[[str], None]
TOKEN_IN_TEXT = re.compile(r"token=[^&\s]*")


@dataclass(frozen=True)
class TableInfo:
    """What a page needs to know of the table once: the backend, the seats and the board edge each sits at,
    the display slots along each edge as seen from above (`hardware.names.panels_by_side`), the buttons,
    the terminal's keys for them, the colours of the displays' dots and the longest name of a person."""
    backend: str
    seats: tuple[str, ...]
    sides: dict[str, str]
    panels: dict[str, tuple[str, ...]]
    buttons: tuple[str, ...]
    keys: tuple[tuple[str, str], ...]
    dots: dict[str, str] = field(default_factory=lambda: {"on": hex_colour(DOT_ON), "dim": hex_colour(DOT_DIM),
                                                           "off": hex_colour(DOT_OFF)})

    @classmethod
    def of(cls, config: Config, backend: str) -> "TableInfo":
        sides = config.displays.sides()
        buttons = config.buttons.panel         # never the staff's key: only a hand at the table turns it
        return cls(backend, config.seats, sides, panels_by_side(config.displays.chain, sides), buttons,
                   tuple((key, name) for key, name in key_map(config.seats).items() if name in buttons))

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "seats": list(self.seats), "sides": self.sides,
                "panels": {side: list(slots) for side, slots in self.panels.items()}, "buttons": list(self.buttons),
                "keys": [list(pair) for pair in self.keys], "dots": self.dots, "max_name": MAX_NAME,
                "modes": list(Mode)}


def dumps(data: object) -> str:
    """JSON in which no `<`, `>` or `&` appears (each written as its \\u escape, the same JSON): whatever a
    page does with the text, no name can open a tag.

    >>> print(dumps({"name": "<b>Ann & Bo</b>"}))
    {"name": "\\u003cb\\u003eAnn \\u0026 Bo\\u003c/b\\u003e"}
    """
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _json(data: object, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=dumps)


def frame_message(frame: Frame, state: TableState, seq: int, at: float) -> str:
    """The WebSocket message of a frame (as the table shows it) and the state beside it: `seq` counts the
    frames, `at` is the server's monotonic clock when the loop showed it."""
    return dumps({"type": "frame", "seq": seq, "at": at, "board": frame.hex_board(),
                  "displays": {slot: list(bitmap) for slot, bitmap in frame.displays.items()},
                  "dimmed": sorted(frame.dimmed), "caption": frame.caption, "state": state.to_dict()})


class Bucket:
    """At most `rate` a second, `2 * rate` at once: `take()` is False when over."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, 2 * rate, clock
        self.level, self.at = self.burst, clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Viewer:
    """One page's WebSocket: it is sent the latest frame, never a backlog (a slow page skips frames)."""

    def __init__(self, ws: web.WebSocketResponse, address: str) -> None:
        self.ws, self.address = ws, address
        self.pending: str | None = None
        self.ready = asyncio.Event()
        self.play = False
        self.strikes = 0

    def offer(self, message: str) -> None:
        self.pending = message
        self.ready.set()

    async def send(self) -> None:
        """Send each latest frame until the connection closes."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not self.ws.closed:
                await self.ready.wait()
                self.ready.clear()
                message, self.pending = self.pending, None
                if message is not None:
                    await self.ws.send_str(message)


class Mirror:
    """The loop's receiver for the pages: each frame, turned as the table's displays light it (`as_seen`),
    encoded once and offered to every viewer (and encoded only when someone watches)."""

    def __init__(self, seen: Callable[[Frame], Frame], clock: Callable[[], float] = time.monotonic) -> None:
        self.seen, self.clock = seen, clock
        self.viewers: set[Viewer] = set()
        self.frame: Frame | None = None
        self.state: TableState | None = None
        self.at = 0.0
        self.seq = 0
        self._message: str | None = None

    def show(self, frame: Frame, state: TableState) -> None:
        self.seq += 1
        self.frame, self.state, self.at, self._message = frame, state, self.clock(), None
        message = self.message() if self.viewers else None
        if message is not None:
            for viewer in self.viewers:
                viewer.offer(message)

    def message(self) -> str | None:
        """The message of the frame shown last (None before the first)."""
        if self._message is None and self.frame is not None and self.state is not None:
            self._message = frame_message(self.seen(self.frame), self.state, self.seq, self.at)
        return self._message


class Refused(Exception):
    """A message or request refused: `status` (400, 403, 409, 429) and what is wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
        self.info = TableInfo.of(config, backend)
        self.timing: ButtonTiming = config.buttons.timing
        self.shutdown_command = table_settings(config).shutdown_command
        self.mirror = Mirror(as_seen(config))
        self.archive = Archive(archive)
        self.buckets: dict[str, Bucket] = {}
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
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 4 * self.settings.max_connections:     # forget the idle ones
                self.buckets = {a: b for a, b in self.buckets.items() if b.level < b.burst}
            bucket = self.buckets[address] = Bucket(self.settings.messages_per_second)
        return bucket

    # --- the application -------------------------------------------------------

    def app(self, loop: TableLoop) -> web.Application:
        """The aiohttp application around `loop`, made in the asyncio loop that runs it: the mirror joins
        the loop's receivers and the page's buttons submit to it, until the application is cleaned up."""
        self.loop = loop
        self.remote = RemoteButtons(self.info.buttons, self.timing, loop.submit, asyncio.get_running_loop().call_later)
        loop.receivers.append(self.mirror)
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
        app.router.add_get("/api/games/{line}", self._game)
        app.router.add_get("/api/club", self._club)
        app.router.add_post("/api/names", self._names)
        app.router.add_post("/api/new-game", self._new_game)
        app.router.add_post("/api/brightness", self._brightness)
        app.router.add_post("/api/shutdown", self._power_off)
        app.router.add_get("/records.jsonl", self._records)
        health.add_routes(app, self.status)
        return app

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Every request: the Host a loopback server answers to (no DNS rebinding), the same origin for
        anything that acts, the client's rate for the API; the security headers on every answer."""
        try:
            self._check_origin(request)
            if request.path.startswith("/api/") or request.path in ("/records.jsonl", "/metrics"):
                if not self._bucket(request.remote or "?").take():
                    raise Refused(429, "too many requests: wait a second")
            response = await handler(request)
        except Refused as exc:
            response = _json({"error": str(exc)}, status=exc.status)
        except web.HTTPException as exc:
            exc.headers.update(SECURITY_HEADERS)
            raise
        if not response.prepared:               # a WebSocket's answer has gone already
            response.headers.update(SECURITY_HEADERS)
            if request.path.startswith("/api/"):
                response.headers["Cache-Control"] = "no-store"
        return response

    def _check_origin(self, request: web.Request) -> None:
        if self.settings.loopback and request.url.host not in LOOPBACK_HOSTS:
            raise Refused(421, f"this page answers to its loopback address only (Host: {brief(request.host)})")
        origin = request.headers.get("Origin")
        acts = request.method != "GET" or request.path == "/ws"
        if acts and origin is not None and origin != f"{request.scheme}://{request.host}":
            raise Refused(403, f"a request from another site ({brief(origin)}) is refused")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        response = web.FileResponse(STATIC / PAGES[request.path])
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def _state(self, request: web.Request) -> web.Response:
        operator = self._bearer(request)
        state = self.mirror.state
        return _json({"table": self.info.to_dict(), "state": state.to_dict() if state else None,
                                  "rights": self._rights(operator)})

    def _rights(self, operator: bool) -> dict[str, bool]:
        return {"play": self.may_play(operator), "operator": operator,
                "name": operator or self.settings.allow_naming, "token": self.settings.token is not None,
                "shutdown": operator and self.settings.allow_shutdown}

    async def _status(self, request: web.Request) -> web.Response:
        return _json({**self.status.status().to_dict(), "viewers": len(self.mirror.viewers)})

    async def _archived(self, work: Callable[[], Any]) -> Any:
        """Run `work` on the archive off the loop's thread, one at a time."""
        def locked() -> Any:
            with self.archive.lock:
                return work()
        return await asyncio.to_thread(locked)

    async def _games(self, request: web.Request) -> web.Response:
        return _json({"games": await self._archived(lambda: self.archive.recent(RECENT_GAMES))})

    async def _game(self, request: web.Request) -> web.Response:
        text = request.match_info["line"]
        if not text.isdigit() or len(text) > 9:
            raise Refused(400, f"a game is named by its line number (got {brief(text)})")
        game = await self._archived(lambda: self.archive.game(int(text)))
        if game is None:
            raise Refused(404, f"line {int(text)} of the archive holds no game")
        return _json(game)

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
        self.status.note(f"roseking: web: the seats are named {json.dumps(names)}")
        return _json({"names": names})

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
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_FRAME, compress=False)
        viewer = Viewer(ws, address)
        viewer.play = self.may_play(False)
        viewers.add(viewer)                 # counted from now on, while its handshake is still going
        sender: asyncio.Task[None] | None = None
        try:
            await ws.prepare(request)
            await ws.send_str(dumps({"type": "hello", "table": self.info.to_dict(), "rights": self._rights(False)}))
            message = self.mirror.message()
            if message is not None:
                viewer.offer(message)
            sender = asyncio.create_task(viewer.send())
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    await self._refuse(viewer, "send text messages (JSON)")
                    continue
                try:
                    await self._message(viewer, msg.data)
                    viewer.strikes = 0
                except Refused as exc:
                    await self._refuse(viewer, str(exc))
        finally:
            viewers.discard(viewer)
            if self.remote is not None:
                self.remote.release(viewer)
            if sender is not None:
                sender.cancel()
        return ws

    async def _refuse(self, viewer: Viewer, why: str) -> None:
        viewer.strikes += 1
        if viewer.strikes >= STRIKES:
            await viewer.ws.close(code=1008, message=b"too many refused messages")
        elif viewer.strikes <= 3 or viewer.strikes % 10 == 0:
            await viewer.ws.send_str(dumps({"type": "error", "error": why}))

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
                if viewer.strikes == 0:         # once for a run of refusals: no one floods the log
                    self.log(f"roseking: web: a wrong operator token from {viewer.address}")
                raise Refused(403, "wrong token")
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

    @contextlib.asynccontextmanager
    async def serving(self, loop: TableLoop) -> AsyncIterator["WebServer"]:
        """Serve the pages of `loop` while the block runs (in the running asyncio loop)."""
        bridge = _LogBridge(self.log)
        aiohttp_log = logging.getLogger("aiohttp")
        aiohttp_log.addHandler(bridge)
        aiohttp_log.propagate = False
        runner = web.AppRunner(self.app(loop), access_log_class=_refusals(self.log), handle_signals=False,
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
    """aiohttp's own warnings and errors as one line each in the service's log (no traceback on the
    terminal picture; the log keeps what it says), with any `token=…` a bad request carried blotted out."""

    def __init__(self, log: Log) -> None:
        super().__init__(logging.WARNING)
        self.forward = log

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage().splitlines()[0][:300] if record.getMessage() else record.name
        if record.exc_info and record.exc_info[1] is not None:
            line += f": {type(record.exc_info[1]).__name__}: {' '.join(str(record.exc_info[1]).split())[:200]}"
        self.forward(f"roseking: web: {TOKEN_IN_TEXT.sub('token=…', line)}")


def _refusals(log: Log) -> type[AbstractAccessLogger]:
    """An access log of the refused requests alone (403, and the server's own failures), with the path
    but never the query: a token in an address does not reach the log."""
    class Refusals(AbstractAccessLogger):
        def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
            if response.status == 403 or response.status >= 500:
                log(f"roseking: web: {response.status} {request.method} {request.rel_url.raw_path[:200]} "
                    f"from {request.remote}")
    return Refusals
