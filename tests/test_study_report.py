"""``patience report``: win rates with their intervals, times and states, from study
databases or the repository's per-deal CSV files; Markdown and PNG plots; bad input."""

from __future__ import annotations

import gzip
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patience.cli import app
from patience.study.db import Store
from patience.study.report import lines, paper_text, states_text
from patience.study.results import load

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def make_db(path: Path, rows: dict[tuple[str, str], list[tuple[int, str]]]) -> Path:
    """A study database with the given (deal, result) rows per (game, options)."""
    store = Store(path)
    for (game, options), results in rows.items():
        for deal, result in results:
            row = (
                deal,
                result,
                0.01 * (deal % 7) + 0.001,
                100 * deal,
                5,
            )
            store.put(game, options, row, 60.0 if result != "unknown" else 5.0)
    store.close()
    return path


def klondike_three() -> list[tuple[int, str]]:
    # 820 won of 1000: 82.0%, within the paper's 81.945% +- 0.084 and ours (+-2.4).
    return [(d, "won" if d <= 820 else "lost") for d in range(1, 1001)]


def test_bounds_count_undecided_deals_both_ways(tmp_path: Path) -> None:
    rows = [(d, "won") for d in range(1, 81)] + [(d, "lost") for d in range(81, 91)]
    rows += [(d, "unknown") for d in range(91, 101)]
    db = make_db(tmp_path / "s.db", {("lady-jane", ""): rows})
    (line,) = lines(load([db]))
    assert (line.won, line.lost, line.unknown, line.count) == (80, 10, 10, 100)
    assert line.rate == pytest.approx(80 / 90)
    low, high = line.bounds
    assert low < 0.80 < 0.90 < high  # 80 won of 100 at worst, 90 at best
    lo, hi = line.interval
    assert lo < 80 / 90 < hi and low < lo and hi < high
    assert str(line.deals) == "1-100" and [d for d, _, _ in line.undecided] == list(range(91, 101))


