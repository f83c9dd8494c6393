"""Solve a range of deals in parallel, resumably, and summarise the verdicts.

Results go to an SQLite file as each deal is decided, so a rerun skips what is already
there (an ``unknown`` is tried again when the new time budget is larger) and Ctrl-C
loses nothing already solved. Each worker process has its own bounded transposition
table (``table_size`` states), which bounds the memory of a run.
"""

from __future__ import annotations

import bisect
import math
import multiprocessing
import os
import re
import signal
import sqlite3
import statistics
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..cards import parse_deal, shown
from ..errors import InvalidDealError, PatienceError
from ..games import get_game
from ..position import heading
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


MAX_STORED_DEAL = 2**63 - 1
"""The largest deal number the study database holds (SQLite's largest integer)."""

_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?")


@dataclass(frozen=True)
class DealRanges:
    """A set of deal numbers as sorted, disjoint ranges: a million deals take two ints,
    not a list of a million (``--deals 1-1000000``)."""

    ranges: tuple[range, ...]

    @property
    def count(self) -> int:
        """How many deals (``len`` would overflow past 2**63)."""
        return sum(r.stop - r.start for r in self.ranges)

    def __iter__(self) -> Iterator[int]:
        """The deals in increasing order, one at a time."""
        for r in self.ranges:
            yield from r

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int):
            return False
        i = bisect.bisect_right(self.ranges, deal, key=lambda r: r.start) - 1
        return i >= 0 and deal in self.ranges[i]


def parse_deals(text: str) -> DealRanges:
    """Read deal ranges such as ``1-10000`` or ``1-10,25,40-42`` (repeats count once)."""
    spans: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        m = _RANGE.fullmatch(part)
        if not m:
            raise PatienceError(
                f"invalid deal range {shown(part)}: expected N or N-M in digits 0-9, e.g. 1-10000"
            )
        try:
            lo = parse_deal(m[1])
            hi = lo if m[2] is None else parse_deal(m[2])
        except InvalidDealError as exc:
            raise PatienceError(f"invalid deal range {shown(part)}: {exc}") from None
        if hi < lo:
            raise PatienceError(f"invalid deal range {shown(part)}: need N <= M")
        if hi > MAX_STORED_DEAL:
            raise PatienceError(
                f"invalid deal range {shown(part)}: the study database holds deal numbers "
                f"up to {MAX_STORED_DEAL}"
            )
        spans.append((lo, hi + 1))
    merged: list[tuple[int, int]] = []
    for lo, stop in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], stop))
        else:
            merged.append((lo, stop))
    return DealRanges(tuple(range(lo, stop) for lo, stop in merged))


_COLUMNS = "game, options, deal, result, seconds, states, moves, timeout"


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
        try:
            self.db = sqlite3.connect(str(path))
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.execute(SCHEMA)
                self.db.commit()
                # An older or foreign table of the same name fails here, not mid-run.
                self.db.execute(f"SELECT {_COLUMNS} FROM results LIMIT 0")
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

    def rows(self, game: str, options: str, deals: DealRanges) -> list[tuple[str, float]]:
        """(result, seconds) of the given deals that are stored."""
        cur = self.db.execute(
            "SELECT deal, result, seconds FROM results WHERE game=? AND options=?",
            (game, options),
        )
        return [(r, s) for d, r, s in cur if d in deals]

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def run_study(
    name: str,
    options: Mapping[str, str],
    deals: DealRanges,
    *,
    jobs: int | None = None,
    timeout: float = 30.0,
    db: str | Path = "patience-study.db",
    table_size: int = DEFAULT_TABLE_SIZE,
    show_progress: bool = True,
) -> Summary:
    """Solve ``deals`` (skipping stored ones) on ``jobs`` processes; the summary of all.

    The deals are drawn one at a time as workers take them, so a range of a billion
    costs no more memory than a range of ten; the set of stored deals is loaded whole.
    """
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
        todo = deals.count - sum(d in deals for d in skip)
        jobs = max(1, jobs or os.cpu_count() or 1)
        tasks = (
            (game.name, dict(game.options), d, timeout, table_size) for d in deals if d not in skip
        )
        title = heading(game.title, game.options)
        if not todo:
            if show_progress:
                from rich.console import Console

                Console().print(
                    f"{title}: all {deals.count} deals already stored in {db}",
                    markup=False,
                    highlight=False,
                    soft_wrap=True,
                )
            return summarise(store.rows(game.name, opts, deals))
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
            task = progress.add_task(title, total=todo, rate=0.0, win="-")
            ctx = multiprocessing.get_context("fork")
            pool = ctx.Pool(min(jobs, todo), initializer=_init_worker)
            try:
                # imap draws from the generator as the pipe to the workers drains.
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
