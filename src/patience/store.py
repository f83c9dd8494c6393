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
import json
import logging
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from .store_errors import RUNTIME_MESSAGES, STARTUP_MESSAGES, StoreError, storage_error, use_wal

ENV_DATA_DIR = "PATIENCE_DATA_DIR"
DB_NAME = "patience.sqlite3"
SCHEMA_VERSION = 3
ONE_DAY = datetime.timedelta(days=1)
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


def options_key(options: dict[str, str]) -> str:
    """The canonical text of an options dict (sorted JSON), used as a grouping key."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


@dataclass
class GameRecord:
    """One row of ``games``: a saved session and what the server knows about it."""

    id: str
    game: str
    options: dict[str, str]
    deal: int | None
    session: dict[str, Any]
    created: float
    updated: float
    started: bool = False
    finished: bool = False
    score: int = 0
    last_move: str | None = None
    notice: str | None = None
    version: int = 0
    assisted: bool = False
    daily: str | None = None
    """The date (YYYY-MM-DD) of the deal of the day this game plays, or None."""


@dataclass
class Stats:
    """Statistics of one game with one set of options."""

    game: str
    options: dict[str, str]
    played: int
    won: int
    win_rate: float
    current_streak: int
    longest_streak: int
    best_time: float | None
    average_time: float | None
    best_score: int | None
    assisted: int = 0
    daily_streak: int = 0
    """Days in a row, up to the day asked for or the day before, whose deal of the day
    was won."""
    daily_longest: int = 0
    """The most days in a row whose deal of the day was won."""


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
                    other = _readable(row)
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
                _row(record),
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
                    json.dumps(record.session, separators=(",", ":")),
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
        """Mark a game finished without recording a result (its save cannot be read)."""
        log.warning("saved game %s cannot be read: set aside", game_id)
        with self.transaction() as db:
            db.execute(
                "UPDATE games SET finished = 1, version = version + 1 WHERE id = ?", (game_id,)
            )

    def get_game(self, game_id: str) -> GameRecord | None:
        """The saved game ``game_id``, or None (ValueError when its save is not JSON)."""
        with self._guard():
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record(row)

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
            if not _result_readable(r):  # a row damaged by hand: the others still count
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
                    options=_options(opts),
                    played=len(rows),
                    won=len(wins),
                    win_rate=len(wins) / len(rows),
                    current_streak=run,
                    longest_streak=longest,
                    best_time=min(times) if times else None,
                    average_time=sum(times) / len(times) if times else None,
                    best_score=max((int(r["score"]) for r in own), default=None),
                    assisted=sum(1 for r in rows if r["assisted"] and r["result"] == "won"),
                    **_daily_streaks(own, today),
                )
            )
        return out


def _daily_streaks(rows: list[dict[str, Any]], today: datetime.date) -> dict[str, int]:
    """The daily streaks of a group's own results: days won in a row up to ``today`` (or
    up to the day before, while today's deal is still to win), and the longest run."""
    won = {
        datetime.date.fromisoformat(r["daily"])
        for r in rows
        if r["daily"] is not None and r["result"] == "won"
    }
    longest = 0
    for day in won:
        if day - ONE_DAY not in won:
            run = 1
            while day + run * ONE_DAY in won:
                run += 1
            longest = max(longest, run)
    end = today if today in won else today - ONE_DAY
    current = 0
    while end - current * ONE_DAY in won:
        current += 1
    return {"daily_streak": current, "daily_longest": longest}


def _row(r: GameRecord) -> tuple[Any, ...]:
    return (
        r.id,
        r.game,
        options_key(r.options),
        None if r.deal is None else str(r.deal),
        json.dumps(r.session, separators=(",", ":")),
        r.created,
        r.updated,
        int(r.started),
        int(r.finished),
        r.score,
        r.last_move,
        r.notice,
        r.version,
        int(r.assisted),
        r.daily,
    )


def _readable(row: sqlite3.Row) -> GameRecord | None:
    """The record of ``row``, or None when its saved text is damaged (``_record``)."""
    try:
        return _record(row)
    except ValueError:
        log.warning("saved game %s cannot be read: set aside", row["id"])
        return None


def _options(text: str) -> dict[str, str]:
    """Saved options (JSON text); ValueError unless they map text to text."""
    options = json.loads(text)
    if not isinstance(options, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in options.items()
    ):
        raise ValueError(f"options {text[:40]!r} do not map text to text")
    return options


def _result_readable(r: dict[str, Any]) -> bool:
    """Whether a results row holds what ``stats`` reads, as the store writes it."""
    try:
        _options(r["options"])
    except (TypeError, ValueError):
        return False
    numbers = (r["seconds"], r["score"])
    return (
        r["result"] in ("won", "lost")
        and all(isinstance(x, int | float) and math.isfinite(x) for x in numbers)
        and (r["daily"] is None or _is_date(r["daily"]))
    )


def _is_date(text: object) -> bool:
    try:
        datetime.date.fromisoformat(str(text))
    except ValueError:
        return False
    return True


def _session(text: str) -> dict[str, Any]:
    """A saved session (JSON text); ValueError unless it has the shape ``Session.to_json``
    gives what the store reads of it: moves and redo stack as lists of text, the clock as
    finite seconds. A save edited or damaged into other JSON is unreadable like one that
    is not JSON (set aside, never recorded as a result)."""
    session = json.loads(text)
    if not isinstance(session, dict):
        raise ValueError("the saved session is not a JSON object")
    for name in ("moves", "redo"):
        moves = session.get(name, [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ValueError(f"the saved {name} are not a list of text")
    elapsed = session.get("elapsed", 0.0)
    if not isinstance(elapsed, int | float) or isinstance(elapsed, bool):
        raise ValueError("the saved clock is not a number")
    if not math.isfinite(elapsed) or elapsed < 0:
        raise ValueError(f"the saved clock is {elapsed} seconds")
    return session


def _record(row: sqlite3.Row) -> GameRecord:
    """The record of ``row``; ValueError when its saved options or session are damaged."""
    # Deal numbers go up to 10**20, past SQLite's 64-bit integers: stored as text.
    return GameRecord(
        id=row["id"],
        game=row["game"],
        options=_options(row["options"]),
        deal=None if row["deal"] is None else int(row["deal"]),
        session=_session(row["session"]),
        created=row["created"],
        updated=row["updated"],
        started=bool(row["started"]),
        finished=bool(row["finished"]),
        score=row["score"],
        last_move=row["last_move"],
        notice=row["notice"],
        version=row["version"],
        assisted=bool(row["assisted"]),
        daily=row["daily"],
    )


def now() -> float:
    """Wall-clock seconds (the store's timestamps)."""
    return time.time()
