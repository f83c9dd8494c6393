"""Which of a game's declared arrangements the page chooses on a phone, upright (390x844)
and on its side (844x390): the one whose cards come out biggest with everything in view
(issue 54: every game stayed at 51 px upright, Hopscotch's six piles in one row included,
and a 14-card Baker's Dozen pile shrank every card to 35 px on a phone on its side)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser import NO_ANIMATION, open_game, playwright_api, settle
from live import LiveServer
from patience.games import GAMES as REGISTRY

playwright_api()
pytestmark = pytest.mark.browser

UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}

# The card width (px) of every declared arrangement that fits, in the page's own
# layout.js, and the width of the cards on screen.
EACH = """async () => {
  const { fitLayout } = await import('/layout.js');
  const { indexFan, indexAcross } = await import('/cards.js');
  const { state } = await import('/state.js');
  const wrap = document.getElementById('table-wrap');
  const w = Math.max(wrap.clientWidth, 240), h = Math.max(wrap.clientHeight, 200);
  const v = state.view;
  const each = v.table.arrangements.map((arr) => {
    const one = { ...v, table: { ...v.table, arrangements: [arr] } };
    const fit = fitLayout(one, w, h, state.cards, indexFan(), indexAcross());
    return fit.fits === false ? null : fit.layout.cw;
  });
  const shown = document.querySelector('#table .card').getBoundingClientRect().width;
  return { each, shown };
}"""


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    """A phone held upright and one on its side, each one page for the module."""
    out = {}
    contexts = []
    for name, viewport in (("upright", UPRIGHT), ("sideways", SIDEWAYS)):
        context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
        context.add_init_script(NO_ANIMATION)
        contexts.append(context)
        out[name] = context.new_page()
    yield out
    for context in contexts:
        context.close()


def bakers_dozen_long_pile() -> dict[str, Any]:
    """Baker's Dozen with fourteen cards on t1 (Kings down to the 2 of spades and
    hearts, then an Ace), the rest four to a pile."""
    ranks = "A23456789TJQK"
    long = [r + s for r, s in zip("KQJT98765432A", "SHSHSHSHSHSHS", strict=True)] + ["AH"]
    rest = [r + s for s in "CDSH" for r in ranks if r + s not in long]
    tableau = [{"down": [], "up": long}] + [
        {"down": [], "up": rest[i : i + 4]} for i in range(0, 38, 4)
    ]
    tableau += [{"down": [], "up": []}] * (13 - len(tableau))
    return {
        "game": "bakers-dozen",
        "options": {},
        "deal": None,
        "foundations": [[], [], [], []],
        "tableau": tableau,
    }


GAMES = {
    **{name: {"game": name, "deal": 3} for name in REGISTRY},
    "klondike-three": {"game": "klondike", "options": {"mode": "three"}, "deal": 3},
    "bakers-dozen-14": {"game": "bakers-dozen", "position": bakers_dozen_long_pile()},
}


@pytest.mark.parametrize("screen", ["upright", "sideways"])
@pytest.mark.parametrize("what", list(GAMES))
def test_the_biggest_cards_that_fit(
    pages: dict[str, Any], live_server: LiveServer, what: str, screen: str
) -> None:
    page = pages[screen]
    open_game(page, live_server, GAMES[what])
    settle(page)  # the table follows its box once the lines above settle
    found = page.evaluate(EACH)
    fitting = [cw for cw in found["each"] if cw is not None]
    assert fitting, found
    assert round(found["shown"]) == max(fitting), found
    if what == "hopscotch" and screen == "upright":
        assert found["shown"] >= 80, found  # 51 px before, its six piles in one row
    if what == "bakers-dozen" and screen == "upright":
        assert found["shown"] >= 60, found  # 51 px before, in two rows of 7 and 6
    if what == "bakers-dozen-14" and screen == "sideways":
        assert found["shown"] >= 42, found  # 35 px before, 40% of the width left empty
