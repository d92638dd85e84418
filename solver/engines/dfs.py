"""Depth-first search with a memoised transposition table, over any ``Position``.

The search is complete: it returns ``won`` with the moves that win, ``lost``
when every reachable position was explored (or cut by a sound bound), and
``unknown`` with the limit named when a node, time or memory limit stopped it.

The table remembers the keys of positions already entered.  In an acyclic
game every such position either is on the current line or was searched to
the end without a win, so meeting it again can be skipped.  Keys on the
current line are kept apart, so cycles are cut even after eviction.

Restarts (``Restarts``, on by default in the ``dfs`` engine): the search runs
in rounds with growing node budgets and a lightly shaken move order, keeping
the table between rounds, so one bad early turn cannot swallow the budget of a
won deal; verdicts stay exactly as complete (measured: colorado seeds the
plain search left unknown at 15 s were won; black-hole and golf unchanged).

Eviction: the table holds at most ``max_entries`` keys.  When it is full,
the older half (in insertion order) is dropped.  A dropped key only means
that its position may be searched again: more work, never a wrong verdict.

The compiled core (issue #15): ``compiled_dfs`` runs the same search, node for
node, in C (``_dfs.pyx``) over a family's compiled position; ``run_dfs`` picks
it where it is available (``solver.engines.core``, the ``core`` option).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..families import AnyLayout
from ..families.base import Position, solution_json
from ..limits import Limits
from ..result import EngineRun, Verdict
from .core import start_position

# Seconds between two calls of a ``progress`` callback (about: the clock is read every 1024 nodes).
PROGRESS_EVERY = 0.5
# ``progress(stats)``: a live report of a running search (see ``dfs``).
Progress = Callable[[dict[str, float | int]], None]

# Bytes a table entry costs on average (key object plus dict slot), measured
# on debutante keys; used to turn --max-memory into an entry count.
BYTES_PER_ENTRY = 400


def max_entries(limits: Limits) -> int | None:
    """The table size that ``limits.max_memory`` allows."""
    return None if limits.max_memory is None else max(64, limits.max_memory // BYTES_PER_ENTRY)


@dataclass
class Outcome:
    verdict: Verdict
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


@dataclass
class Restarts:
    """Restart the search now and then, with the move order shaken a little.

    A depth-first search that takes a bad early turn in a won deal can spend
    its whole budget under that turn.  With restarts, run ``i`` may search at
    most ``base * luby(i)`` nodes (the Luby sequence 1, 1, 2, 1, 1, 2, 4, ...)
    before starting again from the root; from the second run on, at each
    position the first move is swapped with another at random with
    probability ``noise``.  The table of exhausted positions is kept across
    runs: a position enters it only when its whole subtree was searched
    without a win, whatever run did it, so later runs never search it again
    and a run that exhausts the root proves the deal lost, as a single
    search would.  ``seed`` fixes the shaking, so runs repeat exactly.
    """

    base: int = 100
    noise: float = 0.08
    seed: int = 0


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    while (i + 1) & i:  # i + 1 is not a power of two: the term repeats an earlier one
        i -= (1 << (i.bit_length() - 1)) - 1
    return (i + 1) >> 1


def dfs(pos: Position, limits: Limits | None = None, *, use_forced: bool = True,
        use_bounds: bool = True, restarts: Restarts | None = None,
        progress: Progress | None = None, table: _Table | None = None) -> Outcome:
    """Search ``pos`` depth first; ``pos`` is restored to where it started.

    With ``restarts``, the search is a series of runs with growing node
    budgets (see ``Restarts``); the last verdict is as complete as without.
    ``progress``, if given, is called about every ``PROGRESS_EVERY`` seconds with
    ``seconds``, ``nodes``, ``nodes_per_second``, ``depth`` (moves from the start
    of the search) and ``table`` (positions in the transposition table); the
    clock is read every 1024 nodes, as for the timeout.  ``table``: the table of
    earlier searches to start from and add to (``SharedTable``); None: a new one
    bounded by ``limits.max_memory``.
    """
    limits = limits or Limits()
    start = time.perf_counter()
    next_report = start + PROGRESS_EVERY
    deadline = None if limits.timeout is None else start + limits.timeout
    max_nodes = limits.max_nodes
    table = _Table(max_entries(limits)) if table is None else table
    on_line: set[Any] = set()
    root_dead: list[str] = []  # the bound that cut the deal itself, if one did
    depth0 = len(pos.history)
    nodes = 0
    rng = random.Random(restarts.seed if restarts else 0)
    noise = 0.0

    def play_forced() -> int:
        n = 0
        if use_forced:
            while (m := pos.forced_move()) is not None:
                pos.push(m)
                n += 1
        return n

    def unwind() -> None:
        while len(pos.history) > depth0:
            pos.pop()

    def finish(verdict: Verdict, reason: str | None = None) -> Outcome:
        moves = list(pos.history[depth0:]) if verdict == "won" else []
        unwind()
        return Outcome(verdict, reason, moves, nodes, time.perf_counter() - start,
                       len(table.keys), table.evictions)

    # A frame: the moves still to try here, how many pushes lead here
    # (the move plus the forced moves after it), and this position's key.
    stack: list[tuple[list[Any], int, Any]] = []

    def enter(pushed: int) -> bool:
        """At a fresh position: True if it needs searching (a new frame was pushed)."""
        if pos.is_won():
            return True
        key = pos.key()
        if key in table.keys or key in on_line:
            for _ in range(pushed):
                pos.pop()
            return False
        if use_bounds and (why := pos.is_dead()):
            table.add(key)  # dead is exhausted: never bound again
            if not stack:
                root_dead.append(why)
            for _ in range(pushed):
                pos.pop()
            return False
        on_line.add(key)
        moves = pos.legal_moves()
        if noise and len(moves) > 1 and rng.random() < noise:
            j = rng.randrange(1, len(moves))
            moves[0], moves[j] = moves[j], moves[0]
        stack.append((moves[::-1], pushed, key))
        return False

    run = 0
    while True:
        run += 1
        budget = None if restarts is None else nodes + restarts.base * luby(run)
        noise = 0.0 if restarts is None or run == 1 else restarts.noise
        if enter(play_forced()):
            return finish("won")
        while stack:
            moves, pushed, key = stack[-1]
            if not moves:
                stack.pop()
                on_line.discard(key)
                table.add(key)
                for _ in range(pushed):
                    pos.pop()
                continue
            nodes += 1
            if nodes & 1023 == 0 and (deadline is not None or progress is not None):
                now = time.perf_counter()
                if deadline is not None and now > deadline:
                    return finish("unknown", f"timeout {limits.timeout:g} s")
                if progress is not None and now >= next_report:
                    next_report = now + PROGRESS_EVERY
                    progress({"seconds": now - start, "nodes": nodes,
                              "nodes_per_second": nodes / max(now - start, 1e-9),
                              "depth": len(pos.history) - depth0, "table": len(table.keys)})
            if max_nodes is not None and nodes > max_nodes:
                return finish("unknown", f"max-nodes {max_nodes}")
            if budget is not None and nodes >= budget:
                break  # this run's budget is spent: restart from the root
            pos.push(moves.pop())
            if enter(1 + play_forced()):
                return finish("won")
        else:
            return finish("lost", root_dead[0] if root_dead else None)
        stack.clear()
        on_line.clear()
        unwind()


def compiled_dfs(pos: Any, limits: Limits | None = None, *, use_forced: bool = True, use_bounds: bool = True,
                 restarts: Restarts | None = None, progress: Progress | None = None,
                 max_entries: int | None = None, table: Any = None) -> Outcome:
    """``dfs`` compiled: the same search node for node over a compiled position
    (``solver.families.core.CorePosition``), with the same ``Outcome`` (moves as codes) and the
    same ``progress`` reports.

    ``max_entries`` bounds the table; by default ``limits.max_memory`` divided by what an
    entry of the compiled table costs (``_dfs.table_bytes_per_entry``).  ``table``: a compiled
    table (``_dfs.KeyTable``) of earlier searches to start from and add to (``SharedTable``).
    """
    from ._dfs import search, table_bytes_per_entry  # the extension: imported only where it is built

    limits = limits or Limits()
    if max_entries is None and limits.max_memory is not None:
        max_entries = max(64, limits.max_memory // table_bytes_per_entry(len(pos.key())))
    rng = random.Random(restarts.seed if restarts else 0)
    verdict, reason, moves, nodes, seconds, size, evictions, _ = search(
        pos, limits.max_nodes, limits.timeout, max_entries, use_forced, use_bounds,
        None if restarts is None else (restarts.base, restarts.noise), rng, progress, PROGRESS_EVERY, table)
    return Outcome(verdict, reason, moves, nodes, seconds, size, evictions)


class SharedTable:
    """The exhausted keys of searches kept for the next ones, on one game (``solver.analysis``).

    A key the search exhausts is a position from which it found no win, searching everything
    under it.  In a game where no position can come back (no cycle) nothing under it was cut
    for lying on the current line, so it is a lost position, whatever search met it and from
    whatever start (the bounds' and dominances' cuts are sound from any position).  Searches
    from other positions of the same game may skip it too, provided a key means the same
    position from any of their starts.  Both are the family's to promise
    (``GameFamily.shares_table``); the caller checks it.  One table per core (their keys
    differ), made by the first search on it and bounded by that search's ``limits.max_memory``.
    """

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}

    def table(self, core: str, pos: Any, limits: Limits) -> Any:
        if core not in self.tables:
            if core == "compiled":
                from ._dfs import KeyTable, table_bytes_per_entry

                most = -1 if limits.max_memory is None else max(
                    64, limits.max_memory // table_bytes_per_entry(len(pos.key())))
                self.tables[core] = KeyTable(most)
            else:
                self.tables[core] = _Table(max_entries(limits))
        return self.tables[core]

    def __len__(self) -> int:
        return sum(len(t.keys) if isinstance(t, _Table) else len(t) for t in self.tables.values())


def run_dfs(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``dfs`` engine: the search from the family's start position, with restarts unless
    ``restarts=False``; ``use_forced``/``use_bounds`` switch the dominances and bounds off;
    ``core`` chooses the compiled or the pure-Python search (``core.CORES``, or ``auto``: compiled where
    it is built and the family has a compiled position; any other is refused); ``shared``, a
    ``SharedTable`` to start from and add to (only where ``GameFamily.shares_table`` says so)."""
    pos, core = start_position(layout, deal, options.get("core") or "auto")
    restarts = None
    if options.get("restarts", True):
        restarts = Restarts(seed=options.get("random_seed") or 0)
    shared = options.get("shared")
    table = None if shared is None else shared.table(core, pos, limits)
    search = compiled_dfs if core == "compiled" else dfs
    out = search(pos, limits, use_forced=options.get("use_forced", True),
                 use_bounds=options.get("use_bounds", True), restarts=restarts, progress=options.get("progress"),
                 table=table)
    solution = solution_json(pos, out.moves) if out.verdict == "won" else None
    return EngineRun(out.verdict, out.reason, solution, out.nodes,
                     {"table": out.table_size, "evictions": out.evictions, "core": core})
