"""Fair advice: the move with the best chance of winning from what the player knows.

Every estimate here is over arrangements of the unseen cards (``sample``), each solved
with perfect information by the existing solver, bounded in states so that the same
view, seed and settings always give the same answer (the time budget only cuts a
run short: then fewer arrangements are used, and the estimate says how many).

A verdict the solver leaves undecided within its states is counted apart
(``Estimate.unknown``) and left out of the share: the share is won / (won + lost).
Candidates are ranked by arrangements won (an undecided one counts as not won).

Two methods rank the candidates, each a *plan* (moves to make now):
- ``hop``, hindsight optimisation: every legal move, scored on every arrangement by
  whether it can still be won after it. Its known weakness is strategy fusion: after
  the move each arrangement is solved knowing every card, so a move that keeps options
  open scores as if the player would always pick the right one later.
- ``hop-reveal``: ``hop``'s choice of the first move, but it decides only where a card is
  shown, as ``reveal`` does: the plan is the best move and then the continuation most
  of the arrangements won after it take, up to the next reveal (a player can follow it).
- ``reveal`` (the default): plans run up to and including the next move that shows an
  unseen card. Until that move nothing new is seen, so a plan up to it is one the
  player can really follow whatever the arrangement; plans are compared only there,
  which removes the fusion over *which* card to uncover next. Candidates are the
  solver's own winning lines cut at their first reveal (one per arrangement won); the
  ``shortlist`` most frequent are scored on every arrangement.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Collection, Hashable
from dataclasses import dataclass, field, replace

from ..games import game_for
from ..moves import Move
from ..position import Position
from ..proportion import wilson
from ..solver import clock, solve
from .greedy import greedy_move, state_key
from .knowledge import Knowledge
from .sample import sample

Plan = tuple[Move, ...]
METHODS = ("reveal", "hop", "hop-reveal")


@dataclass(frozen=True, slots=True)
class Estimate:
    """Solver verdicts over sampled arrangements of the unseen cards."""

    won: int = 0
    lost: int = 0
    unknown: int = 0

    def add(self, verdict: str) -> Estimate:
        """This estimate with one more verdict (``won``, ``lost`` or ``unknown``)."""
        return Estimate(
            self.won + (verdict == "won"),
            self.lost + (verdict == "lost"),
            self.unknown + (verdict == "unknown"),
        )

    @property
    def samples(self) -> int:
        """Arrangements solved."""
        return self.won + self.lost + self.unknown

    @property
    def share(self) -> float:
        """Won among the decided arrangements (0 when none is decided)."""
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of ``share``."""
        return wilson(self.won, self.won + self.lost)


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to think. Same settings, view and seed: same answer (within budget)."""

    samples: int = 12
    """Arrangements of the unseen cards to draw."""
    max_states: int = 20_000
    """States per solve of one arrangement (beyond them its verdict is unknown); with
    one arrangement only (one unseen card at most), ``samples`` times as many."""
    budget: float = 2.0
    """Seconds at most; when they run out the arrangements solved so far are used."""
    method: str = "reveal"
    shortlist: int = 4
    """``reveal``: the plans scored on every arrangement."""
    again: int = 0
    """``chance`` only: an arrangement left undecided is solved again with this many
    times ``max_states``, while the budget lasts (0: never). Measured on Klondike
    no-redeal at 5 (docs/fair-play.md, "Is the chance honest?"): a third of the
    undecided decided for 65% more CPU, the chance no truer; the page keeps 0."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The move to make, the plan it starts, and the chance to win after the plan."""

    move: Move | None
    plan: Plan
    estimate: Estimate
    candidates: tuple[tuple[Plan, Estimate], ...] = field(default=())
    """Every plan scored, best first."""


class _Clock:
    def __init__(self, budget: float, cancel: threading.Event | None) -> None:
        self.end = clock.now() + budget
        self.cancel = cancel

    def left(self) -> float:
        return self.end - clock.now()

    def out(self) -> bool:
        return self.left() <= 0 or (self.cancel is not None and self.cancel.is_set())


