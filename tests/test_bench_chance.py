"""bench/chance.py: the schedule it sets is the one the searches run, and only inside."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from patience.games import get_game
from patience.solver import search

_BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(_BENCH))  # chance.py imports solver.py beside it
_spec = importlib.util.spec_from_file_location("chance", _BENCH / "chance.py")
assert _spec is not None and _spec.loader is not None
chance = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chance)
sys.path.remove(str(_BENCH))


def test_the_passes_share_holds_inside_and_is_undone_after() -> None:
    game = get_game("klondike", {"mode": "no-redeal"})
    own = search.adapter_for(game).schedule
    with chance.passes_until(0.4):
        assert search.adapter_for(game).schedule.passes == 0.4
        assert search.adapter_for(game).schedule.looser == own.looser
    assert search.adapter_for(game).schedule == own
    with chance.passes_until(None):
        assert search.adapter_for(game).schedule == own


def test_one_deal_measured_counts_every_arrangement() -> None:
    found = chance.positions("klondike", {"mode": "no-redeal"}, 1)
    assert [deal for deal, _, _ in found] == [1] * len(found) and found
    line = chance.measure(found[:1], 0.03)
    counts = [int(n) for n in re.findall(r"(\d+) (?:won|lost|undecided)", line)]
    assert len(counts) == 3 and 0 < sum(counts) <= 30, line
