"""The debutante family's position, one source (issue #32): compiled against the same source run
interpreted, node for node: the same legal moves in the same order, forced moves, bounds and their
claims, key bytes, slack, state and move names at every step of random walks; and the compiled DFS
over the compiled position against the pure-Python DFS over the interpreted one, on every layout
of the family and on variants that reach every rule the position reads.  (That the rules are the
game's: the referee replays every win, and ``test_reserve.py``, ``test_learning.py`` and
``test_pairing.py`` check the dominances, bounds and learning against plain searches.)

Skipped when the extension is not built, unless ``PATIENCE_REQUIRE_COMPILED=1`` (CI sets it),
which turns the skip into a failure.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import RESERVE_SOURCES, assert_push_then_pop_restores, interpreted, perft

from solver import api, shuffles
from solver.engines import dfs as pydfs
from solver.engines.core import compiled_available, unavailable_reason
from solver.engines.dfs import Restarts, compiled_dfs, dfs
from solver.families import family_of, solution_json
from solver.families.reserve import position as reserve
from solver.families.reserve.position import DEAD_REASONS, PAIRING_DEAD, code
from solver.layout import FoundationRow, Layout, Reserve, Stock
from solver.limits import Limits
from solver.schema import builtin_names

if not (compiled_available() and reserve.COMPILED):
    if os.environ.get("PATIENCE_REQUIRE_COMPILED") == "1":  # CI: the compiled core must be tested
        pytest.fail("PATIENCE_REQUIRE_COMPILED=1 but the compiled reserve position is not built "
                    f"({unavailable_reason() or 'position.py runs interpreted'})", pytrace=False)
    pytest.skip("the compiled reserve position is not built", allow_module_level=True)

ReserveCore = reserve.ReservePosition  # compiled
ReservePosition = interpreted("solver.families.core", *RESERVE_SOURCES)[
    "solver.families.reserve.position"].ReservePosition  # the same source, interpreted

FAMILY = ["debutante", "debutante-fifo", "debutante-unlimited", "debutante-1", "colorado",
          "grandfather", "double-line", "twenty", "sly-fox"]
SHAKY = Restarts(base=3, noise=0.6, seed=7)  # many restarts: the shared table and the noise work hard
WALK = 200  # moves at most in a random walk (with unlimited redeals a walk may never end)


def test_every_layout_of_the_family_is_here():
    assert sorted(FAMILY) == sorted(n for n in builtin_names() if family_of(api.load_layout(n)).name == "reserve")


def variant(name: str, ranks: int, columns: int, **rules: Any) -> Layout:
    """``name`` on a reduced deck with fewer columns, with some reserve/stock rules changed."""
    lay = api.load_layout(name)
    res = {k: v for k, v in rules.items() if k in Reserve.__dataclass_fields__}
    sto = {k: v for k, v in rules.items() if k in Stock.__dataclass_fields__}
    assert len(res) + len(sto) == len(rules), rules
    lay = replace(lay, reserve=replace(lay.reserve, count=columns, **res), stock=replace(lay.stock, **sto))
    return replace(lay.with_max_rank(ranks), name="-".join([name, str(ranks), str(columns), *map(str, rules.values())]))


def rows(lay: Layout, *rows: FoundationRow, decks: int = 2) -> Layout:
    """``lay`` with other foundation rows."""
    return replace(lay, decks=decks, foundations=replace(lay.foundations, rows=rows),
                   name=f"{lay.name}-{len(rows)}-rows")


# Rule values no built-in layout has, each on a small game: suit sequences in the columns,
# queues with immediate refills (no column dominance), several cards to the waste at a time,
# unlimited redeals, a waste of limited size, gaps taking any top, batches with limited columns;
# one foundation row (one pack), and three (no dominance: the marks have room for two rows).
VARIANTS = [
    variant("debutante", 5, 4, accepts="suit-sequence"),
    variant("colorado", 5, 4, accepts="suit-sequence", access="first"),
    variant("twenty", 4, 3, access="first"),
    variant("grandfather", 5, 3, deal_count=3, redeals=-1),
    variant("double-line", 5, 3, deal_count=2, waste_capacity=4),
    variant("debutante", 5, 3, gaps="any-top"),
    variant("sly-fox", 5, 4, capacity=3, batch=3),
    variant("debutante-fifo", 5, 3, redeals=0, capacity=3),
    rows(variant("debutante", 5, 4), FoundationRow(1, 1), decks=1),
    rows(variant("colorado", 5, 4), FoundationRow(1, 1), FoundationRow(5, -1), FoundationRow(1, 1)),
]


def small_games() -> list[Layout]:
    """Every layout of the family on small decks (two sizes), and the variants."""
    out = []
    for name in FAMILY:
        out += [variant(name, 4, 3), variant(name, 6, 5)]
    return out + VARIANTS


def both(lay: Layout, deal: Any, **kw: Any) -> tuple[Any, Any]:
    """The position of ``deal``, interpreted and compiled."""
    return ReservePosition(lay, deal, **kw), ReserveCore(lay, deal, **kw)


def summary(out: pydfs.Outcome) -> tuple[Any, ...]:
    return out.verdict, out.reason, out.nodes, out.table_size, out.evictions


def assert_same(ref: Any, core: Any) -> None:
    """The two positions agree on everything the search asks."""
    assert core.state() == ref.state()
    moves = core.legal_moves()
    assert moves == ref.legal_moves()
    assert core.forced_move() == ref.forced_move()
    assert core.key() == ref.key()
    assert core.is_dead() == ref.is_dead() and core.horizons == ref.horizons
    assert core.slack() == ref.slack()
    assert core.is_won() == ref.is_won()
    assert core.history == ref.history and core.ply == len(ref.history)
    for m in moves:
        assert core.move_json(m) == ref.move_json(m)


# ------------------------------------------------------------ node for node


def compare_searches(lay: Layout, seeds: range, limits: Limits, max_entries: int | None = None,
                     **kw: Any) -> set[str]:
    """The compiled DFS and the pure-Python DFS on each seed's deal: the same verdict, reason,
    node count, moves, table size and evictions; returns the kinds of outcome seen."""
    seen = set()
    dominance = kw.pop("dominance", True)
    for seed in seeds:
        deal = shuffles.from_seed(lay, seed)
        ref, core = both(lay, deal, dominance=dominance)
        want = dfs(ref, limits, **kw)
        got = compiled_dfs(core, limits, max_entries=max_entries, **kw)
        assert summary(got) == summary(want), (lay.name, seed)
        assert got.moves == want.moves, (lay.name, seed)
        assert core.history == [] and core.state() == both(lay, deal, dominance=dominance)[1].state()
        if got.verdict == "won":
            assert solution_json(core, got.moves) == solution_json(ref, want.moves)
        seen.add(got.verdict)
        seen.add(got.reason or "")
        if got.evictions:
            seen.add("evicted")
    return seen


@pytest.mark.parametrize("restarts, max_entries", [(None, None), (Restarts(), None), (SHAKY, None), (SHAKY, 64)])
def test_node_for_node(restarts, max_entries):
    """Every layout of the family on two small decks and the variants, three seeds each, with
    a node limit; with and without restarts, and with a small table."""
    limits = Limits(max_nodes=800, max_memory=None if max_entries is None else max_entries * pydfs.BYTES_PER_ENTRY)
    seen: set[str] = set()
    for lay in small_games():
        seen |= compare_searches(lay, range(1, 4), limits, max_entries)
    assert {"won", "lost", "unknown", DEAD_REASONS[1]} <= seen  # every kind of ending was compared
    if max_entries is not None:
        assert "evicted" in seen


def test_node_for_node_without_dominance_or_bounds():
    """The switches: no forced moves, no bounds, and the position without its dominance."""
    limits = Limits(max_nodes=500)
    for lay in (variant("debutante", 5, 3), variant("grandfather", 5, 3), variant("twenty", 4, 3)):
        for kw in ({"use_forced": False}, {"use_bounds": False}, {"dominance": False, "use_forced": False}):
            compare_searches(lay, range(1, 3), limits, **kw)


def test_node_limits_are_exact():
    lay = api.load_layout("debutante")
    deal = shuffles.from_seed(lay, 3)
    for n in (0, 1, 2, 1023, 1024, 1025):
        ref, core = both(lay, deal)
        assert summary(compiled_dfs(core, Limits(max_nodes=n))) == summary(dfs(ref, Limits(max_nodes=n))), n


def test_full_deals_agree():
    """A sample of full deals, every layout, a node limit: the same result through ``api.solve``
    (auto picks the compiled core), solutions included."""
    for name in FAMILY:
        for seed in (1, 2):
            limits = Limits(max_nodes=300)
            c = api.solve(name, seed=seed, limits=limits)
            p = api.solve(name, seed=seed, limits=limits, core="python")
            assert c.stats["core"] == "compiled" and p.stats["core"] == "python"
            assert (c.verdict, c.reason, c.stats["nodes"], c.solution) == \
                (p.verdict, p.reason, p.stats["nodes"], p.solution), (name, seed)


def test_won_and_dead_full_deals():
    """A won colorado deal (its solution replays) and a debutante deal the counting bound cuts
    at the root, as the reference finds them."""
    c = api.solve("colorado", seed=3, limits=Limits(max_nodes=20_000))
    p = api.solve("colorado", seed=3, limits=Limits(max_nodes=20_000), core="python")
    assert c.verdict == p.verdict == "won" and c.solution == p.solution and c.stats["nodes"] == p.stats["nodes"]
    assert api.verify(c.to_json()) is None
    lost = api.solve("debutante", seed=30, core="compiled")
    assert lost.verdict == "lost" and lost.reason == DEAD_REASONS[1] and lost.stats["nodes"] == 0


def test_the_python_dfs_runs_on_the_compiled_position():
    lay = variant("colorado", 6, 5)
    for seed in (1, 2):
        ref, core = both(lay, shuffles.from_seed(lay, seed))
        got, want = dfs(core, Limits(max_nodes=400)), dfs(ref, Limits(max_nodes=400))
        assert summary(got) == summary(want)
        assert got.moves == want.moves


# ------------------------------------------------------------ the position


@pytest.mark.parametrize("lay", small_games()[::2] + VARIANTS, ids=lambda lay: lay.name)
def test_perft(lay):
    """Perft to depth 4 from the deal and from points along a random playout."""
    for seed in (1, 2):
        ref, core = both(lay, shuffles.from_seed(lay, seed))
        rng = random.Random(seed)
        for _ in range(3):
            assert perft(core, 4) == perft(ref, 4)
            for _ in range(rng.randrange(3, 12)):
                moves = core.legal_moves()
                if not moves:
                    break
                m = rng.choice(moves)
                ref.push(m)
                core.push(m)


@pytest.mark.parametrize("name", FAMILY)
def test_random_playouts_agree(name):
    """Random playouts to the end on full and reduced decks: the same moves, forced move, bound,
    state and move names at every step, and the same state after popping every move."""
    rng = random.Random(5)
    lay = api.load_layout(name)
    for lay in (api.load_layout(name), variant(name, 7, 8)):
        for seed in (1, 2):
            deal = shuffles.from_seed(lay, seed)
            ref, core = both(lay, deal)
            while True:
                assert_same(ref, core)
                moves = core.legal_moves()
                if not moves or core.ply == WALK:
                    break
                m = rng.choice(moves)
                ref.push(m)
                core.push(m)
            while ref.history:
                assert core.pop() == ref.pop()
            assert core.state() == ReserveCore(lay, deal).state()


def test_both_bounds_fire_on_the_walks():
    """The bounds compared on the walks do fire, each of them, and agree where they do."""
    rng = random.Random(2)
    fired = set()
    for lay in (variant("debutante", 6, 5), variant("colorado", 6, 5), variant("debutante-fifo", 6, 5)):
        for seed in range(1, 4):
            ref, core = both(lay, shuffles.from_seed(lay, seed))
            while (moves := core.legal_moves()) and core.ply < WALK:
                fired.add(core.is_dead())
                assert core.is_dead() == ref.is_dead()
                m = rng.choice(moves)
                ref.push(m)
                core.push(m)
    assert fired >= {None, *DEAD_REASONS} - {PAIRING_DEAD}
    # The pairing bound needs the long ramps of full decks: it fires at debutante 55's deal.
    lay = api.load_layout("debutante")
    ref, core = both(lay, api.make_deal(lay, 55))
    assert core.is_dead() == ref.is_dead() == PAIRING_DEAD and core.horizons == ref.horizons


GAMES = small_games()


@st.composite
def small_deal(draw: Any) -> tuple[Layout, Any]:
    lay = draw(st.sampled_from(GAMES))
    return lay, shuffles.from_seed(lay, draw(st.integers(1, 10**6)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_deal(), st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_push_then_pop_restores_the_compiled_position(case, picks):
    lay, deal = case
    assert_push_then_pop_restores(ReserveCore(lay, deal), picks)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_deal(), st.randoms(use_true_random=False))
def test_walks_agree(case, rnd):
    """Many random walks of one deal, the two positions in step (backing up part of the way
    between walks): the same answers at every step, the same key bytes among them."""
    lay, deal = case
    ref, core = both(lay, deal)
    for _ in range(8):
        while True:
            assert_same(ref, core)
            moves = core.legal_moves()
            forced = core.forced_move()
            if forced is not None:
                moves.append(forced)
            if not moves or core.ply >= WALK:
                break
            m = rnd.choice(moves)
            ref.push(m)
            core.push(m)
        for _ in range(rnd.randrange(len(ref.history) + 1)):  # back up part of the way
            assert core.pop() == ref.pop()
    while ref.history:
        assert core.pop() == ref.pop()
    assert core.state() == ReserveCore(lay, deal).state()


def test_bad_moves_are_refused():
    lay = api.load_layout("debutante")
    for pos in both(lay, shuffles.from_seed(lay, 1)):
        for move in ((99, 1000), (-1, -1), (0, 1099), (-2, 0), (-1, -4), (0, -2), (-2, -3)):
            with pytest.raises(ValueError):
                pos.push(code(*move))
        with pytest.raises(IndexError):
            pos.pop()


def test_it_runs_under_cythons_own_shadow_module():
    """Interpreted with Cython installed, ``import cython`` is Cython's own module (not
    ``shadow``): the same walk, the same answers."""
    own = interpreted("solver.families.core", *RESERVE_SOURCES, shadow=False)[
        "solver.families.reserve.position"].ReservePosition
    lay = variant("debutante", 6, 5)
    deal = shuffles.from_seed(lay, 3)
    a, b = own(lay, deal), ReserveCore(lay, deal)
    rng = random.Random(3)
    while (moves := b.legal_moves()) and b.ply < WALK:
        assert_same(a, b)
        m = rng.choice(moves)
        a.push(m)
        b.push(m)
