"""The move table (``solver/moves.py``): codes, kinds, how moves land, and the rules that give them.

A new move kind or rule value is one entry of the table plus its rules in the families
(``solver/families/README.md``, "A new move kind"): the tests at the end add entries to the
table and check that the readers (the layout schema, the rules in words, Solvitaire's files,
fc-solve's options, the pictures, the peers' positions, the referee) take them with no change
of their own, and that the engines refuse what they do not play.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver import api, families, moves, solvitaire
from solver.bench.peers import Step, fc_solve_options, solvitaire_steps
from solver.describe import describe
from solver.draw import replay as pictures
from solver.errors import UnsupportedError
from solver.families.tableau.position import TableauPosition
from solver.families.tableau.referee import TableauGame
from solver.layout import parse_text, rule_values

ROOT = Path(__file__).resolve().parent.parent


@given(kind=st.sampled_from(moves.KINDS), src=st.integers(0, moves.STACK_MASK), dst=st.integers(0, moves.STACK_MASK),
       n=st.integers(0, moves.COUNT_MASK), place=st.integers(0, moves.PLACE_MASK))
def test_codes_round_trip(kind, src, dst, n, place):
    code = moves.code(kind, src, dst, n, place)
    assert 0 <= code < 1 << 30  # bit 30 is left to the positions
    assert moves.decode(code) == (kind, src, dst, n, place)


def test_fields_out_of_range_are_refused():
    for bad in ({"src": moves.STACK_MASK + 1}, {"dst": -1}, {"n": 128}, {"place": 128}):
        with pytest.raises(ValueError, match="out of range"):
            moves.code(moves.CARDS, **bad)


def test_each_kind_has_its_own_number_and_name():
    assert len({k.number for k in moves.KINDS}) == len({k.name for k in moves.KINDS}) == len(moves.KINDS)
    assert all(0 <= k.number <= moves.KIND_MASK for k in moves.KINDS)


@pytest.mark.parametrize("move, kind", [
    ({"card": "7C", "from": "tableau:0", "to": "tableau:3", "count": 2}, moves.CARDS),
    ({"card": "7C", "from": "waste", "to": "foundation:0"}, moves.CARDS),
    ({"card": "7C", "from": "stock", "to": "hole"}, moves.CARDS),
    ({"card": "7C", "from": "stock", "to": "reserve:2"}, moves.CARDS),  # a card placed (the reserve family)
    ({"card": "7C", "from": "stock", "to": "waste", "count": 3}, moves.TURN),
    ({"card": "7C", "from": "waste", "to": "stock", "count": 20}, moves.REDEAL),
    ({"card": "7C", "from": "stock", "to": "reserve", "count": 8}, moves.ROW),
])
def test_a_moves_kind_is_told_by_its_stacks(move, kind):
    assert moves.kind_of(move) is kind


def test_how_each_kind_lands_on_plain_stacks():
    stacks = {"stock": ["AC", "2C", "3C", "4C"], "waste": [], "tableau:0": ["KD", "QS"], "tableau:1": ["KH"],
              "reserve:0": [], "reserve:1": []}
    assert moves.land(stacks, moves.contract("AC", "stock", "waste", 3)) == [("waste", 0), ("waste", 1), ("waste", 2)]
    assert stacks["waste"] == ["AC", "2C", "3C"] and stacks["stock"] == ["4C"]
    assert moves.land(stacks, moves.contract("QS", "tableau:0", "tableau:1")) == [("tableau:1", 1)]
    assert stacks["tableau:1"] == ["KH", "QS"] and stacks["tableau:0"] == ["KD"]
    assert moves.land(stacks, moves.contract("4C", "stock", "reserve", 1)) == [("reserve:0", 0)]
    assert stacks["reserve:0"] == ["4C"] and stacks["stock"] == []
    assert moves.land(stacks, moves.contract("AC", "waste", "stock", 3)) == [("stock", 0), ("stock", 1), ("stock", 2)]
    assert stacks["stock"] == ["AC", "2C", "3C"] and stacks["waste"] == []


def test_the_rule_values_are_the_schemas():
    """The layout schema takes each move rule's values from the table, and every shipped
    layout's values are entries of it."""
    for name in ("tableau.moves", "stock.turn", "foundations.takes"):
        assert moves.values(name) and len(set(moves.values(name))) == len(moves.values(name))
    from solver.layout import Layout, rule_values
    from solver.schema import builtin_names

    for layout in map(api.load_layout, builtin_names()):
        if not isinstance(layout, Layout):  # (peg boards, games of chance)
            continue
        for name in ("tableau.moves", "stock.turn", "foundations.takes"):
            assert moves.rule(name, rule_values(layout)[name]).rule == name


def test_the_readers_import_the_table():
    """The modules the move table names as its readers read it (an import of ``solver.moves``)."""
    doc = moves.__doc__ or ""
    readers = set(re.findall(r"``(solver/[\w/]+\.py)``", doc)) - {"solver/positions.py"}
    assert {"solver/layout.py", "solver/describe.py", "solver/solvitaire.py", "solver/draw/replay.py",
            "solver/bench/peers.py", "solver/bench/disagree.py", "solver/families/tableau/position.py",
            "solver/families/tableau/referee.py", "solver/families/tableau/model.py"} <= readers
    for path in sorted(readers):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        names = {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names}
        assert "moves" in names, path


# ------------------------------------------------------------ a new entry is read as it stands

# A value no family plays (Solvitaire's maximal groups), added to the table by the tests below.
MAXIMAL = moves.Rule("tableau.moves", "maximal-test", "Only a whole built sequence moves, never a part of it.",
                     (moves.CARDS,), ({"move built group": "maximal-group"},))
