"""Pydantic models of the JSON API: they validate the requests and document the schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..cards import MAX_DEAL
from .game_models import Marks, TableJSON

Status = Literal["playing", "won", "stuck"]
Verdict = Literal["winnable", "lost", "unknown"]


class TableauPile(BaseModel):
    """One tableau pile: face-down cards then face-up cards, bottom to top."""

    down: list[str] = Field(default_factory=list, max_length=52)
    up: list[str] = Field(default_factory=list, max_length=52)


class PositionJSON(BaseModel):
    """A whole position in the FORMATS.md JSON notation."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40, examples=["klondike"])
    options: dict[str, str] = Field(default_factory=dict)
    deal: int | None = Field(default=None, strict=True)
    stock: list[str] = Field(default_factory=list, max_length=52)
    waste: list[str] = Field(default_factory=list, max_length=52)
    foundations: list[list[str]] = Field(default_factory=list, max_length=4)
    tableau: list[TableauPile] = Field(default_factory=list, max_length=13)
    reserve: list[list[str]] = Field(default_factory=list, max_length=7)
    redeals: int = Field(default=0, strict=True)
    base: str | None = Field(default=None, max_length=2)
    score: int | None = Field(default=None, strict=True)


class ViewTableauPile(BaseModel):
    """A tableau pile as the player sees it: a card never seen is null."""

    down: list[str | None]
    up: list[str]


class PositionView(BaseModel):
    """The position as the player sees it (``fair.player_view``): the FORMATS.md JSON
    with every card the player has never seen replaced by null, pile sizes kept."""

    game: str
    options: dict[str, str]
    deal: int | None
    stock: list[str | None]
    waste: list[str]
    foundations: list[list[str]]
    tableau: list[ViewTableauPile]
    reserve: list[list[str]]
    redeals: int
    base: str | None
    score: int | None = None


class NewGame(BaseModel):
    """Start a game: a numbered (or random) deal of a game, or a given position."""

    model_config = ConfigDict(extra="forbid")

    game: str | None = Field(
        default=None,
        max_length=40,
        description="Game name; may be left out when `position` is given.",
        examples=["klondike"],
    )
    options: dict[str, str] = Field(default_factory=dict, examples=[{"mode": "three"}])
    deal: int | None = Field(
        default=None,
        strict=True,
        description=f"Deal number 0..{MAX_DEAL}; null = a random deal.",
        json_schema_extra={"minimum": 0, "maximum": MAX_DEAL},
    )
    winnable: bool = Field(
        default=False,
        strict=True,
        description="Draw from deals the solver proves winnable (random deals only).",
    )
    daily: str | None = Field(
        default=None,
        max_length=40,
        description="The deal of the day of this date, YYYY-MM-DD (the player's own date);"
        " not with `deal` or `position`.",
        examples=["2026-12-01"],
    )
    position: PositionJSON | None = Field(
        default=None, description="Start from this position instead of a deal (load a position)."
    )


