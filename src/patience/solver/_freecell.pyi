"""FreeCell's search at native speed, in ``_freecell.c`` (``freecell.native_decide``
calls it). Verdicts: 0 won, 1 lost, 2 unknown; a win's line as (src, dst, count) byte
triples, piles 0-7 the cascades, 8-11 the free cells, 12-15 the foundations; the states
met. ``max_states`` < 0: no cap."""

import threading

def search(
    tableau: list[bytes],
    cells: list[bytes],
    foundations: list[bytes],
    seconds: float,
    max_states: int,
    max_nodes: int,
    cancel: threading.Event | None,
    estimates: tuple[tuple[int, int, int, int, int], ...],
    first: int,
) -> tuple[int, bytes, int]:
    """Decide a position given as its piles' cards (bottom to top; a free cell of at most
    one card; foundations up in suit from the Ace): best-first searches, one per
    weighting of ``estimates``, the first alone for ``first`` states, then in turns;
    each keeps up to ``max_nodes`` / their number states."""

def use_cpu_clock(on: bool) -> None:
    """This thread's deadlines on its CPU time (``on``) or on the wall clock (``clock.py``)."""
