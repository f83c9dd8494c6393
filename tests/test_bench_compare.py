"""bench/compare.py's table: the verdict is by instructions, CPU time only beside them."""

from __future__ import annotations

from bench_scripts import load_bench

compare = load_bench("compare")


def _runs(
    cpu: list[float], instr: list[int], states: int = 100, moves: int = 7
) -> tuple[list, list]:
    native = [
        {"engine x play": {"cpu": c, "moves": moves}, "solver x": {"cpu": c, "states": states}}
        for c in cpu
    ]
    counted = [
        {"engine x play": {"instr": n, "moves": moves}, "solver x": {"instr": n, "states": states}}
        for n in instr
    ]
    return native, counted


def test_noisy_cpu_time_alone_does_not_fail_the_verdict() -> None:
    cpu_b, instr_b = _runs([1.0, 1.5], [1_000_000, 1_000_000])
    cpu_a, instr_a = _runs([1.3, 2.0], [1_010_000, 1_010_000])  # least CPU +30%, instr +1%
    table = compare.report(
        {"before": cpu_b, "after": cpu_a}, {"before": instr_b, "after": instr_a}, 5
    )
    assert "!" not in table
    assert "+1.0% in instructions (the verdict: within 5%); +30.0% in CPU seconds" in table
    assert "same moves" in table and "same states" in table
    assert "agree within 0.000%" in table


def test_more_instructions_over_the_limit_are_flagged() -> None:
    cpu_b, instr_b = _runs([1.0], [1_000_000, 1_000_100])
    cpu_a, instr_a = _runs([1.0], [1_060_000, 1_060_000], states=101)
    table = compare.report(
        {"before": cpu_b, "after": cpu_a}, {"before": instr_b, "after": instr_a}, 5
    )
    assert table.count("  !") == 2
    assert "the verdict: OVER 5%" in table
    assert "solver x: states differ, [100] before, [101] after" in table
    assert "agree within 0.010%" in table


def test_playouts_that_made_other_moves_are_named() -> None:
    cpu_b, instr_b = _runs([1.0], [1_000_000])
    cpu_a, instr_a = _runs([1.0], [1_000_000], moves=8)
    table = compare.report(
        {"before": cpu_b, "after": cpu_a}, {"before": instr_b, "after": instr_a}, 5
    )
    assert "engine x play: moves differ, [7] before, [8] after" in table
    assert "same moves" not in table
