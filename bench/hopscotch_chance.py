"""Is Hopscotch's chance honest? The advice's own chance against the advice's own wins.

    python bench/hopscotch_chance.py --deals 30001-32000 --out hop-chance.jsonl
    python bench/hopscotch_chance.py --out hop-chance.jsonl --table   # the tables only
    python bench/hopscotch_chance.py --cost                           # its cost at a start
    python bench/hopscotch_chance.py --out rows.jsonl --table --plot docs/hopscotch-chance.png

The game's advice (``fair.hopscotch.rollout``, what the hint says and the bot plays)
plays each deal in its rank-only model (the same moves as through the engine,
docs/fair-play.md), in C (``hopscotch_advice.advice_game``, move for move the Python
``rollout``'s, tests/test_hopscotch_advice.py), and where ``--stages`` cards are left in
the stock (``--alternate``: one of them a deal, in turn, so that every decision is a game
of its own) it records the
chance the page and the hint would show there, playout by playout: ``--playouts`` games
of the advice itself from that position over stock orders of the unseen cards
(``hopscotch_advice.advice_wins``, the function the API's chance runs, with its seed).
The deals are not the ones the advice was tuned on (5041..5120, 10001..10200). Each row
of ``--out`` is one deal: whether the advice won it, and at each stage the playouts'
results ("1" won, "0" lost, in the order the page plays them).

``--table`` prints, for each tenth of the predicted chance, the decisions in it, their
mean chance, the share of them in games won (95% Wilson; a game's decisions are alike,
so the intervals are a little narrower than the evidence) and the gap. Two tables:
binned by the chance shown (all the playouts: what the page says), and, since binning by
a noisy estimate sends the decisions it overrates to the high tenths and those it
underrates to the low ones (regression to the mean), binned by the first half of the
playouts with the chance predicted by the other half, independent of the binning: there
a true chance keeps the gap near 0 in every tenth. Resumable: deals already in ``--out``
are skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from patience.cards import RANK
from patience.fair.hopscotch import opening
from patience.fair.hopscotch_advice import (
    CHANCE_PLAYOUTS,
    advice_game,
    advice_until,
    advice_wins,
)
from patience.games import get_game
from patience.proportion import wilson

STAGES = (20, 10)
"""Cards left in the stock (the waste card turned) where the chance is recorded."""


def stock_of(deal: int) -> list[int]:
    """Hopscotch deal ``deal``'s stock as ranks, its top card last."""
    return [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]


def play(deal: int, playouts: int, stages: tuple[int, ...]) -> dict[str, Any]:
    """The advice's game of ``deal``, with each playout of the chance at ``stages`` (a
    stage the game does not reach, lost at a card only a cycle was left for, has none:
    ``reached`` lists the stages that have)."""
    stock = stock_of(deal)
    s, left = opening(stock)
    outcomes, reached = [], []
    t0 = time.process_time()
    rest: tuple[Any, ...] = (s, None, stock, left)  # the game from its start
    for stage in stages:
        at = advice_until(s, None, stock, left, stage)
        if at is None:
            continue
        state, r, unseen = at
        reached.append(stage)
        outcomes.append("".join(str(advice_wins(state, r, unseen, i, 1)) for i in range(playouts)))
        rest = (state, r, stock[:stage], unseen)  # the same game, from there on
    won, _ = advice_game(*rest)
    return {
        "deal": deal,
        "won": won,
        "stages": reached,
        "outcomes": outcomes,
        "cpu": round(time.process_time() - t0, 3),
    }


def _row(label: str, cell: list[tuple[float, bool, int]]) -> str:
    n = len(cell)
    won = sum(w for _, w, _ in cell)
    mean = sum(c for c, _, _ in cell) / n
    low, high = wilson(won, n)
    return (
        f"| {label} | {n} | {len({d for _, _, d in cell})} | {mean:.3f} |"
        f" {won / n:.3f} ({low:.3f}-{high:.3f}) | {100 * (won / n - mean):+.1f} |"
    )


def _share(bits: str) -> float:
    return bits.count("1") / len(bits)


