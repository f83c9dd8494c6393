"""The statistics per game and options, and forgetting them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from ...daily import parse_date
from ...games import get_game
from ...i18n import _
from ..api_models import StatsForgotten, StatsList, StatsReset, a_date
from ..deps import Calls
from ..errors import ERRORS
from ..service import ApiError

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/stats", response_model=StatsList)
async def stats(
    calls: Calls,
    date: str | None = Query(
        default=None,
        description="The player's today, YYYY-MM-DD (default: the server's).",
        json_schema_extra=a_date(),
    ),
) -> dict[str, Any]:
    """Statistics per game and options (games won with the solver's moves apart);
    the daily streaks run up to ``date`` (YYYY-MM-DD, the player's today; default:
    the server's)."""
    today = None if date is None else parse_date(date)
    rows = []
    for s in await calls.run(lambda: calls.store.stats(today)):
        row = dict(s.__dict__)
        row["win_percent"] = round(100 * s.win_rate, 1)
        rows.append(row)
    return {"stats": rows}


@router.post("/stats/reset", response_model=StatsForgotten)
async def reset_stats(body: StatsReset, calls: Calls) -> dict[str, Any]:
    """Forget the statistics of one game (with one set of options, or all of them),
    or with no game of every game. Saved games, the one in progress too, stay."""
    store = calls.store
    if body.game is None:
        if body.options is not None:
            raise ApiError(
                422, "invalid_reset", _("Options are given only with the game they belong to")
            )
        return {"forgotten": await calls.run(store.reset_stats)}
    rules = get_game(body.game, body.options or {})
    options = None if body.options is None else rules.option
    return {"forgotten": await calls.run(lambda: store.reset_stats(rules.name, options))}
