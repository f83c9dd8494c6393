"""The page's first requests leave while its modules still load (issue #17: the first
playable board under a second), in a real browser (Playwright + Chromium).

app.js, the module that draws the table, is held back by the test: the game in
progress, the games and the translations are asked for all the same, by early.js, and
each once: app.js takes those replies instead of asking again."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser import DESKTOP, playwright_api
from live import LiveServer, start_game

playwright_api()
pytestmark = pytest.mark.browser

FIRST = ["/api/current", "/api/games", "/api/messages/en"]


def test_the_first_requests_leave_before_app_js_arrives(
    browser: Any, live_server: LiveServer
) -> None:
    start_game(live_server.url, {"game": "klondike", "deal": 7})
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    held: list[Any] = []
    page.route("**/app.js", lambda route: held.append(route))  # answered once they left
    asked: list[str] = []
    page.on("request", lambda r: asked.append(urlsplit(r.url).path))
    page.goto(live_server.url + "/", wait_until="commit")
    deadline = time.monotonic() + 30  # a generous bound for a busy machine, not a timing
    while not set(FIRST) <= set(asked) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert set(FIRST) <= set(asked), asked
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#table .card").count() == 52
    assert [asked.count(path) for path in FIRST] == [1, 1, 1], asked
    page.close()
