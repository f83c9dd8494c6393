"""Pydantic models of the JSON API: they validate the requests and document the schema."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from ..cards import MAX_DEAL
from ..daily import FIRST_DATE, LAST_DATE
from ..games import GAMES
from ..moves import MAX_COUNT, PILES
from .game_models import Marks, TableJSON

# What the schema declares of a value beyond its type, so that a request it accepts is
# not refused for its form: the server's own checks stay, with their clear errors (the
# schema is documentation, a pattern here is never pydantic's validation).


def move_pattern() -> str:
    """FORMATS.md's move notation, as the server writes it: ``deal``, or ``SRC>DST`` with
    two different piles and an optional ``/N`` (2 to MAX_COUNT)."""
    names = sorted(PILES)
    pairs = "|".join(f"{src}>({'|'.join(d for d in names if d != src)})" for src in names)
    counts = "|".join(str(n) for n in range(MAX_COUNT, 1, -1))
    return f"^(deal|({pairs})(/({counts}))?)$"


FOUNDATION_SOURCES = [
    *sorted(p for p in PILES if not p.startswith("f")),
    "stock",
    "waste",
]
"""The piles whose top card a double-click may send home (their names and aliases)."""

DEAL_TEXT = rf"^0*([0-9]{{1,{len(str(MAX_DEAL)) - 1}}}|{MAX_DEAL})$"
"""A deal number 0..MAX_DEAL in ASCII digits (leading zeros allowed)."""

YEARS = "|".join(str(year) for year in range(FIRST_DATE.year, LAST_DATE.year + 1))
DATE_PATTERN = rf"^({YEARS})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
"""YYYY-MM-DD in ``daily``'s years (the server also checks that the day exists and is
not after tomorrow)."""


def whole_number(value: object) -> object:
    """A JSON number with no fraction written with one (``5.0``: the same number to JSON
    and its schema) as the integer it is, while a float holds it exactly (up to 2^53);
    anything else as it came, for the integer's own check."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(whole_number), Strict()]
"""An integer of a request: a JSON integer, or a number with a zero fraction; never a
boolean or text."""


def deal_value(value: object) -> int | str | None:
    """A requested deal number: an integer (``WholeNumber``), its digits as text (up to 40
    characters: read by ``cards.parse_deal``, which names what is wrong), or None."""
    value = whole_number(value)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str):
        if len(value) > 40:
            raise PydanticCustomError("string_too_long", "at most 40 characters")
        return value
    raise PydanticCustomError("int_type", "a deal number is expected")


DEAL_SCHEMA: dict[str, Any] = {
    # Bounds beside the branches too, where the schema always had them (they hold for
    # numbers only, so the text branch is left as it is).
    "minimum": 0,
    "maximum": MAX_DEAL,
    "anyOf": [
        {"type": "integer", "minimum": 0, "maximum": MAX_DEAL},
        {"type": "string", "pattern": DEAL_TEXT, "maxLength": 40},
        {"type": "null"},
    ],
}

DealValue = Annotated[int | str | None, PlainValidator(deal_value), WithJsonSchema(DEAL_SCHEMA)]
"""A deal number as a request gives it: a JSON integer, or its digits as text (exact past
2^53, where a JavaScript number is not), or null."""


def on_branches(**kinds: Callable[[], dict[str, Any]]) -> Callable[[dict[str, Any]], None]:
    """A ``json_schema_extra`` that adds ``kinds[type]()`` to the branch of that JSON type
    (of an ``anyOf``, or the schema itself), when the schema is made: the registry's
    games are read then, not when this module is imported."""

    def extra(schema: dict[str, Any]) -> None:
        for branch in schema.get("anyOf", [schema]):
            made = kinds.get(branch.get("type", ""))
            if made is not None:
                branch.update(made())

    return extra


def options_by_game(schema: dict[str, Any]) -> None:
    """A model's ``json_schema_extra``: the options each game of the registry takes
    (``if`` the game is this one, ``then`` its options' keys and values), read when the
    schema is made."""
    schema["allOf"] = [
        {
            "if": {"properties": {"game": {"const": name}}, "required": ["game"]},
            "then": {
                "properties": {
                    "options": {
                        "type": ["object", "null"],
                        "properties": {
                            key: {"enum": list(values)} for key, values in game.option_spec.items()
                        },
                        "additionalProperties": False,
                    }
                }
            },
        }
        for name, game in GAMES.items()
    ]


def game_names() -> dict[str, Any]:
    """A game name: one of the registry's."""
    return {"enum": list(GAMES)}


def deal_bounds() -> dict[str, Any]:
    """A deal number as a JSON integer."""
    return {"minimum": 0, "maximum": MAX_DEAL}


def a_date() -> dict[str, Any]:
    """A day, YYYY-MM-DD."""
    return {"format": "date", "pattern": DATE_PATTERN}


