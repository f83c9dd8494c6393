"""bench/proofs.py's table: each side's verdicts and totals, and a difference flagged."""

from __future__ import annotations

from bench_scripts import load_bench

proofs = load_bench("proofs")


def side(result: str, cpu: float, states: int) -> dict[str, object]:
    return {"result": result, "cpu": cpu, "states": states}


def test_the_totals_count_each_sides_decided_deals() -> None:
    rows = [
        [side("lost", 50.0, 30_000_000), side("lost", 20.0, 9_000_000)],
        [side("unknown", 60.0, 40_000_000), side("won", 4.0, 1_000)],
    ]
    table, status = proofs.report([3343, 7], rows)
    assert status == 0
    lines = table.splitlines()
    assert "lost    50.0 s    30,000,000" in lines[1]
    assert (
        lines[-2]
        == "before: 1 of 2 decided (0 within 5 s, 0 within 30 s), 110.0 CPU s, 70,000,000 states"
    )
    assert (
        lines[-1]
        == "after: 2 of 2 decided (1 within 5 s, 2 within 30 s), 24.0 CPU s, 9,001,000 states"
    )


def test_two_verdicts_for_one_deal_are_flagged() -> None:
    table, status = proofs.report([5], [[side("won", 1.0, 10), side("lost", 2.0, 20)]])
    assert status == 1
    assert "VERDICTS DIFFER" in table.splitlines()[1]
