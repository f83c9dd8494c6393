"""bench/solver.py's FreeCell mode (``--game freecell --deals A-B``): the decided count,
the deals proven lost and the CPU figures of the issue's goals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench_scripts import BENCH
from patience.solver import freecell

pytestmark = pytest.mark.native


@pytest.mark.skipif(freecell.native is None, reason="the native FreeCell solver was not built")
def test_the_freecell_mode_prints_the_goal_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "solver.py"), "--game", "freecell", "--deals", "1-3"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("freecell deals 1-3: 3 deals, 3 decided, 3 won, lost: -")
    assert lines[1].split()[:3] == ["CPU", "search", "mean"]
    assert lines[2].split()[:4] == ["CPU", "solve", "+", "check"]
    assert "slowest" in lines[1] and "median" in lines[2]
