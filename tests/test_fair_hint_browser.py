"""Fair play in the page (issue 16): Hint shows the fair move and its chance by default;
the tools that look at the face-down cards wait for their setting, and using one marks
the game assisted (its win counts apart)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import solver_stubs
from browser import allow_peeking, open_game, playwright_api
from engine_builders import near_won_klondike
from live import LiveServer
from patience.fair import Settings

sync_api = playwright_api()
expect = sync_api.expect
Page = sync_api.Page
pytestmark = pytest.mark.browser

SMALL = Settings(samples=4, max_states=3_000, shortlist=2)
"""Bounded in states and given all the time they need: no test depends on the solver's speed."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("data")
    with LiveServer(
        data,
        in_process=True,
        hint_timeout=600.0,
        chance_timeout=600.0,
        hint_settings=SMALL,
        chance_settings=SMALL,
    ) as live:
        yield live


def klondike_row(server: LiveServer) -> dict[str, Any]:
    rows = [s for s in server.api("GET", "/stats")["stats"] if s["game"] == "klondike"]
    return rows[0] if rows else {"won": 0, "assisted": 0}


def test_hint_is_fair_by_default_and_the_peeking_tools_wait(page: Page, server: LiveServer) -> None:
    view = open_game(page, server, {"game": "klondike", "deal": 7})
    expect(page.locator("#btn-showme")).to_be_hidden()
    page.keyboard.press("h")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-kind", "hint")
    # Klondike's chance is a clairvoyant's (issue 55): said to be, never the player's own.
    expect(status).to_contain_text(
        re.compile(r"Hint: .+ \(a player who could see every card: \d+%\)")
    )
    expect(status.locator(".chance-detail")).to_contain_text("4 arrangements of the unseen cards")
    expect(status.locator(".chance-detail")).to_contain_text("your own chance may be lower")
    expect(page.locator("#table .ring.hint-target")).to_have_count(1)
    assert not server.api("GET", f"/games/{view['id']}")["assisted"]
    # The winnable indicator peeks too: not offered until the solver may look.
    page.locator("#btn-settings").click()
    winnable = page.locator("#setting-showWinnable")
    expect(winnable).to_be_disabled()
    expect(page.locator("label", has=winnable)).to_have_attribute("title", re.compile("face-down"))
    page.locator("#setting-peek").check()
    expect(winnable).to_be_enabled()
    page.locator("#setting-peek").uncheck()
    expect(winnable).to_be_disabled()


def test_peeking_gives_the_proven_hint_and_the_win_counts_apart(
    page: Page, server: LiveServer
) -> None:
    before = klondike_row(server)
    view = open_game(page, server, {"game": "klondike", "position": near_won_klondike()})
    allow_peeking(page)
    expect(page.locator("#btn-showme")).to_be_visible()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)
    page.keyboard.press("h")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-kind", "hint")
    expect(status).to_have_text(re.compile(r"^Hint: [^%]+$"))
    assert asked and all(url.endswith("?peek=true") for url in asked), asked
    assert server.api("GET", f"/games/{view['id']}")["assisted"]
    # The player finishes by hand; the game was assisted all the same.
    page.locator('#table .card[data-card="KH"]').dblclick()
    page.locator("#status-finish").click()
    expect(page.locator("#result-dialog")).to_be_visible()
    after = klondike_row(server)
    assert (after["won"], after["assisted"]) == (before["won"], before["assisted"] + 1)


def test_the_chance_to_win_indicator(page: Page, server: LiveServer) -> None:
    open_game(page, server, {"game": "klondike", "deal": 7})
    expect(page.locator("#info .chance")).to_have_count(0)  # off by default
    page.locator("#btn-settings").click()
    page.locator("#setting-showChance").check()
    page.keyboard.press("Escape")
    chance = page.locator("#info .chance")
    expect(chance).to_have_text(re.compile(r"^Seeing every card: \d+%$"))
    expect(chance).to_have_attribute("title", re.compile("4 arrangements"))
    # After a move it asks again, for the new position.
    page.keyboard.press("d")
    expect(page.locator("#info .moves")).to_have_text("1 move")
    expect(chance).to_have_text(re.compile(r"^Seeing every card: \d+%$"))


