"""Start-up time: a whole ``patience solve`` process on an easy deal against a bare ``python -c pass``.

``python -m benchmarks.startup [--runs N] [--out DIR]`` runs each command N times (default 20),
alternating them, and writes DIR/startup.json and DIR/startup.md (default
benchmarks/results/startup): the median and the minimum wall seconds of each, and the
difference of the medians, which is what the solver adds to the interpreter's own start.
Run it alone on the machine, with the package installed (``patience`` on the PATH).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from solver.bench.machine import busy_notes, load_average, machine

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "patience solve black-hole --seed 1": ["patience", "solve", "black-hole", "--seed", "1"],
    "patience solve debutante --seed 2": ["patience", "solve", "debutante", "--seed", "2"],
}


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out", default="benchmarks/results/startup")
    args = ap.parse_args(argv)
    if shutil.which("patience") is None:
        print("benchmarks.startup: `patience` is not on the PATH (pip install -e . first)", file=sys.stderr)
        return 2
    info = machine()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for cmd in COMMANDS.values():
        wall(cmd)  # warm the file cache (and Python's bytecode cache) once
    for _ in range(args.runs):
        for name, cmd in COMMANDS.items():
            times[name].append(wall(cmd))
    base = statistics.median(times["python -c pass"])
    rows = [{"command": name, "median_s": round(statistics.median(t), 4), "min_s": round(min(t), 4),
             "over_python_s": round(statistics.median(t) - base, 4)} for name, t in times.items()]
    info["load_at_end"] = load_average()
    report = {"machine": info, "runs": args.runs, "rows": rows,
              "notes": busy_notes(info["load_at_start"], info["load_at_end"], 1, info["cores"])}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "startup.json").write_text(json.dumps(report, indent=2) + "\n")
    lines = ["# Start-up", "", f"`python -m benchmarks.startup --runs {args.runs}`: wall seconds of a whole process, "
             f"{args.runs} runs each, alternating; {info['cpu']}, {info['cores']} cores, commit {info['commit']}, "
             f"{info['date']}; 1-minute load {info['load_at_start']} at the start, {info['load_at_end']} at the end.",
             "", "| command | median s | min s | over `python -c pass` (medians) |", "|---|---|---|---|"]
    lines += [f"| `{r['command']}` | {r['median_s']} | {r['min_s']} | {r['over_python_s']} |" for r in rows]
    lines += [""] + [f"Note: {n}." for n in report["notes"]]
    (out / "startup.md").write_text("\n".join(lines).rstrip() + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
