"""Hopscotch's advice played in C (``_hopscotch_advice.h``, ``fair/hopscotch_advice.py``):
each card decided as the Python ``rollout`` decides it, move for move, so that the
chance's playouts are games of the hint's own advice; and the fair study's Hopscotch bot
is that advice (docs/fair-play.md, "The honest chance")."""

from __future__ import annotations

import threading

import pytest

from patience import fair_assist
from patience.cards import RANK
from patience.fair import Knowledge, Settings
from patience.fair.bot import advisor_chooser
from patience.fair.greedy import state_key
from patience.fair.hopscotch import PLAYOUTS, opening
from patience.fair.hopscotch_advice import advice_chance, advice_game, advice_wins
from patience.fair.hopscotch_rollout import labels_move, rollout
from patience.games import get_game
from patience.solver.hopscotch import native
from patience.study.fairplay import HOPSCOTCH, bot_settings, settings_text

pytestmark = pytest.mark.skipif(native is None, reason="the native module was not built")


def _stock(deal: int) -> list[int]:
    return [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]


def _python_moves(stock: list[int], inner: int) -> tuple[bool, list[int]]:
    """The Python ``rollout`` loop's moves (1 + q home, 5 + j onto reserve j)."""
    s, left = opening(stock)
    cards = list(stock)
    moves = []
    while cards:
        r = cards.pop()
        left[r] -= 1
        s, move, _ = rollout(s, r, left, inner, len(cards))
        moves.append((1 if move.dst[0] == "f" else 5) + int(move.dst[1:]) - 1)
    return sum(s.cnt) == 52, moves


@pytest.mark.parametrize(("deal", "inner"), [(1, PLAYOUTS), (2, PLAYOUTS), (7, 8), (11, 8)])
def test_the_c_advice_plays_the_python_advice_move_for_move(deal: int, inner: int) -> None:
    stock = _stock(deal)
    won, moves = _python_moves(stock, inner)
    s, left = opening(stock)
    c_won, c_moves = advice_game(s, None, stock, left, inner)
    assert c_won == won
    # A lost game stops at the first card only a cycle is left for: a prefix.
    assert c_moves == (moves if won else moves[: len(c_moves)])


def test_the_playouts_are_counted_alike_however_shared() -> None:
    s, left = opening(_stock(4))
    whole = advice_wins(s, None, left, 0, 6, seed=3, inner=4)
    parts = sum(advice_wins(s, None, left, i, 1, seed=3, inner=4) for i in range(6))
    assert whole == parts
    assert advice_chance(s, None, left, 6, 3, threads=2) == advice_chance(
        s, None, left, 6, 3, threads=1
    )
    won, played = advice_chance(s, None, left, 6, 3, out=lambda: True)
    assert played == 0 and won == 0  # cut before the first: none played, and it says so


def test_the_studys_hopscotch_bot_is_the_hints_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    assert bot_settings("hopscotch", Settings()) is HOPSCOTCH  # `study hopscotch --fair`
    assert bot_settings("hopscotch", Settings(samples=8)) == Settings(samples=8)  # the old bot
    assert bot_settings("klondike", Settings()) == Settings()
    assert settings_text(HOPSCOTCH).startswith(f"method=rollouts,playouts={PLAYOUTS},")
    monkeypatch.setitem(fair_assist.PLAYOUTS, "hopscotch", 0)  # the move only, no chance
    game = get_game("hopscotch")
    p = game.new_position(5)
    history = [p]
    choose = advisor_chooser(HOPSCOTCH)
    for n in range(14):
        keys = {state_key(q) for q in history}
        k = Knowledge.of_history(history)
        plan = choose(p, k, keys, 1000 + n)  # the bot's seed: the hint's advice ignores it
        hint = fair_assist.fair_hint(p, k, keys, 600.0, threading.Event())
        assert hint["move"] == str(plan[0])
        p = game.play(p, plan[0])
        history.append(p)


def test_a_replay_resumed_from_a_kept_state_is_the_replay_from_the_start() -> None:
    # ``replayed`` keeps the states it replays, and a game's next decision resumes from
    # its last one: the same labelled state as replaying the whole history again.
    from patience.fair import hopscotch_history

    game = get_game("hopscotch")
    p = game.new_position(6)
    history = [p]
    for _ in range(40):
        keys = {state_key(q) for q in history}
        warm = hopscotch_history.replayed(p, keys)
        hopscotch_history._REPLAYS.clear()
        cold = hopscotch_history.replayed(p, keys)
        assert (warm.cnt, warm.piles, warm.last) == (cold.cnt, cold.piles, cold.last)
        move = labels_move(p, keys, playouts=4)
        if move is None:
            break
        p = game.play(p, move)
        history.append(p)
