"""A benchmark written out: ``bench.json`` (everything but the rows of the deals) and ``bench.md``
(tables, plots).

The rows of the deals are kept once, in the deals file (gzipped when the run ends, ``store.py``);
``load`` reads a report back with every group's rows.  Both files are built from the deals file
alone and the run's plan, so they can be rebuilt at any time from whatever deals have finished:
after each group, after Ctrl-C, and by rerunning the command.  Each file is written to a
temporary name and renamed into place, so a run killed while writing leaves the previous
version, never half a file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..errors import InputError
from .machine import busy_notes
from .plan import Config, Group, ranges, seeds_of
from .store import DEALS, deal_key, gz, read_bytes, read_records
from .summary import compare, summarize

FORMAT = "patience-bench"
FORMAT_VERSION = 3  # 3: the groups' rows are in the deals file alone (``load``); each group has its rules_version
REPORT_FILES = ("bench.json", "bench.md")

RESULT_COLUMNS = ["layout", "runner", "deals", "won", "lost", "unknown", "decided_share", "won_share",
                  "won_95", "median_s", "p90_s", "max_s", "median_nodes", "p90_nodes", "max_nodes", "nodes_per_s",
                  "cpu_s", "peak_mb"]
COMPARE_COLUMNS = ["layout", "runner", "against", "deals", "both_decided", "disagree", "median_s",
                   "against_median_s", "time_ratio", "median_cpu_s", "against_median_cpu_s", "cpu_ratio",
                   "nodes_per_s_ratio", "same_nodes"]
ARGUMENT_COLUMNS = ["layout", "runner", "lost", "lost_by", "unknown", "unknown_median_depth",
                    "unknown_median_nodes", "unknown_median_slack"]
SESSION_COLUMNS = ["session", "started", "commit", "jobs", "load_at_start", "load_at_end", "deals", "ended"]
PERFT_COLUMNS = ["layout", "playouts", "positions", "mean_branching", "mean_playout", "positions_per_s",
                 "moves_per_s", "push_pop_per_s", "keys_per_s", "us_per_position"]


def prepare_out(folder: str | Path) -> Path:
    """The output folder, created if need be; an InputError if it cannot be, or if it holds
    the report of an earlier benchmark without its deals file (a recorded result: never
    overwritten)."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: is a file; expected a folder")
    has_deals = (out / DEALS).exists() or gz(out / DEALS).exists()
    if not has_deals and any((out / name).exists() or gz(out / name).exists() for name in REPORT_FILES):
        raise InputError(f"--out {out}: holds the report of an earlier benchmark without its {DEALS}; "
                         f"it is not overwritten: give another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"--out {out}: cannot create the folder: {e.strerror}") from None
    return out


# ------------------------------------------------------------------ building


def sessions(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per run of the command into this folder: its machine, load, deals and end."""
    ends = {r["session"]: r for r in records if r["kind"] == "end"}
    counts: dict[int, int] = {}
    for r in records:
        if r["kind"] == "deal":
            counts[r["session"]] = counts.get(r["session"], 0) + 1
    starts = [r for r in records if r["kind"] == "session"]
    out = []
    for r in starts:
        m, end = r["machine"], ends.get(r["session"], {})
        unended = "running, or killed" if r is starts[-1] else "killed (no end record)"
        out.append({"session": r["session"], "started": m.get("date"), "commit": m.get("commit"),
                    "uncommitted_changes": m.get("uncommitted_changes"), "cores": m.get("cores"),
                    "jobs": r["jobs"], "load_at_start": m.get("load_at_start"),
                    "load_at_end": end.get("load_at_end"), "deals": counts.get(r["session"], 0),
                    "wall_s": end.get("wall_s"),
                    "ended": end.get("stopped", unended),
                    "machine": m})
    return out


def warnings(runs: list[dict[str, Any]]) -> list[str]:
    """Busy machines, mixed commits and uncommitted changes among the runs that stored deals."""
    out = []
    for s in runs:
        busy = busy_notes(s["load_at_start"], s["load_at_end"], s["jobs"], s["cores"])
        if busy and (s["deals"] or s is runs[-1]):
            out.append(f"machine busy in session {s['session']}: " + "; ".join(busy)
                       + ": timings are inflated (node counts and verdicts are not)")
    commits = sorted({s["commit"] for s in runs if s["deals"] and s["commit"]})
    if len(commits) > 1:
        out.append(f"the deals were solved by sessions on different commits ({', '.join(commits)})")
    if any(s["uncommitted_changes"] for s in runs if s["deals"]):
        out.append("a session ran from a source tree with uncommitted changes in solver/")
    return out


def build(config: Config, groups: list[Group], records: list[dict[str, Any]], notes: list[str]) -> dict[str, Any]:
    """The report: the plan's groups summarized from the stored deals, compared, and the runs' machines."""
    stored = {deal_key(r): r for r in records if r["kind"] == "deal"}
    planned = finished = 0
    out_groups = []
    for g in groups:
        rows = [stored[g.key(s)] for s in g.seeds if g.key(s) in stored]
        if g.unsupported is None:
            planned += len(g.seeds)
            finished += len(rows)
        kept = [row(r) for r in rows]
        out_groups.append({"layout": g.target.label, "runner": g.runner.label, "peer": g.runner.peer,
                           "engine": None if g.runner.peer else g.runner.name, "core": g.runner.core,
                           "version": g.version, "options": g.options or None, "rules_version": g.rules_version,
                           "seeds": ranges(g.seeds),
                           "planned": len(g.seeds), "unsupported": g.unsupported,
                           **summarize(kept), "rows": kept})
    in_plan = {g.key(s) for g in groups for s in g.seeds}
    runs = sessions(records)
    perft = {r["layout"]: r for r in records if r["kind"] == "perft"}  # the latest of each layout
    return {
        "format": FORMAT, "version": FORMAT_VERSION, "command": config.command, "config": config.to_json(),
        "machine": runs[-1]["machine"] if runs else None,
        "sessions": [{k: v for k, v in s.items() if k != "machine"} for s in runs],
        "warnings": warnings(runs), "planned": planned, "finished": finished, "complete": finished == planned,
        "outside_plan": sum(k not in in_plan for k in stored),
        "groups": out_groups, "comparisons": comparisons(out_groups),
        "disagreements": [{k: v for k, v in r.items() if k not in ("kind", "session")} for r in records
                          if r["kind"] == "disagreement"],
        "perft": [{k: v for k, v in perft[t.label].items() if k not in ("kind", "session")}
                  for t in config.targets if t.label in perft],
        "notes": [*config.notes, *notes],
    }


def row(record: dict[str, Any]) -> dict[str, Any]:
    """A deal's record as its group's row: without what the group says (layout, runner, rules version)."""
    return {k: v for k, v in record.items() if k not in ("kind", "layout", "rules_version", "runner")}


def load(folder: Path) -> dict[str, Any]:
    """The report of the run in ``folder`` as ``build`` made it: its ``bench.json`` (or a recorded
    ``bench.json.gz``), each group's rows read back from the deals file (gzipped or not)."""
    report: dict[str, Any] = json.loads(read_bytes(folder / "bench.json"))
    if all("rows" in g for g in report["groups"]):  # a report of format 2 or older holds them
        return report
    records, _ = read_records(folder / DEALS)
    stored = {deal_key(r): r for r in records if r["kind"] == "deal"}
    for g in report["groups"]:
        keys = [(g["layout"], g["rules_version"], g["runner"], s) for s in seeds_of(g["seeds"])]
        g["rows"] = [row(stored[k]) for k in keys if k in stored]
    return report


def comparisons(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per layout: each core of an engine against its first core; each engine against each
    engine before it (on their first cores); each engine run against each peer."""
    out = []
    for layout in dict.fromkeys(g["layout"] for g in groups):
        ours = [g for g in groups if g["layout"] == layout and not g["peer"] and g["rows"]]
        peers = [g for g in groups if g["layout"] == layout and g["peer"] and g["rows"]]
        first: dict[str, dict[str, Any]] = {}
        for g in ours:
            base = first.setdefault(g["engine"], g)
            if base is not g:
                out.append(_pair(g, base, "core"))
        engines = list(first.values())
        for i, g in enumerate(engines):
            out += [_pair(g, other, "engine") for other in engines[:i]]
        out += [_pair(g, p, "peer") for g in ours for p in peers]
    return out


def _pair(g: dict[str, Any], against: dict[str, Any], kind: str) -> dict[str, Any]:
    return {"layout": g["layout"], "runner": g["runner"], "against": against["runner"], "kind": kind,
            **compare(g["rows"], against["rows"], same_search=kind == "core")}


# ------------------------------------------------------------------ markdown


def markdown_table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    def fmt(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return str(round(v)) if abs(v) >= 1000 else f"{v:.4g}"
        if isinstance(v, list):
            return ", ".join(map(str, v)) or "none"
        return str(v)

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(fmt(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def result_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The groups that ran, for the results table (``deals`` as ``done/planned`` while unfinished)."""
    rows = []
    for g in report["groups"]:
        if g["unsupported"] is not None:
            continue
        row = dict(g)
        if g["deals"] < g["planned"]:
            row["deals"] = f"{g['deals']}/{g['planned']}"
        row["won_95"] = f"{_pct(g['won_low'])}-{_pct(g['won_high'])}" if g["deals"] else None
        rows.append(row)
    return rows


def summary_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Per layout with a peer: our first engine against every peer, in one row."""
    out = []
    groups = [g for g in report["groups"] if g["unsupported"] is None and g["rows"]]
    for layout in dict.fromkeys(g["layout"] for g in groups):
        ours = [g for g in groups if g["layout"] == layout and not g["peer"]]
        peers = [g for g in groups if g["layout"] == layout and g["peer"]]
        if not ours or not peers:
            continue
        g = ours[0]
        pairs = {c["against"]: c for c in report["comparisons"]
                 if c["layout"] == layout and c["runner"] == g["runner"] and c["kind"] == "peer"}
        out.append({
            "layout": layout, "deals": g["deals"], "ours": f"{g['won']}/{g['lost']}/{g['unknown']}",
            "median_s": g["median_s"],
            "peers": "; ".join(f"{p['runner']} {p['won']}/{p['lost']}/{p['unknown']}" for p in peers),
            "disagree": sum(len(pairs[p["runner"]]["disagree"]) for p in peers if p["runner"] in pairs),
            "time_ratio": "; ".join(f"{pairs[p['runner']]['time_ratio']}" for p in peers if p["runner"] in pairs),
        })
    return out


def markdown(report: dict[str, Any]) -> str:
    cfg = report["config"]
    m = report["machine"] or {}
    v = m.get("versions") or {}
    md = ["# patience bench", "", f"`{report['command']}`", ""]
    md += [f"Machine: {m.get('cpu')}, {m.get('cores')} cores, {m.get('platform')}; commit {m.get('commit')}"
           f"{' with uncommitted changes in solver/' if m.get('uncommitted_changes') else ''}.", "",
           "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if val) + ".", "",
           "Limits per deal: " + (", ".join(f"{k} {val}" for k, val in cfg["limits"].items()) or "none")
           + f"; {cfg['jobs']} deal(s) at a time, one per worker process (CP-SAT with one search worker).", "",
           "Seeds: " + "; ".join(f"{k} {s}" for k, s in cfg["seeds"].items()) + ".", ""]
    if report["complete"]:
        md += [f"Complete: all {report['planned']} deals finished.", ""]
    else:
        md += [f"**Incomplete:** {report['finished']} of {report['planned']} deals finished; "
               "rerun the same command to go on (finished deals are kept, never solved again).", ""]
    for w in report["warnings"]:
        md += [f"**Warning:** {w}.", ""]
    md += ["## Sessions", "", "Each run of the command into this folder; the load is the 1-minute load average.", "",
           markdown_table(report["sessions"], SESSION_COLUMNS)]
    summary = summary_rows(report)
    if summary:
        md += ["## Summary", "",
               "One row per layout: our first engine's verdicts (won/lost/unknown) and median seconds per decided "
               "deal, each peer's verdicts, the deals both decided differently, and the ratio of our median "
               "seconds to the peer's on the deals both decided (below 1: ours is faster). The tables below give "
               "every runner in full; the deals file every deal.", "",
               markdown_table(summary, ["layout", "deals", "ours", "median_s", "peers", "disagree", "time_ratio"])]
    rows = result_rows(report)
    md += ["## Results", "",
           "Per layout and runner (an engine, `engine/core` with `--cores`, or a peer). Shares are of all deals; "
           "won_95 is the 95% Wilson interval of the won share with every unknown counted as lost (low end) and "
           "as won (high end). Seconds (wall clock of the solve in the worker; for our engines the referee's "
           "replay of a win included) and nodes are per decided deal; nodes_per_s is all nodes over all "
           "seconds; cpu_s sums the CPU seconds; peak_mb is the largest resident size of a worker (a peer run "
           "as a process: of that process). CP-SAT's nodes are its search branches and a peer's its "
           "iterations: compare them only with their own kind.", "",
           markdown_table(rows, RESULT_COLUMNS) if rows else "Nothing ran.\n"]
    argued = [{**r, "lost_by": "; ".join(f"{arg} {n}" for arg, n in (r.get("lost_by") or {}).items()) or None}
              for r in rows if r["lost"] or r["unknown"]]
    if argued:
        md += ["## Losses by argument, unknowns by depth", "",
               "What proved each lost deal (`search`: a search that exhausted every position; `bound at the "
               "deal (NAME)`: a sound bound cut the deal before any move; `cp-sat`: the model is infeasible), "
               "and for the unknown deals the medians of the deepest depth reached (moves from the deal), of "
               "the nodes, and of the slack of the family's bound at the deal (cards more it could take before "
               "proving the deal lost), over the deals that recorded them.", "",
               markdown_table(argued, ARGUMENT_COLUMNS)]
    unsupported = [g for g in report["groups"] if g["unsupported"] is not None]
    if unsupported:
        md += ["Unsupported (not run):", ""] + [f"- {g['layout']} / {g['runner']}: {g['unsupported']}"
                                                for g in unsupported] + [""]
    if report["comparisons"]:
        md += ["## Comparisons", "",
               "Two runners on the deals both ran: `disagree` lists the seeds both decided with different "
               "verdicts (one of the two must be wrong); the medians are over the deals both decided, and "
               "each ratio is the runner's median over the other's (below 1: the runner is faster). Against a "
               "peer, cpu_ratio compares our CPU seconds with the peer's process CPU time. Between two cores "
               "of one engine, nodes_per_s_ratio is the speed-up of the search and same_nodes counts the deals "
               "on which both searched exactly as many nodes.", "",
               markdown_table(report["comparisons"], COMPARE_COLUMNS)]
    if report.get("disagreements"):
        md += ["## Disagreements", "",
               "Each deal one of our engines and a peer both decided with different verdicts, replayed through "
               "our referee (our win is replayed before it is reported; a peer's win is read from its output "
               "and played move by move, the first move the referee refuses named).", "",
               markdown_table(report["disagreements"], ["layout", "seed", "runner", "ours", "against", "theirs",
                                                        "referee"])]
    peer_groups = [g for g in report["groups"] if g["peer"]]
    if cfg["peers"]:
        md += ["## Peers", ""]
        md += [f"- {g['runner']} {g['version'] or ''} on {g['layout']}: `{' '.join(g['options'] or [])}`"
               for g in peer_groups] or ["No peer ran (see the notes)."]
        md += [""]
    if report["perft"]:
        md += ["## Core speed (perft)", "",
               "Random playouts from the start positions of seeds 1..3 (the one start of a peg board), the same "
               "moves on every machine: at each position the legal moves are generated and the key computed, "
               "one move is pushed; then all are popped. Rates are per second of the calls themselves.", "",
               markdown_table(report["perft"], PERFT_COLUMNS)]
    if report.get("plots"):
        md += ["## Plots", ""] + [f"![{p}]({p})" for p in report["plots"]] + [""]
    elif report.get("plots_note"):
        md += ["## Plots", "", report["plots_note"], ""]
    notes = list(report["notes"])
    if report["outside_plan"]:
        notes.append(f"{report['outside_plan']} deals stored in {DEALS} by other commands into this folder are "
                     f"not in these tables")
    if notes:
        md += ["## Notes", ""] + [f"- {n}" for n in notes] + [""]
    return "\n".join(md).rstrip("\n") + "\n"


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write(report: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """Write the plots (when asked and matplotlib is installed), ``bench.json`` (without the rows: the deals
    file has them) and ``bench.md``."""
    written: list[Path] = []
    if plots:
        from .plots import plot

        names, note = plot(report, out)
        report["plots"], report["plots_note"] = names, note
        written += [out / n for n in names]
    else:
        report["plots"], report["plots_note"] = [], "Plots skipped (--no-plots)."
    lean = {**report, "groups": [{k: v for k, v in g.items() if k != "rows"} for g in report["groups"]]}
    _write_atomic(out / "bench.json", json.dumps(lean, indent=1) + "\n")
    gz(out / "bench.json").unlink(missing_ok=True)  # an earlier format's
    _write_atomic(out / "bench.md", markdown(report))
    return [out / "bench.json", out / "bench.md", *written]
