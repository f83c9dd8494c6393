"""Deals solved on this machine's cores: a pool of forked processes (the default, with
no extra install)."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator, Iterator

from .work import Row, Task, solve_deal


def _init_worker() -> None:
    # Ctrl-C goes to the parent, which stops the pool; the workers must not die first
    # with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalRunner:
    """Solve tasks on ``jobs`` worker processes, yielding rows as they are decided."""

    lost = 0
    """Deals whose worker was lost (none here: a pool worker's error stops the study)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)

    def __call__(self, tasks: Iterator[Task], count: int) -> Generator[Row, None, None]:
        ctx = multiprocessing.get_context("fork")
        pool = ctx.Pool(min(self.jobs, count), initializer=_init_worker)
        try:
            # imap draws from the generator as the pipe to the workers drains.
            yield from pool.imap_unordered(solve_deal, tasks)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
