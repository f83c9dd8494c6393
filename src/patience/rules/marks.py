"""What the table shows beside the cards, computed from the rules alone (the page reads
it with every position; ``declare.py`` says where the piles lie, this says what they
take now)."""

from __future__ import annotations

from typing import Any

from ..position import Position
from .core import GameRules


def table_marks(game: GameRules, p: Position) -> dict[str, Any]:
    """What the table shows beside the cards in ``p``, from the rules alone: the rank an
    empty tableau pile takes (None: nothing), each foundation's first rank and step, and
    whether the stock's top card lies face up (in play), and whether sending every card
    home now wins (the "Finish" offer)."""
    after = p
    for move in game.auto_finish(p):
        after = game.apply(after, move)
    return {
        "empty_tableau_takes": game.empty_rank(p),
        "empty_tableau_takes_any": game.empty_takes_any,
        "foundations": [
            {"start": game.foundation_start(p, i), "step": game.foundation_step(i)}
            for i in range(len(p.foundations))
        ],
        "stock_face_up": bool(p.stock) and game.stock_playable(p),
        "finishes": not game.is_won(p) and game.is_won(after),
    }
