"""Fair advice: the move with the best chance of winning from what the player knows.

Every estimate here is over arrangements of the unseen cards (``sample``), each solved
with perfect information by the existing solver, bounded by states alone (its stages are
shares of the states, never of the time), so that the same view, seed and settings always
give the same answer. The time budget and the cancel event are only a safety cut: a run
they stop uses the arrangements solved so far and says so (``Estimate.cut``).

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

from ..cards import RANK
from ..games import game_for
from ..moves import Move
from ..position import Position
from ..solver import clock, solve
from ..solver import clock as clock_module
from .estimate import Estimate as Estimate  # re-exported: callers import it from here
from .greedy import greedy_move, state_key
from .hopscotch import left_unseen
from .hopscotch_advice import (
    THREADS,
    advice_chance,
    prior,
)
from .hopscotch_history import replayed
from .hopscotch_rollout import labels_move
from .knowledge import Knowledge
from .plans import (
    Plan,
    avoiding,
    candidates,
    first,
    identity,
    onward,
    plays,
    progress,
    single_moves,
)
from .sample import sample

METHODS = ("reveal", "hop", "hop-reveal", "labels")


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to think. Same settings, view and seed: same answer (within budget)."""

    samples: int = 12
    """Arrangements of the unseen cards to draw (method ``labels``: stock orders on which
    the policy is played out, its chance the share won)."""
    max_states: int = 20_000
    """States per solve of one arrangement (beyond them its verdict is unknown); with
    one arrangement only (one unseen card at most), ``samples`` times as many."""
    budget: float = 2.0
    """Seconds at most; when they run out the arrangements solved so far are used."""
    method: str = "reveal"
    shortlist: int = 4
    """``reveal``: the plans scored on every arrangement."""
    explore: bool = False
    """``reveal``: score too every single move that shows a card or deals from the stock
    (``plans.revealing``), not only the plans the winning lines start with."""
    playouts: int = 0
    """Where the best plan wins fewer than this many arrangements (0: never), rank the
    plans that win as many by the greedy player's playouts on the arrangements after
    each (``plans.progress``: the cards it brings home); where none wins any, every
    legal move so (without: the greedy player's move)."""
    proven: float = 60.0
    """With one arrangement only (nothing hidden, as in Baker's Dozen, or every card
    seen): the seconds of the full solve (the solver's own budget, ``solve``'s default)
    whose proven line is the advice (``proven_line``). A budget under half of it (a
    hint's) gives the full solve half the budget, and the sampled solves the rest."""
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
    """The safety cut of one advice or chance: its time budget and the caller's cancel.

    It is what a sampled solve sees as its cancel event (``is_set``), so it can stop a
    solve part-way; the solve is otherwise bounded by states alone (``_solve``), so a
    solve it does not stop gives the same verdict on any machine, at any load. A run it
    cuts short says so (``Estimate.cut``)."""

    def __init__(self, budget: float, cancel: threading.Event | None) -> None:
        self.end = clock.now() + budget
        self.cancel = cancel
        self.hit = False
        """Whether the cut has stopped anything (set by ``is_set`` when it answers True)."""

    def left(self) -> float:
        return self.end - clock.now()

    def out(self) -> bool:
        return self.left() <= 0 or (self.cancel is not None and self.cancel.is_set())

    def is_set(self) -> bool:
        """The cancel event of a sampled solve: the time is up or the caller cancelled."""
        if self.out():
            self.hit = True
        return self.hit


