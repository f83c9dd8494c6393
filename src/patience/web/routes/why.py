"""``GET /api/games/{game_id}/why?move=M``: would the rules allow this move, and if not, why.

The page knows the legal moves of its game (GameView ``legal_moves``) and sends only
those. For any other move the player tries it asks here for the reason, which the rules
give exactly as ``POST .../move`` would refuse it; the reply is a 200 whatever the
answer, so a refused move leaves no failed request in the browser's console.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from ...errors import IllegalMoveError
from ...moves import Move
from ..api_models import ErrorBody, ErrorDetail, a_move
from ..deps import Calls
from ..errors import ERRORS, error_body


class Why(BaseModel):
    """Whether a move is legal now; if not, the error that playing it would get."""

    legal: bool
    error: ErrorDetail | None = Field(
        description="The refusal POST .../move would answer (code illegal_move); null if legal."
    )


router = APIRouter(
    prefix="/api",
    responses={
        403: {"model": ErrorBody, "description": "Host or Origin is not this local server"},
        404: {"model": ErrorBody, "description": "Unknown or stale game id"},
        422: {"model": ErrorBody, "description": "The move is not valid notation"},
        # Loading the game can set a damaged save aside, a write: the storage failures.
        503: ERRORS[503],
        507: ERRORS[507],
    },
)


@router.get("/games/{game_id}/why", response_model=Why)
def why(
    game_id: str,
    calls: Calls,
    move: str = Query(
        max_length=40,
        description="A move in FORMATS.md notation.",
        json_schema_extra=a_move(),
    ),
) -> dict[str, Any]:
    """Whether ``move`` is legal in the game's position, and the reason when it is not."""
    parsed = Move.parse(move)
    session = calls.service.get(game_id).session
    try:
        session.game.play(session.position, parsed)
    except IllegalMoveError as err:
        detail = error_body(err.code, err.template, err.params, message=str(err))["error"]
        return {"legal": False, "error": detail}
    return {"legal": True, "error": None}
