"""The native searches of Klondike, Lady Jane and Baker's Dozen
(``solver/_tableau.c``) give the verdicts of the pure-Python searches they mirror,
in every mode, and keep to their budgets.

``solve`` replays every winning line through the engine's checked ``play``, so each
``won`` below is a line the engine accepts; the pure-Python search is checked in turn
against the same search without its cuts (test_solver_pruning.py)."""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import replace

import pytest

from engine_builders import VARIANTS, random_play, solver_positions
from native_checks import LONG, assert_a_signal_interrupts, assert_runs_beside, long_search
from patience import game_for, new_game
from patience.games import get_game, position_from_json, position_to_json
from patience.moves import Move
from patience.solver import alternating, clock, solve
from patience.solver.klondike import KlondikeAdapter
from patience.solver.schedule import Budget, Limits, Stage, Verdict, run
from patience.solver.search import adapter_for
from search_golden import pinned_search

pytestmark = pytest.mark.native

if alternating.native is None:  # pragma: no cover - a machine with no C compiler
    if os.environ.get("CI"):
        pytest.fail("the native solver was not built (no C compiler?)", pytrace=False)
    pytest.skip("the native solver was not built", allow_module_level=True)

CASES = [v for v in VARIANTS if v[0] != "hopscotch"]

UNLIMITED = (("mode", "unlimited"),)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), CASES)
def test_native_and_python_searches_agree(game: str, options: dict[str, str]) -> None:
    rng = random.Random(f"native{game}{options}")
    seen = {"won": 0, "lost": 0}
    for p in solver_positions(game, options, rng):
        python = pinned_search(p, 20_000)  # search()'s verdict (search_golden.py)
        if python == "unknown":
            continue
        native = solve(p, timeout=30)
        assert native.result == python, position_to_json(p)
        seen[python] += 1
    assert seen["won"] >= 3 and seen["lost"] >= 2, seen


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), CASES)
def test_native_decides_the_first_deals_as_python_does(game: str, options: dict[str, str]) -> None:
    for deal in range(1, 9):
        p = new_game(game, deal, options)
        python = pinned_search(p, 5_000)
        if python != "unknown":
            assert solve(p, timeout=30).result == python, deal


@pytest.mark.slow
def test_without_the_native_module_the_python_search_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(alternating, "native", None)
    assert solve(new_game("klondike", 1, {"mode": "unlimited"}), timeout=30).result == "won"
    assert solve(new_game("lady-jane", 2), timeout=30).result == "won"


@pytest.mark.parametrize("deal", [54, 3])
def test_state_budget_is_kept(deal: int) -> None:
    # Whatever the verdict, no stage starts once the budget is spent; the one that
    # spends it may search one state more (it stops when it has gone over).
    p = new_game("klondike", deal, {"mode": "unlimited"})
    for budget in (1, 40, 3_000):
        result = solve(p, max_states=budget)
        assert result.states <= budget + 1, (budget, result)
        if result.result == "unknown":
            assert result.states == budget + 1, (budget, result)


def test_cancel_stops_the_search_promptly() -> None:
    # Set before the start, nothing is searched (deal 3 is won in a few hundred states).
    cancel = threading.Event()
    cancel.set()
    easy = solve(new_game("klondike", 3, {"mode": "unlimited"}), timeout=60, cancel=cancel)
    assert (easy.result, easy.states) == ("unknown", 0)
    # Set during a search that outlasts it, it ends it within a poll.
    p = long_search("klondike", 15531, UNLIMITED)
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    start = time.monotonic()
    solve(p, timeout=60, cancel=cancel)
    assert time.monotonic() - start < 10


def test_a_signal_handler_interrupts_the_search() -> None:
    # ``patience solve`` stops at Ctrl-C, not at its timeout: checked on one exhaustive
    # search of a minute (between the discrepancy passes Python would see it anyway).
    native = alternating.native
    assert native is not None
    p = long_search("klondike", 15531, UNLIMITED)
    args = (*alternating.native_position(p), 0, 1, -1, True, -1, 60.0, -1, 1_000_000, None)
    assert_a_signal_interrupts(lambda: native.search(*args), within=5)


