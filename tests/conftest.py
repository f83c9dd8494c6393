"""The fixtures the test modules share: an in-process API client, a live server, headless
Chromium, a fresh page."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, NO_ANIMATION, require_chromium
from live import LiveServer


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's command): two workers more than the cores. Much of the
    suite waits rather than computes (pages loading and settling in Chromium, servers
    and worker processes starting, timeouts), so one worker a core left two idle cores
    busy little more than half the run: 436 s of pytest for about 500 CPU s (issue 57)."""
    return len(os.sched_getaffinity(0)) + 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """The app over a fresh data folder, called in process as from http://localhost."""
    from starlette.testclient import TestClient

    from patience.web.app import create_app

    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        yield c


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server (uvicorn in a thread of this process, so that it knows every game
    registered here, the toy game included) on a free port over a fresh data folder, for
    the module's tests. ``patience serve`` itself is tested apart (test_api_server)."""
    with LiveServer(tmp_path_factory.mktemp("data"), in_process=True) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium, for the module's tests."""
    require_chromium()
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: browser tests skipped"
    )
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop-sized page (its own storage), animations off; page errors fail."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_ANIMATION)
    fresh = context.new_page()
    errors: list[str] = []
    fresh.on("pageerror", lambda exc: errors.append(str(exc)))
    yield fresh
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


# The toy game (tests/toy_game.py) is registered for the whole run: every test that goes
# over the registry checks it as it checks the real games.
from patience.games import GAMES, register  # noqa: E402
from toy_game import ToyCourt  # noqa: E402

if ToyCourt.name not in GAMES:
    register(ToyCourt)
