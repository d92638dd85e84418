"""The ground truth of the deals a 60-second run leaves unknown: each searched far past the limit.

``python -m benchmarks.groundtruth DB [DB ...] --out DIR``: the rows of ``patience batch`` result files
(SQLite, one per layout), each deal with its verdict, the argument that decided it (``decided_by``
and the bound's name), nodes, seconds and the deepest line's depth, written as ``DIR/rows.jsonl.gz``
and a Markdown table ``DIR/table.md`` (one row per deal, then the counts per layout and verdict).
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


def rows_of(db: Path) -> list[dict[str, Any]]:
    """Every result in a batch's SQLite file, as the fields the table shows."""
    out = []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        for layout, seed, engine, result in con.execute(
                "SELECT layout, seed, engine, result FROM results ORDER BY layout, seed"):
            res = json.loads(result)
            stats = res.get("stats", {})
            out.append({"layout": layout, "seed": seed, "engine": engine, "verdict": res["verdict"],
                        "decided_by": stats.get("decided_by"), "bound": stats.get("bound"),
                        "reason": res.get("reason"), "nodes": stats.get("nodes"), "seconds": stats.get("seconds"),
                        "max_depth": stats.get("max_depth"), "moves": len(res.get("solution") or []) or None})
    return out


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| layout | seed | verdict | decided by | nodes | seconds | deepest |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        by = r["decided_by"] or (r["reason"] if r["verdict"] == "unknown" else "")
        if r["bound"]:
            by = f"{by} ({r['bound']})"
        lines.append(f"| {r['layout']} | {r['seed']} | {r['verdict']} | {by} | {r['nodes']:,} | "
                     f"{r['seconds']:.1f} | {r['max_depth']} |")
    counts = Counter((r["layout"], r["verdict"]) for r in rows)
    lines += ["", "| layout | won | lost | unknown |", "|---|---|---|---|"]
    for layout in sorted({r["layout"] for r in rows}):
        lines.append(f"| {layout} | {counts[layout, 'won']} | {counts[layout, 'lost']} | {counts[layout, 'unknown']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.groundtruth", description=__doc__.splitlines()[0])
    ap.add_argument("dbs", nargs="+", type=Path, help="patience batch result files (SQLite)")
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
