"""Summaries of a group of deals, and comparisons of two runners on the same deals.

Times and nodes are summarized over the *decided* deals (won or lost): a deal cut short
by a limit measures the limit, not the solver.  Shares are of all deals; the won
share's 95% Wilson interval counts every unknown (and every failed peer run) as lost
at its low end and as won at its high end, so it holds whatever they turn out to be.
``nodes_per_s`` is all nodes over all seconds, undecided deals included: the speed of
the search, whatever it found.  ``lost_by`` counts the lost deals by the argument that proved
them, and the unknowns' medians say how far their searches got (``solver.batch.breakdown``; a
row recorded before these figures has its loss read from its reason, and no depth).
"""

from __future__ import annotations

import statistics
from typing import Any

from ..batch import breakdown, percentile, won_interval

DECIDED = ("won", "lost")


def _r(x: float | None, digits: int = 6) -> float | None:
    return None if x is None else round(x, digits)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts, shares, the won share's interval, time and node quantiles per decided deal,
    nodes per second, CPU seconds in all and peak memory."""
    n = len(rows)
    won = sum(r["verdict"] == "won" for r in rows)
    lost = sum(r["verdict"] == "lost" for r in rows)
    errors = sum(r["verdict"] == "error" for r in rows)
    unknown = n - won - lost - errors
    decided = [r for r in rows if r["verdict"] in DECIDED]
    secs = [r["seconds"] for r in decided]
    nodes = [r["nodes"] for r in decided if r.get("nodes") is not None]
    total_s = sum(r["seconds"] for r in rows)
    total_nodes = sum(r.get("nodes") or 0 for r in rows)
    low, high = won_interval(won, unknown + errors, n)
    return {
        "deals": n, "won": won, "lost": lost, "unknown": unknown, "errors": errors,
        "decided_share": _r(len(decided) / n, 4) if n else None,
        "won_share": _r(won / n, 4) if n else None,
        "won_low": round(low, 4), "won_high": round(high, 4),
        "median_s": _r(statistics.median(secs)) if secs else None,
        "p90_s": _r(percentile(secs, 0.9)), "max_s": _r(max(secs, default=None)),
        "median_nodes": statistics.median(nodes) if nodes else None,
        "p90_nodes": percentile(nodes, 0.9), "max_nodes": max(nodes, default=None),
        "nodes_per_s": round(total_nodes / total_s) if total_s > 0 and total_nodes else None,
        "cpu_s": _r(sum(r.get("cpu_s") or 0.0 for r in rows), 3),
        "peak_mb": max((r.get("peak_mb") or 0.0 for r in rows), default=None),
        **breakdown((r["verdict"], r.get("reason"), r.get("nodes"), r) for r in rows),
    }


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def compare(rows: list[dict[str, Any]], against: list[dict[str, Any]], same_search: bool) -> dict[str, Any]:
    """``rows`` against ``against`` on the deals both ran: how many both decided, the seeds
    where both decided and disagree (one of the two must be wrong), and the ratios of their
    median wall and CPU seconds on the deals both decided (below 1: ``rows`` is faster).
    ``same_search`` (one engine on two cores): also the ratio of nodes per second on the
    common deals, and on how many deals both searched the same number of nodes."""
    theirs = {r["seed"]: r for r in against}
    pairs = [(r, theirs[r["seed"]]) for r in rows if r["seed"] in theirs]
    both = [(a, b) for a, b in pairs if a["verdict"] in DECIDED and b["verdict"] in DECIDED]
    out: dict[str, Any] = {
        "deals": len(pairs), "both_decided": len(both),
        "disagree": [a["seed"] for a, b in both if a["verdict"] != b["verdict"]],
        "median_s": _r(_median([a["seconds"] for a, _ in both])),
        "against_median_s": _r(_median([b["seconds"] for _, b in both])),
        "median_cpu_s": _r(_median([a["cpu_s"] for a, _ in both])),
        "against_median_cpu_s": _r(_median([b["cpu_s"] for _, b in both])),
    }
    out["time_ratio"] = _ratio(out["median_s"], out["against_median_s"])
    out["cpu_ratio"] = _ratio(out["median_cpu_s"], out["against_median_cpu_s"])
    if same_search:
        def rate(side: list[dict[str, Any]]) -> float | None:
            seconds = sum(r["seconds"] for r in side)
            return sum(r["nodes"] or 0 for r in side) / seconds if seconds > 0 else None

        out["nodes_per_s_ratio"] = _ratio(rate([a for a, _ in pairs]), rate([b for _, b in pairs]))
        out["same_nodes"] = sum(a["nodes"] == b["nodes"] for a, b in pairs)
    return out
