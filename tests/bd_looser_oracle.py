"""Baker's Dozen's looser game, a test that a position is lost (Kings to the bottom):
the reference of ``_bd_looser.h``, used by the reference search by classes
(``bd_classes_oracle.py``: the tests only; docs/solver-log.md, sessions 26 and 33).

The looser game. Split each pile into its *base* (its cards up to the lowest card of
the run at its top: the cards from the top down that each lie on a card they may be
built on, a *parent*) and its *built* cards (the rest of that run). The looser game
keeps the bases as they are and only the set of built cards, forgetting which card each
lies on. Its moves, where the *tops* are the bases' top cards and the built cards, and
a *placement* puts each built card on a parent among given tops, no two on one card:

- a built card c goes home when its suit's foundation is one below it and the built
  cards have a placement on the tops other than c;
- a base's top card c goes home under the same condition, or onto a top q it may be
  built on when the built cards have a placement on the tops other than c and q; the
  base loses c, the run then at its top becomes built, and so does c if it went to q;
- after each move, every top card whose suit's foundation is one below it and every
  card of the rank below which is home goes home (nothing can ever lie on it).

Every position of the game is a state of the looser game (its cards lie in one
placement), and every move of the game is a move of the looser game or leaves its
state as it is: a card home or a base's top card moved onto a top is one of the moves
above (in the game's own placement, the cards moved and moved onto are uncovered); a
built card moved onto another top leaves the bases and the built cards as they were;
and a card the last rule sends home is the top of its pile in the game, which the
game's safe moves home (``bakers_dozen.py``) send home too. So a line that wins the
game wins the looser game, and a position whose looser game is lost is lost.

The search. A move takes a card out of a base or off the table, so the looser game
has no cycle, and a depth-first search can remember each state it has finished:
lost, when every move from it leads to a lost state, and won, with every state on the
line to a win. The states are keyed by the cards in the bases and the built cards
(within one search by classes, a base is a pile's bottom cards that never moved, so
its cards name it), and every search from one start shares what the others proved.
Each test gives up after ``cap`` states it had not finished before (not lost, then),
so a later test of a state met again goes on where it stopped.
"""

from __future__ import annotations

from patience.cards import RANK, SUIT

Tableau = tuple[tuple[int, ...], ...]
State = tuple[tuple[int, ...], int]
"""Each base's length (its cards are the bottom of the base the test began with) and
the built cards (a bit per card)."""


