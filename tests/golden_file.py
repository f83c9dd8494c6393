"""A committed file of answers that tests read in place of deciding again: one JSON line
an entry, found by its ``key``, read once a process; with the file's switch set in the
environment, an answer it lacks is decided live and merged in (``endgames.BRUTE_GOLDEN``,
``search_golden.SEARCH_GOLDEN``)."""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Entry = dict[str, Any]


class GoldenFile:
    """The entries of ``path``; ``regen`` names the environment switch that makes them."""

    def __init__(self, path: Path, regen: str, missing: str) -> None:
        self.path = path
        self.regen = regen
        self.missing = missing
        """The failure's words for a key with no entry: ``{key}`` in them is the key."""
        self._entries: dict[str, Entry] | None = None

    def entries(self) -> dict[str, Entry]:
        """The committed entries by key."""
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def entry(self, key: str, decide: Callable[[], Entry]) -> Entry:
        """The committed entry of ``key``; with the switch set and none committed,
        ``decide()``'s fields under that key, merged into the file; else the test fails."""
        pinned = self.entries()
        if key in pinned:
            return pinned[key]
        if not os.environ.get(self.regen):
            pytest.fail(self.missing.format(key=key))
        entry = {"key": key, **decide()}
        pinned[key] = entry
        self._add(entry)
        return entry

    def _read(self) -> dict[str, Entry]:
        if not self.path.exists():
            return {}
        with gzip.open(self.path, "rt", encoding="utf-8") as f:
            return {e["key"]: e for e in map(json.loads, filter(str.strip, f))}

    def _add(self, entry: Entry) -> None:
        """Merge one entry into the file, under a lock (several pytest workers may write),
        the file replaced whole (a worker reading it meanwhile sees no half)."""
        self.path.parent.mkdir(exist_ok=True)
        lock_path = Path(tempfile.gettempdir()) / f"patience-{self.path.name}.lock"
        with open(lock_path, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            entries = self._read()
            entries[entry["key"]] = entry
            part = self.path.with_suffix(".part")
            with gzip.GzipFile(part, "wb", mtime=0) as out:
                for key in sorted(entries):
                    out.write((json.dumps(entries[key], sort_keys=True) + "\n").encode())
            part.replace(self.path)
