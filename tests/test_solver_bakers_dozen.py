"""The Baker's Dozen solver: verdicts on hand-made positions, and its pruning checked
against a plain exhaustive search over every legal move on positions from real deals."""

from __future__ import annotations

import random
import time

import pytest

from patience import Position, game_for, get_game
from patience.cards import RANK, SUIT, make_card, parse_card
from patience.games import position_to_json
from patience.solver import solve
from patience.solver.bakers_dozen import BakersDozenAdapter
from patience.solver.base import Adapter
from patience.solver.dfs import reference_runner, search
from patience.solver.schedule import Budget, Schedule, Stage
from patience.solver.search import decide, replay
from search_golden import pinned_search

VARIANTS = [
    {"kings": "to-bottom", "build": "any-suit"},
    {"kings": "empty-piles", "build": "any-suit"},
    {"kings": "to-bottom", "build": "other-suit"},
    {"kings": "empty-piles", "build": "other-suit"},
]


def position(options: dict[str, str], piles: list[str]) -> Position:
    """A validated position: the cards in ``piles`` (bottom to top), every other card home."""
    rules = get_game("bakers-dozen", options)
    tableau = [tuple(parse_card(t) for t in pile.split()) for pile in piles]
    tableau += [()] * (13 - len(tableau))
    out = {c for pile in tableau for c in pile}
    foundations = []
    for s in range(4):
        f = []
        for r in range(1, 14):
            c = make_card(r, s)
            if c in out:
                break
            f.append(c)
        foundations.append(tuple(f))
    p = Position(
        rules.name, rules.options, None, (), (), tuple(foundations), tuple(tableau), (0,) * 13, ()
    )
    assert not rules.validate(p), rules.validate(p)
    return p


def exhaustive(p: Position, max_states: int = 400_000) -> str:
    """The verdict of the plain search: every legal move, no pruning, no safe moves."""
    return search(p, Adapter(game_for(p)), max_states=max_states)[0]


def pinned_exhaustive(p: Position, max_states: int) -> str:
    """``exhaustive``'s verdict on a random position, as committed (search_golden.py)."""
    return pinned_search(p, max_states, "plain")


def check_won(p: Position, timeout: float = 10.0) -> None:
    """The solver wins ``p`` with a line the engine accepts."""
    r = solve(p, timeout=timeout)
    assert r.result == "won"
    end = replay(p, r.moves)
    assert game_for(end).is_won(end)


HEARTS_DOWN = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"
SPADES_DOWN = "KS QS JS TS 9S 8S 7S 6S 5S 4S"


def test_trivial_win_and_loss() -> None:
    check_won(position(VARIANTS[0], ["KS QS"]))
    # KS covers QS: with kings=to-bottom it never moves, with kings=empty-piles it
    # goes to an empty pile and both go home.
    stuck = ["QS KS"]
    assert solve(position(VARIANTS[0], stuck), timeout=5).result == "lost"
    assert exhaustive(position(VARIANTS[0], stuck)) == "lost"
    check_won(position(VARIANTS[1], stuck))


def test_build_rule() -> None:
    # 2H covers AH and 3S lies beneath them: 2H can only leave onto 3H (the top of
    # the hearts), which build=other-suit forbids.
    piles = ["3S AH 2H", HEARTS_DOWN, SPADES_DOWN]
    check_won(position(VARIANTS[0], piles))
    lost = position(VARIANTS[2], piles)
    assert solve(lost, timeout=5).result == "lost"
    assert exhaustive(lost) == "lost"
    assert BakersDozenAdapter(game_for(lost)).dead(lost)


def test_one_move_from_lost() -> None:
    hearts = " ".join(f"{r}H" for r in "456789TJQK")
    # 2H covers AH, 3H lies under the other hearts with KH on top: lost.
    lost = position(VARIANTS[0], ["AH 2H", "3H " + hearts])
    assert solve(lost, timeout=5).result == "lost"
    assert exhaustive(lost) == "lost"
    # 3H on top: 2H goes onto it (the only winning move), AH home, every heart follows.
    near = position(VARIANTS[0], ["AH 2H", " ".join(reversed(("3H " + hearts).split()))])
    r = solve(near, timeout=5)
    assert r.result == "won"
    assert str(r.moves[0]) == "t1>t2"


