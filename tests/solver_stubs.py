"""Stand-ins for the solver's work in the tests, for the web app's worker processes.

A worker is another process: it does not see the test's objects or its monkeypatches.
So a stand-in is a module-level function (it pickles by name, and the worker imports
this module from the same path), and the test steers it through files in a folder that
the environment variable ``GATE`` names (set it before the first search: a worker takes
the environment it starts with). A held search writes ``searching-N`` (its budget) and
``pid-N`` when it starts, and goes on until the test calls ``release`` or cancels it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any
from unittest import mock

from patience import assist
from patience.assist import Cancel
from patience.position import Position

GATE = "PATIENCE_TEST_GATE"
UNKNOWN = {"verdict": "unknown", "move": None, "line": []}
WAIT = 60.0
"""Seconds to wait for a worker on a busy machine (a bound that should never be met)."""


def gate() -> Path:
    """The folder of the test that set GATE."""
    return Path(os.environ[GATE])


def release(folder: Path) -> None:
    """Let every held search (of the test's folder) answer."""
    (folder / "release").touch()


def wait_for(path: Path) -> str:
    """The text of ``path`` once a worker has written it."""
    deadline = time.monotonic() + WAIT
    while not path.exists():
        assert time.monotonic() < deadline, f"no {path.name} from the worker"
        time.sleep(0.01)
    return path.read_text()  # whole: ``put`` renames it into place once written


def put(path: Path, text: str) -> None:
    """Write ``path`` so that it appears whole: a test waiting for it read it empty
    between its creation and its write, on a busy machine (issue 57's suite run)."""
    part = path.with_name("." + path.name + ".part")
    part.write_text(text)
    part.replace(path)


def hold(timeout: float, cancel: Cancel) -> bool:
    """Say the search started, then wait: True once released, False once cancelled."""
    folder = gate()
    n = len(list(folder.glob("searching-*")))
    put(folder / f"pid-{n}", str(os.getpid()))
    put(folder / f"searching-{n}", repr(timeout))
    while not cancel.is_set():
        if (folder / "release").exists():
            return True
        time.sleep(0.01)
    (folder / f"cancelled-{n}").touch()
    return False


def hold_hints(monkeypatch: Any, folder: Path) -> None:
    """One solver slot, and proven hints (``compute_hint``) held in it by ``held_hint``,
    steered through ``folder``: how a test keeps the solver busy for as long as it likes."""
    from patience.web import solver_pool

    monkeypatch.setenv(GATE, str(folder))
    monkeypatch.setattr(assist, "compute_hint", held_hint)
    monkeypatch.setattr(solver_pool, "SOLVER_SLOTS", 1)


def held_hint(position: Position, timeout: float, cancel: Cancel) -> dict[str, Any]:
    """``compute_hint`` that holds its slot; then 'unknown' (released or cancelled)."""
    hold(timeout, cancel)
    return UNKNOWN


def held_real_hint(position: Position, timeout: float, cancel: Cancel) -> dict[str, Any]:
    """``compute_hint`` that holds its slot; once released, the solver's real hint."""
    if not hold(timeout, cancel):
        return UNKNOWN
    return assist.compute_hint(position, timeout, cancel)


def held_fair_hint(
    position: Position, knowledge: Any, keys: Any, timeout: float, cancel: Cancel, **_: Any
) -> dict[str, Any]:
    """``fair_assist.fair_hint`` that holds its slot; then 'unknown' with no chance."""
    hold(timeout, cancel)
    return {**UNKNOWN, "fair": True}


def held_chance(
    position: Position, knowledge: Any, timeout: float, cancel: Cancel, **_: Any
) -> dict[str, Any]:
    """``fair_assist.chance_of`` that holds its slot; then no estimate."""
    hold(timeout, cancel)
    return {
        "chance": None,
        "interval": None,
        "samples": 0,
        "undecided": 0,
        "exact": False,
        "cut": False,
    }


def hint_with_a_failing_solver(
    position: Position, timeout: float, cancel: Cancel
) -> dict[str, Any]:
    """``compute_hint`` in a worker where the solver raises (a bug in it)."""

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a solver bug")

    with mock.patch.object(assist.solver, "hint", fail):
        return assist.compute_hint(position, timeout, cancel)


def worker_facts(seconds: float, cancel: Cancel) -> dict[str, int]:
    """Work that says where it runs: its process and its niceness."""
    return {"pid": os.getpid(), "nice": os.nice(0) if hasattr(os, "nice") else 0}


def seconds_given(seconds: float, cancel: Cancel) -> float:
    """Work that says how many seconds it was given."""
    return seconds


def held(seconds: float, cancel: Cancel) -> str:
    """Work that holds until released ('released') or cancelled ('cancelled')."""
    return "released" if hold(seconds, cancel) else "cancelled"


def fails(seconds: float, cancel: Cancel) -> None:
    """Work that raises, as a solver bug would."""
    raise ValueError("a solver bug")
