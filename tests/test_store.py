"""The SQLite store: saved sessions, results recorded once, statistics."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from patience import new_game
from patience import store as store_module
from patience.session import Session
from patience.store import ENV_DATA_DIR, GameRecord, Store, default_data_dir
from patience.store_errors import STARTUP_MESSAGES, StoreError, storage_error


def record(game_id: str, at: float, deal: int | None = 1, started: bool = False) -> GameRecord:
    """A fresh Klondike game record."""
    session = Session(new_game("klondike", deal=deal or 0))
    return GameRecord(
        id=game_id,
        game="klondike",
        options={"mode": "single"},
        deal=deal,
        session=session.to_json(),
        created=at,
        updated=at,
        started=started,
    )


def finish(store: Store, r: GameRecord, result: str, seconds: float, score: int) -> None:
    """Save ``r`` as finished with ``result``."""
    r.session["elapsed"] = seconds
    r.score = score
    r.updated += 1
    store.save_game(r, result=result)


def test_data_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert default_data_dir() == tmp_path / "env"
    store = Store()
    assert store.path.parent == tmp_path / "env"
    store.close()


def test_explicit_data_dir_wins_over_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    store = Store(tmp_path / "given")
    assert store.path == tmp_path / "given" / "patience.sqlite3"
    store.close()


def test_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path)
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    store.close()


def test_game_round_trip_survives_reopening(tmp_path: Path) -> None:
    store = Store(tmp_path)
    r = record("a", 10.0, deal=10**20)  # past SQLite's 64-bit integers
    store.insert_game(r)
    store.close()
    again = Store(tmp_path)
    got = again.get_game("a")
    assert got is not None
    assert got.deal == 10**20
    assert got.session == r.session
    assert again.get_game("missing") is None
    again.close()


def test_current_is_last_changed_unfinished(tmp_path: Path) -> None:
    store = Store(tmp_path)
    a, b = record("a", 1.0), record("b", 2.0)
    store.insert_game(a)
    store.insert_game(b)
    current = store.current_game()
    assert current is not None and current.id == "b"
    a.updated = 3.0
    store.save_game(a)
    current = store.current_game()
    assert current is not None and current.id == "a"
    finish(store, a, "won", 5.0, 52)
    current = store.current_game()
    assert current is not None and current.id == "b"
    store.close()


def test_result_recorded_once(tmp_path: Path) -> None:
    store = Store(tmp_path)
    r = record("a", 1.0, started=True)
    store.insert_game(r)
    finish(store, r, "won", 30.0, 52)
    finish(store, r, "won", 99.0, 52)
    finish(store, r, "lost", 99.0, 10)
    rows = store.results()
    assert len(rows) == 1
    assert rows[0]["result"] == "won" and rows[0]["seconds"] == 30.0
    store.close()


def test_lost_then_won_becomes_a_win(tmp_path: Path) -> None:
    store = Store(tmp_path)
    r = record("a", 1.0, started=True)
    store.insert_game(r)
    finish(store, r, "lost", 10.0, 20)
    finish(store, r, "won", 40.0, 52)
    rows = store.results()
    assert [row["result"] for row in rows] == ["won"]
    store.close()


def test_new_game_abandons_started_games_only(tmp_path: Path) -> None:
    store = Store(tmp_path)
    started, untouched = record("a", 1.0, started=True), record("b", 2.0)
    store.insert_game(started)
    store.insert_game(untouched)
    store.insert_game(record("c", 3.0), finish_others_at=3.0)
    rows = store.results()
    assert [(row["game_id"], row["result"]) for row in rows] == [("a", "lost")]
    a = store.get_game("a")
    assert a is not None and a.finished
    # Starting yet another game does not record the abandoned one again.
    store.insert_game(record("d", 4.0), finish_others_at=4.0)
    assert len(store.results()) == 1
    store.close()


def test_failed_transaction_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.insert_game(record("a", 1.0))
    with pytest.raises(sqlite3.IntegrityError):
        store.insert_game(record("a", 2.0))
    with pytest.raises(KeyError):
        store.save_game(record("ghost", 1.0), result="won")
    assert store.results() == []
    store.close()


def test_statistics(tmp_path: Path) -> None:
    store = Store(tmp_path)
    outcomes = [("won", 100.0, 52), ("won", 80.0, 52), ("lost", 50.0, 20), ("won", 120.0, 52)]
    for i, (result, seconds, score) in enumerate(outcomes):
        r = record(f"g{i}", float(i * 10), started=True)
        store.insert_game(r)
        finish(store, r, result, seconds, score)
    other = record("x", 100.0)
    other.game = "hopscotch"
    other.options = {}
    store.insert_game(other)
    finish(store, other, "lost", 5.0, 3)
    stats = {s.game: s for s in store.stats()}
    k = stats["klondike"]
    assert (k.played, k.won, k.current_streak, k.longest_streak) == (4, 3, 1, 2)
    assert k.win_rate == 0.75
    assert k.best_time == 80.0
    assert k.average_time == 100.0
    assert k.best_score == 52
    assert k.options == {"mode": "single"}
    h = stats["hopscotch"]
    assert (h.played, h.won, h.current_streak, h.longest_streak) == (1, 0, 0, 0)
    assert h.best_time is None and h.average_time is None and h.best_score == 3
    store.close()


def test_statistics_grouped_by_options(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for i, mode in enumerate(["single", "three", "three"]):
        r = record(f"g{i}", float(i), started=True)
        r.options = {"mode": mode}
        store.insert_game(r)
        finish(store, r, "won", 10.0, 52)
    played = {s.options["mode"]: s.played for s in store.stats()}
    assert played == {"single": 1, "three": 2}
    store.close()


# --- one game, two writers: a version per game -------------------------------------------


def test_an_older_copy_of_a_game_is_never_written_over_a_newer_one(tmp_path: Path) -> None:
    first, second = Store(tmp_path), Store(tmp_path)
    first.insert_game(record("a", 1.0))
    mine, theirs = first.get_game("a"), second.get_game("a")
    assert mine is not None and theirs is not None
    mine.session["moves"] = ["deal"]
    mine.updated = 2.0
    first.save_game(mine)
    theirs.updated = 3.0  # an older copy, changed on its own
    with pytest.raises(StoreError) as refused:
        second.save_game(theirs, result="lost")
    assert refused.value.code == "changed_elsewhere"
    assert refused.value.template == "This game was changed elsewhere; reload"
    stored = second.get_game("a")
    assert stored is not None and stored.session["moves"] == ["deal"] and not stored.finished
    assert second.results() == []  # the refused write recorded nothing either
    # Reloaded, the copy is current again and can be saved.
    stored.updated = 4.0
    second.save_game(stored)
    assert stored.version == mine.version + 1
    first.close()
    second.close()


def test_abandoning_a_game_makes_other_copies_of_it_stale(tmp_path: Path) -> None:
    store = Store(tmp_path)
    a = record("a", 1.0, started=True)
    store.insert_game(a)
    assert store.insert_game(record("b", 2.0), finish_others_at=2.0) == ["a"]
    a.updated = 3.0
    with pytest.raises(StoreError):
        store.save_game(a)  # would have re-opened the abandoned game
    stored = store.get_game("a")
    assert stored is not None and stored.finished
    store.close()


def test_a_version_1_database_is_migrated_and_keeps_its_games(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "patience.sqlite3")
    db.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
            deal TEXT, session TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
            started INTEGER NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0,
            score INTEGER NOT NULL DEFAULT 0, last_move TEXT, notice TEXT);
        CREATE TABLE results (game_id TEXT PRIMARY KEY, game TEXT NOT NULL,
            options TEXT NOT NULL, deal TEXT, result TEXT NOT NULL, score INTEGER NOT NULL,
            seconds REAL NOT NULL, moves INTEGER NOT NULL, finished_at REAL NOT NULL);
        PRAGMA user_version = 1;
        """
    )
    session = Session(new_game("klondike", deal=1)).to_json()
    db.execute(
        "INSERT INTO games VALUES ('old', 'klondike', '{\"mode\":\"single\"}', '1', ?,"
        " 1.0, 1.0, 1, 0, 0, NULL, NULL)",
        (json.dumps(session),),
    )
    db.execute(
        "INSERT INTO results VALUES ('won', 'klondike', '{\"mode\":\"single\"}', '2', 'won',"
        " 52, 60.0, 100, 1.0)"
    )
    db.commit()
    db.close()
    store = Store(tmp_path)
    old = store.get_game("old")
    assert old is not None and old.session == session and not old.assisted
    old.updated = 2.0
    store.save_game(old)
    (k,) = store.stats()
    assert (k.won, k.assisted) == (1, 0)
    store.close()
    db = sqlite3.connect(tmp_path / "patience.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION
    db.close()
    Store(tmp_path).close()  # and it opens again


# --- games won with the solver's moves -------------------------------------------------------


def test_assisted_wins_are_counted_apart(tmp_path: Path) -> None:
    store = Store(tmp_path)
    outcomes = [("won", False, 100.0), ("won", False, 90.0), ("won", True, 10.0),
                ("won", False, 80.0)]  # fmt: skip
    for i, (result, assisted, seconds) in enumerate(outcomes):
        r = record(f"g{i}", float(i), started=True)
        r.assisted = assisted
        store.insert_game(r)
        finish(store, r, result, seconds, 52 if not assisted else 53)
    (k,) = store.stats()
    assert (k.played, k.won, k.assisted) == (4, 3, 1)
    assert (k.current_streak, k.longest_streak) == (1, 2)  # the assisted win breaks it
    assert k.best_time == 80.0 and k.average_time == 90.0
    assert k.best_score == 52
    again = Store(tmp_path).get_game("g2")
    assert again is not None and again.assisted
    store.close()


# --- damaged saves and storage failures ------------------------------------------------------


def test_a_save_that_is_not_json_is_set_aside_when_a_new_game_starts(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.insert_game(record("bad", 1.0, started=True))
    db = sqlite3.connect(tmp_path / "patience.sqlite3")
    db.execute("UPDATE games SET session = '{not json' WHERE id = 'bad'")
    db.commit()
    db.close()
    assert store.insert_game(record("new", 2.0), finish_others_at=2.0) == ["bad"]
    assert store.current_id() == "new"
    assert store.results() == []  # nothing readable to record
    store.close()


def test_a_damaged_database_is_refused_with_where_and_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "patience.sqlite3").write_bytes(b"not a database, " * 512)
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    assert refused.value.code == "corrupt"
    message = str(refused.value)
    assert str(tmp_path / "patience.sqlite3") in message and "move it away" in message


def test_a_database_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(tmp_path).close()

    def read_only(path: Path) -> sqlite3.Connection:
        # What a read-only folder does (root ignores file permissions, so ask SQLite).
        return sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, check_same_thread=False, isolation_level=None
        )

    monkeypatch.setattr(store_module, "_connect", read_only, raising=False)
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    assert refused.value.code == "read_only"
    assert str(tmp_path / "patience.sqlite3") in str(refused.value)
    assert "--data-dir" in str(refused.value)