def test_report_writes_markdown_plots_and_csv_and_reads_them_back(tmp_path: Path) -> None:
    db = make_db(
        tmp_path / "study.db",
        {
            ("klondike", "mode=three"): klondike_three(),
            ("hopscotch", ""): [(d, "won") for d in (*range(1, 11), 20)] + [(34, "unknown")],
        },
    )
    docs, results = tmp_path / "docs", tmp_path / "results"
    docs.mkdir()
    out = docs / "winnability.md"
    args = ["report", "--db", str(db), "--out", str(out), "--csv", str(results)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Hopscotch: deals 1-10, 20, 34" in res.stdout
    assert "undecided: 34" in res.stdout
    assert "Klondike (mode=three): deals 1-1000" in res.stdout
    assert "82.00 (79.50-84.26)" in res.stdout and "agrees" in res.stdout
    page = out.read_text()
    assert f"`patience report --db {results} --out {out}`" in page
    assert "| Klondike (mode=three) | 1,000 | 820 | 180 | 0 | 100.00 |" in page
    assert "- Hopscotch: 34" in page and "deals 1-10, 20, 34" in page
    for png in ("winnability-rates.png", "winnability-times.png"):
        assert f"![{png}]({png})" in page
        assert (docs / png).read_bytes().startswith(PNG)
    files = sorted(p.name for p in results.iterdir())
    assert files == ["hopscotch.csv.gz", "klondike_mode=three.csv.gz"]
    head = gzip.decompress((results / "hopscotch.csv.gz").read_bytes()).decode().splitlines()
    assert head[0] == "game,options,deal,result,seconds,states,moves,timeout"
    assert head[1] == "hopscotch,,1,won,0.0110,100,5,60"
    # One command makes the page again from the CSV files alone: the same page, and
    # the same CSV bytes when they are written again.
    before = {p.name: p.read_bytes() for p in results.iterdir()}
    out.unlink()
    res = runner.invoke(app, ["report", "--db", str(results), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text() == page
    res = runner.invoke(app, ["report", "--db", str(results), "--csv", str(results)])
    assert {p.name: p.read_bytes() for p in results.iterdir()} == before


def test_sources_merge_a_verdict_over_an_unknown(tmp_path: Path) -> None:
    a = make_db(tmp_path / "a.db", {("hopscotch", ""): [(1, "unknown"), (2, "won")]})
    b = make_db(tmp_path / "b.db", {("hopscotch", ""): [(1, "won"), (3, "won")]})
    (line,) = lines(load([a, b]))
    assert (line.won, line.unknown, str(line.deals)) == (3, 0, "1-3")
    c = make_db(tmp_path / "c.db", {("hopscotch", ""): [(2, "lost")]})
    res = runner.invoke(app, ["report", "--db", str(a), "--db", str(c)])
    assert res.exit_code == 2
    assert res.stderr == "patience: hopscotch deal 2 is both won and lost in the sources\n"


def test_report_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = make_db(tmp_path / "empty.db", {})
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE results (deal INTEGER)")
    conn.close()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "x.csv.gz").write_bytes(b"not gzip at all")
    (tmp_path / "nocsv").mkdir()
    for args, reason in (
        (["--db", str(tmp_path / "missing.db")], "no such file or folder"),
        (["--db", str(empty)], "no study results in"),
        (["--db", str(other)], "as the study database"),
        (["--db", str(broken)], "cannot read"),
        (["--db", str(tmp_path / "nocsv")], "holds no per-deal results"),
        ([], "missing option '--db'"),
    ):
        res = runner.invoke(app, ["report", *args])
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.startswith("patience: ") and reason in res.stderr, res.stderr
        assert len(res.stderr.splitlines()) == 1
    assert not (tmp_path / "missing.db").exists()  # a report creates no database
    # The plots need the report extra; the printed tables do not.
    db = make_db(tmp_path / "s.db", {("hopscotch", ""): [(1, "won")]})
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    res = runner.invoke(app, ["report", "--db", str(db), "--out", str(tmp_path / "w.md")])
    assert res.exit_code == 2 and "pip install 'patience[report]'" in res.stderr
    res = runner.invoke(app, ["report", "--db", str(db)])
    assert res.exit_code == 0 and "Hopscotch: deals 1" in res.stdout


def test_a_game_this_version_does_not_know_is_reported_by_its_stored_name(
    tmp_path: Path,
) -> None:
    db = make_db(tmp_path / "s.db", {("freecell", "cells=4"): [(1, "won")]})
    res = runner.invoke(app, ["report", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("freecell cells=4: deals 1\n")


def test_the_work_table_counts_the_deals_over_5_and_30_seconds(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    for deal, seconds, result in ((1, 0.2, "won"), (2, 5.5, "won"), (3, 31.0, "lost"),
                                  (4, 60.0, "unknown"), (5, 5.0, "won")):  # fmt: skip
        store.put("lady-jane", "", (deal, result, seconds, 10, 0), 60.0)
    store.close()
    res = runner.invoke(
        app, ["report", "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "w.md")]
    )
    assert res.exit_code == 0, res.output
    assert "over 5 s 3, over 30 s 2" in res.stdout  # 5.0 s itself is not over 5 s
    page = (tmp_path / "w.md").read_text()
    assert "| game | seconds: median | p90 | max | over 5 s | over 30 s |" in page
    assert "| Lady Jane | 5.500 |" in page and " | 60.000 | 3 | 2 | " in page


def test_the_paper_is_compared_with_the_rate_and_with_the_bounds_undecided_deals_leave(
    tmp_path: Path,
) -> None:
    # 800 won, 150 lost, 50 undecided: 84.21% of decided agrees within its +-2.3 points,
    # and the paper's 81.945% lies in the bounds (80.0% to 85.0% of all, widened).
    rows = [(d, "won" if d <= 800 else "lost" if d <= 950 else "unknown") for d in range(1, 1001)]
    db = make_db(tmp_path / "s.db", {("klondike", "mode=three"): rows})
    (line,) = lines(load([db]))
    text = paper_text(line)
    assert text is not None and ": agrees;" in text
    assert "their figure is inside the bounds our 50 undecided deals leave on all 1,000" in text
    # All of them decided and lost: the rate falls to 80.0%, still agreeing, and the
    # bounds close on it (77.4-82.4): inside.
    rows = [(d, "won" if d <= 800 else "lost") for d in range(1, 1001)]
    (line,) = lines(load([make_db(tmp_path / "t.db", {("klondike", "mode=three"): rows})]))
    assert "inside the bounds our 0 undecided deals" in (paper_text(line) or "")
    # 600 won of 1000: far from the paper, and outside the bounds.
    rows = [(d, "won" if d <= 600 else "lost") for d in range(1, 1001)]
    (line,) = lines(load([make_db(tmp_path / "u.db", {("klondike", "mode=three"): rows})]))
    text = paper_text(line) or ""
    assert ": differs;" in text and "is outside the bounds" in text


def test_the_page_names_every_undecided_deal_and_the_terminal_the_first_30(
    tmp_path: Path,
) -> None:
    # 40 undecided deals: a researcher trying them again needs every number from the
    # page; the terminal names 30 and counts the rest.
    rows = [(d, "won") for d in range(1, 61)] + [(d, "unknown") for d in range(61, 101)]
    db = make_db(tmp_path / "s.db", {("lady-jane", ""): rows})
    out = tmp_path / "w.md"
    res = runner.invoke(app, ["report", "--db", str(db), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "undecided: " + ", ".join(map(str, range(61, 91))) + " and 10 more" in res.stdout
    # The page gives each its try too (make_db: under a second, 100 states a deal
    # number), so that how hard it is can be read without the database.
    named = ", ".join(f"{d} (0 s, {100 * d:,} states)" for d in range(61, 101))
    assert "- Lady Jane: " + named + "\n" in out.read_text()


def test_an_undecided_deal_s_states_are_counted_in_millions_from_a_million() -> None:
    assert states_text(999_999) == "999,999 states"
    assert states_text(144_897_001) == "145 million states"


def test_a_deal_decided_in_a_longer_try_is_decided_but_not_within_60_seconds(
    tmp_path: Path,
) -> None:
    # The goal counts deals decided within 60 s each; one proved lost at 214 s in a
    # 300 s try is decided, outside that share, and named with its time.
    store = Store(tmp_path / "s.db")
    for deal in range(1, 99):
        store.put("lady-jane", "", (deal, "won", 1.0, 10, 5), 60.0)
    store.put("lady-jane", "", (99, "lost", 214.2, 10**8, 0), 300.0)
    store.put("lady-jane", "", (100, "unknown", 300.0, 10**8, 0), 300.0)
    store.close()
    (line,) = lines(load([tmp_path / "s.db"]))
    assert (line.won, line.lost, line.unknown, line.in_time) == (98, 1, 1, 98)
    out = tmp_path / "w.md"
    res = runner.invoke(app, ["report", "--db", str(tmp_path / "s.db"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "(99.00% decided, 98.00% within 60 s)" in res.stdout
    assert "decided after 60 s: 99 (lost, 214 s)" in res.stdout
    page = out.read_text()
    assert "| decided % | in 60 s % |" in page and "| 99.00 | 98.00 |" in page
    assert "## Decided after more than 60 s\n\n- Lady Jane: 99 (lost, 214 s)\n" in page


def test_a_study_of_a_shorter_time_is_reported_against_its_own_time(tmp_path: Path) -> None:
    # A study run with --timeout 10 was said to be "100.00% within 60 s": a time no deal
    # was given. The goal is the study's own time when it gave less than 60 s.
    store = Store(tmp_path / "s.db")
    for deal in range(1, 100):
        store.put("lady-jane", "", (deal, "won", 1.0, 10, 5), 10.0)
    store.put("lady-jane", "", (100, "unknown", 10.0, 10**6, 0), 10.0)
    store.close()
    (line,) = lines(load([tmp_path / "s.db"]))
    assert (line.goal, line.in_time) == (10.0, 99)
    out = tmp_path / "w.md"
    res = runner.invoke(app, ["report", "--db", str(tmp_path / "s.db"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "(99.00% decided, 99.00% within 10 s)" in res.stdout
    assert "60 s" not in res.stdout
    page = out.read_text()
    assert "| decided % | in 10 s % |" in page and "| 99.00 | 99.00 |" in page
    assert "in 60 s" not in page and "## Decided after more than 10 s" in page


def test_of_two_rows_with_one_verdict_the_quicker_is_kept(tmp_path: Path) -> None:
    # A deal a later solver proves within 60 s is decided within 60 s, whichever
    # source comes first; the slower row's time is not the one reported.
    slow, quick = tmp_path / "slow.db", tmp_path / "quick.db"
    for path, row, timeout in (
        (slow, (7511, "lost", 117.3, 60_000_000, 0), 300.0),
        (quick, (7511, "lost", 44.0, 27_000_000, 0), 60.0),
    ):
        store = Store(path)
        store.put("klondike", "mode=unlimited", row, timeout)
        store.close()
    for order in ([slow, quick], [quick, slow]):
        (line,) = lines(load(order))
        assert (line.lost, line.in_time, line.late) == (1, 1, ())
        assert line.seconds == (44.0,)
