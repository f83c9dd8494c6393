"""The clock that the solver's time budgets are read on.

The wall clock (``time.monotonic``) by default: a player waits on it. Inside
``cpu_time()``, the calling thread's budgets, and those of the native searches it runs,
are read on that thread's CPU time instead (``time.thread_time``; in C
``CLOCK_THREAD_CPUTIME_ID``): a study's "60 seconds a deal" is then the same work on a
busy machine, or a shared cluster node, as on a quiet one. The choice is the thread's
own, so a web server's hint searches in other threads keep the wall clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

_thread = threading.local()


def _natives() -> list[ModuleType]:
    found = []
    try:
        from . import _tableau

        found.append(_tableau)
    except ImportError:  # pragma: no cover - without a C compiler
        pass
    try:
        from . import _hopscotch

        found.append(_hopscotch)
    except ImportError:  # pragma: no cover - without a C compiler
        pass
    return found


def on_cpu_time() -> bool:
    """Whether this thread's budgets are read on its CPU time."""
    return getattr(_thread, "cpu", False)


def now() -> float:
    """This thread's clock: its CPU seconds inside ``cpu_time()``, else the wall clock's."""
    return time.thread_time() if getattr(_thread, "cpu", False) else time.monotonic()


@contextmanager
def cpu_time() -> Iterator[None]:
    """Read this thread's budgets (Python and native searches) on its CPU time."""
    before = on_cpu_time()
    _set(True)
    try:
        yield
    finally:
        _set(before)


def _set(on: bool) -> None:
    _thread.cpu = on
    for module in _natives():
        module.use_cpu_clock(on)
