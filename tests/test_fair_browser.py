"""No leak to the browser (issue 16), in a real browser against the real server: every
reply the page receives over whole games of each game (deals, moves that turn cards,
undo, redo, restart, hints) is checked for the name of a card the player has not seen,
the unseen cards found from the server's own saved session of the game at that moment."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from browser import DESKTOP, NO_ANIMATION
from fair_leaks import hides_cards, leaks, unseen
from live import LiveServer
from patience.games import GAMES
from patience.session import Session
from patience.store import Store

pytestmark = pytest.mark.browser
Page = Any


RECORD = """
window.__replies = [];
const realFetch = window.fetch;
window.fetch = async (...args) => {
  const res = await realFetch(...args);
  if (res.url.includes("/api/")) {
    const text = await res.clone().text();
    window.__replies.push([res.url, (args[1] && args[1].method) || "GET", res.ok, text]);
  }
  return res;
};
"""
"""Every API reply the page's code receives, body and all (read before the page sees it)."""


class Watch:
    """The page's API replies, checked after each action against the saved session."""

    def __init__(self, page: Page, data_dir: Path) -> None:
        self.page = page
        self.store = Store(data_dir)
        self.checked = 0
        self.hidden = 0
        self.view: dict[str, Any] = {}

    def act(self, action: Any) -> None:
        """Do ``action``, wait until the page has its replies, and check them."""
        action()
        self.page.wait_for_function("window.__replies && window.__replies.length > 0")
        self.check()

    def check(self) -> None:
        gid = self.store.current_id()
        assert gid is not None
        record = self.store.get_game(gid)
        assert record is not None
        hidden = unseen(Session.from_json(record.session))
        replies = self.page.evaluate("window.__replies.splice(0)")
        for url, method, ok, text in replies:
            if url.endswith("/api/games") and method == "GET":
                continue  # the game list: every game's help sample (tested in the API test)
            found = leaks(text, hidden)
            assert not found, f"{url} names unseen {sorted(found)}: {text[:300]}"
            self.checked += 1
            self.hidden += bool(hidden)
            body = json.loads(text) if text else None
            if ok and isinstance(body, dict) and "legal_moves" in body:
                self.view = body


def send(page: Page, method: str, path: str, body: Any = None) -> None:
    """A request from the page, as its own code sends them."""
    page.evaluate(
        """([method, path, body]) => fetch(`/api${path}`, {method,
            headers: {"Content-Type": "application/json"},
            body: body === null ? undefined : JSON.stringify(body)})""",
        [method, path, body],
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_the_page_never_receives_a_card_the_player_has_not_seen(
    live_server: LiveServer, browser: Any, game: str
) -> None:
    server = live_server
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_ANIMATION)
    context.add_init_script(RECORD)
    page = context.new_page()
    watch = Watch(page, server.data_dir)
    rng = random.Random(game)
    for deal in (3, 4):
        server.api("POST", "/games", {"game": game, "options": {}, "deal": deal})
        page.goto(server.url)
        page.wait_for_selector("body[data-ready=true]")
        watch.check()
        gid = watch.view["id"]
        for step in range(40):
            roll = rng.random()
            legal = watch.view.get("legal_moves", [])
            request: tuple[str, str, Any]
            if roll < 0.7 and legal:
                request = ("POST", f"/games/{gid}/move", {"move": rng.choice(legal)})
            elif roll < 0.9:
                action = "undo" if roll < 0.8 else "redo" if roll < 0.87 else "restart"
                request = ("POST", f"/games/{gid}/{action}", None)
            else:
                request = ("GET", f"/games/{gid}/hint", None)
            watch.act(lambda r=request: send(page, *r))
            if step % 10 == 9:  # the page draws the game as it is now
                page.reload()
                page.wait_for_selector("body[data-ready=true]")
                watch.check()
    context.close()
    assert watch.checked > 60
    if hides_cards(game):
        assert watch.hidden > 40
