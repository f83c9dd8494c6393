"""Benchmark the solver: deals 1..N of every game and mode with a per-deal time budget.

    python bench/solver.py -n 200 --budget 30 --jobs 2
    python bench/solver.py --only klondike:mode=three -n 50 --budget 5
    python bench/solver.py -n 40 --states 20000 --budget 600

Prints, per game and mode: won / lost / unknown counts, the decided share, median,
p90 and max CPU seconds per deal (the budget is CPU time, as a study's), how many deals
took more than 5 s and more than 30 s, the peak resident memory of a worker process,
and the states searched and CPU seconds spent over all deals. With ``--states`` each
deal stops at that many states instead of (well before) its time budget: the verdicts
and state counts then do not depend on the machine's speed or load, so two builds can
be compared state for state, and by CPU time for speed (``bench/compare.py`` does so,
before and after, in one run).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time

from patience.games import get_game, variants
from patience.proportion import percentile
from patience.solver import clock, solve

MODES = variants()
"""Every game and mode, from the registry."""


Task = tuple[str, dict[str, str], int, float, int, int | None]
Row = tuple[str, float, int, int, float]


def _one(args: Task) -> Row:
    """Solve one deal: (verdict, seconds, peak KiB, states, CPU seconds)."""
    name, options, deal, budget, table, states = args
    p = get_game(name, options).new_position(deal)
    cpu = time.process_time()
    with clock.cpu_time():  # the budget is CPU seconds, as a study's: load does not shrink it
        r = solve(p, timeout=budget, max_states=states, table_size=table)
    cpu = time.process_time() - cpu
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return str(r.result), r.seconds, peak_kib, r.states, cpu


def label(name: str, options: dict[str, str]) -> str:
    """``game:k=v,k=v``."""
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


def matches(mode: tuple[str, dict[str, str]], only: str) -> bool:
    """Whether ``mode`` is the game ``only`` names with (at least) the options it gives."""
    name, _, opts = only.partition(":")
    wanted = dict(kv.split("=", 1) for kv in opts.split(",") if "=" in kv)
    return mode[0] == name and all(mode[1].get(k) == v for k, v in wanted.items())


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=200, help="deals 1..N per game and mode")
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per deal")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--table-size", type=int, default=2_000_000, help="transposition table cap")
    ap.add_argument("--states", type=int, help="states per deal (a budget that ignores load)")
    ap.add_argument("--only", action="append", help="game[:k=v,...] to run (repeatable)")
    ap.add_argument("--undecided", action="store_true", help="list the undecided deals too")
    args = ap.parse_args()
    modes = MODES
    if args.only:
        modes = [m for m in MODES if any(matches(m, o) for o in args.only)]
        if not modes:
            ap.error(
                f"--only matches no game/mode; they are: {', '.join(label(*m) for m in MODES)}"
            )
    header = (
        f"{'game/mode':44} {'deals':>5} {'won':>5} {'lost':>5} {'unk':>5} {'decided':>8} "
        f"{'median':>8} {'p90':>8} {'max':>8} {'>5s':>5} {'>30s':>5} {'peak MiB':>8} "
        f"{'states':>10} {'cpu s':>8}"
    )
    cap = f", {args.states} states" if args.states else ""
    print(f"budget {args.budget:g} s{cap} per deal, deals {args.start}..{args.start + args.n - 1}")
    print(header)
    for name, options in modes:
        tasks = [
            (name, options, d, args.budget, args.table_size, args.states)
            for d in range(args.start, args.start + args.n)
        ]
        started = time.monotonic()
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.jobs, maxtasksperchild=50) as pool:
            rows = pool.map(_one, tasks, chunksize=1)
        counts = {"won": 0, "lost": 0, "unknown": 0}
        for result, *_ in rows:
            counts[result] += 1
        times = [row[1] for row in rows]
        peak = max(row[2] for row in rows) / 1024
        states = sum(row[3] for row in rows)
        cpu = sum(row[4] for row in rows)
        decided = 100 * (counts["won"] + counts["lost"]) / len(rows)
        print(
            f"{label(name, options):44} {len(rows):5} {counts['won']:5} {counts['lost']:5} "
            f"{counts['unknown']:5} {decided:7.1f}% {statistics.median(times):8.3f} "
            f"{percentile(times, 0.9):8.3f} {max(times):8.3f} "
            f"{sum(t > 5 for t in times):5} {sum(t > 30 for t in times):5} "
            f"{peak:8.0f} {states:10} {cpu:8.2f}"
            f"   ({time.monotonic() - started:.0f} s wall)",
            flush=True,
        )
        if args.undecided:
            undecided = [t[2] for t, row in zip(tasks, rows, strict=True) if row[0] == "unknown"]
            print(f"  undecided: {' '.join(map(str, undecided)) or '-'}", flush=True)


if __name__ == "__main__":
    main()
