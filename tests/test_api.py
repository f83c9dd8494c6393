"""The JSON API in-process: every endpoint, persistence, statistics, the clock."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import solver_stubs
from patience import Position, assist, new_game
from patience.cards import MAX_DEAL
from patience.fair import Knowledge, player_view
from patience.games import GAMES, get_game, position_from_json, position_to_json
from patience.games.describe import describe
from patience.web import app as app_module
from patience.web.app import create_app
from patience.web.routes import games as games_routes

with warnings.catch_warnings():
    # Starlette asks for httpx2; the httpx it falls back to works the same.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

RANKS = "A23456789TJQK"


def suit(s: str, n: int = 13) -> list[str]:
    """The first ``n`` cards of suit ``s``, Ace up."""
    return [r + s for r in RANKS[:n]]


def near_won() -> dict[str, Any]:
    """Klondike with every card home but the King of clubs, alone on t1."""
    return {
        "game": "klondike",
        "options": {"mode": "single"},
        "deal": None,
        "stock": [],
        "waste": [],
        "foundations": [suit("C", 12), suit("D"), suit("S"), suit("H")],
        "tableau": [{"down": [], "up": ["KC"]}] + [{"down": [], "up": []}] * 6,
        "reserve": [],
        "redeals": 0,
    }


def two_kings_left() -> dict[str, Any]:
    """Klondike with the Kings of clubs and diamonds left on t1 and t2."""
    p = near_won()
    p["foundations"][1] = suit("D", 12)
    p["tableau"][1] = {"down": [], "up": ["KD"]}
    return p


def dead_end() -> dict[str, Any]:
    """Baker's Dozen, winnable (t1>t3 frees the Ace); t2>t1 loses it."""
    piles = [["AC", "3C"], ["2C"]] + [[r + "C"] for r in "456789TJQK"] + [[]]
    return {
        "game": "bakers-dozen",
        "options": {},
        "deal": None,
        "foundations": [[], suit("D"), suit("S"), suit("H")],
        "tableau": [{"down": [], "up": p} for p in piles],
    }


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make_client(data_dir: Path, **kwargs: Any) -> TestClient:
    """An in-process client of a fresh app over ``data_dir``."""
    return TestClient(create_app(data_dir, **kwargs), base_url="http://localhost")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    """POST /api/games and return the view (checking the 201)."""
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


def act(c: TestClient, gid: str, action: str, **body: Any) -> dict[str, Any]:
    """POST an action and return the view (checking the 200)."""
    r = c.post(f"/api/games/{gid}/{action}", json=body or None)
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def full_position(c: TestClient, gid: str) -> dict[str, Any]:
    """The whole position the server keeps (the page gets only what the player saw)."""
    position: dict[str, Any] = position_to_json(c.app.state.service.get(gid).session.position)  # type: ignore[attr-defined]
    return position


def stats(c: TestClient) -> list[dict[str, Any]]:
    """The statistics rows."""
    r = c.get("/api/stats")
    assert r.status_code == 200
    rows: list[dict[str, Any]] = r.json()["stats"]
    return rows


# --- games -------------------------------------------------------------------------------


def test_list_games(client: TestClient) -> None:
    listed = client.get("/api/games").json()
    games = {g["name"]: g for g in listed}
    assert list(games) == list(GAMES)
    assert games["klondike"]["options"] == {"mode": ["single", "three", "no-redeal", "unlimited"]}
    [mode] = games["klondike"]["choices"]
    assert mode["key"] == "mode" and mode["label"] == "Deal mode" and mode["default"] == "single"
    assert [v["value"] for v in mode["values"]] == ["single", "three", "no-redeal", "unlimited"]
    assert mode["values"][1]["label"] == "Draw three, unlimited redeals"
    assert games["klondike"]["defaults"] == {"mode": "single"}
    assert games["bakers-dozen"]["defaults"] == {"kings": "to-bottom", "build": "any-suit"}
    assert games["lady-jane"]["title"] == "Lady Jane"
    # Each game as it declares itself, with its default options.
    for info in listed:
        described = json.loads(json.dumps(describe(get_game(info["name"], {}))))
        sample = position_from_json(described["sample"]["position"])
        # The sample is deal 1, which anyone may play: shown as a player sees it.
        described["sample"]["position"] = player_view(sample, Knowledge.start(sample))
        assert {k: info[k] for k in described} == described


