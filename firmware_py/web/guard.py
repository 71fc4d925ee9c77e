"""Who the page answers to: the names in `Host` (no DNS rebinding), the origin of what acts, and the
reverse proxies whose forwarded headers are believed.

A page that another site's script reaches through DNS rebinding is asked for by that site's
name: the page answers only to an IP address, `localhost`, this machine's own name (and its
`.local` name) and the names of `[web] hostnames`, whatever address it listens on (421 else).
A request that acts (any POST, the WebSocket) from a browser must come from the page's own
origin, as the browser asked for it (403 else). Behind a reverse proxy (HTTPS for a museum's
network, docs/WEB.md) the browser asks the proxy: a request whose peer is one of `[web]
trusted_proxies` is taken as the proxy forwards it (`X-Forwarded-For`, `-Proto`, `-Host`, read by
aiohttp-remotes), so the client's address (its limits) and the origin are the browser's; the
same headers from anyone else are ignored.

>>> hosts = Hosts(("table.museum.example",), machine="roseking")
>>> [hosts.allows(h) for h in ("table.museum.example", "roseking.local", "192.168.1.20", "::1", "evil.example")]
[True, True, True, True, False]
"""
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web
from aiohttp_remotes import XForwardedFiltered

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Hosts:
    """The names the page answers to: `names` (`[web] hostnames`), `machine`'s own (by default this
    machine's host name) with its `.local` name, `localhost`, and any IP address."""

    def __init__(self, names: Iterable[str], machine: str | None = None) -> None:
        own = (machine if machine is not None else socket.gethostname()).lower().rstrip(".")
        self.names = frozenset({*LOOPBACK_NAMES, own, f"{own.split('.')[0]}.local", *names})

    def allows(self, host: str | None) -> bool:
        """True if a request for `host` (without its port) is one for this page."""
        if not host:
            return False
        host = host.lower().rstrip(".")
        if host in self.names:
            return True
        try:
            ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            return False
        return True


def same_origin(request: web.Request) -> bool:
    """True unless the request names an `Origin` other than the page's own, as the browser asked for it."""
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"


class Proxies:
    """The reverse proxies at `networks` (addresses or networks): a request from one of them is handed on
    as it forwards it (the client's address, scheme and host), any other as it came."""

    def __init__(self, networks: Iterable[str]) -> None:
        self.networks = tuple(ipaddress.ip_network(n) for n in networks)
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

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The request handed on as a trusted proxy forwards it, or as it came."""
        if self._forwarded is not None and self.trusts(request):
            return await self._forwarded.middleware(request, handler)
        return await handler(request)
