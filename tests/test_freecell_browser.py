"""FreeCell in the browser: a card dragged into a free cell, out of it onto a cascade,
tapped into a cell, and refused by a full one (deal 1, Microsoft's)."""

from __future__ import annotations

import pytest

from browser import card, drag, open_game, playwright_api
from live import LiveServer

sync_api = playwright_api()
expect = sync_api.expect
Page = sync_api.Page
pytestmark = pytest.mark.browser


def test_free_cells_take_a_card_and_give_it_back(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "freecell", "deal": 1})
    # 6S (t1's top) fits no cascade: the four empty free cells light up.
    drag(
        page,
        card(page, "6S"),
        page.locator('#table .slot[data-pile="r1"]'),
        ["r1", "r2", "r3", "r4"],
    )
    expect(card(page, "6S")).to_have_attribute("data-pile", "r1")
    # Tap TC (t8's top), then the second free cell.
    card(page, "TC").click()
    page.locator('#table .slot[data-pile="r2"]').click()
    expect(card(page, "TC")).to_have_attribute("data-pile", "r2")
    # 6S leaves its cell for 7D, uncovered on t8.
    drag(page, card(page, "6S"), card(page, "7D"))
    expect(card(page, "6S")).to_have_attribute("data-pile", "t8")
    expect(page.locator("#info .moves")).to_have_text("3 moves")
    # A full free cell refuses a card, and says why.
    drag(page, card(page, "9C"), card(page, "TC"), check_targets=None)
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    expect(page.locator("#status")).to_contain_text("Free cell 2 is full")
    expect(card(page, "9C")).to_have_attribute("data-pile", "t2")
