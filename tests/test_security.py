"""The web server's defences: request bodies too large, malformed Host and Origin ports,
pages of other addresses on a server open to the network, third-party scripts (a
Content-Security-Policy on every reply, no Swagger UI from a CDN).

Raw ASGI calls send what a test client would clean up: header bytes that are not ASCII,
a body that streams in chunks without a length."""

from __future__ import annotations

import json
import socket
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from fastapi import FastAPI

from live import LiveServer
from patience.web.app import create_app
from patience.web.security import MAX_BODY, local_address, split_authority
from test_api_errors import error_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx2; httpx works the same
    from starlette.testclient import TestClient

CHUNK = 1 << 16


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    app = create_app(tmp_path)
    yield app
    app.state.store.close()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, base_url="http://localhost") as c:
        yield c


class Reply:
    """What a raw ASGI call answered, and how many body chunks the app read."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes, reads: int) -> None:
        self.status_code = status
        self.headers = headers
        self.body = body
        self.reads = reads
        self.text = body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


def call(
    app: FastAPI,
    headers: list[tuple[bytes, bytes]],
    chunks: list[bytes] | None = None,
    method: str = "GET",
    path: str = "/api/games",
    server_address: tuple[str, int] = ("127.0.0.1", 8765),
) -> Reply:
    """Send one request straight to the ASGI app: these headers, the body in ``chunks``
    (more_body until the last), the connection accepted at ``server_address``."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": server_address,
    }
    body = chunks or [b""]
    reads = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal reads
        if reads >= len(body):
            await anyio.sleep_forever()
        reads += 1
        return {"type": "http.request", "body": body[reads - 1], "more_body": reads < len(body)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(app, scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    got = {k.decode(): v.decode("latin-1") for k, v in start.get("headers", [])}
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return Reply(start["status"], got, content, reads)


LOCAL = [(b"host", b"localhost")]
JSON = [(b"content-type", b"application/json")]


# --- request bodies ------------------------------------------------------------------------


def test_a_declared_body_over_the_limit_is_refused_unread(app: FastAPI) -> None:
    length = [(b"content-length", str(100 << 20).encode())]
    r = call(app, LOCAL + JSON + length, [b" " * CHUNK], method="POST", path="/api/games")
    err = error_of(r, 413, "request_too_large")
    assert err["params"]["limit"] == MAX_BODY
    assert str(MAX_BODY) in err["message"]
    assert r.headers["connection"] == "close"
    assert r.reads == 0


def test_a_streamed_body_is_read_only_up_to_the_limit(app: FastAPI) -> None:
    # Chunked, no Content-Length: 100 chunks of 64 KiB, 6.4 MB in all.
    chunks = [b" " * CHUNK] * 100
    r = call(app, LOCAL + JSON, chunks, method="POST", path="/api/games")
    error_of(r, 413, "request_too_large")
    assert r.reads == MAX_BODY // CHUNK + 1
    assert call(app, LOCAL, path="/api/current").status_code == 204  # nothing was started


def test_a_streamed_body_within_the_limit_is_handed_on_whole(app: FastAPI) -> None:
    body = json.dumps({"game": "klondike", "deal": 7}).encode()
    padded = body + b" " * (MAX_BODY - len(body))  # exactly the limit
    chunks = [padded[i : i + CHUNK] for i in range(0, len(padded), CHUNK)]
    r = call(app, LOCAL + JSON, chunks, method="POST", path="/api/games")
    assert r.status_code == 201, r.text
    assert r.json()["position"]["deal"] == 7


def test_a_large_body_from_a_client_is_refused(client: TestClient) -> None:
    body = b'{"game": "klondike"}' + b" " * MAX_BODY
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    error_of(r, 413, "request_too_large")
    assert client.get("/api/current").status_code == 204


# --- Host and Origin ports -------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        [(b"host", b"127.0.0.1:\xb2")],  # '²' is a digit to str.isdigit, not to int()
        [(b"host", b"localhost:\xb9\xb2")],
        [(b"host", b"[::1]:\xb3")],
        [(b"host", b"localhost:99999")],
        [(b"host", b"localhost:0")],
        [(b"host", b"localhost:000080")],
        [(b"host", b"localhost: 80")],
        [(b"host", b"localhost:")],
        [(b"host", b"localhost:+80")],
    ],
)
def test_a_host_port_not_in_ascii_digits_or_out_of_range_is_refused(
    app: FastAPI, headers: list[tuple[bytes, bytes]]
) -> None:
    error_of(call(app, headers), 403, "forbidden_host")


