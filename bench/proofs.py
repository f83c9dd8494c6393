"""Two builds on the same deals, side by side: verdicts, CPU seconds and states.

    python bench/proofs.py 053bc9b klondike -o mode=unlimited --deals 318,3343 --budget 60
    python bench/proofs.py 053bc9b HEAD klondike -o mode=three --deals 1-20 --budget 10

Each side is installed from its sources as ``bench/compare.py`` installs it (a virtual
environment of its own, the native searches built by the package's build hook). Each
deal is solved with the game's whole schedule (docs/solver.md, "One schedule, one
budget") by the one side and then the other, each in a process of its own (so neither
profits from memory the other warmed), within the same budget of CPU seconds. Prints a
row per deal and the totals: the deals each side decided, how many of them within 5
and 30 CPU seconds, and its CPU seconds and states in all. A verdict is a proof on
either side, so a deal both decide must get the same one: a difference is printed and
makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _solve(game: str, options: dict[str, str], deal: int, budget: float, table: int) -> None:
    """The measuring side: solve one deal on CPU time, print its figures as JSON."""
    import time

    from patience.games import get_game
    from patience.solver import clock, solve

    p = get_game(game, options).new_position(deal)
    start = time.process_time()
    with clock.cpu_time():
        r = solve(p, timeout=budget, table_size=table, check=False)
    cpu = time.process_time() - start
    print(json.dumps({"result": str(r.result), "cpu": cpu, "states": r.states}))


def _side(python: Path, args: argparse.Namespace, options: dict[str, str], deal: int) -> Any:
    cmd = [str(python), str(Path(__file__).resolve()), "--solve", args.game, json.dumps(options)]
    cmd += [str(deal), str(args.budget), str(args.table_size)]
    with tempfile.TemporaryDirectory(prefix="patience-proofs-") as tmp:
        # Run outside the sources, so that ``patience`` comes from the side's environment.
        done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=tmp)
    return json.loads(done.stdout)


def main() -> None:
    if sys.argv[1:2] == ["--solve"]:
        game, chosen, deal, budget, table = sys.argv[2:7]
        _solve(game, json.loads(chosen), int(deal), float(budget), int(table))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revisions", nargs="+", help="BEFORE [AFTER] GAME (AFTER: this tree)")
    ap.add_argument("-o", "--option", action="append", default=[], help="key=value")
    ap.add_argument("--deals", required=True, help="N, N-M, or a comma list of them")
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds a deal")
    ap.add_argument("--table-size", type=int, default=2_000_000, help="as solve's")
    args = ap.parse_args()
    if len(args.revisions) not in (2, 3):
        ap.error("give BEFORE [AFTER] GAME")
    *revs, args.game = args.revisions
    options = dict(o.split("=", 1) for o in args.option)

    from compare import _checkout, _install
    from patience.study.deals import parse_deals

    deals = list(parse_deals(args.deals))
    with tempfile.TemporaryDirectory(prefix="patience-proofs-") as tmp:
        root = Path(tmp)
        trees = [_checkout(revs[0], root / "before")]
        trees.append(_checkout(revs[1], root / "after") if len(revs) == 2 else HERE.parent)
        try:
            pythons = [_install(t, root / f"env{i}") for i, t in enumerate(trees)]
            rows = [[_side(py, args, options, d) for py in pythons] for d in deals]
        finally:
            for t in trees if len(revs) == 2 else trees[:1]:  # the worktrees made
                subprocess.run(["git", "-C", str(HERE.parent), "worktree", "remove", "-f", str(t)])
    table, status = report(deals, rows)
    print(table)
    sys.exit(status)


def report(deals: list[int], rows: list[list[dict[str, Any]]]) -> tuple[str, int]:
    """The table (a row per deal, then each side's totals) and the exit status: 1 when
    a deal both sides decided got two verdicts."""
    status = 0
    lines = [f"{'deal':>6}  {'before':>31}  {'after':>31}"]
    for deal, (b, a) in zip(deals, rows, strict=True):
        cells = [f"{s['result']:>7} {s['cpu']:7.1f} s {s['states']:>13,}" for s in (b, a)]
        note = ""
        if "unknown" not in (b["result"], a["result"]) and b["result"] != a["result"]:
            note, status = "  VERDICTS DIFFER", 1
        lines.append(f"{deal:>6}  {cells[0]}  {cells[1]}{note}")
    for i, side in enumerate(("before", "after")):
        done = [r[i] for r in rows if r[i]["result"] != "unknown"]
        within = [sum(r["cpu"] <= s for r in done) for s in (5, 30)]
        cpu = sum(r[i]["cpu"] for r in rows)
        states = sum(r[i]["states"] for r in rows)
        lines.append(
            f"{side}: {len(done)} of {len(rows)} decided ({within[0]} within 5 s, "
            f"{within[1]} within 30 s), {cpu:,.1f} CPU s, {states:,} states"
        )
    return "\n".join(lines), status


if __name__ == "__main__":
    main()
