"""Motion and auto-play in the page: the deal flies and ends where no animation puts the
cards, a click ends it, reduced motion draws none; auto-play sends home a safe card and not
an unsafe one (and one undo takes both back); the win's cascade, skipped by a click."""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser import DESKTOP, playwright_api
from live import LiveServer, start_game
from test_api import near_won
from test_api_autoplay import safe_and_unsafe

playwright_api()
from playwright.sync_api import Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

COUNT_ANIMATIONS = """
window.__cardAnimations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.classList.contains("card")) window.__cardAnimations++;
  return animate.apply(this, args);
};
"""
"""Counts the card animations the page starts (whatever their length)."""

CARD_ANIMATIONS = (
    "document.getAnimations().filter(a => a.effect && a.effect.target"
    " && a.effect.target.classList.contains('card')).length"
)

BOXES = """() => Object.fromEntries([...document.querySelectorAll('#table .card')].map(c => {
  const r = c.getBoundingClientRect();
  return [c.dataset.pile + ':' + c.dataset.index, [r.x, r.y, r.width, r.height]];
}))"""


def open_page(
    browser: Any, url: str, *, motion: bool = True, autoplay: bool = False, **context: Any
) -> Page:
    """The page with animations on (the player's default) or off, and auto-play off (the
    default) or on, resuming the game."""
    ctx = browser.new_context(viewport=DESKTOP, **context)
    ctx.add_init_script(COUNT_ANIMATIONS)
    settings = json.dumps({"animate": motion, "autoplay": autoplay})
    ctx.add_init_script(f"localStorage.setItem('patience.settings', {json.dumps(settings)});")
    page: Page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def close(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


def new_deal(page: Page) -> None:
    """Deal anew (the game on the table has no move yet: no question asked)."""
    before = page.locator("#info .deal").text_content()
    page.locator("#btn-new").click()
    expect(page.locator("#info .deal")).not_to_have_text(before or "")


def same_boxes(a: dict[str, list[float]], b: dict[str, list[float]]) -> None:
    assert a.keys() == b.keys()
    for key, box in a.items():
        assert all(abs(x - y) <= 0.5 for x, y in zip(box, b[key], strict=True)), (key, box, b[key])


@pytest.mark.parametrize("game", ["klondike", "bakers-dozen"])
def test_the_deal_flies_and_ends_where_no_animation_puts_it(
    browser: Any, live_server: LiveServer, game: str
) -> None:
    start_game(live_server.url, {"game": game, "deal": 2})
    page = open_page(browser, live_server.url)
    # Resuming a game draws it at once; a new deal flies.
    assert page.evaluate("window.__cardAnimations") == 0
    new_deal(page)
    assert page.evaluate("window.__cardAnimations") > 20
    page.wait_for_function(f"() => {CARD_ANIMATIONS} === 0")
    animated = page.evaluate(BOXES)
    close(page)
    # The same game, drawn with the system's reduced motion.
    still = open_page(browser, live_server.url, reduced_motion="reduce")
    same_boxes(animated, still.evaluate(BOXES))
    close(still)


def test_a_click_ends_the_deal_and_is_not_lost(browser: Any, live_server: LiveServer) -> None:
    start_game(live_server.url, {"game": "klondike", "deal": 2})
    page = open_page(browser, live_server.url)
    new_deal(page)
    page.wait_for_function(f"() => {CARD_ANIMATIONS} > 0")
    # A click on the stock (where the cards fly from) ends the deal and deals a card.
    page.locator('#table .slot[data-pile="stock"]').click(force=True)
    assert page.evaluate("document.querySelectorAll('#table .card.in-flight').length") == 0
    expect(page.locator('#table .card[data-pile="waste"]')).to_have_count(1)
    close(page)


def test_a_key_ends_the_deal(browser: Any, live_server: LiveServer) -> None:
    start_game(live_server.url, {"game": "lady-jane", "deal": 2})
    page = open_page(browser, live_server.url)
    new_deal(page)
    page.wait_for_function(f"() => {CARD_ANIMATIONS} > 0")
    page.keyboard.press("Shift")
    assert page.evaluate("document.querySelectorAll('#table .card.in-flight').length") == 0
    close(page)


@pytest.mark.parametrize("how", ["reduced-motion", "setting"])
def test_no_animation_at_all_without_motion(
    browser: Any, live_server: LiveServer, how: str
) -> None:
    start_game(live_server.url, {"position": safe_and_unsafe()})
    if how == "reduced-motion":
        page = open_page(browser, live_server.url, autoplay=True, reduced_motion="reduce")
    else:
        page = open_page(browser, live_server.url, motion=False, autoplay=True)
    page.locator('#table .card[data-card="8C"]').click()
    page.locator('#table .card[data-card="9H"]').click()
    expect(page.locator('#table .card[data-card="4S"]')).to_have_attribute("data-pile", "f3")
    page.locator("#btn-new").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#info .deal")).not_to_have_text("Deal –")
    assert page.evaluate("window.__cardAnimations") == 0
    close(page)


def test_autoplay_sends_the_safe_card_home_not_the_unsafe_one(
    browser: Any, live_server: LiveServer
) -> None:
    start_game(live_server.url, {"position": safe_and_unsafe()})
    page = open_page(browser, live_server.url, autoplay=True)
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: sent.append(json.loads(r.post_data or "{}")) if r.url.endswith("/move") else None,
    )
    page.locator('#table .card[data-card="8C"]').click()
    page.locator('#table .card[data-card="9H"]').click()
    four = page.locator('#table .card[data-card="4S"]')
    expect(four).to_have_attribute("data-pile", "f3")
    expect(page.locator('#table .card[data-card="5C"]')).to_have_attribute("data-pile", "t4")
    assert sent == [{"move": "t2>t3", "autoplay": True}]
    # The card went home by an animation of its own, and ends at its foundation's place.
    page.wait_for_function(f"() => {CARD_ANIMATIONS} === 0")
    f3 = page.locator('#table .slot[data-pile="f3"]').bounding_box()
    box = four.bounding_box()
    assert f3 and box and abs(box["x"] - f3["x"]) < 1 and abs(box["y"] - f3["y"]) < 1
    # One undo takes back the player's move and the card auto-play sent home.
    page.locator("#btn-undo").click()
    expect(four).to_have_attribute("data-pile", "t1")
    expect(page.locator('#table .card[data-card="8C"]')).to_have_attribute("data-pile", "t2")
    expect(page.locator("#btn-undo")).to_be_disabled()
    close(page)


