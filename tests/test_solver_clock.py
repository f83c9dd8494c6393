"""The solver's clock (``solver/clock.py``): the wall clock by default, the thread's CPU
time inside ``cpu_time()``, for the Python and the native searches alike; a study's
deals run on it, so its budgets do not shrink when the machine is busy."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from native_checks import long_search
from patience.solver import alternating, clock, hopscotch, solve
from patience.study import work


def test_cpu_time_is_the_calling_thread_own_and_ends_with_the_block() -> None:
    with clock.cpu_time():
        t0 = clock.now()
        time.sleep(0.2)
        assert clock.now() - t0 < 0.1  # asleep: no CPU spent
        seen: list[bool] = []
        other = threading.Thread(target=lambda: seen.append(clock.on_cpu_time()))
        other.start()
        other.join()
        assert seen == [False]  # another thread (a web server's hint) keeps the wall clock
    assert not clock.on_cpu_time()
    t0 = clock.now()
    time.sleep(0.2)
    assert clock.now() - t0 >= 0.19


@contextmanager
def crowded_core() -> Iterator[None]:
    """This thread pinned to one core, with a busy process of the same priority on it:
    the thread gets about half the core, so the wall clock runs twice as fast as its
    CPU time."""
    if not hasattr(os, "sched_setaffinity"):  # pragma: no cover - not Linux
        pytest.skip("needs sched_setaffinity")
    before = os.sched_getaffinity(0)
    core = min(before)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        os.sched_setaffinity(busy.pid, {core})
        os.sched_setaffinity(0, {core})
        yield
    finally:
        os.sched_setaffinity(0, before)
        busy.kill()
        busy.wait()


@pytest.mark.native
@pytest.mark.parametrize(
    ("game", "first", "module"),
    [("klondike", 1, alternating.native), ("hopscotch", 34, hopscotch.native)],
)
def test_a_native_search_on_cpu_time_works_its_whole_budget_on_a_shared_core(
    game: str, first: int, module: object
) -> None:
    if module is None:  # pragma: no cover - a machine with no C compiler
        pytest.skip("the native search was not built")
    p = long_search(game, first)
    with crowded_core(), clock.cpu_time():
        cpu, wall = time.thread_time(), time.monotonic()
        r = solve(p, timeout=0.5)
        cpu, wall = time.thread_time() - cpu, time.monotonic() - wall
    assert r.result == "unknown"
    assert cpu >= 0.45  # on the wall clock it would have stopped after about 0.25 s of work
    assert wall > 0.7, "the core was not shared: this test shows nothing"
    assert r.seconds == pytest.approx(cpu, abs=0.1)


def test_a_study_solves_and_plays_its_deals_on_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def solve_spy(*args: object, **kwargs: object) -> object:
        seen.append(clock.on_cpu_time())
        return real_solve(*args, **kwargs)

    real_solve = work.solve
    monkeypatch.setattr(work, "solve", solve_spy)
    deal, result, seconds, _, _ = work.solve_deal(("hopscotch", {}, 1, 5.0, None))
    assert (deal, result, seen) == (1, "won", [True])
    assert not clock.on_cpu_time()
    assert seconds < 5.0
