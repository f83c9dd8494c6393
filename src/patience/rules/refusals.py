"""Why a move is refused, in words a player reads (translatable templates): the one
place that explains what ``GameRules.legal_moves`` leaves out."""

from __future__ import annotations

from ..cards import RANK, SUIT, TEXT, Card
from ..moves import FOUNDATION, PILES, RESERVE, STOCK, TABLEAU, WASTE, Move
from ..position import Pile, Position
from .build import ALTERNATE_COLOUR, ANY_SUIT, OTHER_SUIT
from .core import GameRules
from .refusal import Refusal

RANK_PLURALS = (
    "",
    "Aces",
    "2s",
    "3s",
    "4s",
    "5s",
    "6s",
    "7s",
    "8s",
    "9s",
    "10s",
    "Jacks",
    "Queens",
    "Kings",
)
BUILD_REFUSALS = {
    ALTERNATE_COLOUR: "{card} does not go on {top}: build down by one rank in alternating colours",
    ANY_SUIT: "{card} does not go on {top}: build down by one rank",
    OTHER_SUIT: "{card} does not go on {top}: build down by one rank in another suit",
}


def why_refused(game: GameRules, p: Position, move: Move) -> Refusal:
    """Why ``move`` is not legal in ``p``, as a translatable template and its params."""
    if move.is_deal:
        return game.deal_refusal(p) or Refusal("deal is legal here")
    skind, i = PILES[move.src]
    dkind, j = PILES[move.dst]
    src, dst = move.src, move.dst
    for kind, idx, name in ((skind, i, src), (dkind, j, dst)):
        if not _has_pile(game, p, kind, idx):
            return Refusal("{game} has no pile {pile}", game=game.title, pile=name)
    src_cards = _pile(p, skind, i)
    if not src_cards:
        return Refusal("{pile} is empty", pile=src)
    moving = src_cards[-move.count] if move.count <= len(src_cards) else src_cards[0]
    card = TEXT[moving]
    if skind == STOCK and not game.stock_playable(p):
        return Refusal("the stock's cards are face down: use deal")
    if skind == FOUNDATION and not game.foundation_to_tableau:
        return Refusal("cards on the foundations stay there in {game}", game=game.title)
    if move.count > 1:
        if skind != TABLEAU:
            return Refusal("only a tableau run moves as a group")
        if game.max_run == 1:
            return Refusal("only one card moves at a time in {game}", game=game.title)
        up = len(src_cards) - p.down[i]
        if move.count > up:
            return Refusal("{pile} does not have that many face-up cards", pile=src)
        if move.count > game.run_length(p, i):
            run = _cards(src_cards[-move.count :])
            return Refusal("{cards} is not a sequence that moves together", cards=run)
    if dkind == FOUNDATION:
        if skind == FOUNDATION:
            return Refusal("a foundation card never moves to another foundation")
        if move.count > 1:
            return Refusal("cards go to a foundation one at a time")
        acc = game.foundation_accepts(p, j)
        f = p.foundations[j]
        if acc is None:
            return Refusal("{pile} is complete", pile=dst)
        rank, suit = acc
        if not f:
            return Refusal(
                "{card} cannot start {pile}: only {ranks} start it",
                card=card,
                pile=dst,
                ranks=RANK_PLURALS[rank],
            )
        if RANK[moving] != rank or (suit >= 0 and SUIT[moving] != suit):
            return Refusal(
                "{card} does not follow {below} on {pile}",
                card=card,
                below=TEXT[f[-1]],
                pile=dst,
            )
    elif dkind == TABLEAU:
        why = _tableau_refusal(game, p, move, moving)
        if why is not None:
            return why
    elif dkind == RESERVE:
        why = _reserve_refusal(game, p, move)
        if why is not None:
            return why
    elif dkind == STOCK:
        return Refusal("nothing may be put on the stock")
    elif dkind == WASTE:
        return Refusal("nothing may be put on the waste")
    return Refusal("{move} is not legal here", move=str(move))


def _tableau_refusal(game: GameRules, p: Position, move: Move, moving: Card) -> Refusal | None:
    skind, i = PILES[move.src]
    j = PILES[move.dst][1]
    dst, card = move.dst, TEXT[moving]
    if skind == RESERVE and not game.reserve_to_tableau:
        return Refusal("a reserve card goes only to a foundation")
    dest = p.tableau[j]
    need = game.tableau_accepts(p, j)
    if not dest and not game.empty_takes_any:
        if need is None:
            return Refusal("{pile} is empty, and an empty tableau pile stays empty", pile=dst)
        if game.max_run > 1:
            return Refusal(
                "{pile} is empty: it takes only {ranks} (or a run led by one)",
                pile=dst,
                ranks=RANK_PLURALS[need],
            )
        return Refusal("{pile} is empty: it takes only {ranks}", pile=dst, ranks=RANK_PLURALS[need])
    if dest:
        top = TEXT[dest[-1]]
        if need is None:
            if game.base_ends_sequence and RANK[dest[-1]] == p.base:
                return Refusal("nothing goes on {top}: the base rank ends a sequence", top=top)
            return Refusal("nothing goes on {top}: nothing ranks below an Ace", top=top)
        if not game.builds_on(dest[-1], moving):
            return Refusal(BUILD_REFUSALS[game.tableau_build], card=card, top=top)
    if move.count > 1 and skind == TABLEAU:
        most = game.max_run_for(p, i, j)
        if move.count > most:
            return Refusal(
                "{count} cards cannot move to {pile}: with the free cells and empty piles "
                "there is room to move {most} there, one card at a time",
                count=move.count,
                pile=dst,
                most=most,
            )
    return None


def _reserve_refusal(game: GameRules, p: Position, move: Move) -> Refusal | None:
    skind, _ = PILES[move.src]
    j = PILES[move.dst][1]
    if not game.waste_to_reserve and not game.reserve_from_tableau:
        return Refusal("nothing is built on a reserve")
    if skind == TABLEAU and not game.reserve_from_tableau:
        return Refusal("only the waste card goes to a reserve")
    if skind != TABLEAU and not (skind == WASTE and game.waste_to_reserve):
        if game.reserve_from_tableau:
            return Refusal("only a tableau pile's top card goes to a free cell")
        return Refusal("only the waste card goes to a reserve")
    if move.count > 1:
        return Refusal("a free cell takes one card at a time")
    cap = game.reserve_capacity
    if cap is not None and len(p.reserve[j]) >= cap:
        return Refusal("{pile} is full: a free cell holds one card", pile=move.dst)
    return None


def has_pile(game: GameRules, p: Position, name: str) -> bool:
    """Whether ``game`` has the pile ``name`` (a key of ``moves.PILES``) in ``p``."""
    return _has_pile(game, p, *PILES[name])


def _has_pile(game: GameRules, p: Position, kind: int, idx: int) -> bool:
    if kind in (STOCK, WASTE):
        return game.has_stock
    if kind == FOUNDATION:
        return idx < len(p.foundations)
    if kind == TABLEAU:
        return idx < len(p.tableau)
    return idx < len(p.reserve)


def _pile(p: Position, kind: int, idx: int) -> Pile:
    if kind == STOCK:
        return p.stock
    if kind == WASTE:
        return p.waste
    if kind == FOUNDATION:
        return p.foundations[idx]
    if kind == TABLEAU:
        return p.tableau[idx]
    return p.reserve[idx]


def _cards(cards: Pile) -> str:
    return " ".join(TEXT[c] for c in cards)
