# cython: language_level=3
"""The tableau family's compiled position: ``TableauCore``, the same game as ``TableauPosition``.

Built from the reference position of the same deal (``TableauCore(TableauPosition(layout,
deal))``): the reference renames the cards and computes the rule table once
(``rules.py``: ``fits``, ``space_ok``, ``under``, ``always_safe``); this class copies it
into C arrays and plays the same moves, in the same order, with the same forced moves and
the same keys.  The rules, the representation, the move scores and the proofs of the
dominances are in ``solver/families/tableau/position.py``; each method here names the
reference method it mirrors, and the constants are the reference's, imported.

What differs is representation only:

* cards are bytes; columns, the reserve and the ring (stock and waste) are fixed arrays
  with heights;
* a move is an int code (``_code``): a plain move packs its stack numbers, card count and
  waste place (``Move(src, dst, n, reach)``); the stock's moves are ``TURN_CODE`` and
  ``REDEAL_CODE``; a lateral move with its use (``Move(i, j, n, then=use)``) sets
  ``JOINED`` and packs the use as its source, whether it goes home, and its count or
  waste place.  Its destination, column i or the foundation of the card the lateral move
  uncovers, follows from the position where the code is played, which is the position
  where ``legal`` made it (a code from ``legal`` is only ever played there);
* the key is the reference's key byte for byte (so equal exactly when the reference's is).
"""

cimport cython
from libc.stdint cimport uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy, memmove, memset

from solver.families.core cimport CorePosition, IntStack, int_stack_push, int_stack_pop, MAX_MOVES

from ... import cards
from ...errors import UnsupportedError
from . import position as ref_module
from .position import STOCK, TURN, REDEAL, Move, TableauPosition

cdef enum:
    NCARD = 52       # card ints 0..51; two packs share them
    MAXC = 20        # columns at most (as many as a layout may have)
    MAXCELL = 16     # cells at most
    MAXF = 8         # foundations at most
    MAXH = 128       # cards in one column, the reserve or the ring at most (7-bit counts)
    STOCK_CODE = 31  # the stock's pseudo-stack in a code (stack numbers are 0..30)
    JOINED = 1 << 30  # a lateral move with its use

# The reference's scores (position.py), as C constants.
cdef int HOME = ref_module.HOME, HOME_FLIP = ref_module.HOME_FLIP, UNRANKED = ref_module.UNRANKED
cdef int COLUMN_TO_COLUMN = ref_module.COLUMN_TO_COLUMN, COLUMN_TO_SPACE = ref_module.COLUMN_TO_SPACE
cdef int LATERAL_USE = ref_module.LATERAL_USE, TO_CELL = ref_module.TO_CELL
cdef int DEPTH_TO_NEEDED = ref_module.DEPTH_TO_NEEDED, NO_NEEDED_CARD = ref_module.NO_NEEDED_CARD
cdef int REACH_COST = ref_module.REACH_COST, ANY_SIZE = ref_module.ANY_SIZE
cdef int OUT_OF_ORDER_W = ref_module.OUT_OF_ORDER_W, CELL_W = ref_module.CELL_W
cdef int SPACE_W = ref_module.SPACE_W, NEED_W = ref_module.NEED_W, FLIP_W = ref_module.FLIP_W
cdef int DIS_W = ref_module.DIS_W
cdef int NONE = -(1 << 29)  # a Destinations entry that is None


cdef struct Leave:
    int flips, empties, uncovers, breaks


cdef struct Dest:
    int home, column, space, cell  # NONE: that source never goes there


cdef Leave _leave(row):
    cdef Leave out
    out.flips, out.empties, out.uncovers, out.breaks = row.flips, row.empties, row.uncovers, row.breaks
    return out


cdef Dest _dest(row):
    cdef Dest out
    out.home = NONE if row.home is None else row.home
    out.column = row.column
    out.space = row.space
    out.cell = NONE if row.cell is None else row.cell
    return out


cdef Leave LEAVE_BY_GROUP = _leave(ref_module.LEAVE_BY_GROUP)
cdef Leave LEAVE_BY_CELL = _leave(ref_module.LEAVE_BY_CELL)
cdef Dest FROM_CELL = _dest(ref_module.FROM_CELL)
cdef Dest FROM_RESERVE = _dest(ref_module.FROM_RESERVE)
cdef Dest FROM_WASTE = _dest(ref_module.FROM_WASTE)
cdef Dest FROM_FOUNDATION = _dest(ref_module.FROM_FOUNDATION)

# Policies (``tableau.moves``).
cdef enum:
    SINGLE = 0
    SEQUENCE = 1
    SUPERMOVE = 2


# ------------------------------------------------------------------ codes

cdef inline int plain_code(int src, int dst, int n, int reach) noexcept:
    """``Move(src, dst, n, reach)``: 5 + 5 + 7 + 7 bits."""
    return src | (dst << 5) | (n << 10) | (reach << 17)


cdef int TURN_CODE = plain_code(STOCK_CODE, STOCK_CODE, 1, 0)
cdef int REDEAL_CODE = plain_code(STOCK_CODE, STOCK_CODE, 0, 0)


cdef inline int joined_code(int i, int j, int n, int use_src, bint home, int payload) noexcept:
    """``Move(i, j, n, then=use)``: the lateral move (5 + 5 + 7 bits), the use's source (5),
    whether it goes home (1), its count or waste place (7), and the flag ``JOINED``."""
    return JOINED | i | (j << 5) | (n << 10) | (use_src << 17) | (home << 22) | (payload << 23)


cdef inline int code_src(int m) noexcept:
    return m & 31


cdef inline int code_dst(int m) noexcept:
    return (m >> 5) & 31


cdef inline int code_n(int m) noexcept:
    return (m >> 10) & 127


cdef inline int code_reach(int m) noexcept:
    """The waste place of a plain move (0 for a joined move's lateral part)."""
    return 0 if m & JOINED else (m >> 17) & 127


cdef inline int make_card(int rank, int suit) noexcept:
    """``cards.make``."""
    return (rank - 1) * 4 + suit


