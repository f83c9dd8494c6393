"""The games: their registry (``registry.py``), one module per game, and a position's
JSON form (``position_json.py``), which needs the rules of the game it names."""

from __future__ import annotations

from ..rules import Game
from .bakers_dozen import BakersDozen
from .freecell import FreeCell
from .hopscotch import Hopscotch
from .klondike import Klondike
from .lady_jane import LadyJane
from .position_json import position_from_json, position_to_json
from .registry import GAMES, game_for, get_game, register, variants

__all__ = [
    "GAMES",
    "BakersDozen",
    "FreeCell",
    "Game",
    "Hopscotch",
    "Klondike",
    "LadyJane",
    "game_for",
    "get_game",
    "position_from_json",
    "position_to_json",
    "register",
    "variants",
]
