"""The FastAPI application: the JSON API under /api and the static front end at /.

The app is declared as data: a router of endpoints, a map of exception handlers, the
middlewares of ``security`` (foreign Host and Origin, oversized bodies). Rules live in
the engine; ``service.Service`` applies them and saves every change before the reply.

Nothing slow runs on the event loop: store and service calls run in worker threads of
their own (a locked database stalls only the requests that wait for it), and solver
searches in ``solver_pool``'s worker processes, so that the page, its files and the
moves stay fast under any number of hint requests.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import threading
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path as FilePath
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import Response
from pydantic import TypeAdapter

from .. import assist, fair_assist, i18n
from ..cards import parse_deal
from ..daily import parse_date
from ..errors import PatienceError
from ..fair import Settings
from ..games import GAMES, game_for, get_game
from ..i18n import _
from ..position import Position
from ..store import Store
from . import solver_pool
from .api_models import (
    Chance,
    GameView,
    Hint,
    Messages,
    MoveRequest,
    NewGame,
    PileRequest,
    StatsForgotten,
    StatsList,
    StatsReset,
    a_date,
)
from .daily import DailyDeals
from .errors import ERRORS, error_response, install_error_handlers
from .game_models import GameInfo
from .security import BodyLimit, LocalOnly
from .service import IDLE_CAP, ApiError, Live, Service, game_list
from .solver_pool import SolverPool
from .static_files import NotServed, StaticFiles
from .why import router as why_router

log = logging.getLogger(__name__)

STATIC_DIR = FilePath(__file__).resolve().parent / "static"
HINT_TIMEOUT = 2.0
CHANCE_TIMEOUT = 3.0
WINNABLE_BUDGET = 8.0
REWIND_BUDGET = 10.0
STORE_THREADS = 4
"""Worker threads for store calls (they queue behind one lock: more would only wait)."""

# Some systems map .js to text/plain, which browsers refuse for ES modules.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")
# The web app manifest (what lets a phone add the game to its home screen).
mimetypes.add_type("application/manifest+json", ".webmanifest")

T = TypeVar("T")


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    port: int | None = None,
    idle_cap: float = IDLE_CAP,
    hint_timeout: float = HINT_TIMEOUT,
    chance_timeout: float = CHANCE_TIMEOUT,
    hint_settings: Settings = fair_assist.HINT,
    chance_settings: Settings = fair_assist.CHANCE,
    clock: Callable[[], float] = time.time,
    lan: bool = False,
) -> FastAPI:
    """The web app over the store in ``data_dir`` (None: the user data folder).

    ``port`` is the port the server listens on: Host and Origin headers must name it
    (None accepts any port of localhost, for in-process tests). ``hint_settings`` and
    ``chance_settings``: how hard the fair hint and the chance to win think, within
    ``hint_timeout`` and ``chance_timeout`` seconds. ``clock`` is the wall
    clock of the game timer (tests pass a fake one). ``lan``: the server listens beyond
    this computer, and accepts its own addresses on the network (``LocalOnly``).
    """
    store = Store(data_dir)
    service = Service(store, idle_cap=idle_cap, clock=clock)
    hint_cancels: dict[str, threading.Event] = {}
    hints = assist.HintCache()
    solvers = SolverPool(solver_pool.SOLVER_SLOTS)
    daily_deals = DailyDeals(solvers)
    store_threads = anyio.CapacityLimiter(STORE_THREADS)

    async def in_thread(work: Callable[[], T]) -> T:
        """Run a store or service call off the event loop."""
        return await anyio.to_thread.run_sync(work, limiter=store_threads)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        try:
            yield
        finally:
            solvers.close()
            store.close()

    app = FastAPI(
        title="patience",
        version="0.1.0",
        summary="Solitaire in the browser: Klondike, Lady Jane, Baker's Dozen, Hopscotch.",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.store = store
    app.state.hint_cancels = hint_cancels
    app.state.hints = hints
    app.state.solvers = solvers
    api = APIRouter(prefix="/api", responses=ERRORS)

    async def game_view(change: Callable[[], Live]) -> dict[str, Any]:
        """Make ``change`` (or just look the game up) and describe the game, in a thread."""
        return await in_thread(lambda: service.view_after(change))

    games_reply: dict[tuple[str, ...], bytes] = {}
    games_json = TypeAdapter(list[GameInfo])

    @api.get("/games", response_model=list[GameInfo])
    async def list_games() -> Response:
        """Every game with its options and their defaults."""
        # The page asks at every load; the answer only changes when a game is registered.
        # It is engine work (each game's sample position): made once, in a thread.
        key = tuple(GAMES)
        if key not in games_reply:
            games_reply[key] = await in_thread(
                lambda: games_json.dump_json(games_json.validate_python(game_list()))
            )
        return Response(games_reply[key], media_type="application/json")

    @api.post("/games", response_model=GameView, status_code=201)
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Start a game: a numbered or random deal, the deal of the day, or a position."""
        position = None if body.position is None else body.position.model_dump(exclude_unset=True)
        if position is not None and (body.deal is not None or body.winnable):
            raise ApiError(
                422,
                "position_conflict",
                _(
                    "A position is played as it is: "
                    "it comes with neither a deal number nor 'winnable'"
                ),
            )
        # Digits as text are the same number, exact past 2^53 (the page's JavaScript).
        deal = parse_deal(body.deal) if isinstance(body.deal, str) else body.deal
        start = service.start_position(body.game, body.options, deal, position)
        if body.daily is not None:
            if body.deal is not None or body.position is not None:
                raise ApiError(
                    422,
                    "daily_conflict",
                    _("The deal of the day comes with neither a deal number nor a position"),
                )
            start, day = await daily_deals.start(request, body.daily, game_for(start))
            return await game_view(lambda: service.create(start, daily=day))
        notice = None
        if body.winnable and body.deal is None:
            start, notice = await winnable_start(start, request)
        return await game_view(lambda: service.create(start, notice))

    async def winnable_start(start: Position, request: Request) -> tuple[Position, str | None]:
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

    @api.get(
        "/current",
        response_model=GameView,
        responses={204: {"description": "No game in progress (an empty reply)"}},
    )
    async def current() -> Any:
        """The game played last and not finished (resume after a restart); 204 when none."""

        def view() -> dict[str, Any] | None:
            live = service.current()
            return None if live is None else service.view(live)

        found = await in_thread(view)
        return Response(status_code=204) if found is None else found

    @api.get("/games/{game_id}", response_model=GameView)
    async def get_game_view(game_id: str) -> dict[str, Any]:
        """One game."""
        return await game_view(lambda: service.get(game_id))

    @api.post("/games/{game_id}/move", response_model=GameView)
    async def move(game_id: str, body: MoveRequest) -> dict[str, Any]:
        """Play one move (409 with the reason when the rules refuse it).

        ``assisted``: the solver chose the move ("Show me"); the game is then assisted,
        and a win counts apart from the player's own in the statistics. ``autoplay``: then
        the cards proven safe to send home go there too (``autoplayed``).
        """
        return await game_view(
            lambda: service.move(game_id, body.move, body.assisted, body.autoplay)
        )

    @api.post("/games/{game_id}/undo", response_model=GameView)
    async def undo(game_id: str) -> dict[str, Any]:
        """Take back the last move."""
        return await game_view(lambda: service.undo(game_id))

    @api.post("/games/{game_id}/redo", response_model=GameView)
    async def redo(game_id: str) -> dict[str, Any]:
        """Replay the last undone move."""
        return await game_view(lambda: service.redo(game_id))

    @api.post("/games/{game_id}/restart", response_model=GameView)
    async def restart(game_id: str) -> dict[str, Any]:
        """Back to the first position of the deal."""
        return await game_view(lambda: service.restart(game_id))

    @api.post("/games/{game_id}/autofinish", response_model=GameView)
    async def autofinish(game_id: str) -> dict[str, Any]:
        """Play every card that can go to the foundations."""
        return await game_view(lambda: service.autofinish(game_id))

    @api.post("/games/{game_id}/foundation", response_model=GameView)
    async def foundation(game_id: str, body: PileRequest) -> dict[str, Any]:
        """Send the top card of a pile to its foundation (double-click)."""
        return await game_view(lambda: service.foundation(game_id, body.pile, body.autoplay))

    async def newest(
        key: str,
        request: Request,
        budget: float,
        work: Callable[[float, assist.Cancel], T],
        since: float,
    ) -> T:
        """``work`` in the solver pool, within ``budget`` seconds from ``since`` (when the
        request arrived); a newer request under ``key`` cancels this one (it would answer
        for a position the player may have left)."""
        cancel = threading.Event()
        previous = hint_cancels.pop(key, None)
        if previous is not None:
            previous.set()
        hint_cancels[key] = cancel
        try:
            return await solvers.run(request, cancel, budget, work, since)
        finally:
            if hint_cancels.get(key) is cancel:
                del hint_cancels[key]

    @api.get("/games/{game_id}/hint", response_model=Hint)
    async def hint(
        game_id: str,
        request: Request,
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
            position, knowledge, keys = await in_thread(lambda: service.player_state(game_id))
            work = partial(fair_assist.fair_hint, position, knowledge, keys, settings=hint_settings)
            return await newest(game_id, request, hint_timeout, work, arrived)
        live = await in_thread(lambda: service.mark_assisted(game_id))
        position = live.session.position
        known = hints.get(position)
        if known is not None:
            return {**known, "fair": False}
        work = partial(assist.compute_hint, position)
        result = await newest(game_id, request, hint_timeout, work, arrived)
        # Replaying a winning line to remember it is engine work: never on the event loop
        # that serves the page and the moves.
        await in_thread(lambda: hints.learn(position, result))
        return {**result, "fair": False}

    @api.get("/games/{game_id}/chance", response_model=Chance)
    async def chance(game_id: str, request: Request) -> dict[str, Any]:
        """The chance to win from what the player has seen: the share of sampled
        arrangements of the unseen cards from which the position can still be won, with
        its 95% interval and the sample count (about 3 s at most; 503 when busy). A newer
        request for the game cancels this one."""
        arrived = time.monotonic()
        position, knowledge, _keys = await in_thread(lambda: service.player_state(game_id))
        work = partial(fair_assist.chance_of, position, knowledge, settings=chance_settings)
        return await newest(f"chance:{game_id}", request, chance_timeout, work, arrived)

    @api.post("/games/{game_id}/rewind", response_model=GameView)
    async def rewind(game_id: str, request: Request) -> dict[str, Any]:
        """Undo back to the last position the solver proves winnable. The solver looks at
        the face-down cards: the game is recorded as assisted."""
        live = await in_thread(lambda: service.mark_assisted(game_id))
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

            return await game_view(noted)
        return await game_view(lambda: service.undo_to(game_id, keep, n))

    @api.get("/stats", response_model=StatsList)
    async def stats(
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
        for s in await in_thread(lambda: store.stats(today)):
            row = dict(s.__dict__)
            row["win_percent"] = round(100 * s.win_rate, 1)
            rows.append(row)
        return {"stats": rows}

    @api.post("/stats/reset", response_model=StatsForgotten)
    async def reset_stats(body: StatsReset) -> dict[str, Any]:
        """Forget the statistics of one game (with one set of options, or all of them),
        or with no game of every game. Saved games, the one in progress too, stay."""
        if body.game is None:
            if body.options is not None:
                raise ApiError(
                    422, "invalid_reset", _("Options are given only with the game they belong to")
                )
            return {"forgotten": await in_thread(store.reset_stats)}
        rules = get_game(body.game, body.options or {})
        options = None if body.options is None else rules.option
        return {"forgotten": await in_thread(lambda: store.reset_stats(rules.name, options))}

    messages_reply: dict[str, bytes] = {}
    messages_json = TypeAdapter(Messages)

    @api.get("/messages/{lang}", response_model=Messages)
    async def messages(
        lang: str = Path(json_schema_extra={"enum": list(i18n.LANGUAGES)}),
    ) -> Any:
        """The translation catalog of a language, for the front end."""
        known = i18n.LANGUAGES
        if lang not in known:
            raise ApiError(
                404,
                "unknown_language",
                _("Unknown language {lang} (known: {known})"),
                lang=lang[:20],
                known=", ".join(known),
            )
        # The page asks at every load; a catalog does not change while the server runs.
        if lang not in messages_reply:
            messages_reply[lang] = messages_json.dump_json(
                messages_json.validate_python(i18n.catalog_json(lang))
            )
        return Response(messages_reply[lang], media_type="application/json")

    app.include_router(api)
    app.include_router(why_router)
    install_error_handlers(app)
    app.router.default = NotServed(STATIC_DIR)
    app.add_middleware(StaticFiles, directory=STATIC_DIR)
    app.add_middleware(BodyLimit, reply=error_response)
    app.add_middleware(LocalOnly, reply=error_response, port=port, lan=lan)
    return app
