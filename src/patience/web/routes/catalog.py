"""``GET /api/games``: the games the server deals, as each declares itself."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import TypeAdapter

from ...games import GAMES
from ..deps import Calls, GameListReplies
from ..errors import ERRORS
from ..game_models import GameInfo
from ..service import game_list

router = APIRouter(prefix="/api", responses=ERRORS)

games_json = TypeAdapter(list[GameInfo])


@router.get("/games", response_model=list[GameInfo])
async def list_games(calls: Calls, replies: GameListReplies) -> Response:
    """Every game with its options and their defaults."""
    # The page asks at every load; the answer only changes when a game is registered.
    # It is engine work (each game's sample position): made once, in a thread.
    key = tuple(GAMES)
    if key not in replies:
        replies[key] = await calls.run(
            lambda: games_json.dump_json(games_json.validate_python(game_list()))
        )
    return Response(replies[key], media_type="application/json")
