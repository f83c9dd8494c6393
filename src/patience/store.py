"""Saved games and statistics in SQLite: every change is one committed transaction.

Two tables. ``games`` holds each game begun, with its whole ``Session.to_json`` (start
position, moves, redo stack, clock), so a killed server resumes it exactly. ``results``
holds one row per finished game, keyed by the game id: recording a result twice is a
no-op, which makes "recorded once, never twice" a property of the schema, not of the
callers.

Each game carries a ``version``, raised by every write and checked by it: a process
holding an older copy of a game cannot write it over a newer one (``StoreError``
"changed_elsewhere"). Every SQLite failure is raised as a ``StoreError`` that names it
(disk full, read-only, locked, I/O error, damaged file); the constructor checks the
database and refuses one it cannot read and write.
"""

from __future__ import annotations

import datetime
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from .store_errors import RUNTIME_MESSAGES, STARTUP_MESSAGES, StoreError, storage_error, use_wal
from .store_records import (
    GameRecord,
    Stats,
    daily_streaks,
    game_row,
    options_key,
    read_game,
    read_options,
    readable_game,
    result_readable,
    session_text,
)

ENV_DATA_DIR = "PATIENCE_DATA_DIR"
DB_NAME = "patience.sqlite3"
SCHEMA_VERSION = 3
BUSY_TIMEOUT = 1.5
"""Seconds a write waits for a database locked by another process before giving up."""

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal TEXT,
    session TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL DEFAULT 0,
    last_move TEXT,
    notice TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    assisted INTEGER NOT NULL DEFAULT 0,
    daily TEXT
);
CREATE INDEX IF NOT EXISTS games_open ON games (finished, updated);
CREATE TABLE IF NOT EXISTS results (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal TEXT,
    result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
    score INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    assisted INTEGER NOT NULL DEFAULT 0,
    daily TEXT
);
CREATE INDEX IF NOT EXISTS results_by_game ON results (game, options, finished_at);
"""

_MIGRATIONS = {
    # 1 -> 2: a version per game (checked on write) and games won with the solver's help.
    1: (
        "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE results ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0",
    ),
    # 2 -> 3: the date of a deal of the day (YYYY-MM-DD), on the game and its result.
    2: (
        "ALTER TABLE games ADD COLUMN daily TEXT",
        "ALTER TABLE results ADD COLUMN daily TEXT",
    ),
}


def _connect(path: Path) -> sqlite3.Connection:
    """The store's connection to ``path`` (tests replace it to open the file read-only)."""
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


def default_data_dir() -> Path:
    """The data folder: $PATIENCE_DATA_DIR, else the platform's user data folder."""
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("patience", appauthor=False))


