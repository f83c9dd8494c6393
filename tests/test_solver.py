"""Solver verdicts on hand-made positions, replayed lines, and agreement with brute force."""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import replace
from unittest.mock import ANY

import pytest

from endgames import brute, pinned_brute, tiny
from engine_builders import VARIANTS, hop_sequences
from patience import Position, game_for, get_game, new_game, play
from patience.cards import RANK, SUIT, make_card, parse_card, parse_rank
from patience.games import position_from_json, position_to_json
from patience.moves import Move
from patience.solver import Hint, SolveResult, find_winnable, hint, solve
from patience.solver.schedule import (
    Budget,
    Limits,
    Runner,
    Schedule,
    Stage,
    Verdict,
    for_budget,
    luby,
    run,
)
from patience.solver.search import replay


def cards(text: str) -> tuple[int, ...]:
    """'AS 2S' -> card ints, bottom to top."""
    return tuple(parse_card(t) for t in text.split())


def position(
    game: str,
    *,
    options: dict[str, str] | None = None,
    out: str,
    stock: str = "",
    waste: str = "",
    t: list[str] | None = None,
    r: list[str] | None = None,
    base: str | None = None,
    redeals: int = 0,
) -> Position:
    """A full, validated position: the cards ``out`` are placed as given, the rest home.

    Tableau piles are 'DOWN | UP'. Home cards fill each suit's foundation (Hopscotch:
    each foundation's sequence) up to the first card that is out.
    """
    rules = get_game(game, options)
    away = set(cards(out))
    foundations: list[tuple[int, ...]] = []
    if game == "hopscotch":
        for seq in hop_sequences():
            n = next((i for i, c in enumerate(seq) if c in away), 13)
            foundations.append(tuple(seq[:n]))
    else:
        start = 1 if base is None else parse_rank(base)
        for s in range(4):
            pile = []
            for k in range(13):
                c = make_card((start - 1 + k) % 13 + 1, s)
                if c in away:
                    break
                pile.append(c)
            foundations.append(tuple(pile))
    tableau, down = [], []
    for pile in (t or []) + [""] * (rules.tableau_piles - len(t or [])):
        d, _, u = pile.rpartition("|")
        tableau.append(cards(d) + cards(u))
        down.append(len(cards(d)))
    res = [cards(x) for x in (r or [])] + [()] * (rules.reserve_piles - len(r or []))
    p = Position(
        rules.name,
        rules.options,
        None,
        cards(stock),
        cards(waste),
        tuple(foundations),
        tuple(tableau),
        tuple(down),
        tuple(res),
        redeals,
        None if base is None else parse_rank(base),
    )
    problems = rules.validate(p)
    assert not problems, problems
    return position_from_json(position_to_json(p))


def check_won(p: Position, r: SolveResult) -> None:
    """A ``won`` verdict whose line the engine accepts and that ends won."""
    assert r.result == "won"
    end = replay(p, r.moves)
    assert game_for(end).is_won(end)


# --- hand-made positions -----------------------------------------------------------


def test_klondike_trivially_won() -> None:
    p = position("klondike", out="KH", t=["KH"])
    r = solve(p, timeout=5)
    check_won(p, r)
    assert [str(m) for m in r.moves] == ["t1>f4"]


def test_klondike_won_needs_stock_cycle_and_redeal() -> None:
    # QH must come from under KH in the waste: KH to an empty pile first, after a redeal.
    p = position("klondike", out="JH QH KH QS KS", stock="JH KS", waste="QS QH KH", t=["", ""])
    for mode in ("single", "three", "unlimited", "no-redeal"):
        q = position_from_json({**position_to_json(p), "options": {"mode": mode}})
        r = solve(q, timeout=5)
        check_won(q, r)


def test_klondike_proven_lost_and_one_move_from_lost() -> None:
    # QH is on top of JH and KH in the waste; no stock, no redeal; no black King free.
    out = "JH QH KH KS KC"
    p = position("klondike", options={"mode": "no-redeal"}, out=out, waste="KS KC JH KH QH")
    assert solve(p, timeout=10).result == "lost"
    assert brute(p) == "lost"
    # One move from lost: the stock still holds QH; dealing it onto KH loses, w>t1 wins.
    q = position(
        "klondike",
        options={"mode": "no-redeal"},
        out=out,
        stock="QH",
        waste="KS KC JH KH",
    )
    r = solve(q, timeout=10)
    check_won(q, r)
    assert hint(q).verdict == "winnable"
    assert solve(play(q, "deal"), timeout=10).result == "lost"


