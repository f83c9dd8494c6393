"""The web server's defences, as two ASGI middlewares.

``LocalOnly`` refuses a Host or an Origin that is not this server (DNS rebinding, other
sites' pages) and puts safety headers, a Content-Security-Policy among them, on every
reply. ``BodyLimit`` refuses a request body larger than any request needs before reading
it whole. Both answer with the app's JSON error body, through the ``reply`` they are given.
"""

from __future__ import annotations

import ipaddress
import socket
from collections import deque
from typing import Protocol

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import _

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_BODY = 1 << 20
"""Bytes a request body may hold: hundreds of times a position's JSON (a few KB)."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
"""Only the package's own files run or style the page: no inline script, no other site."""

SAFETY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
API_HEADERS = (*SAFETY_HEADERS, (b"cache-control", b"no-store"))
PAGE_HEADERS = (*SAFETY_HEADERS, (b"cache-control", b"no-cache"))
"""The headers of every reply: the API's are never stored; the front end changes with
the package, so a browser revalidates it (its ETag) at every load."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class ErrorReply(Protocol):
    """The app's JSON error reply (``app.error_response``)."""

    def __call__(self, status: int, code: str, template: str, **params: object) -> Response:
        """The reply with ``status`` and the error body of ``code`` and its message."""
        ...  # pragma: no cover


def ip_literal(name: str) -> IPAddress | None:
    """The address ``name`` (a Host header's name part) spells, None for a DNS name.

    An IPv6 address is only a Host name in brackets, an IPv4 address only without."""
    try:
        address = ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return None
    return address if name.startswith("[") == (address.version == 6) else None


def split_authority(authority: str) -> tuple[str, int | None] | None:
    """The lower-case name and the port of a Host header or an Origin's ``host[:port]``.

    None when it is malformed: a bracket not closed, or a port that is not 1 to 65535
    in ASCII digits (``str.isdigit`` would take '²')."""
    name, port = authority, None
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            return None
        name, rest = authority[: end + 1], authority[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        port = rest[1:] if rest else None
    elif ":" in authority:
        name, port = authority.rsplit(":", 1)
    if port is None:
        return name.lower(), None
    if not (0 < len(port) <= 5 and port.isascii() and port.isdigit()):
        return None
    number = int(port)
    return (name.lower(), number) if 0 < number < 65536 else None


def same_authority(a: str, b: str) -> bool:
    """Whether two ``host[:port]`` authorities are the same (port 80 when none is said)."""
    one, two = split_authority(a), split_authority(b)
    if one is None or two is None:
        return False
    return one[0] == two[0] and (one[1] or 80) == (two[1] or 80)


def local_address(scope: Scope) -> IPAddress | None:
    """The address of this computer the connection came in at (the socket's own address).

    A server listening on 0.0.0.0 or :: is reached at one address per network; an IPv4
    client of an IPv6 socket shows as an IPv4-mapped address, a link-local one with its
    zone."""
    server = scope.get("server")
    if not server:
        return None
    try:
        address = ipaddress.ip_address(str(server[0]).split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class LocalOnly:
    """Refuse requests whose Host or Origin is not this server; add the safety headers.

    The names of this server are localhost and its loopback addresses, and the address
    the connection came in at: another device on the network (a phone, when the server
    listens beyond this computer) reaches the server at that address, and a DNS
    rebinding attack, which needs a name of the attacker's in the Host header, is still
    refused. With ``lan`` this machine's name is also accepted. Another address is
    refused even with the right port: with ``--host 0.0.0.0`` a page served from some
    other computer must not drive this game.

    A request that can change something (every method but GET, HEAD and OPTIONS) and
    says where its page comes from (Origin) must come from a page of the very address it
    is sent to."""

    def __init__(
        self, app: ASGIApp, *, reply: ErrorReply, port: int | None = None, lan: bool = False
    ) -> None:
        self.app = app
        self.reply = reply
        self.port = port
        self.names = set(LOCAL_HOSTS)
        if lan:
            me = socket.gethostname().lower()
            self.names |= {me, f"{me}.local"}

    def host_ok(self, host: str, local: IPAddress | None) -> bool:
        """Whether ``host`` (a Host header or an Origin's authority) names this server,
        reached at the address ``local``."""
        parts = split_authority(host)
        if parts is None:
            return False
        name, port = parts
        if name not in self.names and (local is None or ip_literal(name) != local):
            return False
        return self.port is None or (port or 80) == self.port

    def problem(self, scope: Scope) -> Response | None:
        """The 403 reply for a request that is not for this server, None for one that is."""
        headers = {k.lower(): v for k, v in scope["headers"]}
        host = headers.get(b"host", b"").decode("latin-1")
        origin = headers.get(b"origin")
        local = local_address(scope)
        if not self.host_ok(host, local):
            return self.reply(
                403, "forbidden_host", _("Host {host} is not this local server"), host=host[:100]
            )
        if origin is None:
            return None
        text = origin.decode("latin-1")
        if not (text.startswith("http://") and self.host_ok(text[7:], local)):
            return self.reply(
                403,
                "forbidden_origin",
                _("Origin {origin} is not this local server"),
                origin=text[:100],
            )
        changes = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if changes and not same_authority(text[7:], host):
            return self.reply(
                403,
                "forbidden_origin",
                _("Origin {origin} is not the address this request was sent to ({host})"),
                origin=text[:100],
                host=host[:100],
            )
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the headers, then pass the request on with the safety headers."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        is_api = scope.get("path", "").startswith("/api/")

        extra = API_HEADERS if is_api else PAGE_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        problem = self.problem(scope)
        if problem is None:
            await self.app(scope, receive, send_with_headers)
        elif scope["type"] == "http":
            await problem(scope, receive, send_with_headers)
        else:
            await send({"type": "websocket.close", "code": 1008})


class BodyLimit:
    """Refuse a request body of more than ``limit`` bytes with a 413, without reading it.

    A declared length (Content-Length) over the limit is refused before any byte is
    read; a streamed body (chunked, no length) is read up to the limit and refused as
    soon as it goes beyond. The body read is then handed on to the app as it came."""

    def __init__(self, app: ASGIApp, *, reply: ErrorReply, limit: int = MAX_BODY) -> None:
        self.app = app
        self.reply = reply
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body up to the limit, then pass the request on, or answer 413."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        too_large = declared.isdigit() and int(declared) > self.limit
        received: deque[Message] = deque()
        size = 0
        while not too_large:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            too_large = size > self.limit
            if not message.get("more_body", False):
                break
        if too_large:
            reply = self.reply(
                413,
                "request_too_large",
                _("The request body is too large: more than {limit} bytes"),
                limit=self.limit,
            )
            # The rest of the body is never read: the connection cannot carry another request.
            reply.headers["connection"] = "close"
            await reply(scope, receive, send)
            return

        async def replay() -> Message:
            return received.popleft() if received else await receive()

        await self.app(scope, replay, send)
