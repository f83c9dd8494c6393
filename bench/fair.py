"""Benchmark fair play: deals 1..N played knowing only what a player would.

    python bench/fair.py --only klondike:mode=three --setting paper -n 50
    python bench/fair.py -n 20 --samples 12 --out /tmp/fair.jsonl
    python bench/fair.py --only klondike:mode=three --setting paper --method hop \
        --samples 2 -n 100 --out hop.jsonl --also results/fair-bench.jsonl.gz
    python bench/fair.py --hopscotch     # Hopscotch's goal from the committed rows
    python bench/fair.py --goals         # every goal of issue 55, met or not
    python bench/fair.py --only klondike:mode=no-redeal --setting real -n 0 \
        --deals 1001-2200 --also results/fair-noredeal.jsonl.gz   # rows printed only

Prints, per game, mode and setting: the fair bot's win rate with its 95% (Wilson)
interval; beside it the thoughtful win rate of the same deals (the solver knowing every
card: the upper bound) and the greedy player's (the baseline); the mean and p99 seconds
per decision and the mean seconds per deal. Klondike runs in two settings: ``paper``
(the stock's cards known from the start, as in Bjarnason, Fern & Tadepalli 2009) and
``real`` (stock cards unseen until turned); the other games in ``real`` only.

A deal the thoughtful solver proves lost is lost for every player: the fair bot does
not play it (it counts as lost). Each deal's row is appended to ``--out`` as it ends,
and a run given the same file skips the deals already there (and takes the thoughtful
verdict of a deal from a row of another bot there or in ``--also``). A row holds the fair
bot's CPU seconds (``cpu``) beside its wall-clock ``seconds``: the machine is shared.

Two bots of the same game and setting (method, samples, states) are then compared on
the deals both played (paired): each one's wins, the discordant deals (won by one bot
only) and the exact two-sided McNemar p-value (a binomial test of the discordant
deals). ``--also`` adds rows of other files (read only, ``.gz`` too) to the table
and the comparison, such as another bot's run over the same deals.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from patience.fair.advisor import METHODS, Settings
from patience.fair.bot import advisor_chooser, greedy_chooser, play_deal
from patience.games import get_game
from patience.proportion import percentile, wilson
from patience.solver import solve

DEFAULT = Settings()
sys.path.insert(0, str(Path(__file__).parent))
from solver import MODES, label, matches  # noqa: E402


def _settings_of(name: str, setting: str) -> list[str]:
    return [
        s
        for s in ("paper", "real")
        if setting in (s, "both") and (s == "real" or name == "klondike")
    ]


def _run_deal(
    name: str,
    options: dict[str, str],
    deal: int,
    setting: str,
    args: argparse.Namespace,
    thoughtful: str | None,
) -> dict[str, Any]:
    start = get_game(name, options).new_position(deal)
    stock_known = setting == "paper"
    if thoughtful is None:
        thoughtful = str(solve(start, timeout=args.thoughtful).result)
    greedy = play_deal(start, greedy_chooser, stock_known).won
    settings = Settings(
        args.samples,
        args.max_states,
        args.budget,
        args.method,
        args.shortlist,
        explore=args.explore,
        playouts=args.playouts,
    )
    t0, cpu = time.perf_counter(), time.process_time()
    if thoughtful == "lost":
        won, decisions = False, []
    else:
        record = play_deal(start, advisor_chooser(settings), stock_known, seed=deal)
        won, decisions = record.won, list(record.decisions)
    return {
        "label": label(name, options),
        "setting": setting,
        "method": bot_method(args),
        "samples": args.samples,
        "max_states": args.max_states,
        "deal": deal,
        "thoughtful": thoughtful,
        "greedy": greedy,
        "fair": won,
        "decisions": decisions,
        "seconds": time.perf_counter() - t0,
        "cpu": time.process_time() - cpu,
    }


def bot_method(args: argparse.Namespace) -> str:
    """The method as the rows name it: ``--explore`` and ``--playouts`` added to it."""
    explore, playouts = bool(args.explore), int(args.playouts)
    return f"{args.method}{'+explore' * explore}{f'+playouts<{playouts}' * bool(playouts)}"


def _rate(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins / n:6.1%} [{low:.1%}, {high:.1%}]" if n else "-"


def key(r: dict[str, Any]) -> tuple[str, str, str, int, int]:
    """A row's game, setting and bot."""
    return r["label"], r["setting"], r["method"], r["samples"], r["max_states"]


