"""A benchmark run written out: ``bench.json`` (everything, every deal) and ``bench.md`` (tables, plots)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InputError

RESULT_COLUMNS = ["layout", "engine", "deals", "won", "lost", "unknown", "decided_share", "won_share",
                  "median_s", "p90_s", "max_s", "median_nodes", "p90_nodes", "max_nodes", "nodes_per_s",
                  "cpu_s", "peak_mb", "load"]
PEER_COLUMNS = ["layout", "peer", "version", "deals", "won", "lost", "unknown", "errors", "median_s", "p90_s",
                "max_s", "median_iterations", "max_iterations", "peak_mb"]
RATIO_COLUMNS = ["layout", "engine", "median_s", "peer_median_s", "time_ratio", "won", "peer_won", "disagree"]
PERFT_COLUMNS = ["layout", "playouts", "positions", "mean_branching", "mean_playout", "positions_per_s",
                 "moves_per_s", "push_pop_per_s", "keys_per_s", "us_per_position"]
SCALING_COLUMNS = ["layout", "max_rank", "cards", "engine", "deals", "won", "lost", "unknown", "median_s",
                   "p90_s", "max_s", "median_nodes", "max_nodes", "nodes_per_s"]


def prepare_out(folder: str | Path) -> Path:
    """The output folder, created if need be; an InputError if it cannot be."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: is a file; expected a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"--out {out}: cannot create the folder: {e.strerror}") from None
    return out


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


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    cfg = report["config"]
    v = m.get("versions") or {}
    md = ["# patience bench", ""]
    if cfg.get("command"):
        md += [f"`{cfg['command']}`", ""]
    md += [f"Machine: {m['cpu']}, {m['cores']} cores, {m['platform']}; load {m['load_at_start']} at the "
           f"start and {report.get('load_at_end')} at the end; {m['date']}; commit {m['commit']}"
           f"{' with uncommitted changes in solver/' if m.get('uncommitted_changes') else ''}; "
           f"run took {report.get('wall_s')} s.", "",
           "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if val) + ".", "",
           f"Seeds {cfg['seeds']}, engines {', '.join(cfg['engines'])}, timeout {cfg['timeout']} s per deal, "
           f"{cfg['jobs']} deal(s) at a time (one per worker process; CP-SAT with one search worker).", ""]
    for w in report["warnings"]:
        md += [f"**Warning:** {w}.", ""]
    results = [r for r in report["results"] if "skipped" not in r]
    md += ["## Engines", "",
           "Seconds are wall clock per deal in the worker (search and the verifier's replay of a win); "
           "cpu_s sums the workers' CPU seconds; nodes_per_s = all nodes / all seconds; peak_mb is the "
           "largest resident size of a worker process (Python and the libraries included). A deal cut short "
           "by the timeout counts with the seconds it ran, so times of a group with unknowns are lower "
           "bounds. CP-SAT's nodes are its search branches, not positions: compare its nodes with "
           "CP-SAT's only. load: the 1-minute load average as the group started and ended.", "",
           markdown_table(results, RESULT_COLUMNS) if results else "No engine ran.\n"]
    if cfg.get("peers"):
        md += ["## Peers", ""]
        if report["peers"]:
            md += ["fc-solve is run as a separate process per deal (`fc-solve -m -sel` with the game "
                   "options derived from the layout, and `--fc-solve-args` if given: "
                   f"`{' '.join(cfg.get('peer_args') or []) or 'none'}`); its seconds include starting "
                   "the process. "
                   "Its `lost` is fc-solve's own claim (its scan found no solution with its move types).", "",
                   markdown_table(report["peers"], PEER_COLUMNS), "",
                   "time_ratio = our median seconds / the peer's median seconds on the same deals; "
                   "disagree lists the deals both decided with different verdicts.", "",
                   markdown_table([{"layout": p["layout"], **r} for p in report["peers"] for r in p["ratios"]],
                                  RATIO_COLUMNS)]
        else:
            md += ["No peer ran (see the notes).", ""]
    if report["perft"]:
        md += ["## Core speed (perft)", "",
               "Random playouts from the start positions of seeds 1..3 (the one start of a peg board), the same "
               "moves on every machine: "
               "at each position the legal moves are generated and the key computed, one move is pushed; "
               "then all are popped. Rates are per second of the calls themselves.", "",
               markdown_table(report["perft"], PERFT_COLUMNS)]
    if cfg.get("scaling"):
        md += ["## Scaling with the deal size", "",
               f"Reduced decks (ranks A..R, R in {', '.join(map(str, cfg['scaling_ranks']))}) of "
               f"{', '.join(cfg['scaling_layouts'])}, seeds {cfg['scaling_seeds']}.", ""]
        md += [markdown_table(report["scaling"], SCALING_COLUMNS) if report["scaling"] else "Nothing ran.\n"]
    if report.get("plots"):
        md += ["## Plots", ""] + [f"![{p}]({p})" for p in report["plots"]] + [""]
    elif report.get("plots_note"):
        md += ["## Plots", "", report["plots_note"], ""]
    if report["notes"]:
        md += ["## Notes", ""] + [f"- {n}" for n in report["notes"]] + [""]
    return "\n".join(md).rstrip("\n") + "\n"


def write(report: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """Write the plots (when matplotlib is installed), ``bench.json`` and ``bench.md`` into ``out``."""
    written: list[Path] = []
    if plots:
        from .plots import plot

        names, note = plot(report, out)
        report["plots"] = names
        report["plots_note"] = note
        written += [out / n for n in names]
    else:
        report["plots"], report["plots_note"] = [], "Plots skipped (--no-plots)."
    (out / "bench.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "bench.md").write_text(markdown(report))
    return [out / "bench.json", out / "bench.md", *written]
