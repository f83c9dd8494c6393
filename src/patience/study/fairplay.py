"""A fair study: a bot plays each deal knowing only what a player would (``patience.fair``,
docs/fair-play.md), and each deal's won or lost is stored as it ends, resumably, in the
same file as the thoughtful verdicts but in a table of its own (``fair_results``).

A deal the thoughtful solver has proved lost in the same file is lost for every player:
it is stored as lost (``played`` 0) without being played, when the study reaches it
(``Unplayed``), so that a study stopped part-way reports the deals it got through.
The bot's settings are part of what is stored, so a rerun with other settings plays
the deals again beside the first.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from pathlib import Path

from ..errors import PatienceError
from ..fair.advisor import Settings
from ..games import get_game
from ..position import heading
from .db import FairKey, Store, options_text
from .deals import DealRanges
from .run import Runner, say, say_lost, store_all
from .stats import Summary, summarise
from .work import FairRow, FairTask

HOPSCOTCH = Settings(samples=0, method="labels")
"""Hopscotch's bot: the hint's own advice (``hopscotch_rollout.labels_move``: rollouts of the
labels policy, ``PLAYOUTS`` a reserve, seed 0 whatever the deal, the proven line once
nothing is unseen), without the chance beside it (``samples`` 0: no playouts of it)."""


def bot_settings(name: str, settings: Settings) -> Settings:
    """The settings the fair bot of game ``name`` plays with: Hopscotch's, by default
    (``Settings()``), is the hint's advice (``HOPSCOTCH``); other settings given (such as
    ``--samples 8 --budget 60``) are the sampled solves' bot of before, played as asked."""
    return HOPSCOTCH if name == "hopscotch" and settings == Settings() else settings


def settings_text(settings: Settings) -> str:
    """The bot's settings as stored: ``samples=12,max_states=20000,budget=2,...``;
    Hopscotch's advice (method ``labels``, ``bot_settings``):
    ``method=rollouts,playouts=40,search=300,seed=0``, where the rows of ``method=reveal``
    are the sampled solves' bot.

    ``solves=states`` names the bot whose sampled solves are bounded by states alone and
    which plays the solver's proven line where nothing is hidden (``proven`` seconds,
    2026-12-06): the rows stored without it are the bot before, another bot."""
    if settings.method == "labels":
        from ..fair.hopscotch import PLAYOUT_SEARCH, PLAYOUTS

        return f"method=rollouts,playouts={PLAYOUTS},search={PLAYOUT_SEARCH},seed=0"
    s = settings
    return (
        f"samples={s.samples},max_states={s.max_states},budget={s.budget:g},"
        f"method={s.method},shortlist={s.shortlist},solves=states,proven={s.proven:g}"
    )


def setting_of(name: str, stock_known: bool) -> str:
    """The setting's stored name: ``real``, the stock's cards unseen until turned, or
    ``paper``, Klondike's stock known from the start (Bjarnason, Fern & Tadepalli 2009);
    the paper's is Klondike's alone."""
    if stock_known and name != "klondike":
        raise PatienceError(
            f"--stock-known is Klondike's setting (Bjarnason, Fern & Tadepalli 2009), not {name}'s"
        )
    return "paper" if stock_known else "real"


def fair_title(title: str, setting: str) -> str:
    """``Klondike (mode=three), fair play (paper)``."""
    return f"{title}, fair play ({setting})"


def run_fair_study(
    name: str,
    options: Mapping[str, str],
    deals: DealRanges,
    *,
    runner: Runner[FairTask, FairRow],
    settings: Settings,
    stock_known: bool = False,
    db: str | Path = "patience-study.db",
    show_progress: bool = True,
) -> Summary:
    """Play ``deals`` fairly with ``runner`` (whose work is ``play_fair``), skipping the
    deals this bot has stored; the summary of all the stored ones."""
    game = get_game(name, options)  # checks the name and options
    setting = setting_of(game.name, stock_known)
    settings = bot_settings(game.name, settings)
    key: FairKey = (
        game.name,
        options_text(dict(game.options)),
        setting,
        settings_text(settings),
    )
    title = fair_title(heading(game.title, game.options), setting)
    store = Store(db)
    try:
        store.make_fair()
        skip = store.fair_done(key)
        lost = Unplayed(
            store, key, [d for d in sorted(store.proved_lost(*key[:2]) - skip) if d in deals]
        )
        skip.update(lost.deals)
        todo = deals.count - sum(d in deals for d in skip)
        if not todo:
            lost.store_below(None)
            if show_progress:
                say(f"{title}: all {deals.count} deals already stored in {db}")
            return summarise(store.fair_rows(key, deals))
        tasks = (
            (game.name, dict(game.options), d, stock_known, settings)
            for d in deals
            if d not in skip
        )
        with closing(runner(tasks, todo)) as rows:
            store_all(rows, lost.put_played, title, todo, show_progress)
        lost.store_below(None)
        say_lost(title, runner.lost)
        return summarise(store.fair_rows(key, deals))
    finally:
        store.close()


class Unplayed:
    """The deals proved lost, stored as lost without being played, as the study reaches
    them: each with the first deal played after it, the rest when the study ends. A
    study stopped part-way then holds no lost deal beyond the ones it played, which
    would lower its win rate until it ended."""

    def __init__(self, store: Store, key: FairKey, deals: list[int]) -> None:
        self.store, self.key = store, key
        self.deals = deals
        self._next = 0

    def put_played(self, row: FairRow) -> None:
        """Store a played deal's row, and the lost deals below it."""
        self.store.put_fair(self.key, [row], played=True)
        self.store_below(row[0])

    def store_below(self, deal: int | None) -> None:
        """Store the lost deals below ``deal`` not stored yet (None: all of them)."""
        end = self._next
        while end < len(self.deals) and (deal is None or self.deals[end] < deal):
            end += 1
        if end == self._next:  # nothing to store: no write, no commit
            return
        rows = ((d, "lost", 0.0, 0, 0) for d in self.deals[self._next : end])
        self.store.put_fair(self.key, rows, played=False)
        self._next = end
