"""patience: solitaire games (Klondike, Lady Jane, Baker's Dozen, Hopscotch) and a solver.

>>> from patience import new_game, legal_moves, play, Move
>>> p = new_game("klondike", deal=1)
>>> p = play(p, Move.parse("deal"))
>>> [str(c) for c in p.waste] == [] or len(p.waste) == 1
True
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    PatienceError,
    UnknownGameError,
)
from .games import GAMES, game_for, get_game, position_from_json, position_to_json
from .moves import Move, parse_moves
from .position import Position


def new_game(name: str, deal: int = 0, options: Mapping[str, str] | None = None) -> Position:
    """The starting position of deal number ``deal`` of game ``name``."""
    return get_game(name, options).new_position(deal)


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of ``position``, useful or not, in a fixed order."""
    return game_for(position).legal_moves(position)


def is_legal(position: Position, move: Move) -> bool:
    """Whether ``move`` is legal in ``position``."""
    return game_for(position).is_legal(position, move)


def play(position: Position, move: Move | str) -> Position:
    """The position after ``move``; raise ``IllegalMoveError`` saying why it is refused."""
    if isinstance(move, str):
        move = Move.parse(move)
    return game_for(position).play(position, move)


__all__ = [
    "GAMES",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Move",
    "PatienceError",
    "Position",
    "UnknownGameError",
    "game_for",
    "get_game",
    "is_legal",
    "legal_moves",
    "new_game",
    "parse_moves",
    "play",
    "position_from_json",
    "position_to_json",
]