def test_a_view_carries_its_table_and_marks(client: TestClient) -> None:
    three = create(client, game="klondike", options={"mode": "three"}, deal=1)
    assert three["table"] == get_game("klondike", {"mode": "three"}).table().to_json()
    assert three["table"]["waste_shown"] == 3
    assert three["marks"]["empty_tableau_takes"] == 13 and not three["marks"]["finishes"]
    hop = create(client, game="hopscotch", deal=1)
    assert [f["step"] for f in hop["marks"]["foundations"]] == [1, 2, 3, 4]
    assert hop["marks"]["empty_tableau_takes"] is None
    assert hop["redeals_left"] == 0  # a game without redeals


def test_new_numbered_deal_is_the_engine_deal(client: TestClient) -> None:
    view = create(client, game="klondike", options={"mode": "three"}, deal=5)
    expected = new_game("klondike", deal=5, options={"mode": "three"})
    assert view["position"] == player_view(expected, Knowledge.start(expected))
    assert full_position(client, view["id"]) == position_to_json(expected)
    assert view["deal"] == 5 and view["options"] == {"mode": "three"}
    assert view["title"] == "Klondike"
    assert view["status"] == "playing"
    assert view["moves_made"] == 0 and view["score"] == 0 and view["max_score"] == 52
    assert not view["can_undo"] and not view["can_redo"]
    assert view["stock_count"] == 24 and view["redeals"] == 0 and view["redeals_left"] is None
    assert view["base"] is None and view["last_move"] is None and view["notice"] is None
    assert view["legal_moves"] == [str(m) for m in expected_moves(expected)]
    assert view["elapsed"] == 0.0


def expected_moves(p: Position) -> list[Any]:
    """The engine's legal moves of ``p``."""
    from patience import legal_moves

    return legal_moves(p)


def test_new_random_deal(client: TestClient) -> None:
    a = create(client, game="hopscotch")
    b = create(client, game="hopscotch", deal=None)
    assert isinstance(a["deal"], int) and a["deal"] >= 0
    assert a["id"] != b["id"]


def test_lady_jane_shows_its_base(client: TestClient) -> None:
    view = create(client, game="lady-jane", deal=3)
    assert view["base"] == position_to_json(new_game("lady-jane", deal=3))["base"]
    assert view["redeals_left"] == 0


def test_klondike_single_mode_counts_redeals(client: TestClient) -> None:
    view = create(client, game="klondike", deal=1)
    assert view["redeals_left"] == 2
    gid = view["id"]
    for _ in range(24):
        view = act(client, gid, "move", move="deal")
    assert view["stock_count"] == 0
    view = act(client, gid, "move", move="deal")
    assert view["redeals"] == 1 and view["redeals_left"] == 1


def test_winnable_deal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games_routes, "WINNABLE_BUDGET", 3.0)
    view = create(client, game="bakers-dozen", winnable=True)
    assert isinstance(view["deal"], int)
    assert view["notice"] is None or "winnable" in view["notice"]


def test_load_position(client: TestClient) -> None:
    view = create(client, position=near_won())
    assert view["deal"] is None and view["score"] == 51
    assert "t1>f1" in view["legal_moves"]
    same = create(client, game="klondike", position=near_won())
    assert same["position"] == view["position"]


def test_get_game(client: TestClient) -> None:
    view = create(client, game="klondike", deal=2)
    got = client.get(f"/api/games/{view['id']}")
    assert got.status_code == 200
    assert got.json()["position"] == view["position"]


# --- moves -------------------------------------------------------------------------------


