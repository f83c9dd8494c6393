"""Positions: JSON both ways, validation that reports every problem, canonical keys."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from patience import GAMES, InvalidPositionError, new_game, play
from patience.errors import InvalidOptionError, UnknownGameError
from patience.games import position_from_json, position_to_json


@pytest.mark.parametrize("game", list(GAMES))
def test_json_round_trip_of_a_deal(game: str) -> None:
    p = new_game(game, 11)
    data = json.loads(json.dumps(position_to_json(p)))
    assert position_from_json(data) == p
    assert data["game"] == game and data["deal"] == 11


def test_json_follows_formats_md_example_shape() -> None:
    data = position_to_json(new_game("lady-jane", 12345))
    assert set(data) >= {
        "game",
        "options",
        "deal",
        "stock",
        "waste",
        "foundations",
        "tableau",
        "reserve",
        "redeals",
        "base",
        "score",
    }
    assert data["options"] == {} and isinstance(data["base"], str) and data["score"] == 1
    assert all(set(t) == {"down", "up"} for t in data["tableau"])


def test_a_position_made_by_hand_has_deal_null() -> None:
    data = position_to_json(new_game("klondike", 3))
    data["deal"] = None
    assert position_from_json(data).deal is None


def test_positions_are_hashable_and_keys_ignore_the_deal_number() -> None:
    p = new_game("klondike", 3)
    q = position_from_json({**position_to_json(p), "deal": None})
    assert hash(p) != hash(q) or p != q
    assert p.key() == q.key()
    assert len({p, p}) == 1


def broken(game: str, change: Any) -> dict[str, Any]:
    data = copy.deepcopy(position_to_json(new_game(game, 5)))
    change(data)
    return data


def problems_of(data: Any) -> list[str]:
    with pytest.raises(InvalidPositionError) as info:
        position_from_json(data)
    return info.value.problems


def test_duplicate_card_is_named() -> None:
    def dup(d: dict[str, Any]) -> None:
        d["stock"][0] = d["stock"][1]

    problems = problems_of(broken("klondike", dup))
    assert any("duplicate cards" in p for p in problems)
    assert any("missing cards" in p for p in problems)


def test_missing_card_is_named() -> None:
    def drop(d: dict[str, Any]) -> None:
        d["stock"].pop()

    data = broken("klondike", drop)
    missing = position_to_json(new_game("klondike", 5))["stock"][-1]
    assert any(missing in p for p in problems_of(data))


def test_wrong_pile_count_is_refused() -> None:
    def six(d: dict[str, Any]) -> None:
        d["tableau"].pop()

    assert any("7 tableau piles" in p for p in problems_of(broken("klondike", six)))


def test_foundation_out_of_sequence_is_refused() -> None:
    def bad(d: dict[str, Any]) -> None:
        d["foundations"][0] = [d["stock"].pop()]

    problems = problems_of(broken("klondike", bad))
    assert any(p.startswith("f1") for p in problems)


def test_every_problem_is_listed_at_once() -> None:
    def many(d: dict[str, Any]) -> None:
        d["stock"][0] = "ZZ"
        d["waste"] = ["QQ"]

    problems = problems_of(broken("klondike", many))
    assert len(problems) == 2 and "ZZ" in problems[0] and "QQ" in problems[1]


def test_face_down_top_card_is_refused() -> None:
    def flip(d: dict[str, Any]) -> None:
        t = d["tableau"][1]
        t["down"], t["up"] = t["down"] + t["up"], []

    assert any("top card must be face up" in p for p in problems_of(broken("klondike", flip)))


def test_lady_jane_needs_a_base_and_a_reachable_stock_size() -> None:
    def nobase(d: dict[str, Any]) -> None:
        d["base"] = None

    assert any("base" in p for p in problems_of(broken("lady-jane", nobase)))

    def stock(d: dict[str, Any]) -> None:
        d["reserve"][0].append(d["stock"].pop())

    assert any("stock holds 15" in p for p in problems_of(broken("lady-jane", stock)))


def test_hopscotch_foundations_must_start_with_the_clubs() -> None:
    def swap(d: dict[str, Any]) -> None:
        d["foundations"][0], d["foundations"][1] = d["foundations"][1], d["foundations"][0]

    problems = problems_of(broken("hopscotch", swap))
    assert any(p.startswith("f1") for p in problems) and any(p.startswith("f2") for p in problems)


def test_klondike_redeals_beyond_the_mode_are_refused() -> None:
    def redeal(d: dict[str, Any]) -> None:
        d["redeals"] = 3

    assert any("redeals" in p for p in problems_of(broken("klondike", redeal)))


def test_score_that_disagrees_is_refused() -> None:
    def score(d: dict[str, Any]) -> None:
        d["score"] = 7

    assert any("score" in p for p in problems_of(broken("klondike", score)))


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "x",
        {"game": 3},
        {"game": "klondike", "options": []},
        {"game": "klondike", "stock": 5},
    ],
)
def test_malformed_documents_are_refused(data: Any) -> None:
    with pytest.raises(InvalidPositionError):
        position_from_json(data)


def test_unknown_game_and_option_in_a_position() -> None:
    with pytest.raises(UnknownGameError, match="valid games"):
        position_from_json({"game": "spider"})
    with pytest.raises(InvalidOptionError, match="valid values"):
        position_from_json({"game": "klondike", "options": {"mode": "two"}})


def test_a_position_after_moves_round_trips() -> None:
    p = new_game("klondike", 1)
    for m in ["deal", "deal", "deal"]:
        p = play(p, m)
    assert position_from_json(position_to_json(p)) == p


def test_the_deal_number_has_the_one_bound_of_every_deal_number() -> None:
    from patience.cards import MAX_DEAL, parse_deal

    data = position_to_json(new_game("klondike", 5))
    assert (
        position_from_json({**data, "deal": MAX_DEAL}).deal == MAX_DEAL == parse_deal(str(MAX_DEAL))
    )
    for deal in (MAX_DEAL + 1, 10**30, -1, True, 1.5, "5"):
        problems = problems_of({**data, "deal": deal})
        assert problems == [f"'deal' must be an integer from 0 to {MAX_DEAL}, or null"]


def test_deal_numbers_are_read_in_ascii_digits_only() -> None:
    from patience.cards import parse_deal
    from patience.errors import InvalidDealError

    assert parse_deal("0042") == 42
    for text in ("\u0663", "\uff17", "1_0", "-1", "+1", "", "1e3", "9" * 5000, " 5", "5\n", "\t5"):
        with pytest.raises(InvalidDealError):
            parse_deal(text)


def test_a_value_that_is_no_card_is_named_by_its_kind() -> None:
    deep: Any = "AS"
    for _ in range(500):
        deep = [deep]
    data = position_to_json(new_game("klondike", 5))
    data["waste"] = [deep, {"a": 1}, "x" * 10_000]
    problems = problems_of(data)
    assert problems[:3] == [
        "waste: invalid card a list",
        "waste: invalid card an object",
        "waste: invalid card '" + "x" * 36 + "...: expected a rank of A23456789TJQK (or 10) "
        "then a suit of CDHS",
    ]


@pytest.mark.parametrize("rank", [1, 7, 10, 11, 13])
def test_a_base_given_as_a_number_is_that_rank(rank: int) -> None:
    deal = next(n for n in range(1, 500) if new_game("lady-jane", n).base == rank)
    data = position_to_json(new_game("lady-jane", deal))
    data["base"] = rank
    assert position_from_json(data) == new_game("lady-jane", deal)


@pytest.mark.parametrize("base", [0, 14, -1, 7.0, True])
def test_a_base_outside_the_ranks_is_refused_by_name(base: object) -> None:
    data = position_to_json(new_game("lady-jane", 1))
    data["base"] = base
    assert any(p.startswith("base: invalid rank") for p in problems_of(data))


def test_an_unknown_key_is_refused_by_name_as_the_api_refuses_it() -> None:
    def misspelt(d: dict[str, Any]) -> None:
        d["redeal"] = 1
        d["tableau"][0]["upp"] = []

    problems = problems_of(broken("klondike", misspelt))
    assert "unknown key 'redeal'" in problems
    assert "t1: unknown key 'upp'" in problems


def test_bakers_dozen_position_with_redeals_is_refused() -> None:
    """RULES.md: Baker's Dozen has no redeal; a position saying it used some is broken,
    as it is in Lady Jane and Hopscotch (it was kept in the state key and written back)."""
    data = position_to_json(new_game("bakers-dozen", 3))
    data["redeals"] = 3
    with pytest.raises(InvalidPositionError, match="redeal"):
        position_from_json(data)


@pytest.mark.parametrize("value", [False, "", [], {}, 0.0], ids=repr)
def test_redeals_of_the_wrong_type_is_refused(value: object) -> None:
    """`redeals` is a count: a false value of another type was read as 0 (`x or 0`)."""
    data = position_to_json(new_game("klondike", 3))
    data["redeals"] = value
    with pytest.raises(InvalidPositionError, match="redeals"):
        position_from_json(data)


@pytest.mark.parametrize("value", ["", []], ids=repr)
def test_options_of_the_wrong_type_is_refused(value: object) -> None:
    """'options' is an object of strings: `""` or `[]` was read as no options (`x or {}`)."""
    data = position_to_json(new_game("klondike", 3))
    data["options"] = value
    with pytest.raises(InvalidPositionError, match="options"):
        position_from_json(data)
