"""Baker's Dozen's winning lines rebuilt from the native search by classes
(``_bd_classes.h``, Kings to the bottom): the search reports a win as its moves from
one class to the next, and the line is made here move by move, through the
rearrangements that bring each class's piles to the state a move was made from, then
replayed by the engine like every other line. The classes, their groups and the proof
that meeting each class once is exact are in ``_bd_classes.h`` (and its Python
reference, ``tests/bd_classes_oracle.py``).

A *rearrangement* moves a top card lying on a card it may be built on (a *parent*)
onto another parent at a pile's top; it goes both ways, and never moves a pile's
bottom card, so piles are known by their bottom card across a line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from ..cards import SUIT
from ..moves import Move
from ..position import Position
from ..rules import Game
from . import clock

Tableau = tuple[tuple[int, ...], ...]
Heights = tuple[int, ...]
PileMove = tuple[int, int]
"""(pile, pile), or (pile, -1) for a card home."""
Valid = Callable[[int, int], bool]
"""Whether a card may lie on another (the second is one of its parents)."""


class LineAdapter(Protocol):
    """What ``line_of`` needs of Baker's Dozen's adapter (``bakers_dozen.py``), named
    here so that this module does not import it."""

    game: Game
    parents: tuple[tuple[int, ...], ...]

    def auto(self, p: Position) -> tuple[list[Move], Position]: ...


def valid_of(parents: tuple[tuple[int, ...], ...]) -> Valid:
    """Whether card c may lie on card q, from each card's parents."""
    return lambda c, q: q in parents[c]


def rearrangements(tab: Tableau, valid: Valid) -> Iterator[PileMove]:
    """Every rearrangement of ``tab``: a top card lying on a parent onto another
    parent at a pile's top."""
    for i, pile in enumerate(tab):
        if len(pile) > 1 and valid(pile[-1], pile[-2]):
            for j, other in enumerate(tab):
                if j != i and other and valid(pile[-1], other[-1]):
                    yield i, j


def play(tab: Tableau, h: Heights, m: PileMove) -> tuple[Tableau, Heights]:
    """The tableau and the foundations' heights after ``m``."""
    i, j = m
    out = list(tab)
    c = out[i][-1]
    out[i] = out[i][:-1]
    if j < 0:
        hh = list(h)
        hh[SUIT[c]] += 1
        return tuple(out), tuple(hh)
    out[j] = out[j] + (c,)
    return tuple(out), h


def with_arrangement(
    tab: Tableau, piles: tuple[int, ...], arrangement: tuple[tuple[int, ...], ...]
) -> Tableau:
    """``tab`` with ``piles`` holding ``arrangement``'s cards."""
    out = list(tab)
    for k, cards in zip(piles, arrangement, strict=True):
        out[k] = cards
    return tuple(out)


def line_of(
    adapter: LineAdapter,
    start: Position,
    children: list[bytes],
    deadline: float = float("inf"),
) -> list[Move] | None:
    """The winning line that the native search by classes found from ``start``, as
    engine moves (None if not made by ``deadline``): ``children`` are its moves from one
    class to the next, each the state it was made from (packed: each pile's cards, then
    255) and, at bytes 66 and 67, the pile it takes a card from and the pile it goes to
    (255: home). Before each, every group's rearrangements bring its piles to that
    state; after each, the safe moves home. Piles are known by their bottom card, which
    no rearrangement moves."""
    line, p = adapter.auto(start)
    line = list(line)
    valid = valid_of(adapter.parents)
    for child in children:
        piles = bytes(child[:66]).split(b"\xff")[:13]
        where = {pile[0]: i for i, pile in enumerate(p.tableau) if pile}
        want = {where[pile[0]]: tuple(pile) for pile in piles if pile}
        path = _rearrange(valid, p, want, deadline)
        if path is None:
            return None
        for m in path:
            line.append(m)
            p = adapter.game.apply(p, m)
        source = f"t{where[piles[child[66]][0]] + 1}"
        if child[67] == 255:
            home = adapter.game.foundation_move(p, source)
            if home is None:
                return None  # pragma: no cover - the search moved a card it could play
            m = home
        else:
            m = Move(source, f"t{where[piles[child[67]][0]] + 1}")
        p = adapter.game.apply(p, m)
        done, p = adapter.auto(p)
        line += [m, *done]
    return line


def _rearrange(
    valid: Valid, p: Position, want: dict[int, tuple[int, ...]], deadline: float
) -> list[Move] | None:
    """Rearrangements that take the piles of ``p`` to ``want`` (pile -> cards): a
    breadth-first search over the arrangements of the piles that differ, joined by
    the piles their rearrangements reach when it fails (a group's piles at most, not
    the whole class); None at ``deadline``."""
    tab = tuple(tuple(pile) for pile in p.tableau)
    piles = tuple(sorted(k for k, cards in want.items() if tab[k] != cards))
    while piles:
        goal = tuple(want[k] for k in piles)
        first = tuple(tab[k] for k in piles)
        came: dict[Tableau, tuple[Tableau, Move] | None] = {first: None}
        todo = [first]
        reached: set[int] = set()
        for at in todo:
            if at == goal:
                break
            if clock.now() > deadline:
                return None
            full = with_arrangement(tab, piles, at)
            for i, j in rearrangements(full, valid):
                if i not in piles or j not in piles:
                    reached.update((i, j))
                    continue
                nxt, _ = play(full, (), (i, j))
                key = tuple(nxt[k] for k in piles)
                if key not in came:
                    came[key] = (at, Move(f"t{i + 1}", f"t{j + 1}"))
                    todo.append(key)
        else:
            if reached <= set(piles):
                return None  # pragma: no cover - the search's states are its class's
            piles = tuple(sorted(reached | set(piles)))
            continue
        path: list[Move] = []
        step = came[goal]
        while step is not None:
            path.append(step[1])
            step = came[step[0]]
        return path[::-1]
    return []
