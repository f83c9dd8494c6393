"""Baker's Dozen: canonical keys, safe foundation moves, pruning with proofs, move ordering.

Moves are generated here directly (a checked subset of the engine's ``legal_moves``:
top cards home, onto a card one rank higher, Kings into an empty pile with
kings=empty-piles); every winning line is still replayed through ``play``.

Safe foundation moves (proof). Let card c of rank r be playable home with every card
of rank r-1 already home (or r = 1). Foundations never give a card back, so in any
winning line W from S nothing is ever built on c (only rank r-1 cards could be). S'
is S with c home; drop c's moves from W. Every other move stays legal: c was only ever
the top card of some pile, so removing it only uncovers a card earlier, the other
tops are unchanged, every foundation is at least as high, and an empty pile of S_k is
still empty in S'_k (with kings=empty-piles, an emptied pile is only a gain). The
build rule (any suit or another suit) plays no part in the argument.

Moves that empty a pile (proof). Let S have e empty piles and k Kings that lie on
another card (with kings=to-bottom no King ever enters an empty pile: count k = 0).
If e >= k, no move m that takes the last card c off a pile A onto a card P is needed.
Take a winning line W from S that starts with m; W' leaves c alone in A until W moves
c again. While c is on P in W, the two positions differ only there: c with the cards
built on it lies alone in A in W' (c is a top in W' exactly when it is one in W), P is
uncovered in W', the foundations are the same, and W' has one empty pile fewer. W
never uses P while c covers it, so every move of W stays legal in W' except a King
entering an empty pile: W' needs a second empty pile then, and puts the King there
(positions are compared up to the order of the piles). Kings enter empty piles
only from on top of another card (a lone King moved to an empty pile changes nothing
and is dropped from W), and such a King then lies at the bottom for good, so W makes
at most k such moves; before its j-th one (j <= k) W has at least e + 1 - (j - 1) >= 2
empty piles (e, plus A, less the j-1 filled; emptying more only adds). When W moves c
off P (home or onto another card), W' moves it off A to the same place and the two
lines meet. So W' wins without m, and it is one move shorter (so cutting such moves
again along W' ends).

No-op moves. A lone King into an empty pile gives the same canonical position (the
key compares piles as a set); a King into one empty pile or another, too: only the
first empty pile is tried.

Dead positions (proof). The relaxation R lets a card leave its pile ("lift", to be
put nowhere) when it is its pile's top and some card P it may be built on (one rank
higher, of another suit with build=other-suit, not home in S) is the top of its own
pile or already gone from it; a King lifts when some pile is empty
(kings=empty-piles only); a card goes home when every lower card of its suit is gone
from the piles (home or lifted). R never forbids what it once allowed (piles only
shrink, nothing comes back), so playing every allowed step until none is left reaches
R's best state. Every line of the real game is matched step by step in R, with every
card moved in the game gone in R: a card moved off its pile was its top (everything
above it had gone, so it is R's top or already gone); its new parent P was not home
in S and was the top of P's pile or had moved (gone in R); a King's empty pile has
lost all its cards (empty in R); a card sent home had every lower card of its suit
home. So when R's best state still holds a card in a pile, no line of the game wins
and the position is lost. This subsumes the older test (a card above a lower card of
its suit whose every parent is home or beneath it can never leave).

No obligations (why). Klondike holds a move that uncovers a card U to a next move
that uses U. Here that would lose wins: only single top cards move, so one move can
need two cards uncovered just before it (V onto U, each freed by its own move), and
whichever of the two freeing moves comes first is not followed by a use of what it
freed. The moves that empty a pile are cut outright instead (above).
"""

from __future__ import annotations

from ..cards import RANK, SUIT
from ..moves import Move
from ..position import Position
from ..rules import Game
from . import clock
from .alternating import native, native_runner
from .bakers_dozen_lines import line_of
from .base import Adapter, Child, Tag
from .schedule import Budget, Outcome, Runner, Schedule, Stage, Verdict

