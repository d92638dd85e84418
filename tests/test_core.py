"""The compiled search core (issue #15): the compiled DFS over the hole family's position
(one source, issue #32) against the pure-Python DFS over the same source run interpreted,
node for node.

Skipped when the extension is not built, unless ``PATIENCE_REQUIRE_COMPILED=1`` (CI sets
it), which turns the skip into a failure (here and in ``test_cli_core.py``).
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import assert_push_then_pop_restores, interpreted, perft, small_hole_deal

from solver import api, cards
from solver.engines import dfs as pydfs
from solver.engines.core import compiled_available, start_position, unavailable_reason
from solver.engines.dfs import Restarts, compiled_dfs, dfs
from solver.errors import UnsupportedError
from solver.families import family_of, solution_json
from solver.families.hole import position as hole
from solver.limits import Limits
from solver.schema import builtin_names

if not compiled_available():
    if os.environ.get("PATIENCE_REQUIRE_COMPILED") == "1":  # CI: the compiled core must be tested
        pytest.fail(f"PATIENCE_REQUIRE_COMPILED=1 but the compiled core is not built ({unavailable_reason()})",
                    pytrace=False)
    pytest.skip(f"the compiled core is not built ({unavailable_reason()})", allow_module_level=True)

from solver.engines import _dfs, dfs_core  # noqa: E402

HoleCore = hole.HolePosition  # compiled
HolePosition = interpreted("solver.families.core", "solver.families.hole.position")[
    "solver.families.hole.position"].HolePosition  # the same source, interpreted

HOLE_LAYOUTS = [n for n in builtin_names() if family_of(api.load_layout(n)).name == "hole"]
SHAKY = Restarts(base=3, noise=0.6, seed=7)  # many restarts: the shared table and the noise work hard


def both(lay: Any, deal: Any) -> tuple[Any, Any]:
    """The position of ``deal``, interpreted and compiled."""
    return HolePosition(lay, deal), HoleCore(lay, deal)


def search(core: Any, max_nodes: int | None, restarts: tuple[int, float] | None, rng: random.Random,
           progress: Any = None, progress_every: float = 0.5) -> tuple[Any, ...]:
    """The compiled loop over ``core``'s C methods, as ``compiled_dfs`` runs it, returning its tuple."""
    return dfs_core.Search(core, True, _dfs.KeyTable(-1), _dfs.KeyTable(-1), True, True, rng).run(
        max_nodes, None, restarts, progress, progress_every)


def test_the_two_are_the_interpreted_and_the_compiled_module():
    assert hole.COMPILED and HoleCore is not HolePosition
    assert type(HolePosition.push).__name__ == "function" and type(HoleCore.push).__name__ != "function"


def summary(out: pydfs.Outcome) -> tuple[Any, ...]:
    return (out.verdict, out.reason, out.nodes, out.moves, out.table_size, out.evictions, out.max_depth,
            out.deepest, out.cuts)


