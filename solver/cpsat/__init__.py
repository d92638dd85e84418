"""The ``cpsat`` engine: OR-Tools CP-SAT models of the card layouts.

- ``hole_model``: the hole family (Black Hole, Golf).
- ``reserve_model``: the debutante family (debutante and its readings,
  Colorado, Grandfather, Double Line).
- ``tableau_model``: the open tableau games (columns, free cells, foundations;
  no stock, no face-down cards): a plan of single-card moves within a horizon.
- ``portfolio``: the ``both`` and ``auto`` engines, which run the DFS and
  CP-SAT on one deal.

A model is chosen by what the layout holds, never by its name; a layout whose
rules a model does not capture exactly is refused (``UnsupportedError``), so a
``lost`` from this engine is always a proof.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..errors import UnsupportedError
from ..search import Limits


def model_class(layout: Any) -> Any:
    """The model class for what ``layout`` holds (not yet checked against its rules)."""
    if layout.hole is not None:
        from .hole_model import HoleModel

        return HoleModel
    if layout.tableau.count:  # columns with a reserve beside them (Canfield) are a tableau game
        from .tableau_model import TableauModel

        return TableauModel
    if layout.reserve.count:
        from .reserve_model import ReserveModel

        return ReserveModel
    raise UnsupportedError(f"layout {layout.name!r}: the cpsat engine has no model for its stacks "
                           "(it covers the hole family, the debutante family and open tableau games); use --engine dfs")


def build(layout: Any, deal: dict[str, list[int]], features: Any = None) -> Any:
    """The CP-SAT model of ``deal``; ``features`` switches redundant constraints on or off."""
    return model_class(layout)(layout, deal, features)


def run_model(layout: Any, deal: dict[str, list[int]], limits: Limits, **options: Any) -> Any:
    """Build and solve; the time to build the model counts against the timeout."""
    from ..engines import EngineRun
    from .common import limit_reason

    t0 = time.perf_counter()
    model = build(layout, deal, options.get("features"))
    built = time.perf_counter() - t0
    given = limits
    if limits.timeout is not None and options.get("random_seed") is None:
        limits = replace(limits, timeout=max(0.01, limits.timeout - built))
    verdict, reason, moves, stats = model.solve(limits, options)
    if verdict == "unknown" and reason in (None, limit_reason(limits, options)):
        reason = limit_reason(given, options)  # the limit the caller gave, not what was left of it
    stats = {"model": type(model).__name__, "build_seconds": round(built, 4), **stats}
    return EngineRun(verdict, reason, moves, stats.pop("branches", 0), stats)
