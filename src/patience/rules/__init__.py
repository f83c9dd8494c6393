"""The shared vocabulary of piles and build policies, and the generic rules engine."""

from .build import ALTERNATE_COLOUR, ANY_SUIT, IN_SUIT, OTHER_SUIT, next_rank, suits_match
from .game import Game
from .refusal import Refusal

__all__ = [
    "ALTERNATE_COLOUR",
    "ANY_SUIT",
    "IN_SUIT",
    "OTHER_SUIT",
    "Game",
    "Refusal",
    "next_rank",
    "suits_match",
]
