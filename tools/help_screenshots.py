"""Screenshots of the "How to play" panel in every language (docs/help-en.png, help-es.png,
help-fr.png): Lady Jane's help, whole, over a Klondike deal, with the Chromium the browser
tests use.

    python tools/help_screenshots.py                 # into docs/
    python tools/help_screenshots.py --out /tmp/help

It starts ``patience serve`` on a fresh, temporary data folder, opens the page in each
language, opens the help, picks Lady Jane (the diagram with the most piles) and makes the
window tall enough for the whole panel, Strategy included. Rerun it after any change to
the help's texts, its diagram or the catalogs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from screenshots import compact  # noqa: E402

from browser import CHROMIUM, CHROMIUM_ARGS, NO_ANIMATION  # noqa: E402
from live import LiveServer, start_game  # noqa: E402

LANGUAGES = ["en", "es", "fr"]
WIDTH = 1100
GAME = "lady-jane"
MAX_HEIGHT = 3000
"""The tallest window the panel may ask for (px)."""


def shoot(browser: object, url: str, lang: str, out: Path) -> Path:
    """The help panel in ``lang``, whole, saved as ``help-LANG.png`` in ``out``."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": WIDTH, "height": 820}, device_scale_factor=1, locale=lang
    )
    context.add_init_script(NO_ANIMATION)
    context.add_init_script(f"localStorage.setItem('patience.lang', '{lang}');")
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.click("#btn-help")
        dialog = page.locator("#help-dialog[open]")
        dialog.wait_for()
        dialog.locator(".help-games button").nth(1).click()
        page.wait_for_function(
            "(g) => document.querySelector('#help-dialog svg.help-diagram') !== null", arg=GAME
        )
        # A window tall enough that the panel needs no scrolling: grown by what it scrolls.
        height = 820
        for _ in range(5):
            hidden = page.evaluate(
                "() => { const d = document.querySelector('#help-dialog');"
                " return Math.max(...[d, ...d.querySelectorAll('*')]"
                ".map(e => e.scrollHeight - e.clientHeight)); }"
            )
            if hidden <= 0 or height >= MAX_HEIGHT:
                break
            height = min(height + hidden + 24, MAX_HEIGHT)
            page.set_viewport_size({"width": WIDTH, "height": height})
            page.wait_for_timeout(100)
        path = out / f"help-{lang}.png"
        compact(page.screenshot()).save(path, optimize=True)
        return path
    finally:
        context.close()


def main(argv: list[str] | None = None) -> None:
    """Write the help screenshots of the languages asked for (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="repeatable")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, LiveServer(Path(data)) as server:
        start_game(server.url, {"game": "klondike", "deal": 1})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for lang in args.lang or LANGUAGES:
                print(shoot(browser, server.url, lang, args.out))
            browser.close()


if __name__ == "__main__":
    main()
