"""Fair play: hints, odds and a bot that use only what the player has seen."""

from __future__ import annotations

from .advisor import Advice, Estimate, Settings, advise, chance, policy_chance
from .bot import Record, play_deal
from .knowledge import Knowledge, player_view
from .sample import sample

__all__ = [
    "Advice",
    "Estimate",
    "Knowledge",
    "Record",
    "Settings",
    "advise",
    "chance",
    "play_deal",
    "policy_chance",
    "player_view",
    "sample",
]
