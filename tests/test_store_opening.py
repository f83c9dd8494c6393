"""Two programs opening one new database at the same moment: neither is refused.

SQLite answers "database is locked" at once, without waiting as its busy timeout says,
when a connection switches to WAL while another holds a write lock: two studies started
together on a new file (or two ``patience`` commands on a new data folder) met it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from patience.store import Store
from patience.study.db import Store as StudyStore


@contextmanager
def written_elsewhere(path: Path, seconds: float) -> Iterator[None]:
    """Another program holds a write lock on ``path`` for ``seconds``, then commits."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    done = threading.Timer(seconds, other.execute, ("COMMIT",))
    done.start()
    try:
        yield
    finally:
        done.join()
        other.close()


def open_game_store(folder: Path) -> sqlite3.Connection:
    return Store(folder)._db


def open_study_store(folder: Path) -> sqlite3.Connection:
    return StudyStore(folder / "patience.sqlite3").db


@pytest.mark.parametrize("open_store", [open_game_store, open_study_store])
def test_a_new_database_opens_while_another_program_writes_it(
    tmp_path: Path, open_store: Callable[[Path], sqlite3.Connection]
) -> None:
    with written_elsewhere(tmp_path / "patience.sqlite3", 0.3):
        db = open_store(tmp_path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
