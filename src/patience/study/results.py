"""Per-deal results read from study databases or from compressed CSV files (the form
kept in the repository), merged, and written back as CSV.

A CSV file holds one game and options: the database's columns, one row a deal, sorted
by deal, gzip-compressed with no timestamp (the same results give the same bytes). The
fair verdicts (``study --fair``) go to files of their own, ``*.fair.csv.gz``, one per
game and options, with the ``fair_results`` table's columns.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import PatienceError
from .db import COLUMNS, FAIR_COLUMNS, FairKey, FairStoredRow, Store, StoredRow

Group = tuple[str, str]
"""(game, options as stored)."""

Results = dict[Group, dict[int, StoredRow]]
"""Each game and options' rows by deal."""

FairResults = dict[FairKey, dict[int, FairStoredRow]]
"""Each fair bot's rows (by game, options, setting and settings) by deal."""

SUFFIX = ".csv.gz"
FAIR_SUFFIX = ".fair.csv.gz"


def _better(old: StoredRow, new: StoredRow) -> StoredRow:
    """The row to keep of two for the same deal: a verdict over ``unknown``, of two
    verdicts the quicker (a deal a later solver decides within 60 s is decided within
    60 s), of two ``unknown`` the longer try; two different verdicts are a solver's
    error."""
    if old[3] != "unknown" and new[3] != "unknown":
        if old[3] != new[3]:
            name = " ".join(filter(None, old[:2]))
            raise PatienceError(
                f"{name} deal {old[2]} is both {old[3]} and {new[3]} in the sources"
            )
        return new if new[4] < old[4] else old
    if old[3] != "unknown":
        return old
    if new[3] != "unknown":
        return new
    return new if new[7] > old[7] else old


def load(sources: Iterable[Path]) -> Results:
    """The rows of every source: a study database or a folder of ``*.csv.gz``."""
    results: Results = {}
    for source in sources:
        for row in _rows_of(source, fair=False):
            deals = results.setdefault((row[0], row[1]), {})
            old = deals.get(row[2])
            deals[row[2]] = row if old is None else _better(old, row)
    return results


def load_fair(sources: Iterable[Path]) -> FairResults:
    """The fair rows of every source (none from a database without a fair table). Two
    sources with the same bot's row for one deal: the first is kept (a fair verdict is
    no proof, and a bot cut short by its time budget may differ on another machine)."""
    results: FairResults = {}
    for source in sources:
        for row in _rows_of(source, fair=True):
            results.setdefault(row[:4], {}).setdefault(row[4], row)
    return results


def _rows_of(source: Path, *, fair: bool) -> Iterator[Any]:
    if source.is_dir():
        files = sorted(source.glob(f"*{SUFFIX}"))
        if not files:
            raise PatienceError(f"{source} holds no per-deal results (*{SUFFIX})")
        for f in files:
            if f.name.endswith(FAIR_SUFFIX) == fair:
                yield from (read_fair_csv(f) if fair else read_csv(f))
        return
    if not source.is_file():
        raise PatienceError(f"cannot read {source}: no such file or folder")
    store = Store(source, read_only=True)
    try:
        yield from (store.fair_everything() if fair else store.everything())
    finally:
        store.close()


def _csv_rows(path: Path, columns: tuple[str, ...]) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each row of a compressed CSV file with ``columns``."""
    try:
        with gzip.open(path, "rt", newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            if next(reader, None) != list(columns):
                raise PatienceError(f"{path}: the first line must name {','.join(columns)}")
            yield from enumerate(reader, start=2)
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as exc:
        raise PatienceError(f"cannot read {path}: {exc}") from None


def read_csv(path: Path) -> Iterator[StoredRow]:
    """The rows of one compressed CSV file."""
    for n, r in _csv_rows(path, COLUMNS):
        try:
            g, o, d, res, s, st, m, t = r
            row = g, o, int(d), res, float(s), int(st), int(m), float(t)
        except ValueError:
            raise PatienceError(f"{path} line {n}: not a result row") from None
        yield row


def read_fair_csv(path: Path) -> Iterator[FairStoredRow]:
    """The rows of one compressed CSV file of fair verdicts."""
    for n, r in _csv_rows(path, FAIR_COLUMNS):
        try:
            g, o, setting, settings, d, w, s, m, dec, p = r
            row = g, o, setting, settings, int(d), int(w), float(s), int(m), int(dec), int(p)
        except ValueError:
            raise PatienceError(f"{path} line {n}: not a fair result row") from None
        yield row


def file_name(group: Group) -> str:
    """``klondike_mode=three.csv.gz``: the game and its options, safe in any folder."""
    game, options = group
    name = "_".join([game, *options.split(",")]) if options else game
    return re.sub(r"[^A-Za-z0-9=._-]", "-", name) + SUFFIX


def write_csv(folder: Path, results: Results) -> list[Path]:
    """One compressed CSV file per game and options in ``folder``; the files written."""
    written = []
    for group, deals in sorted(results.items()):
        rows = []
        for d in sorted(deals):
            g, o, deal, res, s, st, m, t = deals[d]
            rows.append([g, o, deal, res, f"{s:.4f}", st, m, f"{t:g}"])
        written.append(_write(folder, file_name(group), COLUMNS, rows))
    return written


def write_fair_csv(folder: Path, results: FairResults) -> list[Path]:
    """One compressed CSV file of fair verdicts per game and options in ``folder``
    (``klondike_mode=three.fair.csv.gz``), sorted by setting, settings and deal."""
    by_group: dict[Group, list[list[object]]] = {}
    for key, deals in sorted(results.items()):
        rows = by_group.setdefault(key[:2], [])
        for d in sorted(deals):
            g, o, setting, settings, deal, w, s, m, dec, p = deals[d]
            rows.append([g, o, setting, settings, deal, w, f"{s:.4f}", m, dec, p])
    return [
        _write(folder, file_name(group).removesuffix(SUFFIX) + FAIR_SUFFIX, FAIR_COLUMNS, rows)
        for group, rows in sorted(by_group.items())
    ]


def _write(folder: Path, name: str, columns: tuple[str, ...], rows: list[list[object]]) -> Path:
    """Write one compressed CSV file, with no timestamp (the same rows, the same bytes)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PatienceError(f"cannot use {folder} for the results: {exc.strerror}") from None
    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(columns)
    w.writerows(rows)
    path = folder / name
    try:
        with open(path, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as z:
            z.write(text.getvalue().encode("utf-8"))
    except OSError as exc:
        raise PatienceError(f"cannot write {path}: {exc.strerror}") from None
    return path
