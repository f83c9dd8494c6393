"""Translations: every message the code uses is translated, no catalog keeps dead ids,
plural forms, the JSON the front end loads, language negotiation, and the engine's
refusals reaching the catalog."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from hypothesis import given
from hypothesis import strategies as st

from patience import i18n, i18n_catalogs
from patience.errors import IllegalMoveError
from patience.games import GAMES, get_game
from patience.games.describe import describe
from patience.js_messages import JsSyntaxError
from patience.js_messages import calls as js_calls
from patience.moves import Move
from patience.position import Position
from patience.rules.game import Game

REPO = Path(__file__).resolve().parent.parent
FOREIGN = ("es", "fr")
PLACEHOLDER = re.compile(r"\{\w+\}")
MessageId = str | tuple[str, str]


@pytest.fixture(scope="module")
def used() -> set[MessageId]:
    """The ids the code uses now, extracted from Python, JS, HTML and the engine."""
    return i18n_catalogs.message_ids(i18n_catalogs.extract())


@pytest.fixture(scope="module")
def catalogs() -> dict[str, Catalog]:
    """Each language's .po source."""
    return {lang: i18n_catalogs.read_catalog(i18n.po_path(lang), lang) for lang in i18n.LANGUAGES}


def forms(string: Any) -> list[str]:
    """A message's translation as a list (one item, or one per plural form)."""
    return [str(s) for s in string] if isinstance(string, (list, tuple)) else [str(string or "")]


def key(msgid: Any) -> MessageId:
    return (msgid[0], msgid[1]) if isinstance(msgid, (list, tuple)) else str(msgid)


# --- completeness: the test the issue asks for ----------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_the_code_uses_is_translated(
    lang: str, used: set[MessageId], catalogs: dict[str, Catalog]
) -> None:
    catalog = catalogs[lang]
    have = {key(m.id): m for m in catalog if m.id}
    missing = sorted(map(str, used - set(have)))
    assert not missing, f"{lang}: ids used in the code but absent (run update): {missing}"
    untranslated = sorted(str(k) for k, m in have.items() if not all(forms(m.string)))
    assert not untranslated, f"{lang}: ids without a translation: {untranslated}"
    fuzzy = sorted(str(k) for k, m in have.items() if m.fuzzy)
    assert not fuzzy, f"{lang}: fuzzy (unchecked) translations: {fuzzy}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_catalog_keeps_an_id_that_no_code_uses(
    lang: str, used: set[MessageId], catalogs: dict[str, Catalog]
) -> None:
    unused = sorted(map(str, i18n_catalogs.message_ids(catalogs[lang]) - used))
    assert not unused, f"{lang}: ids no code uses (run update): {unused}"
    assert not catalogs[lang].obsolete, f"{lang}: obsolete #~ entries left in the .po"


def test_the_template_is_up_to_date(used: set[MessageId]) -> None:
    template = i18n_catalogs.read_catalog(i18n_catalogs.TEMPLATE_FILE)
    assert i18n_catalogs.message_ids(template) == used


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_catalog_matches_its_source(lang: str, catalogs: dict[str, Catalog]) -> None:
    i18n.reload()
    served = i18n.catalog_json(lang)["messages"]
    source = {}
    for m in catalogs[lang]:
        if m.id:
            k = key(m.id)
            flat = k if isinstance(k, str) else k[0] + "\u0000" + k[1]
            source[flat] = forms(m.string) if isinstance(k, tuple) else str(m.string)
    stale = f"{lang}: the .mo is stale, run `python -m patience.i18n_catalogs compile`"
    assert served == {**i18n.games_messages(lang), **source}, stale


@pytest.mark.parametrize("lang", FOREIGN)
def test_translations_keep_every_placeholder(lang: str, catalogs: dict[str, Catalog]) -> None:
    wrong = []
    for m in catalogs[lang]:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else [m.id]
        want = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for text in forms(m.string):
            # A singular form may say "1" in words; every other placeholder must survive.
            if set(PLACEHOLDER.findall(text)) - want or (want - {"{n}"}) - set(
                PLACEHOLDER.findall(text)
            ):
                wrong.append((m.id, text))
    assert not wrong


