"""A game declared in one module (tests/toy_game.py) works in every layer untouched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from browser import drag
from live import LiveServer
from patience.cli import app as cli
from patience.games import get_game, position_from_json, position_to_json
from toy_game import NAME, ToyCourt, registered, unregistered


@pytest.fixture
def toy() -> Iterator[type[ToyCourt]]:
    with registered() as game:
        yield game  # type: ignore[misc]


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_the_command_line_deals_lists_plays_and_solves_it(toy: type[ToyCourt]) -> None:
    code, out, err = run("deal", NAME, "--deal", "3", "--json")
    assert code == 0, err
    start = position_from_json(json.loads(out))
    assert start == get_game(NAME).new_position(3)

    code, out, _ = run("moves", NAME, "--deal", "3", "--json")
    legal = json.loads(out)
    assert code == 0 and legal == [str(m) for m in get_game(NAME).legal_moves(start)]

    code, out, err = run("solve", NAME, "--deal", "3", "--json", "--timeout", "20")
    assert code == 0, err
    verdict = json.loads(out)
    assert verdict["result"] in ("won", "lost")
    if verdict["result"] == "won":
        code, out, err = run("play", NAME, "--deal", "3", "--moves", " ".join(verdict["moves"]))
        assert code == 0, err
        code, out, _ = run(
            "play", NAME, "--deal", "3", "--moves", " ".join(verdict["moves"]), "--json"
        )
        assert get_game(NAME).is_won(position_from_json(json.loads(out)))


def test_without_registration_it_does_not_exist() -> None:
    with unregistered():
        code, _, err = run("deal", NAME)
    assert code == 2 and NAME in err and len(err.strip().splitlines()) == 1


def test_the_api_lists_deals_and_plays_it(toy: type[ToyCourt], tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from patience.web.app import create_app

    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        games = c.get("/api/games").json()
        assert NAME in [g["name"] for g in games]
        view = c.post("/api/games", json={"game": NAME, "deal": 3}).json()
        assert view["game"] == NAME and view["legal_moves"]
        move = view["legal_moves"][0]
        after = c.post(f"/api/games/{view['id']}/move", json={"move": move})
        assert after.status_code == 200, after.text
        assert after.json()["moves_made"] == 1


@pytest.fixture
def live_url(toy: type[ToyCourt], tmp_path: Path) -> Iterator[str]:
    """A live server in a thread of this process, so that it sees the registration."""
    with LiveServer(tmp_path, in_process=True) as server:
        yield server.url


@pytest.mark.browser
def test_the_browser_offers_draws_plays_and_explains_it(page: Any, live_url: str) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    page.goto(live_url)
    page.wait_for_selector("body[data-ready=true]")

    # Offered by the new-game dialog, under its own title.
    page.locator("#btn-game").click()
    dialog = page.locator("#new-game-dialog")
    dialog.locator("#new-game-game").select_option(NAME)
    expect(dialog.locator("#new-game-game option:checked")).to_have_text(ToyCourt.title)
    dialog.locator("#new-game-deal").fill("3")
    dialog.locator("#new-game-start").click()
    expect(page.locator("#info .game-title")).to_have_text(ToyCourt.title)
    expect(page.locator("#info .deal")).to_have_text("Deal 3")

    # Drawn as it declares itself: four piles, four foundations, no stock.
    kinds = page.locator("#table .slot").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert sorted(kinds) == ["foundation"] * 4 + ["tableau"] * 4
    start = get_game(NAME).new_position(3)
    in_order = "els => els.sort((a, b) => a.dataset.index - b.dataset.index)"
    for i, pile in enumerate(position_to_json(start)["tableau"]):
        cards = page.locator(f'#table .card[data-pile="t{i + 1}"]')
        assert cards.evaluate_all(f"{in_order}.map(e => e.dataset.card)") == pile["up"]

    # Played: a legal move, dragged, lands where it was dropped.
    move = get_game(NAME).legal_moves(start)[0]
    top = len(position_to_json(start)["tableau"][int(move.src[1:]) - 1]["up"]) - 1
    source = page.locator(f'#table .card[data-pile="{move.src}"][data-index="{top}"]')
    moved = source.get_attribute("data-card")
    target = page.locator(f'#table .slot[data-pile="{move.dst}"]')
    drag(page, source, target)
    expect(page.locator("#info .moves")).to_have_text("1 move")
    expect(page.locator(f'#table .card[data-card="{moved}"]')).to_have_attribute(
        "data-pile", move.dst
    )

    # Explained: its own help, with the picture of its table.
    page.locator("#btn-help").click()
    help_dialog = page.locator(f"#help-dialog[open][data-game={NAME}]")
    expect(help_dialog.locator("#help-title")).to_have_text(f"How to play {ToyCourt.title}")
    assert ToyCourt.help is not None
    expect(help_dialog.locator("#help-intro")).to_have_text(ToyCourt.help.intro)
    expect(help_dialog.locator("svg .help-face")).to_have_count(4 + 16)
