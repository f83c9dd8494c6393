"""Translations: gettext catalogs (English, Spanish, French) for the web app and its pages.

Message ids are the English texts with ``{name}`` placeholders. The catalogs live in
``locales/<lang>/LC_MESSAGES/messages.po`` (sources) and ``.mo`` (compiled, what is
loaded at run time). One domain serves both the Python code (``_``) and the front end
(``t``/``tn``/``data-i18n`` in ``web/static``), which gets it as JSON from
``catalog_json``. ``python -m patience.i18n_catalogs extract|update|compile|check``
maintains them.
The command line stays English and never imports this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.support import NullTranslations, Translations

from .games import GAMES

LANGUAGES: tuple[str, ...] = ("en", "es", "fr")
"""The languages we ship, English (the source language) first."""

DEFAULT_LANGUAGE = "en"
DOMAIN = "messages"
PACKAGE_DIR: Path = Path(__file__).resolve().parent
LOCALE_DIR: Path = PACKAGE_DIR / "locales"
LANGUAGE_NAMES = {"en": "English", "es": "Español", "fr": "Français"}
"""Each language's name in itself, as the language menu shows it."""


def _(msgid: str) -> str:
    """Mark ``msgid`` for extraction and return it unchanged (translate later, per request)."""
    return msgid


def po_path(lang: str) -> Path:
    """The ``.po`` source of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """The compiled ``.mo`` catalog of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _lang(lang: str | None) -> str:
    return lang if lang is not None and lang in LANGUAGES else DEFAULT_LANGUAGE


@cache
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (a no-op fallback when no catalog is compiled)."""
    lang = _lang(lang)
    if not mo_path(lang).exists():
        return NullTranslations()
    with mo_path(lang).open("rb") as fh:
        return Translations(fh, domain=DOMAIN)


@cache
def _catalog(lang: str) -> Catalog:
    lang = _lang(lang)
    if not mo_path(lang).exists():
        return Catalog(locale=lang, domain=DOMAIN)
    with mo_path(lang).open("rb") as fh:
        return read_mo(fh)


def reload() -> None:
    """Forget the loaded catalogs (after ``compile``), so the next call reads them again."""
    translations.cache_clear()
    _catalog.cache_clear()
    _catalog_json.cache_clear()


def gettext(msgid: str, lang: str) -> str:
    """``msgid`` translated into ``lang``; the id itself when there is no translation."""
    found = translations(lang).gettext(msgid)
    if found == msgid and _lang(lang) != DEFAULT_LANGUAGE:  # in English the id is the text
        found = games_messages(_lang(lang)).get(msgid, msgid)
    return found or msgid


def ngettext(singular: str, plural: str, n: int, lang: str) -> str:
    """The plural form of a message for the count ``n`` in ``lang``."""
    return translations(lang).ngettext(singular, plural, n)


def format_message(msgid: str, params: Mapping[str, object] | None, lang: str) -> str:
    """Translate ``msgid`` and fill its ``{name}`` placeholders (unknown ones stay as they are)."""
    text = gettext(msgid, lang)
    values = dict(params or {})
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` for the front end (GET /api/messages/{lang}).

    ``messages`` maps each translated id to its text; a plural message is keyed by
    ``singular + "\\u0000" + plural`` and maps to its list of forms. ``plural`` is the
    catalog's Plural-Forms rule (French: ``n > 1``). Unknown languages get English.
    """
    data = _catalog_json(_lang(lang))
    # A fresh outer dict and message map per call: callers may add to them.
    return {**data, "messages": {**games_messages(data["lang"]), **data["messages"]}}


def games_messages(lang: str) -> dict[str, str]:
    """What the registered games bring of their own in ``lang`` (``Game.messages``),
    read at each call: a game may be registered after the catalogs are loaded. In
    English, each text a game translates is its own English text (the page warns of an
    id that no catalog holds)."""
    found: dict[str, str] = {}
    for game in GAMES.values():
        if lang == DEFAULT_LANGUAGE:
            found.update((k, k) for texts in game.messages.values() for k in texts)
        found.update(game.messages.get(lang, {}))
    return found


@cache
def _catalog_json(lang: str) -> dict[str, Any]:
    catalog = _catalog(lang)
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (list, tuple)):
            forms = [str(s) for s in message.string] if message.string else []
            if forms and all(forms):
                messages[message.id[0] + "\u0000" + message.id[1]] = forms
        elif message.string:
            messages[message.id] = str(message.string)
    return {"lang": lang, "messages": messages, "plural": catalog.plural_forms}


_TAG = re.compile(r"^([A-Za-z]{1,8})(?:[-_][A-Za-z0-9]{1,8})*$")


def negotiate(accept_language: str | None) -> str:
    """The best of ``LANGUAGES`` for an ``Accept-Language`` header ("en" when none fits).

    Entries are tried by falling quality (``q``), ties in header order; only the
    primary subtag counts (``es-MX`` means ``es``); ``q=0`` excludes; ``*`` means English.
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        tag, _sep, rest = part.strip().partition(";")
        tag = tag.strip()
        quality = 1.0
        for param in rest.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality <= 0:
            continue
        if tag == "*":
            ranked.append((quality, index, DEFAULT_LANGUAGE))
            continue
        match = _TAG.match(tag)
        if match and match[1].lower() in LANGUAGES:
            ranked.append((quality, index, match[1].lower()))
    if not ranked:
        return DEFAULT_LANGUAGE
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return ranked[0][2]
