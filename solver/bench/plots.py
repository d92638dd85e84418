"""PNG plots of a benchmark report, with matplotlib (the optional ``plot`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

MAX_BOXES = 40  # groups in one plot, at most


def plot(report: dict[str, Any], out: Path) -> tuple[list[str], str | None]:
    """Write the plots into ``out``; their file names, and a note when there are none."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], ("Plots skipped: matplotlib is not installed "
                    "(pip install 'patience-solver[plot]' or pip install matplotlib).")
    groups = [g for g in report["groups"] if g["rows"]]
    if not groups:
        return [], "No plots: no deal was solved."
    if len(groups) > MAX_BOXES:
        return [], f"No plots: {len(groups)} groups are more than one plot shows ({MAX_BOXES})."
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(groups) + 2), 4.5))
    data = [[max(row["seconds"], 1e-5) for row in g["rows"]] for g in groups]
    ax.boxplot(data, whis=(0, 100))
    for i, values in enumerate(data, 1):  # every deal as a dot over its box
        ax.plot([i + 0.15] * len(values), values, ".", alpha=0.35, color="tab:blue")
    ax.set_xticks(range(1, len(groups) + 1), [f"{g['layout']}\n{g['runner']}" for g in groups])
    ax.set_yscale("log")
    ax.set_ylabel("seconds per deal (log)")
    ax.set_title("Time per deal")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "bench-times.png", dpi=110)
    plt.close(fig)
    return ["bench-times.png"], None
