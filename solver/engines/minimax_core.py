"""The minimax search over a two-sided game with int moves and scores (``GameCore``), one source.

Written once in Cython's pure-Python mode (``solver/families/README.md``, "One source"): compiled
where a C compiler exists, interpreted otherwise (``COMPILED`` says which), the same search node
for node.  ``minimax.Search`` runs it on every ``GameCore`` (Casino's); its own Python search
serves the games whose scores are fractions (the twenty-one games, Lansquenet) and ``--core
python``.

``CoreSearch.value(alpha, beta)`` is alpha-beta with a transposition table (the window logic of
``minimax.Search.value``): the table stores, for each position met, bounds on the value of the
rest (the value less what is banked) and the best move found; a result at or below alpha is an
upper bound, at or above beta a lower bound, one strictly inside the window exact, so a later
visit with another window uses the entry soundly (a fail-hard table).  The move the table holds
as best is searched first, the others in the game's order.  Positions near the end (fewer than
``TT_MIN`` plies left) skip the table and are searched again when met again: the value is the
same (the table only saves work), the node count larger, the time shorter.

What else was measured and left out (Casino, the same five deals, nodes of the sign's searches):
killer moves (two a depth, tried after the table's move) and the history heuristic (captures and
trails by card, the rest ordered by cutoffs) each searched many times more nodes than the game's
own order (the history heuristic: 25 million for one deal the game's order decides in 1.6
million): Casino's order (sweeps, then the points won, trails by what they give away) is better
than what cutoffs learn.  Enhanced transposition cutoffs (each child looked up before any is
searched) saved 18% of the nodes and cost more than twice the time; only near the root they
saved nothing.

The table is a fixed array of buckets of ``WAYS`` entries, each entry four 64-bit words: the
position's whole key (two words, compared exactly: no hash stands for a position), the best
move, and the bounds with the plies left.  When a bucket is full the entry with the fewest plies
left gives way (the cheapest to search again); a table that fills only searches some positions
again.  The ``tick`` callable is called every 1024 nodes and past ``max_nodes``: it raises to
stop the search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..families.shadow import cython

if cython.compiled:
    from cython.cimports.libc.stdlib import calloc, free
    from cython.cimports.solver.families.game_core import GameCore, Moves, add
else:
    from ..families.game_core import GameCore, Moves, add

COMPILED = cython.compiled

INF = cython.declare(cython.int, 1000000)  # beyond any score: the open window's ends
WAYS = cython.declare(cython.int, 4)  # entries a bucket
WORDS = cython.declare(cython.int, 4)  # words an entry: the key (2), the best move, the bounds and plies
BIAS = cython.declare(cython.int, 32768)  # the bounds are stored plus BIAS, 16 bits each
# Positions with fewer plies left than this are neither looked up nor stored: searching their few
# moves again costs less than a probe, which misses the cache nearly always, and they leave the
# table's room to the positions worth it.  Measured on Casino (5 deals decided in 0.5-5 s, CPU
# time, sign searches): 0 (every position) 14.4 s, 4: 11.6 s, 5: 12.2 s, 6: 11.0 s, 7: 13.4 s,
# 8: 14.0 s, 10: 25.5 s; 6 searches 46% more nodes in 24% less time.
TT_MIN = 6


class _Words(dict[int, int]):
    """The interpreted table: a word never written reads 0."""

    def __missing__(self, index: int) -> int:
        return 0


@cython.cclass
class CoreSearch:
    """One search of ``pos``: the table (``entries`` slots, a power of two, at least ``WAYS``), the
    counters."""

    pos: GameCore
    tt: cython.p_ulonglong  # entries * WORDS words (a list interpreted)
    raw: cython.p_void  # what calloc gave, ``tt`` its first cache line's boundary
    buckets: cython.ulonglong
    nodes = cython.declare(cython.longlong, visibility="readonly")
    stored = cython.declare(cython.longlong, visibility="readonly")
    entries = cython.declare(cython.longlong, visibility="readonly")
    max_nodes: cython.longlong
    tick: Any  # a Python object
    stack: Moves  # the moves of every node on the path, each node's after its parent's
    mask64: cython.ulonglong  # 2**64 - 1, and the hash's multipliers: fields, so that they are C
    mul0: cython.ulonglong  # words compiled (and wrap by ``& mask64`` interpreted)
    mul1: cython.ulonglong
    mul2: cython.ulonglong
    tt_min: cython.int  # the fewest plies left at which a position is looked up and stored

    def __init__(self, pos: GameCore, entries: int, max_nodes: int | None, tick: Callable[[int, int], None],
                 tt_min: int = TT_MIN):
        size = WAYS
        while size * 2 <= entries:
            size *= 2
        self.pos, self.tick, self.entries = pos, tick, size
        self.max_nodes = (1 << 62) if max_nodes is None else max_nodes
        self.buckets = size // WAYS
        self.nodes = self.stored = 0
        self.stack = Moves()
        self.tt_min = tt_min
        self.mask64 = (1 << 64) - 1
        self.mul0, self.mul1, self.mul2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
        if cython.compiled:
            # On a cache line's boundary (calloc's large blocks begin 16 bytes past a page's): a
            # bucket in two lines.
            nbytes: cython.size_t = size * WORDS * cython.sizeof(cython.ulonglong)
            self.raw = calloc(nbytes + 64, 1)
            if self.raw == cython.NULL:
                raise MemoryError(f"minimax: no room for a table of {size} entries")
            start: cython.size_t = cython.cast(cython.size_t, self.raw) + 63
            self.tt = cython.cast(cython.p_ulonglong, start - start % 64)
        else:  # only the words written are held (a word never written reads 0, as calloc's)
            self.tt = _Words()

    if cython.compiled:
        def __dealloc__(self) -> None:
            free(self.raw)

    @cython.cfunc
    @cython.exceptval(check=False)
    def bucket(self, k0: cython.ulonglong, k1: cython.ulonglong) -> cython.ulonglong:
        """The first word of the bucket of the key (k0, k1) (splitmix64's finaliser of a mix)."""
        z: cython.ulonglong = k0 ^ ((k1 * self.mul0) & self.mask64)
        z = ((z ^ (z >> 30)) * self.mul1) & self.mask64
        z = ((z ^ (z >> 27)) * self.mul2) & self.mask64
        z = z ^ (z >> 31)
        return (z & (self.buckets - 1)) * (WAYS * WORDS)

    @cython.cfunc
    @cython.exceptval(check=False)
    def find(self, k0: cython.ulonglong, k1: cython.ulonglong) -> cython.longlong:
        """The first word of the entry of the key (k0, k1), or -1."""
        b: cython.ulonglong = self.bucket(k0, k1)
        i: cython.int
        e: cython.ulonglong
        for i in range(WAYS):
            e = b + i * WORDS
            if self.tt[e + 3] != 0 and self.tt[e] == k0 and self.tt[e + 1] == k1:
                return e
        return -1

    @cython.cfunc
    @cython.exceptval(check=False)
    def store(self, k0: cython.ulonglong, k1: cython.ulonglong, lo: cython.int, hi: cython.int,
              move: cython.longlong, left: cython.int) -> cython.void:
        b: cython.ulonglong = self.bucket(k0, k1)
        slot: cython.longlong = -1
        i: cython.int
        e: cython.ulonglong
        plies: cython.ulonglong
        for i in range(WAYS):
            e = b + i * WORDS
            if self.tt[e + 3] != 0 and self.tt[e] == k0 and self.tt[e + 1] == k1:
                slot = e
                break
        if slot < 0:
            for i in range(WAYS):
                e = b + i * WORDS
                if self.tt[e + 3] == 0:
                    slot = e
                    self.stored += 1
                    break
        if slot < 0:  # the entry with the fewest plies left gives way
            slot = b
            for i in range(1, WAYS):
                e = b + i * WORDS
                if (self.tt[e + 3] & 255) < (self.tt[slot + 3] & 255):
                    slot = e
        plies = left + 1
        ulo: cython.ulonglong = lo + BIAS
        uhi: cython.ulonglong = hi + BIAS
        self.tt[slot] = k0
        self.tt[slot + 1] = k1
        self.tt[slot + 2] = move
        self.tt[slot + 3] = plies | (ulo << 8) | (uhi << 24)

    @cython.cfunc
    @cython.exceptval(-2000000, check=False)
    def search(self, alpha: cython.int, beta: cython.int) -> cython.int:
        pos: GameCore = self.pos
        side: cython.int = pos.c_side()
        banked: cython.int
        lo: cython.int
        hi: cython.int
        a0: cython.int
        b0: cython.int
        best: cython.int
        v: cython.int
        count: cython.int
        i: cython.int
        j: cython.int
        w: cython.ulonglong[2]
        bl: cython.int[1]
        bh: cython.int[1]
        if not cython.compiled:
            w, bl, bh = [0, 0], [0], [0]
        e: cython.longlong
        meta: cython.ulonglong
        stored_lo: cython.int
        stored_hi: cython.int
        first: cython.longlong = -1
        best_move: cython.longlong = -1
        m: cython.longlong
        base: cython.Py_ssize_t
        stack: Moves = self.stack
        if side == 0:
            return pos.c_score()
        self.nodes += 1
        if self.nodes > self.max_nodes or self.nodes & 1023 == 0:
            self.tick(self.nodes, self.stored)
        banked = pos.c_banked()
        left: cython.int = pos.c_plies_left()
        e = -1  # no entry (none looked up so near the end)
        if left >= self.tt_min:
            pos.c_key(w)
            e = self.find(w[0], w[1])
        if e >= 0:
            meta = self.tt[e + 3]
            stored_lo, stored_hi = (meta >> 8) & 65535, (meta >> 24) & 65535
            lo = stored_lo - BIAS + banked
            hi = stored_hi - BIAS + banked
            first = self.tt[e + 2]
        else:  # the position's own sound bounds on what is still to come
            pos.c_bounds(bl, bh)
            lo = bl[0] + banked
            hi = bh[0] + banked
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        best = -INF if side > 0 else INF
        count = pos.c_legal()
        base = stack.size
        for i in range(count):
            add(stack, pos.mv.data[i])
        if first >= 0:  # the move that was best last time, first (the others keep their order)
            for i in range(count):
                if stack.data[base + i] == first:
                    for j in range(i, 0, -1):
                        stack.data[base + j] = stack.data[base + j - 1]
                    stack.data[base] = first
                    break
        for i in range(count):
            m = stack.data[base + i]
            pos.c_push(m)
            v = self.search(alpha, beta)
            pos.c_pop()
            if side > 0:
                if v > best:
                    best, best_move = v, m
                alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_move = v, m
                beta = min(beta, v)
            if alpha >= beta:
                break
        stack.size = base
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        if left >= self.tt_min:
            self.store(w[0], w[1], lo - banked, hi - banked, best_move, left)
        return best

    def value(self, alpha: Any, beta: Any) -> int:
        """``Search.value(alpha, beta)``: ints, or the infinities for an open end."""
        a = -INF if alpha == float("-inf") else int(alpha)
        b = INF if beta == float("inf") else int(beta)
        self.stack.size = 0
        return self.search(a, b)

    def stored_move(self) -> int | None:
        """The best move the table holds for the position now, or None."""
        w: cython.ulonglong[2]
        if not cython.compiled:
            w = [0, 0]
        self.pos.c_key(w)
        e: cython.longlong = self.find(w[0], w[1])
        return None if e < 0 else self.tt[e + 2]
