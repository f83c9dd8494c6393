"""The pure-Python searches' answers where tests use them as the oracle of another
search: the depth-first search (``patience.solver.dfs.search``) for the native ones and
the pruned Baker's Dozen solver, the best-first one (``patience.solver.best.search``)
for its native twin. Committed in ``SEARCH_GOLDEN`` and read in place of searching
again, since the Python searches took most of those tests' time (41 of 44 CPU s in
test_solver_native). test_search_golden.py searches a sample of them again live, so a
change of a Python search or of the rules that makes them stale is caught there.

Make the file again (after such a change, or when a test draws other positions):
delete it, then ``SEARCH_REGEN=1 pytest -n0 tests/test_solver_native.py
tests/test_solver_bakers_dozen.py tests/test_solver_best.py tests/test_search_golden.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from golden_file import GoldenFile
from patience import Position, game_for
from patience.games import position_to_json
from patience.moves import Move
from patience.solver import best
from patience.solver.base import Adapter
from patience.solver.dfs import search
from patience.solver.schedule import Verdict
from patience.solver.search import adapter_for

SEARCH_GOLDEN = Path(__file__).parent / "golden" / "search.json.gz"
"""One JSON line per position, states budget and search: the ``verdict``, the ``states``
the search expanded and the winning ``line`` (moves in FORMATS.md notation, or [])."""

KINDS = ("own", "plain", "best0", "best1", "best2", "best3", "best4")
"""``own``: the depth-first search with the game's adapter (its cuts, safe moves and
order); ``plain``: with the generic ``Adapter`` (every legal move, no cut); ``best<k>``:
the best-first search with the game's adapter's estimate k."""

_golden = GoldenFile(
    SEARCH_GOLDEN,
    "SEARCH_REGEN",
    "no search verdict pinned for {key}: see search_golden.py to make them",
)


def search_key(p: Position, max_states: int, kind: str) -> str:
    """An entry's key: the position's JSON (formats.md), compact, the budget, the search."""
    if kind not in KINDS:
        raise ValueError(f"the search must be one of {KINDS}, not {kind!r}")
    position = json.dumps(position_to_json(p), sort_keys=True, separators=(",", ":"))
    return f"{position}@{max_states}/{kind}"


def live_search(p: Position, max_states: int, kind: str) -> tuple[str, int, list[str]]:
    """The search itself: its verdict, the states it expanded, its winning line."""
    rules = game_for(p)
    if kind.startswith("best"):
        verdict, line, states = best.search(
            p, adapter_for(rules), int(kind[4:]), max_states=max_states
        )
    else:
        chosen = adapter_for(rules) if kind == "own" else Adapter(rules)
        verdict, line, states = search(p, chosen, max_states=max_states)
    return str(verdict), states, [str(m) for m in line]


def load_search_golden() -> dict[str, dict[str, Any]]:
    """The committed entries by ``search_key``."""
    return _golden.entries()


def pinned_search(p: Position, max_states: int, kind: str = "own") -> str:
    """The verdict of the ``kind`` of search from ``p`` within ``max_states`` as
    committed (a test that draws another position finds none and fails)."""
    return str(_pinned_entry(p, max_states, kind)["verdict"])


def pinned_best(p: Position, which: int, max_states: int) -> tuple[Verdict, list[Move], int]:
    """``best.search(p, adapter_for(game), which, max_states=max_states)`` as committed."""
    entry = _pinned_entry(p, max_states, f"best{which}")
    line = [Move.parse(m) for m in entry["line"]]
    return Verdict(entry["verdict"]), line, int(entry["states"])


def _pinned_entry(p: Position, max_states: int, kind: str) -> dict[str, Any]:
    """The committed entry; with SEARCH_REGEN set, searched live and added to the file."""

    def decide() -> dict[str, Any]:
        verdict, states, line = live_search(p, max_states, kind)
        return {"verdict": verdict, "states": states, "line": line}

    return _golden.entry(search_key(p, max_states, kind), decide)
