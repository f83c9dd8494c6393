"""Fair help, for the web page and the command line alike: the hint and the chance to win
from only what the player has seen (``patience.fair``), as plain data.

This is the application layer beside ``assist`` (whose help may look at every card):
both shells call it, and its functions take the form the web app's solver pool runs,
``work(seconds_left, cancel)`` once the position, the knowledge and the settings are
bound (``functools.partial``): module-level, picklable arguments, plain dict results.

The seed is fixed (``SEED``): it must not come from anything the player cannot see (the
deal number would do for a dealt game, but not for a position), and a fixed one gives
the same answer to the same view every time.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Hashable
from dataclasses import replace
from typing import Any

from .fair import Estimate, Knowledge, Settings, advise, chance, policy_chance
from .fair.greedy import greedy_move
from .fair.hopscotch_advice import CHANCE_PLAYOUTS
from .games import game_for
from .position import Position

SEED = 0
"""The seed of every fair estimate: the same view gets the same answer."""

HINT = Settings()
"""The fair hint's settings (its budget is the request's time)."""

METHOD = {"hopscotch": "labels"}
"""A game's own method for the hint, where it plays better than ``HINT``'s (Hopscotch:
47.8% of deals 1..2000 against 36.9%, docs/fair-play.md)."""

PLAYOUTS = {"hopscotch": CHANCE_PLAYOUTS}
"""The games of the game's own advice (``METHOD``) played out for the chance beside a
hint and for the chance indicator (the same number: the same chance in both places):
the share of them won (about 0.19 CPU s a game from a deal's start, less later; shared
over two threads)."""

CHANCE = Settings(samples=30)
"""The chance to win's settings: more arrangements than a hint (no plan to score); in a
game with a policy of its own (``METHOD``), its playouts."""

KINDS = ("proven", "advice-playouts", "clairvoyant")
"""What a chance is: ``proven``, the solver's verdict (nothing left unseen to guess);
``advice-playouts``, the chance of a player who follows the hint's own fair advice,
from its games played out over sampled orders of the unseen cards weighed with its
record in past games (the posterior mean, ``fair.policy_chance``: Hopscotch);
``clairvoyant``, the share of sampled arrangements a player who could see every card
would win, an upper bound on the player's chance, never to be shown as it (Klondike,
Lady Jane: no fair policy cheap enough to play out yet)."""


def kind_of(position: Position, exact: bool) -> str:
    """What the chance of ``position`` is (``KINDS``)."""
    if exact:
        return "proven"
    return "advice-playouts" if position.game in METHOD else "clairvoyant"


def estimate_json(e: Estimate, exact: bool, kind: str = "clairvoyant") -> dict[str, Any]:
    """An estimate as data: the share of decided arrangements won (None when none is
    decided), its 95% interval, the arrangements solved, those left undecided, and
    ``exact``: there was one arrangement only (at most one unseen card), so the share
    is the solver's verdict rather than an estimate; ``cut``: the time limit (or a newer
    request) stopped the run before every arrangement asked for was solved, so the answer
    rests on fewer and may differ on a less busy machine (else it depends on the view,
    the settings and the seed alone); ``kind``: what the share is (``KINDS``; a share
    with nothing left unseen is ``proven``, its ``chance`` None when the solver did not
    decide)."""
    decided = e.won + e.lost
    return {
        "kind": "proven" if exact else kind,
        "chance": round(e.share, 4) if decided else None,
        "interval": [round(x, 4) for x in e.interval] if decided else None,
        "samples": e.samples,
        "undecided": e.unknown,
        "exact": exact and decided > 0,
        "cut": e.cut,
    }


def fair_hint(
    position: Position,
    knowledge: Knowledge,
    history_keys: Collection[Hashable],
    seconds_left: float,
    cancel: threading.Event,
    settings: Settings = HINT,
) -> dict[str, Any]:
    """The move with the best chance of winning from what the player knows.

    ``history_keys``: ``fair.greedy.state_key`` of the game's positions so far, which
    the plan must not lead back to. The reply: ``move`` (None: no legal move), ``line``
    (the plan: the moves up to the next card shown, naming piles only), the chance
    after it (``estimate_json``), ``fair`` True, and ``verdict``: "winnable" or "lost"
    only when proven whatever the unseen cards are (at most one unseen card, or no move
    left), else "unknown" (the chance says how likely a win is).
    """
    rules = game_for(position)
    if rules.is_won(position):
        return {
            "verdict": "winnable",
            "move": None,
            "line": [],
            "fair": True,
            **estimate_json(Estimate(won=1), exact=True),
        }
    legal = rules.legal_moves(position)
    if not legal:
        return {
            "verdict": "lost",
            "move": None,
            "line": [],
            "fair": True,
            **estimate_json(Estimate(lost=1), exact=True),
        }
    # The hint's own settings by value: they reach a solver worker pickled, a copy.
    if settings == HINT and position.game in METHOD:
        game = position.game
        settings = replace(settings, method=METHOD[game], samples=PLAYOUTS[game])
    advice = advise(
        position,
        knowledge,
        replace(settings, budget=seconds_left),
        cancel=cancel,
        seed=SEED,
        avoid=history_keys,
    )
    exact = knowledge.one_arrangement(position)
    kind = "advice-playouts" if settings.method in METHOD.values() else "clairvoyant"
    estimate = estimate_json(advice.estimate, exact, kind)
    verdict = "unknown"
    if estimate["exact"]:
        verdict = "winnable" if estimate["chance"] else "lost"
    plan = advice.plan
    if not plan:
        # Every move leads back to a position of this game (the redeal after a pass in
        # which nothing was played): it is still the way on, so the hint names the
        # greedy player's move (a deal before any move between piles), else the first
        # legal one, as the fair bot deals again there (``bot._look_again``).
        plan = (greedy_move(position) or legal[0],)
    return {
        "verdict": verdict,
        "move": str(plan[0]),
        "line": [str(m) for m in plan],
        "fair": True,
        **estimate,
    }


def chance_of(
    position: Position,
    knowledge: Knowledge,
    seconds_left: float,
    cancel: threading.Event,
    settings: Settings = CHANCE,
    history: Collection[Hashable] = (),
) -> dict[str, Any]:
    """The chance to win from ``position`` (``estimate_json``): in a game with a fair
    policy of its own (``METHOD``), the share of its playouts won, replayed along
    ``history`` (the game's ``state_key``s); elsewhere the share of arrangements of the
    unseen cards a player who could see every card would win (``clairvoyant``)."""
    exact = knowledge.one_arrangement(position)
    timed = replace(settings, budget=seconds_left)
    if position.game in METHOD:
        if settings == CHANCE:  # the hint's playouts: the same chance in both places (by
            # value: the settings reach a solver worker pickled, a copy)
            timed = replace(timed, samples=PLAYOUTS[position.game])
        e = policy_chance(position, knowledge, history, timed, cancel, SEED)
        return estimate_json(e, exact, "advice-playouts")
    e = chance(position, knowledge, timed, cancel, SEED)
    return estimate_json(e, exact, kind_of(position, exact))


def percent(x: float) -> str:
    """A share as a whole percentage."""
    return f"{100 * x:.0f}%"


def chance_text(reply: dict[str, Any]) -> str:
    """The chance of a reply in words, as the estimate it is, and whose chance it is
    (English: the command line's; the page words it in the player's language). A
    clairvoyant share is never called the player's chance."""
    if reply["chance"] is None:
        samples = reply["samples"]
        return f"chance unknown ({samples} arrangements, none decided within the search limit)"
    if reply["exact"]:
        return f"{percent(reply['chance'])} from here (no card left unseen to guess)"
    lo, hi = reply["interval"]
    n = reply["samples"]
    undecided = f", {reply['undecided']} undecided" if reply["undecided"] else ""
    undecided += ", cut short by the time limit" if reply.get("cut") else ""
    if reply.get("kind") == "advice-playouts":
        return (
            f"about {percent(reply['chance'])} from here, following this advice "
            f"(95%: {percent(lo)}-{percent(hi)}, from {n} games played out over orders of the "
            f"unseen cards, weighed with the advice's record in past games{undecided})"
        )
    return (
        f"a player who could see every card: about {percent(reply['chance'])} "
        f"(95%: {percent(lo)}-{percent(hi)}, {n} arrangements of the unseen cards{undecided};"
        " your own chance may be lower)"
    )
