"""Auto-play over the API: after a move that asks for it the server sends home the cards
the solver proves safe (and no other), lists them, and one undo takes them back with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from patience.games import position_from_json
from patience.solver import safe_moves
from test_api import act, create, full_position, make_client, suit


def safe_and_unsafe() -> dict[str, Any]:
    """Klondike: 4S on t1 is safe to send home (both red 3s and every 2 are there); 5C on
    t4 may go home but is not safe (the red 4s are not); t2>t3 is a move to make first."""
    used = {*suit("C", 4), *suit("D", 3), *suit("S", 3), *suit("H", 3), "4S", "8C", "9H", "5C"}
    stock = [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in used]
    return {
        "game": "klondike",
        "options": {"mode": "single"},
        "deal": None,
        "stock": stock,
        "waste": [],
        "foundations": [suit("C", 4), suit("D", 3), suit("S", 3), suit("H", 3)],
        "tableau": [{"down": [], "up": [c]} for c in ("4S", "8C", "9H", "5C")]
        + [{"down": [], "up": []}] * 3,
        "reserve": [],
        "redeals": 0,
    }


def test_the_rule_is_the_solvers_safe_moves() -> None:
    p = position_from_json(safe_and_unsafe())
    assert [str(m) for m in safe_moves(p)] == ["t1>f3"]


def test_autoplay_sends_the_safe_card_home_and_not_the_unsafe_one(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        view = create(c, position=safe_and_unsafe())
        gid = view["id"]
        start = full_position(c, gid)
        moved = act(c, gid, "move", move="t2>t3", autoplay=True)
        assert moved["autoplayed"] == ["t1>f3"]
        assert moved["last_move"] == "t2>t3 t1>f3"
        assert moved["position"]["foundations"][2][-1] == "4S"
        assert moved["position"]["tableau"][3]["up"] == ["5C"]
        assert not moved["assisted"]
        # One undo takes back the player's move and the automatic move it caused.
        undone = act(c, gid, "undo")
        assert full_position(c, gid) == start and not undone["can_undo"]
        redone = act(c, gid, "redo")
        assert redone["position"] == moved["position"] and not redone["can_redo"]
    # The grouping is saved with the game: a restarted server undoes the same turn.
    with make_client(tmp_path) as c:
        assert act(c, gid, "undo")["undo_count"] == 0


def test_without_autoplay_nothing_moves_by_itself(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        gid = create(c, position=safe_and_unsafe())["id"]
        moved = act(c, gid, "move", move="t2>t3")
        assert moved["autoplayed"] == [] and moved["position"]["tableau"][0]["up"] == ["4S"]
        assert act(c, gid, "undo")["undo_count"] == 0


def test_double_click_autoplays_too(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        gid = create(c, position=safe_and_unsafe())["id"]
        view = act(c, gid, "foundation", pile="t4", autoplay=True)
        # 5C home first; then 4S is still safe, and 5S is nowhere to be seen.
        assert view["last_move"].split()[0] == "t4>f1"
        assert view["autoplayed"] == ["t1>f3"]
        assert act(c, gid, "undo")["undo_count"] == 0


def test_autoplay_must_be_a_boolean(tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        gid = create(c, position=safe_and_unsafe())["id"]
        r = c.post(f"/api/games/{gid}/move", json={"move": "t2>t3", "autoplay": "yes"})
        assert r.status_code == 422
        assert c.get(f"/api/games/{gid}").json()["moves_made"] == 0