def reduced(name: str) -> list[Any]:
    """The layout on two reduced decks (a third and two thirds of the way from the smallest deck
    it can deal to the full one) and on the full deck."""
    lowest = next(r for r in range(1, 14) if _deals(name, r))
    ranks = sorted({lowest + (13 - lowest) // 3, lowest + 2 * (13 - lowest) // 3} - {13})
    return [api.load_layout(name, r) for r in ranks] + [api.load_layout(name)]


def _deals(name: str, max_rank: int) -> bool:
    try:
        api.load_layout(name, max_rank)
    except Exception:
        return False
    return True


def test_the_hole_family_has_layouts():
    assert set(HOLE_LAYOUTS) >= {"black-hole", "golf", "worm-hole"}  # Worm Hole: cells


# ------------------------------------------------------------ node for node


@pytest.mark.parametrize("name", HOLE_LAYOUTS)
@pytest.mark.parametrize("restarts, max_entries", [(None, None), (Restarts(), None), (SHAKY, None),
                                                   (None, 100), (SHAKY, 100)])
def test_node_for_node(name, restarts, max_entries):
    """Same verdict, reason, node count, moves, table size and evictions as the pure-Python
    DFS over the interpreted position, on reduced decks and the full deck, with node limits and
    a small table."""
    limits = Limits(max_nodes=6000, max_memory=None if max_entries is None else max_entries * pydfs.BYTES_PER_ENTRY)
    seen = set()
    for lay in reduced(name):
        for seed in range(1, 13 if name == "worm-hole" else 7):  # Worm Hole's easy deals: more of them
            deal = api.make_deal(lay, seed)
            ref, core = both(lay, deal)
            want = dfs(ref, limits, restarts=restarts)
            got = compiled_dfs(core, limits, restarts=restarts, max_entries=max_entries)
            assert summary(got) == summary(want), (lay.name, lay.max_rank, seed)
            assert core.history == [] and core.state() == ref.state() == HoleCore(lay, deal).state()
            if got.verdict == "won":
                assert solution_json(core, got.moves) == solution_json(ref, want.moves)
            seen.add(got.verdict)
            if max_entries is not None and got.evictions:
                seen.add("evicted")
    assert len(seen & {"won", "lost", "unknown"}) >= 2  # not one kind of search only
    if max_entries is not None:
        assert "evicted" in seen


def test_the_loop_interpreted_agrees_with_the_loop_compiled():
    """``dfs_core`` written once: run interpreted (as under ``PATIENCE_CORE=python``) over the
    interpreted position's Python methods, and compiled over the compiled position's C methods,
    it searches alike, restarts and a small table included (the rng left in the same state)."""
    loop = interpreted("solver.engines.dfs_core")["solver.engines.dfs_core"]
    assert not loop.COMPILED and dfs_core.COMPILED
    for name, seed in (("golf", 5), ("black-hole", 4), ("worm-hole", 3)):
        lay = api.load_layout(name)
        for restarts, entries in ((None, None), ((3, 0.6), None), ((3, 0.6), 200)):
            ref, core = both(lay, api.make_deal(lay, seed))
            rng_a, rng_b = random.Random(7), random.Random(7)
            want = loop.Search(ref, False, pydfs._Table(entries), pydfs._Table(entries), True, True, rng_a).run(
                4000, None, restarts, None, 0.5)
            got = dfs_core.Search(core, True, _dfs.KeyTable(-1 if entries is None else entries), _dfs.KeyTable(-1),
                                  True, True, rng_b).run(4000, None, restarts, None, 0.5)
            assert got[:4] + got[5:7] + got[8:] == want[:4] + want[5:7] + want[8:], (name, restarts, entries)
            assert rng_a.getstate() == rng_b.getstate()


def test_cythons_own_shadow_runs_the_source_alike():
    """Interpreted where Cython is installed, ``import cython`` is Cython's own module (its
    ``compiled`` False, its decorators doing nothing), not ``solver.families.shadow``."""
    pytest.importorskip("cython")
    own = interpreted("solver.families.core", "solver.families.hole.position", shadow=False)
    lay = api.load_layout("golf")
    deal = api.make_deal(lay, 5)
    pos = own["solver.families.hole.position"].HolePosition(lay, deal)
    assert summary(dfs(pos, Limits(max_nodes=3000))) == summary(dfs(HolePosition(lay, deal), Limits(max_nodes=3000)))


def test_the_python_dfs_runs_on_the_compiled_position():
    """As ``--core python`` does where the position is compiled."""
    lay = api.load_layout("golf")
    for seed in (2, 5, 9):
        ref, core = both(lay, api.make_deal(lay, seed))
        assert summary(dfs(core, Limits(max_nodes=3000))) == summary(dfs(ref, Limits(max_nodes=3000)))


def test_switches_and_limits():
    lay = api.load_layout("black-hole")
    deal = api.make_deal(lay, 4)
    for kw in ({"use_forced": False}, {"use_bounds": False}, {"use_forced": False, "use_bounds": False}):
        ref, core = both(lay, deal)
        assert summary(compiled_dfs(core, Limits(max_nodes=4000), **kw)) == \
            summary(dfs(ref, Limits(max_nodes=4000), **kw)), kw
    for n in (0, 1, 2, 1023, 1024, 1025):
        ref, core = both(lay, deal)
        assert summary(compiled_dfs(core, Limits(max_nodes=n))) == summary(dfs(ref, Limits(max_nodes=n))), n


def test_a_dead_deal_names_its_bound():
    lay = replace(api.load_layout("black-hole"), max_rank=13,
                  tableau=replace(api.load_layout("black-hole").tableau, count=2, deal=(1, 1)))
    deal = {"hole": [cards.parse("AS")], "tableau:0": [cards.parse("2C")], "tableau:1": [cards.parse("5D")]}
    ref, core = both(lay, deal)
    want, got = dfs(ref), compiled_dfs(core)
    assert got.verdict == want.verdict == "lost"
    assert got.reason == want.reason and "walk bound" in (got.reason or "")


def test_timeout_gives_unknown():
    lay = api.load_layout("golf")
    core = HoleCore(lay, api.make_deal(lay, 31))  # lost after 389093 nodes
    out = compiled_dfs(core, Limits(timeout=0.01), restarts=Restarts())
    assert out.verdict == "unknown" and out.reason == "timeout 0.01 s"
    assert core.history == []


def test_a_signal_interrupts_the_search_and_the_position_is_restored():
    """Ctrl-C (or any signal handler that raises) stops the compiled loop within 1024 nodes."""
    import signal

    class Stop(Exception):
        pass

    def stop(*_: Any) -> None:
        raise Stop

    lay = api.load_layout("golf")
    deal = api.make_deal(lay, 31)  # lost after 389093 nodes
    core = HoleCore(lay, deal)
    seen: list[dict[str, Any]] = []

    def report(stats: dict[str, Any]) -> None:
        seen.append(stats)
        if len(seen) == 1:  # the search runs: the signal comes 2 ms later (not before it began, under load)
            signal.setitimer(signal.ITIMER_REAL, 0.002)

    old = signal.signal(signal.SIGALRM, stop)
    try:
        with pytest.raises(Stop):
            search(core, None, None, random.Random(0), report, 0.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert seen and seen[-1]["nodes"] < 300_000  # stopped inside the search, not after it
    assert core.state() == HoleCore(lay, deal).state()


def test_progress_reports_as_the_python_dfs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pydfs, "PROGRESS_EVERY", 0.0)  # a report at every look at the clock
    lay = api.load_layout("golf")
    deal = api.make_deal(lay, 31)
    got: list[dict[str, Any]] = []
    want: list[dict[str, Any]] = []
    ref, core = both(lay, deal)
    compiled_dfs(core, Limits(max_nodes=5000), restarts=Restarts(), progress=got.append)
    dfs(ref, Limits(max_nodes=5000), restarts=Restarts(), progress=want.append)
    assert [r["nodes"] for r in got] == [1024, 2048, 3072, 4096]
    assert set(got[0]) == set(want[0]) == {"seconds", "nodes", "nodes_per_second", "depth", "table"}
    assert [(r["nodes"], r["depth"], r["table"]) for r in got] == [(r["nodes"], r["depth"], r["table"]) for r in want]


# ------------------------------------------------------------ the table


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(min_size=0, max_size=40), max_size=300), st.integers(1, 40),
       st.sampled_from([0xFFFFFFFFFFFFFFFF, 0]))
