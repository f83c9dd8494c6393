"""A refused move's reason, as a translatable template: what ``Game.refusal`` and the
games' ``deal_refusal`` hooks return (``refusals.py`` decides which one applies)."""

from __future__ import annotations


class Refusal:
    """Why a move is refused: an English template with ``{name}`` params (translatable)."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def __repr__(self) -> str:
        return f"Refusal({self.template!r}, **{self.params!r})"