def test_lady_jane_verdicts() -> None:
    # Base 7: 6s are the "Kings", 7s the "Aces".
    won = position("lady-jane", base="7", out="6H", r=["6H"])
    r = solve(won, timeout=5)
    check_won(won, r)
    lost = position(
        "lady-jane",
        base="7",
        out="5H 6H 5S 6S",
        t=["6S | 5H", "6H | 5S"],
        r=[],
    )
    # 5H on face-down 6S and 5S on face-down 6H: won only by building the foundations
    # back out into the empty piles (the 6s are "Kings" here); brute force agrees.
    expected = brute(lost)
    r = solve(lost, timeout=10)
    assert r.result == expected
    if expected == "won":
        check_won(lost, r)
    # 5H covers 4H on r1 and the black 6s lie under them: nothing can take 5H.
    stuck = position("lady-jane", base="7", out="6S 6C 4H 5H 6H", r=["6S 6C 4H 5H", "6H"])
    assert solve(stuck, timeout=5).result == "lost"
    assert brute(stuck) == "lost"
    # One move from lost: 6H then 5H from the stock's last two cards.
    near = position("lady-jane", base="7", out="5H 6H", stock="6H 5H")
    r = solve(near, timeout=5)
    check_won(near, r)


def test_bakers_dozen_verdicts() -> None:
    p = position("bakers-dozen", out="QS KS", t=["KS QS"])
    check_won(p, solve(p, timeout=5))
    hearts = " ".join(f"{r}H" for r in "456789TJQK")
    # 2H covers AH and 3H lies under the other hearts, with KH on top of it: lost.
    lost = position("bakers-dozen", out="AH 2H 3H " + hearts, t=["AH 2H", "3H " + hearts])
    assert solve(lost, timeout=5).result == "lost"
    assert brute(lost) == "lost"
    # The same with 3H on top: 2H goes onto it, AH home, and every heart follows.
    near = position(
        "bakers-dozen",
        out="AH 2H 3H " + hearts,
        t=["AH 2H", " ".join(reversed(("3H " + hearts).split()))],
    )
    r = solve(near, timeout=5)
    check_won(near, r)
    assert r.moves[0] == Move.parse("t1>t2")


def test_hopscotch_verdicts() -> None:
    seqs = hop_sequences()
    last = [seq[-1] for seq in seqs]  # the four Kings
    text = " ".join(f"{'A23456789TJQK'[RANK[c] - 1]}{'CDSH'[SUIT[c]]}" for c in last)
    p = position("hopscotch", out=text, stock=text)
    check_won(p, solve(p, timeout=5))
    # The two last cards of f1 (QX then KX) stacked the wrong way round on one reserve.
    q_card, k_card = seqs[0][-2], seqs[0][-1]
    names = [f"{'A23456789TJQK'[RANK[c] - 1]}{'CDSH'[SUIT[c]]}" for c in (q_card, k_card)]
    lost = position("hopscotch", out=" ".join(names), r=[f"{names[0]} {names[1]}"])
    assert solve(lost, timeout=5).result == "lost"
    assert brute(lost) == "lost"
    # One move from lost: K then Q from the stock; the K must go to a reserve of its own.
    near = position("hopscotch", out=" ".join(names), stock=f"{names[0]} {names[1]}")
    r = solve(near, timeout=5)
    check_won(near, r)
    assert solve(play(play(play(near, "deal"), "w>r1"), "deal"), timeout=5).result == "won"


# --- brute-force agreement on tiny random positions ----------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_agrees_with_brute_force(game: str, options: dict[str, str]) -> None:
    rng = random.Random(f"{game}{options}")
    checked = {"won": 0, "lost": 0}
    tries = 0
    while checked["won"] + checked["lost"] < 8 and tries < 150:
        tries += 1
        p = tiny(game, options, rng, rng.randint(2, 6))
        if p is None:
            continue
        expected = pinned_brute(p, limit=3_000)
        if expected is None:
            continue
        r = solve(p, timeout=20)
        assert r.result == expected, position_to_json(p)
        if r.result == "won":
            check_won(p, r)
            # One move from lost: every child's verdict agrees with brute force too.
            g = game_for(p)
            for m in g.legal_moves(p)[:3]:
                child = g.play(p, m)
                want = pinned_brute(child, limit=3_000)
                if want is not None:
                    assert solve(child, timeout=20).result == want, (position_to_json(p), str(m))
                    checked["near"] = checked.get("near", 0) + (want == "lost")
        checked[expected] += 1
    assert checked["won"] + checked["lost"] >= 4, (checked, tries)


