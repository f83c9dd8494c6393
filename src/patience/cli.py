"""The ``patience`` command: play in the browser, or script deals, moves and the solver.

Exit status: 0 success, 2 bad input (one line on standard error), 1 anything else.
"""

# No ``from __future__ import annotations`` here nor in cli_study.py: Typer reads the
# annotations of every command at each start, and strings it must evaluate (twice a
# command) cost 3 ms of ``patience solve`` (issue 56).
import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from .cli_app import (
    DealOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    PositionOpt,
    app,
    emit,
    fail,
    guarded,
    load_position,
    parse_options,
    timeout_option,
)
from .cli_values import host_address, path, whole_number
from .errors import PatienceError
from .games import GAMES, game_for, get_game, position_to_json
from .moves import Move
from .position import Position, heading


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
        typer.Option(
            help="Folder for the saved games and statistics (env PATIENCE_DATA_DIR).",
            parser=path,
            metavar="FOLDER",
        ),
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
    import sqlite3

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
    deal_number: DealOpt = None,
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
            help="The day, YYYY-MM-DD, up to tomorrow (default: today, this computer's date).",
            metavar="YYYY-MM-DD",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the deal number of the deal of the day: the same for everyone on a date."""
    from .daily import daily_deal, parse_dealt_date

    def run() -> dict[str, Any]:
        if game is None:
            raise PatienceError(f"missing GAME (one of {', '.join(GAMES)})")
        rules = get_game(game, parse_options(option))
        day = datetime.date.today() if date is None else parse_dealt_date(date)
        found = daily_deal(day, rules.name, rules.option)
        if found is None:
            raise RuntimeError(f"no deal of the day was found for {day.isoformat()} (no solver?)")
        return {"date": day.isoformat(), "game": rules.name, "options": rules.option, "deal": found}

    found = guarded(run)
    emit(found, as_json, str(found["deal"]))


@app.command()
def moves(
    game: GameArg = None,
    deal_number: DealOpt = None,
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
    deal_number: DealOpt = None,
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
    deal_number: DealOpt = None,
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
    deal_number: DealOpt = None,
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


from . import cli_study  # noqa: E402, F401 - registers study and report, after the others


def main() -> None:
    """Entry point of the console script (exit status: 0, 2 bad input, 1 otherwise)."""
    app()


if __name__ == "__main__":
    main()
