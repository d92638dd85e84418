"""Benchmark: the tableau family (FreeCell and relatives, Klondike, Forty Thieves, Canfield) with the dfs engine.

Targets (issue 6): FreeCell Microsoft deals 1..1000 all won, every solution verified, deal
11982 proved lost, median under 0.1 s per deal, fc-solve in the same run where it is
installed; Klondike (draw 3, thoughtful) 1,000 seeds landing inside the 95% interval of
Blake and Gent's 81.945% +- 0.084% with at most 1% unknown; every other layout 200 seeds
(decided share, won share, median seconds).  Times are wall-clock per deal and include
dealing and the verifier's replay (``api.solve`` replays every win before reporting it).

Run: ``python -m benchmarks tableau [--layouts freecell klondike ...] [--seeds freecell=1-1000 ...]
[--timeout 60] [--jobs 2] [--no-peer]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .common import record, seed_range, solve_timed, summarize

DEFAULT_SEEDS = {"freecell": "1-1000", "klondike": "1-1000"}
OTHER_SEEDS = "1-200"
LAYOUTS = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell", "bakers-dozen",
           "forty-thieves", "klondike", "klondike-draw-1", "canfield"]
KLONDIKE_PUBLISHED = (0.81945, 0.00084)  # Blake and Gent: winnable share of thoughtful Klondike, draw 3
TARGET_MEDIAN = {"freecell": 0.1}


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def fc_solve_peer(seeds: list[int], timeout: float) -> dict[str, Any]:
    """fc-solve (its fast preset ``-l lg``) on the same FreeCell deals, one process per deal."""
    from solver import api
    from solver import deal as deals
    from solver.bench.peers import fc_solve_options, fc_solve_path, fc_solve_version, run_fc_solve

    path = fc_solve_path()
    if path is None:
        return {"note": "fc-solve is not installed (Debian package freecell-solver-bin): no peer in this run"}
    lay = api.load_layout("freecell")
    options = (fc_solve_options(lay) or []) + ["-l", "lg"]
    rows = []
    for seed in seeds:
        row = run_fc_solve(path, options, deals.to_board(deals.from_seed(lay, seed), lay), timeout)
        rows.append({"seed": seed, "verdict": row["verdict"], "seconds": row["seconds"]})
    secs = [r["seconds"] for r in rows]
    return {"version": fc_solve_version(path), "options": " ".join(options), "deals": len(rows),
            "won": sum(r["verdict"] == "won" for r in rows), "median_s": statistics.median(secs),
            "rows": rows}


def run(args: Any = None) -> None:
    if args is None or isinstance(args, (list, tuple)):
        args = _parse(list(args or []))
    from .common import machine

    started = machine()  # the header of the record is taken at the end; the code run is this one
    layouts = args.layouts or LAYOUTS
    seeds = {lay: seed_range(args.seeds.get(lay, DEFAULT_SEEDS.get(lay, OTHER_SEEDS))) for lay in layouts}
    jobs = args.jobs or 1
    tasks = [(lay, seeds[lay][i::jobs]) for lay in layouts for i in range(jobs)]
    rows: dict[str, list[dict[str, Any]]] = {lay: [] for lay in layouts}
    cpu = dict.fromkeys(layouts, 0.0)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [(lay, pool.submit(solve_timed, lay, part, args.timeout)) for lay, part in tasks if part]
            results = [(lay, f.result()) for lay, f in futures]
    else:
        results = [(lay, solve_timed(lay, part, args.timeout)) for lay, part in tasks if part]
    for lay, (part_rows, part_cpu) in results:
        rows[lay] += part_rows
        cpu[lay] += part_cpu
    summary = []
    extra: dict[str, Any] = {}
    for lay in layouts:
        rows[lay].sort(key=lambda r: r["seed"])
        s = summarize(rows[lay])
        n = s["deals"]
        lo, _ = wilson(s["won"], n)
        _, hi = wilson(s["won"] + s["unknown"], n)
        s.update(layout=lay, seeds=f"{seeds[lay][0]}-{seeds[lay][-1]}", cpu_s=cpu[lay],
                 won_share_low=lo, won_share_high=hi, target_median_s=TARGET_MEDIAN.get(lay))
        summary.append(s)
        print(f"{lay}: {s['won']} won, {s['lost']} lost, {s['unknown']} unknown of {n}; "
              f"median {s['median_s']:.4f} s, p90 {s['p90_s']:.3f} s, max {s['max_s']:.2f} s",
              file=sys.stderr)
    if "freecell" in layouts and not args.no_11982:
        from solver import api
        from solver.limits import Limits

        t0 = time.perf_counter()
        res = api.solve("freecell", seed=11982, limits=Limits(timeout=max(args.timeout or 600, 600)))
        extra["freecell_11982"] = {"verdict": res.verdict, "seconds": time.perf_counter() - t0,
                                   "nodes": res.stats.get("nodes")}
        print(f"freecell 11982: {res.verdict} in {extra['freecell_11982']['seconds']:.1f} s", file=sys.stderr)
    if "freecell" in layouts and not args.no_peer:
        peer = fc_solve_peer(seeds["freecell"], args.timeout or 60)
        extra["fc_solve"] = peer
        if "median_s" in peer:
            ours = next(s for s in summary if s["layout"] == "freecell")
            ours["fc_solve_median_s"] = peer["median_s"]
            ours["ratio_to_fc_solve"] = ours["median_s"] / peer["median_s"] if peer["median_s"] else None
            print(f"fc-solve {peer['version']} ({peer['options']}): {peer['won']} won of {peer['deals']}, "
                  f"median {peer['median_s']:.4f} s", file=sys.stderr)
        else:
            print(peer["note"], file=sys.stderr)
    notes = [f"Run started {started['date']} at commit {started['commit']} (load {started['load_at_start']}); "
             f"dfs engine; timeout {args.timeout} s per deal; {jobs} process(es). Seconds are wall-clock "
             "per deal (dealing, search, the verifier's replay); the machine has 2 cores shared with other "
             "agents' work during the run, so wall times are inflated and noisy (see load_at_start); cpu_s "
             "is the CPU time of the solving processes. won_share_low/high: 95% Wilson interval with the "
             "unknowns counted as lost / as won."]
    if "klondike" in layouts:
        k = next(s for s in summary if s["layout"] == "klondike")
        p, e = KLONDIKE_PUBLISHED
        notes.append(f"Klondike (draw 3, thoughtful): published winnable share {100 * p:.3f}% +- {100 * e:.3f}% "
                     f"(Blake and Gent); here {k['won']} won of {k['deals']} "
                     f"(interval {100 * k['won_share_low']:.1f}%..{100 * k['won_share_high']:.1f}%), "
                     f"{100 * k['unknown'] / k['deals']:.1f}% unknown.")
    if "freecell_11982" in extra:
        notes.append(f"FreeCell deal 11982: {extra['freecell_11982']['verdict']} "
                     f"({extra['freecell_11982']['seconds']:.1f} s, {extra['freecell_11982']['nodes']} nodes).")
    if "fc_solve" in extra:
        peer = extra["fc_solve"]
        notes.append(peer.get("note") or f"fc-solve {peer['version']} with `{peer['options']}` on the same "
                     f"deals, one process per deal: {peer['won']} won of {peer['deals']}, median "
                     f"{peer['median_s']:.4f} s (process start included).")
    per_deal = {lay: [{k: r[k] for k in ("seed", "verdict", "seconds", "nodes", "moves")} for r in rows[lay]]
                for lay in layouts}
    record(args.name, summary,
           ["layout", "seeds", "deals", "won", "lost", "unknown", "won_share", "won_share_low", "won_share_high",
            "median_s", "target_median_s", "p90_s", "max_s", "cpu_s", "median_nodes", "max_nodes",
            "fc_solve_median_s", "ratio_to_fc_solve"],
           notes="\n\n".join(notes), details={"deals": per_deal, **extra})


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks tableau", description=__doc__.splitlines()[0])
    p.add_argument("--layouts", nargs="+", default=None)
    p.add_argument("--seeds", nargs="*", default=[], metavar="LAYOUT=LO-HI",
                   help="seed ranges per layout (defaults: freecell, klondike 1-1000; others 1-200)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per deal")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--no-peer", action="store_true", help="skip fc-solve")
    p.add_argument("--no-11982", action="store_true", help="skip the proof that FreeCell 11982 is lost")
    p.add_argument("--name", default="tableau", help="results/NAME.json and .md")
    args = p.parse_args(argv)
    args.seeds = dict(s.split("=") for s in args.seeds)
    return args


if __name__ == "__main__":
    run(sys.argv[1:])