@pytest.mark.parametrize("origin", [b"http://localhost:\xb2", b"http://127.0.0.1:65536"])
def test_an_origin_port_not_in_ascii_digits_or_out_of_range_is_refused(
    app: FastAPI, origin: bytes
) -> None:
    r = call(app, [*LOCAL, (b"origin", origin)], method="POST", path="/api/games/x/undo")
    error_of(r, 403, "forbidden_origin")


@pytest.mark.parametrize(
    ("authority", "parts"),
    [
        ("localhost", ("localhost", None)),
        ("LocalHost:8765", ("localhost", 8765)),
        ("[::1]:1", ("[::1]", 1)),
        ("127.0.0.1:65535", ("127.0.0.1", 65535)),
        ("[::1", None),
        ("[::1]8765", None),
        ("localhost:65536", None),
        ("localhost:٣", None),  # an Arabic-Indic digit
    ],
)
def test_split_authority(authority: str, parts: tuple[str, int | None] | None) -> None:
    assert split_authority(authority) == parts


# --- a server open to the network ------------------------------------------------------------


def test_an_open_server_accepts_only_the_address_it_is_reached_at(tmp_path: Path) -> None:
    # ``patience serve --host 0.0.0.0``, reached at 192.168.1.20: another address is
    # not this server, whatever its port, and its pages drive no game.
    lan = create_app(tmp_path, port=8765, lan=True)
    with TestClient(lan, base_url="http://192.168.1.20:8765") as c:
        phone = {"origin": "http://192.168.1.20:8765"}
        gid = c.post("/api/games", json={"game": "klondike"}, headers=phone).json()["id"]
        assert c.post(f"/api/games/{gid}/move", json={"move": "deal"}, headers=phone).is_success
        for host in ("10.0.0.7:8765", "[fe80::1]:8765", "192.168.1.21:8765"):
            error_of(c.get("/api/games", headers={"host": host}), 403, "forbidden_host")
        for page in ("http://10.0.0.7:8765", "http://192.168.1.21:8765", "http://[fe80::1]:8765"):
            for action in ("undo", "restart", "rewind"):
                r = c.post(f"/api/games/{gid}/{action}", headers={"origin": page})
                error_of(r, 403, "forbidden_origin")
        assert c.get(f"/api/games/{gid}").json()["moves_made"] == 1
    # The same server reached at its other network, or by this computer's own browser.
    with TestClient(lan, base_url="http://10.0.0.7:8765") as c:
        assert c.get("/api/games", headers={"origin": "http://10.0.0.7:8765"}).is_success
    with TestClient(lan, base_url="http://127.0.0.1:8765") as c:
        assert c.get("/api/games").is_success
        assert c.get("/api/games", headers={"host": "localhost:8765"}).is_success


def test_a_change_must_come_from_a_page_of_the_address_it_is_sent_to(tmp_path: Path) -> None:
    me = socket.gethostname()
    lan = create_app(tmp_path, port=8765, lan=True)
    with TestClient(lan, base_url="http://192.168.1.20:8765") as c:
        gid = c.post("/api/games", json={"game": "klondike"}).json()["id"]
        # This machine's name is this server, but a page under that name may be another
        # computer's (a spoofed local name): it may read, not change.
        named = {"origin": f"http://{me}.local:8765"}
        assert c.get(f"/api/games/{gid}", headers=named).is_success
        err = error_of(c.post(f"/api/games/{gid}/restart", headers=named), 403, "forbidden_origin")
        assert err["params"] == {"origin": f"http://{me}.local:8765", "host": "192.168.1.20:8765"}
        same = {"origin": "http://192.168.1.20:8765", "host": "192.168.1.20:8765"}
        assert c.post(f"/api/games/{gid}/restart", headers=same).is_success
        named_host = {"origin": f"http://{me}.local:8765", "host": f"{me}.local:8765"}
        assert c.post(f"/api/games/{gid}/restart", headers=named_host).is_success


