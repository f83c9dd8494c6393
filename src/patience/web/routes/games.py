"""A game started (a deal, the deal of the day, a winnable deal, a position), the one in
progress, and a game looked up by its id."""

from __future__ import annotations

import logging
import threading
from functools import partial

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ... import assist
from ...cards import parse_deal
from ...errors import PatienceError
from ...games import game_for
from ...i18n import _
from ...position import Position
from ..api_models import GameView, NewGame
from ..deps import Calls, Daily, Solvers
from ..errors import ERRORS
from ..service import ApiError
from ..solver_pool import SolverPool

log = logging.getLogger(__name__)

WINNABLE_BUDGET = 8.0
"""Seconds the solver pool has to find a winnable deal before the random one is dealt."""

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/games", response_model=GameView, status_code=201)
async def new_game(
    body: NewGame, request: Request, calls: Calls, daily_deals: Daily, solvers: Solvers
) -> GameView:
    """Start a game: a numbered or random deal, the deal of the day, or a position."""
    position = None if body.position is None else body.position.model_dump(exclude_unset=True)
    if position is not None and (body.deal is not None or body.winnable):
        raise ApiError(
            422,
            "position_conflict",
            _("A position is played as it is: it comes with neither a deal number nor 'winnable'"),
        )
    # Digits as text are the same number, exact past 2^53 (the page's JavaScript).
    deal = parse_deal(body.deal) if isinstance(body.deal, str) else body.deal
    service = calls.service
    start = service.start_position(body.game, body.options, deal, position)
    if body.daily is not None:
        if body.deal is not None or body.position is not None:
            raise ApiError(
                422,
                "daily_conflict",
                _("The deal of the day comes with neither a deal number nor a position"),
            )
        start, day = await daily_deals.start(request, body.daily, game_for(start))
        return await calls.view(lambda: service.create(start, daily=day))
    notice = None
    if body.winnable and body.deal is None:
        start, notice = await winnable_start(start, request, solvers)
    return await calls.view(lambda: service.create(start, notice))


async def winnable_start(
    start: Position, request: Request, solvers: SolverPool
) -> tuple[Position, str | None]:
    """The first winnable deal the solver pool finds from the random deal ``start`` on,
    or ``start`` itself with a notice when it finds none in time."""
    assert start.deal is not None  # a random deal was drawn
    work = partial(assist.winnable_deal, start.game, dict(start.options), start.deal)
    try:
        found = await solvers.run(request, threading.Event(), WINNABLE_BUDGET, work)
    except (PatienceError, ApiError):
        raise
    except Exception:  # noqa: BLE001 - fall back to the random deal
        log.exception("find_winnable failed")
        found = None
    if found is None:
        return start, _("No winnable deal was found in time: this deal may not be winnable")
    return found, None


@router.get(
    "/current",
    response_model=GameView,
    responses={204: {"description": "No game in progress (an empty reply)"}},
)
async def current(calls: Calls) -> GameView | Response:
    """The game played last and not finished (resume after a restart); 204 when none."""

    def view() -> GameView | None:
        live = calls.service.current()
        return None if live is None else calls.service.view(live)

    found = await calls.run(view)
    return Response(status_code=204) if found is None else found


@router.get("/games/{game_id}", response_model=GameView)
async def get_game_view(game_id: str, calls: Calls) -> GameView:
    """One game."""
    return await calls.view(lambda: calls.service.get(game_id))
