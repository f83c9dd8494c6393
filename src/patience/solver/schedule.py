"""Verdicts, the budget of one search, and the one pass schedule every search runs.

A search is run in stages: quick passes that find wins (limited-discrepancy passes,
a capped depth-first probe, jittered restarts), then the exhaustive search, which
alone proves a loss (a Klondike mode may first prove a loss under looser rules).
Which stages a game runs and how much of the budget each may use is data
(``Schedule``, one per adapter); ``run`` plays it out against one ``Budget`` (the time,
the states, the caller's cancel event), with a ``Runner`` that searches one stage: the
reference search in Python (``dfs.reference_runner``) or a native module.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from ..moves import Move
from . import clock


class Verdict(StrEnum):
    """A search's answer; equal to its plain string (``Verdict.WON == "won"``)."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"

    @classmethod
    def of_code(cls, code: int) -> Verdict:
        """The verdict of a native module's code (0 won, 1 lost, 2 unknown)."""
        return _NATIVE_CODES[code]


_NATIVE_CODES = (Verdict.WON, Verdict.LOST, Verdict.UNKNOWN)
"""The native modules' verdict codes, in order (``enum { WON, LOST, UNKNOWN }`` in C)."""


@dataclass(frozen=True)
class Schedule:
    """Which stages a search runs, each until a share of the time budget (of the states,
    for a search with no time limit: ``Budget.untimed``).

    In order: a capped depth-first probe (``probe`` states; 0: none); best-first
    searches until ``best``, one per estimate of the adapter; up to ``plain``
    limited-discrepancy passes (0, 1, 2, ... departures from the preferred move; they
    find most wins far sooner than a plain depth-first search, which can sink its
    whole budget under one bad early move) until ``passes``; jittered restarts until
    ``restarts``; shuffled restarts until ``shuffled``; the search by classes until
    ``classes``; then the exhaustive search until the end. With ``looser`` set, the
    passes stop at ``looser_from`` of the time (or ``passes``, if sooner) for the proof of the
    same position under looser rules: passes under them until ``looser_passes``, then
    (if none decided, and with ``exhaustive_probe`` set) the real rules' exhaustive
    search capped at that many states, then their exhaustive search until ``looser``;
    only a ``lost`` counts (a search whose runner knows such rules: the native
    Klondike). The ``*_seconds`` fields end a stage sooner in a search bounded by time alone;
    there a pass the end of the passes cut is searched again at its limit when they
    resume."""

    passes: float = 0.5
    """The share of the time by which the discrepancy passes end."""
    passes_seconds: float = math.inf
    """In a search bounded by time alone (``Budget.deadlined``), the passes also end this
    many seconds after its start, not counting the proof under looser rules, if sooner
    than ``passes`` (not in one capped by states, or bounded by nothing: what it
    searches must not depend on the machine's speed or load)."""
    plain: int = 64
    """The most discrepancy passes (limits 0 .. plain - 1, unless ``widen``)."""
    widen: float = 0.0
    """0: the passes' limits are 0, 1, 2, ...; else the step from one pass's limit to the
    next doubles whenever a pass searched fewer than ``widen`` times the states of the
    pass before it, and is 1 again when a pass grew faster (``Limits``). A pass searches
    again everything the pass before it did: once the tree hardly grows with its limit,
    passes one apart cost nearly the same, and dozens of them cost dozens of times the
    last (three 50039: 58 passes of about 23,000 states each, to the pass that cut
    nothing and so proved the loss, 1.3 s; the search of that pass alone, 0.03 s)."""
    step: int = 1
    """The least step between two passes' limits, and the first limit's distance from
    -1 (step 3: limits 2, 5, 8, ... where ``widen`` does not double the step). Each
    pass searches again what the one before it did, and a pass one discrepancy wider
    than the last has often only about twice its states: most of a deal won at once is
    then the passes before the winning one (``Limits``)."""
    probe: int = 0
    """States for a capped depth-first probe before the passes (0: none); the restarts'
    caps grow from it, too."""
    restarts: float = 0.0
    """The share of the time up to which jittered restarts run after the passes."""
    restart_limit: int | None = None
    """Each restart's discrepancy limit, or None: a depth-first search capped at
    ``probe * 2 ** (1 + k // 2)`` states for the k-th restart."""
    restart_slice: float | None = None
    """The most seconds of one restart (None: no limit but ``restarts``)."""
    shuffled: float = 0.0
    """The share of the time up to which shuffled restarts run after the jittered ones:
    depth-first searches that try the moves home first and the others in a random order
    (an adapter that knows such an order: Baker's Dozen), the k-th capped at
    ``shuffle_cap * luby(k)`` states. Where the adapter's order sinks under an early
    move, some of the many short searches in other orders win at once; Luby's caps
    (1, 1, 2, 1, 1, 2, 4, ...) spend about as much on each length of search, for wins
    that take a few thousand states or a million (docs/solver-log.md)."""
    shuffle_cap: int = 0
    """The unit of the shuffled restarts' caps."""
    looser: float = 0.0
    """The share of the time by which the proof under looser rules ends (0: none)."""
    looser_passes: float = 0.0
    """The share of the time by which discrepancy passes under the looser rules end,
    before their exhaustive search: a win under them ends that stage at once (it proves
    nothing), and the search under the real rules gets the rest of the time."""
    looser_passes_seconds: float = math.inf
    """In a search bounded by time alone, the passes under the looser rules also end
    this many seconds after its start, if sooner than ``looser_passes`` (as
    ``passes_seconds``)."""
    looser_from: float = 0.1
    """With ``looser``: the share of the time (at most ``passes``) after which the passes
    stop for the proof under looser rules; they go on after it, until ``passes``."""
    looser_from_seconds: float = math.inf
    """In a search bounded by time alone, the passes also stop for the proof under
    looser rules this many seconds after its start, if sooner than ``looser_from`` (as
    ``passes_seconds``)."""
    exhaustive_probe: int = 0
    """With ``looser``: the states of an exhaustive search under the real rules, capped,
    after the looser passes when they did not decide, before the looser exhaustive
    search (0: none; none either in a search bounded by states alone,
    ``Budget.untimed``). A deal whose looser game the passes win goes on to the real
    rules' passes and exhaustive search, which searches all that the capped one would."""
    best: float = 0.0
    """The share of the time by which the best-first searches (``best.py``) end: one per
    estimate of the adapter, one after another, each until its equal part (0: none)."""
    estimates: int = 0
    """How many estimates the adapter rates states with (``Adapter.estimate``)."""
    classes: float = 0.0
    """The share of the time by which the search by classes of states ends, after the
    shuffled restarts (0: none; Baker's Dozen with Kings to the bottom, whose native
    runner has it: ``_bd_classes.h``). It meets each class of states that
    rearranging built cards connects once, so it proves losses whose proofs state by
    state are far too large, and finds wins the searches of states sink under."""


