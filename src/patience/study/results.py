"""Per-deal results read from study databases or from compressed CSV files (the form
kept in the repository), merged, and written back as CSV.

A CSV file holds one game and options: the database's columns, one row a deal, sorted
by deal, gzip-compressed with no timestamp (the same results give the same bytes).
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import PatienceError
from .db import COLUMNS, Store, StoredRow

Group = tuple[str, str]
"""(game, options as stored)."""

Results = dict[Group, dict[int, StoredRow]]
"""Each game and options' rows by deal."""

SUFFIX = ".csv.gz"


def _better(old: StoredRow, new: StoredRow) -> StoredRow:
    """The row to keep of two for the same deal: a verdict over ``unknown``, a longer
    try over a shorter one; two different verdicts are a solver's error."""
    if old[3] != "unknown" and new[3] != "unknown":
        if old[3] != new[3]:
            name = " ".join(filter(None, old[:2]))
            raise PatienceError(
                f"{name} deal {old[2]} is both {old[3]} and {new[3]} in the sources"
            )
        return old
    if old[3] != "unknown":
        return old
    if new[3] != "unknown":
        return new
    return new if new[7] > old[7] else old


def load(sources: Iterable[Path]) -> Results:
    """The rows of every source: a study database or a folder of ``*.csv.gz``."""
    results: Results = {}
    for source in sources:
        for row in _rows_of(source):
            deals = results.setdefault((row[0], row[1]), {})
            old = deals.get(row[2])
            deals[row[2]] = row if old is None else _better(old, row)
    return results


def _rows_of(source: Path) -> Iterator[StoredRow]:
    if source.is_dir():
        files = sorted(source.glob(f"*{SUFFIX}"))
        if not files:
            raise PatienceError(f"{source} holds no per-deal results (*{SUFFIX})")
        for f in files:
            yield from read_csv(f)
        return
    if not source.is_file():
        raise PatienceError(f"cannot read {source}: no such file or folder")
    store = Store(source, read_only=True)
    try:
        yield from store.everything()
    finally:
        store.close()


def read_csv(path: Path) -> Iterator[StoredRow]:
    """The rows of one compressed CSV file."""
    try:
        with gzip.open(path, "rt", newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            if next(reader, None) != list(COLUMNS):
                raise PatienceError(f"{path}: the first line must name {','.join(COLUMNS)}")
            for n, r in enumerate(reader, start=2):
                try:
                    g, o, d, res, s, st, m, t = r
                    yield g, o, int(d), res, float(s), int(st), int(m), float(t)
                except ValueError:
                    raise PatienceError(f"{path} line {n}: not a result row") from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise PatienceError(f"cannot read {path}: {exc}") from None


def file_name(group: Group) -> str:
    """``klondike_mode=three.csv.gz``: the game and its options, safe in any folder."""
    game, options = group
    name = "_".join([game, *options.split(",")]) if options else game
    return re.sub(r"[^A-Za-z0-9=._-]", "-", name) + SUFFIX


def write_csv(folder: Path, results: Results) -> list[Path]:
    """One compressed CSV file per game and options in ``folder``; the files written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PatienceError(f"cannot use {folder} for the results: {exc.strerror}") from None
    written = []
    for group, deals in sorted(results.items()):
        text = io.StringIO()
        w = csv.writer(text, lineterminator="\n")
        w.writerow(COLUMNS)
        for d in sorted(deals):
            g, o, deal, res, s, st, m, t = deals[d]
            w.writerow([g, o, deal, res, f"{s:.4f}", st, m, f"{t:g}"])
        path = folder / file_name(group)
        try:
            with open(path, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as z:
                z.write(text.getvalue().encode("utf-8"))
        except OSError as exc:
            raise PatienceError(f"cannot write {path}: {exc.strerror}") from None
        written.append(path)
    return written
