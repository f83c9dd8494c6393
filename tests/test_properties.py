"""Properties over random legal playouts of every game and option (Hypothesis).

One conformance suite run over every registered game, as OpenSpiel does.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience import GAMES, IllegalMoveError, Move, get_game
from patience.games import position_from_json, position_to_json
from patience.moves import PILES
from patience.session import Session

VARIANTS = [
    (name, dict(zip(cls.option_spec, values, strict=True)))
    for name, cls in GAMES.items()
    for values in product(*cls.option_spec.values())
]
ALL_MOVES = [Move.deal()] + [
    Move(src, dst, n)
    for src in PILES
    for dst in PILES
    if src != dst and dst != "s"
    for n in range(1, 14)
    if n == 1 or src.startswith("t")
]


def ids(v: tuple[str, dict[str, str]]) -> str:
    return v[0] + "".join(f"-{k}={x}" for k, x in v[1].items())


@pytest.mark.parametrize("variant", VARIANTS, ids=ids)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), deal=st.integers(min_value=0, max_value=2**40))
def test_random_playout_invariants(
    variant: tuple[str, dict[str, str]], data: st.DataObject, deal: int
) -> None:
    name, options = variant
    rules = get_game(name, options)
    session = Session(rules.new_position(deal))
    for _ in range(data.draw(st.integers(min_value=0, max_value=120), label="length")):
        p = session.position
        legal = rules.legal_moves(p)
        # the deck is conserved and the position is one a loader accepts, exactly
        assert sorted(p.cards_in_play()) == list(range(52))
        assert position_from_json(position_to_json(p)) == p
        assert rules.score(p) == sum(len(f) for f in p.foundations) - rules.score_offset
        assert rules.is_won(p) == (rules.score(p) + rules.score_offset == 52)
        assert rules.is_stuck(p) == (not legal and not rules.is_won(p))
        assert len(set(legal)) == len(legal)
        for m in legal:
            assert Move.parse(str(m)) == m
        # no move outside legal_moves is accepted, and each refusal says why
        probe = data.draw(st.sampled_from(ALL_MOVES), label="probe")
        if probe in legal:
            rules.play(p, probe)
        else:
            with pytest.raises(IllegalMoveError) as info:
                rules.play(p, probe)
            assert info.value.reason and str(probe) in str(info.value)
            assert info.value.template.format(**info.value.params) == str(info.value)
        if not legal:
            break
        move = data.draw(st.sampled_from(legal), label="move")
        before = session.position
        session.play(move)  # every generated move is accepted by play
        after = session.position
        for k, pile in enumerate(after.tableau):
            assert not pile or after.down[k] < len(pile), "a face-down card was left on top"
        session.undo()
        assert session.position == before  # undo restores the exact position
        session.redo()
        assert session.position == after
    resumed = Session.from_json(session.to_json())
    assert resumed.position == session.position and resumed.moves == session.moves
