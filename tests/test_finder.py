"""The win finder (``solver.engines.finder``): a beam search that only ever reports wins.

- it never says lost, also where the deal is lost (the plain search proves it);
- every win it reports is one the referee replays, and the plain search agrees the deal is won;
- moving its one position from node to node of the beam (``_Line.goto``) gives the position the
  moves along the node's line give (push then pop restores);
- families without an evaluation are refused, and the portfolio seats it only where there is one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_spider import small_spider

from solver import api, shuffles
from solver.engines import parallel
from solver.engines.dfs import run_dfs
from solver.engines.finder import _Line, _Node, beam, run_finder
from solver.errors import UnsupportedError
from solver.families import family_of
from solver.families.tableau.position import TableauPosition
from solver.limits import Limits


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), max_rank=st.integers(2, 4), cells=st.integers(0, 1))
def test_never_lost_and_every_win_replays_and_agrees(seed, max_rank, cells):
    """Small FreeCell deals, many of them lost: the finder answers won or unknown, never lost; a
    won is replayed by the referee, and the complete DFS says won too; a deal the DFS proves
    lost is unknown to the finder."""
    lay = api.load_layout("freecell", max_rank, settings=(f"cells.count={cells}",))
    deal = shuffles.from_seed(lay, seed)
    truth = run_dfs(lay, deal, Limits(max_nodes=300_000))
    for shake in (0, 6):  # the plain beam and the shaken one
        found = run_finder(lay, deal, Limits(max_nodes=20_000), shake=shake, random_seed=seed)
        assert found.verdict in ("won", "unknown")
        if found.verdict == "won":
            assert family_of(lay).replay(lay, deal, found.solution) is None
            assert truth.verdict == "won"
        if truth.verdict == "lost":
            assert found.verdict == "unknown"


def test_lost_spider_deals_stay_unknown():
    """Small Spiders (one pack, ranks A..4) that the plain search proves lost, and the won ones
    among them found and replayed."""
    lost = won = 0
    for seed in range(1, 13):  # 8 lost, 4 won (each lost deal costs the finder its 50,000 nodes, 0.35 s)
        lay = small_spider(4, [3, 3, 2], [1, 1, 0], takes="suit")
        deal = shuffles.from_seed(lay, seed)
        truth = run_dfs(lay, deal, Limits(max_nodes=500_000))
        found = run_finder(lay, deal, Limits(max_nodes=50_000))
        assert found.verdict != "lost"
        if truth.verdict == "lost":
            lost += 1
            assert found.verdict == "unknown"
        elif truth.verdict == "won" and found.verdict == "won":
            won += 1
            assert family_of(lay).replay(lay, deal, found.solution) is None
    assert lost and won  # both kinds were met


def test_a_full_spiderette_deal_is_found_under_the_run_home_rule():
    """Spiderette (one pack, seven columns) with a K..A run going home from a column's top
    (PySolFC's and Windows' rule): the finder wins a full deal the referee replays (seed 5: 162,584
    nodes when written)."""
    lay = api.load_layout("spiderette", settings=("foundations.takes=suit",))
    deal = shuffles.from_seed(lay, 5)
    r = run_finder(lay, deal, Limits(max_nodes=400_000))
    assert r.verdict == "won"
    assert family_of(lay).replay(lay, deal, r.solution) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 10**6), walk=st.integers(0, 2**32 - 1))
def test_goto_gives_the_position_of_the_nodes_line(seed, walk):
    """A random tree of decisions; visiting its nodes in a random order with ``goto`` leaves the
    position exactly as the moves of the node's line played from the deal, and ``goto(None)``
    restores the deal."""
    lay = api.load_layout("klondike-draw-1")
    deal = shuffles.from_seed(lay, seed)
    pos = TableauPosition(lay, deal)
    fresh = TableauPosition(lay, deal)
    at_deal = pos.state()
    rng = random.Random(walk)
    line = _Line(pos, use_forced=True)
    nodes: list[_Node | None] = [None]
    for _ in range(30):
        node = rng.choice(nodes)
        line.goto(node)
        moves = pos.legal_moves()
        if moves:
            nodes.append(_Node(node, rng.choice(moves), 1 + (0 if node is None else node.depth)))
    for node in rng.sample(nodes, len(nodes)):
        line.goto(node)
        path = []
        x = node
        while x is not None:
            path.append(x.move)
            x = x.parent
        plain = _Line(fresh, use_forced=True)
        pushes = [plain.push(m) for m in reversed(path)]
        assert pos.state()[:8] == fresh.state()[:8]
        for n in reversed(pushes):
            plain.undo(n)
    line.goto(None)
    assert pos.state() == at_deal


def test_beam_restores_the_position_it_was_given():
    lay = api.load_layout("freecell", 6)
    deal = shuffles.from_seed(lay, 3)
    pos = TableauPosition(lay, deal)
    before = pos.state()
    evaluation = family_of(lay).evaluation(lay)
    for limits in (Limits(max_nodes=50), Limits(max_nodes=100_000)):
        beam(pos, evaluation.rates(), limits)
        assert pos.state() == before


def test_the_runs_take_the_ratings_in_turn():
    """Each run (a restart after the beam died out) rates with the next of the evaluation's
    ratings, so a deal that defeats one weight set meets the others."""
    lay = api.load_layout("spider", settings=("foundations.takes=suit",))
    pos = TableauPosition(lay, shuffles.from_seed(lay, 1))
    evaluation = family_of(lay).evaluation(lay)
    ratings = evaluation.rates()
    assert len(ratings) == 3
    used: list[int] = []

    def counted(i: int) -> Callable[[Any], tuple[int, int]]:
        def rate(p: Any) -> tuple[int, int]:
            if not used or used[-1] != i:
                used.append(i)
            return ratings[i](p)
        return rate

    evaluation.focus(pos, True)
    verdict, _, _, stats = beam(pos, [counted(i) for i in range(3)], Limits(max_nodes=200_000), width=1)
    evaluation.focus(pos, False)
    assert stats["runs"] >= 4, stats  # width 1 dies out fast: several runs
    assert used[:4] == [0, 1, 2, 0]
    # the three sets differ, so the runs do differ in what they keep
    assert len({tuple(w) for w in evaluation.weights}) == 3


def test_the_shaken_beam_keeps_its_width_and_its_seed_decides_what_it_keeps():
    """The shaken beam restarts at the same width, and from its second run on keeps positions by
    shaken scores: two seeds keep different positions, one seed the same ones each time."""
    lay = api.load_layout("spider", settings=("foundations.takes=suit",))
    evaluation = family_of(lay).evaluation(lay)

    def kept(**shaken: int) -> tuple[dict[str, Any], list[bytes]]:
        pos = TableauPosition(lay, shuffles.from_seed(lay, 1))
        keys: list[bytes] = []
        rates = evaluation.rates()

        def rate(p: Any) -> tuple[int, int]:
            keys.append(p.key())
            return rates[0](p)

        evaluation.focus(pos, True)
        stats = beam(pos, [rate], Limits(max_nodes=30_000), width=1, **shaken)[3]
        evaluation.focus(pos, False)
        return stats, keys

    plain, plain_keys = kept()
    one, one_keys = kept(shake=6, random_seed=1)
    again, again_keys = kept(shake=6, random_seed=1)
    other, other_keys = kept(shake=6, random_seed=2)
    assert plain["runs"] >= 3 and one["runs"] >= 3, (plain, one)  # width 1 dies out fast: several runs
    assert plain["width"] > 1 and one["width"] == 1
    assert one_keys == again_keys and one_keys != other_keys


def test_a_family_without_an_evaluation_is_refused_and_not_seated():
    lay = api.load_layout("golf")
    with pytest.raises(UnsupportedError, match="no evaluation for the win finder"):
        run_finder(lay, shuffles.from_seed(lay, 1), Limits(max_nodes=10))
    assert "finder" not in [p.name for p in parallel.parts({}, lay)]
    assert "finder" in [p.name for p in parallel.parts({}, api.load_layout("spider"))]
    assert "finder" not in [p.name for p in parallel.parts({}, api.load_layout("debutante"))]  # CP-SAT's seat
    assert "finder" in [p.name for p in parallel.parts({"parts": ["dfs", "finder"]}, api.load_layout("debutante"))]
    assert "finder-shaken" not in [p.name for p in parallel.parts({}, api.load_layout("spider"))]  # asked for only
    shaken = parallel.parts({"parts": ["dfs", "finder", "finder-shaken"]}, api.load_layout("forty-thieves"))
    assert [(p.name, p.engine, p.options.get("shake")) for p in shaken] == [
        ("dfs", "dfs", None), ("finder", "finder", None), ("finder-shaken", "finder", parallel.FINDER_SHAKE)]


def test_the_portfolio_names_the_finder_when_it_decides():
    """Spiderette under the run-home rule: the DFS part wanders, the finder wins (replayed), and
    the result names the part."""
    lay = api.load_layout("spiderette", settings=("foundations.takes=suit",))
    r = api.solve(lay, seed=5, engine="portfolio", limits=Limits(max_nodes=400_000), parts=["dfs", "finder"],
                  jobs=2)
    assert r.verdict == "won" and r.stats["part"] == "finder"
    assert api.verify(r.to_json(), lay) is None
