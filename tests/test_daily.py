"""The deal of the day: the same proven-winnable deal for everyone on a date (in two runs,
two servers, the command line), another on another date, its streak, and bad dates refused
with a named error."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from patience import daily
from patience.games import GAMES, get_game
from patience.solver import solve
from patience.web.app import create_app

DAY = datetime.date(2026, 12, 1)

BAD_DATES = [
    "2026-13-01",
    "2026-02-30",
    "26-12-01",
    "2026-12-1",
    "2026/12/01",
    "2026-12-01 ",
    " 2026-12-01",
    "2026-12-01T00:00",
    "\uff12026-12-01",  # a full-width digit
    "\u0662\u0660\u0662\u0666-12-01",  # Arabic-Indic digits
    "1999-12-31",
    "2100-01-01",
    "",
    "x" * 100,
]


def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder), base_url="http://localhost")


def proven_won(game: str, options: dict[str, str], deal: int) -> bool:
    """The solver's own verdict on the deal, its winning line replayed through the rules."""
    rules = get_game(game, options)
    start = rules.new_position(deal)
    result = solve(start, timeout=None, max_states=daily.STATES)
    if result.result != "won":
        return False
    p = start
    for move in result.moves:
        p = rules.play(p, move)
    return rules.is_won(p)


# --- the date ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", BAD_DATES, ids=repr)
def test_a_bad_date_is_refused_by_name(text: str) -> None:
    with pytest.raises(daily.InvalidDateError) as caught:
        daily.parse_date(text)
    assert caught.value.code == "invalid_date"
    assert "YYYY-MM-DD" in str(caught.value)


def test_the_range_of_dates_is_inclusive() -> None:
    assert daily.parse_date("2000-01-01") == daily.FIRST_DATE
    assert daily.parse_date("2099-12-31") == daily.LAST_DATE
    assert daily.parse_date("2024-02-29") == datetime.date(2024, 2, 29)


# --- the deal ----------------------------------------------------------------------------


def test_the_first_deal_depends_on_date_game_and_every_option() -> None:
    klondike = get_game("klondike", {})
    assert daily.seed_text(DAY, klondike) == "2026-12-01/klondike/mode=single"
    # Left-out options are their defaults: the same deal.
    assert daily.first_deal(DAY, klondike) == daily.first_deal(
        DAY, get_game("klondike", {"mode": "single"})
    )
    firsts = {
        daily.first_deal(DAY, get_game("klondike", {"mode": mode}))
        for mode in GAMES["klondike"].option_spec["mode"]
    }
    assert len(firsts) == len(GAMES["klondike"].option_spec["mode"])
    assert daily.first_deal(DAY, klondike) != daily.first_deal(DAY + daily_one(), klondike)
    assert all(0 < d < daily.FIRST_DEALS for d in firsts)