def test_autoplay_is_off_until_chosen(browser: Any, live_server: LiveServer) -> None:
    start_game(live_server.url, {"position": safe_and_unsafe()})
    page = open_page(browser, live_server.url, motion=False)
    page.locator('#table .card[data-card="8C"]').click()
    page.locator('#table .card[data-card="9H"]').click()
    expect(page.locator('#table .card[data-card="8C"]')).to_have_attribute("data-pile", "t3")
    expect(page.locator('#table .card[data-card="4S"]')).to_have_attribute("data-pile", "t1")
    page.locator("#btn-settings").click()
    page.locator("#setting-autoplay").check()
    page.keyboard.press("Escape")
    # The next move is followed by the safe one.
    page.locator('#table .card[data-card="5C"]').dblclick()
    expect(page.locator('#table .card[data-card="5C"]')).to_have_attribute("data-pile", "f1")
    expect(page.locator('#table .card[data-card="4S"]')).to_have_attribute("data-pile", "f3")
    close(page)


def win(page: Page) -> None:
    page.locator('#table .card[data-card="KC"]').dblclick()


def test_a_win_cascades_and_a_click_ends_it(browser: Any, live_server: LiveServer) -> None:
    start_game(live_server.url, {"position": near_won()})
    page = open_page(browser, live_server.url)
    win(page)
    cascade = page.locator("canvas.cascade")
    expect(cascade).to_have_count(1)
    expect(page.locator("#result-dialog[open]")).to_have_count(0)
    page.mouse.click(300, 300)
    expect(cascade).to_have_count(0)
    expect(page.locator("#result-dialog[open]")).to_have_count(1)
    close(page)


def test_a_win_cascade_ends_by_itself_with_the_result(
    browser: Any, live_server: LiveServer
) -> None:
    """Left alone, the cascade stops in at most 9 s (cascade.js's LONGEST), then the
    result opens (the tours of test_i18n_browser end theirs by a click)."""
    start_game(live_server.url, {"position": near_won()})
    page = open_page(browser, live_server.url)
    win(page)
    cascade = page.locator("canvas.cascade")
    expect(cascade).to_have_count(1)
    expect(page.locator("#result-dialog[open]")).to_have_count(1)
    expect(cascade).to_have_count(0)
    close(page)


def test_a_win_without_motion_has_no_cascade(browser: Any, live_server: LiveServer) -> None:
    start_game(live_server.url, {"position": near_won()})
    page = open_page(browser, live_server.url, reduced_motion="reduce")
    win(page)
    expect(page.locator("#result-dialog[open]")).to_have_count(1)
    assert page.locator("canvas.cascade").count() == 0
    close(page)
