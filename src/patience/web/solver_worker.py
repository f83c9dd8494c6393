"""The solver's worker process: it runs the web app's searches, one at a time, away
from the server's interpreter (``solver_pool`` starts it, feeds it and replaces it).

A search holds its own interpreter here, so that however much of it is Python (the
fair-play advisor is), it never takes the server's from the page and the moves; and it
runs at a lower CPU priority, so that the server wins the processor whenever both want it.
This module imports nothing heavy: a worker loads what a job needs when it unpickles it.
"""

from __future__ import annotations

import importlib
import os
import signal
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules import Game

NICENESS = 10
"""How much lower than the server a worker runs (``os.nice``; where the system has it)."""

PRELOAD = ("patience.assist", "patience.solver")
"""Modules a new worker imports before its first job, so that the job does not wait for them."""


def serve(conn: Connection, cancel: Any, games: tuple[type[Game], ...] = ()) -> None:
    """Register the server's ``games`` this process does not know, say ``("ready",
    None)`` once loaded, then run jobs from ``conn`` until it closes or sends None.

    A job is ``(work, deadline)``: the reply is ``("ok", work(seconds_left, cancel))``, or
    ``("error", exception)`` when the work raised. ``cancel`` (a multiprocessing Event,
    cleared by the server before each job) is set by the server when the answer is no
    longer wanted."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    # Ctrl+C in a terminal reaches the whole process group: the server, not its workers,
    # decides when they stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in PRELOAD:
        importlib.import_module(name)
    from ..games import GAMES, register

    for game in games:
        if game.name not in GAMES:
            register(game)
    try:
        conn.send(("ready", None))
    except (EOFError, OSError):
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        if job is None:
            return
        work, deadline = job
        try:
            reply: tuple[str, Any] = ("ok", work(max(deadline - time.monotonic(), 0.0), cancel))
        except Exception as exc:  # noqa: BLE001 - the server decides what an error means
            reply = ("error", exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - a result or error that does not pickle
            conn.send(("error", RuntimeError(f"unpicklable solver reply: {exc!r}")))
