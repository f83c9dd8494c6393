"""The deal of the day: one proven-winnable deal per date, game and options, the same for
every player and on every machine, found from the date alone.

The date, the game and its options (all of them, defaults filled in) make a text,
``YYYY-MM-DD/game/key=value,key=value``; its SHA-256 gives the first deal to try
(1 .. FIRST_DEALS), and the deal of the day is the first from there, among ``DEALS``
deals, that the solver proves winnable within ``STATES`` states each. The budget is in
states, never seconds, so a fast machine and a slow one agree. A change to the solver
may change which deal that is (docs/decisions.md).

This is the application layer, like ``assist``: both shells call it.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Mapping

from . import solver
from .assist import Cancel, as_event
from .errors import PatienceError
from .games import get_game
from .rules import Game

FIRST_DATE = datetime.date(2000, 1, 1)
LAST_DATE = datetime.date(2099, 12, 31)
"""The dates that have a deal of the day."""

FIRST_DEALS = 1_000_000_000
"""The first deal tried is 1 .. FIRST_DEALS - 1: a short number, easy to share."""

STATES = 200_000
"""States the solver may search on each deal tried (no time limit)."""

DEALS = 50
"""Deals tried from the first before giving up (none of them proven winnable)."""

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _(msgid: str) -> str:
    """Mark a message for translation (the web app translates it; this layer never does)."""
    return msgid


class InvalidDateError(PatienceError):
    """A date that is not YYYY-MM-DD, not a real day, or outside the daily deals' range."""

    code = "invalid_date"


def parse_date(text: str) -> datetime.date:
    """The date ``text`` spells as YYYY-MM-DD (ASCII digits), from FIRST_DATE to
    LAST_DATE; InvalidDateError otherwise."""
    shown = text[:20]
    template = _("invalid date '{date}': give a day as YYYY-MM-DD from {first} to {last}")
    params: dict[str, object] = {
        "date": shown,
        "first": FIRST_DATE.isoformat(),
        "last": LAST_DATE.isoformat(),
    }
    if not _DATE.fullmatch(text):
        raise InvalidDateError.of(template, **params)
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise InvalidDateError.of(template, **params) from None
    if not FIRST_DATE <= day <= LAST_DATE:
        raise InvalidDateError.of(template, **params)
    return day


def utc_today() -> datetime.date:
    """Today's date in UTC (the deals of the day that are out: up to the day after)."""
    return datetime.datetime.now(datetime.UTC).date()


def parse_dealt_date(text: str, today: datetime.date | None = None) -> datetime.date:
    """``parse_date``, and a day whose deal of the day is out: no later than the day after
    ``today`` (None: ``utc_today``), since a player's own date may be a day ahead of UTC;
    InvalidDateError otherwise."""
    day = parse_date(text)
    last = (today or utc_today()) + datetime.timedelta(days=1)
    if day > last:
        raise InvalidDateError.of(
            _("the deal of the day of {date} is not out yet: give a day up to {last}"),
            date=day.isoformat(),
            last=last.isoformat(),
        )
    return day


def seed_text(day: datetime.date, rules: Game) -> str:
    """The text the first deal is drawn from: ``YYYY-MM-DD/game/key=value,...``."""
    options = ",".join(f"{k}={v}" for k, v in rules.options)
    return f"{day.isoformat()}/{rules.name}/{options}"


def first_deal(day: datetime.date, rules: Game) -> int:
    """The first deal tried on ``day``: from the SHA-256 of ``seed_text``."""
    digest = hashlib.sha256(seed_text(day, rules).encode("ascii")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % (FIRST_DEALS - 1)


def daily_deal(
    day: datetime.date,
    game: str,
    options: Mapping[str, str],
    cancel: Cancel | None = None,
) -> int | None:
    """The deal of the day of ``game`` with ``options``, or None: none of the
    deals tried was proven winnable, or ``cancel`` was set."""
    rules = get_game(game, options)
    found: int | None = solver.find_winnable_within(
        rules, first_deal(day, rules), STATES, DEALS, as_event(cancel)
    )
    return found


def daily_work(
    day: str, game: str, options: dict[str, str], seconds_left: float, cancel: Cancel
) -> int | None:
    """``daily_deal`` as solver-pool work (``functools.partial`` of it): picklable, run in
    a worker process with the seconds left (unused: the search is bounded by states) and
    a cancel event."""
    return daily_deal(parse_date(day), game, options, cancel)
