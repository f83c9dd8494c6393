"""Fuzz the API from its own OpenAPI schema (schemathesis): no input may cause a 5xx.

Bounded: 30 examples per operation, positive and negative (schema-breaking) data.
The responses must also match the documented status codes, content types and schemas.
"""

from __future__ import annotations

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

from patience.web.app import create_app

LOCAL = {"host": "localhost"}


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The app's schema, served by a fresh app with one game already in it."""
    data: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(data, hint_timeout=0.2)
    # A real game id lets the fuzzer reach past the 404 of the game endpoints sometimes.
    service = app.state.service
    service.create(service.start_position("klondike", {}, 5, None))
    return schemathesis.openapi.from_asgi("/api/openapi.json", app, headers=LOCAL)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_api_never_fails(case: Any) -> None:
    case.call_and_validate(
        headers=LOCAL,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
