"""Pydantic models of what a game declares (``rules.declare``) as the API serves it: the
games offered, each table's layout, the marks drawn beside the cards, the help.

Texts are English message ids; the page translates them with the catalogs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class SlotJSON(BaseModel):
    """One pile's place in a row."""

    pile: str = Field(examples=["t1", "stock"])
    kind: Literal["stock", "waste", "foundation", "tableau", "reserve"]
    col: float = Field(description="Column, 0 = leftmost; halves allowed.")
    line: int = Field(description="Cards (and gaps) below the row's top: 0 = on it.")
    fan: Literal["none", "down", "right", "across"] = Field(
        description="How the pile spreads its cards."
    )


class RowJSON(BaseModel):
    """A row of piles."""

    slots: list[SlotJSON]
    height: float = Field(description="Height in card heights.")
    grows: bool = Field(description="Takes the height its piles need from what is left.")
    extra: int = Field(description="Pixels kept free under the row (for labels).")


class ArrangementJSON(BaseModel):
    """One way to lay the table out: columns of cards, rows top to bottom."""

    cols: int
    rows: list[RowJSON]


class TableJSON(BaseModel):
    """How a game lays out its table: the first arrangement, or a later one whose cards come
    out more than 1/0.85 times as wide on the screen at hand."""

    arrangements: list[ArrangementJSON]
    waste_shown: int = Field(description="Waste cards fanned in view.")


class FoundationMark(BaseModel):
    """The first rank of a foundation and how many ranks each card climbs."""

    start: int = Field(ge=1, le=13)
    step: int = Field(ge=1, le=12)


class Marks(BaseModel):
    """What the table shows beside the cards, from the rules."""

    empty_tableau_takes: int | None = Field(
        description="The rank an empty tableau pile takes (1-13); null = nothing, unless "
        "empty_tableau_takes_any."
    )
    empty_tableau_takes_any: bool = Field(
        description="An empty tableau pile takes any card or run (FreeCell's cascades)."
    )
    foundations: list[FoundationMark]
    stock_face_up: bool = Field(description="The stock's top card lies face up, in play.")
    finishes: bool = Field(description="Sending every card home now wins (offer Finish).")


class OptionValue(BaseModel):
    """One value of an option, with its label (a message id)."""

    value: str = Field(examples=["three"])
    label: str = Field(examples=["Draw three, unlimited redeals"])


class OptionInfo(BaseModel):
    """An option of a game: its key, label, default and values."""

    key: str = Field(examples=["mode"])
    label: str = Field(examples=["Deal mode"])
    default: str
    values: list[OptionValue]


class HelpItem(BaseModel):
    """A paragraph of help, or with ``term`` an option and what it does."""

    text: str
    term: str | None


class HelpSection(BaseModel):
    """A titled section of a game's help."""

    title: str
    items: list[HelpItem]


class HelpJSON(BaseModel):
    """A game's "How to play"."""

    intro: str
    sections: list[HelpSection]


class Sample(BaseModel):
    """A position to illustrate the help with (the first position of deal 1)."""

    position: dict[str, Any] = Field(
        description="The position JSON, as a player sees it: a face-down card is null."
    )
    marks: Marks


class ReserveNames(BaseModel):
    """What a player calls a game's reserves (FreeCell's are free cells): message ids."""

    group: str = Field(description='The reserves together, as in the help: "Reserves".')
    pile: str = Field(description='One reserve, {n} its number: "reserve {n}".')


class GameInfo(BaseModel):
    """A game the server can deal, as the game declares itself."""

    name: str
    title: str = Field(description="A message id.")
    options: dict[str, list[str]] = Field(
        description="Each option key with its values, the default first."
    )
    defaults: dict[str, str] = Field(description="Each option key with its default value.")
    choices: list[OptionInfo] = Field(description="The options with their labels.")
    selected: dict[str, str]
    has_stock: bool
    has_redeals: bool
    reserve_names: ReserveNames
    table: TableJSON = Field(description="The table with the default options.")
    help: HelpJSON | None
    sample: Sample