def daily_one() -> datetime.timedelta:
    return datetime.timedelta(days=1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_deal_of_the_day_is_proven_winnable_and_the_same_twice(game: str) -> None:
    found = daily.daily_deal(DAY, game, {})
    assert found is not None
    first = daily.first_deal(DAY, get_game(game, {}))
    assert first <= found < first + daily.DEALS
    assert proven_won(game, {}, found)
    assert daily.daily_deal(DAY, game, {}) == found


def test_another_date_has_another_deal() -> None:
    deals = {daily.daily_deal(DAY + k * daily_one(), "hopscotch", {}) for k in range(3)}
    assert len(deals) == 3


def test_a_search_bounded_by_states_alone_spends_the_same_states() -> None:
    rules = get_game("klondike", {"mode": "no-redeal"})
    p = rules.new_position(daily.first_deal(DAY, rules))
    one = solve(p, timeout=None, max_states=20_000)
    two = solve(p, timeout=None, max_states=20_000)
    assert (one.result, one.states, one.moves) == (two.result, two.states, two.moves)
    assert one.states <= 20_000 + 1


# --- the command line --------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patience.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_the_command_line_prints_the_same_deal() -> None:
    done = cli("daily", "lady-jane", "--date", DAY.isoformat(), "--json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed == {
        "date": "2026-12-01",
        "game": "lady-jane",
        "options": {},
        "deal": daily.daily_deal(DAY, "lady-jane", {}),
    }
    plain = cli("daily", "lady-jane", "--date", DAY.isoformat())
    assert plain.stdout.strip() == str(printed["deal"])


@pytest.mark.parametrize("text", ["2026-13-01", "\uff12026-12-01", "2100-01-01", ""], ids=repr)
def test_the_command_line_refuses_a_bad_date_in_one_line(text: str) -> None:
    done = cli("daily", "hopscotch", "--date", text)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "invalid date" in lines[0], done.stderr


# --- the web app -------------------------------------------------------------------------


def start_daily(c: TestClient, game: str, date: str, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": game, "daily": date, **extra})
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


def test_two_servers_deal_the_same_deal_of_the_day(tmp_path: Path) -> None:
    with client(tmp_path / "one") as one, client(tmp_path / "two") as two:
        a = start_daily(one, "klondike", "2026-12-01", options={"mode": "three"})
        b = start_daily(two, "klondike", "2026-12-01", options={"mode": "three"})
        again = start_daily(one, "klondike", "2026-12-01", options={"mode": "three"})
    assert a["deal"] == b["deal"] == again["deal"]
    assert a["deal"] == daily.daily_deal(DAY, "klondike", {"mode": "three"})
    assert a["daily"] == "2026-12-01"


@pytest.mark.parametrize("text", ["2026-13-01", "2026-12-01\u0000", "1999-12-31"], ids=repr)
def test_the_api_refuses_a_bad_date_by_name(client: TestClient, text: str) -> None:
    r = client.post("/api/games", json={"game": "hopscotch", "daily": text})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "invalid_date" and "YYYY-MM-DD" in error["message"]
    assert client.get("/api/current").status_code == 204  # nothing started
    r = client.get("/api/stats", params={"date": text})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_date"


def utc_today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


def test_no_deal_of_the_day_is_given_after_tomorrow(client: TestClient) -> None:
    # Any date up to 2099 was dealt: a player could play next month's deals today. The
    # page sends its own date, which may be a day ahead of the server's (time zones).
    tomorrow = utc_today() + daily_one()
    later = (tomorrow + daily_one()).isoformat()
    r = client.post("/api/games", json={"game": "hopscotch", "daily": later})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_date"
    assert later in error["message"] and tomorrow.isoformat() in error["message"]
    assert error["params"]["last"] == tomorrow.isoformat()
    assert client.get("/api/current").status_code == 204  # nothing started
    assert start_daily(client, "hopscotch", tomorrow.isoformat())["daily"] == tomorrow.isoformat()
    done = cli("daily", "hopscotch", "--date", later)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and later in lines[0] and tomorrow.isoformat() in lines[0], done.stderr


def test_the_deal_of_the_day_comes_with_no_deal_number(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "hopscotch", "daily": "2026-12-01", "deal": 4})
    assert r.status_code == 422 and r.json()["error"]["code"] == "daily_conflict"


def win(c: TestClient, view: dict[str, Any]) -> None:
    """Play the deal to a win with the solver's line."""
    rules = get_game(view["game"], view["options"])
    result = solve(rules.new_position(view["deal"]), timeout=None, max_states=daily.STATES)
    assert result.result == "won"
    for move in result.moves:
        r = c.post(f"/api/games/{view['id']}/move", json={"move": str(move)})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "won"


def daily_streaks(c: TestClient, date: str) -> tuple[int, int]:
    (row,) = c.get("/api/stats", params={"date": date}).json()["stats"]
    return row["daily_streak"], row["daily_longest"]


def test_the_daily_streak_counts_days_in_a_row_and_breaks_on_a_missed_day(
    client: TestClient,
) -> None:
    for day in ("2026-12-01", "2026-12-02", "2026-12-03"):
        win(client, start_daily(client, "hopscotch", day))
    assert daily_streaks(client, "2026-12-03") == (3, 3)
    # Today's deal not won yet: the streak still stands, from yesterday.
    assert daily_streaks(client, "2026-12-04") == (3, 3)
    # A day missed: the streak is broken; the longest stays.
    assert daily_streaks(client, "2026-12-05") == (0, 3)
    win(client, start_daily(client, "hopscotch", "2026-12-05"))
    assert daily_streaks(client, "2026-12-05") == (1, 3)
    # A deal of the day lost does not count.
    lost = start_daily(client, "hopscotch", "2026-12-06")
    client.post(f"/api/games/{lost['id']}/move", json={"move": str(first_move(lost))})
    start_daily(client, "hopscotch", "2026-12-06")  # abandons the first: lost
    assert daily_streaks(client, "2026-12-07") == (0, 3)


def first_move(view: dict[str, Any]) -> str:
    move: str = view["legal_moves"][0]
    return move
