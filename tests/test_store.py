"""The SQLite store: saved sessions, results recorded once, statistics."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from patience import new_game
from patience.session import Session
from patience.store import ENV_DATA_DIR, GameRecord, Store, default_data_dir


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
