"""Solving a group of deals for a benchmark: one deal at a time per worker process.

The runners of a layout solve its deals interleaved, deal by deal (``run_interleaved``), each
(layout, runner) group in a fresh pool of its own worker processes, so that the peak memory of
a group (the largest ``ru_maxrss`` of its workers) is its own and not left over from another.
A row's ``seconds`` is the wall clock of the solve in the worker (dealing excluded; for our
engines the verifier's replay of a win included);
``cpu_s`` is the CPU time it took, which other load on the machine inflates less than
the wall clock, with that of the processes the solve started (a portfolio's parts), as is
``peak_mb``.  Workers only compute rows; the parent stores each as it arrives.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import ExitStack
from typing import Any

from ..batch import process_pool
from ..errors import UnsupportedError
from ..limits import Limits
from .plan import load

# What a result's stats say of how it was decided, or how far it got, kept in its row (when there).
TOLD = ("decided_by", "bound", "part", "max_depth", "slack_at_root", "slack_on_line")


def _peak_mb() -> float:
    """The largest resident size of this worker and of any process it waited for (in MB)."""
    return round(max(resource.getrusage(who).ru_maxrss
                     for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024, 1)


def _children_cpu() -> float:
    """CPU seconds of the processes this worker started and waited for (a portfolio's parts)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def solve_deal(name: str, max_rank: int | None, seed: int | None, engine: str, limits: Limits,
               options: dict[str, Any]) -> dict[str, Any]:
    """Solve one deal with one of our engines (in a worker): one row, or ``unsupported``
    with the engine's reason when it does not play the layout (or not on that core)."""
    from .. import api

    layout = load(name, max_rank)
    deal = api.make_deal(layout, seed)
    t0, c0, k0 = time.perf_counter(), time.process_time(), _children_cpu()
    try:
        res = api.solve(layout, seed=seed, deal=deal, engine=engine, limits=limits, **options)
    except UnsupportedError as e:
        return {"seed": seed, "unsupported": str(e)}
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0 + _children_cpu() - k0
    told = {k: res.stats[k] for k in TOLD if k in res.stats}
    return {"seed": seed, "verdict": res.verdict, "reason": res.reason, "seconds": round(seconds, 6),
            "cpu_s": round(cpu, 6), "nodes": int(res.stats.get("nodes") or 0),
            "moves": len(res.solution) if res.solution else None, "peak_mb": _peak_mb(), **told}


def peer_deal(name: str, max_rank: int | None, seed: int | None, peer: str, where: str, options: list[str],
              limits: Limits) -> dict[str, Any]:
    """Solve one deal with a peer (in a worker): one row."""
    from .. import api
    from .peers import PEERS

    layout = load(name, max_rank)
    board = PEERS[peer].board(layout, api.make_deal(layout, seed), seed)
    row = PEERS[peer].solve(where, board, options, limits)
    return {"seed": seed, **row, "seconds": round(row["seconds"], 6), "cpu_s": round(row["cpu_s"], 6)}


Stream = tuple[Callable[..., dict[str, Any]], list[tuple[Any, ...]], Callable[[dict[str, Any]], bool]]


def run_interleaved(streams: list[Stream], jobs: int) -> None:
    """Each stream's ``fn(*task)`` for each of its tasks, the streams interleaved task by task
    (the first task of every stream, then the second of every stream, ...), at most ``jobs``
    deals at a time in all (so that each deal has a core to itself, and the runners of one
    layout meet the same load).  Each stream has a pool of its own (so that a worker's peak
    memory is its runner's own); its ``on_row`` gets each row as it finishes and returns False
    to stop the stream (its deals in flight are then dropped).  On any exception,
    KeyboardInterrupt included, the workers are stopped and it propagates."""
    streams = [st for st in streams if st[1]]
    if not streams:
        return
    order = [(k, i) for i in range(max(len(st[1]) for st in streams)) for k, st in enumerate(streams)
             if i < len(st[1])]
    with ExitStack() as stack:
        pools = [stack.enter_context(process_pool(max(1, min(jobs, len(st[1]))))) for st in streams]
        stopped: set[int] = set()
        pending: dict[Future[dict[str, Any]], int] = {}
        todo = iter(order)
        while True:
            while len(pending) < jobs:
                nxt = next((t for t in todo if t[0] not in stopped), None)
                if nxt is None:
                    break
                k, i = nxt
                fn, tasks, _ = streams[k]
                pending[pools[k].submit(fn, *tasks[i])] = k
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                k = pending.pop(fut)
                if k not in stopped and not streams[k][2](fut.result()):
                    stopped.add(k)
            for fut in [f for f, k in pending.items() if k in stopped]:
                fut.cancel()
                if fut.cancelled():
                    del pending[fut]
