"""The solver: proven verdicts, hints that lead to a win, winnable deals only."""

from __future__ import annotations

from .schedule import Verdict
from .search import Hint, SolveResult, find_winnable, hint, safe_moves, solve

__all__ = ["Hint", "SolveResult", "Verdict", "find_winnable", "hint", "safe_moves", "solve"]
