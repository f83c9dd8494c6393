"""Benchmark the solver: deals 1..N of every game and mode with a per-deal time budget.

    python bench/solver.py -n 200 --budget 30 --jobs 2
    python bench/solver.py --only klondike:mode=three -n 50 --budget 5
    python bench/solver.py -n 40 --states 20000 --budget 600
    python bench/solver.py --only klondike:mode=three --start 50001 -n 300 --against c4bff1d
    python bench/solver.py --game freecell --deals 1-32000 --budget 60 --jobs 2
    python bench/solver.py --startup    # `patience solve` from the shell: bench/startup.py

Prints, per game and mode: won / lost / unknown counts, the decided share, mean, median,
p90 and max CPU seconds per deal (the budget is CPU time, as a study's), how many deals
took more than 5 s and more than 30 s, the peak resident memory of a worker process,
and the states searched and CPU seconds spent over all deals. With ``--states`` each
deal stops at that many states instead of (well before) its time budget: the verdicts
and state counts then do not depend on the machine's speed or load, so two builds can
be compared state for state, and by CPU time for speed (``bench/compare.py`` does so,
before and after, in one run).

``--against REV`` (a git revision, or a folder holding a built tree's ``src``) prints
the same figures of that build beside this tree's, on the same deals: the revision's
sources are exported to a temporary folder and its native searches compiled there as
the build hook compiles them. Each side solves in a process of its own, one deal at a
time, the two sides taking turns (which goes first alternates from deal to deal), so
that both meet the same load; a deal both decide must get the same verdict (a
difference is printed and makes the exit status 1). The issue's goals read off these
rows: the mean, median and max CPU seconds and the undecided deals of each side.

``--peer`` solves Microsoft's FreeCell deals with patience and with Freecell Solver
(``$FC_SOLVE``, built by hand: ``bench/freecell_peer.py`` says how), turn about, and
prints both sides' figures and every deal where they contradict each other. ``--game
freecell`` prints its own run's figures, then both solvers' committed rows of deals
1..32,000 side by side (``freecell_peer.committed``: results/freecell.csv.gz and
results/peers/freecell.fcs.csv.gz), with every contradiction.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shlex
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

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


HEADER = (
    f"{'game/mode':44} {'deals':>5} {'won':>5} {'lost':>5} {'unk':>5} {'decided':>8} "
    f"{'mean':>8} {'median':>8} {'p90':>8} {'max':>8} {'>5s':>5} {'>30s':>5} {'peak MiB':>8} "
    f"{'states':>10} {'cpu s':>8}"
)


def figures(title: str, rows: list[Row]) -> str:
    """One line of the table: ``rows``' verdicts, times, memory, states and CPU."""
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for result, *_ in rows:
        counts[result] += 1
    times = [row[1] for row in rows]
    peak = max(row[2] for row in rows) / 1024
    decided = 100 * (counts["won"] + counts["lost"]) / len(rows)
    return (
        f"{title:44} {len(rows):5} {counts['won']:5} {counts['lost']:5} "
        f"{counts['unknown']:5} {decided:7.1f}% {statistics.fmean(times):8.4f} "
        f"{statistics.median(times):8.4f} {percentile(times, 0.9):8.3f} {max(times):8.3f} "
        f"{sum(t > 5 for t in times):5} {sum(t > 30 for t in times):5} "
        f"{peak:8.0f} {sum(row[3] for row in rows):10} {sum(row[4] for row in rows):8.2f}"
    )


def built_tree(against: str, into: Path) -> Path:
    """The ``src`` folder of the build to compare with: ``against`` itself if it is a
    folder (holding ``src/patience`` or ``patience``), else the git revision
    ``against`` exported into ``into`` with its native searches compiled as
    ``hatch_build.py`` compiles them (the same compiler and flags)."""
    folder = Path(against)
    if folder.is_dir():
        src = folder / "src" if (folder / "src" / "patience").is_dir() else folder
        if not (src / "patience").is_dir():
            sys.exit(f"--against {against}: no patience package there")
        return src
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", against, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    solver = into / "src" / "patience" / "solver"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    include = sysconfig.get_paths()["include"]
    for c in sorted(solver.glob("_*.c")):
        out = c.with_name(c.stem + sysconfig.get_config_var("EXT_SUFFIX"))
        cmd = [*shlex.split(cc), "-O2", "-shared", "-fPIC", f"-I{include}", str(c), "-o", str(out)]
        subprocess.run(cmd, check=True)
    return into / "src"


