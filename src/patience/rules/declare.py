"""What a game shows a player, declared once beside its rules: the table, the options'
names and the help.

The rules engine says what is legal; this module says how the game looks. Every front end
reads the same declaration (the web app serves ``describe()`` as JSON), so a game module is
the only place that knows its piles, where they lie and how they fan.

Texts are English message ids marked with ``N_`` (the catalogs translate them; the engine
itself imports no translation code).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Fan = Literal["none", "down", "right", "across"]
"""How a pile spreads its cards: stacked, downwards (tableau), to the right (the waste's
last few), or every card to the right as far as the table goes (a long reserve)."""

KINDS = {"stock": "stock", "waste": "waste", "f": "foundation", "t": "tableau", "r": "reserve"}


def N_(text: str) -> str:
    """Mark ``text`` as a player-visible message id (extracted into the catalogs)."""
    return text


def pile_kind(pile: str) -> str:
    """The kind of pile ``pile`` (``t3`` -> ``tableau``)."""
    return KINDS.get(pile) or KINDS[pile[0]]


@dataclass(frozen=True)
class Slot:
    """One pile's place in a row: its column (0 = leftmost; halves allowed), its line (0 =
    the row's top; 1 = a card and a gap lower, as the waste under the stock) and fan."""

    pile: str
    col: float
    fan: Fan = "none"
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        """The slot as the front end reads it."""
        return {
            "pile": self.pile,
            "kind": pile_kind(self.pile),
            "col": self.col,
            "line": self.line,
            "fan": self.fan,
        }


@dataclass(frozen=True)
class Row:
    """A row of slots. ``height`` is in card heights; a row that ``grows`` (tableau piles)
    takes the height its piles need from what the fixed rows leave; ``extra`` reserves
    pixels under the row (for labels)."""

    slots: tuple[Slot, ...]
    height: float = 1.0
    grows: bool = False
    extra: int = 0

    def to_json(self) -> dict[str, Any]:
        """The row as the front end reads it."""
        return {
            "slots": [s.to_json() for s in self.slots],
            "height": self.height,
            "grows": self.grows,
            "extra": self.extra,
        }


@dataclass(frozen=True)
class Arrangement:
    """One way to lay the table out: ``cols`` columns of cards, rows top to bottom."""

    cols: int
    rows: tuple[Row, ...]

    def piles(self) -> list[str]:
        """Every pile this arrangement places, row by row."""
        return [s.pile for r in self.rows for s in r.slots]

    def to_json(self) -> dict[str, Any]:
        """The arrangement as the front end reads it."""
        return {"cols": self.cols, "rows": [r.to_json() for r in self.rows]}


@dataclass(frozen=True)
class Table:
    """The table of a game. Front ends use the first arrangement, or a later one when
    its cards come out clearly bigger on the screen at hand (a phone held upright)."""

    arrangements: tuple[Arrangement, ...]
    waste_shown: int = 1
    """How many waste cards are fanned in view (Klondike dealing three shows three)."""

    def to_json(self) -> dict[str, Any]:
        """The table as the front end reads it."""
        return {
            "arrangements": [a.to_json() for a in self.arrangements],
            "waste_shown": self.waste_shown,
        }


def piles(prefix: str, first: int, last: int) -> list[str]:
    """Pile names ``prefix+first`` .. ``prefix+last`` (``piles("t", 1, 7)``)."""
    return [f"{prefix}{i}" for i in range(first, last + 1)]


def row(names: list[str], col0: float = 0, fan: Fan = "none", **kw: Any) -> Row:
    """A row of piles side by side from column ``col0``, all fanned alike."""
    return Row(tuple(Slot(n, col0 + i, fan) for i, n in enumerate(names)), **kw)


def stock_row(foundation_col: float, waste_fan: Fan = "none", **kw: Any) -> Row:
    """Stock and waste on the left, the four foundations from ``foundation_col``."""
    left = (Slot("stock", 0), Slot("waste", 1, waste_fan))
    return Row(left + row(piles("f", 1, 4), foundation_col).slots, **kw)


@dataclass(frozen=True)
class HelpItem:
    """A paragraph of help, or with ``term`` an option and what it does."""

    text: str
    term: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The item as the front end reads it."""
        return {"text": self.text, "term": self.term}


@dataclass(frozen=True)
class Help:
    """A game's "How to play": an introduction, then titled sections of items."""

    intro: str
    sections: tuple[tuple[str, tuple[HelpItem, ...]], ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The help as the front end reads it."""
        return {
            "intro": self.intro,
            "sections": [
                {"title": title, "items": [i.to_json() for i in items]}
                for title, items in self.sections
            ],
        }


def help_of(intro: str, *sections: tuple[str, list[str | tuple[str, str]]]) -> Help:
    """A Help from plain data: each section a title and its items, an item a paragraph or
    a (term, text) pair."""
    return Help(
        intro,
        tuple(
            (
                title,
                tuple(HelpItem(i) if isinstance(i, str) else HelpItem(i[1], i[0]) for i in items),
            )
            for title, items in sections
        ),
    )
