"""The research commands: ``patience study`` (solve or fairly play a range of deals,
locally or on a Dask cluster, resumably) and ``patience report`` (their tables)."""

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .cli_app import JsonOpt, OptionOpt, app, emit, fail, guarded, parse_options, timeout_option
from .cli_values import MAX_JOBS, MAX_SAMPLES, MAX_TABLE_SIZE, path, seconds, whole_number
from .errors import PatienceError
from .games import GAMES, get_game
from .position import heading
from .rules import Game

if TYPE_CHECKING:
    from .fair.advisor import Settings


StudyGame = Annotated[
    str, typer.Argument(help=f"Game: {', '.join(GAMES)}.", show_default=False, metavar="GAME")
]
DealsOpt = Annotated[
    str,
    typer.Option(
        "--deals", help="Deal numbers: N, N-M, or a comma list of them.", metavar="RANGES"
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help=f"Worker processes, up to {MAX_JOBS} (0 = every core).",
        parser=whole_number(0, MAX_JOBS),
        metavar="N",
    ),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Solve on the Dask cluster whose scheduler is at ADDRESS (tcp://host:port, "
        "or a scheduler file) instead of this machine's cores; needs patience[cluster].",
        metavar="ADDRESS",
    ),
]
StudyTimeoutOpt = Annotated[
    float, timeout_option("CPU seconds per deal before 'unknown' (the same on a busy machine).")
]
StudyDbOpt = Annotated[
    Path,
    typer.Option(
        "--db",
        help="SQLite file of results (a rerun skips stored deals).",
        parser=path,
        metavar="FILE",
    ),
]
TableSizeOpt = Annotated[
    int,
    typer.Option(
        "--table-size",
        help="States each worker's transposition table keeps (memory: up to 32 bytes times"
        " the power of two at or above 16 N; the default, 1 GiB; 20,000,000: 16 GiB).",
        parser=whole_number(1000, MAX_TABLE_SIZE),
        metavar="N",
    ),
]
FairOpt = Annotated[
    bool,
    typer.Option(
        "--fair",
        help="Play each deal with the fair bot, which knows only what a player would "
        "(docs/fair-play.md), instead of solving it knowing every card; stored apart.",
    ),
]
StockKnownOpt = Annotated[
    bool,
    typer.Option(
        "--stock-known",
        help="With --fair, Klondike only: the stock's cards are known from the start "
        "(the setting of Bjarnason, Fern & Tadepalli 2009); without it, unseen until "
        "turned, as in the real game.",
    ),
]
SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        help="With --fair: arrangements of the unseen cards per decision (default 12).",
        parser=whole_number(1, MAX_SAMPLES),
        metavar="N",
    ),
]
MaxStatesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-states",
        help="With --fair: states per solve of one arrangement (default 20000).",
        parser=whole_number(1, MAX_TABLE_SIZE),
        metavar="N",
    ),
]
BudgetOpt = Annotated[
    float | None,
    typer.Option(
        "--budget",
        help="With --fair: CPU seconds per decision at most (default 2).",
        parser=seconds,
        metavar="SECONDS",
    ),
]

THOUGHTFUL_ONLY = ("timeout", "table_size")
"""The options of the solver that sees every card, refused with --fair."""
FAIR_ONLY = ("stock_known", "samples", "max_states", "budget")
"""The options of the fair bot, refused without --fair."""


@app.command()
def study(
    ctx: typer.Context,
    game: StudyGame,
    deals: DealsOpt = "1-1000",
    option: OptionOpt = None,
    jobs: JobsOpt = 0,
    cluster: ClusterOpt = None,
    timeout: StudyTimeoutOpt = 30.0,
    db: StudyDbOpt = Path("patience-study.db"),
    table_size: TableSizeOpt = 2_000_000,
    as_json: JsonOpt = False,
    fair: FairOpt = False,
    stock_known: StockKnownOpt = False,
    samples: SamplesOpt = None,
    max_states: MaxStatesOpt = None,
    budget: BudgetOpt = None,
) -> None:
    """Solve a range of deals in parallel and summarise: won, lost, unknown, win %, times.

    With --fair, a bot plays them knowing only what a player would.
    """
    settings = fair_settings(samples, max_states, budget)
    workers = Workers(cluster, jobs)

    def run() -> tuple[Game, Any]:
        from .study.deals import parse_deals

        numbers = parse_deals(deals)
        rules = get_game(game, parse_options(option))
        if fair:
            refuse_given(ctx, THOUGHTFUL_ONLY, "{flag} is the thoughtful solver's, not for --fair")
            return rules, run_fair(rules, numbers, workers, settings, stock_known, db, as_json)
        refuse_given(ctx, FAIR_ONLY, "{flag} needs --fair")
        return rules, run_thoughtful(rules, numbers, workers, timeout, db, table_size, as_json)

    try:
        rules, summary = guarded(run)
    except KeyboardInterrupt:
        done = "played" if fair else "solved"
        fail(f"interrupted: every deal {done} so far is stored in {db}", 130)
    show_summary(rules, summary, settings if fair else None, stock_known, as_json)


