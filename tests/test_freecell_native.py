"""The native FreeCell search (``solver/_freecell.c``) against the Python one
(``solver/freecell.py``, the reference) and against a plain search over every legal move:
the same verdicts on Microsoft's deals, on small end games and on the committed ones;
its won lines replay through the rules; budgets, cancel, Ctrl-C and the interpreter
lock kept; bad input refused; and without it, the Python search runs."""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import replace

import pytest

from endgames import brute, load_golden, tiny
from engine_builders import build, random_play
from native_checks import LONG, assert_a_signal_interrupts, assert_runs_beside
from patience import Position, get_game, new_game
from patience.games import position_from_json
from patience.moves import Move
from patience.solver import freecell, solve
from patience.solver.dfs import search
from patience.solver.freecell import FreeCellAdapter, native_decide
from patience.solver.search import replay

pytestmark = pytest.mark.native

if freecell.native is None:  # pragma: no cover - a machine with no C compiler
    if os.environ.get("CI"):
        pytest.fail("the native FreeCell solver was not built (no C compiler?)", pytrace=False)
    pytest.skip("the native FreeCell solver was not built", allow_module_level=True)

FC = "freecell"
rules = get_game(FC)
adapter = FreeCellAdapter(rules)


def native(p: Position, max_states: int | None = 2_000_000) -> tuple[str, list[Move], int]:
    """The native search alone, with no clock: the same answer on any machine."""
    verdict, moves, states = native_decide(p, float("inf"), max_states=max_states)
    return str(verdict), moves, states


def python(p: Position, max_states: int = 300_000) -> str:
    """The reference search in Python (the adapter's cuts, no native twin)."""
    return str(search(p, adapter, max_states=max_states)[0])


def wins(p: Position, moves: list[Move]) -> bool:
    """Whether ``moves`` play from ``p`` through the engine's checked ``play`` to a win."""
    return rules.is_won(replay(p, moves))


def never_won() -> Position:
    """Deal 1 without its 2 of clubs: the clubs never go home, so no state is won, and the
    search goes on over a deal's whole state space (far more than it meets in seconds)."""
    p = new_game(FC, 1)
    two = 1  # the 2 of clubs
    return replace(p, tableau=tuple(tuple(c for c in t if c != two) for t in p.tableau))


def test_microsofts_deals_agree_with_the_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    found = {d: native(new_game(FC, d)) for d in range(1, 9)}
    monkeypatch.setattr(freecell, "native", None)  # solve: the Python schedule
    agreed = 0
    for deal, (verdict, moves, _) in found.items():
        p = new_game(FC, deal)
        assert verdict == "won" and wins(p, moves), deal
        want = solve(p, timeout=None, max_states=20_000).result
        assert want in ("won", "unknown"), deal  # each is won (the published results)
        agreed += want == "won"
    assert agreed >= 6


@pytest.mark.slow
def test_deal_11982_is_lost_for_both() -> None:
    p = new_game(FC, 11982)
    verdict, moves, states = native(p)
    assert (verdict, moves) == ("lost", [])
    assert python(p, max_states=100_000) == "lost"
    # Each of the four searches is a whole proof: the first to open every state answers.
    assert states < 4 * 71_775 + 4 * 256


@pytest.mark.parametrize("seed", range(2))
def test_small_end_games_agree_with_a_plain_search_and_the_python_one(seed: int) -> None:
    # Losses are few among them; the committed end games below hold the losses.
    rng = random.Random(f"freecell native {seed}")
    checked = 0
    for _ in range(12):
        p = tiny(FC, {}, rng, rng.randint(2, 4))
        want = None if p is None else brute(p, limit=10_000)
        if p is None or want is None:
            continue
        verdict, moves, _ = native(p)
        assert verdict == want, p
        assert python(p, max_states=20_000) == want
        assert verdict != "won" or wins(p, moves)
        checked += 1
    assert checked >= 4


def test_the_committed_end_games_get_their_exact_verdicts() -> None:
    entries = [e for e in load_golden() if e["position"]["game"] == FC]
    assert len([e for e in entries if e["verdict"] == "lost"]) >= 5
    for entry in entries:
        p = position_from_json(entry["position"])
        verdict, moves, _ = native(p)
        assert verdict == entry["verdict"], entry["position"]
        assert verdict != "won" or wins(p, moves)


def test_positions_off_a_winning_line_agree_with_the_python_search() -> None:
    rng = random.Random(5)
    start = new_game(FC, 7)
    _, line, _ = native(start)
    for share in (0.3, 0.6, 0.8, 0.9):
        p = start
        for m in line[: int(len(line) * share)]:
            p = rules.play(p, m)
        p = random_play(p, rng.randint(2, 8), rng)
        verdict, moves, _ = native(p)
        want = python(p, max_states=50_000)
        assert want in (verdict, "unknown")
        assert verdict != "won" or wins(p, moves)


