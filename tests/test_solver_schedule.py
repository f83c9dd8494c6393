"""The schedule's capped exhaustive search before the looser proof (``Schedule.
exhaustive_probe``): where it runs, what it may spend, and that its verdict ends the
search; and the passes, and the looser rules' passes, ended after a time in a timed
search (``Schedule.passes_seconds``, ``Schedule.looser_passes_seconds``)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from patience import get_game
from patience.moves import Move
from patience.rules import Game
from patience.solver import clock, search, solve
from patience.solver.base import Adapter
from patience.solver.klondike import PASSES_SECONDS, THREE_SECONDS
from patience.solver.schedule import Budget, Runner, Schedule, Stage, Verdict, run
from patience.solver.search import adapter_for


@contextmanager
def schedule_with(schedule: Schedule) -> Iterator[None]:
    """Every search runs ``schedule``."""
    original = search.adapter_for

    def adapter_for(game: Game) -> Adapter:
        adapter = original(game)
        adapter.schedule = schedule
        return adapter

    search.adapter_for = adapter_for
    try:
        yield
    finally:
        search.adapter_for = original


Seen = list[tuple[int | None, int | None, bool, int | None]]


def recording(seen: Seen, says: Verdict = Verdict.UNKNOWN) -> Runner:
    """A runner that records each stage (limit, cap, looser, the states it may spend),
    spends 10 states, and answers ``says`` on a capped stage under the real rules."""

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        seen.append((stage.limit, stage.cap, stage.looser, states))
        capped = stage.cap is not None and not stage.looser
        return (says if capped else Verdict.UNKNOWN), [], 10

    return runner


def test_the_exhaustive_probe_runs_capped_between_the_passes_and_the_looser_proof() -> None:
    # (With no looser passes: looser_passes is 0.)
    seen: Seen = []
    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=2, looser=1.0, exhaustive_probe=700)
    assert run(plan, Budget.until(far), recording(seen)) == (Verdict.UNKNOWN, [])
    assert seen == [(0, None, False, None), (1, None, False, None),
                    (None, 700, False, 700),  # the probe, capped
                    (None, None, True, None), (None, None, False, None)]  # fmt: skip
    # Under a budget of states, it gets at most what is left.
    seen.clear()
    run(plan, Budget.until(far, max_states=100), recording(seen))
    assert seen[2] == (None, 700, False, 80)
    # Bounded by states alone (the fair advisor's solves), it does not run: its cap
    # would be all of a small budget, which the looser proof's share had.
    seen.clear()
    run(plan, Budget(0.0, float("inf"), max_states=20_000), recording(seen))
    assert all(cap is None for _, cap, looser, _ in seen if not looser)
    # Without it (the default), the looser proof follows the passes.
    seen.clear()
    run(Schedule(passes=1.0, plain=2, looser=1.0), Budget.until(far), recording(seen))
    assert [s[1] for s in seen] == [None] * 4


def test_the_probes_verdict_ends_the_search() -> None:
    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=2, looser=1.0, exhaustive_probe=700)
    for says in (Verdict.LOST, Verdict.WON):
        seen: Seen = []
        assert run(plan, Budget.until(far), recording(seen, says))[0] == says
        assert seen[-1] == (None, 700, False, 700)  # no looser proof, nothing after


def test_only_a_klondike_mode_with_a_looser_proof_probes() -> None:
    # Draw 3 probes (its losses whose own proof is small and the looser one large, as
    # deal 8498's: 200,076 states against 25 million); draw 1 unlimited has no looser
    # proof to run before.
    def probe(mode: str) -> int:
        return adapter_for(get_game("klondike", {"mode": mode})).schedule.exhaustive_probe

    assert probe("three") > 0
    assert probe("unlimited") == 0


def pass_ends(plan: Schedule, budget: Budget, looser: bool) -> tuple[list[float], list[int | None]]:
    """``run(plan, budget)`` with a runner that spends 10 states a stage and decides
    nothing: where each pass (under the looser rules, with ``looser``; else the real
    rules') was told to end, and the states each might spend."""
    ends: list[float] = []
    lefts: list[int | None] = []

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        if stage.limit is not None and stage.looser == looser:
            ends.append(stage.until)
            lefts.append(states)
        return Verdict.UNKNOWN, [], 10

    run(plan, budget, runner)
    return ends, lefts


def test_passes_seconds_end_the_passes_only_in_a_search_with_a_deadline() -> None:
    # Draw 1 with unlimited redeals: a timed search's passes end after PASSES_SECONDS
    # when that is sooner than their share (a loss no pass proves paid the share first).
    plan = replace(adapter_for(get_game("klondike", {"mode": "unlimited"})).schedule, plain=1)
    assert plan.passes_seconds == PASSES_SECONDS
    budget = Budget.until(clock.now() + 30.0)
    assert pass_ends(plan, budget, False)[0] == [budget.start + PASSES_SECONDS]  # < 0.05 of 30 s
    budget = Budget.until(clock.now() + 2.0)
    assert pass_ends(plan, budget, False)[0] == [budget.at(plan.passes)]  # a hint's 2 s: the share
    # Bounded by states alone (the fair advisor, the daily deal) or by nothing: the
    # share, so that their answers do not depend on the machine's speed.
    _, lefts = pass_ends(plan, Budget(0.0, math.inf, max_states=20_000), False)
    assert lefts[-1] == 20_000 * plan.passes
    assert pass_ends(plan, Budget(clock.now(), math.inf), False)[0][-1] == math.inf
    # Capped by states with a deadline too (``solve(max_states=...)``, the tests' solves
    # of 20,000 states): the share of the time, whatever the machine's load (a cap of
    # 0.15 s made the lines the tests follow hang on it).
    budget = Budget.until(clock.now() + 30.0, max_states=20_000)
    ends, _ = pass_ends(plan, budget, False)
    assert ends[-1] == budget.at(plan.passes) > budget.start + PASSES_SECONDS
    # Single ends its passes by its share alone.
    single = adapter_for(get_game("klondike", {"mode": "single"})).schedule
    assert single.passes_seconds == math.inf


def test_draw_3s_stages_in_seconds_leave_a_search_bounded_by_states_as_it_was() -> None:
    # Draw 3 stops its passes, ends them and its looser passes after fixed times in a
    # timed search (THREE_SECONDS); a solve bounded by states alone (the fair advisor's
    # 20,000 states) searches the same states to the same verdict with them or without.
    game = get_game("klondike", {"mode": "three"})
    plan = adapter_for(game).schedule
    assert (plan.looser_from_seconds, plan.passes_seconds, plan.looser_passes_seconds) == (
        THREE_SECONDS
    )
    shares = replace(plan, looser_from_seconds=math.inf, passes_seconds=math.inf,
                     looser_passes_seconds=math.inf)  # fmt: skip
    for deal in (1, 2, 3, 4, 5, 6):
        position = game.new_position(deal)
        runs = []
        for schedule in (plan, shares):
            with schedule_with(schedule):
                runs.append(solve(position, timeout=None, max_states=20_000, check=False))
        assert (runs[0].result, runs[0].states) == (runs[1].result, runs[1].states)


def looser_says(seen: Seen, says: Verdict) -> Runner:
    """A runner that records each stage as ``recording`` does, spends 10 states, and
    answers ``says`` on the looser rules' passes (unknown elsewhere)."""

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        seen.append((stage.limit, stage.cap, stage.looser, states))
        return (says if stage.looser and stage.limit is not None else Verdict.UNKNOWN), [], 10

    return runner


def test_the_exhaustive_probe_follows_the_looser_passes() -> None:
    # A deal whose looser game its passes win goes on to the passes and the exhaustive
    # search under the real rules, which search all that the capped one would: the probe
    # would have been spent for nothing. One the looser passes do not decide gets it,
    # before the looser exhaustive search.
    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=2, looser=1.0, looser_passes=1.0, exhaustive_probe=700)
    seen: Seen = []
    assert run(plan, Budget.until(far), looser_says(seen, Verdict.UNKNOWN))[0] == Verdict.UNKNOWN
    assert seen == [(0, None, False, None), (1, None, False, None),
                    (0, None, True, None), (1, None, True, None),  # the looser passes
                    (None, 700, False, 700),  # the probe
                    (None, None, True, None), (None, None, False, None)]  # fmt: skip
    seen.clear()
    assert run(plan, Budget.until(far), looser_says(seen, Verdict.WON))[0] == Verdict.UNKNOWN
    assert seen == [(0, None, False, None), (1, None, False, None),
                    (0, None, True, None),  # won under the looser rules: no probe
                    (None, None, False, None)]  # fmt: skip
    seen.clear()
    assert run(plan, Budget.until(far), looser_says(seen, Verdict.LOST))[0] == Verdict.LOST
    assert seen[-1] == (0, None, True, None)  # lost under the looser rules: the end
    # Bounded by states alone (the fair advisor's solves): no probe, each stage with the
    # states it had before the probe moved (the looser passes, then their exhaustive
    # search at once).
    seen.clear()
    plan = replace(plan, passes=0.5, looser=0.9, looser_passes=0.6, looser_from=0.2)
    run(plan, Budget(0.0, math.inf, max_states=20_000), looser_says(seen, Verdict.UNKNOWN))
    assert seen == [(0, None, False, 4000), (1, None, False, 3990),
                    (0, None, True, 11980), (1, None, True, 11970),
                    (None, None, True, 17960), (None, None, False, 19950)]  # fmt: skip


