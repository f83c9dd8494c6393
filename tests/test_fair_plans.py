"""The fair advisor's plans beyond the winning lines, and the playouts that rank them."""

from __future__ import annotations

import random
from dataclasses import replace

from patience import Position, get_game
from patience.fair import Knowledge, Settings, advise, sample
from patience.fair.greedy import greedy_move, shuffles, state_key
from patience.fair.plans import candidates, playout, progress, revealing, single_moves
from patience.games import game_for

SMALL = Settings(samples=4, max_states=3_000, budget=10_000.0, shortlist=2)
NO_REDEAL = get_game("klondike", {"mode": "no-redeal"})


def test_every_move_that_shows_a_card_or_deals_is_a_plan_of_its_own() -> None:
    p = NO_REDEAL.new_position(1)
    k = Knowledge.start(p)
    plans = revealing(p, k)
    assert all(len(plan) == 1 for plan in plans)
    moves = {str(plan[0]) for plan in plans}
    assert "deal" in moves
    for m in NO_REDEAL.legal_moves(p):
        shows = k.observe(NO_REDEAL.apply(p, m)).seen != k.seen
        assert (str(m) in moves) == (shows or m.is_deal), str(m)


def test_exploring_adds_the_revealing_moves_to_the_winning_lines_plans() -> None:
    p = NO_REDEAL.new_position(1)
    k = Knowledge.start(p)
    found = candidates(p, k, [], "reveal", 4, explore=False, avoid=())
    assert found == {}  # no line won: nothing to score without exploring
    explored = candidates(p, k, [], "reveal", 4, explore=True, avoid=())
    assert sorted(explored.values()) == sorted(revealing(p, k))
    # A plan into a position to avoid (the game's history) is left out.
    deal = next(m for m in NO_REDEAL.legal_moves(p) if m.is_deal)
    avoid = {state_key(NO_REDEAL.apply(p, deal))}
    assert (deal,) not in candidates(p, k, [], "reveal", 4, True, avoid).values()


def test_a_playout_is_the_greedy_players_game_and_counts_the_cards_home() -> None:
    p = NO_REDEAL.new_position(3)
    q, seen = p, {state_key(p)}
    while (m := greedy_move(q, seen)) is not None:
        q = NO_REDEAL.apply(q, m)
        seen.add(state_key(q))
    assert playout(p) == sum(len(f) for f in q.foundations)
    won = NO_REDEAL.new_position(1)
    arrangements = [sample(won, Knowledge.start(won), random.Random(s)) for s in range(3)]
    assert progress(arrangements, (), ()) == sum(playout(s) for s in arrangements)


def _lost_everywhere() -> tuple[Position, Knowledge]:
    """The start of the first no-redeal deal from 3 on where none of SMALL's
    arrangements is won, with several moves to choose from."""
    for deal in range(3, 40):
        p = NO_REDEAL.new_position(deal)
        k = Knowledge.start(p)
        a = advise(p, k, SMALL, seed=1)
        if a.estimate.won == 0 and a.estimate.samples and len(single_moves(p, ())) > 2:
            return p, k
    raise AssertionError("no deal with every arrangement lost")


def test_with_no_arrangement_won_the_playouts_rank_every_move() -> None:
    """Where no arrangement is won, the greedy player's move was the advice to the end
    of the game; with playouts, every legal move is scored by the greedy player's
    playouts after it on the same arrangements, and the most cards home is advised."""
    p, k = _lost_everywhere()
    plain = advise(p, k, SMALL, seed=1)
    assert plain.candidates == () and plain.move == greedy_move(p)
    a = advise(p, k, replace(SMALL, playouts=1), seed=1)
    moves = single_moves(p, ())
    assert sorted(plan for plan, _ in a.candidates) == sorted(moves.values())
    rng = random.Random(1)
    arrangements = [sample(p, k, rng) for _ in range(SMALL.samples)]
    best = max(progress(arrangements, plan, ()) for plan in moves.values())
    assert progress(arrangements, a.plan, ()) == best
    # Another move than the greedy player's is taken only where it does better.
    greedy = greedy_move(p)
    assert greedy is not None and list(moves.values())[0] == (greedy,)
    assert a.move == greedy or progress(arrangements, (greedy,), ()) < best


def test_with_no_arrangement_won_cards_are_not_moved_to_and_fro() -> None:
    """A tableau move that neither turns a card nor takes one home is scored only when
    it is the greedy player's own move: ranked by playouts drawn again at every move,
    such moves let the bot wander to the move limit in lost games."""
    p = NO_REDEAL.new_position(1)
    game = game_for(p)
    for _ in range(30):  # along the greedy player's game, where shuffles appear
        moves = single_moves(p, ())
        greedy = greedy_move(p)
        for (m,) in moves.values():
            assert m == greedy or not shuffles(p, m)
        if greedy is None:
            break
        p = game.apply(p, greedy)


def test_the_explored_and_played_out_advice_depends_only_on_the_view() -> None:
    p = NO_REDEAL.new_position(1)
    k = Knowledge.start(p)
    other = sample(p, k, random.Random(5))
    assert other.tableau != p.tableau
    settings = replace(SMALL, explore=True, playouts=SMALL.samples + 1)
    a, b = advise(p, k, settings, seed=9), advise(other, k, settings, seed=9)
    assert (a.move, a.plan, a.estimate, a.candidates) == (b.move, b.plan, b.estimate, b.candidates)
    assert len(a.candidates) > 1
    assert a.move in game_for(p).legal_moves(p)
