"""Solver work in the web app: bounded, in threads of its own, cancelled when unwanted.

A search (hint, rewind, winnable deal) takes one of ``slots`` and runs in a thread counted
apart from the default pool (which serves the page's files), so that no number of hint
requests can take the threads or the cores that the page and the moves need. A request
waits for a slot at most its budget, then searches for what is left of it; one that
gets no slot in time is refused (503 "solver_busy").
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from ..i18n import _
from .service import ApiError

T = TypeVar("T")

SOLVER_SLOTS = max((os.cpu_count() or 1) - 1, 1)
"""Solver searches at a time: one per core, but one core is kept for the page and moves."""


async def run_cancellable(
    request: Request,
    cancel: threading.Event,
    work: Callable[[], T],
    limiter: anyio.CapacityLimiter | None = None,
) -> T:
    """Run ``work`` in a worker thread (of ``limiter``); set ``cancel`` if the client goes
    away."""

    async def watch() -> None:
        while not cancel.is_set():
            if await request.is_disconnected():
                cancel.set()
                return
            await anyio.sleep(0.1)

    async with anyio.create_task_group() as tg:
        tg.start_soon(watch)
        try:
            result = await anyio.to_thread.run_sync(work, limiter=limiter)
        finally:
            tg.cancel_scope.cancel()
    return result


class SolverPool:
    """Solver searches, ``slots`` at a time, each within its budget."""

    def __init__(self, slots: int) -> None:
        self.slots = anyio.CapacityLimiter(slots)
        # The searches' threads, counted apart from the default pool's.
        self.threads = anyio.CapacityLimiter(slots)

    async def run(
        self,
        request: Request,
        cancel: threading.Event,
        budget: float,
        work: Callable[[float, threading.Event], T],
    ) -> T:
        """``work(seconds_left, cancel)`` in a solver thread, once a slot is free within
        ``budget``. ``work`` is a module-level function (or a ``functools.partial`` of one
        with picklable arguments) whose result is plain data: searches may move to a
        worker process."""
        deadline = time.monotonic() + budget
        acquired = False
        with anyio.move_on_after(budget):
            await self.slots.acquire()
            acquired = True
        if not acquired:
            raise ApiError(
                503, "solver_busy", _("The solver is busy with other requests; try again")
            )
        left = max(deadline - time.monotonic(), 0.0)
        try:
            return await run_cancellable(request, cancel, lambda: work(left, cancel), self.threads)
        finally:
            self.slots.release()
