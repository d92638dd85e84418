"""The step-by-step referees and the plain exhaustive search over them (solver/families/brute.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.differential import BASES, Case
from solver import api, cards, shuffles
from solver.engines.dfs import run_dfs
from solver.errors import DealError
from solver.families import brute, family_of, parse_layout_text
from solver.limits import Limits

BLACK_HOLE = api.load_layout("black-hole")
GOLF = api.load_layout("golf")
FREECELL = api.load_layout("freecell")
DEBUTANTE = api.load_layout("debutante")


def parsed(text: str) -> list[int]:
    return [cards.parse(c) for c in text.split()]


def hole_game(base, hole: str, columns: list[str], stock: str = ""):
    lay = replace(base, tableau=replace(base.tableau, count=len(columns), deal=(1,) * len(columns)))
    deal = {"hole": parsed(hole), **{f"tableau:{i}": parsed(c) for i, c in enumerate(columns)}}
    if stock:
        deal["stock"] = parsed(stock)
    return lay, deal


def tableau_game(columns: list[str], cells: int = 0, spaces: str = "any", stock: str = ""):
    """FreeCell's rules on hand-made columns (cards not listed take no part)."""
    t = replace(FREECELL.tableau, count=len(columns), deal=tuple(len(c.split()) for c in columns),
                face_down=(0,) * len(columns), spaces=spaces)
    lay = replace(FREECELL, tableau=t, cells=replace(FREECELL.cells, count=cells))
    return lay, {f"tableau:{i}": parsed(c) for i, c in enumerate(columns) if c}


def reserve_game(columns: list[str], stock: str, capacity: int = 1, **stock_rules):
    """One pack, one foundation row from the ace, reserve columns of ``capacity``, every turned
    card placed at once unless ``stock_rules`` say otherwise (cards not listed take no part)."""
    lay = replace(DEBUTANTE, decks=1, foundations=replace(DEBUTANTE.foundations, rows=DEBUTANTE.foundations.rows[:1]),
                  reserve=replace(DEBUTANTE.reserve, count=len(columns), capacity=capacity),
                  stock=replace(DEBUTANTE.stock, **stock_rules))
    deal = {f"reserve:{i}": parsed(c) for i, c in enumerate(columns)}
    deal["stock"] = parsed(stock)
    return lay, deal


HAND_MADE = [
    # the hole family (the cases of tests/test_hole.py, hand-checked there)
    (*hole_game(BLACK_HOLE, "AS", ["3H 2C", "4D"]), "won"),
    (*hole_game(BLACK_HOLE, "AS", ["3H 2C", "KD"]), "lost"),
    (*hole_game(BLACK_HOLE, "AS", ["QH", "KD"]), "won"),
    (*hole_game(GOLF, "AS", ["QH", "KD"]), "lost"),
    (*hole_game(GOLF, "5H", ["9C", "2S"], "8D 3C"), "won"),
    (*hole_game(GOLF, "5H", ["4C 6C", "2S"], "3D"), "lost"),
    # the tableau family: AC lies under 2C
    (*tableau_game(["2C AC"]), "won"),
    (*tableau_game(["AC 2C"], spaces="none"), "lost"),  # 2C has nowhere to go
    (*tableau_game(["AC 2C", ""]), "won"),  # 2C into the space
    (*tableau_game(["AC 2C"], cells=1), "won"),  # 2C into the cell
    (*tableau_game(["AC 2H", "2C 3D"], spaces="none"), "lost"),  # 2H and 3D are both red: nothing moves
    (*tableau_game(["AC 2D", "2C AD"], spaces="none"), "won"),  # AD, 2D, AC, 2C
    # the debutante family: one column of one card
    (*reserve_game(["2C"], "AC AD 2D"), "won"),  # AC home, 2C follows, AD, 2D
    (*reserve_game(["2C"], "2D AC AD"), "lost"),  # 2D finds the column full
    (*reserve_game(["2C"], "AD 2D AC"), "won"),
    # a waste pile holding one card: AD cannot come out from under 2D
    (*reserve_game(["2C"], "2D AD AC", turn="waste"), "won"),
    (*reserve_game(["2C"], "2D AD AC", turn="waste", waste_capacity=1), "lost"),
]