def test_key_table_is_exact(keys, bound, hash_mask):
    """Against a dict with the pure-Python table's eviction; a hash mask of 0 makes every key
    collide, so every answer rests on comparing the bytes."""
    table = _dfs.KeyTable(bound, hash_mask)
    ref = pydfs._Table(bound)
    for k in keys:
        assert (k in table) == (k in ref.keys)
        if k not in ref.keys:
            ref.add(k)
            table.insert(k)
        assert len(table) == len(ref.keys) and table.evictions == ref.evictions
    assert all(k in table for k in ref.keys)


def test_luby_matches():
    """The compiled ``luby`` against the sequence's definition: 1 at the start of each block, and a
    block of 2**k - 1 terms repeating the terms before it, then 2**(k-1)."""
    want: list[int] = []
    while len(want) < 3000:
        want = want + want + [2 * want[-1] if want else 1]
    assert dfs_core.COMPILED and [dfs_core.luby(i) for i in range(1, 3000)] == want[:2999]


def test_noise_draws_match_random_random():
    """The draws made in C are random.Random's: the same search when the rng is a subclass (the
    search then calls the object itself), and the rng handed back in the same state."""

    class Called(random.Random):
        pass

    assert _dfs.TWISTER_OK and _dfs._twister_agrees()
    lay = api.load_layout("golf")
    for seed in (3, 20):
        outs, states = [], []
        for rng in (random.Random(7), Called(7)):
            core = HoleCore(lay, api.make_deal(lay, seed))
            out = search(core, 3000, (3, 0.6), rng)
            outs.append(out[:4])
            states.append(rng.getstate())
        assert outs[0] == outs[1] and states[0] == states[1] != random.Random(7).getstate()


def test_bytes_per_entry_is_what_the_limit_assumes():
    lay = api.load_layout("golf")
    core = HoleCore(lay, api.make_deal(lay, 31))
    out = search(core, 50000, None, random.Random(0))
    entries, held = out[5], out[7]
    assert entries > 20000
    # what the table holds (arena and index, as allocated) is what max_memory is divided by, within 25%
    assert held / entries <= 1.25 * _dfs.table_bytes_per_entry(len(core.key()))
    # and --max-memory turns into that many entries
    mem = 200_000
    bounded = compiled_dfs(HoleCore(lay, api.make_deal(lay, 31)), Limits(max_nodes=50000, max_memory=mem))
    assert bounded.evictions > 0 and bounded.table_size <= mem // _dfs.table_bytes_per_entry(len(core.key()))


