"""Solver verdicts over sampled arrangements of the unseen cards, counted."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..proportion import wilson


@dataclass(frozen=True, slots=True)
class Estimate:
    """Solver verdicts over sampled arrangements of the unseen cards."""

    won: int = 0
    lost: int = 0
    unknown: int = 0
    cut: bool = False
    """The time budget or the caller's cancel stopped the run before every arrangement
    asked for was solved (or every plan scored): the answer then rests on fewer
    arrangements, and may depend on the machine's load. Never silent: the replies say so."""

    def add(self, verdict: str) -> Estimate:
        """This estimate with one more verdict (``won``, ``lost`` or ``unknown``)."""
        return Estimate(
            self.won + (verdict == "won"),
            self.lost + (verdict == "lost"),
            self.unknown + (verdict == "unknown"),
            self.cut,
        )

    def cut_short(self, cut: bool = True) -> Estimate:
        """This estimate, marked as cut short when ``cut``."""
        return replace(self, cut=self.cut or cut)

    @property
    def samples(self) -> int:
        """Arrangements solved."""
        return self.won + self.lost + self.unknown

    @property
    def share(self) -> float:
        """Won among the decided arrangements (0 when none is decided)."""
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``share``."""
        return wilson(self.won, self.won + self.lost)
