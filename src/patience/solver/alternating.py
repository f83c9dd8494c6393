"""What Klondike and Lady Jane share: alternating-colour tableaux and safe foundation moves.

Both games build down in alternating colours and up in suit on the foundations, and
let a foundation's top card come back. Lady Jane is Klondike in *relative* ranks: with
base rank B, a card's relative rank is ``(rank - B) % 13 + 1`` (the base card acts as
an Ace, the rank below the base as a King: it fills empty piles and nothing goes on a
base card). Everything below is written in those relative ranks.

Safe foundation moves (proof). Let card c of relative rank r be playable to its
foundation, with both opposite-colour cards of rank r-1 and every card of rank <= r-2
already on the foundations (so c's own suit holds r-1, the other suit of c's colour
at least r-2). Call L those foundation cards. From position S, let W be any winning
line; S' is S with c played home. Only cards of L can ever be built on c or on a card
of L (they rank r-1 or lower and the colours must alternate; the other rank r-1 card
of c's colour cannot go on c), and no card outside L + {c} can be built on them, so
in every position S_k of W the cards of L + {c} that are in the tableau lie in a
block on top of their piles. Drop from W every move of a card of L + {c} and cut off
that block from every run W moves: each remaining move is legal in the matching S'_k
(the same tops, at least as many face-up cards, the same foundation tops for every
other card, empty piles still empty), and S'_n is won like S_n. So c may go home at
once: no win is lost. The argument holds for c on a tableau pile, or on Lady Jane's
reserves, waste or last stock card, since the card it uncovers is only a gain. Off the
tableau a weaker condition is enough, and a Klondike stock or waste card may go home
only with one card a deal (``KlondikeAdapter.auto`` has both proofs).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from ..cards import RANK, RED, SUIT
from ..moves import Move
from ..position import Position
from . import clock
from .schedule import Budget, Outcome, Runner, Stage, Verdict

native: ModuleType | None
try:  # the searches of Klondike and Lady Jane at native speed, built with the package
    from . import _tableau as native
except ImportError:  # pragma: no cover - without a C compiler: the same search in Python
    native = None


NATIVE_TABLE_FACTOR = 24
"""How many more states the native search remembers than ``table_size`` says: its
states take about 21 bytes each in the table (16-byte entries, at most three quarters
full), a Python dict's several hundred, so the same ``table_size`` bounds both to a
similar memory (at the default of two million, about 1 GiB for a native search that
runs long). Measured on Klondike no-redeal deal 107, proven lost by the exhaustive
search: 24M states in 24 s with a factor of 8, 20M states in 18.5 s with 24 (the
smaller table forgets, and proves again, more of what it had proven)."""


def native_position(p: Position) -> tuple[bytes, bytes, list[bytes], list[bytes], bytes]:
    """The stock, waste, foundations, tableau and face-down counts of ``p`` as the native
    module takes them."""
    return (
        bytes(p.stock),
        bytes(p.waste),
        [bytes(f) for f in p.foundations],
        [bytes(t) for t in p.tableau],
        bytes(p.down),
    )


def native_runner(
    name: str,
    args: tuple[Any, ...],
    budget: Budget,
    table_size: int,
    looser: tuple[Any, ...] | None = None,
    seeded: bool = False,
    memo: bool = False,
) -> Runner | None:
    """A runner (``schedule.run``) of the native module ``_tableau``
    (``_tableau.c``: the same search as the reference one, with the same moves in
    the same order and the same proven cuts, on a mutable state), or None without the
    module. ``name`` is the module's function for the game and ``args`` the position in
    its terms, ahead of the stage's limit, seconds, states, table size and cancel event
    (and, ``seeded``, its jitter seed, the number of its estimate for a best-first
    stage, and whether its order is shuffled: Baker's Dozen, the only game with them).

    ``looser``: the same position under looser rules, whose winning lines include
    every winning line of the real rules (a position lost under them is lost), for the
    schedule's looser stage.

    ``memo``: the stages share the relaxed games' verdicts (``_tableau.memo()``), one
    memo for the real rules and one for the looser ones (``search`` only). A verdict is a
    fact about a position under the rules, not about the stage that asked, and each
    discrepancy pass searches again the states of the pass before it.
    """
    if native is None:
        return None
    run = getattr(native, name)
    table = table_size * NATIVE_TABLE_FACTOR
    memos: dict[bool, object] = {}

    def kept(looser: bool) -> object:
        if looser not in memos:
            memos[looser] = native.memo()
        return memos[looser]

    def stage(s: Stage, max_states: int | None) -> Outcome:
        if (s.looser and looser is None) or (s.estimate is not None and not seeded):
            return Verdict.UNKNOWN, [], 0
        position = looser if s.looser and looser is not None else args
        code, line, n = run(
            *position,
            -1 if s.limit is None else s.limit,
            max(0.0, s.until - clock.now()),
            -1 if max_states is None else max_states,
            table,
            budget.cancel,
            *((s.seed, -1 if s.estimate is None else s.estimate, s.shuffle) if seeded else ()),
            **({"memo": kept(s.looser)} if memo else {}),
        )
        return Verdict.of_code(code), [_parsed(m) for m in line], n

    return stage


_PARSED: dict[str, Move] = {}
"""The native searches' moves as read, by their text: a few hundred texts (``t6>t2/3``,
``w>f1``, ...), where a winning line of a hundred moves read afresh was a sixth of a
draw-3 deal's solve at the median (0.4 ms of 2.5)."""


