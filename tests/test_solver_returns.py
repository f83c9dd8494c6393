"""Klondike's cards home that would come straight back, and the returns that bring
them back (``solver/klondike.py``: "Cards home that would come straight back", "Cards
back from the foundations")."""

from __future__ import annotations

from typing import Any

from patience import game_for
from patience.cards import TEXT
from patience.games import position_from_json
from patience.moves import Move
from patience.position import Position
from patience.solver import solve
from patience.solver.klondike import KlondikeAdapter
from patience.solver.search import adapter_for

RANKS = "A23456789TJQK"


def klondike(
    foundations: dict[str, int], tableau: list[tuple[str, str]], mode: str = "unlimited"
) -> Position:
    """A position with unlimited redeals (draw 1, or draw 3 with ``mode="three"``):
    foundations by suit letter (cards home), tableau piles as (face-down, face-up) card
    texts; every other card in the stock."""
    used = {f"{RANKS[r]}{s}" for s, n in foundations.items() for r in range(n)}
    for down, up in tableau:
        used |= set(down.split()) | set(up.split())
    stock = [TEXT[c] for c in range(52) if TEXT[c] not in used]
    data: dict[str, Any] = {
        "game": "klondike",
        "options": {"mode": mode},
        "deal": None,
        "stock": stock,
        "waste": [],
        "foundations": [[f"{RANKS[r]}{s}" for r in range(n)] for s, n in foundations.items()],
        "tableau": [{"down": d.split(), "up": u.split()} for d, u in tableau],
        "reserve": [],
        "redeals": 0,
    }
    return position_from_json(data)


def adapter(p: Position, prune: bool = True) -> KlondikeAdapter:
    a = adapter_for(game_for(p))
    assert isinstance(a, KlondikeAdapter)
    a.prune = prune
    return a


def test_a_card_that_would_come_straight_back_goes_home_at_once() -> None:
    # 5H could go home but is not safe (no black 4 is home). On its parent 6S it goes
    # home at once: it would come straight back onto 6S. 5D lies on a face-down card,
    # and 9C alone in its pile is no King: neither could come back where it was. (Three
    # cards a deal: with one, the stock's low cards would go home too, and make 5D safe.)
    p = klondike(
        {"S": 0, "H": 4, "C": 8, "D": 4},
        [("KD", "6S 5H"), ("QD", "5D"), ("", "9C"), ("", ""), ("", ""), ("", ""), ("", "")],
        mode="three",
    )
    played, q = adapter(p).auto(p)
    assert [str(m) for m in played] == ["t1>f2"]
    assert [TEXT[c] for c in q.tableau[0]] == ["KD", "6S"]
    # Without the cuts only safe moves are made.
    assert adapter(p, prune=False).auto(p)[0] == []


def test_a_king_alone_in_its_pile_goes_home_at_once() -> None:
    p = klondike(
        {"S": 0, "H": 0, "C": 12, "D": 0},
        [("", "KC"), ("8D", "7H"), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")],
        mode="three",  # with one card a deal the stock's Aces would go home too
    )
    played, q = adapter(p).auto(p)
    assert [str(m) for m in played] == ["t1>f3"]
    assert q.tableau[0] == ()


def test_a_card_comes_back_with_what_lies_above_it_and_under_it() -> None:
    # 4C (on t3) could go on 5H, which is home under 6H, and whose parents are 6S, home,
    # and 6C, face down. So 6H comes back onto 7C, 6S onto 7D, 5H onto 6S, and then
    # 4C goes on 5H: one compound move, four returns deep in two suits. (Before,
    # returns came in chains that could not bring back both 6H and 6S.)
    p = klondike(
        {"S": 6, "H": 6, "C": 2, "D": 6},
        [("9C", "7D"), ("8D", "7C"), ("6C", "4C"), ("", ""), ("", ""), ("", ""), ("", "")],
    )
    want = (Move("f2", "t2"), Move("f1", "t1"), Move("f2", "t1"), Move("t3", "t1"))
    compounds = [moves for moves, *_ in adapter(p).children(p)]
    assert want in compounds
    after = p
    for m in want:
        after = game_for(p).play(after, m)
    assert [TEXT[c] for c in after.tableau[0]] == ["9C", "7D", "6S", "5H", "4C"]


def test_positions_that_differ_only_in_such_cards_are_one() -> None:
    # 5H on 6S, or 5H home: the search makes them the same position, and both are won
    # or lost alike.
    cards = [("KD", "6S 5H"), ("QD", "5D"), ("", "9C"), ("", ""), ("", ""), ("", ""), ("", "")]
    on = klondike({"S": 0, "H": 4, "C": 8, "D": 4}, cards)
    home = game_for(on).play(on, Move("t1", "f2"))
    a = adapter(on)
    assert a.key(a.auto(on)[1]) == a.key(a.auto(home)[1])
    assert solve(on, timeout=10).result == solve(home, timeout=10).result


def test_lady_jane_sends_such_cards_home_and_brings_them_back_for_a_reserve_card() -> None:
    # Base rank T: KH ranks fourth, on AS (fifth, black): home it would come straight
    # back (not safe: no black card is home). QC, on top of reserve r1, then goes on it
    # only after one compound move: KH back onto AS, QC onto KH.
    tableau = [("5D", "AS KH"), ("6D", "9H"), ("", ""), ("", ""), ("", ""), ("", ""), ("", "")]
    reserve = ["QC", "", "", "", "", "", ""]
    used = {"TH", "JH", "QH", "TD"} | set(reserve[0].split())
    for down, up in tableau:
        used |= set(down.split()) | set(up.split())
    # The other cards: face down under one face-up card in each empty pile (none of a
    # rank that would go home at once), two in the stock.
    rest = [TEXT[c] for c in range(52) if TEXT[c] not in used]
    rest.sort(key=lambda t: t[0] in "TJ")
    for k in range(2, 7):
        chunk, rest = rest[:8], rest[8:]
        tableau[k] = (" ".join(chunk[1:]), chunk[0])
    data: dict[str, Any] = {
        "game": "lady-jane",
        "options": {},
        "deal": None,
        "stock": rest,
        "waste": [],
        "foundations": [["TH", "JH", "QH"], ["TD"], [], []],
        "tableau": [{"down": d.split(), "up": u.split()} for d, u in tableau],
        "reserve": [r.split() for r in reserve],
        "redeals": 0,
        "base": "T",
    }
    p = position_from_json(data)
    a = adapter_for(game_for(p))
    a.prune = True
    played, q = a.auto(p)
    assert [str(m) for m in played] == ["t1>f1"]
    a.prune = False  # (and the relaxed games, which prove this made-up position lost)
    assert a.auto(p)[0] == []
    compounds = [moves for moves, *_ in a.children(q)]
    assert (Move("f1", "t1"), Move("r1", "t1")) in compounds
