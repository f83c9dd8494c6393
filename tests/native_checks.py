"""Checks every native search must pass: a signal handler interrupts it, and it lets
go of the interpreter while it works."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import pytest


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
