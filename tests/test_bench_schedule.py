"""bench/schedule.py and bench/chance.py: the schedule a bench sets is the one the
searches run, only inside, and a measured deal counts every arrangement."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from patience.games import get_game
from patience.solver import search

_BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str) -> ModuleType:
    # A bench imports the scripts beside it, and puts its folder on the path to do so:
    # the path is given back as it was, for the other tests.
    saved = list(sys.path)
    sys.path.insert(0, str(_BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, _BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = saved


schedule = _load("schedule")
chance = _load("chance")


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
    line = chance.measure(found[:1], 0.03)
    counts = [int(n) for n in re.findall(r"(\d+) (?:won|lost|undecided)", line)]
    assert len(counts) == 3 and 0 < sum(counts) <= 30, line
