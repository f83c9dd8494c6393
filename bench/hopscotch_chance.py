"""Is Hopscotch's chance honest? The labels policy's predicted chance against its wins.

    python bench/hopscotch_chance.py --deals 20001-20100 --out hop-chance.jsonl
    python bench/hopscotch_chance.py --out hop-chance.jsonl --table   # the table only

The labels bot (``patience.fair.hopscotch``, the game's fair advice) plays each deal in
its rank-only model (the same moves as through the engine, docs/fair-play.md), and every
``--every``-th card dealt it records the chance the page would show there: the share of
``--playouts`` playouts of the same policy won over the orders of the cards still unseen
(``playout``, the function the API's chance runs). The deals are not the ones the policy
was tuned on (10001..10200). Each row of ``--out`` is one deal: its decisions' chances and
whether the bot won. ``--table`` prints, for each tenth of the predicted chance, the
decisions in it, their mean chance and the share of them in games won, with its 95%
Wilson interval (the decisions of one game are alike: the intervals are narrower than
the evidence). Resumable: deals already in ``--out`` are skipped.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from patience.cards import RANK
from patience.fair.hopscotch import opening, place, playout
from patience.games import get_game
from patience.proportion import wilson


def play(deal: int, playouts: int, every: int) -> dict[str, Any]:
    """The bot's game of ``deal`` with the chance at every ``every``-th card dealt."""
    stock = [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]
    s, left = opening(stock)
    rng = random.Random(deal)
    chances = []
    t0 = time.process_time()
    while stock:
        r = stock.pop()
        left[r] -= 1
        if len(stock) % every == every - 1:
            won = 0
            for _ in range(playouts):
                order = list(stock)
                rng.shuffle(order)
                won += playout(s, r, order, left)
            chances.append(won / playouts)
        s, _ = place(s, r, left)
    return {
        "deal": deal,
        "won": sum(s.cnt) == 52,
        "chances": chances,
        "playouts": playouts,
        "cpu": round(time.process_time() - t0, 3),
    }


def table(rows: list[dict[str, Any]]) -> str:
    """Per tenth of the predicted chance: decisions, mean predicted, observed wins."""
    lines = [
        "| predicted | decisions | games | mean predicted | won (95%) | gap |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for tenth in range(10):
        cell = [
            (c, r["won"], r["deal"])
            for r in rows
            for c in r["chances"]
            if min(int(c * 10), 9) == tenth
        ]
        if not cell:
            continue
        n = len(cell)
        won = sum(w for _, w, _ in cell)
        mean = sum(c for c, _, _ in cell) / n
        low, high = wilson(won, n)
        lines.append(
            f"| {tenth * 10}-{tenth * 10 + 10}% | {n} | {len({d for _, _, d in cell})} |"
            f" {mean:.3f} | {won / n:.3f} ({low:.3f}-{high:.3f}) | {100 * (won / n - mean):+.1f} |"
        )
    decisions = [(c, r["won"]) for r in rows for c in r["chances"]]
    brier = sum((c - w) ** 2 for c, w in decisions) / max(len(decisions), 1)
    won = sum(r["won"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    lines.append(
        f"\n{len(rows)} games ({won} won), {len(decisions)} decisions, Brier {brier:.3f},"
        f" {cpu:.0f} CPU s"
    )
    return "\n".join(lines)


def _deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    """Play the deals (appending to ``--out``) within ``--cpu`` seconds, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="20001-20100")
    ap.add_argument("--playouts", type=int, default=30)
    ap.add_argument("--every", type=int, default=6, help="record the chance every N cards")
    ap.add_argument("--cpu", type=float, default=1200.0, help="stop after this many CPU s")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--table", action="store_true", help="only print the table of --out")
    args = ap.parse_args()
    rows: dict[int, dict[str, Any]] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            rows[r["deal"]] = r
    if not args.table:
        start = time.process_time()
        for d in _deals(args.deals):
            if d in rows:
                continue
            if time.process_time() - start > args.cpu:
                break
            rows[d] = play(d, args.playouts, args.every)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(rows[d]) + "\n")
    print(table(sorted(rows.values(), key=lambda r: r["deal"])))


if __name__ == "__main__":
    sys.exit(main())
