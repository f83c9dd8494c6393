"""Each game's declaration (rules/declare.py): what every front end draws and offers."""

from __future__ import annotations

import json

import pytest

from patience.games import GAMES, get_game, position_from_json
from patience.games.describe import describe
from patience.position import Position
from patience.rules import Game
from patience.rules.declare import pile_kind
from patience.rules.marks import table_marks


def every_variant() -> list[Game]:
    """Every registered game with every value of each of its options."""
    out = []
    for name, cls in GAMES.items():
        out.append(get_game(name, {}))
        for key, values in cls.option_spec.items():
            out.extend(get_game(name, {key: v}) for v in values[1:])
    return out


def piles_of(game: Game, p: Position) -> set[str]:
    """The piles a position of ``game`` has (independently of the declaration)."""
    names = {f"f{i + 1}" for i in range(len(p.foundations))}
    names |= {f"t{i + 1}" for i in range(len(p.tableau))}
    names |= {f"r{i + 1}" for i in range(len(p.reserve))}
    if game.has_stock:
        names |= {"stock", "waste"}
    return names


@pytest.mark.parametrize("game", every_variant(), ids=lambda g: f"{g.name}{dict(g.options)}")
def test_every_arrangement_places_each_pile_once(game: Game) -> None:
    start = game.new_position(1)
    table = game.table()
    assert table.arrangements
    for arrangement in table.arrangements:
        placed = arrangement.piles()
        assert len(placed) == len(set(placed))
        assert set(placed) == piles_of(game, start)
        for r in arrangement.rows:
            for slot in r.slots:
                assert 0 <= slot.col <= arrangement.cols - 1
            for line in {s.line for s in r.slots}:
                cols = sorted(s.col for s in r.slots if s.line == line)
                assert all(b - a >= 1 for a, b in zip(cols, cols[1:], strict=False)), "overlap"


@pytest.mark.parametrize("game", every_variant(), ids=lambda g: f"{g.name}{dict(g.options)}")
def test_description_is_json_and_names_every_option(game: Game) -> None:
    d = json.loads(json.dumps(describe(game)))
    assert d["name"] == game.name and d["title"] == game.title
    assert [o["key"] for o in d["choices"]] == list(game.option_spec)
    for o in d["choices"]:
        values = [v["value"] for v in o["values"]]
        assert values == list(game.option_spec[o["key"]])
        assert o["default"] == values[0]
        # Built-in games name every option and value for the player (no raw keys shown).
        assert o["label"] != o["key"]
        assert all(v["label"] != v["value"] for v in o["values"])
    assert d["selected"] == dict(game.options)
    assert d["help"] and d["help"]["intro"] and d["help"]["sections"]


def test_waste_fans_when_dealing_three() -> None:
    three = get_game("klondike", {"mode": "three"}).table()
    single = get_game("klondike", {}).table()
    assert three.waste_shown == 3 and single.waste_shown == 1
    fan = {s.pile: s.fan for r in three.arrangements[0].rows for s in r.slots}
    assert fan["waste"] == "right"


def test_pile_kinds() -> None:
    assert [pile_kind(p) for p in ("stock", "waste", "f2", "t13", "r7")] == [
        "stock",
        "waste",
        "foundation",
        "tableau",
        "reserve",
    ]


def test_marks_follow_the_rules() -> None:
    klondike = get_game("klondike", {})
    marks = table_marks(klondike, klondike.new_position(1))
    assert marks["empty_tableau_takes"] == 13
    assert [f["start"] for f in marks["foundations"]] == [1, 1, 1, 1]
    assert not marks["finishes"] and not marks["stock_face_up"]

    hop = get_game("hopscotch", {})
    marks = table_marks(hop, hop.new_position(1))
    assert [f["step"] for f in marks["foundations"]] == [1, 2, 3, 4]
    assert marks["empty_tableau_takes"] is None

    lady = get_game("lady-jane", {})
    p = lady.new_position(7)
    assert p.base is not None
    marks = table_marks(lady, p)
    assert {f["start"] for f in marks["foundations"]} == {p.base}
    assert marks["empty_tableau_takes"] == (p.base - 2) % 13 + 1

    bd = get_game("bakers-dozen", {"kings": "empty-piles"})
    assert table_marks(bd, bd.new_position(1))["empty_tableau_takes"] == 13
    plain = get_game("bakers-dozen", {})
    assert table_marks(plain, plain.new_position(1))["empty_tableau_takes"] is None


def test_finish_is_offered_only_when_sending_cards_home_wins() -> None:
    # Klondike with every card face up, nothing in stock or waste: it always comes out.
    game = get_game("klondike", {})
    open_piles = position_from_json(
        {
            "game": "klondike",
            "options": {},
            "deal": None,
            "stock": [],
            "waste": [],
            "foundations": [["AC"], ["AD"], ["AH"], ["AS"]],
            "tableau": [
                {"down": [], "up": [r + s for r in "KQJT98765432"]} for s in ("C", "D", "H", "S")
            ]
            + [{"down": [], "up": []}] * 3,
        }
    )
    assert table_marks(game, open_piles)["finishes"]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_declared_solver_adapter_is_the_one_the_solver_runs(name: str) -> None:
    from patience.solver.base import Adapter
    from patience.solver.search import adapter_for

    game = get_game(name, {})
    adapter = adapter_for(game)
    assert isinstance(adapter, Adapter) and adapter.game is game
    if game.solver_adapter is not None:
        module, _, cls = game.solver_adapter.partition(":")
        assert type(adapter).__module__ == module and type(adapter).__name__ == cls
