"""The table on every screen: on a desktop, a phone held upright and phones held sideways
(844x390, 740x360, 667x375), in the standard and the large-print face, and with tall piles
(a Klondike run from the King to the Ace, a Hopscotch reserve of 30 cards), no card is
narrower than a set minimum, no card's corner rank is hidden by the card over it (as
measured from the rendered text boxes) and the table needs no scrolling."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from browser import DESKTOP, NO_ANIMATION, PHONE, playwright_api, settle
from live import LiveServer, start_game
from patience import new_game, play
from patience.games import GAMES as REGISTRY
from patience.games import position_to_json

playwright_api()

pytestmark = pytest.mark.browser

SIDEWAYS = {
    "landscape": {"width": 844, "height": 390},
    "landscape-740": {"width": 740, "height": 360},
    "landscape-667": {"width": 667, "height": 375},
}
SCREENS = {"desktop": DESKTOP, "phone": PHONE, **SIDEWAYS}
GAMES = list(REGISTRY)
FACES = ["standard", "large"]
MIN_DEAL_WIDTH = {
    "desktop": 80,
    "phone": 44,
    "landscape": 50,
    "landscape-740": 44,
    "landscape-667": 40,
}
"""The narrowest card of a deal's first position (px): before the wide arrangements, Lady
Jane's cards were 36 px wide on a phone held sideways."""
NARROWER = {("freecell", "landscape", "large"): 48, ("freecell", "landscape-740", "large"): 43}
"""Where a deal's cards may be narrower than MIN_DEAL_WIDTH: FreeCell deals seven face-up
cards to a cascade, each showing its index, and on a phone on its side its cascades
already have the whole height; the large face's deeper index leaves these widths."""
MIN_LEGIBLE_WIDTH = 30
"""layout.js's floor: cards shrink no further (a tall pile overlaps more instead)."""

MEASURE = """() => {
  const cards = [...document.querySelectorAll('#table .card')]
    .filter(c => getComputedStyle(c).visibility !== 'hidden');
  const byPile = {};
  for (const c of cards) (byPile[c.dataset.pile] ||= [])[Number(c.dataset.index)] = c;
  const out = {widths: [], clipped: []};
  for (const [pile, list] of Object.entries(byPile)) {
    list.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      out.widths.push([pile, i, r.width]);
      if (!c.dataset.card) return;
      // The corner rank: the text box nearest the card's top-left corner.
      const ranks = [...c.querySelectorAll('.rank')].map(t => t.getBoundingClientRect());
      const rank = ranks.sort((a, b) => a.top - b.top)[0];
      if (!rank) return;
      // The visible part of the card: above the next card of its pile where that covers it.
      let bottom = r.bottom, right = r.right;
      const next = list[i + 1];
      if (next) {
        const n = next.getBoundingClientRect();
        if (n.top > r.top + 0.5) bottom = Math.min(bottom, n.top);
        else if (n.left > r.left + 0.5) right = Math.min(right, n.left);
        else return;  // a squared pile: only its top card shows
      }
      // (Nothing lies over a card's top edge: the card under it is beneath.)
      const inside = rank.left >= r.left - 0.5 && rank.right <= right + 0.5
        && rank.bottom <= bottom + 0.5;
      if (!inside) {
        out.clipped.push([pile, i, c.dataset.card, rank.bottom - bottom, rank.right - right]);
      }
    });
  }
  // Cards of two piles never overlap (Lady Jane's third reserve card ran into the
  // tableau below it).
  out.overlaps = [];
  const overlap = ([p, a], [q, b]) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5) out.overlaps.push([p, q, Math.round(w), Math.round(h)]);
  };
  const boxes = cards.map(c => [c.dataset.pile, c.getBoundingClientRect()]);
  for (const a of boxes) for (const b of boxes) if (a[0] < b[0]) overlap(a, b);
  // Nor do two labels under the piles (Hopscotch's steps overlapped on narrow cards).
  const labels = [...document.querySelectorAll('#table .badge span')]
    .map(e => [e.textContent, e.getBoundingClientRect()]);
  labels.forEach((a, i) => labels.slice(i + 1).forEach(b => overlap(a, b)));
  const wrap = document.getElementById('table').parentElement;
  out.scroll = Math.max(wrap.scrollHeight - wrap.clientHeight,
    document.documentElement.scrollHeight - innerHeight);
  return out;
}"""


