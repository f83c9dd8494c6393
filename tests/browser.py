"""Debian's Chromium for the browser tests, the flags that let it start offline as root, and
what the tests share: the mouse drag, a game opened through the API, a card's element."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from live import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NO_ANIMATION = 'localStorage.setItem("patience.settings", JSON.stringify({animate: false}));'
"""Animations off: card boxes are final as soon as the page has rendered."""


SETTLE = """async () => {
  await document.fonts.ready;
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const boxes = () => JSON.stringify([document.getElementById('table').parentElement,
    ...document.querySelectorAll('#table .card, #table .slot')]
    .map((e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }));
  let last = boxes();
  for (let n = 0; n < 100; n++) {
    await frame();
    await frame();
    const now = boxes();
    if (now === last) return n;
    last = now;
  }
  return -1;
}"""
"""Resolves once the fonts are in and the table's box and its cards' boxes have held still
over two frames (a ResizeObserver's render of a line above changing height lands within
its frame): the count of frame pairs waited, -1 if they never held still."""


def settle(page: Any) -> None:
    """Wait until the rendered table holds still (``SETTLE``)."""
    assert page.evaluate(SETTLE) >= 0, "the table never held still"


def require_chromium() -> None:
    """Skip the calling test module without Chromium; in CI, where they must run, fail."""
    if Path(CHROMIUM).exists():
        return
    message = f"no Chromium at {CHROMIUM} (apt-get install chromium): browser tests skipped"
    if os.environ.get("CI"):
        pytest.fail(message.replace("skipped", "cannot run in CI"), pytrace=False)
    pytest.skip(message, allow_module_level=True)


def playwright_api() -> ModuleType:
    """Playwright's sync API for a browser test module, which is skipped without Chromium
    (failed in CI, where it must run) or without Playwright. Its ``expect`` waits up to
    30 s, for every module alike (the setting is global): the machine running the suite
    may be busy, and a wait ends as soon as it holds."""
    require_chromium()
    api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: browser tests skipped"
    )
    api.expect.set_options(timeout=30_000)
    return api


def center(locator: Any) -> tuple[float, float]:
    """The middle of an element's top strip (where a fanned card can be grabbed)."""
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 12)


def drag(page: Any, source: Any, target: Any, check_targets: list[str] | None = None) -> None:
    """Drag with the mouse from one element to another, in small steps as a hand would.

    ``check_targets``: the piles that must be lit as drop targets on the way.
    """
    x0, y0 = center(source)
    x1, y1 = center(target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 10, y0 + 10, steps=3)
    page.mouse.move(x1, y1 + 10, steps=8)
    if check_targets is not None:
        lit = page.locator("#table .ring.drop-target").evaluate_all(
            "els => els.map(e => e.dataset.pile)"
        )
        assert sorted(lit) == sorted(check_targets)
    page.mouse.up()


def allow_peeking(page: Any) -> None:
    """Turn on "The solver may look at the face-down cards" in the settings dialog (the
    proven hint, "Show me", the winnable indicator, rewind); the dialog is closed after."""
    page.locator("#btn-settings").click()
    page.locator("#setting-peek").check()
    page.keyboard.press("Escape")


def open_game(page: Any, server: LiveServer, body: dict[str, Any]) -> dict[str, Any]:
    """Start a game through the API, then load the page, which resumes it: the view."""
    from playwright.sync_api import expect

    view: dict[str, Any] = server.api("POST", "/games", {"options": {}, "deal": None, **body})
    page.goto(server.url)
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#info .deal")).to_be_visible()
    return view


def card(page: Any, text: str) -> Any:
    """The element of a face-up card."""
    return page.locator(f'#table .card[data-card="{text}"]')
