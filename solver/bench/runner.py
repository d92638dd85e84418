"""Running deals for a benchmark: one deal at a time per worker process, rows and summaries.

Every (layout, engine) group runs in a fresh pool of ``jobs`` worker processes, so that
the peak memory of a group (the largest ``ru_maxrss`` of its workers) is its own and
not left over from a group before it.  A row's ``seconds`` is the wall clock of
``api.solve`` in the worker (dealing excluded; search and the verifier's replay of a
win included); ``cpu_s`` is the CPU time the worker spent on it, which other load on
the machine inflates less than the wall clock.
"""

from __future__ import annotations

import functools
import resource
import statistics
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any

from ..batch import percentile, process_pool
from ..errors import InputError, UnsupportedError
from .machine import load_average


@dataclass(frozen=True)
class Target:
    """A layout at a deck size: ``name`` as the user gave it, ``max_rank`` None for the whole deck."""

    name: str
    max_rank: int | None = None

    @classmethod
    def parse(cls, text: str, max_rank: int | None = None) -> Target:
        """``debutante`` or ``debutante@5`` (ranks A..5); ``max_rank`` applies when the text has none."""
        name, at, rank = text.rpartition("@") if "@" in text else (text, "", "")
        if at:
            if not (rank.isascii() and rank.isdigit()) or not 1 <= int(rank) <= 13 or not name:
                raise InputError(f"layout {text!r}: expected NAME or NAME@R with R a rank 1..13 "
                                 f"(a reduced deck of ranks A..R)")
            return cls(name, int(rank))
        return cls(text, max_rank)

    @property
    def label(self) -> str:
        return self.name if self.max_rank is None else f"{self.name}@{self.max_rank}"


@functools.lru_cache(maxsize=32)
def load(name: str, max_rank: int | None) -> Any:
    from .. import api

    return api.load_layout(name, max_rank)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_deal(name: str, max_rank: int | None, seed: int | None, engine: str, timeout: float | None,
               options: dict[str, Any]) -> dict[str, Any]:
    """Solve one deal in a worker: one row."""
    from .. import api
    from ..limits import Limits

    layout = load(name, max_rank)
    deal = api.make_deal(layout, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        res = api.solve(layout, seed=seed, deal=deal, engine=engine, limits=Limits(timeout=timeout), **options)
    except UnsupportedError as e:
        return {"seed": seed, "unsupported": str(e)}
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"seed": seed, "verdict": res.verdict, "reason": res.reason, "seconds": round(seconds, 5),
            "cpu_s": round(cpu, 5), "nodes": int(res.stats.get("nodes") or 0),
            "moves": len(res.solution) if res.solution else None, "peak_mb": round(_peak_mb(), 1)}


def peer_deal(name: str, max_rank: int | None, seed: int | None, path: str, options: list[str],
              timeout: float | None) -> dict[str, Any]:
    """Run fc-solve on one deal in a worker: one row."""
    from .. import api
    from .. import deal as deals
    from .peers import run_fc_solve

    layout = load(name, max_rank)
    board = deals.to_board(api.make_deal(layout, seed), layout)
    row = run_fc_solve(path, options, board, timeout)
    row["seconds"] = round(row["seconds"], 5)
    return {"seed": seed, **row}


def run_tasks(fn: Callable[..., dict[str, Any]], args: Iterable[tuple[Any, ...]], jobs: int,
              tick: Callable[[], None]) -> list[dict[str, Any]]:
    """``fn(*a)`` for each ``a`` in a fresh pool of ``jobs`` processes, at most ``jobs`` deals at
    a time (so each deal has a core to itself); rows in the order of ``args``."""
    todo = list(enumerate(args))
    rows: list[dict[str, Any] | None] = [None] * len(todo)
    with process_pool(max(1, min(jobs, len(todo)))) as pool:
        pending: dict[Future[dict[str, Any]], int] = {}
        it = iter(todo)
        while True:
            while len(pending) < jobs:
                nxt = next(it, None)
                if nxt is None:
                    break
                pending[pool.submit(fn, *nxt[1])] = nxt[0]
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                rows[pending.pop(fut)] = fut.result()
                tick()
    return [r for r in rows if r is not None]


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Decided and won shares, median/p90/max seconds and nodes, nodes per second, peak memory."""
    n = len(rows)
    secs = [r["seconds"] for r in rows]
    won = sum(r["verdict"] == "won" for r in rows)
    lost = sum(r["verdict"] == "lost" for r in rows)
    out: dict[str, Any] = {
        "deals": n, "won": won, "lost": lost, "unknown": n - won - lost,
        "decided_share": round((won + lost) / n, 4) if n else None,
        "won_share": round(won / n, 4) if n else None,
        "median_s": _round(statistics.median(secs)) if secs else None,
        "p90_s": _round(percentile(secs, 0.9)), "max_s": _round(max(secs, default=None)),
        "peak_mb": max((r.get("peak_mb") or 0 for r in rows), default=None),
    }
    if rows and "nodes" in rows[0]:
        nodes = [r["nodes"] for r in rows]
        total_s = sum(secs)
        out.update(median_nodes=statistics.median(nodes), p90_nodes=percentile(nodes, 0.9),
                   max_nodes=max(nodes), nodes_per_s=round(sum(nodes) / total_s) if total_s > 0 else None,
                   cpu_s=_round(sum(r["cpu_s"] for r in rows)))
    if rows and "iterations" in rows[0]:
        iters = [r["iterations"] for r in rows if r.get("iterations") is not None]
        out.update(median_iterations=statistics.median(iters) if iters else None,
                   max_iterations=max(iters, default=None),
                   errors=sum(r["verdict"] == "error" for r in rows))
        out["unknown"] -= out["errors"]
    return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 5)


def group(fn: Callable[..., dict[str, Any]], args: list[tuple[Any, ...]], jobs: int,
          tick: Callable[[], None]) -> dict[str, Any]:
    """Run one group of deals; its rows, summary and the load average around it.
    A group whose engine does not support the layout comes back with ``skipped``."""
    load0 = load_average()
    t0 = time.perf_counter()
    rows = run_tasks(fn, args, jobs, tick)
    out: dict[str, Any] = {"load": [load0, load_average()], "wall_s": round(time.perf_counter() - t0, 3)}
    unsupported = [r["unsupported"] for r in rows if "unsupported" in r]
    if unsupported:
        return {**out, "skipped": unsupported[0], "rows": []}
    return {**out, **summarize(rows), "rows": rows}
