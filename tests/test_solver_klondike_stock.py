"""The stock in Klondike's relaxed games (``solver.klondike_stock``): dealt three at a
time, the relaxed game takes every card the real stock can give, checked against every
way of dealing and taking a small stock; and fewer than dealing one at a time would."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_builders import random_play
from patience import get_game, new_game
from patience.cards import RANK
from patience.games import position_to_json
from patience.solver.klondike_stock import played_out, played_out3
from patience.solver.relaxed import Ordered
from patience.solver.search import adapter_for


class Needs:
    """A stand-in relaxed game: a card can be taken once the cards it needs are taken
    (facts that only grow, like the relaxed games'); won when every card is taken."""

    def __init__(self, needs: dict[int, frozenset[int]]) -> None:
        self.needs = needs
        self.taken: set[int] = set()

    def settle(self) -> None:
        pass

    def take(self, c: int) -> bool:
        if self.needs[c] <= self.taken:
            self.taken.add(c)
            return True
        return False

    def won(self) -> bool:
        return len(self.taken) == len(self.needs)


def really_taken(
    seq: tuple[int, ...], ptr: int, redeal: bool, needs: dict[int, frozenset[int]]
) -> set[int]:
    """Every card some line of real play takes off the waste, three cards a deal (with
    ``redeal``: as many redeals as wanted)."""
    start = (seq, ptr, frozenset[int]())
    seen = {start}
    todo = [start]
    taken: set[int] = set()
    while todo:
        cycle, at, gone = todo.pop()
        nexts = []
        if at and needs[cycle[at - 1]] <= gone:
            c = cycle[at - 1]
            taken.add(c)
            nexts.append((cycle[: at - 1] + cycle[at:], at - 1, gone | {c}))
        if at < len(cycle):
            nexts.append((cycle, min(at + 3, len(cycle)), gone))
        elif cycle and redeal:
            nexts.append((cycle, 0, gone))
        for s in nexts:
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return taken


@st.composite
def stocks(draw: st.DrawFn) -> tuple[tuple[int, ...], int, bool, dict[int, frozenset[int]]]:
    n = draw(st.integers(1, 9))
    seq = tuple(range(n))
    needs = {c: frozenset(draw(st.sets(st.sampled_from(seq), max_size=2)) - {c}) for c in seq}
    return seq, draw(st.integers(0, n)), draw(st.booleans()), needs


@settings(max_examples=400, deadline=None)
@given(stocks())
def test_dealt_three_at_a_time_the_relaxed_game_takes_every_card_play_can(
    case: tuple[tuple[int, ...], int, bool, dict[int, frozenset[int]]],
) -> None:
    seq, ptr, redeal, needs = case
    game = Needs(needs)
    played_out3(seq, ptr, redeal, game)
    assert really_taken(seq, ptr, redeal, needs) <= game.taken


def test_dealt_three_at_a_time_a_card_out_of_reach_is_not_taken() -> None:
    """Six cards, none dealt; only the first can be played, and dealing three at a time
    never brings it to the top: lost, where dealing one at a time takes it."""
    seq = tuple(range(6))
    needs = {c: frozenset({0}) if c else frozenset() for c in seq}
    assert really_taken(seq, 0, True, needs) == set()
    three, one = Needs(needs), Needs(needs)
    assert played_out3(seq, 0, True, three)
    assert not played_out(seq, 0, -1, one)
    assert three.taken == set() and one.taken == set(seq)


def test_taking_a_card_brings_the_one_under_it_and_shifts_the_next_pass() -> None:
    """Card 2 (the first deal's top) taken, card 1 under it is the top; in the next pass
    the cards after it are one place earlier, so card 3 comes up as well."""
    seq = tuple(range(6))
    needs = {c: frozenset() if c in (1, 2, 3) else frozenset({99}) for c in seq}
    needs[99] = frozenset({99})
    game = Needs(needs)
    played_out3(seq, 0, True, game)
    assert game.taken == {1, 2, 3} == really_taken(seq, 0, True, needs)


def test_dealt_three_at_a_time_the_relaxed_games_prove_more_positions_lost() -> None:
    """On positions of real draw-3 games: every one the relaxed games lose dealt one card
    at a time they lose dealt three at a time (which the adapter does), and some more."""
    rng = random.Random("three")
    adapter = adapter_for(get_game("klondike", {"mode": "three"}))
    more = 0
    for deal in range(1, 41):
        p = new_game("klondike", deal, {"mode": "three"})
        for _ in range(6):
            seq = p.waste + tuple(reversed(p.stock))
            one = played_out(seq, len(p.waste), -1, Ordered(p, RANK, []))
            three = played_out3(seq, len(p.waste), True, Ordered(p, RANK, []))
            assert three == adapter._ordered_lost(p)
            assert three or not one, position_to_json(p)
            more += three and not one
            p = random_play(p, 6, rng)
    assert more >= 3, more
