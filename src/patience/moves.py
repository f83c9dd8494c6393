"""Moves and their notation (FORMATS.md): ``w>t3``, ``t6>t2/3``, ``deal``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import shown
from .errors import InvalidMoveError

STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE = range(5)

PILES: dict[str, tuple[int, int]] = {"s": (STOCK, 0), "w": (WASTE, 0)}
PILES.update({f"f{i + 1}": (FOUNDATION, i) for i in range(4)})
PILES.update({f"t{i + 1}": (TABLEAU, i) for i in range(13)})
PILES.update({f"r{i + 1}": (RESERVE, i) for i in range(7)})

# ASCII digits only: \d would also read other scripts' digits ("t1>t2/\u0663" as /3).
_MOVE_RE = re.compile(r"([a-z]+[0-9]*)>([a-z]+[0-9]*)(?:/([0-9]+))?")
MAX_COUNT = 52
"""No pile holds more cards than the deck."""
_ALIASES = {"stock": "s", "waste": "w"}


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move: ``count`` cards from the top of pile ``src`` to pile ``dst``, or ``deal``.

    Piles are named as in the notation: ``s``, ``w``, ``f1``-``f4``, ``t1``-``t13``,
    ``r1``-``r7``. The stock action is ``Move.deal()`` (``src == "deal"``).
    """

    src: str
    dst: str = ""
    count: int = 1

    @classmethod
    def deal(cls) -> Move:
        """The stock action of the game."""
        return DEAL

    @property
    def is_deal(self) -> bool:
        """True for the stock action."""
        return self.src == "deal"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read one move in FORMATS.md notation (case-insensitive)."""
        template = "invalid move {move}: expected 'deal', 'SRC>DST' or 'SRC>DST/N'"
        if not isinstance(text, str):  # a saved or sent value of another type
            raise InvalidMoveError.of(template, move=repr(text))
        token = text.strip().lower()
        if token == "deal":
            return DEAL
        quoted = shown(text)
        m = _MOVE_RE.fullmatch(token)
        if not m:
            raise InvalidMoveError.of(template, move=quoted)
        src, dst, count_text = m.groups()
        src, dst = _ALIASES.get(src, src), _ALIASES.get(dst, dst)
        for pile in (src, dst):
            if pile not in PILES:
                template = (
                    "invalid move {move}: unknown pile {pile} "
                    "(piles are s, w, f1-f4, t1-t13, r1-r7)"
                )
                raise InvalidMoveError.of(template, move=quoted, pile=shown(pile))
        count = 1
        if count_text is not None:
            count = int(count_text) if len(count_text) <= 3 else MAX_COUNT + 1
            if not 2 <= count <= MAX_COUNT:
                template = (
                    "invalid move {move}: a count after '/' must be 2 or more, and at most {max}"
                )
                raise InvalidMoveError.of(template, move=quoted, max=MAX_COUNT)
        if src == dst:
            template = "invalid move {move}: source and destination are the same"
            raise InvalidMoveError.of(template, move=quoted)
        return cls(src, dst, count)

    def __str__(self) -> str:
        if self.is_deal:
            return "deal"
        if self.count == 1:
            return f"{self.src}>{self.dst}"
        return f"{self.src}>{self.dst}/{self.count}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


DEAL = Move("deal", "", 0)


def parse_moves(text: str) -> list[Move]:
    """Read a list of moves separated by spaces or newlines."""
    return [Move.parse(token) for token in text.split()]


def moves_text(moves: list[Move]) -> str:
    """Write moves separated by spaces."""
    return " ".join(str(m) for m in moves)