def test_a_read_only_database_file_is_named_and_its_folder_is_not_blamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only the file read-only (its folder writable): the message said "make its folder
    # writable", which the folder already was.
    Store(tmp_path).close()
    (tmp_path / "patience.sqlite3").chmod(0o444)

    def read_only(path: Path) -> sqlite3.Connection:
        # As SQLite opens a file it may not write (root ignores file permissions).
        return sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, check_same_thread=False, isolation_level=None
        )

    monkeypatch.setattr(store_module, "_connect", read_only, raising=False)
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    message = str(refused.value)
    assert refused.value.code == "read_only"
    assert f"make the file {tmp_path / 'patience.sqlite3'} writable" in message
    assert "folder writable" not in message
    # A read-only folder is named as such (SQLite's SQLITE_READONLY_DIRECTORY).
    exc = sqlite3.OperationalError("attempt to write a readonly database")
    exc.sqlite_errorcode = 8 | (6 << 8)
    exc.sqlite_errorname = "SQLITE_READONLY_DIRECTORY"
    named = storage_error(exc, tmp_path / "patience.sqlite3", STARTUP_MESSAGES)
    assert named is not None and f"make its folder {tmp_path} writable" in str(named)


def test_a_database_locked_by_another_program_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Store(tmp_path).close()
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.05, raising=False)
    other = sqlite3.connect(tmp_path / "patience.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError) as refused:
            Store(tmp_path)
        assert refused.value.code == "locked"
    finally:
        other.execute("ROLLBACK")
        other.close()


@pytest.mark.parametrize(
    ("name", "number", "code"),
    [
        ("SQLITE_FULL", 13, "disk_full"),
        ("SQLITE_READONLY_DIRECTORY", 8 | (6 << 8), "read_only"),
        ("SQLITE_BUSY", 5, "locked"),
        ("SQLITE_LOCKED", 6, "locked"),
        ("SQLITE_IOERR_WRITE", 10 | (3 << 8), "io_error"),
        ("SQLITE_CANTOPEN", 14, "io_error"),
        ("SQLITE_CORRUPT", 11, "corrupt"),
        ("SQLITE_NOTADB", 26, "corrupt"),
    ],
)
def test_every_storage_failure_is_named(name: str, number: int, code: str) -> None:
    exc = sqlite3.OperationalError("boom")
    exc.sqlite_errorcode = number
    exc.sqlite_errorname = name
    named = storage_error(exc, Path("/data/patience.sqlite3"))
    assert named is not None and named.code == code
    assert "{" not in str(named)  # every placeholder filled


def test_a_full_disk_loses_nothing_acknowledged(tmp_path: Path) -> None:
    store = Store(tmp_path)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    saved = []
    with pytest.raises(StoreError) as full:
        for i in range(50):
            store.insert_game(record(f"g{i}", float(i)))
            saved.append(f"g{i}")
    assert full.value.code == "disk_full"
    store._db.execute(f"PRAGMA max_page_count = {10**6}")  # some space again
    store.insert_game(record("after", 99.0))  # the store still works: no transaction left open
    store.close()
    again = Store(tmp_path)
    assert all(again.get_game(g) is not None for g in saved)
    again.close()
