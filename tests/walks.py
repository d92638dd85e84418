"""Shared test walks over positions, and shared strategies (imported by the tests; pytest puts
this folder on sys.path)."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

from solver import api, cards
from solver.layout import Cells

# The tableau position's one-source modules, each before the modules that import it (``interpreted``).
TABLEAU_SOURCES = ("solver.families.tableau.state", "solver.families.tableau.codes", "solver.families.tableau.blocked",
                   "solver.families.tableau.order", "solver.families.tableau.position")
# The reserve position's likewise (``solver/families/reserve/state.pxd`` draws the layers).
RESERVE_SOURCES = ("solver.families.reserve.state", "solver.families.reserve.copies",
                   "solver.families.reserve.relaxed", "solver.families.reserve.learned",
                   "solver.families.reserve.timed", "solver.families.reserve.dead_ends",
                   "solver.families.reserve.position")


def interpreted(*names: str, shadow: bool = True) -> dict[str, ModuleType]:
    """The one-source modules ``names`` (dotted, each before the modules that import it), loaded
    from their ``.py`` sources and run interpreted, beside the compiled ones of the same names
    (``sys.modules`` is left as it was).  ``shadow``: with ``solver.families.shadow`` for the
    ``cython`` module, as where Cython is not installed; else Cython's own (installed)."""
    keep = {n: sys.modules.get(n) for n in (*names, "cython")}
    loaded: dict[str, ModuleType] = {}
    try:
        if shadow:
            sys.modules["cython"] = None  # type: ignore[assignment]  # ``import cython`` fails
        for name in names:
            path = Path(sys.modules["solver"].__file__ or "").parent.joinpath(*name.split(".")[1:]).with_suffix(".py")
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = loaded[name] = importlib.util.module_from_spec(spec)
            sys.modules[name] = module  # the next modules import this one
            spec.loader.exec_module(module)
            assert not module.cython.compiled  # the shadow, or Cython's own module
    finally:
        for n, m in keep.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    return loaded


class Run:
    """``patience ARGS`` run in this process: its exit code and what it printed."""

    def __init__(self, capsys: Any, *args: str):
        from solver.cli import main

        self.returncode = main(list(args))
        self.stdout, self.stderr = capsys.readouterr()


def assert_push_then_pop_restores(pos: Any, picks: list[int]) -> None:
    """Push the moves ``picks`` choose (forced moves included), then pop them all, checking
    that each pop gives back the exact state and key of the position before its push."""
    states, keys = [pos.state()], [pos.key()]
    for p in picks:
        moves = pos.legal_moves()
        forced = pos.forced_move()
        if forced is not None:
            moves.append(forced)
        if not moves:
            break
        pos.push(moves[p % len(moves)])
        states.append(pos.state())
        keys.append(pos.key())
    while len(states) > 1:
        states.pop()
        keys.pop()
        pos.pop()
        assert pos.state() == states[-1]
        assert pos.key() == keys[-1]


def verdicts_with_and_without_forced(lay: Any, seeds: range, max_nodes: int) -> list[str]:
    """Complete searches of each seed's deal with and without the automatic (forced) moves;
    asserts that both finish and agree, and returns the verdicts."""
    from solver import shuffles
    from solver.engines.dfs import dfs
    from solver.families import start_position
    from solver.limits import Limits

    verdicts = []
    for seed in seeds:
        deal = shuffles.from_seed(lay, seed)
        with_forced = dfs(start_position(lay, deal), Limits(max_nodes=max_nodes), use_forced=True)
        without = dfs(start_position(lay, deal), Limits(max_nodes=max_nodes), use_forced=False)
        assert "unknown" not in (with_forced.verdict, without.verdict), (lay.name, seed)
        assert with_forced.verdict == without.verdict, (lay.name, seed)
        verdicts.append(with_forced.verdict)
    return verdicts


def goal_reachable(start: Any, successors: Any, is_goal: Any, cap: int) -> bool | None:
    """Plain depth-first reachability for the brute-force checkers: whether a state
    ``is_goal`` accepts can be reached from ``start``; None once ``cap`` states are seen."""
    seen = {start}
    todo = [start]
    while todo:
        s = todo.pop()
        if is_goal(s):
            return True
        for n in successors(s):
            if n not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(n)
                todo.append(n)
    return False


def engine_vs_brute_force(lay: Any, seeds: range, brute_force: Any) -> dict[bool, int]:
    """Solve each seed's deal with the engine and with ``brute_force(lay, deal)`` (True, False,
    or None when it gives up); asserts they agree wherever the brute force finished and
    returns how many won (True) and lost (False) deals were compared."""
    from solver import api, shuffles
    from solver.limits import Limits

    checked = {True: 0, False: 0}
    for seed in seeds:
        deal = shuffles.from_seed(lay, seed)
        truth = brute_force(lay, deal)
        if truth is None:
            continue
        got = api.solve(lay, deal=deal, limits=Limits(max_nodes=500_000)).verdict
        assert got == ("won" if truth else "lost"), (lay.name, seed)
        checked[truth] += 1
    return checked


def perft(pos: Any, depth: int) -> int:
    """The number of move sequences of ``depth`` legal moves from ``pos`` (chess's perft)."""
    if depth == 0:
        return 1
    n = 0
    for m in pos.legal_moves():
        pos.push(m)
        n += perft(pos, depth - 1)
        pos.pop()
    return n


def named(pos: Any, moves: Any) -> set[tuple[str, str, str, int]]:
    """Moves as (card, from, to, count), the way the result contract names them."""
    out = set()
    for m in moves:
        j = pos.move_json(m)
        out.add((j["card"], j["from"], j["to"], j.get("count", 1)))
    return out


@st.composite
def small_hole_deal(draw: Any, max_columns: int = 6, cells: bool = True) -> tuple[Any, dict[str, list[int]]]:
    """A Black Hole or Golf layout of a reduced pack (ranks A..3-6) with 2..max_columns columns,
    and a shuffle of it dealt to them (and a stock, for golf): small, so that equal rank
    sequences (interchangeable columns) and transpositions are common.  ``cells``: on ranks
    A..3-4, often with one or two free cells (Worm Hole's), sometimes holding a card from the start."""
    golf = draw(st.booleans())
    max_rank = draw(st.integers(3, 6))
    pack = draw(st.permutations(cards.pack(1, max_rank)))
    ncols = draw(st.integers(2, max_columns))
    ncells = draw(st.integers(0, 2)) if cells and max_rank <= 4 else 0  # no bottom-card pruning with cells: kept small
    in_cells = draw(st.integers(0, ncells))
    in_columns = len(pack) - 1 - in_cells - (draw(st.integers(0, 8)) if golf else 0)
    sizes = [in_columns // ncols + (i < in_columns % ncols) for i in range(ncols)]
    deal = {"hole": [pack[0]]}
    for i in range(in_cells):
        deal[f"cell:{i}"] = [pack[1 + i]]
    at = 1 + in_cells
    for i, n in enumerate(sizes):
        deal[f"tableau:{i}"] = list(pack[at : at + n])
        at += n
    if at < len(pack):
        deal["stock"] = list(pack[at:])
    base = api.load_layout("golf" if golf else "black-hole")
    layout = replace(base, max_rank=max_rank, tableau=replace(base.tableau, count=ncols, deal=(1,) * ncols),
                     cells=Cells(ncells, in_cells))
    return layout, deal
