"""Benchmark: the hole family (Black Hole, Golf) with the dfs engine over PySol deals.

Reference (from the issue): Shlomi Fish's C solver black-hole-solver finds 877
of PySol Black Hole deals 1..1000 winnable (median about 0.02 s) and 463 of
PySol Golf deals 1..1000 (PySolFC rules: no wrapping, a queen may go on a
king).  Our targets: every deal decided; median under 0.1 s (Black Hole) and
0.3 s (Golf).  Times are per deal and include dealing and the verifier's replay.

Run: ``python -m benchmarks hole [--seeds 1-1000] [--timeout 300] [--jobs 3 --split golf=2]``.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .common import record, seed_range, solve_timed, summarize

REFERENCE_WON = {"black-hole": 877, "golf": 463}  # black-hole-solver, PySol deals 1..1000
TARGET_MEDIAN = {"black-hole": 0.1, "golf": 0.3}


def run(args: Any = None) -> None:
    """``args``: the command-line words after the suite name (``python -m benchmarks hole ...``)
    or an already parsed namespace."""
    if args is None or isinstance(args, (list, tuple)):
        args = _parse(list(args or []))
    seeds = seed_range(getattr(args, "seeds", None) or "1-1000")
    timeout = getattr(args, "timeout", None)
    layouts = getattr(args, "layouts", None) or ["black-hole", "golf"]
    jobs = getattr(args, "jobs", None) or 1
    split = getattr(args, "split", None) or {}
    tasks = [(lay, seeds[i::split.get(lay, 1)]) for lay in layouts for i in range(split.get(lay, 1))]
    rows: dict[str, list[dict[str, Any]]] = {lay: [] for lay in layouts}
    cpu = dict.fromkeys(layouts, 0.0)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = [(lay, pool.submit(solve_timed, lay, part, timeout)) for lay, part in tasks]
            results = [(lay, f.result()) for lay, f in done]
    else:
        results = [(lay, solve_timed(lay, part, timeout)) for lay, part in tasks]
    for lay, (part_rows, part_cpu) in results:
        rows[lay] += part_rows
        cpu[lay] += part_cpu
    summary = []
    for lay in layouts:
        rows[lay].sort(key=lambda r: r["seed"])
        s = summarize(rows[lay])
        s["cpu_s"] = cpu[lay]
        s["mean_cpu_s"] = cpu[lay] / len(rows[lay])
        full_range = seeds == list(range(1, 1001))
        s.update(layout=lay, seeds=f"{seeds[0]}-{seeds[-1]}",
                 reference_won=REFERENCE_WON.get(lay) if full_range else None,
                 target_median_s=TARGET_MEDIAN.get(lay))
        summary.append(s)
        print(f"{lay}: {s['won']} won, {s['lost']} lost, {s['unknown']} unknown of {s['deals']}; "
              f"median {s['median_s']:.4f} s, p90 {s['p90_s']:.3f} s, max {s['max_s']:.2f} s, "
              f"CPU {s['cpu_s']:.0f} s",
              file=sys.stderr)
    notes = ("dfs engine, one deal at a time per process"
             + (f", {len(tasks)} parts on {jobs} processes" if jobs > 1 else "")
             + f"; timeout {timeout} s per deal. Seconds are wall-clock per deal (dealing, search "
             "and the verifier's replay); cpu_s is the CPU time the solving processes used in "
             "all, which other load does not inflate. The machine has 2 cores shared with other "
             "work during the run, so wall times are noisy (see load_at_start). Reference won "
             "counts are black-hole-solver's on the same PySol deals 1..1000.")
    per_deal = {lay: [{k: r[k] for k in ("seed", "verdict", "seconds", "nodes", "moves")}
                      for r in rows[lay]] for lay in layouts}
    record("hole", summary,
           ["layout", "seeds", "deals", "won", "reference_won", "lost", "unknown", "median_s",
            "target_median_s", "p90_s", "max_s", "cpu_s", "mean_cpu_s", "median_nodes", "max_nodes"],
           notes=notes, details={"deals": per_deal})


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks hole", description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1-1000", help="a range such as 1-1000")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per deal")
    p.add_argument("--layouts", nargs="+", default=["black-hole", "golf"])
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--split", nargs="*", default=[], metavar="LAYOUT=N",
                   help="cut a layout's seeds into N interleaved parts (for --jobs)")
    args = p.parse_args(argv)
    args.split = {k: int(v) for k, v in (s.split("=") for s in args.split)}
    return args


if __name__ == "__main__":
    run(sys.argv[1:])
