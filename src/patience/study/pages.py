"""The pages of a study: its lines (``report.py``) and its fair lines
(``fair_report.py``) as plain text for the terminal, or as Markdown beside PNG plots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .fair_report import FAIR, FairLine, fair_cells, fair_text
from .report import (
    COSTS,
    GOAL_SECONDS,
    QS,
    RATES,
    Line,
    bounds_text,
    cost_cells,
    goal_text,
    late_text,
    paper_text,
    pct,
    quantiles,
    rate_cells,
    slow_counts,
    tried_text,
    undecided_text,
    win_text,
)

T = TypeVar("T")


def text(report: list[Line], fair: Sequence[FairLine] = ()) -> str:
    """The lines as plain text, a short paragraph a game (readable at any width), each
    with its fair lines, if any; then the games that have only fair lines."""

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


def markdown(
    report: list[Line], command: str, plots: list[str], fair: Sequence[FairLine] = ()
) -> str:
    """The Markdown page of the lines, with the command that made it and its plots; the
    fair lines, if any, in a table of their own."""
    goal = goal_text(report)
    out = [
        *_introduction(command, goal),
        *_thoughtful_tables(report, goal),
        *(_fair_section(fair) if fair else []),
        *_deals_covered(report),
        *_undecided_and_late(report, goal),
        *_against_the_paper(report),
    ]
    if plots:
        out += ["", "## Plots", ""]
        out += [f"![{p}]({p})" for p in plots]
    return "\n".join(out) + "\n"


def _row(values: tuple[str, ...]) -> str:
    return "| " + " | ".join(v.replace("|", "\\|") for v in values) + " |"


def _table(
    headers: tuple[str, ...], cells: Callable[[T], tuple[str, ...]], lines: Sequence[T]
) -> list[str]:
    """A Markdown table: ``headers``, then a row of ``cells(line)`` for each line."""
    rule = tuple("---" if h in ("game", "setting", "bot") else "---:" for h in headers)
    return [_row(headers), _row(rule), *(_row(cells(line)) for line in lines)]


def _introduction(command: str, goal: str) -> list[str]:
    """The page's title, what it counts, and the command that made it."""
    given = (
        ""
        if goal == f"{GOAL_SECONDS:g} s"
        else f" (the time the deals were given, short of the goal's {GOAL_SECONDS:g} s)"
    )
    return [
        "# Winnability of the games",
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
    ]


def _thoughtful_tables(report: list[Line], goal: str) -> list[str]:
    """The win rates of the lines, then their costs (seconds and states)."""
    shared = goal != "time"
    rates = tuple(h.format(goal=goal) for h in RATES)
    return [
        *_table(rates, lambda line: rate_cells(line, shared), report),
        "",
        "CPU seconds and states searched per deal, on one core (median, 90th percentile, most):",
        "",
        *_table(COSTS, cost_cells, report),
        "",
    ]


def _fair_section(fair: Sequence[FairLine]) -> list[str]:
    """The fair lines, in a table of their own."""
    return [
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
        *_table(FAIR, fair_cells, fair),
        "",
    ]


def _deals_covered(report: list[Line]) -> list[str]:
    """Each line's deals and the seconds they were given."""
    out = ["## Deals covered", ""]
    for line in report:
        limits = ", ".join(f"{t:g}" for t in line.timeouts)
        out.append(f"- {line.title}: deals {line.deals} (seconds allowed per deal: {limits})")
    return out


def _undecided_and_late(report: list[Line], goal: str) -> list[str]:
    """The deals left undecided, and those decided only after the goal's time."""
    out = [
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
    return out + (late or ["None."])


def _against_the_paper(report: list[Line]) -> list[str]:
    """The Klondike lines beside Blake & Gent's figures."""
    compared = [t for t in (paper_text(line) for line in report) if t]
    return [
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
        *([f"- {t}" for t in compared] or ["Neither mode is in the results yet."]),
    ]
