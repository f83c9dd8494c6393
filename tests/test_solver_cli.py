"""The ``solve`` and ``study`` commands: output formats, timeouts, bad input."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from patience import Move, game_for, new_game
from patience.cli import app
from patience.games import position_to_json

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
    data = position_to_json(p)
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


def test_deal_ranges_are_drawn_lazily() -> None:
    import tracemalloc
    from itertools import islice

    from patience.study.deals import parse_deals

    small = parse_deals("5,1-3,2,10-12,4")
    assert not isinstance(small, list)  # a list would be built in full (330 MB a million)
    assert list(small) == [1, 2, 3, 4, 5, 10, 11, 12] and small.count == 8
    assert 4 in small and 9 not in small and 13 not in small and 0 not in small
    tracemalloc.start()
    try:
        huge = parse_deals("7,1-1000000000000")
        assert huge.count == 10**12
        assert list(islice(huge, 3)) == [1, 2, 3]
        assert 999_999_999_999 in huge and 10**12 + 1 not in huge
        assert tracemalloc.get_traced_memory()[1] < 100_000
    finally:
        tracemalloc.stop()


def test_study_deals_beyond_the_database_integers_are_refused(tmp_path: Path) -> None:
    from patience.study.deals import parse_deals

    assert not isinstance(parse_deals("1"), list)  # the old list would take forever
    for deals in (f"1-{10**30}", str(2**63)):
        res = runner.invoke(app, ["study", "klondike", "--deals", deals, "--db", str(tmp_path)])
        assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.output


def test_a_study_rerun_with_nothing_left_says_so(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    args = ["study", "lady-jane", "--deals", "2,1", "--jobs", "1", "--timeout", "0.5"]
    res = runner.invoke(app, [*args, "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "Lady Jane" in res.stdout
    res = runner.invoke(app, [*args, "--db", str(db)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == f"Lady Jane: all 2 deals already stored in {db}"
    assert "0/0" not in res.stdout and "ETA" not in res.stdout
    assert "95%" in res.stdout and "Lady Jane" in lines[1]  # the final table still
    res = runner.invoke(app, [*args, "--db", str(db), "--json"])
    assert json.loads(res.stdout)["deals"] == 2


def test_a_study_database_of_another_shape_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE results (deal INTEGER)")
    conn.close()
    notdb = tmp_path / "text.db"
    notdb.write_text("not a database, just text " * 100)
    for path in (db, notdb):
        res = runner.invoke(app, ["study", "klondike", "--deals", "1", "--db", str(path)])
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"patience: cannot use {path} as the study database")


def test_solve_imports_only_what_it_needs() -> None:
    # `patience solve` of an easy deal should cost little more than the solve: it does
    # not load the web server, the store, the studies or the deal of the day (each
    # imported where its command runs). Checked in a fresh interpreter, as a shell runs it.
    script = (
        "import sys\n"
        "sys.argv = ['patience', 'solve', 'klondike', '--deal', '3', '-o', 'mode=unlimited']\n"
        "from patience.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("won\n")
    loaded = set(done.stderr.split())
    heavy = (
        "fastapi", "uvicorn", "starlette", "anyio", "sqlite3", "dask", "distributed",
        "patience.web", "patience.store", "patience.study", "patience.daily",
        "patience.assist", "patience.fair", "patience.session",
    )  # fmt: skip
    assert not {m for m in loaded if m.split(".")[0] in heavy or m.startswith(heavy)}
