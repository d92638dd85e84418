"""Two checkouts of the solver on the same deals, interleaved: is the new one as fast?

``python -m benchmarks.commits OLD NEW --out DIR [--repeats N] [--max-nodes N] GAME=SEEDS ...``
runs ``python -m solver solve GAME --seed S --engine dfs --json`` in the checkout OLD, then in
NEW, deal by deal and ``--repeats`` times (so a change of load hits both alike), each with the
compiled core its checkout has built in place (``python setup.py build_ext --inplace``; a checkout
without it is refused).  Each search is cut at ``--max-nodes`` so that both search the same
positions where they agree node for node; the table says whether they did (``nodes`` equal per
deal), and compares the engine's own seconds (``stats.seconds``: the search, not the process
start) as nodes per second, the median of the repeats per deal.

It writes ``DIR/rows.jsonl`` (one line per search), ``DIR/summary.json`` and ``DIR/table.md``:
per deal the nodes of each checkout and the ratio NEW/OLD of nodes per second, and per family
the geometric mean of the ratios.  Run it alone on the machine (the load is recorded at the
start and the end).  GAME=SEEDS as ``benchmarks.finder`` reads it (``forty-thieves=2``,
``black-hole=4,5``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.finder import game
from solver.bench.machine import load_average, machine


def commit_of(checkout: Path) -> str:
    out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True)
    return out.stdout.strip() or "?"


def solve(checkout: Path, name: str, seed: int, settings: tuple[str, ...], max_nodes: int) -> dict[str, Any]:
    """One search in ``checkout``'s own code: its JSON's verdict, nodes and engine seconds."""
    words = [sys.executable, "-m", "solver", "solve", name, "--seed", str(seed), "--engine", "dfs", "--json",
             "--max-nodes", str(max_nodes), "--timeout", "600"]
    for s in settings:
        words += ["--set", s]
    p = subprocess.run(words, cwd=checkout, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):  # won, lost, unknown
        raise SystemExit(f"benchmarks.commits: {checkout}: {' '.join(words[1:])}: exit {p.returncode}: "
                         f"{p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}")
    out = json.loads(p.stdout)
    stats = out["stats"]
    if stats.get("core") != "compiled":
        raise SystemExit(f"benchmarks.commits: {checkout}: the compiled core is not built there "
                         "(python setup.py build_ext --inplace)")
    return {"verdict": out["verdict"], "nodes": stats["nodes"], "seconds": stats["seconds"]}


def family_of_name(name: str) -> str:
    from solver import api
    from solver.families import family_of

    return family_of(api.load_layout(name)).name


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.commits", description=__doc__.split("\n\n")[0])
    p.add_argument("old", type=Path, help="the old checkout (its compiled core built in place)")
    p.add_argument("new", type=Path, help="the new checkout")
    p.add_argument("games", nargs="+", metavar="GAME=SEEDS")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--max-nodes", type=int, default=2_000_000)
    args = p.parse_args(argv)
    games = [game(g) for g in args.games]
    args.out.mkdir(parents=True, exist_ok=True)
    sides = {"old": args.old.resolve(), "new": args.new.resolve()}
    head = {"machine": machine(), "load_start": load_average(), "old": commit_of(sides["old"]),
            "new": commit_of(sides["new"]), "max_nodes": args.max_nodes, "repeats": args.repeats,
            "command": "python -m benchmarks.commits " + " ".join(sys.argv[1:] if argv is None else argv)}
    rows: list[dict[str, Any]] = []
    with open(args.out / "rows.jsonl", "w", encoding="utf-8") as f:
        for name, seeds, settings in games:
            for seed in seeds:
                for r in range(args.repeats):
                    for side, checkout in sides.items():
                        row = {"game": name, "settings": list(settings), "seed": seed, "repeat": r, "side": side,
                               **solve(checkout, name, seed, settings, args.max_nodes)}
                        rows.append(row)
                        f.write(json.dumps(row) + "\n")
                        f.flush()
                        print(json.dumps(row), flush=True)
    head["load_end"] = load_average()
    deals: list[dict[str, Any]] = []
    for name, seeds, settings in games:
        for seed in seeds:
            got = {side: [r for r in rows if (r["game"], r["settings"], r["seed"], r["side"]) ==
                          (name, list(settings), seed, side)] for side in sides}
            nodes = {side: got[side][0]["nodes"] for side in sides}
            rate = {side: nodes[side] / max(1e-9, statistics.median(r["seconds"] for r in got[side]))
                    for side in sides}
            deals.append({"game": name, "seed": seed, "family": family_of_name(name),
                          "verdict": got["new"][0]["verdict"], "nodes_old": nodes["old"], "nodes_new": nodes["new"],
                          "same_nodes": nodes["old"] == nodes["new"],
                          "nps_old": round(rate["old"]), "nps_new": round(rate["new"]),
                          "ratio": round(rate["new"] / rate["old"], 3)})
    families: dict[str, float] = {}
    for fam in sorted({d["family"] for d in deals}):
        ratios = [d["ratio"] for d in deals if d["family"] == fam]
        families[fam] = round(math.exp(statistics.fmean(math.log(x) for x in ratios)), 3)
    summary = {**head, "deals": deals, "families": families}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    lines = [f"# {head['new']} against {head['old']}: nodes per second, the DFS, interleaved", "",
             f"`{head['command']}`", "",
             f"Machine: {head['machine']}; load average at the start {head['load_start']}, at the end "
             f"{head['load_end']}. Each search cut at {args.max_nodes:,} nodes; the median of {args.repeats} "
             "repeats of the engine's own seconds.", "",
             "| game | seed | verdict | nodes old | nodes new | same nodes | nodes/s old | nodes/s new | new/old |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {d['game']} | {d['seed']} | {d['verdict']} | {d['nodes_old']:,} | {d['nodes_new']:,} | "
              f"{'yes' if d['same_nodes'] else 'NO'} | {d['nps_old']:,} | {d['nps_new']:,} | {d['ratio']:.3f} |"
              for d in deals]
    lines += ["", "| family | new/old, geometric mean |", "|---|---|"]
    lines += [f"| {fam} | {r:.3f} |" for fam, r in families.items()]
    (args.out / "table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
