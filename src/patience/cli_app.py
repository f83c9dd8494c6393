"""What every ``patience`` command shares: the command group and its one-line usage
errors, the common arguments and options, the exit-status contract (``fail``,
``guarded``) and reading a position from the command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar, get_args, get_origin

import typer
from typer.core import TyperGroup

from .cli_values import deal_number, seconds
from .errors import InvalidOptionError, InvalidPositionError, PatienceError
from .games import GAMES, get_game, position_from_json
from .position import Position

T = TypeVar("T")


def one_line(message: str) -> str:
    """``message`` on one line: every line break (of any kind) becomes a space."""
    return " ".join(message.splitlines())


class PatienceGroup(TyperGroup):
    """The command group, whose usage errors are one line (``patience: no such option:
    --bogus``, exit 2), not the usage block and a boxed message, and whose help lists
    each command with the whole first sentence of its description, wrapped."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands section of ``--help``: click cuts each description to what fits
        one line, with "..."; here it wraps instead, so nothing is cut."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_params(self, ctx: Any) -> list[Any]:
        """The group's parameters (``--help``), read without pydantic (``PlainValues``)."""
        params = super().get_params(ctx)
        for param in params:
            plain_values(param)
        return params

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``, whose parameters are read without pydantic: its
        own, and its ``--help``, made here as its context would (the same names, which
        it inherits from this group's context)."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            for param in [*command.params, command.get_help_option(ctx)]:
                plain_values(param)
        return command

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


class _NotPlain(Exception):
    """A value that Typer's own coercion must read (see ``PlainValues``)."""


class PlainValues:
    """How a parameter's values are read, without pydantic (issue 56).

    Typer 0.29 reads every value through a pydantic ``TypeAdapter``: importing pydantic
    and building the adapters cost about 80 ms of CPU, half of ``patience solve``. Here
    every value is either read by its parser (``cli_values``), where the adapter returns
    what the parser returns, or a string or a flag's bool, which it returns as it is;
    this does the same without the adapter. Anything else goes to Typer's own coercion,
    as before: a value of another type, and a parser's ``ValueError`` (pydantic words
    its message).
    """

    def __init__(self, parse: Callable[[Any], Any] | None, kind: type) -> None:
        self.parse = parse
        self.kind = kind

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        """The value Typer's coercion would give (its ``RuntimeParam.coerce``)."""
        many = param.multiple or param.nargs == -1
        if value is None:
            return () if many else None
        try:
            if not many:
                return self.one(value)
            if isinstance(value, list | tuple):
                return [self.one(item) for item in value]
        except _NotPlain:
            pass
        param._runtime_param = None  # Typer's own, from here on
        return param.get_runtime_param().coerce(value, param=param, ctx=ctx)

    def one(self, value: Any) -> Any:
        """One value: the parser's result, or the string or bool itself."""
        if self.parse is not None:
            try:
                return self.parse(value)
            except (ValueError, AssertionError):
                raise _NotPlain from None
        if type(value) is self.kind:
            return value
        raise _NotPlain


def plain_values(param: Any) -> None:
    """Give ``param`` a ``PlainValues`` reader when its values are parsed by a parser,
    or are strings or bools; a parameter of another kind, or of a Typer whose parameters
    are not as 0.29's, keeps Typer's (tests/test_cli_startup.py sees pydantic imported)."""
    descriptor = getattr(param, "type_descriptor", None)
    if getattr(param, "_runtime_param", False) is not None or descriptor is None:
        return
    annotation = descriptor.annotation
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation)
    parse = descriptor.parameter_info.parser
    if descriptor.file_annotation is None and (parse is not None or annotation in (str, bool)):
        param._runtime_param = PlainValues(parse, annotation)


def _titles() -> str:
    """The registered games' titles: ``A, B and C``."""
    titles = [game.title for game in GAMES.values()]
    return " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)


def _options() -> str:
    """The registered games' options: ``game key=a|b, key=c|d; ...``."""

    def of(spec: dict[str, tuple[str, ...]]) -> str:
        return ", ".join(f"{key}={'|'.join(values)}" for key, values in spec.items())

    return "; ".join(f"{name} {of(g.option_spec)}" for name, g in GAMES.items() if g.option_spec)


app = typer.Typer(
    cls=PatienceGroup,
    name="patience",
    help=(
        f"Solitaire: {_titles()}.\n\n"
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
    int | None,
    typer.Option(
        "--deal", "-d", help="Deal number, 0 or more (default 0).", parser=deal_number, metavar="N"
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help=f"Game option key=value, repeatable: {_options()}.",
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
    game: str | None, deal: int | None, options: list[str] | None, position: str | None
) -> Position:
    """The position named on the command line: a numbered deal (0 when none is given) or
    a JSON file, which comes with neither a game, a deal number nor options."""
    if position is not None:
        if game is not None:
            raise PatienceError("give either GAME or --position, not both")
        if deal is not None or options:
            given = "--deal" if deal is not None else "--option"
            raise PatienceError(f"give either {given} or --position, not both")
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
    return get_game(game, parse_options(options)).new_position(0 if deal is None else deal)


def emit(data: Any, as_json: bool, text: str) -> None:
    """Print ``data`` as JSON or ``text`` as it is (no text: no line, so that an empty
    list is zero lines, not one empty one)."""
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    elif text:
        typer.echo(text)
