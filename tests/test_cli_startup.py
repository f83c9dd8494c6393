"""``patience solve`` starts light (issue 56): through the console script's entry point
it loads neither the web stack, pydantic, Rich, the studies, fair play nor another game's
native search, and Typer reads every value as it would with pydantic. A test on what is
imported, not on time: bench/startup.py measures the time."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import typer
import typer.main

from patience.cli import app
from patience.cli_app import PlainValues, plain_values

EASY = [
    ("klondike", "--deal", "1"),
    ("klondike", "-o", "mode=no-redeal", "--deal", "27"),
    ("lady-jane", "--deal", "5"),
    ("bakers-dozen", "--deal", "4"),
    ("hopscotch", "--deal", "2"),
    ("freecell", "--deal", "4"),
]
"""An easy deal of each game, and Klondike's mode without redeals."""

HEAVY = (
    "fastapi", "starlette", "uvicorn", "anyio", "httptools", "uvloop", "pydantic",
    "pydantic_core", "rich", "babel", "sqlite3", "matplotlib", "distributed",
    "patience.web", "patience.fair", "patience.study", "patience.store", "patience.i18n",
    "patience.i18n_catalogs", "patience.daily", "patience.assist",
)  # fmt: skip
"""What ``patience solve`` must not import: packages and their submodules."""

# The console script runs patience.__main__.main; here it runs in a fresh interpreter, as
# from a shell, and reports the modules then loaded and whether the collector was on.
SCRIPT = """
import gc, json, sys
from patience.__main__ import main
status = 0
sys.argv = ["patience", "solve", *sys.argv[1:]]
try:
    main()
except SystemExit as exc:
    status = exc.code
print(json.dumps({"status": status, "gc": gc.isenabled(), "modules": sorted(sys.modules)}))
"""


def solve_in_a_fresh_process(args: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """The output of ``patience solve ARGS`` and the interpreter's report after it."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True, check=True
    )
    output, _, report = done.stdout.rstrip("\n").rpartition("\n")
    return output, json.loads(report)


@pytest.mark.parametrize("args", EASY, ids=" ".join)
def test_solve_loads_no_heavy_module_and_one_native_search(args: tuple[str, ...]) -> None:
    output, report = solve_in_a_fresh_process(args)
    assert report["status"] == 0 and output.startswith("won\n"), output
    modules = report["modules"]
    assert [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)] == []
    native = [m for m in modules if m.startswith("patience.solver._")]
    assert len(native) == 1, native  # the game's own search, no other game's
    assert report["gc"]  # the command runs with the collector on


def test_python_m_patience_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "patience", "solve", "freecell", "--deal", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "patience: invalid value for '--deal' / '-d': invalid deal number 'x': "
        "expected digits 0-9\n"
    )


def read(coercer: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    """What ``coercer`` makes of ``value``: the value, or the error and its message."""
    try:
        return ("value", coercer.coerce(value, param=param, ctx=ctx))
    except Exception as exc:  # noqa: BLE001 - compared, not handled
        message = exc.format_message() if isinstance(exc, typer.TyperException) else str(exc)
        return (type(exc).__name__, message)


VALUES = ["5", "0", "-1", "x", "", " 7 ", "1e3", "1_0", "\udcff", "nan", "65536", "a=b"]
LISTS: list[Any] = [("5",), ("a=b", "c=d"), (), ["x"], "not a list", (5,)]


def test_plain_values_read_every_parameter_as_typer_does() -> None:
    from typer._coercion import build_runtime_param  # Typer's own, the reference

    group: Any = typer.main.get_command(app)
    checked = 0
    for command in group.commands.values():
        ctx = typer.Context(command)
        for param in [*command.params, command.get_help_option(ctx)]:
            param._runtime_param = None
            plain_values(param)
            ours = param._runtime_param
            if ours is None:
                continue
            assert isinstance(ours, PlainValues)
            theirs = build_runtime_param(param.type_descriptor)
            many = param.multiple or param.nargs == -1
            values = LISTS if many else VALUES + [None, True, 5, 2.5]
            if param.name == "host":  # a name that is not an address is looked up
                values = ["127.0.0.1", "::1", "999.1.1.1", "", "1.2.3", None]
            for value in [*values, param.default]:
                assert read(ours, value, param, ctx) == read(theirs, value, param, ctx), (
                    command.name,
                    param.name,
                    value,
                )
                param._runtime_param = ours  # a value not plain handed it back to Typer
                checked += 1
    assert checked > 300
