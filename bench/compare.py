"""Before and after in one run: engine and solver cost of two builds, side by side.

    python bench/compare.py ac0a313            # that commit against this working tree
    python bench/compare.py ac0a313 HEAD --rounds 9 --steps 5000 --deals 10 --states 20000

Each side is installed from its sources into a virtual environment of its own (the
native searches built by the package's build hook, as a user's install builds them).
The same fixed work is measured on both: per game and mode, ``--steps`` steps of the
engine's random playouts (``bench/engine.py``'s ``measure``: legal moves plus a checked
``play``, and the solver's unchecked ``apply``), and the solver on deals 1..``--deals``,
each stopped at ``--states`` states (the states searched and the deals won must match;
any difference is printed). Every run uses one hash seed, so the playouts make the same
moves on both sides and in every run (a digest of each playout's moves must match too).

Two figures per measurement:
- instructions executed, counted by valgrind's callgrind: each side twice (alternating),
  the two counts must agree (their largest difference is printed). They do not depend
  on the machine's load, so the verdict (a slowdown over ``--limit`` percent, ``!``)
  uses them;
- CPU seconds, the least of ``--rounds`` native runs (alternating sides): noise only
  ever adds time, so the minimum is the best estimate. On a busy machine they still
  move by tens of percent, so they are printed beside the counts, for reference.
The defaults took 34 minutes on 2 busy cores (callgrind runs Python ~50 times slower).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

Mode = tuple[str, dict[str, str]]
Figures = dict[str, dict[str, float]]
"""Per figure: ``cpu`` seconds, or ``instr`` executed; the engine's also ``moves`` (a
digest of the moves its playouts made), the solver's ``states`` and ``won``."""


def _measure(modes: list[Mode], steps: int, deals: int, states: int) -> Figures:
    """Every figure of this build, in order. Around each measured piece of work the
    process calls ``getppid``, where callgrind (``--dump-before=getppid``) writes its
    counts since the last write: the even-numbered writes are the figures' work."""
    sys.path.insert(0, str(HERE))
    from engine import measure  # the same code bench/engine.py prints
    from patience.games import get_game
    from patience.solver import solve

    def timed(work: Callable[[], object]) -> tuple[float, object]:
        os.getppid()
        start = time.process_time()
        result = work()
        cpu = time.process_time() - start
        os.getppid()
        return cpu, result

    def solved(rules: Any) -> list[Any]:
        return [
            solve(rules.new_position(d), timeout=3600, max_states=states)
            for d in range(1, deals + 1)
        ]

    out: Figures = {}
    for game, options in modes:
        label = game + "".join(f":{k}={v}" for k, v in options.items())
        for name, checked in (("play", True), ("apply", False)):
            trail: list[object] = []
            cpu, _ = timed(partial(measure, game, options, 1, checked, steps=steps, trail=trail))
            text = "\n".join(map(str, trail)).encode()
            moves = int(hashlib.sha256(text).hexdigest()[:12], 16)
            out[f"engine {label} {name}"] = {"cpu": cpu, "moves": moves}
        cpu, results = timed(partial(solved, get_game(game, options)))
        assert isinstance(results, list)
        won = sum(r.result == "won" for r in results)
        out[f"solver {label}"] = {"cpu": cpu, "states": sum(r.states for r in results), "won": won}
    return out


def _install(source: Path, where: Path) -> Path:
    """A virtual environment at ``where`` with ``source`` installed; its python."""
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    # The dependencies come from this environment (an added path), the package itself
    # is built from ``source``: the two sides differ only in patience.
    site = next(p for p in sys.path if p.endswith("site-packages"))
    lib = next((where / "lib").glob("python*")) / "site-packages"
    (lib / "_deps.pth").write_text(site + "\n")
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", str(source)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return python


def _checkout(rev: str, where: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(where), rev], check=True
    )
    return where


def _run(python: Path, args: argparse.Namespace, count: bool) -> Figures:
    """One measuring run of every figure on ``python``'s build; under callgrind if
    ``count``, each figure's ``cpu`` then replaced by its ``instr``."""
    work = ["--steps", str(args.steps), "--deals", str(args.deals), "--states", str(args.states)]
    cmd = [str(python), str(Path(__file__).resolve()), "--measure", *work]
    cmd += ["--modes", json.dumps(args.modes)]
    with tempfile.TemporaryDirectory(prefix="patience-callgrind-") as tmp:
        out = Path(tmp) / "cg.out"
        if count:
            grind = ["valgrind", "-q", "--tool=callgrind", "--dump-before=getppid"]
            cmd = [*grind, f"--callgrind-out-file={out}", *cmd]
        # Run outside the sources so ``patience`` comes from the environment, not src/.
        # One hash seed for every run: set and dict orders, hence the random playouts'
        # moves, are then the same on both sides and in every round.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=tmp, env=env)
        figures: Figures = json.loads(done.stdout)
        if count:
            if len(list(out.parent.glob("cg.out.*"))) != 2 * len(figures):
                raise SystemExit("callgrind wrote other than two counts a figure: getppid called?")
            for i, figure in enumerate(figures.values()):
                text = Path(f"{out}.{2 * i + 2}").read_text()
                figure.pop("cpu")
                figure["instr"] = int(text.split("\nsummary: ")[1].split()[0])
    return figures


