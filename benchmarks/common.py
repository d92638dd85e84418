"""Shared pieces of the benchmark suites: solving many seeds, machine notes, recording.

A suite module in ``benchmarks/`` has ``run(args) -> None`` and calls ``record``,
which writes ``benchmarks/results/<suite>.json`` and ``.md``.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {
        "cpu": cpu, "cores": os.cpu_count(), "python": sys.version.split()[0],
        "platform": platform.platform(), "load_at_start": load,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "commit": _git("rev-parse", "--short", "HEAD"),
    }


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def peak_memory_mb() -> float:
    """Peak resident memory of this process, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Decided and won shares, median/p90/max seconds and nodes over solve rows."""
    n = len(rows)
    secs = [r["seconds"] for r in rows]
    nodes = [r["nodes"] for r in rows]
    decided = sum(r["verdict"] in ("won", "lost") for r in rows)
    won = sum(r["verdict"] == "won" for r in rows)
    return {
        "deals": n, "decided": decided, "won": won, "lost": decided - won, "unknown": n - decided,
        "decided_share": decided / n if n else 0.0, "won_share": won / n if n else 0.0,
        "median_s": statistics.median(secs) if secs else 0.0, "p90_s": percentile(secs, 0.9),
        "max_s": max(secs, default=0.0),
        "median_nodes": statistics.median(nodes) if nodes else 0, "p90_nodes": percentile(nodes, 0.9),
        "max_nodes": max(nodes, default=0),
    }


def solve_rows(layout: str, seeds, engine: str = "dfs", timeout: float | None = None,
               progress: bool = True, **options: Any) -> list[dict[str, Any]]:
    """Solve each seed in this process, one at a time; one row per deal."""
    from solver import api
    from solver.limits import Limits

    lay = api.load_layout(layout)
    rows = []
    seeds = list(seeds)
    for i, seed in enumerate(seeds, 1):
        t0 = time.perf_counter()
        res = api.solve(lay, seed=seed, engine=engine, limits=Limits(timeout=timeout), **options)
        rows.append({"layout": layout, "seed": seed, "engine": engine, "verdict": res.verdict,
                     "reason": res.reason, "seconds": time.perf_counter() - t0,
                     "nodes": res.stats.get("nodes", 0),
                     "moves": len(res.solution) if res.solution else 0})
        if progress and sys.stderr.isatty():
            print(f"\r{layout} {engine}: {i}/{len(seeds)}", end="", file=sys.stderr)
    if progress and sys.stderr.isatty():
        print(file=sys.stderr)
    return rows


def markdown_table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    def fmt(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:.4g}"
        return str(v)

    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(fmt(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(out) + "\n"


def record(suite: str, summary_rows: list[dict[str, Any]], columns: list[str],
           notes: str = "", details: dict[str, Any] | None = None) -> Path:
    """Write ``results/<suite>.json`` (everything) and ``results/<suite>.md`` (the table)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    info = machine()
    payload = {"suite": suite, "machine": info, "summary": summary_rows, "notes": notes,
               **(details or {})}
    (RESULTS / f"{suite}.json").write_text(json.dumps(payload, indent=1) + "\n")
    md = [f"# Benchmark: {suite}", "",
          f"Machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
          f"load {info['load_at_start']} at start, {info['date']}, commit {info['commit']}.", ""]
    if notes:
        md += [notes, ""]
    md.append(markdown_table(summary_rows, columns))
    (RESULTS / f"{suite}.md").write_text("\n".join(md))
    return RESULTS / f"{suite}.md"


def seed_range(text: str) -> list[int]:
    """The seeds of a range ``a-b`` (or one seed ``a``)."""
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def solve_timed(layout: str, seeds: list[int], timeout: float | None) -> tuple[list[dict[str, Any]], float]:
    """Solve ``seeds`` in this process; the rows and the CPU seconds this process spent."""
    cpu = time.process_time()
    rows = solve_rows(layout, seeds, timeout=timeout, progress=False)
    return rows, time.process_time() - cpu