# ------------------------------------------------------------ the compiled position and the interpreted


@pytest.mark.parametrize("name", HOLE_LAYOUTS)
def test_perft(name):
    for lay in reduced(name):
        for seed in (1, 2, 3):
            ref, core = both(lay, api.make_deal(lay, seed))
            assert perft(core, 4) == perft(ref, 4)


@pytest.mark.parametrize("name", HOLE_LAYOUTS)
def test_random_playouts_agree(name):
    """Random playouts to the end: the same moves, forced move, bound and won at every step."""
    rng = random.Random(5)
    for lay in reduced(name):
        for seed in range(1, 9):
            ref, core = both(lay, api.make_deal(lay, seed))
            while True:
                assert_same(ref, core)
                moves = ref.legal_moves()
                if not moves:
                    break
                m = rng.choice(moves)
                ref.push(m)
                core.push(m)


def assert_same(ref: Any, core: Any) -> None:
    """The interpreted and the compiled position are the same: moves, forced move, bound, won,
    key bytes, every part of the state."""
    assert core.legal_moves() == ref.legal_moves()
    assert core.forced_move() == ref.forced_move()
    assert core.is_dead() == ref.is_dead()
    assert core.is_won() == ref.is_won()
    assert core.key() == ref.key()
    assert core.state() == ref.state()
    assert core.history == ref.history and core.ply == ref.ply == len(ref.history)
    for m in core.legal_moves():
        assert core.move_json(m) == ref.move_json(m)





@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hole_deal(), st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_push_then_pop_restores_the_compiled_position(case, picks):
    lay, deal = case
    assert_push_then_pop_restores(HoleCore(lay, deal), picks)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hole_deal(), st.randoms(use_true_random=False))
def test_random_walks_agree(case, rnd):
    """Over many random walks of one deal, the compiled and the interpreted position walk in
    step (``assert_same``: the same key bytes too)."""
    lay, deal = case
    ref, core = both(lay, deal)
    for _ in range(12):
        while True:
            assert_same(ref, core)
            moves = ref.legal_moves()
            if not moves:
                break
            m = rnd.choice(moves)
            ref.push(m)
            core.push(m)
        while ref.history:
            assert core.pop() == ref.pop()
    assert core.state() == HoleCore(lay, deal).state()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hole_deal())
def test_small_deals_node_for_node(case):
    lay, deal = case
    ref, core = both(lay, deal)
    assert summary(compiled_dfs(core, restarts=SHAKY)) == summary(dfs(ref, restarts=SHAKY))


def test_bad_moves_are_refused():
    lay = api.load_layout("black-hole")
    for pos in both(lay, api.make_deal(lay, 1)):
        with pytest.raises(ValueError):
            pos.push(99)
        with pytest.raises(IndexError):
            pos.pop()


# ------------------------------------------------------------ choosing the core


def test_auto_runs_the_compiled_core_and_agrees_on_full_deals():
    for name, seeds in (("black-hole", range(1, 9)), ("golf", range(1, 9)), ("worm-hole", range(1, 5))):
        for seed in seeds:
            c = api.solve(name, seed=seed, limits=Limits(max_nodes=5000))
            p = api.solve(name, seed=seed, limits=Limits(max_nodes=5000), core="python")
            assert c.stats["core"] == "compiled" and p.stats["core"] == "python"
            assert (c.verdict, c.reason, c.stats["nodes"], c.solution) == \
                (p.verdict, p.reason, p.stats["nodes"], p.solution), (name, seed)


def test_a_family_without_a_compiled_core():
    from solver.families.base import GameFamily

    # A layout of a family that has no compiled position (it keeps the base class's refusal).
    name = next(n for n in builtin_names()
                if type(family_of(api.load_layout(n))).compiled_position is GameFamily.compiled_position
                and family_of(api.load_layout(n)).default_engine == "dfs")
    lay = api.load_layout(name)
    seed = 1 if family_of(lay).shuffled else None  # peg boards have one start
    deal = api.make_deal(lay, seed)
    with pytest.raises(UnsupportedError, match="no compiled core"):
        start_position(lay, deal, "compiled")
    assert start_position(lay, deal, "auto")[1] == "python"
    assert api.solve(lay, seed=seed, limits=Limits(max_nodes=10)).stats["core"] == "python"
