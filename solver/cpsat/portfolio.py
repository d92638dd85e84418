"""The ``both`` and ``auto`` engines: the DFS and CP-SAT on one deal.

``both`` runs the DFS, then CP-SAT, each with the full limits, and raises
``Disagreement`` (exit code 4 on the command line, both results printed) when
one says ``won`` and the other ``lost``.  Every ``won`` of either engine is
replayed by the referee, not only the one reported.  A layout CP-SAT does not
model is refused (``UnsupportedError``): there is nothing to compare.

``auto`` is a portfolio for deciding as many deals as possible in a given time
``T`` (``--timeout``; 120 s when none is given):

1. the DFS for ``AUTO_DFS_FIRST`` of ``T`` (at most ``AUTO_DFS_FIRST_MAX`` s):
   most deals that the DFS decides at all, it decides at once;
2. CP-SAT for ``AUTO_CPSAT`` of what is left (a model may ask for less with an
   ``AUTO_SHARE`` attribute: the tableau model, which proves losses only where its
   relaxation applies and rarely wins a full deck, takes ``TableauModel.AUTO_SHARE``):
   it proves losses that the DFS would have to search out, and finds wins in deals
   whose search space is large;
3. the DFS again, for the rest of the time.

A layout that CP-SAT does not model skips step 2.  The shares are set by hand
from what each engine is good at (the DFS decides most deals of the hole family
and many card deals within a second or two; CP-SAT wins deals whose search tree
is wide and proves losses the DFS must search out); ``benchmarks/cpsat.py``
measures the portfolio against each engine alone under the same per-deal time
(``benchmarks/results/cpsat.md``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..errors import EngineDisagreement, UnsupportedError
from ..result import Result
from ..search import Limits

AUTO_DEFAULT_BUDGET = 120.0
AUTO_DFS_FIRST = 0.05
AUTO_DFS_FIRST_MAX = 2.0
AUTO_CPSAT = 0.7


class Disagreement(EngineDisagreement):
    """One engine proved a deal won and another proved it lost."""

    def __init__(self, runs: dict[str, Any]):
        self.runs = runs
        said = ", ".join(f"{name} says {run.verdict}" for name, run in runs.items())
        super().__init__(f"the engines disagree: {said}")

    def results(self, layout: Any, seed: int | None, deal: dict[str, list[int]]) -> list[Result]:
        """Each engine's result, in the result contract."""
        from .. import deal as deals

        shown = layout.deal_to_json(deal) if hasattr(layout, "deal_to_json") else deals.to_json(deal)
        return [Result(layout=layout.name, seed=seed, engine=name, verdict=run.verdict, reason=run.reason,
                       stats={"nodes": run.nodes, **run.stats}, deal=shown, solution=run.solution)
                for name, run in self.runs.items()]


def _timed(engine: str, layout: Any, deal: Any, limits: Limits, options: dict[str, Any]) -> Any:
    from ..engines import ENGINES

    t0 = time.perf_counter()
    run = ENGINES[engine](layout, deal, limits, **options)
    run.stats["seconds"] = round(time.perf_counter() - t0, 4)
    return run


def _check(engine: str, layout: Any, deal: Any, run: Any) -> None:
    """Replay a win; a win that does not replay is a bug, never a verdict."""
    if run.verdict != "won":
        return
    from ..api import VerificationFailed
    from ..verify import verify_solution

    problem = verify_solution(layout, deal, run.solution or [])
    if problem is not None:
        raise VerificationFailed(f"engine {engine} claimed a win on {layout.name} but the verifier says: "
                                 f"{problem}")


def _summary(run: Any) -> dict[str, Any]:
    return {"verdict": run.verdict, "reason": run.reason, "nodes": run.nodes,
            "seconds": run.stats.get("seconds")}


def run_both(layout: Any, deal: Any, limits: Limits, **options: Any) -> Any:
    from ..engines import EngineRun

    runs = {name: _timed(name, layout, deal, limits, options) for name in ("dfs", "cpsat")}
    for name, run in runs.items():
        _check(name, layout, deal, run)
    verdicts = {run.verdict for run in runs.values()} - {"unknown"}
    if len(verdicts) > 1:
        raise Disagreement(runs)
    stats = {name: _summary(run) for name, run in runs.items()}
    nodes = sum(run.nodes for run in runs.values())
    for name, run in runs.items():
        if run.verdict != "unknown":
            return EngineRun(run.verdict, None, run.solution, nodes, {"decided_by": name, **stats})
    reason = "; ".join(f"{name}: {run.reason}" for name, run in runs.items())
    return EngineRun("unknown", reason, None, nodes, stats)


def run_auto(layout: Any, deal: Any, limits: Limits, **options: Any) -> Any:
    from ..engines import EngineRun

    budget = limits.timeout if limits.timeout is not None else AUTO_DEFAULT_BUDGET
    start = time.perf_counter()
    phases = []

    def left() -> float:
        return budget - (time.perf_counter() - start)

    from . import model_class

    try:
        cpsat_share = getattr(model_class(layout), "AUTO_SHARE", AUTO_CPSAT)
    except UnsupportedError:
        cpsat_share = 0.0
    plan: list[tuple[str, float | None]] = [("dfs", min(AUTO_DFS_FIRST * budget, AUTO_DFS_FIRST_MAX))]
    if cpsat_share:
        plan.append(("cpsat", None))
    plan.append(("dfs", None))
    run = None
    for engine, share in plan:
        seconds = share if share is not None else (cpsat_share * left() if engine == "cpsat" else left())
        if seconds <= 0.01:
            continue
        try:
            run = _timed(engine, layout, deal, replace(limits, timeout=seconds), options)
        except UnsupportedError:
            continue  # no CP-SAT model for this layout: the DFS takes its time
        phases.append({"engine": engine, **_summary(run)})
        if run.verdict != "unknown":
            return EngineRun(run.verdict, None, run.solution, run.nodes,
                             {"decided_by": engine, "phases": phases})
    nodes = sum(p["nodes"] for p in phases)
    return EngineRun("unknown", f"timeout {budget:g} s", None, nodes, {"phases": phases})
