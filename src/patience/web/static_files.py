"""The front end's files, served from memory, ahead of the app's routing.

The page loads some thirty files. Starlette's ``StaticFiles`` looks each one up, opens,
reads and closes it in worker threads: sixteen trips to a thread and back per file,
each of which waits for the interpreter while anything else runs. The files ship with
the package and do not change while the server runs, so they are read once, when the
app is made, with their reply headers, and each request is a look-up: no thread, no
disk. ``StaticFiles`` is a middleware inside the security ones (``security``): a GET or
HEAD of a file is answered there, before FastAPI's routing matches the path against
every endpoint and the exception middlewares wrap the reply (which cost three times as
much as the answer). Everything else goes on to the app: a path an endpoint takes with
another method is a 405 naming the methods it takes, and the router's default,
``NotServed``, answers the rest: 405 for a page file asked with another method, else 404.

Every file has an ETag (a hash of its bytes): a browser that revalidates a file it has
(the replies say ``no-cache``: see ``security``) gets a bodiless 304 while it is unchanged.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import fastapi.routing
from starlette.exceptions import HTTPException
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

INDEX = "index.html"


class StaticFile:
    """One file's bytes and the headers of its full and its 304 replies."""

    def __init__(self, path: Path) -> None:
        self.body = path.read_bytes()
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if media_type.startswith("text/"):
            media_type += "; charset=utf-8"
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'
        self.not_modified = [(b"etag", self.etag.encode())]
        self.headers = [
            (b"content-type", media_type.encode()),
            (b"content-length", str(len(self.body)).encode()),
            *self.not_modified,
        ]

    def unchanged(self, scope: Scope) -> bool:
        """Whether the request's If-None-Match names this version."""
        for name, value in scope["headers"]:
            if name == b"if-none-match":
                return self.etag.encode() in value
        return False

    async def send(self, scope: Scope, send: Send) -> None:
        """The reply to a GET or HEAD: the file, or 304 when the client has it."""
        if self.unchanged(scope):
            await send({"type": "http.response.start", "status": 304, "headers": self.not_modified})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": self.headers})
        body = b"" if scope["method"] == "HEAD" else self.body
        await send({"type": "http.response.body", "body": body})


def served_paths(directory: Path) -> dict[str, Path]:
    """The request path of each file of ``directory`` (not its subfolders), and ``/``
    for its index.html."""
    paths = (
        {"/" + p.name: p for p in directory.iterdir() if p.is_file()} if directory.is_dir() else {}
    )
    if "/" + INDEX in paths:
        paths["/"] = paths["/" + INDEX]
    return paths


class StaticFiles:
    """A middleware answering GET and HEAD of the files of ``directory``; any other
    request goes on to ``app``."""

    def __init__(self, app: ASGIApp, *, directory: Path) -> None:
        self.app = app
        self.files = {path: StaticFile(file) for path, file in served_paths(directory).items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a file from memory, or pass the request on."""
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            found = self.files.get(scope["path"])
            if found is not None:
                await found.send(scope, send)
                return
        await self.app(scope, receive, send)


class NotServed:
    """The router's answer to a request that no endpoint's path and no page file matched
    (as HTTPException, for the app's error handlers): 405 for a method other than GET and
    HEAD on a page file (which ``StaticFiles`` answers), else 404. A path an endpoint
    matches with another method is the router's 405, before this; the app's handler
    then lists every method of that path (``allowed_methods``)."""

    def __init__(self, directory: Path) -> None:
        self.paths = frozenset(served_paths(directory))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request."""
        if scope["method"] not in ("GET", "HEAD") and scope["path"] in self.paths:
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        raise HTTPException(status_code=404)


def route_methods(routes: Sequence[Any]) -> list[tuple[re.Pattern[str], frozenset[str]]]:
    """Each endpoint's path, as the pattern the router matches, and its methods
    (FastAPI keeps an included router's routes inside it: each is read there)."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    flat = contexts(routes) if contexts is not None else routes
    out = []
    for route in flat:
        path, methods = getattr(route, "path", None), getattr(route, "methods", None)
        if path and methods:
            out.append((compile_path(path)[0], frozenset(methods)))
    return out


def allowed_methods(table: list[tuple[re.Pattern[str], frozenset[str]]], path: str) -> list[str]:
    """The methods of every endpoint whose path matches ``path``, sorted (the router's
    405 named only the first such endpoint's, and no other method of the path)."""
    return sorted({m for pattern, methods in table if pattern.match(path) for m in methods})
