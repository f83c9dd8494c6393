"""The tables of a study: for each game and options, the win rate with its 95%
interval (undecided deals shown as the bounds they leave), the time per deal and the
states searched; printed, or written as Markdown beside PNG plots."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..errors import PatienceError
from ..games import get_game
from ..position import heading
from ..proportion import percentile, wilson
from .db import StoredRow
from .deals import DealRanges, ranges_of
from .results import Group, Results

if TYPE_CHECKING:
    from .fair_report import FairLine

T = TypeVar("T")

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


def text(report: list[Line], fair: Sequence[FairLine] = ()) -> str:
    """The lines as plain text, a short paragraph a game (readable at any width), each
    with its fair lines, if any; then the games that have only fair lines."""
    from .fair_report import fair_text

    def fair_of(game: str, options: str) -> list[str]:
        return [t for f in fair if (f.game, f.options) == (game, options) for t in fair_text(f)]

    out = []
    for line in report:
        seconds = ", ".join(
            f"{n} {q:.3f}" for n, q in zip(QS, quantiles(line.seconds), strict=True)
        )
        states = ", ".join(f"{n} {q:,.0f}" for n, q in zip(QS, quantiles(line.states), strict=True))
        decided = line.won + line.lost
        over5, over30 = slow_counts(line)
        out += [
            f"{line.title}: deals {line.deals}",
            f"  won {line.won:,}, lost {line.lost:,}, undecided {line.unknown:,} "
            f"({pct(decided / line.count)}% decided, "
            f"{pct(line.in_time / line.count)}% within {line.goal:g} s)",
            f"  win % {win_text(line)} of decided; all deals {bounds_text(line)} (95%)",
            f"  seconds: {seconds}; over 5 s {over5:,}, over 30 s {over30:,}",
            f"  states: {states}",
        ]
        if line.unknown:
            out.append(f"  undecided: {undecided_text(line)}")
        if line.late:
            out.append(f"  decided after {line.goal:g} s: {late_text(line)}")
        out += fair_of(line.game, line.options)
    studied = {(line.game, line.options) for line in report}
    for game, options, title in dict.fromkeys((f.game, f.options, f.title) for f in fair):
        if (game, options) not in studied:
            out += [f"{title}: fair play only", *fair_of(game, options)]
    compared = [t for t in (paper_text(line) for line in report) if t]
    return "\n".join(out + compared)


QS = ("median", "p90", "max")


def markdown(
    report: list[Line], command: str, plots: list[str], fair: Sequence[FairLine] = ()
) -> str:
    """The Markdown page of the lines, with the command that made it and its plots; the
    fair lines, if any, in a table of their own."""

    def row(values: tuple[str, ...]) -> str:
        return "| " + " | ".join(v.replace("|", "\\|") for v in values) + " |"

    def table(
        headers: tuple[str, ...], cells: Callable[[T], tuple[str, ...]], lines: Sequence[T]
    ) -> list[str]:
        rule = tuple("---" if h in ("game", "setting", "bot") else "---:" for h in headers)
        return [row(headers), row(rule), *(row(cells(line)) for line in lines)]

    goal = goal_text(report)
    shared = goal != "time"
    rates = tuple(h.format(goal=goal) for h in RATES)
    given = (
        ""
        if goal == f"{GOAL_SECONDS:g} s"
        else f" (the time the deals were given, short of the goal's {GOAL_SECONDS:g} s)"
    )
    out = [
        "# Winnability of the four games",
        "",
        'How many deals of each game can be won with every card known ("thoughtful" '
        "solitaire), as the solver decides them (docs/solver.md): `won` with a winning line "
        "replayed through the rules, `lost` only after a search that left nothing out. "
        "A deal the solver did not decide within its time is *undecided*. Its time is "
        "CPU seconds on one core (`patience study --timeout`): the same work on a busy "
        "machine as on a quiet one, though not on a faster one (the states searched, in "
        "the second table, do not depend on the machine). Studies made before 2026-12-02 "
        "were timed on the wall clock, an upper bound of the CPU time (docs/decisions.md, "
        "Studies).",
        "",
        f"This page is made by one command, `{command}`, from the per-deal results it "
        "names (one compressed CSV file per game and options). Deal *N* is the position "
        "`patience deal GAME --deal N` prints (docs/formats.md, Deal numbers): for "
        "Klondike and Baker's Dozen, PySolFC's game *N*.",
        "",
        "- *decided %*: the deals decided (won or lost) within the time allowed.",
        f"- *in {goal} %*: the deals decided within {goal} each{given}; those decided in "
        "a longer try are named below.",
        "- *win %*: won among the decided deals, with its 95% Wilson interval.",
        "- *all*: the win rate of all the deals, undecided ones counted lost for the low "
        "bound and won for the high one (95% Wilson bounds).",
        "",
        *table(rates, lambda line: rate_cells(line, shared), report),
        "",
        "CPU seconds and states searched per deal, on one core (median, 90th percentile, most):",
        "",
        *table(COSTS, cost_cells, report),
        "",
    ]
    if fair:
        from .fair_report import FAIR, fair_cells

        out += [
            "## Fair play",
            "",
            "The same deals played by a bot that knows only what a player would "
            "(docs/fair-play.md), by `patience study --fair`: *real*, stock cards unseen "
            "until turned; *paper*, Klondike's stock known from the start (Bjarnason, Fern "
            "& Tadepalli 2009). *bot*: its settings. Beside its win rate (95% Wilson "
            "interval), the thoughtful one of the same deals. A deal the solver has proved "
            "lost is lost for every player: it is counted lost without being played. "
            "Where a game hides nothing (Baker's Dozen), the bot sees what the solver sees: "
            "the deals it loses are ones its search, at most *max_states* states a move, "
            "does not win.",
            "",
            *table(FAIR, fair_cells, fair),
            "",
        ]
    out += [
        "## Deals covered",
        "",
    ]
    for line in report:
        limits = ", ".join(f"{t:g}" for t in line.timeouts)
        out.append(f"- {line.title}: deals {line.deals} (seconds allowed per deal: {limits})")
    out += [
        "",
        "## Undecided deals",
        "",
        "Each with the CPU seconds of its longest try and the states that try searched "
        '(docs/solver.md, "The deals left undecided", says why they are hard).',
        "",
    ]
    undecided = [line for line in report if line.unknown]
    out += [f"- {line.title}: {tried_text(line)}" for line in undecided] or ["None."]
    out += ["", f"## Decided after more than {goal}", ""]
    late = [f"- {line.title}: {late_text(line)}" for line in report if line.late]
    out += late or ["None."]
    compared = [t for t in (paper_text(line) for line in report) if t]
    out += [
        "",
        "## Against Blake & Gent (JAIR 2026)",
        "",
        "Solvitaire's figures (10^6 deals each, unlimited redeals, every card known): "
        "Klondike draw 3 81.945% ± 0.084%, draw 1 90.480% ± 0.116%, which are our modes "
        "`three` and `unlimited`. Two figures agree when they differ by less than the "
        "combined 95% half-width (the square root of the sum of the squares). The "
        "undecided deals are left out of our rate; the bounds they leave (each counted "
        "lost, then won) are set beside their figure too, since most of those deals "
        "that were decided later were lost (docs/solver-log.md).",
        "",
    ]
    out += [f"- {t}" for t in compared] or ["Neither mode is in the results yet."]
    if plots:
        out += ["", "## Plots", ""]
        out += [f"![{p}]({p})" for p in plots]
    return "\n".join(out) + "\n"
