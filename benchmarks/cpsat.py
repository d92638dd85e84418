"""Both engines on the same seeds, in one run: decided share, seconds, and agreement.

    python -m benchmarks cpsat                     # dfs, cpsat and auto on the suite's layouts
    python -m benchmarks cpsat --quick             # 10 seeds per layout
    python -m benchmarks cpsat --layouts colorado --seeds 1-200 --engines cpsat --timeout 60
    python -m benchmarks cpsat --features          # each CP-SAT model feature switched off, measured
    python -m benchmarks cpsat --tableau           # the tableau model against the DFS on reduced decks

For every layout the engines solve seeds ``--seeds`` with ``--timeout`` seconds per
deal each (CP-SAT with ``--workers`` workers).  The table gives, per engine, the
share of deals decided, wins and losses, median and p90 seconds, and ``agree``:
on how many of the deals that both the DFS and CP-SAT decided they gave the same
verdict (it must be all of them; ``disagree`` lists any that did not).  Every
``won`` was replayed by the referee on the way (``api.solve``).

Deals where one engine is far faster than the other (by ``GAP_RATIO`` and at
least ``GAP_SECONDS``, an undecided run counting as the timeout) are written to
``seeds/engine-gap.toml``, so that the gap stays visible.

``--tableau``: the open tableau games on reduced decks (``TABLEAU``), where CP-SAT
says ``lost`` only from its order relaxation and ``unknown`` when no plan fits its
horizon (solver/cpsat/tableau_model.py): ``agree`` counts the deals the DFS won that
CP-SAT won too, and the deals the DFS lost on which CP-SAT found no plan (lost or
unknown).

Writes results/cpsat.json and .md (``--features``: results/cpsat-features.*;
``--tableau``: results/cpsat-tableau.*; ``--tag NAME``: results/cpsat-NAME.*).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import record, seed_range, solve_rows, summarize

SUITE = [("debutante", 30), ("colorado", 30), ("grandfather", 10), ("double-line", 10),
         ("black-hole", 30), ("golf", 30)]
ENGINES = ["dfs", "cpsat", "auto"]
COLUMNS = ["layout", "engine", "deals", "decided_share", "won", "lost", "unknown", "median_s", "p90_s",
           "max_s", "agree", "both_decided"]
GAP_RATIO = 10.0
GAP_SECONDS = 1.0
GAP_FILE = Path(__file__).resolve().parent.parent / "seeds" / "engine-gap.toml"

# --features: what each switch is measured on (layout, max rank or None, seeds)
FEATURE_SETS = {
    "reserve": [("colorado", None, [1, 3, 10]), ("debutante", None, [2, 3, 8]), ("debutante-1", 8, [3, 31])],
    "hole": [("black-hole", None, [2, 3, 4, 5, 6]), ("golf", None, [2, 3, 6, 7])],
}
# --tableau: (layout, max rank), seeds 1..--seeds
TABLEAU = [("freecell", 3), ("freecell", 4), ("freecell", 5), ("bakers-game", 4), ("bakers-game", 5),
           ("bakers-dozen", 4), ("bakers-dozen", 5), ("eight-off", 4), ("seahaven-towers", 4), ("forecell", 4)]
TABLEAU_COLUMNS = ["layout", "max_rank", "deals", "dfs_won", "dfs_lost", "dfs_unknown", "cpsat_won", "cpsat_lost",
                   "cpsat_unknown", "agree", "disagree", "cpsat_median_s", "cpsat_max_s", "dfs_median_s",
                   "dfs_max_s"]
FEATURE_COLUMNS = ["model", "features", "deals", "decided", "cpu_s", "median_cpu_s", "max_cpu_s"]


def compare(layout: str, seeds: list[int], engines: list[str], timeout: float,
            workers: int | None) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Solve ``seeds`` with each engine; one summary row per engine, and every deal's rows."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for engine in engines:
        print(f"cpsat benchmark: {layout} {engine} seeds {seeds[0]}..{seeds[-1]}", file=sys.stderr, flush=True)
        options = {} if engine == "dfs" or workers is None else {"workers": workers}
        rows[engine] = solve_rows(layout, seeds, engine=engine, timeout=timeout, **options)
    agree = both = 0
    disagree = []
    if "dfs" in rows and "cpsat" in rows:
        for d, c in zip(rows["dfs"], rows["cpsat"], strict=True):
            if d["verdict"] != "unknown" and c["verdict"] != "unknown":
                both += 1
                if d["verdict"] == c["verdict"]:
                    agree += 1
                else:
                    disagree.append(d["seed"])
    summary = []
    for engine, rs in rows.items():
        s = summarize(rs)
        s.update(layout=layout, engine=engine, agree=agree if "cpsat" in rows and "dfs" in rows else "",
                 both_decided=both if "cpsat" in rows and "dfs" in rows else "", disagree=disagree)
        summary.append(s)
    return summary, rows


def gaps(layout: str, rows: dict[str, list[dict[str, Any]]], timeout: float) -> list[dict[str, Any]]:
    """Deals on which one of the DFS and CP-SAT is far faster than the other."""
    if "dfs" not in rows or "cpsat" not in rows:
        return []
    out = []
    for d, c in zip(rows["dfs"], rows["cpsat"], strict=True):
        decided = [r for r in (d, c) if r["verdict"] != "unknown"]
        if not decided:
            continue
        secs = {r["engine"]: (r["seconds"] if r["verdict"] != "unknown" else timeout) for r in (d, c)}
        fast, slow = sorted(secs, key=secs.get)
        if secs[slow] - secs[fast] >= GAP_SECONDS and secs[slow] >= GAP_RATIO * max(secs[fast], 1e-3):
            out.append({"layout": layout, "seed": d["seed"], "verdict": decided[0]["verdict"],
                        "faster": fast, "ratio": round(secs[slow] / max(secs[fast], 1e-3), 1),
                        "dfs_seconds": round(secs["dfs"], 3), "cpsat_seconds": round(secs["cpsat"], 3),
                        "undecided_by": ",".join(r["engine"] for r in (d, c) if r["verdict"] == "unknown"),
                        "timeout": timeout})
    return out


MEASURED = ("faster", "ratio", "dfs_seconds", "cpsat_seconds", "undecided_by", "timeout")


def write_gaps(new: list[dict[str, Any]], layouts: list[str]) -> None:
    """Merge into seeds/engine-gap.toml (a seed set, see seeds/README.md): entries of the layouts
    just measured are replaced."""
    import tomllib

    from benchmarks.common import machine

    old = []
    if GAP_FILE.exists():
        old = [{"layout": e["layout"], "seed": e["seed"], "verdict": e["verdict"], **e.get("measured", {})}
               for e in tomllib.loads(GAP_FILE.read_text()).get("deal", []) if e["layout"] not in layouts]
    entries = sorted(old + new, key=lambda e: (e["layout"], e["seed"]))
    info = machine()
    lines = [
        "# Deals on which one engine is far faster than the other: the DFS or CP-SAT decides the deal",
        f"# at least {GAP_RATIO:g} times (and {GAP_SECONDS:g} s) faster; an engine that did not decide within",
        "# `timeout` counts as taking the whole timeout (`undecided_by` names it).  Written by",
        "# `python -m benchmarks cpsat`; the seconds are wall seconds on the machine noted in",
        "# benchmarks/results/cpsat.md.",
        'title = "Deals where one engine is far faster than the other"',
        f'source = "this project\'s engines (python -m benchmarks cpsat, commit {info["commit"]}, '
        f'{info["date"][:10]}): every won replayed by the referee, every lost proved by a complete search, '
        'a sound bound or an infeasible exact model"',
        "",
    ]
    for e in entries:
        measured = ", ".join(f"{k} = {_toml(e.get(k, ''))}" for k in MEASURED)
        lines += ["[[deal]]", f'layout = "{e["layout"]}"', f"seed = {e['seed']}", f'verdict = "{e["verdict"]}"',
                  f"measured = {{ {measured} }}", ""]
    GAP_FILE.parent.mkdir(exist_ok=True)
    GAP_FILE.write_text("\n".join(lines))


def _toml(v: Any) -> str:
    return f'"{v}"' if isinstance(v, str) else f"{v}"


def feature_study(timeout: float, workers: int) -> None:
    """Each redundant constraint or symmetry breaking switched off in turn, on the same deals."""
    from solver import api
    from solver import deal as deals
    from solver.engines.cpsat import build
    from solver.families.hole.model import FEATURES as HOLE
    from solver.families.reserve.model import FEATURES as RESERVE
    from solver.limits import Limits

    rows, details = [], []
    for model, defaults in (("reserve", RESERVE), ("hole", HOLE)):
        variants = ["(defaults)"] + [("-" if on else "+") + name for name, on in defaults.items()]
        for variant in variants:
            features = None if variant == "(defaults)" else variant
            cpus, decided = [], 0
            for layout, rank, seeds in FEATURE_SETS[model]:
                lay = api.load_layout(layout, rank)
                for seed in seeds:
                    c0 = time.process_time()
                    built = build(lay, deals.from_seed(lay, seed), features)
                    verdict, *_ = built.solve(Limits(timeout=timeout), {"workers": workers})
                    cpu = time.process_time() - c0
                    cpus.append(cpu)
                    decided += verdict != "unknown"
                    details.append({"model": model, "features": variant, "layout": layout, "max_rank": rank,
                                    "seed": seed, "verdict": verdict, "cpu_s": round(cpu, 3)})
                    print(f"features {variant}: {layout} {seed} {verdict} {cpu:.2f}s", file=sys.stderr,
                          flush=True)
            cpus.sort()
            rows.append({"model": model, "features": variant, "deals": len(cpus), "decided": decided,
                         "cpu_s": round(sum(cpus), 2), "median_cpu_s": round(cpus[len(cpus) // 2], 3),
                         "max_cpu_s": round(cpus[-1], 3)})
    sets = "; ".join(f"{model}: " + ", ".join(f"{lay}{'' if r is None else f' A-{r}'} {s}"
                                               for lay, r, s in sets_)
                     for model, sets_ in FEATURE_SETS.items())
    notes = (f"CP-SAT model features, each switched from its default (`-name` off, `+name` on), "
             f"{workers} worker(s), {timeout:g} s per deal, CPU seconds (the machine is shared). "
             f"Deals: {sets}. Verdicts never change with a feature (tests/test_cpsat.py); only the time.")
    print(record("cpsat-features", rows, FEATURE_COLUMNS, notes, {"deals": details}))


def tableau_study(seeds: list[int], timeout: float, workers: int) -> None:
    """The CP-SAT tableau model and the DFS on the same reduced-deck deals."""
    import statistics

    from solver import api
    from solver.limits import Limits

    rows, details = [], []
    for layout, rank in TABLEAU:
        lay = api.load_layout(layout, rank)
        per = []
        for seed in seeds:
            t0 = time.perf_counter()
            d = api.solve(lay, seed=seed, engine="dfs", limits=Limits(timeout=timeout))
            t1 = time.perf_counter()
            c = api.solve(lay, seed=seed, engine="cpsat", limits=Limits(timeout=timeout), workers=workers)
            t2 = time.perf_counter()
            per.append({"layout": layout, "max_rank": rank, "seed": seed, "dfs": d.verdict, "cpsat": c.verdict,
                        "dfs_s": round(t1 - t0, 3), "cpsat_s": round(t2 - t1, 3),
                        "horizon": c.stats.get("horizon"), "cpsat_moves": len(c.solution or []),
                        "dfs_moves": len(d.solution or [])})
        print(f"tableau: {layout} A-{rank} done", file=sys.stderr, flush=True)
        agree = sum(1 for r in per if (r["dfs"], r["cpsat"]) in (("won", "won"), ("lost", "lost"), ("lost", "unknown")))
        bad = [r["seed"] for r in per if {r["dfs"], r["cpsat"]} == {"won", "lost"}
               or (r["dfs"] == "won" and r["cpsat"] != "won")]
        cs = [r["cpsat_s"] for r in per]
        rows.append({"layout": layout, "max_rank": rank, "deals": len(per),
                     **{f"dfs_{v}": sum(r["dfs"] == v for r in per) for v in ("won", "lost", "unknown")},
                     **{f"cpsat_{v}": sum(r["cpsat"] == v for r in per) for v in ("won", "lost", "unknown")},
                     "agree": agree, "disagree": bad, "cpsat_median_s": statistics.median(cs),
                     "cpsat_max_s": max(cs), "dfs_median_s": statistics.median(r["dfs_s"] for r in per),
                     "dfs_max_s": max(r["dfs_s"] for r in per)})
        details += per
    notes = (f"The CP-SAT tableau model (single-card plans within a horizon; `lost` only from the order "
             f"relaxation) and the DFS, seeds {seeds[0]}..{seeds[-1]} of each reduced deck, {timeout:g} s per deal "
             f"and engine, CP-SAT with {workers} worker(s), wall seconds, one deal at a time. agree: both won, "
             "or the DFS lost and CP-SAT found no plan (lost, or unknown naming its horizon). disagree: the "
             "seeds where one engine said won and the other lost, or the DFS won and CP-SAT did not. Deals "
             "the DFS left unknown and CP-SAT decided are in cpsat_won/cpsat_lost minus dfs_won/dfs_lost.")
    print(record("cpsat-tableau", rows, TABLEAU_COLUMNS, notes, {"deals": details}))


def beyond_bound(layout: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Which CP-SAT losses the project's bound at the start (the DFS position's ``is_dead``: the
    counting argument and buried cards) already proves, and which it does not."""
    from solver import api
    from solver import deal as deals
    from solver.families import start_position

    lay = api.load_layout(layout)
    by_bound, beyond = [], []
    for r in rows:
        if r["engine"] == "cpsat" and r["verdict"] == "lost":
            dead = start_position(lay, deals.from_seed(lay, r["seed"])).is_dead()
            (by_bound if dead else beyond).append(r["seed"])
    return {"layout": layout, "lost_by_cpsat": len(by_bound) + len(beyond), "lost_by_bound_at_start": by_bound,
            "lost_beyond_the_bound": beyond}


