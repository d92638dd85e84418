"""Published win rates of the debutante family, with 95% Wilson intervals.

For each layout, seeds 1..N are solved by the batch runner into
``<db-dir>/<layout>.sqlite`` (resumable: rerun to go on, or raise --seeds to
extend), then summarized: counts, win rate (won / decided), the 95% Wilson
interval with unknowns counted as lost (low end) and as won (high end), and
the share left unknown.  A long run; publish at least 1,000 seeds per layout,
10,000 where time allows.

    python -m benchmarks winrates [--seeds 10000] [--timeout 60] [--max-nodes N] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import RESULTS, record
from solver import api, batch
from solver.limits import Limits

LAYOUTS = ["debutante", "colorado", "grandfather", "double-line", "twenty", "sly-fox"]


def win_rate(layout_name: str, n: int, engine: str, limits: Limits, jobs: int,
             db_dir: Path, retry_unknown: bool = False) -> dict[str, Any]:
    layout = api.load_layout(layout_name)
    store = batch.Store(db_dir / f"{layout_name}.sqlite", layout)
    try:
        todo, progress = batch.plan(store, list(range(1, n + 1)), engine, retry_unknown)
        t0 = time.perf_counter()
        if todo:
            with batch.process_pool(min(jobs, len(todo))) as pool:
                batch.run_batch(pool, 2 * jobs, layout, todo, engine, limits, store, progress)
        wall = time.perf_counter() - t0
        stored = sorted((seed, v, secs) for seed, v, secs in store.rows(engine) if seed <= n)
        used = store.limits_used(engine)
    finally:
        store.close()
    s = batch.summarize([(v, secs) for _, v, secs in stored])
    return {"layout": layout_name, "rules_version": layout.rules_version, "engine": engine,
            "deals": s["deals"], "won": s["won"], "lost": s["lost"], "unknown": s["unknown"],
            "win_rate": s["win_rate"], "win_rate_low": s["win_rate_low"], "win_rate_high": s["win_rate_high"],
            "unknown_share": s["unknown_share"], "median_s": s["median_seconds"], "p90_s": s["p90_seconds"],
            "wall_s_this_run": round(wall, 1),
            "limits": limits_label(used),
            "per_seed": [[seed, v, round(secs, 3)] for seed, v, secs in stored]}


def limits_label(used: dict[str, int]) -> str:
    """The per-deal limits the stored rows ran under, with how many rows each when they differ
    (a --retry-unknown run solves the unknowns again with other limits)."""
    def text(limits_json: str) -> str:
        return ", ".join(f"{k.replace('_', '-')} {v:g}" for k, v in json.loads(limits_json).items()) or "none"

    if len(used) == 1:
        return text(next(iter(used)))
    return "; ".join(f"{text(k)} ({n} deals)" for k, n in sorted(used.items(), key=lambda kv: -kv[1]))


def run(argv: list[str]) -> None:
    args = parser().parse_args(argv)
    n = args.seeds
    limits = Limits(max_nodes=args.max_nodes, timeout=args.timeout, max_memory=args.max_memory)
    limit_text = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in vars(limits).items() if v is not None)
    jobs = args.jobs or batch.default_jobs()
    db_dir = Path(args.db_dir)
    db_dir.mkdir(parents=True, exist_ok=True)
    previous = RESULTS / "winrates.json"
    rows = []
    for name in args.layouts:
        print(f"{name}: seeds 1..{n}, engine {args.engine}, {limit_text}", file=sys.stderr, flush=True)
        rows.append(win_rate(name, n, args.engine, limits, jobs, db_dir, args.retry_unknown))
        print(batch.format_table([rows[-1] | {"median_seconds": rows[-1]["median_s"],
                                              "p90_seconds": rows[-1]["p90_s"]}]), file=sys.stderr)
    per_seed = {r["layout"]: r.pop("per_seed") for r in rows}
    # Layouts measured before (perhaps with another engine or limit) keep their rows.
    if previous.exists():
        old = json.loads(previous.read_text())
        rows = [r for r in old["summary"] if r["layout"] not in per_seed] + rows
        per_seed = {k: v for k, v in old.get("per_seed", {}).items() if k not in per_seed} | per_seed
    rows.sort(key=lambda r: LAYOUTS.index(r["layout"]) if r["layout"] in LAYOUTS else len(LAYOUTS))
    notes = ("Seeds 1..deals of each layout, with the engine and per-deal limits of its row (each layout "
             "with the engine that decides the most of its deals in the time there was). "
             "win_rate = won / decided: where no losses were proved (no deal of these was shown lost; the waste "
             "layouts, Twenty and Sly Fox have no counting bound) it is 1 by construction, so "
             "quote the interval. [win_rate_low, win_rate_high] is the 95% Wilson interval of "
             "the won share of all deals with every unknown counted as lost (low) and as won (high), so "
             "it holds whatever the unknowns turn out to be. Every won was replayed by the referee; every "
             "lost is a complete search or a sound bound. Every deal's verdict and seconds are in "
             "winrates.json (`per_seed`: seed, verdict, seconds); `patience report` reads the batch "
             "databases the run wrote.")
    columns = ["layout", "rules_version", "engine", "limits", "deals", "won", "lost", "unknown", "win_rate",
               "win_rate_low", "win_rate_high", "unknown_share", "median_s", "p90_s"]
    record("winrates", rows, columns, notes=notes, details={"per_seed": per_seed})


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks winrates", description=__doc__.splitlines()[0])
    p.add_argument("--layouts", nargs="+", default=LAYOUTS, help=f"default: {' '.join(LAYOUTS)}")
    p.add_argument("--seeds", type=int, default=1000, help="seeds 1..N of each layout (default 1000)")
    p.add_argument("--engine", default="dfs")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per deal (default 60)")
    p.add_argument("--max-nodes", type=int, default=None,
                   help="search nodes per deal: a limit that does not depend on the machine or its load")
    p.add_argument("--max-memory", type=int, default=None, help="bytes of transposition table per deal")
    p.add_argument("--jobs", type=int, default=None, help="default: every core")
    p.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals stored as unknown, with these limits (the row's limits "
                        "column then counts the deals run under each)")
    p.add_argument("--db-dir", default="winrates-db", help="where the per-layout databases go")
    return p


if __name__ == "__main__":
    run(sys.argv[1:])
