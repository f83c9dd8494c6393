"""Property: the API agrees with an engine Session step by step, and after a restart."""

from __future__ import annotations

import tempfile
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience import Move, new_game
from patience.fair import player_view
from patience.games import variants
from patience.session import Session
from patience.web.app import create_app

with warnings.catch_warnings():
    # Starlette asks for httpx2; the httpx it falls back to works the same.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAMES = variants()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    deal=st.integers(0, 10**6),
    steps=st.lists(st.tuples(st.sampled_from("mmmmmur"), st.integers(0, 10**6)), max_size=40),
)
def test_api_matches_engine_session(
    game: tuple[str, dict[str, str]], deal: int, steps: list[tuple[str, int]]
) -> None:
    name, options = game
    model = Session(new_game(name, deal=deal, options=options))
    with tempfile.TemporaryDirectory() as data:
        with TestClient(create_app(data), base_url="http://localhost") as c:
            view = c.post("/api/games", json={"game": name, "options": options, "deal": deal})
            gid = view.json()["id"]
            for kind, pick in steps:
                if kind == "m":
                    legal = model.legal_moves()
                    if not legal:
                        continue
                    move = legal[pick % len(legal)]
                    model.play(move)
                    r = c.post(f"/api/games/{gid}/move", json={"move": str(move)})
                elif kind == "u":
                    r = c.post(f"/api/games/{gid}/undo")
                    if not model.can_undo:
                        assert r.status_code == 409
                        continue
                    model.undo()
                else:
                    r = c.post(f"/api/games/{gid}/redo")
                    if not model.can_redo:
                        assert r.status_code == 409
                        continue
                    model.redo()
                assert r.status_code == 200, r.text
                got = r.json()
                assert got["position"] == player_view(model.position, model.knowledge)
                assert got["legal_moves"] == [str(m) for m in model.legal_moves()]
                assert (got["can_undo"], got["can_redo"]) == (model.can_undo, model.can_redo)
        with TestClient(create_app(data), base_url="http://localhost") as c:
            got = c.get(f"/api/games/{gid}").json()
            assert got["position"] == player_view(model.position, model.knowledge)
            assert got["moves_made"] == len(model.moves)
            assert got["redo_count"] == len(model.redo_stack)
            if model.redo_stack:
                again = c.post(f"/api/games/{gid}/redo").json()
                assert Move.parse(again["last_move"]) == model.redo_stack[-1]
