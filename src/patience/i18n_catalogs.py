"""Catalog maintenance: the messages extracted from the code and the pages, each
language's ``.po`` brought up to date, compiled to ``.mo``, and checked.

``python -m patience.i18n_catalogs extract|update|compile|check`` runs ``main``; babel.cfg names
the extraction methods here. The running app needs none of it (``i18n`` loads the
compiled catalogs).
"""

from __future__ import annotations

import ast
import copy
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PACKAGE_DIR,
    mo_path,
    po_path,
    reload,
)
from .js_messages import calls as js_calls

TEMPLATE_FILE = LOCALE_DIR / f"{DOMAIN}.pot"
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}
"""The classic gettext rules. Babel's CLDR data adds a third form for round millions
(``1000000 de coups``), which no message here ever needs; two forms keep the JSON and
the front end's rule simple."""
ENGLISH_NAMES = {"en": "English", "es": "Spanish", "fr": "French"}
HEADER = """\
# {language} messages of patience, a solitaire suite.
# Copyright (C) 2026 the patience authors
# This file is distributed under the same license as the patience project (GPL-3.0-or-later).
# Message ids are the English texts; update with `python -m patience.i18n_catalogs update`.
#"""

STATIC_DIR = PACKAGE_DIR / "web" / "static"
JS_KEYWORDS: dict[str, Any] = {"t": None, "tn": (1, 2), "_": None}
PY_KEYWORDS: dict[str, Any] = {"_": None, "gettext": None, "ngettext": (1, 2)}
_DATA_I18N = re.compile(r"""data-i18n(?:-[a-z-]+)?\s*=\s*(?:"([^"]+)"|'([^']+)')""")

Extracted = tuple[int, str | tuple[str, str], list[str]]


def extract_data_i18n(text: str) -> Iterator[Extracted]:
    """Every ``data-i18n="English text"`` (and ``data-i18n-<attr>``) message in ``text``."""
    for match in _DATA_I18N.finditer(text):
        lineno = text.count("\n", 0, match.start()) + 1
        yield lineno, match[1] or match[2], []


def _python_messages(path: Path) -> Iterator[Extracted]:
    from babel.messages.extract import extract_python

    with path.open("rb") as fh:
        for lineno, func, message, comments in extract_python(
            fh, PY_KEYWORDS, ["TRANSLATORS:"], {}
        ):
            yield from _keyword_message(lineno, func, message, comments, PY_KEYWORDS)


def _js_messages(path: Path) -> Iterator[Extracted]:
    text = path.read_text(encoding="utf-8")
    for lineno, func, args in js_calls(text, JS_KEYWORDS):
        yield from _keyword_message(lineno, func, args, [], JS_KEYWORDS)
    yield from extract_data_i18n(text)


def _keyword_message(
    lineno: int, func: Any, message: Any, comments: Any, keywords: Mapping[str, Any]
) -> Iterator[Extracted]:
    # Babel's low-level extractors give every string argument; keep the keyword's ones.
    spec = keywords.get(func)
    args = message if isinstance(message, tuple) else (message,)
    if spec is None:
        if args and isinstance(args[0], str) and args[0]:
            yield lineno, args[0], comments
    elif len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        yield lineno, (args[0], args[1]), comments


ENGINE_MODULES = ("cards.py", "moves.py")
"""The engine's modules outside rules/ and games/ whose errors reach the player: what
cannot be read as a deal number, a card or a move."""

ENGINE_TABLES = ("BUILD_REFUSALS", "RANK_PLURALS")
"""Engine tables whose strings reach the player: refusal templates and ``{ranks}`` values."""


def _engine_templates() -> Iterator[tuple[Path, Extracted]]:
    """The engine's messages, found by reading its source (the engine imports no i18n)."""
    folders = (PACKAGE_DIR / "rules", PACKAGE_DIR / "games")
    engine = [PACKAGE_DIR / name for name in ENGINE_MODULES]
    engine += [path for folder in folders for path in sorted(folder.glob("*.py"))]
    for path in engine:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for lineno, text, comment in engine_messages(tree):
            yield path, (lineno, text, [comment])


