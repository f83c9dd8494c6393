"""Help from the solver, for the web page and the command line alike: hints (with a cache
of what is already proven), the move to suggest when the solver cannot decide, rewinding
to the last winnable position, and drawing a deal that is proven winnable.

This is the application layer: it calls the engine and the solver, keeps no I/O of its
own, and both shells (``web``, ``cli``) call it instead of the solver directly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Protocol, cast

from . import solver
from .errors import PatienceError
from .games import game_for, get_game
from .moves import PILES, Move
from .position import Position

log = logging.getLogger(__name__)


class Cancel(Protocol):
    """What tells a search its answer is no longer wanted (a threading or a
    multiprocessing Event: the web app runs searches in worker processes)."""

    def is_set(self) -> bool:
        """Whether the search must stop."""
        ...  # pragma: no cover


def as_event(cancel: Cancel | None) -> threading.Event | None:
    """``cancel`` as the solver's signatures name it: the solver only asks ``is_set``,
    which a multiprocessing Event answers as a threading one does."""
    return cast("threading.Event | None", cancel)


def compute_hint(position: Position, timeout: float, cancel: Cancel) -> dict[str, Any]:
    """The hint for ``position``: the solver's, or a useful legal move with 'unknown'
    (when the solver cannot decide, or fails)."""
    try:
        h = solver.hint(position, timeout=timeout, cancel=as_event(cancel))
        move = h.move
        if move is None and h.verdict == "unknown":
            move = useful_move(position)
        return {
            "verdict": h.verdict,
            "move": None if move is None else str(move),
            "line": [str(m) for m in h.line],
        }
    except PatienceError:
        raise
    except Exception:  # noqa: BLE001 - a solver bug must not cost the player the game
        log.exception("solver hint failed; falling back to a useful move")
    move = useful_move(position)
    verdict = "unknown"
    if move is None:
        rules = game_for(position)
        verdict = "winnable" if rules.is_won(position) else "lost"
    return {"verdict": verdict, "move": None if move is None else str(move), "line": []}


class HintCache:
    """Solver verdicts already proven, by position, shared by every hint request.

    A winning line proves every position along it winnable, with the rest of the line as
    its hint: following a hint, "Show me" and the winnable indicator then answer at once
    and never fall back from "winnable" to "unknown" on a busy machine. A lost verdict is
    kept as well; "unknown" is not (more time may decide it).
    """

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        # key -> (verdict, the whole line, where this position is on it): one line shared.
        self._known: OrderedDict[tuple[Any, ...], tuple[str, tuple[str, ...], int]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(position: Position) -> tuple[Any, ...]:
        return (position.game, position.options, position.base, position.key())

    def get(self, position: Position) -> dict[str, Any] | None:
        """The cached hint for ``position``, or None."""
        with self._lock:
            known = self._known.get(self._key(position))
            if known is None:
                return None
            self._known.move_to_end(self._key(position))
        verdict, line, k = known
        rest = list(line[k:])
        return {"verdict": verdict, "move": rest[0] if rest else None, "line": rest}

    def learn(self, position: Position, hint: dict[str, Any]) -> None:
        """Remember a proven verdict: every position along a winning line, or a loss."""
        entries: list[tuple[tuple[Any, ...], tuple[str, tuple[str, ...], int]]] = []
        if hint["verdict"] == "lost":
            entries.append((self._key(position), ("lost", (), 0)))
        elif hint["verdict"] == "winnable" and hint["line"]:
            rules = game_for(position)
            line = tuple(hint["line"])
            p = position
            try:
                for k in range(len(line)):
                    entries.append((self._key(p), ("winnable", line, k)))
                    p = rules.play(p, Move.parse(line[k]))
            except PatienceError:
                p = position  # not a win: caught just below
            if not rules.is_won(p):
                # A solver bug must not be remembered, nor cost the player the hint itself.
                log.error("hint line does not replay to a win; not remembered")
                return
        with self._lock:
            for key, value in entries:
                self._known[key] = value
                self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)


def find_rewind(history: list[Position], budget: float, cancel: Cancel) -> int | None:
    """The most moves to keep so that the position is proven winnable, or None.

    Winnability only ever goes from true to false along a game (a later position is
    reached from an earlier one by legal moves), so a binary search over the history
    finds the last winnable position in a few solver calls.
    """
    deadline = time.monotonic() + budget

    def won(k: int) -> bool:
        left = deadline - time.monotonic()
        if left <= 0 or cancel.is_set():
            return False
        result = solver.solve(history[k], timeout=min(left, 3.0), cancel=as_event(cancel))
        return bool(result.result == "won")

    n = len(history) - 1
    if won(n):
        return n
    lo, hi = -1, n  # history[hi] is not proven winnable; history[lo] is (when lo >= 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if won(mid):
            lo = mid
        else:
            hi = mid
    return lo if lo >= 0 else None


def safe_moves(position: Position) -> list[Move]:
    """The moves auto-play makes after a player's move: the solver's proven-safe moves to
    the foundations (``solver.safe_moves``)."""
    return list(solver.safe_moves(position))


def useful_move(position: Position) -> Move | None:
    """A legal move worth trying, by simple rules (the hint when no solver is at hand).

    Preference: to a foundation; a tableau move that turns a card up or empties a pile;
    from the waste, stock or reserves to the tableau; deal; any other tableau move.
    Moves from a foundation back down are never suggested.
    """
    rules = game_for(position)
    moves = rules.legal_moves(position)
    best: tuple[int, int] | None = None
    choice: Move | None = None
    for order, m in enumerate(moves):
        if m.is_deal:
            rank = 4
        elif m.src.startswith("f"):
            continue
        elif m.dst.startswith("f"):
            rank = 0
        elif m.src.startswith("t"):
            i = PILES[m.src][1]
            pile = position.tableau[i]
            uncovers = len(pile) - m.count
            if uncovers == 0 and m.dst.startswith("t") and not position.tableau[PILES[m.dst][1]]:
                continue  # a whole pile to an empty pile changes nothing
            if uncovers == 0 or uncovers <= position.down[i]:
                rank = 1
            else:
                rank = 5
        else:
            rank = 2
        if best is None or (rank, order) < best:
            best, choice = (rank, order), m
    return choice


def winnable_deal(
    game: str, options: Mapping[str, str], first: int, budget: float, cancel: Cancel | None = None
) -> Position | None:
    """The first deal from ``first`` on that the solver proves winnable within ``budget``
    seconds (at most 2 s a deal), as its starting position; None when none was found
    (or ``cancel`` was set)."""
    per_deal = min(2.0, budget)
    deal = solver.find_winnable(
        game, dict(options), first, budget=budget, per_deal=per_deal, cancel=as_event(cancel)
    )
    return None if deal is None else get_game(game, options).new_position(int(deal))
