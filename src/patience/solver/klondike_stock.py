"""How Klondike's stock is dealt in the relaxed games (``relaxed.Relaxed``,
``relaxed.Ordered``): which of the stock cycle's cards the relaxed game may take, and
in what order (``played_out`` in ``_relaxed.h`` is the same in C); and a position
dealt until a card of the cycle is the waste's top (``brought_up``).

The stock cycle is the waste, bottom to top, then the stock in the order it is dealt:
``seq``, the waste being ``seq[:ptr]``. A card is taken when it leaves the waste's
top for the tableau or a foundation. Cards only ever leave the cycle, so it is the
deal's cycle less the cards taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..position import Position


class Game(Protocol):
    """A relaxed game as the stock drivers play it."""

    def settle(self) -> None: ...
    def take(self, c: int) -> bool: ...
    def won(self) -> bool: ...


def played_out(seq: Sequence[int], ptr: int, left: int, game: Game) -> bool:
    """Whether ``game`` is lost, one card a deal, with ``left`` redeals (-1: unlimited).

    With one card per deal, taking a card off the waste changes nothing about what later
    deals bring, so a playable waste card is best played at once, and a whole pass with
    nothing played means no later pass plays anything either."""
    seq = list(seq)
    played = True  # the cards under the waste's top come round again after a redeal
    while True:
        game.settle()
        if ptr and game.take(seq[ptr - 1]):
            del seq[ptr - 1]
            ptr -= 1
            played = True
        elif ptr < len(seq):
            ptr += 1
        elif seq and played and left != 0:
            ptr, played, left = 0, False, left - 1
        else:
            return not game.won()


def played_out3(seq: Sequence[int], ptr: int, redeal: bool, game: Game) -> bool:
    """Whether ``game`` is lost, three cards a deal (``redeal``: whether one is left).

    Here only some of the cycle's cards come to the waste's top, and taking one changes
    which: declining a card can keep another in reach, so dealing greedily, as with one
    card a deal, would not be a relaxation. Instead, what can come to the top is a fact
    that only grows, like the relaxed game's own. A card can come to the top when it is:

    - the top now, or the cycle's last card (dealing on reaches it);
    - the third card of a deal later in this pass: ``ptr + 2``, ``ptr + 5``, ... (taking
      the top and dealing brings the same cards as dealing on: the pass's later cards
      keep their places);
    - the card under a card taken (it is the top then);
    - with a redeal left, the third card of a deal in a later pass: its place in the
      cycle, less the cards before it taken by then, is 2 modulo 3. Any number of those
      may have been taken (at most two matter), so it is enough that it may be.

    Every card the real game takes comes to the top by one of these, so every card it
    takes the relaxed game takes: a position lost so is lost.
    """
    n = len(seq)
    taken = [False] * (n + 1)
    changed = True
    while changed:
        game.settle()
        changed = False
        before = 0  # cards taken before the i-th
        for i, c in enumerate(seq):
            if not taken[i] and (
                i in (n - 1, ptr - 1)
                or (i >= ptr and (i - ptr) % 3 == 2)
                or taken[i + 1]
                or (redeal and (i % 3 == 2 or (before and i % 3 == 0) or before >= 2))
            ):
                if game.take(c):
                    taken[i] = changed = True
            before += taken[i]
    return not game.won()


def brought_up(p: Position, seq: tuple[int, ...], idx: int, redeals: int) -> Position:
    """``p`` dealt until card ``idx`` of its stock cycle ``seq`` (waste, then the stock
    in dealing order) is the waste's top, with ``redeals`` used."""
    return Position(
        p.game,
        p.options,
        p.deal,
        tuple(reversed(seq[idx + 1 :])),
        seq[: idx + 1],
        p.foundations,
        p.tableau,
        p.down,
        p.reserve,
        redeals,
        p.base,
    )