def engine_messages(tree: ast.AST) -> Iterator[tuple[int, str, str]]:
    """(line, text, comment) of each player-visible string in an engine module.

    They are: the template of every ``Refusal("...")``, any literal ``template=``
    argument or ``template = "..."`` assignment (an error's template), the strings of
    the tables in ``ENGINE_TABLES``, each game's ``title`` (the ``{game}`` param of
    refusals, and the name the menus show), and every text marked ``N_("...")`` (what a
    game declares: its options' names and its help).
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name == "Refusal" and node.args and _is_str(node.args[0]):
                yield _const(node.args[0], "refusal of a move")
            if name == "N_" and node.args and _is_str(node.args[0]):
                yield _const(node.args[0], "declared by a game")
            for kw in node.keywords:
                if kw.arg == "template" and _is_str(kw.value):
                    yield _const(kw.value, "refusal of a move")
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if not isinstance(target, ast.Name):
                continue
            if target.id in ENGINE_TABLES:
                values = node.value.values if isinstance(node.value, ast.Dict) else [node.value]
                for value in values:
                    for item in ast.walk(value):
                        if _is_str(item) and cast(ast.Constant, item).value:
                            yield _const(item, f"engine table {target.id}")
            elif target.id == "title" and _is_str(node.value):
                yield _const(node.value, "game name")
            elif target.id == "template" and _is_str(node.value):
                yield _const(node.value, "error message")


def _is_str(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _const(node: ast.AST, comment: str) -> tuple[int, str, str]:
    assert isinstance(node, ast.Constant)
    return node.lineno, str(node.value), comment


def babel_extract_data_i18n(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for ``data-i18n`` attributes (``patience.i18n:babel_...``)."""
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, message, comments in extract_data_i18n(text):
        yield lineno, "", str(message), comments


def babel_extract_js(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method for JS: keyword calls (``js_messages``), then ``data-i18n``.

    Babel's own JavaScript lexer misreads some regular expression literals and then
    misses every call after them; ours does not (and fails loudly when lost).
    """
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, func, args in js_calls(text, keywords):
        yield lineno, func, args[0] if len(args) == 1 else args, []
    for lineno, message, comments in extract_data_i18n(text):
        yield lineno, "", message, comments


def babel_extract_engine(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for the engine's player-visible strings (``engine_messages``)."""
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for lineno, text, comment in engine_messages(tree):
        yield lineno, "", text, [comment]


def source_files() -> list[Path]:
    """Every file messages are extracted from (Python package, static JS and HTML)."""
    py = [
        p
        for p in sorted(PACKAGE_DIR.rglob("*.py"))
        if "locales" not in p.parts and p.name != "cli.py"
    ]
    web = sorted(p for p in STATIC_DIR.rglob("*") if p.suffix in (".js", ".html"))
    return py + web


def extract() -> Catalog:
    """A fresh template catalog of every message the code uses."""
    catalog = Catalog(project="patience", domain=DOMAIN, fuzzy=False)
    found: list[tuple[Path, Extracted]] = []
    for path in source_files():
        if path.suffix == ".py":
            found.extend((path, item) for item in _python_messages(path))
        elif path.suffix == ".js":
            found.extend((path, item) for item in _js_messages(path))
        else:
            text = path.read_text(encoding="utf-8")
            found.extend((path, item) for item in extract_data_i18n(text))
    found.extend(_engine_templates())
    for path, (lineno, message, comments) in found:
        where = path.relative_to(PACKAGE_DIR.parent).as_posix()
        catalog.add(message, None, [(where, lineno)], auto_comments=comments)
    return catalog


def message_ids(catalog: Catalog) -> set[str | tuple[str, str]]:
    """The ids of a catalog (a plural message's id is its (singular, plural) pair)."""
    ids: set[str | tuple[str, str]] = set()
    for m in catalog:
        if m.id:
            ids.add((m.id[0], m.id[1]) if isinstance(m.id, (list, tuple)) else m.id)
    return ids


def read_catalog(path: Path, lang: str | None = None) -> Catalog:
    """Read a ``.po`` or ``.pot`` file."""
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def _write_po(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=100, omit_header=False, include_lineno=False)


def update(template: Catalog) -> dict[str, list[str]]:
    """Merge ``template`` into every language's ``.po``; return the untranslated ids.

    Obsolete entries are dropped (not kept as ``#~``): a catalog holds only ids the
    code uses. English maps every id to itself. No fuzzy matching: a changed English
    text needs a fresh translation, not a guess.
    """
    missing: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(path, lang)
        else:
            catalog = Catalog(
                locale=lang,
                domain=DOMAIN,
                project="patience",
                version="0.1.0",
                copyright_holder="the patience authors",
                header_comment=HEADER.format(language=ENGLISH_NAMES[lang]),
                fuzzy=False,
            )
        catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[lang])]
        catalog.last_translator = "the patience authors"
        catalog.language_team = f"{ENGLISH_NAMES[lang]} (patience)"
        # Babel's update shares Message objects with the template: give it a copy each time.
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        for m in catalog:
            if not m.id:
                continue
            if lang == DEFAULT_LANGUAGE:
                m.string = tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id
            elif not _translated(m.string):
                missing.setdefault(lang, []).append(str(m.id))
        catalog.fuzzy = False
        _write_po(path, catalog)
    return missing


