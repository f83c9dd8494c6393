"""Resetting the statistics: of one game and options, of one game, or of every game, in one
transaction; nothing else is lost (the game in progress stays, and the other games' results);
a failing disk is named; another site cannot ask for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from patience import store as store_module
from patience.store import Store
from patience.store_errors import StoreError
from test_api import create, make_client, stats
from test_api_storage import error, locked
from test_store import finish, record


def finished(c: TestClient, game: str, options: dict[str, str], deal: int) -> None:
    """A game of ``game`` begun (one move made) then abandoned by the next game: lost."""
    view = create(c, game=game, options=options, deal=deal)
    r = c.post(f"/api/games/{view['id']}/move", json={"move": view["legal_moves"][0]})
    assert r.status_code == 200, r.text


def played(c: TestClient) -> dict[tuple[str, str], int]:
    return {(s["game"], str(sorted(s["options"].items()))): s["played"] for s in stats(c)}


@pytest.fixture
def c(tmp_path: Path) -> Any:
    """A client with Klondike (two modes) and Hopscotch results, and a game in progress."""
    with make_client(tmp_path) as client:
        finished(client, "klondike", {"mode": "single"}, 1)
        finished(client, "klondike", {"mode": "single"}, 2)
        finished(client, "klondike", {"mode": "three"}, 3)
        finished(client, "hopscotch", {}, 4)
        finished(client, "lady-jane", {}, 5)  # the game in progress, one move made
        yield client


KLONDIKE_SINGLE = ("klondike", "[('mode', 'single')]")
KLONDIKE_THREE = ("klondike", "[('mode', 'three')]")
HOPSCOTCH = ("hopscotch", "[]")


def in_progress(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/current")
    assert r.status_code == 200
    view: dict[str, Any] = r.json()
    return view


def test_resetting_one_game_and_options_forgets_only_those(c: TestClient) -> None:
    before = in_progress(c)
    assert played(c) == {KLONDIKE_SINGLE: 2, KLONDIKE_THREE: 1, HOPSCOTCH: 1}
    r = c.post("/api/stats/reset", json={"game": "klondike", "options": {"mode": "single"}})
    assert r.status_code == 200 and r.json() == {"forgotten": 2}
    assert played(c) == {KLONDIKE_THREE: 1, HOPSCOTCH: 1}
    after = in_progress(c)
    assert (after["id"], after["moves_made"], after["position"]) == (
        before["id"],
        before["moves_made"],
        before["position"],
    )


def test_options_left_out_are_the_defaults(c: TestClient) -> None:
    r = c.post("/api/stats/reset", json={"game": "klondike", "options": {}})
    assert r.json() == {"forgotten": 2}
    assert played(c) == {KLONDIKE_THREE: 1, HOPSCOTCH: 1}


def test_resetting_a_game_forgets_all_its_options(c: TestClient) -> None:
    r = c.post("/api/stats/reset", json={"game": "klondike"})
    assert r.json() == {"forgotten": 3}
    assert played(c) == {HOPSCOTCH: 1}


def test_resetting_everything_keeps_the_game_in_progress(c: TestClient) -> None:
    before = in_progress(c)
    r = c.post("/api/stats/reset", json={})
    assert r.json() == {"forgotten": 4}
    assert stats(c) == []
    assert in_progress(c)["id"] == before["id"]
    # The game in progress still counts when it ends.
    create(c, game="hopscotch", deal=9)
    assert played(c) == {("lady-jane", "[]"): 1}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "klondike", "options": {"mode": "seven"}}, "invalid_option"),
        ({"options": {"mode": "three"}}, "invalid_reset"),
        ({"game": "klondike", "extra": 1}, "invalid_request"),
    ],
)
def test_a_bad_reset_is_refused_by_name_and_forgets_nothing(
    c: TestClient, body: dict[str, Any], code: str
) -> None:
    r = c.post("/api/stats/reset", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code
    assert played(c) == {KLONDIKE_SINGLE: 2, KLONDIKE_THREE: 1, HOPSCOTCH: 1}


def test_another_site_cannot_reset(c: TestClient) -> None:
    r = c.post("/api/stats/reset", json={}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    assert len(stats(c)) == 3


def test_a_locked_database_is_named_and_forgets_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    with make_client(tmp_path) as client:
        finished(client, "hopscotch", {}, 1)
        create(client, game="hopscotch", deal=2)
        with locked(tmp_path):
            error(client.post("/api/stats/reset", json={}), 503, "locked")
        assert len(stats(client)) == 1


def test_the_store_resets_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    store = Store(tmp_path)
    for i in range(3):
        r = record(f"g{i}", float(i), started=True)
        store.insert_game(r)
        finish(store, r, "won", 10.0, 52)
    with locked(tmp_path), pytest.raises(StoreError) as caught:
        store.reset_stats()
    assert caught.value.code == "locked"
    assert len(store.results()) == 3
    assert store.reset_stats("klondike", {"mode": "three"}) == 0
    assert store.reset_stats("klondike", {"mode": "single"}) == 3
    assert store.results() == [] and store.get_game("g0") is not None
    store.close()
