"""Every malformed invocation: exit 2 and one line on standard error naming the problem.

FORMATS.md "Command line": 0 success, 2 bad input with a one-line reason, 1 anything
else. Usage errors (unknown command or option, a missing or unreadable value) are bad
input too: one line, never the usage block or a Python exception name.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from patience import new_game
from patience.cli import app
from patience.games import position_to_json

runner = CliRunner()

BAD_INVOCATIONS: list[tuple[str, ...]] = [
    # commands and options
    ("bogus",),
    ("deal", "--bogus"),
    ("deal", "klondike", "--deal"),
    ("deal", "klondike", "extra"),
    ("study",),
    ("--bogus",),
    # --deal
    ("deal", "klondike", "--deal", "-4"),
    ("deal", "klondike", "--deal", "abc"),
    ("deal", "klondike", "--deal", ""),
    ("deal", "klondike", "--deal", "1.5"),
    ("deal", "klondike", "--deal", "1_0"),
    ("deal", "klondike", "--deal", "\u0663"),
    ("deal", "klondike", "--deal", "\uff17"),
    ("deal", "klondike", "--deal", str(10**30)),
    ("deal", "klondike", "--deal", "9" * 5000),
    # digits only: no space, tab or newline around them (docs/decisions.md)
    ("deal", "klondike", "--deal", " 5"),
    ("deal", "klondike", "--deal", "5 "),
    ("deal", "klondike", "--deal", "\t5"),
    ("deal", "klondike", "--deal", "5\n"),
    ("solve", "klondike", "--deal", "\n5"),
    ("moves", "klondike", "--deal", "0x10"),
    # --option
    ("deal", "klondike", "--option", "mode=two"),
    ("deal", "klondike", "--option", "speed=fast"),
    ("deal", "klondike", "--option", "nonsense"),
    ("deal", "klondike", "--option", "=three"),
    ("deal", "klondike", "--option"),
    ("deal", "lady-jane", "--option", "mode=three"),
    # games
    ("deal", "spider"),
    ("deal", "kl\nondike"),
    ("deal",),
    ("moves",),
    # --moves
    ("play", "klondike", "--moves", "t1-t2"),
    ("play", "klondike", "--moves", "t1>t2/\u0663"),
    ("play", "klondike", "--moves", "t\u0661>t2"),
    ("play", "klondike", "--moves", "t1>t2/" + "9" * 5000),
    ("play", "klondike", "--moves", "t1>f1"),
    ("play", "klondike", "--moves", "deal w>z9"),
    ("play", "klondike", "--moves"),
    # --timeout
    ("solve", "klondike", "--timeout", "-1"),
    ("solve", "klondike", "--timeout", "nan"),
    ("solve", "klondike", "--deal", "5", "--timeout", "inf"),
    ("solve", "klondike", "--deal", "5", "--timeout", "1e400"),
    ("solve", "klondike", "--deal", "5", "--timeout", "1e300"),
    ("solve", "klondike", "--timeout", "\u0663"),
    ("solve", "klondike", "--timeout", "soon"),
    # serve (refused before any server starts)
    ("serve", "--port", "99999"),
    ("serve", "--port", "-1"),
    ("serve", "--port", "abc"),
    ("serve", "--port", "\u0668\u0660"),
    ("serve", "--host", "999.1.1.1"),
    ("serve", "--host", "1.2.3"),
    ("serve", "--host", "not a host!"),
    ("serve", "--host", ""),
    ("serve", "--no-browser", "--port", "0", "--data-dir", "/dev/null/x"),
    # study
    ("study", "klondike", "--deals", "5-1"),
    ("study", "klondike", "--deals", ""),
    ("study", "klondike", "--deals", "1-"),
    ("study", "klondike", "--deals", "-3"),
    ("study", "klondike", "--deals", "1,,2"),
    ("study", "klondike", "--deals", "a-b"),
    ("study", "klondike", "--deals", "1-2-3"),
    ("study", "klondike", "--deals", "\u0663"),
    ("study", "klondike", "--deals", "1", "--jobs", "-1"),
    ("study", "klondike", "--deals", "1", "--jobs", "100000"),
    ("study", "klondike", "--deals", "1", "--table-size", str(10**30)),
    ("study", "klondike", "--deals", "1", "--timeout", "nan"),
    ("study", "nosuchgame", "--deals", "1"),
    ("study", "klondike", "--deals", "1", "--db", "/nonexistent/dir/s.db"),
    ("study", "klondike", "--deals", "1", "--db", "/"),
    ("study", "klondike", "--deals", "1", "--db", "/dev/null/x.db"),
    # study --fair
    ("study", "hopscotch", "--deals", "1", "--fair", "--stock-known"),
    ("study", "klondike", "--deals", "1", "--stock-known"),
    ("study", "klondike", "--deals", "1", "--samples", "4"),
    ("study", "klondike", "--deals", "1", "--max-states", "1000"),
    ("study", "klondike", "--deals", "1", "--budget", "1"),
    ("study", "klondike", "--deals", "1", "--fair", "--timeout", "5"),
    ("study", "klondike", "--deals", "1", "--fair", "--table-size", "5000"),
    ("study", "klondike", "--deals", "1", "--fair", "--samples", "0"),
    ("study", "klondike", "--deals", "1", "--fair", "--samples", "many"),
    ("study", "klondike", "--deals", "1", "--fair", "--samples", "100000"),
    ("study", "klondike", "--deals", "1", "--fair", "--max-states", "0"),
    ("study", "klondike", "--deals", "1", "--fair", "--budget", "nan"),
    ("study", "klondike", "--deals", "1", "--fair", "--budget", "-1"),
    ("study", "klondike", "--deals", "5-1", "--fair"),
    ("study", "klondike", "--deals", "1", "--fair", "-o", "mode=four"),
    ("study", "klondike", "--deals", "1", "--fair", "--db", "/dev/null/x.db"),
    # an empty path would quietly be the current folder
    ("study", "klondike", "--deals", "1", "--db", ""),
    ("report", "--db", ""),
    ("report", "--db", " "),
    ("report", "--db", "results", "--out", ""),
    ("report", "--db", "results", "--csv", ""),
]


@pytest.fixture(autouse=True)
def no_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A ``serve`` that got past its checks must not start serving (nor hang the test);
    a ``study`` that did must not leave its database in the working folder."""
    import uvicorn

    monkeypatch.chdir(tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "run", refuse)
    yield


