"""Solver work in the web app: bounded, in worker processes, cancelled when unwanted.

A search (hint, rewind, winnable deal) takes one of ``slots`` and runs in that slot's
worker process (``solver_worker``), started on first use and at a lower CPU priority:
no number of hint requests can take the server's interpreter or the cores that the page
and the moves need. A request's budget is the whole round trip, counted from when it
arrived (``since``): it waits for a slot at most its budget, then searches for what is
left of it less ``ANSWER`` (kept for the answer's way back to the page); one that gets no
slot in time is refused (503 "solver_busy"). A worker that dies is replaced, and its
request refused (503 "solver_failed").

The work is a picklable callable (a module-level function, or ``functools.partial`` of
one over picklable arguments) called in the worker as ``work(seconds_left, cancel)``;
its result must pickle too. Setting the request's ``threading.Event`` (client gone, a
newer hint) sets the worker's ``cancel`` within ``POLL`` seconds.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.context import SpawnContext
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from ..assist import Cancel
from ..games import GAMES
from ..i18n import _
from . import solver_worker
from .service import ApiError

T = TypeVar("T")

log = logging.getLogger(__name__)

SOLVER_SLOTS = max((os.cpu_count() or 1) - 1, 1)
"""Solver searches at a time: one per core, but one core is kept for the page and moves."""
POLL = 0.05
"""Seconds between two looks at the request's cancel event while a worker searches."""
GRACE = 10.0
"""Seconds past its deadline a worker may take to answer before it is killed as hung."""
ANSWER = 0.5
"""Seconds of a request's budget kept from its search for the answer's way back (the
search's last steps, the worker's reply, the server's, the page drawing it): a 2 s hint
searches until 1.5 s after the request arrived at most. Measured on the loaded 2-core
machine (bench/hint.py), the answer reached the page up to 0.3 s after the search's
deadline, nearly all of it in the server and its worker (the page: 0.06 s)."""
STARTUP = 60.0
"""Seconds a new worker may take to load (on a busy machine) before it is killed as hung."""
STOP_WAIT = 5.0
"""Seconds a worker has to end cleanly when the server stops, before it is killed."""


class WorkerDied(Exception):
    """The worker process ended (or was killed) before it answered."""


