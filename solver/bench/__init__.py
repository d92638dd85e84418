"""``patience bench``: every engine and every peer on the same deals, side by side.

- ``session.py``: one run (layouts x engines x seeds; peers; perft; scaling) into a report dict
- ``runner.py``: deals solved one at a time per worker process; rows and summaries
- ``perft.py``: the raw speed of the engine core (move generation, push/pop, keys)
- ``peers.py``: other solvers (fc-solve) and the parser of their output
- ``report.py`` / ``plots.py``: ``bench.json``, ``bench.md`` and PNG plots
- ``machine.py``: what the numbers were measured on
"""

from __future__ import annotations

from .report import write
from .runner import Target
from .session import Config, check, run

__all__ = ["Config", "Target", "check", "run", "write"]
