# cython: language_level=3
"""The hole family's compiled position: ``HoleCore``, the same game as ``HolePosition``.

Built from the reference position of the same deal (``HoleCore(HolePosition(layout,
deal))``): the reference computes the tables once (slots, ranks, neighbouring
ranks, key terms, the walk bound's tables); this class copies them into C arrays
and plays the same moves, with the same order, forced moves, bounds and key
equality.  The rules, the representation and the proofs of the bounds, the forced
move and the pruning are in ``solver/families/hole/position.py``; each method here
names the reference method it mirrors.

What differs is representation only:

* the columns whose top card has rank r are a bit mask ``tops[r]`` (the reference:
  a set), and ``tall`` is the mask of columns with two cards or more;
* the key is kept as packed counts in 64-bit words, updated in place by push and
  pop (see ``_bind_key``); it is written out as bytes.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from solver.families.core cimport CorePosition

from ... import cards
from .position import DEAD_REASONS, FIELD, HolePosition

cdef enum:
    NRANKS = 14    # rank-indexed arrays: ranks 1..13, index 0 unused
    MAX_WORDS = 64  # key words: at most 64 * 64 bits of packed counts


cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define HOLE_LITTLE_ENDIAN 1
    #else
    #define HOLE_LITTLE_ENDIAN 0
    #endif
    """
    int __builtin_ctzll(unsigned long long) nogil
    bint HOLE_LITTLE_ENDIAN


cdef inline bint several(uint64_t m) noexcept:
    """More than one bit set."""
    return m & (m - 1) != 0


cdef inline int lowest(uint64_t m) noexcept:
    """The number of the lowest set bit (m != 0)."""
    return __builtin_ctzll(m)


