"""Deals solved on this machine's cores: a pool of forked processes (the default, with
no extra install)."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Generator, Iterator
from typing import Any

from .work import solve_deal


def _init_worker() -> None:
    # Ctrl-C goes to the parent, which stops the pool; the workers must not die first
    # with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalRunner:
    """Run ``work`` (by default ``solve_deal``; ``play_fair`` for a fair study) on each
    task in ``jobs`` worker processes, yielding rows as they come."""

    lost = 0
    """Deals whose worker was lost (none here: a pool worker's error stops the study)."""

    def __init__(self, jobs: int, work: Callable[[Any], Any] = solve_deal) -> None:
        self.jobs = max(1, jobs)
        self.work = work

    def __call__(self, tasks: Iterator[Any], count: int) -> Generator[Any, None, None]:
        ctx = multiprocessing.get_context("fork")
        pool = ctx.Pool(min(self.jobs, count), initializer=_init_worker)
        try:
            # imap draws from the generator as the pipe to the workers drains.
            yield from pool.imap_unordered(self.work, tasks)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