def mcnemar(only_a: int, only_b: int) -> float:
    """The exact two-sided McNemar p-value of ``only_a`` against ``only_b`` discordant
    pairs: the chance of a split at least this uneven if each bot were as likely to win
    a discordant deal."""
    n = only_a + only_b
    tail: float = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def _bot(k: tuple[str, str, str, int, int]) -> str:
    return f"{k[2]}/{k[3]}/{k[4]}"


def _pairs(rows: list[dict[str, Any]]) -> None:
    """Every two bots of the same game and setting, on the deals both played."""
    by_key: dict[tuple[str, str, str, int, int], dict[int, dict[str, Any]]] = {}
    for r in rows:
        by_key.setdefault(key(r), {})[r["deal"]] = r
    for a, b in itertools.combinations(sorted(by_key), 2):
        if a[:2] != b[:2]:
            continue
        deals = sorted(by_key[a].keys() & by_key[b].keys())
        if not deals:
            continue
        ra, rb = ([by_key[k][d] for d in deals] for k in (a, b))
        only_a = sum(x["fair"] and not y["fair"] for x, y in zip(ra, rb, strict=True))
        only_b = sum(y["fair"] and not x["fair"] for x, y in zip(ra, rb, strict=True))

        def cost(rs: list[dict[str, Any]]) -> str:
            played = [r for r in rs if r["decisions"]]
            cpu = [r["cpu"] for r in played if "cpu" in r]
            mean = f"{statistics.fmean(cpu):.1f} CPU s" if cpu else "-"
            wall = statistics.fmean(r["seconds"] for r in played) if played else 0.0
            return f"{mean} ({wall:.1f} s on the clock) a deal played"

        print(
            f"{a[0]} {a[1]}, deals {deals[0]}..{deals[-1]} both played ({len(deals)}):"
            f" {_bot(a)} won {sum(r['fair'] for r in ra)}, {_bot(b)} won"
            f" {sum(r['fair'] for r in rb)}; won by {_bot(a)} only {only_a}, by {_bot(b)}"
            f" only {only_b}; McNemar exact p = {mcnemar(only_a, only_b):.3f}\n"
            f"  {_bot(a)}: {cost(ra)}; {_bot(b)}: {cost(rb)}"
        )


def _read(path: Path) -> list[dict[str, Any]]:
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _table(rows: list[dict[str, Any]]) -> None:
    keys = sorted({key(r) for r in rows})
    print(
        f"{'game':42} {'setting':7} {'method':10} {'smp':>4} {'states':>7} {'deals':>5}"
        f"  {'fair [95%]':24}"
        f" {'thoughtful':>10}  {'greedy [95%]':24} {'s/dec':>6} {'p99':>6} {'s/deal':>7}"
    )
    for lab, setting, method, samples, states in keys:
        rs = [r for r in rows if key(r) == (lab, setting, method, samples, states)]
        n = len(rs)
        decisions = [d for r in rs for d in r["decisions"]]
        won_t = sum(r["thoughtful"] == "won" for r in rs)
        print(
            f"{lab:42} {setting:7} {method:10} {samples:4} {states:7} {n:5}"
            f"  {_rate(sum(r['fair'] for r in rs), n):24}"
            f" {won_t / n:10.1%}  {_rate(sum(r['greedy'] for r in rs), n):24}"
            f" {statistics.fmean(decisions) if decisions else 0:6.2f}"
            f" {percentile(decisions, 0.99):6.2f} {statistics.fmean(r['seconds'] for r in rs):7.1f}"
        )


