"""A fair study: a bot plays each deal knowing only what a player would (``patience.fair``,
docs/fair-play.md), and each deal's won or lost is stored as it ends, resumably, in the
same file as the thoughtful verdicts but in a table of its own (``fair_results``).

A deal the thoughtful solver has proved lost in the same file is lost for every player:
it is stored as lost (``played`` 0) without being played. The bot's settings are part of
what is stored, so a rerun with other settings plays the deals again beside the first.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from functools import partial
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


def settings_text(settings: Settings) -> str:
    """The bot's settings as stored: ``samples=12,max_states=20000,budget=2,...``."""
    s = settings
    return (
        f"samples={s.samples},max_states={s.max_states},budget={s.budget:g},"
        f"method={s.method},shortlist={s.shortlist}"
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
    key: FairKey = (game.name, options_text(dict(game.options)), setting, settings_text(settings))
    title = fair_title(heading(game.title, game.options), setting)
    store = Store(db)
    try:
        store.make_fair()
        skip = store.fair_done(key)
        lost = [d for d in sorted(store.proved_lost(key[0], key[1]) - skip) if d in deals]
        store.put_fair(key, ((d, "lost", 0.0, 0, 0) for d in lost), played=False)
        skip.update(lost)
        todo = deals.count - sum(d in deals for d in skip)
        if not todo:
            if show_progress:
                say(f"{title}: all {deals.count} deals already stored in {db}")
            return summarise(store.fair_rows(key, deals))
        tasks = (
            (game.name, dict(game.options), d, stock_known, settings)
            for d in deals
            if d not in skip
        )
        with closing(runner(tasks, todo)) as rows:
            put = partial(_put_one, store, key)
            store_all(rows, put, title, todo, show_progress)
        say_lost(title, runner.lost)
        return summarise(store.fair_rows(key, deals))
    finally:
        store.close()


def _put_one(store: Store, key: FairKey, row: FairRow) -> None:
    store.put_fair(key, [row], played=True)
