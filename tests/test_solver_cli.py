"""The ``solve`` and ``study`` commands: output formats, timeouts, bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from patience import Move, game_for, new_game
from patience.cli import app

runner = CliRunner()


def test_solve_text_and_json() -> None:
    res = runner.invoke(app, ["solve", "klondike", "--deal", "3", "-o", "mode=unlimited"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "won"
    p = new_game("klondike", 3, {"mode": "unlimited"})
    g = game_for(p)
    for token in lines[1].split():
        p = g.play(p, Move.parse(token))
    assert g.is_won(p)
    res = runner.invoke(app, ["solve", "klondike", "--deal", "3", "-o", "mode=unlimited", "--json"])
    data = json.loads(res.stdout)
    assert set(data) == {"result", "moves", "states", "seconds"}
    assert data["result"] == "won" and data["moves"] == lines[1].split()


def test_solve_timeout_is_unknown() -> None:
    # No time at all: nothing is searched, even on a deal won in a few hundred states.
    hard = ["solve", "klondike", "--deal", "3", "--option", "mode=unlimited", "--timeout", "0"]
    res = runner.invoke(app, [*hard, "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["result"] == "unknown" and data["moves"] == []
    res = runner.invoke(app, hard)
    assert res.stdout.strip() == "unknown"


def test_solve_position_file_lost(tmp_path: Path) -> None:
    p = new_game("bakers-dozen", 1)
    data = p.to_json()
    # Everything home but hearts; 2H covers AH and 3H lies under KH: lost.
    data["deal"] = None
    data["foundations"] = [[f"{r}{s}" for r in "A23456789TJQK"] for s in "CDS"] + [[]]
    hearts = [f"{r}H" for r in "456789TJQK"]
    data["tableau"] = [{"down": [], "up": ["AH", "2H"]}, {"down": [], "up": ["3H", *hearts]}]
    data["tableau"] += [{"down": [], "up": []}] * 11
    data.pop("score")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["solve", "--position", str(path)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == "lost"


def test_solve_bad_input() -> None:
    for args in (
        ["solve", "nosuchgame"],
        ["solve", "klondike", "-o", "mode=four"],
        ["solve", "--position", "/nonexistent/file.json"],
        ["study", "klondike", "--deals", "5-1"],
        ["study", "nosuchgame", "--deals", "1"],
    ):
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert "patience:" in res.stderr


def test_study_resumes(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    args = ["study", "klondike", "-o", "mode=unlimited", "--deals", "1-3", "--jobs", "1"]
    args += ["--timeout", "5", "--db", str(db)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "won" in res.stdout and "95%" in res.stdout
    rows = sqlite3.connect(db).execute("SELECT deal, result FROM results").fetchall()
    assert sorted(d for d, _ in rows) == [1, 2, 3]
    # A rerun over a larger range solves only the new deals.
    rerun = ["study", "klondike", "-o", "mode=unlimited", "--deals", "1-4", "--jobs", "2"]
    res = runner.invoke(app, [*rerun, "--timeout", "5", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["deals"] == 4 and data["won"] + data["lost"] + data["unknown"] == 4
    assert 0 <= data["win_rate_95"][0] <= data["win_rate"] <= data["win_rate_95"][1] <= 1
