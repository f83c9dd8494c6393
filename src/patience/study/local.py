"""Deals solved on this machine's cores: a pool of forked processes (the default, with
no extra install)."""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterator
from typing import Any

from .work import solve_deal

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""
WATCH_SECONDS = 0.5
"""How often a worker checks that its parent lives, where the system cannot tell it."""


def _init_worker(parent: int) -> None:
    """Set a pool worker up: Ctrl-C goes to the parent, which stops the pool (the workers
    must not die first with a traceback each); the worker ends with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A row written to a parent that is gone ends the worker as SIGPIPE does any program,
    # without a BrokenPipeError traceback (Python ignores SIGPIPE by default).
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    end_with_parent(parent)


def end_with_parent(parent: int) -> None:
    """End this process as soon as ``parent`` (its parent) dies, even by ``kill -9``: a
    worker would otherwise solve its deal to the end, up to ``--timeout``, for no one.
    Linux kills it at once (``PR_SET_PDEATHSIG``); elsewhere a thread watches."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it died before the call
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


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
        pool = ctx.Pool(min(self.jobs, count), initializer=_init_worker, initargs=(os.getpid(),))
        try:
            # imap draws from the generator as the pipe to the workers drains.
            yield from pool.imap_unordered(self.work, tasks)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
