"""The FastAPI application: the JSON API under /api and the static front end at /.

The app is declared as data: a router of endpoints, a map of exception handlers, the
middlewares of ``security`` (foreign Host and Origin, oversized bodies). Rules live in
the engine; ``service.Service`` applies them and saves every change before the reply.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import PatienceError
from ..moves import Move
from ..position import Position
from ..store import Store
from .api_models import (
    ErrorBody,
    GameInfo,
    GameView,
    Hint,
    Messages,
    MoveRequest,
    NewGame,
    PileRequest,
    StatsList,
)
from .security import BodyLimit, LocalOnly
from .service import IDLE_CAP, ApiError, Live, Service, game_list, useful_move
from .why import router as why_router

try:
    from ..i18n import _
except ImportError:  # pragma: no cover - the i18n module ships with the package

    def _(msgid: str) -> str:
        """Mark a message for translation (no-op fallback)."""
        return msgid


log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
LANGUAGES = ("en", "es", "fr")
HINT_TIMEOUT = 2.0
WINNABLE_BUDGET = 8.0
REWIND_BUDGET = 10.0

# Some systems map .js to text/plain, which browsers refuse for ES modules.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")
# The web app manifest (what lets a phone add the game to its home screen).
mimetypes.add_type("application/manifest+json", ".webmanifest")

STATUS_BY_CODE = {"illegal_move": 409}
"""HTTP status of each engine error code; every other PatienceError is a 422."""

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "Host or Origin is not this local server"},
    404: {"model": ErrorBody, "description": "Unknown or stale game id"},
    409: {"model": ErrorBody, "description": "Not allowed in this position"},
    422: {"model": ErrorBody, "description": "Malformed request, move, option or position"},
}

T = TypeVar("T")


def error_body(code: str, template: str, params: dict[str, object]) -> dict[str, Any]:
    """The JSON error body of the API contract."""
    try:
        message = template.format(**params) if params else template
    except (KeyError, IndexError, ValueError):
        message = template
    safe = {
        k: v if isinstance(v, str | int | float | bool) or v is None else str(v)
        for k, v in params.items()
    }
    return {"error": {"code": code, "message": message, "message_id": template, "params": safe}}


def error_response(status: int, code: str, template: str, **params: object) -> JSONResponse:
    """A JSON error reply."""
    return JSONResponse(error_body(code, template, params), status_code=status)


async def run_cancellable(request: Request, cancel: threading.Event, work: Callable[[], T]) -> T:
    """Run ``work`` in a worker thread; set ``cancel`` if the client goes away."""

    async def watch() -> None:
        while not cancel.is_set():
            if await request.is_disconnected():
                cancel.set()
                return
            await anyio.sleep(0.1)

    async with anyio.create_task_group() as tg:
        tg.start_soon(watch)
        try:
            result = await anyio.to_thread.run_sync(work)
        finally:
            tg.cancel_scope.cancel()
    return result


def solver_module() -> Any:
    """The solver package, or None while it is not installed."""
    try:
        from .. import solver
    except ImportError:
        return None
    return solver if hasattr(solver, "hint") else None


def compute_hint(position: Position, timeout: float, cancel: threading.Event) -> dict[str, Any]:
    """The hint for ``position``: the solver's, or a useful legal move with 'unknown'."""
    solver = solver_module()
    if solver is not None:
        try:
            h = solver.hint(position, timeout=timeout, cancel=cancel)
            move = h.move
            if move is None and h.verdict == "unknown":
                move = useful_move(position)
            return {
                "verdict": h.verdict,
                "move": None if move is None else str(move),
                "line": [str(m) for m in h.line],
            }
        except PatienceError:
            raise
        except Exception:  # noqa: BLE001 - a solver bug must not cost the player the game
            log.exception("solver hint failed; falling back to a useful move")
    move = useful_move(position)
    verdict = "unknown"
    if move is None:
        from ..games import game_for

        rules = game_for(position)
        verdict = "winnable" if rules.is_won(position) else "lost"
    return {"verdict": verdict, "move": None if move is None else str(move), "line": []}


