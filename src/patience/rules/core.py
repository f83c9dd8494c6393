"""The generic rules engine: a game declared as data plus a few pure hooks.

Legality lives in one place, ``GameRules.legal_moves``; ``apply`` plays a generated move
without checking it (the solver's path). ``Game`` (``game.py``) adds checked play on
top: it explains refusals (``refusals.py``) and checks positions read from outside
(``problems.py``), both of which read a game through this class alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import ClassVar

from ..cards import RANK, SUIT, Card
from ..errors import InvalidOptionError
from ..moves import DEAL, FOUNDATION, PILES, STOCK, TABLEAU, WASTE, Move
from ..position import Options, Pile, Position
from .build import ALTERNATE_COLOUR, IN_SUIT, next_rank, suits_match
from .declare import N_, Arrangement, Help, Table, piles, row, stock_row
from .refusal import Refusal

F_NAMES = tuple(f"f{i + 1}" for i in range(4))
T_NAMES = tuple(f"t{i + 1}" for i in range(13))
R_NAMES = tuple(f"r{i + 1}" for i in range(7))


class _MoveTable(dict[tuple[str, str, int], Move]):
    """Every move the generator makes, each built once, when first generated: generation
    then only looks it up. (All 4,550 built at import cost 10 ms of every command's
    start, issue 56.)"""

    def __missing__(self, key: tuple[str, str, int]) -> Move:
        move = self[key] = Move(*key)
        return move


_MOVES = _MoveTable()


def _replace(piles: tuple[Pile, ...], i: int, pile: Pile) -> tuple[Pile, ...]:
    return piles[:i] + (pile,) + piles[i + 1 :]


class GameRules:
    """One game's rules: the declaration and the hooks that generate and apply moves.
    A game subclasses ``Game``, which adds checked play to this."""

    name: ClassVar[str]
    title: ClassVar[str]
    option_spec: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Each option key with its values; the first value is the default."""
    tableau_piles: ClassVar[int] = 0
    reserve_piles: ClassVar[int] = 0
    has_stock: ClassVar[bool] = True
    tableau_build: str = ALTERNATE_COLOUR
    """A build policy of ``rules.build``; an option may change it per instance."""
    tableau_cyclic: ClassVar[bool] = False
    base_ends_sequence: ClassVar[bool] = False
    max_run: ClassVar[int] = 13
    """The most cards that ever move as one unit; ``max_run_for`` may lower it per move."""
    empty_takes_any: ClassVar[bool] = False
    """Whether an empty tableau pile takes any card or run (FreeCell); otherwise it takes
    what ``empty_rank`` says."""
    foundation_build: ClassVar[str] = IN_SUIT
    foundation_cyclic: ClassVar[bool] = False
    foundation_to_tableau: ClassVar[bool] = False
    reserve_to_tableau: ClassVar[bool] = False
    waste_to_reserve: ClassVar[bool] = False
    reserve_from_tableau: ClassVar[bool] = False
    """Whether a tableau pile's top card may go onto a reserve that has room (FreeCell's
    free cells); a reserve card then never moves to another reserve."""
    reserve_capacity: ClassVar[int | None] = None
    """The most cards a reserve holds (FreeCell's free cells: 1); None: no limit."""
    score_offset: ClassVar[int] = 0
    """Cards that start on the foundations and do not count towards the score."""
    has_redeals: ClassVar[bool] = False
    """Whether the stock is dealt again (the player is told the redeals left)."""
    option_labels: ClassVar[dict[str, str]] = {}
    """Message ids naming each option key (``"mode"``) and value (``"mode=three"``)."""
    help: ClassVar[Help | None] = None
    reserve_names: ClassVar[tuple[str, str]] = (N_("Reserves"), N_("reserve {n}"))
    """What a player calls the reserves, as message ids: the group (the help's picture)
    and one pile, ``{n}`` its number (messages name it: "free cell 2 is full")."""
    """The game's "How to play"."""
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Translations of the texts this game declares (title, options, help) that the
    package's catalogs do not hold, by language: ``{"es": {"My Game": "Mi juego"}}``.
    The package's own games leave it empty (their texts are in ``locales/``); a game
    from elsewhere brings its own, and the page and the API serve them with the rest."""
    solver_adapter: ClassVar[str | None] = None
    """The solver's pruned search for this game, as ``module:Class`` (imported only by
    the solver, which sits above the rules); None: the generic search."""

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        given = dict(options or {})
        for key, value in given.items():
            if key not in self.option_spec:
                valid = ", ".join(sorted(self.option_spec)) or "none"
                template = "unknown option '{key}' for {game} (valid keys: {valid})"
                raise InvalidOptionError.of(template, key=key, game=self.name, valid=valid)
            if value not in self.option_spec[key]:
                valid = ", ".join(self.option_spec[key])
                template = (
                    "invalid value '{value}' for option '{key}' of {game} (valid values: {valid})"
                )
                raise InvalidOptionError.of(
                    template, value=value, key=key, game=self.name, valid=valid
                )
        self.options: Options = tuple(
            sorted((k, given.get(k, values[0])) for k, values in self.option_spec.items())
        )
        self.option = dict(self.options)

    @property
    def max_redeals(self) -> int | None:
        """How often the waste may be turned over into the stock: 0 (the default) never,
        None without limit. A subclass sets it as a class attribute, or as a property when
        an option decides it (Klondike's mode). The search keeps the redeals used in its
        key only while they are limited."""
        return 0

    def redeals_left(self, p: Position) -> int | None:
        """The redeals the player still has in ``p`` (None: unlimited)."""
        if not self.has_redeals or self.max_redeals is None:
            return None if self.has_redeals else 0
        return max(self.max_redeals - p.redeals, 0)

    def layout(self, deal: int) -> Position:
        """The starting position of deal number ``deal``."""
        raise NotImplementedError

    def empty_rank(self, p: Position) -> int | None:
        """The rank an empty tableau pile accepts (as a card or a run's bottom), if any."""
        return None

    def foundation_start(self, p: Position, i: int) -> int:
        """The rank of the first card of foundation ``i``."""
        return 1

    def foundation_step(self, i: int) -> int:
        """How many ranks each card of foundation ``i`` climbs."""
        return 1

    def max_run_for(self, p: Position, src: int, dst: int) -> int:
        """The most cards that may move as one unit from tableau pile ``src`` to ``dst``
        in ``p`` (the constant ``max_run`` unless a game's room decides it)."""
        return self.max_run

    def stock_playable(self, p: Position) -> bool:
        """Whether the stock's top card is face up and in play."""
        return False

    def deal_refusal(self, p: Position) -> Refusal | None:
        """Why ``deal`` is not legal in ``p``, or None when it is."""
        return Refusal("{game} has no stock", game=self.title)

    def dealt(self, p: Position) -> Position:
        """The position after ``deal`` (unchecked: call only when it is legal)."""
        raise NotImplementedError

    def extra_problems(self, p: Position) -> list[str]:
        """Game-specific checks of a loaded position."""
        return []

    def new_position(self, deal: int) -> Position:
        """Deal number ``deal`` with this game's options."""
        return self.layout(deal)

    def table(self) -> Table:
        """How the table is laid out (``declare``): by default the stock, waste and
        foundations on top, then the reserves, then the tableau, seven columns or more."""
        cols = max(7, self.tableau_piles, self.reserve_piles)
        rows = []
        if self.has_stock:
            rows.append(stock_row(cols - 4))
        else:
            rows.append(row(piles("f", 1, 4), (cols - 4) / 2))
        if self.reserve_piles:
            rows.append(row(piles("r", 1, self.reserve_piles), fan="down", height=1.5))
        if self.tableau_piles:
            rows.append(row(piles("t", 1, self.tableau_piles), fan="down", height=2.7, grows=True))
        return Table((Arrangement(cols, tuple(rows)),))

    def score(self, p: Position) -> int:
        """Cards moved to the foundations."""
        return sum(len(f) for f in p.foundations) - self.score_offset

    def is_won(self, p: Position) -> bool:
        """True when every card is on the foundations."""
        return sum(len(f) for f in p.foundations) == 52

    def is_stuck(self, p: Position) -> bool:
        """True when the game is not won and no legal move is left."""
        return not self.is_won(p) and not self.legal_moves(p)

    def foundation_accepts(self, p: Position, i: int) -> tuple[int, int] | None:
        """(rank, suit) the foundation ``i`` takes next (suit -1: any), or None when full."""
        return self._next_on_foundation(p, i, p.foundations[i])

    def _next_on_foundation(self, p: Position, i: int, f: Pile) -> tuple[int, int] | None:
        if not f:
            return self.foundation_start(p, i), -1
        if len(f) >= 13:
            return None
        top = f[-1]
        rank = next_rank(RANK[top], self.foundation_step(i), self.foundation_cyclic)
        if rank is None:
            return None
        return rank, SUIT[top] if self.foundation_build == IN_SUIT else -1

    def tableau_accepts(self, p: Position, j: int) -> int | None:
        """The rank tableau pile ``j`` takes next (suit rules aside), or None."""
        pile = p.tableau[j]
        if not pile:
            return self.empty_rank(p)
        top = RANK[pile[-1]]
        if self.base_ends_sequence and top == p.base:
            return None
        return next_rank(top, -1, self.tableau_cyclic)

    def builds_on(self, lower: Card, upper: Card) -> bool:
        """Whether ``upper`` may lie on ``lower`` in the tableau, ranks and suits alike."""
        return RANK[upper] == next_rank(RANK[lower], -1, self.tableau_cyclic) and suits_match(
            self.tableau_build, lower, upper
        )

    def run_length(self, p: Position, i: int) -> int:
        """How many top cards of tableau pile ``i`` may move as one unit."""
        pile = p.tableau[i]
        limit = min(len(pile) - p.down[i], self.max_run)
        n = 1 if limit > 0 else 0
        base = p.base if self.base_ends_sequence else 0
        build = self._build_table
        while n < limit:
            lower = pile[-n - 1]
            if RANK[lower] == base or not build[lower * 52 + pile[-n]]:
                break
            n += 1
        return n

    @cached_property
    def _build_table(self) -> list[bool]:
        """builds_on for every (lower, upper) pair, indexed lower * 52 + upper."""
        return [self.builds_on(lower, upper) for lower in range(52) for upper in range(52)]

    @cached_property
    def _below_table(self) -> list[int]:
        """The rank that goes on each card in the tableau (0: none), base rule aside."""
        return [next_rank(RANK[c], -1, self.tableau_cyclic) or 0 for c in range(52)]

    def _foundation_takes(self, p: Position) -> dict[Card, list[str]]:
        """What each foundation takes next: card -> the names of the foundations."""
        f_take: dict[Card, list[str]] = {}
        for i, f in enumerate(p.foundations):
            acc = self._next_on_foundation(p, i, f)
            if acc is None:
                continue
            rank, suit = acc
            for s in (suit,) if suit >= 0 else range(4):
                f_take.setdefault(s * 13 + rank - 1, []).append(F_NAMES[i])
        return f_take

    def legal_moves(self, p: Position) -> list[Move]:
        """Every legal move, useful or not, in a fixed order.

        Sources in the order stock, waste, reserves, foundations, tableau; for each,
        destinations in the order foundations, tableau, reserves; ``deal`` last.
        """
        moves: list[Move] = []
        add = moves.append
        table = _MOVES
        fnd = p.foundations
        tab = p.tableau
        build = self._build_table
        f_take = self._foundation_takes(p)
        # Tableau piles that take something: (index, top card or -1, rank taken).
        base = p.base if self.base_ends_sequence else 0
        below = self._below_table
        empty_rank = self.empty_rank(p) or 0
        any_card = self.empty_takes_any
        dests: list[tuple[int, Card, int]] = []
        for j, pile in enumerate(tab):
            if pile:
                top = pile[-1]
                if below[top] and RANK[top] != base:
                    dests.append((j, top, below[top]))
            elif any_card:
                dests.append((j, -1, 0))
            elif empty_rank:
                dests.append((j, -1, empty_rank))
        # Reserves that take a card: their names (none unless a reserve is built on).
        cap = self.reserve_capacity
        res_room = (
            [R_NAMES[k] for k, r in enumerate(p.reserve) if cap is None or len(r) < cap]
            if self.waste_to_reserve or self.reserve_from_tableau
            else []
        )

        def single(src: str, card: Card, to_tableau: bool, to_foundation: bool = True) -> None:
            if to_foundation:
                for fname in f_take.get(card, ()):
                    add(table[src, fname, 1])
            if to_tableau:
                rank = RANK[card]
                for j, top, need in dests:
                    if (need == rank or not need) and (top < 0 or build[top * 52 + card]):
                        add(table[src, T_NAMES[j], 1])

        if p.stock and self.stock_playable(p):
            single("s", p.stock[-1], True)
        if p.waste:
            single("w", p.waste[-1], True)
            if self.waste_to_reserve:
                for name in res_room:
                    add(table["w", name, 1])
        for i, r in enumerate(p.reserve):
            if r:
                single(R_NAMES[i], r[-1], self.reserve_to_tableau)
        if self.foundation_to_tableau:
            for i, f in enumerate(fnd):
                if f:
                    single(F_NAMES[i], f[-1], True, to_foundation=False)
        to_reserve = res_room if self.reserve_from_tableau else []
        cyclic = self.tableau_cyclic
        max_run = self.max_run
        down = p.down
        for i, pile in enumerate(tab):
            if not pile:
                continue
            src = T_NAMES[i]
            top_card = pile[-1]
            for fname in f_take.get(top_card, ()):
                add(table[src, fname, 1])
            if dests:
                limit = len(pile) - down[i]
                if limit > max_run:
                    limit = max_run
                length = 1
                while length < limit:
                    lower = pile[-length - 1]
                    if RANK[lower] == base or not build[lower * 52 + pile[-length]]:
                        break
                    length += 1
                top_rank = RANK[top_card]
                for j, top, need in dests:
                    if j == i:
                        continue
                    if not need:
                        self._runs_to_empty(p, i, j, length, add)
                        continue
                    n = (need - top_rank) % 13 + 1 if cyclic else need - top_rank + 1
                    if 1 <= n <= length and (top < 0 or build[top * 52 + pile[-n]]):
                        if n == 1 or n <= self.max_run_for(p, i, j):
                            add(table[src, T_NAMES[j], n])
            for name in to_reserve:
                add(table[src, name, 1])
        if self.has_stock and self.deal_refusal(p) is None:
            add(DEAL)
        return moves

    def _runs_to_empty(
        self, p: Position, i: int, j: int, length: int, add: Callable[[Move], None]
    ) -> None:
        """Add the moves of the top card and of every run of up to ``length`` cards of
        tableau pile ``i`` into the empty pile ``j`` that takes any card, as far as there
        is room (``max_run_for``)."""
        most = length if length == 1 else min(length, self.max_run_for(p, i, j))
        src, dst = T_NAMES[i], T_NAMES[j]
        for n in range(1, most + 1):
            add(_MOVES[src, dst, n])

    def is_legal(self, p: Position, move: Move) -> bool:
        """Whether ``move`` is legal in ``p``."""
        return move in self.legal_moves(p)

    def apply(self, p: Position, move: Move) -> Position:
        """Play ``move`` WITHOUT checking it (for the solver, on generated moves only)."""
        if move.is_deal:
            return self.dealt(p)
        skind, i = PILES[move.src]
        dkind, j = PILES[move.dst]
        n = move.count
        stock, waste, fnd, tab, down, res = (
            p.stock,
            p.waste,
            p.foundations,
            p.tableau,
            p.down,
            p.reserve,
        )
        if skind == TABLEAU:
            pile = tab[i]
            cards = pile[-n:]
            rest = pile[:-n]
            tab = _replace(tab, i, rest)
            d = down[i]
            if d and d >= len(rest):
                down = down[:i] + (len(rest) - 1,) + down[i + 1 :]
        elif skind == WASTE:
            cards, waste = waste[-1:], waste[:-1]
        elif skind == STOCK:
            cards, stock = stock[-1:], stock[:-1]
        elif skind == FOUNDATION:
            cards = fnd[i][-1:]
            fnd = _replace(fnd, i, fnd[i][:-1])
        else:
            cards = res[i][-1:]
            res = _replace(res, i, res[i][:-1])
        if dkind == TABLEAU:
            tab = _replace(tab, j, tab[j] + cards)
        elif dkind == FOUNDATION:
            fnd = _replace(fnd, j, fnd[j] + cards)
        else:
            res = _replace(res, j, res[j] + cards)
        return Position(
            p.game, p.options, p.deal, stock, waste, fnd, tab, down, res, p.redeals, p.base
        )

    def foundation_move(self, p: Position, src: str) -> Move | None:
        """The move that sends the top card of ``src`` to a foundation (double-click)."""
        for m in self.legal_moves(p):
            if m.src == src and m.dst.startswith("f"):
                return m
        return None

    def auto_finish(self, p: Position) -> list[Move]:
        """Every move to the foundations that can be made, repeatedly, until none can."""
        played: list[Move] = []
        while True:
            step = next((m for m in self.legal_moves(p) if m.dst.startswith("f")), None)
            if step is None:
                return played
            p = self.apply(p, step)
            played.append(step)
