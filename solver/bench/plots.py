"""PNG plots of a benchmark report, with matplotlib (the optional ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot(report: dict[str, Any], out: Path) -> tuple[list[str], str | None]:
    """Write the plots into ``out``; their file names, and a note when there are none."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], ("Plots skipped: matplotlib is not installed "
                    "(pip install 'patience-solver[plot]' or pip install matplotlib).")
    names = []
    groups = [r for r in report["results"] if r.get("rows")]
    if groups:
        fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(groups) + 2), 4.5))
        data = [[max(row["seconds"], 1e-5) for row in g["rows"]] for g in groups]
        ax.boxplot(data, whis=(0, 100))
        for i, values in enumerate(data, 1):  # every deal as a dot over its box
            ax.plot([i + 0.15] * len(values), values, ".", alpha=0.35, color="tab:blue")
        ax.set_xticks(range(1, len(groups) + 1), [f"{g['layout']}\n{g['engine']}" for g in groups])
        ax.set_yscale("log")
        ax.set_ylabel("seconds per deal (log)")
        ax.set_title(f"Time per deal, seeds {report['config']['seeds']}")
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "bench-times.png", dpi=110)
        plt.close(fig)
        names.append("bench-times.png")
    scaling = report.get("scaling") or []
    if scaling:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.2))
        for key in sorted({(s["layout"], s["engine"]) for s in scaling}):
            pts = sorted((s["cards"], s) for s in scaling if (s["layout"], s["engine"]) == key)
            xs = [c for c, _ in pts]
            a1.plot(xs, [max(s["median_s"] or 1e-5, 1e-5) for _, s in pts], "o-", label=f"{key[0]} {key[1]}")
            a2.plot(xs, [max(s["median_nodes"] or 0.5, 0.5) if "median_nodes" in s else None for _, s in pts],
                    "o-", label=f"{key[0]} {key[1]}")
        for ax, what in ((a1, "median seconds per deal"), (a2, "median nodes per deal")):
            ax.set_yscale("log")
            ax.set_xlabel("cards in the deck")
            ax.set_ylabel(what + " (log)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("Cost against deal size (reduced decks)")
        fig.tight_layout()
        fig.savefig(out / "bench-scaling.png", dpi=110)
        plt.close(fig)
        names.append("bench-scaling.png")
    return names, None if names else "No plots: no deal was solved."
