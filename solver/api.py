"""The Python API: load a layout, deal a seed, solve, verify.

>>> from solver import api
>>> layout = api.load_layout("black-hole")
>>> result = api.solve(layout, seed=1)            # doctest: +SKIP
>>> result.verdict, len(result.solution)          # doctest: +SKIP
"""

from __future__ import annotations

import time
from typing import Any

from .engines import ENGINES
from .errors import InputError, VerificationFailed
from .families import AnyLayout, family_of
from .families import load_layout as _load
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import EngineRun, Result

__all__ = ["AnyLayout", "Limits", "Result", "VerificationFailed", "load_layout", "make_deal", "reduced_rank",
           "solve", "verify", "verify_solution"]


def load_layout(name_or_path: str | AnyLayout, max_rank: int | None = None) -> AnyLayout:
    """A built-in layout by name, a layout file by path, or a layout passed through;
    with ``max_rank``, the same game on a reduced deck of ranks A..max_rank."""
    lay = _load(name_or_path) if isinstance(name_or_path, str) else name_or_path
    if max_rank is not None and max_rank != family_of(lay).max_rank(lay):
        lay = family_of(lay).with_max_rank(lay, max_rank)
    return lay


def make_deal(layout: AnyLayout, seed: int | None = None, deal_file: str | None = None) -> Any:
    """The deal of ``seed``, or the deal read from ``deal_file``; a game with one start and no
    shuffle (peg boards) also deals with neither."""
    family = family_of(layout)
    if not family.shuffled:
        if seed is not None:
            raise InputError(f"--seed: layout {layout.name!r} has one start and no shuffle; leave out --seed "
                             "(or give a start position with --deal FILE)")
        if deal_file is None:
            return family.deal_from_seed(layout, None)
    if (seed is None) == (deal_file is None):
        raise InputError("give exactly one of --seed N or --deal FILE")
    if deal_file is not None:
        return family.read_deal(layout, deal_file)
    return family.deal_from_seed(layout, seed)


def reduced_rank(layout: AnyLayout) -> int | None:
    """The top rank of a reduced deck, or None for the full deck (or a game without cards)."""
    return family_of(layout).max_rank(layout)


def verify_solution(layout: AnyLayout, deal: Any, solution: list[dict[str, Any]]) -> str | None:
    """None if ``solution`` is legal move by move and wins; else what is wrong, naming the move.
    The family's referee replays it from the rules in words, sharing no code with the engines."""
    return family_of(layout).replay(layout, deal, solution)


def solve(layout: str | AnyLayout, *, seed: int | None = None, deal: Any = None,
          deal_file: str | None = None, engine: str = "dfs", limits: Limits | None = None,
          **options: Any) -> Result:
    """Decide one deal.  A ``won`` result's solution has been replayed by the referee."""
    layout = load_layout(layout)
    family = family_of(layout)
    if deal is None:
        deal = make_deal(layout, seed, deal_file)
    if engine not in ENGINES:
        raise InputError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    limits = limits or Limits()
    t0 = time.perf_counter()
    run: EngineRun = ENGINES[engine](layout, deal, limits, **options)
    stats = {"nodes": run.nodes, "seconds": round(time.perf_counter() - t0, 4), **run.stats}
    result = Result(layout=layout.name, seed=seed, engine=engine, verdict=run.verdict,
                    reason=run.reason, stats=stats, deal=family.deal_to_json(layout, deal),
                    solution=run.solution if run.verdict == "won" else None,
                    max_rank=family.max_rank(layout), fingerprint=rules_fingerprint(layout))
    if result.verdict == "won":
        problem = family.replay(layout, deal, result.solution or [])
        if problem is not None:
            raise VerificationFailed(f"engine {engine} claimed a win on {layout.name} "
                                     f"seed {seed} but the verifier says: {problem}")
    return result


def verify(result: Result | dict[str, Any], layout: str | AnyLayout | None = None) -> str | None:
    """Replay a result's solution; None if every move is legal and the game is won, else a
    one-line description of what is wrong: the first illegal move, a deal that is not the deal of
    the result's seed, or rules (the fingerprint) other than the layout's.  A result that is not
    ``won`` has no moves: only its deal and rules are checked."""
    if isinstance(result, dict):
        result = Result.from_json(result)
    lay = load_layout(layout or result.layout, result.max_rank if layout is None else None)
    family = family_of(lay)
    if result.fingerprint is not None and result.fingerprint != rules_fingerprint(lay):
        return (f"the result was made with rules fingerprint {result.fingerprint}, but layout {lay.name!r} "
                f"has rules fingerprint {rules_fingerprint(lay)} (an edited or another layout file?)")
    deal = family.deal_from_json(lay, result.deal, "result deal")
    if result.seed is not None and family.shuffled:
        if family.deal_from_seed(lay, result.seed) != deal:
            return (f"the result's deal is not deal #{result.seed} of {lay.name!r} (`patience deal "
                    f"{lay.name} --seed {result.seed}` prints that one)")
    if result.verdict != "won":
        return None  # nothing to replay: the deal and the rules are what could be checked
    return family.replay(lay, deal, result.solution or [])
