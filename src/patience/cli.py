"""The ``patience`` command: play in the browser, or script deals, moves and the solver.

Exit status: 0 success, 2 bad input (one line on standard error), 1 anything else.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup

from .cli_values import (
    MAX_JOBS,
    MAX_SAMPLES,
    MAX_TABLE_SIZE,
    deal_number,
    host_address,
    seconds,
    whole_number,
)
from .daily import daily_deal, parse_date
from .errors import InvalidOptionError, InvalidPositionError, PatienceError
from .games import GAMES, game_for, get_game, position_from_json, position_to_json
from .moves import Move
from .position import Position, heading

T = TypeVar("T")


def one_line(message: str) -> str:
    """``message`` on one line: every line break (of any kind) becomes a space."""
    return " ".join(message.splitlines())


class PatienceGroup(TyperGroup):
    """The command group, whose usage errors are one line (``patience: no such option:
    --bogus``, exit 2), not the usage block and a boxed message."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as exc:  # click's UsageError, BadParameter, ...
            message = exc.format_message().rstrip(".")
            typer.echo(f"patience: {one_line(message[:1].lower() + message[1:])}", err=True)
            code = exc.exit_code
        except typer.Abort:
            typer.echo("patience: aborted", err=True)
            code = 1
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=PatienceGroup,
    name="patience",
    help=(
        "Solitaire: Klondike, Lady Jane, Baker's Dozen and Hopscotch.\n\n"
        "With no command, starts the game in your browser. Every command that takes a "
        "deal takes GAME [--deal N] [--option key=value ...] or --position FILE "
        f"(- for standard input). Games: {', '.join(GAMES)}."
    ),
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

