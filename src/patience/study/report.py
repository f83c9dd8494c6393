"""The lines of a study: for each game and options, the win rate with its 95% interval
(undecided deals shown as the bounds they leave), the time per deal and the states
searched, and the cells and phrases that show them (``pages.py`` puts them together)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import PatienceError
from ..games import get_game
from ..position import heading
from ..proportion import percentile, wilson
from .db import StoredRow
from .deals import DealRanges, ranges_of
from .results import Group, Results

PAPER = {
    ("klondike", "mode=three"): ("draw 3", 0.81945, 0.00084),
    ("klondike", "mode=unlimited"): ("draw 1", 0.90480, 0.00116),
}
"""Blake & Gent (JAIR 2026, Solvitaire), 10^6 deals each, every card known, unlimited
redeals: the win rate and its 95% half-width."""

GOAL_SECONDS = 60.0
"""The time the study's goal gives a deal (issue 18: at least 99.9% of the deals decided
within 60 CPU seconds each). A deal decided later, in a longer try, is decided, and the
page names it with its time. A study whose deals were given less is reported against its
own time (``Line.goal``)."""

NAMED_UNDECIDED = 30
"""How many undecided deals the terminal's table names before it only counts the rest
(the Markdown page names every one, so that a researcher can try them again)."""


@dataclass(frozen=True)
class Line:
    """One game and options: what its stored deals say."""

    game: str
    options: str
    title: str
    deals: DealRanges
    won: int
    lost: int
    unknown: int
    undecided: tuple[tuple[int, float, int], ...]
    """The undecided deals and their longest try: (deal, seconds, states searched)."""
    late: tuple[tuple[int, str, float], ...]
    """The deals decided after ``goal``: (deal, verdict, seconds)."""
    timeouts: tuple[float, ...]
    seconds: tuple[float, ...]
    decided_seconds: tuple[float, ...]
    states: tuple[int, ...]
    goal: float = GOAL_SECONDS
    """The seconds a deal is counted "within": ``GOAL_SECONDS``, or the shortest time the
    deals were given when that is less (a study run with ``--timeout 10``)."""

    @property
    def count(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def in_time(self) -> int:
        """The deals decided within ``goal``."""
        return self.won + self.lost - len(self.late)

    @property
    def rate(self) -> float | None:
        """Won among the decided deals."""
        decided = self.won + self.lost
        return self.won / decided if decided else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the win rate among decided deals."""
        return wilson(self.won, self.won + self.lost)

    @property
    def bounds(self) -> tuple[float, float]:
        """The 95% bounds of the win rate of all deals: every undecided deal lost at the
        low end, won at the high end."""
        return wilson(self.won, self.count)[0], wilson(self.won + self.unknown, self.count)[1]


def quantiles(values: tuple[float, ...] | tuple[int, ...]) -> tuple[float, ...]:
    """Median, p90 and max (as ``study`` gives them)."""
    v = [float(x) for x in values]
    return statistics.median(v) if v else 0.0, percentile(v, 0.9), max(v, default=0.0)


def lines(results: Results) -> list[Line]:
    """The lines of the results, by game and options."""
    out = []
    for group in sorted(results):
        rows = results[group]
        out.append(line_of(group, [rows[d] for d in sorted(rows)]))
    return out


def title_of(group: Group) -> str:
    game, options = group
    opts = dict(o.split("=", 1) for o in options.split(",") if "=" in o)
    try:
        g = get_game(game, opts)
    except PatienceError:  # a game or option this version no longer has: as stored
        return f"{game} {options}".strip()
    return heading(g.title, g.options)


def line_of(group: Group, rows: list[StoredRow]) -> Line:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for r in rows:
        counts[r[3]] = counts.get(r[3], 0) + 1
    goal = min([GOAL_SECONDS, *(r[7] for r in rows)])
    return Line(
        game=group[0],
        options=group[1],
        title=title_of(group),
        deals=ranges_of(r[2] for r in rows),
        won=counts["won"],
        lost=counts["lost"],
        unknown=counts["unknown"],
        undecided=tuple((r[2], r[4], r[5]) for r in rows if r[3] == "unknown"),
        late=tuple((r[2], r[3], r[4]) for r in rows if r[3] != "unknown" and r[4] > goal),
        timeouts=tuple(sorted({r[7] for r in rows})),
        seconds=tuple(r[4] for r in rows),
        decided_seconds=tuple(sorted(r[4] for r in rows if r[3] != "unknown")),
        states=tuple(r[5] for r in rows),
        goal=goal,
    )


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def win_text(line: Line) -> str:
    """``81.95 (81.20-82.70)`` or ``-`` when nothing is decided."""
    if line.rate is None:
        return "-"
    lo, hi = line.interval
    return f"{pct(line.rate)} ({pct(lo)}-{pct(hi)})"


