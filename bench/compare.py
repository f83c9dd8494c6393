"""Before and after in one run: engine and solver speed of two builds, side by side.

    python bench/compare.py ac0a313            # that commit against this working tree
    python bench/compare.py ac0a313 HEAD --rounds 5 --deals 40 --states 20000

Each side is installed from its sources into a virtual environment of its own (the
native searches built by the package's build hook, as a user's install builds them), and
the same measurements run on both, alternating, ``--rounds`` times; the median of each
is printed with the change. Measured: the engine's random playouts (``bench/engine.py``'s
``measure``: legal moves plus a checked ``play``, and the solver's unchecked ``apply``,
steps per second) and the solver on deals 1..``--deals`` of every mode, each stopped at
``--states`` states so both sides search the same work (the states searched and the
deals won are printed, any difference marked; CPU seconds are compared). Every figure is
per CPU second or in CPU seconds, so a busy machine slows the run more than it moves the
figures. A change over ``--limit`` percent is flagged with ``!``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _measure_engine(modes: list[tuple[str, dict[str, str]]], seconds: float) -> dict[str, float]:
    sys.path.insert(0, str(HERE))
    from engine import measure  # the same code bench/engine.py prints

    out = {}
    for game, options in modes:
        label = _label(game, options)
        out[f"engine {label} play/s"] = measure(game, options, seconds, 1, True)
        out[f"engine {label} apply/s"] = measure(game, options, seconds, 1, False)
    return out


def _measure_solver(
    modes: list[tuple[str, dict[str, str]]], deals: int, states: int
) -> dict[str, float]:
    from patience.games import get_game
    from patience.solver import solve

    out = {}
    for game, options in modes:
        rules = get_game(game, options)
        cpu = 0.0
        searched = 0
        won = 0
        for deal in range(1, deals + 1):
            p = rules.new_position(deal)
            t = time.process_time()
            r = solve(p, timeout=3600, max_states=states)
            cpu += time.process_time() - t
            searched += r.states
            won += r.result == "won"
        out[f"solver {_label(game, options)} cpu s"] = cpu
        out[f"solver {_label(game, options)} won"] = won
        out[f"solver {_label(game, options)} states"] = searched
    return out


def _label(game: str, options: dict[str, str]) -> str:
    return game + "".join(f":{k}={v}" for k, v in options.items())


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


def _run(python: Path, what: str, args: argparse.Namespace) -> dict[str, float]:
    cmd = [str(python), str(Path(__file__).resolve()), "--measure", what]
    cmd += [
        "--seconds",
        str(args.seconds),
        "--deals",
        str(args.deals),
        "--states",
        str(args.states),
        "--modes",
        json.dumps(args.modes),
    ]
    # Run outside the sources so ``patience`` comes from the environment, not src/.
    # One hash seed for every run: set and dict orders, hence the random playouts' moves,
    # are then the same on both sides and in every round.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        cmd, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(), env=env
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", nargs="?", help="git revision measured first")
    ap.add_argument("after", nargs="?", help="git revision (default: this working tree)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="engine seconds per figure")
    ap.add_argument("--deals", type=int, default=20, help="solver deals 1..N per mode")
    ap.add_argument("--states", type=int, default=20_000, help="solver states per deal")
    ap.add_argument("--limit", type=float, default=5.0, help="flag a slowdown over this %%")
    ap.add_argument("--measure", choices=("engine", "solver"), help=argparse.SUPPRESS)
    ap.add_argument("--modes", type=json.loads, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        m = (
            _measure_engine(args.modes, args.seconds)
            if args.measure == "engine"
            else _measure_solver(args.modes, args.deals, args.states)
        )
        print(json.dumps(m))
        return
    if not args.before:
        ap.error("name the revision to compare against, e.g. ac0a313")
    from patience.games import variants  # this tree's registry; both sides measure these

    args.modes = variants()
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
            runs: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
            for r in range(args.rounds):
                for what in ("engine", "solver"):
                    # Alternate which side goes first, so drift in the machine's load
                    # does not favour one.
                    order = ("before", "after") if r % 2 == 0 else ("after", "before")
                    for side in order:
                        for k, v in _run(pythons[side], what, args).items():
                            runs[side].setdefault(k, []).append(v)
                print(f"round {r + 1}/{args.rounds} done", flush=True)
        finally:
            for tree in trees:
                subprocess.run(
                    ["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                    check=False,
                )
    print(
        f"\nmedians of {args.rounds} rounds; engine {args.seconds:g} s a figure; solver deals "
        f"1..{args.deals}, {args.states} states each (cpu {os.cpu_count()} cores)"
    )
    print(f"{'figure':52} {'before':>12} {'after':>12} {'change':>8}")
    worst = 0.0
    for key in runs["before"]:
        b = statistics.median(runs["before"][key])
        a = statistics.median(runs["after"].get(key, [float("nan")]))
        change = 100 * (a - b) / b if b else 0.0
        # Faster is more steps per second, or fewer CPU seconds.
        slowdown = -change if key.endswith("/s") else change
        if key.endswith((" states", " won")):
            slowdown = 0.0
            mark = "" if a == b else "  (differ)"
        else:
            mark = "  !" if slowdown > args.limit else ""
            worst = max(worst, slowdown)
        print(f"{key:52} {b:12,.2f} {a:12,.2f} {change:+7.1f}%{mark}")
    print(f"\nlargest slowdown: {worst:+.1f}% (limit {args.limit:g}%)")


if __name__ == "__main__":
    main()
