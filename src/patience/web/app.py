"""The FastAPI application: the JSON API under /api and the static front end at /.

The app is declared as data: the routers of ``routes/`` (one per concept), a map of
exception handlers, the middlewares of ``security`` (foreign Host and Origin, oversized
bodies). Rules live in the engine; ``service.Service`` applies them and saves every
change before the reply. What the routers work with is built here once and kept in the
app's state (``deps``).

Nothing slow runs on the event loop: store and service calls run in worker threads of
their own (a locked database stalls only the requests that wait for it), and solver
searches in ``solver_pool``'s worker processes, so that the page, its files and the
moves stay fast under any number of hint requests.
"""

from __future__ import annotations

import mimetypes
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path as FilePath

from fastapi import APIRouter, FastAPI

from .. import fair_assist
from ..fair import Settings
from ..games import GAMES
from ..store import Store
from . import solver_pool
from .deps import HelpLimits, share
from .errors import error_response, install_error_handlers
from .routes import catalog, games, help, messages, play, stats, why
from .security import BodyLimit, LocalOnly
from .service import IDLE_CAP, Service
from .solver_pool import SolverPool
from .static_files import NotServed, StaticFiles

STATIC_DIR = FilePath(__file__).resolve().parent / "static"
HINT_TIMEOUT = 2.0
CHANCE_TIMEOUT = 3.0

ROUTERS: tuple[APIRouter, ...] = (
    catalog.router,
    games.router,
    play.router,
    help.router,
    stats.router,
    messages.router,
    why.router,
)
"""The API's routers, in the order the schema lists their paths."""

# Some systems map .js to text/plain, which browsers refuse for ES modules.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")
# The web app manifest (what lets a phone add the game to its home screen).
mimetypes.add_type("application/manifest+json", ".webmanifest")


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: when it ends, the solver's workers and the store end with it."""
    try:
        yield
    finally:
        app.state.solvers.close()
        app.state.store.close()


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
    app = FastAPI(
        title="patience",
        version="0.1.0",
        summary="Solitaire in the browser: " + ", ".join(g.title for g in GAMES.values()) + ".",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    service = Service(Store(data_dir), idle_cap=idle_cap, clock=clock)
    limits = HelpLimits(hint_timeout, chance_timeout, hint_settings, chance_settings)
    share(app.state, service, SolverPool(solver_pool.SOLVER_SLOTS), limits)
    for router in ROUTERS:
        app.include_router(router)
    install_error_handlers(app)
    app.router.default = NotServed(STATIC_DIR)
    app.add_middleware(StaticFiles, directory=STATIC_DIR)
    app.add_middleware(BodyLimit, reply=error_response)
    app.add_middleware(LocalOnly, reply=error_response, port=port, lan=lan)
    return app
