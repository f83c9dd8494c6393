"""The errors a user can act on. Every one is a ``ValueError`` below ``PatienceError``."""

from __future__ import annotations

from typing import Self


class PatienceError(ValueError):
    """Root of every error caused by bad input (exit status 2, HTTP 4xx).

    ``template`` is the English message with ``{name}`` placeholders, filled from
    ``params``: the web app sends both so that each language gets its own text.
    """

    code = "error"

    def __init__(
        self, message: str, template: str | None = None, params: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.template = (
            template if template is not None else message.replace("{", "{{").replace("}", "}}")
        )
        self.params = dict(params or {})

    @classmethod
    def of(cls, template: str, **params: object) -> Self:
        """The error of ``template`` with ``params``: its English text filled in, and
        both kept for each language to fill in its own. (Not for the two errors whose
        constructors take other arguments: ``IllegalMoveError``, ``InvalidPositionError``.)"""
        return cls(template.format(**params), template, params)


class InvalidCardError(PatienceError):
    """A card or rank token that cannot be read."""

    code = "invalid_card"


class InvalidMoveError(PatienceError):
    """A move whose text is not valid notation."""

    code = "invalid_move"


class IllegalMoveError(PatienceError):
    """A well-formed move that the rules do not allow in this position."""

    code = "illegal_move"

    def __init__(
        self,
        move: str,
        reason: str,
        template: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(
            f"{move}: {reason}",
            "{move}: " + (template if template is not None else reason),
            {"move": move, **(params or {})},
        )
        self.move = move
        self.reason = reason


class InvalidPositionError(PatienceError):
    """A position that breaks the rules of its game; lists every problem found."""

    code = "invalid_position"

    def __init__(self, problems: list[str]) -> None:
        text = "; ".join(problems)
        super().__init__(
            "invalid position: " + text, "invalid position: {problems}", {"problems": text}
        )
        self.problems = problems


class UnknownGameError(PatienceError):
    """A game name that is not one of ours."""

    code = "unknown_game"


class InvalidOptionError(PatienceError):
    """An unknown option key or value for a game."""

    code = "invalid_option"


class InvalidDealError(PatienceError):
    """A deal number out of range."""

    code = "invalid_deal"
