"""The ground truth of the deals a 60-second run leaves unknown: each searched far past the limit.

``python -m benchmarks.groundtruth FILE [FILE ...] --out DIR``: the rows of ``patience batch`` result
files (SQLite, one per layout) and of ``patience solve --json`` outputs (``.json``), each run of a
deal with its engine, verdict, the argument that decided it (``decided_by``
and the bound's name), nodes, seconds and the deepest line's depth, written as ``DIR/rows.jsonl.gz``
and a Markdown table ``DIR/table.md`` (one row per run, then per layout the deals by their verdict:
a deal proved won or lost by any run counts so, unknown only when no run proved it).
The run's commands, machine and load go in ``DIR/README.md`` by hand: this script only tabulates.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any


def _row(res: dict[str, Any]) -> dict[str, Any]:
    stats = res.get("stats", {})
    return {"layout": res["layout"], "seed": res["seed"], "engine": res["engine"], "verdict": res["verdict"],
            "decided_by": stats.get("decided_by"), "bound": stats.get("bound"),
            "reason": res.get("reason"), "nodes": stats.get("nodes"), "seconds": stats.get("seconds"),
            "max_depth": stats.get("max_depth"), "moves": len(res.get("solution") or []) or None}


def rows_of(path: Path) -> list[dict[str, Any]]:
    """Every result in a batch's SQLite file, or the one of a ``solve --json`` output, as the
    fields the table shows."""
    if path.suffix == ".json":
        return [_row(json.loads(path.read_text()))]
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        return [_row(json.loads(result)) for (result,) in con.execute(
            "SELECT result FROM results ORDER BY layout, seed")]


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| layout | seed | engine | verdict | decided by | nodes | seconds | deepest |",
             "|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["layout"], r["seed"])):
        by = r["decided_by"] or (r["reason"] if r["verdict"] == "unknown" else "")
        if r["bound"]:
            by = f"{by} ({r['bound']})"
        lines.append(f"| {r['layout']} | {r['seed']} | {r['engine']} | {r['verdict']} | {by} | {r['nodes']:,} | "
                     f"{r['seconds']:.1f} | {r['max_depth'] if r['max_depth'] is not None else ''} |")
    final: dict[tuple[str, int], str] = {}
    for r in rows:
        if final.get((r["layout"], r["seed"]), "unknown") == "unknown":
            final[r["layout"], r["seed"]] = r["verdict"]
    counts = Counter((layout, verdict) for (layout, _), verdict in final.items())
    lines += ["", "| layout | won | lost | unknown |", "|---|---|---|---|"]
    for layout in sorted({r["layout"] for r in rows}):
        lines.append(f"| {layout} | {counts[layout, 'won']} | {counts[layout, 'lost']} | {counts[layout, 'unknown']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.groundtruth", description=__doc__.splitlines()[0])
    ap.add_argument("dbs", nargs="+", type=Path,
                    help="patience batch result files (SQLite) or solve --json outputs (.json)")
    ap.add_argument("--out", type=Path, required=True, help="the folder to write rows.jsonl.gz and table.md into")
    args = ap.parse_args(argv)
    rows = [r for db in args.dbs for r in rows_of(db)]
    args.out.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out / "rows.jsonl.gz", "wt") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    (args.out / "table.md").write_text(table(rows))


if __name__ == "__main__":
    main()
