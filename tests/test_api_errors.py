"""Every error path of the API: a 4xx with the error body, and nothing changed."""

from __future__ import annotations

import socket
import warnings
from pathlib import Path
from typing import Any

import pytest

from patience import i18n
from patience.cards import MAX_DEAL
from patience.web.app import create_app
from patience.web.server import is_loopback

with warnings.catch_warnings():
    # Starlette asks for httpx2; the httpx it falls back to works the same.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAME_ACTIONS = ["move", "undo", "redo", "restart", "autofinish", "foundation", "rewind"]


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """A Klondike deal 5 game with one move made."""
    r = client.post("/api/games", json={"game": "klondike", "deal": 5})
    gid = r.json()["id"]
    r = client.post(f"/api/games/{gid}/move", json={"move": "deal"})
    view: dict[str, Any] = r.json()
    return view


def error_of(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """Check ``r`` is an error reply of the contract's shape; return its error object."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    err: dict[str, Any] = r.json()["error"]
    assert set(err) == {"code", "message", "message_id", "params"}
    assert isinstance(err["message"], str) and err["message"]
    assert isinstance(err["params"], dict)
    assert err["message"] == i18n.format_message(err["message_id"], err["params"], "en"), err
    if err["code"] != "invalid_position":  # its problems stay English: docs/decisions.md
        # Each language fills in the template, as i18n.js does: it is a catalog entry
        # (an error without one would reach a Spanish or French player in English).
        reason = err["message_id"].removeprefix("{move}: ")
        for lang in ("es", "fr"):
            assert reason in i18n.catalog_json(lang)["messages"], err
            if err["code"] == "invalid_request":
                # Why the field was refused is translated too (i18n.js looks string
                # parameters up): pydantic's own text is English.
                assert err["params"]["details"] in i18n.catalog_json(lang)["messages"], err
    if code is not None:
        assert err["code"] == code, err
    return err


def unchanged(client: TestClient, view: dict[str, Any]) -> None:
    """The game is exactly as ``view`` shows it (clock aside)."""
    now = client.get(f"/api/games/{view['id']}").json()
    for key in ("position", "moves_made", "can_undo", "can_redo", "status", "last_move"):
        assert now[key] == view[key], key


# --- creating games ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "klondike", "options": {"mode": "four"}}, "invalid_option"),
        ({"game": "klondike", "options": {"colour": "red"}}, "invalid_option"),
        ({"game": "hopscotch", "options": {"mode": "three"}}, "invalid_option"),
        ({"game": "klondike", "deal": -1}, "invalid_deal"),
        ({"game": "klondike", "deal": MAX_DEAL + 1}, "invalid_deal"),
        ({"game": "klondike", "deal": 10**40}, "invalid_deal"),
        ({"game": "klondike", "deal": "five"}, "invalid_deal"),  # digits as text are a deal
        ({"game": "klondike", "deal": [5]}, "invalid_request"),
        ({"game": "klondike", "deal": 5.5}, "invalid_request"),
        ({"game": "klondike", "deal": True}, "invalid_request"),
        ({"game": 5}, "invalid_request"),
        ({"game": "klondike", "options": {"mode": 1}}, "invalid_request"),
        ({"game": "klondike", "options": ["mode"]}, "invalid_request"),
        ({"game": "klondike", "winnable": "yes"}, "invalid_request"),
        ({"game": "klondike", "surprise": 1}, "invalid_request"),
        ({}, "missing_game"),
        ({"position": {"game": "klondike"}}, "invalid_position"),
        ({"position": {"game": "nope"}}, "unknown_game"),
        ({"position": {"game": "klondike", "stock": ["ZZ"]}}, "invalid_position"),
        ({"position": "klondike"}, "invalid_request"),
        ({"position": {"game": "klondike", "stock": ["AS"] * 53}}, "invalid_request"),
        ({"position": {"game": "klondike", "surprise": 1}}, "invalid_request"),
    ],
)
def test_bad_new_game(client: TestClient, body: dict[str, Any], code: str) -> None:
    error_of(client.post("/api/games", json=body), 422, code)
    assert client.get("/api/current").status_code == 204  # nothing was created


def test_position_of_another_game(client: TestClient) -> None:
    from test_api import near_won

    err = error_of(
        client.post("/api/games", json={"game": "hopscotch", "position": near_won()}), 422
    )
    assert err["code"] == "invalid_position" and err["params"]["found"] == "klondike"


@pytest.mark.parametrize("extra", [{"deal": 3}, {"winnable": True}], ids=repr)
def test_a_position_comes_with_no_deal_number_and_no_winnable(
    client: TestClient, extra: dict[str, Any]
) -> None:
    # Both used to be quietly ignored: the position was played, not the deal asked for.
    from test_api import near_won

    body = {"game": "klondike", "position": near_won(), **extra}
    error_of(client.post("/api/games", json=body), 422, "position_conflict")
    assert client.get("/api/current").status_code == 204  # nothing was created


def test_broken_position_names_the_problem(client: TestClient) -> None:
    from test_api import near_won

    p = near_won()
    p["foundations"][0] = p["foundations"][0][:-1]  # QC lost
    err = error_of(client.post("/api/games", json={"position": p}), 422, "invalid_position")
    assert "QC" in err["message"]


@pytest.mark.parametrize(
    "raw",
    [b"{bad", b"", b"[]", b"null", b'{"game": "klondike",}', b"\xff\xfe", b"\xc3\x28{}"],
)
def test_malformed_json(client: TestClient, raw: bytes) -> None:
    r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    error_of(r, 422)


# --- moves -------------------------------------------------------------------------------


def test_illegal_move(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "t1>t2"})
    err = error_of(r, 409, "illegal_move")
    assert err["message"].startswith("t1>t2: ")
    assert err["message_id"].startswith("{move}: ")
    assert err["params"]["move"] == "t1>t2"
    assert err["message"] == err["message_id"].format(**err["params"])
    unchanged(client, game)


@pytest.mark.parametrize("text", ["", "t1", "t1>", "x9>t2", "t1>t1", "t6>t2/1", "t1>t2/x", "🂡"])
def test_bad_move_syntax(client: TestClient, game: dict[str, Any], text: str) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json={"move": text})
    error_of(r, 422, "invalid_move")
    unchanged(client, game)


@pytest.mark.parametrize(
    "body", [{"move": 5}, {"move": None}, {}, {"mov": "deal"}, {"move": "deal", "x": 1}, []]
)
def test_bad_move_body(client: TestClient, game: dict[str, Any], body: Any) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json=body)
    error_of(r, 422, "invalid_request")
    unchanged(client, game)


def test_move_too_long(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "t1>t2" * 1000})
    error_of(r, 422, "invalid_request")


def test_move_to_a_missing_pile(client: TestClient, game: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "t13>t1"})
    error_of(r, 409, "illegal_move")
    unchanged(client, game)


def test_nothing_to_undo_or_redo(client: TestClient) -> None:
    view = client.post("/api/games", json={"game": "klondike", "deal": 5}).json()
    error_of(client.post(f"/api/games/{view['id']}/undo"), 409, "nothing_to_undo")
    error_of(client.post(f"/api/games/{view['id']}/redo"), 409, "nothing_to_redo")
    unchanged(client, view)


def test_nothing_to_autofinish(client: TestClient, game: dict[str, Any]) -> None:
    error_of(client.post(f"/api/games/{game['id']}/autofinish"), 409, "nothing_to_finish")
    unchanged(client, game)


@pytest.mark.parametrize(
    ("pile", "status", "code"),
    [
        ("t1", 409, "no_foundation_move"),
        ("t8", 409, "no_foundation_move"),
        ("r1", 409, "no_foundation_move"),
        ("f1", 422, "invalid_pile"),
        ("t99", 422, "invalid_pile"),
    ],
)
def test_bad_foundation_request(
    client: TestClient, game: dict[str, Any], pile: str, status: int, code: str
) -> None:
    r = client.post(f"/api/games/{game['id']}/foundation", json={"pile": pile})
    err = error_of(r, status, code)
    if pile in ("t8", "r1"):  # a pile Klondike does not have is named as such
        assert err["message"] == f"Klondike has no pile {pile}", err
    unchanged(client, game)


# --- ids -----------------------------------------------------------------------------------


@pytest.mark.parametrize("gid", ["0" * 32, "nope", "x" * 500, "%00"])
def test_stale_game_id(client: TestClient, game: dict[str, Any], gid: str) -> None:
    error_of(client.get(f"/api/games/{gid}"), 404, "unknown_game_id")
    error_of(client.get(f"/api/games/{gid}/hint"), 404, "unknown_game_id")
    bodies = {"move": {"move": "deal"}, "foundation": {"pile": "t1"}}
    for action in GAME_ACTIONS:
        r = client.post(f"/api/games/{gid}/{action}", json=bodies.get(action))
        error_of(r, 404, "unknown_game_id")
    unchanged(client, game)


def test_unknown_route_and_method(client: TestClient) -> None:
    error_of(client.get("/api/nothing"), 404, "not_found")
    error_of(client.post("/api/nothing"), 404, "not_found")
    r = client.delete("/api/games")
    error_of(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "GET, POST"


def test_a_wrong_method_on_any_route_is_405_with_the_methods_it_allows(
    client: TestClient,
) -> None:
    # GET of a POST-only route answered 404 and DELETE of it 405 "Allow: GET, HEAD": the
    # page files' catch-all took them. Each path's Allow lists what its routes take.
    paths = client.get("/api/openapi.json").json()["paths"]
    allowed = {
        path.replace("{game_id}", "g1").replace("{lang}", "en"): {m.upper() for m in operations}
        for path, operations in paths.items()
    }
    assert "/api/games/g1/move" in allowed and len(allowed) > 10
    for path, methods in allowed.items():
        for method in sorted({"GET", "POST", "PUT", "DELETE", "PATCH"} - methods):
            r = client.request(method, path)
            assert r.status_code == 405, (method, path, r.status_code, r.text)
            assert r.json()["error"]["code"] == "method_not_allowed"
            assert r.headers["allow"] == ", ".join(sorted(methods)), (method, path)
    r = client.post("/app.js")  # a page file: read only
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"


def test_unknown_language(client: TestClient) -> None:
    err = error_of(client.get("/api/messages/xx"), 404, "unknown_language")
    assert err["params"]["lang"] == "xx"


# --- the local-only guard --------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "localhost.evil.example",
        "127.0.0.2",
        "",
        "[::1",
        "localhost:port",
        "0.0.0.0",
    ],
)
def test_foreign_host_refused(client: TestClient, host: str) -> None:
    error_of(client.get("/api/games", headers={"host": host}), 403, "forbidden_host")
    error_of(client.post("/api/games", json={"game": "klondike"}, headers={"host": host}), 403)
    assert client.get("/api/current").status_code == 204  # the POST created nothing


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST"])
def test_local_hosts_accepted(client: TestClient, host: str) -> None:
    assert client.get("/api/games", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "https://localhost", "http://localhost.evil.example"]
)
def test_foreign_origin_refused(client: TestClient, origin: str) -> None:
    r = client.post("/api/games", json={"game": "klondike"}, headers={"origin": origin})
    error_of(r, 403, "forbidden_origin")
    assert client.get("/api/current").status_code == 204


def test_port_is_checked_when_known(tmp_path: Path) -> None:
    app = create_app(tmp_path, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        assert c.get("/api/games").status_code == 200
        error_of(c.get("/api/games", headers={"host": "127.0.0.1:9999"}), 403, "forbidden_host")
        error_of(c.get("/api/games", headers={"host": "localhost"}), 403, "forbidden_host")
        ok = {"origin": "http://localhost:8765"}
        assert c.get("/api/games", headers=ok).status_code == 200
        bad = {"origin": "http://localhost:9999"}
        error_of(c.get("/api/games", headers=bad), 403, "forbidden_origin")


def test_a_server_open_to_the_network_accepts_its_network_addresses(tmp_path: Path) -> None:
    # ``patience serve --host 0.0.0.0``, for a phone: the phone asks for the server by
    # the network address it reaches it at, or by the machine's name; other names and
    # other addresses are refused (test_security has more).
    lan = create_app(tmp_path, port=8765, lan=True)
    me = socket.gethostname()
    with TestClient(lan, base_url="http://192.168.1.20:8765") as c:
        assert c.get("/api/games").status_code == 200
        for host in (f"{me}:8765", f"{me}.local:8765", "localhost:8765"):
            assert c.get("/api/games", headers={"host": host}).status_code == 200, host
        phone = {"origin": "http://192.168.1.20:8765"}
        assert c.post("/api/games", json={"game": "klondike"}, headers=phone).status_code == 201
        for host in ("evil.example:8765", "192.168.1.20:9999", "[192.168.1.20]:8765", "::1"):
            error_of(c.get("/api/games", headers={"host": host}), 403, "forbidden_host")
        error_of(c.get("/api/games", headers={"host": "10.0.0.7:8765"}), 403, "forbidden_host")
        bad = {"origin": "http://evil.example:8765"}
        error_of(c.post("/api/games", json={"game": "klondike"}, headers=bad), 403)
    # Listening on localhost only, a network address is refused as before.
    with TestClient(create_app(tmp_path, port=8765), base_url="http://127.0.0.1:8765") as c:
        error_of(c.get("/api/games", headers={"host": "192.168.1.20:8765"}), 403, "forbidden_host")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.1.2.3", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.20", False),
    ],
)
def test_which_addresses_keep_the_game_on_this_computer(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_deal_out_of_range_is_named_in_params_a_browser_can_hold(client: TestClient) -> None:
    # Past 2**53 a JSON number loses digits in JavaScript: the params carry the text.
    err = error_of(client.post("/api/games", json={"game": "klondike", "deal": MAX_DEAL + 1}), 422)
    assert err["params"] == {"max": str(MAX_DEAL), "got": str(MAX_DEAL + 1)}
    fr = i18n.format_message(err["message_id"], err["params"], "fr")
    assert str(MAX_DEAL + 1) in fr and fr.startswith("le numéro de donne")
