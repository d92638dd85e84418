"""Worm Hole: the hole family with free cells (``cells.count``): rules, referee, bounds, deals, files."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import assert_push_then_pop_restores

from solver import api, cards, families
from solver import deal as deals
from solver.errors import UnsupportedError
from solver.families import brute
from solver.families.card import DEAL_READERS
from solver.families.hole.position import HolePosition
from solver.families.hole.referee import HoleGame
from solver.layout import Cells
from solver.limits import Limits

WORM = api.load_layout("worm-hole")
GOLF = api.load_layout("golf")


def small(columns: int, max_rank: int = 13, cells: int = 1, wrap: bool = True):
    base = WORM if wrap else replace(WORM, hole=replace(WORM.hole, wrap=False))
    return replace(base, max_rank=max_rank, cells=Cells(cells),
                   tableau=replace(WORM.tableau, count=columns, deal=(1,) * columns))


def deal_of(hole: str, columns: list[str], cell: str = "") -> dict[str, list[int]]:
    d = {"hole": [cards.parse(hole)]}
    for i, col in enumerate(columns):
        d[f"tableau:{i}"] = [cards.parse(c) for c in col.split()]
    if cell:
        d["cell:0"] = [cards.parse(cell)]
    return d


@pytest.mark.parametrize("hole, columns, cell, expected", [
    ("AS", ["2C 3H"], "", "won"),  # 3H to the cell, 2C, then 3H from the cell
    ("AS", ["2C 3H 9D"], "", "lost"),  # 9D must wait in the cell, then 3H has nowhere to go
    ("AS", ["2C 3H", "4D"], "", "won"),
    ("5S", ["6C 2D"], "", "lost"),  # 2D to the cell, 6C, and 2D never fits
    ("5S", ["7C"], "6H", "won"),  # a card dealt in the cell: 6H, then 7C
    ("5S", ["6C 4D"], "7H", "lost"),  # 4D, and then neither 6C nor 7H is next to it
    ("AS", ["QC"], "KH", "won"),  # KH from the cell onto AS (kings and aces wrap), then QC
])
def test_hand_made_deals(hole, columns, cell, expected):
    layout = small(len(columns))
    deal = deal_of(hole, columns, cell)
    result = brute.solve(layout, deal)
    assert api.solve(layout, deal=deal).verdict == result.verdict == expected
    if result.verdict == "won":
        assert families.family_of(layout).replay(layout, deal, result.moves) is None


@st.composite
def small_worm_deal(draw: Any) -> tuple[Any, dict[str, list[int]]]:
    """A reduced pack (ranks A..3-4) dealt to 2..4 columns (A..4: 2..3) and the hole, with a cell
    (two, on A..3), and sometimes a stock turned onto the hole (Golf's rule: the heads bound with
    cells); small, because the plain search of a lost deal of A..4 with more can take seconds."""
    max_rank = draw(st.integers(3, 4))
    pack = draw(st.permutations(cards.pack(1, max_rank)))
    ncols = draw(st.integers(2, 4 if max_rank == 3 else 3))
    cells = 1 if max_rank == 4 else draw(st.integers(1, 2))
    layout = small(ncols, max_rank, cells=cells, wrap=draw(st.booleans()))
    deal = {"hole": [pack[0]]}
    stock = draw(st.integers(0, 2)) if cells == 1 and max_rank == 3 else 0  # Golf with a cell: its stock
    if stock:
        layout = replace(layout, stock=GOLF.stock)
        deal["stock"] = list(pack[1:1 + stock])
    rest = pack[1 + stock:]
    for i in range(ncols):
        deal[f"tableau:{i}"] = list(rest[i::ncols])
    return layout, deal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_worm_deal())
def test_search_agrees_with_the_plain_search(case):
    layout, deal = case
    expected = brute.solve(layout, deal).verdict
    assert api.solve(layout, deal=deal, limits=Limits()).verdict == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_worm_deal(), st.data())
def test_the_bounds_cut_only_lost_positions(case, data):
    """Positions met along random play (cards in the cells included): a cut one is lost."""
    layout, deal = case
    pos = HolePosition(layout, deal)
    game = families.family_of(layout).referee(layout, deal)
    for _ in range(data.draw(st.integers(0, 5))):
        moves = pos.legal_moves()
        if not moves:
            break
        move = data.draw(st.sampled_from(moves))
        assert game.play(pos.move_json(move)) is None  # the position's moves are legal
        pos.push(move)
    if pos.is_dead():
        assert brute.search(game).verdict == "lost"


@settings(max_examples=30, deadline=None)
@given(small_worm_deal(), st.data())
def test_push_then_pop_restores_the_position(case, data):
    layout, deal = case
    assert_push_then_pop_restores(HolePosition(layout, deal), data.draw(st.lists(st.integers(0, 50), max_size=8)))


def test_cells_are_interchangeable_in_the_key():
    layout = small(2, cells=2)
    a = HolePosition(layout, deal_of("AS", ["5C 9D", "5H 9H"]))
    b = HolePosition(layout, deal_of("AS", ["5C 9D", "5H 9H"]))
    a.push(1 << 10)  # 9D to the first cell
    b.push((1 << 10) + 1)  # 9H to the first cell
    assert a.key() == b.key()
    a.push((1 << 10) + 1)
    assert a.key() != b.key()


def test_referee_refuses_each_kind_of_illegal_move():
    layout = small(2)
    game = HoleGame(layout, deal_of("AS", ["2C 3H", "9D"]))
    for move, words in [
        ({"card": "3H", "from": "tableau:0", "to": "cell:1"}, "cards only go to the hole or a cell"),
        ({"card": "2C", "from": "tableau:0", "to": "cell:0"}, "2C is not on top of tableau:0"),
        ({"card": "3H", "from": "hole", "to": "cell:0"}, "a cell takes a column's top card"),
        ({"card": "3H", "from": "cell:0", "to": "hole"}, "3H is not on top of cell:0"),
    ]:
        problem = game.play(move)
        assert problem is not None and words in problem, (move, problem)
    assert game.play({"card": "3H", "from": "tableau:0", "to": "cell:0"}) is None
    assert "cell:0 already holds 3H" in game.play({"card": "9D", "from": "tableau:1", "to": "cell:0"})
    assert "not one rank from 2C" in (game.play({"card": "2C", "from": "tableau:0", "to": "hole"}) or "") + \
        (game.play({"card": "9D", "from": "tableau:1", "to": "hole"}) or "")
    assert game.play({"card": "3H", "from": "cell:0", "to": "hole"}) is None
    assert game.unfinished() == "after move 3: 1 cards are not on the hole"


def test_seed_n_is_solvitaires_random_n():
    # Solvitaire 0.10.1's `--type worm-hole --random 1 --deal-only`: the hole, an empty cell, and its
    # 17 piles (listed in another order than it deals them: columns are interchangeable)
    theirs = {"hole": "AS", "cells": [""], "tableau piles": [
        ["KS", "5S", "10D"], ["KC", "5D", "KH"], ["QS", "3D", "7H"], ["QH", "10H", "8C"], ["QC", "2H", "7S"],
        ["10C", "7D", "KD"], ["7C", "3C", "AH"], ["6H", "9C", "JS"], ["5C", "QD", "2C"], ["4D", "9D", "JH"],
        ["4S", "8H", "JD"], ["4H", "10S", "JC"], ["3S", "6S", "8D"], ["2D", "4C", "9H"], ["2S", "6C", "8S"],
        ["AD", "9S", "6D"], ["AC", "3H", "5H"]]}
    mapped = deals.from_json(theirs, WORM, "worm-hole 1", DEAL_READERS)
    ours = api.make_deal(WORM, seed=1)
    assert sorted(v for k, v in mapped.items() if k.startswith("tableau")) == \
        sorted(v for k, v in ours.items() if k.startswith("tableau"))
    assert mapped["hole"] == ours["hole"] == [cards.parse("AS")]


def test_rules_there_and_back_and_a_solve():
    """(The compiled position plays the cells as the interpreted one, node for node: test_core.py.)"""
    rules = families.family_of(WORM).solvitaire_rules(WORM)
    assert rules["cells"] == {"count": 1, "pre-filled": 0}
    back = families.rules_to_layout(json.loads(json.dumps(rules)), "worm-hole.json", "worm-hole")
    assert (back.hole, back.cells, back.tableau) == (WORM.hole, WORM.cells, WORM.tableau)
    with pytest.raises(UnsupportedError, match="does not play cells.count"):
        families.family_of(WORM).cpsat_model(WORM)
    result = api.solve(WORM, seed=2)  # Solvitaire timed out at 10 s
    assert result.verdict == "won" and api.verify(result, WORM) is None
    assert any(m["to"].startswith("cell") for m in result.solution)
