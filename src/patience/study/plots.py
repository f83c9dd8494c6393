"""The report's PNG plots (matplotlib, the ``report`` extra): the win rates with their
intervals, and the share of deals decided within each time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import PatienceError
from .report import Line


def _figure(height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PatienceError("the plots need matplotlib: pip install 'patience[report]'") from None
    return Figure(figsize=(8, height), dpi=100, layout="constrained")


def _save(fig: Any, path: Path) -> None:
    try:
        fig.savefig(path, format="png", metadata={"Software": None})
    except OSError as exc:
        raise PatienceError(f"cannot write {path}: {exc.strerror}") from None


def rates(report: list[Line], path: Path) -> None:
    """Each line's win rate among decided deals (a dot, with its 95% interval) and the
    bounds that undecided deals leave (a thin bar)."""
    fig = _figure(1.6 + 0.45 * len(report))
    ax = fig.add_subplot()
    for y, line in enumerate(reversed(report)):
        lo, hi = line.bounds
        ax.plot([100 * lo, 100 * hi], [y, y], color="0.7", linewidth=6, solid_capstyle="butt")
        if line.rate is not None:
            ilo, ihi = line.interval
            err = [[100 * (line.rate - ilo)], [100 * (ihi - line.rate)]]
            ax.errorbar([100 * line.rate], [y], xerr=err, fmt="o", color="C0", capsize=4)
    ax.set_yticks(range(len(report)), [line.title for line in reversed(report)])
    ax.set_xlabel("won % (dot: of decided deals; grey: of all deals; 95%)")
    ax.set_ylim(-0.6, len(report) - 0.4)
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)


def times(report: list[Line], path: Path) -> None:
    """For each line, the share of its deals decided within t seconds (log scale)."""
    fig = _figure(4.5)
    ax = fig.add_subplot()
    for line in report:
        decided = [max(s, 1e-4) for s in line.decided_seconds]
        if not decided:
            continue
        shares = [100 * (i + 1) / line.count for i in range(len(decided))]
        ax.step(decided, shares, where="post", label=line.title)
    ax.set_xscale("log")
    ax.set_xlabel("CPU seconds per deal (one core)")
    ax.set_ylabel("deals decided within, %")
    ax.set_ylim(0, 100.5)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    _save(fig, path)
