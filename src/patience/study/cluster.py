"""Deals solved on a Dask distributed cluster (the ``cluster`` extra).

The parent submits a bounded number of deals at a time (the deal ranges are drawn
lazily, so a range of a million deals never exists as a million futures) and yields
each row as it comes back, for the one writer to store. A worker that dies loses only
its deals in flight: the scheduler gives them to another worker; a deal that kills
worker after worker (Dask's ``allowed-failures``) is left unstored and counted in
``lost``, for a rerun to try again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from importlib.metadata import PackageNotFoundError, version
from itertools import islice
from pathlib import Path
from typing import Any

from ..errors import PatienceError
from .work import solve_deal

CONNECT_SECONDS = 30
"""How long to wait for the scheduler to answer."""
REFRESH_SECONDS = 5.0
"""How often the number of deals in flight follows workers that come and go."""


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address`` (``tcp://host:port``) or named by a
    scheduler file (``dask scheduler --scheduler-file FILE``, as dask-jobqueue and
    ``dask-mpi`` write it)."""
    from distributed import Client

    try:
        if Path(address).is_file():
            return Client(scheduler_file=address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
        return Client(address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as exc:
        # OSError includes the connection's TimeoutError.
        raise PatienceError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def check_workers(client: Any) -> None:
    """Refuse workers that run another version of patience (or none): their verdicts
    would not be this version's."""
    here = version("patience")

    def theirs() -> str:
        try:
            return version("patience")
        except PackageNotFoundError:
            return "none"

    for worker, v in client.run(theirs).items():
        if v != here:
            raise PatienceError(
                f"the Dask worker {worker} runs patience {v}, this is {here}: "
                "install the same version on every worker"
            )


class DaskRunner:
    """Run ``work`` (by default ``solve_deal``; ``play_fair`` for a fair study) on each
    task on a Dask cluster, yielding rows as they come."""

    def __init__(self, address: str, work: Callable[[Any], Any] = solve_deal) -> None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise PatienceError(
                "--cluster needs Dask's distributed package: pip install 'patience[cluster]'"
            ) from None
        self.address = address
        self.lost = 0
        """Deals not stored because worker after worker died on them."""
        self.client: Any = None
        """The client, while the deals run."""
        self.work = work
        """What a worker runs for each deal."""

    def __call__(self, tasks: Iterator[Any], count: int) -> Generator[Any, None, None]:
        from distributed import as_completed

        self.client = client = connect(self.address)
        try:
            check_workers(client)
            running = as_completed(with_results=False)  # type: ignore[no-untyped-call]
            yield from self._rows(client, tasks, running)
        finally:
            self.client = None
            client.close()

    def _rows(self, client: Any, tasks: Iterator[Any], running: Any) -> Generator[Any, None, None]:
        from distributed.scheduler import KilledWorker

        def window() -> int:
            # Two deals a worker thread: each has the next at hand; at least a few
            # while the workers are still starting.
            threads: int = sum(client.nthreads().values())
            return max(8, 2 * threads)

        size, checked = window(), time.monotonic()

        def submit(n: int) -> int:
            sent = 0
            for task in islice(tasks, max(0, n)):
                running.add(client.submit(self.work, task, pure=False))
                sent += 1
            return sent

        flying = submit(size)
        for future in running:
            flying -= 1
            try:
                row = future.result()
            except KilledWorker:
                self.lost += 1
            else:
                yield row
            finally:
                future.release()
            if time.monotonic() - checked > REFRESH_SECONDS:
                size, checked = window(), time.monotonic()
            flying += submit(size - flying)
        # Deals still in flight when this stops (Ctrl-C, an error) are released with
        # the client, which tells the scheduler to forget them.
