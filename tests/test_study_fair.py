"""``patience study --fair``: a bot plays each deal knowing only what a player would;
its won or lost is stored apart from the thoughtful verdicts (which stay untouched),
resumably; ``patience report`` shows it beside the thoughtful rate of the same deals."""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patience.cli import app
from patience.fair.advisor import Settings
from patience.study.db import Store
from patience.study.deals import parse_deals
from patience.study.fairplay import run_fair_study, settings_text
from patience.study.work import FairRow, FairTask, play_fair

runner = CliRunner()

# Baker's Dozen hides no card: one arrangement a decision, each solve within a few
# thousand states. The budget is far beyond what such a solve takes, so the verdicts
# do not depend on how fast the machine is.
SMALL = ["--samples", "2", "--max-states", "3000", "--budget", "600"]
SETTINGS = Settings(samples=2, max_states=3000, budget=600)


def dump(db: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4, 5").fetchall()
    conn.close()
    return rows


def thoughtful_db(path: Path) -> Path:
    """A study database of thoughtful verdicts: Baker's Dozen deal 2 proved lost (as a
    stand-in), deals 1 and 3 won; and a row of another game."""
    store = Store(path)
    for deal, result in ((1, "won"), (2, "lost"), (3, "won")):
        store.put("bakers-dozen", "build=any-suit,kings=to-bottom", (deal, result, 0.5, 9, 40), 30)
    store.put("hopscotch", "", (1, "won", 0.1, 5, 60), 30)
    store.close()
    return path


class Fake:
    """A runner that plays nothing: each task's row says won, and the deals given are
    recorded; ``stop_after`` rows, it is interrupted (as by Ctrl-C)."""

    lost = 0

    def __init__(self, stop_after: int | None = None) -> None:
        self.given: list[int] = []
        self.stop_after = stop_after

    def __call__(self, tasks: Iterator[FairTask], count: int) -> Generator[FairRow, None, None]:
        for n, task in enumerate(tasks):
            if n == self.stop_after:
                raise KeyboardInterrupt
            self.given.append(task[2])
            yield task[2], "won", 1.5, 3, 50


def test_a_fair_study_plays_stores_apart_and_resumes(tmp_path: Path) -> None:
    db = thoughtful_db(tmp_path / "s.db")
    thoughtful = dump(db, "results")
    args = ["study", "bakers-dozen", "--deals", "1-3", "--fair", *SMALL, "-j", "1"]
    res = runner.invoke(app, [*args, "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["deals"] == 3 and data["unknown"] == 0 and data["won"] + data["lost"] == 3
    assert data["fair"] == {"setting": "real", "settings": settings_text(SETTINGS)}
    rows = dump(db, "fair_results")
    key = ("bakers-dozen", "build=any-suit,kings=to-bottom", "real", settings_text(SETTINGS))
    assert [r[:5] for r in rows] == [(*key, d) for d in (1, 2, 3)]
    # Deal 2 is proved lost in this file: lost for every player, not played.
    assert rows[1][5:] == (0, 0.0, 0, 0, 0)
    # The played deals are the bot's own verdicts, the ones its unit of work gives.
    for row in (rows[0], rows[2]):
        deal, result, _, decisions, moves = play_fair(("bakers-dozen", {}, row[4], False, SETTINGS))
        assert (row[5], row[7], row[8], row[9]) == (result == "won", moves, decisions, 1)
    assert dump(db, "results") == thoughtful  # the thoughtful rows untouched
    # A rerun plays nothing.
    res = runner.invoke(app, [*args, "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith(
        f"Baker's Dozen (build=any-suit, kings=to-bottom), fair play (real): all 3 deals "
        f"already stored in {db}"
    )
    assert dump(db, "fair_results") == rows


def test_a_rerun_plays_only_what_is_missing_and_an_interruption_loses_only_deals_in_flight(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.db"
    deals = parse_deals("1-6")
    with pytest.raises(KeyboardInterrupt):
        run_fair_study(
            "hopscotch", {}, deals, runner=Fake(stop_after=2), settings=SETTINGS, db=db,
            show_progress=False,
        )  # fmt: skip
    assert [r[4] for r in dump(db, "fair_results")] == [1, 2]
    again = Fake()
    summary = run_fair_study(
        "hopscotch", {}, deals, runner=again, settings=SETTINGS, db=db, show_progress=False
    )
    assert again.given == [3, 4, 5, 6] and summary.deals == 6 and summary.won == 6
    assert dump(db, "results") == []  # a fair study writes no thoughtful row
    # Other settings, or the paper's setting of Klondike, are other bots: played anew.
    other = Fake()
    run_fair_study(
        "hopscotch", {}, deals, runner=other, settings=Settings(samples=3), db=db,
        show_progress=False,
    )  # fmt: skip
    assert other.given == [1, 2, 3, 4, 5, 6]
    real, paper = Fake(), Fake()
    for fake, known in ((real, False), (paper, True)):
        run_fair_study(
            "klondike", {"mode": "three"}, parse_deals("1-2"), runner=fake, settings=SETTINGS,
            stock_known=known, db=db, show_progress=False,
        )  # fmt: skip
    assert real.given == paper.given == [1, 2]
    settings = {(r[0], r[2]) for r in dump(db, "fair_results")}
    assert settings == {("hopscotch", "real"), ("klondike", "paper"), ("klondike", "real")}


def test_an_old_study_file_keeps_working_and_gets_the_fair_table_only_when_asked(
    tmp_path: Path,
) -> None:
    db = thoughtful_db(tmp_path / "s.db")
    before = db.read_bytes()
    res = runner.invoke(app, ["report", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "fair" not in res.stdout
    assert db.read_bytes() == before  # a report creates no table
    with sqlite3.connect(db) as conn:
        names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "fair_results" not in names


def test_a_fair_table_of_another_shape_is_refused(tmp_path: Path) -> None:
    db = thoughtful_db(tmp_path / "s.db")
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE fair_results (deal INTEGER)")
    conn.close()
    args = ["study", "hopscotch", "--deals", "1", "--fair", "--db", str(db)]
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.output
    assert res.stderr.startswith("patience: cannot use the fair table of the study database")
    res = runner.invoke(app, ["report", "--db", str(db)])
    assert res.exit_code == 2 and "cannot read the study database" in res.stderr


def fair_db(path: Path) -> Path:
    """Thoughtful verdicts and a fair bot's over Baker's Dozen deals 1-3."""
    thoughtful_db(path)
    run_fair_study(
        "bakers-dozen", {}, parse_deals("1-3"), runner=Fake(), settings=SETTINGS, db=path,
        show_progress=False,
    )  # fmt: skip
    return path


def test_the_report_shows_the_fair_rate_beside_the_thoughtful_one(tmp_path: Path) -> None:
    db = fair_db(tmp_path / "s.db")
    out, results = tmp_path / "docs" / "w.md", tmp_path / "results"
    out.parent.mkdir()
    res = runner.invoke(app, ["report", "--db", str(db), "--out", str(out), "--csv", str(results)])
    assert res.exit_code == 0, res.output
    text = res.stdout.splitlines()
    i = text.index(f"  fair play (real; {settings_text(SETTINGS)}): deals 1-3")
    assert text[i - 5] == "Baker's Dozen (build=any-suit, kings=to-bottom): deals 1-3"
    # 2 won of 3: deal 2 is lost, proved so by the solver.
    assert text[i + 1] == (
        "    won 2, win % 66.67 (20.77-93.85) of 3 (95%); 1 proved lost by the solver, not played"
    )
    assert text[i + 2] == "    thoughtful, same deals: 66.67 (20.77-93.85) of 3 decided"
    assert text[i + 3] == "    seconds a deal played: median 1.500, p90 1.500, max 1.500"
    assert text[i - 1].startswith("  states: ") and text[i + 4] == "Hopscotch: deals 1"
    page = out.read_text()
    assert "## Fair play" in page
    assert (
        f"| Baker's Dozen (build=any-suit, kings=to-bottom) | real | {settings_text(SETTINGS)} "
        "| 3 | 2 | 66.67 (20.77-93.85) | 66.67 (20.77-93.85) of 3 decided | 1 | 1.5 | 1.5 |"
    ) in page
    # The CSV export holds the fair rows in a file of their own, from which the same
    # page is made again.
    files = sorted(p.name for p in results.iterdir())
    assert files == [
        "bakers-dozen_build=any-suit_kings=to-bottom.csv.gz",
        "bakers-dozen_build=any-suit_kings=to-bottom.fair.csv.gz",
        "hopscotch.csv.gz",
    ]
    fair = gzip.decompress((results / files[1]).read_bytes()).decode().splitlines()
    assert fair[0] == "game,options,setting,settings,deal,won,seconds,moves,decisions,played"
    assert fair[2] == (
        f'bakers-dozen,"build=any-suit,kings=to-bottom",real,"{settings_text(SETTINGS)}",'
        "2,0,0.0000,0,0,0"
    )
    out.unlink()
    res2 = runner.invoke(app, ["report", "--db", str(results), "--out", str(out)])
    assert res2.exit_code == 0, res2.output
    assert res2.stdout == res.stdout
    assert out.read_text() == page.replace(f"--db {db} ", f"--db {results} ")


def test_a_report_of_fair_rows_alone(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    run_fair_study(
        "hopscotch", {}, parse_deals("4-5"), runner=Fake(), settings=SETTINGS, db=db,
        show_progress=False,
    )  # fmt: skip
    out = tmp_path / "w.md"
    res = runner.invoke(app, ["report", "--db", str(db), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "## Fair play" in out.read_text() and "## Plots" not in out.read_text()
    assert not list(tmp_path.glob("*.png"))  # no plot of thoughtful verdicts there are not
    lines = res.stdout.splitlines()
    assert lines[:2] == [
        "Hopscotch: fair play only",
        f"  fair play (real; {settings_text(SETTINGS)}): deals 4-5",
    ]
    assert "    thoughtful, same deals: -" in lines


def test_the_help_gives_the_fair_bots_defaults() -> None:
    res = runner.invoke(app, ["study", "--help"])
    assert res.exit_code == 0, res.output
    help_text = " ".join(res.stdout.split())
    d = Settings()
    for option, value in (("samples", d.samples), ("states", d.max_states), ("decision", d.budget)):
        assert re.search(rf"{option}[^()]*\(default {value:g}\)", help_text), (option, help_text)


def test_a_fair_study_stopped_part_way_holds_no_lost_deal_beyond_those_it_played(
    tmp_path: Path,
) -> None:
    # Proved lost: 2 and 5 (of 1-6). Stopped after playing 1 and 3, the file must not
    # hold 5 as lost: a report would count it, and not 4 and 6, which might be won.
    db = tmp_path / "s.db"
    store = Store(db)
    for deal in (2, 5):
        store.put("hopscotch", "", (deal, "lost", 0.5, 9, 0), 30)
    store.close()
    with pytest.raises(KeyboardInterrupt):
        run_fair_study(
            "hopscotch", {}, parse_deals("1-6"), runner=Fake(stop_after=2), settings=SETTINGS,
            db=db, show_progress=False,
        )  # fmt: skip
    assert [(r[4], r[9]) for r in dump(db, "fair_results")] == [(1, 1), (2, 0), (3, 1)]
    again = Fake()
    summary = run_fair_study(
        "hopscotch", {}, parse_deals("1-6"), runner=again, settings=SETTINGS, db=db,
        show_progress=False,
    )  # fmt: skip
    assert again.given == [4, 6] and (summary.deals, summary.won, summary.lost) == (6, 4, 2)
    played = [(r[4], r[9]) for r in dump(db, "fair_results")]
    assert played == [(1, 1), (2, 0), (3, 1), (4, 1), (5, 0), (6, 1)]
