"""The page in English, Spanish and French, in a real browser (Playwright + Chromium):
the language menu, the remembered choice, the browser's language, a server error in the
status line, card names for screen readers, and the "How to play" panel.

tools/help_screenshots.py makes docs/help-{en,es,fr}.png.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import allow_peeking, drag, playwright_api
from engine_builders import near_won_klondike
from live import LiveServer
from patience import i18n
from patience.games import GAMES

sync_api = playwright_api()
pytestmark = pytest.mark.browser

Page = Any  # playwright's Page; typed loosely to keep the import optional
DOCS = Path(__file__).resolve().parent.parent / "docs"

# What each language must show. Klondike deal 1 has the Queen of hearts alone on t1,
# so sending it to the empty f1 is refused with the "cannot start" reason.
EXPECT = {
    "en": {
        "undo": "Undo",
        "help": "How to play Klondike",
        "error": "Queen of hearts cannot start foundation 1: only Aces start it",
        "queen": "Queen of hearts",
        "lady_jane": "Lady Jane",
        "bakers_dozen": "Baker's Dozen",
        "hopscotch": "Hopscotch",
        "setup": "Setup",
        "strategy": "Strategy",
        "reserves": "Reserves",
        "close": "Close help",
        "locale": "en-GB",
    },
    "es": {
        "undo": "Deshacer",
        "help": "Cómo se juega a Klondike",
        "error": "Reina de corazones no puede empezar la fundación 1: solo la empiezan Ases",
        "queen": "Reina de corazones",
        "lady_jane": "Dama Jane",
        "bakers_dozen": "Docena del panadero",
        "hopscotch": "Rayuela",
        "setup": "Preparación",
        "strategy": "Estrategia",
        "reserves": "Reservas",
        "close": "Cerrar la ayuda",
        "locale": "es-MX",
    },
    "fr": {
        "undo": "Annuler",
        "help": "Comment jouer à Klondike",
        "error": "Dame de cœur ne peut pas commencer la fondation 1, réservée aux As",
        "queen": "Dame de cœur",
        "lady_jane": "Mademoiselle Jane",
        "bakers_dozen": "Douzaine du boulanger",
        "hopscotch": "Marelle",
        "setup": "Mise en place",
        "strategy": "Stratégie",
        "reserves": "Réserves",
        "close": "Fermer l'aide",
        "locale": "fr-CA",
    },
}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server (uvicorn in a thread) over a fresh data folder."""
    with LiveServer(tmp_path_factory.mktemp("data"), in_process=True) as server:
        yield server.url