def table(rows: list[dict[str, Any]], split: bool = False) -> str:
    """Per tenth of the predicted chance: decisions, mean predicted, observed wins. With
    ``split``: binned by the first half of each decision's playouts, predicted by the
    other half."""
    head = "binned by the first half, predicted by the second" if split else "predicted"
    lines = [
        f"| {head} | decisions | games | mean predicted | won (95%) | gap |",
        "|---|---:|---:|---:|---|---:|",
    ]
    cells: list[list[tuple[float, bool, int]]] = [[] for _ in range(10)]
    for r in rows:
        for bits in r["outcomes"]:
            half = len(bits) // 2
            by, said = (_share(bits[:half]), _share(bits[half:])) if split else (_share(bits),) * 2
            cells[min(int(by * 10 + 1e-9), 9)].append((said, r["won"], r["deal"]))
    off = []
    for tenth, cell in enumerate(cells):
        if cell:
            lines.append(_row(f"{tenth * 10}-{tenth * 10 + 10}%", cell))
            gap = sum(w for _, w, _ in cell) / len(cell) - sum(c for c, _, _ in cell) / len(cell)
            if abs(gap) > 0.03:
                off.append(f"{tenth * 10}-{tenth * 10 + 10}% ({100 * gap:+.1f})")
    every = [c for cell in cells for c in cell]
    if every:
        lines.append(_row("all", every))
    brier = sum((c - w) ** 2 for c, w, _ in every) / max(len(every), 1)
    won = sum(r["won"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    playouts = {len(b) for r in rows for b in r["outcomes"]}
    lines.append(
        f"\n{len(rows)} games ({won} won, {won / max(len(rows), 1):.1%}), {len(every)} decisions"
        f" (playouts a decision: {sorted(playouts)}), Brier {brier:.3f}, {cpu:.0f} CPU s"
    )
    lines.append(
        "within 3 points in every tenth: "
        + ("yes" if not off else f"no, {len(off)} tenths off: {', '.join(off)}")
    )
    return "\n".join(lines)


def _points(rows: list[dict[str, Any]], split: bool) -> list[tuple[float, float, float, float]]:
    """Per tenth: mean predicted, share won and its 95% interval."""
    cells: list[list[tuple[float, bool]]] = [[] for _ in range(10)]
    for r in rows:
        for bits in r["outcomes"]:
            half = len(bits) // 2
            by, said = (_share(bits[:half]), _share(bits[half:])) if split else (_share(bits),) * 2
            cells[min(int(by * 10 + 1e-9), 9)].append((said, r["won"]))
    out = []
    for cell in cells:
        if cell:
            won = sum(w for _, w in cell)
            low, high = wilson(won, len(cell))
            out.append((sum(c for c, _ in cell) / len(cell), won / len(cell), low, high))
    return out


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """The reliability plot: per tenth, the share won (95% interval) against the mean
    chance shown, and against the chance of independent playouts (matplotlib, the
    ``report`` extra)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 6))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", lw=1, label="perfect calibration")
    for split, mark, name in (
        (False, "o", "by the chance shown"),
        (True, "s", "by independent playouts"),
    ):
        pts = _points(rows, split)
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        err = [[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]]
        ax.errorbar(xs, ys, yerr=err, fmt=mark, capsize=3, label=name)
    n = len(rows)
    ax.set(
        xlabel="predicted chance (mean in each tenth)",
        ylabel="share of games won (95% interval)",
        title=f"Hopscotch: the advice's own chance, {n} games",
        xlim=(0, 1),
        ylim=(0, 1),
    )
    ax.legend(loc="upper left")
    fig.savefig(path, dpi=100)


def cost(deals: list[int]) -> str:
    """The hint's and the chance's cost at a deal's start (nothing turned yet, then the
    first card turned), through the functions the web app runs (``fair_assist``): CPU
    seconds of the process (both threads) and wall seconds."""
    import threading
    from functools import partial

    from patience import fair_assist
    from patience.fair import Knowledge
    from patience.fair.greedy import state_key
    from patience.moves import Move

    game = get_game("hopscotch")
    head = f"{'deal':>5} {'cards turned':>12} {'hint cpu':>8} {'wall':>6}"
    lines = [f"{head} {'chance cpu':>10} {'wall':>6}"]
    for d in deals:
        p = game.new_position(d)
        history = [p]
        for turned in (0, 1):
            if turned:
                p = game.play(p, Move.deal())
                history.append(p)
            k = Knowledge.of_history(history)
            keys = {state_key(q) for q in history}
            got = []
            for run in (
                partial(fair_assist.fair_hint, p, k, keys, 600.0, threading.Event()),
                partial(fair_assist.chance_of, p, k, 600.0, threading.Event(), history=keys),
            ):
                c0, w0 = time.process_time(), time.perf_counter()
                reply = run()
                got.append((time.process_time() - c0, time.perf_counter() - w0, reply))
            (hc, hw, _), (cc, cw, ch) = got
            lines.append(
                f"{d:>5} {turned:>12} {hc:>8.2f} {hw:>6.2f} {cc:>10.2f} {cw:>6.2f}"
                f"  {ch['chance']} of {ch['samples']}{' (cut)' if ch['cut'] else ''}"
            )
    return "\n".join(lines)


def _deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    """Play the deals (appending to ``--out``) within ``--cpu`` seconds, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="30001-32000")
    ap.add_argument("--playouts", type=int, default=CHANCE_PLAYOUTS)
    ap.add_argument("--stages", default=",".join(map(str, STAGES)), help="cards left, e.g. 20,10")
    ap.add_argument(
        "--alternate",
        action="store_true",
        help="one stage a deal, in turn (deal modulo the stages): independent decisions",
    )
    ap.add_argument("--cpu", type=float, default=1e9, help="stop after this many CPU s")
    ap.add_argument("--out", type=Path, action="append", default=[], help="rows (repeatable)")
    ap.add_argument("--table", action="store_true", help="only print the tables of --out")
    ap.add_argument("--cost", action="store_true", help="the chance's cost at deals' starts")
    ap.add_argument("--plot", type=Path, help="draw the reliability plot into this PNG")
    args = ap.parse_args()
    if args.cost:
        print(cost(_deals(args.deals)[:5]))
        return
    rows: dict[int, dict[str, Any]] = {}
    for out in args.out:
        if out.exists():
            for line in out.read_text().splitlines():
                r = json.loads(line)
                rows[r["deal"]] = r
    if not args.table:
        stages = tuple(int(x) for x in args.stages.split(","))
        start = time.process_time()
        for d in _deals(args.deals):
            if d in rows or time.process_time() - start > args.cpu:
                continue
            at = (stages[d % len(stages)],) if args.alternate else stages
            rows[d] = play(d, args.playouts, at)
            if args.out:
                with args.out[0].open("a") as f:
                    f.write(json.dumps(rows[d]) + "\n")
    ordered = sorted(rows.values(), key=lambda r: r["deal"])
    print(table(ordered))
    print()
    print(table(ordered, split=True))
    if args.plot:
        plot(ordered, args.plot)


if __name__ == "__main__":
    sys.exit(main())