def test_move_undo_redo(client: TestClient) -> None:
    view = create(client, game="klondike", deal=5)
    gid, start = view["id"], full_position(client, view["id"])
    moved = act(client, gid, "move", move="DEAL")  # notation is case-insensitive
    assert moved["last_move"] == "deal" and moved["moves_made"] == 1 and moved["can_undo"]
    assert moved["stock_count"] == 23
    undone = act(client, gid, "undo")
    assert full_position(client, gid) == start and undone["can_redo"] and not undone["can_undo"]
    # Face down again, and remembered: the player saw it.
    assert undone["position"]["stock"][-1] == moved["position"]["waste"][-1]
    assert undone["redo_count"] == 1
    redone = act(client, gid, "redo")
    assert redone["position"] == moved["position"] and redone["last_move"] == "deal"
    assert not redone["can_redo"]


def test_a_deal_number_given_as_digits_is_that_deal_exactly(client: TestClient) -> None:
    # The page's JavaScript numbers are exact up to 2**53 only, so it refused deal numbers
    # over 15 digits where the command line took them up to MAX_DEAL: it sends the digits,
    # and the one bound (cards.MAX_DEAL) is the server's, with its clear refusal.
    big = 12345678901234567890
    assert create(client, game="klondike", deal=str(big))["deal"] == big
    assert full_position(client, client.get("/api/current").json()["id"]) == position_to_json(
        new_game("klondike", deal=big)
    )
    assert create(client, game="klondike", deal=str(MAX_DEAL))["deal"] == MAX_DEAL
    assert create(client, game="klondike", deal="007")["deal"] == 7
    assert create(client, game="klondike", deal=7.0)["deal"] == 7  # the same JSON number
    for text in (str(MAX_DEAL + 1), " 5", "5\n", "-1", "1e3", "\u0663"):
        r = client.post("/api/games", json={"game": "klondike", "deal": text})
        assert r.status_code == 422, (text, r.text)
        error = r.json()["error"]
        assert error["code"] == "invalid_deal" and error["message_id"].startswith(
            ("deal number must be from 0 to {max}", "invalid deal number {deal}")
        ), error


def test_new_move_clears_redo(client: TestClient) -> None:
    gid = create(client, game="klondike", deal=5)["id"]
    act(client, gid, "move", move="deal")
    act(client, gid, "undo")
    view = act(client, gid, "move", move="t3>t5")
    assert not view["can_redo"]


def test_restart(client: TestClient) -> None:
    view = create(client, game="klondike", deal=5)
    gid = view["id"]
    act(client, gid, "move", move="deal")
    act(client, gid, "move", move="t3>t5")
    again = act(client, gid, "restart")
    assert full_position(client, gid) == position_to_json(new_game("klondike", deal=5))
    # The card that t3>t5 turned lies face down again and is remembered; no other.
    tableau, before = again["position"]["tableau"], view["position"]["tableau"]
    assert tableau[2]["down"][-1] is not None and before[2]["down"][-1] is None
    assert tableau[:2] + tableau[3:] == before[:2] + before[3:]
    assert not again["can_undo"] and not again["can_redo"]


def test_foundation_double_click_wins(client: TestClient) -> None:
    gid = create(client, position=near_won())["id"]
    view = act(client, gid, "foundation", pile="t1")
    assert view["status"] == "won" and view["score"] == 52 and view["last_move"] == "t1>f1"
    assert view["finished"]


def test_autofinish(client: TestClient) -> None:
    gid = create(client, position=two_kings_left())["id"]
    view = act(client, gid, "autofinish")
    assert view["status"] == "won"
    assert view["moves_made"] == 2
    assert sorted(view["last_move"].split()) == ["t1>f1", "t2>f2"]


def test_stuck_status(client: TestClient) -> None:
    gid = create(client, position=dead_end())["id"]
    view = act(client, gid, "move", move="t2>t1")
    assert view["status"] == "playing"  # the Clubs can still gather on the King
    for i in range(11, 2, -1):
        view = act(client, gid, "move", move=f"t{i}>t12")
    assert view["status"] == "stuck" and view["legal_moves"] == []


