"""Checks every native search must pass: a signal handler interrupts it, and it lets
go of the interpreter while it works; and a search long enough to watch doing so."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from functools import cache

import pytest

from patience import Position, new_game
from patience.solver import solve

LONG = 2.0
"""Seconds a search of ``long_search``'s position is known to outlast: twice what the
checks that watch it need."""


@cache
def long_search(game: str, first: int, options: tuple[tuple[str, str], ...] = ()) -> Position:
    """The first deal of ``game`` from ``first`` on that the solver leaves undecided in
    ``LONG`` seconds: a search that provably outlasts the checks watching it, whatever
    the solver's strength (a stronger solver only moves the deal found). Skips the test
    when 300 deals in a row are all decided so fast."""
    for deal in range(first, first + 300):
        p = new_game(game, deal, dict(options))
        if solve(p, timeout=LONG).result == "unknown":
            return p
    pytest.skip(f"no deal of {game} from {first} outlasts {LONG} s: nothing long to watch")


def assert_a_signal_interrupts(search: Callable[[], object], within: float) -> None:
    """``search`` (a long one) stops within ``within`` seconds when a signal handler
    raises: Ctrl-C raises KeyboardInterrupt from a native search as from the Python
    one. SIGUSR1 with a handler of its own stands in for it (pytest keeps SIGINT)."""

    class Interrupted(Exception):
        pass

    def handler(signum: int, frame: object) -> None:
        raise Interrupted

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGUSR1)).start()
        start = time.monotonic()
        with pytest.raises(Interrupted):
            search()
        assert time.monotonic() - start < within
    finally:
        signal.signal(signal.SIGUSR1, old)


def assert_runs_beside(search: Callable[[], object]) -> None:
    """``search`` lets go of the interpreter: another thread, waking every 10 ms, runs
    more than a handful of times while it works. A search that held the interpreter
    would let it run at most once or twice (before and after); a loaded machine (the
    test workers share 2 cores) can cut the hundred ticks of an idle one to twenty."""
    assert ticks_beside(search) > 5


def ticks_beside(search: Callable[[], object]) -> int:
    """How often another thread, waking every 10 ms, ran while ``search`` ran."""
    ticks = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    try:
        search()
    finally:
        stop.set()
        t.join()
    return len(ticks)
