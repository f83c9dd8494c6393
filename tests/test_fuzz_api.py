"""Fuzz the API from its own OpenAPI schema (schemathesis): no input may cause a 5xx.

Bounded: 30 examples per operation, positive and negative (schema-breaking) data.
The responses must also match the documented status codes, content types and schemas.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from patience.cards import MAX_DEAL
from patience.web.app import create_app

LOCAL = {"host": "localhost"}


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app's schema, served by a fresh app with one game already in it."""
    return served_schema(tmp_path_factory.mktemp("fuzz"))


def served_schema(data: Path) -> Any:
    """The schema of a fresh app over ``data`` with one game already in it (each test its
    own: an app's store closes when a test's client is done with it)."""
    app = create_app(data, hint_timeout=0.2)
    # A real game id lets the fuzzer reach past the 404 of the game endpoints sometimes.
    service = app.state.service
    service.create(service.start_position("klondike", {}, 5, None))
    return schemathesis.openapi.from_asgi("/api/openapi.json", app, headers=LOCAL)


GAME_OPERATIONS = r"^/api/games/\{game_id\}"
"""The operations on one game, fuzzed apart from the others: two items of about half the
fuzzing each, that two workers may share (one item was the suite's longest)."""


@pytest.fixture(scope="module")
def game_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The schema again, on an app of its own (a test's client closes its app's store)."""
    return served_schema(tmp_path_factory.mktemp("fuzz-game"))


FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


def never_fails(case: Any) -> None:
    case.call_and_validate(
        headers=LOCAL,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )


@schemathesis.pytest.from_fixture("game_schema").include(path_regex=GAME_OPERATIONS).parametrize()
@FUZZ
def test_api_never_fails_on_a_game(case: Any) -> None:
    never_fails(case)


@schemathesis.pytest.from_fixture("api_schema").exclude(path_regex=GAME_OPERATIONS).parametrize()
@FUZZ
def test_api_never_fails(case: Any) -> None:
    never_fails(case)


FORM_REFUSALS = {
    "invalid_request",
    "invalid_json",
    "unknown_game",
    "invalid_move",
    "invalid_pile",
    "invalid_deal",
    "invalid_date",
    "unknown_language",
    "invalid_option",
}
"""The refusals of a value's form: what the schema declares (game names from the registry,
moves and piles in FORMATS.md notation, dates, deal numbers, languages, each game's
options). A request the schema accepts may still be refused for what it asks (an illegal
move, a position that breaks the rules, a deal of the day not out yet)."""

DECLARED = r"^/api/(games(/\{game_id\}/(move|foundation|why))?|stats(/reset)?|messages/.*)$"
"""The operations whose values the schema constrains (the solver's need only a game id)."""


@pytest.fixture(scope="module")
def positive_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The schema's well-formed requests only, of the operations that take values."""
    schema = served_schema(tmp_path_factory.mktemp("positive"))
    schema.config.generation.update(modes=["positive"])
    return schema.include(path_regex=DECLARED)


positive = schemathesis.pytest.from_fixture("positive_schema")


@positive.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_a_request_the_schema_accepts_is_not_refused_for_its_form(case: Any) -> None:
    # schemathesis found six: game names, moves, piles and dates were any text to the
    # schema, which the server refuses (422 unknown_game, invalid_move, invalid_pile,
    # invalid_date).
    if case.meta is not None and not case.meta.generation.mode.is_positive:
        return
    response = case.call(headers=LOCAL)
    if 400 <= response.status_code < 500 and response.status_code != 404:
        error = response.json()["error"]
        late = error["code"] == "invalid_date" and "not out yet" in error["message"]
        assert error["code"] not in FORM_REFUSALS or late, (case.as_curl_command(), error)


def test_the_schema_declares_what_the_server_checks(api_schema: Any) -> None:
    from patience.games import GAMES
    from patience.moves import PILES

    raw = api_schema.raw_schema
    models, paths = raw["components"]["schemas"], raw["paths"]

    def string_branch(schema: dict[str, Any]) -> dict[str, Any]:
        """What the schema says of a text value: its string branch, with what applies to
        every branch (a keyword of strings beside an ``anyOf`` holds for its strings)."""
        branch = next(b for b in schema.get("anyOf", [schema]) if b.get("type") == "string")
        return {**schema, **branch}

    for model in ("NewGame", "StatsReset", "PositionJSON"):
        assert string_branch(models[model]["properties"]["game"])["enum"] == list(GAMES)
        takes = {
            rule["if"]["properties"]["game"]["const"]: rule["then"]["properties"]["options"]
            for rule in models[model]["allOf"]
        }
        assert list(takes) == list(GAMES)
        assert takes["klondike"]["properties"]["mode"]["enum"][0] == "single"
        assert takes["hopscotch"]["properties"] == {}
        assert not takes["hopscotch"]["additionalProperties"]
    move = string_branch(models["MoveRequest"]["properties"]["move"])["pattern"]
    assert re.fullmatch(move[1:-1], "t6>t2/3") and re.fullmatch(move[1:-1], "deal")
    assert not re.fullmatch(move[1:-1], "t1>t1") and not re.fullmatch(move[1:-1], "t1>z9")
    why_parameters = paths["/api/games/{game_id}/why"]["get"]["parameters"]
    (why,) = [p for p in why_parameters if p["name"] == "move"]
    assert why["schema"]["pattern"] == move
    piles = set(models["PileRequest"]["properties"]["pile"]["enum"])
    assert piles == {p for p in PILES if p[0] != "f"} | {"stock", "waste"}
    assert string_branch(models["NewGame"]["properties"]["daily"])["format"] == "date"
    (date,) = paths["/api/stats"]["get"]["parameters"]
    assert string_branch(date["schema"])["format"] == "date"
    for model in ("NewGame", "PositionJSON"):
        deal = models[model]["properties"]["deal"]
        number = next(b for b in deal["anyOf"] if b.get("type") == "integer")
        assert (number["minimum"], number["maximum"]) == (0, MAX_DEAL)
