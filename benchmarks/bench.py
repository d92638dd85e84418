"""Benchmark: ``patience bench`` as a suite, written to ``benchmarks/results/bench/``.

Run: ``python -m benchmarks bench [patience bench arguments]``.  With no arguments it runs
the recorded configuration: black-hole and golf, seeds 1-50, both engines, perft, and
the scaling of the debutante family (and FreeCell, when an engine plays it) on
reduced decks.  ``--out`` defaults to ``benchmarks/results/bench``.
"""

from __future__ import annotations

import sys
from typing import Any

from .common import RESULTS

DEFAULT = ["black-hole", "golf", "--seeds", "1-50", "--engines", "dfs,cpsat", "--perft", "--scaling"]


def run(args: Any = None) -> int:
    from solver.cli import main

    argv = list(args or []) or list(DEFAULT)
    if not any(a == "--out" or a.startswith("--out=") for a in argv):
        argv += ["--out", str(RESULTS / "bench")]
    return main(["bench", *argv])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