def a_move() -> dict[str, Any]:
    """A move in notation."""
    return {"pattern": move_pattern()}


def a_foundation_source() -> dict[str, Any]:
    """A pile that can send its top card home."""
    return {"enum": FOUNDATION_SOURCES}


Status = Literal["playing", "won", "stuck"]
Verdict = Literal["winnable", "lost", "unknown"]


class TableauPile(BaseModel):
    """One tableau pile: face-down cards then face-up cards, bottom to top."""

    down: list[str] = Field(default_factory=list, max_length=52)
    up: list[str] = Field(default_factory=list, max_length=52)


class PositionJSON(BaseModel):
    """A whole position in the FORMATS.md JSON notation."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=options_by_game)

    game: str = Field(
        max_length=40, examples=["klondike"], json_schema_extra=on_branches(string=game_names)
    )
    options: dict[str, str] = Field(default_factory=dict)
    deal: WholeNumber | None = Field(
        default=None, json_schema_extra=on_branches(integer=deal_bounds)
    )
    stock: list[str] = Field(default_factory=list, max_length=52)
    waste: list[str] = Field(default_factory=list, max_length=52)
    foundations: list[list[str]] = Field(default_factory=list, max_length=4)
    tableau: list[TableauPile] = Field(default_factory=list, max_length=13)
    reserve: list[list[str]] = Field(default_factory=list, max_length=7)
    redeals: WholeNumber = 0
    base: str | None = Field(default=None, max_length=2)
    score: WholeNumber | None = None


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

    model_config = ConfigDict(extra="forbid", json_schema_extra=options_by_game)

    game: str | None = Field(
        default=None,
        max_length=40,
        description="Game name; may be left out when `position` is given.",
        examples=["klondike"],
        json_schema_extra=on_branches(string=game_names),
    )
    options: dict[str, str] = Field(default_factory=dict, examples=[{"mode": "three"}])
    deal: DealValue = Field(
        default=None,
        description=f"Deal number 0..{MAX_DEAL}, a JSON integer or its digits as text (exact "
        "in a client whose numbers are not past 2^53, as JavaScript's); null = a random deal.",
    )
    winnable: bool = Field(
        default=False,
        strict=True,
        description="Draw from deals the solver proves winnable (random deals only).",
    )
    daily: str | None = Field(
        default=None,
        max_length=40,
        description="The deal of the day of this date, YYYY-MM-DD (the player's own date), "
        f"from {FIRST_DATE} up to tomorrow (the server's UTC date plus one); not with `deal` "
        "or `position`.",
        examples=["2026-12-01"],
        json_schema_extra=on_branches(string=a_date),
    )
    position: PositionJSON | None = Field(
        default=None, description="Start from this position instead of a deal (load a position)."
    )


class MoveRequest(BaseModel):
    """One move in FORMATS.md notation."""

    model_config = ConfigDict(extra="forbid")

    move: str = Field(
        max_length=40,
        examples=["t6>t2/3", "deal", "w>f1"],
        json_schema_extra=on_branches(string=a_move),
    )
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

    pile: str = Field(
        max_length=10,
        examples=["t3", "w"],
        json_schema_extra=on_branches(string=a_foundation_source),
    )
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
    finished: bool = Field(
        description="Over and recorded in the statistics (won, or abandoned for another game);"
        " a game played again after that (an undo of the win) is in progress again, its"
        " result still recorded once."
    )
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
    """The chance to win from what the player has seen, an estimate with its interval;
    ``kind`` says what it is."""

    kind: Literal["proven", "advice-playouts", "clairvoyant"] = Field(
        default="clairvoyant",
        description="What `chance` is. advice-playouts: the chance of a player who follows "
        "the hint's own fair advice from here, from its games played out over sampled orders "
        "of the unseen cards weighed with its record in past games (the posterior mean under "
        "a prior fitted on them: Hopscotch). clairvoyant: the "
        "share of sampled arrangements that a player who could see every card would win, "
        "an upper bound and not the player's chance (Klondike, Lady Jane). proven: nothing "
        "is left unseen, the solver's verdict (Baker's Dozen; null `chance`: undecided).",
    )
    chance: float | None = Field(
        default=None,
        description="Won among the decided arrangements, 0 to 1 (advice-playouts: the "
        "posterior mean given the games won); null: none decided.",
    )
    interval: list[float] | None = Field(
        default=None,
        description="The 95% interval [low, high] of `chance` (Wilson; advice-playouts: "
        "the credible interval).",
    )
    samples: int = Field(
        default=0,
        description="Arrangements of the unseen cards solved (advice-playouts: games played out).",
    )
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

    model_config = ConfigDict(extra="forbid", json_schema_extra=options_by_game)

    game: str | None = Field(
        default=None,
        max_length=40,
        examples=["klondike"],
        json_schema_extra=on_branches(string=game_names),
    )
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
