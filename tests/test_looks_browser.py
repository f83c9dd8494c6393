"""The page's looks and conveniences in a real browser (Playwright + Chromium): the dark
theme (the system's or chosen), table colours and card backs, the three card faces, the
fullscreen button and the sounds.

Set PATIENCE_LOOKS_SHOTS=DIR to also write screenshots of the looks there."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from browser import DESKTOP, PHONE, card, drag, playwright_api
from engine_builders import near_won_klondike
from live import LiveServer, start_game

sync_api = playwright_api()
expect = sync_api.expect
pytestmark = pytest.mark.browser
Page = Any

SHOTS = os.environ.get("PATIENCE_LOOKS_SHOTS")

# A Web Audio stand-in: it plays nothing and logs what each sound starts ("noise" for a
# buffer of noise, else the oscillator's waveform).
FAKE_AUDIO = """
window.__audio = {contexts: 0, started: []};
const param = () => ({value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {}});
const node = (extra) => Object.assign({connect() {}}, extra);
window.AudioContext = class {
  constructor() { window.__audio.contexts++; this.state = "running"; this.currentTime = 0;
    this.sampleRate = 8000; this.destination = node({}); }
  resume() { return Promise.resolve(); }
  createOscillator() {
    const osc = node({type: "sine", frequency: param(), stop() {},
      start() { window.__audio.started.push(osc.type); }});
    return osc;
  }
  createGain() { return node({gain: param()}); }
  createBiquadFilter() { return node({type: "", frequency: param()}); }
  createBuffer(_channels, frames) { return {getChannelData: () => new Float32Array(frames)}; }
  createBufferSource() {
    return node({buffer: null, start() { window.__audio.started.push("noise"); }});
  }
};
"""


@pytest.fixture(scope="module")
def url(live_server: LiveServer) -> str:
    """The module's live server."""
    return live_server.url


