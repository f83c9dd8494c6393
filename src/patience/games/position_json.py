"""A position's JSON form (FORMATS.md): written with its score, read with every rule
checked. It needs the game's rules, so it lives above them, beside the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import MAX_DEAL, Card, card_text, check_deal, parse_card, parse_rank, rank_text, shown
from ..errors import InvalidCardError, InvalidDealError, InvalidPositionError
from ..position import Pile, Position
from ..rules import Game
from .registry import game_for, get_game

_KEYS = frozenset(
    ("game", "options", "deal", "stock", "waste", "foundations", "tableau", "reserve")
    + ("redeals", "base", "score")
)


def position_to_json(position: Position) -> dict[str, Any]:
    """The FORMATS.md JSON object of ``position``, with its score."""
    return {
        "game": position.game,
        "options": dict(position.options),
        "deal": position.deal,
        "stock": _texts(position.stock),
        "waste": _texts(position.waste),
        "foundations": [_texts(f) for f in position.foundations],
        "tableau": [
            {"down": _texts(pile[:d]), "up": _texts(pile[d:])}
            for pile, d in zip(position.tableau, position.down, strict=True)
        ],
        "reserve": [_texts(r) for r in position.reserve],
        "redeals": position.redeals,
        "base": None if position.base is None else rank_text(position.base),
        "score": game_for(position).score(position),
    }


def position_from_json(data: Any) -> Position:
    """Read and check a FORMATS.md JSON object; raise listing every problem."""
    if not isinstance(data, Mapping):
        raise InvalidPositionError(["a position must be a JSON object"])
    read = _Reader()
    # Unknown keys are refused, as the API refuses them: a misspelt "redeal" would
    # otherwise be read as no redeals at all.
    read.problems.extend(f"unknown key {shown(k)}" for k in data if k not in _KEYS)
    game = _game_of(data)
    deal = read.deal(data.get("deal"))
    stock = read.pile(data.get("stock"), "stock")
    waste = read.pile(data.get("waste"), "waste")
    foundations = tuple(
        read.pile(f, f"f{i + 1}")
        for i, f in enumerate(read.piles(data.get("foundations"), "foundations"))
    )
    tableau, down = read.tableau(data.get("tableau"))
    reserve = tuple(
        read.pile(r, f"r{i + 1}") for i, r in enumerate(read.piles(data.get("reserve"), "reserve"))
    )
    redeals = read.redeals(data.get("redeals"))
    base = read.base(data.get("base"))
    if read.problems:
        raise InvalidPositionError(read.problems)
    position = Position(
        game=game.name,
        options=game.options,
        deal=deal,
        stock=stock,
        waste=waste,
        foundations=foundations,
        tableau=tableau,
        down=down,
        reserve=reserve,
        redeals=redeals,
        base=base,
    )
    _check_rules(game, position, data.get("score"))
    return position


def _game_of(data: Mapping[str, Any]) -> Game:
    """The game (with its options) a position's JSON names; raise at once when it names
    none, as nothing else can be read without it."""
    name = data.get("game")
    if not isinstance(name, str):
        raise InvalidPositionError(["'game' must be a game name"])
    options = data.get("options")
    options = {} if options is None else options  # only a missing or null value: none
    if not isinstance(options, Mapping) or not all(isinstance(v, str) for v in options.values()):
        raise InvalidPositionError(["'options' must be an object of strings"])
    return get_game(name, dict(options))


def _check_rules(game: Game, position: Position, score: Any) -> None:
    """Raise listing what the rules of ``game`` find wrong in ``position``, and a
    ``score`` given that its foundations do not make."""
    problems = game.validate(position)
    if not problems and score is not None and score != game.score(position):
        problems.append(
            f"'score' is {shown(score)} but the foundations give {game.score(position)}"
        )
    if problems:
        raise InvalidPositionError(problems)


class _Reader:
    """Reads the parts of a position's JSON, noting each problem found (in the order the
    parts are read) and going on with an empty part, so that one error lists them all."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def deal(self, value: Any) -> int | None:
        """The deal number, or None."""
        if value is None:
            return None
        try:
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidDealError("not an integer")
            check_deal(value)
        except InvalidDealError:
            self.problems.append(f"'deal' must be an integer from 0 to {MAX_DEAL}, or null")
            return None
        return value

    def pile(self, value: Any, where: str) -> Pile:
        """A list of card names as a pile (null: empty)."""
        if value is None:
            return ()
        if not isinstance(value, list):
            self.problems.append(f"{where} must be a list of cards")
            return ()
        cards: list[Card] = []
        for item in value:
            try:
                if not isinstance(item, str):
                    raise InvalidCardError(f"invalid card {shown(item)}")
                cards.append(parse_card(item))
            except InvalidCardError as exc:
                self.problems.append(f"{where}: {exc}")
        return tuple(cards)

    def piles(self, value: Any, where: str) -> list[Any]:
        """A list of piles, each still to read (null: none)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.append(f"'{where}' must be a list")
            return []
        return value

    def tableau(self, value: Any) -> tuple[tuple[Pile, ...], tuple[int, ...]]:
        """The tableau piles, and how many face-down cards each has."""
        tableau: list[Pile] = []
        down: list[int] = []
        for i, t in enumerate(self.piles(value, "tableau")):
            if not isinstance(t, Mapping):
                self.problems.append(f"t{i + 1} must be an object with 'down' and 'up' lists")
                t = {}
            self.problems.extend(
                f"t{i + 1}: unknown key {shown(k)}" for k in t if k not in ("down", "up")
            )
            d = self.pile(t.get("down"), f"t{i + 1} down")
            u = self.pile(t.get("up"), f"t{i + 1} up")
            tableau.append(d + u)
            down.append(len(d))
        return tuple(tableau), tuple(down)

    def redeals(self, value: Any) -> int:
        """The redeals made (null: none)."""
        redeals = 0 if value is None else value
        if not isinstance(redeals, int) or isinstance(redeals, bool) or redeals < 0:
            self.problems.append("'redeals' must be a non-negative integer")
            return 0
        return redeals

    def base(self, value: Any) -> int | None:
        """Lady Jane's base rank: its name, or its number 1 (Ace) to 13 (King)."""
        if value is None:
            return None
        try:
            if isinstance(value, int) and not isinstance(value, bool):
                # A number is the rank's number, 1 (Ace) to 13 (King): 7 and "7" agree.
                if not 1 <= value <= 13:
                    raise InvalidCardError(f"invalid rank {value}: expected 1 to 13")
                return value
            if isinstance(value, str):
                return parse_rank(value)
            raise InvalidCardError(f"invalid rank {shown(value)}")
        except InvalidCardError as exc:
            self.problems.append(f"base: {exc}")
            return None


def _texts(cards: Pile) -> list[str]:
    return [card_text(c) for c in cards]
