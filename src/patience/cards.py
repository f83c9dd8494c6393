"""Cards as small ints, their text tokens, and numbered deals.

A card is an int 0..51: ``suit * 13 + rank - 1``. Suits are ordered C, D, S, H
so that the colour is one bit (``suit & 1`` is 1 for red).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import InvalidCardError, InvalidDealError

RANKS = "A23456789TJQK"
SUITS = "CDSH"
"""Internal suit order (colour is bit 0). Text output uses the card token only."""

Card = int

CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
ACE, KING = 1, 13

RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52))
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
RED: tuple[bool, ...] = tuple(bool(SUIT[c] & 1) for c in range(52))
TEXT: tuple[str, ...] = tuple(RANKS[RANK[c] - 1] + SUITS[SUIT[c]] for c in range(52))
_BY_TEXT: dict[str, int] = {t: c for c, t in enumerate(TEXT)}

DECK: tuple[Card, ...] = tuple(range(52))
MAX_DEAL = 10**20
"""The largest deal number (PySolFC's largest game number): the one bound of every
deal number, typed on the command line, sent to the web app or read in a position."""

_DIGITS = re.compile(r"[0-9]+")


def check_deal(deal: int) -> int:
    """``deal`` if it is a deal number (0..MAX_DEAL); raise otherwise."""
    if not 0 <= deal <= MAX_DEAL:
        if deal.bit_length() <= 128:
            template = "deal number must be from 0 to {max}, got {got}"
            raise InvalidDealError.of(template, max=str(MAX_DEAL), got=str(deal))
        template = "deal number must be from 0 to {max}, got a number far out of range"
        raise InvalidDealError.of(template, max=str(MAX_DEAL))
    return deal


def parse_deal(text: str) -> int:
    """Read a deal number written in ASCII digits 0-9 (no sign, no other digits, nothing
    around them: not even a space, tab or newline)."""
    token = text
    if not _DIGITS.fullmatch(token):
        template = "invalid deal number {deal}: expected digits 0-9"
        raise InvalidDealError.of(template, deal=shown(token))
    if len(token.lstrip("0")) > len(str(MAX_DEAL)):
        template = "deal number must be from 0 to {max}, got one of {digits} digits"
        raise InvalidDealError.of(template, max=str(MAX_DEAL), digits=len(token))
    return check_deal(int(token))


def shown(value: object) -> str:
    """A value quoted for an error message: its repr cut short, or the kind of a
    JSON list or object (whose repr could be as large, or as deep, as the input)."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def make_card(rank: int, suit: int) -> Card:
    """Return the card of ``rank`` (1..13) and ``suit`` (CLUBS..HEARTS)."""
    return suit * 13 + rank - 1


def parse_card(text: str) -> Card:
    """Parse a card token such as ``TH``, ``10h`` or ``as`` (case-insensitive)."""
    token = text.strip().upper()
    if token.startswith("10"):
        token = "T" + token[2:]
    try:
        return _BY_TEXT[token]
    except KeyError:
        template = "invalid card {card}: expected a rank of {ranks} (or 10) then a suit of CDHS"
        raise InvalidCardError.of(template, card=shown(text), ranks=RANKS) from None


def parse_rank(text: str) -> int:
    """Parse a rank token (``A``, ``7``, ``T`` or ``10``, ``K``) into 1..13."""
    token = text.strip().upper()
    if token == "10":
        token = "T"
    if len(token) != 1 or token not in RANKS:
        template = "invalid rank {rank}: expected one of {ranks}"
        raise InvalidCardError.of(template, rank=shown(text), ranks=RANKS)
    return RANKS.index(token) + 1


def card_text(card: Card) -> str:
    """The canonical two-character token of ``card``."""
    return TEXT[card]


def cards_text(cards: Iterable[Card]) -> str:
    """Space-separated tokens, bottom to top."""
    return " ".join(TEXT[c] for c in cards)


def rank_text(rank: int) -> str:
    """The one-character token of a rank 1..13."""
    return RANKS[rank - 1]


def pysol_order(deal: int) -> list[Card]:
    """The 52 cards of PySolFC game ``deal`` in the order they leave the talon.

    This is the shuffle shared by every game here; the games' deal hooks lay
    these cards out. ``pysol_cards`` reproduces PySolFC's generators exactly.
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import MTRandom, RandomBase, shuffle

    check_deal(deal)
    if deal == 0:
        # PySolFC has no game 0 (its MS-compatible generator starts at 1): deal 0 is
        # shuffled by its Mersenne Twister, as the numbers above 32000 are.
        rng = MTRandom()
        rng.setSeed(0)
        cards = rng.shuffle(createCards(1, 13))
    else:
        cards = shuffle(createCards(1, 13), deal, RandomBase.DEALS_PYSOLFC)
    cards.reverse()
    return [from_pysol(c.rank, c.suit) for c in cards]


_PYSOL_SUITS = "CSHD"


def from_pysol(rank: int, suit: int) -> Card:
    """Convert a ``pysol_cards`` (rank, suit index in CSHD) pair to our card."""
    return make_card(rank, SUITS.index(_PYSOL_SUITS[suit]))
