"""Baker's Dozen searched by classes (``bd_classes_oracle.py`` and its native twin): its
groups multiply to the whole class, and its verdicts are exact."""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace

import pytest

from bd_classes_oracle import ClassSearch
from bench_scripts import load_bench
from endgames import pinned_brute, tiny
from patience.cards import parse_card
from patience.games import get_game
from patience.solver import solve
from patience.solver.alternating import native
from patience.solver.bakers_dozen import BakersDozenAdapter
from patience.solver.bakers_dozen_lines import line_of
from patience.solver.schedule import Budget, Stage, Verdict, run
from patience.solver.search import replay

arrangements = load_bench("arrangements")

OTHER = {"build": "other-suit", "kings": "to-bottom"}


def class_search(deal: int, build: str = "other-suit", looser: int | None = None) -> ClassSearch:
    """The reference search by classes; ``looser``: the looser game's give-up, in place
    of the adapter's (0: the classes alone)."""
    game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
    adapter = BakersDozenAdapter(game)
    if looser is not None:
        adapter.looser_states = looser
    return ClassSearch(adapter, game.new_position(deal))


def test_the_groups_arrangements_multiply_to_every_arrangement_of_the_class() -> None:
    """States met by the reference order's walk of 417: the product of the groups'
    arrangements is the count of every state the rearrangements reach (4,536 there)."""
    game = get_game("bakers-dozen", OTHER)
    adapter = BakersDozenAdapter(game)
    search = class_search(417)
    valid = arrangements.may_lie_on(other_suit=True)
    seen: set[bytes] = set()
    todo = [game.new_position(417)]
    products = []
    while todo and len(seen) < 1_200:
        p = todo.pop()
        _, p = adapter.auto(p)
        key = adapter.key(p)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) % 400 == 0:
            tab = tuple(tuple(x) for x in p.tableau)
            product = math.prod(len(a) for _, a in search.groups(tab))
            assert product == arrangements.rearrangements(tab, valid, 10**6)
            products.append(product)
        if not adapter.dead(p):
            todo.extend(game.apply(p, m) for _, _, m, _ in adapter.children(p))
    assert max(products) > 1_000


def test_two_groups_join_where_their_arrangements_meet() -> None:
    """Arranged with the other as it lies, neither group reaches the other: only when
    6C has left 7D (on 7H) and 7C has left 8S (on 8D) may 7D go onto 8S. The class
    is then 6 arrangements, not the product 2 x 2 of two groups."""
    search = class_search(1)
    tab = tuple(
        tuple(parse_card(c) for c in pile.split())
        for pile in ("KS 8C 7D 6C", "KH 7H", "KD 9C 8S 7C", "KC 8D")
    )
    found = search.groups(tab)
    assert [(piles, len(a)) for piles, a in found] == [((0, 1, 2, 3), 6)]
    assert arrangements.rearrangements(tab, arrangements.may_lie_on(other_suit=True), 100) == 6


CASES = [
    # results/: lost, where the search without classes needs 681 (2548) to 35,888
    # states (6826); won
    ("other-suit", 2548, Verdict.LOST),
    ("other-suit", 3453, Verdict.LOST),
    ("other-suit", 9385, Verdict.LOST),
    ("other-suit", 6826, Verdict.LOST),
    ("other-suit", 2, Verdict.WON),
    ("other-suit", 4, Verdict.WON),
    # lost, where the study's search needed 1.4 to 1.9 million states
    ("any-suit", 5143, Verdict.LOST),
    ("any-suit", 3266, Verdict.LOST),
]


@pytest.mark.parametrize(("build", "deal", "verdict"), [*CASES, ("any-suit", 2, Verdict.WON)])
def test_the_search_by_classes_gives_the_solvers_verdict(
    build: str, deal: int, verdict: Verdict
) -> None:
    search = class_search(deal, build, looser=0)
    assert search.solve(max_states=200_000) == verdict
    assert 0 < search.classes < 10_000
    # With the looser game, fewer classes (none, when it loses the start).
    if verdict == Verdict.LOST:
        again = class_search(deal, build)
        assert again.solve(max_states=200_000) == verdict
        assert again.classes < max(search.classes, 2)


LOOSER = BakersDozenAdapter.looser_states


@pytest.mark.skipif(native is None, reason="no native module")
@pytest.mark.parametrize("looser", [0, LOOSER])
@pytest.mark.parametrize(("build", "deal", "verdict"), CASES)
def test_the_native_twin_gives_the_same_verdicts(
    build: str, deal: int, verdict: Verdict, looser: int
) -> None:
    game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
    piles = [bytes(pile) for pile in game.new_position(deal).tableau]
    code, states, classes, found, children = native.bakers_dozen_classes(
        piles, build == "other-suit", 30.0, -1, -1, None, looser
    )
    assert Verdict.of_code(code) == verdict
    if not looser or verdict == Verdict.WON:
        assert states > 0 and classes > 0 and found > 0
    if verdict == Verdict.WON:
        # Its line, rebuilt move by move through the groups' rearrangements, wins.
        line = line_of(BakersDozenAdapter(game), game.new_position(deal), children)
        assert line is not None and game.is_won(replay(game.new_position(deal), line))
    else:
        assert children == []


