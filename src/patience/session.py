"""A game being played: the deal, the moves made, unlimited undo and redo, and what the
player has seen of it (``fair.Knowledge``: undo never un-sees a card)."""

from __future__ import annotations

from typing import Any

from .fair.knowledge import Knowledge
from .games import game_for, position_from_json, position_to_json
from .moves import Move
from .position import Position


class Session:
    """One game in progress. Pure: the caller stores it and keeps the clock.

    ``history[k]`` is the position after ``moves[:k]``; ``redo_stack`` holds undone
    moves, the next one to redo last. Playing a new move clears the redo stack.
    ``automatic`` holds the indices k of the moves ``moves[k]`` (or, once undone, the
    redo stack's) that auto-play made after a player's move: one turn (``undo_turn``,
    ``redo_turn``) is the player's move with the automatic moves that followed it.
    """

    def __init__(
        self,
        start: Position,
        moves: list[Move] | None = None,
        redo: list[Move] | None = None,
        elapsed: float = 0.0,
        knowledge: Knowledge | None = None,
        automatic: set[int] | None = None,
    ) -> None:
        self.start = start
        self.game = game_for(start)
        self.knowledge = (knowledge or Knowledge()).observe(start)
        self.history: list[Position] = [start]
        self.moves: list[Move] = []
        self.automatic: set[int] = set()
        for m in moves or []:
            self.play(m)
        self.redo_stack: list[Move] = list(redo or [])
        end = len(self.moves) + len(self.redo_stack)
        self.automatic = {k for k in automatic or () if 0 < k < end}
        self._check_redo()
        self.elapsed = elapsed

    @property
    def position(self) -> Position:
        """The current position."""
        return self.history[-1]

    @property
    def score(self) -> int:
        """Cards moved to the foundations."""
        return self.game.score(self.position)

    @property
    def won(self) -> bool:
        """Every card is on the foundations."""
        return self.game.is_won(self.position)

    @property
    def stuck(self) -> bool:
        """Not won, and no legal move is left."""
        return self.game.is_stuck(self.position)

    @property
    def can_undo(self) -> bool:
        """There is a move to take back."""
        return bool(self.moves)

    @property
    def can_redo(self) -> bool:
        """There is an undone move to play again."""
        return bool(self.redo_stack)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current position."""
        return self.game.legal_moves(self.position)

    def play(self, move: Move, automatic: bool = False) -> Position:
        """Play a move (checked); raise IllegalMoveError and change nothing if refused.

        ``automatic``: auto-play made it, after the player's move (see ``undo_turn``)."""
        after = self.game.play(self.position, move)
        self.knowledge = self.knowledge.observe(after)
        self.history.append(after)
        k = len(self.moves)
        self.moves.append(move)
        self.redo_stack = []
        # What the cleared redo stack held is forgotten, and this move is what it is.
        self.automatic = {i for i in self.automatic if i < k}
        if automatic:
            self.automatic.add(k)
        return after

    def undo_turn(self) -> list[Move]:
        """Take back the last move and, when auto-play made it, back to the player's move
        it followed; return them, last first (IndexError when there is none)."""
        if not self.moves:
            raise IndexError("nothing to undo")
        undone = []
        while len(self.moves) - 1 in self.automatic:
            undone.append(self.undo())
        undone.append(self.undo())
        return undone

    def redo_turn(self) -> list[Move]:
        """Play the last undone move again and the automatic moves that followed it;
        return them in order (IndexError when there is none)."""
        redone = [self.redo()]
        while self.redo_stack and len(self.moves) in self.automatic:
            redone.append(self.redo())
        return redone

    def undo(self) -> Move:
        """Take back the last move; raise IndexError when there is none."""
        if not self.moves:
            raise IndexError("nothing to undo")
        move = self.moves.pop()
        self.history.pop()
        self.redo_stack.append(move)
        return move

    def redo(self) -> Move:
        """Play the last undone move again; raise IndexError when there is none."""
        if not self.redo_stack:
            raise IndexError("nothing to redo")
        move = self.redo_stack.pop()
        stack, automatic = self.redo_stack, self.automatic
        self.play(move)
        self.redo_stack, self.automatic = stack, automatic
        return move

    def restart(self) -> None:
        """Back to the deal's first position, with no history."""
        self.history = [self.start]
        self.moves = []
        self.redo_stack = []
        self.automatic = set()

    def foundation_move(self, src: str) -> Move | None:
        """The move sending the top card of ``src`` to a foundation (double-click)."""
        return self.game.foundation_move(self.position, src)

    def auto_finish(self) -> list[Move]:
        """Play every move to the foundations until none is left; return them."""
        played = self.game.auto_finish(self.position)
        for m in played:
            self.play(m)
        return played

    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume exactly: start, moves, redo stack, clock."""
        return {
            "start": position_to_json(self.start),
            "moves": [str(m) for m in self.moves],
            "redo": [str(m) for m in self.redo_stack],
            "elapsed": self.elapsed,
            "knowledge": self.knowledge.to_json(),
            "automatic": sorted(self.automatic),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        """Rebuild a session saved by ``to_json`` (every move is checked again).

        A save from before knowledge was stored gets what its moves and redo stack show:
        a card seen and then undone out of sight before that save is not remembered."""
        knowledge = data.get("knowledge")
        return cls(
            position_from_json(data["start"]),
            [Move.parse(m) for m in data.get("moves", [])],
            [Move.parse(m) for m in data.get("redo", [])],
            float(data.get("elapsed", 0.0)),
            None if knowledge is None else Knowledge.from_json(knowledge),
            {int(k) for k in data.get("automatic", [])},
        )

    def _check_redo(self) -> None:
        # The redo stack's positions were seen when those moves were first played.
        p = self.position
        for m in reversed(self.redo_stack):
            p = self.game.play(p, m)
            self.knowledge = self.knowledge.observe(p)
