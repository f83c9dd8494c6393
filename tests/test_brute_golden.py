"""The plain search's committed verdicts (``endgames.BRUTE_GOLDEN``), which the tests
that draw random end games read in place of deciding each again: a sample of them is
decided again live, so that a rules change that makes them stale is caught here."""

from __future__ import annotations

import json
import random

import pytest

from endgames import exhaust, load_brute_golden
from patience.games import position_from_json

SAMPLE = 40
"""Entries decided again on every run, drawn once (seed 0) among those the plain search
decides within 3,000 positions, and as many won as lost where there are."""


def sample() -> list[dict[str, object]]:
    entries = sorted(load_brute_golden().values(), key=lambda e: str(e["key"]))
    cheap = [e for e in entries if int(str(e["seen"])) <= 3_000]
    rng = random.Random(0)
    by_verdict = {v: [e for e in cheap if e["verdict"] == v] for v in ("won", "lost", None)}
    picked: list[dict[str, object]] = []
    for v, share in (("won", 0.4), ("lost", 0.4), (None, 0.2)):
        pool = by_verdict[v]
        picked += rng.sample(pool, min(len(pool), int(SAMPLE * share)))
    return picked


def test_the_golden_file_holds_every_kind_of_verdict() -> None:
    entries = list(load_brute_golden().values())
    verdicts = [e["verdict"] for e in entries]
    assert len(entries) > 500
    assert verdicts.count("won") > 100 and verdicts.count("lost") > 100
    games = {json.loads(str(e["key"]).rsplit("@", 1)[0])["game"] for e in entries}
    assert games >= {"klondike", "lady-jane", "bakers-dozen", "hopscotch", "freecell"}


@pytest.mark.parametrize("chunk", range(4))
def test_a_sample_of_the_pinned_verdicts_is_decided_again_live(chunk: int) -> None:
    for entry in sample()[chunk::4]:
        position, limit = str(entry["key"]).rsplit("@", 1)
        p = position_from_json(json.loads(position))
        assert list(exhaust(p, int(limit))) == [entry["verdict"], entry["seen"]], entry["key"]