def bounds_text(line: Line) -> str:
    lo, hi = line.bounds
    return f"{pct(lo)}-{pct(hi)}"


def undecided_text(line: Line) -> str:
    """The undecided deals, the first ``NAMED_UNDECIDED`` of them named."""
    shown = [str(deal) for deal, _, _ in line.undecided[:NAMED_UNDECIDED]]
    more = len(line.undecided) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def tried_text(line: Line) -> str:
    """Every undecided deal with its try: ``818 (60 s, 34 million states), ...``."""
    return ", ".join(
        f"{deal} ({seconds:.0f} s, {states_text(states)})"
        for deal, seconds, states in line.undecided
    )


def states_text(n: int) -> str:
    """``999,999 states``, then ``145 million states``."""
    return f"{n:,} states" if n < 1_000_000 else f"{n / 1e6:.0f} million states"


def late_text(line: Line) -> str:
    """The deals decided after the line's goal: ``54 (lost, 214 s), ...``."""
    return ", ".join(f"{deal} ({verdict}, {seconds:.0f} s)" for deal, verdict, seconds in line.late)


def paper_text(line: Line) -> str | None:
    """How the line compares with Blake & Gent's figure, if they give one."""
    known = PAPER.get((line.game, line.options))
    if known is None or line.rate is None:
        return None
    name, rate, half = known
    lo, hi = line.interval
    ours = (hi - lo) / 2
    combined = math.hypot(ours, half)
    diff = line.rate - rate
    verdict = "agrees" if abs(diff) <= combined else "differs"
    low, high = line.bounds
    inside = "inside" if low <= rate <= high else "outside"
    return (
        f"{line.title}: {pct(line.rate)}% ± {pct(ours)} over {line.won + line.lost:,} decided "
        f"deals; Blake & Gent's Klondike {name}: {pct(rate)}% ± {pct(half)}; difference "
        f"{100 * diff:+.2f} points, combined 95% half-width {pct(combined)}: {verdict}; "
        f"their figure is {inside} the bounds our {line.unknown:,} undecided deals leave on "
        f"all {line.count:,} ({bounds_text(line)})"
    )


RATES = (
    "game", "deals", "won", "lost", "undecided", "decided %", "in {goal} %", "win % (95%)",
    "all (95%)",
)  # fmt: skip
"""The first table: verdicts. *win %* is among decided deals; *all* is the bounds the
undecided deals leave on the rate of all deals. ``{goal}``: ``goal_text``."""


def goal_text(report: Sequence[Line]) -> str:
    """The time the deals are counted within: ``60 s``, the lines' goal when they share
    one, else ``time`` (each cell then names its line's)."""
    goals = {line.goal for line in report}
    return f"{goals.pop():g} s" if len(goals) == 1 else "time"


COSTS = (
    "game", "seconds: median", "p90", "max", "over 5 s", "over 30 s", "states: median", "p90",
    "max",
)  # fmt: skip
"""The second table: the work per deal."""

SLOW = (5.0, 30.0)
"""The seconds a deal is counted over (the undecided ones, which spent their whole time,
among them)."""


def slow_counts(line: Line) -> tuple[int, ...]:
    """How many deals took more than each of ``SLOW``'s seconds."""
    return tuple(sum(s > limit for s in line.seconds) for limit in SLOW)


def rate_cells(line: Line, shared: bool = True) -> tuple[str, ...]:
    in_time = pct(line.in_time / line.count) + ("" if shared else f" ({line.goal:g} s)")
    return (
        line.title,
        f"{line.count:,}",
        f"{line.won:,}",
        f"{line.lost:,}",
        f"{line.unknown:,}",
        pct((line.won + line.lost) / line.count),
        in_time,
        win_text(line),
        bounds_text(line),
    )


def cost_cells(line: Line) -> tuple[str, ...]:
    seconds = (f"{q:.3f}" for q in quantiles(line.seconds))
    slow = (f"{n:,}" for n in slow_counts(line))
    states = (f"{q:,.0f}" for q in quantiles(line.states))
    return (line.title, *seconds, *slow, *states)


QS = ("median", "p90", "max")
