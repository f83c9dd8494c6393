"""The solver against exact verdicts: the committed end games (tests/endgames.py), each
decided without the solver's cuts, by a plain search over every legal move (lost) or a
line the rules replay to a won game (won). A cut that gave up a win, or a win claimed
where none is, fails here on positions no other test chose."""

from __future__ import annotations

from collections import Counter

import pytest

from endgames import brute, load_golden
from engine_builders import VARIANTS
from patience import game_for
from patience.games import GAMES, position_from_json
from patience.solver import solve
from patience.solver.dfs import search
from patience.solver.search import adapter_for

ENTRIES = load_golden()


def key(game: str, options: dict[str, str]) -> str:
    return f"{game} {','.join(f'{k}={v}' for k, v in sorted(options.items()))}"


BY_VARIANT: dict[str, list[dict[str, object]]] = {}
for entry in ENTRIES:
    pos = entry["position"]
    BY_VARIANT.setdefault(key(pos["game"], pos["options"]), []).append(entry)


def test_every_game_and_mode_has_end_games_won_and_lost() -> None:
    # The end games check the cuts of a game's own search; a game searched by the generic
    # search (every legal move, no cut) has none to check.
    for game, options in VARIANTS:
        if GAMES[game].solver_adapter is None:
            continue
        count = Counter(e["verdict"] for e in BY_VARIANT.get(key(game, options), []))
        assert count["won"] >= 5, (game, options, count)
        # With Kings to empty piles hardly any Baker's Dozen end game is lost.
        if options.get("kings") != "empty-piles":
            assert count["lost"] >= 5, (game, options, count)


@pytest.mark.parametrize("variant", sorted(BY_VARIANT))
def test_the_solver_gives_each_end_game_its_exact_verdict(variant: str) -> None:
    for entry in BY_VARIANT[variant]:
        p = position_from_json(entry["position"])
        # A state budget, no clock: the same verdict on any machine, however busy.
        r = solve(p, timeout=None, max_states=2_000_000)
        assert r.result == entry["verdict"], entry["position"]


@pytest.mark.parametrize("variant", sorted(BY_VARIANT))
def test_the_reference_search_agrees_where_it_decides(variant: str) -> None:
    decided = 0
    for entry in BY_VARIANT[variant]:
        p = position_from_json(entry["position"])
        verdict, _, _ = search(p, adapter_for(game_for(p)), max_states=5_000)
        if verdict != "unknown":
            assert verdict == entry["verdict"], entry["position"]
            decided += 1
    assert decided >= len(BY_VARIANT[variant]) // 2, decided


@pytest.mark.slow
def test_the_committed_losses_are_losses() -> None:
    # The set itself, checked again where the plain search is quick: its losses.
    small = [e for e in ENTRIES if e["verdict"] == "lost" and e["plain"] < 2_000]
    assert len(small) >= 20
    for entry in small:
        assert brute(position_from_json(entry["position"]), limit=20_000) == "lost", entry
