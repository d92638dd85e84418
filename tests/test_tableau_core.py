"""The tableau position, one source (issue #32): compiled against the same source run interpreted.

The compiled position (driven by the compiled DFS) and the interpreted one (driven by the
pure-Python DFS) must be the same game: at every position the same moves in the same order,
the same forced move, the same key bytes, the same bound and state after every push and pop;
and the two searches must visit the same nodes and find the same wins.

Skipped when the extension is not built, unless ``PATIENCE_REQUIRE_COMPILED=1`` (CI sets
it), which turns the skip into a failure.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tableau import SMALL, reduced
from walks import TABLEAU_SOURCES, assert_push_then_pop_restores, interpreted, perft

from solver import api, moves, shuffles
from solver.engines.core import compiled_available, unavailable_reason
from solver.engines.dfs import Restarts, compiled_dfs, dfs
from solver.families.base import solution_json
from solver.families.tableau import position as tableau
from solver.families.tableau.codes import JOINED_BIT
from solver.limits import Limits

if not (compiled_available() and tableau.COMPILED):
    if os.environ.get("PATIENCE_REQUIRE_COMPILED") == "1":  # CI: the compiled core must be tested
        pytest.fail("PATIENCE_REQUIRE_COMPILED=1 but the compiled tableau position is not built "
                    f"({unavailable_reason() or 'position.py runs interpreted'})", pytrace=False)
    pytest.skip("the compiled tableau position is not built", allow_module_level=True)

TableauCore = tableau.TableauPosition  # compiled
TableauPosition = interpreted("solver.families.core", *TABLEAU_SOURCES)[
    "solver.families.tableau.position"].TableauPosition  # the same source, interpreted

LAYOUTS = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell", "bakers-dozen",
           "forty-thieves", "klondike", "klondike-draw-1", "canfield",
           "beleaguered-castle", "fan", "gargantua",  # preset aces; 18 columns; two packs, removable
           "klondike-reserve",  # 37 stacks: stack numbers past 31
           "canfield-auto-reserve-then-waste",  # spaces from the reserve, then only the waste onto columns
           "canfield-strict",  # ... and only whole columns onto columns
           "fortunes-favor"]  # spaces from the waste, then the stock; turns alone

# Reduced decks, every layout: complete searches of a few hundred nodes, won and lost.
REDUCED = dict(SMALL)
REDUCED["eight-off"] = reduced("eight-off", 5, [3, 3, 3, 3, 3, 3], cells=3, cells_deal=2)
REDUCED["bakers-dozen"] = api.load_layout("bakers-dozen", max_rank=4)
REDUCED["canfield-5"] = api.load_layout("canfield", max_rank=5)
REDUCED["canfield-6"] = api.load_layout("canfield", max_rank=6)
REDUCED["forty-thieves-suit"] = replace(SMALL["two-packs-draw-1"], tableau=replace(
    SMALL["two-packs-draw-1"].tableau, moves="sequence"))


def pair(lay: Any, deal: Any) -> tuple[Any, Any]:
    """The position of ``deal``, interpreted and compiled."""
    return TableauPosition(lay, deal), TableauCore(lay, deal)


def test_the_two_are_the_interpreted_and_the_compiled_module():
    assert TableauCore is not TableauPosition
    assert type(TableauPosition.push).__name__ == "function" and type(TableauCore.push).__name__ != "function"


def assert_same_here(ref: Any, core: Any) -> None:
    """Same moves in the same order, same forced move, same key bytes, same bound, same state."""
    assert core.legal_moves() == ref.legal_moves()
    assert core.forced_move() == ref.forced_move()
    assert core.key() == ref.key()
    assert core.state() == ref.state()
    assert core.is_dead() == ref.is_dead()
    assert core.history == ref.history and core.ply == ref.ply == len(ref.history)


def lockstep_walk(ref: Any, core: Any, picks: list[int]) -> set[str]:
    """Walk both positions by the same moves (a pick of 0 pops), comparing at every step;
    returns the kinds of moves offered on the way (joined, a waste place, from a foundation)."""
    kinds = set()
    for p in picks:
        assert_same_here(ref, core)
        for m in ref.legal_moves():
            if m & JOINED_BIT:
                kinds.add("joined")
            else:
                code = moves.decode(m)
                kinds |= {k for k, yes in (("place", code.place), ("from-foundation", ref.F <= code.src < ref.R))
                          if yes}
        if p == 0 and ref.history:
            assert core.pop() == ref.pop()
            continue
        codes = core.legal_moves()
        forced = core.forced_move()
        if forced is not None:
            codes.append(forced)
        if not codes:
            break
        code = codes[p % len(codes)]
        assert core.move_json(code) == ref.move_json(code)
        assert core.parts(code) == ref.parts(code)
        ref.push(code)
        core.push(code)
    assert_same_here(ref, core)
    while ref.history:
        ref.pop()
        core.pop()
        assert core.state() == ref.state()
    assert_same_here(ref, core)
    return kinds


# ------------------------------------------------------------ position by position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), seed=st.integers(1, 10**6),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_walks_agree_move_by_move(name, seed, picks):
    lay = api.load_layout(name)
    lockstep_walk(*pair(lay, shuffles.from_seed(lay, seed)), picks)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), seed=st.integers(1, 10**6),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_push_then_pop_restores(name, seed, picks):
    lay = api.load_layout(name)
    _, core = pair(lay, shuffles.from_seed(lay, seed))
    assert_push_then_pop_restores(core, picks)


def test_long_random_walks_agree_on_every_layout():
    """Deeper than hypothesis goes: 400 steps on three deals of every layout, popping now and then."""
    rng = random.Random(15)
    kinds = set()
    for name in LAYOUTS:
        lay = api.load_layout(name)
        for seed in (1, 2, 3):
            kinds |= lockstep_walk(*pair(lay, shuffles.from_seed(lay, seed)),
                                   [rng.choice((0,) + (1,) * 6) * rng.randrange(1, 999) for _ in range(400)])
    assert kinds == {"joined", "place", "from-foundation"}  # the walks met every kind of decision


def test_deep_walks_grow_the_undo_stacks():
    """Past the undo stacks' first room (64 entries each): push and pop stay exact both ways."""
    lay = api.load_layout("klondike-draw-1")
    ref, core = pair(lay, shuffles.from_seed(lay, 3))
    rng = random.Random(2)
    states = []
    while len(states) < 100:
        assert_same_here(ref, core)
        states.append(ref.state())
        codes = ref.legal_moves() + [m for m in [ref.forced_move()] if m is not None]
        code = codes[rng.randrange(len(codes))]
        ref.push(code)
        core.push(code)
    assert ref.ply >= 100
    while states:
        assert core.pop() == ref.pop()
        assert core.state() == ref.state() == states.pop()


