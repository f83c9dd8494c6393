"""A position's JSON form (FORMATS.md): written with its score, read with every rule
checked. It needs the game's rules, so it lives above them, beside the registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import MAX_DEAL, Card, card_text, check_deal, parse_card, parse_rank, rank_text, shown
from ..errors import InvalidCardError, InvalidDealError, InvalidPositionError
from ..position import Pile, Position
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
    problems: list[str] = []
    # Unknown keys are refused, as the API refuses them: a misspelt "redeal" would
    # otherwise be read as no redeals at all.
    problems.extend(f"unknown key {shown(k)}" for k in data if k not in _KEYS)
    name = data.get("game")
    if not isinstance(name, str):
        raise InvalidPositionError(["'game' must be a game name"])
    options = data.get("options")
    options = {} if options is None else options  # only a missing or null value: none
    if not isinstance(options, Mapping) or not all(isinstance(v, str) for v in options.values()):
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
        pile(f, f"f{i + 1}") for i, f in enumerate(piles(data.get("foundations"), "foundations"))
    )
    tableau: list[Pile] = []
    down: list[int] = []
    for i, t in enumerate(piles(data.get("tableau"), "tableau")):
        if not isinstance(t, Mapping):
            problems.append(f"t{i + 1} must be an object with 'down' and 'up' lists")
            t = {}
        problems.extend(f"t{i + 1}: unknown key {shown(k)}" for k in t if k not in ("down", "up"))
        d = pile(t.get("down"), f"t{i + 1} down")
        u = pile(t.get("up"), f"t{i + 1} up")
        tableau.append(d + u)
        down.append(len(d))
    reserve = tuple(
        pile(r, f"r{i + 1}") for i, r in enumerate(piles(data.get("reserve"), "reserve"))
    )
    redeals = data.get("redeals")
    redeals = 0 if redeals is None else redeals
    if not isinstance(redeals, int) or isinstance(redeals, bool) or redeals < 0:
        problems.append("'redeals' must be a non-negative integer")
        redeals = 0
    base: int | None = None
    base_text = data.get("base")
    if base_text is not None:
        try:
            if isinstance(base_text, int) and not isinstance(base_text, bool):
                # A number is the rank's number, 1 (Ace) to 13 (King): 7 and "7" agree.
                if not 1 <= base_text <= 13:
                    raise InvalidCardError(f"invalid rank {base_text}: expected 1 to 13")
                base = base_text
            elif isinstance(base_text, str):
                base = parse_rank(base_text)
            else:
                raise InvalidCardError(f"invalid rank {shown(base_text)}")
        except InvalidCardError as exc:
            problems.append(f"base: {exc}")
    if problems:
        raise InvalidPositionError(problems)
    position = Position(
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
