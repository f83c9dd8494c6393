"""The registry of games: name -> rules class, and the rules object of each variant."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import UnknownGameError
from ..position import Position
from ..rules import Game
from .bakers_dozen import BakersDozen
from .freecell import FreeCell
from .hopscotch import Hopscotch
from .klondike import Klondike
from .lady_jane import LadyJane

GAMES: dict[str, type[Game]] = {
    g.name: g for g in (Klondike, LadyJane, BakersDozen, Hopscotch, FreeCell)
}
"""Every game by name, in menu order. Add one with ``register``; every layer reads it."""


def register(game: type[Game]) -> type[Game]:
    """Add ``game`` to the registry (usable as a class decorator); its name must be new."""
    if game.name in GAMES:
        raise ValueError(f"a game named {game.name!r} is registered already")
    GAMES[game.name] = game
    return game


def get_game(name: str, options: Mapping[str, str] | None = None) -> Game:
    """The rules of game ``name`` with ``options``; raise on unknown names or options."""
    cls = GAMES.get(name)
    if cls is None:
        template = "unknown game '{name}' (valid games: {valid})"
        raise UnknownGameError.of(template, name=name, valid=", ".join(GAMES))
    return _cached(name, tuple(sorted((options or {}).items())))


_RULES: dict[tuple[str, tuple[tuple[str, str], ...]], Game] = {}


def _cached(name: str, options: tuple[tuple[str, str], ...]) -> Game:
    key = (name, options)
    game = _RULES.get(key)
    if game is None:
        game = GAMES[name](dict(options))
        _RULES[(name, game.options)] = _RULES[key] = game
    return game


def variants() -> list[tuple[str, dict[str, str]]]:
    """Every registered game with its default options, then with each other value of one
    option at a time (the options that change its play), options given in full:
    what tests and benchmarks iterate over."""
    out: list[tuple[str, dict[str, str]]] = []
    for name, cls in GAMES.items():
        default = {key: values[0] for key, values in cls.option_spec.items()}
        out.append((name, default))
        for key, values in cls.option_spec.items():
            out.extend((name, {**default, key: value}) for value in values[1:])
    return out


def game_for(position: Position) -> Game:
    """The rules object that governs ``position``."""
    return _cached(position.game, position.options)