SOLVE_WINDOW = 60.0
"""The seconds each arrangement's solve lays its schedule's stages over, whatever the
time left (``Budget.window``): the states bound ends the solve long before its first
stage would (a 20,000-state solve takes a few hundredths of a second), so its verdict
depends on the states alone, the same in a 2 s hint as in a study's 60 s decision. The
fair rows of docs/winnability.md were played with 60 s a decision, and so with these
stages. Laid over the time left, a hint's stages depended on it: with 1 s, Klondike
no-redeal's passes ended after 30 ms and the stages after them decided arrangements
the passes left undecided."""


def _solve(p: Position, settings: Settings, clock: _Clock) -> tuple[str, list[Move]]:
    if game_for(p).is_won(p):
        return "won", []
    r = solve(
        p,
        timeout=max(0.001, clock.left()),
        max_states=settings.max_states,
        cancel=clock.cancel,
        table_size=max(1_000, settings.max_states // 16),
        check=False,  # many solves: the bot and the player play every move through play
        window=SOLVE_WINDOW,
    )
    return r.result, r.moves


def _for_view(position: Position, knowledge: Knowledge, settings: Settings) -> Settings:
    """The settings for this view: with one unseen card at most there is one
    arrangement, the position itself, and its solve gets the states of every sample
    (Baker's Dozen, which hides nothing, or an end game with every card seen)."""
    if not knowledge.one_arrangement(position):
        return settings
    return replace(settings, max_states=settings.max_states * settings.samples)


def _draws(
    position: Position, knowledge: Knowledge, settings: Settings, seed: int, clock: _Clock
) -> list[tuple[Position, str, list[Move]]]:
    """Sampled arrangements with the root verdict and winning line of each."""
    rng = random.Random(seed)
    draws = []
    for _ in range(1 if knowledge.one_arrangement(position) else settings.samples):
        if clock.out():
            break
        s = sample(position, knowledge, rng)
        verdict, line = _solve(s, settings, clock)
        if clock.out() and verdict == "unknown":
            break
        draws.append((s, verdict, line))
    return draws


def chance(
    position: Position,
    knowledge: Knowledge,
    settings: Settings = Settings(),
    cancel: threading.Event | None = None,
    seed: int = 0,
) -> Estimate:
    """The share of arrangements of the unseen cards from which ``position`` can still
    be won (each solved knowing every card: an upper bound on a fair player's chance)."""
    knowledge = knowledge.observe(position)
    settings = _for_view(position, knowledge, settings)
    clock = _Clock(settings.budget, cancel)
    draws = _draws(position, knowledge, settings, seed, clock)
    longer = replace(settings, max_states=settings.max_states * settings.again)
    estimate = Estimate()
    for s, verdict, _ in draws:
        if verdict == "unknown" and settings.again and not clock.out():
            verdict, _ = _solve(s, longer, clock)
        estimate = estimate.add(verdict)
    return estimate


def _reveals(knowledge: Knowledge, p: Position) -> bool:
    return knowledge.observe(p).seen != knowledge.seen


def _cut(position: Position, knowledge: Knowledge, line: list[Move]) -> Plan:
    """``line`` up to and including its first move that shows an unseen card."""
    game = game_for(position)
    p = position
    for k, m in enumerate(line):
        p = game.apply(p, m)
        if _reveals(knowledge, p):
            return tuple(line[: k + 1])
    return tuple(line)


def _plays(position: Position, plan: Plan) -> Position:
    game = game_for(position)
    for m in plan:
        position = game.apply(position, m)
    return position


def _first(position: Position, knowledge: Knowledge, line: list[Move], method: str) -> Plan:
    """The plan a winning line starts with: up to its first reveal, or its first move."""
    return _cut(position, knowledge, line) if method == "reveal" else tuple(line[:1])


def _onward(position: Position, knowledge: Knowledge, plan: Plan, rest: list[Move]) -> Plan:
    """How a winning line goes on after ``plan`` up to its next reveal (nothing when the
    plan itself shows a card: what comes next depends on it)."""
    after = _plays(position, plan)
    return () if _reveals(knowledge, after) else _cut(after, knowledge, rest)


def _avoiding(position: Position, plan: Plan, rest: Plan, avoid: Collection[Hashable]) -> Plan:
    """``rest`` (played after ``plan``) up to its first move into a state to avoid."""
    game = game_for(position)
    p = _plays(position, plan)
    for k, m in enumerate(rest):
        p = game.apply(p, m)
        if state_key(p) in avoid:
            return rest[:k]
    return rest


def _identity(position: Position, plan: Plan) -> Hashable:
    """What a plan does: the state it reaches before its last move, and that move. Plans
    that differ only in the order of the moves before the reveal do the same."""
    return state_key(_plays(position, plan[:-1])), plan[-1]


def _candidates(
    position: Position,
    knowledge: Knowledge,
    lines: list[list[Move]],
    settings: Settings,
    avoid: Collection[Hashable],
) -> dict[Hashable, Plan]:
    """The plans to score, by identity, most often found first (``reveal``: at most
    ``shortlist``)."""
    game = game_for(position)
    if settings.method != "reveal":
        plans: list[Plan] = [(m,) for m in game.legal_moves(position)]
    else:
        found: dict[Hashable, Plan] = {}
        votes: Counter[Hashable] = Counter()
        for line in lines:
            plan = _first(position, knowledge, line, "reveal")
            identity = _identity(position, plan)
            found.setdefault(identity, plan)
            votes[identity] += 1
        plans = [found[identity] for identity, _ in votes.most_common()]
    kept: dict[Hashable, Plan] = {}
    for plan in plans:
        p, ok = position, True
        for m in plan:
            p = game.apply(p, m)
            ok = ok and state_key(p) not in avoid
        if ok:
            kept[_identity(position, plan)] = plan
    if settings.method == "reveal":
        kept = dict(list(kept.items())[: settings.shortlist])
    return kept


def advise(
    position: Position,
    knowledge: Knowledge,
    settings: Settings = Settings(),
    cancel: threading.Event | None = None,
    seed: int = 0,
    avoid: Collection[Hashable] = (),
) -> Advice:
    """The best move from what the player knows, with its estimated chance to win.

    ``avoid``: ``state_key`` of positions not to lead back to, such as the game's
    history (a plan through one is dropped). No candidate at all (every arrangement
    lost, or every move avoided): the greedy player's move, with the estimate of the
    position itself."""
    if settings.method not in METHODS:
        raise ValueError(f"unknown method {settings.method!r} (valid: {', '.join(METHODS)})")
    knowledge = knowledge.observe(position)
    settings = _for_view(position, knowledge, settings)
    clock = _Clock(settings.budget, cancel)
    draws = _draws(position, knowledge, settings, seed, clock)
    root = Estimate()
    for _, verdict, _ in draws:
        root = root.add(verdict)
    # The plan each won arrangement's own line starts with: won there without a solve.
    own = [
        _identity(position, _first(position, knowledge, line, settings.method))
        if verdict == "won" and line
        else None
        for _, verdict, line in draws
    ]
    plans = _candidates(
        position, knowledge, [line for _, v, line in draws if v == "won" and line], settings, avoid
    )
    rows: list[list[str]] = []
    # hop-reveal: how the arrangements won after each plan go on, up to the next reveal.
    onwards: dict[Hashable, Counter[Plan]] = {identity: Counter() for identity in plans}
    for (s, verdict, line), mine in zip(draws, own, strict=True):
        row = []
        for identity, plan in plans.items():
            if verdict != "won":
                row.append(verdict)  # nothing wins where the position itself is lost
            elif identity == mine:
                row.append("won")
                onwards[identity][_onward(position, knowledge, plan, line[len(plan) :])] += 1
            else:
                after, rest = _solve(_plays(s, plan), settings, clock)
                row.append(after)
                if after == "won":
                    onwards[identity][_onward(position, knowledge, plan, rest)] += 1
            if clock.out():
                break
        if len(row) < len(plans):
            break  # a round cut short is dropped, so every plan has the same samples
        rows.append(row)
    scored = []
    for k, plan in enumerate(plans.values()):
        e = Estimate()
        for row in rows:
            e = e.add(row[k])
        scored.append((plan, e))
    scored.sort(key=lambda pe: (-pe[1].won, pe[1].lost))
    if not scored or not rows:
        move = greedy_move(position, avoid)
        return Advice(move, () if move is None else (move,), root, tuple(scored))
    best, estimate = scored[0]
    if settings.method == "hop-reveal":
        follow = onwards[_identity(position, best)].most_common(1)
        best = best + _avoiding(position, best, follow[0][0] if follow else (), avoid)
    return Advice(best[0], best, estimate, tuple(scored))