_T = tuple(f"t{i + 1}" for i in range(13))
_F = tuple(f"f{i + 1}" for i in range(4))
_TT = tuple(tuple(Move(_T[i], _T[j]) for j in range(13)) for i in range(13))
_TF = tuple(tuple(Move(_T[i], _F[j]) for j in range(4)) for i in range(13))
_SUIT = SUIT
_RANK0 = tuple(c % 13 for c in range(52))
_RANKS = range(1, 14)


def _parents(other_suit: bool) -> tuple[tuple[int, ...], ...]:
    """For each card, the cards it may be built on (none for a King)."""
    out: list[tuple[int, ...]] = []
    for c in range(52):
        r, s = RANK[c], SUIT[c]
        if r == 13:
            out.append(())
            continue
        out.append(tuple(t * 13 + r for t in range(4) if not (other_suit and t == s)))
    return tuple(out)


def _foundations(p: Position) -> tuple[list[int], list[int]]:
    """Cards home per suit, and the foundation index holding each suit (-1: none yet)."""
    h = [0, 0, 0, 0]
    at = [-1, -1, -1, -1]
    for j, f in enumerate(p.foundations):
        if f:
            s = SUIT[f[0]]
            h[s] = len(f)
            at[s] = j
    return h, at


class BakersDozenAdapter(Adapter):
    """Baker's Dozen with either option."""

    schedule = Schedule(
        passes=0.45,
        probe=3000,
        restarts=0.55,
        shuffled=0.85,
        shuffle_cap=10_000,
        best=0.3,
        estimates=5,
        classes=0.97,
    )
    """A depth-first probe capped at 3,000 states first (most wins take a few hundred
    states); then best-first searches until 0.3 of the time, one per estimate (they win,
    often within a few thousand states, deals where the depth-first stages sink under an
    early move; each estimate wins deals the others miss); then limited-discrepancy
    passes until 0.45 (they find wins a depth-first search sinks under), then
    depth-first restarts with a jittered move order and growing caps until 0.55
    (depth-first search times are heavy-tailed here: one early move can lead into a
    large lost region), then restarts with the moves off the piles in a shuffled order,
    capped at 10,000 states times Luby's 1, 1, 2, 1, 1, 2, 4, ..., until 0.85 (they win
    a third of the deals every earlier stage leaves: a win is often a short search away
    in some order, but not in ours), then, with Kings to the bottom, the search by
    classes until 0.97 (``_bd_classes.h``: it proves in a second losses that
    take the exhaustive search millions of states, or more than any budget, and wins
    deals where every search of states sinks among the arrangements), then the
    exhaustive search (losses are few, and most are proved at once by the relaxation:
    see ``dead``). Every stage is exact: a ``lost`` from a capped one means it searched
    everything within its cap (docs/solver-log.md)."""

    class_arrangements = 4
    """The search by classes remembers at most this many arrangements a state of the
    table size (about 100 bytes each)."""

    looser_states = 3000
    """The states a test of the looser game (``_bd_looser.h``) may open that no
    earlier test of the same search by classes finished, before it gives up."""

    jitter_span = 8
    """The largest random addition to a tableau move's score in a jittered restart."""

    shuffle_span = 64
    """A tableau move's score in a shuffled restart: 1 + a random number below this."""

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """The stages at native speed (``_tableau.c``: the same moves, order and
        cuts; its jittered order draws from its own random numbers), or None with the
        cuts off. The search by classes is native only (``_bd_classes.h``; Kings to the
        bottom): a win's line is rebuilt from its classes by ``line_of``, and is no win
        if not rebuilt by the stage's end."""
        if not self.prune:
            return None
        args = (
            [bytes(f) for f in p.foundations],
            [bytes(t) for t in p.tableau],
            self.other_suit,
            self.kings_move,
            True,
        )
        plain = native_runner("bakers_dozen", args, budget, table_size, seeded=True)
        if plain is None or native is None:
            return plain
        module = native

        def stage(s: Stage, max_states: int | None) -> Outcome:
            if not s.classes:
                return plain(s, max_states)
            if self.kings_move:
                return Verdict.UNKNOWN, [], 0
            code, states, _, _, children = module.bakers_dozen_classes(
                args[1],
                self.other_suit,
                max(0.0, s.until - clock.now()),
                -1 if max_states is None else max_states,
                table_size * self.class_arrangements,
                budget.cancel,
                self.looser_states,
            )
            found = Verdict.of_code(code)
            if found == Verdict.WON:
                line = line_of(self, p, children, s.until)
                return (Verdict.UNKNOWN, [], states) if line is None else (found, line, states)
            return found, [], states

        return stage

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.other_suit = game.option["build"] == "other-suit"
        self.kings_move = game.option["kings"] == "empty-piles"
        self.parents = _parents(self.other_suit)

    def key(self, p: Position) -> bytes:
        """The tableau as a set of piles (the foundations hold exactly the other cards)."""
        return b"\xff".join(sorted([bytes(pile) for pile in p.tableau]))

    def _send_home(self, p: Position, safe: bool) -> tuple[list[Move], Position, list[int]]:
        """Send the piles' top cards home, the piles in turn and again until none goes
        (``safe``: only while every card of the rank below is home): the moves, the
        position after them, and the cards home by suit."""
        played: list[Move] = []
        h, at = _foundations(p)
        apply = self.game.apply
        progress = True
        while progress:
            progress = False
            for i, pile in enumerate(p.tableau):
                if not pile:
                    continue
                c = pile[-1]
                r = RANK[c]
                s = SUIT[c]
                if h[s] != r - 1 or safe and r > 1 and min(h) < r - 1:
                    continue
                if at[s] < 0:
                    at[s] = next(j for j, f in enumerate(p.foundations) if not f)
                m = _TF[i][at[s]]
                p = apply(p, m)
                played.append(m)
                h[s] = r
                progress = True
        return played, p, h

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Play cards home while every card of the rank below is home."""
        played, p, _ = self._send_home(p, safe=True)
        return played, p

    def finish(self, p: Position) -> list[Move] | None:
        """Every card home, when sending the piles' top cards home, the piles in turn and
        again until none goes, alone wins (the native search's shortcut, in its order)."""
        moves, _, h = self._send_home(p, safe=False)
        return moves if sum(h) == 52 else None

    def estimate(self, p: Position, which: int) -> int:
        """How far ``p`` looks from a win (lower: closer), by the cards not home and:
        0, twice the cards that lie on a lower card of their own suit (each must leave
        before that card goes home); 1, those cards once and the cards above the next
        card of each suit; 2, the cards above the next card of each suit; 3, four times
        the first and once the second; 4, the cards not home counted twice, and the
        first and second once. Each orders the search differently, and each wins deals
        the others miss (docs/solver-log.md)."""
        h = _foundations(p)[0]
        block = need = 0
        for pile in p.tableau:
            lowest = [99, 99, 99, 99]
            n = len(pile)
            for k, c in enumerate(pile):
                s, r = _SUIT[c], RANK[c]
                if r > lowest[s]:
                    block += 1
                else:
                    lowest[s] = r
                if r == h[s] + 1:
                    need += n - 1 - k
        away = 52 - sum(h)
        return (
            away + 2 * block,
            away + block + need,
            away + need,
            away + 4 * block + need,
            2 * away + block + need,
        )[which]

    def dead(self, p: Position, h: list[int] | None = None) -> bool:
        """Whether the relaxation R cannot empty the piles (see the module docstring)."""
        if h is None:
            h = _foundations(p)[0]
        tab = p.tableau
        parents = self.parents
        # avail[q]: q is gone from its pile in R or is its top (a parent then); never
        # set for a card home in S.
        avail = bytearray(52)
        gone = bytearray(52)
        top = [len(pile) for pile in tab]
        for pile in tab:
            if pile:
                avail[pile[-1]] = 1
        hh = list(h)
        for s in range(4):
            for r in range(h[s]):
                gone[s * 13 + r] = 1
        kings_move = self.kings_move
        king_room = kings_move and 0 in top
        progress = True
        while progress:
            progress = False
            for i in range(13):
                n = top[i]
                if not n:
                    continue
                pile = tab[i]
                while n:
                    c = pile[n - 1]
                    s = _SUIT[c]
                    if hh[s] == _RANK0[c]:  # every lower card of its suit gone: home
                        gone[c] = 1
                        k = hh[s] + 1
                        base = s * 13
                        while k < 13 and gone[base + k]:
                            k += 1
                        hh[s] = k
                    else:
                        for q in parents[c]:
                            if avail[q]:
                                break
                        else:
                            if not (king_room and _RANK0[c] == 12):
                                break
                        gone[c] = 1
                    n -= 1
                    if n:
                        avail[pile[n - 1]] = 1
                if n != top[i]:
                    top[i] = n
                    progress = True
                    if not n:
                        king_room = kings_move
        return any(top)

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Foundation moves first, then moves off the piles that hide the lowest cards."""
        h, at = _foundations(p)
        prune = self.prune
        if prune and self.dead(p, h):
            return []
        tab = p.tableau
        other_suit = self.other_suit
        jitter = self.jitter
        # How far each pile's most urgent card is from going home: uncover urgent
        # cards, and do not bury them.
        dist = [r - h[0] for r in _RANKS]  # ranks each card is above its foundation
        dist += [r - h[1] for r in _RANKS]
        dist += [r - h[2] for r in _RANKS]
        dist += [r - h[3] for r in _RANKS]
        at_dist = dist.__getitem__
        urgency = [99] * 13
        under = [0] * 13  # the same for the pile less its top card (0: a lone card)
        by_rank: list[list[int]] = [[] for _ in range(15)]
        empties: list[int] = []
        loose_kings = 0
        for i, pile in enumerate(tab):
            if not pile:
                empties.append(i)
                continue
            urgency[i] = min(map(at_dist, pile))
            if len(pile) > 1:
                under[i] = min(map(at_dist, pile[:-1]))
                if self.kings_move:
                    loose_kings += sum(1 for c in pile[1:] if c % 13 == 12)
            by_rank[RANK[pile[-1]]].append(i)
        # See "Moves that empty a pile" in the module docstring.
        may_empty = not prune or self.kings_move and len(empties) < loose_kings
        ranked: list[tuple[int, int, Move]] = []
        n = 0
        for i, pile in enumerate(tab):
            if not pile:
                continue
            c = pile[-1]
            r = RANK[c]
            s = SUIT[c]
            if h[s] == r - 1:
                j = at[s] if r > 1 else next(j for j, f in enumerate(p.foundations) if not f)
                ranked.append((0, n, _TF[i][j]))
                n += 1
            if len(pile) == 1 and not may_empty:
                continue
            if r == 13:
                if self.kings_move and empties and len(pile) > 1:
                    ranked.append((1 + 4 * under[i], n, _TT[i][empties[0]]))
                    n += 1
                continue
            base = 1 + 4 * under[i]
            if len(pile) > 1:
                u = pile[-2]
                if h[SUIT[u]] == RANK[u] - 1:
                    base = 1  # uncovers a card that can go home next
            for j in by_rank[r + 1]:
                dest = tab[j][-1]
                if other_suit and SUIT[dest] == s:
                    continue
                score = base + max(0, 14 - urgency[j])
                if jitter is not None:
                    score += jitter.randrange(self.jitter_span)
                # A card on the next card of its own suit will go home right after it.
                if SUIT[dest] == s:
                    score = max(1, score - 3)
                if self.shuffle:
                    assert jitter is not None
                    score = 1 + jitter.randrange(self.shuffle_span)
                ranked.append((score, n, _TT[i][j]))
                n += 1
        ranked.sort()
        return [((m,), p, m, None) for _, _, m in ranked]