@dataclass
class Budget:
    """What one search may spend: until ``deadline``, at most ``max_states`` states
    (None: any), and it stops when ``cancel`` is set; ``states`` counts what it spent."""

    start: float
    deadline: float
    max_states: int | None = None
    cancel: threading.Event | None = None
    states: int = 0
    window: float | None = None
    """The seconds from ``start`` that the schedule's stages are laid over (None: up to
    the deadline). A caller that may have to stop early, yet wants the stages of a
    longer search, gives both: its answer then does not depend on the time it had,
    unless the deadline cuts the search short (the fair advisor's sampled solves)."""

    @classmethod
    def until(
        cls,
        deadline: float,
        max_states: int | None = None,
        cancel: threading.Event | None = None,
    ) -> Budget:
        """A budget from now until ``deadline``."""
        return cls(clock.now(), deadline, max_states, cancel)

    def untimed(self) -> bool:
        """Whether only the states (and the cancel event) bound this search: its answer is
        then the same on every machine. Its schedule's shares are then shares of the
        states, not of the time."""
        return math.isinf(self.deadline) and self.max_states is not None

    def deadlined(self) -> bool:
        """Whether time alone bounds this search, a finite deadline and no cap on states:
        its stages in seconds apply. A search capped by states keeps its shares (of its
        time, if it has a deadline too: ``solve(max_states=...)``), so that what it
        searches does not hang on the machine's load."""
        return self.max_states is None and math.isfinite(self.deadline)

    def now(self) -> float:
        """Where the search is: the time, or the states spent when it is untimed."""
        return self.states if self.untimed() else clock.now()

    def at(self, share: float) -> float:
        """Where ``share`` of the budget has passed (a time, or untimed a count of states)."""
        if self.untimed():
            assert self.max_states is not None
            return self.max_states * share
        span = self.deadline - self.start if self.window is None else self.window
        return self.start + span * share

    def left(self) -> int | None:
        """States left (None: no limit)."""
        return None if self.max_states is None else max(0, self.max_states - self.states)

    def cancelled(self) -> bool:
        """Whether the caller's cancel event is set."""
        return self.cancel is not None and self.cancel.is_set()

    def spent(self) -> bool:
        """Whether the search must stop: cancelled, out of states, or out of time."""
        if self.max_states is not None and self.states >= self.max_states:
            return True
        return self.cancelled() or clock.now() >= self.deadline


