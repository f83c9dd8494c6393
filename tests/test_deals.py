"""Cards, tokens and numbered deals: deal N is PySolFC's game N (checked with pysol_cards)."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random import RandomBase

from patience import GAMES, InvalidCardError, new_game
from patience.cards import TEXT, card_text, make_card, parse_card, parse_rank, pysol_order
from patience.errors import InvalidDealError
from patience.games.hopscotch import START_CARDS


def pysol_layout(game: str, deal: int) -> list[str]:
    """pysol_cards' own printed layout, one line a pile (plus 'Talon: ...' for Klondike)."""
    g = PysolGame(game, deal, RandomBase.DEALS_PYSOLFC, 13)
    text: str = g.calc_layout_string(CardRenderer(True))
    return text.strip("\n").split("\n")


def our_klondike_lines(deal: int) -> list[str]:
    p = new_game("klondike", deal)
    lines = ["Talon: " + " ".join(TEXT[c] for c in reversed(p.stock))]
    for pile, d in zip(p.tableau, p.down, strict=True):
        lines.append(" ".join(f"<{TEXT[c]}>" if i < d else TEXT[c] for i, c in enumerate(pile)))
    return lines


@pytest.mark.parametrize("deal", [1, 2, 3, 100, 11982, 31999, 32000, 32001, 500000, 10**12])
def test_klondike_deal_n_is_pysolfc_game_n(deal: int) -> None:
    assert our_klondike_lines(deal) == pysol_layout("klondike", deal)


@pytest.mark.parametrize("deal", [1, 2, 3, 100, 11982, 32000, 32001, 500000, 10**12])
def test_bakers_dozen_deal_n_is_pysolfc_game_n(deal: int) -> None:
    p = new_game("bakers-dozen", deal)
    ours = [" ".join(TEXT[c] for c in pile) for pile in p.tableau]
    assert ours == pysol_layout("bakers_dozen", deal)


@pytest.mark.parametrize("deal", [1, 2, 3, 100, 617, 11982, 31999, 32000, 32001, 500000, 10**12])
def test_freecell_deal_n_is_pysolfc_and_microsoft_game_n(deal: int) -> None:
    p = new_game("freecell", deal)
    ours = [" ".join(TEXT[c] for c in pile) for pile in p.tableau]
    assert ours == pysol_layout("freecell", deal)


def test_golden_freecell_deal_1_is_microsofts() -> None:
    p = new_game("freecell", 1)
    assert " ".join(TEXT[pile[0]] for pile in p.tableau) == "JD 2D 9H JC 5D 7H 7C 5H"
    assert " ".join(TEXT[c] for c in p.tableau[7]) == "5H 3H 3C 7S 7D TC"


def test_golden_klondike_deal_1() -> None:
    p = new_game("klondike", 1)
    assert card_text(p.tableau[0][0]) == "QH"
    assert " ".join(TEXT[c] for c in p.tableau[6]) == "JD 7C 5S 3H 9D JS AS"


def test_same_deal_same_position_every_time() -> None:
    for game in GAMES:
        assert new_game(game, 4242) == new_game(game, 4242)
        assert new_game(game, 4242) != new_game(game, 4243)


def test_hopscotch_stock_is_the_shared_order_less_the_four_clubs() -> None:
    p = new_game("hopscotch", 77)
    assert list(reversed(p.stock)) == [c for c in pysol_order(77) if c not in START_CARDS]


def test_deal_zero_exists_and_is_stable() -> None:
    assert pysol_order(0) == pysol_order(0)
    assert sorted(pysol_order(0)) == list(range(52))


@pytest.mark.parametrize("deal", [-1, 10**20 + 1])
def test_deal_numbers_out_of_range_are_refused(deal: int) -> None:
    with pytest.raises(InvalidDealError, match="deal number"):
        new_game("klondike", deal)


@pytest.mark.parametrize(
    ("text", "card"),
    [("TH", "TH"), ("10h", "TH"), ("as", "AS"), (" Kd ", "KD"), ("2c", "2C"), ("10S", "TS")],
)
def test_card_tokens_are_case_insensitive_and_accept_10(text: str, card: str) -> None:
    assert card_text(parse_card(text)) == card


@pytest.mark.parametrize("text", ["", "1H", "11H", "TX", "AHH", "H", "ZZ"])
def test_malformed_cards_are_refused_naming_the_token(text: str) -> None:
    with pytest.raises(InvalidCardError, match="invalid card"):
        parse_card(text)


def test_colour_is_one_bit_and_tokens_round_trip() -> None:
    from patience.cards import RED, SUIT

    for c in range(52):
        assert parse_card(card_text(c)) == c
        assert RED[c] == (card_text(c)[1] in "DH") == bool(SUIT[c] & 1)
    assert make_card(13, 3) == parse_card("KH")
    assert parse_rank("10") == 10 and parse_rank("k") == 13
    with pytest.raises(InvalidCardError):
        parse_rank("Z")