def report(cpu: dict[str, list[Figures]], instr: dict[str, list[Figures]], limit: float) -> str:
    """The table: per figure the least CPU seconds and the instructions of each side
    with their change; any difference in the solver's work; the verdict, by instructions."""
    label = max(map(len, cpu["before"][0]))
    lines = [
        f"{'figure':{label}} {'CPU s before':>12} {'after':>7} {'change':>7}"
        f" {'Minstr before':>13} {'after':>8} {'change':>7}"
    ]
    sides = ("before", "after")
    worst = {"cpu": 0.0, "instr": 0.0}
    spread = 0.0
    notes = []
    for key in cpu["before"][0]:
        row = f"{key:{label}}"
        for what, runs, width, scale in (("cpu", cpu, 12, 1.0), ("instr", instr, 13, 1e-6)):
            b, a = (min(run[key][what] for run in runs[side]) for side in sides)
            change = 100 * (a - b) / b
            worst[what] = max(worst[what], change)
            row += f" {b * scale:{width},.3f} {a * scale:7,.3f} {change:+6.1f}%"
        lines.append(row + ("  !" if change > limit else ""))  # by the instructions
        for side in sides:
            counts = [run[key]["instr"] for run in instr[side]]
            spread = max(spread, 100 * (max(counts) - min(counts)) / min(counts))
        for what in ("moves", "states", "won"):
            seen = [{run[key].get(what) for run in cpu[side] + instr[side]} for side in sides]
            if len(seen[0] | seen[1]) > 1:
                notes.append(
                    f"{key}: {what} differ, {sorted(seen[0])} before, {sorted(seen[1])} after"
                )
    lines += notes or [
        "the playouts made the same moves, and the solver searched the same states and won "
        "the same deals, on both sides"
    ]
    lines.append(
        f"each side's instruction counts ({len(instr['before'])} runs) agree within {spread:.3f}%"
    )
    verdict = "OVER" if worst["instr"] > limit else "within"
    lines.append(
        f"largest slowdown: {worst['instr']:+.1f}% in instructions (the verdict: {verdict} "
        f"{limit:g}%); {worst['cpu']:+.1f}% in CPU seconds (noisy, for reference)"
    )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", nargs="?", help="git revision measured first")
    ap.add_argument("after", nargs="?", help="git revision (default: this working tree)")
    ap.add_argument("--rounds", type=int, default=5, help="native runs a side (CPU time)")
    ap.add_argument("--counts", type=int, default=2, help="callgrind runs a side")
    ap.add_argument("--steps", type=int, default=1000, help="engine playout steps a figure")
    ap.add_argument("--deals", type=int, default=4, help="solver deals 1..N per mode")
    ap.add_argument("--states", type=int, default=10_000, help="solver states per deal")
    ap.add_argument("--limit", type=float, default=5.0, help="flag a slowdown over this %%")
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--modes", type=json.loads, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(_measure(args.modes, args.steps, args.deals, args.states)))
        return
    if not args.before:
        ap.error("name the revision to compare against, e.g. ac0a313")
    from patience.games import variants  # this tree's registry; both sides measure these

    args.modes = variants()
    cpu: dict[str, list[Figures]] = {"before": [], "after": []}
    instr: dict[str, list[Figures]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory(prefix="patience-compare-") as tmp:
        root = Path(tmp)
        trees = []
        try:
            before = _checkout(args.before, root / "before")
            trees.append(before)
            after = REPO if args.after is None else _checkout(args.after, root / "after")
            if args.after is not None:
                trees.append(after)
            print(f"building {args.before} and {args.after or 'the working tree'} ...", flush=True)
            pythons = {
                "before": _install(before, root / "venv-before"),
                "after": _install(after, root / "venv-after"),
            }
            for runs, count, times in ((cpu, False, args.rounds), (instr, True, args.counts)):
                for r in range(times):
                    # Alternate which side goes first, so drift in the machine's load
                    # does not favour one.
                    for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
                        runs[side].append(_run(pythons[side], args, count))
                    what = "callgrind" if count else "native"
                    print(f"{what} run {r + 1}/{times} done", flush=True)
        finally:
            for tree in trees:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                    check=False,
                )
    print(
        f"\nengine {args.steps} steps a figure; solver deals 1..{args.deals}, {args.states} "
        f"states each; CPU: least of {args.rounds} runs (cpu {os.cpu_count()} cores)"
    )
    print(report(cpu, instr, args.limit))


if __name__ == "__main__":
    main()