@pytest.mark.parametrize("options", VARIANTS)
def test_dead_relaxation(options: dict[str, str]) -> None:
    # 2S and 2H each cover the other's Ace; their parents (the 3s) lie beneath them.
    piles = ["3C 3D AH 2S", "3S 3H AS 2H", "KC QC JC TC 9C 8C 7C 6C 5C 4C"]
    piles += ["KD QD JD TD 9D 8D 7D 6D 5D 4D", HEARTS_DOWN[:-3], SPADES_DOWN[:-3] + " 4S"]
    p = position(options, piles)
    adapter = BakersDozenAdapter(game_for(p))
    assert adapter.dead(p)
    assert solve(p, timeout=5).result == "lost"
    assert exhaustive(p) == "lost"
    # One 3 freed (3D on a pile of its own): 2S goes onto it, AH home, and so on.
    piles[0] = "3C AH 2S"
    piles.append("3D")
    q = position(options, piles)
    assert not adapter.dead(q)
    check_won(q)


def random_deal(rng: random.Random, options: dict[str, str], left: int) -> Position | None:
    """A real deal played along a winning line until ``left`` cards are in the piles,
    then a few random moves (which may lose it)."""
    g = get_game("bakers-dozen", options)
    p = g.new_position(rng.randrange(1, 10**6))
    r = solve(p, timeout=2)
    if r.result != "won":
        return None
    for m in r.moves:
        if sum(len(t) for t in p.tableau) <= left:
            break
        p = g.play(p, m)
    for _ in range(rng.randint(0, 8)):
        moves = [m for m in g.legal_moves(p) if m.dst.startswith("t")]
        if not moves:
            break
        p = g.play(p, rng.choice(moves))
    return p


def random_layout(
    rng: random.Random, options: dict[str, str], left: int, used: int = 0
) -> Position:
    """The ``left`` highest cards (by suit, at random) shuffled into ``used`` of the 13 piles (3 to
    8 when not given): positions no deal need reach, with Kings anywhere."""
    rules = get_game("bakers-dozen", options)
    lows = [13, 13, 13, 13]
    weights = [rng.random() for _ in range(4)]  # some suits go deeper than others
    for _ in range(left - 4):
        s = rng.choices(range(4), weights)[0]
        while lows[s] == 1:
            s = rng.randrange(4)
        lows[s] -= 1
    out = [make_card(r, s) for s in range(4) for r in range(lows[s], 14)]
    rng.shuffle(out)
    piles: list[list[int]] = [[] for _ in range(13)]
    used = used or rng.randint(3, 8)
    for k, c in enumerate(out):
        piles[k if k < used else rng.randrange(used)].append(c)
    home = tuple(tuple(make_card(r, s) for r in range(1, lows[s])) for s in range(4))
    p = Position(
        rules.name, rules.options, None, (), (), home, tuple(map(tuple, piles)), (0,) * 13, ()
    )
    assert not rules.validate(p)
    return p


