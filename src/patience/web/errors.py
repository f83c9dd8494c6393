"""Every error as the API's JSON error body: what each error's HTTP status is, the body,
and the handlers that turn exceptions into replies (4xx for bad input, never a bare 500).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import PatienceError
from ..i18n import _
from ..store_errors import StoreError
from .api_models import ErrorBody
from .service import ApiError
from .static_files import allowed_methods, route_methods

log = logging.getLogger(__name__)

RETRY_AFTER = "2"
"""Seconds a 503 reply (solver busy, database locked) asks the page to wait."""

STATUS_BY_CODE = {"illegal_move": 409}
"""HTTP status of each engine error code; every other PatienceError is a 422."""

STORE_STATUS = {"disk_full": 507, "changed_elsewhere": 409}
"""HTTP status of each StoreError code; every other one (the disk, a lock) is a 503."""

ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "Host or Origin is not this local server"},
    404: {"model": ErrorBody, "description": "Unknown or stale game id"},
    409: {"model": ErrorBody, "description": "Not allowed in this position"},
    413: {"model": ErrorBody, "description": "The request body is over 1 MiB"},
    422: {"model": ErrorBody, "description": "Malformed request, move, option or position"},
    503: {"model": ErrorBody, "description": "Saved games unavailable, or the solver is busy"},
    507: {"model": ErrorBody, "description": "The disk is full: the change was not saved"},
}


VALIDATION_DETAILS = {
    "missing": _("a value is required"),
    "extra_forbidden": _("no such field"),
    "literal_error": _("not one of the values allowed"),
    "enum": _("not one of the values allowed"),
}
"""What a validation error of each pydantic type says, in words the catalogs translate."""


def validation_details(error: Mapping[str, Any]) -> str:
    """The reason a request field was refused, as a message id when the catalogs have it
    (the page translates it: a string parameter the catalog knows), else pydantic's
    English text."""
    kind = str(error.get("type", ""))
    if kind in VALIDATION_DETAILS:
        return VALIDATION_DETAILS[kind]
    if kind.endswith(("_type", "_parsing")):
        return _("a value of another type is expected")
    if kind.endswith("too_long"):
        return _("too long")
    if kind.endswith("too_short"):
        return _("too short")
    if kind.startswith(("greater_than", "less_than")):
        return _("out of range")
    return str(error.get("msg", "invalid"))


def error_body(
    code: str, template: str, params: Mapping[str, object], message: str | None = None
) -> dict[str, Any]:
    """The JSON error body of the API contract (``message``: the template filled in)."""
    if message is None:
        try:
            message = template.format(**params) if params else template
        except (KeyError, IndexError, ValueError):
            message = template
    safe = {
        k: v if isinstance(v, str | int | float | bool) or v is None else str(v)
        for k, v in params.items()
    }
    return {"error": {"code": code, "message": message, "message_id": template, "params": safe}}


def error_response(status: int, code: str, template: str, **params: object) -> JSONResponse:
    """A JSON error reply."""
    return JSONResponse(error_body(code, template, params), status_code=status)


async def api_error(request: Request, exc: Exception) -> JSONResponse:
    """An ApiError: its own status and code (a 503 asks the page to retry)."""
    assert isinstance(exc, ApiError)
    reply = error_response(exc.status, exc.code, exc.template, **exc.params)
    if exc.status == 503:
        reply.headers["Retry-After"] = RETRY_AFTER
    return reply


async def store_error(request: Request, exc: Exception) -> JSONResponse:
    """A StoreError: 507 for a full disk, 409 for a game saved elsewhere, else 503."""
    # One line in the log, no traceback: the message says all there is to say.
    assert isinstance(exc, StoreError)
    log.warning("%s %s: %s", request.method, request.url.path, exc)
    status = STORE_STATUS.get(exc.code, 503)
    reply = error_response(status, exc.code, exc.template, **exc.params)
    if status == 503:
        reply.headers["Retry-After"] = RETRY_AFTER
    return reply


async def patience_error(request: Request, exc: Exception) -> JSONResponse:
    """Bad input the engine refused: 409 for an illegal move, else 422."""
    assert isinstance(exc, PatienceError)
    return JSONResponse(
        error_body(exc.code, exc.template, exc.params, message=str(exc)),
        status_code=STATUS_BY_CODE.get(exc.code, 422),
    )


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """A request that is not of the schema's form: 422, naming its first field."""
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {}
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "body"
    if first.get("type") == "json_invalid":
        return error_response(
            422,
            "invalid_json",
            _("The request body is not valid JSON: {details}"),
            details=str(first.get("ctx", {}).get("error", first.get("msg", ""))),
        )
    return error_response(
        422,
        "invalid_request",
        _("Invalid request: {field}: {details}"),
        field=where,
        details=validation_details(first),
    )


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's errors (no such path, a wrong method, a body not parsed) as ours."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:
        # FastAPI's "error parsing the body" (bytes that are not UTF-8 JSON): the
        # contract answers every malformed body with a 422.
        return error_response(
            422,
            "invalid_json",
            _("The request body is not valid JSON: {details}"),
            details=str(exc.detail),
        )
    codes = {404: "not_found", 405: "method_not_allowed"}
    reply = error_response(
        exc.status_code,
        codes.get(exc.status_code, "http_error"),
        _("{method} {path}: {reason}"),
        method=request.method,
        path=request.url.path[:200],
        reason=str(exc.detail),
    )
    for key, value in (exc.headers or {}).items():
        reply.headers[key] = value
    if exc.status_code == 405:  # every method of the path, not one endpoint's
        if not hasattr(request.app.state, "route_methods"):
            request.app.state.route_methods = route_methods(request.app.routes)
        allowed = allowed_methods(request.app.state.route_methods, request.url.path)
        if allowed:
            reply.headers["Allow"] = ", ".join(allowed)
    return reply


async def server_error(request: Request, exc: Exception) -> JSONResponse:
    """Anything else: a 500 naming the error's class, its traceback in the log."""
    log.exception("internal error", exc_info=exc)
    return error_response(
        500, "internal_error", _("Internal error: {error}"), error=type(exc).__name__
    )


HANDLERS: dict[Any, Callable[[Request, Exception], Awaitable[JSONResponse]]] = {
    ApiError: api_error,
    StoreError: store_error,
    PatienceError: patience_error,
    RequestValidationError: validation_error,
    StarletteHTTPException: http_error,
    Exception: server_error,
}
"""The reply to each kind of error (the most specific class that matches answers)."""


def install_error_handlers(app: FastAPI) -> None:
    """Map every error to the JSON error body: 4xx for bad input, never a bare 500."""
    for exc_class, handler in HANDLERS.items():
        app.add_exception_handler(exc_class, handler)
