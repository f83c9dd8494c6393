"""The ``patience`` command: play in the browser, or script deals, moves and the solver.

Exit status: 0 success, 2 bad input (one line on standard error), 1 anything else.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from .errors import InvalidOptionError, InvalidPositionError, PatienceError
from .games import GAMES, game_for, get_game
from .moves import Move
from .position import Position

T = TypeVar("T")

app = typer.Typer(
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
    int, typer.Option("--deal", "-d", help="Deal number (non-negative).", min=0, metavar="N")
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


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line reason on standard error and exit."""
    typer.echo(f"patience: {message}", err=True)
    raise typer.Exit(code)


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn``, turning bad input into exit 2 and anything else into exit 1."""
    try:
        return fn()
    except PatienceError as exc:
        fail(str(exc).replace("\n", " "))
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
        try:
            text = sys.stdin.read() if position == "-" else Path(position).read_text("utf-8")
        except OSError as exc:
            raise PatienceError(f"cannot read {position}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidPositionError([f"not valid JSON: {exc}"]) from None
        return Position.from_json(data)
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
    lines = [f"{g.title} {dict(p.options) or ''} deal {p.deal}".replace(" {} ", " ").strip()]
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
    if g.has_stock and p.game == "klondike":
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
    port: Annotated[int, typer.Option(help="Port (0 = any free port).")] = 8765,
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
            "0.0.0.0 opens it to your network (to play on a phone)."
        ),
    ] = "127.0.0.1",
) -> None:
    """Start the game in the browser (a local server on 127.0.0.1)."""
    from .web.server import run

    guarded(lambda: run(host=host, port=port, open_browser=not no_browser, data_dir=data_dir))


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
    emit(p.to_json(), as_json, position_text(p))


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
    emit(p.to_json(), as_json, position_text(p))


@app.command()
def solve(
    game: GameArg = None,
    deal_number: DealOpt = 0,
    option: OptionOpt = None,
    position: PositionOpt = None,
    timeout: Annotated[float, typer.Option(help="Give up after this many seconds.", min=0)] = 60.0,
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
def study(
    game: Annotated[str, typer.Argument(help=f"Game: {', '.join(GAMES)}.", show_default=False)],
    deals: Annotated[
        str, typer.Option("--deals", help="Deal numbers: N, N-M, or a comma list of them.")
    ] = "1-1000",
    option: OptionOpt = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes (0 = every core).", min=0)
    ] = 0,
    timeout: Annotated[float, typer.Option(help="Seconds per deal before 'unknown'.", min=0)] = (
        30.0
    ),
    db: Annotated[
        Path, typer.Option("--db", help="SQLite file of results (a rerun skips stored deals).")
    ] = Path("patience-study.db"),
    table_size: Annotated[
        int,
        typer.Option(
            "--table-size", help="States each worker's transposition table keeps.", min=1000
        ),
    ] = 2_000_000,
    as_json: JsonOpt = False,
) -> None:
    """Solve a range of deals in parallel and summarise: won, lost, unknown, win %, times."""
    from rich.console import Console

    from .solver.study import parse_deals, run_study, summary_table

    def run() -> Any:
        numbers = parse_deals(deals)
        rules = get_game(game, parse_options(option))
        return rules, run_study(
            rules.name,
            dict(rules.options),
            numbers,
            jobs=jobs or None,
            timeout=timeout,
            db=db,
            table_size=table_size,
            show_progress=not as_json,
        )

    try:
        rules, summary = guarded(run)
    except KeyboardInterrupt:
        fail(f"interrupted: every deal solved so far is stored in {db}", 130)
    if as_json:
        emit(
            {
                "game": rules.name,
                "options": dict(rules.options),
                "deals": summary.deals,
                "won": summary.won,
                "lost": summary.lost,
                "unknown": summary.unknown,
                "win_rate": summary.win_rate,
                "win_rate_95": [summary.win_low, summary.win_high],
                "seconds": {"median": summary.median, "p90": summary.p90, "max": summary.max},
            },
            True,
            "",
        )
    else:
        title = f"{rules.title} {' '.join(f'{k}={v}' for k, v in rules.options)}".strip()
        Console().print(summary_table(title, summary))


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
