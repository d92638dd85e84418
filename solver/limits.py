"""The limits a caller puts on one solve: nodes, seconds, memory.

A search stopped by a limit answers ``unknown`` and names the limit; limits
never change a ``won`` or ``lost``.
"""

from __future__ import annotations

from dataclasses import dataclass

# The most nodes a limit may say: 10**18, beyond any search (30 years at a billion nodes a second)
# and within the compiled cores' 64-bit counters.  A larger ``max_nodes`` is this one (the command
# line refuses it: ``options.node_count``).
MAX_NODES = 10**18
# The longest time limit: 10**9 s, about 31 years; a longer ``timeout`` is this one (the command
# line refuses it: ``options.seconds_or_none``), so that node budgets derived from it stay integers.
MAX_SECONDS = 10**9


@dataclass(frozen=True)
class Limits:
    max_nodes: int | None = None
    timeout: float | None = None  # seconds
    max_memory: int | None = None  # bytes for the transposition table

    def __post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes > MAX_NODES:
            object.__setattr__(self, "max_nodes", MAX_NODES)
        if self.timeout is not None and self.timeout > MAX_SECONDS:
            object.__setattr__(self, "timeout", float(MAX_SECONDS))
