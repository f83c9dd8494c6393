"""The Hopscotch labelled search of ``hopscotch_labels.LabelledSearch`` at native speed, in
``_hopscotch.c`` (``hopscotch.native_decide`` calls it). Verdicts: 0 won, 1 lost,
2 unknown; the winning line as move codes (0 deal, 1 + k w>f(k+1), 5 + j w>r(j+1),
9 + 4 j + k r(j+1)>f(k+1)); the states searched. ``max_states`` < 0: no cap."""

import threading

def search(
    arrivals: bytes,
    waste_first: bool,
    foundations: bytes,
    reserves: list[bytes],
    seconds: float,
    max_states: int,
    table_size: int,
    cancel: threading.Event | None,
    plain: int,
    probe: int,
    noise: float,
    slice: float,
    lds_share: float,
    bad: float,
    wait: float,
    empty: float,
) -> tuple[int, bytes, int]:
    """Decide a position given as ranks: the cards in the order they come up (the waste
    card first), the foundation sizes, the four reserves (bottom to top); the pass
    schedule and ordering weights of ``hopscotch.py``."""

def use_cpu_clock(on: bool) -> None:
    """This thread's deadlines on its CPU time (``on``) or on the wall clock (``clock.py``)."""
