"""The schedule's capped exhaustive search before the looser proof (``Schedule.
exhaustive_probe``): where it runs, what it may spend, and that its verdict ends the
search; and the passes ended after a time in a timed search (``Schedule.passes_seconds``)."""

from __future__ import annotations

import math
import time
from dataclasses import replace

from patience import get_game
from patience.moves import Move
from patience.solver import clock
from patience.solver.klondike import PASSES_SECONDS
from patience.solver.schedule import Budget, Runner, Schedule, Stage, Verdict, run
from patience.solver.search import adapter_for

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


def test_passes_seconds_end_the_passes_only_in_a_search_with_a_deadline() -> None:
    # Draw 1 with unlimited redeals: a timed search's passes end after PASSES_SECONDS
    # when that is sooner than their share (a loss no pass proves paid the share first).
    ends: list[float] = []
    lefts: list[int | None] = []

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        if stage.limit is not None:
            ends.append(stage.until)
            lefts.append(states)
        return Verdict.UNKNOWN, [], 10

    plan = adapter_for(get_game("klondike", {"mode": "unlimited"})).schedule
    assert plan.passes_seconds == PASSES_SECONDS
    budget = Budget.until(clock.now() + 30.0)
    run(replace(plan, plain=1), budget, runner)
    assert ends == [budget.start + PASSES_SECONDS]  # sooner than 0.05 of 30 s
    ends.clear()
    budget = Budget.until(clock.now() + 2.0)
    run(replace(plan, plain=1), budget, runner)
    assert ends == [budget.at(plan.passes)]  # a hint's 2 s: the share is sooner
    # Bounded by states alone (the fair advisor, the daily deal) or by nothing: the
    # share, so that their answers do not depend on the machine's speed.
    ends.clear()
    run(replace(plan, plain=1), Budget(0.0, math.inf, max_states=20_000), runner)
    assert lefts[-1] == 20_000 * plan.passes
    run(replace(plan, plain=1), Budget(clock.now(), math.inf), runner)
    assert ends[-1] == math.inf
    # The other modes end their passes by their share alone.
    three = adapter_for(get_game("klondike", {"mode": "three"})).schedule
    assert three.passes_seconds == math.inf
