"""A batch's winnable seeds beside a list of PySolFC's (its ``solvable_seeds`` modules).

``python -m benchmarks.pysolfc_seeds DB PYSOLFC_LIST --seeds SPEC [--layout NAME] [--engine E] [--out DIR]``
reads ``SOLVABLE_SEEDS`` from PYSOLFC_LIST (a Python file, parsed, never run) and the batch
database DB (``patience batch``), and over the seeds of SPEC tells:

- ``missing``: the seeds PySolFC lists that the batch did not prove won, with the batch's verdict
  (``lost``, ``unknown``, or ``not run``); the target is none;
- ``added``: the seeds the batch proved won that PySolFC does not list.  Each one's stored
  solution is replayed again here (``solver.api.verify``: the seed's deal, the rules'
  fingerprint, the referee), and must win.

With ``--out DIR``: ``comparison.json`` (the counts and both lists) and ``added.jsonl.gz`` (for
each added seed, its result as the batch stored it: the deal, the solution, the search's
statistics), small files.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from solver import api, batch
from solver import batch_winnable as winnable
from solver.errors import PatienceError, VerificationFailed

SHOWN = 40  # seeds named on a line of the summary; comparison.json has them all


def pysolfc_list(path: Path) -> list[int]:
    """The ``SOLVABLE_SEEDS`` tuple of a PySolFC seeds module, read without running it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SOLVABLE_SEEDS"
                                                for t in node.targets):
            seeds = ast.literal_eval(node.value)
            if not isinstance(seeds, (tuple, list)) or not all(type(s) is int for s in seeds):
                raise ValueError(f"{path}: SOLVABLE_SEEDS is not a sequence of whole numbers")
            return sorted(set(seeds))
    raise ValueError(f"{path}: no SOLVABLE_SEEDS = (...) in it")


def compare(db: str, theirs_all: list[int], seeds: list[int], layout: str | None = None,
            engine: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The comparison over ``seeds`` (see the module text), and the stored results of the added seeds."""
    conn, meta = batch.open_report(db)
    try:
        wl = winnable.read(conn, meta, db, layout, engine)
        lay = api.load_layout(wl.layout, wl.max_rank if wl.max_rank != 13 else None)
        winnable.same_rules(wl, lay, db)
        rows = conn.execute("SELECT seed, verdict, nodes FROM results WHERE layout = ? AND (engine = ? OR ? = ?) "
                            "AND rules_version = ?",
                            (wl.layout, wl.engine, wl.engine, winnable.ANY, wl.rules_version)).fetchall()
        verdicts = {row[0]: row[1] for row in winnable.one_row_a_seed(rows)}
        span = set(seeds)
        theirs = sorted(span.intersection(theirs_all))
        ours = sorted(span.intersection(wl.seeds))
        added = sorted(set(ours) - set(theirs))
        results = {seed: obj for seed, obj in winnable.stored_results(conn, wl) if seed in set(added)}
    finally:
        conn.close()
    replayed = []
    for seed in added:
        problem = api.verify(results[seed], lay)
        if problem is not None:
            raise VerificationFailed(f"{wl.layout} seed {seed}: the stored win does not replay: {problem}")
        replayed.append(results[seed])
    missing = [{"seed": s, "ours": verdicts.get(s, "not run")} for s in theirs if s not in set(ours)]
    counts = {v: sum(1 for s in seeds if verdicts.get(s) == v) for v in batch.VERDICTS}
    summary = {
        "layout": wl.layout, "rules_version": wl.rules_version, "fingerprint": wl.fingerprint, "engine": wl.engine,
        "seeds": winnable.ranges_text(seeds), "deals": len(seeds), **counts,
        "not_run": sum(1 for s in seeds if s not in verdicts),
        "pysolfc_listed": len(theirs), "ours_won": len(ours),
        "missing": missing, "added": [{"seed": r["seed"], "nodes": r["stats"]["nodes"],
                                       "seconds": r["stats"]["seconds"], "moves": len(r["solution"])}
                                      for r in replayed],
        "added_replayed": len(replayed),
    }
    return summary, replayed


def describe(s: dict[str, Any]) -> str:
    lines = [
        f"{s['layout']} (rules version {s['rules_version']}, engine {s['engine']}), seeds {s['seeds']}: "
        f"{s['deals']} deals, {s['won']} won, {s['lost']} lost, {s['unknown']} unknown, {s['not_run']} not run",
        f"PySolFC lists {s['pysolfc_listed']} of them; the batch proved {s['ours_won']} won",
        f"PySolFC's seeds not won here: {len(s['missing'])}" + "".join(
            f"; {verdict} {len(group)}" + (f" ({', '.join(str(g) for g in group[:SHOWN])}"
                                           f"{', ...' if len(group) > SHOWN else ''})" if verdict != "not run" else "")
            for verdict in ("lost", "unknown", "not run")
            if (group := [m["seed"] for m in s["missing"] if m["ours"] == verdict])),
        f"seeds won here that PySolFC does not list: {len(s['added'])}"
        + (" (" + ", ".join(str(a["seed"]) for a in s["added"][:SHOWN]) + (", ..." if len(s["added"]) > SHOWN else "")
           + ")" if s["added"] else "")
        + f"; each one's stored solution replayed by the referee: {s['added_replayed']} of {len(s['added'])}",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.pysolfc_seeds", description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("pysolfc_list", type=Path)
    ap.add_argument("--seeds", required=True, metavar="SPEC")
    ap.add_argument("--layout")
    ap.add_argument("--engine")
    ap.add_argument("--out", type=Path, metavar="DIR")
    args = ap.parse_args(argv)
    try:
        theirs = pysolfc_list(args.pysolfc_list)
        summary, added = compare(args.db, theirs, batch.parse_seeds(args.seeds), args.layout, args.engine)
    except VerificationFailed as e:
        print(f"benchmarks.pysolfc_seeds: {e}", file=sys.stderr)
        return 70
    except (OSError, ValueError, SyntaxError, PatienceError) as e:
        print(f"benchmarks.pysolfc_seeds: error: {e}", file=sys.stderr)
        return 2
    text = describe(summary)
    print(text, end="")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "comparison.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        with gzip.open(args.out / "added.jsonl.gz", "wt", encoding="utf-8", compresslevel=9) as f:
            for r in added:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
    return 0 if not summary["missing"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