def test_a_line_names_the_real_piles_from_any_position() -> None:
    # A deal part-way through, its cascades and free cells in another order, and its
    # foundations moved to other slots: the line is for these piles, not the search's
    # sorted ones (the key is the same for all three).
    start = new_game(FC, 5)
    _, line, _ = native(start)
    p = replay(start, line[: len(line) // 3])
    assert any(p.reserve) and any(p.foundations)
    orders = [
        replace(p, tableau=p.tableau[::-1], reserve=p.reserve[::-1]),
        replace(p, foundations=p.foundations[1:] + p.foundations[:1]),
    ]
    for q in orders:
        assert adapter.key(q) == adapter.key(p)
        verdict, moves, _ = native(q)
        assert verdict == "won" and wins(q, moves)


def test_a_stuck_position_is_lost() -> None:
    p = build(
        FC,
        f=("AC", "AD", "AS", "AH"),
        t=["2C 4C", "2D 4S", "2S 5C", "2H 5S", "3C 7D", "3D 7H", "3S 9D", "3H 9H"],
        r=["KC", "KD", "KS", "KH"],
    )
    assert native(p)[:2] == ("lost", [])


def test_a_won_position_needs_no_move_and_safe_moves_finish_one() -> None:
    done = build(FC, f=tuple(" ".join(f"{r}{s}" for r in "A23456789TJQK") for s in "CDSH"))
    assert native(done)[:2] == ("won", [])
    p = build(
        FC,
        f=tuple(" ".join(f"{r}{s}" for r in "A23456789TJQ") for s in "CDSH"),
        t=["KC", "KD"],
        r=["KS", "", "KH"],
    )
    verdict, moves, _ = native(p)
    assert verdict == "won" and len(moves) == 4 and wins(p, moves)


def test_state_budget_is_kept() -> None:
    verdict, moves, states = native(never_won(), max_states=5_000)
    assert (verdict, moves) == ("unknown", [])
    assert states < 5_000 + 4 * 256 * 40  # looked at every round of turns


def test_time_budget_is_kept() -> None:
    start = time.monotonic()
    assert solve(never_won(), timeout=0.3).result == "unknown"
    assert time.monotonic() - start < 1.5


def test_cancel_stops_the_search_promptly() -> None:
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    start = time.monotonic()
    assert solve(never_won(), timeout=60, cancel=cancel).result == "unknown"
    assert time.monotonic() - start < 2


def test_a_signal_handler_interrupts_the_search() -> None:
    assert_a_signal_interrupts(lambda: solve(never_won(), timeout=30), within=2)


def test_the_search_runs_beside_other_threads() -> None:
    results = []
    assert_runs_beside(lambda: results.append(solve(never_won(), timeout=LONG / 2)))
    assert results[0].result == "unknown"


def test_bad_input_is_refused() -> None:
    assert freecell.native is not None
    s = freecell.native.search
    args = dict(
        seconds=1.0, max_states=-1, max_nodes=10_000, cancel=None,
        estimates=freecell.NATIVE_ESTIMATES, first=100,
    )  # fmt: skip
    empty = ([b""] * 8, [b""] * 4, [b""] * 4)
    assert s(*empty, **args)[0] == 1  # no card: nothing is ever won
    with pytest.raises(ValueError, match="8 piles"):
        s([b""] * 7, [b""] * 4, [b""] * 4, **args)
    with pytest.raises(ValueError, match="card 52 out of range"):
        s([bytes([52])] + [b""] * 7, [b""] * 4, [b""] * 4, **args)
    with pytest.raises(ValueError, match="twice"):
        s([bytes([5]), bytes([5])] + [b""] * 6, [b""] * 4, [b""] * 4, **args)
    with pytest.raises(ValueError, match="more than 1"):
        s([b""] * 8, [bytes([1, 2])] + [b""] * 3, [b""] * 4, **args)
    with pytest.raises(ValueError, match="up in suit"):
        s([b""] * 8, [b""] * 4, [bytes([1])] + [b""] * 3, **args)
    with pytest.raises(TypeError, match="bytes"):
        s([[1]] + [b""] * 7, [b""] * 4, [b""] * 4, **args)
    with pytest.raises(ValueError, match="weightings"):
        s(*empty, **{**args, "estimates": ()})
    with pytest.raises(TypeError, match="threading.Event"):
        s(*empty, **{**args, "cancel": 5})


def test_without_the_native_module_the_python_search_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = new_game(FC, 3)
    with_native = solve(p, timeout=None, max_states=300_000)
    monkeypatch.setattr(freecell, "native", None)
    assert adapter.own_search(p, None, 1000) is None  # type: ignore[arg-type]
    without = solve(p, timeout=None, max_states=300_000)
    assert with_native.result == without.result == "won"
    assert wins(p, without.moves) and wins(p, with_native.moves)


@pytest.mark.skipif(freecell.native is None, reason="the native FreeCell search was not built")
def test_the_native_lines_have_no_detour_so_solve_need_not_shorten_them() -> None:
    # solve skips lines.shorten for FreeCell's native lines (direct_lines): a path of
    # the search tree has no shortcut between its states (docs/solver.md). If the search
    # ever wrote a detour, shorten would cut it here.
    from patience.solver.lines import shorten

    assert FreeCellAdapter(get_game("freecell")).direct_lines
    for deal in range(1, 13):
        p = new_game("freecell", deal=deal)
        line = solve(p, check=False).moves
        assert line and shorten(p, line) == line, deal
