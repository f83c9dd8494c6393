"""The solver's help: a hint (fair, or proven with ``peek``), the chance to win, and a
rewind to the last winnable position. The searches run in the solver pool, never on
the event loop; a newer request for the same game cancels the older."""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import Any

from fastapi import APIRouter, Query, Request

from ... import assist, fair_assist
from ...i18n import _
from ..api_models import Chance, GameView, Hint
from ..deps import Calls, Hints, Limits, Searches, Solvers
from ..errors import ERRORS
from ..service import Live

REWIND_BUDGET = 10.0
"""Seconds the solver pool has to find the last winnable position of a game."""

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/games/{game_id}/hint", response_model=Hint)
async def hint(
    game_id: str,
    request: Request,
    calls: Calls,
    searches: Searches,
    hints: Hints,
    limits: Limits,
    peek: bool = Query(
        default=False,
        description="Let the solver look at the face-down cards: a proven verdict and "
        "line, and the game is recorded as assisted.",
    ),
) -> dict[str, Any]:
    """Advice for the game's position, about 2 s at most (503 when the solver is busy).

    Fair by default: the move with the best chance of winning from what the player
    has seen, with that chance. A newer hint request for the game cancels this one.
    """
    arrived = time.monotonic()  # the 2 s are the page's: from here to the answer
    if not peek:
        position, knowledge, keys = await calls.run(lambda: calls.service.player_state(game_id))
        work = partial(
            fair_assist.fair_hint, position, knowledge, keys, settings=limits.hint_settings
        )
        return await searches.newest(game_id, request, limits.hint_timeout, work, arrived)
    live = await calls.run(lambda: calls.service.mark_assisted(game_id))
    position = live.session.position
    known = hints.get(position)
    if known is not None:
        return {**known, "fair": False}
    proven = partial(assist.compute_hint, position)
    result = await searches.newest(game_id, request, limits.hint_timeout, proven, arrived)
    # Replaying a winning line to remember it is engine work: never on the event loop
    # that serves the page and the moves.
    await calls.run(lambda: hints.learn(position, result))
    return {**result, "fair": False}


@router.get("/games/{game_id}/chance", response_model=Chance)
async def chance(
    game_id: str, request: Request, calls: Calls, searches: Searches, limits: Limits
) -> dict[str, Any]:
    """The chance to win from what the player has seen, with its 95% interval and the
    sample count, and ``kind``, what it is: ``advice-playouts`` (Hopscotch: the chance of a
    player who follows the fair advice itself, from its games played out over sampled
    stock orders weighed with its record in past games), ``clairvoyant`` (the share of
    sampled arrangements of the unseen cards a player who could see every card would
    win: an upper bound, not the player's chance) or ``proven`` (nothing unseen: the
    solver's verdict). About 3 s at most; 503 when busy. A newer request for the game
    cancels this one."""
    arrived = time.monotonic()
    position, knowledge, keys = await calls.run(lambda: calls.service.player_state(game_id))
    work = partial(
        fair_assist.chance_of, position, knowledge, settings=limits.chance_settings, history=keys
    )
    return await searches.newest(f"chance:{game_id}", request, limits.chance_timeout, work, arrived)


@router.post("/games/{game_id}/rewind", response_model=GameView)
async def rewind(game_id: str, request: Request, calls: Calls, solvers: Solvers) -> GameView:
    """Undo back to the last position the solver proves winnable. The solver looks at
    the face-down cards: the game is recorded as assisted."""
    service = calls.service
    live = await calls.run(lambda: service.mark_assisted(game_id))
    history = list(live.session.history)
    keep = await solvers.run(
        request, threading.Event(), REWIND_BUDGET, partial(assist.find_rewind, history)
    )
    n = len(history) - 1
    if keep is None or keep == n:
        notice = (
            _("No winnable position was found in time")
            if keep is None
            else _("This position can still be won")
        )

        def noted() -> Live:
            service.set_notice(live, notice)
            return live

        return await calls.view(noted)
    return await calls.view(lambda: service.undo_to(game_id, keep, n))
