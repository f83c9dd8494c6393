"""Values of command-line options, read strictly: ASCII digits, within bounds.

Each parser returns the value or raises ``typer.BadParameter`` naming the problem,
which the command line prints as one line (exit 2). Python's ``int`` and ``float``
alone would take other scripts' digits, ``1_000``, ``nan`` or ``inf``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import typer

from .cards import parse_deal, shown
from .errors import InvalidDealError

MAX_SECONDS = 7 * 24 * 3600
"""The longest time budget (a week): a bound that no float overflow can reach."""
MAX_JOBS = 1024
"""The most worker processes of a study (more would be a fork bomb, not a speed-up)."""
MAX_SAMPLES = 10_000
"""The most arrangements of the unseen cards a fair decision may sample."""
MAX_TABLE_SIZE = 10**9
"""The most states a worker's table may keep: a billion, far past any memory (and
within the C searches' int64, which a larger number overflowed)."""


def _bad_value(message: str) -> NoReturn:
    raise typer.BadParameter(message)


def deal_number(text: str | int) -> int:
    """The value of ``--deal``: digits 0-9, from 0 to MAX_DEAL."""
    try:
        return parse_deal(str(text))
    except InvalidDealError as exc:
        _bad_value(str(exc))


def path(text: str | Path) -> Path:
    """A file or folder named on the command line: an empty name is refused (``Path("")``
    would quietly be the current folder)."""
    if not str(text).strip():
        _bad_value("expected a path, got an empty one")
    return Path(text)


def whole_number(lo: int, hi: int) -> Callable[[str | int], int]:
    """A parser of whole numbers from ``lo`` to ``hi`` written in digits 0-9."""

    def parse(text: str | int) -> int:
        token = str(text).strip()
        digits = token.removeprefix("-")
        if re.fullmatch(r"[0-9]{1,30}", digits):
            value = int(token)
            if lo <= value <= hi:
                return value
        _bad_value(f"expected a whole number from {lo} to {hi}, got {shown(token)}")

    return parse


def seconds(text: str | float) -> float:
    """A time budget in seconds: a decimal number in digits 0-9, at most MAX_SECONDS."""
    token = str(text).strip()
    if re.fullmatch(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?", token):
        value = float(token)
        if math.isfinite(value) and value <= MAX_SECONDS:
            return value
    _bad_value(f"expected a number of seconds from 0 to {MAX_SECONDS}, got {shown(token)}")


def host_address(text: str) -> str:
    """An address to listen on: an IP address, or a host name this computer resolves."""
    import ipaddress  # here: only ``serve`` needs them, not every command's start
    import socket

    host = text.strip()
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if all(re.fullmatch(r"[0-9]+", label) for label in labels):  # an IPv4 address gone wrong
        _bad_value(f"{shown(host)} is not an IP address")
    if host.lower() == "localhost":
        return host
    if not all(re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?", x) for x in labels):
        _bad_value(f"{shown(host)} is neither an IP address nor a host name")
    try:
        socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        _bad_value(f"cannot find the address of {shown(host)}")
    return host