class HintCache:
    """Solver verdicts already proven, by position, shared by every hint request.

    A winning line proves every position along it winnable, with the rest of the line as
    its hint: following a hint, "Show me" and the winnable indicator then answer at once
    and never fall back from "winnable" to "unknown" on a busy machine. A lost verdict is
    kept as well; "unknown" is not (more time may decide it).
    """

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        # key -> (verdict, the whole line, where this position is on it): one line shared.
        self._known: OrderedDict[tuple[Any, ...], tuple[str, tuple[str, ...], int]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(position: Position) -> tuple[Any, ...]:
        return (position.game, position.options, position.base, position.key())

    def get(self, position: Position) -> dict[str, Any] | None:
        """The cached hint for ``position``, or None."""
        with self._lock:
            known = self._known.get(self._key(position))
            if known is None:
                return None
            self._known.move_to_end(self._key(position))
        verdict, line, k = known
        rest = list(line[k:])
        return {"verdict": verdict, "move": rest[0] if rest else None, "line": rest}

    def learn(self, position: Position, hint: dict[str, Any]) -> None:
        """Remember a proven verdict: every position along a winning line, or a loss."""
        from ..games import game_for

        entries: list[tuple[tuple[Any, ...], tuple[str, tuple[str, ...], int]]] = []
        if hint["verdict"] == "lost":
            entries.append((self._key(position), ("lost", (), 0)))
        elif hint["verdict"] == "winnable" and hint["line"]:
            rules = game_for(position)
            line = tuple(hint["line"])
            p = position
            try:
                for k in range(len(line)):
                    entries.append((self._key(p), ("winnable", line, k)))
                    p = rules.play(p, Move.parse(line[k]))
            except PatienceError:
                p = position  # not a win: caught just below
            if not rules.is_won(p):
                # A solver bug must not be remembered, nor cost the player the hint itself.
                log.error("hint line does not replay to a win; not remembered")
                return
        with self._lock:
            for key, value in entries:
                self._known[key] = value
                self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)


