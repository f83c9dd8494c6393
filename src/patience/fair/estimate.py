"""Solver verdicts over sampled arrangements of the unseen cards, counted."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..proportion import posterior_interval, posterior_mean, wilson


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
    prior: tuple[float, float] | None = None
    """A Beta prior (a, b) of the chance (Hopscotch's advice, ``hopscotch_advice.prior``):
    then ``share`` is the posterior mean and ``interval`` the 95% credible interval."""

    def add(self, verdict: str) -> Estimate:
        """This estimate with one more verdict (``won``, ``lost`` or ``unknown``)."""
        return Estimate(
            self.won + (verdict == "won"),
            self.lost + (verdict == "lost"),
            self.unknown + (verdict == "unknown"),
            self.cut,
            self.prior,
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
        """Won among the decided arrangements (0 when none is decided); with a
        ``prior``, the posterior mean of the chance given them."""
        decided = self.won + self.lost
        if self.prior is not None and decided:
            return posterior_mean(self.won, decided, self.prior)
        return self.won / decided if decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``share``; with a ``prior``, the 95% equal-tailed
        credible interval of the chance."""
        if self.prior is not None and self.won + self.lost:
            return posterior_interval(self.won, self.won + self.lost, self.prior)
        return wilson(self.won, self.won + self.lost)
