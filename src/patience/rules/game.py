"""A game as players and shells meet it: ``GameRules`` (``core.py``) with checked play.

Legality lives in one place, ``GameRules.legal_moves``: ``is_legal`` and ``play`` accept
exactly the moves it lists, and ``refusal`` (``refusals.py``) only says why another move
is refused; ``validate`` (``problems.py``) checks a position read from outside. Those two
read a game through ``GameRules``, so nothing below this module imports it.
"""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..moves import Move
from ..position import Position
from .core import GameRules
from .problems import position_problems
from .refusal import Refusal
from .refusals import why_refused


class Game(GameRules):
    """One game's rules. Subclasses declare the class attributes and the deal hook."""

    def play(self, p: Position, move: Move) -> Position:
        """Check ``move`` and return the position after it; raise IllegalMoveError."""
        if move not in self.legal_moves(p):
            why = self.refusal(p, move)
            raise IllegalMoveError(str(move), str(why), why.template, why.params)
        return self.apply(p, move)

    def refusal(self, p: Position, move: Move) -> Refusal:
        """Why ``move`` is not legal in ``p``, as a translatable template and its params."""
        return why_refused(self, p, move)

    def validate(self, p: Position) -> list[str]:
        """Every problem of a position read from outside (empty when it is sound)."""
        return position_problems(self, p)