# --- real deals ----------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_won_deals_replay(game: str, options: dict[str, str]) -> None:
    found = 0
    for deal in range(1, 6):
        p = new_game(game, deal, options)
        r = solve(p, timeout=0.3 if options.get("mode") == "no-redeal" else 2.0)
        assert r.result in ("won", "lost", "unknown")
        if r.result == "won":
            check_won(p, r)
            found += 1
            break
    assert found or game == "hopscotch" or options.get("mode") == "no-redeal"


def test_unchecked_solve_same_verdict_and_line_without_the_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # check=False (the fair advisor's many solves) answers exactly what the checked solve
    # does, and never replays the line through play (what it spares).
    p = new_game("klondike", 3, {"mode": "three"})
    checked = solve(p, timeout=None, max_states=200_000)
    assert checked.result == "won"

    def no_replay(position: Position, moves: list[Move]) -> Position:
        raise AssertionError("replayed")

    monkeypatch.setattr("patience.solver.search.replay", no_replay)
    unchecked = solve(p, timeout=None, max_states=200_000, check=False)
    assert (unchecked.result, unchecked.moves) == (checked.result, checked.moves)
    check_won(p, unchecked)
    with pytest.raises(AssertionError, match="replayed"):
        solve(p, timeout=None, max_states=200_000)


def test_hint_find_winnable_and_cancel() -> None:
    p = new_game("klondike", 3, {"mode": "unlimited"})
    h = hint(p, timeout=5)
    assert isinstance(h, Hint)
    assert h.verdict == "winnable" and h.move == h.line[0]
    check_won(p, SolveResult("won", h.line))
    deal = find_winnable("klondike", {"mode": "unlimited"}, 1, budget=20)
    assert (
        deal is not None
        and solve(new_game("klondike", deal, {"mode": "unlimited"})).result == "won"
    )
    assert find_winnable("klondike", {}, 1, budget=0) is None
    stop = threading.Event()
    stop.set()
    fresh = new_game("hopscotch", 1)
    # Cancelled before it starts, no stage runs; a win deals all 48 cards, one state
    # each, so 10 states cannot find one (and a loss is never claimed by a capped pass).
    assert solve(fresh, timeout=30, cancel=stop) == SolveResult("unknown", [], 0, ANY)
    assert solve(fresh, timeout=30, max_states=10).result == "unknown"
    guess = hint(fresh, timeout=30, cancel=stop)
    assert guess.verdict == "unknown" and guess.move is not None and guess.line == []
    won = replace(p, foundations=p.foundations)  # not won: still a real position
    assert hint(won, timeout=5).verdict == "winnable"


def test_passes_under_the_looser_rules_end_their_proof_at_a_win() -> None:
    # With looser_passes, discrepancy passes under the looser rules come before their
    # exhaustive search. A win there ends the looser proof (it says nothing of the real
    # rules), so the real rules' exhaustive search starts at once; a loss is the answer.
    seen: list[Stage] = []

    def looser_says(verdict: Verdict, at_limit: int | None) -> Runner:
        def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
            seen.append(stage)
            hit = stage.looser and stage.limit == at_limit
            return (verdict if hit else Verdict.UNKNOWN), [], 1

        return runner

    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=3, looser=1.0, looser_passes=1.0)
    assert run(plan, Budget.until(far), looser_says(Verdict.WON, 1)) == (Verdict.UNKNOWN, [])
    assert [(s.limit, s.looser) for s in seen] == [
        (0, False),
        (1, False),
        (2, False),
        (0, True),
        (1, True),
        (None, False),
    ]
    seen.clear()
    assert run(plan, Budget.until(far), looser_says(Verdict.LOST, 0))[0] == Verdict.LOST
    assert [(s.limit, s.looser) for s in seen][3:] == [(0, True)]
    # No verdict from the passes: the looser rules' exhaustive search follows them.
    seen.clear()
    run(plan, Budget.until(far), looser_says(Verdict.WON, None))
    assert [(s.limit, s.looser) for s in seen][3:] == [
        (0, True),
        (1, True),
        (2, True),
        (None, True),
        (None, False),
    ]
    # Without looser_passes, the looser proof is its exhaustive search alone.
    seen.clear()
    run(replace(plan, looser_passes=0.0), Budget.until(far), looser_says(Verdict.WON, None))
    assert [(s.limit, s.looser) for s in seen][3:] == [(None, True), (None, False)]


