"""A game declared in one module (tests/toy_game.py) works in every layer untouched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patience.cli import app as cli
from patience.games import get_game
from patience.position import Position
from toy_game import NAME, ToyCourt, registered


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
    start = Position.from_json(json.loads(out))
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
        assert get_game(NAME).is_won(Position.from_json(json.loads(out)))


def test_without_registration_it_does_not_exist() -> None:
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
