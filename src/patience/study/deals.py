"""Deal numbers of a study: ranges such as ``1-10000`` or ``1-10,25,40-42``, kept as
ranges (a million deals take two ints) and drawn one at a time."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..cards import parse_deal, shown
from ..errors import InvalidDealError, PatienceError

MAX_STORED_DEAL = 2**63 - 1
"""The largest deal number the study database holds (SQLite's largest integer)."""

_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?")


@dataclass(frozen=True)
class DealRanges:
    """A set of deal numbers as sorted, disjoint ranges: a million deals take two ints,
    not a list of a million (``--deals 1-1000000``)."""

    ranges: tuple[range, ...]

    @property
    def count(self) -> int:
        """How many deals (``len`` would overflow past 2**63)."""
        return sum(r.stop - r.start for r in self.ranges)

    def __iter__(self) -> Iterator[int]:
        """The deals in increasing order, one at a time."""
        for r in self.ranges:
            yield from r

    def __contains__(self, deal: object) -> bool:
        if not isinstance(deal, int):
            return False
        i = bisect.bisect_right(self.ranges, deal, key=lambda r: r.start) - 1
        return i >= 0 and deal in self.ranges[i]

    def __str__(self) -> str:
        """``1-10000`` or ``1-10, 25, 40-42``: the form ``parse_deals`` reads."""
        return ", ".join(
            str(r.start) if len(r) == 1 else f"{r.start}-{r.stop - 1}" for r in self.ranges
        )


def merged(spans: Iterable[tuple[int, int]]) -> DealRanges:
    """The deals of half-open ``(start, stop)`` spans, overlapping or touching ones
    joined."""
    out: list[tuple[int, int]] = []
    for lo, stop in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], stop))
        else:
            out.append((lo, stop))
    return DealRanges(tuple(range(lo, stop) for lo, stop in out))


def ranges_of(deals: Iterable[int]) -> DealRanges:
    """The deal numbers given one by one, as ranges (``1,2,3,5`` is ``1-3, 5``)."""
    return merged((d, d + 1) for d in deals)


def parse_deals(text: str) -> DealRanges:
    """Read deal ranges such as ``1-10000`` or ``1-10,25,40-42`` (repeats count once)."""
    spans: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        m = _RANGE.fullmatch(part)
        if not m:
            raise PatienceError(
                f"invalid deal range {shown(part)}: expected N or N-M in digits 0-9, e.g. 1-10000"
            )
        try:
            lo = parse_deal(m[1])
            hi = lo if m[2] is None else parse_deal(m[2])
        except InvalidDealError as exc:
            raise PatienceError(f"invalid deal range {shown(part)}: {exc}") from None
        if hi < lo:
            raise PatienceError(f"invalid deal range {shown(part)}: need N <= M")
        if hi > MAX_STORED_DEAL:
            raise PatienceError(
                f"invalid deal range {shown(part)}: the study database holds deal numbers "
                f"up to {MAX_STORED_DEAL}"
            )
        spans.append((lo, hi + 1))
    return merged(spans)
