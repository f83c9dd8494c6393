"""Solve a range of deals in parallel, resumably, and summarise the verdicts.

Results go to an SQLite file as each deal is decided, so a rerun skips what is already
there (an ``unknown`` is tried again when the new time budget is larger) and Ctrl-C
loses nothing already solved. Each worker process has its own bounded transposition
table (``table_size`` states), which bounds the memory of a run.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sqlite3
import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import PatienceError
from ..games import get_game
from .search import DEFAULT_TABLE_SIZE, solve

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


def parse_deals(text: str) -> list[int]:
    """Read deal ranges such as ``1-10000`` or ``1-10,25,40-42`` (in order, no repeats)."""
    deals: list[int] = []
    seen: set[int] = set()
    for part in text.replace(" ", "").split(","):
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise PatienceError(
                f"invalid deal range {part!r}: expected N or N-M, e.g. 1-10000"
            ) from None
        if lo < 0 or hi < lo:
            raise PatienceError(f"invalid deal range {part!r}: need 0 <= N <= M")
        for d in range(lo, hi + 1):
            if d not in seen:
                seen.add(d)
                deals.append(d)
    if not deals:
        raise PatienceError("no deals given")
    return deals


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank rule; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


@dataclass(frozen=True)
class Summary:
    """The verdicts of a range of deals."""

    deals: int
    won: int
    lost: int
    unknown: int
    win_low: float
    win_high: float
    median: float
    p90: float
    max: float

    @property
    def win_rate(self) -> float:
        """Won among the decided deals (0 when none is decided)."""
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0


def summarise(rows: Iterable[tuple[str, float]]) -> Summary:
    """Count (result, seconds) rows and time them."""
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    for result, seconds in rows:
        counts[result] = counts.get(result, 0) + 1
        times.append(seconds)
    low, high = wilson(counts["won"], counts["won"] + counts["lost"])
    return Summary(
        len(times),
        counts["won"],
        counts["lost"],
        counts["unknown"],
        low,
        high,
        statistics.median(times) if times else 0.0,
        percentile(times, 0.9),
        max(times, default=0.0),
    )


def options_text(options: Mapping[str, str]) -> str:
    """The options as stored: sorted ``k=v`` joined by commas."""
    return ",".join(f"{k}={v}" for k, v in sorted(options.items()))


def _init_worker() -> None:
    # Ctrl-C goes to the parent, which stops the pool; the workers must not die first
    # with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _solve_deal(
    args: tuple[str, dict[str, str], int, float, int],
) -> tuple[int, str, float, int, int]:
    name, options, deal, timeout, table_size = args
    p = get_game(name, options).new_position(deal)
    r = solve(p, timeout=timeout, table_size=table_size)
    return deal, r.result, r.seconds, r.states, len(r.moves)


class Store:
    """The SQLite file of verdicts."""

    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(SCHEMA)
        self.db.commit()

    def done(self, game: str, options: str, timeout: float) -> set[int]:
        """Deals already decided, or tried as long as ``timeout`` allows."""
        rows = self.db.execute(
            "SELECT deal FROM results WHERE game=? AND options=? "
            "AND (result != 'unknown' OR timeout >= ?)",
            (game, options, timeout),
        )
        return {d for (d,) in rows}

    def put(
        self, game: str, options: str, row: tuple[int, str, float, int, int], timeout: float
    ) -> None:
        """Record one verdict at once (so an interruption loses nothing)."""
        deal, result, seconds, states, moves = row
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game, options, deal, result, seconds, states, moves, timeout),
        )
        self.db.commit()

    def rows(self, game: str, options: str, deals: list[int]) -> list[tuple[str, float]]:
        """(result, seconds) of the given deals that are stored."""
        wanted = set(deals)
        cur = self.db.execute(
            "SELECT deal, result, seconds FROM results WHERE game=? AND options=?",
            (game, options),
        )
        return [(r, s) for d, r, s in cur if d in wanted]

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def run_study(
    name: str,
    options: Mapping[str, str],
    deals: list[int],
    *,
    jobs: int | None = None,
    timeout: float = 30.0,
    db: str | Path = "patience-study.db",
    table_size: int = DEFAULT_TABLE_SIZE,
    show_progress: bool = True,
) -> Summary:
    """Solve ``deals`` (skipping stored ones) on ``jobs`` processes; the summary of all."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    game = get_game(name, options)  # checks the name and options
    opts = options_text(dict(game.options))
    store = Store(db)
    try:
        skip = store.done(game.name, opts, timeout)
        todo = [d for d in deals if d not in skip]
        jobs = max(1, jobs or os.cpu_count() or 1)
        tasks = [(game.name, dict(game.options), d, timeout, table_size) for d in todo]
        won = decided = 0
        started = time.monotonic()
        progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:.1f} deals/s"),
            TextColumn("won {task.fields[win]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            disable=not show_progress,
        )
        with progress:
            task = progress.add_task(
                f"{game.title} {opts}".strip(), total=len(todo), rate=0.0, win="-"
            )
            if tasks:
                ctx = multiprocessing.get_context("fork")
                pool = ctx.Pool(min(jobs, len(tasks)), initializer=_init_worker)
                try:
                    for row in pool.imap_unordered(_solve_deal, tasks):
                        store.put(game.name, opts, row, timeout)
                        if row[1] != "unknown":
                            decided += 1
                            won += row[1] == "won"
                        done = progress.tasks[0].completed + 1
                        elapsed = max(1e-9, time.monotonic() - started)
                        win = f"{100 * won / decided:.1f}%" if decided else "-"
                        progress.update(task, advance=1, rate=done / elapsed, win=win)
                    pool.close()
                except BaseException:
                    pool.terminate()
                    raise
                finally:
                    pool.join()
        return summarise(store.rows(game.name, opts, deals))
    finally:
        store.close()


def summary_table(title: str, s: Summary) -> object:
    """A Rich table of a summary."""
    from rich.table import Table

    table = Table(title=title)
    for col in ("deals", "won", "lost", "unknown", "win % (95% CI)", "median s", "p90 s", "max s"):
        table.add_column(col, justify="right")
    decided = s.won + s.lost
    win = (
        f"{100 * s.win_rate:.1f} ({100 * s.win_low:.1f}-{100 * s.win_high:.1f})" if decided else "-"
    )
    table.add_row(
        str(s.deals),
        str(s.won),
        str(s.lost),
        str(s.unknown),
        win,
        f"{s.median:.3f}",
        f"{s.p90:.3f}",
        f"{s.max:.3f}",
    )
    return table
