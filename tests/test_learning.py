"""The debutante family's copy count and the DFS's learning from lost subtrees, against the plain
search: every position either cuts is lost by a search without it; the compiled search learns node
for node as the same source interpreted does, with the same learned keys."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from walks import RESERVE_SOURCES, interpreted

from solver import api, shuffles
from solver.engines.core import compiled_available
from solver.engines.dfs import Restarts, compiled_dfs, dfs
from solver.families.reserve import position as reserve
from solver.families.reserve.position import COPIES_DEAD, TIMED_DEAD, ReservePosition
from solver.layout import Layout
from solver.limits import Limits

# The position's source run interpreted (a plain class: a test may override its methods; the
# compiled class is final), beside the compiled one where it is built.
Interpreted = interpreted("solver.families.core", *RESERVE_SOURCES)[
    "solver.families.reserve.position"].ReservePosition
needs_compiled = pytest.mark.skipif(not (compiled_available() and reserve.COMPILED),
                                    reason="the compiled position is not built")


def small(name: str, ranks: int, columns: int) -> Layout:
    lay = api.load_layout(name)
    return replace(lay, reserve=replace(lay.reserve, count=columns)).with_max_rank(ranks)


def plain(lay: Layout, deal: Any, moves: list[Any], max_nodes: int) -> str:
    """The verdict of the plain search (no dominance, no bound, no learning) after ``moves``, which
    are the moves of a search with the dominance (its marks are replayed as they were made)."""
    marked = Interpreted(lay, deal)
    for m in moves:
        marked.push(m)
    pos = Interpreted(lay, deal, dominance=False)
    for m in moves:  # the same cards to the same places; a decision (COMMIT) marks the same card
        pos.push(m)
    assert pos.cols == [[v & 63 for v in col] for col in marked.cols]
    pos.colbuf = marked.colbuf[:]  # the marks the dominance made
    pos._sort_all()  # the key's order of the columns, with the marks
    return dfs(pos, Limits(max_nodes=max_nodes), use_forced=False, use_bounds=False).verdict


# Reduced decks where the search learns: (layout, ranks, columns, seed, verdict).
LEARNS = [("debutante", 7, 5, 25, "won"), ("debutante", 7, 5, 74, "lost"), ("debutante", 7, 5, 40, "won"),
          ("debutante", 6, 4, 11, "lost"), ("debutante", 8, 6, 159, "won"), ("debutante-fifo", 7, 5, 10, "won")]


@pytest.mark.parametrize("name, ranks, columns, seed, verdict", LEARNS)
def test_learning_keeps_the_plain_verdict_and_every_cut_is_lost(name, ranks, columns, seed, verdict):
    lay = small(name, ranks, columns)
    deal = shuffles.from_seed(lay, seed)
    cut: list[list[Any]] = []
    out = dfs(ReservePosition(lay, deal), Limits(max_nodes=100_000), on_learned=lambda p: cut.append(list(p.history)))
    assert out.verdict == verdict and out.learned > 0
    without = ReservePosition(lay, deal)
    without.learns = False
    assert dfs(without, Limits(max_nodes=200_000)).verdict == verdict
    for moves in random.Random(seed).sample(cut, min(4, len(cut))):
        pos = ReservePosition(lay, deal)
        for m in moves:
            pos.push(m)
        pos.learns = False  # the same search without learning proves the cut position lost
        assert dfs(pos, Limits(max_nodes=200_000)).verdict == "lost", moves


def test_the_plain_search_confirms_the_learned_losses():
    for ranks, columns, seed in ((6, 4, 11), (6, 4, 353)):  # learned losses (LEARNS, findings of the search)
        lay = small("debutante", ranks, columns)
        assert plain(lay, shuffles.from_seed(lay, seed), [], 500_000) == "lost"


@needs_compiled
@pytest.mark.parametrize("name, ranks, columns, seed, verdict", LEARNS)
def test_the_compiled_search_learns_node_for_node(name, ranks, columns, seed, verdict):
    lay = small(name, ranks, columns)
    deal = shuffles.from_seed(lay, seed)
    ref = dfs(Interpreted(lay, deal), Limits(max_nodes=100_000))
    got = compiled_dfs(ReservePosition(lay, deal), Limits(max_nodes=100_000))
    assert (got.verdict, got.nodes, got.table_size, got.learned, got.moves) == \
        (ref.verdict, ref.nodes, ref.table_size, ref.learned, ref.moves)
    assert ref.verdict == verdict and ref.learned > 0  # the deal's verdict, reached by learning


@needs_compiled
def test_learned_keys_compiled_and_interpreted_are_the_same_bytes():
    """On walks, the learned keys of both kinds at several horizons, before and after ``dead``
    (the compiled key may read the heights ``dead`` kept: the same game), and the claims."""
    rng = random.Random(4)
    for name, ranks, columns in (("debutante", 7, 5), ("debutante", 9, 6), ("debutante-fifo", 7, 5)):
        lay = small(name, ranks, columns)
        for seed in range(1, 6):
            deal = shuffles.from_seed(lay, seed)
            ref, core = Interpreted(lay, deal), ReservePosition(lay, deal)
            while (moves := core.legal_moves()) and core.ply < 60:
                horizons = {0, ref.clock(), ref.clock() // 2, max(0, ref.clock() - 3)}
                keys = [(k, h, ref.learned_key(k, h)) for k in (0, 1) for h in horizons]
                assert keys == [(k, h, core.learned_key(k, h)) for k in (0, 1) for h in horizons]
                assert core.stuck_horizon() == ref.stuck_horizon() and core.clock() == ref.clock()
                assert core.is_dead() == ref.is_dead() and core.horizons == ref.horizons
                assert keys == [(k, h, core.learned_key(k, h)) for k in (0, 1) for h in horizons]
                assert keys == [(k, h, ref.learned_key(k, h)) for k in (0, 1) for h in horizons]
                m = rng.choice(moves)
                ref.push(m)
                core.push(m)


@pytest.mark.parametrize("bound, name", [(COPIES_DEAD, "debutante"), (TIMED_DEAD, "debutante"),
                                         (TIMED_DEAD, "debutante-fifo")])
def test_the_copy_counts_cut_only_lost_positions(bound, name):
    """Every position the copy count or the timed copy count cuts (where the bounds before it do
    not) is lost by the plain search; the sample must hold some."""
    checked = 0
    for ranks, columns in ((5, 3), (4, 2), (5, 2), (6, 2)):
        lay = small(name, ranks, columns)
        for seed in range(1, 25 if bound == COPIES_DEAD else 81):  # the timed count runs near the deal only
            deal = shuffles.from_seed(lay, seed)
            pos = Interpreted(lay, deal)
            cut: list[list[Any]] = []
            is_dead = pos.is_dead

            def noted(pos: Any = pos, is_dead: Any = is_dead, cut: list = cut) -> str | None:
                why = is_dead()
                if why == bound:
                    cut.append(list(pos.history))
                return why

            pos.is_dead = noted  # type: ignore[method-assign]
            dfs(pos, Limits(max_nodes=20_000))
            for moves in cut[:3]:
                assert plain(lay, deal, moves, 300_000) == "lost", (ranks, columns, seed, moves)
                checked += 1
    assert checked >= 10


def test_debutante_deals_the_copies_decide_at_the_deal():
    # debutante seed 3: the count that lets one copy serve both foundations passes at every turn;
    # with each copy serving one foundation, 41 cards are out at some turn.  Seed 157: the copies
    # shared out afresh at every turn pass too; one sharing for the whole game, with each copy's
    # time, fails by turn 50.
    res = api.solve("debutante", seed=3)
    assert res.verdict == "lost" and res.stats["nodes"] == 0 and res.reason == COPIES_DEAD
    res = api.solve("debutante", seed=157)
    assert res.verdict == "lost" and res.stats["nodes"] == 0 and res.reason == TIMED_DEAD


@pytest.mark.parametrize("core", ["python", "compiled"])
def test_the_engine_searches_without_learning_first(core):
    """``run_dfs``: a plain search of ``plain_nodes``, then, undecided, the learning search afresh."""
    if core == "compiled" and not compiled_available():
        pytest.skip("the compiled core is not built")
    from solver.engines.dfs import run_dfs

    lay = small("debutante", 7, 5)
    deal = shuffles.from_seed(lay, 74)
    learning_only = run_dfs(lay, deal, Limits(), core=core, plain_nodes=0)
    both = run_dfs(lay, deal, Limits(), core=core, plain_nodes=50)
    assert learning_only.verdict == both.verdict == "lost"
    assert both.stats["learned"] == learning_only.stats["learned"] > 0
    assert 50 <= both.nodes - learning_only.nodes <= 51  # the plain search's nodes, then the same search
    won = run_dfs(lay, shuffles.from_seed(lay, 25), Limits(), core=core)
    assert won.verdict == "won" and won.stats["learned"] == 0  # found by the plain search
    pos = ReservePosition(lay, shuffles.from_seed(lay, 25))
    pos.learns = pos.strong_bounds = False  # the search without learning nor the costly counts
    assert dfs(pos, Limits(), restarts=Restarts()).nodes == won.nodes


def test_a_time_limit_bounds_the_search_without_learning():
    """``plain_nodes``: the first search gets ``PLAIN_RATE`` nodes a second of a time limit, at most
    ``PLAIN_NODES``, never nothing; so a longer limit's first search covers a shorter one's."""
    from solver.engines.dfs import PLAIN_NODES, PLAIN_RATE, plain_nodes

    assert plain_nodes(Limits()) == plain_nodes(Limits(max_nodes=10)) == PLAIN_NODES
    assert plain_nodes(Limits(timeout=10)) == 10 * PLAIN_RATE < PLAIN_NODES
    assert plain_nodes(Limits(timeout=3600)) == PLAIN_NODES
    assert plain_nodes(Limits(timeout=1e-9)) == 1
    limits = [plain_nodes(Limits(timeout=t)) for t in (0.5, 1, 10, 30, 60, 61, 600)]
    assert limits == sorted(limits)
