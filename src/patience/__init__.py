"""patience: solitaire games (Klondike, Lady Jane, Baker's Dozen, Hopscotch) and a solver.

>>> from patience import new_game, legal_moves, play, Move
>>> p = new_game("klondike", deal=1)
>>> p = play(p, Move.parse("deal"))
>>> [str(c) for c in p.waste] == [] or len(p.waste) == 1
True

The names below are imported when first used (``__getattr__``): importing a submodule,
as the ``patience`` command does, loads only what that submodule needs (issue 56).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_WHERE = {
    "GAMES": "games",
    "IllegalMoveError": "errors",
    "InvalidCardError": "errors",
    "InvalidMoveError": "errors",
    "InvalidOptionError": "errors",
    "InvalidPositionError": "errors",
    "Move": "moves",
    "PatienceError": "errors",
    "Position": "position",
    "UnknownGameError": "errors",
    "game_for": "games",
    "get_game": "games",
    "parse_moves": "moves",
    "position_from_json": "games",
    "position_to_json": "games",
}
"""Each name the package gives, and the submodule it comes from."""


def __getattr__(name: str) -> Any:
    """A name of ``_WHERE``, imported from its submodule on first use."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


def new_game(name: str, deal: int = 0, options: Mapping[str, str] | None = None) -> Position:
    """The starting position of deal number ``deal`` of game ``name``."""
    from .games import get_game

    return get_game(name, options).new_position(deal)


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of ``position``, useful or not, in a fixed order."""
    from .games import game_for

    return game_for(position).legal_moves(position)


def is_legal(position: Position, move: Move) -> bool:
    """Whether ``move`` is legal in ``position``."""
    from .games import game_for

    return game_for(position).is_legal(position, move)


def play(position: Position, move: Move | str) -> Position:
    """The position after ``move``; raise ``IllegalMoveError`` saying why it is refused."""
    from .games import game_for
    from .moves import Move

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
