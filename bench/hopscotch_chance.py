"""Is Hopscotch's chance honest? The advice's own chance against the advice's own wins.

    python bench/hopscotch_chance.py --deals 40001-42100 --stages 24,14,8,4 --alternate \\
        --out rows.jsonl                                  # play, record (resumable)
    python bench/hopscotch_chance.py --table --out results/hopscotch.chance-check.jsonl.gz \\
        --plot docs/hopscotch-chance.png                  # the tables and the plot only
    python bench/hopscotch_chance.py --fit --out results/hopscotch.chance.jsonl.gz \\
        --out results/hopscotch.chance-fit.jsonl.gz       # the prior (hopscotch_advice.PRIOR)
    python bench/hopscotch_chance.py --cost               # the chance's cost at a start

The game's advice (``fair.hopscotch_rollout.rollout``, what the hint says and the bot plays)
plays each deal in its rank-only model (the same moves as through the engine,
docs/fair-play.md), in C (``hopscotch_advice.advice_game``, move for move the Python
``rollout``'s, tests/test_hopscotch_advice.py), and where ``--stages`` cards are left in
the stock (``--alternate``: one of them a deal, in turn, so that every decision is a game
of its own) it records the playouts of the chance the page and the hint show there:
``--playouts`` games of the advice itself from that position over stock orders of the
unseen cards (``hopscotch_advice.advice_wins``, the function the API's chance runs, with
its seed). Each row of ``--out`` is one deal: whether the advice won it, and at each
stage the playouts' results ("1" won, "0" lost, in the order the page plays them).
Resumable: deals already in the first ``--out`` are skipped.

The chance shown is the posterior mean of the advice's win probability given the
playouts won, under a Beta prior for the cards left (``hopscotch_advice.prior``);
``--fit`` fits that prior on ``--out``'s rows (beta-binomial maximum likelihood of the
playouts won, stage by stage). The tables, for each tenth of the chance shown and of the
share of the playouts (the chance shown before, which regresses to the mean): the
decisions in it, their games, the mean chance, the share of them in games won (95%
Wilson) and the gap.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from patience.cards import RANK
from patience.fair.hopscotch import opening
from patience.fair.hopscotch_advice import (
    CHANCE_PLAYOUTS,
    advice_game,
    advice_until,
    advice_wins,
    prior,
)
from patience.games import get_game
from patience.proportion import posterior_mean, wilson

Chance = Callable[[int, str], float]
"""A chance from a decision's cards left and playouts (``shown``, ``raw``)."""

STAGES = (20, 10)
"""Cards left in the stock (the waste card turned) where the chance is recorded."""


def stock_of(deal: int) -> list[int]:
    """Hopscotch deal ``deal``'s stock as ranks, its top card last."""
    return [RANK[c] for c in get_game("hopscotch").new_position(deal).stock]


def play(deal: int, playouts: int, stages: tuple[int, ...]) -> dict[str, Any]:
    """The advice's game of ``deal``, with each playout of the chance at ``stages`` (a
    stage the game does not reach, lost at a card only a cycle was left for, has none:
    ``reached`` lists the stages that have)."""
    stock = stock_of(deal)
    s, left = opening(stock)
    outcomes, reached = [], []
    t0 = time.process_time()
    rest: tuple[Any, ...] = (s, None, stock, left)  # the game from its start
    for stage in stages:
        at = advice_until(s, None, stock, left, stage)
        if at is None:
            continue
        state, r, unseen = at
        reached.append(stage)
        outcomes.append("".join(str(advice_wins(state, r, unseen, i, 1)) for i in range(playouts)))
        rest = (state, r, stock[:stage], unseen)  # the same game, from there on
    won, _ = advice_game(*rest)
    return {
        "deal": deal,
        "won": won,
        "stages": reached,
        "outcomes": outcomes,
        "cpu": round(time.process_time() - t0, 3),
    }