@pytest.mark.skipif(native is None, reason="no native module")
def test_the_native_twin_stops_at_its_states_and_rejects_a_malformed_tableau() -> None:
    game = get_game("bakers-dozen", OTHER)
    piles = [bytes(pile) for pile in game.new_position(6826).tableau]
    code, states, _, _, _ = native.bakers_dozen_classes(piles, True, 30.0, 100, -1, None)
    assert (Verdict.of_code(code), states) == (Verdict.UNKNOWN, 100)
    with pytest.raises(ValueError, match="13 piles"):
        native.bakers_dozen_classes(piles[:12], True, 30.0, -1, -1, None)
    with pytest.raises(ValueError, match="card out of range"):
        native.bakers_dozen_classes([b"\x40", *piles[1:]], True, 30.0, -1, -1, None)


def test_the_search_by_classes_needs_kings_to_the_bottom() -> None:
    game = get_game("bakers-dozen", {"build": "any-suit", "kings": "empty-piles"})
    with pytest.raises(ValueError, match="kings=to-bottom"):
        ClassSearch(BakersDozenAdapter(game), game.new_position(1))


@pytest.mark.skipif(native is None, reason="no native module")
def test_the_solver_proves_by_classes_a_loss_its_other_stages_cannot() -> None:
    """Other-suit 2110: with 600,000 states the other stages end undecided (the
    exhaustive search alone needs 135,329 and gets 0.15 of them); the search by classes
    proves it lost in its share (0.85 to 0.97: 72,000 children; it needs about 54,000)."""
    game = get_game("bakers-dozen", OTHER)
    position = game.new_position(2110)
    assert solve(position, timeout=None, max_states=600_000).result == Verdict.LOST
    adapter = BakersDozenAdapter(game)
    without = replace(adapter.schedule, classes=0.0)
    budget = Budget(0.0, math.inf, 600_000)
    runner = adapter.runner(position, budget, 1 << 20)
    assert runner is not None
    assert run(without, budget, runner) == (Verdict.UNKNOWN, [])
    # Kings into empty piles is another game: no search by classes there.
    again = get_game("bakers-dozen", {"build": "any-suit", "kings": "empty-piles"})
    runner = BakersDozenAdapter(again).runner(
        again.new_position(5143), Budget.until(time.monotonic() + 60), 1 << 16
    )
    assert runner is not None
    assert runner(Stage(time.monotonic() + 60, classes=True), None) == (Verdict.UNKNOWN, [], 0)


@pytest.mark.parametrize("build", ["any-suit", "other-suit"])
def test_the_search_by_classes_agrees_with_brute_force_on_endgames(build: str) -> None:
    """Random positions of 8 to 13 cards, decided by a breadth-first search over every
    legal move: the reference search by classes and its native twin give its verdict,
    and a native win's line, rebuilt, wins."""
    options = {"build": build, "kings": "to-bottom"}
    game = get_game("bakers-dozen", options)
    adapter = BakersDozenAdapter(game)
    rng = random.Random(31)
    verdicts: dict[str, int] = {}
    for k in range(120):
        p = tiny("bakers-dozen", options, rng, rng.randint(8, 13))
        truth = None if p is None else pinned_brute(p, 10_000)
        if p is None or truth is None:
            continue
        verdicts[truth] = verdicts.get(truth, 0) + 1
        looser = (0, 1, LOOSER)[k % 3]  # the classes alone, the looser game at once, in full
        adapter.looser_states = looser
        assert ClassSearch(adapter, p).solve() == truth
        if native is not None:
            piles = [bytes(pile) for pile in p.tableau]
            code, _, _, _, children = native.bakers_dozen_classes(
                piles, build == "other-suit", 30.0, -1, -1, None, looser
            )
            assert Verdict.of_code(code) == truth
            if truth == Verdict.WON:
                line = line_of(adapter, p, children)
                assert line is not None and game.is_won(replay(p, line))
    assert verdicts.get("won", 0) > 20 and verdicts.get("lost", 0) > 20


def test_the_bench_prints_both_searches_side_by_side(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench("groups")
    monkeypatch.setattr("sys.argv", ["groups.py", "--deals", "2548", "--seconds", "10"])
    bench.main()
    rows = capsys.readouterr().out.splitlines()[1:]
    names = ["reference", "native"] if native is not None else ["reference"]
    assert [row.split()[:4] for row in rows] == [
        ["2548", name, str(BakersDozenAdapter.looser_states), "lost"] for name in names
    ]
