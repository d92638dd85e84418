"""A reserve of single cards in the tableau family (issue #33): Flower Garden, King Albert, Raglan,
Northwest Territory, Duchess.

Each reserve pile holds one card, which plays to a foundation, onto a column, into a space or a
cell; nothing is put into a reserve pile.  The position keeps them as cells that no move fills
(``solver/families/tableau/position.py``); these tests hold it to the plain search over the
referee (``solver.families.brute``) on small decks, replay its wins with the referee, and check
that the referee refuses a card put into the reserve.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import TABLEAU_SOURCES, assert_push_then_pop_restores, interpreted

from solver import api, cards, shuffles
from solver.engines.dfs import dfs
from solver.errors import UnsupportedError
from solver.families import brute
from solver.families.base import solution_json
from solver.families.tableau.referee import replay
from solver.layout import DealSpec
from solver.limits import Limits
from solver.solvitaire import rules_to_layout

TableauPosition = interpreted("solver.families.core", *TABLEAU_SOURCES)[
    "solver.families.tableau.position"].TableauPosition  # the source as it stands (the compiled one: api.solve)

RESERVE_GAMES = ["flower-garden", "king-albert", "raglan", "northwest-territory", "duchess", "klondike-reserve"]


def small(name: str, max_rank: int, deal: list[int], reserve: int, face_down: list[int] | None = None,
          cells: int = 0) -> Any:
    """``name`` on ranks A..``max_rank``, with ``deal`` columns and ``reserve`` single-card piles."""
    lay = api.load_layout(name)
    t = replace(lay.tableau, count=len(deal), deal=tuple(deal), face_down=tuple(face_down or [0] * len(deal)))
    return replace(lay, max_rank=max_rank, tableau=t, reserve=replace(lay.reserve, count=reserve),
                   cells=replace(lay.cells, count=cells), deal=DealSpec(order=("reserve", "tableau")),
                   name=f"{name}-small")


SMALL = {  # (on these seeds the plain search decides both won and lost deals of the first two)
    "flower-garden": small("flower-garden", 5, [5, 5, 5, 3], 2),
    "king-albert": small("king-albert", 5, [3, 3, 4, 4, 4], 2),
    "king-albert-cell": small("king-albert", 4, [1, 2, 3, 4, 3], 3, cells=1),  # a reserve card to a cell
    "raglan": small("raglan", 5, [3, 3, 4, 4], 2),  # aces on the foundations
    "northwest-territory": small("northwest-territory", 5, [1, 2, 3, 4, 5, 3], 2, face_down=[0, 1, 2, 3, 4, 2]),
    "duchess": small("duchess", 5, [0, 0, 0], 3),  # the rest in the stock, turned once
    # 4 columns and 24 reserve piles: the foundations are stacks 29..32, past the 5 bits codes once had
    "klondike-reserve": small("klondike-reserve", 9, [3, 3, 3, 3], 24, face_down=[2, 2, 2, 2]),
}
LOSES = {"flower-garden", "king-albert"}
# klondike-reserve's seeds 5 and 7 take the plain search 4.6 s and the interpreted DFS 3.3 s (87k nodes)
SEEDS = {"klondike-reserve": (1, 2, 3, 4, 6, 8, 9, 10)}


def solution(lay: Any, deal: Any, decisions: list[int]) -> list[dict[str, Any]]:
    """The search's decisions as the primitive moves they play, in the result contract."""
    pos = TableauPosition(lay, deal)
    for m in decisions:
        pos.push(m)
    return solution_json(TableauPosition(lay, deal), list(pos.history))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_the_reserve_games_agree_with_the_plain_search(name: str) -> None:
    """The DFS (interpreted, and the compiled core through ``api.solve``) against the plain search
    over the referee, deal by deal; each win the referee replays."""
    lay = SMALL[name]
    compared = {"won": 0, "lost": 0}
    for seed in SEEDS.get(name, range(1, 11)):
        deal = shuffles.from_seed(lay, seed)
        truth = brute.solve(lay, deal, max_states=4_000).verdict
        if truth not in compared:
            continue
        ours = dfs(TableauPosition(lay, deal), Limits(max_nodes=200_000))
        core = api.solve(lay, deal=deal, limits=Limits(max_nodes=200_000))
        assert ours.verdict == core.verdict == truth, (name, seed)
        if truth == "won":
            assert replay(lay, deal, solution(lay, deal, ours.moves)) is None
            assert api.verify_solution(lay, deal, core.solution) is None
        compared[truth] += 1
    assert sum(compared.values()) >= 8 and (compared["lost"] > 0 or name not in LOSES), compared


def test_the_referee_refuses_a_card_put_into_the_reserve() -> None:
    lay = api.load_layout("flower-garden")
    deal = shuffles.from_seed(lay, 1)
    top = deal["tableau:0"][-1]
    move = {"card": cards.name(top), "from": "tableau:0", "to": "reserve:3"}
    assert replay(lay, deal, [move]) == "move 1: nothing is put into the reserve (reserve:3)"


def test_a_reserve_card_plays_and_its_pile_stays_empty() -> None:
    """The position's moves name the reserve pile by its number; played, the pile is empty and
    no later move puts a card back into any reserve pile."""
    lay = api.load_layout("king-albert")
    pos = TableauPosition(lay, shuffles.from_seed(lay, 2))
    seen = 0
    for _ in range(60):
        moves = pos.legal_moves()
        if not moves:
            break
        named = [pos.move_json(m) for m in moves]
        assert not any(m["to"].startswith("reserve:") for m in named)
        pick = next((m for m, j in zip(moves, named) if j["from"].startswith("reserve:")), moves[0])
        if pos.move_json(pick)["from"].startswith("reserve:"):
            src = pos.move_json(pick)["from"]
            pos.push(pick)
            assert pos.snapshot().stacks[src] == ()
            seen += 1
        else:
            pos.push(pick)
    assert seen >= 3


@pytest.mark.parametrize("name", RESERVE_GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_push_then_pop_restores(name: str, seed: int, picks: list[int]) -> None:
    lay = api.load_layout(name)
    assert_push_then_pop_restores(TableauPosition(lay, shuffles.from_seed(lay, seed)), picks)


def test_a_reserve_too_large_for_the_position_is_refused_in_one_line() -> None:
    """Solvitaire's klondike-reserve (7 columns, 24 reserve piles, 4 foundations: 37 stacks) plays;
    33 reserve piles are more than the position holds."""
    lay = api.load_layout("klondike-reserve")
    pos = TableauPosition(lay, shuffles.from_seed(lay, 1))
    assert pos.R == 7 + 24 + 1 + 4 > 31  # the reserve pile numbers need the codes' 6 bits
    big = rules_to_layout({"tableau piles": {"count": 7, "build policy": "red-black"}, "reserve": {"size": 33}},
                          "big.json", "big")
    with pytest.raises(UnsupportedError, match=r"layout 'big': the tableau position holds at most .* 32 reserve piles"):
        TableauPosition(big, shuffles.from_seed(big, 1))
