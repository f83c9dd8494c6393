"""The server's memory of proven hints: a winning line answers every position along it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import solver_stubs
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
        first = c.get(f"/api/games/{gid}/hint", params={"peek": "true"}).json()
        assert first["verdict"] == "winnable" and len(first["line"]) == 4
        c.post(f"/api/games/{gid}/move", json={"move": first["line"][0]})
        # The next position is on the proven line: known before anyone asks the solver.
        live = app.state.service.get(gid)
        assert app.state.hints.get(live.session.position) is not None
        second = c.get(f"/api/games/{gid}/hint", params={"peek": "true"}).json()
        rest = first["line"][1:]
        assert (second["verdict"], second["move"], second["line"]) == ("winnable", rest[0], rest)


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


# --- solver work has a bound of its own --------------------------------------------------------


def test_solver_work_is_bounded_and_the_page_and_moves_stay_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A search that holds its slot until the test lets it go (never the real solver's speed).
    solver_stubs.hold_hints(monkeypatch, tmp_path)
    app = create_app(tmp_path, hint_timeout=0.3)
    with TestClient(app, base_url="http://localhost") as c:
        first = c.post("/api/games", json={"game": "klondike", "deal": 1}).json()["id"]
        second = c.post("/api/games", json={"game": "klondike", "deal": 2}).json()["id"]
        replies: list[Any] = []
        busy = threading.Thread(
            target=lambda: replies.append(c.get(f"/api/games/{first}/hint?peek=true"))
        )
        busy.start()
        try:
            solver_stubs.wait_for(tmp_path / "searching-0")
            # Every solver slot is taken: another search is refused within its budget...
            r = c.get(f"/api/games/{second}/hint?peek=true")
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "solver_busy"
            assert r.headers["retry-after"]
            # ... while the page, the games and the moves are answered as ever.
            assert c.get("/i18n.js").status_code == 200
            move = c.post(f"/api/games/{second}/move", json={"move": "deal"})
            assert move.status_code == 200
            assert busy.is_alive()
        finally:
            solver_stubs.release(tmp_path)
            busy.join(20)
        assert replies[0].status_code == 200


def test_a_hint_that_waited_for_a_slot_searches_only_what_is_left_of_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solver_stubs.hold_hints(monkeypatch, tmp_path)
    app = create_app(tmp_path, hint_timeout=30.0)
    with TestClient(app, base_url="http://localhost") as c:
        ids = [
            c.post("/api/games", json={"game": "klondike", "deal": d}).json()["id"] for d in (1, 2)
        ]
        replies: list[Any] = []
        threads = [
            threading.Thread(
                target=lambda g=g: replies.append(c.get(f"/api/games/{g}/hint?peek=true"))
            )
            for g in ids
        ]
        threads[0].start()
        first = float(solver_stubs.wait_for(tmp_path / "searching-0"))
        threads[1].start()
        slots = app.state.solvers.slots
        while not slots.statistics().tasks_waiting:
            time.sleep(0.01)
        time.sleep(0.2)  # the second request has waited this long for the slot
        solver_stubs.release(tmp_path)
        second = float(solver_stubs.wait_for(tmp_path / "searching-1"))
        for t in threads:
            t.join(20)
        assert [r.status_code for r in replies] == [200, 200]
        assert first <= 30.0 and second < 30.0 - 0.1
