"""End-to-end tests of the browser game: Playwright drives Debian's Chromium against the real
server (``patience serve``) started on a free port with a temporary data folder."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import solver_stubs
from browser import DESKTOP, NO_ANIMATION, allow_peeking, card, drag, open_game, playwright_api
from engine_builders import near_won_klondike
from live import LiveServer
from patience import assist, new_game
from patience.cards import MAX_DEAL
from patience.games import position_to_json

sync_api = playwright_api()
expect = sync_api.expect
Page = sync_api.Page
pytestmark = pytest.mark.browser


def test_drag_and_drop_lights_targets_and_moves(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    # Deal 7: QD (t3) may go on KS (t7), and nowhere else.
    drag(page, card(page, "QD"), card(page, "KS"), check_targets=["t7"])
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    expect(page.locator("#info .moves")).to_have_text("1 move")
    # The card under QD was turned face up by the move.
    assert page.locator('#table .card[data-pile="t3"]:not(.face-down)').count() == 1


def test_illegal_drop_springs_back_and_says_why(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    five = card(page, "5C")
    before = five.bounding_box()
    drag(page, five, card(page, "JH"), check_targets=[])
    expect(page.locator("#status")).to_have_attribute("data-kind", "error")
    expect(page.locator("#status")).to_contain_text("Five of clubs")
    expect(five).to_have_attribute("data-pile", "t1")
    assert five.bounding_box() == before
    expect(page.locator("#info .moves")).to_have_text("0 moves")


def test_click_to_move(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    card(page, "QD").click()
    expect(card(page, "QD")).to_have_class(re.compile(r"\bselected\b"))
    card(page, "KS").click()
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    expect(card(page, "QD")).not_to_have_class(re.compile(r"\bselected\b"))


def test_one_click_setting_moves_to_the_best_place(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 1})
    page.locator("#btn-settings").click()
    page.locator("#setting-oneClick").check()
    page.keyboard.press("Escape")
    card(page, "AS").click()  # an Ace goes up at once
    expect(card(page, "AS")).to_have_attribute("data-pile", re.compile(r"^f[1-4]$"))
    saved = page.evaluate("JSON.parse(localStorage.getItem('patience.settings'))")
    assert saved["oneClick"] is True  # remembered for the next visit


def test_double_click_sends_to_foundation(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 1})
    # Deal 1 has the Ace of spades on t7 and the Ace of hearts on t6.
    card(page, "AS").dblclick()
    expect(card(page, "AS")).to_have_attribute("data-pile", re.compile(r"^f[1-4]$"))
    card(page, "AH").dblclick()
    expect(card(page, "AH")).to_have_attribute("data-pile", re.compile(r"^f[1-4]$"))
    expect(page.locator("#info .score")).to_have_text("Score 2/52")


def test_deal_undo_redo(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    # The page is never told the stock's cards: the test knows the deal.
    top = position_to_json(new_game("klondike", deal=7))["stock"][-1]
    page.locator('#table .slot[data-pile="stock"]').click(force=True)
    expect(card(page, top)).to_have_attribute("data-pile", "waste")
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    page.locator("#btn-undo").click()
    expect(card(page, top)).to_have_count(0)  # face down again: no name in the page
    expect(page.locator("#info .stock")).to_have_text("Stock 24")
    page.locator("#btn-redo").click()
    expect(card(page, top)).to_have_attribute("data-pile", "waste")
    # Keyboard: Ctrl+Z undoes, Ctrl+Y redoes, D deals.
    page.keyboard.press("Control+z")
    expect(page.locator("#info .stock")).to_have_text("Stock 24")
    page.keyboard.press("Control+y")
    expect(page.locator("#info .stock")).to_have_text("Stock 23")
    page.keyboard.press("d")
    expect(page.locator("#info .stock")).to_have_text("Stock 22")
    expect(page.locator("#btn-redo")).to_be_disabled()
    # R restarts the deal, after asking: it cannot be undone.
    page.keyboard.press("r")
    page.locator("#confirm-ok").click()
    expect(page.locator("#info .stock")).to_have_text("Stock 24")
    expect(page.locator("#info .moves")).to_have_text("0 moves")
    expect(page.locator("#btn-undo")).to_be_disabled()


def test_new_game_dialog_with_deal_number(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    page.locator("#btn-game").click()
    dialog = page.locator("#new-game-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#new-game-game").select_option("bakers-dozen")
    dialog.locator("#new-game-option-kings").select_option("empty-piles")
    dialog.locator("#new-game-deal").fill("1234")
    dialog.locator("#new-game-start").click()
    expect(page.locator("#info .deal")).to_have_text("Deal 1234")
    expect(page.locator("#info .game-title")).to_have_text("Baker's Dozen")
    expect(page.locator("#info .variant")).to_have_text(
        "Build down regardless of suit, Kings fill empty piles"
    )
    want = position_to_json(new_game("bakers-dozen", deal=1234, options={"kings": "empty-piles"}))
    for i, pile in enumerate(want["tableau"]):
        shown = page.locator(f'#table .card[data-pile="t{i + 1}"]').evaluate_all(
            "els => els.sort((a, b) => a.dataset.index - b.dataset.index).map(e => e.dataset.card)"
        )
        assert shown == pile["up"], f"t{i + 1}"


def test_new_game_dialog_checks_the_deal_number(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    dialog = page.locator("#new-game-dialog")
    for text, message in (
        ("-3", "whole number"),
        ("12a", "whole number"),
    ):
        page.locator("#btn-game").click()
        dialog.locator("#new-game-deal").fill(text)
        dialog.locator("#new-game-start").click()
        expect(dialog.locator(".form-error")).to_contain_text(message)
        expect(page.locator("#info .deal")).to_have_text("Deal 7")
        page.keyboard.press("Escape")
    # Past MAX_DEAL: the server's refusal, the one bound of every deal number.
    page.locator("#btn-game").click()
    dialog.locator("#new-game-deal").fill(str(MAX_DEAL + 1))
    dialog.locator("#new-game-start").click()
    expect(page.locator("#status")).to_contain_text(f"from 0 to {MAX_DEAL}")
    expect(page.locator("#info .deal")).to_have_text("Deal 7")
    # Past 2**53 (a JavaScript number rounds it): the deal typed, exactly, as the command
    # line takes it (the page refused it, past 15 digits).
    page.locator("#btn-game").click()
    dialog.locator("#new-game-deal").fill("12345678901234567890")
    dialog.locator("#new-game-start").click()
    expect(page.locator("#info .deal")).not_to_have_text("Deal 7")
    assert live_server.api("GET", "/current")["deal"] == 12345678901234567890
    page.locator("#btn-game").click()
    dialog.locator("#new-game-deal").fill(" 42 ")  # pasted with spaces
    dialog.locator("#new-game-start").click()
    expect(page.locator("#info .deal")).to_have_text("Deal 42")


def test_new_game_dialog_asks_before_abandoning(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    page.keyboard.press("d")
    expect(page.locator("#info .moves")).to_have_text("1 move")
    page.locator("#btn-game").click()
    page.locator("#new-game-deal").fill("42")
    page.locator("#new-game-start").click()
    confirm = page.locator("#confirm-dialog")
    expect(confirm).to_contain_text("count as lost")
    confirm.get_by_role("button", name="Cancel").click()
    expect(page.locator("#info .deal")).to_have_text("Deal 7")
    expect(page.locator("#info .moves")).to_have_text("1 move")
    page.locator("#btn-game").click()
    page.locator("#new-game-deal").fill("42")
    page.locator("#new-game-start").click()
    page.locator("#confirm-ok").click()
    expect(page.locator("#info .deal")).to_have_text("Deal 42")


def test_keyboard_moves_a_card(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    assert card(page, "QD").get_attribute("aria-label") == "Queen of diamonds"
    assert card(page, "QD").get_attribute("aria-description") == "tableau pile 3"
    down = page.locator("#table .card.face-down").first
    assert down.get_attribute("aria-label") == "face-down card"
    page.locator("#table").focus()
    focused = "document.activeElement.dataset.pile"
    page.wait_for_function(f"{focused} === 't1'")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "t3"
    page.keyboard.press("Enter")
    expect(card(page, "QD")).to_have_class(re.compile(r"\bselected\b"))
    for _ in range(4):
        page.keyboard.press("Tab")
    assert page.evaluate(focused) == "t7"
    page.keyboard.press("Enter")
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    expect(page.locator("#announce")).to_contain_text("Queen of diamonds")
    # Space presses a card as Enter does; it does not deal from there.
    page.keyboard.press("Space")
    expect(card(page, "QD")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#info .stock")).to_have_text("Stock 24")
    # Said once: the status line shows the same words but is not a second live region.
    live = page.locator("[aria-live]:not([aria-live=off]), [role=status], [role=alert]")
    assert live.evaluate_all("els => els.map(e => e.id)") == ["announce"]


def test_keyboard_cursor_follows_a_shrinking_pile(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    page.locator("#table").focus()
    focused = "document.activeElement.dataset.pile"
    page.wait_for_function(f"{focused} === 't1'")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # the cursor on QD, t3's top card
    drag(page, card(page, "QD"), card(page, "KS"))  # moved away by mouse
    expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
    page.locator('#table .card[data-pile="t3"]').last.focus()
    page.keyboard.press("Enter")  # picks up t3's new top card
    expect(page.locator("#announce")).to_contain_text("Picked up")
    expect(page.locator('#table .card[data-pile="t3"]').last).to_have_class(
        re.compile(r"\bselected\b")
    )


def test_hint_highlights_a_move(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    page.locator("#btn-hint").click()
    expect(page.locator("#status")).to_have_attribute("data-kind", "hint")
    expect(page.locator("#table .ring.hint-target")).to_have_count(1)


def test_escape_takes_the_hint_off_the_table_and_the_status_line(
    page: Page, live_server: LiveServer
) -> None:
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    status = page.locator("#status")
    page.keyboard.press("h")
    expect(status).to_have_attribute("data-kind", "hint")
    expect(status).to_contain_text("Hint: ")
    page.keyboard.press("Escape")
    expect(page.locator("#table .ring.hint-target")).to_have_count(0)
    expect(page.locator("#table .card.hinted")).to_have_count(0)
    # The hint's words go; what the game view offers stays (every card can go home).
    expect(status).to_have_text("Finish")
    expect(page.locator("#status-finish")).to_be_visible()
    expect(page.locator("#announce")).to_have_text("Cancelled")


def console_problems(page: Page) -> list[str]:
    """A list that fills with the page's console errors and warnings from now on."""
    seen: list[str] = []
    page.on(
        "console",
        lambda m: seen.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    return seen


def test_first_visit_logs_no_error(browser: Any, tmp_path: Path) -> None:
    # No game yet: /api/current says so without an error status, and the page deals one.
    server = LiveServer(tmp_path / "data").start()
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = console_problems(page)
    try:
        page.goto(server.url)
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#info .deal")).to_be_visible()
        assert problems == []
    finally:
        context.close()
        server.kill()


def test_show_me_moves_are_sent_as_assisted(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    allow_peeking(page)
    bodies: list[Any] = []
    page.on(
        "request",
        lambda r: bodies.append(r.post_data_json) if r.url.endswith("/move") else None,
    )
    card(page, "KC").click()  # one King by hand: not assisted
    page.locator('#table .slot[data-pile="f1"]').click(force=True)
    expect(card(page, "KC")).to_have_attribute("data-pile", "f1")
    page.locator("#btn-showme").click()
    expect(page.locator("#result-dialog")).to_be_visible(timeout=20000)
    assert len(bodies) == 4, bodies
    assert "assisted" not in bodies[0]
    assert all(body.get("assisted") is True for body in bodies[1:]), bodies


def test_winnable_indicator_setting(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    expect(page.locator("#info .winnable")).to_have_count(0)  # off by default
    page.locator("#btn-settings").click()
    page.locator("#setting-peek").check()  # the indicator looks at the face-down cards
    page.locator("#setting-showWinnable").check()
    page.keyboard.press("Escape")
    expect(page.locator("#info .winnable")).to_have_class(re.compile(r"winnable-winnable"))


def test_status_bar_names_the_deal_mode(page: Page, live_server: LiveServer) -> None:
    # Klondike's draw count is on screen nowhere else: the status bar names the mode.
    open_game(page, live_server, {"game": "klondike", "deal": 7, "options": {"mode": "three"}})
    expect(page.locator("#info .variant")).to_have_text("Draw three, unlimited redeals")
    page.locator("#lang-select").select_option("es")
    expect(page.locator("#info .variant")).to_have_text("Tres cartas, vueltas ilimitadas")
    page.locator("#lang-select").select_option("en")
    open_game(page, live_server, {"game": "lady-jane", "deal": 7})
    expect(page.locator("#info .game-title")).to_have_text("Lady Jane")
    expect(page.locator("#info .variant")).to_have_count(0)  # no options, nothing to name


def test_language_switch_rerenders(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    page.locator("#lang-select").select_option("es")
    expect(page.locator("#btn-undo")).not_to_have_attribute("aria-label", "Undo")
    expect(card(page, "QD")).not_to_have_attribute("aria-label", "Queen of diamonds")
    page.locator("#lang-select").select_option("en")
    expect(card(page, "QD")).to_have_attribute("aria-label", "Queen of diamonds")


def test_whole_game_won_then_statistics(page: Page, live_server: LiveServer) -> None:
    before = live_server.api("GET", "/stats")["stats"]
    won_before = sum(s["won"] for s in before if s["game"] == "klondike")
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    # One King by drag, one by click-to-move, one by double-click, the last by auto-finish.
    drag(page, card(page, "KC"), card(page, "QC"))
    expect(card(page, "KC")).to_have_attribute("data-pile", re.compile(r"^f"))
    card(page, "KD").click()
    card(page, "QD").click()
    expect(card(page, "KD")).to_have_attribute("data-pile", re.compile(r"^f"))
    card(page, "KS").dblclick()
    expect(card(page, "KS")).to_have_attribute("data-pile", re.compile(r"^f"))
    card(page, "KS").dblclick()  # a double-click on a foundation finishes the game
    result = page.locator("#result-dialog")
    expect(result).to_be_visible()
    expect(result).to_contain_text("You won!")
    expect(result).to_contain_text("Klondike (Draw one, two redeals), deal –")  # the mode too
    expect(result.locator(".won-assisted")).to_have_count(0)  # the player's own win
    expect(page.locator("#status")).to_have_attribute("data-kind", "won")
    expect(page.locator("#info .score")).to_have_text("Score 52/52")
    result.get_by_role("button", name="Statistics").click()
    stats = page.locator("#stats-dialog")
    expect(stats).to_be_visible()
    row = stats.locator("section.stat", has_text="Klondike")
    expect(row).to_contain_text(f"Won{won_before + 1}")
    expect(row).to_contain_text("Best score52")


def test_finish_button_when_every_card_is_up(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    card(page, "KH").dblclick()
    page.locator("#status-finish").click()
    expect(page.locator("#result-dialog")).to_be_visible()
    expect(page.locator("#info .score")).to_have_text("Score 52/52")


def test_finish_button_of_a_game_opened_again(page: Page, live_server: LiveServer) -> None:
    # A finishable game, reopened (a reload), offered no Finish until the next move (issue 54).
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    expect(page.locator("#status-finish")).to_be_visible()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#status")).to_contain_text("Welcome back")
    page.locator("#status-finish").click()
    expect(page.locator("#result-dialog")).to_be_visible()
    expect(page.locator("#info .score")).to_have_text("Score 52/52")


def test_show_me_plays_to_the_end(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    allow_peeking(page)
    page.locator("#btn-showme").click()
    expect(page.locator("#result-dialog")).to_be_visible(timeout=20000)
    expect(page.locator("#info .score")).to_have_text("Score 52/52")
    # The win is the solver's as much as the player's: the dialog says how it counts.
    expect(page.locator("#result-dialog .won-assisted")).to_contain_text("counts apart")


@pytest.fixture
def slow_hints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """An in-process server whose hint search runs until it is cancelled or released.

    Yields the server and the release: called, the search answers with the real (winning)
    hint. The test does not depend on how long the solver takes on any deal.
    """
    monkeypatch.setenv(solver_stubs.GATE, str(tmp_path))
    monkeypatch.setattr(assist, "compute_hint", solver_stubs.held_real_hint)
    with LiveServer(tmp_path / "data", in_process=True, hint_timeout=30.0) as server:
        yield server, lambda: solver_stubs.release(tmp_path)
        solver_stubs.release(tmp_path)


def test_show_me_stops_at_once(page: Page, slow_hints: Any) -> None:
    # The search goes on until it is cancelled or released: Stop must not wait for its
    # answer, and the answer, when it comes, must not play a move.
    server, release = slow_hints
    open_game(page, server, {"game": "klondike", "position": near_won_klondike()})
    allow_peeking(page)
    button = page.locator("#btn-showme")
    button.click()
    expect(button).to_have_attribute("aria-label", "Stop")
    expect(page.locator("#status")).to_have_text("Thinking…")
    button.click()
    expect(button).to_have_attribute("aria-label", "Show me", timeout=500)
    expect(page.locator("#status")).to_have_text("Stopped.", timeout=500)
    release()  # the answer comes now: a winning move
    page.wait_for_timeout(2500)
    expect(page.locator("#info .moves")).to_have_text("0 moves")
    expect(page.locator("#status")).to_have_text("Stopped.")


def test_hint_shares_the_indicator_question(page: Page, live_server: LiveServer) -> None:
    # With the indicator on, pressing Hint asks nothing new: a second request for the same
    # position would cancel the indicator's on the server and leave it saying "Unknown".
    open_game(page, live_server, {"game": "klondike", "position": near_won_klondike()})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)
    page.locator("#btn-settings").click()
    page.locator("#setting-peek").check()
    page.locator("#setting-showWinnable").check()
    page.keyboard.press("Escape")
    page.keyboard.press("h")
    expect(page.locator("#status")).to_have_attribute("data-kind", "hint")
    expect(page.locator("#info .winnable")).to_have_class(re.compile(r"winnable-winnable"))
    assert len(asked) == 1, asked


def test_stuck_game_offers_undo(page: Page, live_server: LiveServer) -> None:
    # Hopscotch: the stock's last card (QH) must go to a reserve; then no card fits a
    # foundation (they want a 2, 4, 6 and 8; the reserves show Kings and that Queen).
    ranks = "A23456789TJQK"
    deck = [r + s for s in "CDHS" for r in ranks if not (s == "C" and r in "A234")]
    tops = ["KD", "KH", "KS", "KC"]
    rest = [c for c in deck if c not in tops and c != "QH"]
    position = {
        "game": "hopscotch",
        "options": {},
        "deal": None,
        "stock": ["QH"],
        "waste": [],
        "foundations": [["AC"], ["2C"], ["3C"], ["4C"]],
        "reserve": [rest[i::4] + [tops[i]] for i in range(4)],
        "redeals": 0,
    }
    view = live_server.api("POST", "/games", {"game": "hopscotch", "position": position})
    assert view["status"] == "playing"
    page.goto(live_server.url)
    page.wait_for_selector("body[data-ready=true]")
    page.keyboard.press("d")
    expect(card(page, "QH")).to_have_attribute("data-pile", "waste")
    drag(page, card(page, "QH"), page.locator('#table .slot[data-pile="r1"]'))
    result = page.locator("#result-dialog")
    expect(result).to_be_visible()
    expect(result).to_contain_text("No moves left")
    result.locator("#result-undo").click()
    expect(card(page, "QH")).to_have_attribute("data-pile", "waste")
    # Every way on loses: the hint says so and, when the solver may look, offers to rewind.
    allow_peeking(page)
    page.keyboard.press("h")
    expect(page.locator("#status")).to_contain_text("cannot be won")
    page.locator("#status-rewind").click()
    expect(page.locator("#status")).not_to_contain_text("cannot be won", timeout=1000)


def test_held_undo_stops_at_the_start(page: Page, live_server: LiveServer) -> None:
    open_game(page, live_server, {"game": "klondike", "deal": 7})
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    for _ in range(3):
        page.keyboard.press("d")
        page.wait_for_timeout(50)
    expect(page.locator("#info .moves")).to_have_text("3 moves")
    for _ in range(12):  # a held Ctrl+Z: key repeat
        page.keyboard.press("Control+z")
    expect(page.locator("#info .moves")).to_have_text("0 moves")
    for _ in range(12):
        page.keyboard.press("Control+y")
    expect(page.locator("#info .moves")).to_have_text("3 moves")
    page.wait_for_timeout(300)
    assert not refused, refused
    expect(page.locator("#status")).not_to_have_attribute("data-kind", "error")


def test_clock_stops_during_a_long_pause(browser: Any, live_server: LiveServer) -> None:
    # The server counts at most 30 s of a pause; the clock on screen must not run past it.
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_ANIMATION)
    page = context.new_page()
    try:
        page.clock.install()
        open_game(page, live_server, {"game": "klondike", "deal": 7})
        page.keyboard.press("d")
        expect(page.locator("#info .moves")).to_have_text("1 move")
        page.clock.fast_forward("10:00")
        expect(page.locator("#info .clock")).to_have_text(re.compile(r"^0:3[0-2]$"))
    finally:
        context.close()


def test_a_second_tab_catches_up_when_shown(browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_ANIMATION)
    first, second = context.new_page(), context.new_page()
    try:
        open_game(first, live_server, {"game": "klondike", "deal": 7})
        second.goto(live_server.url)
        second.wait_for_selector("body[data-ready=true]")
        first.keyboard.press("d")
        expect(first.locator("#info .moves")).to_have_text("1 move")
        expect(second.locator("#info .moves")).to_have_text("0 moves")
        second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(second.locator("#info .moves")).to_have_text("1 move")
    finally:
        context.close()


@pytest.mark.slow
def test_server_restart_mid_game(browser: Any, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data").start()
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(NO_ANIMATION)
    page = context.new_page()
    try:
        open_game(page, server, {"game": "klondike", "deal": 7})
        card(page, "QD").click()
        card(page, "KS").click()
        expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
        page.keyboard.press("d")
        expect(page.locator("#info .moves")).to_have_text("2 moves")
        waste = page.locator('#table .card[data-pile="waste"]').get_attribute("data-card")
        server.kill()
        server.start()  # same data folder; the port is reused when free
        page.goto(server.url)
        page.wait_for_selector("body[data-ready=true]")
        expect(page.locator("#info .moves")).to_have_text("2 moves")
        expect(card(page, "QD")).to_have_attribute("data-pile", "t7")
        expect(card(page, waste)).to_have_attribute("data-pile", "waste")
        page.locator("#btn-undo").click()
        expect(page.locator("#info .moves")).to_have_text("1 move")
        page.locator("#btn-undo").click()
        expect(card(page, "QD")).to_have_attribute("data-pile", "t3")
        expect(page.locator("#btn-undo")).to_be_disabled()
    finally:
        context.close()
        server.kill()