def assert_one_line_refusal(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    assert err.startswith("patience: ") and err.endswith("\n"), err
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err and "Usage:" not in err and "Error" not in err, err
    assert len(err) < 400, err


@pytest.mark.parametrize("args", BAD_INVOCATIONS, ids=repr)
def test_every_bad_invocation_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    result = runner.invoke(app, list(args))
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    return tmp_path / "p.json"


def broken_klondike() -> dict[str, object]:
    data = position_to_json(new_game("klondike", 1))
    data["stock"][0] = data["stock"][1]
    return data


BAD_POSITIONS: list[tuple[str, bytes, str]] = [
    ("not UTF-8", b'{"game": "klondike"\xff\xfe}', "UTF-8"),
    ("not JSON", b"{not json", "not valid JSON"),
    ("empty", b"", "not valid JSON"),
    ("nested", b"[" * 100_000 + b"]" * 100_000, "nested"),
    ("nested object", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested"),
    ("nested pile", json.dumps({"game": "klondike", "stock": [[[[[[["AS"]]]]]]]}).encode(), "card"),
    ("huge number", b"1" * 5000, "not valid JSON: a number too long"),
    ("a list", b"[]", "JSON object"),
    ("a string", b'"klondike"', "JSON object"),
    ("no game", b"{}", "game"),
    ("game is a list", b'{"game": []}', "game"),
    ("unknown game", b'{"game": "spider"}', "unknown game"),
    ("options a list", b'{"game": "klondike", "options": ["x"]}', "options"),
    (
        "deal too large",
        json.dumps({**position_to_json(new_game("klondike", 1)), "deal": 10**30}).encode(),
        "deal",
    ),
    (
        "deal a float",
        json.dumps({**position_to_json(new_game("klondike", 1)), "deal": 1.5}).encode(),
        "deal",
    ),
    ("broken", json.dumps(broken_klondike()).encode(), "duplicate cards"),
    ("tableau wrong", b'{"game": "klondike", "tableau": 3}', "tableau"),
    (
        "redeals huge",
        json.dumps({**position_to_json(new_game("klondike", 1)), "redeals": 10**30}).encode(),
        "redeals",
    ),
]


@pytest.mark.parametrize(
    ("name", "content", "why"), BAD_POSITIONS, ids=[b[0] for b in BAD_POSITIONS]
)
@pytest.mark.parametrize("command", ["deal", "moves", "solve"])
def test_every_bad_position_file_exits_2_naming_the_problem(
    position_file: Path, command: str, name: str, content: bytes, why: str
) -> None:
    position_file.write_bytes(content)
    result = runner.invoke(app, [command, "--position", str(position_file)])
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert why in result.stderr


def test_a_bad_position_on_standard_input_exits_2() -> None:
    result = runner.invoke(app, ["deal", "--position", "-"], input=b"\xff\xfe")
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert "UTF-8" in result.stderr


def test_a_position_path_that_cannot_be_read(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "missing.json"):
        result = runner.invoke(app, ["deal", "--position", str(path)])
        assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
        assert "cannot read" in result.stderr


def test_a_usage_error_names_the_problem() -> None:
    result = runner.invoke(app, ["deal", "--bogus"])
    assert result.stderr == "patience: no such option: --bogus\n"
    result = runner.invoke(app, ["deal", "klondike", "--deal", "\u0663"])
    assert "--deal" in result.stderr and "0-9" in result.stderr
    result = runner.invoke(app, ["serve", "--port", "99999"])
    assert "--port" in result.stderr and "65535" in result.stderr


def test_serve_names_an_address_it_cannot_listen_on(tmp_path: Path) -> None:
    # 192.0.2.1 is reserved for documentation: no machine has it, so binding fails.
    args = ["serve", "--no-browser", "--host", "192.0.2.1", "--port", "0"]
    result = runner.invoke(app, [*args, "--data-dir", str(tmp_path)])
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert "192.0.2.1" in result.stderr


def test_serve_names_a_data_dir_it_cannot_use() -> None:
    args = ["serve", "--no-browser", "--port", "0", "--data-dir", "/dev/null/x"]
    result = runner.invoke(app, args)
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert "/dev/null/x" in result.stderr
    assert "NotADirectoryError" not in result.stderr


def test_help_still_prints_the_help_and_exits_0() -> None:
    for args in (["--help"], ["deal", "--help"], ["serve", "--help"], ["study", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "Usage:" in result.stdout and result.stderr == ""


def test_the_commands_help_is_not_cut() -> None:
    # Click cut each command's description at 45 characters or so with "...".
    result = runner.invoke(app, ["--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    commands = result.stdout.split("Commands:")[1]
    assert "..." not in commands and "\u2026" not in commands
    assert max(len(line) for line in commands.splitlines()) <= 80
    listed = " ".join(commands.split())
    group: Any = typer.main.get_command(app)
    for name, command in group.commands.items():
        first = " ".join((command.help or "").split(".")[0].split())
        assert f"{name} {first}." in listed, (name, first)


def test_the_console_script_prints_one_line_too() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from patience.cli import main; main()", "deal", "--bogus"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "patience: no such option: --bogus\n"
    done = subprocess.run(
        [sys.executable, "-c", "from patience.cli import main; main()", "deal", "lady-jane"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.startswith("Lady Jane, deal 0\n")


def test_serve_on_a_damaged_database_exits_2_naming_the_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "patience.sqlite3").write_bytes(b"this is not a database" * 100)
    result = runner.invoke(app, ["serve", "--no-browser", "--port", "0", "--data-dir", str(data)])
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert "patience.sqlite3" in result.stderr and "damaged" in result.stderr


@pytest.mark.parametrize("option", ["--db", "--out", "--csv"])
def test_report_refuses_an_empty_path(tmp_path: Path, option: str) -> None:
    # `report --db ""` read the current folder (Path("") is "."): with results there, it
    # printed them as if they had been named.
    results = Path(__file__).resolve().parent.parent / "results" / "hopscotch.csv.gz"
    (tmp_path / results.name).write_bytes(results.read_bytes())  # the current folder
    source = [] if option == "--db" else ["--db", str(tmp_path)]
    result = runner.invoke(app, ["report", *source, option, ""])
    assert_one_line_refusal(result.exit_code, result.stdout, result.stderr)
    assert "empty" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [results.name]


@pytest.mark.parametrize("folder", ["", "  "])
def test_serve_refuses_an_empty_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    # `--data-dir ""` was read as Path("") == Path("."): the server quietly made the
    # current folder its data folder (lock file and database) instead of refusing it.
    import uvicorn

    from patience.web.solver_pool import SolverPool

    monkeypatch.chdir(tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "run", refuse)
    monkeypatch.setattr(SolverPool, "start", lambda self: None)  # no worker processes
    result = runner.invoke(app, ["serve", "--no-browser", "--port", "0", "--data-dir", folder])
    assert result.exit_code == 2, (result.exit_code, result.stderr, result.exception)
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert not list(tmp_path.iterdir())


@pytest.fixture
def klondike_file(tmp_path: Path) -> Path:
    f = tmp_path / "p.json"
    f.write_text(json.dumps(position_to_json(new_game("klondike", 7))))
    return f


@pytest.mark.parametrize("option", ["bogus=1", "nonsense", "mode=four"])
def test_a_bad_option_beside_position_exits_2(klondike_file: Path, option: str) -> None:
    """With --position every --option was quietly ignored, even one not key=value."""
    result = runner.invoke(app, ["deal", "--position", str(klondike_file), "--option", option])
    assert result.exit_code == 2, result.stdout[:200]
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("extra", "named"), [(["--option", "mode=three"], "--option"), (["--deal", "0"], "--deal")]
)
def test_option_or_deal_and_position_together_is_refused(
    klondike_file: Path, extra: list[str], named: str
) -> None:
    """FORMATS.md: a command takes either `GAME [--deal N] [--option k=v ...]` or
    `--position FILE`. Asking for mode=three beside a file of mode=single quietly gave
    the file's mode; a deal number, even 0, is refused too."""
    result = runner.invoke(app, ["moves", "--position", str(klondike_file), *extra])
    assert result.exit_code == 2, result.stdout[:200]
    assert result.stderr == f"patience: give either {named} or --position, not both\n"