def _parsed(text: str) -> Move:
    """``Move.parse(text)``, once per text."""
    move = _PARSED.get(text)
    if move is None:
        move = _PARSED[text] = Move.parse(text)
    return move


def heights(p: Position) -> list[int]:
    """Cards on the foundation of each suit (index = suit)."""
    h = [0, 0, 0, 0]
    for f in p.foundations:
        if f:
            h[SUIT[f[0]]] = len(f)
    return h


def relative_rank(base: int | None) -> tuple[int, ...]:
    """Each card's rank relative to the base rank (Klondike, no base: the rank itself)."""
    if base is None:
        return RANK
    return tuple((RANK[c] - base) % 13 + 1 for c in range(52))


def is_safe(card: int, rank: int, h: list[int]) -> bool:
    """Whether ``card`` (relative ``rank``, playable home) may go home at once (see above)."""
    s = SUIT[card]
    red = RED[card]
    for t in range(4):
        if t == s:
            continue
        if bool(t & 1) != red:
            if h[t] < rank - 1:
                return False
        elif h[t] < rank - 2:
            return False
    return True


def below_home(rank: int, h: list[int]) -> bool:
    """Whether every card two ranks below ``rank`` is home: enough for a card off the
    tableau that can go home to go at once (``KlondikeAdapter.auto``)."""
    return min(h) >= rank - 2


def tableau_key(p: Position, piles: Sequence[Sequence[int]] | None = None) -> bytes:
    """The tableau as a set of piles (their order never matters): sorted, down counts kept;
    ``piles``: the cards of each pile in place of ``p``'s (the same down counts)."""
    tableau = p.tableau if piles is None else piles
    keys = sorted(bytes((d,)) + bytes(pile) for pile, d in zip(tableau, p.down, strict=True))
    return b"\xff".join(keys)


EMPTIED = 52
"""The obligation of a move that empties a tableau pile (a card number never uses it)."""


class _CardOf(dict[tuple[int, ...], list[list[tuple[int, int]]]]):
    """For a relative-rank table: the two cards of relative rank q that card x could be
    built on, ``[q][x]`` (for q = its rank + 1)."""

    def __missing__(self, rel: tuple[int, ...]) -> list[list[tuple[int, int]]]:
        of = SUIT_RANK[rel]
        parents = [[(-1, -1)] * 52 for _ in range(15)]
        for q in range(2, 14):
            for x in range(52):
                a, b = (0, 2) if RED[x] else (1, 3)  # suits C D S H: the red ones are odd
                parents[q][x] = (of[a][q], of[b][q])
        self[rel] = parents
        return parents


