"""Render the web app's icon (static/icon.svg, drawn for this project) to the PNG sizes the
manifest and iOS ask for, with the Chromium the browser tests use.

    python tools/make_icons.py        # rewrites static/icon-{180,192,512}.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "patience" / "web" / "static"
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SIZES = (180, 192, 512)


def main() -> None:
    """Write one PNG per size, the SVG drawn full bleed at that size."""
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=True)
            page.close()
            print(f"icon-{size}.png")
        browser.close()


if __name__ == "__main__":
    main()
