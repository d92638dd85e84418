# cython: language_level=3
"""Casino compiled (``GameCore``): the reference ``casino.CasinoGame`` with bitmasks.

The same game, node for node: the hands and the table are 52-bit masks (card
``c`` is bit ``c``), a move is the code ``card | taken << 6`` (``taken`` the mask
of the table cards taken, 0 for a trail), the legal moves come in the
reference's order, and ``bounds`` and the key are the reference's (its
docstrings prove them).  The key is two words: the table, whose turn, who took
last, the clamped cards difference; the hands as masks over the cards their
deal gave them, the deal reached (``next``), the clamped spades difference;
the table and the hands by classes (``casino.card_class``: each class's count
on its first cards), and of plays alike in classes only the first is kept.
One pack only (a card is one bit): ``compiled_game`` gives the reference for
more.
"""

from libc.stdlib cimport free

from ..game_core cimport GameCore, MoveVec, movevec_push

from ... import cards
from .casino import card_class, card_points, worth

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef enum:
    MAX_PACK = 52
    MAX_PLIES = 64
    MAX_DEALS = 32

cdef unsigned long long SPADES_MASK = 0x8888888888888ULL  # suit 3 of every rank: bits 3, 7, ..., 51


cdef inline int popcount(unsigned long long x) noexcept:
    return __builtin_popcountll(x)


cdef inline int sgn(int x) noexcept:
    return (x > 0) - (x < 0)


cdef struct Undo:
    unsigned long long hand0, hand1, table
    int nxt, blk, turn, last, c0, c1, s0, s1, points, pts_taken