class _SuitRank(dict[tuple[int, ...], list[list[int]]]):
    """For a relative-rank table: the card of each suit and relative rank."""

    def __missing__(self, rel: tuple[int, ...]) -> list[list[int]]:
        of = [[-1] * 15 for _ in range(4)]
        for c in range(52):
            of[SUIT[c]][rel[c]] = c
        self[rel] = of
        return of


CARD_OF = _CardOf()
SUIT_RANK = _SuitRank()


def arrangement(p: Position, rel: tuple[int, ...]) -> list[list[int]]:
    """The tableau's piles as the key names them with the cuts on: each face-up card
    lying on one of its two parents (ranks ``rel``) while the other, lower-numbered,
    is a pile's top, moved there with the cards above it, until none is left (the
    moves are independent, so the end is the same in any order).

    Proof that a key may name all the arrangements alike. The two states are one move
    from each other both ways (the run goes to the free twin and back), so they are won
    or lost alike. Such a move is the only tableau move that turns no card and empties
    no pile, and it keeps the key: its child's obligation is a ``base.Twin``, which the
    same state with no obligation (the parent itself, whose search this child is part
    of) does not cover. The search still misses no win: every state of a key is one of
    its arrangements, and a move of any of them is, up to the arrangement of the
    result, a move of the one searched or a move to a twin followed by one that uses
    the parent left free, which that child's obligation allows. For a move's legality
    depends on the arrangement only through the card it builds on or plays home being
    a pile's top, and the twin groups are independent: only the two cards of a colour
    and rank lie on the two of the other colour a rank up."""
    parents = CARD_OF[rel]
    piles = [list(t) for t in p.tableau]
    moved = True
    while moved:
        moved = False
        tops = {t[-1]: j for j, t in enumerate(piles) if t}
        for i, pile in enumerate(piles):
            for k in range(p.down[i] + 1, len(pile)):
                r = rel[pile[k]]
                if r == 13:
                    continue  # a King lies on no parent
                x, y = parents[r + 1][pile[k]]
                if pile[k - 1] not in (x, y):
                    continue  # not built on it (a position given by hand): no twin
                o = y if pile[k - 1] == x else x
                if o < pile[k - 1] and o in tops:
                    piles[tops[o]] += pile[k:]
                    del pile[k:]
                    moved = True
                    break
            if moved:
                break
    return piles


def swapped_runs(
    piles: list[list[int]], down: Sequence[int], rel: tuple[int, ...]
) -> list[list[int]]:
    """Klondike's tableau as the key names it: ``piles``, an ``arrangement``, with the
    runs exchanged wherever two face-up twins of different piles (the two cards of a
    colour and rank) both carry a run and the higher-numbered base lies on the
    lower-numbered twin, so that the lower base lies on the lower twin (in place).

    Proof that a key may name both alike. Let P and Q be twins, face up in piles A and B
    (never one pile: the face-up cards above a face-up card rank below it), U the cards
    above P and V those above Q, and S' be S with U on Q and V on P (their bases are
    twins too, built on P and Q, so on either). Name a move by the card it moves (with
    the cards above it) and where it goes (a card, a foundation, an empty pile), and
    map it to S' by swapping P and Q as destinations. The tops of S' are those of S with
    P and Q swapped (P is a top of S exactly when Q is one of S', and a top of U or V is
    a top in both), so each move of S is legal in S' so mapped, and leaves the two
    positions related the same way (U or V shortened or lengthened; P or Q moving with
    what lies on it, turning the same face-down card), except P played home, a top of S
    while V still lies on it in S': there V first moves onto Q, a top of S' (the twin
    move of ``arrangement``), and the two positions are then the same. Every winning
    line of S so becomes one of S', and back, so S and S' are won or lost alike. Each
    exchange changes only what lies on its two twins, so they are independent and the
    tops stay: ``arrangement`` has nothing more to move, and every state of a key is
    the one searched up to exchanges and moves to twins, a move of it, up to the
    arrangement of the result, a move of the one searched or a move to a twin followed
    by P played home, which that child's ``Twin`` obligation allows. Klondike only:
    Lady Jane's reserves are not looked at here, and it keeps ``arrangement`` alone."""
    parents = CARD_OF[rel]
    changed = True
    while changed:
        changed = False
        carrying = {
            pile[k - 1]: (i, k)
            for i, pile in enumerate(piles)
            for k in range(down[i] + 1, len(pile))
        }
        for i, pile in enumerate(piles):
            for k in range(down[i] + 1, len(pile)):
                c = pile[k]
                if rel[c] == 13:
                    continue
                x, y = parents[rel[c] + 1][c]
                if pile[k - 1] not in (x, y):
                    continue  # not built on it (a position given by hand)
                o = y if pile[k - 1] == x else x
                j, q = carrying.get(o, (i, 0))
                w = piles[j][q]
                if o > pile[k - 1] or j == i or rel[w] != rel[c] or RED[w] != RED[c] or w < c:
                    continue
                pile[k:], piles[j][q:] = piles[j][q:], pile[k:]
                changed = True
                break
            if changed:
                break
    return piles


