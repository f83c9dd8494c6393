"""The page under its Content-Security-Policy, in a real browser (Playwright + Chromium):
it loads, plays, opens every panel and wins with no script, style or image refused.

A refused inline style or script would break the page silently for the player; Chromium
reports each refusal as a ``securitypolicyviolation`` event and a console message."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser import playwright_api
from engine_builders import near_won_klondike
from live import LiveServer, start_game

sync_api = playwright_api()
expect = sync_api.expect
pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} at ${where}`);
});
localStorage.setItem("patience.settings", JSON.stringify({animate: false}));
"""


@pytest.fixture(scope="module")
def url(live_server: LiveServer) -> str:
    """The module's live server."""
    return live_server.url


def test_the_page_plays_under_its_policy_with_nothing_refused(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(WATCH)
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    reply = page.goto(url + "/")
    assert reply is not None
    assert "script-src 'self'" in reply.headers["content-security-policy"]
    page.wait_for_selector("body[data-ready=true]")
    # The card symbols are out of the flow by the style sheet, as they were inline.
    position = "getComputedStyle(document.querySelector('svg.card-defs')).position"
    assert page.evaluate(position) == "absolute"
    # A few moves: deal, undo, redo, a hint, a card moved by click.
    page.locator('#table .slot[data-pile="stock"]').click(force=True)
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    page.locator("#btn-undo").click()
    expect(page.locator("#info .stock")).to_have_text("Stock 24")
    page.locator("#btn-redo").click()
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    page.locator("#btn-hint").click()
    expect(page.locator("#status")).to_have_attribute("data-kind", "hint")
    # Every panel: help (its own style sheet), settings, statistics, new game.
    page.locator("#btn-help").click()
    page.keyboard.press("Escape")
    page.locator("#btn-settings").click()
    page.keyboard.press("Escape")
    page.locator("#btn-stats").click()
    page.keyboard.press("Escape")
    page.locator("#lang-select").select_option("fr")
    expect(page.locator("#btn-undo")).not_to_have_attribute("aria-label", "Undo")
    page.locator("#lang-select").select_option("en")
    # A game won: the result dialog.
    start_game(url, {"game": "klondike", "position": near_won_klondike()})
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.locator('#table .card[data-card="KH"]').dblclick()
    page.locator("#status-finish").click()
    expect(page.locator("#result-dialog")).to_be_visible()

    violations = page.evaluate("window.__violations")
    page.close()
    refused = [m for m in console if re.search(r"Content.Security.Policy|Refused to", m)]
    assert not violations, violations
    assert not refused, refused
    assert not errors, errors
