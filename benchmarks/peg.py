"""Peg solitaire: both engines on the central games and on every single-vacancy start.

Games: the English 33-hole and French 37-hole boards, centre empty, one peg left in the
centre (``english-33``, ``french-37``) or anywhere (``*-any-end``); then every
single-vacancy start of both boards (each of the 33 + 37 holes empty in turn), with
two goals: one peg in the vacated hole (the "complement problem", the classical one)
and one peg anywhere (``--goals`` picks).  Every start is solved, not only one
per symmetry class, so mirror-image starts show how much the times vary.  Each deal runs
under a time limit per engine; a ``won`` verdict has been replayed by the referee.

    python -m benchmarks.peg [--engines dfs,cpsat] [--goals vacated,anywhere]
                             [--dfs-timeout 60] [--cpsat-timeout 60] [--boards english-33,french-37]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import markdown_table, peak_memory_mb, record
from solver import api
from solver.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
CENTRE_GAMES = ["english-33", "english-33-any-end", "french-37", "french-37-any-end"]


def solve_row(layout: Any, engine: str, timeout: float, **extra: Any) -> dict[str, Any]:
    t0 = time.perf_counter()
    res = api.solve(layout, engine=engine, limits=Limits(timeout=timeout))
    return {**extra, "engine": engine, "verdict": res.verdict, "reason": res.reason,
            "seconds": round(time.perf_counter() - t0, 3), "nodes": res.stats.get("nodes", 0),
            "moves": len(res.solution) if res.solution else 0}


def centre_timing(repeats: int = 5) -> dict[str, Any]:
    """The English central game by DFS: engine seconds (layout freshly loaded each time, so
    the pagoda linear programs are included) and the whole command's wall clock."""
    engine_s = []
    for _ in range(repeats):
        res = api.solve(api.load_layout("english-33"), engine="dfs")
        assert res.verdict == "won"
        engine_s.append(res.stats["seconds"])
    wall = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver", "solve", "english-33"], cwd=ROOT,
                       capture_output=True, check=False)
        wall.append(time.perf_counter() - t0)
    return {"engine_s_median": round(statistics.median(engine_s), 3), "engine_s_max": round(max(engine_s), 3),
            "cli_wall_s_median": round(statistics.median(wall), 3), "repeats": repeats}


def run(args: argparse.Namespace) -> None:
    engines = str(getattr(args, "engines", "dfs,cpsat")).split(",")
    goals = str(getattr(args, "goals", "vacated,anywhere")).split(",")
    boards = str(getattr(args, "boards", "english-33,french-37")).split(",")
    timeouts = {"dfs": getattr(args, "dfs_timeout", 60.0), "cpsat": getattr(args, "cpsat_timeout", 60.0)}

    timing = centre_timing()
    print("english-33 by dfs:", timing, flush=True)
    centre = []
    for name in CENTRE_GAMES:
        for engine in engines:
            centre.append(solve_row(api.load_layout(name), engine, timeouts[engine], game=name))
            print(centre[-1], flush=True)

    deals = []
    for board in boards:
        base = api.load_layout(board)
        for hole in base.board.names:
            for goal in goals:
                lay = base.variant(f"{board}@{hole}-{goal}", empty=[hole],
                                   goal_hole=hole if goal == "vacated" else None)
                for engine in engines:
                    deals.append(solve_row(lay, engine, timeouts[engine], board=board, empty=hole, goal=goal))
                    print(deals[-1], flush=True)

    summary = [{"games": r["game"], "engine": r["engine"], "deals": 1,
                "won": int(r["verdict"] == "won"), "lost": int(r["verdict"] == "lost"),
                "unknown": int(r["verdict"] == "unknown"), "total_s": r["seconds"],
                "median_s": r["seconds"], "max_s": r["seconds"]} for r in centre]
    for board in boards:
        for goal in goals:
            for engine in engines:
                rows = [r for r in deals if (r["board"], r["goal"], r["engine"]) == (board, goal, engine)]
                secs = [r["seconds"] for r in rows]
                summary.append({
                    "games": f"{board}, every single vacancy, goal: {goal} hole" if goal == "vacated"
                    else f"{board}, every single vacancy, goal: anywhere",
                    "engine": engine, "deals": len(rows),
                    "won": sum(r["verdict"] == "won" for r in rows),
                    "lost": sum(r["verdict"] == "lost" for r in rows),
                    "unknown": sum(r["verdict"] == "unknown" for r in rows),
                    "total_s": round(sum(secs), 2), "median_s": round(statistics.median(secs), 3),
                    "max_s": max(secs)})

    per_start = []
    for board in boards:
        for goal in goals:
            for hole in api.load_layout(board).board.names:
                row: dict[str, Any] = {"board": board, "goal": goal, "empty": hole}
                for r in deals:
                    if (r["board"], r["goal"], r["empty"]) == (board, goal, hole):
                        cut = f" ({r['reason']})" if r["reason"] else ""
                        row[r["engine"]] = f"{r['verdict']}{cut} {r['seconds']:.2f} s"
                per_start.append(row)
    notes = (
        f"English central game by DFS: engine {timing['engine_s_median']} s median of "
        f"{timing['repeats']} (max {timing['engine_s_max']} s; layout loaded afresh each time, pagoda "
        f"linear programs included); `patience solve english-33` wall clock "
        f"{timing['cli_wall_s_median']} s median (Python start and imports included). Target: under 1 s.\n\n"
        f"Time limits per deal: " + ", ".join(f"{e} {timeouts[e]:g} s" for e in engines) + ". "
        "CP-SAT runs with its defaults for peg boards (one worker, fixed search over the jumps "
        "step by step, no LP; implied constraints: peg count, parity, pagodas, flow). "
        "Seconds are wall clock per deal including model building and the replay of a win. "
        "The single-vacancy goal 'vacated' is one peg left in the hole that was empty at the start "
        "(the complement problem). The machine has 2 cores, shared with other engineers' runs "
        f"during the measurement, so times are noisy. Peak memory {peak_memory_mb():.0f} MiB.\n\n"
        "Every single-vacancy start:\n\n"
        + markdown_table(per_start, ["board", "goal", "empty", *engines])
        + "\nSummary:"
    )
    columns = ["games", "engine", "deals", "won", "lost", "unknown", "total_s", "median_s", "max_s"]
    record("peg", summary, columns, notes=notes,
           details={"centre_timing": timing, "centre": centre, "deals": deals, "timeouts": timeouts})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engines", default="dfs,cpsat")
    p.add_argument("--goals", default="vacated,anywhere", help="vacated and/or anywhere, comma separated")
    p.add_argument("--boards", default="english-33,french-37")
    p.add_argument("--dfs-timeout", type=float, default=60.0)
    p.add_argument("--cpsat-timeout", type=float, default=60.0)
    run(p.parse_args())


if __name__ == "__main__":
    main()