def test_the_search_runs_beside_other_threads() -> None:
    # The native search lets go of the interpreter: a thread keeps running meanwhile.
    p = long_search("klondike", 15531, UNLIMITED)
    results = []
    assert_runs_beside(lambda: results.append(solve(p, timeout=LONG / 2)))
    assert results[0].result == "unknown"  # it searched the whole time


def test_bad_input_is_refused() -> None:
    assert alternating.native is not None
    with pytest.raises(ValueError, match="card out of range"):
        alternating.native.search(
            b"\x63", b"", [b""] * 4, [b""] * 7, bytes(7), 0, 1, -1, True, -1, 1.0, -1, 100, None
        )
    with pytest.raises(ValueError, match="base rank"):
        alternating.native.lady_jane(
            b"", b"", [b""] * 4, [b""] * 7, bytes(7), [b""] * 7, 14, True, -1, 1.0, -1, 100, None
        )
    with pytest.raises(ValueError, match="7 piles"):
        alternating.native.search(
            b"", b"", [b""] * 4, [b""] * 6, bytes(6), 0, 1, -1, True, -1, 1.0, -1, 100, None
        )


@pytest.mark.parametrize("mode", ["three", "unlimited", "single"])
def test_a_memo_kept_across_the_passes_changes_no_search(mode: str) -> None:
    """The relaxed verdicts' memo (``_tableau.memo()``) handed from one search of a
    position to the next: each pass answers as it does with a memo of its own, the
    same verdict, line and states (a verdict is a fact about a position)."""
    native = alternating.native
    assert native is not None
    for deal in (50001, 50039, 50052):
        p = new_game("klondike", deal, {"mode": mode})
        draw = 3 if mode == "three" else 1
        limit = {"three": -1, "unlimited": -1, "single": 2}[mode]
        args = (*alternating.native_position(p), 0, draw, limit, True)
        kept = native.memo()
        for disc in (0, 1, 2, 4, 8, -1):
            run = (*args, disc, 30.0, 20_000, 1 << 16, None)
            assert native.search(*run, memo=kept) == native.search(*run), (deal, disc)
    with pytest.raises(ValueError):
        native.search(*run, memo=object())


def test_children_keyed_ahead_change_no_search() -> None:
    """A node's children keyed ahead (``key_children`` in ``_dfs.h``: each made, keyed
    and undone, their table entries fetched, then looked up in their turn without being
    made) search exactly what the search keying each child as it opens it does: the same
    verdict, line and states, won and lost, passes and exhaustive, Klondike's modes and
    Lady Jane, where the obligations, twins and returns differ."""
    native = alternating.native
    assert native is not None
    runs = []
    for mode, deal in (("three", 50001), ("three", 60001), ("unlimited", 50039), ("single", 31)):
        p = new_game("klondike", deal, {"mode": mode})
        draw = 3 if mode == "three" else 1
        limit = {"three": -1, "unlimited": -1, "single": 2}[mode]
        args = (*alternating.native_position(p), 0, draw, limit, True)
        runs += [(native.search, (*args, disc, 30.0, 60_000, 1 << 18, None)) for disc in (2, -1)]
    for deal in (1, 6):
        q = new_game("lady-jane", deal)
        assert q.base is not None
        args = (*alternating.native_position(q), [bytes(r) for r in q.reserve], q.base, True)
        runs += [(native.lady_jane, (*args, d, 30.0, 60_000, 1 << 18, None)) for d in (2, -1)]
    verdicts = set()
    was = native.key_ahead(0)
    try:
        ahead = [fn(*a) for fn, a in runs]
        native.key_ahead(1 << 62)
        plain = [fn(*a) for fn, a in runs]
    finally:
        native.key_ahead(was)
    for (fn, a), x, y in zip(runs, ahead, plain, strict=True):
        assert x == y, (fn.__name__, a[-5])
        verdicts.add(x[0])
    assert verdicts == {0, 1, 2}, verdicts
    with pytest.raises(ValueError):
        native.key_ahead(-1)


