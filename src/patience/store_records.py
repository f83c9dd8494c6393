"""The rows of the store's tables as Python values, and the checks that read them back.

What ``store.Store`` writes (``game_row``) and reads (``read_game``), with the checks that
set a damaged save or result aside instead of failing on it, and the statistics' types.
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import sqlite3
from dataclasses import dataclass
from typing import Any

from .cards import shown

ONE_DAY = datetime.timedelta(days=1)

log = logging.getLogger("patience.store")


def options_key(options: dict[str, str]) -> str:
    """The canonical text of an options dict (sorted JSON), used as a grouping key."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def session_text(session: dict[str, Any]) -> str:
    """A session as the ``games`` table stores it (compact JSON; ``read_game`` reads it)."""
    return json.dumps(session, separators=(",", ":"))


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


def daily_streaks(rows: list[dict[str, Any]], today: datetime.date) -> dict[str, int]:
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


def game_row(r: GameRecord) -> tuple[Any, ...]:
    return (
        r.id,
        r.game,
        options_key(r.options),
        None if r.deal is None else str(r.deal),
        session_text(r.session),
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


def readable_game(row: sqlite3.Row) -> GameRecord | None:
    """The record of ``row``, or None when its saved text is damaged (``read_game``)."""
    try:
        return read_game(row)
    except ValueError:
        log.warning("saved game %s cannot be read: set aside", row["id"])
        return None


def read_options(text: str) -> dict[str, str]:
    """Saved options (JSON text); ValueError unless they map text to text."""
    options = json.loads(text)
    if not isinstance(options, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in options.items()
    ):
        raise ValueError(f"options {text[:40]!r} do not map text to text")
    return options


def result_readable(r: dict[str, Any]) -> bool:
    """Whether a results row holds what ``stats`` reads, as the store writes it."""
    try:
        read_options(r["options"])
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


def _version(value: object) -> int:
    """A saved game's version; ValueError unless a whole number (SQLite keeps the text or
    the real number a hand edit put in an INTEGER column, and would write 'x' + 1 as 1)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"the saved version is {shown(value)}")
    return value


def _time(value: object) -> float:
    """A saved time (seconds since the epoch); ValueError unless a finite number."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise ValueError(f"the saved time is {shown(value)}")
    return float(value)


def read_game(row: sqlite3.Row) -> GameRecord:
    """The record of ``row``; ValueError when its saved options, session, version or
    times are damaged."""
    # Deal numbers go up to 10**20, past SQLite's 64-bit integers: stored as text.
    return GameRecord(
        id=row["id"],
        game=row["game"],
        options=read_options(row["options"]),
        deal=None if row["deal"] is None else int(row["deal"]),
        session=_session(row["session"]),
        created=_time(row["created"]),
        updated=_time(row["updated"]),
        started=bool(row["started"]),
        finished=bool(row["finished"]),
        score=row["score"],
        last_move=row["last_move"],
        notice=row["notice"],
        version=_version(row["version"]),
        assisted=bool(row["assisted"]),
        daily=row["daily"],
    )
