"""The fair rows of a report (``study --fair``): for each game, options, setting and bot,
the fair win rate with its 95% Wilson interval and deal count, beside the thoughtful
verdicts of the same deals (where the sources have them)."""

from __future__ import annotations

from dataclasses import dataclass

from ..proportion import wilson
from .deals import DealRanges, ranges_of
from .report import QS, Line, line_of, pct, quantiles, title_of, win_text
from .results import FairResults, Results


@dataclass(frozen=True)
class FairLine:
    """One bot on one game and options: what its stored deals say."""

    game: str
    options: str
    title: str
    setting: str
    settings: str
    deals: DealRanges
    won: int
    unplayed: int
    """Deals not played: the thoughtful solver had proved them lost."""
    seconds: tuple[float, ...]
    """Seconds of each deal played."""
    thoughtful: Line | None
    """The thoughtful verdicts of those of the same deals that have one, if any."""

    @property
    def count(self) -> int:
        return len(self.seconds) + self.unplayed

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the fair win rate."""
        return wilson(self.won, self.count)


def fair_lines(fair: FairResults, results: Results) -> list[FairLine]:
    """The fair lines, by game, options, setting and settings; each with the thoughtful
    line of the same deals."""
    out = []
    for key in sorted(fair):
        rows = fair[key]
        game, options, setting, settings = key
        thoughtful = results.get((game, options), {})
        same = [thoughtful[d] for d in sorted(rows) if d in thoughtful]
        out.append(
            FairLine(
                game=game,
                options=options,
                title=title_of((game, options)),
                setting=setting,
                settings=settings,
                deals=ranges_of(rows),
                won=sum(r[5] for r in rows.values()),
                unplayed=sum(not r[9] for r in rows.values()),
                seconds=tuple(r[6] for r in rows.values() if r[9]),
                thoughtful=line_of((game, options), same) if same else None,
            )
        )
    return out


def fair_win_text(line: FairLine) -> str:
    """``39.00 (30.00-48.80) of 100``."""
    lo, hi = line.interval
    return f"{pct(line.won / line.count)} ({pct(lo)}-{pct(hi)}) of {line.count:,}"


def same_deals_text(line: FairLine) -> str:
    """The thoughtful win rate of the same deals, ``74.00 (64.64-81.56) of 100 decided``,
    and how many of them have no thoughtful verdict in the sources."""
    t = line.thoughtful
    if t is None:
        return "-"
    missing = line.count - t.count
    return f"{win_text(t)} of {t.won + t.lost:,} decided" + (
        f" ({missing:,} not studied)" if missing else ""
    )


def unplayed_text(line: FairLine) -> str:
    return f"{line.unplayed:,} proved lost by the solver, not played"


def fair_text(line: FairLine) -> list[str]:
    """The line as indented plain text, for its game's paragraph."""
    seconds = ", ".join(f"{n} {q:.3f}" for n, q in zip(QS, quantiles(line.seconds), strict=True))
    return [
        f"  fair play ({line.setting}; {line.settings}): deals {line.deals}",
        f"    won {line.won:,}, win % {fair_win_text(line)} (95%)"
        + (f"; {unplayed_text(line)}" if line.unplayed else ""),
        f"    thoughtful, same deals: {same_deals_text(line)}",
        f"    seconds a deal played: {seconds}",
    ]


FAIR = (
    "game", "setting", "bot", "deals", "won", "fair win % (95%)",
    "thoughtful win % (95%), same deals", "not played (proved lost)", "seconds a deal: median",
    "max",
)  # fmt: skip
"""The fair table: the bot's win rate beside the thoughtful one of the same deals."""


def fair_cells(line: FairLine) -> tuple[str, ...]:
    median, _, most = quantiles(line.seconds)
    lo, hi = line.interval
    return (
        line.title,
        line.setting,
        line.settings,
        f"{line.count:,}",
        f"{line.won:,}",
        f"{pct(line.won / line.count)} ({pct(lo)}-{pct(hi)})",
        same_deals_text(line),
        f"{line.unplayed:,}",
        f"{median:.1f}",
        f"{most:.1f}",
    )
