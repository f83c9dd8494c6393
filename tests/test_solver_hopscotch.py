"""The Hopscotch labelled search: hand-made verdicts, real deals, and agreement with the
plain generic search on many small positions (which would catch an unsound cut)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine_builders import hop_sequences
from patience import Position, game_for, get_game, new_game
from patience.cards import RANK
from patience.games import position_to_json
from patience.moves import Move
from patience.solver.base import Adapter
from patience.solver.dfs import search
from patience.solver.hopscotch import HopscotchAdapter
from patience.solver.schedule import Budget
from patience.solver.search import decide as run_schedule
from patience.solver.search import replay, solve


def build(out: list[int], stock: list[int], waste: list[int], reserve: list[list[int]]) -> Position:
    """A validated position: every card not ``out`` is home (foundations cut at the first
    card out); ``stock`` is bottom to top (the last card is dealt first)."""
    rules = get_game("hopscotch")
    away = set(out)
    foundations = []
    for seq in hop_sequences():
        n = next((i for i, c in enumerate(seq) if c in away), 13)
        foundations.append(tuple(seq[:n]))
    p = Position(
        "hopscotch",
        rules.options,
        None,
        tuple(stock),
        tuple(waste),
        tuple(foundations),
        (),
        (),
        tuple(tuple(r) for r in reserve) + ((),) * (4 - len(reserve)),
        0,
        None,
    )
    assert not rules.validate(p), rules.validate(p)
    return p


def decide(p: Position, seconds: float = 10.0) -> tuple[str, list[Move]]:
    """The labelled search's verdict; a win is replayed through the engine."""
    adapter = HopscotchAdapter(game_for(p))
    verdict, moves, _ = run_schedule(p, adapter, Budget.until(time.monotonic() + seconds))
    if verdict == "won":
        end = replay(p, moves)
        assert game_for(end).is_won(end)
    return verdict, moves


def plain(p: Position) -> str:
    """The exhaustive generic search: every legal move, the engine's key, no pruning."""
    return search(p, Adapter(game_for(p)))[0]


def test_hand_made_verdicts() -> None:
    seqs = hop_sequences()
    kings = [seq[-1] for seq in seqs]
    won = build(kings, kings, [], [])
    assert decide(won)[0] == "won"
    # f1's Q under f1's K on one reserve: the K can never leave first (a cycle).
    q, k = seqs[0][-2], seqs[0][-1]
    lost = build([q, k], [], [], [[q, k]])
    assert decide(lost)[0] == "lost" == plain(lost)
    # One move from lost: the K is dealt first and must not go on the Q's reserve.
    near = build([q, k], [q, k], [], [])
    verdict, moves = decide(near)
    assert verdict == "won"
    g = game_for(near)
    after = g.play(g.play(g.play(near, Move.parse("deal")), Move.parse("w>r1")), Move.parse("deal"))
    assert decide(after)[0] == "won"
    bad = g.play(after, Move.parse("w>r1"))  # the Q onto the K
    assert decide(bad)[0] == "won"  # Q plays first, then K: fine
    worse = build([q, k], [], [k], [[q]])  # the K on the waste, the Q on r1
    assert decide(worse)[0] == "won"
    dead = g.play(worse, Move.parse("w>r1"))
    assert decide(dead)[0] == "lost" == plain(dead)
    # Equal ranks: two Kings waiting for two foundations, either label works.
    two = build([seqs[0][-1], seqs[1][-1]], [], [], [[seqs[1][-1], seqs[0][-1]]])
    assert decide(two)[0] == "won" == plain(two)


def test_real_deals_replay_and_budgets() -> None:
    p = new_game("hopscotch", 2)
    verdict, moves = decide(p, 20)
    assert verdict == "won" and len([m for m in moves if m.is_deal]) == 48
    adapter = HopscotchAdapter(game_for(p))
    stop = threading.Event()
    stop.set()
    # Nothing starts when cancelled or out of time; a win deals all 48 cards, one
    # state each, and a won deal is never proven lost: 47 states decide nothing.
    fresh = new_game("hopscotch", 1)
    soon = time.monotonic() + 30
    assert run_schedule(fresh, adapter, Budget.until(soon, cancel=stop)) == ("unknown", [], 0)
    assert run_schedule(fresh, adapter, Budget.until(soon, max_states=47))[0] == "unknown"
    late = Budget.until(time.monotonic() - 1)
    assert run_schedule(fresh, adapter, late) == ("unknown", [], 0)
    # The generic search with this adapter's safe moves still agrees on a won deal.
    r = solve(new_game("hopscotch", 3), timeout=5)
    assert r.result in ("won", "unknown")
    if r.result == "won":
        assert game_for(p).is_won(replay(new_game("hopscotch", 3), r.moves))


def small(rng: random.Random) -> Position:
    """A random position with 6-11 cards out: the last few of each foundation, spread
    over the stock, the waste and the reserves."""
    seqs = hop_sequences()
    out: list[int] = []
    total = rng.randint(6, 11)
    cut = [0, 0, 0, 0]
    while sum(cut) < total:
        k = rng.randrange(4)
        if cut[k] < 6:
            cut[k] += 1
    for k in range(4):
        if cut[k]:
            out.extend(seqs[k][-cut[k] :])
    rng.shuffle(out)
    stock: list[int] = []
    reserve: list[list[int]] = [[], [], [], []]
    share = rng.random() * 0.6
    for c in out:
        if rng.random() < share:
            stock.append(c)
        else:
            reserve[rng.randrange(4)].append(c)
    waste = [stock.pop()] if stock and rng.random() < 0.3 else []
    return build(out, stock, waste, reserve)


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_plain_search(seed: int) -> None:
    # Positions until both verdicts have been seen enough (a fixed sequence, not a
    # time: a busy machine must not make the test see fewer).
    rng = random.Random(seed)
    seen = {"won": 0, "lost": 0}
    for _ in range(200):
        if seen["won"] >= 5 and seen["lost"] >= 3:
            break
        p = small(rng)
        want = plain(p)
        got, _ = decide(p)
        assert got == want, position_to_json(p)
        seen[want] += 1
        # A child of a won position: often one move from lost.
        if want == "won":
            g = game_for(p)
            for m in g.legal_moves(p)[:3]:
                child = g.apply(p, m)
                assert decide(child)[0] == plain(child), (position_to_json(p), str(m))
    assert seen["won"] >= 5 and seen["lost"] >= 3, seen


def test_ranks_only() -> None:
    # The key ignores suits: the same ranks on swapped reserves meet in the table.
    seqs = hop_sequences()
    a, b = seqs[0][-1], seqs[1][-1]
    assert RANK[a] == RANK[b] == 13
    one = build([a, b], [], [], [[a], [b]])
    two = build([a, b], [], [], [[b], [a]])
    adapter = HopscotchAdapter(game_for(one))
    assert adapter.key(one) == adapter.key(two)
