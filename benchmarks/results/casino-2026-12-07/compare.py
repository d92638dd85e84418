"""Casino's known shuffles, the build before (main, 226957c) and after (this branch), one run,
interleaved deal by deal: each ``solve casino --seed N --json`` in its own process (main's by its
work tree's ``patience`` script, this branch's by ``python -m solver`` in its work tree), the
verdict, nodes, seconds and the process's CPU seconds; every line replayed by the referee
(``solve`` verifies it).

    python compare.py OLD_TREE NEW_TREE OUT_STEM SEED...

writes OUT_STEM.json and OUT_STEM.md (the machine's load at the start and the end of each deal).
"""

import json
import os
import platform
import resource
import subprocess
import sys
import time


def run(tree: str, seed: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "solver", "solve", "casino", "--seed", str(seed), "--json"],
                         cwd=tree, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = json.loads(out.stdout)
    return {"verdict": res["verdict"], "nodes": res["stats"]["nodes"], "seconds": res["stats"]["seconds"],
            "cpu": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 3),
            "wall": round(wall, 3), "load": [round(load, 2), round(os.getloadavg()[0], 2)]}


def main() -> None:
    old, new, stem, seeds = sys.argv[1], sys.argv[2], sys.argv[3], [int(s) for s in sys.argv[4:]]
    rows = []
    for seed in seeds:
        a, b = run(old, seed), run(new, seed)
        rows.append({"seed": seed, "before": a, "after": b})
        print(seed, a["verdict"], b["verdict"], a["nodes"], b["nodes"], a["cpu"], b["cpu"], flush=True)
    rep = {"machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                       "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                       "shared": "yes: the lead's and other helpers' work ran at the same time"},
           "command": " ".join(["python", *sys.argv]), "deals": rows}
    same = all(r["before"]["verdict"] == r["after"]["verdict"] for r in rows)
    tot = {k: {w: sum(r[k][w] for r in rows) for w in ("nodes", "seconds", "cpu")} for k in ("before", "after")}
    rep["summary"] = {"deals": len(rows), "same_verdicts": same, **tot}
    with open(stem + ".json", "w") as f:
        json.dump(rep, f, indent=1)
        f.write("\n")
    lines = [f"# Casino, before (main 226957c) and after (branch casino), {rep['machine']['date']}", "",
             f"`{rep['command']}`", "",
             f"{rep['machine']['cores']} cores, shared: the 1-minute load is given before and after each deal.",
             "",
             "| seed | verdict before | after | nodes before | after | s before | after | CPU s before | after "
             "| load |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        a, b = r["before"], r["after"]
        lines.append(f"| {r['seed']} | {a['verdict']} | {b['verdict']} | {a['nodes']:,} | {b['nodes']:,} | "
                     f"{a['seconds']} | {b['seconds']} | {a['cpu']} | {b['cpu']} | {a['load'][0]}-{b['load'][1]} |")
    lines.append(f"| all {len(rows)} | {'same' if same else 'DIFFERENT'} | | {tot['before']['nodes']:,} | "
                 f"{tot['after']['nodes']:,} | {tot['before']['seconds']:.1f} | {tot['after']['seconds']:.1f} | "
                 f"{tot['before']['cpu']:.1f} | {tot['after']['cpu']:.1f} | |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
