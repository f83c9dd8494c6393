"""Hopscotch's fair advice by rollouts of the labels policy, measured in the rank-only
model of the game (as bench/hopscotch_labels.py measures the labels policy alone).

    python bench/hopscotch_rollout.py --deals 5041-5120 --out tune.jsonl   # tuning deals
    python bench/hopscotch_rollout.py --deals 1-2000 --out hop-rollout.jsonl  # measured
    python bench/fair.py --hopscotch      # the goal, paired with the labels policy alone

At each card that does not go home, every reserve it may go on (an empty one for them
all) is scored by ``--playouts`` playouts of the labels policy from the state after it,
over stock orders of the unseen ranks (the same orders for every reserve), and the most
won is taken, the labels policy's own choice on a tie (``fair.hopscotch_rollout.rollout``, the
game's advice itself: the same moves as through the engine, deals 1..6 checked). The
seed of a decision is the stock's size (``labels_move``'s seed 0 plus it). One JSON line
a deal (``bot``, ``deal``, ``won``, ``cpu`` seconds, ``decisions`` played out); a run
given the same ``--out`` skips the deals already there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from hopscotch_labels import _deals, stock_of  # noqa: E402
from patience.fair.hopscotch import PLAYOUT_SEARCH, PLAYOUTS, opening  # noqa: E402
from patience.fair.hopscotch_rollout import rollout  # noqa: E402


def play(
    stock: list[int], playouts: int, seed: int = 0, search: int = PLAYOUT_SEARCH
) -> tuple[bool, int]:
    """Play a deal (its stock's ranks, top last) as the game's advice does
    (``hopscotch_rollout.rollout``, seeded by ``seed`` plus the stock's size as ``labels_move``
    is): won or not, and the decisions played out."""
    s, left = opening(stock)
    cards = list(stock)
    decisions = 0
    while cards:
        r = cards.pop()
        left[r] -= 1
        s, _, won = rollout(s, r, left, playouts, seed + len(cards), search)
        decisions += won >= 0
    return sum(s.cnt) == 52, decisions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", default="5001-5100")
    ap.add_argument("--playouts", type=int, default=PLAYOUTS)
    ap.add_argument(
        "--search", type=int, default=PLAYOUT_SEARCH, help="tries of a playout's rescue"
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    done: set[int] = set()
    if args.out and args.out.exists():
        done = {json.loads(line)["deal"] for line in args.out.read_text().splitlines()}
    won = n = 0
    cpu = 0.0
    for d in _deals(args.deals):
        if d in done:
            continue
        t0 = time.process_time()
        w, dec = play(stock_of(d), args.playouts, 0, args.search)
        c = time.process_time() - t0
        won += w
        n += 1
        cpu += c
        if args.out:
            with args.out.open("a") as f:
                f.write(
                    json.dumps(
                        {
                            "bot": f"rollout-{args.playouts}-{args.search}",
                            "deal": d,
                            "won": w,
                            "cpu": round(c, 4),
                            "decisions": dec,
                        }
                    )
                    + "\n"
                )
    print(f"{won} of {n} won, {won / n:.1%}, {cpu / n:.2f} CPU s a deal")


if __name__ == "__main__":
    main()