def fair_settings(samples: int | None, max_states: int | None, budget: float | None) -> "Settings":
    """The fair bot's settings: ``Settings()``'s, less those given on the command line."""
    from .fair.advisor import Settings  # the solver: imported only by the commands using it

    # The help's defaults are Settings()'s (tests/test_study_fair.py checks them).
    d = Settings()
    return replace(
        d,
        samples=d.samples if samples is None else samples,
        max_states=d.max_states if max_states is None else max_states,
        budget=d.budget if budget is None else budget,
    )


@dataclass(frozen=True)
class Workers:
    """Where a study's deals are solved: on the Dask cluster whose scheduler is at
    ``cluster``, or in ``jobs`` processes of this machine (0: one per core)."""

    cluster: str | None
    jobs: int

    def runner(self, work: Callable[[Any], Any]) -> Any:
        """The runner that calls ``work`` on each deal, there."""
        if self.cluster is not None:
            from .study.cluster import DaskRunner

            if self.jobs:
                raise PatienceError("give --jobs or --cluster, not both")
            return DaskRunner(self.cluster, work)
        from .study.local import LocalRunner

        return LocalRunner(self.jobs or os.cpu_count() or 1, work)


def refuse_given(ctx: typer.Context, names: Iterable[str], message: str) -> None:
    """Refuse the first option of ``names`` given on the command line, with ``message``
    naming it as ``{flag}``."""
    for name in names:
        source = ctx.get_parameter_source(name)  # None or DEFAULT: not on the command line
        if source is not None and source.name != "DEFAULT":
            raise PatienceError(message.format(flag="--" + name.replace("_", "-")))


def run_thoughtful(
    rules: Game,
    numbers: Any,
    workers: Workers,
    timeout: float,
    db: Path,
    table_size: int,
    as_json: bool,
) -> Any:
    """Solve the deals ``numbers`` of ``rules`` knowing every card, stored in ``db``."""
    from .study.run import run_study
    from .study.work import solve_deal

    return run_study(
        rules.name,
        dict(rules.options),
        numbers,
        runner=workers.runner(solve_deal),
        timeout=timeout,
        db=db,
        table_size=table_size,
        show_progress=not as_json,
    )


def run_fair(
    rules: Game,
    numbers: Any,
    workers: Workers,
    settings: "Settings",
    stock_known: bool,
    db: Path,
    as_json: bool,
) -> Any:
    """Play the deals ``numbers`` of ``rules`` with the fair bot, stored in ``db``."""
    from .study.fairplay import run_fair_study
    from .study.work import play_fair

    return run_fair_study(
        rules.name,
        dict(rules.options),
        numbers,
        runner=workers.runner(play_fair),
        settings=settings,
        stock_known=stock_known,
        db=db,
        show_progress=not as_json,
    )


def show_summary(
    rules: Game, summary: Any, fair: "Settings | None", stock_known: bool, as_json: bool
) -> None:
    """Print a study's summary, as JSON or as a table (``fair``: the fair bot's settings,
    for a fair study)."""
    from rich.console import Console

    from .study.run import summary_json, summary_table

    title = heading(rules.title, rules.options)
    data = summary_json(rules.name, dict(rules.options), summary)
    if fair is not None:
        from .study.fairplay import fair_title, setting_of, settings_text

        setting = setting_of(rules.name, stock_known)
        title = fair_title(title, setting)
        data["fair"] = {"setting": setting, "settings": settings_text(fair)}
    if as_json:
        emit(data, True, "")
    else:
        Console().print(summary_table(title, summary))


@app.command()
def report(
    db: Annotated[
        list[Path],
        typer.Option(
            "--db",
            help="A study's SQLite file, or a folder of per-deal results (*.csv.gz); "
            "repeatable, merged.",
            parser=path,
            metavar="SOURCE",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Also write the tables as Markdown to FILE, with PNG plots beside it "
            "(needs patience[report]).",
            parser=path,
            metavar="FILE",
        ),
    ] = None,
    csv_dir: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help="Also write the per-deal results to FOLDER, a compressed CSV file per "
            "game and options.",
            parser=path,
            metavar="FOLDER",
        ),
    ] = None,
) -> None:
    """Summarise study results: win rates (95% intervals), time and states per deal.

    With --out, also writes them as Markdown with PNG plots; with --csv, the per-deal
    results, from which the same command makes the page again.
    """
    from .study.publish import publish

    typer.echo(guarded(lambda: publish(db, out=out, csv_dir=csv_dir)))
