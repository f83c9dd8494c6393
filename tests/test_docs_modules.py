"""Every module of the package is named where a reader looks for it: docs/architecture.md,
or docs/solver.md for the solver's (issue 57: six front-end modules, fair/ and study/ had
no place in the architecture)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "patience"
SOURCES = ("*.py", "*.js", "*.c", "*.h")
MODULES = sorted(
    p
    for pattern in SOURCES
    for p in SRC.rglob(pattern)
    if p.name != "__init__.py" and "locales" not in p.parts
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_every_module_is_named_in_the_docs(path: Path) -> None:
    docs = ["architecture.md"] + (["solver.md"] if "solver" in path.parts else [])
    text = " ".join((ROOT / "docs" / d).read_text(encoding="utf-8") for d in docs)
    assert path.name in text, f"{path.relative_to(SRC)} is named in none of {docs}"
