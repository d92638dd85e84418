"""The engines, by name.  Each takes (layout, deal, limits) and returns an ``EngineRun``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .search import Limits, Restarts, dfs


@dataclass
class EngineRun:
    verdict: str
    reason: str | None = None
    solution: list[dict[str, Any]] | None = None  # result-contract moves, for "won"
    nodes: int = 0
    stats: dict[str, Any] = field(default_factory=dict)


def solution_json(pos: Any, moves: list[Any]) -> list[dict[str, Any]]:
    """The moves, played from ``pos``, in the result contract; ``pos`` is left as it was."""
    solution = []
    for m in moves:
        record = pos.move_json(m)
        if record is not None:  # None: a decision of the search, not a move of the game
            solution.append(record)
        pos.push(m)
    for _ in moves:
        pos.pop()
    return solution


def run_dfs(layout: Any, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    from .games import start_position

    pos = start_position(layout, deal)
    restarts = None
    if options.get("restarts", True):
        restarts = Restarts(seed=options.get("random_seed") or 0)
    out = dfs(pos, limits, use_forced=options.get("use_forced", True),
              use_bounds=options.get("use_bounds", True), restarts=restarts)
    solution = solution_json(pos, out.moves) if out.verdict == "won" else None
    return EngineRun(out.verdict, out.reason, solution, out.nodes,
                     {"table": out.table_size, "evictions": out.evictions})


def run_cpsat(layout: Any, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    if hasattr(layout, "cpsat"):  # layouts that model themselves (peg boards)
        return layout.cpsat(deal, limits, **options)
    from .cpsat import run_model

    return run_model(layout, deal, limits, **options)


def run_both(layout: Any, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """DFS and CP-SAT; raises ``EngineDisagreement`` when one proves won and the other lost."""
    from .cpsat.portfolio import run_both as both

    return both(layout, deal, limits, **options)


def run_auto(layout: Any, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """A portfolio: a short DFS, then CP-SAT, then the DFS (see ``solver/cpsat/portfolio.py``)."""
    from .cpsat.portfolio import run_auto as auto

    return auto(layout, deal, limits, **options)


ENGINES: dict[str, Callable[..., EngineRun]] = {"dfs": run_dfs, "cpsat": run_cpsat, "both": run_both,
                                                "auto": run_auto}
