"""The page asks for every module at once: index.html preloads each module that its
scripts import, directly or not, so that no module waits for the one importing it to
arrive first (a round trip per level of imports), and names no module it does not use.
(Issue #17: the first playable board under a second.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from patience.web.app import STATIC_DIR

IMPORT = re.compile(
    r'(?:\bimport|\bexport)\b[^"\';]*?\bfrom\s*"\./([\w.-]+\.js)"|\bimport\s*"\./([\w.-]+\.js)"'
)


class Head(HTMLParser):
    """The module scripts and the modulepreload links of a page, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.preloads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("type") == "module" and a.get("src"):
            self.scripts.append(str(a["src"]))
        if tag == "link" and a.get("rel") == "modulepreload":
            self.preloads.append(str(a["href"]))


def imports_of(name: str) -> set[str]:
    """The modules that the module ``name`` imports or re-exports from."""
    text = (STATIC_DIR / name).read_text(encoding="utf-8")
    return {a or b for a, b in IMPORT.findall(text)}


def graph_from(roots: list[str]) -> set[str]:
    """Every module that ``roots`` load, them included."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imports_of(name))
    return seen


def page() -> Head:
    """What index.html loads."""
    head = Head()
    head.feed((STATIC_DIR / "index.html").read_text(encoding="utf-8"))
    return head


def test_the_import_pattern_reads_every_form() -> None:
    text = (
        'import {\n  a,\n} from "./x.js";\nimport * as y from "./y.js";\n'
        'export { z } from "./z.js";\nimport "./w.js";'
    )
    assert {a or b for a, b in IMPORT.findall(text)} == {"x.js", "y.js", "z.js", "w.js"}


def test_every_module_the_page_loads_is_preloaded_and_no_other() -> None:
    head = page()
    modules = graph_from(head.scripts)
    assert "app.js" in head.scripts and "render.js" in modules
    assert len(head.preloads) == len(set(head.preloads))
    assert set(head.preloads) == modules - set(head.scripts)
    # Every module of the folder is used by the page: none is left out of the graph.
    assert modules == {p.name for p in STATIC_DIR.glob("*.js")}


def test_the_first_requests_module_runs_first_and_its_imports_come_first() -> None:
    head = page()
    assert head.scripts == ["early.js", "app.js"]
    first = imports_of("early.js")
    assert first and graph_from(["early.js"]) == first | {"early.js"}
    assert set(head.preloads[: len(first)]) == first
