"""The server's memory of proven hints: a winning line answers every position along it."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from engine_builders import near_won_klondike
from patience import new_game
from patience.web.app import create_app


def test_following_a_proven_line_answers_from_memory(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    with TestClient(app, base_url="http://localhost") as c:
        view = c.post(
            "/api/games", json={"game": "klondike", "position": near_won_klondike()}
        ).json()
        gid = view["id"]
        first = c.get(f"/api/games/{gid}/hint").json()
        assert first["verdict"] == "winnable" and len(first["line"]) == 4
        c.post(f"/api/games/{gid}/move", json={"move": first["line"][0]})
        # The next position is on the proven line: known before anyone asks the solver.
        live = app.state.service.get(gid)
        assert app.state.hints.get(live.session.position) is not None
        second = c.get(f"/api/games/{gid}/hint").json()
        rest = first["line"][1:]
        assert second == {"verdict": "winnable", "move": rest[0], "line": rest}


def test_memory_tells_games_and_options_apart(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    hints = app.state.hints
    single = new_game("klondike", deal=3, options={"mode": "single"})
    three = new_game("klondike", deal=3, options={"mode": "three"})
    hints.learn(single, {"verdict": "lost", "move": None, "line": []})
    assert hints.get(single) == {"verdict": "lost", "move": None, "line": []}
    assert hints.get(three) is None


def test_memory_is_bounded(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    hints = app.state.hints
    hints.size = 2
    deals = [new_game("klondike", deal=d) for d in (1, 2, 3)]
    for p in deals:
        hints.learn(p, {"verdict": "lost", "move": None, "line": []})
    assert hints.get(deals[0]) is None
    assert hints.get(deals[2]) is not None


def test_a_line_that_does_not_win_is_not_remembered(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    hints = app.state.hints
    start = new_game("klondike", deal=7)
    hints.learn(start, {"verdict": "winnable", "move": "deal", "line": ["deal", "deal"]})
    assert hints.get(start) is None
    hints.learn(start, {"verdict": "winnable", "move": "t1>t2", "line": ["t1>t2"]})  # illegal
    assert hints.get(start) is None