def decisions(rows: list[dict[str, Any]]) -> list[tuple[int, str, bool, int]]:
    """Every decision of ``rows``: cards left in the stock, its playouts ("1" won), whether
    the game was won, the deal."""
    return [
        (stage, bits, r["won"], r["deal"])
        for r in rows
        for stage, bits in zip(r["stages"], r["outcomes"], strict=True)
    ]


def shown(stage: int, bits: str) -> float:
    """The chance the page and the hint show for ``bits`` (its playouts) with ``stage``
    cards left: the posterior mean under the advice's prior (the function ``policy_chance``
    runs)."""
    return posterior_mean(bits.count("1"), len(bits), prior(stage))


def raw(stage: int, bits: str) -> float:
    """The share of the playouts won (the chance shown until 2026-12-07)."""
    return bits.count("1") / len(bits)


def _cells(rows: list[dict[str, Any]], chance: Chance) -> list[list[tuple[float, bool, int]]]:
    """The decisions of ``rows`` per tenth of ``chance``: (chance, game won, deal)."""
    cells: list[list[tuple[float, bool, int]]] = [[] for _ in range(10)]
    for stage, bits, won, deal in decisions(rows):
        said = chance(stage, bits)
        cells[min(int(said * 10 + 1e-9), 9)].append((said, won, deal))
    return cells


def _row(label: str, cell: list[tuple[float, bool, int]]) -> tuple[str, float]:
    n = len(cell)
    won = sum(w for _, w, _ in cell)
    mean = sum(c for c, _, _ in cell) / n
    low, high = wilson(won, n)
    gap = won / n - mean
    line = (
        f"| {label} | {n} | {len({d for _, _, d in cell})} | {mean:.3f} |"
        f" {won / n:.3f} ({low:.3f}-{high:.3f}) | {100 * gap:+.1f} |"
        f" {'yes' if low <= mean <= high else 'no'} |"
    )
    return line, gap


