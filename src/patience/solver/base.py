"""The game adapter interface the search runs on, and the plain generic adapter.

An adapter tells the search, for one game, how to name a state canonically (so that
interchangeable piles meet in the transposition table), which moves are safe to make
at once (proven dominance), and which moves to try, best first. Every child comes with
the real engine moves that lead to it, so a winning line replays through ``play``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ..moves import Move
from ..position import Position
from ..rules import Game
from .schedule import Budget, Runner, Schedule, Verdict

Tag = Hashable | None
"""An obligation a child carries: what its own next move must do (None: nothing).

Some moves are only ever worth making right before a move that uses what they did
(an adapter proves this for its game); such a move's child carries a tag saying so,
the adapter's ``children`` keeps only the moves that honour it, and the tag is part
of the child's transposition key (the same position with and without an obligation
has different futures in the search)."""


class Twin(int):
    """The obligation (a card, equal to it) of a move that leaves the state's key as it
    was: a run moved from a parent to the parent's twin, where the key names a state by
    its arrangement (``alternating.arrangement``). The same state with no obligation is
    then its parent's own, whose search is what makes this child, and nothing else
    does: the search opens it without its table, and leaves out its move back
    (``dfs.search``). As an obligation it is the same as any other about its card (it
    is equal to the card)."""


Child = tuple[tuple[Move, ...], Position, Move, Tag]
"""A child, made lazily: the engine moves that lead to it, the position and move
whose ``apply`` gives it (the position is only built when the search gets there), and
the obligation it carries."""


class Adapter:
    """The generic adapter: every legal move, the engine's own key, no shortcuts."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # With unlimited redeals the redeal counter does not change what can be done;
        # leaving it in the key would make the state space infinite.
        self.count_redeals = game.max_redeals is not None
        # Set when a move was cut off without a proof that no win is lost: the search
        # may still find a win, but it no longer proves a loss.
        self.incomplete = False

    def key(self, p: Position) -> Hashable:
        """A canonical key: positions with equal keys have the same future."""
        k = p.key()
        return k if self.count_redeals else k[:-1]

    prune = True
    """Whether to use the game's proven cuts (obligations, relaxations); off only to
    check them against the same search without them."""

    direct_lines = False
    """Whether the search's winning lines have no detour to cut (``lines.shorten``, which
    ``search.solve`` then skips; the line is replayed through the rules all the same)."""

    schedule = Schedule()
    """The game's pass schedule (``schedule.run``): the generic one, by default."""

    jitter: random.Random | None = None
    """Set only during a jittered restart: the random source of an adapter that jitters
    its move order (Baker's Dozen); None: its own order."""

    shuffle = False
    """Set only during a shuffled restart (with ``jitter``): the moves home first, the
    others in an order drawn from ``jitter`` alone (Baker's Dozen)."""

    def runner(self, p: Position, budget: Budget, table_size: int) -> Runner | None:
        """A runner of the schedule's stages from ``p`` on a faster representation (a
        native module), or None for the reference search (``dfs``)."""
        return None

    def own_search(
        self, p: Position, budget: Budget, table_size: int
    ) -> tuple[Verdict, list[Move]] | None:
        """The verdict and winning line of a search that runs the whole schedule by
        itself (Hopscotch's native one), or None: ``search.decide`` runs the schedule."""
        return None

    def cost(self, p: Position) -> int:
        """A resource used up that the key leaves out: of two positions with the same key,
        the one with the lower cost can do everything the other can (0: none)."""
        return 0

    def dominators(self, p: Position) -> tuple[Hashable, ...]:
        """Keys of states that dominate ``p`` at any cost (each can do all ``p`` can): an
        exhaustive search that searched one of them need not search ``p`` (none here)."""
        return ()

    def estimate(self, p: Position, which: int) -> int:
        """How far ``p`` looks from a win by the adapter's estimate number ``which`` (lower:
        closer), for a best-first search (``best.py``); the schedule says how many there
        are (``Schedule.estimates``: none here)."""
        raise NotImplementedError

    def auto(self, p: Position) -> tuple[list[Move], Position]:
        """Moves that are proven safe to make at once, and the position after them."""
        return [], p

    def finish(self, p: Position) -> list[Move] | None:
        """A winning line found without search (or None when there is no shortcut)."""
        return None

    def children(self, p: Position, tag: Tag = None) -> list[Child]:
        """Every successor worth trying, best first, honouring the obligation ``tag``."""
        g = self.game
        return [((m,), p, m, None) for m in g.legal_moves(p)]

    def guess(self, p: Position) -> Move | None:
        """A plausible move when the search could not decide: a safe move home, else
        the move the search would try first."""
        auto_moves, _ = self.auto(p)
        if auto_moves:
            return auto_moves[0]
        kids = self.children(p)
        return kids[0][0][0] if kids else None