GameArg = Annotated[
    str | None,
    typer.Argument(help=f"Game: {', '.join(GAMES)}.", show_default=False, metavar="GAME"),
]
DealOpt = Annotated[
    int,
    typer.Option("--deal", "-d", help="Deal number, 0 or more.", parser=deal_number, metavar="N"),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="Game option key=value, repeatable: klondike mode=single|three|no-redeal|unlimited; "
        "bakers-dozen kings=to-bottom|empty-piles, build=any-suit|other-suit.",
    ),
]
PositionOpt = Annotated[
    str | None,
    typer.Option(
        "--position", "-p", help="Read the position from a JSON file (- = stdin).", metavar="FILE"
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of text.")]


def timeout_option(help_text: str) -> Any:
    """The ``--timeout`` option (seconds) with its own help."""
    return typer.Option("--timeout", help=help_text, parser=seconds, metavar="SECONDS")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line reason on standard error and exit."""
    typer.echo(f"patience: {one_line(message)}", err=True)
    raise typer.Exit(code)


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn``, turning bad input into exit 2 and anything else into exit 1."""
    try:
        return fn()
    except PatienceError as exc:
        fail(str(exc))
    except (typer.Exit, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001 - the contract is exit 1 with a reason
        fail(f"{type(exc).__name__}: {exc}", 1)


def parse_options(items: list[str] | None) -> dict[str, str]:
    """Read repeated key=value options."""
    options: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"invalid option {item!r}: expected key=value")
        options[key.strip()] = value.strip()
    return options


def load_position(
    game: str | None, deal: int, options: list[str] | None, position: str | None
) -> Position:
    """The position named on the command line: a numbered deal or a JSON file."""
    if position is not None:
        if game is not None:
            raise PatienceError("give either GAME or --position, not both")
        name = "standard input" if position == "-" else position
        try:
            raw = sys.stdin.buffer.read() if position == "-" else Path(position).read_bytes()
        except OSError as exc:
            raise PatienceError(f"cannot read {name}: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PatienceError(
                f"cannot read {name}: not UTF-8 text (byte {exc.object[exc.start]:#04x} "
                f"at offset {exc.start})"
            ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidPositionError([f"not valid JSON: {exc}"]) from None
        except RecursionError:
            raise InvalidPositionError(["not valid JSON: nested too deeply"]) from None
        except ValueError:  # Python refuses to read an integer of thousands of digits
            raise InvalidPositionError(["not valid JSON: a number too long"]) from None
        return position_from_json(data)
    if game is None:
        raise PatienceError(f"missing GAME (one of {', '.join(GAMES)}) or --position FILE")
    return get_game(game, parse_options(options)).new_position(deal)


def emit(data: Any, as_json: bool, text: str) -> None:
    """Print ``data`` as JSON or ``text`` as it is."""
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(text)


def position_text(p: Position) -> str:
    """A readable picture of a position, one pile a line (face-down cards in brackets)."""
    from .cards import card_text, rank_text

    g = game_for(p)
    lines = [heading(g.title, p.options, p.deal)]
    if g.has_stock:
        lines.append("stock: " + (" ".join(card_text(c) for c in p.stock) or "-"))
        lines.append("waste: " + (" ".join(card_text(c) for c in p.waste) or "-"))
    for i, f in enumerate(p.foundations):
        lines.append(f"f{i + 1}: " + (" ".join(card_text(c) for c in f) or "-"))
    for i, pile in enumerate(p.tableau):
        d = p.down[i]
        cells = [f"[{card_text(c)}]" for c in pile[:d]] + [card_text(c) for c in pile[d:]]
        lines.append(f"t{i + 1}: " + (" ".join(cells) or "-"))
    for i, r in enumerate(p.reserve):
        lines.append(f"r{i + 1}: " + (" ".join(card_text(c) for c in r) or "-"))
    extra = f"score: {g.score(p)}"
    if p.base is not None:
        extra += f"  base: {rank_text(p.base)}"
    if g.has_redeals:
        extra += f"  redeals: {p.redeals}"
    if g.is_won(p):
        extra += "  (won)"
    elif g.is_stuck(p):
        extra += "  (no legal move left)"
    lines.append(extra)
    return "\n".join(lines)


@app.callback(invoke_without_command=True)
def main_callback(ctx: typer.Context) -> None:
    """Start the game in the browser when no command is given."""
    if ctx.invoked_subcommand is None:
        serve(port=8765, no_browser=False, data_dir=None, host="127.0.0.1")


@app.command()
def serve(
    port: Annotated[
        int,
        typer.Option(
            help="Port, 0 to 65535 (0 = any free port).",
            parser=whole_number(0, 65535),
            metavar="PORT",
        ),
    ] = 8765,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open a browser.")
    ] = False,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Folder for the saved games and statistics (env PATIENCE_DATA_DIR)."),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            help="Address to bind: 127.0.0.1 keeps the game on this computer; "
            "0.0.0.0 opens it to your network (to play on a phone).",
            parser=host_address,
            metavar="ADDRESS",
        ),
    ] = "127.0.0.1",
) -> None:
    """Start the game in the browser (a local server on 127.0.0.1)."""
    from .store_errors import StoreError
    from .web.server import FolderInUse, run

    if data_dir is not None:
        try:  # before the server starts: a folder it cannot make is bad input
            data_dir.expanduser().mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"cannot use {data_dir} as the data folder: {exc.strerror}")
    try:
        run(host=host, port=port, open_browser=not no_browser, data_dir=data_dir)
    except (StoreError, FolderInUse) as exc:
        # The database cannot be used, or another server holds the folder: the message
        # says where and what to do.
        fail(str(exc))
    except (OSError, sqlite3.Error, ValueError) as exc:
        # run() binds, then opens the store, before it serves: these are its setup errors.
        fail(setup_error(exc, host, port))


def setup_error(exc: Exception, host: str, port: int) -> str:
    """The one-line reason the server could not start."""
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"cannot use {exc.filename}: {exc.strerror}"
    if isinstance(exc, OSError):
        return f"cannot listen on {host} port {port}: {exc.strerror or exc}"
    return f"cannot open the saved games: {exc}"