def test_looser_passes_seconds_end_the_looser_passes_only_in_a_search_with_a_deadline() -> None:
    plan = Schedule(passes=0.0, plain=1, looser=0.9, looser_passes=0.05,
                    looser_from=0.0, looser_passes_seconds=0.5)  # fmt: skip
    budget = Budget.until(clock.now() + 30.0)
    assert pass_ends(plan, budget, True)[0] == [budget.start + 0.5]  # sooner than 0.05 of 30 s
    budget = Budget.until(clock.now() + 2.0)
    # A hint's 2 s: the share is sooner.
    assert pass_ends(plan, budget, True)[0] == [budget.at(plan.looser_passes)]
    # Bounded by states alone (the fair advisor's solves) or by nothing: the share.
    _, lefts = pass_ends(plan, Budget(0.0, math.inf, max_states=20_000), True)
    assert lefts[-1] == 20_000 * plan.looser_passes
    assert pass_ends(plan, Budget(clock.now(), math.inf), True)[0][-1] == math.inf


def test_a_pass_cut_by_the_passes_end_is_searched_again_when_they_resume(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With a deadline, the passes before the looser proof end after a time: the pass
    # they cut proved nothing at its limit, so the passes after the proof start from it
    # (three 21903: cut at 0.1 s, won at its limit in 0.22 s; at the next limit not
    # within 0.5 s, and by the exhaustive search only in 10 s). A clock that moves one
    # second a stage: the passes stop at 2 s, the looser proof runs, they end at 5 s.
    now = [0.0]
    monkeypatch.setattr(clock, "now", lambda: now[0])
    limits: list[int | None] = []

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        if not stage.looser:
            limits.append(stage.limit)
        now[0] += 1.0
        return Verdict.UNKNOWN, [], 10

    plan = Schedule(passes=0.05, plain=10, looser=0.9, looser_from=0.02, looser_passes=0.0)
    run(plan, Budget(0.0, 100.0), runner)
    assert limits == [0, 1, 1, 2, None]  # 1 cut at 2 s, searched again; then exhaustive
    # The same in seconds, with a looser proof of 10 s: the passes' 4 s do not count it
    # (three 50010: its looser passes took 0.33 s, and the passes its win).
    limits.clear()
    slow = replace(plan, passes=0.5, passes_seconds=4.0, looser_from_seconds=2.0)

    def looser_takes_10_s(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        now[0] += 9.0 if stage.looser else 0.0
        return runner(stage, states)

    now[0] = 0.0
    run(slow, Budget(0.0, 100.0), looser_takes_10_s)
    assert limits == [0, 1, 1, 2, None]
    # Bounded by states alone (the fair advisor's solves): as before, from the limit
    # after the one drawn when the passes stopped.
    limits.clear()
    run(plan, Budget(0.0, math.inf, max_states=1000), runner)  # 10 states a stage
    assert limits == [0, 1, 3, 4, None]