def test_english_catalog_maps_ids_to_themselves(catalogs: dict[str, Catalog]) -> None:
    for m in catalogs["en"]:
        if m.id:
            assert forms(m.string) == forms(m.id)


def test_check_command_agrees() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "patience.i18n", "check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


def test_babel_cfg_extracts_the_same_ids(tmp_path: Path, used: set[MessageId]) -> None:
    """``pybabel extract -F babel.cfg`` (the standard tool) finds what our command finds."""
    out = tmp_path / "messages.pot"
    cmd = [
        sys.executable,
        "-c",
        "import sys; from babel.messages.frontend import main; sys.exit(main())",
        "extract",
        "-F",
        "babel.cfg",
        "-k",
        "t",
        "-k",
        "tn:1,2",
        "-o",
        str(out),
        ".",
    ]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    assert i18n_catalogs.message_ids(i18n_catalogs.read_catalog(out)) == used


# --- plural forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "rule"),
    [("en", "(n != 1)"), ("es", "(n != 1)"), ("fr", "(n > 1)")],
)
def test_plural_rule_is_declared(lang: str, rule: str, catalogs: dict[str, Catalog]) -> None:
    assert catalogs[lang].num_plurals == 2
    assert catalogs[lang].plural_expr == rule
    assert i18n.catalog_json(lang)["plural"] == f"nplurals=2; plural={rule};"


@pytest.mark.parametrize(
    ("lang", "n", "text"),
    [
        ("en", 0, "{n} moves"),
        ("en", 1, "{n} move"),
        ("en", 2, "{n} moves"),
        ("es", 0, "{n} jugadas"),
        ("es", 1, "{n} jugada"),
        ("es", 5, "{n} jugadas"),
        ("fr", 0, "{n} coup"),  # French counts zero as singular
        ("fr", 1, "{n} coup"),
        ("fr", 2, "{n} coups"),
    ],
)
def test_ngettext_picks_the_form_of_each_language(lang: str, n: int, text: str) -> None:
    assert i18n.ngettext("{n} move", "{n} moves", n, lang) == text


def test_plural_messages_have_every_form(
    catalogs: dict[str, Catalog], used: set[MessageId]
) -> None:
    plurals = [k for k in used if isinstance(k, tuple)]
    assert plurals, "the code uses no plural message"
    for lang in i18n.LANGUAGES:
        served = i18n.catalog_json(lang)["messages"]
        for singular, plural in plurals:
            value = served[singular + "\u0000" + plural]
            assert isinstance(value, list) and len(value) == 2 and all(value)


# --- catalog_json and gettext -----------------------------------------------------------------


def test_catalog_json_shape() -> None:
    data = i18n.catalog_json("fr")
    assert set(data) == {"lang", "messages", "plural"}
    assert data["lang"] == "fr"
    assert data["messages"]["Lady Jane"] == "Mademoiselle Jane"
    assert data["messages"]["Hopscotch"] == "Marelle"
    assert i18n.catalog_json("es")["messages"]["Lady Jane"] == "Dama Jane"
    assert i18n.catalog_json("es")["messages"]["Hopscotch"] == "Rayuela"
    assert i18n.catalog_json("en")["messages"]["Undo"] == "Undo"
    assert "" not in data["messages"]


def test_unknown_language_falls_back_to_english() -> None:
    assert i18n.catalog_json("de")["lang"] == "en"
    assert i18n.gettext("Undo", "de") == "Undo"


def test_gettext_and_format_message() -> None:
    assert i18n.gettext("Undo", "es") == "Deshacer"
    assert i18n.gettext("Undo", "fr") == "Annuler"
    assert i18n.gettext("not an id at all", "fr") == "not an id at all"
    assert i18n._("Undo") == "Undo"
    text = i18n.format_message(
        "{card} does not follow {below} on {pile}", {"card": "5H", "below": "3H"}, "es"
    )
    assert text == "5H no sigue a 3H en la {pile}"


