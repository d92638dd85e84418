"""Batch throughput: deals per second at --jobs 1 and --jobs 2, and the parallel efficiency.

Each measurement is a whole ``patience batch`` as a user runs it (pool start,
workers, one SQLite transaction per deal) into a fresh database, timed by the
wall clock.  Efficiency at N jobs = rate(N) / (N * rate(1)).  Deals are cut by a
node budget, not a timeout, so that both runs do exactly the same work.

    python -m benchmarks.batch [--seeds 1000] [--max-nodes 20000] [--jobs 1,2] [--blocks 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import record
from solver import api, batch
from solver.limits import Limits


def measure(layout: Any, blocks: list[list[int]], jobs_list: list[int], limits: Limits, engine: str,
            folder: Path) -> list[dict[str, Any]]:
    """Solve every block at each job count in turn (block 1 at 1 job, block 1 at 2 jobs,
    block 2 at 1 job, ...), so that a shared machine's changing load falls on each
    job count alike; sum the wall clock of the runs of each job count."""
    wall = dict.fromkeys(jobs_list, 0.0)
    loads: dict[int, list[float]] = {j: [] for j in jobs_list}
    for block in blocks:
        for jobs in jobs_list:
            store = batch.Store(folder / f"jobs{jobs}.sqlite", layout)
            todo, progress = batch.plan(store, block, engine)
            loads[jobs].append(os.getloadavg()[0])
            t0 = time.perf_counter()
            try:
                with batch.process_pool(jobs) as pool:
                    batch.run_batch(pool, 2 * jobs, layout, todo, engine, limits, store, progress)
                wall[jobs] += time.perf_counter() - t0
            finally:
                store.close()
    rows = []
    for jobs in jobs_list:
        store = batch.Store(folder / f"jobs{jobs}.sqlite", layout)
        s = batch.summarize((verdict, secs) for _, verdict, secs in store.rows(engine))
        store.close()
        w = wall[jobs]
        rows.append({"jobs": jobs, "load": round(statistics.mean(loads[jobs]), 2),
                     **{k: s[k] for k in ("deals", "won", "lost", "unknown")},
                     "wall_s": round(w, 2), "deals_per_s": round(s["deals"] / w, 2),
                     "solve_s": s["total_seconds"], "busy": round(s["total_seconds"] / (jobs * w), 3),
                     "median_s": s["median_seconds"], "p90_s": s["p90_seconds"]})
        print(rows[-1], flush=True)
    return rows


def run(args: argparse.Namespace) -> None:
    layout_name = getattr(args, "layout", "black-hole")
    n = getattr(args, "seeds", 1000)
    max_nodes = getattr(args, "max_nodes", 20_000)
    engine = getattr(args, "engine", "dfs")
    jobs_list = [int(j) for j in str(getattr(args, "jobs", "1,2")).split(",")]
    nblocks = getattr(args, "blocks", 5)
    layout = api.load_layout(layout_name)
    seeds = list(range(1, n + 1))
    blocks = [seeds[i::nblocks] for i in range(nblocks)]
    limits = Limits(max_nodes=max_nodes)
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(layout, blocks, jobs_list, limits, engine, Path(tmp))
    base = next((r["deals_per_s"] for r in rows if r["jobs"] == 1), None)
    for r in rows:
        r["efficiency"] = round(r["deals_per_s"] / (r["jobs"] * base), 3) if base else None
    notes = (f"`patience batch {layout_name} --seeds 1-{n} --max-nodes {max_nodes} --engine {engine} "
             f"--jobs N` into a fresh SQLite file, run as {nblocks} interleaved blocks of seeds (each "
             f"block at every job count in turn, so that the shared machine's changing load falls on "
             f"each alike); wall clock including each pool start. "
             f"Efficiency = deals/s at N jobs / (N x deals/s at 1 job). solve_s sums the engines' own "
             f"seconds; busy = solve_s / (N x wall_s), the share of the workers' time spent solving "
             f"(what the runner loses to pool start, IPC and SQLite is 1 - busy). When efficiency "
             f"falls short of busy, the deals themselves ran slower in parallel (median_s rises): "
             f"the cores were not free. load: the mean 1-minute load average as the runs started "
             f"(2 cores, shared with other work).")
    columns = ["jobs", "load", "deals", "won", "lost", "unknown", "wall_s", "deals_per_s", "efficiency",
               "solve_s", "busy", "median_s", "p90_s"]
    record("batch", rows, columns,
           notes=notes, details={"layout": layout_name, "seeds": [1, n], "engine": engine, "blocks": nblocks,
                                 "limits": {"max_nodes": max_nodes}})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layout", default="black-hole")
    p.add_argument("--seeds", type=int, default=1000, help="seeds 1..N (default 1000)")
    p.add_argument("--max-nodes", type=int, default=20_000, help="node budget per deal (default 20000)")
    p.add_argument("--blocks", type=int, default=5, help="interleaved blocks of seeds (default 5)")
    p.add_argument("--engine", default="dfs")
    p.add_argument("--jobs", default="1,2", help="job counts to measure, comma separated (default 1,2)")
    run(p.parse_args())


if __name__ == "__main__":
    main()