# --- hint and rewind -----------------------------------------------------------------------


def test_hint_winnable(client: TestClient) -> None:
    gid = create(client, position=near_won())["id"]
    r = client.get(f"/api/games/{gid}/hint", params={"peek": "true"})
    assert r.status_code == 200
    h = r.json()
    assert (h["verdict"], h["move"], h["line"], h["fair"]) == (
        "winnable",
        "t1>f1",
        ["t1>f1"],
        False,
    )


def test_hint_lost(client: TestClient) -> None:
    gid = create(client, position=dead_end())["id"]
    act(client, gid, "move", move="t2>t1")
    assert client.get(f"/api/games/{gid}/hint").json()["verdict"] == "lost"


def test_a_failing_solver_still_hints_a_useful_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The search runs in a worker process: the stand-in makes the solver fail there.
    monkeypatch.setattr(assist, "compute_hint", solver_stubs.hint_with_a_failing_solver)
    view = create(client, game="klondike", deal=5)
    hint = client.get(f"/api/games/{view['id']}/hint", params={"peek": "true"}).json()
    assert hint["verdict"] == "unknown"
    assert hint["move"] in view["legal_moves"]
    gid = create(client, position=near_won())["id"]
    assert client.get(f"/api/games/{gid}/hint", params={"peek": "true"}).json()["move"] == "t1>f1"


def test_rewind_to_last_winnable_position(client: TestClient) -> None:
    view = create(client, position=dead_end())
    gid = view["id"]
    act(client, gid, "move", move="t2>t1")
    act(client, gid, "move", move="t3>t4")
    back = act(client, gid, "rewind")
    assert back["position"] == view["position"]
    assert back["moves_made"] == 0 and back["redo_count"] == 2


def test_rewind_when_still_winnable_changes_nothing(client: TestClient) -> None:
    gid = create(client, position=two_kings_left())["id"]
    act(client, gid, "move", move="t1>f1")
    view = act(client, gid, "rewind")
    assert view["moves_made"] == 1
    assert view["notice"] == "This position can still be won"


# --- current game, persistence, statistics ---------------------------------------------------


def test_current(client: TestClient) -> None:
    r = client.get("/api/current")
    assert r.status_code == 204 and r.content == b""  # no game in progress
    a = create(client, game="klondike", deal=1)
    b = create(client, game="hopscotch", deal=1)
    assert client.get("/api/current").json()["id"] == b["id"]
    act(client, a["id"], "move", move="deal")
    assert client.get("/api/current").json()["id"] == a["id"]


def test_won_game_is_not_current(client: TestClient) -> None:
    gid = create(client, position=near_won())["id"]
    act(client, gid, "move", move="t1>f1")
    assert client.get("/api/current").status_code == 204


def test_undo_and_redo_are_play_the_page_reopens(client: TestClient) -> None:
    # An older game begun and never played stays unfinished. Undoing the winning move of
    # the game just played left it marked finished, so a reload reopened the older one.
    older = create(client, game="hopscotch", deal=1)["id"]
    gid = create(client, position=near_won())["id"]
    act(client, gid, "move", move="t1>f1")
    assert client.get("/api/current").json()["id"] == older
    act(client, gid, "undo")
    assert client.get("/api/current").json()["id"] == gid
    act(client, gid, "redo")  # won again: finished, and still recorded once
    assert client.get("/api/current").json()["id"] == older
    act(client, gid, "undo")
    act(client, older, "move", move="deal")  # the other game is played: it is current
    assert client.get("/api/current").json()["id"] == older
    act(client, gid, "restart")
    assert client.get("/api/current").json()["id"] == gid
    create(client, game="klondike", deal=1)  # abandons both: the win stays a win
    won = [row for row in stats(client) if row["game"] == "klondike"]
    assert [(r["played"], r["won"]) for r in won] == [(1, 1)]


