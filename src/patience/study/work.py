"""One deal solved, or played fairly: the units of work that a local process or a Dask
worker runs.

They take plain values and return plain values, so they travel to another process or
machine by name (``patience.study.work.solve_deal``, ``.play_fair``) and their rows
back as tuples. Both run on the thread's CPU time (``solver.clock``): a deal's time
budget, and the seconds stored, are CPU seconds, the same on a busy machine or a shared
cluster node as on a quiet one.
"""

from __future__ import annotations

from ..fair.advisor import Settings
from ..fair.bot import advisor_chooser, play_deal
from ..games import get_game
from ..solver import clock, solve

Task = tuple[str, dict[str, str], int, float, int | None]
"""(game, options, deal, timeout in seconds, table size or None for the solver's)."""

Row = tuple[int, str, float, int, int]
"""(deal, result, seconds, states, moves of the winning line)."""

VERDICTS = ("won", "lost", "unknown")


def solve_deal(task: Task) -> Row:
    """Solve one deal of a study: its row of the results table."""
    name, options, deal, timeout, table_size = task
    position = get_game(name, options).new_position(deal)
    with clock.cpu_time():
        if table_size is None:
            r = solve(position, timeout=timeout)
        else:
            r = solve(position, timeout=timeout, table_size=table_size)
    result = next(v for v in VERDICTS if r.result == v)
    return deal, result, r.seconds, r.states, len(r.moves)


FairTask = tuple[str, dict[str, str], int, bool, Settings]
"""(game, options, deal, stock known from the start, the bot's settings)."""

FairRow = tuple[int, str, float, int, int]
"""(deal, ``won`` or ``lost``, seconds, decisions made, moves played)."""


def play_fair(task: FairTask) -> FairRow:
    """Play one deal of a fair study knowing only what a player would: its row."""
    name, options, deal, stock_known, settings = task
    start = get_game(name, options).new_position(deal)
    with clock.cpu_time():
        t0 = clock.now()
        record = play_deal(start, advisor_chooser(settings), stock_known=stock_known, seed=deal)
        seconds = clock.now() - t0
    return deal, "won" if record.won else "lost", seconds, len(record.decisions), len(record.moves)
