"""Plans: the moves the fair advisor compares, and a cheap fair estimate of each.

A plan is moves to make now. The ``reveal`` method's plans run up to and including the
next move that shows an unseen card: until then nothing new is seen, so the player can
follow the plan whatever the unseen cards are. Its candidates are the solver's own
winning lines cut at their first reveal (``candidates``) and, with ``explore``, every
single move that shows a card or deals from the stock (``revealing``): where few
arrangements are won, every won line starts with the same plan, and dealing on instead
of turning a card was never scored (docs/fair-play.md, Klondike ``no-redeal``).

``progress`` is the cheap estimate that ranks plans the solves cannot tell apart (as
many arrangements won after each, often none): the greedy player (``greedy.py``, which
reads only face-up cards) played to its end on each sampled arrangement after the plan,
scored by the cards it brings home.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Iterable

from ..games import game_for
from ..moves import Move
from ..position import Position
from .greedy import greedy_move, shuffles, state_key
from .knowledge import Knowledge

Plan = tuple[Move, ...]

PLAYOUT_MOVES = 60
"""A greedy playout stops after this many moves (it never goes back to a position it
has been in, so it ends long before in practice)."""


def reveals(knowledge: Knowledge, p: Position) -> bool:
    """Whether ``p`` shows a card the player has not seen."""
    return knowledge.observe(p).seen != knowledge.seen


def plays(position: Position, plan: Plan) -> Position:
    """``position`` after the moves of ``plan``."""
    game = game_for(position)
    for m in plan:
        position = game.apply(position, m)
    return position


def cut(position: Position, knowledge: Knowledge, line: list[Move]) -> Plan:
    """``line`` up to and including its first move that shows an unseen card."""
    game = game_for(position)
    p = position
    for k, m in enumerate(line):
        p = game.apply(p, m)
        if reveals(knowledge, p):
            return tuple(line[: k + 1])
    return tuple(line)


def first(position: Position, knowledge: Knowledge, line: list[Move], method: str) -> Plan:
    """The plan a winning line starts with: up to its first reveal, or its first move."""
    return cut(position, knowledge, line) if method == "reveal" else tuple(line[:1])


def onward(position: Position, knowledge: Knowledge, plan: Plan, rest: list[Move]) -> Plan:
    """How a winning line goes on after ``plan`` up to its next reveal (nothing when the
    plan itself shows a card: what comes next depends on it)."""
    after = plays(position, plan)
    return () if reveals(knowledge, after) else cut(after, knowledge, rest)


def avoiding(position: Position, plan: Plan, rest: Plan, avoid: Collection[Hashable]) -> Plan:
    """``rest`` (played after ``plan``) up to its first move into a state to avoid."""
    game = game_for(position)
    p = plays(position, plan)
    for k, m in enumerate(rest):
        p = game.apply(p, m)
        if state_key(p) in avoid:
            return rest[:k]
    return rest


def identity(position: Position, plan: Plan) -> Hashable:
    """What a plan does: the state it reaches before its last move, and that move. Plans
    that differ only in the order of the moves before the reveal do the same."""
    return state_key(plays(position, plan[:-1])), plan[-1]


def revealing(position: Position, knowledge: Knowledge) -> list[Plan]:
    """Every single move that shows an unseen card or deals from the stock (which shows
    the next stock card unless the stock is known), as a plan of its own."""
    game = game_for(position)
    return [
        (m,)
        for m in game.legal_moves(position)
        if m.is_deal or reveals(knowledge, game.apply(position, m))
    ]


def _kept(
    position: Position, plans: Iterable[Plan], avoid: Collection[Hashable]
) -> dict[Hashable, Plan]:
    """``plans`` by identity, the first of each kept, less those through a state to avoid."""
    game = game_for(position)
    kept: dict[Hashable, Plan] = {}
    for plan in plans:
        p, ok = position, True
        for m in plan:
            p = game.apply(p, m)
            ok = ok and state_key(p) not in avoid
        if ok:
            kept.setdefault(identity(position, plan), plan)
    return kept


def candidates(
    position: Position,
    knowledge: Knowledge,
    lines: list[list[Move]],
    method: str,
    shortlist: int,
    explore: bool,
    avoid: Collection[Hashable],
) -> dict[Hashable, Plan]:
    """The plans to score, by identity: ``reveal``, the ``shortlist`` most frequent
    first plans of the winning ``lines`` (most often found first), then with ``explore``
    every ``revealing`` move not among them; the other methods, every legal move."""
    if method != "reveal":
        return _kept(position, [(m,) for m in game_for(position).legal_moves(position)], avoid)
    found: dict[Hashable, Plan] = {}
    votes: Counter[Hashable] = Counter()
    for line in lines:
        plan = first(position, knowledge, line, "reveal")
        key = identity(position, plan)
        found.setdefault(key, plan)
        votes[key] += 1
    kept = _kept(position, [found[key] for key, _ in votes.most_common()], avoid)
    kept = dict(list(kept.items())[:shortlist])
    if explore:
        for key, plan in _kept(position, revealing(position, knowledge), avoid).items():
            kept.setdefault(key, plan)
    return kept


def playout(position: Position, avoid: Collection[Hashable] = ()) -> int:
    """The cards home after the greedy player plays ``position`` to its end, never into
    a state of ``avoid`` or one it has been in (52 in Klondike: won)."""
    game = game_for(position)
    p, seen = position, {*avoid, state_key(position)}
    for _ in range(PLAYOUT_MOVES):
        if game.is_won(p):
            break
        m = greedy_move(p, seen)
        if m is None:
            break
        p = game.apply(p, m)
        seen.add(state_key(p))
    return sum(len(f) for f in p.foundations)


def progress(arrangements: list[Position], plan: Plan, avoid: Collection[Hashable]) -> int:
    """The cards home over every arrangement after ``plan`` and the greedy player's
    playout from there (the same arrangements for every plan: common random numbers)."""
    return sum(playout(plays(s, plan), avoid) for s in arrangements)


def single_moves(position: Position, avoid: Collection[Hashable]) -> dict[Hashable, Plan]:
    """Every legal move not into a state to avoid, each a plan of its own, the greedy
    player's move first (ranked by playouts, another move must do better to be taken),
    less a card taken back from a foundation (which the greedy player never makes) and
    the tableau moves that neither turn a card nor take one home unless the greedy
    player would make them: ranked by playouts on arrangements drawn again at every
    move, such moves let the bot move cards to and fro to the move limit."""
    game = game_for(position)
    greedy = greedy_move(position, avoid)
    moves = [
        m
        for m in game.legal_moves(position)
        if not m.src.startswith("f") and (m == greedy or not shuffles(position, m))
    ]
    moves.sort(key=lambda m: m != greedy)
    return _kept(position, [(m,) for m in moves], avoid)
