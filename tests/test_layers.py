"""The engine is pure and layered: each of its modules imports only modules of its own
layer or below (cards < position, moves < rules < games < solver), and nothing of the
application or the shells (session, store, web, cli, ...). Read from the source, so a
function-level import counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "patience"

LAYERS = {
    "cards": 0,
    "errors": 0,
    "position": 1,
    "moves": 1,
    "rules": 2,
    "games": 3,
    "solver": 4,
}
"""Each engine module's layer, by its first name under ``patience``."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str | None = None) -> set[str]:
    """The ``patience`` modules ``path`` (module ``module``) imports, as absolute names
    (those imported for the type checker only included)."""
    module = module or _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.add(name)
            # ``from . import x`` names a module too.
            found.update(f"{name}.{a.name}" for a in node.names)
    return {n for n in found if n == "patience" or n.startswith("patience.")}


def _layer(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) < 2:
        return None
    if parts[1] in LAYERS:
        return LAYERS[parts[1]]
    # Anything else of ours (session, store, fair, web, cli, ...) is above the engine.
    return 99 if (SRC / parts[1]).exists() or (SRC / f"{parts[1]}.py").exists() else None


ENGINE = sorted(
    p for p in SRC.rglob("*.py") if p.relative_to(SRC).parts[0].removesuffix(".py") in LAYERS
)


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: str(p.relative_to(SRC)))
def test_an_engine_module_imports_nothing_above_its_layer(path: Path) -> None:
    own = LAYERS[path.relative_to(SRC).parts[0].removesuffix(".py")]
    above = sorted(n for n in _imports(path) if (layer := _layer(n)) is not None and layer > own)
    assert not above, f"{_module_name(path)} (layer {own}) imports {above}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    # The rule is only as good as the import reader: it must see a function-level,
    # relative import of a higher layer (as position.py's JSON methods once had).
    fake = tmp_path / "position.py"
    fake.write_text("def to_json():\n    from .games import game_for\n    from .web import app\n")
    found = _imports(fake, "patience.position")
    assert {"patience.games", "patience.web"} <= found
    assert _layer("patience.games") == 3 and _layer("patience.web") == 99


def _import_graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in [*SRC.rglob("*.py"), *SRC.rglob("*.pyi")]}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found = _imports(path, name)
        # ``from . import x`` names the package only when x is not a module of it.
        modules = {m for m in found if m in paths and m != name}
        graph[name] = {n for n in modules if not any(m.startswith(f"{n}.") for m in modules)}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_through_others() -> None:
    # Function-level and type-checking imports count: a lazy import that closes a cycle
    # only hides it, and a type-only one still ties the two modules together.
    assert _cycles(_import_graph()) == [], "import cycles"


def test_the_cycle_check_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