class MoveRequest(BaseModel):
    """One move in FORMATS.md notation."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(max_length=40, examples=["t6>t2/3", "deal", "w>f1"])
    assisted: bool = Field(
        default=False,
        strict=True,
        description="The solver chose this move ('Show me'): a win is then not the player's.",
    )
    autoplay: bool = Field(
        default=False,
        strict=True,
        description="Then send home every card it is proven safe to (listed in 'autoplayed'; "
        "one undo takes them back with this move).",
    )


class PileRequest(BaseModel):
    """A pile whose top card should go to a foundation (double-click)."""

    model_config = ConfigDict(extra="forbid")

    pile: str = Field(max_length=10, examples=["t3", "w"])
    autoplay: bool = Field(
        default=False, strict=True, description="As for a move: then auto-play the safe moves."
    )


class GameView(BaseModel):
    """Everything the page shows of one game."""

    id: str
    game: str
    title: str
    options: dict[str, str]
    deal: int | None
    position: PositionView = Field(
        description="What the player sees: a card never seen face up is null."
    )
    legal_moves: list[str]
    score: int
    max_score: int
    moves_made: int
    elapsed: float = Field(description="Seconds of play (idle gaps are capped).")
    can_undo: bool
    can_redo: bool
    status: Status
    stock_count: int
    redeals: int
    redeals_left: int | None = Field(description="Redeals left; null = unlimited.")
    base: str | None = Field(description="Lady Jane's base rank, e.g. '7'.")
    last_move: str | None = Field(
        description="The moves the last change played, in order, separated by spaces."
    )
    autoplayed: list[str] = Field(
        default=[], description="The moves auto-play made after the last move, in order."
    )
    notice: str | None
    finished: bool = Field(description="Recorded in the statistics (won or abandoned).")
    assisted: bool = Field(
        description="The solver looked at the face-down cards for this game: it played moves "
        "('Show me'), gave a proven hint (`?peek=true`) or rewound it."
    )
    daily: str | None = Field(
        default=None, description="The date (YYYY-MM-DD) of the deal of the day it plays."
    )
    undo_count: int = Field(description="Moves that undo can take back.")
    redo_count: int = Field(description="Undone moves that redo can replay.")
    table: TableJSON = Field(description="The table's layout with this game's options.")
    marks: Marks = Field(description="What the table shows beside the cards.")


class Chance(BaseModel):
    """The chance to win from what the player has seen: the share of sampled arrangements
    of the unseen cards from which the position can still be won (each solved knowing its
    cards, so an upper bound on a fair player's chance), an estimate with its interval."""

    chance: float | None = Field(
        default=None, description="Won among the decided arrangements, 0 to 1; null: none decided."
    )
    interval: list[float] | None = Field(
        default=None, description="The 95% Wilson interval [low, high] of `chance`."
    )
    samples: int = Field(default=0, description="Arrangements of the unseen cards solved.")
    undecided: int = Field(default=0, description="Of them, left undecided (not in `chance`).")
    exact: bool = Field(
        default=False,
        description="At most one card unseen: one arrangement, so `chance` is a proof (0 or 1).",
    )
    cut: bool = Field(
        default=False,
        description="The time limit stopped the search before every arrangement asked for "
        "was solved: `samples` is fewer, and the answer may depend on the machine's load.",
    )


class Hint(Chance):
    """Advice for the current position. Fair (the default): the move with the best chance
    of winning from what the player has seen, and that chance. With ``peek``: the solver's
    proven verdict and line, knowing every card."""

    verdict: Verdict = Field(
        description="winnable or lost: proven (fair: whatever the unseen cards are); "
        "unknown: not proven (fair: `chance` says how likely)."
    )
    move: str | None = Field(description="The move to make; null when there is none.")
    line: list[str] = Field(
        description="Fair: the plan, up to the next card shown; peek: the whole winning line."
    )
    fair: bool = Field(
        description="True: from what the player has seen only. False: the solver looked at "
        "the face-down cards (the game is then recorded as assisted)."
    )


class StatsRow(BaseModel):
    """Statistics of one game with one set of options."""

    game: str
    options: dict[str, str]
    played: int
    won: int
    win_rate: float = Field(description="won / played, from 0 to 1.")
    win_percent: float = Field(description="won / played in percent, 0 to 100.")
    current_streak: int
    longest_streak: int
    best_time: float | None = Field(description="Seconds of the fastest win.")
    average_time: float | None = Field(description="Mean seconds of the wins.")
    best_score: int | None
    assisted: int = Field(
        description="Games won with help that looked at the face-down cards (not in 'won')."
    )
    daily_streak: int = Field(
        description="Days in a row, up to the date asked for (or the day before), whose deal"
        " of the day was won."
    )
    daily_longest: int = Field(description="The most days in a row whose deal of the day was won.")


class StatsList(BaseModel):
    """Statistics of every game and options played."""

    stats: list[StatsRow]


class StatsReset(BaseModel):
    """Which statistics to forget: one game's (with one set of options, or all of its
    options), or, with no game, every game's."""

    model_config = ConfigDict(extra="forbid")

    game: str | None = Field(default=None, max_length=40, examples=["klondike"])
    options: dict[str, str] | None = Field(
        default=None, description="Only these options of the game; null = all of them."
    )


class StatsForgotten(BaseModel):
    """What a reset forgot."""

    forgotten: int = Field(description="Finished games forgotten.")


class Messages(BaseModel):
    """A translation catalog for the front end (keys added by the i18n module pass through)."""

    model_config = ConfigDict(extra="allow")

    lang: str
    messages: dict[str, str | list[str]] = Field(
        description="msgid -> text; a plural message is keyed 'singular\\u0000plural' -> forms."
    )
    plural: str | None = Field(default=None, description="The Plural-Forms rule of the catalog.")


class ErrorDetail(BaseModel):
    """What went wrong, in English and as a translatable template."""

    code: str = Field(examples=["illegal_move"])
    message: str
    message_id: str = Field(description="English template with {placeholders}.")
    params: dict[str, object]


class ErrorBody(BaseModel):
    """The body of every error reply (4xx, and 503/507 when the disk or solver fails)."""

    error: ErrorDetail
