"""``patience report``: read the sources, print the tables, and write what is asked
(the per-deal CSV files; the Markdown page with its plots)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import PatienceError
from . import plots
from .fair_report import fair_lines
from .pages import markdown, text
from .report import lines
from .results import load, load_fair, write_csv, write_fair_csv


def publish(sources: Sequence[Path], *, out: Path | None, csv_dir: Path | None) -> str:
    """The tables of ``sources`` as text, after writing ``csv_dir`` and ``out``."""
    results = load(sources)
    fair_results = load_fair(sources)
    report = lines(results)
    fair = fair_lines(fair_results, results)
    if not report and not fair:
        raise PatienceError(f"no study results in {', '.join(map(str, sources))}")
    if csv_dir is not None:
        write_csv(csv_dir, results)
        write_fair_csv(csv_dir, fair_results)
    if out is not None:
        # The page names the command that makes it again: from the CSV files just
        # written, when there are some.
        again = [csv_dir] if csv_dir is not None else sources
        command = " ".join(["patience report", *(f"--db {s}" for s in again), f"--out {out}"])
        # The plots are of thoughtful verdicts: none when there are only fair ones.
        names = [f"{out.stem}-rates.png", f"{out.stem}-times.png"] if report else []
        if report:
            plots.rates(report, out.parent / names[0])
            plots.times(report, out.parent / names[1])
        try:
            out.write_text(markdown(report, command, names, fair), encoding="utf-8")
        except OSError as exc:
            raise PatienceError(f"cannot write {out}: {exc.strerror}") from None
    return text(report, fair)
