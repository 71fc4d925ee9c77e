"""Who the page answers to: the names in `Host` (no DNS rebinding), the origin of what acts, and the
reverse proxies whose forwarded headers are believed.

A page that another site's script reaches through DNS rebinding is asked for by that site's
name: the page answers only to an IP address, `localhost`, this machine's own name (and its
`.local` name) and the names of `[web] hostnames`, whatever address it listens on (421 else); a
`Host` that names no host at all (`a:b:c`, a port over 65535) is a bad request (`host_name`).
A request that acts (any POST, the WebSocket) from a browser must come from the page's own
origin, as the browser asked for it (403 else). Behind a reverse proxy (HTTPS for a museum's
network, docs/WEB.md) the browser asks the proxy: a request whose peer is one of `[web]
trusted_proxies` (each one address: a network would let every client on it name its own address)
is taken as the proxy forwards it (`X-Forwarded-For`, `-Proto`, `-Host`, read by aiohttp-remotes),
so the client's address (its limits) and the origin are the browser's; the same headers from
anyone else are ignored, and a proxy's headers that cannot be read are a bad request.

>>> hosts = Hosts(("table.museum.example",), machine="roseking")
>>> [hosts.allows(h) for h in ("table.museum.example", "roseking.local", "192.168.1.20", "::1", "evil.example")]
[True, True, True, True, False]
"""
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web
from aiohttp_remotes import XForwardedFiltered
from aiohttp_remotes.exceptions import RemoteError

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
HOST = re.compile(r"(?:\[([0-9a-f:.]+)\]|([^\[\]:/@?#\s]+))(?::([0-9]{1,5}))?\Z", re.IGNORECASE)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def host_name(header: str) -> str | None:
    """The host a `Host` header names, without its port (an IPv6 address without its brackets), in small
    letters; None when it names none: a port that is not 0 to 65535, a colon outside brackets, nothing.

    >>> [host_name(h) for h in ("Table.local:8080", "[::1]:80", "10.0.0.1", "a:b:c", "127.0.0.1:99999", "", "a@b")]
    ['table.local', '::1', '10.0.0.1', None, None, None, None]
    """
    match = HOST.match(header)
    if match is None or int(match[3] or 0) > 65535:
        return None
    return (match[1] or match[2]).lower().rstrip(".") or None


class Hosts:
    """The names the page answers to: `names` (`[web] hostnames`), `machine`'s own (by default this
    machine's host name) with its `.local` name, `localhost`, and any IP address."""

    def __init__(self, names: Iterable[str], machine: str | None = None) -> None:
        own = (machine if machine is not None else socket.gethostname()).lower().rstrip(".")
        self.names = frozenset({*LOOPBACK_NAMES, own, f"{own.split('.')[0]}.local", *names})

    def allows(self, host: str) -> bool:
        """True if a request for `host` (`host_name` of its `Host`) is one for this page."""
        if host in self.names:
            return True
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return False
        return True


def same_origin(request: web.Request) -> bool:
    """True unless the request names an `Origin` other than the page's own, as the browser asked for it."""
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"


class Unforwarded(ValueError):
    """A trusted proxy's forwarded headers that cannot be read (not addresses, given twice)."""


class Proxies:
    """The reverse proxies at `addresses`: a request from one of them is handed on as it forwards it (the
    client's address, scheme and host), any other as it came."""

    def __init__(self, addresses: Iterable[str]) -> None:
        self.networks = tuple(ipaddress.ip_network(n) for n in addresses)
        self._forwarded = XForwardedFiltered(set(self.networks)) if self.networks else None

    def trusts(self, request: web.Request) -> bool:
        """Whether `request` comes straight from one of the proxies."""
        peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        if not peer or not self.networks:
            return False
        address = ipaddress.ip_address(peer[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped          # an IPv4 peer of a server on "::"
        return any(address in network for network in self.networks)

    async def forward(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """`handler`'s answer to the request as a trusted proxy forwards it, or as it came; Unforwarded when the
        proxy's headers cannot be read."""
        if self._forwarded is None or not self.trusts(request):
            return await handler(request)
        forwarded = self._forwarded
        try:
            forwarded.get_forwarded_for(request.headers)
            forwarded.get_forwarded_proto(request.headers)
            forwarded.get_forwarded_host(request.headers)
        except (web.HTTPBadRequest, RemoteError):
            raise Unforwarded("the proxy's X-Forwarded headers cannot be read (one of each, addresses in "
                              "X-Forwarded-For)") from None
        return await forwarded.middleware(request, handler)
