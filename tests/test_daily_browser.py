"""The deal of the day and the statistics reset in a real browser (Playwright + Chromium):
mouse on a desktop, touch on a phone, the keyboard; English, Spanish and French. A reset
asks first, Cancel changes nothing, and the game in progress is never lost."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

import pytest

from browser import DESKTOP, PHONE, playwright_api
from live import HTTP, LiveServer, start_game
from patience import daily

sync_api = playwright_api()
expect = sync_api.expect
pytestmark = pytest.mark.browser
Page = Any

WORDS = {
    "en": {"reset": "Reset", "daily": "Deal of the day", "streak": "Deal of the day streak"},
    "es": {"reset": "Reiniciar", "daily": "Partida del día", "streak": "Racha de partidas del día"},
    "fr": {"reset": "Réinitialiser", "daily": "Donne du jour", "streak": "Série de donnes du jour"},
}
ZONE = "Pacific/Kiritimati"
"""UTC+14: the page's date is the player's, often not the server's."""


def api(url: str, method: str, path: str, body: Any = None) -> Any:
    reply = HTTP.request(method, url + "/api" + path, json=body, timeout=60)
    assert reply.status_code < 300, reply.text
    return None if reply.status_code == 204 else reply.json()


def played(url: str) -> dict[str, int]:
    rows = api(url, "GET", "/stats")["stats"]
    return {f"{s['game']} {sorted(s['options'].values())}": s["played"] for s in rows}


def seed(url: str) -> str:
    """Results of Klondike (draw one) and Hopscotch, and a Lady Jane game in progress with one
    move made: its id."""
    api(url, "POST", "/games", {"game": "hopscotch", "options": {}, "deal": 99})  # ends the last
    api(url, "POST", "/stats/reset", {})
    for game, deal in (("klondike", 1), ("klondike", 2), ("hopscotch", 3), ("lady-jane", 4)):
        view = api(url, "POST", "/games", {"game": game, "options": {}, "deal": deal})
        api(url, "POST", f"/games/{view['id']}/move", {"move": view["legal_moves"][0]})
    gid: str = view["id"]
    return gid


def open_page(browser: Any, url: str, lang: str, phone: bool = False) -> Page:
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        has_touch=phone,
        is_mobile=phone,
        timezone_id=ZONE,
    )
    context.add_init_script(
        "localStorage.setItem('patience.settings', JSON.stringify({animate: false}));"
        f"localStorage.setItem('patience.lang', '{lang}');"
    )
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on(
        "console",
        lambda m: page.problems.append(m.text) if m.type in ("error", "warning") else None,
    )
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def press(page: Page, selector: str, how: str) -> None:
    """Use a button with the mouse, a finger or the keyboard."""
    target = page.locator(selector)
    if how == "touch":
        target.tap()
    elif how == "keyboard":
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()