def test_localhost_and_its_address_are_two_origins(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, port=8765), base_url="http://127.0.0.1:8765") as c:
        other = {"origin": "http://localhost:8765"}
        assert c.get("/api/games", headers=other).is_success
        r = c.post("/api/games", json={"game": "klondike"}, headers=other)
        error_of(r, 403, "forbidden_origin")
        r = c.post("/api/games", json={"game": "klondike"}, headers={"origin": "http://127.0.0.1"})
        error_of(r, 403, "forbidden_origin")  # port 80, not 8765
        ok = {"origin": "http://127.0.0.1:8765"}
        assert c.post("/api/games", json={"game": "klondike"}, headers=ok).status_code == 201


@pytest.mark.parametrize(
    ("sockname", "address"),
    [
        (("192.168.1.20", 8765), "192.168.1.20"),
        (("::ffff:192.168.1.20", 8765), "192.168.1.20"),  # an IPv4 client of a :: socket
        (("fe80::1%eth0", 8765), "fe80::1"),
        (("localhost", 80), None),
        (None, None),
    ],
)
def test_the_address_a_connection_came_in_at(sockname: Any, address: str | None) -> None:
    found = local_address({"type": "http", "server": sockname})
    assert (None if found is None else str(found)) == address


def test_the_real_server_knows_the_address_each_connection_came_in_at(tmp_path: Path) -> None:
    # Listening on 0.0.0.0, uvicorn reports each connection's own local address: one
    # made to 127.0.0.2 (Linux answers the whole 127/8) may name 127.0.0.2, not 127.0.0.3.
    with LiveServer(tmp_path, host="0.0.0.0") as live:
        port = live.port
        try:
            r = httpx.get(f"http://127.0.0.2:{port}/api/games")
        except httpx.TransportError:  # pragma: no cover - no 127.0.0.2 on this system
            pytest.skip("127.0.0.2 does not reach this computer")
        assert r.status_code == 200
        other = {"host": f"127.0.0.3:{port}"}
        assert httpx.get(f"http://127.0.0.2:{port}/api/games", headers=other).status_code == 403


def ipv6() -> bool:
    """Whether this computer has IPv6 (::1)."""
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_the_address_a_server_on_every_address_prints_is_accepted(
    tmp_path: Path, host: str
) -> None:
    # The browser opens the address printed: 0.0.0.0 and :: are no address to ask for.
    if ":" in host and not ipv6():  # pragma: no cover - IPv6 is there on the test machines
        pytest.skip("no IPv6 on this computer")
    with LiveServer(tmp_path, host=host) as live:
        assert httpx.get(live.url + "/api/games").status_code == 200


# --- scripts and the Content-Security-Policy -------------------------------------------------


def test_no_swagger_page_the_schema_stays(client: TestClient) -> None:
    assert client.get("/api/docs").status_code == 404
    schema = client.get("/api/openapi.json")
    assert schema.status_code == 200 and schema.json()["paths"]


def test_every_reply_carries_the_security_headers(app: FastAPI, client: TestClient) -> None:
    replies = [
        client.get("/"),
        client.get("/app.js"),
        client.get("/style.css"),
        client.get("/api/games"),
        client.get("/api/openapi.json"),
        client.get("/nothing"),
        client.post("/api/games", json={"game": "nope"}),
        client.get("/api/games", headers={"host": "evil.example"}),
        call(app, LOCAL + [(b"content-length", b"99999999")], method="POST", path="/api/games"),
    ]
    for r in replies:
        csp = r.headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'", csp
        assert directives["default-src"] == "'self'"
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
