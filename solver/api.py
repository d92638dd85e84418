"""The Python API: load a layout, deal a seed, solve, verify.

>>> from solver import api
>>> layout = api.load_layout("black-hole")
>>> result = api.solve(layout, seed=1)            # doctest: +SKIP
>>> result.verdict, len(result.solution)          # doctest: +SKIP
"""

from __future__ import annotations

import time
from typing import Any

from . import deal as deals
from . import layout as layouts
from .engines import ENGINES, EngineRun
from .errors import InputError, PatienceError
from .result import Result
from .search import Limits

Layout = layouts.Layout


def load_layout(name_or_path: str | Layout, max_rank: int | None = None) -> Any:
    """A built-in layout by name, a layout file by path, or a layout passed through."""
    lay = layouts.load(name_or_path) if isinstance(name_or_path, str) else name_or_path
    if max_rank is not None and max_rank != getattr(lay, "max_rank", max_rank):
        lay = lay.with_max_rank(max_rank)
    return lay


def make_deal(layout: Any, seed: int | None = None, deal_file: str | None = None) -> deals.Deal:
    """The deal of ``seed``, or the deal read from ``deal_file``; a layout with no shuffle
    (``shuffled = False``, peg boards) also deals with neither."""
    if seed is None and deal_file is None and not getattr(layout, "shuffled", True):
        return layout.deal_from_seed(None)
    if (seed is None) == (deal_file is None):
        raise InputError("give exactly one of --seed N or --deal FILE")
    if deal_file is not None:
        return layout.read_deal(deal_file) if hasattr(layout, "read_deal") else deals.read(deal_file, layout)
    if hasattr(layout, "deal_from_seed"):
        return layout.deal_from_seed(seed)
    return deals.from_seed(layout, seed)


def reduced_rank(layout: Any) -> int | None:
    """The top rank of a reduced deck, or None for the full deck."""
    rank = getattr(layout, "max_rank", 13)
    return None if rank == 13 else rank


class VerificationFailed(PatienceError):
    """An engine claimed a win whose solution does not replay: a bug, never a verdict."""


def solve(layout: Any, *, seed: int | None = None, deal: deals.Deal | None = None,
          deal_file: str | None = None, engine: str = "dfs", limits: Limits | None = None,
          **options: Any) -> Result:
    """Decide one deal.  A ``won`` result's solution has been replayed by the verifier."""
    from .verify import verify_solution

    layout = load_layout(layout)
    if deal is None:
        deal = make_deal(layout, seed, deal_file)
    if engine not in ENGINES:
        raise InputError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    limits = limits or Limits()
    t0 = time.perf_counter()
    run: EngineRun = ENGINES[engine](layout, deal, limits, **options)
    stats = {"nodes": run.nodes, "seconds": round(time.perf_counter() - t0, 4), **run.stats}
    deal_json = layout.deal_to_json(deal) if hasattr(layout, "deal_to_json") else deals.to_json(deal)
    result = Result(layout=layout.name, seed=seed, engine=engine, verdict=run.verdict,
                    reason=run.reason, stats=stats, deal=deal_json,
                    solution=run.solution if run.verdict == "won" else None,
                    max_rank=reduced_rank(layout))
    if result.verdict == "won":
        problem = verify_solution(layout, deal, result.solution or [])
        if problem is not None:
            raise VerificationFailed(f"engine {engine} claimed a win on {layout.name} "
                                     f"seed {seed} but the verifier says: {problem}")
    return result


def verify(result: Result | dict[str, Any], layout: Any = None) -> str | None:
    """Replay a result's solution; None if every move is legal and the game is won,
    else a one-line description of the first illegal move."""
    from .verify import verify_solution

    if isinstance(result, dict):
        result = Result.from_json(result)
    layout = load_layout(layout or result.layout, result.max_rank if layout is None else None)
    deal = deals.from_json(result.deal, layout, "result deal") if not hasattr(layout, "deal_from_json") \
        else layout.deal_from_json(result.deal)
    return verify_solution(layout, deal, result.solution or [])
