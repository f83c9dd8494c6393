"""bench/schedule.py and bench/chance.py: the schedule a bench sets is the one the
searches run, only inside, a measured deal counts every arrangement, and the chance is
set against the real outcomes group by group."""

from __future__ import annotations

import re

import pytest

from bench_scripts import load_bench
from patience.fair.advisor import Estimate, advise
from patience.fair_assist import HINT
from patience.games import get_game
from patience.solver import clock, search

schedule = load_bench("schedule")
chance = load_bench("chance")


def test_a_varied_schedule_holds_inside_and_is_undone_after() -> None:
    game = get_game("klondike", {"mode": "no-redeal"})
    own = search.adapter_for(game).schedule
    with schedule.schedule_with(schedule.variant("looser=0.9,plain=3")):
        varied = search.adapter_for(game).schedule
        assert (varied.looser, varied.plain, varied.passes) == (0.9, 3, own.passes)
    assert search.adapter_for(game).schedule == own
    with schedule.schedule_with({}):
        assert search.adapter_for(game).schedule == own


def test_an_unknown_schedule_field_is_named() -> None:
    with pytest.raises(SystemExit, match="unknown schedule field 'pases'"):
        schedule.variant("pases=0.1")


def test_one_deal_measured_counts_every_arrangement() -> None:
    found = chance.positions("klondike", {"mode": "no-redeal"}, 1)
    assert [deal for deal, _, _ in found] == [1] * len(found) and found
    line, estimates = chance.measure(found[:1], 0.03)
    counts = [int(n) for n in re.findall(r"(\d+) (?:won|lost|undecided)", line)]
    assert len(counts) == 3 and 0 < sum(counts) <= 30, line
    assert [e.samples for e in estimates] == [sum(counts)]


def test_the_chance_shown_is_set_against_the_real_outcomes() -> None:
    estimates = [
        Estimate(9, 1),
        Estimate(8, 2, 2),
        Estimate(1, 3),
        Estimate(0, 0, 5),
        Estimate(3, 1),
    ]
    verdicts = ["won", "lost", "lost", "won", "unknown"]
    lines = chance.calibration(estimates, verdicts)
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    # 90% and 80% shown, one of the two won; 25% shown, lost; the rest counted apart.
    assert rows["80%-100%"][:3] == ["2", "0.850", "0.500"]
    assert rows["20%-40%"][:3] == ["1", "0.250", "0.000"]
    assert rows["all"][:3] == ["3", "0.650", "0.333"]
    brier = ((0.9 - 1) ** 2 + 0.8**2 + 0.25**2) / 3
    # Counted lost, the two undecided arrangements take the 80% down to 8 of 12.
    low = ((0.9 - 1) ** 2 + (8 / 12) ** 2 + 0.25**2) / 3
    assert lines[-1] == (
        f"    Brier score {brier:.3f} ({low:.3f} with undecided arrangements counted lost);"
        " 2 positions apart (undecided)"
    )


def test_the_undecided_arrangements_are_solved_again_one_per_position() -> None:
    found = chance.positions("klondike", {"mode": "no-redeal"}, 1)
    line = chance.undecided(found, 0.5)
    counts = [int(n) for n in re.findall(r"(\d+) (?:won|lost|still undecided)", line)]
    assert len(counts) == 3 and sum(counts) <= len(found), line


def test_the_hints_chance_belongs_to_the_position_its_plan_leads_to() -> None:
    found = chance.positions("klondike", {"mode": "three"}, 1)[:2]
    line, estimates, after = chance.hints(found)
    assert "hints: mean chance" in line and len(estimates) == len(after) == 2
    first = found[0][1]
    assert [deal for deal, _, _ in after] == [1, 1]
    # The page's Hint on the first position (on CPU time, as the bench asks it): its
    # plan played leads to the first "after".
    with clock.cpu_time():
        plan = advise(first, found[0][2], HINT, seed=1).plan
    q = first
    for m in plan:
        q = chance.game_for(q).apply(q, m)
    assert after[0][1] == q
