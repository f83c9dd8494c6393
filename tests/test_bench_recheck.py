"""bench/recheck.py: the committed results solved again, with a contradiction reported
as one (exit status 1, the deal named), not counted among the undecided."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

_BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture()
def recheck(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("recheck", _BENCH / "recheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # The pool's workers find ``work`` by its module's name.
    monkeypatch.setitem(sys.modules, "recheck", module)
    spec.loader.exec_module(module)
    return module


def test_the_sample_holds_decided_deals_only_and_is_the_same_each_time(recheck: ModuleType) -> None:
    path = recheck.RESULTS / "klondike_mode=three.csv.gz"
    first = recheck.sample(path, 50, 0.0, 0)
    assert len(first) == 50 and all(v in ("won", "lost") for *_, v in first)
    assert first == recheck.sample(path, 50, 0.0, 0)
    assert first != recheck.sample(path, 50, 0.0, 1)
    slow = recheck.sample(path, 5, 30.0, 0)
    rows = {r[2]: r for r in recheck.read_csv(path)}
    assert slow and all(rows[deal][4] >= 30.0 for _, _, deal, _ in slow)


def _run(recheck: ModuleType, monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["recheck.py", "--only", "hopscotch", *args])
    return int(recheck.main())


def test_verdicts_solved_again_agree(
    recheck: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(recheck, monkeypatch, "--per-file", "3", "--timeout", "20") == 0
    out = capsys.readouterr().out
    assert "hopscotch" in out and "CONTRADICTED" not in out
    assert out.splitlines()[1].split()[1:5] == ["3", "3", "0", "0"]


def flipped(job: tuple[str, str, int, str, float]) -> tuple[str, str, int, str, str, float, int]:
    """A solver that gives every deal the other verdict (module level: the pool pickles it)."""
    game, options, deal, verdict, _ = job
    return game, options, deal, verdict, "lost" if verdict == "won" else "won", 0.0, 1


def test_a_contradiction_fails_and_names_the_deal(
    recheck: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(recheck, "work", flipped)
    out_file = tmp_path / "rows.jsonl"
    assert _run(recheck, monkeypatch, "--per-file", "2", "--out", str(out_file)) == 1
    out = capsys.readouterr().out
    assert out.count("CONTRADICTED: hopscotch deal ") == 2
    assert len(out_file.read_text().splitlines()) == 2
