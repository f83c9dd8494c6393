"""One deal solved: the unit of work that a local process or a Dask worker runs.

It takes plain values and returns plain values, so it travels to another process or
machine by name (``patience.study.work.solve_deal``) and its row back as a tuple.
"""

from __future__ import annotations

from ..games import get_game
from ..solver import solve

Task = tuple[str, dict[str, str], int, float, int | None]
"""(game, options, deal, timeout in seconds, table size or None for the solver's)."""

Row = tuple[int, str, float, int, int]
"""(deal, result, seconds, states, moves of the winning line)."""

VERDICTS = ("won", "lost", "unknown")


def solve_deal(task: Task) -> Row:
    """Solve one deal of a study: its row of the results table."""
    name, options, deal, timeout, table_size = task
    position = get_game(name, options).new_position(deal)
    if table_size is None:
        r = solve(position, timeout=timeout)
    else:
        r = solve(position, timeout=timeout, table_size=table_size)
    result = next(v for v in VERDICTS if r.result == v)
    return deal, result, r.seconds, r.states, len(r.moves)
