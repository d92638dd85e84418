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
is ``unknown`` with the limit named.  A position that is ``sign_only`` (Casino,
whose exact score costs several times its sign) is decided by its sign alone,
by null-window searches (``Search.sign``); ``exact`` asks for the score.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from ..errors import InputError, UnsupportedError
from ..families import AnyLayout, family_of
from ..families.base import GamePosition
from ..limits import Limits
from ..result import EngineRun, Verdict
from .dfs import PROGRESS_EVERY, Progress

INF = float("inf")


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


TABLE_BYTES = 512 << 20  # the compiled search's table without --max-memory: 16 million entries of 32 bytes
ENTRY_BYTES = 32


def compiled_search_type() -> Any:
    """The compiled search (``minimax_core.CoreSearch``), or None where it is not built (it runs
    interpreted then, the same source, but only the tests ask for that)."""
    from .minimax_core import COMPILED, CoreSearch

    return CoreSearch if COMPILED else None


class Search:
    """One search: the table, the counters and the limits.  On a compiled game (a compiled
    ``GameCore``: Casino's) the nodes are searched by the compiled ``CoreSearch`` (``value``), with a
    table of fixed size (``limits.max_memory``, else ``TABLE_BYTES``); everything else here is
    shared.  ``core``: False for the Python search below on every game (``--core python``), or the
    ``CoreSearch`` type to run (the tests give the interpreted one over an interpreted game)."""

    def __init__(self, pos: GamePosition, limits: Limits, progress: Progress | None = None, core: Any = None):
        self.pos, self.limits, self.progress = pos, limits, progress
        self.table: dict[Any, tuple[Any, Any, Any]] = {}  # key -> (lower, upper) of the rest, best move
        self.nodes = 0
        self.start = time.perf_counter()
        self.deadline = None if limits.timeout is None else self.start + limits.timeout
        self.next_report = self.start + PROGRESS_EVERY
        self.core: Any = None
        if core is None:
            from ..families.game_core import COMPILED, GameCore

            core = compiled_search_type() if COMPILED and isinstance(pos, GameCore) else False
        if core:
            entries = (limits.max_memory or TABLE_BYTES) // ENTRY_BYTES
            try:
                self.core = core(pos, entries, limits.max_nodes, self._core_tick)
            except MemoryError:
                if limits.max_memory is None:
                    raise
                raise InputError(f"--max-memory: no room here for a table of {limits.max_memory >> 20} MiB "
                                 "(the compiled minimax allocates it whole at the start): give less") from None

    def table_size(self) -> int:
        return self.core.stored if self.core is not None else len(self.table)

    def stored_move(self) -> Any:
        """The move the table holds as best in the position now, or None."""
        if self.core is not None:
            return self.core.stored_move()
        entry = self.table.get(self.pos.key())
        return None if entry is None else entry[2]

    def _tick(self) -> None:
        self.nodes += 1
        self._check()

    def _core_tick(self, nodes: int, stored: int) -> None:
        self.nodes = nodes
        self._check()

    def _check(self) -> None:
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
                               "depth": len(self.pos.history), "table": self.table_size()})

    def value(self, alpha: Any = -INF, beta: Any = INF) -> Any:
        """The seat's result from here with both sides at their best, if it lies strictly inside
        (alpha, beta); else a bound on the far side of the window it fell out of."""
        if self.core is not None:
            try:
                return self.core.value(alpha, beta)
            finally:
                self.nodes = self.core.nodes
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

    def sign(self) -> int:
        """The sign of the value here (whole-number scores), by null windows: a search of (-1, 0)
        whose result is at most -1 bounds the value from above (lost); else the value is at least 0,
        and a search of (0, 1) tells at least 1 (won) from at most 0 (with the first, 0: drawn).
        Measured on Casino against one search of (-1, 1): 4-9% fewer nodes on lost deals (most of
        them), up to 6% more on won ones, 4% fewer on five deals in all."""
        if self.value(-1, 0) <= -1:
            return -1
        return 1 if self.value(0, 1) >= 1 else 0

    def within(self, lo: Any, hi: Any) -> bool:
        """Whether the value here lies in [lo, hi] (``-INF`` or ``INF`` for no bound that side)."""
        if lo == hi:
            return self.is_value(lo)
        if not self.pos.integral:
            return bool(lo <= self.value() <= hi)
        if lo > -INF and self.value(lo - 1, lo) < lo:
            return False
        return not (hi < INF and self.value(hi, hi + 1) > hi)

    def is_value(self, target: Any) -> bool:
        """Whether the value here is ``target`` (the window just around it, for whole numbers)."""
        if self.pos.integral:
            return bool(self.value(target - 1, target + 1) == target)
        return bool(self.value() == target)

    def line(self, lo: Any, hi: Any | None = None) -> list[Any]:
        """A line of play from here to the end along which the value stays in [lo, hi] (the value
        here must be in it; ``hi`` None: ``lo`` exactly, a line of best replies); the position is
        left as it was.  Where more than one move keeps it there, the move the table holds as best
        comes first: with a bound only (a sign), the other side's replies are those the search
        found hardest to beat."""
        pos = self.pos
        hi = lo if hi is None else hi
        moves: list[Any] = []
        while pos.side() != 0:
            order = pos.legal_moves()
            best = self.stored_move()
            if best is not None and best in order:
                order.remove(best)
                order.insert(0, best)
            for move in order:
                pos.push(move)
                if self.within(lo, hi):
                    moves.append(move)
                    break
                pos.pop()
            else:  # no move keeps the value there: the table lied (a bug, caught by the referee too)
                raise AssertionError("minimax: no move keeps the position's value")
        for _ in moves:
            pos.pop()
        return moves