def find_rewind(history: list[Position], budget: float, cancel: threading.Event) -> int | None:
    """The most moves to keep so that the position is proven winnable, or None.

    Winnability only ever goes from true to false along a game (a later position is
    reached from an earlier one by legal moves), so a binary search over the history
    finds the last winnable position in a few solver calls.
    """
    solver = solver_module()
    if solver is None:
        return None
    deadline = time.monotonic() + budget

    def won(k: int) -> bool:
        left = deadline - time.monotonic()
        if left <= 0 or cancel.is_set():
            return False
        result = solver.solve(history[k], timeout=min(left, 3.0), cancel=cancel)
        return bool(result.result == "won")

    n = len(history) - 1
    if won(n):
        return n
    lo, hi = -1, n  # history[hi] is not proven winnable; history[lo] is (when lo >= 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if won(mid):
            lo = mid
        else:
            hi = mid
    return lo if lo >= 0 else None


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    port: int | None = None,
    idle_cap: float = IDLE_CAP,
    hint_timeout: float = HINT_TIMEOUT,
    clock: Callable[[], float] = time.time,
    lan: bool = False,
) -> FastAPI:
    """The web app over the store in ``data_dir`` (None: the user data folder).

    ``port`` is the port the server listens on: Host and Origin headers must name it
    (None accepts any port of localhost, for in-process tests). ``clock`` is the wall
    clock of the game timer (tests pass a fake one). ``lan``: the server listens beyond
    this computer, and accepts its own addresses on the network (``LocalOnly``).
    """
    store = Store(data_dir)
    service = Service(store, idle_cap=idle_cap, clock=clock)
    hint_cancels: dict[str, threading.Event] = {}
    hints = HintCache()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        yield
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
    api = APIRouter(prefix="/api", responses=ERRORS)

    async def game_view(live: Live) -> dict[str, Any]:
        return service.view(live)

    @api.get("/games", response_model=list[GameInfo])
    async def list_games() -> list[dict[str, Any]]:
        """Every game with its options and their defaults."""
        return game_list()

    @api.post("/games", response_model=GameView, status_code=201)
    async def new_game(body: NewGame, request: Request) -> dict[str, Any]:
        """Start a game: a numbered or random deal, or a given position."""
        position = None if body.position is None else body.position.model_dump(exclude_unset=True)
        start = service.start_position(body.game, body.options, body.deal, position)
        notice = None
        if body.winnable and body.position is None and body.deal is None:
            start, notice = await winnable_start(start, request)
        return await game_view(service.create(start, notice))

    async def winnable_start(start: Position, request: Request) -> tuple[Position, str | None]:
        solver = solver_module()
        if solver is None or not hasattr(solver, "find_winnable"):
            return start, _("The solver is not available: this deal may not be winnable")
        cancel = threading.Event()
        options = dict(start.options)
        assert start.deal is not None  # a random deal was drawn

        def work() -> int | None:
            result = solver.find_winnable(
                start.game, options, start.deal, budget=WINNABLE_BUDGET, per_deal=2.0
            )
            return None if result is None else int(result)

        try:
            deal = await run_cancellable(request, cancel, work)
        except PatienceError:
            raise
        except Exception:  # noqa: BLE001 - fall back to the random deal
            log.exception("find_winnable failed")
            deal = None
        if deal is None:
            return start, _("No winnable deal was found in time: this deal may not be winnable")
        from ..games import get_game

        return get_game(start.game, options).new_position(deal), None

    @api.get("/current", response_model=GameView)
    async def current() -> dict[str, Any]:
        """The game played last and not finished (resume after a restart)."""
        live = service.current()
        if live is None:
            raise ApiError(404, "no_current_game", _("There is no game in progress"))
        return await game_view(live)

    @api.get("/games/{game_id}", response_model=GameView)
    async def get_game_view(game_id: str) -> dict[str, Any]:
        """One game."""
        return await game_view(service.get(game_id))

    @api.post("/games/{game_id}/move", response_model=GameView)
    async def move(game_id: str, body: MoveRequest) -> dict[str, Any]:
        """Play one move (409 with the reason when the rules refuse it)."""
        return await game_view(service.move(game_id, body.move))

    @api.post("/games/{game_id}/undo", response_model=GameView)
    async def undo(game_id: str) -> dict[str, Any]:
        """Take back the last move."""
        return await game_view(service.undo(game_id))

    @api.post("/games/{game_id}/redo", response_model=GameView)
    async def redo(game_id: str) -> dict[str, Any]:
        """Replay the last undone move."""
        return await game_view(service.redo(game_id))

    @api.post("/games/{game_id}/restart", response_model=GameView)
    async def restart(game_id: str) -> dict[str, Any]:
        """Back to the first position of the deal."""
        return await game_view(service.restart(game_id))

    @api.post("/games/{game_id}/autofinish", response_model=GameView)
    async def autofinish(game_id: str) -> dict[str, Any]:
        """Play every card that can go to the foundations."""
        return await game_view(service.autofinish(game_id))

    @api.post("/games/{game_id}/foundation", response_model=GameView)
    async def foundation(game_id: str, body: PileRequest) -> dict[str, Any]:
        """Send the top card of a pile to its foundation (double-click)."""
        return await game_view(service.foundation(game_id, body.pile))

    @api.get("/games/{game_id}/hint", response_model=Hint)
    async def hint(game_id: str, request: Request) -> dict[str, Any]:
        """The solver's verdict and next move (about 2 s at most)."""
        live = service.get(game_id)
        position = live.session.position
        known = hints.get(position)
        if known is not None:
            return known
        cancel = threading.Event()
        # A newer hint request for the same game makes the older one pointless.
        previous = hint_cancels.pop(game_id, None)
        if previous is not None:
            previous.set()
        hint_cancels[game_id] = cancel
        try:
            result = await run_cancellable(
                request, cancel, lambda: compute_hint(position, hint_timeout, cancel)
            )
            hints.learn(position, result)
            return result
        finally:
            if hint_cancels.get(game_id) is cancel:
                del hint_cancels[game_id]

    @api.post("/games/{game_id}/rewind", response_model=GameView)
    async def rewind(game_id: str, request: Request) -> dict[str, Any]:
        """Undo back to the last position the solver proves winnable."""
        live = service.get(game_id)
        if solver_module() is None:
            raise ApiError(409, "solver_unavailable", _("The solver is not available"))
        history = list(live.session.history)
        cancel = threading.Event()
        keep = await run_cancellable(
            request, cancel, lambda: find_rewind(history, REWIND_BUDGET, cancel)
        )
        n = len(history) - 1
        if keep is None:
            service.set_notice(live, _("No winnable position was found in time"))
            return await game_view(live)
        if keep == n:
            service.set_notice(live, _("This position can still be won"))
            return await game_view(live)
        return await game_view(service.undo_to(game_id, keep, n))

    @api.get("/stats", response_model=StatsList)
    async def stats() -> dict[str, Any]:
        """Statistics per game and options."""
        rows = []
        for s in store.stats():
            row = dict(s.__dict__)
            row["win_percent"] = round(100 * s.win_rate, 1)
            rows.append(row)
        return {"stats": rows}

    @api.get("/messages/{lang}", response_model=Messages)
    async def messages(lang: str) -> dict[str, Any]:
        """The translation catalog of a language, for the front end."""
        try:
            from .. import i18n
        except ImportError:
            i18n = None  # type: ignore[assignment]
        known = tuple(getattr(i18n, "LANGUAGE_NAMES", LANGUAGES))
        if lang not in known:
            raise ApiError(
                404,
                "unknown_language",
                _("Unknown language {lang} (known: {known})"),
                lang=lang[:20],
                known=", ".join(known),
            )
        if i18n is None or not hasattr(i18n, "catalog_json"):
            return {"lang": lang, "messages": {}}
        catalog: dict[str, Any] = i18n.catalog_json(lang)
        return catalog

    app.include_router(api)
    app.include_router(why_router)
    install_error_handlers(app)
    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True, check_dir=False), name="static")
    app.add_middleware(BodyLimit, reply=error_response)
    app.add_middleware(LocalOnly, reply=error_response, port=port, lan=lan)
    return app


