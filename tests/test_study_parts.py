"""The pieces of a study: deal ranges, counts and intervals, the one-deal task, and the
solver left pure (no files, processes or terminal)."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import patience.solver
from patience.proportion import percentile, wilson
from patience.study.deals import parse_deals, ranges_of
from patience.study.stats import summarise
from patience.study.work import solve_deal


def test_study_helpers() -> None:
    assert list(parse_deals("1-3,5,2")) == [1, 2, 3, 5]
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(0, 0) == (0.0, 1.0)
    # Every count, the interval holds the rate: at 60 of 60 rounding once left its top
    # at 0.9999999999999999 and the report's plot refused a negative error bar.
    for n in range(1, 400):
        for k in range(n + 1):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0, (k, n)
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], 0.9) == 9.0
    s = summarise([("won", 1.0), ("lost", 3.0), ("unknown", 2.0)])
    assert (s.won, s.lost, s.unknown, s.median, s.max) == (1, 1, 1, 2.0, 3.0)


def test_deal_ranges_read_back_as_written() -> None:
    assert str(ranges_of([5, 1, 2, 3, 10])) == "1-3, 5, 10"
    assert str(ranges_of([])) == ""
    for text in ("1-10000", "1-3, 5, 10", "0, 7-8"):
        assert str(parse_deals(text)) == text
        assert parse_deals(str(parse_deals(text))) == parse_deals(text)


def test_one_deal_is_one_plain_row() -> None:
    deal, result, seconds, states, moves = solve_deal(("hopscotch", {}, 3, 10.0, None))
    assert deal == 3 and type(result) is str and result in ("won", "lost")
    assert seconds >= 0 and states >= 0 and (moves > 0) == (result == "won")
    assert solve_deal(("hopscotch", {}, 3, 10.0, 5000))[1] == result


OUTSIDE_THE_ENGINE = {
    "sqlite3", "multiprocessing", "concurrent", "subprocess", "rich", "typer", "distributed",
    "dask", "matplotlib", "patience.study", "patience.cli", "patience.web", "patience.store",
}  # fmt: skip


def test_the_solver_is_pure() -> None:
    # Issue 15: the study's database, processes and progress bars live in
    # patience.study; the solver imports none of them.
    root = Path(patience.solver.__file__).parent
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
                names = [f"patience.{node.module}"]
            else:
                continue
            for name in names:
                top = {name.split(".")[0], ".".join(name.split(".")[:2])}
                assert not top & OUTSIDE_THE_ENGINE, f"{path.name} imports {name}"


KILLED_STUDY = """
import os, sys, time
from patience.study.local import LocalRunner

def slow(seconds):
    print("working", os.getpid(), flush=True)
    time.sleep(seconds)
    return seconds

for row in LocalRunner(1, slow)(iter([SECONDS]), 1):
    print("done", row, flush=True)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_study_killed_with_sigkill_takes_its_workers_with_it_silently() -> None:
    # kill -9 of a study left each worker solving its deal to the end (up to --timeout),
    # then printing a BrokenPipeError traceback as it sent the row to no one.
    seconds = 8.0
    study = subprocess.Popen(
        [sys.executable, "-c", KILLED_STUDY.replace("SECONDS", repr(seconds))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert study.stdout is not None
    line = study.stdout.readline()  # the worker has its deal
    assert line.startswith("working"), line
    os.kill(study.pid, signal.SIGKILL)
    killed = time.monotonic()
    # Standard output and error close when the last process holding them ends: the worker.
    out, err = study.communicate(timeout=3 * seconds)
    ended = time.monotonic() - killed
    assert ended < seconds / 2, f"the worker ran on for {ended:.1f} s"
    assert "done" not in out and err == "", err