def notes_for(engines: list[str], timeout: float, workers: int, summary: list[dict[str, Any]],
              gap_list: list[dict[str, Any]] | None) -> str:
    notes = [f"Engines {', '.join(engines)}; {timeout:g} s per deal and engine; CP-SAT with {workers} "
             "worker(s); wall seconds, one deal at a time; every won replayed by the referee."]
    if "auto" in engines:
        notes.append("auto is the portfolio of solver/cpsat/portfolio.py under the same per-deal timeout.")
    if "dfs" in engines and "cpsat" in engines:
        bad = sum(len(s["disagree"]) for s in summary if s["engine"] == "cpsat")
        notes.append("agree: deals on which dfs and cpsat gave the same verdict, out of both_decided "
                     f"(the deals both decided). Disagreements: {bad}.")
    if gap_list is not None:
        notes.append(f"Engine gaps (one engine >= {GAP_RATIO:g}x faster): {len(gap_list)}, "
                     "in seeds/engine-gap.toml.")
    return " ".join(notes)


def run(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks cpsat")
    ap.add_argument("--layouts", help="comma-separated (default: the suite's six)")
    ap.add_argument("--seeds", help="a range a-b (default: 1-30, 1-10 for the waste layouts)")
    ap.add_argument("--engines", default=",".join(ENGINES), help="comma-separated (default: dfs,cpsat,auto)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per deal and engine (default 20)")
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT workers (default 1)")
    ap.add_argument("--quick", action="store_true", help="10 seeds per layout")
    ap.add_argument("--features", action="store_true", help="measure the CP-SAT model features instead")
    ap.add_argument("--tableau", action="store_true",
                    help="the CP-SAT tableau model against the DFS on reduced decks instead")
    ap.add_argument("--tag", help="record as results/cpsat-TAG.* (for side runs)")
    ap.add_argument("--no-gaps", action="store_true", help="do not update seeds/engine-gap.toml")
    ap.add_argument("--bound", action="store_true",
                    help="also tell which cpsat losses the bound at the start already proves")
    args = ap.parse_args(argv)
    if args.features:
        feature_study(args.timeout, args.workers)
        return
    if args.tableau:
        tableau_study(seed_range(args.seeds or f"1-{10 if args.quick else 50}"), args.timeout, args.workers)
        return
    plan = SUITE if not args.layouts else [(name, 30) for name in args.layouts.split(",")]
    engines = args.engines.split(",")
    summary, all_rows, all_gaps = [], [], []
    for name, n in plan:
        seeds = seed_range(args.seeds or f"1-{10 if args.quick else n}")
        rows, per_deal = compare(name, seeds, engines, args.timeout, args.workers)
        summary += rows
        all_rows += [r for rs in per_deal.values() for r in rs]
        all_gaps += gaps(name, per_deal, args.timeout)
    if not args.no_gaps:
        write_gaps(all_gaps, [name for name, _ in plan])
    notes = notes_for(engines, args.timeout, args.workers, summary, None if args.no_gaps else all_gaps)
    bounds = []
    if args.bound:
        bounds = [beyond_bound(name, [r for r in all_rows if r["layout"] == name]) for name, _ in plan]
        notes += " Losses proved by cpsat, and whether the bound at the start (the counting argument and " \
                 "buried cards, as the DFS checks them) proves them already: " + "; ".join(
                     f"{b['layout']}: {b['lost_by_cpsat']} lost, by the bound {b['lost_by_bound_at_start']}, "
                     f"beyond it {b['lost_beyond_the_bound']}" for b in bounds) + "."
    suite = "cpsat" + (f"-{args.tag}" if args.tag else "")
    print(record(suite, summary, COLUMNS, notes, {"rows": all_rows, "gaps": all_gaps, "bound": bounds}))


if __name__ == "__main__":
    run(sys.argv[1:])