cdef class CasinoCore(GameCore):
    """The game from the deal to the end, ``seat`` ``elder`` or ``dealer``; int moves."""

    integral = True
    sign_only = True

    cdef int h, t, court_combine, sweeps, last_takes_rest, cards_points, spades_points
    cdef int n, sign, spades_total, every_deal_even
    cdef int pack[MAX_PACK]
    cdef int pts[MAX_PACK]
    cdef int wrt[MAX_PACK]
    cdef unsigned long long hand[2]
    cdef unsigned long long table
    cdef int nxt, blk, turn, last, c0, c1, s0, s1, points, pts_taken
    cdef Undo undo[MAX_PLIES]
    cdef long long played[MAX_PLIES]
    cdef readonly int ply
    cdef MoveVec groups, scratch
    cdef object rules, seat_name
    # The key by classes (``casino.card_class``): a rank's four suits as a nibble -> the same count of
    # each class on the class's first suits; a hand (over its deal's cards) -> the same count of each
    # class on the class's first cards in the deal.
    cdef unsigned char canon_nibble[13][16]
    cdef unsigned char canon_hand[2][MAX_DEALS][64]

    def __init__(self, rules, pack, seat="elder"):
        cdef int i
        if len(pack) > MAX_PACK or len(set(pack)) != len(pack):
            raise ValueError("the compiled Casino plays one pack of distinct cards")
        self.rules, self.seat_name = rules, seat
        self.h, self.t = rules.hand_size, rules.table_cards
        self.court_combine, self.sweeps = rules.court_combine, rules.sweeps
        self.last_takes_rest = rules.last_takes_rest
        self.cards_points, self.spades_points = rules.cards_points, rules.spades_points
        self.n = len(pack)
        self.sign = 1 if seat == "elder" else -1
        self.spades_total = 0
        for i in range(self.n):
            self.pack[i] = pack[i]
        for i in range(52):
            self.pts[i] = card_points(rules, i)
            self.wrt[i] = worth(rules, i)
        for i in range(self.n):
            self.spades_total += (self.pack[i] & 3) == 3
        self.every_deal_even = (self.n - self.t) % (2 * self.h) == 0
        self._classes(rules)
        self.hand[0] = self._mask(0, self.h)
        self.hand[1] = self._mask(self.h, 2 * self.h)
        self.table = self._mask(2 * self.h, 2 * self.h + self.t)
        self.nxt = 2 * self.h + self.t
        self.blk = 0
        self.turn = 0
        self.last = -1
        self.c0 = self.c1 = self.s0 = self.s1 = self.points = self.pts_taken = 0
        self.ply = 0

    def _classes(self, rules):
        """The tables of ``canon_nibble`` and ``canon_hand``."""
        cdef int r, nib, k, who, i, blk
        for r in range(13):
            suits = [4 * r + u for u in range(4)]
            for nib in range(16):
                self.canon_nibble[r][nib] = _canonical([card_class(rules, c) for c in suits],
                                                       [nib >> u & 1 for u in range(4)])
        for k in range(MAX_DEALS):
            blk = 0 if k == 0 else 2 * self.h + self.t + 2 * self.h * (k - 1)
            for who in range(2):
                start = blk + who * self.h
                block = [card_class(rules, self.pack[i]) for i in range(start, min(start + self.h, self.n))]
                for nib in range(64):
                    self.canon_hand[who][k][nib] = _canonical(block, [nib >> u & 1 for u in range(len(block))]) \
                        if nib < (1 << len(block)) else 0

    cdef unsigned long long _canon(self, unsigned long long m) noexcept:
        """A set of cards as the same count of each class on the class's first suits."""
        cdef unsigned long long out = 0
        cdef int r
        for r in range(13):
            out |= (<unsigned long long>self.canon_nibble[r][(m >> (4 * r)) & 15]) << (4 * r)
        return out

    def __dealloc__(self):
        free(self.groups.data)
        free(self.scratch.data)

    cdef unsigned long long _mask(self, int start, int stop) noexcept:
        """The cards pack[start:stop] (cut at the pack's end) as a mask."""
        cdef unsigned long long m = 0
        cdef int i
        for i in range(start, min(stop, self.n)):
            m |= 1ULL << self.pack[i]
        return m

    # ------------------------------------------------ the C level

    cdef int c_side(self) except? -9:
        if self.hand[0] == 0 and self.hand[1] == 0 and self.nxt >= self.n:
            return 0
        return self.sign if self.turn == 0 else -self.sign

    cdef int _captures(self, int card, MoveVec* out) except -1:
        """Append ``card | taken << 6`` for every set of table cards ``card`` may take (the
        reference's ``captures``: unions of disjoint groups, each one card of its rank or number
        cards adding up to its value), each once."""
        cdef int rank = (card >> 2) + 1
        cdef int numbers = self.court_combine or rank <= 10
        cdef int tc[MAX_PACK]
        cdef int val[MAX_PACK]
        cdef int nt = 0, i, start = out.size
        cdef unsigned long long rest = self.table
        while rest:
            i = __builtin_ctzll(rest)
            rest &= rest - 1
            tc[nt] = i
            val[nt] = (i >> 2) + 1 if ((i >> 2) + 1 <= 10 or self.court_combine) else 99
            nt += 1
        self.groups.size = 0
        for i in range(nt):
            if (tc[i] >> 2) + 1 == rank:
                self._add_unique(&self.groups, 0, 1ULL << tc[i])
        if numbers:
            self._grow(tc, val, nt, 0, 0, rank)
        self._unions(out, start, card, 0, 0)
        return 0

    cdef int _add_unique(self, MoveVec* v, Py_ssize_t start, long long x) except -1:
        cdef Py_ssize_t j
        for j in range(start, v.size):
            if v.data[j] == x:
                return 0
        movevec_push(v, x)
        return 0

    cdef int _grow(self, int* tc, int* val, int nt, int start, unsigned long long chosen, int left) except -1:
        cdef int j
        for j in range(start, nt):
            if val[j] == left:
                self._add_unique(&self.groups, 0, <long long>(chosen | (1ULL << tc[j])))
            elif val[j] < left:
                self._grow(tc, val, nt, j + 1, chosen | (1ULL << tc[j]), left - val[j])
        return 0

    cdef int _unions(self, MoveVec* out, Py_ssize_t start, int card, Py_ssize_t k,
                     unsigned long long used) except -1:
        cdef Py_ssize_t g
        cdef unsigned long long more
        for g in range(k, self.groups.size):
            if used & <unsigned long long>self.groups.data[g] == 0:
                more = used | <unsigned long long>self.groups.data[g]
                self._add_unique(out, start, <long long>(card | (more << 6)))
                self._unions(out, start, card, g + 1, more)
        return 0

    cdef int c_legal(self, MoveVec* out) except -1:
        """The reference's order: by (-priority, card, taken mask)."""
        cdef int who = self.turn, card, prio, i, j, count
        cdef unsigned long long rest = self.hand[who], other = self.hand[1 - who], taken, x
        cdef int other_ranks = 0
        cdef Py_ssize_t base = out.size, k, first
        cdef long long m, p
        while other:
            i = __builtin_ctzll(other)
            other &= other - 1
            other_ranks |= 1 << ((i >> 2) + 1)
        self.scratch.size = 0  # the priorities, beside the moves
        while rest:
            card = __builtin_ctzll(rest)
            rest &= rest - 1
            first = out.size
            self._captures(card, out)
            for k in range(first, out.size):
                taken = (<unsigned long long>out.data[k]) >> 6
                prio = 1000 * (self.sweeps and taken == self.table) + self.wrt[card]
                x = taken
                while x:
                    i = __builtin_ctzll(x)
                    x &= x - 1
                    prio += self.wrt[i]
                movevec_push(&self.scratch, prio)
            movevec_push(out, card)
            movevec_push(&self.scratch, -1000 - self.wrt[card] - 2 * ((other_ranks >> ((card >> 2) + 1)) & 1))
        count = <int>(out.size - base)
        for i in range(1, count):  # insertion sort, stable and total: (-prio, card, taken)
            m = out.data[base + i]
            p = self.scratch.data[i]
            j = i - 1
            while j >= 0 and _before(m, p, out.data[base + j], self.scratch.data[j]):
                out.data[base + j + 1] = out.data[base + j]
                self.scratch.data[j + 1] = self.scratch.data[j]
                j -= 1
            out.data[base + j + 1] = m
            self.scratch.data[j + 1] = p
        return self._alike_once(out, base, count)

    cdef int _alike_once(self, MoveVec* out, Py_ssize_t base, int count) except -1:
        """Of plays alike in classes (the card's, the cards taken's) only the first; the count left."""
        cdef int i, j, kept = 0, dup
        cdef unsigned long long ci, ti
        self.groups.size = 0  # the kept plays' classes, two words each
        for i in range(count):
            ci = self._canon(1ULL << (out.data[base + i] & 63))
            ti = self._canon((<unsigned long long>out.data[base + i]) >> 6)
            dup = 0
            for j in range(kept):
                if <unsigned long long>self.groups.data[2 * j] == ci and \
                        <unsigned long long>self.groups.data[2 * j + 1] == ti:
                    dup = 1
                    break
            if not dup:
                movevec_push(&self.groups, <long long>ci)
                movevec_push(&self.groups, <long long>ti)
                out.data[base + kept] = out.data[base + i]
                kept += 1
        out.size = base + kept
        return kept

    cdef inline int _take(self, int who, unsigned long long taken) noexcept:
        cdef int c = popcount(taken), s = popcount(taken & SPADES_MASK), p = 0, i
        while taken:
            i = __builtin_ctzll(taken)
            taken &= taken - 1
            p += self.pts[i]
        if who == 0:
            self.c0 += c
            self.s0 += s
            self.points += p
        else:
            self.c1 += c
            self.s1 += s
            self.points -= p
        self.pts_taken += p
        return 0

    cdef int c_push(self, long long move) except -1:
        cdef int card = <int>(move & 63), who = self.turn
        cdef unsigned long long taken = (<unsigned long long>move) >> 6
        cdef Undo* u
        if self.ply >= MAX_PLIES:
            raise IndexError("casino: too many plies")
        u = &self.undo[self.ply]
        u.hand0, u.hand1, u.table = self.hand[0], self.hand[1], self.table
        u.nxt, u.blk, u.turn, u.last = self.nxt, self.blk, self.turn, self.last
        u.c0, u.c1, u.s0, u.s1, u.points, u.pts_taken = self.c0, self.c1, self.s0, self.s1, self.points, self.pts_taken
        self.played[self.ply] = move
        self.ply += 1
        self.hand[who] &= ~(1ULL << card)
        if taken:
            self.table &= ~taken
            self._take(who, taken | (1ULL << card))
            self.last = who
            if self.table == 0 and self.sweeps and not (self.hand[0] == 0 and self.hand[1] == 0
                                                        and self.nxt >= self.n):
                self.points += 1 if who == 0 else -1
        else:
            self.table |= 1ULL << card
        self.turn = 1 - who
        if self.hand[0] == 0 and self.hand[1] == 0:
            if self.nxt < self.n:
                self.hand[0] = self._mask(self.nxt, self.nxt + self.h)
                self.hand[1] = self._mask(self.nxt + self.h, self.nxt + 2 * self.h)
                self.blk = self.nxt
                self.nxt += 2 * self.h
                self.turn = 0
            elif self.table and self.last >= 0 and self.last_takes_rest:
                self._take(self.last, self.table)
                self.table = 0
        return 0

    cdef long long c_pop(self) except? -1:
        cdef Undo* u
        if self.ply == 0:
            raise IndexError("pop from the deal")
        self.ply -= 1
        u = &self.undo[self.ply]
        self.hand[0], self.hand[1], self.table = u.hand0, u.hand1, u.table
        self.nxt, self.blk, self.turn, self.last = u.nxt, u.blk, u.turn, u.last
        self.c0, self.c1, self.s0, self.s1, self.points, self.pts_taken = u.c0, u.c1, u.s0, u.s1, u.points, u.pts_taken
        return self.played[self.ply]

    cdef int c_score(self) except? -999999:
        return self.sign * (self.points + self.cards_points * sgn(self.c0 - self.c1)
                            + self.spades_points * sgn(self.s0 - self.s1))

    cdef int c_banked(self) except? -999999:
        return self.sign * self.points

    cdef int _plays_left(self, int* elder, int* dealer) noexcept:
        cdef int start
        elder[0] = popcount(self.hand[0])
        dealer[0] = popcount(self.hand[1])
        start = self.nxt
        while start < self.n:
            elder[0] += min(self.h, self.n - start)
            dealer[0] += max(0, min(self.h, self.n - start - self.h))
            start += 2 * self.h
        return 0

    cdef int c_bounds(self, int* lo, int* hi) except -1:
        cdef int left = self.n - self.c0 - self.c1, spades_left = self.spades_total - self.s0 - self.s1
        cdef int points = 0, d = self.c0 - self.c1, s = self.s0 - self.s1, e = 0, k = 0, i
        cdef unsigned long long rest = self.hand[0] | self.hand[1] | self.table
        for i in range(self.nxt, self.n):
            points += self.pts[self.pack[i]]
        while rest:
            i = __builtin_ctzll(rest)
            rest &= rest - 1
            points += self.pts[i]
        if self.sweeps:
            self._plays_left(&e, &k)
            if self.table == 0:
                if self.turn == 0 and e:
                    e -= 1
                elif self.turn == 1 and k:
                    k -= 1
            if self.every_deal_even and k:
                k -= 1
        cdef int top = points + self.cards_points * sgn(d + left) + self.spades_points * sgn(s + spades_left) + e
        cdef int bottom = -points + self.cards_points * sgn(d - left) + self.spades_points * sgn(s - spades_left) - k
        if self.sign > 0:
            lo[0], hi[0] = bottom, top
        else:
            lo[0], hi[0] = -top, -bottom
        return 0

    cdef int c_key(self, unsigned long long* words) except -1:
        cdef int left = self.n - self.c0 - self.c1, spades_left = self.spades_total - self.s0 - self.s1
        cdef int d = self.c0 - self.c1, s = self.s0 - self.s1, i, last, k
        cdef unsigned long long rel0 = 0, rel1 = 0
        d = max(-left - 1, min(d, left + 1)) if self.cards_points else 0
        s = max(-spades_left - 1, min(s, spades_left + 1)) if self.spades_points else 0
        last = self.last if self.last_takes_rest else 0
        for i in range(self.h):  # the hands over the cards their deal gave them
            if self.blk + i < self.n:
                rel0 |= ((self.hand[0] >> self.pack[self.blk + i]) & 1) << i
            if self.blk + self.h + i < self.n:
                rel1 |= ((self.hand[1] >> self.pack[self.blk + self.h + i]) & 1) << i
        k = 0 if self.blk == 0 else (self.blk - 2 * self.h - self.t) // (2 * self.h) + 1
        rel0 = self.canon_hand[0][k][rel0]
        rel1 = self.canon_hand[1][k][rel1]
        words[0] = (self._canon(self.table) | (<unsigned long long>self.turn << 52) | (<unsigned long long>(last + 1) << 53)
                    | (<unsigned long long>(d + 64) << 55))
        words[1] = (rel0 | (rel1 << 8) | (<unsigned long long>self.nxt << 16)
                    | (<unsigned long long>(s + 64) << 24))
        return 0

    cdef int c_plies_left(self) except -1:
        cdef int e = 0, k = 0
        self._plays_left(&e, &k)
        return e + k

    # ------------------------------------------------ the Python level (the reference's, int moves)

    def side(self):
        return self.c_side()

    def legal_moves(self):
        cdef MoveVec v
        v.data, v.size, v.cap = NULL, 0, 0
        try:
            self.c_legal(&v)
            return [v.data[i] for i in range(v.size)]
        finally:
            free(v.data)

    def push(self, long long move):
        self.c_push(move)

    def pop(self):
        return self.c_pop()

    def score(self):
        return self.c_score()

    def banked(self):
        return self.c_banked()

    def bounds(self):
        cdef int lo = 0, hi = 0
        self.c_bounds(&lo, &hi)
        return lo, hi

    def key(self):
        cdef unsigned long long w[2]
        self.c_key(w)
        return (<object>w[1] << 64) | w[0]

    @property
    def history(self):
        return [self.played[i] for i in range(self.ply)]

    def reference_move(self, long long move):
        """The reference's ``(card, taken)`` for a move code."""
        taken = (<unsigned long long>move) >> 6
        return (int(move & 63), tuple(c for c in range(52) if taken >> c & 1))

    def move_code(self, move):
        """The code of a reference move ``(card, taken)``."""
        card, taken = move
        return card | (sum(1 << c for c in taken) << 6)

    def move_json(self, long long move):
        card, taken = self.reference_move(move)
        who = "elder" if self.turn == 0 else "dealer"
        out = {"action": "take" if taken else "trail", "card": cards.name(card), "from": who,
               "to": who if taken else "table"}
        if taken:
            out["taken"] = cards.names(taken)
        return out

    def state(self):
        """The reference's state, for the tests: hands, table, next, turn, cards, spades, points, last."""
        return ((tuple(c for c in range(52) if self.hand[0] >> c & 1),
                 tuple(c for c in range(52) if self.hand[1] >> c & 1)),
                tuple(c for c in range(52) if self.table >> c & 1), self.nxt, self.turn,
                (self.c0, self.c1), (self.s0, self.s1), self.points, self.last)


cdef inline bint _before(long long m, long long p, long long m2, long long p2) noexcept:
    """Whether move ``m`` of priority ``p`` sorts before ``m2`` of ``p2``: (-prio, card, taken)."""
    if p != p2:
        return p > p2
    if (m & 63) != (m2 & 63):
        return (m & 63) < (m2 & 63)
    return (<unsigned long long>m >> 6) < (<unsigned long long>m2 >> 6)


def _canonical(classes, present):
    """``present`` (0/1 a place) with the same count of each class put on the class's first places."""
    out = 0
    for c in set(classes):
        places = [i for i, x in enumerate(classes) if x == c]
        count = sum(present[i] for i in places)
        for i in places[:count]:
            out |= 1 << i
    return out
