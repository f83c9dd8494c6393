"""The honest chance (issue 55): in Hopscotch, the share of games of the fair advice
itself (the hint's) played out over sampled stock orders weighed with the advice's prior
(its posterior mean), the same for the same view and seed, and loosely calibrated against
the advice's own wins (tests/test_hopscotch_calibration.py by tenths); elsewhere every chance says
what it is (``kind``)."""

from __future__ import annotations

import threading
from dataclasses import replace

from patience.cards import RANK
from patience.fair import Knowledge, Settings, policy_chance
from patience.fair.greedy import state_key
from patience.fair.hopscotch import opening, place
from patience.fair.hopscotch_advice import (
    advice_game,
    advice_until,
    advice_wins,
    prior,
)
from patience.fair.hopscotch_rollout import playout
from patience.fair_assist import SEED, chance_of, chance_text, fair_hint
from patience.games import get_game
from patience.moves import Move
from patience.position import Position
from patience.proportion import posterior_interval, posterior_mean

FEW = Settings(samples=3, budget=1e9)
"""Playouts bounded in number, never cut by the clock."""


def _game(deal: int, moves: tuple[str, ...]) -> tuple[Position, list[Position]]:
    game = get_game("hopscotch")
    p = game.new_position(deal)
    history = [p]
    for m in moves:
        p = game.play(p, Move.parse(m))
        history.append(p)
    return p, history


def test_the_same_view_and_seed_give_the_same_chance() -> None:
    # Another stock order behind the same view and history: the same playouts, won alike.
    p, history = _game(3, ("deal", "w>r1", "deal", "w>r2", "deal"))
    keys = {state_key(q) for q in history}
    k = Knowledge.of_history(history)
    e = policy_chance(p, k, keys, FEW, seed=7)
    assert e.samples == FEW.samples and e.unknown == 0 and not e.cut
    other = replace(p, stock=p.stock[::-1])
    rest = len(p.stock)
    other_keys = {(other.stock[-len(key[0]) :] if key[0] else (), *key[1:]) for key in keys}
    assert all(len(key[0]) >= rest for key in keys)
    assert policy_chance(other, k, other_keys, FEW, seed=7) == e
    assert policy_chance(p, k, keys, FEW, seed=7) == e
    reply = chance_of(p, k, 1e9, threading.Event(), FEW, keys)
    assert reply["kind"] == "advice-playouts" and reply["samples"] == FEW.samples
    assert reply["chance"] == round(policy_chance(p, k, keys, FEW, seed=SEED).share, 4)
    assert chance_text(reply).startswith("about ") and "following this advice" in chance_text(reply)
    assert "weighed with the advice's record" in chance_text(reply)


def test_the_chance_shown_is_the_posterior_mean_in_the_hint_and_the_indicator() -> None:
    # The share of the playouts won is weighed with the advice's prior for the cards left
    # (ten playouts alone regress to the mean: docs/fair-play.md), in one place
    # (``Estimate`` with its ``prior``): the hint and the chance indicator say the same.
    p, history = _game(3, ("deal", "w>r1", "deal", "w>r2", "deal"))
    keys = {state_key(q) for q in history}
    k = Knowledge.of_history(history)
    e = policy_chance(p, k, keys, FEW, seed=SEED)
    assert e.prior == prior(len(p.stock))
    assert e.share == posterior_mean(e.won, e.samples, e.prior)
    assert e.interval == posterior_interval(e.won, e.samples, e.prior)
    assert e.share != e.won / e.samples  # never the bare share of 3 playouts
    reply = chance_of(p, k, 1e9, threading.Event(), FEW, keys)
    hint = fair_hint(p, k, keys, 1e9, threading.Event(), replace(FEW, method="labels"))
    assert hint["kind"] == reply["kind"] == "advice-playouts"
    for key in ("chance", "interval", "samples", "cut"):
        assert hint[key] == reply[key], key
    assert reply["chance"] == round(e.share, 4)
    assert reply["interval"] == [round(x, 4) for x in e.interval]


def test_every_chance_says_what_it_is() -> None:
    stop = threading.Event()
    small = Settings(samples=2, max_states=2_000, budget=1e9)
    klondike = get_game("klondike").new_position(3)
    reply = chance_of(klondike, Knowledge.start(klondike), 1e9, stop, small)
    assert reply["kind"] == "clairvoyant"
    if reply["chance"] is not None:
        assert chance_text(reply).startswith("a player who could see every card")
    bakers = get_game("bakers-dozen").new_position(1)
    reply = chance_of(bakers, Knowledge.start(bakers), 1e9, stop, small)
    assert reply["kind"] == "proven"


def _model_game(deal: int) -> bool:
    """The labels policy's game of ``deal`` in its rank-only model: won or not."""
    stock = [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]
    s, left = opening(stock)
    while stock:
        r = stock.pop()
        left[r] -= 1
        s, _ = place(s, r, left)
    return sum(s.cnt) == 52


INNER = 4
"""The calibration test's advice: rollouts of 4 playouts a reserve (the hint's take 40;
the same code, a cheaper player, so that 30 games and their chances take seconds)."""


def _advice_game_with_chance(deal: int, stage: int, playouts: int) -> tuple[float, bool] | None:
    """The advice's game of ``deal`` (``INNER`` rollouts, in C: move for move the Python
    ``rollout``'s, tests/test_hopscotch_advice.py) and the chance of the same advice where
    ``stage`` cards are left in the stock (``playouts`` of it); None: lost before."""
    stock = [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]
    s, left = opening(stock)
    at = advice_until(s, None, stock, left, stage, INNER)
    if at is None:
        return None
    state, r, unseen = at
    said = advice_wins(state, r, unseen, 0, playouts, seed=0, inner=INNER) / playouts
    return said, advice_game(s, None, stock, left, INNER)[0]


def test_the_advices_chance_is_loosely_calibrated_on_deals_not_tuned_on() -> None:
    # 30 games of the advice on deals it was not tuned on (20001..), each with the
    # chance of the same advice where 18 cards are left: the mean chance lies near the
    # share won (30 games give about +-17 points at 95%: a generous margin), and the
    # chances tell won games from lost ones better than a constant (Brier under 0.25).
    # bench/hopscotch_chance.py measures it by tenths over thousands of games.
    played = [_advice_game_with_chance(d, 18, 12) for d in range(20001, 20031)]
    rows = [row for row in played if row is not None]
    assert len(rows) >= 25
    said = sum(c for c, _ in rows) / len(rows)
    won = sum(w for _, w in rows) / len(rows)
    assert abs(said - won) < 0.2, rows
    assert sum((c - w) ** 2 for c, w in rows) / len(rows) < 0.25, rows


def _played_out(deal: int) -> bool:
    """The labels policy's game of ``deal`` as a playout from the start plays it."""
    stock = [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]
    s, left = opening(stock)
    waste = stock.pop()
    left[waste] -= 1
    return playout(s, waste, stock, left)


def test_a_playout_from_the_start_is_the_policys_own_game() -> None:
    # The model game and a playout of the same stock from the start agree (the playout
    # only stops early once the policy has had to close a cycle, a game it loses).
    for deal in range(20001, 20007):
        assert _played_out(deal) == _model_game(deal)
