"""Move notation (FORMATS.md)."""

from __future__ import annotations

import pytest

from patience import InvalidMoveError, Move, parse_moves
from patience.moves import moves_text


@pytest.mark.parametrize(
    "text", ["w>t3", "t7>f1", "r2>t5", "f3>t1", "s>t4", "t6>t2/3", "deal", "w>r4", "t13>f4"]
)
def test_notation_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text
    assert eval(repr(Move.parse(text))) == Move.parse(text)  # noqa: S307 - repr evaluates back


def test_input_is_case_insensitive_and_output_canonical() -> None:
    assert str(Move.parse("W>T3")) == "w>t3"
    assert str(Move.parse(" DEAL ")) == "deal"
    assert str(Move.parse("waste>t1")) == "w>t1"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("t1-t2", "expected"),
        ("t1>t2/1", "2 or more"),
        ("t14>t2", "unknown pile"),
        ("x1>t2", "unknown pile"),
        ("t1>t1", "the same"),
        ("", "expected"),
        ("t1>", "expected"),
        # ASCII digits only: str.isdigit and \d also take Arabic-Indic or full-width ones.
        ("t1>t2/\u0663", "expected"),
        ("t\u0661>t2", "expected"),
        ("t1>t\uff12", "expected"),
        ("t1>t2/53", "at most 52"),
        ("t1>t2/" + "9" * 5000, "at most 52"),
    ],
)
def test_malformed_moves_are_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(InvalidMoveError, match=why):
        Move.parse(text)


def test_lists_of_moves_split_on_spaces_and_newlines() -> None:
    moves = parse_moves("deal w>t3\n t6>t2/3 ")
    assert moves_text(moves) == "deal w>t3 t6>t2/3"
    assert Move.deal().is_deal and Move.parse("deal") == Move.deal()


def test_a_long_move_is_named_short() -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move.parse("t" * 10_000 + ">t1")
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("value", [1, None, ["deal"], {"move": "deal"}], ids=repr)
def test_a_move_of_another_type_is_refused_by_name(value: object) -> None:
    # A damaged save's moves reach Move.parse as JSON values: an AttributeError before.
    with pytest.raises(InvalidMoveError, match="invalid move"):
        Move.parse(value)  # type: ignore[arg-type]
