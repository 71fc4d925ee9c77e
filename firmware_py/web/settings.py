"""The `[web]` section of the configuration and `--web [HOST:]PORT`: where the page listens, who may act.

Every key is checked as the other sections are, errors naming the key. The page is served
when `port` is set or `--web` is given; it listens on the loopback address unless `host`
(or `--web HOST:PORT`) says otherwise: listening on the network is a choice made explicitly.

>>> s = parse_web({"port": 8080, "token": "correct-horse-battery"})
>>> s.host, s.port, s.allow_remote_play, s.loopback
('127.0.0.1', 8080, False, True)
>>> parse_web({"token": "short"}, "roseking.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hardware.errors.ConfigError: roseking.toml: web.token: must be 16 to 256 printable ASCII characters ... (got 5)
>>> with_address(s, "0.0.0.0:80").host, with_address(s, "[::1]:0").port
('0.0.0.0', 0)
>>> with_address(WebSettings(), "0.0.0.0:80")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
firmware_py.errors.UsageError: --web 0.0.0.0:80: a page on the network needs the operator's token: set [web] token ...
"""
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from firmware_py.errors import UsageError
from hardware.config import DEFAULTS, ConfigTable, Invalid, boolean, integer, number

TOKEN = re.compile(r"[!-~]{16,256}\Z")
LOCALHOST = "localhost"
HOSTNAME = re.compile(r"(?=.{1,253}\Z)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\Z")
OWN_NAMES = "this machine's names and addresses"
MAKE_TOKEN = "python3 -c 'import secrets; print(secrets.token_urlsafe(24))'"


def needs_token(how: str) -> str:
    """Why a page on the network is refused, with `how` to set the token."""
    return f"a page on the network needs the operator's token: {how} (make one with {MAKE_TOKEN})"


@dataclass(frozen=True)
class WebSettings:
    """Where the page listens (`host`, `port`; no port: not served unless `--web`), the operator's
    `token` (None: nothing can be changed from a browser), whether the Pi's buttons may be pressed
    from the page with the token (`allow_remote_play`), whether anyone at the page may name the
    players (`allow_naming`; else only with the token), whether the operator may shut the machine down
    from the page (`allow_shutdown`, with the token: `[table] shutdown_command`), the limits that keep a misbehaving
    client from slowing the table: WebSocket connections in all and per client (address), and
    messages (and requests, and WebSocket opens) a second per client; the names the page answers to
    besides its own (`hostnames`), the reverse proxies it believes (`trusted_proxies`, one address each)
    and how often the table beats to every page (`beat_seconds`: a page that misses three says so)."""
    host: str = "127.0.0.1"
    port: int | None = None
    token: str | None = None
    allow_remote_play: bool = False
    allow_naming: bool = False
    allow_shutdown: bool = False
    max_connections: int = 100
    connections_per_client: int = 8
    messages_per_second: float = 20.0
    hostnames: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    beat_seconds: float = 1.0

    @property
    def loopback(self) -> bool:
        """True when only this machine can reach the page."""
        return self.host == LOCALHOST or ipaddress.ip_address(self.host).is_loopback

    def summary(self) -> str:
        """Where the page is served and who may act there, in a line (`roseking config check`)."""
        if self.port is None:
            return "not served (set [web] port, or pass roseking play --web [HOST:]PORT)"
        where = "this machine only" if self.loopback else "the network"
        token = "an operator's token set" if self.token else "no operator's token (nothing can be changed from a page)"
        return (f"{self.host} port {self.port} ({where}), {token}, remote play on a Pi "
                f"{'allowed with the token' if self.allow_remote_play else 'off'}, naming by "
                f"{'anyone at the page' if self.allow_naming else 'the operator'}, shutdown from the page "
                f"{'allowed with the token' if self.allow_shutdown else 'off'}; at most {self.max_connections} "
                f"connections, {self.connections_per_client} per client, {self.messages_per_second:g} messages "
                f"a second; answers to {', '.join((OWN_NAMES, *self.hostnames))}"
                + (f"; behind the proxies {', '.join(self.trusted_proxies)}" if self.trusted_proxies else ""))


