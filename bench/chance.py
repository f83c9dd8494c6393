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
``--again 0,5`` does the same for ``Settings.again`` (an undecided arrangement solved
again with that many times the states, while the 2 s last).

``--truth SECONDS`` asks whether the chance is honest: each position is also solved
knowing every card (its real arrangement, SECONDS of CPU time), and the positions are
grouped by the chance shown (0-20%, ..., 80-100%): per group, the mean chance shown
beside the share of its positions actually winnable (among those the solver decided),
with that share's 95% interval; then the same over all positions, and the Brier score
(mean squared difference between the chance shown and the real outcome, 0 to 1, less
is better; always saying 50% scores 0.25), and the same score were the arrangements
left undecided counted lost instead of left out. Positions with no chance shown (every
arrangement undecided) or an undecided real arrangement are counted apart.

``--hint`` measures the chance the Hint shows instead, the best plan's estimate
(``fair_assist.HINT``: 12 arrangements); with ``--truth`` it is set against whether the
position the plan leads to can really be won.

``--undecided SECONDS`` asks what the arrangements the chance leaves out really are:
of each position's arrangements (the page's draws, same seed) the first that a solve of
the page's states leaves undecided is solved again for SECONDS of CPU time, and the
verdicts are counted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Hashable
from dataclasses import replace
from pathlib import Path

from patience.fair.advisor import Estimate, advise, chance
from patience.fair.greedy import greedy_move, state_key
from patience.fair.knowledge import Knowledge
from patience.fair.sample import sample
from patience.fair_assist import CHANCE, HINT
from patience.games import game_for, get_game, variants
from patience.position import Position
from patience.proportion import wilson
from patience.solver import clock, solve

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


def measure(
    found: Found, share: float | None, again: int = CHANCE.again
) -> tuple[str, list[Estimate]]:
    """One line (the arrangements' verdicts, the mean chance, the CPU seconds) and each
    position's estimate."""
    estimates = []
    settings = replace(CHANCE, again=again)
    cpu = time.process_time()
    with schedule_with({} if share is None else {"passes": share}), clock.cpu_time():
        for deal, p, knowledge in found:
            estimates.append(chance(p, knowledge, settings, seed=deal))
    cpu = time.process_time() - cpu
    won, lost, unknown = (sum(getattr(e, k) for e in estimates) for k in ("won", "lost", "unknown"))
    mean = sum(e.share for e in estimates) / len(estimates) if estimates else 0.0
    setting = "own" if share is None else f"{share:g}"
    line = (
        f"  passes {setting:>5}, again {again:2d}: {won:6d} won {lost:6d} lost"
        f" {unknown:6d} undecided   mean chance {mean:.3f}   {cpu:6.0f} CPU s"
    )
    return line, estimates


def hints(found: Found) -> tuple[str, list[Estimate], Found]:
    """The page's Hint at each position (``fair_assist.HINT``): one line, the chance it
    shows (its plan's estimate) and the positions its plans lead to, whose chance it is."""
    estimates, after = [], []
    cpu = time.process_time()
    with clock.cpu_time():
        for deal, p, knowledge in found:
            advice = advise(p, knowledge, HINT, seed=deal)
            estimates.append(advice.estimate)
            for move in advice.plan:
                p = game_for(p).apply(p, move)
            after.append((deal, p, knowledge))
    cpu = time.process_time() - cpu
    mean = sum(e.share for e in estimates) / len(estimates) if estimates else 0.0
    return f"  hints: mean chance {mean:.3f}   {cpu:6.0f} CPU s", estimates, after


def truths(found: Found, seconds: float) -> list[str]:
    """Each position's verdict knowing every card (its real arrangement)."""
    with clock.cpu_time():
        return [str(solve(p, timeout=seconds).result) for _, p, _ in found]