def suit_rank_ok(p: Position) -> bool:
    """Cards of a suit at home form a prefix (true of every real position)."""
    return all(
        all(RANK[c] == k + 1 and SUIT[c] == SUIT[f[0]] for k, c in enumerate(f))
        for f in p.foundations
    )


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS)
def test_agrees_with_exhaustive_search(options: dict[str, str]) -> None:
    """The pruned solver and a plain search over every legal move give the same verdict,
    on positions from real deals and on random layouts (with no empty pile, too, where
    Kings may need one)."""
    rng = random.Random(f"bakers-{options['kings']}-{options['build']}")
    verdicts = {"won": 0, "lost": 0, "unknown": 0}
    positions: list[Position | None] = [random_deal(rng, options, rng.randint(12, 16))]
    positions += [random_layout(rng, options, rng.randint(10, 18)) for _ in range(24)]
    if options["kings"] == "empty-piles":
        positions += [random_layout(rng, options, rng.randint(14, 17), 13) for _ in range(8)]
    for k, p in enumerate(positions):
        if p is None:
            continue
        assert suit_rank_ok(p)
        # The deal's position follows the solver's winning line, which may differ with the
        # time the solve had (its stages end at shares of it): it is searched live, cheaply.
        truth = exhaustive(p, 5_000) if k == 0 else pinned_exhaustive(p, 5_000)
        verdicts[truth] += 1
        if truth == "unknown":
            continue
        r = solve(p, timeout=20)
        assert r.result == truth, position_to_json(p)
        # The adapter's own staged search (probe, discrepancy passes, exhaustive).
        adapter = BakersDozenAdapter(game_for(p))
        verdict, line, _ = decide(p, adapter, Budget.until(time.monotonic() + 20))
        assert verdict == truth, position_to_json(p)
        if truth == "won":
            for moves in (r.moves, line):
                end = replay(p, moves)
                assert game_for(end).is_won(end)
    assert verdicts["won"] >= 5, verdicts
    if options["kings"] == "to-bottom":
        assert verdicts["lost"] >= 5, verdicts


def test_decide_stages() -> None:
    """Tiny caps push decide() through every stage (probe, passes, jittered and shuffled
    restarts, exhaustive search); the verdicts stay those of the plain search."""
    options = VARIANTS[0]
    rng = random.Random("stages")
    seen = set()
    for _ in range(12):
        p = random_layout(rng, options, rng.randint(12, 16))
        truth = pinned_exhaustive(p, 5_000)
        if truth == "unknown":
            continue
        adapter = BakersDozenAdapter(game_for(p))
        adapter.schedule = Schedule(
            passes=0.01, probe=1, restarts=0.3, shuffled=0.6, shuffle_cap=20
        )
        decided = decide(p, adapter, Budget.until(time.monotonic() + 2))
        assert decided[0] == truth, position_to_json(p)
        assert adapter.jitter is None and not adapter.shuffle
        if truth == "won":
            end = replay(p, decided[1])
            assert game_for(end).is_won(end)
        seen.add(truth)
    assert seen == {"won", "lost"}


def test_without_cuts() -> None:
    """With ``prune`` off (no relaxation, no emptying cut) the verdicts are the same."""
    rng = random.Random("no cuts")
    for options in VARIANTS[:2]:
        for _ in range(6):
            p = random_layout(rng, options, rng.randint(10, 14))
            plain = BakersDozenAdapter(game_for(p))
            plain.prune = False
            assert search(p, plain)[0] == search(p, BakersDozenAdapter(game_for(p)))[0]


@pytest.mark.parametrize("native", [False, True])
def test_shuffled_orders_keep_the_verdicts(native: bool) -> None:
    """A shuffled restart searches the moves in another order (the states it takes vary
    with its seed), and when it searches everything its verdict is the plain search's,
    in the reference search and the native one."""
    rng = random.Random("shuffled")
    counts: set[int] = set()
    seen = set()
    for _ in range(10):
        options = rng.choice(VARIANTS)
        p = random_layout(rng, options, rng.randint(12, 16))
        truth = pinned_exhaustive(p, 20_000)
        if truth == "unknown":
            continue
        adapter = BakersDozenAdapter(game_for(p))
        budget = Budget.until(time.monotonic() + 30, max_states=200_000)
        runner = adapter.runner(p, budget, 1 << 16) if native else None
        if native and runner is None:
            pytest.skip("the native solver was not built")
        for seed in (1, 2, 3):
            stage = Stage(time.monotonic() + 30, seed=seed, shuffle=True)
            if runner is None:
                verdict, line, n = reference_runner(p, adapter, None, 1 << 16)(stage, None)
            else:
                verdict, line, n = runner(stage, None)
            assert verdict == truth, position_to_json(p)
            if truth == "won":
                end = replay(p, line)
                assert game_for(end).is_won(end)
            counts.add(n)
        seen.add(truth)
    assert seen == {"won", "lost"} and len(counts) > 3
