"""Storage failures, named: what went wrong with the saved games, and what to do.

SQLite reports a failure as a result code; ``storage_error`` turns the ones a player can
meet (a full disk, a read-only folder, a database locked by another program, an I/O
error, a damaged file) into a ``StoreError`` with a code and a message: a translated one
for the web page (``RUNTIME_MESSAGES``), or, when the server cannot start, one that says
where the file is and what to do (``STARTUP_MESSAGES``, English, for the command line).
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path


def _(msgid: str) -> str:
    """Mark a message for translation (the web app translates it; the store never does)."""
    return msgid


# What the player reads when a request meets a storage failure (HTTP 503, 507 when full):
# a move, an undo, a new game or a reset of the statistics alike.
RUNTIME_MESSAGES = {
    "disk_full": _("The disk is full: nothing was saved. Free some space, then retry."),
    "read_only": _("The saved games cannot be written ({path}): nothing was saved."),
    "locked": _(
        "The saved games are in use by another program: nothing was saved. Try again in a moment."
    ),
    "io_error": _("The disk failed to read or write the saved games ({error}): nothing was saved."),
    "corrupt": _("The saved games file {path} is damaged: nothing was saved."),
    "changed_elsewhere": _("This game was changed elsewhere; reload"),
}

# What ``patience serve`` prints when the database cannot be used (the server does not start).
STARTUP_MESSAGES = {
    "disk_full": "The disk holding {path} is full: free some space, then start patience again.",
    "read_only": "{path} cannot be written: make the file {path} writable (and its -wal and"
    " -shm files beside it, if any), or choose another folder with --data-dir or"
    " PATIENCE_DATA_DIR.",
    "read_only_folder": "{path} cannot be written: make its folder {folder} writable, or choose"
    " another folder with --data-dir or PATIENCE_DATA_DIR.",
    "locked": "{path} is locked by another program: close it, then start patience again.",
    "io_error": "{path} cannot be read or written ({error}): check the disk, or choose another"
    " folder with --data-dir or PATIENCE_DATA_DIR.",
    "corrupt": "{path} is damaged ({error}): move it away (patience then starts afresh) or"
    " restore it from a backup.",
    "newer": "{path} was written by a newer patience (its format {version}, this one's"
    " {ours}): upgrade patience, or choose another folder with --data-dir or"
    " PATIENCE_DATA_DIR.",
}

# SQLite's primary result codes (an extended code keeps its primary one in the low byte).
_KINDS = {
    13: "disk_full",  # SQLITE_FULL
    8: "read_only",  # SQLITE_READONLY
    5: "locked",  # SQLITE_BUSY
    6: "locked",  # SQLITE_LOCKED
    10: "io_error",  # SQLITE_IOERR
    14: "io_error",  # SQLITE_CANTOPEN
    11: "corrupt",  # SQLITE_CORRUPT
    26: "corrupt",  # SQLITE_NOTADB
}


class StoreError(Exception):
    """The store cannot do what was asked: ``code`` names why, ``template`` says it.

    Codes: disk_full, read_only, locked, io_error, corrupt (the disk or the file),
    changed_elsewhere (another process saved a newer state of the game), and newer (the
    file was written by a newer version, whose format this one does not know).
    """

    def __init__(self, code: str, template: str, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.code = code
        self.template = template
        self.params = params


def storage_error(
    exc: sqlite3.Error, path: Path, messages: dict[str, str] = RUNTIME_MESSAGES
) -> StoreError | None:
    """The named ``StoreError`` of an SQLite failure, or None for a programming error."""
    code = getattr(exc, "sqlite_errorcode", None)
    kind = None if code is None else _KINDS.get(code & 0xFF)
    if kind is None:
        return None
    error = getattr(exc, "sqlite_errorname", None) or str(exc)
    template = messages[kind]
    if kind == "read_only" and "read_only_folder" in messages and _folder_read_only(code, path):
        template = messages["read_only_folder"]
    given = (("path", str(path)), ("error", error), ("folder", str(path.parent)))
    params = {k: v for k, v in given if "{" + k + "}" in template}
    return StoreError(kind, template, **params)


READONLY_DIRECTORY = 8 | (6 << 8)
"""SQLite's extended code for a database whose folder cannot be written."""


def _folder_read_only(code: int | None, path: Path) -> bool:
    """Whether the folder, not the file, is what cannot be written: SQLite says so, or the
    folder is not writable while the file is (``os.access``: root may write either)."""
    if code == READONLY_DIRECTORY:
        return True
    return not os.access(path.parent, os.W_OK) and os.access(path, os.W_OK)


def use_wal(db: sqlite3.Connection, seconds: float) -> None:
    """Put ``db`` in WAL mode, waiting up to ``seconds`` for another program's write.

    SQLite answers "locked" at once, without its busy handler, when another connection
    holds a write lock while this one switches to WAL: two programs opening one new file
    at the same moment meet it. So the switch is tried again, every 10 ms, until then.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if _KINDS.get(code) != "locked" or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)
