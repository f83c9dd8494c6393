"""The native Hopscotch search (``solver/_hopscotch.c``) runs the labelled search of
``hopscotch_labels.LabelledSearch``: the same lines after the same states where no
budget cuts a pass, the same verdicts from the exhaustive pass, and budgets, cancel
and the interpreter lock kept.

``solve`` replays every winning line through the engine's checked ``play``; the Python
search is checked in turn against the plain generic search (test_solver_hopscotch.py)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine_builders import random_play
from native_checks import LONG, assert_a_signal_interrupts, assert_runs_beside, long_search
from patience import Position, game_for, new_game
from patience.games import position_to_json
from patience.solver import hopscotch, hopscotch_labels, solve
from patience.solver.hopscotch import HopscotchAdapter, native_decide
from patience.solver.schedule import Budget, run
from patience.solver.search import decide, replay

pytestmark = pytest.mark.native

if hopscotch.native is None:  # pragma: no cover - a machine with no C compiler
    if os.environ.get("CI"):
        pytest.fail("the native Hopscotch solver was not built (no C compiler?)", pytrace=False)
    pytest.skip("the native Hopscotch solver was not built", allow_module_level=True)

EXHAUSTIVE = replace(hopscotch.SCHEDULE, passes=0.0, restarts=0.0)
"""The exhaustive pass alone."""


def hard() -> Position:
    """A deal the native search does not decide in ``LONG`` seconds (34 today)."""
    return long_search("hopscotch", 34)


UNSLICED = replace(hopscotch.SCHEDULE, restart_slice=60.0)
"""The schedule with probes that no time slice cuts short at another point in one
search than in the other (the speeds differ, and the machine may be busy)."""


def python_search(p: Position, seconds: float = 30.0) -> tuple[str, list, int]:
    """The pure-Python labelled search, whole schedule (``UNSLICED``)."""
    budget = Budget.until(time.monotonic() + seconds)
    solver = hopscotch_labels.LabelledSearch(p, budget, 2_000_000)
    verdict, moves = run(UNSLICED, budget, solver.stage)
    return verdict, moves, budget.states


def python_exhaustive(p: Position, max_states: int = 5_000, seconds: float = 0.5) -> str:
    """The pure-Python exhaustive pass alone ("unknown" when its budget ran out)."""
    budget = Budget.until(time.monotonic() + 30, max_states)
    search = hopscotch_labels.LabelledSearch(p, budget, 2_000_000)
    verdict = search.pass_(None, time.monotonic() + seconds)
    return verdict[0] if verdict else "unknown"


def wins(p: Position, moves: list) -> bool:
    """Whether ``moves`` replay through the engine from ``p`` to a won position."""
    end = replay(p, moves)
    return game_for(end).is_won(end)


def positions(rng: random.Random) -> Iterator[Position]:
    """Positions from real deals: late in random play (often lost), and along a winning
    line pushed off it by a few random moves (mostly won)."""
    for deal in range(1, 7):
        start = new_game("hopscotch", deal)
        g = game_for(start)
        yield random_play(start, rng.randint(70, 96), rng)
        verdict, line, _ = native_decide(start, time.monotonic() + 10)
        assert verdict == "won" and wins(start, line)
        for share in (0.4, 0.6, 0.8):
            p = start
            for m in line[: int(len(line) * share)]:
                p = g.play(p, m)
            yield random_play(p, rng.randint(0, 8), rng)


@pytest.mark.slow
def test_both_searches_find_the_same_lines() -> None:
    # Deals 2-12 are won by the plain discrepancy passes (12 by the first), deals 67 and
    # 139 by a probe (with the same jitter in both): the same children in the same order
    # give the same first win after the same states.
    for deal in [*range(2, 13), 67, 139]:
        p = new_game("hopscotch", deal)
        python = python_search(p)
        native = native_decide(p, time.monotonic() + 30, schedule=UNSLICED)
        assert python[0] == "won" and native == python, deal
        assert wins(p, native[1])


def test_the_same_lines_from_positions_with_reserve_cards() -> None:
    # Cards already on the reserves are labelled at the root, in the Python's order
    # (the Python takes seconds to label more than a dozen of them: fewer here).
    rng = random.Random("labellings")
    compared = 0
    for deal in range(1, 40):
        p = random_play(new_game("hopscotch", deal), rng.randint(20, 50), rng)
        native = native_decide(p, time.monotonic() + 5, max_states=3_000, schedule=UNSLICED)
        if native[0] == "unknown" or not 4 <= sum(map(len, p.reserve)) <= 12:
            continue
        assert python_search(p) == native, position_to_json(p)
        compared += 1
    assert compared >= 8, compared


@pytest.mark.slow
def test_native_and_python_searches_agree() -> None:
    rng = random.Random("native-hopscotch")
    seen = {"won": 0, "lost": 0}
    for p in positions(rng):
        python = python_exhaustive(p)
        if python == "unknown":
            continue
        verdict, moves, _ = native_decide(p, time.monotonic() + 10, schedule=EXHAUSTIVE)
        assert verdict == python, position_to_json(p)
        if verdict == "won":
            assert wins(p, moves)
        # The whole schedule, briefly: a loss may be left unproven, never a win claimed.
        quick = solve(p, timeout=0.2)
        assert quick.result in (python, "unknown"), position_to_json(p)
        if python == "won":
            assert quick.result == "won"
        seen[python] += 1
    assert seen["won"] >= 5 and seen["lost"] >= 3, seen


@pytest.mark.slow
def test_hard_deals_are_won() -> None:
    # Deals the pure-Python search leaves undecided in 30 s (0.4 and 2.6 million states
    # here, a few seconds): a budget far above that, as a busy machine may be slow.
    for deal in (35, 164):
        r = solve(new_game("hopscotch", deal), timeout=300)
        assert r.result == "won" and len(r.moves) >= 96, deal


def test_a_small_table_forgets_without_changing_the_line() -> None:
    # Deal 10 takes 18,193 states (plain pass 3); a table of 2,048 slots forgets most
    # of them, and a state searched again fails again: the same first win, later.
    p = new_game("hopscotch", 10)
    big = native_decide(p, time.monotonic() + 30)
    small = native_decide(p, time.monotonic() + 30, table_size=1_000)
    assert big[0] == "won" and small[1] == big[1]
    assert small[2] > big[2]


def test_state_budget_is_kept() -> None:
    # A win deals all 48 cards, one state each, and a won deal is never proven lost:
    # 47 states cannot decide a fresh deal.
    p = new_game("hopscotch", 34)
    verdict, moves, states = native_decide(p, time.monotonic() + 60, max_states=47)
    assert (verdict, moves) == ("unknown", [])
    assert states <= 48


def test_time_budget_is_kept() -> None:
    start = time.monotonic()
    solve(new_game("hopscotch", 34), timeout=0.3)  # decided or not, in time
    assert time.monotonic() - start < 1.5


def test_cancel_stops_the_search_promptly() -> None:
    p = hard()
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    start = time.monotonic()
    solve(p, timeout=60, cancel=cancel)  # decided or not, promptly
    assert time.monotonic() - start < 2
    # Set before it starts: it stops at its first look.
    assert native_decide(p, time.monotonic() + 60, cancel)[0] == "unknown"


def test_a_signal_handler_interrupts_the_search() -> None:
    assert_a_signal_interrupts(lambda: solve(hard(), timeout=30), within=2)


def test_the_search_runs_beside_other_threads() -> None:
    # The native search lets go of the interpreter: a thread keeps running meanwhile.
    p = hard()
    results = []
    assert_runs_beside(lambda: results.append(solve(p, timeout=LONG / 2)))
    assert results[0].result == "unknown"


def test_bad_input_is_refused() -> None:
    assert hopscotch.native is not None
    search = hopscotch.native.search
    args = dict(
        seconds=1.0, max_states=-1, table_size=1000, cancel=None, plain=4, probe=3,
        noise=100.0, slice=1.0, lds_share=0.9, bad=1000.0, wait=1.0, empty=20.0,
    )  # fmt: skip
    won = (bytes([13, 13, 13, 13]), False, bytes([12] * 4), [b""] * 4)
    assert search(*won, **args)[0] == 0
    with pytest.raises(ValueError, match="rank 14 out of range"):
        search(bytes([14]), False, bytes([12] * 4), [b""] * 4, **args)
    with pytest.raises(ValueError, match="4 piles"):
        search(b"", False, bytes([13] * 4), [b""] * 3, **args)
    with pytest.raises(ValueError, match="4 sizes"):
        search(b"", False, bytes([13] * 3), [b""] * 4, **args)
    with pytest.raises(ValueError, match="size 0 out of range"):
        search(b"", False, bytes([0, 13, 13, 13]), [b""] * 4, **args)
    with pytest.raises(ValueError, match="not the ranks"):
        search(bytes([12, 13, 13, 13]), False, bytes([12] * 4), [b""] * 4, **args)
    with pytest.raises(TypeError, match="bytes"):
        search([13, 13, 13, 13], False, bytes([12] * 4), [b""] * 4, **args)
    with pytest.raises(TypeError, match="threading.Event"):
        search(*won, **{**args, "cancel": 5})


def test_without_the_native_module_the_python_search_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = new_game("hopscotch", 2)
    native = decide(p, HopscotchAdapter(game_for(p)), Budget.until(time.monotonic() + 30))
    monkeypatch.setattr(hopscotch, "native", None)
    python = decide(p, HopscotchAdapter(game_for(p)), Budget.until(time.monotonic() + 30))
    assert python == native and python[0] == "won"
    assert solve(new_game("hopscotch", 4), timeout=30).result == "won"