def open_page(
    browser: Any,
    url: str,
    *,
    scheme: str = "light",
    viewport: dict[str, int] = DESKTOP,
    settings: dict[str, Any] | None = None,
    script: str = "",
) -> Page:
    """A fresh page (its own storage) on the current game; page errors fail at close."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    saved = json.dumps({"animate": False, **(settings or {})})
    key = "patience.settings"
    context.add_init_script(
        f"if (!localStorage.getItem('{key}')) localStorage.setItem('{key}', {saved!r});" + script
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def close(page: Page) -> None:
    errors = page.errors
    page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def choose(page: Page, key: str, value: str) -> None:
    """Pick a value in the settings dialog, as a player does, and close it."""
    page.locator("#btn-settings").click()
    page.locator(f"#setting-{key}").select_option(value)
    page.keyboard.press("Escape")


# ---------- colours ----------

RGB = re.compile(r"rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)")


def luminance(colour: str) -> float:
    """WCAG relative luminance of a computed CSS colour such as ``rgb(12, 34, 56)``."""
    m = RGB.match(colour)
    assert m, colour

    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(float(x)) for x in m.groups())
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


COLOURS = """() => {
  const css = (el, p) => getComputedStyle(el)[p];
  const face = (text) => document.querySelector(`#table .card[data-card="${text}"] svg`);
  const edge = (text) => face(text).querySelector(".card-edge");
  const rank = (text) => face(text).querySelector(".rank");
  return {
    scheme: document.documentElement.dataset.scheme,
    felt: css(document.getElementById("table-wrap"), "backgroundColor"),
    bar: css(document.getElementById("toolbar"), "backgroundColor"),
    barText: css(document.getElementById("btn-undo"), "color"),
    info: css(document.querySelector("#info .deal"), "color"),
    redFace: css(edge("QD"), "fill"),
    redRank: css(rank("QD"), "fill"),
    blackFace: css(edge("KS"), "fill"),
    blackRank: css(rank("KS"), "fill"),
    back: css(document.querySelector("#table .card.face-down svg .card-edge"), "fill"),
  };
}"""


def check_readable(c: dict[str, str]) -> None:
    """Text on the table, the toolbar and the cards keeps WCAG AA contrast (4.5:1)."""
    assert contrast(c["info"], c["felt"]) >= 4.5
    assert contrast(c["barText"], c["bar"]) >= 4.5
    assert contrast(c["redRank"], c["redFace"]) >= 4.5
    assert contrast(c["blackRank"], c["blackFace"]) >= 4.5


def test_dark_mode_follows_the_system(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})  # QD and KS face up on the tableau
    light = open_page(browser, url, scheme="light")
    lc = light.evaluate(COLOURS)
    close(light)
    dark = open_page(browser, url, scheme="dark")
    dc = dark.evaluate(COLOURS)
    assert lc["scheme"] == "light" and dc["scheme"] == "dark"
    # The table and the cards are dark; their text stays readable.
    assert luminance(dc["felt"]) < 0.03 < luminance(lc["felt"])
    assert luminance(dc["redFace"]) < 0.05 and luminance(dc["blackFace"]) < 0.05
    assert luminance(lc["redFace"]) > 0.8
    assert luminance(dc["back"]) < 0.05
    check_readable(lc)
    check_readable(dc)
    # So do the panels: the settings dialog.
    dark.locator("#btn-settings").click()
    panel = dark.locator("#settings-dialog")
    fg, bg = panel.evaluate("d => [getComputedStyle(d).color, getComputedStyle(d).backgroundColor]")
    assert luminance(bg) < 0.05 and contrast(fg, bg) >= 7
    close(dark)


def test_the_chosen_theme_overrides_the_system(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url, scheme="dark")
    assert page.evaluate(COLOURS)["scheme"] == "dark"
    choose(page, "theme", "light")
    c = page.evaluate(COLOURS)
    assert c["scheme"] == "light" and luminance(c["redFace"]) > 0.8
    check_readable(c)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate(COLOURS)["scheme"] == "light"  # remembered
    close(page)
    page = open_page(browser, url, scheme="light", settings={"theme": "dark"})
    c = page.evaluate(COLOURS)
    assert c["scheme"] == "dark" and luminance(c["blackFace"]) < 0.05
    check_readable(c)
    close(page)


def test_table_colour_and_card_back_apply_and_persist(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url)
    felt = "getComputedStyle(document.getElementById('table-wrap')).backgroundColor"
    back = "getComputedStyle(document.querySelector('#card-back-pattern rect')).fill"
    green, blue_back = page.evaluate(felt), page.evaluate(back)
    choose(page, "table", "red")
    choose(page, "back", "green")
    red, green_back = page.evaluate(felt), page.evaluate(back)
    m = RGB.match(red)
    assert m and float(m.group(1)) > 2 * float(m.group(2))  # a red felt
    m = RGB.match(green_back)
    assert m and float(m.group(2)) > float(m.group(1)) + 30  # a green back
    assert red != green and green_back != blue_back
    # Every face-down card shows the chosen back (they share the pattern).
    fills = page.locator("#table .card.face-down .back-field").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))"
    )
    assert fills and set(fills) == {"url(#card-back-pattern)"}
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert (page.evaluate(felt), page.evaluate(back)) == (red, green_back)
    page.locator("#btn-settings").click()
    expect(page.locator("#setting-table")).to_have_value("red")
    expect(page.locator("#setting-back")).to_have_value("green")
    page.keyboard.press("Escape")
    # The choices speak the player's language.
    for lang, red_felt, dark in (("es", "Rojo", "Oscuro"), ("fr", "Rouge", "Sombre")):
        page.locator("#lang-select").select_option(lang)
        page.locator("#btn-settings").click()
        expect(page.locator('#setting-table option[value="red"]')).to_have_text(red_felt)
        expect(page.locator('#setting-theme option[value="dark"]')).to_have_text(dark)
        page.keyboard.press("Escape")
    page.locator("#lang-select").select_option("en")
    close(page)


# ---------- faces ----------

# Every card of the pack drawn in the current face style, measured: each rank text's box
# as fractions of its card, and how many pictured (skin-coloured) parts it has.
ALL_FACES = """async () => {
  const cards = await import("./cards.js");
  const box = document.createElement("div");
  box.id = "all-faces";
  document.body.append(box);
  const out = {};
  for (const s of "CDHS") for (const r of "A23456789TJQK") {
    const card = document.createElement("div");
    card.className = "card";
    card.style.position = "static";
    card.style.width = "100px";
    card.style.height = "140px";
    card.innerHTML = cards.faceSVG(r + s);
    box.append(card);
    const c = card.getBoundingClientRect();
    out[r + s] = {
      ranks: [...card.querySelectorAll(".rank")].map((t) => {
        const b = t.getBoundingClientRect();
        return [(b.left - c.left) / c.width, (b.top - c.top) / c.height,
                (b.right - c.left) / c.width, (b.bottom - c.top) / c.height];
      }),
      pictured: card.querySelectorAll(".court-skin").length,
    };
  }
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("face", ["standard", "traditional", "large"])
def test_every_face_shows_both_corner_indices(browser: Any, url: str, face: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url, settings={"face": face})
    faces = page.evaluate(ALL_FACES)
    assert len(faces) == 52
    for text, f in faces.items():
        # One index in the top-left corner, one (turned) in the bottom-right one: inside
        # the card across, and their middles near the top and the bottom (a text box is
        # as tall as the font's ascent, taller than the letters).
        assert len(f["ranks"]) == 2, text
        top, bottom = sorted(f["ranks"], key=lambda r: r[1])
        assert top[0] >= 0 and top[2] < 0.5 and (top[1] + top[3]) / 2 < 0.2, (text, top)
        assert bottom[0] > 0.5 and bottom[2] <= 1, (text, bottom)
        assert (bottom[1] + bottom[3]) / 2 > 0.8, (text, bottom)
        court = text[0] in "JQK"
        # The traditional face pictures its courts (a double-headed figure).
        assert f["pictured"] == (2 if court and face == "traditional" else 0), text
    close(page)


def rank_height(page: Page, text: str) -> float:
    box = page.locator(f'#table .card[data-card="{text}"] .rank').first.bounding_box()
    assert box is not None
    return float(box["height"])


def test_large_print_face_has_larger_rank_text(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url)
    card_box = page.locator('#table .card[data-card="9C"]').bounding_box()
    standard = rank_height(page, "9C")
    choose(page, "face", "large")
    expect(page.locator('#table .card[data-card="9C"] svg')).to_have_class(re.compile("face-large"))
    assert page.locator('#table .card[data-card="9C"]').bounding_box() == card_box  # same card
    large = rank_height(page, "9C")
    assert large > 1.3 * standard  # a fanned card shows as much (cards.indexFan)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert rank_height(page, "9C") == large
    close(page)


INDEX_SIZES = """() => {
  const out = {};
  for (const c of document.querySelectorAll('#table .card[data-card]')) {
    const rank = c.querySelector('.rank');
    const scale = c.getBoundingClientRect().height / 140;
    out[c.dataset.card] = parseFloat(rank.getAttribute('font-size')) * scale;
  }
  return out;
}"""


def index_sizes(browser: Any, url: str, face: str) -> list[float]:
    """The corner rank's font size (px) of every face-up card, on a phone held upright."""
    page = open_page(browser, url, viewport=PHONE, settings={"face": face})
    sizes = list(page.evaluate(INDEX_SIZES).values())
    close(page)
    assert sizes
    return sizes


def test_corner_indices_are_readable_on_a_phone(browser: Any, url: str) -> None:
    """The traditional face's indices were about 8 px tall on a phone (an 11 px font), and
    large print could hardly be told from the standard face (issue 54)."""
    start_game(url, {"game": "klondike", "deal": 7})
    standard = min(index_sizes(browser, url, "standard"))
    traditional = min(index_sizes(browser, url, "traditional"))
    large = min(index_sizes(browser, url, "large"))
    # A 15 px font: its capitals are about 11 px tall.
    assert min(standard, traditional) >= 15, (standard, traditional)
    assert large >= 1.3 * standard, (large, standard)


@pytest.mark.parametrize("face", ["standard", "traditional", "large"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_card_of_a_three_card_waste_shows_its_rank(
    browser: Any, url: str, face: str, viewport: dict[str, int]
) -> None:
    """Klondike dealing three: the middle waste card's rank was partly covered by the top
    card (fanned by 30% of a card's width, its rank 39% wide)."""
    start_game(url, {"game": "klondike", "options": {"mode": "three"}, "deal": 7})
    page = open_page(browser, url, viewport=viewport, settings={"face": face})
    page.keyboard.press("d")
    waste = page.locator('#table .card[data-pile="waste"]')
    expect(waste).to_have_count(3)
    boxes = waste.evaluate_all(
        "els => els.sort((a, b) => a.dataset.index - b.dataset.index).map(c => {"
        " const r = c.getBoundingClientRect();"
        " const t = c.querySelector('.rank').getBoundingClientRect();"
        " return [r.left, t.right]; })"
    )
    for (_, rank_right), (next_left, _) in zip(boxes, boxes[1:], strict=False):
        assert rank_right <= next_left + 0.5, boxes
    close(page)


# ---------- fullscreen ----------


def test_fullscreen_button(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url)
    button = page.locator("#btn-fullscreen")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-label", "Full screen")
    button.click()
    page.wait_for_function("document.fullscreenElement === document.documentElement")
    expect(button).to_have_attribute("aria-label", "Leave full screen")
    # By keyboard, too: the button takes Enter.
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.fullscreenElement === null")
    expect(button).to_have_attribute("aria-label", "Full screen")
    page.locator("#lang-select").select_option("fr")
    expect(button).to_have_attribute("aria-label", "Plein écran")
    page.locator("#lang-select").select_option("en")
    close(page)


def test_fullscreen_button_by_touch_on_a_phone(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.locator("#btn-fullscreen").tap()
    page.wait_for_function("document.fullscreenElement === document.documentElement")
    context.close()


def test_fullscreen_button_hides_where_unsupported(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    # An iPhone's Safari: no Fullscreen API for pages.
    no_fullscreen = "".join(
        f"Object.defineProperty(Document.prototype, '{name}', {{get: () => false}});"
        for name in ("fullscreenEnabled", "webkitFullscreenEnabled")
    )
    page = open_page(browser, url, viewport=PHONE, script=no_fullscreen)
    expect(page.locator("#btn-fullscreen")).to_be_hidden()
    close(page)


# ---------- sound ----------


def sounds(page: Page) -> list[str]:
    return list(page.evaluate("window.__audio.started"))


@pytest.mark.slow
def test_sound_is_off_by_default_and_plays_when_chosen(browser: Any, url: str) -> None:
    start_game(url, {"game": "klondike", "deal": 7})
    page = open_page(browser, url, script=FAKE_AUDIO)
    stock = page.locator('#table .slot[data-pile="stock"]')
    # Off: a deal, a move and a refusal make no sound, not even an audio context.
    stock.click(force=True)
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    card(page, "QD").click()
    card(page, "KS").click()
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    drag(page, card(page, "5C"), card(page, "JH"))
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    assert page.evaluate("window.__audio") == {"contexts": 0, "started": []}
    page.locator("#btn-settings").click()
    expect(page.locator("#setting-sound")).not_to_be_checked()
    page.locator("#setting-sound").check()
    page.keyboard.press("Escape")
    # On: each of them sounds, each its own way.
    stock.click(force=True)
    expect(page.locator("#info .stock")).to_have_text("Stock 22")
    assert sounds(page) == ["noise", "noise"]  # deal: cards sliding
    page.keyboard.press("Control+z")  # undo is silent
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    card(page, "QD").dblclick()  # refused: not to a foundation
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    assert sounds(page)[2:] == ["square", "square"]  # refusal: a low buzz
    page.keyboard.press("Control+z")
    expect(card(page, "QD")).to_have_attribute("data-pile", "t3")
    card(page, "QD").click()
    card(page, "KS").click()
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    assert sounds(page)[4:] == ["triangle"]  # move: a click
    close(page)
    # Remembered; a win plays its tune.
    start_game(url, {"game": "klondike", "position": near_won_klondike()})
    page = open_page(browser, url, script=FAKE_AUDIO, settings={"sound": True})
    card(page, "KH").dblclick()
    expect(card(page, "KH")).to_have_attribute("data-pile", re.compile("^f"))
    card(page, "KH").dblclick()  # finish
    expect(page.locator("#result-dialog")).to_be_visible()
    played = sounds(page)
    assert played[-4:] == ["triangle"] * 4 and len(played) >= 5  # moves, then the tune
    close(page)


# ---------- screenshots ----------


@pytest.mark.skipif(not SHOTS, reason="set PATIENCE_LOOKS_SHOTS=DIR to make them")
def test_screenshots(browser: Any, url: str) -> None:
    out = Path(str(SHOTS))
    out.mkdir(parents=True, exist_ok=True)
    start_game(url, {"game": "klondike", "deal": 7})
    for scheme in ("light", "dark"):
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            for face in ("standard", "traditional", "large"):
                settings = {"face": face}
                page = open_page(browser, url, scheme=scheme, viewport=viewport, settings=settings)
                page.screenshot(path=str(out / f"{face}-{scheme}-{size}.png"))
                close(page)
