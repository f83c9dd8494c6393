"""What the routers of ``routes/`` work with, kept in the app's state and handed to each
endpoint as a FastAPI dependency: the service and the store (called off the event loop),
the solver pool, the deals of the day, the proven hints learned, and how long the help
may think. ``create_app`` builds them once (``share``); an endpoint declares the ones it
uses as typed parameters (``Calls``, ``Solvers``, ...), which the schema never shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends, Request
from starlette.datastructures import State

from .. import assist
from ..fair import Settings
from .api_models import GameView
from .daily import DailyDeals
from .service import Live, Service
from .solver_pool import SolverPool

T = TypeVar("T")

STORE_THREADS = 4
"""Worker threads for store calls (they queue behind one lock: more would only wait)."""


class ServiceCalls:
    """The service and its store, called in worker threads of their own: a locked
    database stalls only the requests that wait for it, never the event loop."""

    def __init__(self, service: Service, threads: int = STORE_THREADS) -> None:
        self.service = service
        self.store = service.store
        self._threads = anyio.CapacityLimiter(threads)

    async def run(self, work: Callable[[], T]) -> T:
        """Run a store or service call off the event loop."""
        return await anyio.to_thread.run_sync(work, limiter=self._threads)

    async def view(self, change: Callable[[], Live]) -> GameView:
        """Make ``change`` (or just look the game up) and describe the game, in a thread."""
        return await self.run(lambda: self.service.view_after(change))


@dataclass(frozen=True)
class HelpLimits:
    """How long (seconds) and how hard the fair hint and the chance to win think."""

    hint_timeout: float
    chance_timeout: float
    hint_settings: Settings
    chance_settings: Settings


@dataclass
class NewestSearches:
    """The solver pool's help for the page, the newest request only under each key: a
    newer request cancels the older, which would answer for a position the player may
    have left."""

    solvers: SolverPool
    cancels: dict[str, threading.Event] = field(default_factory=dict)

    async def newest(
        self,
        key: str,
        request: Request,
        budget: float,
        work: Callable[[float, assist.Cancel], T],
        since: float,
    ) -> T:
        """``work`` in the solver pool, within ``budget`` seconds from ``since`` (when the
        request arrived), cancelling the request under ``key`` still searching."""
        cancel = threading.Event()
        previous = self.cancels.pop(key, None)
        if previous is not None:
            previous.set()
        self.cancels[key] = cancel
        try:
            return await self.solvers.run(request, cancel, budget, work, since)
        finally:
            if self.cancels.get(key) is cancel:
                del self.cancels[key]


def share(state: State, service: Service, solvers: SolverPool, limits: HelpLimits) -> None:
    """Put in the app's ``state`` what the routers read (and the tests and the server
    look at: ``service``, ``store``, ``solvers``, ``hints``)."""
    state.service = service
    state.store = service.store
    state.calls = ServiceCalls(service)
    state.solvers = solvers
    state.searches = NewestSearches(solvers)
    state.daily_deals = DailyDeals(solvers)
    state.hints = assist.HintCache()
    state.help_limits = limits
    # Replies made once per app: the game list (per set of registered games) and each
    # language's catalog.
    state.game_list_replies = {}
    state.message_replies = {}


def from_state(name: str) -> Any:
    """A dependency on the app state's ``name``."""

    async def read(request: Request) -> Any:
        # Async: a plain function would be run in a worker thread, for an attribute.
        return getattr(request.app.state, name)

    read.__name__ = f"app_state_{name}"
    return Depends(read)


Calls = Annotated[ServiceCalls, from_state("calls")]
Solvers = Annotated[SolverPool, from_state("solvers")]
Searches = Annotated[NewestSearches, from_state("searches")]
Daily = Annotated[DailyDeals, from_state("daily_deals")]
Hints = Annotated[assist.HintCache, from_state("hints")]
Limits = Annotated[HelpLimits, from_state("help_limits")]
GameListReplies = Annotated[dict[tuple[str, ...], bytes], from_state("game_list_replies")]
MessageReplies = Annotated[dict[str, bytes], from_state("message_replies")]
