"""Make tests/golden/endgames.json.gz: end games of every game and mode with exact verdicts.

    python tools/endgames.py                    # the whole set (a quarter of an hour)
    python tools/endgames.py --lost 3 --won 3 --out /tmp/e.json.gz

Random end games (tests/endgames.py: ``tiny`` and ``crowded``), each decided without the
solver's cuts: ``lost`` by a plain breadth-first search over every legal move
(``brute``), ``won`` by a line the rules replay to a won game. The solver's own verdict
picks which positions to keep (every loss it finds, and the wins it took the most states
to find), and where it differs from the exact verdict the tool stops: that is a bug of
the solver's, to fix before any set is written. Positions the plain search cannot finish
within ``--limit`` states are left out.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from endgames import GOLDEN, crowded, exhaust, tiny  # noqa: E402
from engine_builders import VARIANTS  # noqa: E402
from patience import game_for, play  # noqa: E402
from patience.games import position_to_json  # noqa: E402
from patience.solver import solve  # noqa: E402

SIZES = {
    "klondike": (4, 30),
    "lady-jane": (4, 30),
    "bakers-dozen": (8, 20),
    "hopscotch": (4, 12),
    "freecell": (8, 26),
}
"""Cards away from the foundations, least and most, per game."""

STATES = 2_000_000
"""The solver's state budget per position (no clock: the same verdicts on any machine)."""


def collect(
    game: str, options: dict[str, str], lost: int, won: int, limit: int, tries: int
) -> list[dict[str, object]]:
    """``lost`` losses and the ``won`` hardest wins of ``tries`` random end games."""
    rng = random.Random(f"endgames {game} {sorted(options.items())}")
    lo, hi = SIZES[game]
    losses: list[dict[str, object]] = []
    wins: list[tuple[int, dict[str, object]]] = []
    for _ in range(tries):
        if len(losses) >= lost and len(wins) >= 4 * won:
            break
        n = rng.randint(lo, hi)
        many = game in ("klondike", "lady-jane", "freecell") and n > 12
        p = (crowded if many else tiny)(game, options, rng, n)
        if p is None:
            continue
        r = solve(p, timeout=None, max_states=STATES)
        text = position_to_json(p)
        if r.result == "unknown":
            print("undecided within", STATES, "states:", json.dumps(text), flush=True)
        elif r.result == "won":
            end = p
            for m in r.moves:
                end = play(end, str(m))
            assert game_for(end).is_won(end), text
            wins.append((r.states, {"position": text, "verdict": "won", "states": r.states}))
        elif len(losses) < lost:
            exact, plain = exhaust(p, limit)
            if exact is None:
                continue
            if exact != r.result:
                sys.exit(f"the solver says {r.result}, the plain search {exact}: {text}")
            losses.append({"position": text, "verdict": "lost", "states": r.states, "plain": plain})
    wins.sort(key=lambda w: -w[0])
    return losses + [w for _, w in wins[:won]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lost", type=int, default=15, help="losses per game and mode")
    ap.add_argument("--won", type=int, default=10, help="wins per game and mode")
    ap.add_argument("--limit", type=int, default=200_000, help="the plain search's states")
    ap.add_argument("--tries", type=int, default=1500, help="positions drawn per game and mode")
    ap.add_argument("--out", type=Path, default=GOLDEN)
    ap.add_argument(
        "--game", help="make this game's end games only, keeping the others' of the file"
    )
    args = ap.parse_args()
    lines = []
    if args.game:
        with gzip.open(args.out, "rt", encoding="utf-8") as f:
            kept = [json.loads(line) for line in f if line.strip()]
        lines = [json.dumps(e, sort_keys=True) for e in kept if e["position"]["game"] != args.game]
    for game, options in VARIANTS:
        if args.game and game != args.game:
            continue
        found = collect(game, options, args.lost, args.won, args.limit, args.tries)
        kinds = [e["verdict"] for e in found]
        print(game, options, kinds.count("lost"), "lost", kinds.count("won"), "won", flush=True)
        lines += [json.dumps(e, sort_keys=True) for e in found]
    with gzip.GzipFile(args.out, "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())


if __name__ == "__main__":
    main()