@pytest.mark.parametrize("lay, deal, expected", HAND_MADE)
def test_hand_made_deals(lay, deal, expected):
    out = brute.solve(lay, deal)
    assert out.verdict == expected
    if expected == "won":
        assert family_of(lay).replay(lay, deal, out.moves) is None
        assert out.moves  # none of these deals starts won


def test_peg_boards():
    line = parse_layout_text('[board]\nshape = ["ooo"]\n[start]\nempty = ["c1"]\n', "<line>", "line")
    out = brute.solve(line, api.make_deal(line))
    assert out.verdict == "won" and out.moves == [{"card": "peg", "from": "a1", "to": "c1"}]
    stuck = parse_layout_text('[board]\nshape = ["ooo"]\n[start]\nempty = ["c1"]\n[goal]\nhole = "a1"\n',
                              "<line>", "line")
    assert brute.solve(stuck, api.make_deal(stuck)).verdict == "lost"


def test_a_state_limit_gives_unknown():
    lay, deal = tableau_game(["AC 2D 3C", "2C 3D AD", ""], cells=1)
    assert brute.solve(lay, deal).verdict == "won"
    out = brute.solve(lay, deal, max_states=3)
    assert out.verdict == "unknown" and out.reason == "max-states 3" and out.moves is None


def test_a_bad_deal_is_refused():
    lay, deal = hole_game(BLACK_HOLE, "AS", ["2C"])
    with pytest.raises(DealError, match="no card on the hole"):
        brute.solve(lay, {"tableau:0": deal["tableau:0"]})


# ------------------------------------------------ the referee, a move at a time


def base_deals() -> list[tuple[str, object, dict]]:
    out = []
    for name in BASES:
        lay = Case(name, (), BASES[name].max_ranks[0], ()).layout()
        out += [(name, lay, shuffles.from_seed(lay, seed)) for seed in (1, 2)]
    return out


@pytest.mark.parametrize("name", BASES)
def test_the_search_tries_every_move_the_engine_plays(name):
    """The enumerator is generous enough: every move of a DFS win is among its candidates
    (two won deals of each base layout)."""
    lay = Case(name, (), BASES[name].max_ranks[-1], ()).layout()
    won = 0
    for seed in range(1, 41):
        deal = shuffles.from_seed(lay, seed)
        run = run_dfs(lay, deal, Limits(max_nodes=100_000))
        if run.verdict != "won":
            continue
        game = family_of(lay).referee(lay, deal)
        for move in run.solution:
            assert move in list(brute.candidates(game)), (name, seed, move)
            assert game.play(move) is None
        assert game.won()
        won += 1
        if won == 2:
            return
    raise AssertionError(f"{name}: fewer than two won deals among seeds 1..40")


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(base_deals()), st.lists(st.integers(0, 10**6), min_size=1, max_size=12))
def test_a_refused_move_changes_nothing(case, picks):
    """Walk a random line of legal moves; at each state, every refused candidate leaves the
    state as it was, and a copy played on does not change the original."""
    name, lay, deal = case
    game = family_of(lay).referee(lay, deal)
    for depth, pick in enumerate(picks):
        assert game.moves == depth
        before = game.state()
        legal = []
        for move in brute.candidates(game):
            trial = game.copy()
            if trial.play(move) is None:
                legal.append(trial)
            else:
                assert trial.state() == before, (name, move)
        assert game.state() == before
        if not legal:
            break
        game = legal[pick % len(legal)]


def test_the_debutante_referee_names_a_malformed_move():
    lay, deal = reserve_game(["2C"], "AC AD 2D")
    game = family_of(lay).referee(lay, deal)
    assert game.play({"card": ["AC"], "from": "stock", "to": "foundation:0"}) \
        == "move 1: expected card, from and to as strings and count as a whole number"
    assert game.play({"card": "AC", "from": "stock", "to": "foundation:0", "count": 2}) \
        == "move 1 (AC from stock to foundation:0): one card moves at a time, not 2"
    assert game.play({"card": "AC", "from": "stock", "to": "foundation:0"}) is None and game.moves == 1
