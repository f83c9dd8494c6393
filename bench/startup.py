"""``patience solve`` of an easy deal from the shell: the CPU a whole call costs (issue 56).

    python bench/startup.py                       # 20 calls of each game and mode
    python bench/startup.py -n 50 --only freecell --only klondike:mode=three
    python bench/startup.py --command "python -m patience"
    python bench/solver.py --startup              # the same, from the solver's bench

Runs ``patience solve GAME --deal N`` (the console script beside this Python, else
``python -m patience``) on one easy deal of each game and mode of the registry, each a
fresh process, N times each, the games taking turns so that all meet the same load.
Prints, per game and mode, the verdict and the mean, median, fastest and slowest CPU
time (user + system) of a call, read from ``getrusage(RUSAGE_CHILDREN)`` before and
after it: Python starting, the imports, Typer reading the command line, the solve, the
output and the exit. The first row is the interpreter alone (``python -c pass``), for
the load: a busy machine's shared caches make every figure a little larger. The last
line sets the slowest median against the goal, 0.15 s a call.

Each game's first call is not counted: it writes Python's bytecode caches, as the first
call after installing does. The calls run without PYTHONDONTWRITEBYTECODE, which would
make every call compile every module again (60 ms more), which an installed command
does not do. Exit status 1 if a call fails or gives no verdict.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

from patience.games import variants

GOAL = 0.15
"""CPU seconds a call of ``patience solve`` on an easy deal may take (issue 56)."""
RUNS = 20
"""Calls of each game and mode, by default."""
EASY = {
    "klondike:mode=single": 1,
    "klondike:mode=three": 3,
    "klondike:mode=no-redeal": 27,
    "klondike:mode=unlimited": 2,
    "lady-jane": 5,
    "bakers-dozen:kings=to-bottom,build=any-suit": 4,
    "bakers-dozen:kings=empty-piles,build=any-suit": 6,
    "bakers-dozen:kings=to-bottom,build=other-suit": 5,
    "hopscotch": 2,
    "freecell": 4,
}
"""An easy deal of each game and mode: solved in a few ms of the search (deal 1 for a
game or mode not listed)."""
HEADER = (
    f"{'game/mode':46} {'deal':>5} {'verdict':>8} {'mean ms':>8} {'median':>8} "
    f"{'min':>8} {'max':>8}"
)

Case = tuple[str, list[str], int]
"""A row: its label, the arguments after the command, and the deal (-1: none)."""


def label(name: str, options: dict[str, str]) -> str:
    """``game:k=v,k=v``, as bench/solver.py labels a game and mode."""
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


def cases(only: list[str] | None = None) -> list[Case]:
    """Each game and mode of the registry (those ``only`` names, if given, by label or
    game), with the arguments that solve its easy deal."""
    found = []
    for name, options in variants():
        title = label(name, options)
        if only and title not in only and name not in only:
            continue
        deal = EASY.get(title, 1)
        opts = [arg for k, v in options.items() for arg in ("-o", f"{k}={v}")]
        found.append((title, ["solve", name, *opts, "--deal", str(deal)], deal))
    return found


def default_command() -> list[str]:
    """The ``patience`` console script beside this Python, else ``python -m patience``."""
    script = Path(sys.executable).with_name("patience")
    return [str(script)] if script.exists() else [sys.executable, "-m", "patience"]


def call(argv: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    """Run ``argv`` once: (CPU seconds, user + system; exit status; first output line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    first = done.stdout.decode(errors="replace").partition("\n")[0]
    return cpu, done.returncode, first


def figures(title: str, deal: int, verdict: str, times: list[float]) -> str:
    """One row: the deal, its verdict and the CPU milliseconds of a call."""
    ms = [1000 * t for t in times]
    return (
        f"{title:46} {deal if deal >= 0 else '-':>5} {verdict:>8} {statistics.fmean(ms):8.1f} "
        f"{statistics.median(ms):8.1f} {min(ms):8.1f} {max(ms):8.1f}"
    )


def verdict_line(medians: dict[str, float]) -> str:
    """The slowest median against the goal."""
    title = max(medians, key=lambda t: medians[t])
    worst = medians[title]
    meets = "within" if worst <= GOAL else "OVER"
    return (
        f"slowest median {1000 * worst:.1f} ms a call ({title}): {meets} the goal of "
        f"{1000 * GOAL:.0f} ms"
    )


def report(
    runs: int = RUNS, only: list[str] | None = None, command: list[str] | None = None
) -> int:
    """Measure and print the table; 1 if a call failed, else 0."""
    command = command or default_command()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    rows = [("python -c pass", [sys.executable, "-c", "pass"], -1)]
    rows += [(title, [*command, *args], deal) for title, args, deal in cases(only)]
    verdicts: dict[str, str] = {}
    for title, argv, _ in rows:  # not counted: writes the bytecode caches
        _, status, first = call(argv, env)
        verdicts[title] = first or "-"
        if status != 0 or (argv[0] != sys.executable and first not in ("won", "lost")):
            print(f"{title}: `{shlex.join(argv)}` exited {status}, printing {first!r}")
            return 1
    print(f"`patience solve` from the shell, {shlex.join(command)}: CPU (user + system)")
    print(f"per call, {runs} calls of each in turn, each a fresh process")
    print(HEADER)
    times: dict[str, list[float]] = {title: [] for title, _, _ in rows}
    for _ in range(runs):
        for title, argv, _ in rows:
            cpu, status, _ = call(argv, env)
            if status != 0:
                print(f"{title}: `{shlex.join(argv)}` exited {status}")
                return 1
            times[title].append(cpu)
    for title, _, deal in rows:
        print(figures(title, deal, verdicts[title] if deal >= 0 else "", times[title]))
    print(verdict_line({t: statistics.median(times[t]) for t, _, d in rows if d >= 0}))
    return 0


def main() -> None:
    """Parse the arguments and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=RUNS, help="calls of each game and mode")
    ap.add_argument("--only", action="append", help="a game or game:k=v,... (repeatable)")
    ap.add_argument("--command", help="the command to run (default: the patience script)")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("-n must be 1 or more")
    if args.only and not cases(args.only):
        ap.error(f"--only matches no game/mode; they are: {', '.join(t for t, _, _ in cases())}")
    sys.exit(report(args.n, args.only, shlex.split(args.command) if args.command else None))


if __name__ == "__main__":
    main()