def perft_forced(pos: Any, depth: int) -> int:
    """``perft`` as the DFS sees the tree: forced moves played after every move (and first)."""
    pushed = 0
    while (m := pos.forced_move()) is not None:
        pos.push(m)
        pushed += 1
    n = perft(pos, 1) if depth == 1 else 1 if depth == 0 else 0
    if depth > 1:
        for m in pos.legal_moves():
            pos.push(m)
            n += perft_forced(pos, depth - 1)
            pos.pop()
    for _ in range(pushed):
        pos.pop()
    return n


@pytest.mark.parametrize("variant", sorted(REDUCED))
def test_perft_counts_agree(variant):
    counts = []
    for seed in (1, 2, 3):
        ref, core = pair(REDUCED[variant], shuffles.from_seed(REDUCED[variant], seed))
        counts.append(perft_forced(ref, 3))
        assert perft_forced(core, 3) == counts[-1]
        assert perft(core, 3) == perft(ref, 3)
    assert sum(counts) > 0


# ------------------------------------------------------------ search by search


def assert_same_search(lay: Any, seed: int, limits: Limits, restarts: Restarts | None) -> str:
    """The compiled DFS over the compiled position and the Python DFS over the interpreted one."""
    ref, core = pair(lay, shuffles.from_seed(lay, seed))
    a = dfs(ref, limits, restarts=restarts)
    b = compiled_dfs(core, limits, restarts=restarts)
    got, want = (b.verdict, b.reason, b.nodes, b.table_size, b.moves), (a.verdict, a.reason, a.nodes, a.table_size,
                                                                         a.moves)
    assert got == want, (lay.name, seed)
    if a.verdict == "won":
        assert solution_json(core, b.moves) == solution_json(ref, a.moves)
    assert core.state() == ref.state()  # both searches put their position back
    return a.verdict


@pytest.mark.parametrize("variant", sorted(REDUCED))
def test_node_for_node_on_reduced_decks(variant):
    lay = REDUCED[variant]
    verdicts = set()
    for seed in range(1, 9):
        for restarts in (None, Restarts(base=20)):
            verdicts.add(assert_same_search(lay, seed, Limits(max_nodes=20_000), restarts))
        assert_same_search(lay, seed, Limits(max_nodes=30), None)  # stopped by the node limit
    assert "unknown" not in verdicts  # complete searches, compared to the end


@pytest.mark.parametrize("name", LAYOUTS)
def test_node_for_node_on_full_deals(name):
    lay = api.load_layout(name)
    for seed in (1, 2, 3):
        assert_same_search(lay, seed, Limits(max_nodes=1500), Restarts())


def test_cythons_own_shadow_runs_the_source_alike():
    """Interpreted where Cython is installed, ``import cython`` is Cython's own module (its
    ``declare`` and decorators), not ``solver.families.shadow``: the same search."""
    pytest.importorskip("cython")
    own = interpreted("solver.families.core", *TABLEAU_SOURCES, shadow=False)
    lay = api.load_layout("klondike")
    deal = shuffles.from_seed(lay, 5)
    a = dfs(own["solver.families.tableau.position"].TableauPosition(lay, deal), Limits(max_nodes=3000))
    b = dfs(TableauPosition(lay, deal), Limits(max_nodes=3000))
    assert (a.verdict, a.nodes, a.moves) == (b.verdict, b.nodes, b.moves)


def test_the_python_dfs_runs_on_the_compiled_position():
    """As ``--core python`` does where the position is compiled."""
    lay = api.load_layout("klondike")
    for seed in (2, 5):
        ref, core = pair(lay, shuffles.from_seed(lay, seed))
        a, b = dfs(ref, Limits(max_nodes=3000)), dfs(core, Limits(max_nodes=3000))
        assert (a.verdict, a.nodes, a.moves) == (b.verdict, b.nodes, b.moves)


def test_the_family_gives_the_compiled_position():
    from solver.families import family_of

    lay = api.load_layout("klondike")
    pos = family_of(lay).compiled_position(lay, shuffles.from_seed(lay, 1))
    assert isinstance(pos, TableauCore)
    result = api.solve(lay, seed=1, limits=Limits(max_nodes=200_000), core="compiled")
    assert result.verdict == "won" and result.stats["core"] == "compiled"


def test_popping_the_deal_is_refused():
    lay = api.load_layout("freecell")
    for pos in pair(lay, shuffles.from_seed(lay, 1)):
        with pytest.raises(IndexError):
            pos.pop()
