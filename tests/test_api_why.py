"""GET /api/games/{id}/why: the reason a move would be refused, in a 200 reply, and no change."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx2; httpx works the same
    from starlette.testclient import TestClient


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    """Klondike deal 1: the Queen of hearts alone on t1, the Ace of spades on t7."""
    view: dict[str, Any] = client.post("/api/games", json={"game": "klondike", "deal": 1}).json()
    return view


@pytest.mark.parametrize("move", ["t1>f1", "t1>t2", "w>t3", "t2>t3/5"])
def test_refused_move_gets_the_error_the_move_would_get(
    client: TestClient, game: dict[str, Any], move: str
) -> None:
    gid = game["id"]
    assert move not in game["legal_moves"]
    r = client.get(f"/api/games/{gid}/why", params={"move": move})
    assert r.status_code == 200
    body = r.json()
    assert body["legal"] is False
    refused = client.post(f"/api/games/{gid}/move", json={"move": move})
    assert refused.status_code == 409
    assert body["error"] == refused.json()["error"]
    assert body["error"]["code"] == "illegal_move"


def test_legal_move_is_said_legal_and_not_played(client: TestClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    for move in game["legal_moves"]:
        r = client.get(f"/api/games/{gid}/why", params={"move": move})
        assert r.status_code == 200 and r.json() == {"legal": True, "error": None}
    now = client.get(f"/api/games/{gid}").json()
    assert now["moves_made"] == 0 and now["position"] == game["position"]


def test_why_refuses_bad_input_as_the_move_does(client: TestClient, game: dict[str, Any]) -> None:
    r = client.get("/api/games/nosuchgame/why", params={"move": "deal"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game_id"
    r = client.get(f"/api/games/{game['id']}/why", params={"move": "t1->t2"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_move"
    r = client.get(f"/api/games/{game['id']}/why")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


def test_why_is_documented(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    reply = schema["paths"]["/api/games/{game_id}/why"]["get"]["responses"]
    assert reply["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Why")
    assert {"404", "422"} <= set(reply)
    why = schema["components"]["schemas"]["Why"]
    assert set(why["properties"]) == {"legal", "error"}