def test_the_hint_and_the_chance_change_language_at_once(page: Page, server: LiveServer) -> None:
    # The status line, the hint's interval detail beside it and the chance's title are all
    # worded again in the new language, without asking the solver again.
    open_game(page, server, {"game": "klondike", "deal": 7})
    page.locator("#btn-settings").click()
    page.locator("#setting-showChance").check()
    page.keyboard.press("Escape")
    chance = page.locator("#info .chance")
    expect(chance).to_have_attribute("title", re.compile("4 arrangements"))
    page.keyboard.press("h")
    status = page.locator("#status")
    detail = status.locator(".chance-detail")
    expect(detail).to_contain_text("4 arrangements of the unseen cards")
    expect(chance).to_have_attribute("title", re.compile("4 arrangements"))
    page.select_option("#lang-select", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    # Klondike's chance is a clairvoyant's, and said to be in Spanish too (issue 55).
    expect(status).to_contain_text(
        re.compile(r"Pista: .+ \(un jugador que viera todas las cartas: \d+\u00a0%\)")
    )
    expect(detail).to_have_text(
        re.compile(r"^Intervalo del 95\u00a0%: .*4 repartos de las cartas no vistas\. .*menor\.$")
    )
    expect(chance).to_have_text(re.compile(r"^Viendo todas las cartas: \d+\u00a0%$"))
    expect(chance).to_have_attribute("title", re.compile("4 repartos de las cartas no vistas"))


def test_a_hint_does_not_wait_for_the_chance_indicator(
    page: Page, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One solver slot, and a chance search that holds it until it is cancelled: the hint
    # gets the slot only because the page stops the indicator's request to ask it.
    import patience.fair_assist as fair_module
    from patience.web import solver_pool

    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setenv(solver_stubs.GATE, str(gate))  # before the server starts its worker
    monkeypatch.setattr(fair_module, "chance_of", solver_stubs.held_chance)
    monkeypatch.setattr(solver_pool, "SOLVER_SLOTS", 1)
    data = tmp_path / "data"
    with LiveServer(data, in_process=True, hint_timeout=600.0, hint_settings=SMALL) as live:
        try:
            open_game(page, live, {"game": "klondike", "deal": 7})
            page.locator("#btn-settings").click()
            page.locator("#setting-showChance").check()
            page.keyboard.press("Escape")
            expect(page.locator("#info .chance")).to_have_text("Chance to win: …")
            solver_stubs.wait_for(gate / "searching-0")
            page.keyboard.press("h")
            status = page.locator("#status")
            expect(status).to_have_attribute("data-kind", "hint")
            expect(status).to_contain_text(re.compile(r"a player who could see every card: \d+%"))
            expect(page.locator("#info .chance")).to_have_text("Chance to win: …")  # asked again
        finally:
            solver_stubs.release(gate)


def test_the_chance_rests_on_the_decided_arrangements_and_says_so(
    page: Page, server: LiveServer
) -> None:
    # The interval is the decided arrangements' (won / (won + lost)): the detail counts
    # those, and names the ones left undecided, in each language.
    open_game(page, server, {"game": "klondike", "deal": 7})
    got = page.evaluate(
        """async () => {
          const i18n = await import('/i18n.js');
          const fair = await import('/fair.js');
          const c = { chance: 0.5, interval: [0.3, 0.7], samples: 30, exact: false };
          const out = {};
          for (const lang of ['en', 'es', 'fr']) {
            await i18n.setLanguage(lang, false);
            out[lang] = [
              fair.chanceDetail({ ...c, undecided: 4 }),
              fair.chanceDetail({ ...c, undecided: 0 }),
            ];
          }
          return out;
        }"""
    )
    assert got["en"] == [
        "95% interval 30–70%, from 26 arrangements of the unseen cards"
        " (4 more not decided within the search limit, left out)",
        "95% interval 30–70%, from 30 arrangements of the unseen cards",
    ]
    # Worded with no agreement to the count, which is often 1.
    assert "26 repartos" in got["es"][0] and "(sin contar 4 sin decidir" in got["es"][0]
    assert "30 repartos" in got["es"][1] and "sin contar" not in got["es"][1]
    assert "26 répartitions" in got["fr"][0] and "(sans compter 4 sans verdict" in got["fr"][0]


def test_each_chance_is_worded_as_what_it_is_in_each_language(
    page: Page, server: LiveServer
) -> None:
    # Issue 55: the advice's own playouts are the chance of a player who follows it,
    # said as the player's chance (games of this advice played out); a clairvoyant share
    # is only ever "a player who could see every card".
    open_game(page, server, {"game": "klondike", "deal": 7})
    got = page.evaluate(
        """async () => {
          const i18n = await import('/i18n.js');
          const fair = await import('/fair.js');
          const base = { fair: true, verdict: 'unknown', chance: 0.4, interval: [0.2, 0.6],
                         samples: 20, undecided: 0, exact: false };
          const out = {};
          for (const lang of ['en', 'es', 'fr']) {
            await i18n.setLanguage(lang, false);
            const playouts = { ...base, kind: 'advice-playouts' };
            const clairvoyant = { ...base, kind: 'clairvoyant' };
            out[lang] = [
              fair.hintText(playouts, 'deal'), fair.chanceDetail(playouts),
              fair.hintText(clairvoyant, 'deal'), fair.chanceDetail(clairvoyant),
            ];
          }
          return out;
        }"""
    )
    assert got["en"] == [
        "Hint: deal, about 40% from here",
        "95% interval 20–60%, from 20 games of this advice played out over orders of the"
        " unseen cards, weighed with its record in past games",
        "Hint: deal (a player who could see every card: 40%)",
        "95% interval 20–60%, from 20 arrangements of the unseen cards. What a player who"
        " could see every card would win: an upper bound, your own chance may be lower.",
    ]
    assert "40\u00a0% desde aquí" in got["es"][0] and "20 partidas de este consejo" in got["es"][1]
    assert got["fr"][0].startswith("Indice") and "environ 40" in got["fr"][0]
    assert "un jugador que viera todas las cartas: 40\u00a0%" in got["es"][2]
    assert "20 parties de ce conseil jouées" in got["fr"][1]
    assert "un joueur qui verrait toutes les cartes\u00a0: 40\u202f%" in got["fr"][2]
    assert "peut être plus faible" in got["fr"][3] and "puede ser menor" in got["es"][3]
