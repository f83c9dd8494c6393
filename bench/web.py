"""Web benchmarks: move request -> reply on localhost, and time to first render.

Starts ``patience serve`` in a subprocess on a free port with a fresh data folder, plays
N moves through the HTTP API with one keep-alive httpx client, and prints the median and
p99 round trip (goal: p99 < 10 ms). Every move is committed to SQLite before its reply,
so the figure includes the write. With Chromium present it also loads the page in
Playwright and prints first paint / first contentful paint / DOMContentLoaded.

    python bench/web.py [--moves 500] [--seed 1] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' Chromium)


def start_server(data_dir: str) -> tuple[subprocess.Popen[str], str]:
    """Run ``patience serve`` on a free port; return the process and its URL."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from patience.cli import main; main()",
            "serve",
            "--no-browser",
            "--port",
            "0",
            "--data-dir",
            data_dir,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"running at (http://\S+)", line)
        if m:
            url = m.group(1).rstrip("/")
            break
    else:
        raise SystemExit("the server did not start")
    for _ in range(200):
        try:
            httpx.get(url + "/api/games", timeout=1.0)
            return proc, url
        except httpx.TransportError:
            time.sleep(0.05)
    raise SystemExit("the server does not answer")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def report(name: str, times: list[float]) -> dict[str, float]:
    """Print and return the median and p99 of ``times`` (seconds) in milliseconds."""
    ms = [t * 1000 for t in times]
    figures = {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "max_ms": round(max(ms), 3),
    }
    print(
        f"{name:<28} n={figures['n']:<5} median {figures['median_ms']:7.3f} ms"
        f"   p99 {figures['p99_ms']:7.3f} ms   max {figures['max_ms']:7.3f} ms"
    )
    return figures


def bench_moves(url: str, n: int, seed: int) -> dict[str, dict[str, float]]:
    """Play ``n`` random legal moves (new deal when stuck or won); time each request."""
    rng = random.Random(seed)
    move_times: list[float] = []
    undo_times: list[float] = []
    get_times: list[float] = []
    with httpx.Client(base_url=url, timeout=30.0) as c:
        c.get("/api/games")  # open the keep-alive connection

        def new() -> dict[str, object]:
            body = {
                "game": "klondike",
                "options": {"mode": "unlimited"},
                "deal": rng.randrange(10**6),
            }
            view: dict[str, object] = c.post("/api/games", json=body).json()
            return view

        view = new()
        while len(move_times) < n:
            legal = view["legal_moves"]
            assert isinstance(legal, list)
            if view["status"] != "playing" or not legal:
                view = new()
                continue
            # Prefer real moves to dealing so games get long histories, as in play.
            others = [m for m in legal if m != "deal"]
            move = rng.choice(others) if others and rng.random() < 0.7 else rng.choice(legal)
            t0 = time.perf_counter()
            r = c.post(f"/api/games/{view['id']}/move", json={"move": move})
            move_times.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
            view = r.json()
            if rng.random() < 0.1:
                t0 = time.perf_counter()
                r = c.post(f"/api/games/{view['id']}/undo")
                undo_times.append(time.perf_counter() - t0)
                view = r.json()
            if rng.random() < 0.1:
                t0 = time.perf_counter()
                c.get(f"/api/games/{view['id']}")
                get_times.append(time.perf_counter() - t0)
    return {
        "move": report("POST move", move_times),
        "undo": report("POST undo", undo_times),
        "get": report("GET game", get_times),
    }


def bench_render(url: str) -> dict[str, float] | None:
    """Load the page in Chromium; return paint timings in milliseconds, or None."""
    if not Path(CHROMIUM).exists():
        print("first render: skipped (no /usr/bin/chromium)")
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("first render: skipped (playwright is not installed)")
        return None
    if httpx.get(url + "/").status_code != 200:
        print("first render: skipped (no index.html yet)")
        return None
    runs: list[dict[str, float]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(5):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url + "/", wait_until="load")
            page.wait_for_timeout(300)
            timing = page.evaluate(
                """() => {
                    const nav = performance.getEntriesByType('navigation')[0];
                    const paint = Object.fromEntries(
                        performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
                    return {
                        first_paint: paint['first-paint'] ?? -1,
                        first_contentful_paint: paint['first-contentful-paint'] ?? -1,
                        dom_content_loaded: nav.domContentLoadedEventEnd,
                        load: nav.loadEventEnd,
                    };
                }"""
            )
            runs.append({k: float(v) for k, v in timing.items()})
            page.close()
        browser.close()
    # The first load warms Chromium's caches; report the median of the others.
    figures = {k: round(statistics.median(r[k] for r in runs[1:]), 1) for k in runs[0]}
    print(
        "first render (median of 4)   "
        + "   ".join(f"{k.replace('_', ' ')} {v:.1f} ms" for k, v in figures.items())
    )
    return figures


def main() -> None:
    """Run the benchmarks and print the figures (and a JSON summary line)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        proc, url = start_server(data_dir)
        try:
            print(f"server {url}, {args.moves} moves, seed {args.seed}")
            summary: dict[str, object] = {"requests": bench_moves(url, args.moves, args.seed)}
            if not args.no_browser:
                summary["render"] = bench_render(url)
            p99 = summary["requests"]["move"]["p99_ms"]  # type: ignore[index]
            print(f"goal p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'} ({p99} ms)")
            print(json.dumps(summary))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    main()