def test_resume_after_restart_with_undo_history(tmp_path: Path) -> None:
    with make_client(tmp_path) as first:
        view = create(first, game="klondike", deal=5)
        gid = view["id"]
        for m in ["deal", "t3>t5", "deal", "deal"]:
            act(first, gid, "move", move=m)
        act(first, gid, "undo")
        before = first.get(f"/api/games/{gid}").json()
    with make_client(tmp_path) as second:
        resumed = second.get("/api/current").json()
        assert resumed["id"] == gid
        assert resumed["position"] == before["position"]
        assert resumed["moves_made"] == 3 and resumed["redo_count"] == 1
        assert act(second, gid, "redo")["last_move"] == "deal"
        for _ in range(4):
            view_after = act(second, gid, "undo")
        assert full_position(second, gid) == position_to_json(new_game("klondike", deal=5))
        assert view_after["position"]["stock"] != view["position"]["stock"]  # remembered


def test_won_game_recorded_once(client: TestClient) -> None:
    gid = create(client, position=near_won())["id"]
    act(client, gid, "move", move="t1>f1")
    act(client, gid, "undo")
    act(client, gid, "redo")  # winning again is the same game
    create(client, game="klondike", deal=1)
    [row] = stats(client)
    assert row["game"] == "klondike" and row["options"] == {"mode": "single"}
    assert (row["played"], row["won"], row["win_rate"], row["win_percent"]) == (1, 1, 1.0, 100.0)
    assert (row["current_streak"], row["longest_streak"], row["best_score"]) == (1, 1, 52)


def test_abandoned_game_counts_as_lost(client: TestClient) -> None:
    gid = create(client, game="klondike", deal=5)["id"]
    act(client, gid, "move", move="deal")
    create(client, game="klondike", deal=6)  # abandons deal 5
    create(client, game="klondike", deal=7)  # deal 6 had no move: not counted
    [row] = stats(client)
    assert (row["played"], row["won"], row["current_streak"]) == (1, 0, 0)
    assert row["best_time"] is None and row["average_time"] is None


def test_stats_survive_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as first:
        gid = create(first, position=near_won())["id"]
        act(first, gid, "move", move="t1>f1")
    with make_client(tmp_path) as second:
        [row] = stats(second)
        assert row["won"] == 1


def test_clock_counts_play_and_caps_idle_gaps(tmp_path: Path) -> None:
    clock = Clock()
    with make_client(tmp_path, clock=clock, idle_cap=30.0) as c:
        gid = create(c, game="klondike", deal=5)["id"]
        clock.now += 100  # before the first move: the clock has not started
        assert act(c, gid, "move", move="deal")["elapsed"] == 0.0
        clock.now += 12
        assert act(c, gid, "move", move="deal")["elapsed"] == 12.0
        clock.now += 5
        assert c.get(f"/api/games/{gid}").json()["elapsed"] == 17.0
        clock.now += 3600  # left open for an hour: only the cap counts
        assert act(c, gid, "move", move="deal")["elapsed"] == 42.0


def test_clock_stops_when_won_and_records_time(tmp_path: Path) -> None:
    clock = Clock()
    with make_client(tmp_path, clock=clock) as c:
        gid = create(c, position=two_kings_left())["id"]
        act(c, gid, "move", move="t1>f1")
        clock.now += 7
        assert act(c, gid, "move", move="t2>f2")["elapsed"] == 7.0
        clock.now += 20
        assert c.get(f"/api/games/{gid}").json()["elapsed"] == 7.0
        [row] = stats(c)
        assert row["best_time"] == 7.0 and row["average_time"] == 7.0


# --- the page and the catalogs --------------------------------------------------------------