cdef class HoleCore(CorePosition):
    """A deal of a hole game, compiled; moves are pile numbers, as in the reference."""

    DEAD_REASONS = DEAD_REASONS

    # -- the deal (fixed)
    cdef int ncols, stock_pile, nslots, top_rank
    cdef bint line_heads
    cdef int* slot_rank    # per slot: its card's rank
    cdef int* slot_card    # per slot: its card
    cdef int* base         # per pile: the slot of its bottom card
    cdef int near_n[NRANKS]
    cdef int near[NRANKS][2]  # the ranks next to each rank (at most two)
    # -- the key terms per slot: playing slot s takes ``sub_val[s]`` from word
    #    ``sub_word[s]`` and adds ``add_val[s]`` to word ``add_word[s]``
    cdef int* sub_word
    cdef int* add_word
    cdef uint64_t* sub_val
    cdef uint64_t* add_val
    cdef int nwords, last_bytes
    # -- the walk bound's tables (the reference's ``_bind_walk``)
    cdef bint walk_ok, walk_cyclic
    cdef int walk_n
    cdef unsigned int walk_all
    cdef unsigned char* walk_conn
    cdef unsigned int walk_t0[NRANKS]
    cdef unsigned int walk_tp[NRANKS]
    cdef int walk_close[NRANKS]

    # -- the mutable state
    cdef int* height       # per pile
    cdef int* hole_stack   # the hole's rank before each move played (what pop restores)
    cdef int hole_rank, left
    cdef int count[NRANKS]      # remaining cards of each rank (columns and stock)
    cdef int col_count[NRANKS]  # remaining column cards of each rank
    cdef int bottoms[NRANKS]    # remaining bottom cards of each rank
    cdef uint64_t tops[NRANKS]  # columns by the rank of their top card
    cdef uint64_t tall          # columns holding two cards or more
    cdef uint64_t words[MAX_WORDS]  # the key
    cdef tuple start_ranks      # the hole's ranks at the deal, for ``state``

    def __init__(self, ref: HolePosition):
        if self.slot_rank != NULL:
            raise ValueError("HoleCore is built once")
        if ref.history:
            raise ValueError("HoleCore is built from a position at the deal")
        if ref.ncols > 63:
            raise ValueError("HoleCore holds at most 63 columns")
        self.ncols = ref.ncols
        self.stock_pile = ref.stock_pile
        self.nslots = len(ref.slot_card)
        self.top_rank = ref.top_rank
        self.line_heads = ref.line_heads
        self._copy_deal(ref)
        self._bind_key(ref)
        self._bind_walk(ref)
        self._copy_state(ref)

    def __dealloc__(self):
        free(self.slot_rank)
        free(self.slot_card)
        free(self.base)
        free(self.sub_word)
        free(self.add_word)
        free(self.height)
        free(self.hole_stack)
        free(self.sub_val)
        free(self.add_val)
        free(self.walk_conn)

    # ------------------------------------------------------------ setup

    cdef int* _ints(self, values) except NULL:
        """A C copy of a list of ints (at least one element allocated)."""
        cdef int* out = <int*>calloc(max(1, len(values)), sizeof(int))
        if out == NULL:
            raise MemoryError()
        for i, v in enumerate(values):
            out[i] = v
        return out

    cdef _copy_deal(self, ref):
        self.slot_rank = self._ints(ref.slot_rank)
        self.slot_card = self._ints(ref.slot_card)
        self.base = self._ints(ref.base)
        self.height = self._ints(ref.height)
        self.hole_stack = self._ints([0] * (self.nslots + 1))  # one rank per card at most
        for r in range(NRANKS):
            if len(ref.near[r]) > 2:
                raise ValueError(f"rank {r} has {len(ref.near[r])} neighbours; HoleCore holds two")
            self.near_n[r] = len(ref.near[r])
            for i, x in enumerate(ref.near[r]):
                self.near[r][i] = x

    cdef _bind_key(self, ref):
        """Packed fields in 64-bit words, each wide enough for every value it can hold.

        The reference's key is the sum, over the columns, of a 1 in the FIELD-bit field
        of the rank sequence left in the column (sequence number i), plus the stock
        height and the hole's rank: an exact encoding of (count of columns showing
        each sequence, stock height, hole rank).  Here the same numbers get fields
        just wide enough: sequence i can be shown by at most m_i columns (those that
        have it as a prefix), so its field has bit_length(m_i) bits; the stock height
        at most its start; the rank 4 bits.  A field never spills (its value stays in
        range), so adding and subtracting terms in a word is exact, and equal words
        mean equal numbers: the key bytes are equal exactly when the reference's keys are.
        """
        # The reference's sequence number of each (column, height), from its key terms.
        seq = [[(w.bit_length() - 1 - 16) // FIELD - 1 if w else -1 for w in row] for row in ref.seq_weight]
        nseq = 1 + max([i for row in seq for i in row] + [-1])
        mult = [0] * nseq
        for row in seq:
            for i in row[1:]:
                mult[i] += 1
        nstock = ref.height[ref.stock_pile]
        fields = [(4, "rank"), (max(1, nstock.bit_length()), "stock")] + [(m.bit_length(), i)
                                                                          for i, m in enumerate(mult)]
        place = {}
        word = used = 0
        for bits, name in fields:
            if used + bits > 64:
                word, used = word + 1, 0
            place[name] = (word, used)
            used += bits
        assert place["rank"] == (0, 0)  # push and pop update the rank in the low bits of word 0
        if word >= MAX_WORDS:
            raise ValueError("the deal's key needs more than MAX_WORDS words")
        self.nwords = word + 1
        self.last_bytes = (used + 7) // 8
        self.sub_word = self._ints([0] * self.nslots)
        self.add_word = self._ints([0] * self.nslots)
        self.sub_val = <uint64_t*>calloc(max(1, self.nslots), sizeof(uint64_t))
        self.add_val = <uint64_t*>calloc(max(1, self.nslots), sizeof(uint64_t))
        if self.sub_val == NULL or self.add_val == NULL:
            raise MemoryError()
        for s in range(self.nslots):
            p, j = ref.slot_pile[s], ref.slot_depth[s]  # playing s leaves pile p at height j
            if p == self.stock_pile:
                w, shift = place["stock"]
                self.sub_word[s], self.sub_val[s] = w, 1 << shift
                self.add_word[s], self.add_val[s] = 0, 0
                continue
            w, shift = place[seq[p][j + 1]]
            self.sub_word[s], self.sub_val[s] = w, 1 << shift
            if j:
                w, shift = place[seq[p][j]]
                self.add_word[s], self.add_val[s] = w, 1 << shift
            else:
                self.add_word[s], self.add_val[s] = 0, 0
        # The key of the deal.
        for i in range(MAX_WORDS):
            self.words[i] = 0
        w, shift = place["rank"]
        self.words[w] += (<uint64_t>ref.hole_rank) << shift
        w, shift = place["stock"]
        self.words[w] += (<uint64_t>nstock) << shift
        for p in range(self.ncols):
            if ref.height[p]:
                w, shift = place[seq[p][ref.height[p]]]
                self.words[w] += (<uint64_t>1) << shift

    cdef _bind_walk(self, ref):
        """The walk bound's tables, copied from the reference (``HolePosition._bind_walk``)."""
        self.walk_ok = ref.walk_ok
        self.walk_cyclic = ref.walk_cyclic
        self.walk_n = ref.walk_n
        if not self.walk_ok:
            return
        self.walk_all = ref.walk_all
        cdef bytes conn = bytes(ref.walk_conn)  # 0/1 per edge set: one copy, not 2**n item reads
        self.walk_conn = <unsigned char*>calloc(len(conn), 1)
        if self.walk_conn == NULL:
            raise MemoryError()
        memcpy(self.walk_conn, <const char*>conn, len(conn))
        for t in range(self.walk_n):
            self.walk_t0[t] = ref.walk_t0[t]
            self.walk_tp[t] = ref.walk_tp[t]
            self.walk_close[t] = ref.walk_close[t]

    cdef _copy_state(self, ref):
        self.start_ranks = tuple(ref.hole_ranks)
        self.hole_rank = ref.hole_rank
        self.left = ref.left
        self.tall = 0
        for r in range(NRANKS):
            self.count[r] = ref.count[r]
            self.col_count[r] = ref.col_count[r]
            self.bottoms[r] = ref.bottoms[r]
            self.tops[r] = 0
            for p in ref.tops[r]:
                self.tops[r] |= (<uint64_t>1) << p
        for p in range(self.ncols):
            if ref.height[p] > 1:
                self.tall |= (<uint64_t>1) << p

    # ------------------------------------------------------------ play

    cpdef int push(self, int move) except -1:
        """As ``HolePosition.push``: the top card of pile ``move`` goes to the hole."""
        if move < 0 or move > self.stock_pile or self.height[move] == 0:
            self._bad_move(move)
        cdef int j = self.height[move] - 1
        cdef int s = self.base[move] + j
        cdef int r = self.slot_rank[s]
        cdef uint64_t bit
        self.height[move] = j
        if move != self.stock_pile:
            bit = (<uint64_t>1) << move
            self.tops[r] &= ~bit
            if j:
                self.tops[self.slot_rank[s - 1]] |= bit
                if j == 1:
                    self.tall &= ~bit
            else:
                self.bottoms[r] -= 1
            self.col_count[r] -= 1
        self.words[self.sub_word[s]] -= self.sub_val[s]
        self.words[self.add_word[s]] += self.add_val[s]
        self.words[0] += <uint64_t>(r - self.hole_rank)  # the rank field is the low 4 bits of word 0
        self.hole_stack[self.ply] = self.hole_rank
        self.hole_rank = r
        self.count[r] -= 1
        self.left -= 1
        self.record(move)
        return 0

    cdef int _bad_move(self, int move) except -1:
        """Out of the hot path (keeps ``push`` small)."""
        raise ValueError(f"no card to play from pile {move}")

    cpdef int pop(self) except -1:
        """As ``HolePosition.pop``: the hole's top card goes back where it came from."""
        cdef int move = self.unrecord()
        cdef int j = self.height[move]
        cdef int s = self.base[move] + j
        cdef int r = self.hole_rank
        cdef int old = self.hole_stack[self.ply]
        cdef uint64_t bit
        self.height[move] = j + 1
        self.words[0] -= <uint64_t>(r - old)
        self.words[self.add_word[s]] -= self.add_val[s]
        self.words[self.sub_word[s]] += self.sub_val[s]
        self.hole_rank = old
        if move != self.stock_pile:
            bit = (<uint64_t>1) << move
            if j:
                self.tops[self.slot_rank[s - 1]] &= ~bit
                if j == 1:
                    self.tall |= bit
            else:
                self.bottoms[r] += 1
            self.tops[r] |= bit
            self.col_count[r] += 1
        self.count[r] += 1
        self.left += 1
        return move

    # ---------------------------------------------------------- queries

    cdef int legal(self, int* out) except -1:
        """As ``HolePosition.legal_moves`` (its docstring proves the pruning of bottom cards):
        column moves by (more cards of the rank left, taller column, lower number), then the
        stock turn."""
        cdef int n = 0, i, k, p
        cdef uint64_t ps
        for k in range(self.near_n[self.hole_rank]):
            ps = self.tops[self.near[self.hole_rank][k]]
            if several(ps):
                if ps & self.tall:
                    ps &= self.tall
                else:
                    ps &= -ps  # interchangeable bottom cards: the lowest column is enough
            while ps:
                out[n] = lowest(ps)
                n += 1
                ps &= ps - 1
        if n > 1:
            self._sort(out, n)
        if self.height[self.stock_pile]:
            out[n] = self.stock_pile
            n += 1
        return n

    cdef void _sort(self, int* moves, int n) noexcept:
        """Insertion sort (a handful of moves) by the reference's order."""
        cdef int i, j, m
        cdef long long km
        cdef long long keys[64]
        for i in range(n):
            keys[i] = self._order(moves[i])
        for i in range(1, n):
            m, km = moves[i], keys[i]
            j = i - 1
            while j >= 0 and keys[j] < km:
                moves[j + 1], keys[j + 1] = moves[j], keys[j]
                j -= 1
            moves[j + 1], keys[j + 1] = m, km

    cdef inline long long _order(self, int p) noexcept:
        """Larger first: (cards of the top card's rank left, column height, -p)."""
        cdef int h = self.height[p]
        return ((<long long>self.count[self.slot_rank[self.base[p] + h - 1]]) << 40) \
            | ((<long long>h) << 16) | (0xFFFF - p)

    cdef int forced(self) except -2:
        """As ``HolePosition.forced_move``: the only legal move, or -1."""
        cdef int stock = self.height[self.stock_pile], k
        cdef uint64_t ps, fits = 0
        for k in range(self.near_n[self.hole_rank]):
            ps = self.tops[self.near[self.hole_rank][k]]
            if ps:
                if fits or several(ps) or stock:
                    return -1
                fits = ps
        if fits:
            return lowest(fits)
        return self.stock_pile if stock else -1

    cdef bint won(self) except -1:
        return self.left == 0

    cdef int dead(self) except -1:
        """As ``HolePosition.is_dead``: 1 the walk bound, 2 the heads bound, 0 neither."""
        if not self.height[self.stock_pile]:
            return 1 if self.left > 0 and self._walk_dead() else 0
        return 2 if self.line_heads and self._heads_dead() else 0

    cdef int write_key(self, unsigned char* buf) except -1:
        """The key words, the last one cut to its used bytes (its low bytes, the used ones)."""
        cdef int i, n = 8 * (self.nwords - 1)
        cdef uint64_t last = self.words[self.nwords - 1]
        for i in range(self.nwords - 1):
            memcpy(buf + 8 * i, &self.words[i], 8)
        if HOLE_LITTLE_ENDIAN:  # the low bytes come first: copy the word whole (buf has room)
            memcpy(buf + n, &last, 8)
        else:
            for i in range(self.last_bytes):
                buf[n + i] = (last >> (8 * i)) & 0xFF
        return n + self.last_bytes

    # -------------------------------------------------- the bounds

    cdef bint _walk_dead(self) noexcept:
        """As ``HolePosition._walk_dead`` (its docstring has the proof): the remaining column
        ranks make no walk from the hole's rank that ends on a bottom card."""
        if not self.walk_ok:
            return False
        cdef int n = self.walk_n, h = self.hole_rank - 1, k, t, s, sign, vals
        cdef int d[NRANKS]
        cdef unsigned int am1 = 0, a0 = 0, a1 = 0, t0, tp, zero
        cdef bint cyclic = self.walk_cyclic
        cdef int close = 0
        for k in range(n):
            d[k] = 2 * self.col_count[k + 1]
        d[h] += 1
        s = d[0]
        if cyclic:
            sign = -1
            for k in range(n - 1, 0, -1):
                s += sign * d[k]
                sign = -sign
            vals = n
        else:
            vals = n - 1
        for k in range(vals):
            if k:
                s = (2 * d[k] if cyclic else d[k]) - s
            if s <= 1:
                if s < -1:
                    return True
                if s == -1:
                    am1 |= (<unsigned int>1) << k
                elif s == 0:
                    a0 |= (<unsigned int>1) << k
                else:
                    a1 |= (<unsigned int>1) << k
        if not cyclic:
            close = d[n - 1] - s  # the would-be edge past the top rank
        for t in range(n):
            if not self.bottoms[t + 1]:
                continue
            if not cyclic and close != self.walk_close[t]:
                continue
            t0, tp = self.walk_t0[t], self.walk_tp[t]
            if am1 & (t0 | tp) or a0 & tp:
                continue  # some edge count would be negative
            zero = am1 | (a0 & t0) | (a1 & tp)
            if self.walk_conn[self.walk_all & ~zero]:
                return False
        return True

    cdef bint _heads_dead(self) noexcept:
        """As ``HolePosition._heads_dead`` (its docstring has the proof): some column card can
        get no predecessor of a neighbouring rank (ranks on a line, stock left)."""
        cdef int h = self.hole_rank, n = self.top_rank, first, r, spare, need, above
        for first in range(1, 3):
            spare = 0 if first == 1 else self.count[1] + (h == 1)
            for r in range(first, n + 1, 2):
                need = self.col_count[r] - spare
                above = self.count[r + 1] + (h == r + 1) if r < n else 0
                if need > 0:
                    if need > above:
                        return True
                    spare = above - need
                else:
                    spare = above
        return False

    # ------------------------------------------------------------ Python level

    def move_json(self, int move):
        """As ``HolePosition.move_json``."""
        s = self.base[move] + self.height[move] - 1
        src = "stock" if move == self.stock_pile else f"tableau:{move}"
        return {"card": cards.name(self.slot_card[s]), "from": src, "to": "hole"}

    def reference_move(self, int move):
        """Moves are pile numbers in both positions."""
        return move

    def state(self):
        """Everything mutable."""
        return (tuple(self.height[p] for p in range(self.stock_pile + 1)),
                self.start_ranks + tuple(self.hole_stack[i] for i in range(1, self.ply)) + (self.hole_rank,)
                if self.ply else self.start_ranks,
                self.hole_rank, tuple(self.history), self.left,
                tuple(self.count), tuple(self.col_count), tuple(self.bottoms),
                tuple(self.tops), self.tall, tuple(self.words[i] for i in range(self.nwords)))