def test_passes_widen_their_step_once_the_tree_stops_growing() -> None:
    # A tree that doubles with each limit up to 8 and then hardly grows: the step doubles
    # after each pass that grew by less than `widen`, and is 1 again after one that grew
    # more. The passes under the looser rules follow the same rule, on their own sizes.
    seen: list[Stage] = []

    def sized(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        seen.append(stage)
        limit = stage.limit if stage.limit is not None else 99
        return Verdict.UNKNOWN, [], 2 ** min(limit, 8) + limit

    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=12, widen=1.5)
    run(plan, Budget.until(far), sized)
    assert [s.limit for s in seen] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 15, None]
    seen.clear()
    run(replace(plan, looser=1.0, looser_passes=1.0), Budget.until(far), sized)
    looser = [s.limit for s in seen if s.looser]
    assert looser == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 15, None]
    # Without widen, the limits are 0, 1, 2, ...
    seen.clear()
    run(replace(plan, widen=0.0), Budget.until(far), sized)
    assert [s.limit for s in seen] == [*range(12), None]
    limits = Limits(4, 1.5)
    assert limits.next() == 0
    limits.searched(10)
    assert limits.next() == 1
    limits.searched(12)  # grew by less than half: the step doubles
    assert limits.next() == 3
    limits.searched(40)  # grew more: the step is 1 again
    assert limits.next() == 4
    assert limits.next() is None
    # A tree that never grows: the step stops doubling at 2**20 (the native searches
    # take the limit as a C int).
    limits = Limits(64, 2.0)
    for _ in range(63):
        assert limits.next() is not None
        limits.searched(5)
    last = limits.next()
    assert limits.step == 1 << 20 and last is not None and last < 2**31


def test_tiny_table_still_exact() -> None:
    # A transposition table that keeps almost nothing costs time, never correctness.
    hearts = " ".join(f"{r}H" for r in "456789TJQK")
    lost = position("bakers-dozen", out="AH 2H 3H " + hearts, t=["AH 2H", "3H " + hearts])
    assert solve(lost, timeout=10, table_size=2).result == "lost"
    p = new_game("klondike", 3, {"mode": "unlimited"})
    check_won(p, solve(p, timeout=10, table_size=50))