RESULTS = Path(__file__).resolve().parent.parent / "results"
HOPSCOTCH_GOAL = 0.80
"""Issue 55: the fair Hopscotch bot wins at least 80% of at least 2,000 deals."""


def hopscotch_goal(results: Path = RESULTS) -> None:
    """Hopscotch's goal from the committed per-deal rows of the rank-only model
    (``results/hopscotch.rollout.jsonl.gz``, the game's advice by rollouts, from
    bench/hopscotch_rollout.py; ``results/hopscotch.labels.jsonl.gz``, the labels policy
    alone, from bench/hopscotch_labels.py): each one's rate on the deals it played, and
    the two paired on the deals both played, by deal range."""
    bots = {
        name: {r["deal"]: r for r in _read(results / f"hopscotch.{name}.jsonl.gz")}
        for name in ("rollout", "labels")
    }
    new, old = bots["rollout"], bots["labels"]
    ranges = sorted({(d - 1) // 10_000 for d in new})
    for part in ranges:
        deals = sorted(d for d in new.keys() & old.keys() if (d - 1) // 10_000 == part)
        if not deals:
            continue
        a = sum(new[d]["won"] for d in deals)
        b = sum(old[d]["won"] for d in deals)
        only_a = sum(new[d]["won"] and not old[d]["won"] for d in deals)
        only_b = sum(old[d]["won"] and not new[d]["won"] for d in deals)
        cpu = statistics.fmean(new[d]["cpu"] for d in deals)
        print(
            f"hopscotch, deals {deals[0]}..{deals[-1]} ({len(deals)} both played):"
            f" rollouts {_rate(a, len(deals)).strip()}, labels {_rate(b, len(deals)).strip()};"
            f" won by rollouts only {only_a}, by labels only {only_b};"
            f" McNemar exact p = {mcnemar(only_a, only_b):.2g};"
            f" rollouts {cpu:.2f} CPU s a deal"
        )
    first = sorted(d for d in new if d <= 10_000)
    won = sum(new[d]["won"] for d in first)
    met = len(first) >= 2000 and won >= HOPSCOTCH_GOAL * len(first)
    print(
        f"hopscotch goal (at least {HOPSCOTCH_GOAL:.0%} of at least 2,000 deals):"
        f" {won} of {len(first)} won, {'met' if met else 'not met'}"
    )
    hopscotch_study(new, results)
    hopscotch_calibration(results)


def hopscotch_study(model: dict[int, dict[str, Any]], results: Path = RESULTS) -> None:
    """The fair study's Hopscotch rows (``results/hopscotch.fair.csv.gz``, played through
    the engine by ``patience study hopscotch --fair``), one line a bot, the hint's advice
    (``method=rollouts``) beside the rank-only model's rows of the same deals."""
    import csv
    import io

    path = results / "hopscotch.fair.csv.gz"
    if not path.exists():
        return
    rows = list(csv.DictReader(io.StringIO(gzip.decompress(path.read_bytes()).decode())))
    for settings in sorted({r["settings"] for r in rows}):
        mine = {int(r["deal"]): r["won"] == "1" for r in rows if r["settings"] == settings}
        won = sum(mine.values())
        both = sorted(mine.keys() & model.keys())
        same = sum(mine[d] == model[d]["won"] for d in both)
        print(
            f"hopscotch fair study ({settings}): {_rate(won, len(mine)).strip()} of"
            f" {len(mine)} deals; the same result as the rank-only rollouts on {same} of"
            f" {len(both)} deals both played"
        )


def hopscotch_calibration(results: Path = RESULTS) -> None:
    """The chance's calibration (issue 55) from ``results/hopscotch.chance-check.jsonl.gz``
    (bench/hopscotch_chance.py, deals never used to fit the prior: the advice's own chance
    against its own wins), per tenth of the chance shown (the posterior mean) and of the
    share of the playouts (the chance shown before)."""
    from hopscotch_chance import raw, read, table

    rows = sorted(read(results / "hopscotch.chance-check.jsonl.gz"), key=lambda r: r["deal"])
    if not rows:
        return
    print(
        f"\nhopscotch chance, calibration on deals {rows[0]['deal']}..{rows[-1]['deal']}"
        " (bench/hopscotch_chance.py; the prior fitted on deals 30001..32100):"
    )
    print(table(rows))
    print()
    print(table(rows, raw))


def main() -> None:
    """Run the benchmark (appending to ``--out``) and print its table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-n", type=int, default=20, help="deals 1..N per game and mode")
    ap.add_argument("--start", type=int, default=1, help="first deal number")
    ap.add_argument("--only", default="", help="one game and mode, e.g. klondike:mode=three")
    ap.add_argument("--setting", choices=("paper", "real", "both"), default="both")
    ap.add_argument("--method", choices=METHODS, default="reveal")
    ap.add_argument(
        "--samples", type=int, default=DEFAULT.samples, help="arrangements per decision"
    )
    ap.add_argument("--max-states", type=int, default=DEFAULT.max_states, help="states per solve")
    ap.add_argument("--budget", type=float, default=DEFAULT.budget, help="seconds per decision")
    ap.add_argument("--shortlist", type=int, default=DEFAULT.shortlist, help="plans scored fully")
    ap.add_argument(
        "--explore",
        action="store_true",
        help="reveal: score every move that shows a card or deals too (Settings.explore)",
    )
    ap.add_argument(
        "--playouts",
        type=int,
        default=0,
        help="where the best plan wins fewer arrangements than this, rank by greedy playouts",
    )
    ap.add_argument("--thoughtful", type=float, default=10.0, help="seconds per thoughtful solve")
    ap.add_argument("--out", type=Path, help="JSON lines file: rows appended, done deals skipped")
    ap.add_argument(
        "--also", type=Path, nargs="*", default=[], help="rows of other runs, read only"
    )
    ap.add_argument(
        "--hopscotch",
        action="store_true",
        help="print Hopscotch's goal (issue 55) from the committed per-deal rows, and stop",
    )
    ap.add_argument(
        "--goals",
        action="store_true",
        help="print every goal of issue 55 from the committed per-deal rows, met or not"
        " (bench/fair_goals.py), and stop",
    )
    ap.add_argument(
        "--deals",
        default="",
        help="print only the rows of deals A-B (e.g. 1001-2000: a measurement set apart"
        " from the deals tuned on, in one file)",
    )
    args = ap.parse_args()
    first, last = _range(args.deals)
    if args.hopscotch:
        hopscotch_goal()
        return
    if args.goals:
        import fair_goals

        fair_goals.main()
        return
    rows: list[dict[str, Any]] = [r for path in args.also for r in _read(path)]
    if args.out is not None and args.out.exists():
        rows += _read(args.out)
    # The thoughtful verdict of a deal another run has (the same for every bot).
    thoughtful = {(r["label"], r["setting"], r["deal"]): r["thoughtful"] for r in rows}
    done = {
        (r["label"], r["setting"], r["method"], r["samples"], r["max_states"], r["deal"])
        for r in rows
    }
    for name, options in MODES:
        if args.only and not matches((name, options), args.only):
            continue
        for setting in _settings_of(name, args.setting):
            for deal in range(args.start, args.start + args.n):
                key = (
                    label(name, options),
                    setting,
                    bot_method(args),
                    args.samples,
                    args.max_states,
                    deal,
                )
                if key in done:
                    continue
                row = _run_deal(
                    name, options, deal, setting, args, thoughtful.get(key[:2] + key[5:])
                )
                rows.append(row)
                if args.out is not None:
                    with args.out.open("a") as f:
                        f.write(json.dumps(row) + "\n")
    shown = [r for r in rows if first <= r["deal"] <= last]
    _table(shown)
    _pairs(shown)


def _range(deals: str) -> tuple[int, int]:
    """``A-B`` (or ``A``) as the first and last deal; every deal when empty."""
    if not deals:
        return 1, sys.maxsize
    low, _, high = deals.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise SystemExit(
            f"--deals {deals!r}: expected a range of deal numbers, e.g. 1001-2000"
        ) from None


if __name__ == "__main__":
    main()
