"""patience's FreeCell solver beside Freecell Solver (``fc-solve``), on the same deals.

    FC_SOLVE=/work/scratch/fcs/build/fc-solve python bench/freecell_peer.py -n 1000
    FC_SOLVE=... python bench/freecell_peer.py --alone -n 32000 --csv /tmp/fcs.csv.gz
    FC_SOLVE=... python bench/solver.py --peer -n 1000 --budget 10

Issue 58 asks for Microsoft's deals 1..32,000 all decided, 11982 proven lost, a mean of
at most 20 ms of CPU a deal, side by side with Freecell Solver built by hand on the same
deals (its own default preset), and no contradiction. This module is that side by side:
each deal is dealt by patience (``FreeCell.layout``: Microsoft's deal N), written out in
Freecell Solver's board text (``board``), and decided by both: patience in this process
through ``patience.solver.solve``, the entry ``patience solve`` calls, timed with
``time.process_time``; ``fc-solve`` in a child process of its own with no option (its
default preset), timed by the child's own CPU time (``os.wait4``). Which goes first
alternates from deal to deal, so that both meet the same load. Printed: per side the
deals, won, lost, undecided, decided share, mean, median and max CPU ms (and the slowest
deal), and every contradiction (one says won, the other lost); the exit status is 1 if
there is one.

The binary is ``$FC_SOLVE``, else ``fc-solve`` on the path; without one the bench says
so and exits with status 0 (nothing to compare with). ``fc-solve`` has no time limit of
its own in its default preset: ``--budget`` is given to it as a CPU limit
(``RLIMIT_CPU``; killed past it, the deal counts as undecided), ``--memory`` caps its
address space (``RLIMIT_AS``, 3 GiB unless told: its default preset keeps every state it
meets, and a hard deal grows by some 250 MiB a CPU second; a failed allocation counts as
undecided), and ``--max-iters N`` passes ``-mi N -sel`` (an iteration cap, reported as
"Iterations count exceeded.").

Building Freecell Solver by hand (done 2026-12-06 with libfreecell-solver 6.16.0, the
newest snapshot of github.com/shlomif/fc-solve, commit e0e5a0882; nothing of it is kept
in this repository). Its CMake build clones three repositories and downloads a CMake
module when they are missing; here they were put in place by hand first::

    # the sources: fc-solve/source of shlomif/fc-solve, its submodule xxHash-wrapper
    # (at the commit fc-solve pins, e51a2e49), shlomif/patsolve, shlomif/rinutils (tag
    # 0.6.0) and shlomif/shlomif-cmake-modules (one file)
    mkdir -p /work/scratch/fcs/src /work/scratch/fcs/build
    git -C fc-solve.git archive HEAD fc-solve/source | tar -x -C /work/scratch/fcs/src
    cd /work/scratch/fcs/src/fc-solve/source
    git -C xxHash-wrapper.git archive e51a2e490078e4d5ad15ed36c30e75d445118e91 \\
        | tar -x -C xxHash-wrapper
    mkdir patsolve rinutils
    git -C patsolve.git archive HEAD | tar -x -C patsolve
    git -C rinutils.git archive 0.6.0 | tar -x -C rinutils
    git -C shlomif-cmake-modules.git show \\
        HEAD:shlomif-cmake-modules/Shlomif_Common.cmake > cmake/Shlomif_Common.cmake
    # the tools its generators need (Debian 12); python3 must import pysol_cards
    apt-get install -y gperf libmoo-perl libpath-tiny-perl libtemplate-perl cmake gcc
    pip install pysol_cards            # (or a venv that has it first on PATH)
    cd /work/scratch/fcs/build
    cmake -DCMAKE_BUILD_TYPE=Release -DFCS_WITH_TEST_SUITE=OFF \\
        -DBUILD_STATIC_LIBRARY=OFF ../src/fc-solve/source     # -O3 -DNDEBUG
    make fc-solve pi-make-microsoft-freecell-board
    export FC_SOLVE=/work/scratch/fcs/build/fc-solve     # finds its .so by its RPATH

Every other CMake option at its default (hash tables for states and stacks, no RCS
states, all games, not FreeCell only). Check: ``board_gen/pi-make-microsoft-freecell-board
-t 24 | ./fc-solve`` says "This game is solveable.", and deal 11982 "I could not solve
this game.". The boards ``board`` writes were checked against
``pi-make-microsoft-freecell-board -t N`` and ``board_gen/make_pysol_freecell_board.py -t
N`` for deals 1, 2, 617, 11982 and 32000 (the same text); ``tests/test_freecell_peer.py``
holds deals 1 and 11982 to it.

``results/peers/freecell.fcs.csv.gz`` holds Freecell Solver's verdicts on Microsoft's
deals 1..32,000 (``deal,verdict,cpu_ms,states``: its default preset, these boards, the CPU
of the child), for checking patience's verdicts against later. It was made in two
passes on the shared 2-core machine (2026-12-06), every deal first with 2 s CPU and 256
MiB (``--alone --budget 2 --memory 256 --csv``): 31,653 won, 1 lost (11982), 346
undecided, a mean of 21.8 ms and a median of 3.2 ms; then the deals that left undecided
in 1..5,157 and 16,001..18,981 (94) again with 15 s CPU and 3 GiB (``Peer(binary, 15.0,
3072)``): 79 won, 15 undecided still. A row is that of the pass that decided it, else
the last pass's: 31,732 won, 1 lost, 267 undecided in all. It
lies in a folder of its own: ``results/*.csv.gz`` are the study's files, and
``tests/test_committed_results.py``, ``patience report --db results`` and
``bench/recheck.py`` read every one of them as such.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, NamedTuple

from patience.cards import RANK, RANKS, SUIT, SUITS
from patience.games import get_game
from patience.position import Position
from patience.solver import clock, solve

ENV = "FC_SOLVE"
"""The environment variable naming the ``fc-solve`` binary."""

FCS_SUITS = "HCDS"
"""The order of Freecell Solver's ``Foundations:`` line."""

