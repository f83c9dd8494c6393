"""bench/startup.py: ``patience solve`` of an easy deal of every game and mode, its CPU
a call set against the goal, also from bench/solver.py --startup."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench_scripts import BENCH, load_bench

startup = load_bench("startup")
solver = load_bench("solver")


def test_every_game_and_mode_has_an_easy_deal() -> None:
    # The registry as the bench sees it, in a process of its own: tests register toy games.
    script = "import json; from patience.games import variants; print(json.dumps(variants()))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    titles = [startup.label(name, options) for name, options in json.loads(done.stdout)]
    assert sorted(startup.EASY) == sorted(titles)
    found = startup.cases()
    assert [title for title, _, _ in found if title in startup.EASY] == titles
    title, args, deal = found[2]
    assert (title, deal) == ("klondike:mode=no-redeal", 27)
    assert args == ["solve", "klondike", "-o", "mode=no-redeal", "--deal", "27"]
    assert [t for t, _, _ in startup.cases(["bakers-dozen"])] == titles[5:8]


def test_a_row_and_the_goal_line() -> None:
    row = startup.figures("freecell", 4, "won", [0.090, 0.110, 0.100, 0.140])
    assert row.split() == ["freecell", "4", "won", "110.0", "105.0", "90.0", "140.0"]
    line = startup.verdict_line({"freecell": 0.105, "hopscotch": 0.151})
    assert line == ("slowest median 151.0 ms a call (hopscotch): OVER the goal of 150 ms")
    assert "within the goal" in startup.verdict_line({"freecell": 0.15})


def test_a_run_prints_each_game_against_the_goal() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "startup.py"), "-n", "2", "--only", "freecell"]
        + ["--only", "klondike:mode=three"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[2].split()[0] == "game/mode"
    assert lines[3].startswith("python -c pass ")
    rows = [line.split() for line in lines[4:6]]
    assert [row[:3] for row in rows] == [
        ["klondike:mode=three", "3", "won"],
        ["freecell", "4", "won"],
    ]
    assert all(0 < float(x) for row in rows for x in row[3:])
    assert lines[6].startswith("slowest median ") and "the goal of 150 ms" in lines[6]


def test_an_unknown_game_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "startup.py"), "--only", "klondyke"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "--only matches no game/mode" in done.stderr


def test_the_solver_bench_prints_these_figures(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    measure = startup.report
    monkeypatch.setitem(sys.modules, "startup", startup)  # what `import startup` finds
    monkeypatch.setattr(startup, "report", lambda: measure(1, ["hopscotch"]))
    monkeypatch.setattr(sys, "argv", ["solver.py", "--startup"])
    with pytest.raises(SystemExit) as stop:
        solver.main()
    assert stop.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[4].split()[:3] == ["hopscotch", "2", "won"]
    assert out[5].startswith("slowest median ") and "(hopscotch)" in out[5]
