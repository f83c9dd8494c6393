"""``patience report``: read the sources, print the tables, and write what is asked
(the per-deal CSV files; the Markdown page with its plots)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import PatienceError
from . import plots
from .report import lines, markdown, text
from .results import load, write_csv


def publish(sources: Sequence[Path], *, out: Path | None, csv_dir: Path | None) -> str:
    """The tables of ``sources`` as text, after writing ``csv_dir`` and ``out``."""
    results = load(sources)
    report = lines(results)
    if not report:
        raise PatienceError(f"no study results in {', '.join(map(str, sources))}")
    if csv_dir is not None:
        write_csv(csv_dir, results)
    if out is not None:
        # The page names the command that makes it again: from the CSV files just
        # written, when there are some.
        again = [csv_dir] if csv_dir is not None else sources
        command = " ".join(["patience report", *(f"--db {s}" for s in again), f"--out {out}"])
        names = [f"{out.stem}-rates.png", f"{out.stem}-times.png"]
        plots.rates(report, out.parent / names[0])
        plots.times(report, out.parent / names[1])
        try:
            out.write_text(markdown(report, command, names), encoding="utf-8")
        except OSError as exc:
            raise PatienceError(f"cannot write {out}: {exc.strerror}") from None
    return text(report)
