"""The DFS benchmark of the solver issue: decided and won shares, seconds and nodes per deal.

    python -m benchmarks dfs                      # the full suite (hours on a busy machine)
    python -m benchmarks dfs --quick              # 20 seeds per layout, to try it out
    python -m benchmarks dfs --layouts colorado --seeds 1-50 --timeout 60

Each layout runs in its own child process (one deal at a time), so that its peak memory
is its own.  Writes results/dfs.json and results/dfs.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks.common import peak_memory_mb, record, seed_range, solve_rows, summarize

FULL = [("debutante", 200), ("colorado", 200), ("double-line", 200), ("black-hole", 1000), ("golf", 1000)]
COLUMNS = ["layout", "deals", "decided_share", "won_share", "won", "lost", "unknown", "median_s", "p90_s",
           "max_s", "median_nodes", "p90_nodes", "max_nodes", "peak_mb"]


def run(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks dfs")
    ap.add_argument("--layouts", help="comma-separated (default: the suite's five)")
    ap.add_argument("--seeds", help="a range a-b (default: 1-200, and 1-1000 for black-hole and golf)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per deal (default 60)")
    ap.add_argument("--quick", action="store_true", help="20 seeds per layout")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # child mode: one layout, rows as JSON
    args = ap.parse_args(argv)
    if args.one:
        rows = solve_rows(args.one, seed_range(args.seeds), timeout=args.timeout, progress=False)
        print(json.dumps({"rows": rows, "peak_mb": peak_memory_mb()}))
        return
    plan = FULL
    if args.layouts:
        plan = [(name, 200) for name in args.layouts.split(",")]
    summary, all_rows = [], []
    for name, n in plan:
        seeds = args.seeds or f"1-{20 if args.quick else n}"
        print(f"dfs benchmark: {name} seeds {seeds}", file=sys.stderr)
        out = subprocess.run([sys.executable, "-m", "benchmarks", "dfs", "--one", name, "--seeds", seeds,
                              "--timeout", str(args.timeout)], capture_output=True, text=True, check=True)
        child = json.loads(out.stdout.strip().splitlines()[-1])
        s = summarize(child["rows"])
        summary.append({"layout": name, **s, "peak_mb": round(child["peak_mb"], 1)})
        all_rows += child["rows"]
    notes = (f"DFS engine, one deal at a time, {args.timeout:g} s limit per deal; unknown = the limit was hit. "
             "Shares are of all deals run.")
    path = record("dfs", summary, COLUMNS, notes, {"rows": all_rows})
    print(path.read_text())
