"""The engines, by name.  Each takes (layout, deal, limits, **options) and returns an ``EngineRun``.

- ``dfs``: depth-first search with a transposition table over the family's position.
- ``cpsat``: the family's CP-SAT model, solved by OR-Tools.
- ``finder``: a beam search ordered by the family's evaluation that only ever reports wins.
- ``both``: both, checked against each other.
- ``auto``: a portfolio in one process: a short DFS, then CP-SAT, then the DFS.
- ``portfolio``: DFS orderings and CP-SAT in separate processes at once; the first proof decides.
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
from .finder import run_finder
from .minimax import run_minimax
from .parallel import run_portfolio
from .portfolio import run_auto, run_both

Engine = Callable[..., EngineRun]

ENGINES: dict[str, Engine] = {"dfs": run_dfs, "cpsat": run_cpsat, "finder": run_finder, "both": run_both,
                              "auto": run_auto, "portfolio": run_portfolio, "minimax": run_minimax}

# The engines whose search runs on a core (they take the ``core`` option, see ``core.CORES``);
# CP-SAT's search is OR-Tools' own.
USES_CORE = frozenset({"dfs", "finder", "both", "auto", "portfolio"})
# The engines that run parts in processes of their own (they take the ``jobs`` option).
USES_JOBS = frozenset({"portfolio"})

DESCRIPTIONS = {
    "dfs": "depth-first search with a transposition table, proved dominances and sound bounds (the default of "
           "batch and bench; one repeatable search)",
    "cpsat": "the game's CP-SAT model, solved by OR-Tools (lost only where the model is exact)",
    "finder": "a beam search ordered by the game's evaluation (the win finder): reports only wins, never lost "
              "(unknown when it finds none)",
    "both": "dfs and cpsat one after the other; exit 4 if one proves won and the other lost",
    "auto": "a portfolio in one process: a short dfs, then cpsat, then dfs for the rest of --timeout",
    "portfolio": "dfs, dfs with another shaken order, and cpsat where its model is exact, in separate processes "
                 "at once (--jobs of them; where cpsat has a seat, the debutante family's grid layouts, the shaken "
                 "dfs yields its process to it after a fifth of --timeout); the first proof decides; exit 4 if a won "
                 "and a lost arrive together (the default of solve)",
    "minimax": "games of two sides (the games of chance): alpha-beta with a transposition table, both sides "
               "at their best (their default)",
}

__all__ = ["DESCRIPTIONS", "ENGINES", "USES_CORE", "USES_JOBS", "Engine", "EngineRun", "Limits", "run"]


def run(engine: str, layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    return ENGINES[engine](layout, deal, limits, **options)
