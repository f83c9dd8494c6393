"""The command line of FORMATS.md: deal, moves, play; exit codes 0 / 2 / 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from patience import new_game, play
from patience.cli import app
from patience.games import position_from_json, position_to_json

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_deal_prints_the_starting_position_as_json() -> None:
    code, out, _ = run("deal", "klondike", "--deal", "7", "--json")
    assert code == 0
    assert position_from_json(json.loads(out)) == new_game("klondike", 7)


def test_deal_with_options_and_text_output() -> None:
    code, out, _ = run("deal", "klondike", "-d", "3", "--option", "mode=three")
    assert code == 0 and "t7:" in out and "stock:" in out and "three" in out


def test_moves_lists_every_legal_move_one_per_line() -> None:
    code, out, _ = run("moves", "bakers-dozen", "--deal", "1")
    p = new_game("bakers-dozen", 1)
    from patience import legal_moves

    assert code == 0 and out.split() == [str(m) for m in legal_moves(p)]
    code, out, _ = run("moves", "bakers-dozen", "--deal", "1", "--json")
    assert json.loads(out) == [str(m) for m in legal_moves(p)]


def test_play_prints_the_resulting_position() -> None:
    code, out, _ = run("play", "klondike", "-d", "1", "--moves", "deal deal", "--json")
    expected = play(play(new_game("klondike", 1), "deal"), "deal")
    assert code == 0 and position_from_json(json.loads(out)) == expected


def test_play_stops_at_the_first_illegal_move_naming_it_and_its_index() -> None:
    code, out, err = run("play", "klondike", "-d", "1", "--moves", "deal t1>f1 deal")
    assert code == 2 and out == ""
    assert "move 2" in err and "t1>f1" in err and "QH cannot start f1" in err
    assert len(err.strip().splitlines()) == 1


def test_position_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    p = play(new_game("hopscotch", 2), "deal")
    f = tmp_path / "p.json"
    f.write_text(json.dumps(position_to_json(p)))
    code, out, _ = run("moves", "--position", str(f))
    assert code == 0 and "w>r1" in out.split()
    code, out, _ = run("moves", "--position", "-", stdin=json.dumps(position_to_json(p)))
    assert code == 0 and "w>r1" in out.split()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deal", "spider"), "unknown game 'spider'"),
        (("deal", "klondike", "--option", "mode=two"), "valid values: single, three"),
        (("deal", "klondike", "--option", "speed=fast"), "unknown option 'speed'"),
        (("deal", "klondike", "--option", "nonsense"), "expected key=value"),
        (("play", "klondike", "--moves", "t1-t2"), "invalid move"),
        (("deal",), "missing GAME"),
        (("deal", "--position", "/nonexistent/file.json"), "cannot read"),
        (("deal", "klondike", "--deal", "-4"), ""),
    ],
)
def test_bad_input_exits_2_with_a_one_line_reason(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert message in err
    assert "Traceback" not in err + out


def test_broken_position_exits_2_naming_the_problem(tmp_path: Path) -> None:
    data = position_to_json(new_game("klondike", 1))
    data["stock"][0] = data["stock"][1]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    code, _, err = run("deal", "--position", str(f))
    assert code == 2 and "duplicate cards" in err
    f.write_text("{not json")
    code, _, err = run("moves", "--position", str(f))
    assert code == 2 and "not valid JSON" in err


def test_help_reads_well() -> None:
    code, out, _ = run("--help")
    assert code == 0
    for command in ("serve", "deal", "moves", "play", "solve"):
        assert command in out
    code, out, _ = run("play", "--help")
    assert code == 0 and "--moves" in out and "--position" in out


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        (("deal", "klondike", "-d", "42", "-o", "mode=three"), "Klondike (mode=three), deal 42"),
        (("deal", "lady-jane", "-d", "7"), "Lady Jane, deal 7"),
        (
            ("deal", "bakers-dozen", "-d", "1"),
            "Baker's Dozen (build=any-suit, kings=to-bottom), deal 1",
        ),
    ],
)
def test_the_position_heading_reads_as_text(args: tuple[str, ...], first_line: str) -> None:
    code, out, _ = run(*args)
    assert code == 0 and out.splitlines()[0] == first_line


def test_a_position_without_a_deal_number_says_none(tmp_path: Path) -> None:
    data = position_to_json(new_game("lady-jane", 7))
    data["deal"] = None
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data))
    code, out, _ = run("deal", "--position", str(f))
    assert code == 0 and out.splitlines()[0] == "Lady Jane"


def won_bakers_dozen() -> dict[str, Any]:
    """Every card on the foundations: no legal move is left."""
    return {
        "game": "bakers-dozen",
        "options": {},
        "deal": None,
        "foundations": [[r + s for r in "A23456789TJQK"] for s in "CDHS"],
        "tableau": [{"down": [], "up": []} for _ in range(13)],
    }


def test_moves_with_no_legal_move_prints_no_line(tmp_path: Path) -> None:
    """`patience moves` lists the legal moves one per line: none is no line (one empty
    line was counted as a move by `wc -l` and read as one by `while read m`)."""
    f = tmp_path / "won.json"
    f.write_text(json.dumps(won_bakers_dozen()))
    result = runner.invoke(app, ["moves", "--position", str(f)])
    assert result.exit_code == 0
    assert result.stdout == ""