def _translated(string: Any) -> bool:
    if isinstance(string, (list, tuple)):
        return bool(string) and all(string)
    return bool(string)


def compile_all() -> None:
    """Compile every ``.po`` into its ``.mo`` (untranslated entries fall back to English)."""
    for lang in LANGUAGES:
        catalog = read_catalog(po_path(lang), lang)
        with mo_path(lang).open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
    reload()


def apply_translations(lang: str, table: Mapping[str, str | list[str]]) -> int:
    """Fill ``lang``'s ``.po`` from ``{id: text}`` (plural ids as "singular\\0plural")."""
    path = po_path(lang)
    catalog = read_catalog(path, lang)
    count = 0
    for m in catalog:
        if not m.id:
            continue
        key = m.id[0] + "\u0000" + m.id[1] if isinstance(m.id, (list, tuple)) else m.id
        if key in table:
            value = table[key]
            m.string = tuple(value) if isinstance(value, list) else value
            m.flags.discard("fuzzy")
            count += 1
    _write_po(path, catalog)
    return count


def main(argv: list[str] | None = None) -> int:
    """``python -m patience.i18n_catalogs extract|update|compile|check``: maintain the catalogs."""
    args = sys.argv[1:] if argv is None else argv
    commands: dict[str, Callable[[], int]] = {
        "extract": _cmd_extract,
        "update": _cmd_update,
        "compile": _cmd_compile,
        "check": _cmd_check,
    }
    if len(args) != 1 or args[0] not in commands:
        usage = "usage: python -m patience.i18n_catalogs extract|update|compile|check"
        print(usage, file=sys.stderr)
        print("  extract  write locales/messages.pot from the code", file=sys.stderr)
        print("  update   extract, then merge into each language's .po", file=sys.stderr)
        print("  compile  compile every .po into .mo", file=sys.stderr)
        print("  check    exit 1 if any id lacks a translation or is unused", file=sys.stderr)
        return 2
    return commands[args[0]]()


def _cmd_extract() -> int:
    template = extract()
    _write_po(TEMPLATE_FILE, template)
    print(f"{len(template)} messages -> {TEMPLATE_FILE}")
    return 0


def _cmd_update() -> int:
    _cmd_extract()
    missing = update(read_catalog(TEMPLATE_FILE))
    for lang, ids in missing.items():
        print(f"{lang}: {len(ids)} untranslated")
        for msgid in ids:
            print(f"  {msgid!r}")
    return 0


def _cmd_compile() -> int:
    compile_all()
    print("compiled " + ", ".join(str(mo_path(lang)) for lang in LANGUAGES))
    return 0


def _cmd_check() -> int:
    used = message_ids(extract())
    status = 0
    for lang in LANGUAGES:
        catalog = read_catalog(po_path(lang), lang)
        have = message_ids(catalog)
        untranslated = [str(m.id) for m in catalog if m.id and not _translated(m.string)]
        for label, items in (
            ("missing", sorted(map(str, used - have))),
            ("untranslated", untranslated),
            ("unused", sorted(map(str, have - used))),
        ):
            for item in items:
                print(f"{lang}: {label}: {item!r}")
                status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