SOLVED = "This game is solveable."
NOT_SOLVED = "I could not solve this game."
EXCEEDED = "Iterations count exceeded."

MEMORY_MIB = 3072
"""``fc-solve``'s address space by default: its default preset keeps every state it
meets, some 250 MiB a CPU second on a hard deal, so the CPU limit alone could take the
shared machine's memory."""

SLOW = 1.0
"""A deal taking either side more CPU seconds than this is printed as it is met."""


class Row(NamedTuple):
    """One side's answer on one deal: the verdict (won, lost, unknown), its CPU seconds
    and the states it counted (``fc-solve``: "Total number of states checked")."""

    deal: int
    verdict: str
    cpu: float
    states: int


def card_text(card: int) -> str:
    """A card as Freecell Solver writes it with ``-t``: rank (``T`` for ten) and suit."""
    return RANKS[RANK[card] - 1] + SUITS[SUIT[card]]


def board(p: Position) -> str:
    """``p`` as Freecell Solver's board text: a line per cascade, bottom card first. The
    ``Foundations:`` and ``Freecells:`` lines are written only when something is there (a
    fresh deal has neither)."""
    lines = []
    homes = {SUIT[pile[0]]: RANK[pile[-1]] for pile in p.foundations if pile}
    if homes:
        heights = (homes.get(SUITS.index(s), 0) for s in FCS_SUITS)
        tops = (f"{s}-{RANKS[h - 1] if h else 0}" for s, h in zip(FCS_SUITS, heights, strict=True))
        lines.append("Foundations: " + " ".join(tops))
    if any(p.reserve):
        lines.append("Freecells: " + " ".join(card_text(r[0]) if r else "-" for r in p.reserve))
    lines += [" ".join(card_text(c) for c in pile) for pile in p.tableau]
    return "\n".join(lines) + "\n"


def deal_position(deal: int) -> Position:
    """Microsoft's FreeCell deal ``deal`` as patience deals it."""
    return get_game("freecell", {}).new_position(deal)


