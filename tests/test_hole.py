"""The hole family (Black Hole, Golf): engine, referee, deals."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import small_hole_deal

from solver import api, cards
from solver.deal import to_json
from solver.engines.dfs import dfs
from solver.families.hole.position import HolePosition
from solver.families.hole.referee import replay
from solver.limits import Limits

BLACK_HOLE = api.load_layout("black-hole")
GOLF = api.load_layout("golf")


def small(base, columns: int, max_rank: int = 13):
    """``base`` with ``columns`` tableau columns and ranks A..max_rank (deals built by hand)."""
    return replace(base, max_rank=max_rank,
                   tableau=replace(base.tableau, count=columns, deal=(1,) * columns))


def deal_of(hole: str, columns: list[str], stock: str = "") -> dict[str, list[int]]:
    """A deal from text: columns bottom card first, the stock first-turned first."""
    d = {"hole": [cards.parse(hole)]}
    for i, col in enumerate(columns):
        d[f"tableau:{i}"] = [cards.parse(c) for c in col.split()]
    if stock:
        d["stock"] = [cards.parse(c) for c in stock.split()]
    return d


def verdict(layout, deal, **limits) -> str:
    return api.solve(layout, deal=deal, limits=Limits(**limits)).verdict


# ------------------------------------------------------------ hand-made deals


@pytest.mark.parametrize("base, hole, columns, stock, expected", [
    # Black Hole rules: wrap, no stock.
    (BLACK_HOLE, "AS", ["3H 2C", "4D"], "", "won"),  # 2C 3H 4D
    (BLACK_HOLE, "AS", ["3H 2C", "KD"], "", "lost"),  # 2C 3H leaves KD; KD first leaves 2C
    (BLACK_HOLE, "AS", ["QH", "KD"], "", "won"),  # KD on the ace (wrap), then QH
    (BLACK_HOLE, "5S", ["5H"], "", "lost"),  # same rank never fits
    # Golf rules: no wrap, the stock turns onto the hole.
    (GOLF, "AS", ["QH", "KD"], "", "lost"),  # no king on an ace without wrap
    (GOLF, "KH", ["QS"], "", "won"),  # a queen goes on a king
    (GOLF, "KH", ["AS"], "", "lost"),  # nothing on a king from an ace
    (GOLF, "5H", ["9C"], "8D", "won"),  # turn 8D, then 9C
    (GOLF, "5H", ["9C", "2S"], "8D", "lost"),  # after 8D 9C nothing takes 2S
    (GOLF, "5H", ["9C", "2S"], "8D 3C", "won"),  # 8D 9C, turn 3C, 2S
    (GOLF, "5H", ["4C 6C", "2S"], "3D", "lost"),  # 6C then 4C needs a 3 or 5: 3D, 4C strands 2S
    (GOLF, "5H", ["4C 6C", "3S"], "5D", "won"),  # 6C, turn 5D, 4C, 3S
])
def test_hand_made_deals(base, hole, columns, stock, expected):
    layout = small(base, len(columns))
    deal = deal_of(hole, columns, stock)
    assert verdict(layout, deal) == expected
    assert brute_force(layout, deal) == (expected == "won")


def test_reduced_deck_wraps_at_its_top_rank():
    # With ranks A..3 the top rank 3 is next to the ace when the layout wraps.
    deal = deal_of("AS", ["3C"])
    assert verdict(small(BLACK_HOLE, 1, max_rank=3), deal) == "won"
    assert verdict(small(GOLF, 1, max_rank=3), deal) == "lost"


def test_bounds_fire_at_the_root():
    # Ranks 2 and 5 are left with nothing between them: no walk covers both.
    assert HolePosition(small(BLACK_HOLE, 2), deal_of("AS", ["2C", "5D"])).is_dead()
    assert not HolePosition(small(BLACK_HOLE, 2), deal_of("AS", ["2C", "3D"])).is_dead()
    # Nothing left can come just before the 2S: no ace or three anywhere.
    assert HolePosition(small(GOLF, 2), deal_of("5H", ["9C", "2S"], "8D")).is_dead()
    assert not HolePosition(small(GOLF, 2), deal_of("5H", ["9C", "2S"], "8D 3C")).is_dead()


# ----------------------------------------------- an independent brute force


def brute_force(layout, deal) -> bool:
    """Every order of play, on plain rank lists, memoised: can all cards reach the hole?"""
    wrap, top = layout.hole.wrap, layout.max_rank
    cols = tuple(tuple(cards.rank(c) for c in deal.get(f"tableau:{i}", []))
                 for i in range(layout.tableau.count))
    stock = tuple(cards.rank(c) for c in deal.get("stock", []))

    def fits(a: int, b: int) -> bool:
        return abs(a - b) == 1 or (wrap and top > 2 and {a, b} == {1, top})

    @cache
    def win(heights: tuple[int, ...], turned: int, hole: int) -> bool:
        if not any(heights) and turned == len(stock):
            return True
        for i, h in enumerate(heights):
            if h and fits(cols[i][h - 1], hole):
                if win(heights[:i] + (h - 1,) + heights[i + 1:], turned, cols[i][h - 1]):
                    return True
        return turned < len(stock) and win(heights, turned + 1, stock[turned])

    return win(tuple(len(c) for c in cols), 0, cards.rank(deal["hole"][-1]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hole_deal(max_columns=5, cells=False))  # the brute force above has no cells (test_worm_hole.py)
def test_verdict_matches_brute_force(case):
    """The bounds, forced moves, pruning and merged keys never change a verdict."""
    layout, deal = case
    expected = "won" if brute_force(layout, deal) else "lost"
    for core in ("auto", "python"):  # the compiled core where it is built, and the reference
        result = api.solve(layout, deal=deal, core=core)  # a won result has passed the referee
        assert result.verdict == expected, core


# ------------------------------------------------------------ apply / undo


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["black-hole", "golf"]), st.integers(1, 10**6), st.data())
def test_push_then_pop_restores_the_position(name, seed, data):
    layout = api.load_layout(name)
    pos = HolePosition(layout, api.make_deal(layout, seed))
    states = [pos.state()]
    while True:
        moves = pos.legal_moves()
        if not moves or len(pos.history) >= 30:
            break
        pos.push(data.draw(st.sampled_from(moves)))
        states.append(pos.state())
    while pos.history:
        states.pop()
        pos.pop()
        assert pos.state() == states[-1]


def test_interchangeable_columns_share_a_key():
    layout = small(BLACK_HOLE, 2)
    a = HolePosition(layout, deal_of("AS", ["2C", "2D"]))
    b = HolePosition(layout, deal_of("AS", ["2C", "2D"]))
    a.push(0)
    b.push(1)
    assert a.key() == b.key()
    c = HolePosition(layout, deal_of("AS", ["2C", "3D 2D"]))
    d = HolePosition(layout, deal_of("AS", ["2C", "3D 2D"]))
    c.push(0)
    d.push(1)
    assert c.key() != d.key()


# ------------------------------------------------------------ solving PySol deals


@pytest.mark.parametrize("name, seed", [("black-hole", s) for s in range(1, 7)]
                         + [("golf", s) for s in (1, 2, 4, 5)])
def test_won_verdicts_replay(name, seed):
    layout = api.load_layout(name)
    result = api.solve(layout, seed=seed)
    assert result.verdict in ("won", "lost")
    if result.verdict == "won":
        assert result.solution and api.verify(result.to_json()) is None
        assert len(result.solution) == 51


def test_node_limit_gives_unknown():
    result = api.solve(BLACK_HOLE, seed=7, limits=Limits(max_nodes=50))
    assert result.verdict == "unknown"
    assert "max-nodes" in (result.reason or "")


def test_same_deal_same_verdict():
    first = api.solve(BLACK_HOLE, seed=2)
    second = api.solve(BLACK_HOLE, seed=2)
    assert first.verdict == second.verdict == "won"
    assert first.solution == second.solution


def test_search_restores_the_position():
    pos = HolePosition(BLACK_HOLE, api.make_deal(BLACK_HOLE, 3))
    before = pos.state()
    out = dfs(pos, Limits())
    assert out.verdict == "won"
    assert pos.state() == before


# ------------------------------------------------------------ the referee


def test_referee_rejects_one_corrupted_move():
    result = api.solve(BLACK_HOLE, seed=2)
    deal = api.make_deal(BLACK_HOLE, 2)
    solution = [dict(m) for m in result.solution]
    assert replay(BLACK_HOLE, deal, solution) is None
    wrong = [dict(m) for m in solution]
    wrong[16]["from"] = "tableau:16" if wrong[16]["from"] != "tableau:16" else "tableau:0"
    message = replay(BLACK_HOLE, deal, wrong)
    assert message is not None and message.startswith("move 17: ")
    swapped = solution[:3] + [solution[4], solution[3]] + solution[5:]
    assert (replay(BLACK_HOLE, deal, swapped) or "").startswith(("move 4: ", "move 5: "))
    assert replay(BLACK_HOLE, deal, solution[:-1]) == "after move 50: 1 cards are not on the hole"


def test_referee_messages():
    layout = small(GOLF, 2)
    deal = deal_of("5H", ["9C", "4S 6D"], "8D")
    assert replay(layout, deal, [{"card": "6D", "from": "tableau:1", "to": "hole"},
                                 {"card": "8D", "from": "stock", "to": "hole"},
                                 {"card": "9C", "from": "tableau:0", "to": "hole"}]) \
        == "after move 3: 1 cards are not on the hole"
    assert replay(layout, deal, [{"card": "9C", "from": "tableau:0", "to": "hole"}]) \
        == "move 1: 9C is not one rank from 5H, the top of the hole"
    assert replay(layout, deal, [{"card": "4S", "from": "tableau:1", "to": "hole"}]) \
        == "move 1: 4S is not on top of tableau:1"
    assert replay(layout, deal, [{"card": "9C", "from": "stock", "to": "hole"}]) \
        == "move 1: 9C is not the next stock card (that is 8D)"
    assert replay(small(BLACK_HOLE, 2), deal_of("5H", ["9C", "4S 6D"]),
                  [{"card": "8D", "from": "stock", "to": "hole"}]) == "move 1: this game has no stock to turn"


# ------------------------------------------------------------ deals


def _pysol(game: str, seed: int) -> dict[str, list[str]]:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    text = Game(game, seed, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    out: dict[str, list[str]] = {}
    col = 0
    for line in text.splitlines():
        if line.startswith("Talon:"):
            out["stock"] = line.split()[1:]
        elif line.startswith("Foundations:"):
            out["hole"] = line.split()[1:]
        elif line.strip():
            out[f"tableau:{col}"] = line.split()
            col += 1
    return out


@pytest.mark.parametrize("name, game", [("black-hole", "black_hole"), ("golf", "golf")])
def test_seed_one_is_pysols_deal(name, game):
    layout = api.load_layout(name)
    assert to_json(api.make_deal(layout, 1)) == _pysol(game, 1)


# ------------------------------------------------------------ verdicts known from outside


def test_black_hole_solver_test_deal():
    # black-hole-solver's own test deal: PySol Black Hole 26464608654870335080, "Solved!".
    seed = 26464608654870335080
    deal = to_json(api.make_deal(BLACK_HOLE, seed))
    assert deal["tableau:0"] == ["KD", "JH", "JS"] and deal["tableau:16"] == ["9H", "2S", "2D"]
    assert api.solve(BLACK_HOLE, seed=seed).verdict == "won"


def test_golf_with_wrap_is_what_makes_deal_one_winnable():
    # black-hole-solver's golf test output solves PySol Golf 1 with --wrap-ranks, by way of
    # KD then AS; under PySolFC's Golf rules (no wrap) it is lost.
    wrapping = replace(GOLF, hole=replace(GOLF.hole, wrap=True))
    assert api.solve(wrapping, seed=1).verdict == "won"
    assert api.solve(GOLF, seed=1).verdict == "lost"
