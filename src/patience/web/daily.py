"""The deal of the day in the web app: found by the solver pool once per date, game and
options, then kept (``patience.daily`` says which deal it is).

The date is the player's own (the page sends its local date), checked here: ASCII
YYYY-MM-DD within ``daily.FIRST_DATE`` .. ``daily.LAST_DATE`` and no later than the day
after the server's UTC date, else a 422 that names it.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict

from starlette.requests import Request

from ..daily import daily_work, parse_dealt_date
from ..i18n import _
from ..position import Position
from ..rules import Game
from .service import ApiError
from .solver_pool import SolverPool

DAILY_BUDGET = 120.0
"""Seconds a request gives the solver pool: to wait for a slot, and then for the search,
which is bounded by states, never cut by time (it takes 0.1 to 42 s measured on a
loaded machine, docs/decisions.md); past it the pool takes the worker for hung."""

KEPT = 256
"""Days' deals kept (a few games and options a day, for weeks)."""

Key = tuple[str, str, tuple[tuple[str, str], ...]]


class DailyDeals:
    """The deals of the day found so far, and the search for a new one."""

    def __init__(self, solvers: SolverPool) -> None:
        self.solvers = solvers
        self._found: OrderedDict[Key, int] = OrderedDict()
        self._lock = threading.Lock()

    async def start(self, request: Request, date: str, rules: Game) -> tuple[Position, str]:
        """The first position of the deal of the day ``date`` (YYYY-MM-DD) of ``rules``,
        and the date as stored (InvalidDateError, a 422, for a bad date)."""
        day = parse_dealt_date(date).isoformat()
        key = (day, rules.name, rules.options)
        with self._lock:
            deal = self._found.get(key)
        if deal is None:
            cancel = threading.Event()
            work = functools.partial(daily_work, day, rules.name, dict(rules.options))
            deal = await self.solvers.run(request, cancel, DAILY_BUDGET, work)
            if deal is None:
                raise ApiError(
                    503, "daily_not_found", _("No deal of the day was found for {date}"), date=day
                )
            with self._lock:
                self._found[key] = deal
                while len(self._found) > KEPT:
                    self._found.popitem(last=False)
        return rules.new_position(deal), day
