"""The front end's files, served from memory.

The page loads some twenty files. Starlette's ``StaticFiles`` looks each one up, opens,
reads and closes it in worker threads: sixteen trips to a thread and back per file,
each of which waits for the interpreter while anything else runs. The files ship with
the package and do not change while the server runs, so they are read once, when the
app is made, and each request is a look-up: no thread, no disk.

Every file has an ETag (a hash of its bytes): a browser that revalidates a file it has
(the replies say ``no-cache``: see ``security``) gets a bodiless 304 while it is unchanged.
"""

from __future__ import annotations

import hashlib
import mimetypes
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

INDEX = "index.html"


class StaticFile:
    """One file's bytes, media type and ETag."""

    def __init__(self, path: Path) -> None:
        self.body = path.read_bytes()
        self.media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'


class StaticFiles:
    """An ASGI app answering GET and HEAD with the files of ``directory`` (not its
    subfolders), ``/`` with its index.html; 404 for any other path, 405 for another
    method (as HTTPException, for the app's error handlers)."""

    def __init__(self, directory: Path) -> None:
        self.files: dict[str, StaticFile] = {}
        if directory.is_dir():
            for path in directory.iterdir():
                if path.is_file():
                    self.files["/" + path.name] = StaticFile(path)
        if "/" + INDEX in self.files:
            self.files["/"] = self.files["/" + INDEX]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer from memory."""
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        found = self.files.get(scope["path"])
        if found is None:
            raise HTTPException(status_code=404)
        headers = {"etag": found.etag}
        if found.etag in Headers(scope=scope).get("if-none-match", ""):
            response = Response(status_code=304, headers=headers)
        else:
            body = b"" if scope["method"] == "HEAD" else found.body
            headers["content-length"] = str(len(found.body))
            response = Response(body, media_type=found.media_type, headers=headers)
        await response(scope, receive, send)
