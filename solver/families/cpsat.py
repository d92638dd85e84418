"""What every CP-SAT model here shares: solver parameters, status to verdict, statistics.

Determinism: with ``random_seed`` given, the run is made repeatable: the seed is
fixed, several workers interleave their work in a fixed order
(``interleave_search``), and a ``timeout`` is counted in CP-SAT's deterministic
seconds (``max_deterministic_time``) rather than on the wall clock, so the same
command gives the same answer on any machine load.  Without it CP-SAT runs as
fast as it can, which may differ from run to run in which solution it finds
(never in whether a deal is won: a ``lost`` is a proof either way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from ..errors import InputError
from ..limits import Limits
from ..result import Verdict
from .base import Solved


def make_solver(limits: Limits, options: dict[str, Any]) -> cp_model.CpSolver:
    """A CP-SAT solver set up from the engine limits and the ``workers``/``random_seed`` options."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    workers = options.get("workers")
    if workers:
        p.num_workers = int(workers)
    seed = options.get("random_seed")
    if seed is not None:
        p.random_seed = int(seed)
        if workers != 1:  # one worker is deterministic already
            p.interleave_search = True
        if limits.timeout is not None:
            p.max_deterministic_time = float(limits.timeout)
    elif limits.timeout is not None:
        p.max_time_in_seconds = float(limits.timeout)
    if limits.max_nodes is not None:
        p.max_number_of_conflicts = int(limits.max_nodes)
    return solver


def limit_reason(limits: Limits, options: dict[str, Any]) -> str:
    """The limit that stopped an undecided solve, named as the DFS names its limits."""
    if limits.timeout is not None:
        unit = " deterministic" if options.get("random_seed") is not None else ""
        return f"timeout {limits.timeout:g}{unit} s"
    if limits.max_nodes is not None:
        return f"max-nodes {limits.max_nodes} (CP-SAT conflicts)"
    return "cp-sat stopped without a proof"


def stats_of(solver: cp_model.CpSolver, status: Any, model: cp_model.CpModel) -> dict[str, Any]:
    proto = model.Proto()
    return {
        "status": solver.status_name(status),
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "wall": round(solver.wall_time, 4),
        "deterministic_time": round(solver.response_proto.deterministic_time, 4),
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
    }


def decided(status: Any) -> Verdict | None:
    """``won`` for a solution, ``lost`` for a proof of infeasibility, None otherwise."""
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "won"
    if status == cp_model.INFEASIBLE:
        return "lost"
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError("CP-SAT rejected the model as invalid (a bug in the model builder)")
    return None


def run(solver: cp_model.CpSolver, model: cp_model.CpModel, limits: Limits, options: dict[str, Any],
        moves: Callable[[], list[dict[str, Any]]]) -> Solved:
    """Solve ``model``: the verdict, the limit that stopped it, the solution's ``moves()`` for a win,
    and the statistics."""
    status = solver.solve(model)
    stats = stats_of(solver, status, model)
    verdict = decided(status)
    if verdict is None:
        return "unknown", limit_reason(limits, options), None, stats
    if verdict == "lost":
        return "lost", None, None, stats
    return "won", None, moves(), stats


def feature_flags(defaults: dict[str, bool], given: Any) -> dict[str, bool]:
    """Model features (redundant constraints, symmetry breaking) with the caller's changes.

    ``given`` is None, a dict name -> bool, or a string such as ``"-cumulative,+alldiff"``.
    """
    flags = dict(defaults)
    if not given:
        return flags
    items = given.items() if isinstance(given, dict) else (
        (w.strip()[1:], w.strip()[0] == "+") for w in str(given).split(",") if w.strip())
    for name, on in items:
        if name not in flags:
            raise InputError(f"unknown CP-SAT model feature {name!r}; known: {', '.join(sorted(flags))}")
        flags[name] = bool(on)
    return flags