@pytest.mark.parametrize("mode", ["single", "three", "no-redeal"])
def test_a_loss_under_looser_rules_settles_the_stricter_modes(mode: str) -> None:
    # Deal 31 is lost with one card a deal and unlimited redeals, the loosest mode; the
    # other modes allow no line that mode does not, so it is lost in them too.
    assert solve(new_game("klondike", 31, {"mode": "unlimited"}), timeout=30).result == "lost"
    assert solve(new_game("klondike", 31, {"mode": mode}), timeout=10).result == "lost"


def test_the_native_relaxed_games_deal_three_at_a_time_as_python_does() -> None:
    """The stock of draw 3's relaxed games (``klondike_stock.played_out3``, ``played_out3``
    in ``_relaxed.h``): a search of two states asks them about its first, so it is lost
    exactly when the Python adapter's ``lost`` says so of that state."""
    rng = random.Random("three")
    adapter = adapter_for(game_for(new_game("klondike", 1, {"mode": "three"})))
    verdicts = {True: 0, False: 0}
    for deal in range(1, 31):
        p = new_game("klondike", deal, {"mode": "three"})
        for _ in range(5):
            q = adapter.auto(p)[1]
            if sum(map(len, q.foundations)) < 52 and adapter.finish(q) is None:
                args = (*alternating.native_position(p), p.redeals, 3, -1, True, -1, 10.0, 2)
                code, _, _ = alternating.native.search(*args, 1 << 16, None)
                lost = adapter.lost(q)
                verdicts[lost] += 1
                assert (code == 1) == lost, position_to_json(p)
            p = random_play(p, 6, rng)
    assert verdicts[True] >= 5 and verdicts[False] >= 5, verdicts


@pytest.mark.parametrize("mode", ["single", "three", "no-redeal", "unlimited"])
def test_the_native_relaxed_games_on_sets_of_cards_agree_with_python(mode: str) -> None:
    """Each relaxed game of ``_relaxed.h`` (its facts as 64-bit sets of cards, every rule
    applied to every card at once) gives ``relaxed.Relaxed``'s and ``relaxed.Ordered``'s
    verdict, as the adapter plays them, on positions of random play at every depth."""
    rng = random.Random(f"sets{mode}")
    adapter = adapter_for(game_for(new_game("klondike", 1, {"mode": mode})))
    assert isinstance(adapter, KlondikeAdapter)
    limit = -1 if adapter.limit is None else adapter.limit
    seen: dict[tuple[bool, bool], int] = {}
    for deal in range(1, 41):
        p = new_game("klondike", deal, {"mode": mode})
        for _ in range(8):
            args = (*alternating.native_position(p), p.redeals, adapter.draw, limit)
            relax, ordered = alternating.native.relaxed(*args)
            python = (adapter._relaxed_lost(p), adapter._ordered_lost(p))
            assert (bool(relax), bool(ordered)) == python, position_to_json(p)
            seen[python] = seen.get(python, 0) + 1
            p = random_play(p, 12, rng)
    # both games won and lost, and Ordered proving losses Relax does not
    assert seen.get((False, False), 0) >= 5 and seen.get((True, True), 0) >= 5, seen
    assert seen.get((False, True), 0) >= 5, seen