def obligation(p: Position, src: int, count: int, rel: tuple[int, ...]) -> int | None:
    """The obligation of moving ``count`` cards from tableau pile ``src`` to another pile.

    Proof. Call the moved run R and the move m. If m turns a face-down card, m is
    free. Otherwise m either empties its pile, or uncovers a face-up card P on which
    R's base was built (R then goes onto a twin of P: its base is no King, as a King
    only ever lies on a face-down card or an empty place). Take a winning line W with m in it
    and leave R where it was (on P, or alone in its pile) until the first later move
    that *uses* what m made: a card built on P or P played home (when m uncovered
    P), a card moved into the emptied pile (when m emptied it). Every move before
    that stays legal: a move of R or of part of R, or onto R, is the same move from
    R's old place; a move of a run with P in it carries R along, and R moves on to
    its new parent afterwards (still before the use); nothing else touches P, the
    parent R went to, or the empty pile, and if R leaves its new parent first the two
    lines meet again. So some winning line plays m only right before a move that uses
    it, and m's child may be held to that: its own next move must build on P or play
    P home (obligation P), or move a card into an empty pile (obligation
    ``EMPTIED``). A foundation's top card may come back in both games, and the
    stock or reserves never touch the tableau, so the argument holds in Klondike and
    Lady Jane alike. ``None``: no obligation.
    """
    pile = p.tableau[src]
    rest = len(pile) - count
    if rest == 0:
        return EMPTIED
    if rest <= p.down[src]:
        return None
    parent, base = pile[rest - 1], pile[rest]
    if rel[parent] == rel[base] + 1 and RED[parent] != RED[base]:
        return parent
    return None  # a position given by hand need not be built legally: no claim


def honours(p: Position, tag: object, src: str, dst: str) -> bool:
    """Whether a move from ``src`` to ``dst`` (pile names) meets obligation ``tag``."""
    kind, j = dst[0], int(dst[1:]) - 1
    if tag == EMPTIED:
        return kind == "t" and not p.tableau[j]
    if kind == "t":
        pile = p.tableau[j]
        return bool(pile) and pile[-1] == tag
    if kind == "f" and src[0] == "t":
        pile = p.tableau[int(src[1:]) - 1]
        return bool(pile) and pile[-1] == tag
    return False


def send_home(cards: list[int], h: list[int], rel: tuple[int, ...]) -> tuple[list[int], bool]:
    """Play home, in one pass, each of ``cards`` whose suit holds the card below it
    (``h``: cards home by suit, updated): the cards left, and whether any went."""
    left = []
    for c in cards:
        if h[SUIT[c]] == rel[c] - 1:
            h[SUIT[c]] += 1
        else:
            left.append(c)
    return left, len(left) < len(cards)
