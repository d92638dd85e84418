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
as best is searched first, the others in the game's order.

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


@cython.cclass
class CoreSearch:
    """One search of ``pos``: the table (``entries`` slots, a power of two, at least ``WAYS``), the
    counters."""

    pos: GameCore
    tt: cython.p_ulonglong  # entries * WORDS words (a list interpreted)
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
    opts = cython.declare(cython.int, visibility="public")  # EXPERIMENT: 1 killers, 2 history, 4 ETC
    depth: cython.int  # plies below the root
    killers: cython.longlong[512]  # two a depth
    hist: cython.longlong[256]  # by side, card and whether it takes

    def __init__(self, pos: GameCore, entries: int, max_nodes: int | None, tick: Callable[[int, int], None]):
        size = WAYS
        while size * 2 <= entries:
            size *= 2
        self.pos, self.tick, self.entries = pos, tick, size
        self.max_nodes = (1 << 62) if max_nodes is None else max_nodes
        self.buckets = size // WAYS
        self.nodes = self.stored = 0
        self.stack = Moves()
        self.opts = 0
        self.depth = 0
        if not cython.compiled:
            self.killers = [0] * 512
            self.hist = [0] * 256
        for i in range(512):
            self.killers[i] = -1
        for i in range(256):
            self.hist[i] = 0
        self.mask64 = (1 << 64) - 1
        self.mul0, self.mul1, self.mul2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
        if cython.compiled:
            self.tt = cython.cast(cython.p_ulonglong, calloc(size * WORDS, cython.sizeof(cython.ulonglong)))
            if self.tt == cython.NULL:
                raise MemoryError(f"minimax: no room for a table of {size} entries")
        else:
            self.tt = [0] * (size * WORDS)

    if cython.compiled:
        def __dealloc__(self) -> None:
            free(self.tt)

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
              move: cython.longlong) -> cython.void:
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
        plies = self.pos.c_plies_left() + 1
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
        w2: cython.ulonglong[2]
        cb: cython.int
        bl: cython.int[1]
        bh: cython.int[1]
        if not cython.compiled:
            w, w2, bl, bh = [0, 0], [0, 0], [0], [0]
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
        s0: cython.Py_ssize_t = base + (1 if first >= 0 else 0)
        k: cython.int
        kk: cython.longlong
        hs: cython.int = 128 if side > 0 else 0
        d: cython.int = self.depth
        if self.opts & 4:  # enhanced transposition cutoffs: a child's stored bound may cut here
            for i in range(count):
                m = stack.data[base + i]
                pos.c_push(m)
                if pos.c_side() != 0:
                    pos.c_key(w2)
                    e = self.find(w2[0], w2[1])
                    if e >= 0:
                        meta = self.tt[e + 3]
                        stored_lo, stored_hi = (meta >> 8) & 65535, (meta >> 24) & 65535
                        cb = pos.c_banked()
                        if side > 0 and stored_lo - BIAS + cb >= beta:
                            pos.c_pop()
                            stack.size = base
                            return stored_lo - BIAS + cb
                        if side < 0 and stored_hi - BIAS + cb <= alpha:
                            pos.c_pop()
                            stack.size = base
                            return stored_hi - BIAS + cb
                pos.c_pop()
        if self.opts & 1:  # the killers of this depth next
            for k in range(2):
                kk = self.killers[2 * d + k]
                if kk >= 0:
                    for i in range(s0, base + count):
                        if stack.data[i] == kk:
                            for j in range(i, s0, -1):
                                stack.data[j] = stack.data[j - 1]
                            stack.data[s0] = kk
                            s0 += 1
                            break
        if self.opts & 2:  # the rest by history, stable
            for i in range(s0 + 1, base + count):
                m = stack.data[i]
                j = i - 1
                while j >= s0 and self.hist[hs + (stack.data[j] & 63) + (64 if stack.data[j] >> 6 else 0)] < \
                        self.hist[hs + (m & 63) + (64 if m >> 6 else 0)]:
                    stack.data[j + 1] = stack.data[j]
                    j -= 1
                stack.data[j + 1] = m
        self.depth += 1
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
                if self.opts & 1 and self.killers[2 * d] != m:
                    self.killers[2 * d + 1] = self.killers[2 * d]
                    self.killers[2 * d] = m
                if self.opts & 2:
                    self.hist[hs + (m & 63) + (64 if m >> 6 else 0)] += (60 - d) * (60 - d)
                break
        self.depth -= 1
        stack.size = base
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.store(w[0], w[1], lo - banked, hi - banked, best_move)
        return best

    def value(self, alpha: Any, beta: Any) -> int:
        """``Search.value(alpha, beta)``: ints, or the infinities for an open end."""
        a = -INF if alpha == float("-inf") else int(alpha)
        b = INF if beta == float("inf") else int(beta)
        self.stack.size = 0
        self.depth = 0
        return self.search(a, b)

    def stored_move(self) -> int | None:
        """The best move the table holds for the position now, or None."""
        w: cython.ulonglong[2]
        if not cython.compiled:
            w = [0, 0]
        self.pos.c_key(w)
        e: cython.longlong = self.find(w[0], w[1])
        return None if e < 0 else self.tt[e + 2]
