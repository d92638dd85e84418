# cython: language_level=3
"""The debutante family's compiled position: ``ReserveCore``, the same game as ``ReservePosition``.

Built from the reference position of the same deal (``ReserveCore(ReservePosition(layout,
deal))``): the reference reads the layout and computes the tables once (each
foundation's cards in order, ``where``, ``fdests``, the flags of the dominances);
this class copies them into C arrays and plays the same moves, in the same order,
with the same forced moves, bounds and key equality.  The rules, the
representation and the proofs of the dominances and bounds are in
``solver/families/reserve/position.py``; each method here names the reference
method it mirrors, and keeps its name (``_decision``, ``_placements``,
``_placement_score``, ``_buried``, ``_relaxed_play``, ...): a new rule or bound in
the reference gets its twin here under the same name.

What differs is representation only:

* a move ``(src, dst)`` is the int ``(src + 8) << 12 | d`` with ``d = dst + 8`` for
  a stack and ``2048 + f`` for foundation ``f`` (``reference_move`` turns it back);
* a card's value (card | marks << 6) is a byte; column ``i`` is ``col_len[i]``
  bytes at ``colbuf + i * stride`` in the reference's list order (for a queue,
  ``access = 'first'``, the leaving card is the first byte); the stock and the
  waste are byte arrays whose end is the reference list's end;
* the key is bytes: the foundation heights, then each column as its length and its
  values, then what the reference adds for the stock, the waste, the redeals and
  the batch.  Where the reference sorts the columns, they come in the order of
  (length, values), so equal multisets of columns give equal bytes; push and pop
  keep that order (``korder``) by moving the one column they change to its place
  (``_moved``), so the key is a copy, not a sort;
* ``want`` holds the cards the foundations take now as bits, a quick test before
  ``_accepting`` in the loops over the columns;
* ``_buried`` reads each column once, from its deepest card up, keeping the cards
  whose every remaining copy is behind as a 64-bit mask; ``_relaxed_play`` keeps
  the reference's steps and their order exactly (its ``by_card`` lists are linked
  lists, ``can`` is one 64-bit mask per foundation), on scratch arrays allocated once.
  The order matters: a column card is let go when any foundation takes its card
  (``settle``) but, when exposed, only if a foundation it may go to is past it
  (``expose``), so the outcome can depend on which comes first.

A new bound in the reference (``ReservePosition._something``, a new name at the end of
its ``DEAD_REASONS``) gets a ``cdef bint _something(self) noexcept`` here, called from
``dead`` in the reference's order and returning the name's number; the tests compare
``is_dead`` with the reference at every step of their walks.
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memcpy, memmove, memset

from solver.families.core cimport MAX_KEY, MAX_MOVES, CorePosition, IntStack, int_stack_pop, int_stack_push

from ... import cards
from copy import copy

from . import position, timed
from .pairing import pairing_horizon
from .position import COMMIT, DEAD_REASONS, FOUND, ROW, STOCK, WASTE, ReservePosition, _name

cdef enum:
    C_STOCK = -1
    C_WASTE = -2
    C_ROW = -3
    C_COMMIT = -4
    C_FOUND = 1000
    INERT = 255    # as the reference's INERT
    ALL_LINES = 255  # as the reference's ALL_LINES
    # the timed copy count (``timed.py``; the reference's names without TM_)
    TM_ITEMS = 256
    TM_TURNS = 256
    TM_FRONT = 1024  # kept sharings per suit at most (2 ** MAX_CHOICES)
    TM_NEVER = 1 << 20
    TIMED_ROOM = 2
    TIMED_PLY = 8
    PAIR_ROOM = 1
    PAIR_PLY = 0
    TM_MEMO = 1 << 16  # keys ``_timed_memo`` keeps at most
    TM_MAX_CHOICES = 10
    TM_ROUNDS = 3
    TM_BUDGET = 20000
    SEQ = 16       # room per foundation in ``seq`` and ``pmask`` (at most 13 cards, and one past)
    VALUES = 256   # card values: card | marks << 6
    MAXF = 64      # foundations at most (16 rows)
    MAXC = 64      # columns at most (the layout schema's limit)
    # stock.turn
    T_NONE = 0
    T_PLACE = 1
    T_WASTE = 2
    T_DEALROW = 3

assert (STOCK, WASTE, ROW, COMMIT, FOUND) == (C_STOCK, C_WASTE, C_ROW, C_COMMIT, C_FOUND)
assert (position.TIMED_ROOM, position.TIMED_PLY, timed.MAX_CHOICES, timed.ROUNDS, timed.BUDGET, timed.NEVER) == \
    (TIMED_ROOM, TIMED_PLY, TM_MAX_CHOICES, TM_ROUNDS, TM_BUDGET, TM_NEVER)
assert (position.PAIR_ROOM, position.PAIR_PLY) == (PAIR_ROOM, PAIR_PLY)
TURNS = {"none": T_NONE, "place": T_PLACE, "waste": T_WASTE, "deal-row": T_DEALROW}


# ------------------------------------------------------------------ move codes

cdef inline int mcode(int src, int dst) noexcept:
    """The code of the move ``(src, dst)``."""
    return ((src + 8) << 12) | (dst + 8 if dst < C_FOUND else 2048 + dst - C_FOUND)


cdef inline int msrc(int code) noexcept:
    return (code >> 12) - 8


cdef inline int mdst(int code) noexcept:
    cdef int d = code & 0xFFF
    return d - 8 if d < 2048 else C_FOUND + d - 2048


# The working state of one ``_relaxed_play`` (the reference's local variables).
cdef struct Relax:
    int* hh          # foundation heights in the generous game
    int* nd          # the card each foundation needs next (-1: finished)
    uint64_t* can    # per foundation: the cards it could take by now (bit per card)
    int* left        # cards still in each column
    int* nxt         # by_card's linked lists: the next column showing the same card
    int* todo        # foundations that may move on (a stack)
    int ntodo
    int seen         # copies seen: in columns, or turned so far
    int gone         # most copies that can have left, summed over cards
    int head[64]     # by_card: card -> first and last column showing it (-1: none)
    int tail[64]
    int seen_of[64]  # copies of each card seen
    int passed[64]   # foundations taken past each card since now
    # the copy count (the reference's ``_CopyCount``), with two rows of foundations
    bint copies
    int both[64]     # free copies that may go to either row
    int only0[64]    # free copies that may go to row 0 only
    int only1[64]    # ... to row 1 only
    int best[4]      # per suit, the most cards its two foundations can take
    bint dirty[4]    # best[s] is stale


@cython.final
cdef inline bint _no_later(const unsigned char* a, const unsigned char* b, int n) noexcept:
    """Every one of the n times in ``a`` is at most the one in ``b`` (``a`` beats or matches ``b``)."""
    cdef int k
    for k in range(n):
        if a[k] > b[k]:
            return False
    return True


cdef class ReserveCore(CorePosition):
    """A deal of a debutante-family game, compiled; moves are int codes (``reference_move``)."""

    DEAD_REASONS = DEAD_REASONS

    # -- the deal and its rules (fixed)
    cdef int ncols, capacity, nf, total, stride, turn, deal_count, batch_size, waste_capacity, slots
    cdef bint exact  # the foundations hold exactly the pack (the reference's ``exact``)
    cdef bint timed  # the timed copy count runs (the reference's ``timed``)
    cdef bint pairs  # the pairing bound runs (the reference's ``pairs``)
    cdef object view  # a reference position the pairing bound reads, our state written in (``_pairing``)
    cdef dict pr_memo  # the pairing bound's horizon by position key
    cdef int room    # set by _relaxed_play: the counts' least room over the turns
    cdef bint fifo, suit_sequence, refill, gaps_any_top, interchangeable, dominance, column_dominance
    cdef int* seq        # nf * SEQ: foundation f takes seq[f * SEQ + i] in order
    cdef int* seq_len    # per foundation
    cdef int* fd         # VALUES * nf: fdests, the foundations a value may go to
    cdef int* fdw        # VALUES * nf: where[f][v] for the k-th of them (f = fd[v * nf + k])
    cdef int fd_n[VALUES]
    cdef uint64_t* pmask  # nf * SEQ: the cards seq[f][0..i) as a mask (``_buried``)
    cdef int* cwhere      # nf * 64: where[f][c] for a card c without marks (the copy count)

    # -- the mutable state
    cdef unsigned char* colbuf  # the columns: column i is col_len[i] values at colbuf + i * stride
    cdef int* col_len
    cdef unsigned char* stock   # the end is the next card to turn
    cdef unsigned char* waste   # the end is the top card
    cdef int stock_n, waste_n
    cdef int* h                 # foundation heights
    cdef int* need              # the card each foundation takes next, -1 when finished
    cdef int rem[64]            # copies of each card not yet on a foundation
    cdef int placed, redeals_left, batch_left
    cdef bint unlimited_redeals  # the key leaves redeals_left out (see the reference)
    cdef IntStack undo          # per move played, what ``pop`` needs (the reference's ``_undo``)
    # -- kept from the state by push and pop (not state of their own)
    cdef uint64_t want          # the cards some foundation takes now (the ``need`` values, as bits)
    cdef uint64_t* sk           # per column: its length and first 7 values, the key order's first test
    cdef int* korder            # the columns sorted by (length, values): the key's order
    cdef int* kpos              # the place of each column in ``korder``

    # -- scratch, allocated once
    cdef int* rp_ints           # _relaxed_play's arrays (hh, nd, left, nxt, todo)
    cdef uint64_t* rp_can
    cdef unsigned char* lk      # write_learned_key's columns
    # the timed copy count's scratch: items, kept sharings and their curves, the search
    cdef int* tm_ints
    cdef dict tm_memo  # the timed count's horizon by position key (``_timed_memo``)
    cdef unsigned char* tm_front
    cdef int* tm_curves
    cdef int* tm_best
    cdef int* tm_rest
    cdef int* tm_acc
    cdef int tm_nfront[4]
    cdef int tm_total[4]
    cdef int tm_tried
    cdef unsigned char* snap    # the generous game's heights at each stock length (``_relaxed_play``)
    cdef bint snap_ok           # snap holds this position's generous game to the end (set by dead)

    def __init__(self, ref not None):
        if not isinstance(ref, ReservePosition):
            raise TypeError("ReserveCore is built from a ReservePosition")
        if ref.history:
            raise ValueError("ReserveCore is built from a position at the deal")
        if ref.ncols > MAXC or ref.nf > MAXF or ref.total > 255:
            raise ValueError("ReserveCore holds at most 64 columns, 64 foundations and 255 cards")
        rows = ref.nf // 4
        if ref.ncols * rows + rows + 2 * ref.ncols + 1 > MAX_MOVES:  # see ``legal``
            raise ValueError("the deal could have more legal moves than MAX_MOVES")
        if ref.nf + ref.ncols + ref.total + 16 > MAX_KEY:  # see ``write_key``
            raise ValueError("the deal's key could be longer than MAX_KEY")
        self.ncols = ref.ncols
        self.capacity = ref.capacity
        self.fifo = ref.fifo
        self.suit_sequence = ref.suit_sequence
        self.refill = ref.refill
        self.gaps_any_top = ref.gaps_any_top
        self.turn = TURNS[ref.turn]
        self.deal_count = ref.deal_count
        self.batch_size = ref.batch_size
        self.interchangeable = ref.interchangeable
        self.waste_capacity = ref.waste_capacity
        self.exact = ref.exact
        self.slots = -1 if ref.slots is None else ref.slots
        self.dominance = ref.dominance
        self.column_dominance = ref.column_dominance
        self.nf = ref.nf
        self.total = ref.total
        self.learns = ref.learns
        self.strong_bounds = ref.strong_bounds
        self.tm_memo = {}
        self.timed = ref.timed
        self.pairs = ref.pairs
        self.pr_memo = {}
        self.view = copy(ref)
        self.stride = max(1, ref.total)  # a column never holds more than every card
        self._copy_tables(ref)
        self._copy_state(ref)

    def __dealloc__(self):
        free(self.seq)
        free(self.seq_len)
        free(self.fd)
        free(self.fdw)
        free(self.pmask)
        free(self.cwhere)
        free(self.colbuf)
        free(self.col_len)
        free(self.stock)
        free(self.waste)
        free(self.h)
        free(self.need)
        free(self.undo.data)
        free(self.sk)
        free(self.korder)
        free(self.kpos)
        free(self.rp_ints)
        free(self.rp_can)
        free(self.lk)
        free(self.tm_ints)
        free(self.tm_front)
        free(self.tm_curves)
        free(self.tm_best)
        free(self.tm_rest)
        free(self.tm_acc)
        free(self.snap)

    # ------------------------------------------------------------ setup

    cdef void* _alloc(self, Py_ssize_t n, Py_ssize_t size) except NULL:
        """Zeroed C memory for ``n`` items (at least one)."""
        cdef void* out = calloc(max(1, n), size)
        if out == NULL:
            raise MemoryError()
        return out

    cdef _copy_tables(self, ref):
        """The reference's tables: ``seq``, ``fdests`` with ``where`` beside them; and the masks
        ``_buried`` reads."""
        nf = self.nf
        self.seq = <int*>self._alloc(nf * SEQ, sizeof(int))
        self.seq_len = <int*>self._alloc(nf, sizeof(int))
        self.fd = <int*>self._alloc(VALUES * nf, sizeof(int))
        self.fdw = <int*>self._alloc(VALUES * nf, sizeof(int))
        self.pmask = <uint64_t*>self._alloc(nf * SEQ, sizeof(uint64_t))
        self.cwhere = <int*>self._alloc(nf * 64, sizeof(int))
        for f in range(nf):
            for c in range(64):
                self.cwhere[f * 64 + c] = min(ref.where[f][c], 1 << 20)
        for f in range(nf):
            s = ref.seq[f]
            if len(s) >= SEQ:
                raise ValueError("a foundation of more than 15 cards")
            self.seq_len[f] = len(s)
            mask = 0
            for i, c in enumerate(s):
                self.seq[f * SEQ + i] = c
                self.pmask[f * SEQ + i] = mask
                mask |= 1 << c
            self.pmask[f * SEQ + len(s)] = mask
        for v in range(VALUES):
            dests = ref.fdests[v]
            self.fd_n[v] = len(dests)
            for k, f in enumerate(dests):
                self.fd[v * nf + k] = f
                self.fdw[v * nf + k] = ref.where[f][v]

    cdef _copy_state(self, ref):
        cdef int i, k
        self.colbuf = <unsigned char*>self._alloc(self.ncols * self.stride, 1)
        self.col_len = <int*>self._alloc(self.ncols, sizeof(int))
        for i, col in enumerate(ref.cols):
            self.col_len[i] = len(col)
            for k, v in enumerate(col):
                self.colbuf[i * self.stride + k] = v
        self.stock = <unsigned char*>self._alloc(self.total, 1)
        self.waste = <unsigned char*>self._alloc(self.total, 1)
        self.stock_n = len(ref.stock)
        for k, v in enumerate(ref.stock):
            self.stock[k] = v
        self.waste_n = len(ref.waste)
        for k, v in enumerate(ref.waste):
            self.waste[k] = v
        self.h = <int*>self._alloc(self.nf, sizeof(int))
        self.need = <int*>self._alloc(self.nf, sizeof(int))
        for f in range(self.nf):
            self.h[f] = ref.h[f]
            self.need[f] = ref.need[f]
        for c in range(64):
            self.rem[c] = ref.rem[c]
        self.placed = ref.placed
        self.redeals_left = ref.redeals_left
        self.unlimited_redeals = ref.unlimited_redeals
        self.batch_left = ref.batch_left
        self._set_want()
        self.sk = <uint64_t*>self._alloc(self.ncols, sizeof(uint64_t))
        self.korder = <int*>self._alloc(self.ncols, sizeof(int))
        self.kpos = <int*>self._alloc(self.ncols, sizeof(int))
        self._sort_all()
        # _relaxed_play: hh, nd (nf each), left, nxt (ncols each), todo (nf * 64: each
        # foundation is pushed at most once per card newly offered to it)
        self.rp_ints = <int*>self._alloc(2 * self.nf + 2 * self.ncols + 64 * self.nf, sizeof(int))
        self.rp_can = <uint64_t*>self._alloc(self.nf, sizeof(uint64_t))
        self.lk = <unsigned char*>self._alloc(self.ncols * self.stride, 1)
        if self.timed:
            self.tm_ints = <int*>self._alloc(7 * TM_ITEMS, sizeof(int))
            self.tm_front = <unsigned char*>self._alloc(4 * TM_FRONT * 32, 1)
            self.tm_curves = <int*>self._alloc(4 * TM_FRONT * TM_TURNS, sizeof(int))
            self.tm_best = <int*>self._alloc(4 * TM_TURNS, sizeof(int))
            self.tm_rest = <int*>self._alloc(5 * TM_TURNS, sizeof(int))
            self.tm_acc = <int*>self._alloc(5 * TM_TURNS, sizeof(int))
        self.snap = <unsigned char*>self._alloc((self.total + 1) * self.nf, 1)

    # ------------------------------------------------------------ helpers

    cdef inline int _top(self, int i) noexcept:
        """As ``_top``: the value that leaves column ``i`` next (the column is not empty)."""
        cdef unsigned char* col = self.colbuf + i * self.stride
        return col[0] if self.fifo else col[self.col_len[i] - 1]

    cdef inline bint _same_col(self, int a, int b) noexcept:
        """Columns ``a`` and ``b`` hold the same values (the reference's tuple equality)."""
        cdef int n = self.col_len[a]
        if n != self.col_len[b]:
            return False
        return memcmp(self.colbuf + a * self.stride, self.colbuf + b * self.stride, n) == 0

    cdef inline int _need_of(self, int f) noexcept:
        return self.seq[f * SEQ + self.h[f]] if self.h[f] < self.seq_len[f] else -1

    cdef inline void _set_want(self) noexcept:
        cdef int f
        self.want = 0
        for f in range(self.nf):
            if self.need[f] >= 0:
                self.want |= (<uint64_t>1) << self.need[f]

    cdef inline bint _wanted(self, int v) noexcept:
        """Some foundation takes ``v``'s card now (a quick test before ``_accepting``)."""
        return (self.want >> (v & 63)) & 1

    cdef inline void _sort_key(self, int i) noexcept:
        cdef unsigned char* col = self.colbuf + i * self.stride
        cdef int n = self.col_len[i], k
        cdef uint64_t x = (<uint64_t>n) << 56
        for k in range(n if n < 7 else 7):
            x |= (<uint64_t>col[k]) << (48 - 8 * k)
        self.sk[i] = x

    cdef inline bint _after(self, int a, int b) noexcept:
        """Column ``a`` comes after column ``b`` in the key's order: (length, values)."""
        cdef int n
        if self.sk[a] != self.sk[b]:
            return self.sk[a] > self.sk[b]
        n = self.col_len[a]
        return n > 7 and memcmp(self.colbuf + a * self.stride + 7, self.colbuf + b * self.stride + 7, n - 7) > 0

    cdef void _moved(self, int i) noexcept:
        """Column ``i`` changed (alone): its place in the key's order, the others still sorted."""
        cdef int k, j
        cdef int* order = self.korder
        self._sort_key(i)
        k = self.kpos[i]
        while k > 0 and self._after(order[k - 1], i):
            j = order[k - 1]
            order[k] = j
            self.kpos[j] = k
            k -= 1
        while k < self.ncols - 1 and self._after(i, order[k + 1]):
            j = order[k + 1]
            order[k] = j
            self.kpos[j] = k
            k += 1
        order[k] = i
        self.kpos[i] = k

    cdef void _sort_all(self) noexcept:
        """The key's order from scratch (after a row is dealt: many columns changed)."""
        cdef int i, j, a
        cdef int* order = self.korder
        for i in range(self.ncols):
            self._sort_key(i)
            a = i
            j = i
            while j > 0 and self._after(order[j - 1], a):
                order[j] = order[j - 1]
                j -= 1
            order[j] = a
        for i in range(self.ncols):
            self.kpos[order[i]] = i

    cdef inline int _accepting(self, int v, int* out) noexcept:
        """As ``_accepting``: the foundations that take ``v``'s card now, written to ``out``."""
        cdef int c = v & 63, k, f, n = 0
        cdef int* fd = self.fd + v * self.nf
        for k in range(self.fd_n[v]):
            f = fd[k]
            if self.need[f] == c:
                out[n] = f
                n += 1
        return n

    cdef inline int _open(self, int v) noexcept:
        """As ``len(_open(v))``: how many foundations may still take ``v``'s card some day."""
        cdef int k, n = 0
        cdef int* fd = self.fd + v * self.nf
        cdef int* fdw = self.fdw + v * self.nf
        for k in range(self.fd_n[v]):
            if fdw[k] >= self.h[fd[k]]:
                n += 1
        return n

    cdef inline int _marks(self, int v) noexcept:
        """As ``_marks(_accepting(v))``: the marks of the rows that take ``v``'s card now."""
        cdef int c = v & 63, k, f, m = 0
        cdef int* fd = self.fd + v * self.nf
        for k in range(self.fd_n[v]):
            f = fd[k]
            if self.need[f] == c:
                m += 1 << (6 + f // 4)
        return m

    cdef inline bint _takes(self, int i, int card) noexcept:
        """As ``_takes``: whether column ``i`` may take ``card``."""
        cdef int n = self.col_len[i], last
        if n >= self.capacity:
            return False
        if self.suit_sequence and n:
            last = self.colbuf[i * self.stride + n - 1] & 63
            return (last & 3) == (card & 3) and ((last >> 2) - (card >> 2) == 1 or (card >> 2) - (last >> 2) == 1)
        return True

    cdef inline int _pending_refill(self) noexcept:
        """As ``_pending_refill``: the empty column the pack must fill now, or -1."""
        cdef int j
        if self.refill and self.stock_n:
            for j in range(self.ncols):
                if self.col_len[j] == 0:
                    return j
        return -1

    cdef inline bint _decides(self, int i) noexcept:
        """As ``_decides``: whether the decision dominance covers column ``i``'s top card."""
        cdef int n = self.col_len[i]
        return n > 1 or (n == 1 and not (self.refill and self.stock_n))

    cdef int _decision(self, int* out) noexcept:
        """As ``_decision``: the options of the first available card that a foundation takes now
        (with learning, of least value), written to ``out``; their count (0: no decision)."""
        cdef int i, v, src = 0, best = VALUES
        cdef int acc[MAXF]
        if self.batch_left:
            return 0
        for i in range(self.ncols):
            if self._decides(i):
                v = self._top(i)
                if v < best and self._wanted(v) and self._accepting(v, acc):
                    best, src = v, i
                    if not self.learns:
                        break
        if self.turn == T_WASTE and self.waste_n and (self.learns or best == VALUES):
            v = self.waste[self.waste_n - 1]
            if v < best and self._accepting(v, acc):
                best, src = v, C_WASTE
        return 0 if best == VALUES else self._decide(src, best, out)

    cdef inline int _decide(self, int src, int v, int* out) noexcept:
        cdef int acc[MAXF]
        cdef int n = self._accepting(v, acc), k
        if n == 0:
            return 0
        for k in range(n):
            out[k] = mcode(src, C_FOUND + acc[k])
        if self._open(v) > n:
            out[n] = mcode(src, C_COMMIT)
            n += 1
        return n

    cdef inline int _urgency(self, int v) noexcept:
        """As ``_urgency``: how many cards a foundation still needs before it can take ``v``."""
        cdef int k, w, best = 99
        cdef int* fd = self.fd + v * self.nf
        cdef int* fdw = self.fdw + v * self.nf
        cdef bint any_ = False
        for k in range(self.fd_n[v]):
            w = fdw[k] - self.h[fd[k]]
            if w >= 0 and (not any_ or w < best):
                best = w
                any_ = True
        return best

    cdef inline int _placement_score(self, int i, int v) noexcept:
        """As ``_placement_score``: lower is tried first (the reference says why)."""
        cdef int n = self.col_len[i], below, first, then, u_first, u_then
        if self.batch_size and not self.fifo:
            return self._batch_placement_score(i, v)
        if n == 0:
            return 50
        below = self._top(i)
        if self.fifo:
            first, then = below, v
        else:
            first, then = v, below
        u_first = self._urgency(first)
        u_then = self._urgency(then)
        return (30 - (u_then - u_first)) if u_first < u_then else 100 - (u_first - u_then)

    cdef inline int _batch_placement_score(self, int i, int v) noexcept:
        """As ``_batch_placement_score``: best fit against column ``i``'s deadline, its most
        urgent card (``_copy_urgency``) plus the cards above it."""
        cdef int n = self.col_len[i], first, deadline, k, w
        cdef unsigned char* col = self.colbuf + i * self.stride
        if n == 0:
            return 50
        first = self._copy_urgency(v, -1)
        deadline = 1 << 30
        for k in range(n):
            w = self._copy_urgency(col[k], i) + (n - 1 - k)
            if w < deadline:
                deadline = w
        return 10 + (deadline - first) if first < deadline else 100 + (first - deadline)

    cdef inline int _copy_urgency(self, int v, int skip) noexcept:
        """As ``_copy_urgency``: the nearer open foundation's distance, or the farther one's when
        another copy of the card is the top card of a column other than ``skip`` (-1: none)."""
        cdef int k, w, d1 = 99, d2 = 99, j
        cdef int* fd = self.fd + v * self.nf
        cdef int* fdw = self.fdw + v * self.nf
        for k in range(self.fd_n[v]):
            w = fdw[k] - self.h[fd[k]]
            if w < 0:
                continue
            if w < d1:
                d2 = d1
                d1 = w
            elif w < d2:
                d2 = w
        if d2 == 99:
            return d1
        for j in range(self.ncols):
            if j != skip and self.col_len[j] and (self._top(j) & 63) == (v & 63):
                return d2
        return d1

    cdef int _placements(self, int v, int src, int* out, int n) noexcept:
        """As ``_placements``: the moves ``(src, i)`` to the columns that may take ``v``, one per
        distinct column, best first (by score, then column), appended to ``out[n:]``."""
        cdef int idx[MAXC]
        cdef int score[MAXC]
        cdef int cnt = 0, i, k, s, j
        cdef bint dup
        for i in range(self.ncols):
            if not self._takes(i, v & 63):
                continue
            dup = False
            for k in range(cnt):
                if self._same_col(idx[k], i):
                    dup = True
                    break
            if dup:
                continue
            s = self._placement_score(i, v)
            j = cnt  # insertion by (score, column): columns come in order, so ties keep it
            while j > 0 and score[j - 1] > s:
                idx[j] = idx[j - 1]
                score[j] = score[j - 1]
                j -= 1
            idx[j] = i
            score[j] = s
            cnt += 1
        for k in range(cnt):
            out[n + k] = mcode(src, idx[k])
        return n + cnt

    # ------------------------------------------------------------ the interface

    cdef bint won(self) except -1:
        return self.placed == self.total

    cdef int legal(self, int* out) except -1:
        """As ``legal_moves``: a pending refill alone; else the decision; else the column cards
        to foundations (one per distinct column), the pack's card to foundations, its
        placements, the pack's turn, and the gap moves."""
        cdef int j = self._pending_refill(), n, i, k, f, v, c, src, m, nacc, empty
        cdef int acc[MAXF]
        cdef bint dup
        if j >= 0:
            out[0] = mcode(C_STOCK, j)
            return 1
        if self.column_dominance:
            n = self._decision(out)
            if n:
                return n
        n = 0
        if self.batch_left == 0:
            for i in range(self.ncols):
                if self.col_len[i] == 0 or (self.column_dominance and self._decides(i)):
                    continue
                v = self._top(i)
                if not self._wanted(v):
                    continue
                c = v & 63
                for k in range(self.fd_n[v]):
                    f = self.fd[v * self.nf + k]
                    if self.need[f] != c:
                        continue
                    dup = False  # identical columns: try one of them
                    for m in range(n):
                        if mdst(out[m]) == C_FOUND + f and self._same_col(msrc(out[m]), i):
                            dup = True
                            break
                    if not dup:
                        out[n] = mcode(i, C_FOUND + f)
                        n += 1
        src, v = C_STOCK, -1  # as ``_offered``
        if self.turn == T_PLACE and self.stock_n:
            v = self.stock[self.stock_n - 1]
        elif self.turn == T_WASTE and self.waste_n:
            src, v = C_WASTE, self.waste[self.waste_n - 1]
        if v >= 0:
            nacc = self._accepting(v, acc)
            for k in range(nacc):
                out[n] = mcode(src, C_FOUND + acc[k])
                n += 1
            if not (self.dominance and nacc and self._open(v) == nacc) and \
                    (self.turn == T_PLACE or self.turn == T_WASTE):
                n = self._placements(v, src, out, n)
        if self.turn == T_WASTE:
            # a turn may not leave more cards on the waste than it holds
            if self.stock_n and self.waste_n + min(self.deal_count, self.stock_n) <= self.waste_capacity:
                out[n] = mcode(C_STOCK, C_WASTE)
                n += 1
            elif not self.stock_n and self.waste_n and self.redeals_left > 0:
                out[n] = mcode(C_WASTE, C_STOCK)
                n += 1
        elif self.turn == T_DEALROW and self.stock_n:
            out[n] = mcode(C_STOCK, C_ROW)
            n += 1
        if self.gaps_any_top and not self.stock_n:  # as ``_gap_moves``
            empty = -1
            for i in range(self.ncols):
                if self.col_len[i] == 0:
                    empty = i
                    break
            if empty >= 0:
                for i in range(self.ncols):
                    if self.col_len[i] > 1:
                        out[n] = mcode(i, empty)
                        n += 1
        return n

    cdef int forced(self) except -2:
        """As ``forced_move``: a pending refill, or a decision with one option; else -1."""
        cdef int j = self._pending_refill()
        cdef int out[MAXF + 1]
        if j >= 0:
            return mcode(C_STOCK, j)
        if self.column_dominance and self._decision(out) == 1:
            return out[0]
        return -1

    cpdef int push(self, int move) except -1:
        """As ``ReservePosition.push``."""
        cdef int src = msrc(move), dst = mdst(move), n, j, v, f
        cdef int undo = self.batch_left
        cdef unsigned char* p
        self.snap_ok = False
        self._check(src, dst)
        if dst == C_ROW:
            n = min(self.ncols, self.stock_n)
            for j in range(n):
                self.stock_n -= 1
                self.colbuf[j * self.stride + self.col_len[j]] = self.stock[self.stock_n]
                self.col_len[j] += 1
            self._sort_all()
            undo = n
        elif src == C_WASTE and dst == C_STOCK:
            for j in range(self.waste_n):
                self.stock[j] = self.waste[self.waste_n - 1 - j]
            self.stock_n = self.waste_n
            self.waste_n = 0
            self.redeals_left -= 1
        elif src == C_STOCK and dst == C_WASTE:
            n = min(self.deal_count, self.stock_n)
            for j in range(n):
                self.stock_n -= 1
                self.waste[self.waste_n] = self.stock[self.stock_n]
                self.waste_n += 1
            undo = n
        elif dst == C_COMMIT:
            if src >= 0:
                p = self.colbuf + src * self.stride + (0 if self.fifo else self.col_len[src] - 1)
            else:
                p = self.waste + self.waste_n - 1
            v = p[0]
            p[0] = v | self._marks(v)
            if src >= 0:
                self._moved(src)
            undo = v
        else:
            if src >= 0:
                p = self.colbuf + src * self.stride
                n = self.col_len[src] - 1
                self.col_len[src] = n
                if self.fifo:
                    v = p[0]
                    memmove(p, p + 1, n)
                else:
                    v = p[n]
                self._moved(src)
            elif src == C_STOCK:
                self.stock_n -= 1
                v = self.stock[self.stock_n]
            else:
                self.waste_n -= 1
                v = self.waste[self.waste_n]
            if dst >= C_FOUND:
                f = dst - C_FOUND
                self.h[f] += 1
                self.need[f] = self._need_of(f)
                self._set_want()
                self.placed += 1
                self.rem[v & 63] -= 1
            else:
                # a pack card that a foundation takes now but is placed instead will never go there
                self.colbuf[dst * self.stride + self.col_len[dst]] = (v | self._marks(v)) if self.dominance else v
                self.col_len[dst] += 1
                self._moved(dst)
                if self.batch_size and src == C_STOCK:
                    self.batch_left = (self.batch_left or self.batch_size) - 1
                    if not self.stock_n:
                        self.batch_left = 0
            undo = (undo << 8) | v
        int_stack_push(&self.undo, undo)
        self.record(move)
        return 0

    cdef inline int _check(self, int src, int dst) except -1:
        """Refuse a code that would read or write outside the state (not a full legality check)."""
        cdef bint ok
        if dst == C_ROW or dst == C_WASTE or dst == C_STOCK:
            ok = (src == C_STOCK and dst != C_STOCK) or (src == C_WASTE and dst == C_STOCK)
        elif src >= 0:
            ok = src < self.ncols and self.col_len[src] > 0
        elif src == C_STOCK:
            ok = self.stock_n > 0 and dst != C_COMMIT
        else:
            ok = src == C_WASTE and self.waste_n > 0
        if ok and dst != C_ROW and dst != C_COMMIT and dst != C_STOCK and dst != C_WASTE:
            ok = (0 <= dst < self.ncols and self.col_len[dst] < self.stride) or \
                (C_FOUND <= dst < C_FOUND + self.nf and self.h[dst - C_FOUND] < self.seq_len[dst - C_FOUND])
        if not ok:
            raise ValueError(f"not a move here: {(src, dst)}")
        return 0

    cpdef int pop(self) except -1:
        """As ``ReservePosition.pop``."""
        cdef int move = self.unrecord()
        cdef int undo = int_stack_pop(&self.undo)
        cdef int src = msrc(move), dst = mdst(move), j, v, f, n
        cdef unsigned char* p
        self.snap_ok = False
        if dst == C_ROW:
            for j in range(undo - 1, -1, -1):
                self.col_len[j] -= 1
                self.stock[self.stock_n] = self.colbuf[j * self.stride + self.col_len[j]]
                self.stock_n += 1
            self._sort_all()
        elif src == C_WASTE and dst == C_STOCK:
            for j in range(self.stock_n):
                self.waste[j] = self.stock[self.stock_n - 1 - j]
            self.waste_n = self.stock_n
            self.stock_n = 0
            self.redeals_left += 1
        elif src == C_STOCK and dst == C_WASTE:
            for j in range(undo):
                self.waste_n -= 1
                self.stock[self.stock_n] = self.waste[self.waste_n]
                self.stock_n += 1
        elif dst == C_COMMIT:
            if src >= 0:
                p = self.colbuf + src * self.stride + (0 if self.fifo else self.col_len[src] - 1)
            else:
                p = self.waste + self.waste_n - 1
            p[0] = undo
            if src >= 0:
                self._moved(src)
        else:
            self.batch_left = undo >> 8
            v = undo & 255
            if dst >= C_FOUND:
                f = dst - C_FOUND
                self.h[f] -= 1
                self.need[f] = self._need_of(f)
                self._set_want()
                self.placed -= 1
                self.rem[v & 63] += 1
            else:
                self.col_len[dst] -= 1
                self._moved(dst)
            if src >= 0:
                p = self.colbuf + src * self.stride
                n = self.col_len[src]
                if self.fifo:
                    memmove(p + 1, p, n)
                    p[0] = v
                else:
                    p[n] = v
                self.col_len[src] = n + 1
                self._moved(src)
            elif src == C_STOCK:
                self.stock[self.stock_n] = v
                self.stock_n += 1
            else:
                self.waste[self.waste_n] = v
                self.waste_n += 1
        return move

    cdef int write_key(self, unsigned char* buf) except -1:
        """As ``key``: the heights; the columns, each as its length and values, in the key's order
        (``korder``) where the reference sorts them; then the reference's extras for the turn."""
        cdef int p = 0, f, k, i, n, left
        cdef bint sort = self.interchangeable or not self.stock_n
        for f in range(self.nf):
            buf[p] = self.h[f]
            p += 1
        for k in range(self.ncols):
            i = self.korder[k] if sort else k
            n = self.col_len[i]
            buf[p] = n
            memcpy(buf + p + 1, self.colbuf + i * self.stride, n)
            p += 1 + n
        if self.turn == T_WASTE:
            buf[p] = self.stock_n
            memcpy(buf + p + 1, self.stock, self.stock_n)
            p += 1 + self.stock_n
            buf[p] = self.waste_n
            memcpy(buf + p + 1, self.waste, self.waste_n)
            p += 1 + self.waste_n
            left = -1 if self.unlimited_redeals else self.redeals_left
            memcpy(buf + p, &left, sizeof(int))
            p += sizeof(int)
        elif self.turn != T_PLACE:
            buf[p] = self.stock_n
            p += 1
        if self.batch_size:
            buf[p] = self.batch_left
            p += 1
        return p

    # ------------------------------------------------------------ learning

    cdef int c_clock(self) except -1:
        """As ``clock``."""
        return self.stock_n

    cdef int c_stuck_horizon(self) except -1:
        """As ``stuck_horizon``."""
        return self.stock_n

    cdef int write_learned_key(self, int kind, int horizon, unsigned char* buf) except -1:
        """As ``learned_key`` (its docstring has the proof): the stock's length, the heights, then
        the columns with their hidden cards written INERT, each as its length and values, sorted by
        (length, values), so that equal multisets give equal bytes."""
        cdef Relax r
        cdef int t, i, k, j, n, p, v, a, b, m, f
        cdef bint shown
        cdef int order[MAXC]
        cdef uint64_t sk[MAXC]  # (length, values) packed into one number, for columns of at most 7 cards
        cdef bint packed = True
        cdef unsigned char* col
        cdef unsigned char* out
        cdef unsigned char* lk = self.lk
        cdef int* hh = self.rp_ints
        horizon = min(horizon, self.stock_n)
        if self.snap_ok:  # the heights of ``dead``'s generous game, which is the same game
            for f in range(self.nf):
                hh[f] = self.snap[horizon * self.nf + f]
        else:
            self._rp_start(&r, False, False)
            for t in range(self.stock_n - 1, horizon - 1, -1):
                v = self.stock[t]
                self._rp_offer(&r, v & 63, v)
                if r.ntodo:
                    self._rp_settle(&r)
        for i in range(self.ncols):  # the columns, hidden cards written INERT, into ``lk``
            col = self.colbuf + i * self.stride
            out = lk + i * self.stride
            n = self.col_len[i]
            if kind == 0:  # the inert cards hidden
                for k in range(n):
                    out[k] = col[k] if self._passed(hh, col[k]) else INERT
                order[i] = i
                continue
            first = -1  # in a queue: the first inert card, in the order cards leave (from col[0])
            if self.fifo:
                for k in range(n):
                    v = col[k]
                    if not (self.rem[v & 63] == 1 or self._passed(hh, v & 63)):
                        first = k
                        break
            shown = False
            for j in range(n):  # from the card that leaves last: col[0] in a stack, col[n - 1] in a queue
                k = n - 1 - j if self.fifo else j
                v = col[k]
                shown = shown or k == first or self.rem[v & 63] == 1 or self._passed(hh, v & 63)
                out[k] = v if shown else INERT
            order[i] = i
        for i in range(self.ncols):
            n = self.col_len[i]
            if n > 7:
                packed = False
                break
            sk[i] = (<uint64_t>n) << 56
            for k in range(n):
                sk[i] |= (<uint64_t>lk[i * self.stride + k]) << (48 - 8 * k)
        if packed:  # the same order as below, comparing one number a column
            for i in range(1, self.ncols):
                a = order[i]
                j = i
                while j > 0 and sk[order[j - 1]] > sk[a]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = a
        for i in range(1, self.ncols if not packed else 0):  # insertion sort by (length, values)
            a = order[i]
            j = i
            while j > 0:
                b = order[j - 1]
                n = self.col_len[b]
                if n < self.col_len[a] or (n == self.col_len[a]
                                           and memcmp(lk + b * self.stride, lk + a * self.stride, n) <= 0):
                    break
                order[j] = b
                j -= 1
            order[j] = a
        buf[0] = self.stock_n
        p = 1
        for f in range(self.nf):
            buf[p] = self.h[f]
            p += 1
        for k in range(self.ncols):
            i = order[k]
            m = self.col_len[i]
            buf[p] = m
            memcpy(buf + p + 1, lk + i * self.stride, m)
            p += 1 + m
        return p

    # -------------------------------------------------------------- bounds

    cdef int dead(self) except -1:
        """As ``is_dead``: 1 the buried-card bound, 2 the counting bound, 3 the copy count, 4 the
        timed copy count, 5 the pairing bound, 0 none."""
        self.horizons[0] = self.horizons[1] = 0
        self.snap_ok = False
        if self.gaps_any_top and self._gap_may_open():
            return 0
        cdef int why, horizon
        if self._buried():
            self.horizons[0], self.horizons[1] = 0, ALL_LINES
            return 1
        why = self._relaxed_play()
        if why == 0 and self.timed and self.strong_bounds and self.ply <= TIMED_PLY and self.room <= TIMED_ROOM:
            horizon = self._timed_memo()
            if horizon:
                self.horizons[0] = self.horizons[1] = horizon
                return 4
        if why == 0 and self.pairs and self.strong_bounds and self.ply <= PAIR_PLY and self.room <= PAIR_ROOM:
            horizon = self._pairing()
            if horizon:
                self.horizons[0] = self.horizons[1] = max(horizon, 0)
                return 5
        return why

    cdef bint _buried(self) noexcept:
        """As ``_buried`` (its docstring has the proof): a card that can leave its column only
        after a card it must follow.

        Each column is read once, from the card that leaves last up: ``blocked`` holds the
        cards of which every copy not yet on a foundation is behind the current card (the
        reference's ``behind.count(c) >= rem[c]`` with ``c in behind``), and a foundation is
        blocked for card y when one of the cards it needs before y (``seq[h[f]:where[y]]``,
        a mask from ``pmask``) is."""
        cdef int cnt[64]
        cdef int i, j, k, f, n, wy, y, c
        cdef unsigned char* col
        cdef uint64_t blocked
        cdef bint stuck, found = False
        memset(cnt, 0, sizeof(cnt))
        for i in range(self.ncols):
            n = self.col_len[i]
            if n < 2:
                continue
            col = self.colbuf + i * self.stride
            blocked = 0
            for j in range(n - 2, -1, -1):  # the j-th card to leave; the ones after it are behind
                c = (col[j + 1] if self.fifo else col[n - 2 - j]) & 63
                cnt[c] += 1
                if cnt[c] >= self.rem[c]:
                    blocked |= (<uint64_t>1) << c
                y = col[j] if self.fifo else col[n - 1 - j]
                stuck = True
                for k in range(self.fd_n[y]):
                    f = self.fd[y * self.nf + k]
                    wy = self.fdw[y * self.nf + k]
                    if wy < self.h[f]:
                        continue  # f is already past y's card
                    if not (blocked & self.pmask[f * SEQ + wy] & ~self.pmask[f * SEQ + self.h[f]]):
                        stuck = False
                        break
                if stuck:
                    found = True
                    break
            for j in range(n):
                cnt[col[j] & 63] = 0
            if found:
                return True
        return False

    cdef bint _gap_may_open(self) noexcept:
        """As ``_gap_may_open`` (its docstring has the proof): some column is empty now, or empties
        in the generous game played to its end (no turns: only the end counts).  Uses
        ``_relaxed_play``'s scratch arrays (heights, and ``left`` per column)."""
        cdef int f, i, k, v
        cdef bint moved = True
        cdef int* hh = self.rp_ints
        cdef int* left = hh + self.nf
        cdef uint64_t* can = self.rp_can
        for i in range(self.ncols):
            if self.col_len[i] == 0:
                return True
            left[i] = self.col_len[i]
        for f in range(self.nf):
            hh[f] = self.h[f]
            can[f] = 0
        for k in range(self.stock_n):
            self._gm_offer(self.stock[k])
        for k in range(self.waste_n):
            self._gm_offer(self.waste[k])
        for i in range(self.ncols):
            self._gm_offer(self._gm_top(i, left))
        while moved:
            moved = False
            for f in range(self.nf):
                while hh[f] < self.seq_len[f] and (can[f] >> self.seq[f * SEQ + hh[f]]) & 1:
                    hh[f] += 1
                    moved = True
            for i in range(self.ncols):
                while True:
                    v = self._gm_top(i, left)
                    if not self._passed(hh, v):
                        break
                    left[i] -= 1
                    moved = True
                    if left[i] == 0:
                        return True
                    self._gm_offer(self._gm_top(i, left))
        return False

    cdef inline int _gm_top(self, int i, int* left) noexcept:
        """``_gap_may_open``'s ``top``: the card of column ``i`` with ``left[i]`` cards still in it."""
        cdef unsigned char* col = self.colbuf + i * self.stride
        return col[self.col_len[i] - left[i]] if self.fifo else col[left[i] - 1]

    cdef inline void _gm_offer(self, int v) noexcept:
        """``_gap_may_open``'s ``offer``: every foundation that may take ``v`` may be given its card."""
        cdef int k
        for k in range(self.fd_n[v]):
            self.rp_can[self.fd[v * self.nf + k]] |= (<uint64_t>1) << (v & 63)

    cdef int _relaxed_play(self) noexcept:
        """As ``_relaxed_play`` (its docstring has the proof): play a generous version of the rest
        of the game; if even it fails, so does the deal: 2 (``COUNTING_DEAD``) or 3
        (``COPIES_DEAD``), else 0.  The same steps in the same order as the reference (``see``,
        ``offer``, ``expose``, ``settle``; the copy count's ``free`` and ``most``)."""
        cdef Relax r
        cdef int f, i, k, t, v, c
        cdef bint check_room = self.slots >= 0 and self.turn == T_PLACE and not self.batch_size
        cdef unsigned char* col
        cdef bint snap = self.learns
        cdef int out, least = self.slots
        self._rp_start(&r, check_room, self.nf == 8 and self.strong_bounds)
        if snap:
            self._snap(&r, self.stock_n)
        for t in range(self.stock_n - 1, -1, -1):
            v = self.stock[t]  # marked if it was committed in the waste before a redeal
            c = v & 63
            self._rp_offer(&r, c, v)
            if check_room:
                self._rp_see(&r, c)
                if r.ntodo:
                    self._rp_settle(&r)
                out = r.seen - r.gone
                if out > self.slots:
                    self.horizons[0] = self.horizons[1] = t + 1
                    return 2
                if r.copies:
                    out = max(out, r.seen - self._cc_most(&r))
                    if out > self.slots:
                        self.horizons[0] = self.horizons[1] = t + 1
                        return 3
                if self.slots - out < least:
                    least = self.slots - out
            elif r.ntodo:
                self._rp_settle(&r)
            if snap:
                self._snap(&r, t)
        self.snap_ok = snap  # kept for ``write_learned_key`` until the next move
        self.room = least
        if self.exact:  # every foundation must be finished
            for f in range(self.nf):
                if r.nd[f] >= 0:
                    return 2
            if r.copies and self._cc_most(&r) < self.total - self.placed:
                return 3
            return 0
        # more foundation places than cards: lost if some card left is passed by no foundation
        for i in range(self.ncols):
            col = self.colbuf + i * self.stride
            for k in range(self.col_len[i]):
                if self._rp_never(&r, col[k]):
                    return 2
        for k in range(self.waste_n):
            if self._rp_never(&r, self.waste[k]):
                return 2
        for k in range(self.stock_n):
            if self._rp_never(&r, self.stock[k]):
                return 2
        return 0

    cdef inline void _snap(self, Relax* r, int t) noexcept:
        """The generous heights when the stock has ``t`` cards left, into ``snap``."""
        cdef int f
        for f in range(self.nf):
            self.snap[t * self.nf + f] = r.hh[f]

    cdef void _rp_start(self, Relax* r, bint count, bint copies) noexcept:
        """As ``_Generous.__init__``: the generous game made at this position (``count``: seen
        and gone are kept; ``copies``: so is the copy count)."""
        cdef int f, i, k, v
        cdef unsigned char* col
        r.hh = self.rp_ints
        r.nd = r.hh + self.nf
        r.left = r.nd + self.nf
        r.nxt = r.left + self.ncols
        r.todo = r.nxt + self.ncols
        r.can = self.rp_can
        r.ntodo = r.seen = r.gone = 0
        memset(r.head, 0xFF, sizeof(r.head))  # -1
        memset(r.seen_of, 0, sizeof(r.seen_of))
        memset(r.passed, 0, sizeof(r.passed))
        r.copies = copies
        if copies:
            memset(r.both, 0, sizeof(r.both))
            memset(r.only0, 0, sizeof(r.only0))
            memset(r.only1, 0, sizeof(r.only1))
            for k in range(4):
                r.dirty[k] = True
        for f in range(self.nf):
            r.hh[f] = self.h[f]
            r.nd[f] = self.need[f]
            r.can[f] = 0
        for i in range(self.ncols):
            r.left[i] = self.col_len[i]
        if count:
            for i in range(self.ncols):
                col = self.colbuf + i * self.stride
                for k in range(self.col_len[i]):
                    self._rp_see(r, col[k] & 63)
        for i in range(self.ncols):
            self._rp_expose(r, i)
        for k in range(self.waste_n):
            v = self.waste[k]
            self._rp_offer(r, v & 63, v)
        self._rp_settle(r)

    cdef inline void _cc_free(self, Relax* r, int v) noexcept:
        """As ``_CopyCount.free``: one more free copy of ``v``'s card."""
        cdef int c = v & 63, marks = (v >> 6) & 3
        if marks == 0:
            r.both[c] += 1
        elif marks == 1:  # never to row 0
            r.only1[c] += 1
        elif marks == 2:
            r.only0[c] += 1
        else:
            return
        r.dirty[c & 3] = True

    cdef int _cc_most(self, Relax* r) noexcept:
        """As ``_CopyCount.most``."""
        cdef int s, total = 0
        for s in range(4):
            if r.dirty[s]:
                r.dirty[s] = False
                r.best[s] = self._cc_suit(r, s)
            total += r.best[s]
        return total

    cdef int _cc_suit(self, Relax* r, int s) noexcept:
        """As ``_CopyCount._suit`` (its docstring has the proof)."""
        cdef int* seq0 = self.seq + s * SEQ
        cdef int* seq1 = self.seq + (s + 4) * SEQ
        cdef int* where0 = self.cwhere + s * 64
        cdef int n0 = self.seq_len[s], n1 = self.seq_len[s + 4], h0 = self.h[s], h1 = self.h[s + 4]
        cdef int a = 0, b = 0, best = 0, c, spare
        while h0 + a < n0 and r.both[seq0[h0 + a]] + r.only0[seq0[h0 + a]]:
            a += 1
        while True:
            while h1 + b < n1:
                c = seq1[h1 + b]
                spare = r.both[c] + r.only1[c]
                if h0 <= where0[c] < h0 + a and not r.only0[c]:
                    spare -= 1  # row 0 takes one of the copies either row may use
                if spare < 1:
                    break
                b += 1
            if a + b > best:
                best = a + b
            if a == 0:
                return best
            a -= 1

    cdef inline bint _rp_never(self, Relax* r, int v) noexcept:
        """No foundation that may take ``v`` has been taken past it in the generous game."""
        return not self._passed(r.hh, v)

    cdef inline bint _passed(self, int* hh, int v) noexcept:
        """As ``_passed``: some foundation that may take ``v`` is past it at heights ``hh``."""
        cdef int k
        for k in range(self.fd_n[v]):
            if hh[self.fd[v * self.nf + k]] > self.fdw[v * self.nf + k]:
                return True
        return False

    cdef inline void _rp_see(self, Relax* r, int c) noexcept:
        r.seen += 1
        r.seen_of[c] += 1
        if r.seen_of[c] <= r.passed[c]:
            r.gone += 1

    cdef inline void _rp_offer(self, Relax* r, int c, int v) noexcept:
        cdef int k, f
        cdef uint64_t bit = (<uint64_t>1) << c
        cdef int* fd = self.fd + v * self.nf
        if r.copies:
            self._cc_free(r, v)
        for k in range(self.fd_n[v]):
            f = fd[k]
            if not (r.can[f] & bit):
                r.can[f] |= bit
                if r.nd[f] == c:
                    r.todo[r.ntodo] = f
                    r.ntodo += 1

    cdef void _rp_expose(self, Relax* r, int i) noexcept:
        cdef unsigned char* col = self.colbuf + i * self.stride
        cdef int n = self.col_len[i], v, c, k
        cdef int* fd
        cdef int* fdw
        cdef bint past
        while r.left[i]:
            v = col[n - r.left[i]] if self.fifo else col[r.left[i] - 1]
            c = v & 63
            self._rp_offer(r, c, v)
            past = False
            fd = self.fd + v * self.nf
            fdw = self.fdw + v * self.nf
            for k in range(self.fd_n[v]):
                if r.hh[fd[k]] > fdw[k] >= self.h[fd[k]]:  # as ``_passed_open``
                    past = True
                    break
            if past:
                r.left[i] -= 1  # a copy of its card was played already: let it go too
                continue
            r.nxt[i] = -1  # by_card[c].append(i)
            if r.head[c] < 0:
                r.head[c] = i
            else:
                r.nxt[r.tail[c]] = i
            r.tail[c] = i
            return

    cdef void _rp_settle(self, Relax* r) noexcept:
        cdef int f, c, i, j
        while r.ntodo:
            r.ntodo -= 1
            f = r.todo[r.ntodo]
            while r.nd[f] >= 0 and (r.can[f] >> r.nd[f]) & 1:
                c = r.nd[f]
                r.hh[f] += 1
                r.nd[f] = self.seq[f * SEQ + r.hh[f]] if r.hh[f] < self.seq_len[f] else -1
                r.passed[c] += 1
                if r.passed[c] <= r.seen_of[c]:
                    r.gone += 1
                i = r.head[c]  # by_card.pop(c): detach the list, then walk it
                r.head[c] = -1
                while i >= 0:
                    j = r.nxt[i]
                    r.left[i] -= 1
                    self._rp_expose(r, i)
                    i = j

    # ------------------------------------------------------------ the timed copy count

    cdef int _pairing(self) except? -2:
        """``pairing.pairing_horizon`` (one source: Python, run near the deal only) on the reference
        position with this position's state written in; remembered by the position's key."""
        cdef unsigned char buf[MAX_KEY]
        cdef int n = self.write_key(buf), i, k
        cdef bytes key = buf[:n]
        found = self.pr_memo.get(key)
        if found is not None:
            return found
        if len(self.pr_memo) >= TM_MEMO:
            self.pr_memo.clear()
        view = self.view
        view.cols = [[self.colbuf[i * self.stride + k] for k in range(self.col_len[i])] for i in range(self.ncols)]
        view.stock = [self.stock[k] for k in range(self.stock_n)]
        view.waste = [self.waste[k] for k in range(self.waste_n)]
        view.h = [self.h[i] for i in range(self.nf)]
        view.need = [self.need[i] for i in range(self.nf)]
        view.rem = [self.rem[i] for i in range(64)]
        view.placed = self.placed
        view.strong_bounds = True
        cdef int horizon = pairing_horizon(view)
        self.pr_memo[key] = horizon
        return horizon

    cdef int _timed_memo(self) except -1:
        """``_timed``, remembered by the position's key: the positions near the deal are met
        again at every restart, and the count costs a hundred times the other bounds."""
        cdef unsigned char buf[MAX_KEY]
        cdef int n = self.write_key(buf)
        cdef bytes key = buf[:n]
        found = self.tm_memo.get(key)
        if found is not None:
            return found
        if len(self.tm_memo) >= TM_MEMO:
            self.tm_memo.clear()
        cdef int horizon = self._timed()
        self.tm_memo[key] = horizon
        return horizon

    cdef int _timed(self) except -1:
        """As ``timed.timed_horizon`` (its docstring has the proof): the horizon if the timed copy
        count proves that no line gets past some turn, else 0.  The same steps in the same order."""
        cdef int turns = self.stock_n, n = 0, i, k, t, v, c, s, row, f, prev, before, lo, hi, mid, rnd
        cdef int in_columns, best
        cdef unsigned char* col
        cdef int* card = self.tm_ints
        cdef int* value = card + TM_ITEMS
        cdef int* free_ = value + TM_ITEMS
        cdef int* above = free_ + TM_ITEMS
        cdef int* times = above + TM_ITEMS
        cdef int* leave = times + TM_ITEMS
        cdef int* raised = leave + TM_ITEMS
        cdef int nof[64]
        cdef int of[64][2]
        cdef bint changed
        for i in range(self.ncols):  # the items: column cards in leaving order, then the pack's
            col = self.colbuf + i * self.stride
            prev = -1
            for k in range(self.col_len[i]):
                v = col[k] if self.fifo else col[self.col_len[i] - 1 - k]
                card[n] = v & 63
                value[n] = v
                free_[n] = 0
                above[n] = prev
                prev = n
                n += 1
        in_columns = n
        for t in range(turns):
            v = self.stock[turns - 1 - t]
            card[n] = v & 63
            value[n] = v
            free_[n] = t + 1
            above[n] = -1
            n += 1
        memset(nof, 0, sizeof(nof))
        for i in range(n):
            c = card[i]
            if nof[c] == 2:
                return 0  # more than two copies: not this bound's game
            of[c][nof[c]] = i
            nof[c] += 1
        for s in range(4):
            for row in range(2):
                f = s + 4 * row
                for k in range(self.h[f], self.seq_len[f]):
                    c = self.seq[f * SEQ + k]
                    if not ((nof[c] > 0 and self._tm_allowed(value[of[c][0]], row))
                            or (nof[c] > 1 and self._tm_allowed(value[of[c][1]], row))):
                        return 0
        for i in range(n):
            times[i] = free_[i]
        for rnd in range(TM_ROUNDS):
            for i in range(n):
                leave[i] = TM_NEVER
            for s in range(4):
                for row in range(2):
                    f = s + 4 * row
                    before = 0
                    for k in range(self.h[f], self.seq_len[f]):
                        c = self.seq[f * SEQ + k]
                        best = TM_NEVER
                        for t in range(nof[c]):
                            i = of[c][t]
                            if self._tm_allowed(value[i], row):
                                leave[i] = min(leave[i], max(before, times[i]))
                                best = min(best, times[i])
                        before = max(before, best)
            changed = False
            for i in range(n):
                raised[i] = max(free_[i], leave[above[i]] if above[i] >= 0 else 0)
                if raised[i] != times[i]:
                    changed = True
            if not changed:
                break
            for i in range(n):
                times[i] = raised[i]
        for s in range(4):
            self.tm_nfront[s] = self._tm_front(s, times, value, nof, of, turns)
            if self.tm_nfront[s] < 0:
                return 0
        if self._tm_combinable(in_columns, turns, turns):
            return 0
        lo, hi = 1, turns
        while lo < hi:
            mid = (lo + hi) // 2
            if self._tm_combinable(in_columns, turns, mid):
                lo = mid + 1
            else:
                hi = mid
        return turns - hi + 1

    cdef inline bint _tm_allowed(self, int v, int row) noexcept:
        return not ((v >> (6 + row)) & 1)

    cdef int _tm_settled(self, int s, int row, int c, int* times, int* fixed, int nof_open,
                         bint* is_open, int (*of)[2]) noexcept:
        """As ``settled``: every sharing has the row past the cards before c no earlier than this."""
        cdef int f = s + 4 * row, k, c2, before = 0
        for k in range(self.h[f], self.seq_len[f]):
            c2 = self.seq[f * SEQ + k]
            if c2 == c:
                return before
            if is_open[c2]:
                before = max(before, min(times[of[c2][0]], times[of[c2][1]]))
            else:
                before = max(before, times[fixed[row * 64 + c2]])
        return before

    cdef int _tm_front(self, int s, int* times, int* value, int* nof, int (*of)[2], int turns) noexcept:
        """As ``_suit_front``: the suit's unbeaten sharings, each as its items' sorted times (capped
        at turns + 1), written to ``tm_front`` (TM_FRONT of them at most); their count, or -1."""
        cdef int fixed[128]  # row * 64 + card -> item
        cdef int ch_card[16]
        cdef int ch_early[16]
        cdef int ch_late[16]
        cdef bint is_open[64]
        cdef int nch = 0, k, j, c, a, b, f0 = s, f1 = s + 4, row, i, best, t, m, x, count = 0, q, total
        cdef int ways
        cdef bint in0, in1, skip, changed
        cdef unsigned char gone[32]
        cdef unsigned char* kept
        cdef unsigned char* store = self.tm_front + s * TM_FRONT * 32
        memset(is_open, 0, sizeof(is_open))
        for row in range(2):  # cards one row takes: that row's earliest item
            f = s + 4 * row
            for k in range(self.h[f], self.seq_len[f]):
                c = self.seq[f * SEQ + k]
                if self._tm_in(1 - row, s, c):
                    continue
                best = -1
                for j in range(nof[c]):
                    i = of[c][j]
                    if self._tm_allowed(value[i], row) and (best < 0 or times[i] < times[best]):
                        best = i
                fixed[row * 64 + c] = best
        for k in range(self.h[f0], self.seq_len[f0]):  # cards both rows take, in row 0's order
            c = self.seq[f0 * SEQ + k]
            if not self._tm_in(1, s, c):
                continue
            if nof[c] != 2:
                return -1
            a, b = of[c][0], of[c][1]
            if times[b] < times[a]:
                a, b = b, a
            ways = 0
            if self._tm_allowed(value[a], 0) and self._tm_allowed(value[b], 1):
                ways |= 1
            if self._tm_allowed(value[b], 0) and self._tm_allowed(value[a], 1):
                ways |= 2
            if ways == 0:
                return -1
            if ways != 3 or times[a] == times[b]:
                if ways & 1:
                    fixed[c], fixed[64 + c] = a, b
                else:
                    fixed[c], fixed[64 + c] = b, a
            else:
                ch_card[nch], ch_early[nch], ch_late[nch] = c, a, b
                nch += 1
        changed = True
        while changed:  # each pass fixes the first choice it can, then starts again
            changed = False
            for j in range(nch):
                is_open[ch_card[j]] = True
            for j in range(nch):
                c = ch_card[j]
                if self._tm_settled(s, 0, c, times, fixed, nch, is_open, of) >= times[ch_late[j]]:
                    fixed[c], fixed[64 + c] = ch_late[j], ch_early[j]
                elif self._tm_settled(s, 1, c, times, fixed, nch, is_open, of) >= times[ch_late[j]]:
                    fixed[c], fixed[64 + c] = ch_early[j], ch_late[j]
                else:
                    continue
                for q in range(j, nch - 1):
                    ch_card[q], ch_early[q], ch_late[q] = ch_card[q + 1], ch_early[q + 1], ch_late[q + 1]
                nch -= 1
                is_open[c] = False
                changed = True
                break
        if nch > TM_MAX_CHOICES:
            return -1
        total = (self.seq_len[f0] - self.h[f0]) + (self.seq_len[f1] - self.h[f1])
        for m in range(1 << nch):
            for j in range(nch):  # itertools.product order: the first choice varies slowest
                c = ch_card[j]
                if (m >> (nch - 1 - j)) & 1:
                    fixed[c], fixed[64 + c] = ch_late[j], ch_early[j]
                else:
                    fixed[c], fixed[64 + c] = ch_early[j], ch_late[j]
            q = 0
            for row in range(2):
                f = s + 4 * row
                t = 0
                for k in range(self.h[f], self.seq_len[f]):
                    t = max(t, times[fixed[row * 64 + self.seq[f * SEQ + k]]])
                    gone[q] = min(t, turns + 1)
                    q += 1
            for k in range(1, total):  # insertion sort
                x = gone[k]
                j = k
                while j > 0 and gone[j - 1] > x:
                    gone[j] = gone[j - 1]
                    j -= 1
                gone[j] = x
            skip = False
            for j in range(count):  # beaten or matched by a kept one?
                if _no_later(store + j * 32, gone, total):
                    skip = True
                    break
            if skip:
                continue
            j = 0
            for k in range(count):  # drop the kept ones it beats, keeping their order
                kept = store + k * 32
                if not _no_later(gone, kept, total):
                    if j != k:
                        memcpy(store + j * 32, kept, 32)
                    j += 1
            count = j
            if count == TM_FRONT:
                return -1
            memcpy(store + count * 32, gone, total)
            self.tm_total[s] = total
            count += 1
        self.tm_total[s] = total
        return count

    cdef inline bint _tm_in(self, int row, int s, int c) noexcept:
        """Row ``row`` of suit ``s`` still takes card ``c``."""
        cdef int f = s + 4 * row, w = self.cwhere[f * 64 + c]
        return self.h[f] <= w < self.seq_len[f]

    cdef bint _tm_combinable(self, int in_columns, int turns, int last) noexcept:
        """As ``_combinable``: one curve per suit gives at every turn 1..last at least the need."""
        cdef int s, j, k, t
        cdef unsigned char* times_gone
        cdef int* curve
        cdef int* best
        cdef int* rest = self.tm_rest  # 5 * (TM_TURNS)
        for s in range(4):  # the curves of the kept sharings, and each suit's best
            best = self.tm_best + s * TM_TURNS
            for t in range(last + 1):
                best[t] = 0
            for j in range(self.tm_nfront[s]):
                curve = self.tm_curves + (s * TM_FRONT + j) * TM_TURNS
                times_gone = self.tm_front + (s * TM_FRONT + j) * 32
                for t in range(last + 1):
                    curve[t] = 0
                for k in range(self.tm_total[s]):
                    if times_gone[k] <= last:
                        curve[times_gone[k]] += 1
                for t in range(1, last + 1):
                    curve[t] += curve[t - 1]
                for t in range(last + 1):
                    if curve[t] > best[t]:
                        best[t] = curve[t]
        for t in range(last + 1):
            rest[4 * TM_TURNS + t] = 0
        for j in range(3, -1, -1):
            for t in range(last + 1):
                rest[j * TM_TURNS + t] = rest[(j + 1) * TM_TURNS + t] + self.tm_best[j * TM_TURNS + t]
        for t in range(last + 1):
            self.tm_acc[t] = 0
        self.tm_tried = 0
        return self._tm_go(0, self.tm_acc, in_columns, last)

    cdef bint _tm_go(self, int j, int* acc, int in_columns, int last) noexcept:
        """As ``go`` in ``_combinable``."""
        cdef int t, k
        cdef int* nxt
        cdef int* curve
        self.tm_tried += 1
        if self.tm_tried > TM_BUDGET:
            return True
        for t in range(1, last + 1):
            if acc[t] + self.tm_rest[j * TM_TURNS + t] < in_columns + t - self.slots:
                return False
        if j == 4:
            return True
        nxt = self.tm_acc + (j + 1) * TM_TURNS
        for k in range(self.tm_nfront[j]):
            curve = self.tm_curves + (j * TM_FRONT + k) * TM_TURNS
            for t in range(last + 1):
                nxt[t] = acc[t] + curve[t]
            if self._tm_go(j + 1, nxt, in_columns, last):
                return True
        return False

    # ------------------------------------------------------------ Python level

    def move_json(self, int move):
        """As ``ReservePosition.move_json``: ``None`` for a ``COMMIT``."""
        cdef int src = msrc(move), dst = mdst(move), v
        if dst == C_COMMIT:
            return None
        if dst == C_ROW:
            return {"card": cards.name(self.stock[self.stock_n - 1] & 63), "from": "stock", "to": "reserve",
                    "count": min(self.ncols, self.stock_n)}
        if src == C_WASTE and dst == C_STOCK:
            return {"card": cards.name(self.waste[0] & 63), "from": "waste", "to": "stock",
                    "count": self.waste_n}
        if src >= 0:
            v = self._top(src)
        elif src == C_STOCK:
            v = self.stock[self.stock_n - 1]
        else:
            v = self.waste[self.waste_n - 1]
        out = {"card": cards.name(v & 63), "from": _name(src), "to": _name(dst)}
        if src == C_STOCK and dst == C_WASTE and self.deal_count > 1:
            out["count"] = min(self.deal_count, self.stock_n)
        return out

    def reference_move(self, int move):
        """The reference's ``(src, dst)`` pair."""
        return (msrc(move), mdst(move))

    def code(self, move):
        """The code of the reference's move ``(src, dst)`` (the inverse of ``reference_move``)."""
        src, dst = move
        return mcode(src, dst)

    def state(self):
        """Everything mutable: first as the reference holds it (cols, h, need, stock, waste,
        rem, placed, redeals_left, batch_left), then the history and the undo stack."""
        return ([[self.colbuf[i * self.stride + k] for k in range(self.col_len[i])] for i in range(self.ncols)],
                [self.h[f] for f in range(self.nf)], [self.need[f] for f in range(self.nf)],
                [self.stock[k] for k in range(self.stock_n)], [self.waste[k] for k in range(self.waste_n)],
                list(self.rem), self.placed, self.redeals_left, self.batch_left,
                self.history, [self.undo.data[k] for k in range(self.undo.size)])