class LooserGame:
    """The looser game from the positions of one search by classes."""

    def __init__(self, parents: tuple[tuple[int, ...], ...], cap: int) -> None:
        self.masks = [sum(1 << q for q in ps) for ps in parents]
        self.cap = cap
        self.memo: dict[tuple[int, int], bool] = {}
        """A state's key -> whether it is lost (True) or won (False)."""
        self.bases: list[tuple[int, ...]] = []
        self.prefix: list[list[int]] = []
        self.work = 0

    def _base_len(self, pile: tuple[int, ...], n: int, built: int) -> tuple[int, int]:
        """The length of the base of the first n cards of ``pile``, and ``built`` with
        the cards of the run above it."""
        masks = self.masks
        while n > 1 and masks[pile[n - 1]] >> pile[n - 2] & 1:
            built |= 1 << pile[n - 1]
            n -= 1
        return n, built

    def _key(self, s: State) -> tuple[int, int]:
        lens, built = s
        basemask = 0
        for k, n in enumerate(lens):
            basemask |= self.prefix[k][n]
        return basemask, built

    def _heights(self, left: int) -> list[int]:
        h = []
        for s in range(4):
            bits = left >> (13 * s) & 0x1FFF
            h.append((bits & -bits).bit_length() - 1 if bits else 13)
        return h

    def _without_top(self, lens: list[int], k: int, built: int) -> int:
        """Base k less its top card; the run then at its top becomes built: the
        built cards after."""
        lens[k], built = self._base_len(self.bases[k], lens[k] - 1, built)
        return built

    def _closure(self, lens: list[int], built: int) -> State:
        """After every safe card home (the last rule of the looser game)."""
        while True:
            left = self._key((tuple(lens), built))[0] | built
            h = self._heights(left)
            low = min(h)
            moved = False
            b = built
            while b and not moved:
                c = (b & -b).bit_length() - 1
                b &= b - 1
                r = RANK[c]
                if h[SUIT[c]] == r - 1 and (r == 1 or low >= r - 1):
                    built &= ~(1 << c)
                    moved = True
            for k in range(len(lens)):
                if moved:
                    break
                if not lens[k]:
                    continue
                c = self.bases[k][lens[k] - 1]
                r = RANK[c]
                if h[SUIT[c]] == r - 1 and (r == 1 or low >= r - 1):
                    built = self._without_top(lens, k, built)
                    moved = True
            if not moved:
                return tuple(lens), built

    def _placeable(self, built: int, allowed: int) -> bool:
        """Whether the built cards have a placement on the cards of ``allowed``."""
        on: dict[int, int] = {}
        masks = self.masks

        def place(c: int, tried: list[int]) -> bool:
            qs = masks[c] & allowed & ~tried[0]
            while qs:
                q = (qs & -qs).bit_length() - 1
                qs &= qs - 1
                tried[0] |= 1 << q
                if q not in on or place(on[q], tried):
                    on[q] = c
                    return True
            return False

        b = built
        while b:
            c = (b & -b).bit_length() - 1
            b &= b - 1
            if not place(c, [0]):
                return False
        return True

    def _children(self, s: State) -> list[State]:
        """The states after each move, in the native twin's order."""
        lens, built = s
        left = self._key(s)[0] | built
        h = self._heights(left)
        tops = built
        for k, n in enumerate(lens):
            if n:
                tops |= 1 << self.bases[k][n - 1]
        out: list[State] = []
        b = built
        while b:
            c = (b & -b).bit_length() - 1
            b &= b - 1
            if h[SUIT[c]] == RANK[c] - 1 and self._placeable(built, tops & ~(1 << c)):
                out.append(self._closure(list(lens), built & ~(1 << c)))
        for k, n in enumerate(lens):
            if not n:
                continue
            c = self.bases[k][n - 1]
            cb = 1 << c
            if h[SUIT[c]] == RANK[c] - 1 and self._placeable(built, tops & ~cb):
                rest = list(lens)
                out.append(self._closure(rest, self._without_top(rest, k, built)))
            ps = self.masks[c] & tops
            while ps:
                q = (ps & -ps).bit_length() - 1
                ps &= ps - 1
                if self._placeable(built, tops & ~cb & ~(1 << q)):
                    rest = list(lens)
                    out.append(self._closure(rest, self._without_top(rest, k, built) | cb))
        return out

    def lost(self, tab: Tableau) -> bool:
        """Whether the looser game from ``tab`` is proved lost within ``cap`` new states
        (never with cap 0: the looser game is not used)."""
        if not self.cap:
            return False
        self.bases, self.prefix = [], []
        lens: list[int] = []
        built = 0
        for pile in tab:
            if not pile:
                continue
            n, built = self._base_len(pile, len(pile), built)
            self.bases.append(pile[:n])
            masks = [0]
            for c in pile[:n]:
                masks.append(masks[-1] | 1 << c)
            self.prefix.append(masks)
            lens.append(n)
        root = self._closure(lens, built)
        key = self._key(root)
        if not (key[0] | key[1]):
            return False
        if key in self.memo:
            return self.memo[key]
        memo = self.memo
        frames: list[tuple[tuple[int, int], list[State], int]] = [(key, self._children(root), 0)]
        count = 0
        while frames:
            k, kids, i = frames[-1]
            if i == len(kids):
                memo[k] = True
                frames.pop()
                continue
            frames[-1] = (k, kids, i + 1)
            child = kids[i]
            ck = self._key(child)
            known = memo.get(ck)
            if known:
                continue
            if known is False or not (ck[0] | ck[1]):
                for fk, _, _ in frames:
                    memo[fk] = False
                return False
            count += 1
            if count > self.cap:
                return False
            self.work += 1
            frames.append((ck, self._children(child), 0))
        return True
