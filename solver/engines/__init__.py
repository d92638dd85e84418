"""The engines, by name.  Each takes (layout, deal, limits, **options) and returns an ``EngineRun``.

- ``dfs``: depth-first search with a transposition table over the family's position.
- ``cpsat``: the family's CP-SAT model, solved by OR-Tools.
- ``both``: both, checked against each other.
- ``auto``: a portfolio, a short DFS, then CP-SAT, then the DFS.
- ``minimax``: games of two sides over a known order (the games of chance): alpha-beta with a table.

Engines know no game by name: they ask the layout's family (``solver.families``)
for its position or its model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..families import AnyLayout
from ..limits import Limits
from ..result import EngineRun
from .cpsat import run_cpsat
from .dfs import run_dfs
from .minimax import run_minimax
from .portfolio import run_auto, run_both

Engine = Callable[..., EngineRun]

ENGINES: dict[str, Engine] = {"dfs": run_dfs, "cpsat": run_cpsat, "both": run_both, "auto": run_auto,
                              "minimax": run_minimax}

# The engines whose search runs on a core (they take the ``core`` option, see ``core.CORES``);
# CP-SAT's search is OR-Tools' own.
USES_CORE = frozenset({"dfs", "both", "auto"})

DESCRIPTIONS = {
    "dfs": "depth-first search with a transposition table, proved dominances and sound bounds (the default)",
    "cpsat": "the game's CP-SAT model, solved by OR-Tools (lost only where the model is exact)",
    "both": "dfs and cpsat one after the other; exit 4 if one proves won and the other lost",
    "auto": "a portfolio: a short dfs, then cpsat, then dfs for the rest of --timeout",
    "minimax": "games of two sides (the games of chance): alpha-beta with a transposition table, both sides "
               "at their best (their default)",
}

__all__ = ["DESCRIPTIONS", "ENGINES", "USES_CORE", "Engine", "EngineRun", "Limits", "run"]


def run(engine: str, layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    return ENGINES[engine](layout, deal, limits, **options)
