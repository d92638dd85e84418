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
2. CP-SAT for its model's ``AUTO_SHARE`` of what is left (most models take 0.7;
   the tableau model, which proves losses only where its relaxation applies and
   rarely wins a full deck, takes 0.15):
   it proves losses that the DFS would have to search out, and finds wins in deals
   whose search space is large;
3. the DFS again, for the rest of the time.

A layout that CP-SAT does not model skips step 2.  The shares are set by hand
from what each engine is good at (the DFS decides most deals of the hole family
and many card deals within a second or two; CP-SAT wins deals whose search tree
is wide and proves losses the DFS must search out); ``python -m benchmarks cpsat``
measures the portfolio against each engine alone under the same per-deal time
(recorded: ``benchmarks/results/cpsat.md``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..errors import EngineDisagreement, UnsupportedError, VerificationFailed
from ..families import AnyLayout, family_of
from ..limits import Limits
from ..result import EngineRun, Result
from .cpsat import run_cpsat
from .dfs import run_dfs

# The engines a portfolio runs, by the names its results report.
PARTS = {"dfs": run_dfs, "cpsat": run_cpsat}

AUTO_DEFAULT_BUDGET = 120.0
AUTO_DFS_FIRST = 0.05
AUTO_DFS_FIRST_MAX = 2.0


class Disagreement(EngineDisagreement):
    """One engine proved a deal won and another proved it lost."""

    def __init__(self, runs: dict[str, Any]):
        self.runs = runs
        said = ", ".join(f"{name} says {run.verdict}" for name, run in runs.items())
        super().__init__(f"the engines disagree: {said}")

    def results(self, layout: AnyLayout, seed: int | None, deal: Any) -> list[Result]:
        """Each engine's result, in the result contract."""
        shown = family_of(layout).start_to_json(layout, deal)
        return [Result(layout=layout.name, seed=seed, engine=name, verdict=run.verdict, reason=run.reason,
                       stats={"nodes": run.nodes, **run.stats}, **shown, solution=run.solution)
                for name, run in self.runs.items()]


def _timed(engine: str, layout: AnyLayout, deal: Any, limits: Limits, options: dict[str, Any]) -> EngineRun:
    t0 = time.perf_counter()
    run = PARTS[engine](layout, deal, limits, **options)
    run.stats["seconds"] = round(time.perf_counter() - t0, 4)
    return run


def _check(engine: str, layout: AnyLayout, deal: Any, run: EngineRun) -> None:
    """Replay a win; a win that does not replay is a bug, never a verdict."""
    if run.verdict != "won":
        return
    problem = family_of(layout).replay(layout, deal, run.solution or [])
    if problem is not None:
        raise VerificationFailed(f"engine {engine} claimed a win on {layout.name} but the verifier says: "
                                 f"{problem}")


# A part's stats that its summary keeps (the DFS's core, what decided it, how deep it went).
SUMMARY_KEYS = ("core", "decided_by", "bound", "max_depth")


def part_summary(run: EngineRun) -> dict[str, Any]:
    """One part's verdict, reason, nodes, seconds and ``SUMMARY_KEYS``, for a portfolio's stats."""
    kept = {k: run.stats[k] for k in SUMMARY_KEYS if k in run.stats}
    return {"verdict": run.verdict, "reason": run.reason, "nodes": run.nodes,
            "seconds": run.stats.get("seconds"), **kept}


def decided_stats(run: EngineRun, part: str) -> dict[str, Any]:
    """What decided a portfolio's result: the deciding part's argument (``decided_by``, ``bound``)
    and the part's name (``part``)."""
    return {**{k: run.stats[k] for k in ("decided_by", "bound") if k in run.stats}, "part": part}


def run_both(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """DFS and CP-SAT; raises ``Disagreement`` when one proves won and the other lost."""
    runs = {name: _timed(name, layout, deal, limits, options) for name in ("dfs", "cpsat")}
    for name, run in runs.items():
        _check(name, layout, deal, run)
    verdicts = {run.verdict for run in runs.values()} - {"unknown"}
    if len(verdicts) > 1:
        raise Disagreement(runs)
    stats = {name: part_summary(run) for name, run in runs.items()}
    nodes = sum(run.nodes for run in runs.values())
    for name, run in runs.items():
        if run.verdict != "unknown":
            return EngineRun(run.verdict, run.reason, run.solution, nodes, {**decided_stats(run, name), **stats})
    reason = "; ".join(f"{name}: {run.reason}" for name, run in runs.items())
    return EngineRun("unknown", reason, None, nodes, stats)


def run_auto(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """A short DFS, then CP-SAT, then the DFS for the rest of the time (the module text)."""
    budget = limits.timeout if limits.timeout is not None else AUTO_DEFAULT_BUDGET
    start = time.perf_counter()
    phases = []

    def left() -> float:
        return budget - (time.perf_counter() - start)

    try:
        cpsat_share = family_of(layout).cpsat_model(layout).AUTO_SHARE
    except UnsupportedError:
        cpsat_share = 0.0
    plan: list[tuple[str, float | None]] = [("dfs", min(AUTO_DFS_FIRST * budget, AUTO_DFS_FIRST_MAX))]
    if cpsat_share:
        plan.append(("cpsat", None))
    plan.append(("dfs", None))
    for engine, share in plan:
        seconds = share if share is not None else (cpsat_share * left() if engine == "cpsat" else left())
        if seconds <= 0.01:
            continue
        try:
            run = _timed(engine, layout, deal, replace(limits, timeout=seconds), options)
        except UnsupportedError:
            if engine != "cpsat":
                raise  # the DFS refuses (e.g. a core it does not have): so does the portfolio
            continue  # no CP-SAT model for this layout: the DFS takes its time
        phases.append({"engine": engine, **part_summary(run)})
        if run.verdict != "unknown":
            return EngineRun(run.verdict, run.reason, run.solution, run.nodes,
                             {**decided_stats(run, engine), "phases": phases})
    nodes = sum(p["nodes"] for p in phases)
    return EngineRun("unknown", f"timeout {budget:g} s", None, nodes, {"phases": phases})
