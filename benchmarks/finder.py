"""The win finder measured: the default engine with and without it, in one run, deal by deal.

``python -m benchmarks.finder --out DIR [--timeout S] [--jobs N] GAME=SEEDS ...`` solves each deal
with each *runner* in turn (one deal at a time, the runners interleaved deal by deal so that a
change of load hits both alike) and writes, as each deal finishes, ``DIR/rows.jsonl`` (resumed if
it exists: a deal already there is not run again), then ``DIR/table.md`` and ``DIR/summary.json``.

GAME is a layout name, optionally with settings after colons: ``spider:foundations.takes=suit``
(the rule people play: a run goes home from a column's top).  SEEDS: ``1-20`` or ``1,5,9``.

Runners (``--runners``, default ``before,portfolio``):

- ``before``: ``patience solve``'s default engine as it was before the finder had a seat: the
  portfolio with the parts ``dfs, dfs-shaken, cpsat`` (the same code otherwise);
- ``portfolio``: ``patience solve``'s default engine now (the finder has its seat where the
  family gives it one);
- ``shaken``: the default engine with a second, shaken beam (``finder-shaken``) after the finder,
  before the shaken DFS: parts ``dfs, finder, finder-shaken, dfs-shaken, cpsat``;
- ``finder``: the win finder alone, on one core; ``dfs``: the DFS alone, on one core.

Every won is replayed by the referee (``api.solve`` does it), and the table says per game how
many deals each runner won, lost and left unknown, the median seconds of the decided ones, and
the deals one runner decided that the other did not.  Run it alone on the machine (the load is
recorded at the start and the end).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from solver import api
from solver.bench.machine import load_average, machine
from solver.limits import Limits

RUNNERS: dict[str, dict[str, Any]] = {
    "before": {"engine": "portfolio", "parts": ["dfs", "dfs-shaken", "cpsat"]},
    "portfolio": {"engine": "portfolio"},
    "shaken": {"engine": "portfolio", "parts": ["dfs", "finder", "finder-shaken", "dfs-shaken", "cpsat"]},
    "finder": {"engine": "finder"},
    "dfs": {"engine": "dfs"},
}


def seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def game(spec: str) -> tuple[str, list[int], tuple[str, ...]]:
    """``NAME[:KEY=VALUE...]=SEEDS`` -> (name, seeds, settings)."""
    name_part, _, seed_part = spec.rpartition("=")
    if not name_part or not re.fullmatch(r"[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*", seed_part):
        raise SystemExit(f"benchmarks.finder: {spec!r}: expected GAME=SEEDS, e.g. spider:foundations.takes=suit=1-10")
    name, *settings = name_part.split(":")
    return name, seeds(seed_part), tuple(settings)


def run_one(name: str, settings: tuple[str, ...], seed: int, runner: str, timeout: float, jobs: int) -> dict[str, Any]:
    lay = api.load_layout(name, settings=settings)
    options = dict(RUNNERS[runner])
    engine = options.pop("engine")
    if engine == "portfolio":
        options["jobs"] = jobs
    t0 = time.perf_counter()
    r = api.solve(lay, seed=seed, engine=engine, limits=Limits(timeout=timeout), **options)
    return {"game": ":".join((name, *settings)), "seed": seed, "runner": runner, "verdict": r.verdict,
            "reason": r.reason, "seconds": round(time.perf_counter() - t0, 3), "nodes": r.stats.get("nodes"),
            "part": r.stats.get("part"), "moves": len(r.solution or [])}


def table(rows: list[dict[str, Any]], runners: list[str], meta: dict[str, Any]) -> str:
    by: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    for row in rows:
        by.setdefault((row["game"], row["runner"]), {})[row["seed"]] = row
    lines = ["# The win finder: the default engine before and after its seat", "",
             f"`python -m benchmarks.finder {meta['argv']}`; commit {meta['machine']['commit']}, "
             f"{meta['machine']['cpu']}, {meta['machine']['cores']} cores; load {meta['machine']['load_at_start']} at "
             f"the start, {meta.get('load_at_end')} at the end; {meta['timeout']:g} s a deal.", "",
             "| game | runner | deals | won | lost | unknown | decided | median s (decided) | won by the finder |",
             "|---|---|---|---|---|---|---|---|---|"]
    games = sorted({g for g, _ in by})
    for g in games:
        for runner in runners:
            got = by.get((g, runner), {})
            verdicts = [r["verdict"] for r in got.values()]
            decided = [r["seconds"] for r in got.values() if r["verdict"] != "unknown"]
            median = f"{statistics.median(decided):.2f}" if decided else "-"
            finder = sum(1 for r in got.values() if r["verdict"] == "won" and "finder" in (r["runner"], r.get("part")))
            lines.append(f"| {g} | {runner} | {len(got)} | {verdicts.count('won')} | {verdicts.count('lost')} | "
                         f"{verdicts.count('unknown')} | {len(decided)} | {median} | {finder} |")
    lines += ["", "Deal by deal, where the runners differ (decided by one, unknown to the other, or different):", ""]
    for g in games:
        for seed in sorted({s for (gg, _), d in by.items() if gg == g for s in d}):
            seen = {runner: by.get((g, runner), {}).get(seed, {}).get("verdict") for runner in runners}
            if len(set(seen.values())) > 1:
                lines.append(f"- {g} #{seed}: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.finder", description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", metavar="GAME=SEEDS")
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2, help="processes of a portfolio (default 2)")
    ap.add_argument("--runners", default="before,portfolio")
    args = ap.parse_args(argv)
    runners = args.runners.split(",")
    if any(r not in RUNNERS for r in runners):
        print(f"benchmarks.finder: --runners: expected names of {', '.join(RUNNERS)}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rows.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {(r["game"], r["seed"], r["runner"]) for r in rows}
    meta: dict[str, Any] = {"argv": " ".join(argv), "machine": machine(), "timeout": args.timeout}
    with path.open("a") as f:
        for spec in args.games:
            name, todo, settings = game(spec)
            label = ":".join((name, *settings))
            for seed in todo:
                for runner in runners:
                    if (label, seed, runner) in done:
                        continue
                    row = run_one(name, settings, seed, runner, args.timeout, args.jobs)
                    print(json.dumps(row), flush=True)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    rows.append(row)
    meta["load_at_end"] = load_average()
    (out / "summary.json").write_text(json.dumps({**meta, "rows": len(rows)}, indent=1) + "\n")
    text = table(rows, runners, meta)
    (out / "table.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