class Worker:
    """One worker process and the pipe to it; blocking calls, for a thread of the pool."""

    def __init__(self, context: SpawnContext) -> None:
        self.cancel = context.Event()
        self.conn, theirs = context.Pipe()
        self.process = context.Process(
            target=solver_worker.serve,
            # The games registered here (a game may be registered at run time), by
            # reference: the worker imports each class's module and knows them too.
            args=(theirs, self.cancel, tuple(GAMES.values())),
            name="patience-solver",
            daemon=True,  # ended by multiprocessing's exit handler if the server is not clean
        )
        self.process.start()
        theirs.close()  # the worker's end: once the worker is gone, a read here sees EOF
        self.ready = False
        """Whether the worker said it is loaded (its first message)."""

    def call(self, work: Callable[[float, Cancel], Any], deadline: float, cancel: Cancel) -> Any:
        """``work(seconds_left, cancel)`` in the worker; its result, or what it raised.

        A new worker's start (the interpreter and the solver loading) does not count
        against the work's deadline. WorkerDied when the worker ends before it answers."""
        self.cancel.clear()
        if not self.ready:
            started = time.monotonic()
            self._receive(started + STARTUP, cancel)
            self.ready = True
            deadline += time.monotonic() - started
        try:
            self.conn.send((work, deadline))
        except OSError as exc:
            raise self._died() from exc
        status, value = self._receive(deadline + GRACE, cancel)
        if status == "error":
            raise value
        return value

    def _receive(self, limit: float, cancel: Cancel) -> tuple[str, Any]:
        """The worker's next message; meanwhile pass ``cancel`` on, and kill the worker
        if it has not answered by ``limit`` (it hangs)."""
        try:
            while not self.conn.poll(POLL):
                if cancel.is_set():
                    self.cancel.set()
                if time.monotonic() > limit:
                    log.error("solver worker %s does not answer; killing it", self.process.pid)
                    self.process.kill()
            message: tuple[str, Any] = self.conn.recv()
        except (EOFError, OSError) as exc:
            raise self._died() from exc
        return message

    def _died(self) -> WorkerDied:
        self.process.join(STOP_WAIT)
        code = self.process.exitcode
        log.error("solver worker %s ended: exit code %s", self.process.pid, code)
        self.conn.close()
        return WorkerDied(code)

    def alive(self) -> bool:
        """Whether the process runs (a dead worker is replaced before its next job)."""
        return self.process.is_alive()

    def stop(self) -> None:
        """End the process: ask it, then kill it if it does not end in time."""
        self.cancel.set()
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(STOP_WAIT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(STOP_WAIT)
        self.conn.close()


async def run_cancellable(
    request: Request,
    cancel: threading.Event,
    work: Callable[[], T],
    limiter: anyio.CapacityLimiter | None = None,
) -> T:
    """Run ``work`` in a thread (of ``limiter``); set ``cancel`` if the client goes away."""

    async def watch() -> None:
        while not cancel.is_set():
            if await request.is_disconnected():
                cancel.set()
                return
            await anyio.sleep(0.1)

    failed: Exception | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(watch)
        try:
            result = await anyio.to_thread.run_sync(work, limiter=limiter)
        except Exception as exc:  # noqa: BLE001 - raised below, not inside an ExceptionGroup
            failed = exc
        finally:
            tg.cancel_scope.cancel()
    if failed is not None:
        raise failed
    return result


class SolverPool:
    """Solver searches, ``slots`` at a time, each in a worker process, within its budget."""

    def __init__(self, slots: int) -> None:
        self.slots = anyio.CapacityLimiter(slots)
        # The threads that wait for the workers, counted apart from the default pool's.
        self.threads = anyio.CapacityLimiter(slots)
        self.context = multiprocessing.get_context("spawn")  # never fork a threaded server
        self.idle: list[Worker | None] = [None] * slots
        self.busy: set[Worker] = set()
        self.lock = threading.Lock()
        self.closed = False

    def start(self) -> None:
        """Start every worker now, so that the first searches do not wait for one."""
        with self.lock:
            self.idle = [self._fresh(w) for w in self.idle]

    def _fresh(self, worker: Worker | None) -> Worker:
        if worker is not None and worker.alive():
            return worker
        if worker is not None:
            worker.conn.close()
        return Worker(self.context)

    def _call(self, work: Callable[[float, Cancel], T], deadline: float, cancel: Cancel) -> T:
        """In a thread: take a worker (a new one for a dead one), run ``work``, give it back."""
        with self.lock:
            if self.closed:
                raise WorkerDied
            worker = self._fresh(self.idle.pop())
            self.busy.add(worker)
        died = False
        try:
            result: T = worker.call(work, deadline, cancel)
        except WorkerDied:
            died = True
            raise
        finally:
            with self.lock:
                self.busy.discard(worker)
                self.idle.append(None if died else worker)
        return result

    async def run(
        self,
        request: Request,
        cancel: threading.Event,
        budget: float,
        work: Callable[[float, Cancel], T],
        since: float | None = None,
    ) -> T:
        """``work(seconds_left, cancel)`` in a worker process, once a slot is free within
        ``budget`` seconds from ``since`` (``time.monotonic()`` when the request arrived;
        None: now). ``seconds_left`` is what remains of the budget less ``ANSWER`` (a quarter
        of the budget, if less, for the short ones of tests): the
        time the request spent before (reading the game, waiting for a slot, handing the
        work over) is the search's. ``work`` is a module-level function (or a
        ``functools.partial`` of one with picklable arguments) whose result is plain data."""
        deadline = (time.monotonic() if since is None else since) + budget
        answer_by = deadline - min(ANSWER, budget / 4)
        acquired = False
        with anyio.move_on_after(deadline - time.monotonic()):
            await self.slots.acquire()
            acquired = True
        if not acquired:
            raise ApiError(
                503, "solver_busy", _("The solver is busy with other requests; try again")
            )
        try:
            return await run_cancellable(
                request,
                cancel,
                lambda: self._call(work, answer_by, cancel),
                self.threads,
            )
        except WorkerDied:
            raise ApiError(
                503, "solver_failed", _("The solver stopped unexpectedly; try again")
            ) from None
        finally:
            self.slots.release()

    def close(self) -> None:
        """Stop every worker (the server is stopping): none outlives it."""
        with self.lock:
            self.closed = True
            workers = [w for w in self.idle if w is not None] + list(self.busy)
            self.idle = []
        for worker in workers:
            worker.stop()