def open_page(
    browser: Any,
    base_url: str,
    locale: str = "en-US",
    game: dict[str, Any] | None = None,
    **context: Any,
) -> Page:
    """A fresh profile (empty localStorage) on a Klondike deal 1 (or ``game``), ready to play.

    ``page._errors`` collects the page's uncaught errors; ``page._console`` its console
    errors and warnings (a failed request, a message the catalog lacks).
    """
    ctx = browser.new_context(locale=locale, viewport={"width": 1100, "height": 820}, **context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page._errors = errors
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page._console = console
    body = game or {"game": "klondike", "options": {}, "deal": 1}
    reply = page.request.post(base_url + "/api/games", data=body)
    assert reply.status == 201, reply.text()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def choose_language(page: Page, lang: str) -> None:
    page.select_option("#lang-select", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def undo_label(page: Page) -> str:
    return str(page.inner_text("#btn-undo .label")).strip()


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_language_menu_switches_page_help_and_errors(
    browser: Any, base_url: str, lang: str
) -> None:
    want = EXPECT[lang]
    page = open_page(browser, base_url, locale="de-DE" if lang != "en" else "fr-FR")
    try:
        choose_language(page, lang)
        # The page: toolbar, card names read by screen readers, the menu itself.
        page.wait_for_function(
            "(t) => document.querySelector('#btn-undo .label').textContent.trim() === t",
            arg=want["undo"],
        )
        assert page.get_attribute(".card[data-card=QH]", "aria-label") == want["queen"]
        assert page.input_value("#lang-select") == lang
        assert page.evaluate("localStorage.getItem('patience.lang')") == lang

        # A refusal from the server, in the status line.
        page.click(".card[data-card=QH]")
        page.click(".slot[data-pile=f1]")
        page.wait_for_function(
            "(t) => document.querySelector('#status').textContent.includes(t)",
            arg=want["error"],
        )

        # The help panel: title, game names, sections, diagram, accessibility.
        page.click("#btn-help")
        dialog = page.locator("#help-dialog[open]")
        dialog.wait_for()
        assert dialog.locator("h2").inner_text() == want["help"]
        assert dialog.get_attribute("aria-labelledby") == "help-title"
        games = dialog.locator(".help-games button").all_inner_texts()
        assert games == [i18n.gettext(game.title, lang) for game in GAMES.values()]
        assert {want["lady_jane"], want["bakers_dozen"], want["hopscotch"]} <= set(games)
        headings = dialog.locator("h3").all_inner_texts()
        assert len(headings) == 7 and headings[0] == want["setup"]
        assert headings[-1] == want["strategy"]
        assert dialog.locator(".help-close").get_attribute("aria-label") == want["close"]
        assert dialog.get_attribute("lang") == lang
        dialog.locator(".help-games button", has_text=want["lady_jane"]).click()
        assert want["lady_jane"] in dialog.locator("h2").inner_text()
        labels = dialog.locator("svg.help-diagram .help-label").all_text_contents()
        assert want["reserves"] in labels
        assert dialog.locator("svg title").text_content().endswith(want["lady_jane"])
        page.keyboard.press("Escape")
        page.wait_for_selector("#help-dialog", state="hidden")
        assert page._errors == []
    finally:
        page.context.close()


def test_choice_is_remembered_over_the_browser_language(browser: Any, base_url: str) -> None:
    page = open_page(browser, base_url, locale="es-ES")
    try:
        assert undo_label(page) == "Deshacer"  # follows the browser first
        choose_language(page, "fr")
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("() => document.documentElement.lang === 'fr'")
        assert undo_label(page) == "Annuler"
        assert page.input_value("#lang-select") == "fr"
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("locale", "lang", "undo"),
    [("fr-BE", "fr", "Annuler"), ("es-419", "es", "Deshacer"), ("de-DE", "en", "Undo")],
)
def test_page_follows_the_browser_language(
    browser: Any, base_url: str, locale: str, lang: str, undo: str
) -> None:
    page = open_page(browser, base_url, locale=locale)
    try:
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        assert undo_label(page) == undo
        assert page.input_value("#lang-select") == lang
    finally:
        page.context.close()


def test_help_keys_focus_trap_and_escape(browser: Any, base_url: str) -> None:
    page = open_page(browser, base_url, locale="fr-FR")
    try:
        page.focus("#btn-help")
        page.keyboard.press("F1")
        dialog = page.locator("#help-dialog[open]")
        dialog.wait_for()
        assert page.evaluate("document.activeElement.id") == "help-title"
        # Tab cycles inside the dialog: close button, then the four game buttons, then back.
        inside = "document.getElementById('help-dialog').contains(document.activeElement)"
        seen = []
        for _ in range(7):
            page.keyboard.press("Tab")
            seen.append(page.evaluate(inside))
        assert all(seen)
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
        page.keyboard.press("Escape")
        page.wait_for_selector("#help-dialog", state="hidden")
        assert page.evaluate("document.activeElement.id") == "btn-help"  # focus goes back
        page.locator("#table").focus()
        page.keyboard.press("?")
        dialog.wait_for()
        # A language switch while the panel is open re-renders it in place.
        page.evaluate("import('/i18n.js').then((m) => m.setLanguage('es'))")
        page.wait_for_function(
            "() => document.querySelector('#help-title').textContent === 'Cómo se juega a Klondike'"
        )
        page.locator(".help-close").click()
        page.wait_for_selector("#help-dialog", state="hidden")
    finally:
        page.context.close()


@pytest.mark.slow
def test_every_game_has_a_full_help_panel_in_every_language(browser: Any, base_url: str) -> None:
    page = open_page(browser, base_url)
    try:
        for lang in ("en", "es", "fr"):
            choose_language(page, lang)
            for game in GAMES:
                page.evaluate("(g) => import('/help.js').then((m) => m.openHelp(g))", game)
                page.wait_for_selector(f"#help-dialog[open][data-game={game}]")
                info = page.evaluate(
                    """() => {
                      const d = document.getElementById('help-dialog');
                      return {
                        sections: d.querySelectorAll('section').length,
                        items: d.querySelectorAll('section li, section p, section dd').length,
                        labels: d.querySelectorAll('svg .help-label').length,
                        text: d.innerText,
                      };
                    }"""
                )
                assert info["sections"] == 7, (lang, game)
                assert EXPECT[lang]["strategy"] in info["text"], (lang, game)
                assert info["items"] >= 10, (lang, game, info["items"])
                assert info["labels"] >= 2, (lang, game)
                assert "{" not in info["text"], (lang, game)
                if lang != "en":
                    # Nothing left in English: no sentence of the English help shows through.
                    assert "the foundations" not in info["text"], (lang, game)
                page.keyboard.press("Escape")
                page.wait_for_selector("#help-dialog", state="hidden")
        assert page._errors == []
    finally:
        page.context.close()


def test_js_helpers_name_cards_piles_and_errors(browser: Any, base_url: str) -> None:
    page = open_page(browser, base_url)
    try:
        got = page.evaluate(
            """async () => {
              const m = await import('/i18n.js');
              const out = {};
              const error = {
                code: 'illegal_move',
                message: 't1>f1: QH cannot start f1: only Aces start it',
                message_id: '{move}: {card} cannot start {pile}: only {ranks} start it',
                params: { move: 't1>f1', card: 'QH', pile: 'f1', ranks: 'Aces' },
              };
              const unknown = { message: 'unknown game', message_id: 'unknown game', params: {} };
              for (const lang of ['en', 'es', 'fr']) {
                await m.setLanguage(lang, false);
                out[lang] = {
                  cards: ['QH', '10S', 'tc', 'AD', 'XX'].map(m.cardName),
                  piles: ['t3', 'f1', 'r2', 's', 'waste', '??'].map(m.pileName),
                  error: m.tError(error),
                  withMove: m.tError(error, true),
                  apiError: m.tError({ messageId: error.message_id, params: error.params }),
                  unknown: m.tError(unknown),
                  mode: m.tError({
                    message_id: '{move}: no redeals left ({limit} allowed in mode {mode})',
                    params: { move: 'deal', limit: 2, mode: 'single' },
                  }),
                  invalid: m.tError({
                    message_id: 'Invalid request: {field}: {details}',
                    params: { field: 'deal', details: 'a value of another type is expected' },
                  }),
                  plural: [0, 1, 2].map((n) => m.tn('{n} move', '{n} moves', n)),
                  prefixed: m.t('{move}: {pile} is complete', { move: 'w>f1', pile: 'f1' }),
                };
              }
              return out;
            }"""
        )
        assert got["en"]["cards"] == [
            "Queen of hearts",
            "Ten of spades",
            "Ten of clubs",
            "Ace of diamonds",
            "XX",
        ]
        assert got["es"]["cards"][:2] == ["Reina de corazones", "Diez de picas"]
        assert got["fr"]["cards"][:2] == ["Dame de cœur", "Dix de pique"]
        assert got["es"]["piles"] == [
            "columna 3",
            "fundación 1",
            "reserva 2",
            "mazo",
            "descarte",
            "??",
        ]
        assert got["fr"]["piles"] == [
            "colonne 3",
            "fondation 1",
            "réserve 2",
            "talon",
            "défausse",
            "??",
        ]
        assert got["en"]["error"] == "Queen of hearts cannot start foundation 1: only Aces start it"
        assert got["fr"]["withMove"] == (
            "t1>f1: Dame de cœur ne peut pas commencer la fondation 1, réservée aux As"
        )
        assert got["es"]["apiError"] == got["es"]["error"]
        # Why a request field was refused comes as a message id: said in each language.
        assert got["es"]["invalid"] == "Petición no válida: deal: se espera un valor de otro tipo"
        assert got["fr"]["invalid"] == (
            "Requête invalide\u00a0: deal\u00a0: une valeur d'un autre type est attendue"
        )
        assert got["es"]["unknown"] == "Unknown game"
        assert got["en"]["mode"] == "No redeals left (2 allowed in mode “Draw one, two redeals”)"
        assert got["fr"]["mode"] == (
            "Plus de redistribution (2 permises en mode "
            "«\u00a0Une carte, deux redistributions\u00a0»)"
        )
        assert got["en"]["plural"] == ["0 moves", "1 move", "2 moves"]
        assert got["es"]["plural"] == ["0 jugadas", "1 jugada", "2 jugadas"]
        assert got["fr"]["plural"] == ["0 coup", "1 coup", "2 coups"]
        assert got["fr"]["prefixed"] == "w>f1: la f1 est complète"
    finally:
        page.context.close()


# --- every message the page can show, in Spanish and French ---------------------------------

FOREIGN = ("es", "fr")
# What the page says after each step of the tour below (the first three were left in English
# when the extractor missed their ids).
TOUR = {
    "es": {
        "deal": "Repartir del mazo",
        "to_pile": "As de picas a la fundación 1",
        "run": "Rey de picas y las 12 cartas de encima a la columna 2",
        "undone": "Jugada deshecha",
    },
    "fr": {
        "deal": "Distribuer depuis le talon",
        "to_pile": "As de pique sur la fondation 1",
        "run": "Roi de pique et les 12 cartes posées dessus vers la colonne 2",
        "undone": "Coup annulé",
    },
}


def king_run() -> dict[str, Any]:
    """Klondike with a run of 13 (King of spades down to an Ace) on t1, t2 empty."""
    run = ["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D", "AS"]
    rest = [r + s for s in "CDSH" for r in "A23456789TJQK" if r + s not in run]
    return {
        "game": "klondike",
        "position": {
            "game": "klondike",
            "options": {"mode": "single"},
            "stock": rest,
            "foundations": [[], [], [], []],
            "tableau": [{"down": [], "up": run}] + [{"down": [], "up": []}] * 6,
        },
    }


def near_won() -> dict[str, Any]:
    """Klondike with only the four Kings left, one per tableau pile."""
    return {"game": "klondike", "position": near_won_klondike()}


def status_is(page: Page, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('#status').textContent.trim() === t", arg=text
    )


def open_and_close(page: Page, button: str, dialog: str) -> None:
    page.click(button)
    page.locator(f"{dialog}[open]").wait_for()
    page.keyboard.press("Escape")
    page.wait_for_selector(dialog, state="hidden")


@pytest.mark.slow
@pytest.mark.parametrize("lang", FOREIGN)
def test_a_tour_of_the_page_shows_every_message_translated(
    browser: Any, base_url: str, lang: str
) -> None:
    """Moves, hints, refusals, dialogs and "Show me", with i18n.js reporting in the console
    any message id its catalog lacks: whatever the extractor found, nothing shows in English."""
    want = TOUR[lang]
    page = open_page(browser, base_url, locale=EXPECT[lang]["locale"])
    try:
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.keyboard.press("d")
        status_is(page, want["deal"])
        page.click(".card[data-card=AS]")
        page.click(".slot[data-pile=f1]", force=True)
        status_is(page, want["to_pile"])
        page.keyboard.press("Control+z")
        status_is(page, want["undone"])
        page.keyboard.press("h")
        page.wait_for_selector("#status[data-kind=hint]")
        page.keyboard.press("Escape")
        page.click(".card[data-card=QH]")
        page.click(".slot[data-pile=f1]", force=True)
        page.wait_for_selector("#status[data-kind=error]")
        page.dblclick(".card[data-card=QH]")  # cannot go up: said without asking the server
        page.locator("#table").focus()
        page.keyboard.press("Enter")  # the keyboard cursor picks up a card
        page.keyboard.press("Escape")
        for button, dialog in (
            ("#btn-stats", "#stats-dialog"),
            ("#btn-settings", "#settings-dialog"),
            ("#btn-game", "#new-game-dialog"),
            ("#btn-help", "#help-dialog"),
        ):
            open_and_close(page, button, dialog)
        page.keyboard.press("n")  # a game in progress: asks first
        page.locator("#confirm-dialog[open]").wait_for()
        page.keyboard.press("Escape")

        # A run of cards, described with its count.
        assert page.request.post(base_url + "/api/games", data=king_run()).status == 201
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        king = page.locator(".card[data-card=KS]")
        box = king.bounding_box()
        assert box is not None
        king.click(position={"x": box["width"] / 2, "y": 6})
        page.click(".slot[data-pile=t2]", force=True)
        status_is(page, want["run"])

        # "Show me" plays the last Kings up; the game is won.
        assert page.request.post(base_url + "/api/games", data=near_won()).status == 201
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        allow_peeking(page)
        page.click("#btn-showme")
        # The win's cascade, ended by a click as a player may: let to run, it drew for 9 s
        # before the result (test_motion_browser waits one out).
        page.locator("canvas.cascade").wait_for(timeout=30_000)
        page.mouse.click(300, 300)
        page.locator("#result-dialog[open]").wait_for()
        page.click("#result-dialog button >> nth=-1")
        assert page._console == [] and page._errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_refused_moves_say_why_and_log_no_error(browser: Any, base_url: str, lang: str) -> None:
    """A move the page knows is illegal is not sent (the browser would log the 409 as an
    error); the reason still shows, in the player's language."""
    want = EXPECT[lang]
    page = open_page(browser, base_url, locale=want["locale"])
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    status = page.locator("#status")
    try:
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.click(".card[data-card=QH]")  # a click, then a click on the target
        page.click(".slot[data-pile=f1]", force=True)
        page.wait_for_function(
            "(t) => document.querySelector('#status').textContent.includes(t)", arg=want["error"]
        )
        page.keyboard.press("Escape")
        status.evaluate("(s) => s.replaceChildren()")
        drag(page, page.locator(".card[data-card=QH]"), page.locator(".slot[data-pile=f2]"))
        page.wait_for_function(
            "(t) => document.querySelector('#status').textContent.includes(t)",
            arg=want["error"].replace("1", "2"),
        )
        assert page.get_attribute(".card[data-card=QH]", "data-pile") == "t1"
        status.evaluate("(s) => s.replaceChildren()")
        page.dblclick(".card[data-card=QH]")
        page.wait_for_selector("#status[data-kind=error]")
        assert want["queen"] not in status.inner_text()  # the pile's top card cannot go up
        assert page.get_attribute(".card[data-card=QH]", "data-pile") == "t1"
        assert page.locator("#info .moves").inner_text().startswith("0 ")
        assert refused == [] and page._console == [] and page._errors == []
    finally:
        page.context.close()


def stats_row(game: str, **extra: Any) -> dict[str, Any]:
    return {
        "game": game,
        "options": {},
        "played": 4,
        "won": 2,
        "win_rate": 0.5,
        "win_percent": 50.0,
        "current_streak": 1,
        "longest_streak": 1,
        "best_time": 100.0,
        "average_time": 120.0,
        "best_score": 52,
        **extra,
    }


@pytest.mark.parametrize(
    ("lang", "label"), [("en", "Assisted"), ("es", "Asistidas"), ("fr", "Assistées")]
)
def test_statistics_show_the_assisted_count_when_the_server_sends_it(
    browser: Any, base_url: str, lang: str, label: str
) -> None:
    page = open_page(browser, base_url, locale=EXPECT[lang]["locale"])
    rows = [stats_row("klondike", assisted=3), stats_row("hopscotch")]
    page.route("**/api/stats?*", lambda route: route.fulfill(json={"stats": rows}))
    try:
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.click("#btn-stats")
        sections = page.locator("#stats-dialog[open] section.stat")
        sections.first.wait_for()
        terms = sections.evaluate_all(
            "els => els.map(e => [...e.querySelectorAll('dt')].map(d => d.textContent))"
        )
        values = sections.first.locator("dd").all_inner_texts()
        assert label in terms[0] and values[terms[0].index(label)] == "3"
        assert label not in terms[1]  # a server that does not count them: no such line
        if os.environ.get("PATIENCE_SCREENSHOTS"):
            page.screenshot(path=str(DOCS / f"stats-{lang}.png"))
        assert page._console == [] and page._errors == []
    finally:
        page.context.close()


def test_a_message_missing_from_the_catalog_is_named_in_the_console(
    browser: Any, base_url: str
) -> None:
    """What the tour above relies on: i18n.js warns of each id its catalog lacks, once."""

    def without_undo(route: Any) -> None:
        reply = route.fetch()
        body = reply.json()
        del body["messages"]["Undo"]
        route.fulfill(response=reply, json=body)

    ctx = browser.new_context(locale="es-ES")
    page = ctx.new_page()
    warned: list[str] = []
    page.on("console", lambda m: warned.append(m.text) if m.type == "warning" else None)
    page.route("**/api/messages/es", without_undo)
    try:
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready=true]")
        assert undo_label(page) == "Undo"
        page.evaluate("import('/i18n.js').then((m) => m.setLanguage('es'))")  # awaited
        assert undo_label(page) == "Undo"
        assert warned == ['patience: no es text for the message "Undo"']
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("locale", "rate"), [("en-US", "50%"), ("es-ES", "50\u00a0%"), ("fr-FR", "50\u202f%")]
)
def test_the_win_rate_is_written_the_language_s_way(
    browser: Any, tmp_path: Path, locale: str, rate: str
) -> None:
    """The statistics' win rate was "50%" in every language; Spanish and French put a
    no-break space before the sign, as the page's other percentages do."""
    with LiveServer(tmp_path, in_process=True) as server:
        won = server.api("POST", "/games", near_won())
        server.api("POST", f"/games/{won['id']}/autofinish")  # the four Kings home: a win
        lost = server.api("POST", "/games", {"game": "klondike", "deal": 3})
        server.api("POST", f"/games/{lost['id']}/move", {"move": "deal"})
        server.api("POST", "/games", {"game": "klondike", "deal": 4})  # deal 3 counts as lost
        page = open_page(browser, server.url, locale=locale, game={"game": "hopscotch"})
        try:
            page.click("#btn-stats")
            row = page.locator("#stats-dialog section.stat", has_text="Klondike")
            sync_api.expect(row.locator("dd").nth(3)).to_have_text(rate)
            # A no-break space: the line never breaks between the number and its sign.
            assert row.locator("dd").nth(3).inner_text() == rate
        finally:
            page.context.close()
