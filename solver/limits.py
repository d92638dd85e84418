"""The limits a caller puts on one solve: nodes, seconds, memory.

A search stopped by a limit answers ``unknown`` and names the limit; limits
never change a ``won`` or ``lost``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_nodes: int | None = None
    timeout: float | None = None  # seconds
    max_memory: int | None = None  # bytes for the transposition table