def undecided(found: Found, seconds: float) -> str:
    """The verdicts, given ``seconds``, of the first arrangement of each position that
    the page's states leave undecided."""
    counts = dict.fromkeys(("won", "lost", "unknown"), 0)
    with clock.cpu_time():
        for deal, p, seen in found:
            knowledge = seen.observe(p)
            if knowledge.one_arrangement(p):
                continue
            rng = random.Random(deal)
            for _ in range(CHANCE.samples):
                s = sample(p, knowledge, rng)
                if solve(s, timeout=None, max_states=CHANCE.max_states).result == "unknown":
                    counts[str(solve(s, timeout=seconds).result)] += 1
                    break
    return (
        f"    undecided arrangements, the first of each position, given {seconds:g} CPU s:"
        f" {counts['won']} won, {counts['lost']} lost, {counts['unknown']} still undecided"
    )


def calibration(estimates: list[Estimate], verdicts: list[str]) -> list[str]:
    """The chance shown against the real outcome, by groups of the chance shown."""
    kept = [
        (e, v == "won")
        for e, v in zip(estimates, verdicts, strict=True)
        if e.won + e.lost and v != "unknown"
    ]
    pairs = [(e.share, w) for e, w in kept]
    apart = len(estimates) - len(pairs)
    lines = [f"    {'chance shown':>12} {'positions':>9} {'mean shown':>10} {'winnable':>18}"]
    groups = [(k / 5, (k + 1) / 5) for k in range(5)] + [(0.0, 1.0)]
    for lo, hi in groups:
        group = [(c, w) for c, w in pairs if lo <= c < hi or (hi == 1.0 and c == 1.0)]
        if not group:
            continue
        won = sum(w for _, w in group)
        low, high = wilson(won, len(group))
        name = "all" if (lo, hi) == (0.0, 1.0) else f"{lo:.0%}-{hi:.0%}"
        lines.append(
            f"    {name:>12} {len(group):9d} {sum(c for c, _ in group) / len(group):10.3f}"
            f" {won / len(group):6.3f} ({low:.3f}-{high:.3f})"
        )
    if pairs:
        brier = sum((c - w) ** 2 for c, w in pairs) / len(pairs)
        low = sum((e.won / (e.won + e.lost + e.unknown) - w) ** 2 for e, w in kept) / len(kept)
        lines.append(
            f"    Brier score {brier:.3f} ({low:.3f} with undecided arrangements counted lost);"
            f" {apart} positions apart (undecided)"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="deals 1..N of each mode")
    parser.add_argument("--only", action="append", default=[], help="game[:k=v,...]")
    parser.add_argument("--passes", default="", help="shares to compare, e.g. 0.03,0.15")
    parser.add_argument("--truth", type=float, help="CPU s to solve each real arrangement")
    parser.add_argument("--again", default="", help="Settings.again to compare, e.g. 0,5")
    parser.add_argument("--hint", action="store_true", help="the hint's chance instead")
    parser.add_argument("--undecided", type=float, help="CPU s to solve undecided ones again")
    args = parser.parse_args()
    shares: list[float | None] = [float(s) for s in args.passes.split(",") if s] or [None]
    agains = [int(a) for a in args.again.split(",") if a] or [CHANCE.again]
    for name, options in variants():
        if args.only and not any(matches((name, options), o) for o in args.only):
            continue
        found = positions(name, options, args.n)
        print(f"{label(name, options)}: {len(found)} positions of deals 1..{args.n}", flush=True)
        if args.hint:
            line, estimates, found = hints(found)
            print(line, flush=True)
            if args.truth:
                print("\n".join(calibration(estimates, truths(found, args.truth))), flush=True)
            continue
        verdicts = truths(found, args.truth) if args.truth else []
        for share, again in itertools.product(shares, agains):
            line, estimates = measure(found, share, again)
            print(line, flush=True)
            if verdicts:
                print("\n".join(calibration(estimates, verdicts)), flush=True)
        if args.undecided:
            print(undecided(found, args.undecided), flush=True)


if __name__ == "__main__":
    main()