# Baker's Dozen (kings=empty-piles) after random play: its search follows lines of tens
# of thousands of moves, far deeper than a C stack allows a recursion to go.
DEEP = {
    "game": "bakers-dozen",
    "options": {"build": "any-suit", "kings": "empty-piles"},
    "deal": 9,
    "stock": [],
    "waste": [],
    "foundations": [["AH", "2H"], ["AS", "2S"], ["AC"], []],
    "tableau": [
        {"down": [], "up": ["7H", "TD", "3H", "7C", "6H", "5S", "4D"]},
        {"down": [], "up": []},
        {"down": [], "up": ["JS", "TC"]},
        {"down": [], "up": ["QS", "JH"]},
        {"down": [], "up": ["8D", "TH", "AD"]},
        {"down": [], "up": ["JC", "3S"]},
        {"down": [], "up": []},
        {"down": [], "up": ["2C", "KS", "KD", "9H", "8C", "7D", "6C", "5C", "4C", "3D"]},
        {"down": [], "up": ["KC", "5H", "7S", "6D", "5D"]},
        {"down": [], "up": ["KH", "QH", "4S", "2D"]},
        {"down": [], "up": ["3C", "4H", "QD", "JD", "TS"]},
        {"down": [], "up": ["9S", "9D", "6S", "8S"]},
        {"down": [], "up": ["9C", "QC", "8H"]},
    ],
    "reserve": [],
    "redeals": 0,
    "base": None,
}


def test_a_very_deep_search_runs_on_its_own_stack() -> None:
    p = position_from_json(DEEP)
    result = solve(p, max_states=400_000)
    assert result.result in ("unknown", "won", "lost")
    # Once the budget is spent no stage starts again (each would count a state).
    assert result.states <= 400_000 + 100


def test_klondikes_passes_go_three_discrepancies_apart() -> None:
    """``Schedule.step``: Klondike's passes start at limit 2 and step 3 at least (the
    passes before a deal's winning one were half its states), doubling the step under
    ``widen`` as before and falling back to 3, not 1; the looser rules' passes too."""
    limits = Limits(8, 2.0, 3)
    assert limits.next() == 2
    limits.searched(10)
    assert limits.next() == 5
    limits.searched(12)  # grew by less than twice: the step doubles
    assert limits.next() == 11
    limits.searched(100)  # grew more: the step is 3 again, not 1
    assert limits.next() == 14
    for mode in ("three", "unlimited", "single", "no-redeal"):
        adapter = adapter_for(get_game("klondike", {"mode": mode}))
        assert isinstance(adapter, KlondikeAdapter) and adapter.schedule.step == 3
    seen: list[Stage] = []

    def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        seen.append(stage)
        return Verdict.UNKNOWN, [], 1000 * 3 ** len(seen)  # each pass 3x the last

    schedule = adapter_for(get_game("klondike", {"mode": "three"})).schedule
    run(replace(schedule, plain=4), Budget.until(clock.now() + 60), runner)
    assert [s.limit for s in seen if not s.looser][:4] == [2, 5, 8, 11]
    assert [s.limit for s in seen if s.looser][:4] == [2, 5, 8, 11]


def test_tables_grown_in_place_change_no_search() -> None:
    """The transposition tables, once big, grow in place (``table_grow_in_place`` in
    ``_table.h``: each doubling rehashed within one reserved mapping) and search exactly
    what tables grown each into a new one do: the same verdict, line and states, in
    searches long enough for the tables to double in place several times and to forget
    their older half (the states they lose would be searched again)."""
    native = alternating.native
    assert native is not None
    runs = []
    for mode, deal, limit in (("unlimited", 50284, 20), ("three", 10513, 11)):  # 154k, 325k
        p = new_game("klondike", deal, {"mode": mode})
        args = (*alternating.native_position(p), 0, 3 if mode == "three" else 1, -1, True)
        runs += [(*args, limit, 60.0, -1, table, None) for table in (300_000, 1 << 22)]
    was = native.grow_in_place(True)
    try:
        grown = [native.search(*a) for a in runs]
        native.grow_in_place(False)
        fresh = [native.search(*a) for a in runs]
    finally:
        native.grow_in_place(was)
    assert grown == fresh
    assert all(n > 100_000 for _, _, n in grown), [n for _, _, n in grown]
