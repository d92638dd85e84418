"""A run with its unknown deals rerun at a longer limit, as one table.

``python -m benchmarks.longer BASE RERUN [--out FILE]`` reads two ``patience bench`` folders:
BASE (every deal, at a short limit) and RERUN (BASE's unknown deals again, at a longer limit).
Each deal of BASE that RERUN also holds (same layout, rules version, runner and seed) takes
RERUN's row; the table (won/lost/unknown, decided share, the won share's 95% interval, seconds and
nodes per decided deal) is printed and, with ``--out``, written as Markdown.

Sound when the search does not depend on the limit other than by stopping: our DFS's restarts
follow node budgets, so a deal decided at the short limit is decided, the same way, at the long
one, and BASE with RERUN's rows in place of its unknowns is BASE at the longer limit.

``--beyond-nodes N``: RERUN also holds BASE's deals decided after more than N nodes, whose rows
it replaces too: for a BASE made by a search that changed course after N nodes (the ``dfs``
engine's first search, ``PLAIN_NODES``) where RERUN's search did not, the two searches being the
same for their first N nodes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from solver.bench.store import deal_key, read_records
from solver.bench.summary import summarize


def deals(folder: Path) -> tuple[dict[Any, dict[str, Any]], dict[str, Any]]:
    """The deal rows of a bench folder by key, and its limits."""
    records, _ = read_records(folder / "deals.jsonl")
    meta = next(r for r in records if r["kind"] == "meta")
    return {deal_key(r): r for r in records if r["kind"] == "deal"}, meta["limits"]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.longer", description=__doc__.split("\n\n")[0])
    ap.add_argument("base")
    ap.add_argument("rerun")
    ap.add_argument("--out")
    ap.add_argument("--beyond-nodes", type=int, metavar="N",
                    help="RERUN also replaces BASE's deals decided after more than N nodes")
    args = ap.parse_args(argv)
    base, base_limits = deals(Path(args.base))
    rerun, rerun_limits = deals(Path(args.rerun))
    def again(row: dict[str, Any]) -> bool:
        return row["verdict"] == "unknown" or (args.beyond_nodes is not None and row["nodes"] > args.beyond_nodes)

    stray = [k for k in rerun if k not in base or not again(base[k])]
    if stray:
        print(f"benchmarks.longer: {args.rerun}: {len(stray)} rows are not unknown (or late) deals of {args.base} "
              f"(first: {stray[0]})", file=sys.stderr)
        return 2
    merged = {k: rerun.get(k, row) for k, row in base.items()}
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for (layout, _, runner, _), row in merged.items():
        groups.setdefault((layout, runner), []).append(row)
    lines = [f"# {args.base} with its unknowns rerun", "",
             f"`python -m benchmarks.longer {' '.join(argv)}`: the deals of `{args.base}` (limits "
             f"{base_limits}), each unknown one"
             + ("" if args.beyond_nodes is None else f" and each decided after more than {args.beyond_nodes:,} nodes")
             + f" replaced by its row in `{args.rerun}` (limits {rerun_limits}); {len(rerun)} rows replaced.", "",
             "| layout | runner | deals | won | lost | unknown | decided | won share, 95% | median s | p90 s "
             "| median nodes | lost by | unknown: median depth |", "|---" * 13 + "|"]
    for (layout, runner), rows in groups.items():
        s = summarize(rows)
        lost_by = "; ".join(f"{arg} {n}" for arg, n in s["lost_by"].items()) or "-"
        depth = "-" if s["unknown_median_depth"] is None else f"{s['unknown_median_depth']:g}"
        lines.append(f"| {layout} | {runner} | {s['deals']} | {s['won']} | {s['lost']} | {s['unknown']} | "
                     f"{100 * s['decided_share']:.1f}% | {100 * s['won_low']:.1f}%-{100 * s['won_high']:.1f}% | "
                     f"{s['median_s']} | {s['p90_s']} | {s['median_nodes']:g} | {lost_by} | {depth} |")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
