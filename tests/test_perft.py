"""Perft: pinned counts of move sequences from fixed deals, with a per-move divide on mismatch.

Regenerate (only after a deliberate rules change): PERFT_REGEN=1 pytest tests/test_perft.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from patience import Position, get_game

GOLDEN = Path(__file__).parent / "golden" / "perft.json"

CASES: list[tuple[str, dict[str, str], int, int]] = [
    ("klondike", {"mode": "single"}, 1, 6),
    ("klondike", {"mode": "single"}, 7, 6),
    ("klondike", {"mode": "three"}, 1, 6),
    ("klondike", {"mode": "three"}, 31, 6),
    ("klondike", {"mode": "no-redeal"}, 2, 6),
    ("klondike", {"mode": "unlimited"}, 3, 5),
    ("lady-jane", {}, 1, 4),
    ("lady-jane", {}, 5, 4),
    ("bakers-dozen", {"kings": "to-bottom", "build": "any-suit"}, 1, 4),
    ("bakers-dozen", {"kings": "empty-piles", "build": "other-suit"}, 2, 4),
    ("hopscotch", {}, 1, 7),
    ("hopscotch", {}, 4, 7),
]


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


def case_id(game: str, options: dict[str, str], deal: int, depth: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{game}[{opts}]#{deal}@{depth}"


@pytest.mark.parametrize(("game", "options", "deal", "depth"), CASES, ids=lambda x: str(x))
def test_perft(game: str, options: dict[str, str], deal: int, depth: int) -> None:
    p = get_game(game, options).new_position(deal)
    key = case_id(game, options, deal, depth)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    got = divide(p, depth)
    if os.environ.get("PERFT_REGEN"):
        golden[key] = got
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        return
    want = golden[key]
    if got != want:
        lines = [
            f"  {m}: got {got.get(m)} want {want.get(m)}"
            for m in sorted(set(got) | set(want))
            if got.get(m) != want.get(m)
        ]
        pytest.fail(
            f"perft {key}: {sum(got.values())} != {sum(want.values())}\n" + "\n".join(lines)
        )
