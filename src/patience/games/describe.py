"""A game's declaration as a front end reads it: ``describe(game)``, served by the web app
as JSON (the game's table, options, help, and a sample position to draw the help from)."""

from __future__ import annotations

from typing import Any

from ..rules import Game
from ..rules.marks import table_marks
from .position_json import position_to_json

SAMPLE_DEAL = 1
"""The deal whose first position illustrates a game's help."""


def describe(game: Game) -> dict[str, Any]:
    """Everything a front end needs to offer and draw ``game`` (with its options): its
    name and title, each option with its values, labels and default, the table, the help,
    and a sample (the first position of deal ``SAMPLE_DEAL`` with its marks) to draw the
    help's picture of the table from. Texts are message ids for the front end to translate."""
    labels = game.option_labels
    sample = game.new_position(SAMPLE_DEAL)
    return {
        "name": game.name,
        "title": game.title,
        "choices": [
            {
                "key": key,
                "label": labels.get(key, key),
                "default": values[0],
                "values": [{"value": v, "label": labels.get(f"{key}={v}", v)} for v in values],
            }
            for key, values in game.option_spec.items()
        ],
        "selected": dict(game.options),
        "has_stock": game.has_stock,
        "has_redeals": game.has_redeals,
        "reserve_names": {"group": game.reserve_names[0], "pile": game.reserve_names[1]},
        "table": game.table().to_json(),
        "help": None if game.help is None else game.help.to_json(),
        "sample": {"position": position_to_json(sample), "marks": table_marks(game, sample)},
    }