def for_budget(schedule: Schedule, budget: Budget) -> Schedule:
    """``schedule`` for a search that runs it by itself (Hopscotch's native one) within
    ``budget``: with no time limit, no stage is cut by a time slice either (a slice would
    make the answer depend on the machine's speed); with a ``window``, the shares that
    end its stages are of the window, given as shares of the time it has."""
    if budget.untimed() and schedule.restart_slice is not None:
        return replace(schedule, restart_slice=math.inf)
    span = budget.deadline - budget.start
    if budget.window is not None and not budget.untimed() and span > 0:

        def of_time(share: float) -> float:
            return min(1.0, (budget.at(share) - budget.start) / span)

        return replace(
            schedule, passes=of_time(schedule.passes), restarts=of_time(schedule.restarts)
        )
    return schedule


class Stage(NamedTuple):
    """One stage of a schedule, for a runner to search."""

    until: float
    """When it must end (``clock.now()``)."""
    limit: int | None = None
    """Its discrepancy limit (None: none)."""
    cap: int | None = None
    """At most this many states (besides the budget's own limit)."""
    seed: int = 0
    """The k-th jittered restart (0: the adapter's own order)."""
    looser: bool = False
    """The same position under looser rules (only its ``lost`` counts)."""
    estimate: int | None = None
    """Best-first with the adapter's estimate of this number instead of depth-first."""
    shuffle: bool = False
    """The k-th (``seed``) shuffled order instead of a jittered one."""
    classes: bool = False
    """The search by classes of states."""


class Limits:
    """The discrepancy limits of a schedule's passes, at most ``count`` of them: 0, 1, 2,
    ... or, with ``widen``, a step that doubles while the passes grow by less than that
    factor (``Schedule.widen``); with ``step``, from ``step - 1`` on, never a smaller
    step (``Schedule.step``). Which limits are tried decides only how soon a pass
    ends the search: each pass's verdict is a proof at any limit (a win with its line, a
    loss only when its limit cut nothing)."""

    def __init__(self, count: int, widen: float, step: int = 1) -> None:
        self.left, self.widen, self.least = count, widen, step
        self.limit, self.step = -1, step
        self.before: int | None = None

    def next(self) -> int | None:
        """The next pass's limit, or None when the passes are spent."""
        if self.left <= 0:
            return None
        self.left -= 1
        self.limit += self.step
        return self.limit

    def again(self) -> None:
        """The limit last drawn is drawn again next (its pass did not run, or was cut)."""
        self.left += 1
        self.limit -= self.step

    def searched(self, states: int) -> None:
        """The pass at the last limit searched ``states`` states: the step for the next."""
        if self.widen and self.before is not None and states < self.widen * self.before:
            self.step = min(self.step * 2, 1 << 20)  # the limits stay within a C int
        else:
            self.step = self.least
        self.before = states


Outcome = tuple[Verdict, list[Move], int]
"""(verdict, winning line or [], states searched)."""

Runner = Callable[[Stage, int | None], Outcome]
"""Searches one stage with at most the given states (None: any)."""


def luby(k: int) -> int:
    """The k-th term (from 1) of Luby, Sinclair and Zuckerman's restart sequence: 1, 1, 2,
    1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (within a constant of the best restart
    caps when nothing is known of how long a search takes)."""
    size = 1
    while size < k:
        size = 2 * size + 1
    while size != k:
        size //= 2
        k -= size if k > size else 0
    return (size + 1) // 2


def passes_end(share: float, seconds: float, budget: Budget) -> float:
    """Where passes end: at ``share`` of the budget, or in a search bounded by time alone
    (``Budget.deadlined``) ``seconds`` after its start if sooner
    (``Schedule.passes_seconds``)."""
    end = budget.at(share)
    return min(end, budget.start + seconds) if budget.deadlined() else end