@cython.final  # no subclass: its C methods are called directly (and inlined), not through a table
cdef class TableauCore(CorePosition):
    """A deal of a tableau game, compiled; moves are int codes (see the module text)."""

    DEAD_REASONS = ref_module.DEAD_REASONS

    # -- the deal and its rules (fixed)
    cdef object ref                    # the reference position at the deal (names, ``real``)
    cdef int nc, ncell, W, F, R, nf, top, k, policy
    cdef bint has_heel, autofill, unlimited, has_face_down, to_foundation, removable
    cdef bint waste_safe, lateral_only_with_use, any_size_to_space, any_space, blocked_bound
    cdef unsigned char fits[NCARD][NCARD]
    cdef unsigned char space_ok[NCARD]
    cdef unsigned char always_safe[NCARD]
    cdef int removable_need[NCARD][4]
    cdef int under_n[NCARD]
    cdef unsigned char under[NCARD][NCARD]
    cdef uint64_t over_mask[NCARD]     # bit a set: card c may go on card a (for the blocked bound)
    cdef int suit_found_n[4]
    cdef int suit_found[4][MAXF]

    # -- the mutable state (as the reference's)
    cdef unsigned char cols[MAXC][MAXH]
    cdef int h[MAXC]                   # column heights
    cdef int down[MAXC]                # face-down cards at the bottom of each column
    cdef int cells[MAXCELL]            # -1: empty
    cdef int fh[MAXF]                  # foundation heights
    cdef unsigned char heel[MAXH]      # the reserve pile, top card last
    cdef int nheel
    cdef unsigned char ring[MAXH]      # stock and waste: ring[:wp] the waste, ring[wp:] the stock
    cdef int L, wp
    cdef int redeals                   # left; -1: no limit
    cdef int left
    cdef IntStack undo                 # per primitive: what pop needs (as the reference's _undo)
    cdef IntStack groups               # primitives per push

    # -- scratch for legal (per call)
    cdef unsigned char need[NCARD]
    cdef int accept_n[NCARD]
    cdef unsigned char accept[NCARD][MAXC]
    cdef int seqs[MAXC]
    cdef int first_empty, free_cell, max_nonempty, max_empty
    cdef int nplain, njoined
    cdef int psc[MAX_MOVES]            # plain moves: score, code, first part (src, dst, n, reach)
    cdef int pcode[MAX_MOVES]
    cdef int jsc[MAX_MOVES]            # joined moves likewise (their first part: the lateral move)
    cdef int jcode[MAX_MOVES]
    # the disorder (``_rank_by_disorder``): per column and height, the cards out of order and
    # the lowest rank below it; per column, the cards the foundations need next
    cdef int pref_out[MAXC][MAXH + 1]
    cdef int pref_min[MAXC][MAXH + 1]
    cdef int nneed[MAXC]
    # caches per column, recomputed only for columns changed since (``touch``): the first key
    # bytes packed into an int (``pack``), the disorder's prefix counts and needed cards
    cdef uint64_t packed[MAXC]
    cdef bint key_stale[MAXC]
    cdef int key_order[MAXC]           # the columns in key order, as last sorted (nearly sorted next time)
    cdef bint dis_stale[MAXC]
    cdef uint64_t need_version         # bumped when a foundation changes (the needed cards change)
    cdef uint64_t nneed_version[MAXC]  # the need_version nneed was counted at (0: never)
    # scratch for the blocked bound (``blocked``): per place, per card value, a stack of places
    cdef unsigned char b_card[MAXH]
    cdef int b_above[MAXH]
    cdef int b_below[MAXH]
    cdef unsigned char b_face_down[MAXH]
    cdef unsigned char b_bottom[MAXH]
    cdef unsigned char b_in_column[MAXH]
    cdef unsigned char b_freed[MAXH]
    cdef unsigned char b_leaves[MAXH]
    cdef unsigned char b_goes_home[MAXH]
    cdef unsigned char b_queued[MAXH]
    cdef int b_stack[MAXH]
    cdef int b_top, b_n, b_homed
    cdef bint b_space
    cdef uint64_t b_home               # bit c: some copy of card value c is, or goes, home
    cdef uint64_t b_can_top            # bit c: some copy of card value c can be a top
    cdef int b_nplaces[NCARD]
    cdef int b_ring_count[NCARD]       # copies of each card value in the stock and waste
    cdef uint64_t b_ring_home          # bit c: the stock's copies of c go home
    cdef uint64_t b_ring_left          # bit c: the stock's copies of c leave
    cdef int b_places[NCARD][2]

    def __init__(self, ref: TableauPosition):
        if ref.history:
            raise ValueError("TableauCore is built from a position at the deal")
        if ref.nc > MAXC or ref.ncell > MAXCELL or ref.nf > MAXF or ref.R >= STOCK_CODE:
            raise UnsupportedError(f"TableauCore: at most {MAXC} columns, {MAXCELL} cells, {MAXF} foundations "
                                   f"and {STOCK_CODE} stacks in all (the codes of its moves)")
        total = sum(map(len, ref.cols)) + len(ref.heel) + len(ref.ring)
        if total >= MAXH:
            raise ValueError(f"TableauCore holds at most {MAXH - 1} cards")
        self.ref = ref
        self.nc, self.ncell, self.W, self.F, self.R, self.nf = ref.nc, ref.ncell, ref.W, ref.F, ref.R, ref.nf
        self.top, self.k = ref.top, ref.k
        self.policy = {"single": SINGLE, "sequence": SEQUENCE, "supermove": SUPERMOVE}[ref.moves_policy]
        self.has_heel, self.autofill, self.unlimited = ref.has_heel, ref.autofill, ref.unlimited
        self.has_face_down, self.to_foundation, self.removable = ref.has_face_down, ref.to_foundation, ref.removable
        self.waste_safe, self.lateral_only_with_use = ref.waste_safe, ref.lateral_only_with_use
        self.any_size_to_space = ref.any_size_to_space
        self.any_space = ref.spaces == "any"
        self.blocked_bound = ref.blocked_bound
        cdef int a, b, s
        for a in range(NCARD):
            self.space_ok[a] = ref.space_ok[a]
            self.always_safe[a] = ref.always_safe[a]
            for s in range(4):
                self.removable_need[a][s] = ref.removable_need[a][s]
            for b in range(NCARD):
                self.fits[a][b] = ref.fits[a][b]
            self.under_n[a] = len(ref.under[a])
            for b, c in enumerate(ref.under[a]):
                self.under[a][b] = c
            self.over_mask[a] = 0
            for c in ref.over[a]:
                self.over_mask[a] |= (<uint64_t>1) << c
        for s in range(4):
            self.suit_found_n[s] = len(ref.suit_found[s])
            for b, f in enumerate(ref.suit_found[s]):
                self.suit_found[s][b] = f
        for a in range(ref.nc):
            self.h[a] = len(ref.cols[a])
            self.down[a] = ref.down[a]
            for b, c in enumerate(ref.cols[a]):
                self.cols[a][b] = c
        for a in range(ref.ncell):
            self.cells[a] = ref.cells[a]
        for a in range(ref.nf):
            self.fh[a] = ref.fh[a]
        self.nheel = len(ref.heel)
        for b, c in enumerate(ref.heel):
            self.heel[b] = c
        self.L = len(ref.ring)
        for b, c in enumerate(ref.ring):
            self.ring[b] = c
        self.wp = ref.wp
        self.redeals = -1 if ref.redeals is None else ref.redeals
        self.left = ref.left
        for a in range(MAXC):
            self.key_stale[a] = self.dis_stale[a] = True
            self.key_order[a] = a
            self.nneed_version[a] = 0
        self.need_version = 1

    def __dealloc__(self):
        free(self.undo.data)
        free(self.groups.data)

    # ------------------------------------------------------------ helpers

    cdef inline int found_for(self, int c) noexcept:
        """As ``_found_for``: the foundation that takes card c now, or -1."""
        cdef int s = c & 3, r = c >> 2, x
        for x in range(self.suit_found_n[s]):
            if self.fh[self.suit_found[s][x]] == r:
                return self.suit_found[s][x]
        return -1

    cdef inline int seq_len(self, int i) noexcept:
        """As ``_seq_len``: the built sequence on top of column i."""
        cdef int h = self.h[i], j, lo = self.down[i]
        cdef unsigned char* col = self.cols[i]
        if not h:
            return 0
        j = h - 1
        while j > lo and self.fits[col[j - 1]][col[j]]:
            j -= 1
        return h - j

    cdef int max_move(self, bint to_empty) noexcept:
        """As ``_max_move``."""
        if self.policy == SINGLE:
            return 1
        if self.policy == SEQUENCE:
            return ANY_SIZE
        cdef int free = 0, empties = 0, x
        for x in range(self.ncell):
            if self.cells[x] < 0:
                free += 1
        if self.any_space:
            for x in range(self.nc):
                if not self.h[x]:
                    empties += 1
        if to_empty and empties:
            empties -= 1
        return (free + 1) << empties

    cdef bint safe(self, int c) noexcept:
        """As ``_safe`` (its docstring has the proof)."""
        cdef int x, b, need, s, y
        if self.always_safe[c]:
            return True
        if self.removable:
            if self.autofill:
                return False
            for x in range(self.nf):
                if self.fh[x] < self.removable_need[c][x & 3]:
                    return False
            return True
        for x in range(self.under_n[c]):
            b = self.under[c][x]
            need = (b >> 2) + 1
            s = b & 3
            for y in range(self.suit_found_n[s]):
                if self.fh[self.suit_found[s][y]] < need:
                    return False
        return True

    cdef int waste_reach(self, int* out) noexcept:
        """As ``_waste_reach``: waste places q (ring[q - 1] playable after turning), nearest first."""
        cdef int n = 0, q, L = self.L, k = self.k
        cdef unsigned char seen[MAXH + 1]
        if self.wp:
            out[n] = self.wp
            n += 1
        q = self.wp
        while q < L:
            q = min(L, q + k)
            out[n] = q
            n += 1
        if self.redeals != 0 and L:
            memset(seen, 0, L + 1)
            for q in range(n):
                seen[out[q]] = 1
            q = 0
            while q < L:
                q = min(L, q + k)
                if not seen[q]:
                    out[n] = q
                    n += 1
        return n

    # ------------------------------------------------------------ play

    cpdef int push(self, int move) except -1:
        """As ``TableauPosition.push``: the move as primitive moves; ``pop`` takes them all back."""
        cdef int count, i, n, use_src, payload, f
        if move & JOINED:
            i, n = code_src(move), code_n(move)
            count = self.play(plain_code(i, code_dst(move), n, 0))
            use_src = (move >> 17) & 31
            payload = (move >> 23) & 127
            if (move >> 22) & 1:  # home: the card the lateral move uncovered
                f = self.found_for(self.cols[i][self.h[i] - 1])
                count += self.play(plain_code(i, self.F + f, 1, 0))
            elif use_src < self.nc:
                count += self.play(plain_code(use_src, i, payload, 0))
            elif use_src == self.W:
                count += self.play(plain_code(use_src, i, 1, payload))
            else:
                count += self.play(plain_code(use_src, i, 1, 0))
        else:
            count = self.play(move)
        int_stack_push(&self.groups, count)
        return 0

    cdef int play(self, int move) except -1:
        """As ``_play``: a plain move as primitive moves (turning first for a waste card further
        in); how many."""
        cdef int q = code_reach(move), n = 0, L = self.L
        if not q:
            self.prim(move)
            return 1
        if not (q >= self.wp and ((q - self.wp) % self.k == 0 or q == L)):
            while self.wp < L:
                self.prim(TURN_CODE)
                n += 1
            self.prim(REDEAL_CODE)
            n += 1
        while self.wp < q:
            self.prim(TURN_CODE)
            n += 1
        if self.wp != q:
            raise ValueError(f"waste card {q} is not reachable")
        self.prim(move & ((1 << 17) - 1))
        return n + 1

    cdef int prim(self, int move) except -1:
        """As ``_prim``: one primitive move, noting what ``unprim`` needs."""
        cdef int src = code_src(move), dst = code_dst(move), n = code_n(move)
        cdef int nc = self.nc, W = self.W, F = self.F, flipped = 0
        cdef unsigned char moving[MAXH]
        cdef unsigned char* col
        if src == STOCK_CODE:
            int_stack_push(&self.undo, self.wp)
            if n:  # TURN
                self.wp = min(self.L, self.wp + self.k)
            else:  # REDEAL
                self.wp = 0
                if not self.unlimited:
                    self.redeals -= 1
            self.record(move)
            return 0
        # take
        if src < nc:
            col = self.cols[src]
            self.h[src] -= n
            memcpy(moving, col + self.h[src], n)
            if self.down[src] and self.h[src] == self.down[src]:
                self.down[src] -= 1
                flipped = 1
            elif not self.h[src] and self.autofill and self.nheel:
                self.nheel -= 1
                col[0] = self.heel[self.nheel]  # the reserve fills the space at once
                self.h[src] = 1
                flipped = 2
        elif src < W:
            moving[0] = self.cells[src - nc]
            self.cells[src - nc] = -1
        elif src == W:
            self.wp -= 1
            moving[0] = self.ring[self.wp]
            memmove(self.ring + self.wp, self.ring + self.wp + 1, self.L - self.wp - 1)
            self.L -= 1
        elif src == self.R:
            self.nheel -= 1
            moving[0] = self.heel[self.nheel]
        else:
            moving[0] = self.take_home(src - F)
        # put
        if dst < nc:
            memcpy(self.cols[dst] + self.h[dst], moving, n)
            self.h[dst] += n
        elif dst < W:
            self.cells[dst - nc] = moving[0]
        else:
            self.put_home(dst - F)
        self.touch(src)
        self.touch(dst)
        int_stack_push(&self.undo, flipped)
        self.record(move)
        return 0

    cdef inline unsigned char take_home(self, int f) noexcept:
        """The top card of foundation f leaves it (to be put elsewhere)."""
        cdef unsigned char c = make_card(self.fh[f], f & 3)
        self.fh[f] -= 1
        self.left += 1
        return c

    cdef inline void put_home(self, int f) noexcept:
        """Foundation f takes its next card."""
        self.fh[f] += 1
        self.left -= 1

    cdef inline void touch(self, int s) noexcept:
        """Stack s changed: its cached key bytes and disorder counts are stale."""
        if s < self.nc:
            self.key_stale[s] = self.dis_stale[s] = True
        elif s >= self.F and s < self.R:
            self.need_version += 1

    cpdef int pop(self) except -1:
        """As ``TableauPosition.pop``: the last push, all its primitives; returns the first."""
        cdef int n = int_stack_pop(&self.groups), last = 0, x
        for x in range(n):
            last = self.unprim()
        return last

    cdef int unprim(self) except -1:
        """As ``_unprim``."""
        cdef int move = self.unrecord()
        cdef int u = int_stack_pop(&self.undo)
        cdef int src = code_src(move), dst = code_dst(move), n = code_n(move)
        cdef int nc = self.nc, W = self.W, F = self.F
        cdef unsigned char moving[MAXH]
        if src == STOCK_CODE:
            self.wp = u
            if not n and not self.unlimited:  # REDEAL
                self.redeals += 1
            return move
        if dst < nc:
            self.h[dst] -= n
            memcpy(moving, self.cols[dst] + self.h[dst], n)
        elif dst < W:
            moving[0] = self.cells[dst - nc]
            self.cells[dst - nc] = -1
        else:
            moving[0] = self.take_home(dst - F)
        if src < nc:
            if u == 2:
                self.h[src] -= 1
                self.heel[self.nheel] = self.cols[src][0]
                self.nheel += 1
            elif u:
                self.down[src] += 1
            memcpy(self.cols[src] + self.h[src], moving, n)
            self.h[src] += n
        elif src < W:
            self.cells[src - nc] = moving[0]
        elif src == W:
            memmove(self.ring + self.wp + 1, self.ring + self.wp, self.L - self.wp)
            self.ring[self.wp] = moving[0]
            self.L += 1
            self.wp += 1
        elif src == self.R:
            self.heel[self.nheel] = moving[0]
            self.nheel += 1
        else:
            self.put_home(src - F)
        self.touch(src)
        self.touch(dst)
        return move

    # ------------------------------------------------------------ queries

    cdef bint won(self) except -1:
        return self.left == 0

    cdef int dead(self) except -1:
        """As ``is_dead``: 1 (``BLOCKED_DEAD``) when ``blocked`` proves no win."""
        return 1 if self.blocked_bound and self.blocked() else 0

    cdef bint blocked(self) noexcept:
        """As ``_blocked`` (its docstring has the rules and the proof): the same least fixpoint,
        which does not depend on the order the rules are applied in, so here by propagation
        (each new fact wakes only the places it can change) rather than the reference's sweeps,
        stopping as soon as every card can go home.  The stock and waste's cards are free from
        the start and nothing lies on or under them, so the copies of a card value there share
        their facts: they are kept per value (``b_ring_*``), not as places."""
        cdef int n = 0, i, j, x, c, f, r
        self.b_space = False
        self.b_homed = 0
        self.b_top = 0
        self.b_home = self.b_can_top = self.b_ring_home = self.b_ring_left = 0
        memset(self.b_nplaces, 0, NCARD * sizeof(int))
        memset(self.b_ring_count, 0, NCARD * sizeof(int))
        for i in range(self.nc):
            if not self.h[i]:
                self.b_space = True
            for j in range(self.h[i]):
                self.b_card[n] = self.cols[i][j]
                self.b_above[n] = n + 1 if j + 1 < self.h[i] else -1
                self.b_below[n] = n - 1 if j else -1
                self.b_face_down[n] = j < self.down[i]
                self.b_bottom[n] = j == 0
                self.b_in_column[n] = True
                n += 1
        for j in range(self.L):
            self.b_ring_count[self.ring[j]] += 1
        for j in range(self.nheel):
            self.b_card[n] = self.heel[j]
            self.b_above[n] = n + 1 if j + 1 < self.nheel else -1
            self.b_below[n] = n - 1 if j else -1
            self.b_face_down[n] = self.b_bottom[n] = self.b_in_column[n] = False
            n += 1
        self.b_n = n
        for x in range(n):
            c = self.b_card[x]
            if self.b_nplaces[c] < 2:  # two packs: at most two places per card value
                self.b_places[c][self.b_nplaces[c]] = x
                self.b_nplaces[c] += 1
            self.b_freed[x] = self.b_leaves[x] = self.b_goes_home[x] = self.b_queued[x] = 0
        for f in range(self.nf):
            for r in range(self.fh[f]):
                self.b_home |= (<uint64_t>1) << (r * 4 + (f & 3))
        for x in range(n):
            if self.b_above[x] < 0:
                self.b_set_freed(x)
            self.b_push(x)
        for c in range(NCARD):
            if self.b_ring_count[c]:
                self.b_ring_evaluate(c)
        if self.removable:
            for c in range(NCARD):
                self.b_check_removable(c)
        n += self.L  # every card: the places and the stock's
        while self.b_top and self.b_homed < n:
            self.b_top -= 1
            x = self.b_stack[self.b_top]
            self.b_queued[x] = 0
            self.b_evaluate(x)
        return self.b_homed < n

    cdef void b_ring_evaluate(self, int c) noexcept:
        """The rules for the stock's copies of card value c: they go home, they leave."""
        if c < 4 or (self.b_home >> (c - 4)) & 1:
            self.b_ring_go_home(c)
        elif (self.b_space and self.space_ok[c]) or self.b_can_top & self.over_mask[c]:
            self.b_ring_leave(c)

    cdef void b_ring_go_home(self, int c) noexcept:
        if (self.b_ring_home >> c) & 1:
            return
        self.b_ring_home |= (<uint64_t>1) << c
        self.b_homed += self.b_ring_count[c]
        self.b_set_home(c)
        self.b_ring_leave(c)

    cdef void b_ring_leave(self, int c) noexcept:
        """Leaving, a stock card goes alone onto a column (or home): it can be a top."""
        if (self.b_ring_left >> c) & 1:
            return
        self.b_ring_left |= (<uint64_t>1) << c
        self.b_set_can_top(c)

    cdef inline void b_push(self, int x) noexcept:
        if not self.b_queued[x] and not (self.b_leaves[x] and self.b_goes_home[x]):
            self.b_queued[x] = 1
            self.b_stack[self.b_top] = x
            self.b_top += 1

    cdef inline void b_push_card(self, int c) noexcept:
        """Wake the places of card value c."""
        cdef int y
        for y in range(self.b_nplaces[c]):
            self.b_push(self.b_places[c][y])

    cdef void b_evaluate(self, int x) noexcept:
        """The rules for place x: it goes home, it leaves."""
        cdef int c = self.b_card[x], a = self.b_above[x]
        if not self.b_goes_home[x] and self.b_freed[x] and (c < 4 or (self.b_home >> (c - 4)) & 1):
            self.b_goes_home[x] = 1
            self.b_homed += 1
            self.b_set_home(c)
        if not self.b_leaves[x] and (self.b_freed[x] or (self.b_in_column[x] and self.policy != SINGLE
                                                         and not self.b_face_down[x] and a >= 0
                                                         and self.fits[c][self.b_card[a]])):
            if (self.b_goes_home[x] or (self.b_space and self.space_ok[c])
                    or self.b_can_top & self.over_mask[c]):
                self.b_leaves[x] = 1
                if self.b_below[x] >= 0 and not self.b_freed[self.b_below[x]]:
                    self.b_set_freed(self.b_below[x])
                if not self.b_in_column[x]:
                    self.b_set_can_top(c)
                if self.b_bottom[x]:
                    self.b_set_space()

    cdef void b_set_freed(self, int x) noexcept:
        self.b_freed[x] = 1
        if self.b_in_column[x]:
            self.b_set_can_top(self.b_card[x])
        self.b_push(x)

    cdef void b_set_home(self, int c) noexcept:
        if (self.b_home >> c) & 1:
            return
        self.b_home |= (<uint64_t>1) << c
        if c + 4 < NCARD:
            self.b_push_card(c + 4)
            if self.b_ring_count[c + 4]:
                self.b_ring_go_home(c + 4)
        if self.removable:
            self.b_check_removable(c)

    cdef void b_set_can_top(self, int c) noexcept:
        cdef int y, b
        if (self.b_can_top >> c) & 1:
            return
        self.b_can_top |= (<uint64_t>1) << c
        for y in range(self.under_n[c]):
            b = self.under[c][y]
            self.b_push_card(b)
            if self.b_ring_count[b]:
                self.b_ring_leave(b)
            if self.removable:
                self.b_check_removable(b)

    cdef void b_set_space(self) noexcept:
        cdef int x, c
        if self.b_space:
            return
        self.b_space = True
        for x in range(self.b_n):
            if self.space_ok[self.b_card[x]]:
                self.b_push(x)
        for c in range(NCARD):
            if self.b_ring_count[c] and self.space_ok[c]:
                self.b_ring_leave(c)
        if self.removable:
            for c in range(NCARD):
                self.b_check_removable(c)

    cdef void b_check_removable(self, int c) noexcept:
        """With removable foundations: a card that is home can be a top if it has somewhere to go."""
        if not (self.b_home >> c) & 1 or (self.b_can_top >> c) & 1:
            return
        if (self.b_space and self.space_ok[c]) or self.b_can_top & self.over_mask[c]:
            self.b_set_can_top(c)

    cdef int forced(self) except -2:
        """As ``forced_move``: a foundation move that ``safe`` proves loses nothing."""
        cdef int i, j, c, r, x, s, f
        cdef bint filling = self.autofill and self.nheel > 0
        if self.to_foundation:
            for i in range(self.nc):
                if self.h[i] and not (filling and self.h[i] == 1):
                    c = self.cols[i][self.h[i] - 1]
                    r = c >> 2
                    s = c & 3
                    for x in range(self.suit_found_n[s]):
                        f = self.suit_found[s][x]
                        if self.fh[f] == r:
                            if self.safe(c):
                                return plain_code(i, self.F + f, 1, 0)
                            break
        for j in range(self.ncell):
            c = self.cells[j]
            if c >= 0:
                r = c >> 2
                s = c & 3
                for x in range(self.suit_found_n[s]):
                    f = self.suit_found[s][x]
                    if self.fh[f] == r:
                        if self.safe(c):
                            return plain_code(self.nc + j, self.F + f, 1, 0)
                        break
        if self.wp and self.waste_safe:
            c = self.ring[self.wp - 1]
            f = self.found_for(c)
            if f >= 0 and self.safe(c):
                return plain_code(self.W, self.F + f, 1, 0)
        if self.nheel and not self.autofill:
            c = self.heel[self.nheel - 1]
            f = self.found_for(c)
            if f >= 0 and self.safe(c):
                return plain_code(self.R, self.F + f, 1, 0)
        return -1

    cdef int write_key(self, unsigned char* buf) except -1:
        """As ``key``, byte for byte: the columns sorted (each after its face-down count), the
        cells sorted, the reserve's height, the ring with its (folded) pointer and redeals."""
        cdef int* order = self.key_order
        cdef int nc = self.nc, i, j, x, n = 0, wp
        cdef unsigned char cs[MAXCELL]
        cdef unsigned char t
        for i in range(nc):
            if self.key_stale[i]:
                self.packed[i] = self.pack(i)
                self.key_stale[i] = False
        for i in range(1, nc):  # insertion sort by the columns' key bytes, from the last order
            x = order[i]
            j = i - 1
            while j >= 0 and self.col_before(x, order[j]):
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = x
        for i in range(nc):
            if i:
                buf[n] = 0xFF
                n += 1
            x = order[i]
            if self.has_face_down:
                buf[n] = 200 + self.down[x]
                n += 1
            memcpy(buf + n, self.cols[x], self.h[x])
            n += self.h[x]
        if self.ncell:
            buf[n] = 0xFE
            n += 1
            for i in range(self.ncell):
                cs[i] = self.cells[i] & 255
            for i in range(1, self.ncell):
                t = cs[i]
                j = i - 1
                while j >= 0 and cs[j] > t:
                    cs[j + 1] = cs[j]
                    j -= 1
                cs[j + 1] = t
            memcpy(buf + n, cs, self.ncell)
            n += self.ncell
        if self.has_heel:
            buf[n] = 0xFC
            buf[n + 1] = self.nheel
            n += 2
        if self.L or self.wp:
            wp = self.wp
            if self.unlimited and (self.k == 1 or wp % self.k == 0 or wp == self.L):
                wp = 0
            buf[n] = 0xFD
            n += 1
            memcpy(buf + n, self.ring, self.L)
            n += self.L
            buf[n] = wp & 255
            buf[n + 1] = wp >> 8
            buf[n + 2] = 255 if self.redeals < 0 else min(self.redeals, 255)
            n += 3
        return n

    cdef uint64_t pack(self, int i) noexcept:
        """Column i's first 7 key bytes (the face-down byte, then cards), each plus one in 9
        bits, missing ones 0: packs of two columns compare as their key bytes do, as far as
        those 7 bytes go (a shorter column that is a prefix comes first, as with bytes)."""
        cdef uint64_t pk = 0
        cdef int used = 0, x = 0
        if self.has_face_down:
            pk = 200 + self.down[i] + 1
            used = 1
        while used < 7 and x < self.h[i]:
            pk = (pk << 9) | (self.cols[i][x] + 1)
            used += 1
            x += 1
        return pk << (9 * (7 - used))

    cdef inline bint col_before(self, int a, int b) noexcept:
        """Column a's key bytes come strictly before column b's."""
        if self.packed[a] != self.packed[b]:
            return self.packed[a] < self.packed[b]
        return self.col_cmp(a, b) < 0

    cdef inline int col_cmp(self, int a, int b) noexcept:
        """The order of two columns' key bytes (face-down count first, when there are any)."""
        cdef int ha = self.h[a], hb = self.h[b], x, m
        cdef unsigned char* ca = self.cols[a]
        cdef unsigned char* cb = self.cols[b]
        if self.has_face_down and self.down[a] != self.down[b]:
            return self.down[a] - self.down[b]
        m = ha if ha < hb else hb
        for x in range(m):
            if ca[x] != cb[x]:
                return <int>ca[x] - <int>cb[x]
        return ha - hb

    # ------------------------------------------------------------ legal moves

    cdef int legal(self, int* out) except -1:
        """As ``legal_moves``: generate (the reference's generators, in its order), rank the
        plain moves by disorder when there are several and the joined ones always, joined
        after plain, then a stable sort by score, highest first."""
        cdef int n, x
        self.here()
        self.nplain = 0
        self.njoined = 0
        self.from_columns()
        self.from_cells()
        self.from_waste()
        self.from_reserve()
        self.from_foundations()
        if self.nplain > 1 or self.njoined:
            self.prepare_disorder()
        if self.nplain > 1:
            for x in range(self.nplain):
                self.psc[x] = self.ranked(self.psc[x], self.pcode[x])
        for x in range(self.njoined):
            self.jsc[x] = self.ranked(self.jsc[x], self.jcode[x]) + LATERAL_USE
        n = self.nplain
        if n + self.njoined > MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        memcpy(self.psc + n, self.jsc, self.njoined * sizeof(int))
        memcpy(self.pcode + n, self.jcode, self.njoined * sizeof(int))
        n += self.njoined
        sort_desc(self.psc, self.pcode, n)
        memcpy(out, self.pcode, n * sizeof(int))
        return n

    cdef inline int add(self, int score, int code) except -1:
        if self.nplain >= MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        self.psc[self.nplain] = score
        self.pcode[self.nplain] = code
        self.nplain += 1
        return 0

    cdef inline int add_joined(self, int score, int code) except -1:
        if self.njoined >= MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        self.jsc[self.njoined] = score
        self.jcode[self.njoined] = code
        self.njoined += 1
        return 0

    cdef void here(self) noexcept:
        """As ``_here``: the needed cards, the accepting columns per card, the sequences,
        the first empty column and free cell, the largest groups."""
        cdef int nc = self.nc, t, x, b, top, r
        memset(self.need, 0, NCARD)
        for x in range(self.nf):
            r = self.fh[x]
            if r < self.top:
                self.need[make_card(r + 1, x & 3)] = 1
        memset(self.accept_n, 0, NCARD * sizeof(int))
        self.first_empty = -1
        for t in range(nc):
            if self.h[t]:
                top = self.cols[t][self.h[t] - 1]
                for x in range(self.under_n[top]):
                    b = self.under[top][x]
                    self.accept[b][self.accept_n[b]] = t
                    self.accept_n[b] += 1
            elif self.first_empty < 0:
                self.first_empty = t
            self.seqs[t] = self.seq_len(t)
        self.free_cell = -1
        for x in range(self.ncell):
            if self.cells[x] < 0:
                self.free_cell = nc + x
                break
        self.max_nonempty = self.max_move(False)
        self.max_empty = self.max_move(True) if self.first_empty >= 0 else 0

    cdef int from_columns(self) except -1:
        """As ``_from_columns``."""
        cdef int i, f, d, h, score
        for i in range(self.nc):
            h = self.h[i]
            if not h:
                continue
            if self.to_foundation:
                f = self.found_for(self.cols[i][h - 1])
                if f >= 0:
                    d = self.down[i]
                    self.add(HOME + (HOME_FLIP if d and h - 1 == d else 0), plain_code(i, self.F + f, 1, 0))
            self.groups_from(i)
            if self.free_cell >= 0:
                score = (TO_CELL + self.leave_score(i, 1, &LEAVE_BY_CELL)
                         - DEPTH_TO_NEEDED * self.depth_to_needed(i))
                self.add(score, plain_code(i, self.free_cell, 1, 0))
        return 0

    cdef int groups_from(self, int i) except -1:
        """As ``_groups_from``."""
        cdef unsigned char* col = self.cols[i]
        cdef int d = self.down[i], h = self.h[i], seq = self.seqs[i], n, b, base, x, j, top
        cdef bint lateral
        top = min(seq, max(self.max_nonempty, self.max_empty))
        for n in range(1, top + 1):
            b = col[h - n]
            base = self.leave_score(i, n, &LEAVE_BY_GROUP) + n
            if n <= self.max_nonempty:
                lateral = self.lateral_only_with_use and h - n > d and self.fits[col[h - n - 1]][b]
                for x in range(self.accept_n[b]):
                    j = self.accept[b][x]
                    if j == i:
                        continue
                    if lateral:
                        self.uses_after(i, j, n, COLUMN_TO_COLUMN + base)
                    else:
                        self.add(COLUMN_TO_COLUMN + base, plain_code(i, j, n, 0))
            if (self.first_empty >= 0 and n < h and self.space_ok[b] and n <= self.max_empty
                    and (n == 1 or n == min(seq, self.max_empty) or self.any_size_to_space)):
                self.add(COLUMN_TO_SPACE + base, plain_code(i, self.first_empty, n, 0))
        return 0

    cdef inline int leave_score(self, int i, int n, Leave* leave) noexcept:
        """As ``_leave_score``."""
        cdef unsigned char* col = self.cols[i]
        cdef int d = self.down[i], h = self.h[i], below
        if d and h - n == d:
            return leave.flips
        if n == h:
            return leave.empties
        below = col[h - n - 1]
        if self.need[below]:
            return leave.uncovers
        if self.fits[below][col[h - n]]:
            return leave.breaks
        return 0

    cdef inline int depth_to_needed(self, int i) noexcept:
        """As ``_depth_to_needed``."""
        cdef int h = self.h[i], d
        for d in range(h):
            if self.need[self.cols[i][h - 1 - d]]:
                return d
        return NO_NEEDED_CARD

    cdef int from_cells(self) except -1:
        cdef int j
        for j in range(self.ncell):
            if self.cells[j] >= 0:
                self.card_moves(self.cells[j], self.nc + j, &FROM_CELL, 0, 0)
        return 0

    cdef int from_waste(self) except -1:
        """As ``_from_waste``."""
        cdef int qs[2 * MAXH + 2]
        cdef int nq = self.waste_reach(qs), x, q
        for x in range(nq):
            q = qs[x]
            self.card_moves(self.ring[q - 1], self.W, &FROM_WASTE, 0 if q == self.wp else q, -REACH_COST * x)
        return 0

    cdef int from_reserve(self) except -1:
        if self.nheel:
            self.card_moves(self.heel[self.nheel - 1], self.R, &FROM_RESERVE, 0, 0)
        return 0

    cdef int from_foundations(self) except -1:
        cdef int f
        if self.removable:
            for f in range(self.nf):
                if self.fh[f] >= 3:
                    self.card_moves(make_card(self.fh[f], f & 3), self.F + f, &FROM_FOUNDATION, 0, 0)
        return 0

    cdef int card_moves(self, int c, int src, Dest* to, int reach, int bonus) except -1:
        """As ``_card_moves``: card c alone from ``src`` to every place that takes it."""
        cdef int f, x
        if to.home != NONE:
            f = self.found_for(c)
            if f >= 0:
                self.add(to.home + bonus, plain_code(src, self.F + f, 1, reach))
        for x in range(self.accept_n[c]):
            self.add(to.column + bonus, plain_code(src, self.accept[c][x], 1, reach))
        if self.first_empty >= 0 and self.space_ok[c]:
            self.add(to.space + bonus, plain_code(src, self.first_empty, 1, reach))
        if to.cell != NONE and self.free_cell >= 0:
            self.add(to.cell + bonus, plain_code(src, self.free_cell, 1, reach))
        return 0

    cdef int uses_after(self, int i, int j, int n, int score) except -1:
        """As ``_uses_after`` (its docstring has the proof): the lateral move (i, j, n) joined
        with each use of the card p it uncovers, each added with ``score``."""
        self.prim(plain_code(i, j, n, 0))
        cdef int p = self.cols[i][self.h[i] - 1], f, k, m, top, x, g, r
        cdef int qs[2 * MAXH + 2]
        cdef unsigned char* col
        f = self.found_for(p)
        if f >= 0 and self.to_foundation:
            self.add_joined(score, joined_code(i, j, n, i, True, 0))
        for k in range(self.nc):
            if k == i:
                continue
            col = self.cols[k]
            top = self.seq_len(k) if k == j else self.seqs[k]
            for m in range(1, top + 1):
                if self.fits[p][col[self.h[k] - m]] and not (k == j and m == n):  # not the group back
                    self.add_joined(score, joined_code(i, j, n, k, False, m))
        m = self.waste_reach(qs)
        for x in range(m):
            if self.fits[p][self.ring[qs[x] - 1]]:
                self.add_joined(score, joined_code(i, j, n, self.W, False, 0 if qs[x] == self.wp else qs[x]))
        if self.nheel and self.fits[p][self.heel[self.nheel - 1]]:
            self.add_joined(score, joined_code(i, j, n, self.R, False, 0))
        if self.removable:
            for g in range(self.nf):
                r = self.fh[g]
                if r >= 3 and self.fits[p][make_card(r, g & 3)]:
                    self.add_joined(score, joined_code(i, j, n, self.F + g, False, 0))
        self.unprim()
        return 0

    cdef void prepare_disorder(self) noexcept:
        """The prefix counts and needed cards of the columns changed since they were counted."""
        cdef int i, x, o, m, r, nn
        for i in range(self.nc):
            if self.dis_stale[i]:
                self.dis_stale[i] = False
                o, m = 0, 99
                self.pref_out[i][0] = 0
                self.pref_min[i][0] = 99
                for x in range(self.h[i]):
                    r = self.cols[i][x] >> 2
                    if r > m:
                        o += 1
                    else:
                        m = r
                    self.pref_out[i][x + 1] = o
                    self.pref_min[i][x + 1] = m
                self.nneed_version[i] = 0
            if self.nneed_version[i] != self.need_version:
                self.nneed_version[i] = self.need_version
                nn = 0
                for x in range(self.h[i]):
                    nn += self.need[self.cols[i][x]]
                self.nneed[i] = nn

    cdef int ranked(self, int score, int code) noexcept:
        """As one step of ``_rank_by_disorder``: the score lowered by DIS_W times the disorder
        the move (its first part) leaves, below UNRANKED."""
        if score >= UNRANKED:
            return score
        cdef int src = code_src(code), dst = code_dst(code), n = code_n(code), reach = code_reach(code)
        cdef int nc = self.nc, W = self.W, d = 0, h, x, m, r, ng = 1, gneed
        cdef unsigned char group1 = 0  # the moving card, when it is one card from elsewhere
        cdef unsigned char* group = &group1
        if src < nc:
            h = self.h[src]
            d += OUT_OF_ORDER_W * (self.pref_out[src][h - n] - self.pref_out[src][h])
            if h == n and self.any_space:
                d -= SPACE_W
            if self.down[src] and h - n == self.down[src]:
                d -= FLIP_W
            group = self.cols[src] + h - n
            ng = n
            if self.nneed[src]:
                gneed = 0
                for x in range(n):
                    gneed += self.need[group[x]]
                d -= NEED_W * n * (self.nneed[src] - gneed)
        elif src < W:
            d -= CELL_W
            group1 = self.cells[src - nc]
        elif src == W:
            group1 = self.ring[(reach or self.wp) - 1]
        elif src == self.R:
            d -= CELL_W
            group1 = self.heel[self.nheel - 1]
        else:
            group1 = make_card(self.fh[src - self.F], (src - self.F) & 3)
        if dst < nc:
            m = self.pref_min[dst][self.h[dst]]
            if not self.h[dst] and self.any_space:
                d += SPACE_W
            d += NEED_W * n * self.nneed[dst]
            for x in range(ng):
                r = group[x] >> 2
                if r > m:
                    d += OUT_OF_ORDER_W
                else:
                    m = r
        elif dst < W:
            d += CELL_W
        return score - DIS_W * d

    # ------------------------------------------------------------ Python level

    def move_json(self, int move):
        """As ``TableauPosition.move_json`` (a joined move is named by its lateral part), read
        from the C state: a solution's moves are named one after another as they are played,
        so this must not cost more than the move (building a reference view per move did)."""
        cdef int src = code_src(move), dst = code_dst(move), n = code_n(move), card, count, f
        real, name = self.ref.real, cards.name
        if src == STOCK_CODE:
            if n:  # TURN
                count = min(self.k, self.L - self.wp)
                out = {"card": name(real[self.ring[self.wp]]), "from": "stock", "to": "waste"}
                if count > 1:
                    out["count"] = count
                return out
            out = {"card": name(real[self.ring[0]]), "from": "waste", "to": "stock"}  # REDEAL
            if self.L > 1:
                out["count"] = self.L
            return out
        if src < self.nc:
            card = self.cols[src][self.h[src] - n]
        elif src < self.W:
            card = self.cells[src - self.nc]
        elif src == self.W:
            card = self.ring[(code_reach(move) or self.wp) - 1]
        elif src == self.R:
            card = self.heel[self.nheel - 1]
        else:
            f = src - self.F
            card = make_card(self.fh[f], f & 3)
        out = {"card": name(real[card]), "from": self.ref.stack_name(src), "to": self.ref.stack_name(dst)}
        if n > 1:
            out["count"] = n
        return out

    def reference_move(self, int move):
        """The same move as the reference's ``Move``."""
        cdef int src = code_src(move), dst = code_dst(move), n = code_n(move), i, use_src, payload, f
        if not move & JOINED:
            if src == STOCK_CODE:
                return TURN if n else REDEAL
            return Move(src, dst, n, code_reach(move))
        i = src
        use_src = (move >> 17) & 31
        payload = (move >> 23) & 127
        if (move >> 22) & 1:
            f = self.found_for(self.cols[i][self.h[i] - n - 1])
            use = Move(i, self.F + f)
        elif use_src < self.nc:
            use = Move(use_src, i, payload)
        elif use_src == self.W:
            use = Move(use_src, i, 1, payload)
        else:
            use = Move(use_src, i)
        return Move(i, dst, n, then=use)

    def state(self):
        """Everything mutable, in the reference's ``state()`` form (history as its Moves)."""
        return (tuple(tuple(self.cols[i][x] for x in range(self.h[i])) for i in range(self.nc)),
                tuple(self.down[i] for i in range(self.nc)), tuple(self.cells[j] for j in range(self.ncell)),
                tuple(self.fh[f] for f in range(self.nf)), tuple(self.ring[x] for x in range(self.L)), self.wp,
                None if self.redeals < 0 else self.redeals, self.left,
                tuple(self.reference_move(m) for m in self.history), tuple(self.heel[x] for x in range(self.nheel)))

    def ref_view(self):
        """A reference position in this position's state (for naming moves)."""
        view = TableauPosition.__new__(TableauPosition)
        view.__dict__.update(self.ref.__dict__)
        (cols, down, cells, fh, ring, wp, redeals, left, _, heel) = self.state()
        view.cols = [list(c) for c in cols]
        view.down = list(down)
        view.cells = list(cells)
        view.fh = list(fh)
        view.ring = list(ring)
        view.wp = wp
        view.redeals = redeals
        view.left = left
        view.heel = list(heel)
        view.history = []
        view._undo = []
        view._groups = []
        return view


cdef void sort_desc(int* score, int* code, int n) noexcept:
    """A stable sort by score, highest first (insertion sort: a few dozen moves)."""
    cdef int i, j, s, c
    for i in range(1, n):
        s, c = score[i], code[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            score[j + 1], code[j + 1] = score[j], code[j]
            j -= 1
        score[j + 1], code[j + 1] = s, c