def deal_board(deal: int) -> str:
    """Microsoft's FreeCell deal ``deal`` in Freecell Solver's board text."""
    return board(deal_position(deal))


def find_binary() -> str | None:
    """The ``fc-solve`` binary: ``$FC_SOLVE`` (which must be an executable file), else
    ``fc-solve`` on the path, else None."""
    named = os.environ.get(ENV)
    if named:
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            sys.exit(f"{ENV}={named}: not an executable file")
        return named
    return shutil.which("fc-solve")


def verdict_of(output: str) -> str:
    """won, lost or unknown, read from ``fc-solve``'s output."""
    if SOLVED in output:
        return "won"
    if NOT_SOLVED in output:
        return "lost"
    return "unknown"  # "Iterations count exceeded.", or killed before its verdict


def states_of(output: str) -> int:
    """The "Total number of states checked" of ``fc-solve``'s output (0 if not there)."""
    for line in output.splitlines():
        if line.startswith("Total number of states checked is "):
            return int(line.rsplit(" ", 1)[1].rstrip("."))
    return 0


class Peer(NamedTuple):
    """How ``fc-solve`` is run: the binary, its CPU limit (seconds, rounded up to whole
    ones: killed past it), its address-space limit (MiB: a search that needs more fails
    to allocate and counts as undecided) and its iteration cap (``-mi``), if any."""

    binary: str
    cpu: float | None = None
    memory_mib: int | None = MEMORY_MIB
    max_iters: int | None = None

    def limit(self) -> None:
        """In the child, before ``exec``: the limits."""
        if self.cpu is not None:
            soft = max(1, int(-(-self.cpu // 1)))
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
        if self.memory_mib is not None:
            size = self.memory_mib << 20
            resource.setrlimit(resource.RLIMIT_AS, (size, size))


def run_fcs(peer: Peer, text: str) -> tuple[str, float, int]:
    """``fc-solve`` on the board ``text`` with its default preset: (verdict, the child's
    CPU seconds, states)."""
    args = [peer.binary] + (["-mi", str(peer.max_iters), "-sel"] if peer.max_iters else [])
    proc = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        preexec_fn=peer.limit,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(text.encode())  # a board is far below a pipe's buffer
    proc.stdin.close()
    output = proc.stdout.read().decode(errors="replace")
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, for its rusage
    cpu = usage.ru_utime + usage.ru_stime
    verdict = verdict_of(output) if proc.returncode == 0 else "unknown"
    return verdict, cpu, states_of(output)


def fcs_row(peer: Peer, deal: int) -> Row:
    """Freecell Solver on Microsoft's deal ``deal``."""
    verdict, cpu, states = run_fcs(peer, deal_board(deal))
    return Row(deal, verdict, cpu, states)


def patience_row(deal: int, budget: float) -> Row:
    """patience's solver on Microsoft's deal ``deal``, in this process, as ``patience
    solve`` calls it (``budget`` CPU seconds, as bench/solver.py's)."""
    p = deal_position(deal)
    cpu = time.process_time()
    with clock.cpu_time():
        r = solve(p, timeout=budget)
    return Row(deal, str(r.result), time.process_time() - cpu, r.states)


HEADER = (
    f"{'FreeCell (MS deals)':28} {'deals':>6} {'won':>6} {'lost':>5} {'unk':>5} "
    f"{'decided':>8} {'mean ms':>8} {'med ms':>8} {'max ms':>9} {'slowest':>8} {'states':>11}"
)


def figures(title: str, rows: Sequence[Row]) -> str:
    """One line of the table: ``rows``' verdicts and CPU milliseconds."""
    count = {v: sum(r.verdict == v for r in rows) for v in ("won", "lost", "unknown")}
    ms = [1000 * r.cpu for r in rows]
    slowest = max(rows, key=lambda r: r.cpu)
    decided = 100 * (count["won"] + count["lost"]) / len(rows)
    return (
        f"{title:28} {len(rows):6} {count['won']:6} {count['lost']:5} {count['unknown']:5} "
        f"{decided:7.2f}% {statistics.fmean(ms):8.1f} {statistics.median(ms):8.1f} "
        f"{max(ms):9.1f} {slowest.deal:8} {sum(r.states for r in rows):11}"
    )


def contradictions(ours: Sequence[Row], theirs: Sequence[Row]) -> list[tuple[int, str, str]]:
    """The deals where one side says won and the other lost: (deal, ours, theirs)."""
    return [
        (a.deal, a.verdict, b.verdict)
        for a, b in zip(ours, theirs, strict=True)
        if "unknown" not in (a.verdict, b.verdict) and a.verdict != b.verdict
    ]


class Sink:
    """Freecell Solver's rows written as they come, ``deal,verdict,cpu_ms,states``, to a
    CSV file, gzip-compressed if its name ends in .gz (None: nowhere). A plain file is
    flushed row by row, so that a run stopped early leaves every row it made."""

    def __init__(self, path: Path | None) -> None:
        self.file: IO[str] | None = None
        self.flush = False
        if path is not None:
            gz = path.suffix == ".gz"
            self.flush = not gz
            self.file = gzip.open(path, "wt", newline="") if gz else path.open("w", newline="")
            self.write = csv.writer(self.file).writerow
            self.write(["deal", "verdict", "cpu_ms", "states"])

    def add(self, r: Row) -> None:
        if self.file is not None:
            self.write([r.deal, r.verdict, f"{1000 * r.cpu:.1f}", r.states])
            if self.flush:
                self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def undecided(title: str, rows: Sequence[Row]) -> str:
    """The undecided deals of one side, on one line."""
    left = [str(r.deal) for r in rows if r.verdict == "unknown"]
    return f"  undecided by {title}: {' '.join(left) or '-'}"


def run_deals(
    deals: range, budget: float, peer: Peer, alone: bool, sink: Sink, progress: int
) -> tuple[list[Row], list[Row]]:
    """patience's rows and Freecell Solver's on ``deals``, turn about (``alone``: no
    patience rows); a deal slower than ``SLOW`` on either side printed as it comes."""
    ours: list[Row] = []
    theirs: list[Row] = []
    started = time.monotonic()
    for k, d in enumerate(deals):
        if not alone and k % 2 == 0:
            ours.append(patience_row(d, budget))
        theirs.append(fcs_row(peer, d))
        sink.add(theirs[-1])
        if not alone and k % 2 == 1:
            ours.append(patience_row(d, budget))
        for title, rows in (("Freecell Solver", theirs), ("patience", ours)):
            if rows and rows[-1].deal == d and rows[-1].cpu > SLOW:
                r = rows[-1]
                print(f"  deal {d}: {r.verdict} by {title} in {r.cpu:.2f} s CPU", flush=True)
        if progress and (k + 1) % progress == 0:
            print(f"  ... deal {d}, {time.monotonic() - started:.0f} s wall", flush=True)
    return ours, theirs


def side_by_side(
    deals: range, budget: float, max_iters: int | None = None, alone: bool = False,
    csv_path: Path | None = None, progress: int = 0, memory_mib: int | None = MEMORY_MIB,
) -> int:  # fmt: skip
    """Both solvers on ``deals``, turn about, then their figures and contradictions
    (``alone``: Freecell Solver only). 0, or 1 if the two contradict each other; 0 with a
    message when there is no ``fc-solve`` to run."""
    binary = find_binary()
    if binary is None:
        print(f"freecell peer skipped: no fc-solve (set {ENV}=/path/to/fc-solve)", flush=True)
        return 0
    started = time.monotonic()
    sink = Sink(csv_path)
    try:
        peer = Peer(binary, budget, memory_mib, max_iters)
        ours, theirs = run_deals(deals, budget, peer, alone, sink, progress)
    finally:
        sink.close()
    print(HEADER)
    sides = [("Freecell Solver", theirs)] + ([] if alone else [("patience", ours)])
    for title, rows in sides:
        print(figures(title, rows))
    for title, rows in sides:
        print(undecided(title, rows))
    if alone:
        return 0
    both = contradictions(ours, theirs)
    for deal, a, b in both:
        print(f"  contradiction: deal {deal}: {a} by patience, {b} by Freecell Solver")
    print(f"  contradictions: {len(both)}; {time.monotonic() - started:.0f} s wall", flush=True)
    return 1 if both else 0


OURS = Path(__file__).resolve().parent.parent / "results" / "freecell.csv.gz"
"""patience's committed FreeCell rows: ``patience study freecell --deals 1-32000`` (60 CPU
s a deal), the rows ``patience report`` makes docs/winnability.md's FreeCell row from."""
THEIRS = OURS.parent / "peers" / "freecell.fcs.csv.gz"
"""Freecell Solver's committed rows (``--alone --csv``): deals 1..32,000 at 2 CPU s and
256 MiB a deal, the undecided of 1..5,157 and 16,001..18,981 again at 15 s and 3 GiB."""


def committed_rows() -> tuple[list[Row], list[Row]]:
    """patience's and Freecell Solver's committed rows (``OURS``, ``THEIRS``)."""
    with gzip.open(OURS, "rt", newline="") as f:
        ours = [
            Row(int(r["deal"]), r["result"], float(r["seconds"]), int(r["states"]))
            for r in csv.DictReader(f)
        ]
    with gzip.open(THEIRS, "rt", newline="") as f:
        theirs = [
            Row(int(r["deal"]), r["verdict"], float(r["cpu_ms"]) / 1000, int(r["states"]))
            for r in csv.DictReader(f)
        ]
    return ours, theirs


def committed() -> int:
    """The side by side of the committed rows, on the deals both hold: the figures, the
    undecided, every contradiction; 1 if the two contradict each other. Two runs on
    other budgets (patience's search alone at 60 s, Freecell Solver's whole process at
    2 s, then 15 s): the verdicts compare, the times only roughly."""
    ours, theirs = committed_rows()
    both_deals = {r.deal for r in ours} & {r.deal for r in theirs}
    ours = sorted((r for r in ours if r.deal in both_deals), key=lambda r: r.deal)
    theirs = sorted((r for r in theirs if r.deal in both_deals), key=lambda r: r.deal)
    print(f"committed rows, deals {ours[0].deal}..{ours[-1].deal} ({len(ours)} deals):")
    print(HEADER)
    sides = [("Freecell Solver (2 s, 15 s)", theirs), ("patience (study, 60 s)", ours)]
    for title, rows in sides:
        print(figures(title, rows))
    for title, rows in sides:
        print(undecided(title, rows))
    found = contradictions(ours, theirs)
    for deal, a, b in found:
        print(f"  contradiction: deal {deal}: {a} by patience, {b} by Freecell Solver")
    print(f"  contradictions: {len(found)}")
    return 1 if found else 0


def main() -> None:
    """Run the side by side from the command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=100, help="deals START..START+N-1")
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--budget", type=float, default=10.0, help="CPU seconds per deal and side")
    ap.add_argument("--max-iters", type=int, help="fc-solve's iteration cap (-mi), if any")
    ap.add_argument("--memory", type=int, default=MEMORY_MIB, help="fc-solve's MiB at most")
    ap.add_argument("--alone", action="store_true", help="Freecell Solver only")
    ap.add_argument("--csv", type=Path, help="Freecell Solver's rows to this file (.gz: gzip)")
    ap.add_argument("--progress", type=int, default=0, help="a line every this many deals")
    ap.add_argument(
        "--committed", action="store_true", help="the committed rows side by side, no solving"
    )
    args = ap.parse_args()
    if args.committed:
        sys.exit(committed())
    deals = range(args.start, args.start + args.n)
    print(f"budget {args.budget:g} s CPU per deal, deals {deals.start}..{deals.stop - 1}")
    sys.exit(
        side_by_side(
            deals, args.budget, args.max_iters, args.alone, args.csv, args.progress, args.memory
        )
    )


if __name__ == "__main__":
    main()
