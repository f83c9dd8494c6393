"""Requests racing on one game: each reply describes one moment of the game."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import pytest

from patience.web import service as service_module

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx2; httpx works the same
    from starlette.testclient import TestClient


def test_a_move_reply_is_one_consistent_view_when_a_restart_races_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A view built after the change, outside Service.lock, was torn by a restart that ran
    # meanwhile: the dealt position with moves_made 0 and last_move None. The move's
    # view is held up here until the restart has ended, or 3 s (the restart waits for
    # the lock: the view must hold it).
    real_player_view = service_module.player_view
    in_view = threading.Event()
    restarted = threading.Event()
    mover_id: list[int] = []

    def slow_player_view(*args: Any, **kwargs: Any) -> Any:
        if mover_id and threading.get_ident() == mover_id[0] and not in_view.is_set():
            in_view.set()
            restarted.wait(3)  # with the view under the lock, the restart cannot end
        return real_player_view(*args, **kwargs)

    gid = client.post("/api/games", json={"game": "klondike", "deal": 1}).json()["id"]
    monkeypatch.setattr(service_module, "player_view", slow_player_view)
    original_view = service_module.Service.view

    def marked_view(self: Any, live: Any) -> Any:
        if not mover_id and live.session.moves:
            mover_id.append(threading.get_ident())
        return original_view(self, live)

    monkeypatch.setattr(service_module.Service, "view", marked_view)
    replies: list[Any] = []
    t = threading.Thread(
        target=lambda: replies.append(client.post(f"/api/games/{gid}/move", json={"move": "deal"}))
    )
    t.start()
    assert in_view.wait(10)
    done = threading.Thread(
        target=lambda: (client.post(f"/api/games/{gid}/restart"), restarted.set())
    )
    done.start()
    t.join(20)
    done.join(20)
    view = replies[0].json()
    assert replies[0].status_code == 200
    # One moment of the game: the dealt waste goes with one move made and its name.
    assert view["position"]["waste"], view["position"]
    assert (view["moves_made"], view["last_move"], view["can_undo"]) == (1, "deal", True)
