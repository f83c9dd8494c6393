"""The games being played: engine sessions kept in memory, written through to the store.

Every change is applied to the session first (the engine refuses an illegal move before
touching anything), then saved in one transaction before the reply goes out. If the
save fails (the disk, or another process saved a newer state of the game) the cached
session is dropped, so memory never runs ahead of the disk.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from .. import assist
from ..cards import rank_text
from ..errors import InvalidPositionError, PatienceError
from ..fair import Knowledge, player_view
from ..fair.greedy import state_key
from ..games import GAMES, game_for, get_game, position_from_json
from ..games.describe import describe
from ..i18n import _
from ..moves import PILES, Move
from ..position import Position
from ..rules.marks import table_marks
from ..rules.refusals import has_pile
from ..session import Session
from ..store import Store
from ..store_records import GameRecord
from .api_models import GameView, PositionView, Status
from .game_models import Marks, TableJSON

IDLE_CAP = 30.0
"""Longest pause between two requests that the game clock counts, in seconds."""

RANDOM_DEALS = 1_000_000_000
"""Random deals are drawn from 1 .. RANDOM_DEALS - 1 (short numbers, easy to share)."""

CACHE_SIZE = 64


class ApiError(Exception):
    """An error reply: HTTP status, code, English template and its parameters."""

    def __init__(self, status: int, code: str, template: str, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.status = status
        self.code = code
        self.template = template
        self.params = params


def not_found(game_id: str) -> ApiError:
    """The error for an unknown or stale game id."""
    return ApiError(404, "unknown_game_id", _("There is no game {id}"), id=game_id)


@dataclass
class Live:
    """A game in memory: its stored record and its engine session."""

    record: GameRecord
    session: Session
    autoplayed: tuple[str, ...] = ()
    """The moves auto-play made after the last change (the page shows them one by one)."""


class Service:
    """Create, load, change and describe games; the single authority on rules."""

    def __init__(
        self, store: Store, idle_cap: float = IDLE_CAP, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.idle_cap = idle_cap
        self.clock = clock
        self.lock = threading.RLock()
        self._cache: OrderedDict[str, Live] = OrderedDict()

    # --- creating and loading ------------------------------------------------------------

    def start_position(
        self,
        game: str | None,
        options: dict[str, str],
        deal: int | None,
        position: dict[str, Any] | None,
    ) -> Position:
        """The first position of a new game (validates everything, raises PatienceError)."""
        if position is not None:
            try:
                start = position_from_json(position)
            except PatienceError:
                raise
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                # Position.from_json checks its input; this only guards odd shapes.
                raise InvalidPositionError([str(exc)]) from exc
            if game is not None and game != start.game:
                raise ApiError(
                    422,
                    "invalid_position",
                    _("The position is a game of {found}, not {game}"),
                    found=start.game,
                    game=game,
                )
            if options and get_game(start.game, options).options != start.options:
                raise ApiError(
                    422, "invalid_position", _("The position's options differ from 'options'")
                )
            return start
        if game is None:
            raise ApiError(422, "missing_game", _("Say which game to deal ('game')"))
        rules = get_game(game, options)
        if deal is None:
            deal = random.randrange(1, RANDOM_DEALS)
        return rules.new_position(deal)

    def create(self, start: Position, notice: str | None = None, daily: str | None = None) -> Live:
        """Save a new game from ``start`` (the deal of the day ``daily``, YYYY-MM-DD, or
        None); the game in progress counts as abandoned."""
        now = self.clock()
        session = Session(start)
        record = GameRecord(
            id=uuid.uuid4().hex,
            game=start.game,
            options=dict(start.options),
            deal=start.deal,
            session=session.to_json(),
            created=now,
            updated=now,
            score=session.score,
            notice=notice,
            daily=daily,
        )
        with self.lock:
            finished = self.store.insert_game(record, finish_others_at=now)
            for game_id in finished:
                other = self._cache.get(game_id)
                if other is not None:
                    other.record.finished = True
                    other.record.version += 1  # as the store did
            live = Live(record, session)
            self._remember(live)
        return live

    def get(self, game_id: str) -> Live:
        """The game ``game_id`` (404 when there is none)."""
        with self.lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
                return live
            if len(game_id) > 64:
                raise not_found(game_id[:64])
            try:
                record = self.store.get_game(game_id)
                if record is None:
                    raise not_found(game_id)
                session = Session.from_json(record.session)
            except (PatienceError, KeyError, TypeError, ValueError) as exc:
                # A save that is damaged or no longer replays (edited by hand, rules
                # changed): set it aside so that the page can start afresh instead of
                # failing on every load. The store logs it, once: it is never read again.
                self.store.set_aside(game_id)
                raise ApiError(
                    404, "unreadable_game", _("Game {id} can no longer be read"), id=game_id
                ) from exc
            live = Live(record, session)
            self._remember(live)
            return live

    def current(self) -> Live | None:
        """The game played last and not finished, if any.

        Unreadable saves are set aside on the way; the game shown then says so (once).
        """
        skipped = False
        while True:
            game_id = self.store.current_id()
            if game_id is None:
                return None
            try:
                live = self.get(game_id)
            except ApiError as exc:
                if exc.code == "unknown_game_id":  # an id no request could name (edited)
                    self.store.set_aside(game_id)
                elif exc.code != "unreadable_game":
                    raise
                skipped = True
                continue
            if skipped:
                self.set_notice(live, _("A saved game could not be read and was set aside"))
            return live

    def _remember(self, live: Live) -> None:
        self._cache[live.record.id] = live
        self._cache.move_to_end(live.record.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    # --- changing ----------------------------------------------------------------------

    def change(
        self, game_id: str, action: Callable[[Session], str | None], assisted: bool = False
    ) -> Live:
        """Apply ``action`` to the session, tick the clock, save; all or nothing.

        ``action`` raises (and changes nothing) when refused, or returns the text of the
        last move played (None when the action is not a move, like undo). ``assisted``:
        the solver chose the move ("Show me"), and a win then is not the player's own.
        """
        with self.lock:
            live = self.get(game_id)
            session, record = live.session, live.record
            before_elapsed = session.elapsed
            now = self.clock()
            ticked = self.elapsed(live, now)  # before the move: the winning move counts too
            live.autoplayed = ()
            last_move = action(session)
            try:
                record.assisted = record.assisted or assisted
                session.elapsed = ticked
                record.updated = now
                record.started = record.started or bool(session.moves)
                # Played again (an undo after the win, a move in a tab of an abandoned
                # game): the game is in progress, the one to reopen; its result stays
                # recorded once (a lost one becomes a win if it is won yet).
                record.finished = record.finished and session.won
                record.last_move = last_move
                record.notice = None
                record.score = session.score
                record.session = session.to_json()
                # Recording is idempotent (one row per game id); a game abandoned in one
                # tab and then won in another becomes a win.
                result = "won" if session.won else None
                self.store.save_game(record, result=result)
            except BaseException:
                # Memory must not run ahead of the disk: reload from the store next time.
                session.elapsed = before_elapsed
                self._cache.pop(game_id, None)
                raise
            return live

    def elapsed(self, live: Live, now: float) -> float:
        """The game clock at ``now``: stored time plus the pause since, capped."""
        session, record = live.session, live.record
        if not record.started or record.finished or session.won:
            return session.elapsed
        gap = min(max(now - record.updated, 0.0), self.idle_cap)
        return session.elapsed + gap

    def move(self, game_id: str, text: str, assisted: bool = False, autoplay: bool = False) -> Live:
        """Play one move given in notation (``assisted``: the solver's, by "Show me";
        ``autoplay``: then send home every card it is proven safe to, see ``autoplay``)."""
        move = Move.parse(text)

        def act(s: Session) -> str:
            s.play(move)
            return str(move)

        return self.change(game_id, self.autoplay(game_id, act, autoplay), assisted)

    def autoplay(
        self, game_id: str, act: Callable[[Session], str], on: bool
    ) -> Callable[[Session], str]:
        """``act`` followed, when ``on``, by the moves auto-play makes: the solver's
        proven-safe moves to the foundations, marked automatic in the session (one undo
        takes them back with the player's move) and listed in the view (``autoplayed``)
        for the page to show. They are the rules' moves, not the solver's advice: a game
        auto-played is not assisted."""
        if not on:
            return act

        def act_and_autoplay(s: Session) -> str:
            last = act(s)
            safe = assist.safe_moves(s.position)
            for m in safe:
                s.play(m, automatic=True)
            self._cache[game_id].autoplayed = tuple(str(m) for m in safe)
            return " ".join([last, *(str(m) for m in safe)])

        return act_and_autoplay

    def undo(self, game_id: str) -> Live:
        """Take back the last move (409 when there is none)."""

        def act(s: Session) -> None:
            if not s.can_undo:
                raise ApiError(409, "nothing_to_undo", _("There is no move to undo"))
            s.undo_turn()

        return self.change(game_id, act)

    def redo(self, game_id: str) -> Live:
        """Replay the last undone move (409 when there is none)."""

        def act(s: Session) -> str:
            if not s.can_redo:
                raise ApiError(409, "nothing_to_redo", _("There is no move to redo"))
            return " ".join(str(m) for m in s.redo_turn())

        return self.change(game_id, act)

    def restart(self, game_id: str) -> Live:
        """Back to the first position of the deal (the clock keeps running)."""

        def act(s: Session) -> None:
            s.restart()

        return self.change(game_id, act)

    def foundation(self, game_id: str, pile: str, autoplay: bool = False) -> Live:
        """Send the top card of ``pile`` to a foundation (409 when it cannot go; ``autoplay``
        as for ``move``)."""
        name = {"stock": "s", "waste": "w"}.get(pile.strip().lower(), pile.strip().lower())
        if name not in PILES or name.startswith("f"):
            raise ApiError(
                422,
                "invalid_pile",
                _("{pile} is not a pile that can send a card to a foundation"),
                pile=pile,
            )

        def act(s: Session) -> str:
            if not has_pile(s.game, s.position, name):
                raise ApiError(
                    409,
                    "no_foundation_move",
                    _("{game} has no pile {pile}"),
                    game=s.game.title,
                    pile=name,
                )
            move = s.foundation_move(name)
            if move is None:
                raise ApiError(
                    409,
                    "no_foundation_move",
                    _("The top card of {pile} cannot go to a foundation"),
                    pile=name,
                )
            s.play(move)
            return str(move)

        return self.change(game_id, self.autoplay(game_id, act, autoplay))

    def autofinish(self, game_id: str) -> Live:
        """Play every card that can go to the foundations (409 when none can)."""

        def act(s: Session) -> str:
            played = s.auto_finish()
            if not played:
                raise ApiError(409, "nothing_to_finish", _("No card can go to a foundation"))
            return " ".join(str(m) for m in played)

        return self.change(game_id, act)

    def undo_to(self, game_id: str, moves_left: int, expected: int) -> Live:
        """Undo back to ``moves_left`` moves, if the game still has ``expected`` moves."""

        def act(s: Session) -> None:
            if len(s.moves) != expected:
                raise ApiError(
                    409, "game_changed", _("The game changed while the solver was thinking")
                )
            while len(s.moves) > moves_left:
                s.undo()

        return self.change(game_id, act)

    def mark_assisted(self, game_id: str) -> Live:
        """Record that the solver looked at the face-down cards for this game (a proven
        hint, the winnable indicator, rewind): a win then counts apart, as after "Show me"."""
        with self.lock:
            live = self.get(game_id)
            if not live.record.assisted:
                live.record.assisted = True
                try:
                    self.store.save_game(live.record)
                except BaseException:
                    self._cache.pop(game_id, None)
                    raise
            return live

    def player_state(self, game_id: str) -> tuple[Position, Knowledge, frozenset[Hashable]]:
        """The game's position, what the player knows of it, and the ``state_key`` of every
        position of its history (fair advice must not lead back to one), taken together."""
        with self.lock:
            s = self.get(game_id).session
            return s.position, s.knowledge, frozenset(state_key(p) for p in s.history)

    def set_notice(self, live: Live, notice: str | None) -> None:
        """Attach a notice to the game's next view (saved with it)."""
        with self.lock:
            live.record.notice = notice
            try:
                self.store.save_game(live.record)
            except BaseException:
                self._cache.pop(live.record.id, None)
                raise

    # --- describing ----------------------------------------------------------------------

    def view_after(self, change: Callable[[], Live]) -> GameView:
        """Make ``change`` and describe the game it leaves, under the lock: the reply is
        one moment of the game, even when another request on it comes meanwhile."""
        with self.lock:
            return self.view(change())

    def view(self, live: Live) -> GameView:
        """The GameView of a game (see the API contract), at one moment of it."""
        with self.lock:
            return self._view(live)

    def _view(self, live: Live) -> GameView:
        s, record = live.session, live.record
        p = s.position
        rules = game_for(p)
        legal = rules.legal_moves(p)
        won = rules.is_won(p)
        status: Status = "won" if won else ("playing" if legal else "stuck")
        return GameView(
            id=record.id,
            game=p.game,
            title=rules.title,
            options=dict(p.options),
            deal=p.deal,
            # The server keeps the full position: the page gets only what the player saw.
            position=PositionView.model_validate(player_view(p, s.knowledge)),
            legal_moves=[str(m) for m in legal],
            score=rules.score(p),
            max_score=52 - rules.score_offset,
            moves_made=len(s.moves),
            elapsed=round(self.elapsed(live, self.clock()), 3),
            can_undo=s.can_undo,
            can_redo=s.can_redo,
            status=status,
            stock_count=len(p.stock),
            redeals=p.redeals,
            redeals_left=rules.redeals_left(p),
            base=None if p.base is None else rank_text(p.base),
            last_move=record.last_move,
            autoplayed=list(live.autoplayed),
            notice=record.notice,
            finished=record.finished,
            assisted=record.assisted,
            daily=record.daily,
            undo_count=len(s.moves),
            redo_count=len(s.redo_stack),
            table=TableJSON.model_validate(rules.table().to_json()),
            marks=Marks.model_validate(table_marks(rules, p)),
        )


def game_list() -> list[dict[str, Any]]:
    """Every game as it declares itself (with its default options), and those defaults."""
    out = []
    for name in GAMES:
        info = describe(get_game(name, {}))
        # The options as the API has always listed them: each key with its values, the
        # default first; ``choices`` adds their labels.
        info["options"] = {o["key"]: [v["value"] for v in o["values"]] for o in info["choices"]}
        info["defaults"] = {o["key"]: o["default"] for o in info["choices"]}
        # The help's sample is a deal a player may play: its face-down cards stay hidden.
        sample = position_from_json(info["sample"]["position"])
        info["sample"]["position"] = player_view(sample, Knowledge.start(sample))
        out.append(info)
    return out
