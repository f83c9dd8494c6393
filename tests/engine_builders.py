"""Hand-made positions for the tests (`build` does not validate: it need not hold 52 cards)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from patience import Position, game_for, get_game, new_game, play
from patience.cards import make_card, parse_card, parse_rank
from patience.games import variants
from patience.solver import solve


def cards(text: str) -> tuple[int, ...]:
    """'AS 2S' -> the card ints, bottom to top."""
    return tuple(parse_card(t) for t in text.split())


def build(
    game: str,
    *,
    options: dict[str, str] | None = None,
    stock: str = "",
    waste: str = "",
    f: tuple[str, ...] = ("", "", "", ""),
    t: tuple[str, ...] | list[str] = (),
    r: tuple[str, ...] | list[str] = (),
    base: str | None = None,
    redeals: int = 0,
) -> Position:
    """A position from card texts; a tableau pile is 'DOWN | UP' (face-down cards before '|')."""
    rules = get_game(game, options)
    tableau, down = [], []
    tab = list(t) + [""] * (rules.tableau_piles - len(t))
    for pile in tab:
        d, _, u = pile.rpartition("|")
        tableau.append(cards(d) + cards(u))
        down.append(len(cards(d)))
    res = list(r) + [""] * (rules.reserve_piles - len(r))
    return Position(
        game=rules.name,
        options=rules.options,
        deal=None,
        stock=cards(stock),
        waste=cards(waste),
        foundations=tuple(cards(x) for x in f),
        tableau=tuple(tableau),
        down=tuple(down),
        reserve=tuple(cards(x) for x in res),
        redeals=redeals,
        base=None if base is None else parse_rank(base),
    )


def moves_of(p: Position) -> list[str]:
    """The legal moves as text."""
    return [str(m) for m in get_game(p.game, dict(p.options)).legal_moves(p)]


def after(p: Position, *moves: str) -> Position:
    """The position after playing ``moves`` (each checked)."""
    for m in moves:
        p = play(p, m)
    return p


def pile_text(pile: tuple[int, ...]) -> str:
    """Card ints -> 'AS 2S'."""
    from patience.cards import cards_text

    return cards_text(pile)


def near_won_klondike() -> dict[str, Any]:
    """Every card on the foundations but the four Kings, one per tableau pile."""
    ranks = "A23456789TJQ"
    return {
        "game": "klondike",
        "options": {"mode": "single"},
        "deal": None,
        "stock": [],
        "waste": [],
        "foundations": [[r + s for r in ranks] for s in "CDSH"],
        "tableau": [{"down": [], "up": [k]} for k in ("KC", "KD", "KS", "KH")]
        + [{"down": [], "up": []}] * 3,
        "reserve": [],
        "redeals": 0,
    }


VARIANTS = variants()
"""Every game with every option that changes its play."""


def hop_sequences() -> list[list[int]]:
    """Every Hopscotch foundation's cards from its start (A, 2, 3, 4 of clubs) to its
    King (one fixed choice of suits)."""
    used = {make_card(k, 0) for k in (1, 2, 3, 4)}
    seqs = []
    for k in range(1, 5):
        seq = [make_card(k, 0)]
        rank = k
        for _ in range(12):
            rank = (rank + k - 1) % 13 + 1
            card = next(make_card(rank, s) for s in range(4) if make_card(rank, s) not in used)
            used.add(card)
            seq.append(card)
        seqs.append(seq)
    return seqs


def random_play(p: Position, n: int, rng: random.Random) -> Position:
    """``p`` after ``n`` moves drawn at random from the legal ones (fewer if none is left)."""
    rules = game_for(p)
    for _ in range(n):
        moves = rules.legal_moves(p)
        if not moves:
            break
        p = rules.play(p, rng.choice(moves))
    return p


def solver_positions(game: str, options: dict[str, str], rng: random.Random) -> Iterator[Position]:
    """Positions from real deals: some way along a winning line then pushed off it by a
    few random moves (mostly won), and the ends of random playouts (mostly lost)."""
    for deal in [*range(1, 16), 27, 70]:  # 27 and 70: quick no-redeal wins
        start = new_game(game, deal, options)
        rules = game_for(start)
        yield random_play(start, 200, rng)
        won = solve(start, max_states=20_000)
        if won.result != "won":
            continue
        for share in (0.5, 0.65, 0.8):
            p = start
            for m in won.moves[: int(len(won.moves) * share)]:
                p = rules.play(p, m)
            yield random_play(p, rng.randint(0, 6), rng)