def run(schedule: Schedule, budget: Budget, runner: Runner) -> tuple[Verdict, list[Move]]:
    """Run ``schedule`` on ``runner`` within ``budget``: the verdict and the winning line
    (the states go to ``budget.states``). A stage starts only while the budget lasts."""
    verdict, moves = Verdict.UNKNOWN, list[Move]()

    def stage(s: Stage) -> tuple[Verdict, list[Move]]:
        left = budget.left()
        if s.cap is not None:
            left = s.cap if left is None else min(s.cap, left)
        if budget.untimed():
            # ``until`` counts states: the stage gets the states up to it, and no deadline.
            if left is not None and not math.isinf(s.until):
                left = min(left, max(int(s.until - budget.states), 0))
            s = s._replace(until=math.inf)
        found, line, n = runner(s, left)
        budget.states += n
        return found, line

    limits = Limits(schedule.plain, schedule.widen, schedule.step)

    def passes(end: float) -> None:
        nonlocal verdict, moves
        # A limit is drawn before the budget is looked at; with a deadline, one whose
        # pass did not run or was cut by ``end`` is drawn again when the passes resume.
        while (limit := limits.next()) is not None:
            if verdict != Verdict.UNKNOWN or budget.now() >= end or budget.spent():
                if budget.deadlined():
                    limits.again()
                return
            states = budget.states
            verdict, moves = stage(Stage(min(end, budget.deadline), limit))
            if budget.deadlined() and verdict == Verdict.UNKNOWN and budget.now() >= end:
                limits.again()
                return
            limits.searched(budget.states - states)

    def looser() -> None:
        """The looser proof (a win proves nothing, and ends it); the capped probe."""
        nonlocal verdict, moves
        end = passes_end(schedule.looser_passes, schedule.looser_passes_seconds, budget)
        looser_limits = Limits(schedule.plain, schedule.widen, schedule.step)
        while (limit := looser_limits.next()) is not None:
            if budget.now() >= end or budget.spent():
                break
            states = budget.states
            found = stage(Stage(min(end, budget.deadline), limit, looser=True))[0]
            looser_limits.searched(budget.states - states)
            if found != Verdict.UNKNOWN:
                verdict = Verdict.LOST if found == Verdict.LOST else verdict
                return
        if schedule.exhaustive_probe and not budget.untimed() and not budget.spent():
            # Capped; not bounded by states alone (the fair advisor's: it is all of them).
            verdict, moves = stage(Stage(budget.deadline, cap=schedule.exhaustive_probe))
        if verdict == Verdict.UNKNOWN and not budget.spent():
            found = stage(Stage(budget.at(schedule.looser), looser=True))[0]
            verdict = Verdict.LOST if found == Verdict.LOST else verdict

    lds_end = passes_end(schedule.passes, schedule.passes_seconds, budget)
    if schedule.probe and not budget.spent():
        verdict, moves = stage(Stage(budget.deadline, cap=schedule.probe))
    for which in range(schedule.estimates if schedule.best else 0):
        until = budget.at(schedule.best * (which + 1) / schedule.estimates)
        if verdict != Verdict.UNKNOWN or budget.now() >= until or budget.spent():
            continue
        verdict, moves = stage(Stage(min(until, budget.deadline), estimate=which))
    if schedule.looser:
        stop = passes_end(schedule.looser_from, schedule.looser_from_seconds, budget)
        passes(min(lds_end, stop))
        if verdict == Verdict.UNKNOWN and not budget.spent():
            away = budget.now()
            looser()  # with a deadline, its seconds are not the passes' (three 50010)
            away = budget.now() - away
            lds_end = passes_end(schedule.passes, schedule.passes_seconds + away, budget)
    passes(lds_end)
    restart_end = budget.at(schedule.restarts)
    seed = 0
    while verdict == Verdict.UNKNOWN and budget.now() < restart_end and not budget.spent():
        seed += 1
        until = min(restart_end, budget.deadline)
        if schedule.restart_slice is not None and not budget.untimed():
            until = min(until, clock.now() + schedule.restart_slice)
        if schedule.restart_limit is None:
            restart = Stage(until, cap=schedule.probe * 2 ** (1 + seed // 2), seed=seed)
        else:
            restart = Stage(until, schedule.restart_limit, seed=seed)
        verdict, moves = stage(restart)
    shuffle_end = budget.at(schedule.shuffled)
    k = 0
    while verdict == Verdict.UNKNOWN and budget.now() < shuffle_end and not budget.spent():
        seed, k = seed + 1, k + 1
        until = min(shuffle_end, budget.deadline)
        cap = schedule.shuffle_cap * luby(k)
        verdict, moves = stage(Stage(until, cap=cap, seed=seed, shuffle=True))
    if schedule.classes and verdict == Verdict.UNKNOWN and not budget.spent():
        until = min(budget.at(schedule.classes), budget.deadline)
        verdict, moves = stage(Stage(until, classes=True))
    if verdict == Verdict.UNKNOWN and not budget.spent():
        verdict, moves = stage(Stage(budget.deadline))
    return verdict, moves
