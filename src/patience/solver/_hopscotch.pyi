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

def playout(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    last: int,
    waste: int,
    left: bytes,
    stock: bytes,
) -> bool:
    """The labels policy (``fair/hopscotch.py``) played out on one stock order (ranks,
    its top last) from its state: the foundation sizes, each reserve's ranks and labels
    (k * 13 + i, bottom first), the reserve the last card home came from, the waste
    card's rank (0: none), the unseen cards of each rank (14 bytes): won or not."""

def playouts(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    last: int,
    waste: int,
    left: bytes,
    count: int,
    seed: int,
    search: int = 5000,
) -> int:
    """``playout`` over ``count`` stock orders of the unseen ranks, shuffled from
    ``seed`` (the same orders for the same seed and ``left``), each rescue given
    ``search`` tries, with the GIL released: the playouts won."""

def label_on(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    rank: int,
    reserve: int,
    left: bytes,
) -> tuple[bytes, list[bytes], list[bytes], int] | None:
    """The card of ``rank`` put on ``reserve`` as the labels policy labels it there
    (``_label_on``), settled: the state and its option's cost (-1: every reserve card
    labelled again); None: only a cycle is left."""

def advice_game(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    last: int,
    waste: int,
    left: bytes,
    stock: bytes,
    inner: int,
    seed: int,
    search: int,
) -> tuple[bool, bytes]:
    """The game's advice (``fair/hopscotch_rollout.py``'s ``rollout``: ``inner`` playouts of the
    labels policy a reserve, a decision seeded by ``seed`` plus the cards left in the
    stock, each playout's rescue given ``search`` tries) played from the policy's state on
    one stock order (ranks, its top last), with the GIL released: won, and each card's
    move (1 + q home to foundation q, 5 + j onto reserve j; it stops, lost, at the first
    card only a cycle is left for)."""

def advice_playouts(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    last: int,
    waste: int,
    left: bytes,
    first: int,
    count: int,
    seed: int,
    inner: int,
    inner_seed: int,
    search: int,
) -> int:
    """``advice_game`` over stock orders ``first`` .. ``first + count - 1`` of the unseen
    ranks, shuffled from ``seed`` as ``playouts`` shuffles them, with the GIL released:
    the games won."""

def advice_until(
    foundations: bytes,
    ranks: list[bytes],
    labels: list[bytes],
    last: int,
    waste: int,
    left: bytes,
    stock: bytes,
    inner: int,
    seed: int,
    search: int,
    upto: int,
) -> tuple[tuple[bytes, list[bytes], list[bytes], int], bytes] | None:
    """``advice_game`` until ``upto`` cards are left in the stock, the next card just
    turned: the state then (before that card is decided) with the card's rank, and the
    cards of each rank unseen; None: the game was lost before."""
