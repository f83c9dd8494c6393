"""A deal number past 2^53 (the page takes up to 20 digits, as the command line does) is
shown and played exactly: JSON numbers in JavaScript round there, so the page keeps such
an integer as its digits (issue 54)."""

from __future__ import annotations

from typing import Any

import pytest

from browser import open_game, playwright_api
from live import LiveServer

playwright_api()

pytestmark = pytest.mark.browser

BIG = 98765432109876543210  # rounds to 98765432109876540000 as a JavaScript number


def test_a_big_deal_number_is_shown_and_restarted_exactly(
    page: Any, live_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    view = open_game(page, live_server, {"game": "klondike", "deal": BIG})
    assert view["deal"] == BIG
    expect(page.locator("#info .deal")).to_contain_text(str(BIG))
    dealt = page.evaluate("async () => (await (await import('/api.js')).currentGame()).deal")
    assert str(dealt) == str(BIG)
