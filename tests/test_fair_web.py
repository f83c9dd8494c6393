"""Fair play in the web app (issue 16): the server keeps the full position and tells the
page only what the player has seen; hints and odds come from that alone."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from fair_leaks import hides_cards, leaks, unseen
from patience.games import GAMES
from patience.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PILES = ["s", "w", *(f"t{i}" for i in range(1, 14)), *(f"f{i}" for i in range(1, 5))]
PILES += [f"r{i}" for i in range(1, 8)]


class Recorder:
    """Every API call of a test, each reply checked against the cards unseen right then
    in the server's own session of the game."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.service = client.app.state.service  # type: ignore[attr-defined]
        self.game_id = ""
        self.replies = 0
        self.hidden_seen = 0  # replies checked while some card was unseen

    def call(self, method: str, path: str, body: Any = None) -> Any:
        res = self.client.request(method, "/api" + path, json=body)
        data = res.json() if res.content else None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            self.game_id = data["id"]
        if self.game_id:
            hidden = unseen(self.service.get(self.game_id).session)
            found = leaks(res.text, hidden)
            assert not found, f"{method} {path} names unseen {sorted(found)}: {res.text[:300]}"
            self.replies += 1
            self.hidden_seen += bool(hidden)
        return data


def play_a_while(rec: Recorder, rng: random.Random, steps: int) -> None:
    """Play ``steps`` requests at random: moves (most), undo, redo, restart, hints, why,
    foundation clicks, reloads."""
    view = rec.call("GET", f"/games/{rec.game_id}")
    gid = rec.game_id
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.6 and view["legal_moves"]:
            view = rec.call("POST", f"/games/{gid}/move", {"move": rng.choice(view["legal_moves"])})
        elif roll < 0.7:
            rec.call("POST", f"/games/{gid}/undo")
        elif roll < 0.75:
            rec.call("POST", f"/games/{gid}/redo")
        elif roll < 0.77:
            rec.call("POST", f"/games/{gid}/restart")
        elif roll < 0.8:
            rec.call("GET", f"/games/{gid}/hint")
        elif roll < 0.9:
            move = f"{rng.choice(PILES)}>{rng.choice(PILES)}"
            if rng.random() < 0.3:
                move += f"/{rng.randint(2, 13)}"
            rec.call("GET", f"/games/{gid}/why?move={move}")
            rec.call("POST", f"/games/{gid}/move", {"move": move})
        elif roll < 0.95:
            rec.call("POST", f"/games/{gid}/foundation", {"pile": rng.choice(PILES)})
        else:
            rec.call("GET", "/current")
        view = rec.call("GET", f"/games/{gid}")


@pytest.mark.parametrize("game", list(GAMES))
def test_no_reply_names_a_card_the_player_has_not_seen(tmp_path: Path, game: str) -> None:
    app = create_app(tmp_path, hint_timeout=0.2)
    with TestClient(app, base_url="http://localhost") as client:
        rec = Recorder(client)
        rng = random.Random(game)
        for deal in (1, 2):
            rec.call("POST", "/games", {"game": game, "deal": deal})
            play_a_while(rec, rng, 60)
        rec.call("GET", "/stats")
    assert rec.replies > 200
    if hides_cards(game):  # Baker's Dozen, say, deals every card face up
        assert rec.hidden_seen > 100


def test_the_help_samples_show_no_face_down_card(tmp_path: Path) -> None:
    # The help draws deal 1 of each game, a deal anyone may play: its face-down cards
    # are null, like a game's (the list names every game's cards, so is checked apart).
    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        for info in c.get("/api/games").json():
            p = info["sample"]["position"]
            down = [c for t in p["tableau"] for c in t["down"]]
            assert set(down) <= {None} and set(p["stock"]) <= {None}, info["name"]
            assert not hides_cards(info["name"]) or None in down + p["stock"]


def test_a_card_seen_stays_known_after_undo_and_reload(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        view = c.post("/api/games", json={"game": "klondike", "deal": 7}).json()
        assert view["position"]["stock"] == [None] * 24
        assert all(t["down"] == [None] * len(t["down"]) for t in view["position"]["tableau"])
        gid = view["id"]
        dealt = c.post(f"/api/games/{gid}/move", json={"move": "deal"}).json()
        card = dealt["position"]["waste"][-1]
        back = c.post(f"/api/games/{gid}/undo").json()
        # Face down again, and still known: the player saw it.
        assert back["position"]["stock"][-1] == card
        assert back["position"]["stock"][:-1] == [None] * 23
    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        again = c.get(f"/api/games/{gid}").json()
        assert again["position"]["stock"][-1] == card
