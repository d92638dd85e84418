"""Minimax with alpha-beta pruning and a transposition table, over any ``GamePosition``.

For games of two sides over a known order (the games of chance on a known
shuffle, ``solver.families.chance``): the side the seat plays maximises the
seat's result, the other side minimises it, every card's place known to both.
The search is complete: its value is the seat's result when both sides play
their best, and the line it returns is one pair of best replies, which the
family's referee replays.

The table.  A position's key names everything that decides the rest of the
game; what the seat has already earned (``banked``) is kept out of it, so the
table stores the value of the rest, ``value - banked``, as a lower and an upper
bound.  Alpha-beta's value outside its window is a bound, not the value: a
result at or below alpha is stored as an upper bound, at or above beta as a
lower bound, and only one inside the window as exact, so a later visit with
another window can use the entry soundly (the standard fail-hard table).

Verdict: the seat's value > 0 ``won``, < 0 ``lost``, 0 ``drawn``; a limit hit
is ``unknown`` with the limit named.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from ..families import AnyLayout, family_of
from ..families.base import GamePosition
from ..limits import Limits
from ..result import EngineRun, Verdict
from .dfs import PROGRESS_EVERY, Progress

INF = float("inf")


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


class Search:
    """One search: the table, the counters and the limits."""

    def __init__(self, pos: GamePosition, limits: Limits, progress: Progress | None = None):
        self.pos, self.limits, self.progress = pos, limits, progress
        self.table: dict[Any, tuple[Any, Any, Any]] = {}  # key -> (lower, upper) of the rest, best move
        self.nodes = 0
        self.start = time.perf_counter()
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        self.next_report = self.start + PROGRESS_EVERY

    def _tick(self) -> None:
        self.nodes += 1
        if self.limits.max_nodes is not None and self.nodes > self.limits.max_nodes:
            raise _Stop(f"max-nodes {self.limits.max_nodes}")
        if self.nodes & 1023 == 0 and (self.deadline is not None or self.progress is not None):
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                raise _Stop(f"timeout {self.limits.timeout:g} s")
            if self.progress is not None and now >= self.next_report:
                self.next_report = now + PROGRESS_EVERY
                self.progress({"seconds": now - self.start, "nodes": self.nodes,
                               "nodes_per_second": self.nodes / max(now - self.start, 1e-9),
                               "depth": len(self.pos.history), "table": len(self.table)})

    def value(self, alpha: Any = -INF, beta: Any = INF) -> Any:
        """The seat's result from here with both sides at their best, if it lies strictly inside
        (alpha, beta); else a bound on the far side of the window it fell out of."""
        pos = self.pos
        side = pos.side()
        if side == 0:
            return pos.score()
        self._tick()
        banked = pos.banked()
        key = pos.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            lo, hi = entry[0] + banked, entry[1] + banked
            first = entry[2]
        else:  # the position's own sound bounds on what is still to come
            rest_lo, rest_hi = pos.bounds()
            lo, hi = rest_lo + banked, rest_hi + banked
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        best: Any = -INF if side > 0 else INF
        best_move = None
        moves = pos.legal_moves()
        if first is not None and first in moves:  # the move that was best last time, first
            moves.remove(first)
            moves.insert(0, first)
        for move in moves:
            pos.push(move)
            v = self.value(alpha, beta)
            pos.pop()
            if side > 0:
                if v > best:
                    best, best_move = v, move
                alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_move = v, move
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo - banked, hi - banked, best_move)
        return best

    def mtdf(self, guess: int = 0) -> int:
        """The exact value of a game scored in whole numbers, by null-window searches closing in on
        it (MTD(f), Plaat et al. 1996): each search of the window (beta - 1, beta) says whether the
        value is below beta; the table carries their work from one to the next."""
        lower: Any = -INF
        upper: Any = INF
        g = guess
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self.value(beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    def exact(self) -> Any:
        """The exact value here: MTD(f) for whole-number scores, one open-window search otherwise."""
        return self.mtdf() if self.pos.integral else self.value()

    def is_value(self, target: Any) -> bool:
        """Whether the value here is ``target`` (the window just around it, for whole numbers)."""
        if self.pos.integral:
            return bool(self.value(target - 1, target + 1) == target)
        return bool(self.value() == target)

    def line(self, target: Any) -> list[Any]:
        """A line of best replies from here to the end, reaching ``target`` (the exact value here);
        the position is left as it was."""
        pos = self.pos
        moves: list[Any] = []
        while pos.side() != 0:
            for move in pos.legal_moves():
                pos.push(move)
                if self.is_value(target):
                    moves.append(move)
                    break
                pos.pop()
            else:  # no move reaches the value: the table lied (a bug, caught by the referee too)
                raise AssertionError("minimax: no move reaches the position's value")
        for _ in moves:
            pos.pop()
        return moves


def verdict_of(value: Any) -> Verdict:
    return "won" if value > 0 else "lost" if value < 0 else "drawn"


def shown(value: Any) -> str:
    """A value as the result shows it: ``3/2``, ``-1``, ``0``."""
    return str(Fraction(value))


def minimax(pos: GamePosition, limits: Limits | None = None,
            progress: Progress | None = None) -> tuple[Verdict, str | None, Any, list[Any], Search]:
    """Search ``pos`` to the end: (verdict, reason, value, line of best replies, the search)."""
    search = Search(pos, limits or Limits(), progress)
    depth = len(pos.history)
    try:
        v = search.exact()
        moves = search.line(v)
    except _Stop as stop:
        while len(pos.history) > depth:
            pos.pop()
        return "unknown", stop.reason, None, [], search
    return verdict_of(v), None, v, moves, search


def run_minimax(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``minimax`` engine: the family's two-sided position for the ``seat`` option (default:
    the family's first seat), searched to the end."""
    family = family_of(layout)
    seat = options.get("seat") or family.seats(layout)[0]
    pos = family.game_position(layout, deal, seat)
    verdict, reason, v, moves, search = minimax(pos, limits, options.get("progress"))
    line = []
    for m in moves:
        line.append(pos.move_json(m))
        pos.push(m)
    for _ in moves:
        pos.pop()
    return EngineRun(verdict, reason, line if verdict != "unknown" else None, search.nodes,
                     {"table": len(search.table)}, seat=seat, score=None if v is None else shown(v))
