"""Shared test walks over positions, and shared strategies (imported by the tests; pytest puts
this folder on sys.path)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from solver import api, cards


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
    from solver import deal as deals
    from solver.engines.dfs import dfs
    from solver.families import start_position
    from solver.limits import Limits

    verdicts = []
    for seed in seeds:
        deal = deals.from_seed(lay, seed)
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
    from solver import api
    from solver import deal as deals
    from solver.limits import Limits

    checked = {True: 0, False: 0}
    for seed in seeds:
        deal = deals.from_seed(lay, seed)
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
def small_hole_deal(draw: Any, max_columns: int = 6) -> tuple[Any, dict[str, list[int]]]:
    """A Black Hole or Golf layout of a reduced pack (ranks A..3-6) with 2..max_columns columns,
    and a shuffle of it dealt to them (and a stock, for golf): small, so that equal rank
    sequences (interchangeable columns) and transpositions are common."""
    golf = draw(st.booleans())
    max_rank = draw(st.integers(3, 6))
    pack = draw(st.permutations(cards.pack(1, max_rank)))
    ncols = draw(st.integers(2, max_columns))
    in_columns = len(pack) - 1 - (draw(st.integers(0, 8)) if golf else 0)
    sizes = [in_columns // ncols + (i < in_columns % ncols) for i in range(ncols)]
    deal = {"hole": [pack[0]]}
    at = 1
    for i, n in enumerate(sizes):
        deal[f"tableau:{i}"] = list(pack[at : at + n])
        at += n
    if at < len(pack):
        deal["stock"] = list(pack[at:])
    base = api.load_layout("golf" if golf else "black-hole")
    layout = replace(base, max_rank=max_rank, tableau=replace(base.tableau, count=ncols, deal=(1,) * ncols))
    return layout, deal