class Side:
    """A build solving deals one at a time in a process of its own (``--worker``), with
    ``src`` first on its path (None: this tree, as installed)."""

    def __init__(self, src: Path | None, cwd: Path) -> None:
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,  # outside the sources: ``patience`` comes from the side's path
        )

    def solve(self, task: Task) -> Row:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        row = json.loads(self.proc.stdout.readline())
        return (row[0], row[1], row[2], row[3], row[4])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def worker() -> None:
    """``--worker``: solve the tasks read from standard input, a JSON row each."""
    for line in sys.stdin:
        name, options, deal, budget, table, states = json.loads(line)
        print(json.dumps(_one((name, options, deal, budget, table, states))), flush=True)


def against(args: argparse.Namespace, modes: list[tuple[str, dict[str, str]]]) -> int:
    """This tree and the build ``args.against`` on the same deals, turn about; 1 if a
    deal decided by both got two verdicts."""
    differ = 0
    with tempfile.TemporaryDirectory(prefix="patience-bench-") as tmp:
        old_src = built_tree(args.against, Path(tmp))
        sides = [Side(None, Path(tmp)), Side(old_src, Path(tmp))]
        try:
            for name, options in modes:
                rows: list[list[Row]] = [[], []]
                started = time.monotonic()
                for k, d in enumerate(deal_range(args)):
                    task = (name, options, d, args.budget, args.table_size, args.states)
                    for i in (0, 1) if k % 2 == 0 else (1, 0):
                        rows[i].append(sides[i].solve(task))
                    new, old = rows[0][-1][0], rows[1][-1][0]
                    if "unknown" not in (new, old) and new != old:
                        print(f"  deal {d}: {new} here, {old} in {args.against}", flush=True)
                        differ = 1
                title = label(name, options)
                print(figures(title, rows[0]), flush=True)
                print(figures(f"  {args.against}"[:44], rows[1]), flush=True)
                mean = [statistics.fmean(r[1] for r in side) for side in rows]
                print(
                    f"  mean {mean[0]:.4f} s here, {mean[1]:.4f} s in {args.against} "
                    f"({mean[1] / max(mean[0], 1e-9):.2f}x); "
                    f"{time.monotonic() - started:.0f} s wall",
                    flush=True,
                )
                if args.undecided:
                    for side, who in zip(rows, ("here", args.against), strict=True):
                        numbers = deal_range(args)
                        undecided = [numbers[k] for k, r in enumerate(side) if r[0] == "unknown"]
                        print(f"  undecided {who}: {' '.join(map(str, undecided)) or '-'}")
                        slow = [
                            f"{numbers[k]} {r[0]} {r[1]:.1f}"
                            for k, r in enumerate(side)
                            if r[1] > 5
                        ]
                        print(f"  over 5 s {who}: {', '.join(slow) or '-'}")
        finally:
            for side in sides:
                side.close()
    return differ


def deal_range(args: argparse.Namespace) -> range:
    """The deals to run: ``-n`` of them from ``--start``, ``--step`` apart."""
    return range(args.start, args.start + args.n * args.step, args.step)


