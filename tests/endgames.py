"""End games with exact verdicts: random positions with few cards left, a plain search
over every legal move that decides them without any of the solver's cuts, and the
committed set of them (``golden/endgames.json.gz``, made by ``tools/endgames.py``).

Two kinds of random position, both valid and reachable in shape (a game's own
``validate`` accepts each one):

- ``tiny``: a few cards away from the foundations, anywhere (stock, waste, tableau,
  reserves), in every game;
- ``crowded`` (Klondike, Lady Jane): more cards away, every tableau pile filled and
  mostly face down, the stock short: where a loss is likely and the cuts that prove
  losses have something to do. (Baker's Dozen's ``tiny`` end games are lost often
  enough; with Kings to empty piles, hardly any end game is lost.)
"""

from __future__ import annotations

import gzip
import json
import random
from collections import deque
from pathlib import Path
from typing import Any

from engine_builders import hop_sequences
from golden_file import GoldenFile
from patience import Position, game_for, get_game
from patience.cards import make_card
from patience.games import position_to_json
from patience.rules.game import Game

GOLDEN = Path(__file__).parent / "golden" / "endgames.json.gz"
"""One entry per position: the position (formats.md), its exact ``verdict``, the states
the solver searched (``states``) and, for a loss, the positions the plain search saw
(``plain``)."""


def brute(p: Position, limit: int = 30_000) -> str | None:
    """Plain breadth-first search over every legal move: 'won', 'lost', or None if too big."""
    return exhaust(p, limit)[0]


def exhaust(p: Position, limit: int) -> tuple[str | None, int]:
    """``brute``'s verdict, and the positions it saw."""
    g = game_for(p)
    unlimited = getattr(g, "max_redeals", 0) is None

    def key(q: Position) -> object:
        # The redeal counter means nothing when redeals are unlimited (an engine fact).
        return q.key()[:-1] if unlimited else q.key()

    seen = {key(p)}
    queue = deque([p])
    while queue:
        q = queue.popleft()
        if g.is_won(q):
            return "won", len(seen)
        for m in g.legal_moves(q):
            n = g.apply(q, m)
            k = key(n)
            if k not in seen:
                if len(seen) >= limit:
                    return None, len(seen)
                seen.add(k)
                queue.append(n)
    return "lost", len(seen)


BRUTE_GOLDEN = Path(__file__).parent / "golden" / "brute.json.gz"
"""``brute``'s verdicts on the random end games the tests draw, which the plain search
took most of their time to decide: one JSON line per position and limit, with the
``verdict`` (null when too big) and the positions it ``seen``. test_brute_golden.py
decides a sample of them again live. Make it again (after a rules change, or when a test
draws other positions): delete it, then
BRUTE_REGEN=1 pytest -n0 tests/test_solver.py tests/test_solver_freecell.py
tests/test_solver_looser.py tests/test_solver_classes.py tests/test_brute_golden.py"""

_golden = GoldenFile(
    BRUTE_GOLDEN,
    "BRUTE_REGEN",
    "no brute verdict pinned for {key}: see endgames.BRUTE_GOLDEN to make them",
)


def brute_key(p: Position, limit: int) -> str:
    """A golden entry's key: the position's JSON (formats.md), compact, and the limit."""
    return json.dumps(position_to_json(p), sort_keys=True, separators=(",", ":")) + f"@{limit}"


def load_brute_golden() -> dict[str, dict[str, Any]]:
    """The committed verdicts by ``brute_key``."""
    return _golden.entries()


def pinned_brute(p: Position, limit: int = 30_000) -> str | None:
    """``brute(p, limit)``, as committed in ``BRUTE_GOLDEN`` (the position itself is the
    key, so a test that draws another position finds none and fails); with BRUTE_REGEN
    set, decided live and added to the file."""

    def decide() -> dict[str, Any]:
        verdict, seen = exhaust(p, limit)
        return {"verdict": verdict, "seen": seen}

    verdict: str | None = _golden.entry(brute_key(p, limit), decide)["verdict"]
    return verdict


def _away(rng: random.Random, n: int, base: int | None) -> list[int]:
    """About ``n`` cards off the top of the four suits' foundations (by rank from ``base``)."""
    cut = [13] * 4
    for _ in range(n):
        s = rng.randrange(4)
        if cut[s] > 0:
            cut[s] -= 1
    return [
        make_card(k + 1 if base is None else (base - 1 + k) % 13 + 1, s)
        for s in range(4)
        for k in range(cut[s], 13)
    ]


def _assemble(
    rules: Game,
    base: int | None,
    stock: list[int],
    waste: list[int],
    tab: list[list[int]],
    down: list[int],
    res: list[list[int]],
    redeals: int,
) -> Position | None:
    """The position with every other card home, or None if the game's rules refuse it."""
    away = {c for pile in (stock, waste, *tab, *res) for c in pile}
    foundations: list[tuple[int, ...]] = []
    if rules.name == "hopscotch":
        for seq in hop_sequences():
            foundations.append(tuple(c for c in seq if c not in away))
    else:
        for s in range(4):
            pile = []
            for k in range(13):
                c = make_card(k + 1 if base is None else (base - 1 + k) % 13 + 1, s)
                if c in away:
                    break
                pile.append(c)
            foundations.append(tuple(pile))
    p = Position(
        rules.name,
        rules.options,
        None,
        tuple(stock),
        tuple(waste),
        tuple(foundations),
        tuple(tuple(x) for x in tab),
        tuple(down),
        tuple(tuple(x) for x in res),
        redeals,
        base,
    )
    return None if rules.validate(p) else p


