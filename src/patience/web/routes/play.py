"""Playing a game: a move, undo and redo, restart, a card sent to its foundation, and
every card sent home (Finish). Each reply is the game view after the change."""

from __future__ import annotations

from fastapi import APIRouter

from ..api_models import GameView, MoveRequest, PileRequest
from ..deps import Calls
from ..errors import ERRORS

router = APIRouter(prefix="/api", responses=ERRORS)


@router.post("/games/{game_id}/move", response_model=GameView)
async def move(game_id: str, body: MoveRequest, calls: Calls) -> GameView:
    """Play one move (409 with the reason when the rules refuse it).

    ``assisted``: the solver chose the move ("Show me"); the game is then assisted,
    and a win counts apart from the player's own in the statistics. ``autoplay``: then
    the cards proven safe to send home go there too (``autoplayed``).
    """
    return await calls.view(
        lambda: calls.service.move(game_id, body.move, body.assisted, body.autoplay)
    )


@router.post("/games/{game_id}/undo", response_model=GameView)
async def undo(game_id: str, calls: Calls) -> GameView:
    """Take back the last move."""
    return await calls.view(lambda: calls.service.undo(game_id))


@router.post("/games/{game_id}/redo", response_model=GameView)
async def redo(game_id: str, calls: Calls) -> GameView:
    """Replay the last undone move."""
    return await calls.view(lambda: calls.service.redo(game_id))


@router.post("/games/{game_id}/restart", response_model=GameView)
async def restart(game_id: str, calls: Calls) -> GameView:
    """Back to the first position of the deal."""
    return await calls.view(lambda: calls.service.restart(game_id))


@router.post("/games/{game_id}/autofinish", response_model=GameView)
async def autofinish(game_id: str, calls: Calls) -> GameView:
    """Play every card that can go to the foundations."""
    return await calls.view(lambda: calls.service.autofinish(game_id))


@router.post("/games/{game_id}/foundation", response_model=GameView)
async def foundation(game_id: str, body: PileRequest, calls: Calls) -> GameView:
    """Send the top card of a pile to its foundation (double-click)."""
    return await calls.view(lambda: calls.service.foundation(game_id, body.pile, body.autoplay))
