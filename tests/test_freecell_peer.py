"""bench/freecell_peer.py's board text: patience's Microsoft deals written as Freecell
Solver reads them (no ``fc-solve`` binary needed)."""

from __future__ import annotations

import pytest

from bench_scripts import load_bench
from patience.games import get_game
from patience.moves import Move

peer = load_bench("freecell_peer")

# ``pi-make-microsoft-freecell-board -t N`` of Freecell Solver 6.16.0 (the same text as
# its ``make_pysol_freecell_board.py -t N``): a line per cascade, bottom card first.
DEAL_1 = """\
JD KD 2S 4C 3S 6D 6S
2D KC KS 5C TD 8S 9C
9H 9S 9D TS 4S 8D 2H
JC 5S QD QH TH QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
"""

DEAL_11982 = """\
AH 3D KD JC 6C JD KC
AS 3H 6H 5D 2C 7D 8D
4H QS 5S 5C TH 8H 2S
AC QC 4D 8C QH 9C 3S
2D 8S 9H 9D 6D 2H
6S 7H JH TD TC QD
TS AD 9S KH 4S 4C
JS KS 3C 7C 7S 5H
"""


def test_deal_1_is_microsofts() -> None:
    assert peer.deal_board(1) == DEAL_1


def test_deal_11982_is_microsofts() -> None:
    assert peer.deal_board(11982) == DEAL_11982


def test_a_position_in_play_names_its_foundations_and_free_cells() -> None:
    game = get_game("freecell", {})
    p = game.new_position(1)
    for token in ("t6>r1", "t6>r2", "t6>f1", "r2>f1", "t6>f2"):  # 3D 2C out, AC 2C AS home
        p = game.play(p, Move.parse(token))
    lines = DEAL_1.splitlines()
    lines[5] = "7H QC"
    expected = ["Foundations: H-0 C-2 D-0 S-A", "Freecells: 3D - - -", *lines]
    assert peer.board(p) == "\n".join(expected) + "\n"


def test_the_verdict_and_states_are_read_from_the_output() -> None:
    won = "...\nThis game is solveable.\nTotal number of states checked is 123.\n"
    lost = "I could not solve this game.\nTotal number of states checked is 35265.\n"
    assert (peer.verdict_of(won), peer.states_of(won)) == ("won", 123)
    assert (peer.verdict_of(lost), peer.states_of(lost)) == ("lost", 35265)
    assert peer.verdict_of("Iterations count exceeded.\n") == "unknown"
    assert peer.verdict_of("") == "unknown"


def test_the_committed_rows_side_by_side_cover_32000_deals_without_a_contradiction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # bench/solver.py --game freecell prints this beside its own run: both solvers'
    # committed rows of Microsoft's deals 1..32,000, and any deal where they contradict.
    assert peer.committed() == 0
    out = capsys.readouterr().out
    assert "deals 1..32000 (32000 deals)" in out and "contradictions: 0" in out
    ours = next(line for line in out.splitlines() if line.startswith("patience"))
    assert ours.split()[4:8] == ["32000", "31999", "1", "0"]
