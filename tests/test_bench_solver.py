"""bench/solver.py's rows (the goal figures: mean, median, max, undecided) and its
side-by-side run against another build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench_scripts import BENCH, load_bench

solver = load_bench("solver")

SRC = Path(__file__).resolve().parent.parent / "src"


def test_a_row_has_the_goal_figures() -> None:
    rows = [("won", 0.002, 1024, 500, 0.01), ("lost", 4.0, 2048, 9_000, 4.1)]
    rows += [("unknown", 31.0, 1024, 70_000, 31.2)]
    line = solver.figures("klondike:mode=three", rows)
    cells = line.split()
    assert cells[:6] == ["klondike:mode=three", "3", "1", "1", "1", "66.7%"]
    mean, median, _, top = (float(c) for c in cells[6:10])
    # the mean and median to a tenth of a millisecond: the median goal is 2 ms
    assert (mean, median, top) == (round(35.002 / 3, 4), 4.0, 31.0)
    assert cells[10:12] == ["1", "1"]  # over 5 s, over 30 s
    assert line.split()[-2:] == ["79500", "35.31"]


def test_against_a_build_prints_both_sides_on_the_same_deals() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "solver.py"), "--only", "klondike:mode=three", "-n", "2"]
        + ["--start", "50001", "--states", "3000", "--against", str(SRC), "--undecided"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    here, there = lines[2].split(), lines[3].split()
    assert here[0] == "klondike:mode=three" and str(SRC).startswith(there[0])
    # The same build on the same deals, stopped at a number of states: the same verdicts
    # and states on both sides.
    assert here[1:6] == there[1:6] and here[-2] == there[-2]
    assert lines[4].startswith("  mean ") and lines[5].startswith("  undecided here: ")
