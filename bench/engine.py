"""Engine speed: legal-move generations + moves applied per second over random playouts.

    python bench/engine.py [--seconds S] [--seed N]

Each step generates the legal moves of the position and plays one at random
(checked with ``play``, as a user's move would be; ``apply`` figures are the
unchecked path the solver uses). A playout restarts from a new deal when stuck
or after 300 moves. Rates are per CPU second of this process, so that a busy machine
slows the run, not the figures.
"""

from __future__ import annotations

import argparse
import random
import time

from patience.games import get_game


def measure(
    game: str,
    options: dict[str, str],
    seed: int,
    checked: bool,
    *,
    seconds: float = 0.0,
    steps: int | None = None,
    trail: list[object] | None = None,
) -> float:
    """Steps (generate + play one move) per CPU second: exactly ``steps`` steps when
    given (a fixed amount of work, whose instructions can be counted), else for
    ``seconds`` of CPU time. ``trail``, if given, gets every move played, in order (two
    builds compared must make the same moves)."""
    rules = get_game(game, options)
    rng = random.Random(seed)
    done = 0
    deal = 1
    p = rules.new_position(deal)
    length = 0
    step = rules.play if checked else rules.apply
    start = time.process_time()
    end = start + seconds
    while done != steps:
        moves = rules.legal_moves(p)
        if not moves or length >= 300:
            deal += 1
            p = rules.new_position(deal)
            length = 0
            continue
        move = rng.choice(moves)
        if trail is not None:
            trail.append(move)
        p = step(p, move)
        length += 1
        done += 1
        if steps is None and done % 200 == 0 and time.process_time() >= end:
            break
    return done / (time.process_time() - start)


def main() -> None:
    """Print moves per second for each game and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from patience.games import variants  # here: bench/compare.py imports measure() from old builds

    print(f"{'game':<46}{'play (checked)/s':>18}{'apply (solver)/s':>18}")
    for game, options in variants():
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        checked = measure(game, options, args.seed, True, seconds=args.seconds)
        raw = measure(game, options, args.seed, False, seconds=args.seconds)
        print(f"{label:<46}{checked:>18,.0f}{raw:>18,.0f}")


if __name__ == "__main__":
    main()
