"""The schedule's capped exhaustive search before the looser proof (``Schedule.
exhaustive_probe``): where it runs, what it may spend, and that its verdict ends the
search; and draw 1 unlimited's passes in a timed search (``klondike.timed_passes``)."""

from __future__ import annotations

import time

from patience import get_game
from patience.moves import Move
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


def test_unlimited_passes_end_after_a_fixed_time_only_in_a_timed_search() -> None:
    # Draw 1 with unlimited redeals: a timed search's passes end after PASSES_SECONDS
    # when that is sooner than their share (a loss no pass proves paid the share first).
    def passes(budget: Budget, mode: str = "unlimited") -> float:
        adapter = adapter_for(get_game("klondike", {"mode": mode}))
        adapter.runner(get_game("klondike", {"mode": mode}).new_position(1), budget, 1000)
        return adapter.schedule.passes

    assert passes(Budget(0.0, 30.0)) == PASSES_SECONDS / 30 < 0.05
    assert passes(Budget(0.0, 30.0, window=60.0)) == PASSES_SECONDS / 60  # the window's
    assert passes(Budget(0.0, 2.0)) == 0.05  # a hint's 2 s: the share is sooner
    # Bounded by states alone (the fair advisor, the daily deal) or by nothing: the
    # share, so their answers are what they were.
    assert passes(Budget(0.0, float("inf"), max_states=20_000)) == 0.05
    assert passes(Budget(0.0, float("inf"))) == 0.05
    assert passes(Budget(0.0, 30.0), "three") == 0.02  # the other modes keep theirs
