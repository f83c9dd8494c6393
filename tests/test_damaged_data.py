"""Saved data damaged or foreign while it still reads as JSON or SQLite: a save of
another shape, a results row edited by hand, a database of a newer version, a study file
of another program. Each is refused or set aside by name, the rest keeps working, and
nothing in the file changes."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from patience.cli import app as cli_app
from patience.store import Store
from patience.store_errors import StoreError
from patience.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DB = "patience.sqlite3"


def client(folder: Path) -> TestClient:
    """An in-process client that turns a server error into a 500 reply, as uvicorn does."""
    return TestClient(
        create_app(folder), base_url="http://localhost", raise_server_exceptions=False
    )


def started_game(folder: Path, deal: int = 1) -> str:
    """A Klondike game with one move made (a new game records it as lost), saved."""
    with client(folder) as c:
        gid: str = c.post("/api/games", json={"game": "klondike", "deal": deal}).json()["id"]
        assert c.post(f"/api/games/{gid}/move", json={"move": "deal"}).status_code == 200
    return gid


def edit_session(folder: Path, gid: str, change: Any) -> None:
    """Replace the saved session of ``gid`` by ``change(session)`` (valid JSON text)."""
    db = sqlite3.connect(folder / DB)
    (text,) = db.execute("SELECT session FROM games WHERE id = ?", (gid,)).fetchone()
    db.execute(
        "UPDATE games SET session = ? WHERE id = ?", (json.dumps(change(json.loads(text))), gid)
    )
    db.commit()
    db.close()


def no_server_error(r: Any) -> None:
    assert r.status_code < 500, (r.status_code, r.text)


# --- damaged saves that are valid JSON -------------------------------------------------------


@pytest.mark.parametrize("saved", [[], 1, None, "text"], ids=repr)
def test_a_save_that_is_json_but_not_an_object_is_set_aside(tmp_path: Path, saved: Any) -> None:
    # A save whose text is JSON but not an object: today every load of it, and every new
    # game (which records the started game as lost), fail with 500 AttributeError, so the
    # player can neither resume nor start a game until the file is repaired by hand.
    gid = started_game(tmp_path)
    edit_session(tmp_path, gid, lambda s: saved)
    with client(tmp_path) as c:
        r = c.get("/api/current")
        no_server_error(r)
        r = c.get(f"/api/games/{gid}")
        no_server_error(r)
        r = c.post("/api/games", json={"game": "klondike", "deal": 2})
        assert r.status_code == 201, r.text


def test_a_damaged_save_is_logged_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # Each request for a save set aside logged it again (the page asks for the game in
    # progress, then a tab for the game by its id).
    gid = started_game(tmp_path)
    edit_session(tmp_path, gid, lambda s: [])
    with caplog.at_level("WARNING", logger="patience.store"), client(tmp_path) as c:
        assert c.get("/api/current").status_code == 204
        for _ in range(2):
            assert c.get(f"/api/games/{gid}").json()["error"]["code"] == "unreadable_game"
        assert c.post("/api/games", json={"game": "klondike", "deal": 2}).status_code == 201
    logged = [r.getMessage() for r in caplog.records if "cannot be read" in r.getMessage()]
    assert logged == [f"saved game {gid} cannot be read: set aside"]


@pytest.mark.parametrize("field", ["moves", "redo"])
def test_a_save_whose_moves_are_not_text_is_set_aside(tmp_path: Path, field: str) -> None:
    # {"moves": [1, 2]}: Move.parse(1) raises AttributeError, which Service.get does not
    # treat as an unreadable save: /api/current and the game answer 500 at every load.
    gid = started_game(tmp_path)
    edit_session(tmp_path, gid, lambda s: {**s, field: [1, 2]})
    with client(tmp_path) as c:
        no_server_error(c.get("/api/current"))
        r = c.get(f"/api/games/{gid}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unreadable_game", r.text


def test_a_save_whose_clock_is_nan_does_not_block_new_games(tmp_path: Path) -> None:
    # {"elapsed": "nan"} loads (float("nan")); starting the next game then records it as
    # lost with seconds = NaN, which SQLite stores as NULL in a NOT NULL column:
    # IntegrityError, 500, and no new game can ever be started.
    gid = started_game(tmp_path)
    edit_session(tmp_path, gid, lambda s: {**s, "elapsed": "nan"})
    with client(tmp_path) as c:
        r = c.post("/api/games", json={"game": "klondike", "deal": 2})
        assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("column", "value"), [("version", "'x'"), ("version", "1.5"), ("updated", "'x'")]
)
def test_a_save_whose_version_or_time_is_damaged_is_set_aside(
    tmp_path: Path, column: str, value: str
) -> None:
    # version 'x': the move was written (SQLite's 'x' + 1 is 1), then adding 1 in Python
    # failed with a 500, and the page's retry met 409 changed_elsewhere for ever. A time
    # of text failed the game clock's subtraction the same way.
    gid = started_game(tmp_path)
    db = sqlite3.connect(tmp_path / DB)
    db.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (gid,))
    db.commit()
    (session,) = db.execute("SELECT session FROM games WHERE id = ?", (gid,)).fetchone()
    db.close()
    with client(tmp_path) as c:
        r = c.post(f"/api/games/{gid}/move", json={"move": "deal"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unreadable_game", r.text
        assert c.get("/api/current").status_code == 204
        assert c.post("/api/games", json={"game": "klondike", "deal": 2}).status_code == 201
    db = sqlite3.connect(tmp_path / DB)
    assert db.execute("SELECT session FROM games WHERE id = ?", (gid,)).fetchone() == (session,)
    db.close()


def test_a_damaged_result_does_not_take_every_statistic_down(tmp_path: Path) -> None:
    # One results row whose options are not JSON (or JSON of another shape) and
    # GET /api/stats is a 500 for good (JSONDecodeError / ResponseValidationError).
    started_game(tmp_path, deal=1)
    started_game(tmp_path, deal=2)  # records deal 1 as lost
    with client(tmp_path) as c:
        c.post("/api/games", json={"game": "hopscotch", "deal": 3})  # records deal 2
    db = sqlite3.connect(tmp_path / DB)
    (first,) = db.execute("SELECT game_id FROM results ORDER BY rowid LIMIT 1").fetchone()
    db.execute("UPDATE results SET options = '{' WHERE game_id = ?", (first,))
    db.commit()
    db.close()
    with client(tmp_path) as c:
        r = c.get("/api/stats")
        no_server_error(r)
        if r.status_code == 200:  # the readable result still counts
            assert sum(row["played"] for row in r.json()["stats"]) >= 1
        else:
            assert r.json()["error"]["code"] == "corrupt", r.text


@pytest.mark.parametrize("options", ["[]", '{"mode": 1}'])
def test_a_game_with_options_of_another_shape_does_not_break_the_statistics(
    tmp_path: Path, options: str
) -> None:
    # options '[]' in the games row: the game still loads and plays; abandoning it
    # records a result with options '[]', and /api/stats is then a 500 for good.
    gid = started_game(tmp_path)
    db = sqlite3.connect(tmp_path / DB)
    db.execute("UPDATE games SET options = ? WHERE id = ?", (options, gid))
    db.commit()
    db.close()
    with client(tmp_path) as c:
        no_server_error(c.get("/api/current"))
        no_server_error(c.post("/api/games", json={"game": "klondike", "deal": 2}))
        no_server_error(c.get("/api/stats"))


# --- a database from a newer version ---------------------------------------------------------


def test_a_database_from_a_newer_version_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    # The store opens a file whose user_version is above its own SCHEMA_VERSION, runs no
    # migration and writes user_version = 3 over it: the newer program that made the file
    # then re-runs its migrations on a schema that already has them ("duplicate column").
    db = sqlite3.connect(tmp_path / DB)
    db.execute("PRAGMA user_version = 9")
    db.commit()
    db.close()
    with pytest.raises(StoreError):
        Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / DB)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 9
    db.close()


# --- a study file of another shape ----------------------------------------------------------

runner = CliRunner()


def test_study_refuses_a_foreign_database_without_changing_it(tmp_path: Path) -> None:
    # An SQLite file with a `results` table of another shape is refused (exit 2, one
    # line) but only after the study switched it to WAL mode (and created -wal/-shm):
    # bad input must change nothing.
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE results (x)")
    db.commit()
    db.close()
    result = runner.invoke(
        cli_app, ["study", "klondike", "--deals", "1", "--db", str(path), "--jobs", "1"]
    )
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


# --- the OpenAPI schema ----------------------------------------------------------------------


def test_why_documents_the_storage_failures_it_can_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GET /api/games/{id}/why loads the game like every game endpoint (Service.get), and
    # a damaged save is set aside there, a write: with the database locked by another
    # program that is a 503 "locked" (507 on a full disk), which the schema of /why,
    # unlike every other endpoint's, does not list (its router has no 503 or 507).
    from patience import store as store_module

    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    gid = started_game(tmp_path)
    db = sqlite3.connect(tmp_path / DB)
    db.execute("UPDATE games SET session = '{' WHERE id = ?", (gid,))
    db.commit()
    db.close()
    with client(tmp_path) as c:
        documented = c.get("/api/openapi.json").json()["paths"]["/api/games/{game_id}/why"]
        other = sqlite3.connect(tmp_path / DB, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            r = c.get(f"/api/games/{gid}/why", params={"move": "deal"})
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert str(r.status_code) in documented["get"]["responses"], (r.status_code, r.text)


def test_a_save_whose_id_no_request_could_name_is_set_aside(tmp_path: Path) -> None:
    # An id over 64 characters (only by editing the file) made /api/current answer 404
    # unknown_game_id until another game was started.
    gid = started_game(tmp_path)
    db = sqlite3.connect(tmp_path / DB)
    db.execute("UPDATE games SET id = ? WHERE id = ?", ("x" * 70, gid))
    db.commit()
    db.close()
    with client(tmp_path) as c:
        assert c.get("/api/current").status_code == 204
        assert c.post("/api/games", json={"game": "klondike", "deal": 2}).status_code == 201