def test_messages(client: TestClient) -> None:
    for lang in ("en", "es", "fr"):
        r = client.get(f"/api/messages/{lang}")
        assert r.status_code == 200
        assert r.json()["lang"] == lang and isinstance(r.json()["messages"], dict)
    fr = client.get("/api/messages/fr").json()
    assert fr["messages"] and fr["plural"]  # the catalog's plural rule reaches the page


def test_static_files(client: TestClient) -> None:
    r = client.get("/i18n.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["x-content-type-options"] == "nosniff"
    index = Path(app_module.STATIC_DIR, "index.html")
    r = client.get("/")
    if index.exists():
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    else:
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    for path in [
        "/api/games",
        "/api/current",
        "/api/games/{game_id}",
        "/api/games/{game_id}/move",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/redo",
        "/api/games/{game_id}/restart",
        "/api/games/{game_id}/autofinish",
        "/api/games/{game_id}/foundation",
        "/api/games/{game_id}/rewind",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/chance",
        "/api/stats",
        "/api/messages/{lang}",
    ]:
        assert path in paths, path
    assert "GameView" in schema["components"]["schemas"]
    assert "ErrorBody" in schema["components"]["schemas"]
    assert schema["components"]["schemas"]["NewGame"]["properties"]["deal"]["maximum"] == MAX_DEAL


def test_abandoned_game_won_later_counts_as_a_win(client: TestClient) -> None:
    gid = create(client, position=two_kings_left())["id"]
    act(client, gid, "move", move="t1>f1")
    create(client, game="klondike", deal=1)  # abandons the first game: a loss
    assert [(r["played"], r["won"]) for r in stats(client)] == [(1, 0)]
    act(client, gid, "move", move="t2>f2")  # ... which its old tab then wins
    assert [(r["played"], r["won"]) for r in stats(client)] == [(1, 1)]


def test_newer_hint_request_cancels_the_older(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    # A search that runs until it is cancelled: the test does not depend on how fast the
    # solver is on any deal.
    monkeypatch.setenv(solver_stubs.GATE, str(tmp_path))
    monkeypatch.setattr(assist, "compute_hint", solver_stubs.held_hint)
    app = create_app(tmp_path, hint_timeout=30.0)
    cancels: dict[str, threading.Event] = app.state.searches.cancels
    with TestClient(app, base_url="http://localhost") as c:
        gid = create(c, game="klondike", deal=5)["id"]
        replies: dict[str, Any] = {}

        def ask(name: str) -> None:
            start = time.monotonic()
            r = c.get(f"/api/games/{gid}/hint", params={"peek": "true"})
            replies[name] = (r.status_code, r.json(), time.monotonic() - start)

        first = threading.Thread(target=ask, args=("first",))
        first.start()
        while gid not in cancels:
            time.sleep(0.01)
        older = cancels[gid]
        second = threading.Thread(target=ask, args=("second",))
        second.start()
        first.join(timeout=20)
        assert not first.is_alive()
        assert older.is_set()
        status, body, seconds = replies["first"]
        assert status == 200 and body["verdict"] == "unknown" and seconds < 20
        while gid not in cancels or cancels[gid] is older:
            time.sleep(0.01)
        cancels[gid].set()  # end the second search too
        second.join(timeout=20)
        assert replies["second"][0] == 200


def test_unreadable_save_is_set_aside(tmp_path: Path) -> None:
    import json
    import sqlite3

    with make_client(tmp_path) as first:
        good = create(first, game="klondike", deal=1)["id"]
        bad = create(first, game="klondike", deal=2)["id"]
    db = sqlite3.connect(tmp_path / "patience.sqlite3")
    session = json.loads(db.execute("SELECT session FROM games WHERE id = ?", (bad,)).fetchone()[0])
    session["moves"] = ["t1>t2"]  # not a legal move of deal 2
    db.execute("UPDATE games SET session = ? WHERE id = ?", (json.dumps(session), bad))
    db.commit()
    db.close()
    with make_client(tmp_path) as second:
        assert second.get("/api/current").json()["id"] == good
        r = second.get(f"/api/games/{bad}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unreadable_game"