@pytest.mark.parametrize(
    ("lang", "how", "phone"),
    [("en", "mouse", False), ("es", "touch", True), ("fr", "keyboard", False)],
)
def test_reset_asks_first_and_loses_nothing_else(
    browser: Any, live_server: LiveServer, lang: str, how: str, phone: bool
) -> None:
    url = live_server.url
    gid = seed(url)
    before = api(url, "GET", "/current")
    page = open_page(browser, url, lang, phone)
    try:
        press(page, "#btn-stats", how)
        sections = page.locator("#stats-dialog section.stat")
        expect(sections).to_have_count(2)
        expect(page.locator("#stats-dialog")).to_contain_text(WORDS[lang]["streak"])
        klondike = page.locator("#stats-dialog section.stat[data-game=klondike] .stat-reset")
        expect(klondike).to_have_text(WORDS[lang]["reset"])
        # Cancel: nothing forgotten.
        press(page, "#stats-dialog section.stat[data-game=klondike] .stat-reset", how)
        expect(page.locator("#confirm-dialog")).to_be_visible()
        press(page, "#confirm-dialog button:not(.primary)", how)
        expect(page.locator("#confirm-dialog")).to_be_hidden()
        assert played(url) == {"hopscotch []": 1, "klondike ['single']": 2}
        # Confirm: Klondike's forgotten, Hopscotch's kept.
        press(page, "#stats-dialog section.stat[data-game=klondike] .stat-reset", how)
        press(page, "#confirm-ok", how)
        expect(sections).to_have_count(1)
        assert played(url) == {"hopscotch []": 1}
        # Every game's: the list is empty, the game in progress is still there.
        press(page, "#stats-reset-all", how)
        press(page, "#confirm-ok", how)
        expect(sections).to_have_count(0)
        assert played(url) == {}
        after = api(url, "GET", "/current")
        assert after["id"] == gid
        assert (after["moves_made"], after["position"]) == (
            before["moves_made"],
            before["position"],
        )
        assert page.problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("lang", "how", "phone"),
    [("en", "keyboard", False), ("es", "mouse", False), ("fr", "touch", True)],
)
def test_the_deal_of_the_day_from_the_new_game_dialog(
    browser: Any, live_server: LiveServer, lang: str, how: str, phone: bool
) -> None:
    url = live_server.url
    start_game(url, {"game": "klondike", "deal": 7})  # not begun: no confirmation asked
    today = datetime.datetime.now(zoneinfo.ZoneInfo(ZONE)).date()
    page = open_page(browser, url, lang, phone)
    try:
        press(page, "#btn-game", how)
        page.select_option("#new-game-game", "hopscotch")
        daily_button = page.locator("#new-game-daily")
        expect(daily_button).to_have_text(WORDS[lang]["daily"])
        press(page, "#new-game-daily", how)
        expect(page.locator("#info .deal")).to_contain_text(WORDS[lang]["daily"])
        view = api(url, "GET", "/current")
        assert view["game"] == "hopscotch" and view["daily"] == today.isoformat()
        assert view["deal"] == daily.daily_deal(today, "hopscotch", {})
        # The info bar shows the date in the player's language.
        shown = page.locator("#info .deal").inner_text()
        assert str(today.year) in shown and str(today.day) in shown
        assert page.problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("zone", "now", "today"),
    [
        # UTC+14: already the 7th there while it is the 6th in UTC.
        ("Pacific/Kiritimati", "2026-12-06T11:30:00+00:00", "2026-12-07"),
        # UTC-11: still the 6th there while it is the 7th in UTC.
        ("Pacific/Pago_Pago", "2026-12-07T09:00:00+00:00", "2026-12-06"),
        # UTC+13, a minute before midnight: not the next day yet.
        ("Pacific/Auckland", "2026-12-06T10:59:00+00:00", "2026-12-06"),
    ],
)
def test_the_deal_of_the_day_is_the_player_s_today(
    browser: Any, live_server: LiveServer, zone: str, now: str, today: str
) -> None:
    """The page offers, asks for and shows the deal of the player's own date, whatever
    the date in UTC, and never a date after it (issue 54: "December 7" on 6 December)."""
    context = browser.new_context(viewport=DESKTOP, timezone_id=zone, locale="en-GB")
    context.add_init_script("localStorage.setItem('patience.settings', '{\"animate\": false}');")
    page = context.new_page()
    sent: list[Any] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/games")
            else None
        ),
    )
    try:
        page.clock.install(time=datetime.datetime.fromisoformat(now))
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        day = datetime.date.fromisoformat(today)
        label = f"December {day.day}, {day.year}"
        page.click("#btn-game")
        expect(page.locator("#new-game-daily")).to_have_attribute("title", label)
        page.select_option("#new-game-game", "hopscotch")
        page.click("#new-game-daily")
        if page.locator("#confirm-dialog[open]").count():
            page.click("#confirm-ok")
        expect(page.locator("#info .deal")).to_have_text(
            f"Deal of the day, Dec {day.day}, {day.year}"
        )
        assert [body["daily"] for body in sent if body.get("daily")] == [today]
        view = api(live_server.url, "GET", "/current")
        assert view["daily"] == today
    finally:
        context.close()
