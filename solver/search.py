"""Depth-first search with a memoised transposition table, over any ``Position``.

The search is complete: it returns ``won`` with the moves that win, ``lost``
when every reachable position was explored (or cut by a sound bound), and
``unknown`` with the limit named when a node, time or memory limit stopped it.

The table remembers the keys of positions already entered.  In an acyclic
game every such position either is on the current line or was searched to
the end without a win, so meeting it again can be skipped.  Keys on the
current line are kept apart, so cycles are cut even after eviction.

Eviction: the table holds at most ``max_entries`` keys.  When it is full,
the older half (in insertion order) is dropped.  A dropped key only means
that its position may be searched again: more work, never a wrong verdict.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .game import Position

# Bytes a table entry costs on average (key object plus dict slot), measured
# on debutante keys; used to turn --max-memory into an entry count.
BYTES_PER_ENTRY = 400


@dataclass
class Limits:
    max_nodes: int | None = None
    timeout: float | None = None  # seconds
    max_memory: int | None = None  # bytes for the transposition table

    def max_entries(self) -> int | None:
        return None if self.max_memory is None else max(64, self.max_memory // BYTES_PER_ENTRY)


@dataclass
class Outcome:
    verdict: str  # "won", "lost", "unknown"
    reason: str | None = None
    moves: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    table_size: int = 0
    evictions: int = 0


class _Table:
    """Keys of positions already entered, bounded by ``max_entries``."""

    def __init__(self, max_entries: int | None):
        self.max_entries = max_entries
        self.keys: dict[Any, None] = {}
        self.evictions = 0

    def add(self, key: Any) -> None:
        self.keys[key] = None
        if self.max_entries is not None and len(self.keys) > self.max_entries:
            keep = list(self.keys)[len(self.keys) // 2:]
            self.keys = dict.fromkeys(keep)
            self.evictions += 1


def dfs(pos: Position, limits: Limits | None = None, *, use_forced: bool = True,
        use_bounds: bool = True) -> Outcome:
    """Search ``pos`` depth first; ``pos`` is restored to where it started."""
    limits = limits or Limits()
    start = time.perf_counter()
    deadline = None if limits.timeout is None else start + limits.timeout
    max_nodes = limits.max_nodes
    table = _Table(limits.max_entries())
    seen = table.keys
    on_line: set[Any] = set()
    depth0 = len(pos.history)
    nodes = 0

    def play_forced() -> int:
        n = 0
        if use_forced:
            while (m := pos.forced_move()) is not None:
                pos.push(m)
                n += 1
        return n

    def finish(verdict: str, reason: str | None = None) -> Outcome:
        moves = list(pos.history[depth0:]) if verdict == "won" else []
        while len(pos.history) > depth0:
            pos.pop()
        return Outcome(verdict, reason, moves, nodes, time.perf_counter() - start,
                       len(seen), table.evictions)

    # A frame: the moves still to try here, how many pushes lead here
    # (the move plus the forced moves after it), and this position's key.
    stack: list[tuple[list[Any], int, Any]] = []

    def enter(pushed: int) -> bool:
        """At a fresh position: True if it needs searching (a new frame was pushed)."""
        if pos.is_won():
            return True
        key = pos.key()
        if key in seen or key in on_line or (use_bounds and pos.is_dead()):
            for _ in range(pushed):
                pos.pop()
            return False
        on_line.add(key)
        stack.append((pos.legal_moves()[::-1], pushed, key))
        return False

    if enter(play_forced()):
        return finish("won")
    while stack:
        moves, pushed, key = stack[-1]
        if not moves:
            stack.pop()
            on_line.discard(key)
            table.add(key)
            seen = table.keys
            for _ in range(pushed):
                pos.pop()
            continue
        nodes += 1
        if nodes & 1023 == 0:
            if deadline is not None and time.perf_counter() > deadline:
                return finish("unknown", f"timeout {limits.timeout:g} s")
        if max_nodes is not None and nodes > max_nodes:
            return finish("unknown", f"max-nodes {max_nodes}")
        pos.push(moves.pop())
        if enter(1 + play_forced()):
            return finish("won")
    return finish("lost")
