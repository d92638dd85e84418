"""The ``finder`` engine: a guided search that only ever reports wins.

The DFS (``dfs``) is complete: it proves losses, and it finds a win where its move order leads it.
In deep, liberal games (Spider, Forty Thieves, the debutante family's tight deals) a depth-first
order that takes a bad turn early spends its whole budget under that turn.  The finder looks at
many lines side by side instead, and keeps the most promising:

**Beam search** over decisions.  A *level* holds positions reached by the same number of
decisions (a decision is a legal move and the forced moves after it).  Every position of the
level is expanded; each child that is new (its transposition key not seen before by this run),
not won, and not cut by one of the family's sound bounds (``is_dead``) is scored by the family's
*evaluation* (lower is better) and put in its *bucket* (the evaluation's, e.g. Spider's rows
left to deal, so that positions before and after a deal do not crowd each other out).  The best
``width`` children of each bucket make the next level.  A won child ends the search: its line is
the win.  When a level comes out empty, the run starts again with twice the width (a fresh set
of positions seen) and the evaluation's next rating (``rates``: a family may give several,
taken in turn, where one alone leaves deals the others win): the search goes on until the time
or node limit, and answers ``unknown``.

**Shaken** (``shake``): a second beam that differs from the first.  Its restarts keep the width
(not doubled) and, from the second run on, each child's score is moved by a seeded random
``-shake..shake`` (``random_seed``), so that each run keeps other positions than the last.  A beam
is sensitive to its ordering in a way no single weight set cures; two different beams side by side
win deals neither wins alone (Forty Thieves 41..70 at 6 million nodes a deal: the plain beam 16,
the shaken one 17, the two together 19; ``solver/families/tableau/evaluate.py``).  The portfolio
runs it as the part ``finder-shaken`` where it is asked for (``parts``).

What it claims: only ``won``, with the moves played, which the portfolio (and ``patience
solve``) has the referee replay.  A level that dies out proves nothing (the beam left lines
out), so the finder never says ``lost``; it is tested never to (``tests/test_finder.py``).

Moving between the positions of a level: each kept position is a node of a tree of decisions
(its parent and its move); the level is expanded in the order the nodes were made, which is the
tree's depth-first order, so going from one node to the next pops back to their common ancestor
and pushes down again, a few moves each time, on the one position object.

The evaluation is the family's (``GameFamily.evaluation``): a module of functions over the
position beside its bounds (``solver/families/tableau/evaluate.py``, ...).  A family without one
is refused (``UnsupportedError``), and a portfolio gives its seat to the next part.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..families import AnyLayout, family_of
from ..families.base import Rate, solution_json
from ..limits import Limits
from ..result import SEARCH, EngineRun
from .core import start_position

# Positions kept per bucket at the first run (doubled at each restart).
WIDTH = 200
# Bytes a position seen costs on average (its key and the set's slot), for --max-memory.
BYTES_PER_SEEN = 200
# The clock is read every this many children.
CHECK_EVERY = 256

Progress = Callable[[dict[str, float | int]], None]


class _Node:
    """A position of the beam: its parent, the decision from there, its depth in decisions."""

    __slots__ = ("parent", "move", "depth")

    def __init__(self, parent: _Node | None, move: int, depth: int):
        self.parent, self.move, self.depth = parent, move, depth


class _Line:
    """The one position object, moved from node to node by pops and pushes."""

    def __init__(self, pos: Any, use_forced: bool):
        self.pos = pos
        self.use_forced = use_forced
        self.nodes: list[_Node] = []  # the nodes on the current line, root excluded
        self.pushes: list[int] = []  # pushes per decision on the line

    def push(self, move: int) -> int:
        """Play a decision (the move and the forced moves after it); how many pushes it took."""
        pos = self.pos
        pos.push(move)
        n = 1
        if self.use_forced:
            while (m := pos.forced_move()) is not None:
                pos.push(m)
                n += 1
        return n

    def undo(self, n: int) -> None:
        for _ in range(n):
            self.pos.pop()

    def goto(self, node: _Node | None) -> None:
        """Make the position the one at ``node`` (None: the root)."""
        target: list[_Node] = []
        x = node
        depth = 0 if node is None else node.depth
        line = self.nodes
        while len(line) > depth:  # back to the target's depth
            line.pop()
            self.undo(self.pushes.pop())
        while x is not None and (len(line) < x.depth or line[x.depth - 1] is not x):
            if len(line) >= x.depth:  # not on the line: step back past its depth too
                line.pop()
                self.undo(self.pushes.pop())
            target.append(x)
            x = x.parent
        for y in reversed(target):
            self.pushes.append(self.push(y.move))
            line.append(y)


def beam(pos: Any, rates: Sequence[Rate], limits: Limits, *,
         width: int = WIDTH, use_forced: bool = True, progress: Progress | None = None,
         progress_every: float = 0.5, shake: int = 0,
         random_seed: int = 0) -> tuple[str, str | None, list[int], dict[str, Any]]:
    """Beam search from ``pos`` (the module text), its runs rated by ``rates`` in turn:
    ``(verdict, reason, moves, stats)`` with
    verdict ``won`` (``moves``: the pushes from ``pos`` that win) or ``unknown``; ``pos`` is
    restored to where it started.  ``shake``: the shaken beam's noise (0: none), seeded by
    ``random_seed``."""
    rng = random.Random(random_seed)
    start = time.perf_counter()
    deadline = None if limits.timeout is None else start + limits.timeout
    max_seen = None if limits.max_memory is None else max(1024, limits.max_memory // BYTES_PER_SEEN)
    depth0 = len(pos.history)  # primitive moves (a push may play several)
    line = _Line(pos, use_forced)
    nodes = 0
    runs = 0
    levels = 0
    next_report = start + progress_every
    stats: dict[str, Any] = {}

    def finish(verdict: str, reason: str | None, pushed: int = 0) -> tuple[str, str | None, list[int], dict[str, Any]]:
        """The answer; the position restored (``pushed``: pushes past the line's node to take back).
        A win's moves are the position's history (the primitive moves, as the DFS reports them)."""
        moves = list(pos.history[depth0:]) if verdict == "won" else []
        line.undo(pushed)
        line.goto(None)
        line.undo(root_pushes)
        stats.update(nodes=nodes, runs=runs, levels=levels, width=width,
                     seconds=round(time.perf_counter() - start, 4))
        return verdict, reason, moves, stats

    root_pushes = 0  # the root's forced moves, taken back by ``finish``
    if use_forced:
        while (m := pos.forced_move()) is not None:
            pos.push(m)
            root_pushes += 1
    if pos.is_won():
        return finish("won", None)
    while True:
        runs += 1
        rate = rates[(runs - 1) % len(rates)]
        noise = shake if runs > 1 else 0
        seen: set[bytes] = {pos.key()}
        level: list[_Node | None] = [None]
        while level:
            levels += 1
            kept: dict[int, list[tuple[int, int, _Node]]] = {}
            made = 0
            for node in level:
                line.goto(node)
                depth = 0 if node is None else node.depth
                for m in pos.legal_moves():
                    nodes += 1
                    if nodes % CHECK_EVERY == 0:
                        now = time.perf_counter()
                        if deadline is not None and now > deadline:
                            return finish("unknown", f"timeout {limits.timeout:g} s")
                        if progress is not None and now >= next_report:
                            next_report = now + progress_every
                            progress({"seconds": now - start, "nodes": nodes,
                                      "nodes_per_second": nodes / max(now - start, 1e-9),
                                      "depth": depth, "table": len(seen)})
                    if limits.max_nodes is not None and nodes > limits.max_nodes:
                        return finish("unknown", f"max-nodes {limits.max_nodes}")
                    n = line.push(m)
                    if pos.is_won():
                        return finish("won", None, n)
                    key = pos.key()
                    if key not in seen and pos.is_dead() is None:
                        seen.add(key)
                        made += 1
                        child = _Node(node, m, depth + 1)
                        bucket, score = rate(pos)
                        if noise:
                            score += rng.randint(-noise, noise)
                        heap = kept.setdefault(bucket, [])
                        item = (-score, -made, child)  # a heap of the worst kept on top
                        if len(heap) < width:
                            heapq.heappush(heap, item)
                        elif item > heap[0]:
                            heapq.heapreplace(heap, item)
                    line.undo(n)
            if max_seen is not None and len(seen) > max_seen:
                seen.clear()  # costs repeated work, never a wrong answer (the finder proves no loss)
            # the next level in the order its nodes were made: the tree's depth-first order
            level = [it[2] for it in sorted((it for heap in kept.values() for it in heap), key=lambda it: -it[1])]
        line.goto(None)
        if not shake:
            width *= 2


def run_finder(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``finder`` engine: ``beam`` from the family's start position with the family's
    evaluation (``GameFamily.evaluation``; refused where it has none), the position's moves
    narrowed to the evaluation's (``focus``; ``focus=False`` keeps them all); ``width`` the
    positions kept per bucket at the first run (default the evaluation's ``WIDTH``); ``shake`` and
    ``random_seed``: the shaken beam (the module text)."""
    family = family_of(layout)
    evaluation = family.evaluation(layout)
    pos, core = start_position(layout, deal, options.get("core") or "auto")
    evaluation.focus(pos, options.get("focus", True))
    try:
        verdict, reason, moves, stats = beam(pos, evaluation.rates(), limits,
                                             width=options.get("width") or evaluation.WIDTH,
                                             progress=options.get("progress"),
                                             progress_every=options.get("progress_every") or 0.5,
                                             shake=options.get("shake") or 0,
                                             random_seed=options.get("random_seed") or 0)
    finally:
        evaluation.focus(pos, False)
    solution = solution_json(pos, moves) if verdict == "won" else None
    stats.update(core=core)
    if verdict == "won":
        stats["decided_by"] = SEARCH
    nodes = stats.pop("nodes")
    return EngineRun(verdict, reason, solution, nodes, stats)  # type: ignore[arg-type]