def _host(v: object) -> str:
    if v == LOCALHOST:
        return LOCALHOST
    try:
        return str(ipaddress.ip_address(v if isinstance(v, str) else ""))
    except ValueError:
        raise Invalid(f"must be an IP address, or \"localhost\" (got {v!r})") from None


def _token(v: object) -> str:
    if not isinstance(v, str) or not TOKEN.match(v):
        got = len(v) if isinstance(v, str) else type(v).__name__
        raise Invalid(f"must be 16 to 256 printable ASCII characters without blanks (got {got})")
    return v


def _hostnames(v: object) -> tuple[str, ...]:
    if not isinstance(v, list):
        raise Invalid(f"must be a list of host names (got {v!r})")
    for name in v:
        if not isinstance(name, str) or not HOSTNAME.match(name):
            raise Invalid(f"must be host names such as \"table.museum.example\", in small letters (got {name!r})")
    return tuple(v)


def _proxies(v: object) -> tuple[str, ...]:
    """The proxies' own addresses: a network is refused, since every client on it could then name its own
    address (and so its own limits) in X-Forwarded-For."""
    if not isinstance(v, list):
        raise Invalid(f"must be a list of the proxies' IP addresses (got {v!r})")
    out = []
    for item in v:
        try:
            network = ipaddress.ip_network(item if isinstance(item, str) else "", strict=False)
        except ValueError:
            raise Invalid(f"must be the proxies' IP addresses, such as \"127.0.0.1\" or \"10.0.0.5\" (got {item!r})") \
                from None
        if network.num_addresses != 1:
            raise Invalid(f"must be the proxies' own addresses, not a network (got {item!r}: every client on it "
                          "could name its own address in X-Forwarded-For)")
        out.append(str(network.network_address))
    return tuple(out)


def _exposed(settings: WebSettings) -> bool:
    """Whether `settings` would serve a page on the network without the operator's token."""
    return settings.port is not None and not settings.loopback and settings.token is None


def parse_web(data: Mapping[str, object], where: str = DEFAULTS) -> WebSettings:
    """The `WebSettings` of a parsed `[web]` table; ConfigError names the file and the key at fault."""
    t = ConfigTable(data, "web.", where)
    s = WebSettings(
        host=t.get("host", WebSettings.host, _host),
        port=t.get("port", None, integer(0, 65535)),
        token=t.get("token", None, _token),
        allow_remote_play=t.get("allow_remote_play", WebSettings.allow_remote_play, boolean),
        allow_naming=t.get("allow_naming", WebSettings.allow_naming, boolean),
        allow_shutdown=t.get("allow_shutdown", WebSettings.allow_shutdown, boolean),
        max_connections=t.get("max_connections", WebSettings.max_connections, integer(1, 10_000)),
        connections_per_client=t.get("connections_per_client", WebSettings.connections_per_client,
                                     integer(1, 1000)),
        messages_per_second=t.get("messages_per_second", WebSettings.messages_per_second, number(1, 1000)),
        hostnames=t.get("hostnames", (), _hostnames),
        trusted_proxies=t.get("trusted_proxies", (), _proxies),
        beat_seconds=t.get("beat_seconds", WebSettings.beat_seconds, number(0.1, 60)),
    )
    t.finish()
    if _exposed(s):
        raise t.error("token", f"{needs_token('set it')} (host = {s.host!r} listens beyond this machine)")
    return s


def with_address(settings: WebSettings, address: str) -> WebSettings:
    """`settings` listening at `--web [HOST:]PORT` (an IPv6 host in brackets); UsageError if it is
    not one. A port alone keeps the configured host (by default the loopback address)."""
    host, sep, port = address.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        number_ = int(port, 10) if port.isdigit() else -1
        if not 0 <= number_ <= 65535:
            raise Invalid(f"the port must be a number from 0 to 65535 (got {port!r})")
        chosen = replace(settings, host=_host(host) if sep else settings.host, port=number_)
    except Invalid as exc:
        raise UsageError(f"--web {address}: {exc}") from None
    if _exposed(chosen):
        raise UsageError(f"--web {address}: {needs_token('set [web] token in the configuration')}")
    return chosen
