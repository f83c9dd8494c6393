"""Baker's Dozen searched by classes of states (the reference in ``tests/bd_classes_oracle.py``,
docs/solver-log.md, sessions 30 and 31): for each deal, the verdict, the classes met,
the arrangements enumerated, the children made and the CPU seconds, of the reference
search in Python and of its native twin (``_bd_classes.h``) side by side, with the
looser game's give-up of the solver (``--looser 0``: the classes alone; ``--looser``
twice: one row each):

    python bench/groups.py --deals 6826,2110 --seconds 60
    python bench/groups.py --deals 417 --build any-suit --only native --seconds 600
    python bench/groups.py --deals 310,1474 --only native --looser 0 --looser 3000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from bd_classes_oracle import ClassSearch  # noqa: E402  (the tests' reference search)
from patience.games import get_game  # noqa: E402
from patience.solver.alternating import native  # noqa: E402
from patience.solver.bakers_dozen import BakersDozenAdapter  # noqa: E402
from patience.solver.schedule import Verdict  # noqa: E402


def reference(deal: int, build: str, seconds: float, looser: int) -> tuple[Verdict, int, int, int]:
    game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
    adapter = BakersDozenAdapter(game)
    adapter.looser_states = looser
    search = ClassSearch(adapter, game.new_position(deal))
    verdict = search.solve(deadline=time.monotonic() + seconds)
    return verdict, search.classes, search.arrangements, search.states


def native_twin(
    deal: int, build: str, seconds: float, looser: int
) -> tuple[Verdict, int, int, int]:
    game = get_game("bakers-dozen", {"build": build, "kings": "to-bottom"})
    piles = [bytes(pile) for pile in game.new_position(deal).tableau]
    code, states, classes, arrangements, _ = native.bakers_dozen_classes(
        piles, build == "other-suit", seconds, -1, -1, None, looser
    )
    return Verdict.of_code(code), classes, arrangements, states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", required=True, help="comma-separated deal numbers")
    ap.add_argument("--build", default="other-suit", choices=("any-suit", "other-suit"))
    ap.add_argument("--seconds", type=float, default=60.0, help="the most a search may take")
    ap.add_argument("--only", choices=("reference", "native"), help="one of the two searches")
    ap.add_argument(
        "--looser",
        type=int,
        action="append",
        help="the looser game's give-up, in states (0: not used; default: the solver's)",
    )
    args = ap.parse_args()
    loosers = args.looser or [BakersDozenAdapter.looser_states]
    searches = {"reference": reference, "native": native_twin}
    if native is None:
        del searches["native"]
    if args.only:
        searches = {args.only: searches[args.only]}
    print(" deal  search      looser  verdict     classes   arrangements       children     CPU s")
    for deal in (int(d) for d in args.deals.split(",")):
        for looser in loosers:
            for name, search in searches.items():
                start = time.process_time()
                verdict, classes, arrangements, states = search(
                    deal, args.build, args.seconds, looser
                )
                print(
                    f"{deal:>5}  {name:<10} {looser:>6}  {verdict:>7}  {classes:>10,}"
                    f"  {arrangements:>13,}  {states:>13,}  {time.process_time() - start:>8.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