def install_error_handlers(app: FastAPI) -> None:
    """Map every error to the JSON error body: 4xx for bad input, never a bare 500."""

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.code, exc.template, **exc.params)

    async def patience_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, PatienceError)
        status = STATUS_BY_CODE.get(exc.code, 422)
        return JSONResponse(
            {
                "error": {
                    "code": exc.code,
                    "message": str(exc),
                    "message_id": exc.template,
                    "params": {
                        k: v if isinstance(v, str | int | float | bool) or v is None else str(v)
                        for k, v in exc.params.items()
                    },
                }
            },
            status_code=status,
        )

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
        if first.get("type") == "json_invalid":
            return error_response(
                422,
                "invalid_json",
                _("The request body is not valid JSON: {details}"),
                details=str(first.get("ctx", {}).get("error", first.get("msg", ""))),
            )
        return error_response(
            422,
            "invalid_request",
            _("Invalid request: {field}: {details}"),
            field=where,
            details=str(first.get("msg", "invalid")),
        )

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400:
            # FastAPI's "error parsing the body" (bytes that are not UTF-8 JSON): the
            # contract answers every malformed body with a 422.
            return error_response(
                422,
                "invalid_json",
                _("The request body is not valid JSON: {details}"),
                details=str(exc.detail),
            )
        codes = {404: "not_found", 405: "method_not_allowed"}
        reply = error_response(
            exc.status_code,
            codes.get(exc.status_code, "http_error"),
            _("{method} {path}: {reason}"),
            method=request.method,
            path=request.url.path[:200],
            reason=str(exc.detail),
        )
        for key, value in (exc.headers or {}).items():
            reply.headers[key] = value
        return reply

    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return error_response(
            500, "internal_error", _("Internal error: {error}"), error=type(exc).__name__
        )

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[JSONResponse]]] = {
        ApiError: api_error,
        PatienceError: patience_error,
        RequestValidationError: validation_error,
        StarletteHTTPException: http_error,
        Exception: server_error,
    }
    for exc_class, handler in handlers.items():
        app.add_exception_handler(exc_class, handler)
