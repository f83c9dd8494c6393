"""Perft: pinned counts of move sequences from two deals of every registered variant, with
a per-move divide on a mismatch.

Each variant's depth is the deepest (at most ``MAX_DEPTH``) whose count stays within
``MAX_LEAVES`` and above 0, chosen when the golden file is made. Make it again (only
after a deliberate rules change, or for a new game): PERFT_REGEN=1 pytest tests/test_perft.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from patience import Position, get_game
from patience.games import variants

GOLDEN = Path(__file__).parent / "golden" / "perft.json"
DEALS = (1, 2)
MAX_DEPTH = 7
MAX_LEAVES = 30_000
CASES = [(game, options, deal) for game, options in variants() for deal in DEALS]


def perft(p: Position, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``p``."""
    if depth == 0:
        return 1
    rules = get_game(p.game, dict(p.options))
    moves = rules.legal_moves(p)
    if depth == 1:
        return len(moves)
    return sum(perft(rules.play(p, m), depth - 1) for m in moves)


def divide(p: Position, depth: int) -> dict[str, int]:
    """perft below each first move."""
    rules = get_game(p.game, dict(p.options))
    return {str(m): perft(rules.play(p, m), depth - 1) for m in rules.legal_moves(p)}


def case_id(game: str, options: dict[str, str], deal: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{game}[{opts}]#{deal}"


def deepest(p: Position) -> int:
    """The deepest depth up to ``MAX_DEPTH`` whose perft stays within ``MAX_LEAVES``, and
    above 0 (a game stuck within so many moves pins nothing deeper)."""
    depth = 1
    while depth < MAX_DEPTH and 0 < perft(p, depth + 1) <= MAX_LEAVES:
        depth += 1
    return depth


@pytest.mark.parametrize(("game", "options", "deal"), CASES, ids=lambda x: str(x))
def test_perft(game: str, options: dict[str, str], deal: int) -> None:
    p = get_game(game, options).new_position(deal)
    key = case_id(game, options, deal)
    golden: dict[str, Any] = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("PERFT_REGEN"):
        depth = deepest(p)
        golden[key] = {"depth": depth, "divide": divide(p, depth)}
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        return
    assert key in golden, f"no perft pinned for {key}: PERFT_REGEN=1 pytest {__file__}"
    depth, want = golden[key]["depth"], golden[key]["divide"]
    got = divide(p, depth)
    if got != want:
        lines = [
            f"  {m}: got {got.get(m)} want {want.get(m)}"
            for m in sorted(set(got) | set(want))
            if got.get(m) != want.get(m)
        ]
        pytest.fail(
            f"perft {key}@{depth}: {sum(got.values())} != {sum(want.values())}\n" + "\n".join(lines)
        )


def test_the_pins_were_made_for_the_registered_variants() -> None:
    # A pin of a variant that no longer exists is a rules change nobody made on purpose.
    golden = json.loads(GOLDEN.read_text())
    assert set(golden) == {case_id(*case) for case in CASES}
