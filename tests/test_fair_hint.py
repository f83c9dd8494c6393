"""Fair hints and the chance to win, through the API and the command line (issue 16):
advice from what the player can see only, and every peeking tool recorded as assisted."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

import solver_stubs
from engine_builders import near_won_klondike
from patience import get_game, position_to_json
from patience.cli import app as cli_app
from patience.fair import Knowledge, Settings, sample
from patience.fair_assist import PLAYOUTS
from patience.web.app import create_app
from test_api import act, create, dead_end, make_client, near_won, stats

SMALL = Settings(samples=4, max_states=3_000, budget=10_000.0, shortlist=2)
"""Bounded in states, never cut by time: the same view always gets the same answer."""

runner = CliRunner()


def same_view_other_cards() -> tuple[dict[str, Any], dict[str, Any]]:
    """Klondike deal 3 as dealt, and the same view with its unseen cards arranged otherwise
    (both as positions without a deal number: the number would tell them apart)."""
    p = get_game("klondike").new_position(3)
    other = sample(p, Knowledge.start(p), random.Random(5))
    assert other.tableau != p.tableau
    one, two = position_to_json(p), position_to_json(other)
    one["deal"] = two["deal"] = None
    return one, two


def test_the_fair_hint_depends_only_on_what_the_player_sees(tmp_path: Path) -> None:
    one, two = same_view_other_cards()
    with make_client(tmp_path, hint_timeout=600.0, hint_settings=SMALL) as c:
        views = [create(c, position=p) for p in (one, two)]
        assert views[0]["position"] == views[1]["position"]
        hints = [c.get(f"/api/games/{v['id']}/hint").json() for v in views]
    assert hints[0] == hints[1]
    h = hints[0]
    assert h["fair"] is True and h["verdict"] == "unknown"
    assert h["move"] in views[0]["legal_moves"] and h["line"][0] == h["move"]
    assert h["samples"] == SMALL.samples and not h["exact"]
    if h["chance"] is not None:
        lo, hi = h["interval"]
        assert 0 <= lo <= h["chance"] <= hi <= 1


def test_the_command_line_hint_depends_only_on_what_the_player_sees(tmp_path: Path) -> None:
    replies = []
    for k, p in enumerate(same_view_other_cards()):
        path = tmp_path / f"p{k}.json"
        path.write_text(json.dumps(p))
        result = runner.invoke(
            cli_app, ["hint", "--position", str(path), "--json", "--timeout", "600"]
        )
        assert result.exit_code == 0, result.stderr
        replies.append(json.loads(result.stdout))
    assert replies[0] == replies[1]
    assert replies[0]["fair"] is True
    assert set(replies[0]) >= {"move", "chance", "interval", "samples", "verdict", "line"}


def test_the_command_line_words_the_chance_as_an_estimate() -> None:
    # Klondike's is a clairvoyant's share (issue 55), said to be: never the player's chance.
    result = runner.invoke(cli_app, ["hint", "klondike", "--deal", "3", "--timeout", "600"])
    assert result.exit_code == 0, result.stderr
    move, chance = result.stdout.splitlines()
    assert move in [
        str(m) for m in get_game("klondike").legal_moves(get_game("klondike").new_position(3))
    ]
    assert chance.startswith("a player who could see every card: about ")
    assert "95%" in chance and "arrangements" in chance and "may be lower" in chance


def test_the_command_line_words_hopscotchs_chance_as_the_advices() -> None:
    result = runner.invoke(cli_app, ["hint", "hopscotch", "--deal", "3", "--timeout", "600"])
    assert result.exit_code == 0, result.stderr
    move, chance = result.stdout.splitlines()
    assert move == "deal"
    assert chance.startswith("about ") and "following this advice" in chance
    assert f"{PLAYOUTS['hopscotch']} games played out" in chance


def test_the_command_line_peek_hint_is_the_proven_one(tmp_path: Path) -> None:
    path = tmp_path / "near.json"
    path.write_text(json.dumps(near_won_klondike()))
    result = runner.invoke(cli_app, ["hint", "--position", str(path), "--peek", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["fair"] is False and data["verdict"] == "winnable" and len(data["line"]) == 4


@pytest.mark.parametrize(
    "args",
    [
        ("hint",),
        ("hint", "spider"),
        ("hint", "klondike", "--deal", "-1"),
        ("hint", "klondike", "--timeout", "nan"),
        ("hint", "klondike", "--peek", "--position", "x.json"),
        ("hint", "--position", "/nonexistent/p.json"),
        ("hint", "klondike", "--bogus"),
    ],
    ids=repr,
)
def test_a_bad_hint_invocation_exits_2_with_one_line(args: tuple[str, ...]) -> None:
    result = runner.invoke(cli_app, list(args))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("patience: ") and len(result.stderr.splitlines()) == 1


def test_with_nothing_unseen_the_fair_hint_is_a_proof(client: Any) -> None:
    gid = create(client, position=near_won())["id"]
    h = client.get(f"/api/games/{gid}/hint").json()
    assert (h["fair"], h["verdict"], h["move"], h["exact"], h["chance"]) == (
        True,
        "winnable",
        "t1>f1",
        True,
        1.0,
    )
    lost = create(client, position=dead_end())["id"]
    act(client, lost, "move", move="t2>t1")
    h = client.get(f"/api/games/{lost}/hint").json()
    assert (h["verdict"], h["chance"], h["exact"]) == ("lost", 0.0, True)


def test_the_chance_to_win_is_an_estimate_with_its_interval(tmp_path: Path) -> None:
    with make_client(tmp_path, chance_timeout=600.0, chance_settings=SMALL) as c:
        gid = create(c, game="klondike", deal=3)["id"]
        e = c.get(f"/api/games/{gid}/chance").json()
        assert e["samples"] == SMALL.samples and not e["exact"] and e["kind"] == "clairvoyant"
        assert e["samples"] == c.get(f"/api/games/{gid}/chance").json()["samples"]
        near = create(c, position=near_won())["id"]
        assert c.get(f"/api/games/{near}/chance").json() == {
            "kind": "proven",
            "chance": 1.0,
            "interval": [pytest.approx(0.2065, abs=1e-3), 1.0],
            "samples": 1,
            "undecided": 0,
            "exact": True,
            "cut": False,
        }
        assert c.get(f"/api/games/{gid}/chance").status_code == 200
        r = c.get("/api/games/nosuchgame/chance")
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game_id"


# --- peeking is recorded: the server decides, not the page ------------------------------------


def test_a_fair_hint_does_not_make_the_game_assisted(client: Any) -> None:
    gid = create(client, position=near_won())["id"]
    client.get(f"/api/games/{gid}/hint")
    client.get(f"/api/games/{gid}/chance")
    view = act(client, gid, "move", move="t1>f1")
    assert view["status"] == "won" and not view["assisted"]
    (row,) = stats(client)
    assert (row["won"], row["assisted"]) == (1, 0)


def test_a_peeking_hint_makes_the_game_assisted(client: Any) -> None:
    gid = create(client, position=near_won())["id"]
    h = client.get(f"/api/games/{gid}/hint", params={"peek": "true"}).json()
    assert h["fair"] is False and h["verdict"] == "winnable" and h["chance"] is None
    assert client.get(f"/api/games/{gid}").json()["assisted"]
    view = act(client, gid, "move", move="t1>f1")  # played by hand, after peeking
    assert view["status"] == "won" and view["assisted"]
    (row,) = stats(client)
    assert (row["played"], row["won"], row["assisted"]) == (1, 0, 1)


def test_a_peeking_hint_from_memory_makes_the_game_assisted_too(client: Any) -> None:
    first = create(client, position=near_won_klondike())["id"]
    client.get(f"/api/games/{first}/hint", params={"peek": "true"})
    second = create(client, position=near_won_klondike())["id"]  # the same position
    h = client.get(f"/api/games/{second}/hint", params={"peek": "true"}).json()
    assert h["fair"] is False and len(h["line"]) == 4
    assert client.get(f"/api/games/{second}").json()["assisted"]


def test_rewind_makes_the_game_assisted(client: Any) -> None:
    gid = create(client, position=dead_end())["id"]
    act(client, gid, "move", move="t2>t1")
    view = act(client, gid, "rewind")
    assert view["moves_made"] == 0 and view["assisted"]


def held_fair_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Path]:
    """An app whose fair hints are held at the gate (solver_stubs), 30 s for a hint."""
    import patience.fair_assist as fair_module

    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setenv(solver_stubs.GATE, str(gate))
    monkeypatch.setattr(fair_module, "fair_hint", solver_stubs.held_fair_hint)
    return create_app(tmp_path / "data", hint_timeout=30.0), gate


def test_a_newer_fair_hint_cancels_the_older(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, gate = held_fair_app(tmp_path, monkeypatch)
    with TestClient(app, base_url="http://localhost") as c:
        gid = create(c, game="klondike", deal=5)["id"]
        replies: list[int] = []
        first = threading.Thread(
            target=lambda: replies.append(c.get(f"/api/games/{gid}/hint").status_code)
        )
        first.start()
        solver_stubs.wait_for(gate / "searching-0")
        # A peeking hint for the same game: the fair search is cancelled, answers, and
        # lets the proven one have the solver.
        second = threading.Thread(
            target=lambda: replies.append(
                c.get(f"/api/games/{gid}/hint", params={"peek": "true"}).status_code
            )
        )
        second.start()
        solver_stubs.wait_for(gate / "cancelled-0")
        first.join(timeout=solver_stubs.WAIT)
        second.join(timeout=solver_stubs.WAIT)
        assert not first.is_alive() and not second.is_alive()
        assert replies == [200, 200]


def test_the_hints_budget_counts_from_when_the_request_arrived(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page's 2 s start when the request arrives: time spent reading the game (here
    # made to take 1 s) is not the search's, nor is the margin kept for the answer.
    import time

    from patience.web import solver_pool

    app, gate = held_fair_app(tmp_path, monkeypatch)
    service = app.state.service
    player_state = service.player_state

    def slow(game_id: str) -> Any:
        time.sleep(1.0)
        return player_state(game_id)

    monkeypatch.setattr(service, "player_state", slow)
    with TestClient(app, base_url="http://localhost") as c:
        gid = create(c, game="klondike", deal=5)["id"]
        reply: list[int] = []
        asking = threading.Thread(
            target=lambda: reply.append(c.get(f"/api/games/{gid}/hint").status_code)
        )
        asking.start()
        given = float(solver_stubs.wait_for(gate / "searching-0"))
        solver_stubs.release(gate)
        asking.join(timeout=solver_stubs.WAIT)
    assert reply == [200]
    assert given <= 30.0 - 1.0 - solver_pool.ANSWER


def test_after_a_pass_with_nothing_played_the_fair_hint_is_to_deal_again(tmp_path: Path) -> None:
    """Draw 3, the whole stock dealt and nothing played: the only move, the redeal, brings
    back the cards of the deal's first position. The hint still names it (it is the only
    way on, and the cards the pass went by can be played this time), where it used to
    answer none and the page said there was no legal move."""
    with make_client(tmp_path, hint_timeout=600.0, hint_settings=SMALL) as c:
        gid = create(c, game="klondike", options={"mode": "three"}, deal=271)["id"]
        for _ in range(8):
            view = act(c, gid, "move", move="deal")
        assert view["legal_moves"] == ["deal"] and view["stock_count"] == 0
        h = c.get(f"/api/games/{gid}/hint").json()
    assert (h["move"], h["line"][:1]) == ("deal", ["deal"])


def test_the_apps_hopscotch_hint_and_chance_are_the_advices_own(tmp_path: Path) -> None:
    """With the app's own settings, which reach the solver's worker process pickled (a
    copy, not the module's object), Hopscotch's hint and chance are the advice's
    playouts, the same number of them in both places. They were the clairvoyant share of
    sampled solves and 30 playouts: the settings were recognised by identity."""
    with make_client(tmp_path, hint_timeout=600.0, chance_timeout=600.0) as c:
        game = create(c, game="hopscotch", deal=3)
        hint = c.get(f"/api/games/{game['id']}/hint").json()
        chance = c.get(f"/api/games/{game['id']}/chance").json()
    for reply in (hint, chance):
        assert reply["kind"] == "advice-playouts", reply
        assert reply["samples"] == PLAYOUTS["hopscotch"] and not reply["cut"], reply
    assert hint["chance"] == chance["chance"]
