"""Benchmark the hint end to end in Chromium: from pressing H to the hint on the status line.

Starts ``patience serve`` (its solver workers as in use) on a fresh data folder, and for
each game deals 1..N, at the start and after 4 and 8 moves (legal moves drawn by a
seeded generator, played through the API), loads the page, presses H and times, in the
page, from the key's event to the status line showing the answer (a hint, a warning or
an error). Prints per game the mean, p99 and max seconds, where they went (mean/max:
from the key to the request leaving, the request at the server until its reply is in,
the page drawing it), and how many answers were not hints. The hint's budget is 2 s;
the goal is every answer within it.

    python bench/hint.py [-n 5] [--only klondike:mode=three]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' Chromium)
from live import LiveServer  # noqa: E402  (the tests' live server)
from patience.proportion import percentile  # noqa: E402

GAMES = [
    ("klondike", {}),
    ("klondike", {"mode": "three"}),
    ("lady-jane", {}),
    ("hopscotch", {}),
    ("bakers-dozen", {}),
]
AFTER = (0, 4, 8)
"""Moves made before each hint of a deal."""

WATCH = """() => {
  const status = document.getElementById("status");
  window.__hint = new Promise((resolve) => {
    let t0 = null;
    window.addEventListener("keydown", (ev) => { if (ev.key === "h") t0 = performance.now(); },
      { capture: true, once: true });
    const done = () => {
      const kind = status.dataset.kind;
      if (t0 !== null && kind !== "info") {
        observer.disconnect();
        const now = performance.now();
        const asked = performance.getEntriesByType("resource").filter(
          (e) => e.name.includes("/hint") && e.startTime >= t0);
        const reply = asked.length ? asked[asked.length - 1] : null;
        resolve({
          seconds: (now - t0) / 1000,
          sent: reply ? (reply.startTime - t0) / 1000 : null,
          server: reply ? (reply.responseEnd - reply.startTime) / 1000 : null,
          page: reply ? (now - reply.responseEnd) / 1000 : null,
          kind,
          text: status.textContent,
        });
      }
    };
    const observer = new MutationObserver(done);
    observer.observe(status, { attributes: true, childList: true, subtree: true });
  });
}"""


def _label(name: str, options: dict[str, str]) -> str:
    return name + "".join(f":{k}={v}" for k, v in options.items())


def _hint(page: Any, url: str) -> dict[str, Any]:
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate(WATCH)
    page.keyboard.press("h")
    result: dict[str, Any] = page.evaluate("window.__hint")
    return result


def main() -> None:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=5, help="deals 1..N per game")
    ap.add_argument("--only", default="", help="games whose label starts so, e.g. klondike:mode")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as data,
        LiveServer(Path(data)) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        print(
            f"{'game':22} {'hints':>5} {'mean':>6} {'p99':>6} {'max':>6}"
            f"  {'to the server':>13} {'there':>11} {'page after':>11}  not a hint"
        )
        for name, options in GAMES:
            label = _label(name, options)
            if args.only and not label.startswith(args.only):
                continue
            seconds: list[float] = []
            parts: dict[str, list[float]] = {"sent": [], "server": [], "page": []}
            others: list[str] = []
            for deal in range(1, args.n + 1):
                rng = random.Random(deal)
                body = {"game": name, "options": options, "deal": deal}
                view = server.api("POST", "/games", body)  # the page resumes it
                made = 0
                for after in AFTER:
                    while made < after and view["legal_moves"] and view["status"] == "playing":
                        move = rng.choice(view["legal_moves"])
                        view = server.api("POST", f"/games/{view['id']}/move", {"move": move})
                        made += 1
                    answer = _hint(page, server.url)
                    seconds.append(answer["seconds"])
                    for part, values in parts.items():
                        if answer[part] is not None:
                            values.append(answer[part])
                    if answer["kind"] != "hint":
                        others.append(f"{answer['kind']}: {answer['text'][:60]}")
            split = "".join(
                f" {statistics.fmean(v):5.2f}/{max(v):5.2f}" if v else f" {'-':>11}"
                for v in parts.values()
            )
            print(
                f"{label:22} {len(seconds):5} {statistics.fmean(seconds):6.2f}"
                f" {percentile(seconds, 0.99):6.2f} {max(seconds):6.2f}  {split[1:]:>37}"
                f"  {len(others)}"
            )
            for other in others:
                print("    " + other)
        browser.close()


if __name__ == "__main__":
    main()