class Screens:
    """One page per screen and face, loaded again for each measure: the page keeps
    nothing between loads but the settings each load writes first (the game comes from
    the server) and the files its HTTP cache revalidates. A fresh context for each
    measure (a renderer process started each time) cost 0.24 CPU s more a measure: the
    module took 67.7 CPU s, 41.3 s now (issue 57).
    The items come screen by screen (``ordered``), so a worker keeps one page open."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.key: tuple[str, str] | None = None
        self.context: Any = None
        self.page: Any = None
        self.errors: list[str] = []

    def open(self, screen: str, face: str) -> Any:
        if self.key != (screen, face):
            self.close()
            phone = screen != "desktop"
            viewport = SCREENS[screen]
            self.context = self.browser.new_context(
                viewport=viewport, has_touch=phone, is_mobile=phone
            )
            self.context.add_init_script(NO_ANIMATION)
            settings = json.dumps({"animate": False, "face": face})
            self.context.add_init_script(
                f"localStorage.setItem('patience.settings', {json.dumps(settings)});"
            )
            self.page = self.context.new_page()
            self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
            self.key = (screen, face)
        return self.page

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
        self.key = self.context = self.page = None


@pytest.fixture(scope="module")
def screens(browser: Any) -> Iterator[Screens]:
    opened = Screens(browser)
    yield opened
    opened.close()


def measure(screens: Screens, url: str, screen: str, face: str = "standard") -> dict[str, Any]:
    page = screens.open(screen, face)
    screens.errors.clear()
    try:
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        settle(page)  # the table follows its box once the lines above settle
        found: dict[str, Any] = page.evaluate(MEASURE)
    except Exception:
        screens.close()  # the next measure starts on a new page
        raise
    assert not screens.errors, f"JavaScript errors: {screens.errors}"
    return found


def ordered(*names: str, **values: list[str]) -> list[tuple[str, ...]]:
    """The product of ``values`` as parameters in the order of ``names`` (their ids as
    stacked parametrize marks gave them), screen and face varying slowest."""
    slow, fast = (
        [n for n in ("screen", "face") if n in values],
        [n for n in values if n not in ("screen", "face")],
    )
    rows: list[dict[str, str]] = [{}]
    for name in slow + fast:
        rows = [{**row, name: v} for row in rows for v in values[name]]
    return [tuple(row[n] for n in names) for row in rows]


@pytest.mark.parametrize(
    ("game", "screen", "face"),
    ordered("game", "screen", "face", game=GAMES, screen=list(SCREENS), face=FACES),
)
def test_a_deal_is_legible_on_every_screen(
    screens: Screens, live_server: LiveServer, game: str, screen: str, face: str
) -> None:
    start_game(live_server.url, {"game": game, "deal": 3})
    found = measure(screens, live_server.url, screen, face)
    narrowest = min(w for _, _, w in found["widths"])
    assert narrowest >= NARROWER.get((game, screen, face), MIN_DEAL_WIDTH[screen]), narrowest
    assert not found["clipped"]
    assert not found["overlaps"]
    assert found["scroll"] <= 0, found["scroll"]


@pytest.mark.parametrize("screen", list(SIDEWAYS))
def test_klondike_takes_the_whole_height_on_a_phone_held_sideways(
    screens: Screens, live_server: LiveServer, screen: str
) -> None:
    """Its piles beside the stock and the foundations, not under them: the cards were
    52-53 px wide with the top row above the piles."""
    start_game(live_server.url, {"game": "klondike", "deal": 3})
    found = measure(screens, live_server.url, screen)
    assert min(w for _, _, w in found["widths"]) >= 60


RANKS = "A23456789TJQK"


def hopscotch_with_a_long_reserve(n: int) -> dict[str, Any]:
    """Hopscotch with n cards on r1 (every rank, Jacks and Queens among them)."""
    rest = [r + s for s in "DHS" for r in RANKS] + [r + "C" for r in RANKS[4:]]
    return {
        "game": "hopscotch",
        "options": {},
        "deal": None,
        "stock": rest[n:],
        "waste": [],
        "foundations": [["AC"], ["2C"], ["3C"], ["4C"]],
        "tableau": [],
        "reserve": [rest[:n], [], [], []],
        "redeals": 0,
    }


def klondike_with_a_tall_pile() -> dict[str, Any]:
    """Klondike with six cards face down under a run from the King to the Ace on t1."""
    run = [r + ("S" if k % 2 == 0 else "H") for k, r in enumerate(reversed(RANKS))]
    down = ["2C", "3C", "4C", "5C", "6C", "7C"]
    used = set(run) | set(down)
    stock = [r + s for s in "CDHS" for r in RANKS if r + s not in used]
    return {
        "game": "klondike",
        "options": {},
        "deal": None,
        "stock": stock,
        "waste": [],
        "foundations": [[], [], [], []],
        "tableau": [{"down": down, "up": run}] + [{"down": [], "up": []}] * 6,
        "reserve": [],
        "redeals": 0,
    }


def lady_jane_dealt_twice() -> dict[str, Any]:
    """Lady Jane deal 12 with the stock dealt twice: three cards on every reserve."""
    p = new_game("lady-jane", 12)
    for _ in range(2):
        p = play(p, "deal")
    return position_to_json(p)


@pytest.mark.parametrize(
    ("what", "screen", "face"),
    ordered(
        "what",
        "screen",
        "face",
        what=["klondike-19", "reserve-30", "lady-jane-reserves"],
        screen=list(SCREENS),
        face=[*FACES, "traditional"],
    ),
)
def test_tall_piles_stay_legible(
    screens: Screens, live_server: LiveServer, what: str, screen: str, face: str
) -> None:
    if what.startswith("reserve"):
        position = hopscotch_with_a_long_reserve(int(what.split("-")[1]))
    elif what == "lady-jane-reserves":
        position = lady_jane_dealt_twice()
    else:
        position = klondike_with_a_tall_pile()
    start_game(live_server.url, {"position": position})
    found = measure(screens, live_server.url, screen, face)
    narrowest = min(w for _, _, w in found["widths"])
    assert narrowest >= MIN_LEGIBLE_WIDTH, narrowest
    assert not found["clipped"]
    assert not found["overlaps"]
    assert found["scroll"] <= 0, found["scroll"]