def table(rows: list[dict[str, Any]], chance: Chance = shown) -> str:
    """Per tenth of the chance (``shown``, or ``raw``): decisions, games, the mean chance,
    the share of them in games won (95% Wilson), the gap and whether the interval holds
    the mean chance; then the Brier score and the tenths more than 3 points off."""
    head = "shown (posterior mean)" if chance is shown else "share of the playouts"
    lines = [
        f"| {head} | decisions | games | mean chance | won (95%) | gap | in interval |",
        "|---|---:|---:|---:|---|---:|---|",
    ]
    cells = _cells(rows, chance)
    off = []
    for tenth, cell in enumerate(cells):
        if cell:
            line, gap = _row(f"{tenth * 10}-{tenth * 10 + 10}%", cell)
            lines.append(line)
            if abs(gap) > 0.03:
                off.append(f"{tenth * 10}-{tenth * 10 + 10}% ({100 * gap:+.1f})")
    every = [c for cell in cells for c in cell]
    if every:
        lines.append(_row("all", every)[0])
    brier = sum((c - w) ** 2 for c, w, _ in every) / max(len(every), 1)
    games = {r["deal"]: r["won"] for r in rows}
    won = sum(games.values())
    cpu = sum(r["cpu"] for r in rows)
    playouts = sorted({len(b) for _, b, _, _ in decisions(rows)})
    stages = Counter(stage for stage, _, _, _ in decisions(rows))
    lines.append(
        f"\n{len(games)} games ({won} won, {won / max(len(games), 1):.1%}), {len(every)} decisions"
        f" (cards left: {dict(sorted(stages.items(), reverse=True))}; playouts a decision:"
        f" {playouts}), Brier {brier:.4f}, {cpu:.0f} CPU s"
    )
    lines.append(
        "within 3 points in every tenth: "
        + ("yes" if not off else f"no, {len(off)} tenths off: {', '.join(off)}")
    )
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """The reliability plot: per tenth, the share won (95% interval) against the mean
    chance shown, and against the share of the playouts (the chance shown before)
    (matplotlib, the ``report`` extra)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 6))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", lw=1, label="perfect calibration")
    for chance, mark, name in (
        (shown, "o", "the chance shown (posterior mean)"),
        (raw, "s", "the share of the 10 playouts (before)"),
    ):
        pts = []
        for cell in _cells(rows, chance):
            if cell:
                won = sum(w for _, w, _ in cell)
                low, high = wilson(won, len(cell))
                pts.append((sum(c for c, _, _ in cell) / len(cell), won / len(cell), low, high))
        err = [[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]]
        ax.errorbar(
            [p[0] for p in pts], [p[1] for p in pts], yerr=err, fmt=mark, capsize=3, label=name
        )
    deals = [r["deal"] for r in rows]
    ax.set(
        xlabel="chance (mean in each tenth)",
        ylabel="share of games won (95% interval)",
        title=f"Hopscotch: the advice's chance, deals {min(deals)}..{max(deals)}",
        xlim=(0, 1),
        ylim=(0, 1),
    )
    ax.legend(loc="upper left")
    fig.savefig(path, dpi=100)


def _log_beta_binomial(k: int, n: int, a: float, b: float) -> float:
    """log P(k of n | Beta(a, b)), without the binomial coefficient."""
    lg = math.lgamma
    return lg(k + a) + lg(n - k + b) - lg(n + a + b) + lg(a + b) - lg(a) - lg(b)


def _minimise(f: Callable[[list[float]], float], x0: list[float]) -> list[float]:
    """``f``'s minimum near ``x0`` (Nelder-Mead, 400 steps: enough for two parameters)."""
    pts = [list(x0)] + [[x + (0.5 if i == j else 0) for j, x in enumerate(x0)] for i in range(2)]
    vals = [f(p) for p in pts]
    for _ in range(400):
        order = sorted(range(3), key=vals.__getitem__)
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        c = [(pts[0][j] + pts[1][j]) / 2 for j in range(2)]
        out = [c[j] + (c[j] - pts[2][j]) for j in range(2)]
        f_out = f(out)
        if f_out < vals[0]:
            far = [c[j] + 2 * (c[j] - pts[2][j]) for j in range(2)]
            f_far = f(far)
            pts[2], vals[2] = (far, f_far) if f_far < f_out else (out, f_out)
        elif f_out < vals[1]:
            pts[2], vals[2] = out, f_out
        else:
            ins = [c[j] + (pts[2][j] - c[j]) / 2 for j in range(2)]
            f_ins = f(ins)
            if f_ins < vals[2]:
                pts[2], vals[2] = ins, f_ins
            else:
                pts = [pts[0]] + [[(pts[0][j] + p[j]) / 2 for j in range(2)] for p in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    return pts[min(range(3), key=vals.__getitem__)]


def fit(rows: list[dict[str, Any]]) -> dict[int, tuple[float, float]]:
    """The advice's Beta prior (a, b) at each stage of ``rows``: the beta-binomial maximum
    likelihood of the playouts won at its decisions (the games' results are left for
    checking), over the prior's mean (as a logit) and the log of its weight ``a + b``."""
    out = {}
    for stage in sorted({s for s, _, _, _ in decisions(rows)}, reverse=True):
        counts = Counter((b.count("1"), len(b)) for s, b, _, _ in decisions(rows) if s == stage)

        def minus_log_likelihood(
            x: list[float], counts: Counter[tuple[int, int]] = counts
        ) -> float:
            mean, weight = 1 / (1 + math.exp(-x[0])), math.exp(x[1])
            a, b = mean * weight, (1 - mean) * weight
            return -sum(m * _log_beta_binomial(k, n, a, b) for (k, n), m in counts.items())

        x = _minimise(minus_log_likelihood, [1.5, 1.0])
        mean, weight = 1 / (1 + math.exp(-x[0])), math.exp(x[1])
        out[stage] = (round(mean * weight, 4), round((1 - mean) * weight, 4))
    return out


def cost(deals: list[int]) -> str:
    """The hint's and the chance's cost at a deal's start (nothing turned yet, then the
    first card turned), through the functions the web app runs (``fair_assist``): CPU
    seconds of the process (both threads) and wall seconds."""
    import threading
    from functools import partial

    from patience import fair_assist
    from patience.fair import Knowledge
    from patience.fair.greedy import state_key
    from patience.moves import Move

    game = get_game("hopscotch")
    head = f"{'deal':>5} {'cards turned':>12} {'hint cpu':>8} {'wall':>6}"
    lines = [f"{head} {'chance cpu':>10} {'wall':>6}"]
    for d in deals:
        p = game.new_position(d)
        history = [p]
        for turned in (0, 1):
            if turned:
                p = game.play(p, Move.deal())
                history.append(p)
            k = Knowledge.of_history(history)
            keys = {state_key(q) for q in history}
            got = []
            for run in (
                partial(fair_assist.fair_hint, p, k, keys, 600.0, threading.Event()),
                partial(fair_assist.chance_of, p, k, 600.0, threading.Event(), history=keys),
            ):
                c0, w0 = time.process_time(), time.perf_counter()
                reply = run()
                got.append((time.process_time() - c0, time.perf_counter() - w0, reply))
            (hc, hw, _), (cc, cw, ch) = got
            lines.append(
                f"{d:>5} {turned:>12} {hc:>8.2f} {hw:>6.2f} {cc:>10.2f} {cw:>6.2f}"
                f"  {ch['chance']} of {ch['samples']}{' (cut)' if ch['cut'] else ''}"
            )
    return "\n".join(lines)


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of ``path`` (JSON lines, gzipped when it ends in .gz; none if missing)."""
    if not path.exists():
        return []
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return [json.loads(line) for line in data.decode().splitlines() if line.strip()]


def _deals(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    """Play the deals (appending to ``--out``) within ``--cpu`` seconds, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="30001-32000")
    ap.add_argument("--playouts", type=int, default=CHANCE_PLAYOUTS)
    ap.add_argument("--stages", default=",".join(map(str, STAGES)), help="cards left, e.g. 20,10")
    ap.add_argument(
        "--alternate",
        action="store_true",
        help="one stage a deal, in turn (deal modulo the stages): independent decisions",
    )
    ap.add_argument("--cpu", type=float, default=1e9, help="stop after this many CPU s")
    ap.add_argument("--out", type=Path, action="append", default=[], help="rows (repeatable)")
    ap.add_argument("--table", action="store_true", help="only print the tables of --out")
    ap.add_argument("--cost", action="store_true", help="the chance's cost at deals' starts")
    ap.add_argument("--plot", type=Path, help="draw the reliability plot into this PNG")
    ap.add_argument("--fit", action="store_true", help="print the prior fitted on --out's rows")
    args = ap.parse_args()
    if args.cost:
        print(cost(_deals(args.deals)[:5]))
        return
    rows = [r for out in args.out for r in read(out)]
    if args.fit:
        print(f"PRIOR = {fit(rows)}")
        return
    if not args.table:
        done = {r["deal"] for r in read(args.out[0])} if args.out else set()
        stages = tuple(int(x) for x in args.stages.split(","))
        start = time.process_time()
        for d in _deals(args.deals):
            if d in done or time.process_time() - start > args.cpu:
                continue
            at = (stages[d % len(stages)],) if args.alternate else stages
            rows.append(play(d, args.playouts, at))
            if args.out:
                with args.out[0].open("a") as f:
                    f.write(json.dumps(rows[-1]) + "\n")
    ordered = sorted(rows, key=lambda r: r["deal"])
    print(table(ordered))
    print()
    print(table(ordered, raw))
    if args.plot:
        plot(ordered, args.plot)


if __name__ == "__main__":
    sys.exit(main())