@app.command()
def deal(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the starting position (or the position read with --position)."""
    p = guarded(lambda: load_position(game, deal_number, option, position))
    emit(position_to_json(p), as_json, position_text(p))


@app.command()
def daily(
    game: GameArg = None,
    option: OptionOpt = None,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="The day, YYYY-MM-DD (default: today, this computer's date).",
            metavar="YYYY-MM-DD",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the deal number of the deal of the day: the same for everyone on a date."""

    def run() -> dict[str, Any]:
        if game is None:
            raise PatienceError(f"missing GAME (one of {', '.join(GAMES)})")
        rules = get_game(game, parse_options(option))
        day = datetime.date.today() if date is None else parse_date(date)
        found = daily_deal(day, rules.name, rules.option)
        if found is None:
            raise RuntimeError(f"no deal of the day was found for {day.isoformat()} (no solver?)")
        return {"date": day.isoformat(), "game": rules.name, "options": rules.option, "deal": found}

    found = guarded(run)
    emit(found, as_json, str(found["deal"]))


@app.command()
def moves(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List every legal move of the position, useful or not, one per line."""
    p = guarded(lambda: load_position(game, deal_number, option, position))
    listed = [str(m) for m in game_for(p).legal_moves(p)]
    emit(listed, as_json, "\n".join(listed))


@app.command()
def play(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    moves_text: Annotated[
        str, typer.Option("--moves", "-m", help='Moves to play in order, e.g. "deal w>t3 t6>t2/3".')
    ] = "",
    as_json: JsonOpt = False,
) -> None:
    """Play moves in order and print the resulting position.

    Stops at the first illegal move with exit status 2, naming it and its index.
    """

    def run() -> Position:
        p = load_position(game, deal_number, option, position)
        rules = game_for(p)
        for index, token in enumerate(moves_text.split(), start=1):
            try:
                p = rules.play(p, Move.parse(token))
            except PatienceError as exc:
                raise PatienceError(f"move {index}: {exc}") from None
        return p

    p = guarded(run)
    emit(position_to_json(p), as_json, position_text(p))


@app.command()
def solve(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    timeout: Annotated[float, timeout_option("Give up after this many seconds.")] = 60.0,
    as_json: JsonOpt = False,
) -> None:
    """Decide a position: won (with a winning line), lost, or unknown.

    "lost" is a proof (the search was exhaustive); "unknown" means the time ran out.
    """
    from .solver import solve as run_solver

    p = guarded(lambda: load_position(game, deal_number, option, position))
    result = guarded(lambda: run_solver(p, timeout=timeout))
    data = {
        "result": result.result,
        "moves": [str(m) for m in result.moves],
        "states": result.states,
        "seconds": round(result.seconds, 3),
    }
    text = result.result
    if result.moves:
        text += "\n" + " ".join(data["moves"])  # type: ignore[arg-type]
    emit(data, as_json, text)


@app.command()
def hint(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    peek: Annotated[
        bool, typer.Option("--peek", help="Let the solver look at the face-down cards.")
    ] = False,
    timeout: Annotated[float, timeout_option("Think at most this many seconds.")] = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """The move to make: by default the one with the best chance of winning from what the
    player can see (face-up cards), with that chance; with --peek, the solver's proven move.
    """
    import threading

    from .assist import compute_hint
    from .fair import Knowledge
    from .fair_assist import chance_text, fair_hint

    p = guarded(lambda: load_position(game, deal_number, option, position))
    stop = threading.Event()
    if peek:
        data = {**guarded(lambda: compute_hint(p, timeout, stop)), "fair": False}
        text = f"{data['move'] or 'no move'}\n{data['verdict']} (the solver saw every card)"
    else:
        data = guarded(lambda: fair_hint(p, Knowledge.start(p), (), timeout, stop))
        text = f"{data['move'] or 'no move'}\n{chance_text(data)}"
    emit(data, as_json, text)


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
        Path, typer.Option("--db", help="SQLite file of results (a rerun skips stored deals).")
    ] = Path("patience-study.db"),
    table_size: Annotated[
        int,
        typer.Option(
            "--table-size",
            help="States each worker's transposition table keeps.",
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
            metavar="SOURCE",
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Also write the tables as Markdown to FILE, with PNG plots beside it "
            "(needs patience[report]).",
            metavar="FILE",
        ),
    ] = None,
    csv_dir: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help="Also write the per-deal results to FOLDER, a compressed CSV file per "
            "game and options.",
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


def main() -> None:
    """Entry point of the console script (exit status: 0, 2 bad input, 1 otherwise)."""
    app()


if __name__ == "__main__":
    main()
