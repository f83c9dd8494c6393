"""Benchmark the fair chance at the browser's settings, under one pass schedule or several.

    python bench/chance.py --only klondike:mode=no-redeal -n 60
    python bench/chance.py --only lady-jane -n 40 --passes 0.1,0.5

For each game and mode, deals 1..N are played by the greedy player (the baseline of
bench/fair.py) for up to 60 moves, and every 10th position gets the chance the page
shows ("Chance to win": ``fair_assist.CHANCE``, 30 arrangements of the unseen cards,
20,000 states each, 2 s). Its budget is read on CPU time, so a busy machine gives the
same work. Prints the arrangements found won, lost and undecided over all positions,
the mean chance, and the CPU seconds. ``--passes`` runs the same positions once per
share given, the search's discrepancy passes ending at that share of each solve's time
instead of the game's own (docs/solver.md, "One schedule, one budget"), side by side:
an arrangement left undecided is left out of the chance, so fewer of them is better.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Hashable
from pathlib import Path

from patience.fair.advisor import chance
from patience.fair.greedy import greedy_move, state_key
from patience.fair.knowledge import Knowledge
from patience.fair_assist import CHANCE
from patience.games import get_game, variants
from patience.position import Position
from patience.solver import clock

sys.path.insert(0, str(Path(__file__).parent))
from schedule import schedule_with  # noqa: E402
from solver import label, matches  # noqa: E402

MOVES, EVERY = 60, 10
"""Greedy moves played per deal, and every how many a chance is asked."""


Found = list[tuple[int, Position, Knowledge]]


def positions(name: str, options: dict[str, str], deals: int) -> Found:
    """(deal, position, what the player has seen) along the greedy player's games of
    deals 1..``deals``."""
    game = get_game(name, options)
    found = []
    for deal in range(1, deals + 1):
        p = game.new_position(deal)
        knowledge = Knowledge.start(p)
        seen: set[Hashable] = set()
        for k in range(MOVES):
            if k % EVERY == 0:
                found.append((deal, p, knowledge))
            move = greedy_move(p, seen)
            if move is None:
                break
            seen.add(state_key(p))
            p = game.apply(p, move)
            knowledge = knowledge.observe(p)
    return found


def measure(found: Found, share: float | None) -> str:
    """One line: the arrangements' verdicts, the mean chance and the CPU seconds."""
    won = lost = unknown = 0
    chances = []
    cpu = time.process_time()
    with schedule_with({} if share is None else {"passes": share}), clock.cpu_time():
        for deal, p, knowledge in found:
            e = chance(p, knowledge, CHANCE, seed=deal)
            won, lost, unknown = won + e.won, lost + e.lost, unknown + e.unknown
            chances.append(e.share)
    cpu = time.process_time() - cpu
    mean = sum(chances) / len(chances) if chances else 0.0
    setting = "own" if share is None else f"{share:g}"
    return (
        f"  passes {setting:>5}: {won:6d} won {lost:6d} lost {unknown:6d} undecided"
        f"   mean chance {mean:.3f}   {cpu:6.0f} CPU s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="deals 1..N of each mode")
    parser.add_argument("--only", action="append", default=[], help="game[:k=v,...]")
    parser.add_argument("--passes", default="", help="shares to compare, e.g. 0.03,0.15")
    args = parser.parse_args()
    shares: list[float | None] = [float(s) for s in args.passes.split(",") if s] or [None]
    for name, options in variants():
        if args.only and not any(matches((name, options), o) for o in args.only):
            continue
        found = positions(name, options, args.n)
        print(f"{label(name, options)}: {len(found)} positions of deals 1..{args.n}", flush=True)
        for share in shares:
            print(measure(found, share), flush=True)


if __name__ == "__main__":
    main()