MAXIMALISH = {"tableau piles": {"count": 4, "build policy": "red-black", "move built group": "maximal-group"},
              "max rank": 4}


def test_a_new_rule_value_is_one_entry(monkeypatch):
    """A value added to the table: the schema takes it, the rules in words say it, Solvitaire's
    files map to it and back, fc-solve is not offered it; the engine and the referee, which
    have no rule for it yet, refuse it (they are where its rules go)."""
    monkeypatch.setattr(moves, "RULES", (*moves.RULES, MAXIMAL))
    lay = solvitaire.rules_to_layout(MAXIMALISH, "maximalish.json", "maximalish")
    assert lay.tableau.moves == "maximal-test"
    assert "Only a whole built sequence moves, never a part of it." in describe(lay)
    back = families.family_of(lay).solvitaire_rules(lay)
    assert back is not None and back["tableau piles"]["move built group"] == "maximal-group"
    assert fc_solve_options(lay) is None
    text = 'title = "x"\ndecks = 1\n[tableau]\ncount = 4\ndeal = [13, 13, 13, 13]\nmoves = "maximal-test"\n' \
           '[foundations]\nrows = [{ base = "A" }]\n'
    assert parse_text(text, "x.toml", "x").tableau.moves == "maximal-test"
    deal = api.make_deal(lay, 1)
    with pytest.raises(UnsupportedError, match="tableau.moves = 'maximal-test'"):
        TableauPosition(lay, deal)
    assert "no rule for tableau.moves = 'maximal-test'" in (TableauGame(lay, deal).problem or "")


def test_without_the_entry_the_value_is_refused_by_name():
    with pytest.raises(Exception, match=r"\[tableau piles\]\[move built group\] = 'maximal-group'"):
        solvitaire.rules_to_layout(MAXIMALISH, "maximalish.json", "maximalish")


# ------------------------------------------------------------ Spider's entries, read and played

SPIDERISH = {"tableau piles": {"count": 4, "build policy": "any-suit", "move built group": "yes",
                               "move built group policy": "same-suit", "face up cards": "top"},
             "foundations": {"only complete pile moves": True}, "stock": {"size": 4, "deal type": "tableau piles"},
             "max rank": 4}


def test_spiders_entries_are_read_as_they_stand():
    """Spider's three entries (a row dealt onto the columns, groups of one suit, whole suits
    home as whole columns): the schema, the words, Solvitaire's files both ways; fc-solve is
    not offered them; the position and the referee play them."""
    lay = solvitaire.rules_to_layout(SPIDERISH, "spiderish.json", "spiderish")
    assert (lay.stock.turn, lay.tableau.moves, lay.foundations.takes) == ("deal-row", "suit-sequence", "column")
    words = describe(lay)
    for rule in (("stock.turn", "deal-row"), ("tableau.moves", "suit-sequence"), ("foundations.takes", "column")):
        assert moves.rule(*rule).words in words
    back = families.family_of(lay).solvitaire_rules(lay)
    assert back is not None
    assert back["stock"] == {"size": 4, "deal type": "tableau piles"}
    assert back["foundations"]["only complete pile moves"] is True
    assert back["tableau piles"]["move built group policy"] == "same-suit"
    assert rule_values(solvitaire.rules_to_layout(back, "back.json", "spiderish")) == rule_values(lay)
    assert fc_solve_options(lay) is None
    deal = api.make_deal(lay, 1)
    assert TableauGame(lay, deal).problem is None
    pos = TableauPosition(lay, deal)
    assert any(moves.decode(m).kind is moves.ROW for m in pos.legal_moves())


def test_the_row_kind_lands_and_is_read_back():
    """A row dealt onto the tableau columns (Spider's stock): the pictures land it, a peer's
    positions read back as it, the tableau referee plays it in a game that deals rows and
    refuses it in one that does not."""
    move = moves.contract("AC", "stock", "tableau", 2)
    assert moves.kind_of(move).name == "row"
    lay = api.load_layout("klondike")
    table = pictures.Table({"stock": ["AC", "2C"], "waste": [], **{f"tableau:{i}": [] for i in range(7)}})
    step = pictures.play(lay, table, move)
    assert step.table.stacks["tableau:0"] == ["AC"] and step.table.stacks["tableau:1"] == ["2C"]
    assert step.moved == (("tableau:0", 0), ("tableau:1", 0))
    before = {"Tableau Piles": [["KD"], ["KH"], ["KS"]], "Stock | Waste": [["9C", "8C"], []]}
    after = {"Tableau Piles": [["KD", "8C"], ["KH", "9C"], ["KS"]], "Stock | Waste": [[], []]}
    assert solvitaire_steps([before, after]) == [Step("stock", "tableau", 2)]
    game = TableauGame(lay, api.make_deal(lay, 1))
    assert game.play(moves.contract(game.stacks()["stock"][-1], "stock", "tableau", 7)) == \
        "move 1: the stock does not deal rows onto tableau in this game"
    spider = solvitaire.rules_to_layout(SPIDERISH, "spiderish.json", "spiderish")
    game = TableauGame(spider, api.make_deal(spider, 1))
    first, columns = game.stacks()["stock"][-1], [list(c) for c in game.columns]
    assert game.play(moves.contract(first, "stock", "tableau", 3)) == \
        f"move 1: the row deals {first} and 4 card(s), not {first} and 3"
    assert game.play(moves.contract(first, "stock", "tableau", 4)) is None
    assert [c[-1] for c in game.columns][0] == first and [c[:-1] for c in game.columns] == columns