class Store:
    """The SQLite store of one data folder. Thread-safe: one connection behind a lock."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.data_dir = Path(data_dir).expanduser() if data_dir else default_data_dir()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / DB_NAME
        # The web app serves requests from worker threads; the lock serialises them.
        self._lock = threading.RLock()
        # Failures while opening say what to do before starting again.
        self._messages = STARTUP_MESSAGES
        try:
            self._db = _connect(self.path)
        except sqlite3.Error as exc:
            raise storage_error(exc, self.path, self._messages) or exc from exc
        try:
            with self._guard():
                self._open()
        except BaseException:
            self._db.close()
            raise
        self._messages = RUNTIME_MESSAGES

    def _open(self) -> None:
        """Set the connection up, check the file, create or migrate the schema."""
        self._db.row_factory = sqlite3.Row
        self._db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:  # a newer program's file: left as it is, not even WAL
            raise StoreError(
                "newer", self._messages["newer"], path=self.path, version=version,
                ours=SCHEMA_VERSION,
            )  # fmt: skip
        use_wal(self._db, BUSY_TIMEOUT)
        # NORMAL in WAL mode survives a killed process (the WAL is in the OS cache);
        # only a power cut could lose the last move, and FULL would fsync every click.
        self._db.execute("PRAGMA synchronous=NORMAL")
        check = str(self._db.execute("PRAGMA quick_check").fetchone()[0])
        if check != "ok":
            raise StoreError(
                "corrupt", self._messages["corrupt"], path=self.path, error=check.splitlines()[0]
            )
        with self.transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            for step in range(version or SCHEMA_VERSION, SCHEMA_VERSION):
                for statement in _MIGRATIONS[step]:
                    db.execute(statement)
            # Written at every start: a folder that cannot be written fails here, not at
            # the first move.
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the lock; raise SQLite's failures as named ``StoreError``s."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                named = storage_error(exc, self.path, self._messages)
                if named is None:
                    raise
                raise named from exc

    @contextmanager
    def transaction(self, durable: bool = False) -> Iterator[sqlite3.Connection]:
        """One atomic, committed change (BEGIN IMMEDIATE ... COMMIT, rolled back on error).

        ``durable`` syncs this commit to disk (synchronous=FULL): used for the rare
        commits that record a finished game, so not even a power cut loses a result.
        """
        with self._guard():
            if durable:
                self._db.execute("PRAGMA synchronous=FULL")
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    # A failed COMMIT (disk full) leaves the transaction open: end it.
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            finally:
                if durable:
                    self._db.execute("PRAGMA synchronous=NORMAL")

    # --- games ---------------------------------------------------------------------

    def insert_game(self, record: GameRecord, finish_others_at: float | None = None) -> list[str]:
        """Save a new game; first record every other started, unfinished game as lost.

        Starting a new game abandons the one in progress: like AisleRiot, a game in which
        a move was made counts as played (and lost, unless it was won). Returns the ids
        of the games so finished (each one's version went up by one).
        """
        finished: list[str] = []
        with self.transaction(durable=finish_others_at is not None) as db:
            if finish_others_at is not None:
                rows = db.execute(
                    "SELECT * FROM games WHERE finished = 0 AND started = 1 AND id != ?",
                    (record.id,),
                ).fetchall()
                for row in rows:
                    other = readable_game(row)
                    if other is not None:
                        self._record_result(db, other, "lost", finish_others_at)
                    db.execute(
                        "UPDATE games SET finished = 1, version = version + 1 WHERE id = ?",
                        (row["id"],),
                    )
                    finished.append(row["id"])
            db.execute(
                "INSERT INTO games (id, game, options, deal, session, created, updated, started,"
                " finished, score, last_move, notice, version, assisted, daily)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                game_row(record),
            )
        return finished

    def save_game(self, record: GameRecord, result: str | None = None) -> None:
        """Save a changed game; with ``result`` ("won"/"lost") also finish and record it.

        Refused (StoreError "changed_elsewhere") when the stored game is newer than
        ``record``; on success ``record.version`` is the stored one.
        """
        with self.transaction(durable=result is not None) as db:
            cur = db.execute(
                "UPDATE games SET session = ?, updated = ?, started = ?, finished = ?,"
                " score = ?, last_move = ?, notice = ?, assisted = ?, version = version + 1"
                " WHERE id = ? AND version = ?",
                (
                    session_text(record.session),
                    record.updated,
                    int(record.started),
                    int(record.finished or result is not None),
                    record.score,
                    record.last_move,
                    record.notice,
                    int(record.assisted),
                    record.id,
                    record.version,
                ),
            )
            if cur.rowcount != 1:
                if db.execute("SELECT 1 FROM games WHERE id = ?", (record.id,)).fetchone():
                    raise StoreError("changed_elsewhere", RUNTIME_MESSAGES["changed_elsewhere"])
                raise KeyError(record.id)
            if result is not None:
                self._record_result(db, record, result, record.updated)
        record.version += 1
        if result is not None:
            record.finished = True

    def set_aside(self, game_id: str) -> None:
        """Mark a game finished without recording a result (its save cannot be read); logged
        once, when it is set aside, not at each later request that meets it."""
        with self.transaction() as db:
            cur = db.execute(
                "UPDATE games SET finished = 1, version = version + 1"
                " WHERE id = ? AND finished = 0",
                (game_id,),
            )
        if cur.rowcount:
            log.warning("saved game %s cannot be read: set aside", game_id)

    def get_game(self, game_id: str) -> GameRecord | None:
        """The saved game ``game_id``, or None (ValueError when its save is not JSON)."""
        with self._guard():
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else read_game(row)

    def current_id(self) -> str | None:
        """The id of the game changed last that is not finished, or None."""
        with self._guard():
            row = self._db.execute(
                "SELECT id FROM games WHERE finished = 0 ORDER BY updated DESC, rowid DESC LIMIT 1"
            ).fetchone()
        return None if row is None else str(row["id"])

    def current_game(self) -> GameRecord | None:
        """The game changed last that is not finished, or None."""
        game_id = self.current_id()
        return None if game_id is None else self.get_game(game_id)

    # --- results -------------------------------------------------------------------

    def _record_result(
        self, db: sqlite3.Connection, record: GameRecord, result: str, at: float
    ) -> None:
        session = record.session
        score = record.score
        moves = len(session.get("moves", []))
        seconds = float(session.get("elapsed", 0.0))
        # One row per game id. A game recorded as lost (abandoned) and then won anyway
        # from another tab becomes a win; nothing else ever changes a recorded result.
        db.execute(
            "INSERT INTO results (game_id, game, options, deal, result, score, seconds, moves,"
            " finished_at, assisted, daily) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET result = excluded.result,"
            " score = excluded.score, seconds = excluded.seconds, moves = excluded.moves,"
            " assisted = excluded.assisted"
            " WHERE results.result = 'lost' AND excluded.result = 'won'",
            (
                record.id,
                record.game,
                options_key(record.options),
                None if record.deal is None else str(record.deal),
                result,
                score,
                seconds,
                moves,
                at,
                int(record.assisted),
                record.daily,
            ),
        )

    def results(self, game_id: str | None = None) -> list[dict[str, Any]]:
        """Recorded results (all, or of one game id), oldest first."""
        with self._guard():
            if game_id is None:
                rows = self._db.execute(
                    "SELECT * FROM results ORDER BY finished_at, rowid"
                ).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT * FROM results WHERE game_id = ?", (game_id,)
                ).fetchall()
        return [dict(r) for r in rows]

    def reset_stats(self, game: str | None = None, options: dict[str, str] | None = None) -> int:
        """Forget the results of ``game`` with ``options`` (every game's when ``game`` is
        None; every options' when ``options`` is None), in one transaction: the number of
        results forgotten. Saved games, the one in progress among them, stay."""
        where, args = "", tuple[str, ...]()
        if game is not None:
            where, args = " WHERE game = ?", (game,)
            if options is not None:
                where, args = where + " AND options = ?", (game, options_key(options))
        with self.transaction(durable=True) as db:
            return db.execute("DELETE FROM results" + where, args).rowcount

    def stats(self, today: datetime.date | None = None) -> list[Stats]:
        """Statistics per game and options, in game then options order; the daily
        streak runs up to ``today`` (None: this computer's date).

        A game won with the solver playing its moves (``assisted``) is counted apart: it
        is played, not won, breaks the streak, and sets no best time or score.
        """
        today = today or datetime.date.today()
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in self.results():
            if not result_readable(r):  # a row damaged by hand: the others still count
                log.warning("result of game %s cannot be read: left out", r["game_id"])
                continue
            groups.setdefault((r["game"], r["options"]), []).append(r)
        out: list[Stats] = []
        for (game, opts), rows in sorted(groups.items()):
            own = [r for r in rows if not r["assisted"]]
            wins = [r for r in own if r["result"] == "won"]
            longest = run = 0
            for r in rows:
                run = run + 1 if r["result"] == "won" and not r["assisted"] else 0
                longest = max(longest, run)
            times = [float(r["seconds"]) for r in wins]
            out.append(
                Stats(
                    game=game,
                    options=read_options(opts),
                    played=len(rows),
                    won=len(wins),
                    win_rate=len(wins) / len(rows),
                    current_streak=run,
                    longest_streak=longest,
                    best_time=min(times) if times else None,
                    average_time=sum(times) / len(times) if times else None,
                    best_score=max((int(r["score"]) for r in own), default=None),
                    assisted=sum(1 for r in rows if r["assisted"] and r["result"] == "won"),
                    **daily_streaks(own, today),
                )
            )
        return out