@pytest.mark.parametrize(
    ("card", "en", "es", "fr"),
    [
        ("QH", "Queen of hearts", "Reina de corazones", "Dame de cœur"),
        ("AS", "Ace of spades", "As de picas", "As de pique"),
        ("TC", "Ten of clubs", "Diez de tréboles", "Dix de trèfle"),
        ("JD", "Jack of diamonds", "Jota de diamantes", "Valet de carreau"),
    ],
)
def test_card_names(card: str, en: str, es: str, fr: str) -> None:
    assert i18n.gettext(en, "es") == es
    assert i18n.gettext(en, "fr") == fr


# --- negotiate ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("fr", "fr"),
        ("es-ES,es;q=0.9,en;q=0.8", "es"),
        ("fr-CA,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"),
        ("de-DE,de;q=0.9,es;q=0.5,fr;q=0.4", "es"),
        ("en;q=0.5, fr;q=0.8", "fr"),
        ("es-419", "es"),
        ("ES", "es"),
        ("fr;q=0, es;q=0.1", "es"),
        ("de, *;q=0.5", "en"),
        ("*", "en"),
        ("pt-BR, it", "en"),
        ("fr;q=abc, es;q=0.2", "es"),
        ("es ; q=0.3 , fr ; q=0.3", "es"),
        ("x-klingon-tlh, fr", "fr"),
        (",,,;", "en"),
    ],
)
def test_negotiate(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


# --- the engine's refusals reach the catalog -------------------------------------------------


def _candidate_moves(p: Position) -> list[Move]:
    piles = ["s", "w"] + [f"f{i}" for i in range(1, 5)]
    piles += [f"t{i}" for i in range(1, len(p.tableau) + 1)]
    piles += [f"r{i}" for i in range(1, len(p.reserve) + 1)] + ["t13", "r7"]
    moves = [Move.deal()]
    for src in piles:
        for dst in piles:
            for text in (f"{src}>{dst}", f"{src}>{dst}/3"):
                try:
                    moves.append(Move.parse(text))
                except ValueError:
                    pass  # not valid notation (e.g. a run from the waste)
    return moves


def _refusals() -> dict[str, dict[str, object]]:
    """Every refusal template met in random play over every game and option value."""
    seen: dict[str, dict[str, object]] = {}
    rnd = random.Random(7)
    for cls in GAMES.values():
        variants = [{}] + [{k: v} for k, vals in cls.option_spec.items() for v in vals]
        for options in variants:
            game: Game = cls(options)
            for deal in range(2):
                p = game.new_position(deal)
                for step in range(40):
                    legal = game.legal_moves(p)
                    if step % 4 == 0:  # every position would be slow and adds nothing
                        for move in _candidate_moves(p):
                            if move in legal:
                                continue
                            try:
                                game.play(p, move)
                            except IllegalMoveError as err:
                                seen.setdefault(err.template, err.params)
                    if not legal:
                        break
                    p = game.play(p, rnd.choice(legal))
    return seen


@pytest.fixture(scope="module")
def refusals() -> dict[str, dict[str, object]]:
    return _refusals()


def test_play_meets_many_refusals(refusals: dict[str, dict[str, object]]) -> None:
    assert len(refusals) >= 15, sorted(refusals)


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_refusal_met_in_play_is_translated(
    lang: str, refusals: dict[str, dict[str, object]]
) -> None:
    served = i18n.catalog_json(lang)["messages"]
    for template, params in refusals.items():
        assert template.startswith("{move}: ")
        reason = template.removeprefix("{move}: ")
        assert reason in served, f"engine refusal not in the {lang} catalog: {reason!r}"
        # Words the engine passes as params (game names, "Kings") are ids too.
        for name in ("game", "ranks"):
            if name in params:
                assert str(params[name]) in served, (name, params[name])
        text = i18n.format_message(reason, {k: str(v) for k, v in params.items()}, lang)
        assert not PLACEHOLDER.search(text), text


def test_engine_messages_are_found_by_reading_the_source() -> None:
    import ast

    source = """
class G:
    title = "Some Game"
    def f(self):
        return Refusal("{pile} is full", pile=x)
    def g(self):
        template = "no {thing} here"
        raise SomeError(template.format(thing=1), template, {})
BUILD_REFUSALS = {1: "built {a}", 2: "built {b}"}
RANK_PLURALS = ("", "Aces")
"""
    found = [text for _line, text, _c in i18n_catalogs.engine_messages(ast.parse(source))]
    want = ["Some Game", "{pile} is full", "no {thing} here", "built {a}", "built {b}", "Aces"]
    assert sorted(found) == sorted(want)


# --- extraction from JS and HTML ------------------------------------------------------------------


def test_js_and_html_extraction(tmp_path: Path) -> None:
    js = tmp_path / "x.js"
    js.write_text(
        'import { t, tn } from "./i18n.js";\n'
        'const a = t("Undo");\n'
        "const b = tn('{n} move', '{n} moves', n);\n"
        'el.innerHTML = `<b data-i18n="Redo"></b>`;\n'
        "const c = t(`Tpl {x}`, { x });\n"
        'const d = other("Not me");\n',
        encoding="utf-8",
    )
    found = [m for _line, m, _c in i18n_catalogs._js_messages(js)]
    assert found == ["Undo", ("{n} move", "{n} moves"), "Tpl {x}", "Redo"]
    html = "<p data-i18n=\"Hello\">Hello</p><button data-i18n-aria-label='Close'></button>"
    assert [m for _l, m, _c in i18n_catalogs.extract_data_i18n(html)] == ["Hello", "Close"]


# Every t("...") and tn("...", "...") with literal strings, found by a second method that
# shares nothing with the extractor: a plain search of the text. It may see a call inside a
# string or comment (then it asks for one id too many, loudly); it cannot lose its place.
_LITERAL = r"""(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`)"""
_T_CALL = re.compile(r"(?<![\w$.])t\(\s*" + _LITERAL)
_TN_CALL = re.compile(r"(?<![\w$.])tn\(\s*" + _LITERAL + r"\s*,\s*" + _LITERAL)


def _js_string(groups: tuple[str | None, ...]) -> str:
    body = next(g for g in groups if g is not None)
    return re.sub(r"\\(.)", r"\1", body)


def call_sites() -> set[MessageId]:
    """The literal message ids of every t/tn call in the front end's JavaScript."""
    ids: set[MessageId] = set()
    for path in sorted(i18n_catalogs.STATIC_DIR.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        ids |= {_js_string(m.groups()) for m in _T_CALL.finditer(text)}
        ids |= {
            (_js_string(m.groups()[:3]), _js_string(m.groups()[3:]))
            for m in _TN_CALL.finditer(text)
        }
    return ids


def test_a_plain_search_finds_the_same_front_end_ids_as_the_extractor() -> None:
    found = call_sites()
    assert len(found) > 150  # the games' names, options and help come from their declarations
    extracted: set[MessageId] = set()
    for path in sorted(i18n_catalogs.STATIC_DIR.glob("*.js")):
        extracted |= {m for _line, m, _c in i18n_catalogs._js_messages(path)}
    lost = sorted(map(str, found - extracted))
    assert not lost, f"call sites the extractor does not see: {lost}"


def declared_texts(game: Game) -> set[str]:
    """Every text a game's declaration shows the player: title, options' names, help."""
    d = describe(game)
    texts = {d["title"]}
    for option in d["choices"]:
        texts |= {option["label"]} | {v["label"] for v in option["values"]}
    if d["help"]:
        texts.add(d["help"]["intro"])
        for section in d["help"]["sections"]:
            texts.add(section["title"])
            texts |= {i["text"] for i in section["items"]} | {i["term"] for i in section["items"]}
    return texts - {None}


@pytest.mark.parametrize("lang", FOREIGN)
def test_what_every_game_declares_is_translated(lang: str, catalogs: dict[str, Catalog]) -> None:
    """The page translates each game's declaration (GET /api/games) with the catalog it
    is served (the package's, and what a game brings of its own: ``Game.messages``)."""
    served = i18n.catalog_json(lang)["messages"]
    for name in GAMES:
        texts = declared_texts(get_game(name, {}))
        assert len(texts) > 10
        missing = sorted(x for x in texts if not served.get(x))
        assert not missing, f"{lang}: {name} declares untranslated texts: {missing}"


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_game_name_is_translated(lang: str) -> None:
    """ "Baker's Dozen" stayed English in Spanish and French, beside Lady Jane's and
    Hopscotch's translated names (issue 54)."""
    served = i18n.catalog_json(lang)["messages"]
    for name, game in GAMES.items():
        # A place's name, and Microsoft's (Windows calls it FreeCell in Spanish and French).
        if name not in ("klondike", "freecell"):
            assert served.get(game.title, game.title) != game.title, f"{lang}: {name}"


# A space a line may break at, where the number or word before it must stay with the sign
# after it: "50 %" in Spanish and French, and French's space before : ; ! ? and inside « ».
BREAKABLE = {
    "es": re.compile(r"(\S) (%)"),
    "fr": re.compile(r"(\S) ([%:;!?»])|(«) "),
}


@pytest.mark.parametrize("lang", FOREIGN)
def test_a_number_is_never_parted_from_its_percent_sign(
    lang: str, catalogs: dict[str, Catalog]
) -> None:
    """French broke a line between a number and its "%" (issue 54): the space there is a
    no-break one (U+202F in French, before % ; ! ?; U+00A0 before : and in Spanish)."""
    served = i18n.catalog_json(lang)["messages"].values()  # the games' own messages too
    texts = [t for m in catalogs[lang] if m.id for t in forms(m.string)]
    texts += [t for value in served for t in ([value] if isinstance(value, str) else value)]
    bad = [text for text in texts if BREAKABLE[lang].search(text)]
    assert not bad, f"{lang}: breakable spaces in {bad}"


@pytest.mark.parametrize("lang", ("en", *FOREIGN))
def test_an_option_label_never_reads_as_the_deal_button(lang: str) -> None:
    """The new-game dialog names each option above its list and ends on a "Deal" button:
    Klondike's option, once declared as "Deal" too, read "Distribuer" (a verb) above
    its list in French. A label is a noun, so it has an id of its own."""
    button = i18n.gettext("Deal", lang)
    for name in GAMES:
        game = get_game(name, {})
        labels = [v for k, v in game.option_labels.items() if "=" not in k]
        assert all(i18n.gettext(label, lang) != button for label in labels), (name, labels)


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_front_end_call_site_is_translated(lang: str, catalogs: dict[str, Catalog]) -> None:
    have = {key(m.id): m for m in catalogs[lang] if m.id}
    missing = sorted(
        str(k) for k in call_sites() if k not in have or not all(forms(have[k].string))
    )
    assert not missing, f"{lang}: call sites with no translation: {missing}"


@pytest.mark.parametrize(
    ("source", "want"),
    [
        # The regular expression that hid every message after it from Babel's lexer.
        ('const m = /^(\\w+)>(\\w+)(?:\\/(\\d+))?$/.exec(s);\nt("after")', ["after"]),
        ('x = a / b; y = c / d; t("divided")', ["divided"]),
        ('s.replace(/[/"]/g, ""); t("class")', ["class"]),
        ('if (ok) /"/.test(s); t("head")', ["head"]),
        ('const o = {a: 1} / 2; t("object")', ["object"]),
        ('function f() {}\n/"/.test(s); t("block")', ["block"]),
        ('return /\'/.test(s) && t("keyword")', ["keyword"]),
        ('i++ / 2; t("postfix")', ["postfix"]),
        (
            'const h = `a ${b / 2} ${`inner ${t("nested")}`} c`; t("after template")',
            ["nested", "after template"],
        ),
        ('t(`plain`); t(`with ${x}`); t(notice); obj.t("method")', ["plain"]),
        ('// t("comment")\n/* t("block comment") */ t("code")', ["code"]),
        ('t("esc\\"aped \\u00e9")', ['esc"aped é']),
    ],
)
def test_js_lexer_tells_regular_expressions_from_divisions(source: str, want: list[str]) -> None:
    found = [args[0] for _line, _f, args in js_calls(source, ["t"]) if args[0] is not None]
    assert found == want


@pytest.mark.parametrize("source", ['t("open', "t(`open ${x}", "/* open", "t('a\nb')"])
def test_js_lexer_fails_loudly_when_lost(source: str) -> None:
    with pytest.raises(JsSyntaxError):
        list(js_calls(source, ["t"]))


def test_update_and_compile_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``update`` adds new ids untranslated, drops dead ones, keeps translations."""
    for lang in i18n.LANGUAGES:
        dest = tmp_path / lang / "LC_MESSAGES"
        dest.mkdir(parents=True)
        dest.joinpath("messages.po").write_bytes(i18n.po_path(lang).read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    template = Catalog(domain=i18n.DOMAIN)
    template.add("Undo")
    template.add("A brand new message")
    template.add(("{n} thing", "{n} things"))
    missing = i18n_catalogs.update(template)
    assert missing == {
        "es": ["A brand new message", str(("{n} thing", "{n} things"))],
        "fr": ["A brand new message", str(("{n} thing", "{n} things"))],
    }
    es = i18n_catalogs.read_catalog(i18n.po_path("es"), "es")
    expected = {"Undo", "A brand new message", ("{n} thing", "{n} things")}
    assert i18n_catalogs.message_ids(es) == expected
    assert es["Undo"].string == "Deshacer"
    assert i18n_catalogs.apply_translations("es", {"A brand new message": "Un mensaje nuevo"}) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        i18n_catalogs.compile_all()
    try:
        assert i18n.gettext("A brand new message", "es") == "Un mensaje nuevo"
        assert i18n.gettext("A brand new message", "fr") == "A brand new message"
        assert i18n.ngettext("{n} thing", "{n} things", 1, "en") == "{n} thing"
    finally:
        monkeypatch.undo()
        i18n.reload()
    assert i18n.gettext("Undo", "es") == "Deshacer"


def test_command_line_usage() -> None:
    assert i18n_catalogs.main([]) == 2
    assert i18n_catalogs.main(["nonsense"]) == 2


# --- the command line stays English --------------------------------------------------------


def test_command_line_stays_english_in_a_french_environment() -> None:
    env = {**os.environ, "LANGUAGE": "fr", "LANG": "fr_FR.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}
    code = (
        "import sys; from patience.cli import main; sys.argv = ['patience', *sys.argv[1:]]; main()"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code, "--help"], capture_output=True, text=True, env=env
    )
    assert shown.returncode == 0 and "Usage:" in shown.stdout
    failed = subprocess.run(
        [sys.executable, "-c", code, "deal", "no-such-game"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert failed.returncode == 2
    assert "unknown game 'no-such-game'" in failed.stderr
    # The CLI never loads the catalogs.
    probe = "import sys, patience.cli; print('patience.i18n' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert loaded.stdout.strip() == "False"


@given(st.text(max_size=80))
def test_negotiate_never_fails_and_answers_a_shipped_language(header: str) -> None:
    assert i18n.negotiate(header) in i18n.LANGUAGES


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["en", "es", "fr", "de", "it", "pt-BR", "fr-CA", "es-419", "*"]),
            st.integers(0, 1000),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_negotiate_picks_the_best_weighted_shipped_language(
    entries: list[tuple[str, int]],
) -> None:
    header = ", ".join(f"{tag};q={q / 1000:.3f}" for tag, q in entries)
    best: tuple[float, str] | None = None
    for tag, q in entries:
        primary = "en" if tag == "*" else tag.split("-")[0]
        if q and primary in i18n.LANGUAGES and (best is None or q > best[0]):
            best = (q, primary)
    assert i18n.negotiate(header) == (best[1] if best else "en")