def freecell(deals: str, budget: float, jobs: int, table: int) -> None:
    """``--game freecell --deals A-B``: Microsoft's deals A..B, each solved as a study
    solves it (CPU time, the won line shortened and replayed through the rules). Prints
    the decided count, the deals proven lost, and the mean, median and slowest CPU
    seconds a deal: of the search to its verdict (``SolveResult.seconds``, what a study
    records) and of the whole ``solve`` with the line's check."""
    first, _, last = deals.partition("-")
    numbers = range(int(first), int(last or first) + 1)
    tasks = [("freecell", {}, d, budget, table, None) for d in numbers]
    started = time.monotonic()
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=500) as pool:
        rows = pool.map(_one, tasks, chunksize=20)
    verdicts = [row[0] for row in rows]
    lost = [d for d, v in zip(numbers, verdicts, strict=True) if v == "lost"]
    open_ = [d for d, v in zip(numbers, verdicts, strict=True) if v == "unknown"]
    print(
        f"freecell deals {numbers.start}-{numbers.stop - 1}: {len(rows)} deals, "
        f"{len(rows) - verdicts.count('unknown')} decided, {verdicts.count('won')} won, "
        f"lost: {' '.join(map(str, lost)) or '-'}, "
        f"undecided: {' '.join(map(str, open_)) or '-'}"
    )
    for what, k in (("search", 1), ("solve + check", 4)):
        times = [row[k] for row in rows]
        slow = max(range(len(rows)), key=lambda i: times[i])
        print(
            f"  CPU {what:14} mean {1000 * statistics.fmean(times):8.2f} ms, median "
            f"{1000 * statistics.median(times):8.2f} ms, slowest {times[slow]:.3f} s "
            f"(deal {numbers[slow]})"
        )
    print(f"  states {sum(row[3] for row in rows)}, {time.monotonic() - started:.0f} s wall")


def main() -> None:
    """Run the benchmark and print its table."""
    if sys.argv[1:2] == ["--worker"]:
        worker()
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=200, help="deals 1..N per game and mode")
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--step", type=int, default=1, help="every STEP-th deal from --start")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per deal")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--table-size", type=int, default=2_000_000, help="transposition table cap")
    ap.add_argument("--states", type=int, help="states per deal (a budget that ignores load)")
    ap.add_argument("--only", action="append", help="game[:k=v,...] to run (repeatable)")
    ap.add_argument("--undecided", action="store_true", help="list the undecided deals too")
    ap.add_argument(
        "--against", metavar="REV", help="also a git revision's build (or a built tree's folder)"
    )
    ap.add_argument("--game", choices=["freecell"], help="freecell: --deals A-B, its own figures")
    ap.add_argument("--deals", default="1-1000", help="with --game: deals A-B")
    ap.add_argument(
        "--peer", action="store_true", help="FreeCell beside Freecell Solver ($FC_SOLVE): "
        "bench/freecell_peer.py"
    )  # fmt: skip
    ap.add_argument("--startup", action="store_true", help="bench/startup.py's figures")
    args = ap.parse_args()
    if args.startup:
        import startup  # beside this script

        sys.exit(startup.report())
    if args.peer:
        import freecell_peer  # beside this script

        deals = range(args.start, args.start + args.n)
        print(f"budget {args.budget:g} s CPU per deal, deals {deals.start}..{deals.stop - 1}")
        sys.exit(freecell_peer.side_by_side(deals, args.budget, progress=100))
    if args.game == "freecell":
        import freecell_peer  # beside this script

        freecell(args.deals, args.budget, args.jobs, args.table_size)
        # Beside it, the committed rows of both solvers on deals 1..32,000.
        sys.exit(freecell_peer.committed())
    modes = MODES
    if args.only:
        modes = [m for m in MODES if any(matches(m, o) for o in args.only)]
        if not modes:
            ap.error(
                f"--only matches no game/mode; they are: {', '.join(label(*m) for m in MODES)}"
            )
    cap = f", {args.states} states" if args.states else ""
    every = f", every {args.step}th" if args.step > 1 else ""
    print(
        f"budget {args.budget:g} s{cap} per deal, deals {args.start}..{deal_range(args)[-1]}{every}"
    )
    print(HEADER)
    if args.against:
        sys.exit(against(args, modes))
    for name, options in modes:
        tasks = [
            (name, options, d, args.budget, args.table_size, args.states) for d in deal_range(args)
        ]
        started = time.monotonic()
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.jobs, maxtasksperchild=50) as pool:
            rows = pool.map(_one, tasks, chunksize=1)
        print(
            figures(label(name, options), rows) + f"   ({time.monotonic() - started:.0f} s wall)",
            flush=True,
        )
        if args.undecided:
            undecided = [t[2] for t, row in zip(tasks, rows, strict=True) if row[0] == "unknown"]
            print(f"  undecided: {' '.join(map(str, undecided)) or '-'}", flush=True)


if __name__ == "__main__":
    main()
