"""A study: solve a range of deals (skipping stored ones) locally or on a cluster,
store each verdict as it comes, show a progress bar, and summarise.

Results go to an SQLite file as each deal is decided, by this process alone, so a
rerun skips what is already there (an ``unknown`` is tried again when the new time
budget is larger) and Ctrl-C, or a lost worker, loses nothing already solved. Each
worker has its own bounded transposition table (``table_size`` states), which bounds
the memory of a run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from ..games import get_game
from ..position import heading
from .db import Store, options_text
from .deals import DealRanges
from .stats import Summary, summarise
from .work import Row, Task

TaskT = TypeVar("TaskT", contravariant=True)
RowT = TypeVar("RowT", covariant=True)


class Runner(Protocol[TaskT, RowT]):
    """Where the deals are solved (or played): ``runner(tasks, count)`` yields one row a
    task, in any order; ``lost`` counts the tasks it gave up (their workers died)."""

    lost: int

    def __call__(self, tasks: Iterator[TaskT], count: int) -> Generator[RowT, None, None]: ...


def say(text: str, *, err: bool = False) -> None:
    from rich.console import Console

    Console(stderr=err).print(text, markup=False, highlight=False, soft_wrap=True)


def run_study(
    name: str,
    options: Mapping[str, str],
    deals: DealRanges,
    *,
    runner: Runner[Task, Row] | None = None,
    timeout: float = 30.0,
    db: str | Path = "patience-study.db",
    table_size: int | None = None,
    show_progress: bool = True,
) -> Summary:
    """Solve ``deals`` (skipping stored ones) with ``runner`` (by default a process on
    every core); the summary of all the stored ones.

    The deals are drawn one at a time as workers take them, so a range of a billion
    costs no more memory than a range of ten; the set of stored deals is loaded whole.
    """
    from .local import LocalRunner

    game = get_game(name, options)  # checks the name and options
    opts = options_text(dict(game.options))
    runner = runner or LocalRunner(os.cpu_count() or 1)
    store = Store(db)
    try:
        skip = store.done(game.name, opts, timeout)
        todo = deals.count - sum(d in deals for d in skip)
        title = heading(game.title, game.options)
        if not todo:
            if show_progress:
                say(f"{title}: all {deals.count} deals already stored in {db}")
            return summarise(store.rows(game.name, opts, deals))
        tasks = (
            (game.name, dict(game.options), d, timeout, table_size) for d in deals if d not in skip
        )
        with closing(runner(tasks, todo)) as rows:
            put = partial(store.put, game.name, opts, timeout=timeout)
            store_all(rows, put, title, todo, show_progress)
        say_lost(title, runner.lost)
        return summarise(store.rows(game.name, opts, deals))
    finally:
        store.close()


def say_lost(title: str, lost: int) -> None:
    """Say how many deals were not stored because their workers died."""
    if lost:
        say(
            f"{title}: {lost} deals not stored (worker after worker was lost "
            f"on them): rerun the study to try them again",
            err=True,
        )


def store_all(
    rows: Iterator[Row], put: Callable[[Row], None], title: str, todo: int, show: bool
) -> None:
    """Store each row as it comes, with a progress bar: done of todo, deals a second,
    the win rate so far, the time taken and left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    won = decided = done = 0
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
        disable=not show,
    )
    with progress:
        task = progress.add_task(title, total=todo, rate=0.0, win="-")
        for row in rows:
            put(row)
            done += 1
            if row[1] != "unknown":
                decided += 1
                won += row[1] == "won"
            elapsed = max(1e-9, time.monotonic() - started)
            win = f"{100 * won / decided:.1f}%" if decided else "-"
            progress.update(task, advance=1, rate=done / elapsed, win=win)


def summary_json(name: str, options: dict[str, str], s: Summary) -> dict[str, object]:
    """The summary as ``study --json`` prints it."""
    return {
        "game": name,
        "options": options,
        "deals": s.deals,
        "won": s.won,
        "lost": s.lost,
        "unknown": s.unknown,
        "win_rate": s.win_rate,
        "win_rate_95": [s.win_low, s.win_high],
        "seconds": {"median": s.median, "p90": s.p90, "max": s.max},
    }


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
