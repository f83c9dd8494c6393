"""The native Klondike search (``_klondike.c``): ``KlondikeAdapter.decide`` calls it."""

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
    """(verdict: 0 won, 1 lost, 2 unknown; the winning line as move strings; states)."""
