"""The Python search's committed verdicts (``search_golden.SEARCH_GOLDEN``), which the
tests that hold another search to it read in place of searching again: a sample of them
is searched again live, so that a change of the search or of the rules that makes them
stale is caught here."""

from __future__ import annotations

import json
import random

import pytest

from patience.games import position_from_json
from search_golden import live_search, load_search_golden

SAMPLE = {"won": 6, "lost": 5, "unknown": 2}
"""Entries searched again on every run, of each search (depth-first with each adapter,
best-first) and verdict: drawn once (seed 0) among those of 3,000 states at most (5,000
for the undecided, which spent their budget)."""


def sample() -> list[dict[str, object]]:
    entries = sorted(load_search_golden().values(), key=lambda e: str(e["key"]))
    # Undecided ones ran out of their states: those of 5,000 at most.
    cheap = [
        e for e in entries if int(str(e["states"])) <= (3_000, 5_001)[e["verdict"] == "unknown"]
    ]
    rng = random.Random(0)
    picked: list[dict[str, object]] = []
    for kind in ("own", "plain", "best"):
        mine = [e for e in cheap if str(e["key"]).rsplit("/", 1)[1].startswith(kind)]
        for v, count in SAMPLE.items():
            pool = [e for e in mine if e["verdict"] == v]
            picked += rng.sample(pool, min(len(pool), count))
    return picked


def test_the_golden_file_holds_every_kind_of_verdict() -> None:
    entries = list(load_search_golden().values())
    assert len(entries) > 500
    for kind in ("own", "plain", "best"):
        verdicts = [
            e["verdict"] for e in entries if str(e["key"]).rsplit("/", 1)[1].startswith(kind)
        ]
        assert verdicts.count("won") > 10 and verdicts.count("lost") >= 5, kind
    games = {json.loads(str(e["key"]).rsplit("@", 1)[0])["game"] for e in entries}
    assert games >= {"klondike", "lady-jane", "bakers-dozen", "freecell"}
    assert len(sample()) >= 36


@pytest.mark.parametrize("chunk", range(4))
def test_a_sample_of_the_pinned_verdicts_is_searched_again_live(chunk: int) -> None:
    for entry in sample()[chunk::4]:
        position, rest = str(entry["key"]).rsplit("@", 1)
        max_states, kind = rest.split("/")
        p = position_from_json(json.loads(position))
        found = live_search(p, int(max_states), kind)
        assert list(found) == [entry["verdict"], entry["states"], entry["line"]], entry["key"]
