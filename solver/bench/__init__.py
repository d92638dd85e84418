"""``patience bench``: every engine, on every core, and every peer on the same deals, side by side.

- ``plan.py``: the layouts (``NAME@R``), each one's seeds, the runners (engines on cores, peers)
- ``session.py``: one run into a folder: solve what is not stored yet, then write the tables
- ``store.py``: the folder's deals file, one line per finished deal (resumable, interrupt-safe)
- ``runner.py``: deals solved one at a time per worker process
- ``summary.py``: summaries per group, comparisons of two runners on the same deals
- ``peers.py``: other solvers (fc-solve, the freecell-solver library) and how to run them
- ``perft.py``: the raw speed of the engine core (move generation, push/pop, keys)
- ``report.py`` / ``plots.py``: ``bench.json``, ``bench.md`` and a PNG plot
- ``machine.py``: what the numbers were measured on, and how busy it was
"""

from __future__ import annotations

from .plan import Config, Runner, Target, seed_plan
from .report import prepare_out, write
from .session import Outcome, check, run

__all__ = ["Config", "Outcome", "Runner", "Target", "check", "prepare_out", "run", "seed_plan", "write"]
