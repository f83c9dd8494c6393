"""Winning lines without detours (``solver.lines.shorten``): a shortened line passes only
positions of the line it came from, in the same order, and wins where it won; the
solver gives players and the command line the shortened one."""

from __future__ import annotations

import pytest

from engine_builders import build
from patience import get_game
from patience.moves import Move
from patience.solver import solve
from patience.solver.lines import shorten


@pytest.mark.parametrize(
    ("game", "options", "deal"),
    [
        ("bakers-dozen", {}, 48),
        ("bakers-dozen", {"kings": "empty-piles"}, 38),
        ("klondike", {"mode": "three"}, 1),
        ("lady-jane", {}, 2),
        ("hopscotch", {}, 5),
    ],
)
def test_a_shortened_line_wins_through_the_lines_own_positions(
    game: str, options: dict[str, str], deal: int
) -> None:
    rules = get_game(game, options)
    start = rules.new_position(deal)
    found = solve(start, timeout=60.0, check=False)
    assert found.result == "won"
    passed = [start]
    for m in found.moves:
        passed.append(rules.play(passed[-1], m))
    order = {p.key(): k for k, p in enumerate(passed)}
    short = shorten(start, found.moves)
    assert len(short) <= len(found.moves)
    p, at = start, 0
    for m in short:
        p = rules.play(p, m)
        assert order.get(p.key(), -1) > at  # a later position of the same line
        at = order[p.key()]
    assert rules.is_won(p)


def test_the_solver_gives_a_wandering_line_shortened() -> None:
    # Baker's Dozen deal 48: the search's line has 2,792 moves, most of them cards going
    # back and forth; the line the solver returns has under 200.
    start = get_game("bakers-dozen").new_position(48)
    assert len(solve(start, timeout=60.0, check=False).moves) > 2_000
    result = solve(start, timeout=60.0)
    assert result.result == "won" and len(result.moves) < 200


def test_a_line_with_no_detour_is_left_as_it_is() -> None:
    ranks = "A23456789TJQ"
    home = tuple(" ".join(r + s for r in ranks) for s in "CDSH")
    start = build("klondike", f=home, t=["|KC", "|KD", "|KS", "|KH"])  # four Kings left
    line = [Move.parse(f"t{k}>f{k}") for k in (1, 2, 3, 4)]
    assert shorten(start, line) == line
    assert shorten(start, []) == []
