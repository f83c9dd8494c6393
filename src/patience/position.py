"""The immutable game position and its JSON form (FORMATS.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import MAX_DEAL, Card, card_text, check_deal, parse_card, parse_rank, rank_text, shown
from .errors import InvalidCardError, InvalidDealError, InvalidPositionError

Pile = tuple[Card, ...]
Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Position:
    """A whole game position, enough to continue the game exactly.

    Piles are tuples of cards, bottom to top. A tableau pile ``tableau[i]`` has its
    bottom ``down[i]`` cards face down. ``base`` is Lady Jane's base rank (1..13).
    Build positions with a game's ``new_position`` or ``Position.from_json``: those
    check every rule; the constructor itself checks nothing.
    """

    game: str
    options: Options
    deal: int | None
    stock: Pile
    waste: Pile
    foundations: tuple[Pile, ...]
    tableau: tuple[Pile, ...]
    down: tuple[int, ...]
    reserve: tuple[Pile, ...]
    redeals: int = 0
    base: int | None = None

    def key(self) -> tuple[Any, ...]:
        """The canonical state key: equal keys mean the same game state."""
        return (
            self.stock,
            self.waste,
            self.foundations,
            self.tableau,
            self.down,
            self.reserve,
            self.redeals,
        )

    def cards_in_play(self) -> list[Card]:
        """Every card of the position, pile by pile."""
        cards = list(self.stock) + list(self.waste)
        for pile in (*self.foundations, *self.tableau, *self.reserve):
            cards.extend(pile)
        return cards

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md JSON object of this position."""
        from .games import game_for

        return {
            "game": self.game,
            "options": dict(self.options),
            "deal": self.deal,
            "stock": _texts(self.stock),
            "waste": _texts(self.waste),
            "foundations": [_texts(f) for f in self.foundations],
            "tableau": [
                {"down": _texts(pile[:d]), "up": _texts(pile[d:])}
                for pile, d in zip(self.tableau, self.down, strict=True)
            ],
            "reserve": [_texts(r) for r in self.reserve],
            "redeals": self.redeals,
            "base": None if self.base is None else rank_text(self.base),
            "score": game_for(self).score(self),
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read and check a FORMATS.md JSON object; raise listing every problem."""
        from .games import get_game

        if not isinstance(data, Mapping):
            raise InvalidPositionError(["a position must be a JSON object"])
        problems: list[str] = []
        name = data.get("game")
        if not isinstance(name, str):
            raise InvalidPositionError(["'game' must be a game name"])
        options = data.get("options") or {}
        if not isinstance(options, Mapping) or not all(
            isinstance(v, str) for v in options.values()
        ):
            raise InvalidPositionError(["'options' must be an object of strings"])
        game = get_game(name, dict(options))
        deal = data.get("deal")
        if deal is not None:
            try:
                if not isinstance(deal, int) or isinstance(deal, bool):
                    raise InvalidDealError("not an integer")
                check_deal(deal)
            except InvalidDealError:
                problems.append(f"'deal' must be an integer from 0 to {MAX_DEAL}, or null")
                deal = None

        def pile(value: Any, where: str) -> Pile:
            if value is None:
                return ()
            if not isinstance(value, list):
                problems.append(f"{where} must be a list of cards")
                return ()
            cards: list[Card] = []
            for item in value:
                try:
                    if not isinstance(item, str):
                        raise InvalidCardError(f"invalid card {shown(item)}")
                    cards.append(parse_card(item))
                except InvalidCardError as exc:
                    problems.append(f"{where}: {exc}")
            return tuple(cards)

        def piles(value: Any, where: str) -> list[Any]:
            if value is None:
                return []
            if not isinstance(value, list):
                problems.append(f"'{where}' must be a list")
                return []
            return value

        stock = pile(data.get("stock"), "stock")
        waste = pile(data.get("waste"), "waste")
        foundations = tuple(
            pile(f, f"f{i + 1}")
            for i, f in enumerate(piles(data.get("foundations"), "foundations"))
        )
        tableau: list[Pile] = []
        down: list[int] = []
        for i, t in enumerate(piles(data.get("tableau"), "tableau")):
            if not isinstance(t, Mapping):
                problems.append(f"t{i + 1} must be an object with 'down' and 'up' lists")
                t = {}
            d = pile(t.get("down"), f"t{i + 1} down")
            u = pile(t.get("up"), f"t{i + 1} up")
            tableau.append(d + u)
            down.append(len(d))
        reserve = tuple(
            pile(r, f"r{i + 1}") for i, r in enumerate(piles(data.get("reserve"), "reserve"))
        )
        redeals = data.get("redeals", 0) or 0
        if not isinstance(redeals, int) or isinstance(redeals, bool) or redeals < 0:
            problems.append("'redeals' must be a non-negative integer")
            redeals = 0
        base: int | None = None
        base_text = data.get("base")
        if base_text is not None:
            try:
                if not isinstance(base_text, str | int) or isinstance(base_text, bool):
                    raise InvalidCardError(f"invalid rank {shown(base_text)}")
                base = parse_rank(str(base_text))
            except InvalidCardError as exc:
                problems.append(f"base: {exc}")
        if problems:
            raise InvalidPositionError(problems)
        position = cls(
            game=game.name,
            options=game.options,
            deal=deal,
            stock=stock,
            waste=waste,
            foundations=foundations,
            tableau=tuple(tableau),
            down=tuple(down),
            reserve=reserve,
            redeals=redeals,
            base=base,
        )
        problems = game.validate(position)
        score = data.get("score")
        if not problems and score is not None and score != game.score(position):
            problems.append(
                f"'score' is {shown(score)} but the foundations give {game.score(position)}"
            )
        if problems:
            raise InvalidPositionError(problems)
        return position


def _texts(cards: Pile) -> list[str]:
    return [card_text(c) for c in cards]


def heading(title: str, options: Options, deal: int | None = None) -> str:
    """``Klondike (mode=three), deal 42``: the game, its options, the deal if numbered."""
    text = title
    if options:
        text += " (" + ", ".join(f"{k}={v}" for k, v in options) + ")"
    if deal is not None:
        text += f", deal {deal}"
    return text