def _solve(p: Position, settings: Settings, clock: _Clock) -> tuple[str, list[Move]]:
    """One arrangement's verdict and winning line, bounded by ``settings.max_states``
    alone: no deadline, so the schedule's stages are shares of the states
    (``Budget.untimed``) and the verdict never depends on the time (until 2026-12-06 the
    stages were laid over 60 s of the clock, ``SOLVE_WINDOW``, and under load the same
    Klondike position got 7 arrangements won, 0 lost and 1 undecided once, 7, 1 and 0
    another time). Only the safety cut (``clock``, as the solve's cancel event) stops it
    early, and the caller then drops the verdict and reports the cut."""
    if game_for(p).is_won(p):
        return "won", []
    r = solve(
        p,
        timeout=None,
        max_states=settings.max_states,
        cancel=clock,  # type: ignore[arg-type]  # duck-typed: only is_set() is called
        table_size=max(1_000, settings.max_states // 16),
        check=False,  # many solves: the bot and the player play every move through play
    )
    return r.result, r.moves


PROVEN_CACHE = 100_000
"""Positions whose proven verdict ``proven_line`` keeps (every position along a proven
line: a player who follows it is never solved for again); forgotten all at once beyond."""

_proven: dict[Hashable, tuple[str, Plan]] = {}


def _proven_key(p: Position) -> Hashable:
    return p.game, p.options, state_key(p)


def proven_line(position: Position, settings: Settings, clock: _Clock) -> tuple[str, Plan]:
    """Where the view hides nothing (one arrangement, the position itself): the solver's
    verdict with the solver's own budget (``settings.proven`` seconds, the line checked
    through the rules), ``won`` with the whole winning line, ``lost``, or ``unknown``
    (not decided in time, or cut by ``clock``). A decided verdict is cached for every
    position along the line, so a game that follows it is solved once."""
    key = _proven_key(position)
    if key in _proven:
        return _proven[key]
    if game_for(position).is_won(position):
        return "won", ()
    left = max(clock.left(), 0.001)
    # A short budget (a hint's) keeps half for the sampled solves, should this one not
    # decide; a study's (at least half of ``proven``) gives it all of ``proven``.
    timeout = left / 2 if left < settings.proven / 2 else min(settings.proven, left)
    r = solve(position, timeout=timeout, cancel=clock)  # type: ignore[arg-type]
    if r.result == "unknown":
        return "unknown", ()
    if len(_proven) > PROVEN_CACHE:
        _proven.clear()
    line = tuple(r.moves)
    _proven[key] = r.result, line
    game, p = game_for(position), position
    for k, m in enumerate(line[:-1]):
        p = game.apply(p, m)
        _proven[_proven_key(p)] = "won", line[k + 1 :]
    return r.result, line


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
    """Sampled arrangements with the root verdict and winning line of each: all
    ``settings.samples`` of them unless the safety cut stops the run (``clock.hit``; a
    solve it stopped is dropped, whatever it said)."""
    rng = random.Random(seed)
    draws = []
    for _ in range(1 if knowledge.one_arrangement(position) else settings.samples):
        if clock.out():
            clock.hit = True
            break
        s = sample(position, knowledge, rng)
        verdict, line = _solve(s, settings, clock)
        if clock.hit:
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
    clock = _Clock(settings.budget, cancel)
    proven = _proven_chance(position, knowledge, settings, clock)
    if proven is not None:
        return proven
    settings = _for_view(position, knowledge, settings)
    draws = _draws(position, knowledge, settings, seed, clock)
    longer = replace(settings, max_states=settings.max_states * settings.again)
    estimate = Estimate()
    for s, verdict, _ in draws:
        if verdict == "unknown" and settings.again and not clock.hit:
            again, _ = _solve(s, longer, clock)
            verdict = verdict if clock.hit else again
        estimate = estimate.add(verdict)
    return estimate.cut_short(clock.hit)


def _proven_chance(
    position: Position, knowledge: Knowledge, settings: Settings, clock: _Clock
) -> Estimate | None:
    """With at most one unseen card, the chance is the solver's proven verdict; None
    when cards are hidden or the solver did not decide."""
    if not knowledge.one_arrangement(position):
        return None
    verdict, _ = proven_line(position, settings, clock)
    return None if verdict == "unknown" else Estimate().add(verdict)


def policy_chance(
    position: Position,
    knowledge: Knowledge,
    history: Collection[Hashable] = (),
    settings: Settings = Settings(),
    cancel: threading.Event | None = None,
    seed: int = 0,
) -> Estimate:
    """Hopscotch: the chance that a player who follows the fair advice (the hint's,
    ``labels_move``: rollouts of the labels policy) from here wins, estimated from its
    games played out over ``settings.samples`` stock orders of the unseen cards
    (``history``: the game's ``state_key``s, along which the policy's labels are
    replayed): the posterior mean under the advice's prior for the cards left
    (``hopscotch_advice.prior``), with its 95% credible interval. With at most one unseen
    card, the solver's proven verdict."""
    if position.game != "hopscotch":
        raise ValueError("the policy's own chance is Hopscotch's")
    knowledge = knowledge.observe(position)
    clock = _Clock(settings.budget, cancel)
    proven = _proven_chance(position, knowledge, settings, clock)
    if proven is not None:
        return proven
    return _playouts(position, knowledge, history, settings, seed, clock)


def _playouts(
    position: Position,
    knowledge: Knowledge,
    history: Collection[Hashable],
    settings: Settings,
    seed: int,
    clock: _Clock,
) -> Estimate:
    """Hopscotch's advice (``labels_move``, its labels replayed along ``history``, the
    game's ``state_key``s) played out from ``position`` over ``settings.samples`` stock
    orders of the unseen cards drawn from ``seed`` (``hopscotch_advice.advice_chance``,
    in C): won where it wins. Every playout is decided (no ``unknown``); the safety cut
    stops the run between playouts and says so (``cut``). The chance is the posterior
    mean given them under the advice's prior for the cards left in the stock (``prior``,
    fitted on its own games: ten playouts alone regress to the mean)."""
    state = replayed(position, history)
    waste = RANK[position.waste[-1]] if position.waste else None
    threads = 1 if clock_module.on_cpu_time() else THREADS
    won, played = advice_chance(
        state, waste, left_unseen(position), settings.samples, seed, clock.out, threads
    )
    cut = played < settings.samples
    return Estimate(won=won, lost=played - won, cut=cut, prior=prior(len(position.stock)))


def _labels(
    position: Position,
    knowledge: Knowledge,
    settings: Settings,
    seed: int,
    avoid: Collection[Hashable],
    clock: _Clock,
) -> Advice:
    """Hopscotch's own advice (``fair.hopscotch_rollout.labels_move``), replayed along ``avoid``
    (the game's history), with its own chance: the share of its playouts won
    (``_playouts``; ``samples`` 0: none, as the study's bot asks)."""
    if position.game != "hopscotch":
        raise ValueError("the method 'labels' is Hopscotch's")
    root = _playouts(position, knowledge, avoid, settings, seed, clock)
    move = labels_move(position, avoid)
    plan = () if move is None else (move,)
    return Advice(move, plan, root, ((plan, root),))


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
    clock = _Clock(settings.budget, cancel)
    if knowledge.one_arrangement(position):
        # Nothing to guess: the solver's proven line is the advice (docs/fair-play.md).
        verdict, proven = proven_line(position, settings, clock)
        if verdict == "won" and proven:
            return Advice(proven[0], proven, Estimate(won=1), ((proven, Estimate(won=1)),))
        if verdict == "lost":
            move = greedy_move(position, avoid)
            return Advice(move, () if move is None else (move,), Estimate(lost=1))
    if settings.method == "labels":
        return _labels(position, knowledge, settings, seed, avoid, clock)
    settings = _for_view(position, knowledge, settings)
    draws = _draws(position, knowledge, settings, seed, clock)
    root = Estimate()
    for _, verdict, _ in draws:
        root = root.add(verdict)
    won = [line for _, v, line in draws if v == "won" and line]
    plans = candidates(
        position, knowledge, won, settings.method, settings.shortlist, settings.explore, avoid
    )
    scored, onwards = _scored(position, knowledge, settings, draws, plans, clock)
    if settings.playouts and draws and not clock.hit:
        scored = _ranked(position, root, draws, scored, avoid, settings.playouts, clock)
    if not scored:
        move = greedy_move(position, avoid)
        root = root.cut_short(clock.hit)
        return Advice(move, () if move is None else (move,), root, tuple(scored))
    best, estimate = scored[0]
    if settings.method == "hop-reveal":
        follow = onwards[identity(position, best)].most_common(1)
        best = best + avoiding(position, best, follow[0][0] if follow else (), avoid)
    return Advice(best[0], best, estimate, tuple(scored))


Draw = tuple[Position, str, list[Move]]


def _scored(
    position: Position,
    knowledge: Knowledge,
    settings: Settings,
    draws: list[Draw],
    plans: dict[Hashable, Plan],
    clock: _Clock,
) -> tuple[list[tuple[Plan, Estimate]], dict[Hashable, Counter[Plan]]]:
    """Each plan scored on every arrangement (best first: most won, then fewest lost;
    none when no round was complete), and (``hop-reveal``) how the arrangements won
    after each plan go on, up to the next reveal."""
    # The plan each won arrangement's own line starts with: won there without a solve.
    own = [
        identity(position, first(position, knowledge, line, settings.method))
        if verdict == "won" and line
        else None
        for _, verdict, line in draws
    ]
    rows: list[list[str]] = []
    onwards: dict[Hashable, Counter[Plan]] = {key: Counter() for key in plans}
    for (s, verdict, line), mine in zip(draws, own, strict=True):
        row = []
        for key, plan in plans.items():
            if verdict != "won":
                row.append(verdict)  # nothing wins where the position itself is lost
            elif key == mine:
                row.append("won")
                onwards[key][onward(position, knowledge, plan, line[len(plan) :])] += 1
            else:
                if clock.out():
                    clock.hit = True
                    break
                after, rest = _solve(plays(s, plan), settings, clock)
                if clock.hit:
                    break
                row.append(after)
                if after == "won":
                    onwards[key][onward(position, knowledge, plan, rest)] += 1
        if len(row) < len(plans):
            break  # a round cut short is dropped, so every plan has the same samples
        rows.append(row)
    scored = []
    for k, plan in enumerate(plans.values()):
        e = Estimate()
        for row in rows:
            e = e.add(row[k])
        scored.append((plan, e.cut_short(clock.hit)))
    scored.sort(key=lambda pe: (-pe[1].won, pe[1].lost))
    return (scored if rows else []), onwards


def _ranked(
    position: Position,
    root: Estimate,
    draws: list[Draw],
    scored: list[tuple[Plan, Estimate]],
    avoid: Collection[Hashable],
    few: int,
    clock: _Clock,
) -> list[tuple[Plan, Estimate]]:
    """``scored`` with the plans of the most arrangements won ranked by the greedy
    player's playouts after each on the same arrangements (``plans.progress``); with
    none won by any plan, every legal move so, each with the position's own estimate
    (``root``: its arrangements' verdicts)."""
    arrangements = [s for s, _, _ in draws]
    if not scored or not scored[0][1].won:
        scored = [(plan, root) for plan in single_moves(position, avoid).values()]
    top = [pe for pe in scored if pe[1].won == scored[0][1].won] if scored else []
    if len(top) < 2 or top[0][1].won >= few:
        return scored
    score = {}
    for plan, _ in top:
        if clock.out():
            clock.hit = True
            return scored
        score[plan] = progress(arrangements, plan, avoid)
    top.sort(key=lambda pe: (-score[pe[0]], pe[1].lost))
    return top + scored[len(top) :]
