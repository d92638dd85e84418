"""The ``cpsat`` engine: the layout's family builds its CP-SAT model; OR-Tools solves it.

Each family has its model (``solver/families/*/model.py``): the hole family, the
debutante family, the open tableau games (a plan of single-card moves within a
horizon), peg boards.  A layout whose rules a model does not capture exactly is
refused (``UnsupportedError``), so a ``lost`` from this engine is always a proof.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..families import AnyLayout, family_of
from ..families.base import Model
from ..limits import Limits
from ..result import BOUND, CPSAT, EngineRun, bound_name


def build(layout: AnyLayout, deal: Any, features: Any = None) -> Model:
    """The CP-SAT model of ``deal`` (a position at move 0 is its deal; one part-way through a game
    is refused); ``features`` switches redundant constraints on or off."""
    family = family_of(layout)
    return family.cpsat_model(layout)(layout, family.model_deal(layout, deal), features)


def run_cpsat(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """Build and solve; the time to build the model counts against the timeout."""
    from ..families.cpsat import limit_reason  # imports OR-Tools: only when CP-SAT runs

    t0 = time.perf_counter()
    model = build(layout, deal, options.get("features"))
    built = time.perf_counter() - t0
    given = limits
    if limits.timeout is not None and options.get("random_seed") is None:
        limits = replace(limits, timeout=max(0.01, limits.timeout - built))
    verdict, reason, moves, stats = model.solve(limits, options)
    if verdict == "lost" and reason is None:
        reason = "cp-sat: the model is infeasible, a proof that no win exists"
    if verdict == "unknown" and reason in (None, limit_reason(limits, options)):
        reason = limit_reason(given, options)  # the limit the caller gave, not what was left of it
    stats = {"model": type(model).__name__, "build_seconds": round(built, 4), **stats}
    if verdict == "won" or (verdict == "lost" and (reason or "").startswith("cp-sat")):
        stats["decided_by"] = CPSAT
    elif verdict == "lost":  # a bound the model checks before solving (peg boards: too few pegs)
        stats.update(decided_by=BOUND, bound=bound_name(reason or "?"))
    return EngineRun(verdict, reason, moves, stats.pop("branches", 0), stats)
