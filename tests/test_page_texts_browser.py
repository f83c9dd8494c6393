"""Every dialog, panel and status message the page can show, in English, Spanish and French,
read as a player reads it (the visible text): none says "null", "undefined", "NaN" or
"[object ...]". The won dialog wrote "null" after every win without help (issue 54)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser import DESKTOP, NO_ANIMATION, card, drag, playwright_api
from engine_builders import near_won_klondike
from live import LiveServer

sync_api = playwright_api()
expect = sync_api.expect
pytestmark = pytest.mark.browser

Page = Any

LOCALES = {"en": "en-GB", "es": "es-ES", "fr": "fr-FR"}
BROKEN = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object", re.IGNORECASE)

READ = """() => {
  const seen = (e) => e && e.offsetParent !== null || (e && e.tagName === 'DIALOG' && e.open);
  const parts = [];
  for (const sel of ['#toolbar', '#info', '#status', '#table']) {
    const e = document.querySelector(sel);
    if (seen(e)) parts.push(sel + ': ' + e.innerText);
  }
  for (const d of document.querySelectorAll('dialog[open]')) {
    parts.push('#' + d.id + ': ' + d.innerText);
  }
  // What a pointer or a screen reader gets of the buttons too.
  for (const b of document.querySelectorAll('button, [title]')) {
    for (const a of ['title', 'aria-label']) {
      if (b.getAttribute(a)) parts.push(a + ': ' + b.getAttribute(a));
    }
  }
  return parts.join('\\n');
}"""


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # A server for each language: one tour ends on a Klondike deal with the winnable
    # indicator on, whose search could still hold a solver slot when the next tour on the
    # same server asked for its first hint ("the solver is busy", twice in CI under load).
    with LiveServer(tmp_path_factory.mktemp("data"), in_process=True) as live:
        yield live


def near_won() -> dict[str, Any]:
    """Klondike with only the four Kings left, one per tableau pile."""
    return {"game": "klondike", "position": near_won_klondike()}


def nearly_stuck() -> dict[str, Any]:
    """Hopscotch whose last stock card, put on a reserve, leaves no move (test_e2e's)."""
    ranks = "A23456789TJQK"
    deck = [r + s for s in "CDHS" for r in ranks if not (s == "C" and r in "A234")]
    tops = ["KD", "KH", "KS", "KC"]
    rest = [c for c in deck if c not in tops and c != "QH"]
    return {
        "game": "hopscotch",
        "position": {
            "game": "hopscotch",
            "options": {},
            "stock": ["QH"],
            "waste": [],
            "foundations": [["AC"], ["2C"], ["3C"], ["4C"]],
            "reserve": [rest[i::4] + [tops[i]] for i in range(4)],
        },
    }


class Reader:
    """The page of one language, and every text it was seen to show."""

    def __init__(self, page: Page, server: LiveServer) -> None:
        self.page = page
        self.server = server
        self.seen: list[tuple[str, str]] = []

    def read(self, what: str) -> None:
        self.page.wait_for_timeout(50)  # a status set after the reply: let it land
        self.seen.append((what, str(self.page.evaluate(READ))))

    def dialog(self, opener: str, dialog: str, what: str) -> None:
        self.page.click(opener)
        self.page.locator(f"{dialog}[open]").wait_for()
        self.read(what)
        self.page.keyboard.press("Escape")
        self.page.wait_for_selector(dialog, state="hidden")

    def load(self, body: dict[str, Any]) -> None:
        reply = self.page.request.post(self.server.url + "/api/games", data=body)
        assert reply.status == 201, reply.text()
        self.page.reload()
        self.page.wait_for_selector("body[data-ready=true]")
        self.read(f"welcome back to {body['game']}")


def wait_for_hint(page: Any) -> None:
    """The hint on the status line; if none comes, what the status line says instead (a
    refusal, such as the solver busy under the suite's load, names its cause)."""
    try:
        page.wait_for_selector("#status[data-kind=hint]")
    except Exception as exc:
        status = page.eval_on_selector("#status", "e => e.dataset.kind + ': ' + e.textContent")
        raise AssertionError(f"no hint after H; the status line says {status!r}") from exc


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_no_dialog_panel_or_message_shows_null_undefined_or_nan(
    browser: Any, server: LiveServer, lang: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    # Animations off at first only: the settings chosen later must survive a reload.
    context.add_init_script(f'if (!localStorage.getItem("patience.settings")) {{ {NO_ANIMATION} }}')
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    r = Reader(page, server)
    try:
        page.goto(server.url)
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        r.read("a first deal")

        # A win without help: the fair hint, then Finish.
        r.load(near_won())
        page.keyboard.press("h")
        wait_for_hint(page)
        r.read("the fair hint")
        page.keyboard.press("Escape")
        page.dblclick('#table .slot[data-pile="f1"]', force=True)
        page.locator("#result-dialog[open]").wait_for()
        r.read("won without help")
        page.keyboard.press("Escape")
        r.dialog("#btn-stats", "#stats-dialog", "statistics")
        r.dialog("#btn-help", "#help-dialog", "how to play")

        # Everything the solver may offer when it may look at the face-down cards.
        page.click("#btn-settings")
        page.locator("#settings-dialog[open]").wait_for()
        r.read("settings")
        for box in ("peek", "showChance", "showWinnable"):
            page.locator(f"#setting-{box}").check()
        r.read("settings, all on")
        page.keyboard.press("Escape")

        # A win with help: Show me.
        r.load(near_won())
        page.wait_for_selector("#info .winnable")
        r.read("the winnable indicator and the chance")
        page.keyboard.press("h")
        page.wait_for_selector("#status[data-kind=hint]")
        r.read("the proven hint")
        page.click("#btn-showme")
        page.locator("#result-dialog[open]").wait_for(timeout=30_000)
        r.read("won with help")
        page.keyboard.press("Escape")

        # The statistics with a win and an assisted win, and the confirmation to reset.
        page.click("#btn-stats")
        page.locator("#stats-dialog[open]").wait_for()
        r.read("statistics after two wins")
        page.click("#stats-reset-all")
        page.locator("#confirm-dialog[open]").wait_for()
        r.read("confirm reset")
        page.keyboard.press("Escape")
        page.wait_for_selector("#confirm-dialog", state="hidden")

        # No moves left, then rewound; a refused move; a lost position's hint.
        r.load(nearly_stuck())
        page.keyboard.press("d")
        expect(card(page, "QH")).to_have_attribute("data-pile", "waste")
        r.read("a deal")
        drag(page, card(page, "QH"), page.locator('#table .slot[data-pile="r1"]'))
        page.locator("#result-dialog[open]").wait_for()
        r.read("no moves left")
        page.click("#result-undo")
        r.read("undone")
        page.click('.card[data-card="QH"]')
        page.click('.slot[data-pile="f1"]', force=True)
        page.wait_for_selector("#status[data-kind=error]")
        r.read("a refused move")
        page.keyboard.press("h")
        expect(page.locator("#status-rewind")).to_be_visible()
        r.read("a lost position's hint")
        page.click("#status-rewind")
        page.wait_for_function(
            "() => !document.querySelector('#status-rewind')"
            " && !document.body.classList.contains('busy')"
        )
        r.read("rewound")

        # A game in progress: a new deal asks first.
        r.load({"game": "klondike", "deal": 5})
        page.keyboard.press("d")
        expect(page.locator("#btn-undo")).to_be_enabled()
        page.keyboard.press("n")
        page.locator("#confirm-dialog[open]").wait_for()
        r.read("confirm a new deal")
        page.keyboard.press("Escape")

        # The new game dialog, each game's options, and the deal of the day.
        page.click("#btn-game")
        page.locator("#new-game-dialog[open]").wait_for()
        for game in ("klondike", "lady-jane", "bakers-dozen", "hopscotch"):
            page.select_option("#new-game-game", game)
            r.read(f"new game: {game}")
        page.select_option("#new-game-game", "hopscotch")
        page.fill("#new-game-deal", "x")
        page.click("#new-game-start")
        r.read("a deal number refused")
        page.click("#new-game-daily")
        page.locator("#confirm-dialog[open]").wait_for()  # the game in progress counts as lost
        r.read("confirm leaving a game in progress")
        page.click("#confirm-ok")
        page.wait_for_function(
            "() => !document.body.classList.contains('busy')"
            " && document.querySelector('#info .deal').textContent.includes('2')",
            timeout=120_000,
        )
        r.read("the deal of the day")

        # Errors: the server unreachable, and a reply that is not the API's.
        page.route("**/api/games/*/move", lambda route: route.abort())
        page.keyboard.press("d")
        page.wait_for_selector("#status[data-kind=error]")
        r.read("the server unreachable")
        page.unroute("**/api/games/*/move")
        page.route(
            "**/api/games/*/move",
            lambda route: route.fulfill(status=500, body="oops", content_type="text/plain"),
        )
        page.keyboard.press("d")
        page.wait_for_function(
            "() => document.querySelector('#status').dataset.kind === 'error'"
            " && !document.body.classList.contains('busy')"
        )
        r.read("a server error")
        page.unroute("**/api/games/*/move")
    finally:
        context.close()
    lines = [(what, line) for what, text in r.seen for line in text.splitlines()]
    bad = [f"{what}: {line}" for what, line in lines if BROKEN.search(line)]
    if lang != "en":  # "41 %" broke between the number and its sign: a no-break space
        bad += [f"{what}: {line}" for what, line in lines if re.search(r"\d %", line)]
    assert not bad, bad
    assert not errors, errors
    assert len(r.seen) > 25
