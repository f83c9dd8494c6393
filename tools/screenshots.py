"""Screenshots for the README: every game part-way through a deal, in the light and the
dark theme, on a desktop (1280×800), a phone upright (390×844) and a phone on its side
(844×390), with the Chromium the browser tests use.

    python tools/screenshots.py                      # every game into docs/screenshots
    python tools/screenshots.py --game hopscotch --out /tmp/shots

It starts ``patience serve`` on a fresh, temporary data folder, plays the same opening
moves every time (the solver's line bounded by states, so a rerun gives the same
pictures), and writes ``GAME-SIZE.png`` (light) and ``GAME-SIZE-dark.png`` as compact
PNGs (256 colours). Rerun it after any change to the layout; the README links the files.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, NO_ANIMATION, PHONE  # noqa: E402
from live import LiveServer  # noqa: E402
from patience import game_for, new_game  # noqa: E402
from patience.position import Position  # noqa: E402
from patience.solver import solve  # noqa: E402

GAMES = {
    # game: (options, deal, moves played before the picture)
    "klondike": ({}, 7, 72),
    "lady-jane": ({}, 5, 30),
    "bakers-dozen": ({}, 5, 24),
    "hopscotch": ({}, 2, 40),
    "freecell": ({}, 1, 30),
}
SIZES = {
    "desktop": (DESKTOP, False),
    "phone": (PHONE, True),
    "landscape": ({"width": PHONE["height"], "height": PHONE["width"]}, True),
}
THEMES = {"light": "", "dark": "-dark"}
STATES = 2_000_000
"""The solver's budget for the opening line (states, not seconds: the same every run)."""


def opening(position: Position, count: int) -> list[str]:
    """The first ``count`` moves worth showing: the solver's winning line, else greedy
    play (foundations first, then the stock, then the shortest reserve)."""
    result = solve(position, timeout=None, max_states=STATES)
    if result.moves:
        return [str(m) for m in result.moves[:count]]
    rules = game_for(position)
    moves: list[str] = []
    for _ in range(count):
        legal = rules.legal_moves(position)
        if not legal:
            break
        best = min(
            legal,
            key=lambda m: (
                not m.dst.startswith("f"),
                not m.is_deal,
                len(position.reserve[int(m.dst[1:]) - 1]) if m.dst.startswith("r") else 0,
            ),
        )
        moves.append(str(best))
        position = rules.play(position, best)
    return moves


def compact(png: bytes) -> Image.Image:
    """The screenshot in 256 colours (a third of the size; cards and table stay crisp)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def shoot(browser: Any, server: LiveServer, game: str, out: Path) -> list[Path]:
    """Start ``game``'s deal, play its opening, and save it in every theme and size."""
    options, deal, count = GAMES[game]
    view = server.api("POST", "/games", {"game": game, "options": options, "deal": deal})
    for move in opening(new_game(game, deal=deal, options=options), count):
        view = server.api("POST", f"/games/{view['id']}/move", {"move": move})
    saved = []
    for theme, suffix in THEMES.items():
        for size, (viewport, phone) in SIZES.items():
            context = browser.new_context(
                viewport=viewport,
                device_scale_factor=1,
                color_scheme=theme,
                has_touch=phone,
                is_mobile=phone,
            )
            context.add_init_script(NO_ANIMATION)
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_function(
                "(n) => document.querySelector('#info .moves')?.textContent.includes(n)",
                arg=str(view["moves_made"]),
            )
            page.evaluate("document.getElementById('status').replaceChildren()")
            path = out / f"{game}-{size}{suffix}.png"
            compact(page.screenshot()).save(path, optimize=True)
            saved.append(path)
            context.close()
    return saved


def main(argv: list[str] | None = None) -> None:
    """Write the screenshots of the games asked for (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, LiveServer(Path(data)) as server:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for game in args.game or GAMES:
                for path in shoot(browser, server, game, args.out):
                    print(path.relative_to(args.out.parent) if path.is_relative_to(ROOT) else path)
            browser.close()


if __name__ == "__main__":
    main()