def verdict_of(value: Any) -> Verdict:
    return "won" if value > 0 else "lost" if value < 0 else "drawn"


def shown(value: Any) -> str:
    """A value as the result shows it: ``3/2``, ``-1``, ``0``."""
    return str(Fraction(value))


def minimax(pos: GamePosition, limits: Limits | None = None, progress: Progress | None = None,
            exact: bool | None = None, core: Any = None) -> tuple[Verdict, str | None, Any, list[Any], Search]:
    """Search ``pos`` to the end: (verdict, reason, value, a line of play, the search).

    ``exact`` (default: unless the position is ``sign_only``): the value and a line of best replies
    reaching it.  Else the verdict from the value's sign alone (``Search.sign``): the value is then
    None unless it is 0 (drawn), and the line keeps the value on the verdict's side (won: at least 1
    for the seat, whatever the other side plays along it).  ``core`` as ``Search`` takes it."""
    search = Search(pos, limits or Limits(), progress, core)
    depth = len(pos.history)
    if exact is None:
        exact = not getattr(pos, "sign_only", False)
    try:
        if exact or not pos.integral:
            v = search.exact()
            moves = search.line(v)
        else:
            s = search.sign()
            v = 0 if s == 0 else None
            moves = search.line(*((1, INF), (0, 0), (-INF, -1))[1 - s])
    except _Stop as stop:
        while len(pos.history) > depth:
            pos.pop()
        return "unknown", stop.reason, None, [], search
    verdict = verdict_of(v if v is not None else s)
    return verdict, None, v, moves, search


def game_position(layout: AnyLayout, deal: Any, seat: str, core: str = "auto") -> tuple[GamePosition, str]:
    """The family's two-sided position for ``seat`` and which core it is: ``compiled`` where the
    family has a compiled game for it and the extension is built (``auto``; ``compiled`` insists,
    an ``UnsupportedError`` when it cannot), else ``python``."""
    family = family_of(layout)
    if core not in ("auto", "compiled", "python"):
        raise UnsupportedError(f"engine minimax: no core {core!r} here (cores: auto, compiled, python)")
    if core != "python":
        try:
            if compiled_search_type() is None:
                raise UnsupportedError("--core compiled: the compiled minimax is not built")
            return family.compiled_game(layout, deal, seat), "compiled"
        except UnsupportedError:
            if core == "compiled":
                raise
    return family.game_position(layout, deal, seat), "python"


def run_minimax(layout: AnyLayout, deal: Any, limits: Limits, **options: Any) -> EngineRun:
    """The ``minimax`` engine: the family's two-sided position for the ``seat`` option (default:
    the family's first seat), searched to the end; ``exact`` as ``minimax`` takes it, ``core`` as
    ``game_position``."""
    family = family_of(layout)
    seat = options.get("seat") or family.seats(layout)[0]
    pos, core = game_position(layout, deal, seat, options.get("core") or "auto")
    verdict, reason, v, moves, search = minimax(pos, limits, options.get("progress"), options.get("exact"),
                                                None if core == "compiled" else False)
    line = []
    for m in moves:
        line.append(pos.move_json(m))
        pos.push(m)
    for _ in moves:
        pos.pop()
    stats: dict[str, Any] = {"table": search.table_size(), "core": core}
    if v is None and verdict in ("won", "lost"):  # the sign alone: the score is a bound
        stats["score_at_least" if verdict == "won" else "score_at_most"] = 1 if verdict == "won" else -1
    return EngineRun(verdict, reason, line if verdict != "unknown" else None, search.nodes,
                     stats, seat=seat, score=None if v is None else shown(v))
