"""Benchmark a game's pass schedule against variants of it, on the same deals, side by side.

    python bench/schedule.py klondike -o mode=three --deals 237,1328 --vary looser=0.95
    python bench/schedule.py lady-jane --deals 1-50 --vary passes=0.5 --budget 30

Each deal is solved with the game's own schedule (docs/solver.md, "One schedule, one
budget") and with each ``--vary`` (fields of ``Schedule`` replaced, comma-separated:
``passes=0.2,looser=0.9``), in turn, each with the same budget of CPU seconds. Prints a
row per deal (verdict and CPU seconds under each schedule) and the totals: the deals
each decides, and its CPU seconds in all. A verdict is a proof under every schedule, so
only what is decided, and how fast, can differ.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields, replace
from typing import Any

from patience.games import get_game
from patience.rules.game import Game
from patience.solver import clock, search, solve
from patience.solver.base import Adapter
from patience.solver.schedule import Schedule
from patience.study.deals import parse_deals

_TYPES = {f.name: f.type for f in fields(Schedule)}


def variant(text: str) -> dict[str, Any]:
    """``passes=0.2,looser=0.9`` as the fields it replaces."""
    changes: dict[str, Any] = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key not in _TYPES:
            raise SystemExit(f"unknown schedule field {key!r} (fields: {', '.join(_TYPES)})")
        changes[key] = int(value) if "int" in str(_TYPES[key]) else float(value)
    return changes


@contextmanager
def schedule_with(changes: dict[str, Any]) -> Iterator[None]:
    """Every search runs its game's schedule with ``changes`` (none: as it is)."""
    original = search.adapter_for
    if changes:

        def adapter_for(game: Game) -> Adapter:
            adapter = original(game)
            adapter.schedule = replace(adapter.schedule, **changes)
            return adapter

        search.adapter_for = adapter_for
    try:
        yield
    finally:
        search.adapter_for = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[], help="key=value")
    parser.add_argument("--deals", required=True, help="N, N-M, or a comma list of them")
    parser.add_argument("--vary", action="append", default=[], help="field=value[,...]")
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds a deal")
    args = parser.parse_args()
    game = get_game(args.game, dict(o.split("=", 1) for o in args.option))
    settings = [("own", {})] + [(v, variant(v)) for v in args.vary]
    totals = {name: [0, 0.0] for name, _ in settings}
    print(f"{'deal':>6}  " + "  ".join(f"{name:>22}" for name, _ in settings), flush=True)
    for deal in parse_deals(args.deals):
        cells = []
        for name, changes in settings:
            cpu = time.process_time()
            with schedule_with(changes), clock.cpu_time():
                r = solve(game.new_position(deal), timeout=args.budget)
            cpu = time.process_time() - cpu
            totals[name][0] += r.result != "unknown"
            totals[name][1] += cpu
            cells.append(f"{r.result:>8} {cpu:7.1f} CPU s")
        print(f"{deal:>6}  " + "  ".join(f"{c:>22}" for c in cells), flush=True)
    for name, (decided, cpu) in totals.items():
        print(f"{name}: {decided} decided, {cpu:.0f} CPU s in all")


if __name__ == "__main__":
    main()
