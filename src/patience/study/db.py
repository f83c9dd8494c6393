"""The SQLite file of a study's verdicts: one row a deal, written as each is decided.

The schema is the one studies have always written, so an existing file keeps working.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..errors import PatienceError
from .deals import DealRanges
from .work import Row

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
                self.db = sqlite3.connect(str(path))
            try:
                if not read_only:
                    self.db.execute("PRAGMA journal_mode=WAL")
                    self.db.execute("PRAGMA synchronous=NORMAL")
                    self.db.execute(SCHEMA)
                    self.db.commit()
                # An older or foreign table of the same name fails here, not mid-run.
                self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM results LIMIT 0")
            except sqlite3.Error:
                self.db.close()
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

    def close(self) -> None:
        """Close the file."""
        self.db.close()