def test_the_schedule_runs_its_stages_in_order_within_one_budget() -> None:
    # A runner that finds nothing and spends 10 states a stage: every stage is seen.
    seen: list[Stage] = []

    def nothing(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
        seen.append(stage)
        return Verdict.UNKNOWN, [], 10 if states is None else min(10, states)

    far = time.monotonic() + 3600
    budget = Budget.until(far)
    plan = Schedule(passes=1.0, plain=3, probe=5, looser=1.0)
    assert run(plan, budget, nothing) == (Verdict.UNKNOWN, [])
    kinds = [(s.limit, s.cap, s.looser) for s in seen]
    # The probe, passes until a tenth of the time, the looser proof, passes, exhaustive.
    assert kinds == [(None, 5, False), (0, None, False), (1, None, False), (2, None, False),
                     (None, None, True), (None, None, False)]  # fmt: skip
    assert budget.states == 55
    # Out of states: no stage starts, and the one that spends it gets only what is left.
    seen.clear()
    budget = Budget.until(far, max_states=25)
    run(Schedule(plain=64), budget, nothing)
    assert [s.limit for s in seen] == [0, 1, 2] and budget.states == 25

    # A loss from the looser proof is the answer; its win is not (other rules).
    def looser(verdict: Verdict) -> Runner:
        def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
            return (verdict if stage.looser else Verdict.UNKNOWN), [], 1

        return runner

    plan = Schedule(passes=1.0, plain=2, looser=1.0)
    assert run(plan, Budget.until(far), looser(Verdict.LOST))[0] == Verdict.LOST
    assert run(plan, Budget.until(far), looser(Verdict.WON))[0] == Verdict.UNKNOWN
    # Restarts: depth-first with caps growing from the probe's, seeds 1, 2, ...
    seen.clear()
    budget = Budget.until(far, max_states=100)
    run(Schedule(passes=0.0, probe=4, restarts=1.0), budget, nothing)
    restarts = [(s.seed, s.cap) for s in seen if s.seed]
    assert restarts[:3] == [(1, 8), (2, 16), (3, 16)]
    assert not any(s.shuffle for s in seen)
    # Shuffled restarts after the jittered ones: the seeds go on, each with its cap.
    seen.clear()
    budget = Budget.until(math.inf, max_states=100)  # shares of the states
    run(Schedule(passes=0.0, probe=4, restarts=0.2, shuffled=0.5, shuffle_cap=7), budget, nothing)
    order = [(s.seed, s.cap, s.shuffle) for s in seen if s.seed]
    jittered = [o for o in order if not o[2]]
    assert jittered and order[: len(jittered)] == jittered  # the jittered ones first
    shuffled = order[len(jittered) :]
    assert [o[0] for o in shuffled[:2]] == [len(jittered) + 1, len(jittered) + 2]
    assert all(shuffle for *_, shuffle in shuffled)
    assert [cap for _, cap, _ in shuffled] == [7 * luby(k) for k in range(1, len(shuffled) + 1)]
    assert [luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    assert seen[-1].seed == 0 and not seen[-1].shuffle  # then the exhaustive search
    assert Verdict.of_code(0) == "won" and Verdict.of_code(1) == Verdict.LOST


def test_a_window_lays_the_stages_over_its_seconds_whatever_the_deadline() -> None:
    """``Budget.window``: the stages end at shares of the window, while the deadline
    still ends the search (the fair advisor's sampled solves, with 2 s or 60 s left);
    a search that runs the schedule itself (Hopscotch's native one) gets the same ends
    as shares of the time it has, at most all of it."""
    short = Budget(start=100.0, deadline=102.0, window=60.0)
    assert short.at(0.03) == pytest.approx(101.8)
    assert Budget(start=100.0, deadline=102.0).at(0.03) == pytest.approx(100.06)
    own = Schedule(passes=0.7, restarts=0.7, restart_limit=2, restart_slice=1.0)
    assert for_budget(own, short) == replace(own, passes=1.0, restarts=1.0)
    long = for_budget(own, Budget(start=0.0, deadline=600.0, window=60.0))
    assert (long.passes, long.restarts) == pytest.approx((0.07, 0.07))
    assert for_budget(own, Budget(start=0.0, deadline=600.0)) == own


def test_the_search_by_classes_ends_the_search_with_its_verdict() -> None:
    # A loss, or a win with its line; undecided, the exhaustive search follows it.
    seen: list[Stage] = []
    line = [Move.parse("t1>f1")]

    def classes_say(verdict: Verdict) -> Runner:
        def runner(stage: Stage, states: int | None) -> tuple[Verdict, list[Move], int]:
            seen.append(stage)
            if not stage.classes:
                return Verdict.UNKNOWN, [], 1
            return verdict, line if verdict == Verdict.WON else [], 1

        return runner

    far = time.monotonic() + 3600
    plan = Schedule(passes=1.0, plain=1, classes=1.0)
    assert run(plan, Budget.until(far), classes_say(Verdict.LOST)) == (Verdict.LOST, [])
    assert [(s.limit, s.classes) for s in seen] == [(0, False), (None, True)]
    seen.clear()
    assert run(plan, Budget.until(far), classes_say(Verdict.WON)) == (Verdict.WON, line)
    seen.clear()
    assert run(plan, Budget.until(far), classes_say(Verdict.UNKNOWN)) == (Verdict.UNKNOWN, [])
    assert [(s.limit, s.classes) for s in seen] == [(0, False), (None, True), (None, False)]
    seen.clear()
    run(replace(plan, classes=0.0), Budget.until(far), classes_say(Verdict.LOST))
    assert [s.classes for s in seen] == [False, False]
