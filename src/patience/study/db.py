"""The SQLite file of a study's verdicts: one row a deal, written as each is decided.

The ``results`` table is the one studies have always written, so an existing file keeps
working. A fair study (``study --fair``) writes its own table, ``fair_results``, made
only when a fair study first runs on the file: the thoughtful rows are never touched.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import PatienceError
from ..store_errors import use_wal
from .deals import DealRanges
from .work import FairRow, Row

BUSY_SECONDS = 5.0
"""How long a study waits for another study writing the same file (sqlite3's default)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal INTEGER NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL,
    states INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    timeout REAL NOT NULL,
    PRIMARY KEY (game, options, deal)
)
"""

COLUMNS = ("game", "options", "deal", "result", "seconds", "states", "moves", "timeout")

StoredRow = tuple[str, str, int, str, float, int, int, float]
"""A row as stored: (game, options, deal, result, seconds, states, moves, timeout)."""

FAIR_SCHEMA = """
CREATE TABLE IF NOT EXISTS fair_results (
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    setting TEXT NOT NULL,
    settings TEXT NOT NULL,
    deal INTEGER NOT NULL,
    won INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    played INTEGER NOT NULL,
    PRIMARY KEY (game, options, setting, settings, deal)
)
"""

FAIR_COLUMNS = (
    "game", "options", "setting", "settings", "deal", "won", "seconds", "moves", "decisions",
    "played",
)  # fmt: skip
"""``setting``: ``real`` or ``paper`` (Klondike's stock known from the start);
``settings``: the bot's (``fair.settings_text``); ``played``: 0 when the deal was not
played because the thoughtful solver had proved it lost."""

FairStoredRow = tuple[str, str, str, str, int, int, float, int, int, int]
"""A fair row as stored: (game, options, setting, settings, deal, won, seconds, moves,
decisions, played)."""

FairKey = tuple[str, str, str, str]
"""(game, options, setting, settings): one bot on one game and options."""


def options_text(options: Mapping[str, str]) -> str:
    """The options as stored: sorted ``k=v`` joined by commas."""
    return ",".join(f"{k}={v}" for k, v in sorted(options.items()))


class Store:
    """The SQLite file of verdicts (``read_only`` for reports: nothing is created)."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        try:
            if read_only:
                self.db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
            else:
                self.db = sqlite3.connect(str(path), timeout=BUSY_SECONDS)
            try:
                # An older or foreign table of the same name fails here, not mid-run, and
                # before anything in the file changes (WAL mode, a new table).
                if read_only or self._has("results"):
                    self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM results LIMIT 0")
                if not read_only and self._has("fair_results"):
                    self._check_fair()
                if not read_only:
                    use_wal(self.db, BUSY_SECONDS)
                    self.db.execute("PRAGMA synchronous=NORMAL")
                    self.db.execute(SCHEMA)
                    self.db.commit()
            except (sqlite3.Error, PatienceError):
                self.db.close()
                raise
        except PatienceError:
            raise
        except (sqlite3.Error, ValueError) as exc:
            raise PatienceError(f"cannot use {path} as the study database: {exc}") from None

    def done(self, game: str, options: str, timeout: float) -> set[int]:
        """Deals already decided, or tried as long as ``timeout`` allows."""
        rows = self.db.execute(
            "SELECT deal FROM results WHERE game=? AND options=? "
            "AND (result != 'unknown' OR timeout >= ?)",
            (game, options, timeout),
        )
        return {d for (d,) in rows}

    def put(self, game: str, options: str, row: Row, timeout: float) -> None:
        """Record one verdict at once (so an interruption loses nothing)."""
        deal, result, seconds, states, moves = row
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game, options, deal, result, seconds, states, moves, timeout),
        )
        self.db.commit()

    def rows(self, game: str, options: str, deals: DealRanges) -> list[tuple[str, float]]:
        """(result, seconds) of the given deals that are stored."""
        cur = self.db.execute(
            "SELECT deal, result, seconds FROM results WHERE game=? AND options=?",
            (game, options),
        )
        return [(r, s) for d, r, s in cur if d in deals]

    def everything(self) -> Iterator[StoredRow]:
        """Every stored row, by game, options and deal."""
        try:
            yield from self.db.execute(
                f"SELECT {', '.join(COLUMNS)} FROM results ORDER BY game, options, deal"
            )
        except sqlite3.Error as exc:
            raise PatienceError(f"cannot read the study database: {exc}") from None

    def proved_lost(self, game: str, options: str) -> set[int]:
        """Deals the thoughtful solver has proved lost: lost for every player."""
        rows = self.db.execute(
            "SELECT deal FROM results WHERE game=? AND options=? AND result='lost'",
            (game, options),
        )
        return {d for (d,) in rows}

    def _has(self, table: str) -> bool:
        return bool(
            self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
            ).fetchone()
        )

    def _check_fair(self) -> None:
        try:
            self.db.execute(f"SELECT {', '.join(FAIR_COLUMNS)} FROM fair_results LIMIT 0")
        except sqlite3.Error as exc:
            raise PatienceError(f"cannot use the fair table of the study database: {exc}") from None

    def make_fair(self) -> None:
        """Make the fair table if the file has none (one of another shape was refused
        when the file was opened)."""
        try:
            self.db.execute(FAIR_SCHEMA)
            self.db.commit()
        except sqlite3.Error as exc:
            raise PatienceError(f"cannot use the fair table of the study database: {exc}") from None

    def fair_done(self, key: FairKey) -> set[int]:
        """Deals this bot has already played (or taken as proved lost)."""
        rows = self.db.execute(
            "SELECT deal FROM fair_results WHERE game=? AND options=? AND setting=? AND settings=?",
            key,
        )
        return {d for (d,) in rows}

    def put_fair(self, key: FairKey, rows: Iterable[FairRow], *, played: bool) -> None:
        """Record fair verdicts at once (so an interruption loses nothing)."""
        self.db.executemany(
            "INSERT OR REPLACE INTO fair_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (*key, deal, result == "won", seconds, moves, decisions, played)
                for deal, result, seconds, decisions, moves in rows
            ),
        )
        self.db.commit()

    def fair_rows(self, key: FairKey, deals: DealRanges) -> list[tuple[str, float]]:
        """(won or lost, seconds) of the given deals this bot has played."""
        cur = self.db.execute(
            "SELECT deal, won, seconds FROM fair_results WHERE game=? AND options=? "
            "AND setting=? AND settings=?",
            key,
        )
        return [("won" if w else "lost", s) for d, w, s in cur if d in deals]

    def fair_everything(self) -> Iterator[FairStoredRow]:
        """Every stored fair row (none when the file has no fair table)."""
        try:
            (tables,) = self.db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='fair_results'"
            ).fetchone()
            if tables:
                yield from self.db.execute(
                    f"SELECT {', '.join(FAIR_COLUMNS)} FROM fair_results "
                    "ORDER BY game, options, setting, settings, deal"
                )
        except sqlite3.Error as exc:
            raise PatienceError(f"cannot read the study database: {exc}") from None

    def close(self) -> None:
        """Close the file."""
        self.db.close()
