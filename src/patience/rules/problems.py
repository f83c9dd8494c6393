"""What is wrong with a position read from outside (a file, a request): each problem
in one line, none for a sound position."""

from __future__ import annotations

from ..cards import RANK, SUIT, TEXT, Card
from ..position import Position
from .core import GameRules

RANK_NAMES = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")


def position_problems(game: GameRules, p: Position) -> list[str]:
    """Every problem of a position read from outside (empty when it is sound)."""
    problems: list[str] = []
    for label, got, want in (
        ("foundations", len(p.foundations), 4),
        ("tableau piles", len(p.tableau), game.tableau_piles),
        ("reserve piles", len(p.reserve), game.reserve_piles),
    ):
        if got != want:
            problems.append(f"{game.title} has {want} {label}, the position has {got}")
    if problems:
        return problems
    seen: dict[Card, int] = {}
    for c in p.cards_in_play():
        seen[c] = seen.get(c, 0) + 1
    dup = [TEXT[c] for c in sorted(seen) if seen[c] > 1]
    missing = [TEXT[c] for c in range(52) if c not in seen]
    if dup:
        problems.append("duplicate cards: " + " ".join(dup))
    if missing:
        problems.append("missing cards: " + " ".join(missing))
    if not game.has_stock and (p.stock or p.waste):
        problems.append(f"{game.title} has no stock or waste")
    if not game.has_redeals and p.redeals:
        problems.append(f"{game.title} has no redeal: 'redeals' must be 0")
    for k, (pile, d) in enumerate(zip(p.tableau, p.down, strict=True)):
        if d and d >= len(pile):
            problems.append(f"t{k + 1}: its top card must be face up")
    cap = game.reserve_capacity
    for k, r in enumerate(p.reserve):
        if cap is not None and len(r) > cap:
            problems.append(f"r{k + 1} holds {len(r)} cards, more than {cap}")
    if game.base_ends_sequence != (p.base is not None):
        problems.append(
            "'base' is required" if game.base_ends_sequence else f"{game.title} has no base rank"
        )
    if not problems:
        problems.extend(_foundation_problems(game, p))
    problems.extend(game.extra_problems(p))
    return problems


def _foundation_problems(game: GameRules, p: Position) -> list[str]:
    problems = []
    for i, f in enumerate(p.foundations):
        if len(f) > 13:
            problems.append(f"f{i + 1} holds {len(f)} cards, more than 13")
            continue
        for k, card in enumerate(f):
            acc = game._next_on_foundation(p, i, f[:k])
            if acc is None or RANK[card] != acc[0] or (acc[1] >= 0 and SUIT[card] != acc[1]):
                if k:
                    problems.append(f"f{i + 1}: {TEXT[card]} does not follow {TEXT[f[k - 1]]}")
                else:
                    start = RANK_NAMES[game.foundation_start(p, i)]
                    article = "an" if start in ("Ace", "8") else "a"
                    problems.append(f"f{i + 1} must start with {article} {start}, not {TEXT[card]}")
                break
    return problems
