# cython: language_level=3
"""The minimax search compiled, over a compiled two-sided game (``GameCore``).

``CoreSearch.value`` is ``minimax.Search.value`` node for node (the same
window logic, the same move order, the stored best move first, the same fail-hard
bounds stored relative to what is banked), in C: the table is a fixed array of
buckets of ``WAYS`` entries, each entry the position's whole key (two words,
compared exactly: no hash stands for a position), the bounds of the rest and the
best move.  When a bucket is full the entry with the fewest plies left gives way
(the cheapest to search again), so on a table that never fills the search is the
Python one's exactly (the tests check node counts); one that fills only searches
some positions again.  The ``tick`` callable (the Python ``Search``'s) is called
every 1024 nodes and past ``max_nodes``: it raises to stop the search.
"""

from libc.stdlib cimport calloc, free

from ..families.game_core cimport GameCore, MoveVec


cdef enum:
    INF = 1000000  # beyond any score: the open window's ends
    WAYS = 4  # entries a bucket
    MAX_DEPTH = 128


cdef struct Entry:
    unsigned long long k0, k1
    long long move
    short lo, hi  # bounds on the rest (the value less what is banked)
    short plies  # plies left when stored, plus one; 0: empty


cdef inline unsigned long long mix(unsigned long long a, unsigned long long b) noexcept:
    cdef unsigned long long z = a ^ (b * 0x9E3779B97F4A7C15ULL)
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef class CoreSearch:
    """One search of ``pos``: the table (``entries`` slots, a power of two), the counters."""

    cdef GameCore pos
    cdef Entry* tt
    cdef unsigned long long buckets
    cdef readonly long long nodes, stored, entries
    cdef long long max_nodes
    cdef object tick
    cdef MoveVec moves[MAX_DEPTH]
    cdef int depth

    def __init__(self, GameCore pos, long long entries, max_nodes, tick):
        cdef long long size = WAYS
        while size * 2 <= entries:
            size *= 2
        self.pos, self.tick, self.entries = pos, tick, size
        self.max_nodes = (1 << 62) if max_nodes is None else max_nodes
        self.buckets = <unsigned long long>(size // WAYS)
        self.tt = <Entry*>calloc(size, sizeof(Entry))
        if self.tt == NULL:
            raise MemoryError(f"minimax: no room for a table of {size} entries")

    def __dealloc__(self):
        cdef int i
        free(self.tt)
        for i in range(MAX_DEPTH):
            free(self.moves[i].data)

    cdef Entry* find(self, unsigned long long* w) noexcept:
        cdef Entry* e = self.tt + (mix(w[0], w[1]) & (self.buckets - 1)) * WAYS
        cdef int i
        for i in range(WAYS):
            if e[i].plies and e[i].k0 == w[0] and e[i].k1 == w[1]:
                return e + i
        return NULL

    cdef void store(self, unsigned long long* w, int lo, int hi, long long move) noexcept:
        cdef Entry* e = self.tt + (mix(w[0], w[1]) & (self.buckets - 1)) * WAYS
        cdef Entry* slot = NULL
        cdef int i
        for i in range(WAYS):
            if e[i].plies and e[i].k0 == w[0] and e[i].k1 == w[1]:
                slot = e + i
                break
        if slot == NULL:
            for i in range(WAYS):
                if not e[i].plies:
                    slot = e + i
                    self.stored += 1
                    break
        if slot == NULL:
            slot = e
            for i in range(1, WAYS):
                if e[i].plies < slot.plies:
                    slot = e + i
        slot.k0, slot.k1, slot.move = w[0], w[1], move
        slot.lo, slot.hi = <short>lo, <short>hi
        slot.plies = <short>(self.pos.c_plies_left() + 1)

    cdef int search(self, int alpha, int beta) except? -2000000:
        cdef GameCore pos = self.pos
        cdef int side = pos.c_side(), banked, lo, hi, a0, b0, best, v, count, i, j
        cdef unsigned long long w[2]
        cdef Entry* e
        cdef long long first = -1, best_move = -1, m
        cdef MoveVec* moves
        if side == 0:
            return pos.c_score()
        self.nodes += 1
        if self.nodes > self.max_nodes or self.nodes & 1023 == 0:
            self.tick(self.nodes, self.stored)
        banked = pos.c_banked()
        pos.c_key(w)
        e = self.find(w)
        if e != NULL:
            lo, hi, first = e.lo + banked, e.hi + banked, e.move
        else:  # the position's own sound bounds on what is still to come
            pos.c_bounds(&lo, &hi)
            lo += banked
            hi += banked
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        best = -INF if side > 0 else INF
        if self.depth >= MAX_DEPTH:
            raise IndexError("minimax: deeper than the compiled search's room")
        moves = &self.moves[self.depth]
        moves.size = 0
        count = pos.c_legal(moves)
        if first >= 0:  # the move that was best last time, first (the others keep their order)
            for i in range(count):
                if moves.data[i] == first:
                    for j in range(i, 0, -1):
                        moves.data[j] = moves.data[j - 1]
                    moves.data[0] = first
                    break
        self.depth += 1
        for i in range(count):
            m = moves.data[i]
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
        self.depth -= 1
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.store(w, lo - banked, hi - banked, best_move)
        return best

    def value(self, alpha, beta):
        """``Search.value(alpha, beta)``: ints, or the infinities for an open end."""
        a = -INF if alpha == float("-inf") else int(alpha)
        b = INF if beta == float("inf") else int(beta)
        self.depth = 0
        return self.search(a, b)

    def stored_move(self):
        """The best move the table holds for the position now, or None."""
        cdef unsigned long long w[2]
        cdef Entry* e
        self.pos.c_key(w)
        e = self.find(w)
        return None if e == NULL else e.move
