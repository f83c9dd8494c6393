"""The research commands: ``patience study`` (solve or fairly play a range of deals,
locally or on a Dask cluster, resumably) and ``patience report`` (their tables)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from .cli_app import JsonOpt, OptionOpt, app, emit, fail, guarded, parse_options, timeout_option
from .cli_values import MAX_JOBS, MAX_SAMPLES, MAX_TABLE_SIZE, path, seconds, whole_number
from .errors import PatienceError
from .games import GAMES, get_game
from .position import heading


@app.command()
def study(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Argument(help=f"Game: {', '.join(GAMES)}.", show_default=False, metavar="GAME")
    ],
    deals: Annotated[
        str,
        typer.Option(
            "--deals", help="Deal numbers: N, N-M, or a comma list of them.", metavar="RANGES"
        ),
    ] = "1-1000",
    option: OptionOpt = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            help=f"Worker processes, up to {MAX_JOBS} (0 = every core).",
            parser=whole_number(0, MAX_JOBS),
            metavar="N",
        ),
    ] = 0,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            help="Solve on the Dask cluster whose scheduler is at ADDRESS (tcp://host:port, "
            "or a scheduler file) instead of this machine's cores; needs patience[cluster].",
            metavar="ADDRESS",
        ),
    ] = None,
    timeout: Annotated[
        float,
        timeout_option("CPU seconds per deal before 'unknown' (the same on a busy machine)."),
    ] = 30.0,
    db: Annotated[
        Path,
        typer.Option(
            "--db",
            help="SQLite file of results (a rerun skips stored deals).",
            parser=path,
            metavar="FILE",
        ),
    ] = Path("patience-study.db"),
    table_size: Annotated[
        int,
        typer.Option(
            "--table-size",
            help="States each worker's transposition table keeps (memory: up to 32 bytes times"
            " the power of two at or above 16 N; the default, 1 GiB; 20,000,000: 16 GiB).",
            parser=whole_number(1000, MAX_TABLE_SIZE),
            metavar="N",
        ),
    ] = 2_000_000,
    as_json: JsonOpt = False,
    fair: Annotated[
        bool,
        typer.Option(
            "--fair",
            help="Play each deal with the fair bot, which knows only what a player would "
            "(docs/fair-play.md), instead of solving it knowing every card; stored apart.",
        ),
    ] = False,
    stock_known: Annotated[
        bool,
        typer.Option(
            "--stock-known",
            help="With --fair, Klondike only: the stock's cards are known from the start "
            "(the setting of Bjarnason, Fern & Tadepalli 2009); without it, unseen until "
            "turned, as in the real game.",
        ),
    ] = False,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            help="With --fair: arrangements of the unseen cards per decision (default 12).",
            parser=whole_number(1, MAX_SAMPLES),
            metavar="N",
        ),
    ] = None,
    max_states: Annotated[
        int | None,
        typer.Option(
            "--max-states",
            help="With --fair: states per solve of one arrangement (default 20000).",
            parser=whole_number(1, MAX_TABLE_SIZE),
            metavar="N",
        ),
    ] = None,
    budget: Annotated[
        float | None,
        typer.Option(
            "--budget",
            help="With --fair: CPU seconds per decision at most (default 2).",
            parser=seconds,
            metavar="SECONDS",
        ),
    ] = None,
) -> None:
    """Solve a range of deals in parallel and summarise: won, lost, unknown, win %, times.

    With --fair, a bot plays them knowing only what a player would.
    """
    from rich.console import Console

    from .fair.advisor import Settings  # the solver: imported only by the commands using it
    from .study.deals import parse_deals
    from .study.run import run_study, summary_json, summary_table

    # The help's defaults are Settings()'s (tests/test_study_fair.py checks them).
    d = Settings()
    settings = replace(
        d,
        samples=d.samples if samples is None else samples,
        max_states=d.max_states if max_states is None else max_states,
        budget=d.budget if budget is None else budget,
    )

    def runner(work: Callable[[Any], Any]) -> Any:
        if cluster is not None:
            from .study.cluster import DaskRunner

            if jobs:
                raise PatienceError("give --jobs or --cluster, not both")
            return DaskRunner(cluster, work)
        from .study.local import LocalRunner

        return LocalRunner(jobs or os.cpu_count() or 1, work)

    def run() -> Any:
        numbers = parse_deals(deals)
        rules = get_game(game, parse_options(option))
        if fair:
            return rules, run_fair(rules.name, dict(rules.options), numbers)
        given = [n for n in ("stock_known", "samples", "max_states", "budget") if given_on(n)]
        if given:
            raise PatienceError(f"{flag(given[0])} needs --fair")
        from .study.work import solve_deal

        return rules, run_study(
            rules.name,
            dict(rules.options),
            numbers,
            runner=runner(solve_deal),
            timeout=timeout,
            db=db,
            table_size=table_size,
            show_progress=not as_json,
        )

    def run_fair(name: str, options: dict[str, str], numbers: Any) -> Any:
        from .study.fairplay import run_fair_study
        from .study.work import play_fair

        given = [n for n in ("timeout", "table_size") if given_on(n)]
        if given:
            raise PatienceError(f"{flag(given[0])} is the thoughtful solver's, not for --fair")
        return run_fair_study(
            name,
            options,
            numbers,
            runner=runner(play_fair),
            settings=settings,
            stock_known=stock_known,
            db=db,
            show_progress=not as_json,
        )

    def given_on(name: str) -> bool:
        source = ctx.get_parameter_source(name)  # None or DEFAULT: not on the command line
        return source is not None and source.name != "DEFAULT"

    def flag(name: str) -> str:
        return "--" + name.replace("_", "-")

    try:
        rules, summary = guarded(run)
    except KeyboardInterrupt:
        done = "played" if fair else "solved"
        fail(f"interrupted: every deal {done} so far is stored in {db}", 130)
    title = heading(rules.title, rules.options)
    data = summary_json(rules.name, dict(rules.options), summary)
    if fair:
        from .study.fairplay import fair_title, setting_of, settings_text

        setting = setting_of(rules.name, stock_known)
        title = fair_title(title, setting)
        data["fair"] = {"setting": setting, "settings": settings_text(settings)}
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
