"""bench/fair_goals.py: issue 55's goals counted from per-deal rows, met or not."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from bench_scripts import load_bench
from patience.study.results import write_csv, write_fair_csv

goals = load_bench("fair_goals")

BD = ("bakers-dozen", "build=other-suit,kings=to-bottom")
BOT = "samples=8,proven=60"


def results_folder(tmp: Path, deals: int, lost_winnable: set[int]) -> Path:
    """Baker's Dozen rows of ``deals`` deals, every one won by the solver, the bot losing
    ``lost_winnable``; Hopscotch's bot at 81% of 2,000; draw 3's paper rows at 42%."""
    thoughtful = {
        BD: {d: (*BD, d, "won", 0.1, 10, 80, 60.0) for d in range(1, deals + 1)},
        ("hopscotch", ""): {
            d: ("hopscotch", "", d, "won", 0.1, 10, 80, 60.0) for d in range(1, 2001)
        },
    }
    fair = {
        (*BD, "real", BOT): {
            d: (*BD, "real", BOT, d, int(d not in lost_winnable), 0.1, 80, 1, 1)
            for d in range(1, deals + 1)
        },
        ("hopscotch", "", "real", "rollouts"): {
            d: ("hopscotch", "", "real", "rollouts", d, int(d % 100 < 81), 0.1, 48, 28, 1)
            for d in range(1, 2001)
        },
    }
    write_csv(tmp, thoughtful)  # type: ignore[arg-type]
    write_fair_csv(tmp, fair)  # type: ignore[arg-type]
    paper = [
        {
            "label": "klondike:mode=three",
            "setting": "paper",
            "deal": d,
            "fair": d % 100 < 42,
            "seconds": 5.0,
        }
        for d in range(1, 1001)
    ]
    with gzip.open(tmp / "fair-bench.jsonl.gz", "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in paper)
    return tmp


@pytest.mark.parametrize(
    ("deals", "lost", "verdict"),
    [(2000, set(), "MET"), (2000, {17}, "not met"), (1999, set(), "not met")],
)
def test_each_goal_is_counted_from_the_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], deals: int, lost: set[int], verdict: str
) -> None:
    goals.main(results_folder(tmp_path, deals, lost))
    out = capsys.readouterr().out.splitlines()
    three = next(x for x in out if x.startswith("Klondike draw 3"))
    assert "420/1000 = 42.00%" in three and three.endswith("not met")
    hop = next(x for x in out if x.startswith("Hopscotch"))
    assert "1620/2000 = 81.00%" in hop and hop.endswith(": MET")
    bd = next(x for x in out if x.startswith("Baker's Dozen"))
    assert f"winnable deals lost: {len(lost)} {sorted(lost)}" in bd
    assert bd.endswith(f": {verdict}")