def _redeals(rules: Game, rng: random.Random) -> int:
    limit = getattr(rules, "max_redeals", None)
    return rng.randint(0, limit) if rules.name == "klondike" and limit else 0


def tiny(game: str, options: dict[str, str], rng: random.Random, n: int) -> Position | None:
    """A random valid position with about ``n`` cards away from the foundations."""
    rules = get_game(game, options)
    base = rng.randint(1, 13) if game == "lady-jane" else None
    out: list[int] = []
    if game == "hopscotch":
        seqs = hop_sequences()
        for _ in range(n):
            k = rng.randrange(4)
            left = [c for c in seqs[k][1:] if c not in out]  # a start card never leaves
            if left:
                out.append(left[-1])
    else:
        out = _away(rng, n, base)
    rng.shuffle(out)
    stock: list[int] = []
    waste: list[int] = []
    tab: list[list[int]] = [[] for _ in range(rules.tableau_piles)]
    res: list[list[int]] = [[] for _ in range(rules.reserve_piles)]
    for c in out:
        where = rng.random()
        if game == "klondike" and where < 0.4:
            (stock if rng.random() < 0.5 else waste).append(c)
        elif game == "hopscotch":
            if where < 0.6:
                stock.append(c)
            else:
                res[rng.randrange(4)].append(c)
        elif game == "lady-jane" and where < 0.3:
            res[rng.randrange(7)].append(c)
        elif game == "freecell" and where < 0.3 and any(not r for r in res):
            rng.choice([r for r in res if not r]).append(c)
        else:
            tab[rng.randrange(len(tab))].append(c)
    if game == "hopscotch" and stock and rng.random() < 0.3:
        waste.append(stock.pop())
    if game == "lady-jane":
        # Only the stock sizes a real game reaches, and the waste only at the very end.
        tab[0].extend(stock + waste)
        stock, waste = [], []
        if len(tab[0]) >= 2 and rng.random() < 0.5:
            stock = [tab[0].pop(), tab[0].pop()]
    down = [rng.randint(0, max(0, len(pile) - 1)) if game != "bakers-dozen" else 0 for pile in tab]
    return _assemble(rules, base, stock, waste, tab, down, res, _redeals(rules, rng))


def crowded(game: str, options: dict[str, str], rng: random.Random, n: int) -> Position | None:
    """A Klondike or Lady Jane position with about ``n`` cards away, every tableau pile
    holding some, each pile's top card (now and then two) face up, the stock short; a
    FreeCell one with every cascade holding some and two to four free cells full."""
    rules = get_game(game, options)
    if game == "freecell":
        return _crowded_freecell(rules, rng, n)
    base = rng.randint(1, 13) if game == "lady-jane" else None
    out = _away(rng, n, base)
    rng.shuffle(out)
    stock: list[int] = []
    if game == "klondike":
        stock = [out.pop() for _ in range(rng.randint(0, min(9, len(out) // 3)))]
    elif rng.random() < 0.4 and len(out) > 9:
        stock = [out.pop(), out.pop()]  # Lady Jane's last two stock cards
    tab: list[list[int]] = [[] for _ in range(rules.tableau_piles)]
    for i, c in enumerate(out):
        tab[i if i < len(tab) else rng.randrange(len(tab))].append(c)
    res: list[list[int]] = [[] for _ in range(rules.reserve_piles)]
    if game == "lady-jane" and not stock:
        for _ in range(rng.randint(0, 3)):
            i = rng.randrange(len(tab))
            if len(tab[i]) > 1:
                res[rng.randrange(len(res))].append(tab[i].pop())
    down = [max(0, len(pile) - rng.choice((1, 1, 1, 1, 2))) for pile in tab]
    waste: list[int] = []
    if stock and rng.random() < 0.5:
        k = rng.randint(1, len(stock))
        waste, stock = stock[:k], stock[k:]
    return _assemble(rules, base, stock, waste, tab, down, res, _redeals(rules, rng))


def _crowded_freecell(rules: Game, rng: random.Random, n: int) -> Position | None:
    """Every free cell full, every cascade holding cards (low ones mostly at the bottom),
    and at most two legal moves: the few positions from which a FreeCell end game is
    lost (drawn again up to 500 times; None if none came)."""
    for _ in range(500):
        out = _away(rng, n, None)
        rng.shuffle(out)
        res: list[list[int]] = [[out.pop()] for _ in range(4)]
        out.sort(key=lambda c: c % 13 + rng.uniform(0, 6))
        tab: list[list[int]] = [[] for _ in range(8)]
        for i, c in enumerate(out):
            tab[i % 8].append(c)
        p = _assemble(rules, None, [], [], tab, [0] * 8, res, 0)
        if p is not None and len(rules.legal_moves(p)) <= 4:
            return p
    return None


def load_golden() -> list[dict[str, Any]]:
    """The committed end games: each with ``position`` (JSON), ``verdict``, ``states``."""
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
