"""The API when the data folder misbehaves: damaged saves, a full or locked disk, two
servers on one folder. Every failure is named, nothing acknowledged is lost, and a slow
database never stalls the other requests."""

from __future__ import annotations

import logging
import sqlite3
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from patience import i18n
from patience import store as store_module
from patience.store_errors import RUNTIME_MESSAGES
from patience.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_api import act, create, make_client, near_won, stats

DB = "patience.sqlite3"


def damage(folder: Path, game_id: str) -> None:
    """Make the saved text of ``game_id`` something that is not JSON."""
    db = sqlite3.connect(folder / DB)
    db.execute("UPDATE games SET session = '{\"moves\": [' WHERE id = ?", (game_id,))
    db.commit()
    db.close()


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Another program holds the database locked for writing."""
    other = sqlite3.connect(folder / DB, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def error(r: Any, status: int, code: str) -> dict[str, Any]:
    """The error of a reply, checking its status and code."""
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code
    return err


# --- no game, damaged games ------------------------------------------------------------------


def test_no_game_in_progress_is_an_empty_204(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        r = c.get("/api/current")
        assert r.status_code == 204 and r.content == b""
        responses = c.get("/api/openapi.json").json()["paths"]["/api/current"]["get"]
        assert "204" in responses["responses"]


def test_a_damaged_save_is_set_aside_and_play_goes_on(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        bad = create(c, game="klondike", deal=1)["id"]
        act(c, bad, "move", move="deal")  # started: a new game would record it as lost
    damage(tmp_path, bad)
    with make_client(tmp_path) as c:
        assert c.get("/api/current").status_code == 204
        good = create(c, game="klondike", deal=2)["id"]
        assert c.get("/api/current").json()["id"] == good
        error(c.get(f"/api/games/{bad}"), 404, "unreadable_game")
        assert stats(c) == []  # nothing to record of a game that cannot be read


def test_starting_a_game_sets_a_damaged_one_aside(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        bad = create(c, game="klondike", deal=1)["id"]
        act(c, bad, "move", move="deal")
    damage(tmp_path, bad)
    with make_client(tmp_path) as c:
        good = create(c, game="klondike", deal=2)["id"]
        assert c.get("/api/current").json()["id"] == good


def test_the_next_game_says_once_that_a_damaged_one_was_set_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with make_client(tmp_path) as c:
        good = create(c, game="klondike", deal=1)["id"]
        bad = create(c, game="hopscotch", deal=1)["id"]
    damage(tmp_path, bad)
    with caplog.at_level(logging.WARNING), make_client(tmp_path) as c:
        view = c.get("/api/current").json()
        assert view["id"] == good
        assert view["notice"] == "A saved game could not be read and was set aside"
        assert c.get("/api/current").json()["id"] == good
    warned = [r for r in caplog.records if bad in r.getMessage()]
    assert len(warned) == 1 and warned[0].exc_info is None


# --- storage failures ------------------------------------------------------------------------


def test_a_full_disk_is_named_and_loses_nothing_acknowledged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(tmp_path)
    acknowledged = []
    with caplog.at_level(logging.WARNING), TestClient(app, base_url="http://localhost") as c:
        db = app.state.store._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # no room left on the disk
        for deal in range(100):
            r = c.post("/api/games", json={"game": "klondike", "deal": deal})
            if r.status_code != 201:
                break
            acknowledged.append(r.json()["id"])
        err = error(r, 507, "disk_full")
        assert err["message_id"] == RUNTIME_MESSAGES["disk_full"]
        assert err["message"].startswith("The disk is full: nothing was saved.")
    assert all(r.exc_info is None for r in caplog.records)  # one line each, no traceback
    assert any("disk" in r.getMessage() for r in caplog.records)
    with make_client(tmp_path) as c:
        for gid in acknowledged:
            assert c.get(f"/api/games/{gid}").status_code == 200


def test_a_locked_database_is_named_and_the_move_is_not_half_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    with make_client(tmp_path) as c:
        gid = create(c, game="klondike", deal=5)["id"]
        with locked(tmp_path):
            r = c.post(f"/api/games/{gid}/move", json={"move": "deal"})
            error(r, 503, "locked")
            assert r.headers["retry-after"]
        assert c.get(f"/api/games/{gid}").json()["moves_made"] == 0
        assert act(c, gid, "move", move="deal")["moves_made"] == 1


def test_a_locked_database_stalls_no_other_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The move waits for the lock as long as the test holds it.
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 60.0, raising=False)
    app = create_app(tmp_path)
    with TestClient(app, base_url="http://localhost") as c:
        gid = create(c, game="klondike", deal=5)["id"]
        store = app.state.store
        saving = threading.Event()
        save = store.save_game

        def announced_save(*args: Any, **kwargs: Any) -> None:
            saving.set()
            save(*args, **kwargs)

        monkeypatch.setattr(store, "save_game", announced_save)
        replies: list[Any] = []
        with locked(tmp_path):
            mover = threading.Thread(
                target=lambda: replies.append(
                    c.post(f"/api/games/{gid}/move", json={"move": "deal"})
                )
            )
            mover.start()
            assert saving.wait(30)
            # The move is waiting for the database: the page and the API still answer.
            assert c.get("/api/games").status_code == 200
            assert c.get("/i18n.js").status_code == 200
            assert mover.is_alive()
        mover.join(60)
        assert replies[0].status_code == 200  # and the move went through once released


def test_storage_messages_are_translated() -> None:
    for template in RUNTIME_MESSAGES.values():
        for lang in ("es", "fr"):
            assert i18n.gettext(template, lang) != template, (lang, template)


# --- two servers, one folder -----------------------------------------------------------------


def test_an_older_copy_in_another_server_is_refused_then_reloaded(tmp_path: Path) -> None:
    with make_client(tmp_path) as one, make_client(tmp_path) as two:
        gid = create(one, game="klondike", deal=5)["id"]
        act(one, gid, "move", move="deal")
        assert two.get(f"/api/games/{gid}").json()["moves_made"] == 1
        act(one, gid, "move", move="t3>t5")  # server two's copy is now old
        r = two.post(f"/api/games/{gid}/move", json={"move": "deal"})
        err = error(r, 409, "changed_elsewhere")
        assert err["message"] == "This game was changed elsewhere; reload"
        view = two.get(f"/api/games/{gid}").json()  # reloaded from the disk
        assert view["moves_made"] == 2
        assert act(two, gid, "move", move="deal")["moves_made"] == 3


def test_a_game_abandoned_by_another_server_is_not_reopened(tmp_path: Path) -> None:
    with make_client(tmp_path) as one, make_client(tmp_path) as two:
        old = create(one, game="klondike", deal=5)["id"]
        act(one, old, "move", move="deal")
        two.get(f"/api/games/{old}")
        new = create(one, game="klondike", deal=6)["id"]  # abandons the old game
        error(two.post(f"/api/games/{old}/move", json={"move": "deal"}), 409, "changed_elsewhere")
        assert one.get("/api/current").json()["id"] == new


# --- games won with the solver's moves -------------------------------------------------------


def test_a_game_won_by_show_me_is_assisted_not_won(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        gid = create(c, position=near_won())["id"]
        assert not c.get(f"/api/games/{gid}").json()["assisted"]
        view = act(c, gid, "move", move="t1>f1", assisted=True)
        assert view["status"] == "won" and view["assisted"]
        (row,) = stats(c)
        assert (row["played"], row["won"], row["assisted"]) == (1, 0, 1)
        assert row["current_streak"] == 0 and row["best_time"] is None
        own = create(c, position=near_won())["id"]
        act(c, own, "move", move="t1>f1")
        (row,) = stats(c)
        assert (row["played"], row["won"], row["assisted"], row["current_streak"]) == (2, 1, 1, 1)
    with make_client(tmp_path) as c:
        assert c.get(f"/api/games/{gid}").json()["assisted"]
        assert not c.get(f"/api/games/{own}").json()["assisted"]
