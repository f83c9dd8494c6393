"""The native searches of Klondike, Lady Jane and Baker's Dozen (``_tableau.c``),
one schedule stage a call (``alternating.native_runner``). Verdicts: 0 won, 1 lost,
2 unknown (``schedule.Verdict.of_code``); the winning line as move strings; the states
searched.
``discrepancies`` < 0: the exhaustive search; ``max_states`` < 0: no cap."""

import threading

def search(
    stock: bytes,
    waste: bytes,
    foundations: list[bytes],
    tableau: list[bytes],
    down: bytes,
    redeals: int,
    draw: int,
    limit: int,
    prune: bool,
    discrepancies: int,
    seconds: float,
    max_states: int,
    table_size: int,
    cancel: threading.Event | None,
) -> tuple[int, list[str], int]:
    """Klondike (``limit`` < 0: unlimited redeals)."""

def relaxed(
    stock: bytes,
    waste: bytes,
    foundations: list[bytes],
    tableau: list[bytes],
    down: bytes,
    redeals: int,
    draw: int,
    limit: int,
) -> tuple[int, int]:
    """The two relaxed games' verdicts on a Klondike position, (Relax lost, Ordered lost)
    (``limit`` < 0: unlimited redeals)."""

def lady_jane(
    stock: bytes,
    waste: bytes,
    foundations: list[bytes],
    tableau: list[bytes],
    down: bytes,
    reserve: list[bytes],
    base: int,
    prune: bool,
    discrepancies: int,
    seconds: float,
    max_states: int,
    table_size: int,
    cancel: threading.Event | None,
) -> tuple[int, list[str], int]:
    """Lady Jane."""

def bakers_dozen(
    foundations: list[bytes],
    tableau: list[bytes],
    other_suit: bool,
    kings_move: bool,
    prune: bool,
    discrepancies: int,
    seconds: float,
    max_states: int,
    table_size: int,
    cancel: threading.Event | None,
    seed: int,
    estimate: int,
    shuffle: bool = False,
) -> tuple[int, list[str], int]:
    """Baker's Dozen (``seed``: a jittered move order, 0: none; shuffled with ``shuffle``;
    ``estimate`` >= 0: best-first with that estimate)."""

def key_ahead(entries: int) -> int:
    """The table's size from which a search keys a node's children ahead (0: always),
    which changes its speed, never its states; returns the size before."""

def grow_in_place(on: bool) -> bool:
    """Whether the search's tables, once big, grow in place within one reserved mapping
    (or each into a new table twice the size), which changes their memory, never the
    search; returns the setting before."""

def run_swaps(on: bool) -> bool:
    """Whether Klondike's keys exchange the runs on twin parents
    (``alternating.swapped_runs``; off only for the test that the cut changes no verdict);
    returns the setting before."""

def dominance(on: bool) -> bool:
    """Whether draw 3's exhaustive search prunes a state that a state it searched
    dominates (``KlondikeAdapter.dominators``; off only for the test that the cut changes
    no verdict); returns the setting before."""

def use_cpu_clock(on: bool) -> None:
    """This thread's deadlines on its CPU time (``on``) or on the wall clock (``clock.py``)."""
