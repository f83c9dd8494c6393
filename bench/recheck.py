"""The committed results solved again: a random sample of each file's decided deals.

    python bench/recheck.py --per-file 300 --jobs 2
    python bench/recheck.py --only klondike_mode=three --slow 30 --per-file 50

For each file of results/ (one game and options), ``--per-file`` deals drawn at random
from its decided ones (won or lost; with ``--slow S``, only those that took S seconds or
more) are solved again by the solver as it is now, with ``--timeout`` CPU seconds each,
and the table says how many got the same verdict, how many are undecided now (a deal
decided near its time limit, or by an earlier schedule, can be), and how many got the
other verdict. A contradiction is a bug, of the solver now or of the one that made the
row: the deals are listed, and the exit status is 1. Each deal's row is written as it
comes to ``--out`` (JSON lines), so a long run can be looked at before it ends.

tests/test_committed_results.py runs a few quick deals of each file on every test run;
this is the larger check, for a background run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import sys
from collections import Counter
from pathlib import Path

from patience.study.results import SUFFIX, read_csv
from patience.study.work import solve_deal

RESULTS = Path(__file__).resolve().parent.parent / "results"


def options_of(text: str) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in text.split(",")) if text else {}


def sample(path: Path, n: int, slow: float, seed: int) -> list[tuple[str, str, int, str]]:
    """``n`` decided rows of ``path`` at random (those of ``slow`` seconds or more)."""
    rows = [r for r in read_csv(path) if r[3] in ("won", "lost") and r[4] >= slow]
    rows = random.Random(f"{seed}:{path.name}").sample(rows, min(n, len(rows)))
    return [(game, options, deal, verdict) for game, options, deal, verdict, *_ in rows]


def work(job: tuple[str, str, int, str, float]) -> tuple[str, str, int, str, str, float, int]:
    game, options, deal, verdict, timeout = job
    _, again, seconds, states, _ = solve_deal((game, options_of(options), deal, timeout, None))
    return game, options, deal, verdict, again, seconds, states


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-file", type=int, default=100, help="deals sampled per file")
    ap.add_argument("--slow", type=float, default=0.0, help="only deals that took this long")
    ap.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per deal")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", action="append", help="a file's name without .csv.gz")
    ap.add_argument("--out", type=Path, help="JSON lines, one per deal, as they come")
    args = ap.parse_args()
    files = sorted(p for p in RESULTS.glob(f"*{SUFFIX}") if not p.name.endswith(".fair" + SUFFIX))
    if args.only:
        files = [p for p in files if p.name.removesuffix(SUFFIX) in args.only]
    jobs = [
        (*row, args.timeout)
        for p in files
        for row in sample(p, args.per_file, args.slow, args.seed)
    ]
    counts: dict[str, Counter[str]] = {}
    seconds: Counter[str] = Counter()
    wrong: list[str] = []
    pool = multiprocessing.get_context("fork").Pool(max(1, args.jobs))
    with pool, args.out.open("a") if args.out else contextlib.nullcontext() as out:
        for game, options, deal, verdict, again, secs, states in pool.imap_unordered(work, jobs):
            name = f"{game} {options}".strip()
            outcome = "same" if again == verdict else "undecided" if again == "unknown" else "other"
            counts.setdefault(name, Counter())[outcome] += 1
            seconds[name] += secs
            if outcome == "other":
                wrong.append(f"{name} deal {deal}: was {verdict}, now {again}")
            if out:
                row = dict(game=game, options=options, deal=deal, was=verdict, now=again,
                           seconds=round(secs, 3), states=states)  # fmt: skip
                out.write(json.dumps(row) + "\n")
                out.flush()
    print(f"{'file':<48} {'sampled':>7} {'same':>6} {'undecided':>9} {'other':>5} {'CPU s':>8}")
    for name, c in sorted(counts.items()):
        total = sum(c.values())
        print(
            f"{name:<48} {total:>7} {c['same']:>6} {c['undecided']:>9} {c['other']:>5} "
            f"{seconds[name]:>8.1f}"
        )
    for line in wrong:
        print("CONTRADICTED:", line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
