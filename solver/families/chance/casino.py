"""Casino on a known shuffle: two players, every card known, alpha-beta on the real score.

The deal (``docs/rules/casino.md``): four cards to the elder hand, four to the
dealer, four face up on the table; then four more to each, elder first, each
time both hands are empty, until the pack is out.  The elder hand plays first;
each turn a player plays one card from the hand.  The card takes a set of table
cards made of groups, each group one card of its rank (pairing) or number cards
whose values add up to the card's (combining: "nine and ace, eight and deuce");
court cards only pair unless ``court_combine``.  A card that takes nothing is
put down on the table.  Clearing the table scores a sweep, except with the last
card of the game; the last player to take anything takes the cards left.
Points: the most cards 3 (none at 26 each), the most spades 1, the ten of
diamonds 2, the two of spades 1, each ace 1, each sweep 1.  The score is the
seat's points less the other's.

One source (``solver/families/README.md``): ``CasinoGame`` is written once, in Cython's
pure-Python mode over ``game_core.GameCore``; compiled where a C compiler exists, interpreted
otherwise (``COMPILED`` says which).  One pack (a card is one bit): the hands and the table are
52-bit masks (card ``c`` is bit ``c``), and a move is the code ``card | taken << 6``, ``taken``
the mask of the table cards taken (0: the card is put down).

The table stores the value of the rest: aces, casinos and sweeps are banked as
they are taken; the cards and spades counts, which only score at the end, are
in the key.
"""

from __future__ import annotations

from typing import Any

from ... import cards
from .rules import Casino

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.game_core import GameCore, Moves, add, ctz, popcount
else:
    from ..game_core import GameCore, Moves, add, ctz, popcount

COMPILED = cython.compiled

SPADES = 3
BIG_CASINO = cards.make(10, 1)  # ten of diamonds
LITTLE_CASINO = cards.make(2, 3)  # two of spades
SPADES_MASK = 0x8888888888888  # suit 3 of every rank: bits 3, 7, ..., 51
# The room of the C arrays below (a pack, the plies of a game, the deals of a game).
# (C constants where compiled: a module's Python int in push and pop costs a Python operation.)
MAX_PACK = cython.declare(cython.int, 52)
MAX_PLIES = cython.declare(cython.int, 64)
MAX_DEALS = cython.declare(cython.int, 32)
UNDO_INTS = cython.declare(cython.int, 10)  # the ints an undo record keeps a ply


def card_points(r: Casino, c: int) -> int:
    return ((r.ace_points if cards.rank(c) == 1 else 0) + (r.big_casino if c == BIG_CASINO else 0)
            + (r.little_casino if c == LITTLE_CASINO else 0))


def worth(r: Casino, c: int) -> int:
    """A card's weight in the move order (not in the score): one for the card, four per point it
    carries, one more for a spade."""
    return 1 + 4 * card_points(r, c) + (cards.suit(c) == SPADES)


def card_class(r: Casino, c: int) -> tuple[int, bool, int]:
    """What the rules read of a card: its rank, whether it is a spade, its points.

    Cards of one class are interchangeable: every rule (pairing and combining by rank, the spades
    count, the points) reads a card through its class alone, and the cards count counts cards.  So
    a permutation of the pack that keeps every card in its class maps the lines of play of a
    position one to one onto those of its image, with the same scores: two positions with the same
    pack still to deal and, in each hand and on the table, as many cards of each class, have the
    same value of the rest (the piles differ, but only through their counts and banked points,
    which the key and ``banked`` carry).  Hence the key holds classes (each class's count on the
    class's first cards), and of two plays of cards of one class taking cards of the same classes
    only the first is searched."""
    return cards.rank(c), cards.suit(c) == SPADES, card_points(r, c)


def _canonical(classes: list[Any], present: list[int]) -> int:
    """``present`` (0/1 a place) as a mask with the same count of each class put on the class's
    first places."""
    out = 0
    for c in set(classes):
        places = [i for i, x in enumerate(classes) if x == c]
        count = sum(present[i] for i in places)
        for i in places[:count]:
            out |= 1 << i
    return out


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _sgn(x: cython.int) -> cython.int:
    return (x > 0) - (x < 0)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _before(m: cython.longlong, p: cython.longlong, m2: cython.longlong, p2: cython.longlong) -> cython.bint:
    """Whether move ``m`` of priority ``p`` sorts before ``m2`` of ``p2``: by (-priority, card,
    taken mask)."""
    if p != p2:
        return p > p2
    if (m & 63) != (m2 & 63):
        return (m & 63) < (m2 & 63)
    return (m >> 6) < (m2 >> 6)


@cython.cclass
class CasinoGame(GameCore):
    """The game from the deal to the end; ``seat`` ``elder`` or ``dealer``; int moves.

    The verdict is the sign of the score (``sign_only``): the engine decides it by null-window
    searches (``minimax.Search.sign``), far fewer positions than the exact score, which it closes
    in on only when asked.
    """

    sign_only = True

    h: cython.int
    t: cython.int
    court_combine: cython.int
    sweeps: cython.int
    last_takes_rest: cython.int
    cards_points: cython.int
    spades_points: cython.int
    n: cython.int
    sign: cython.int  # +1: the seat is the elder hand, -1: the dealer
    spades_total: cython.int
    every_deal_even: cython.int
    spades_mask: cython.ulonglong  # SPADES_MASK (a field: a 64-bit constant in C)
    pack: cython.int[52]  # MAX_PACK
    pts: cython.int[52]  # a card's points
    wrt: cython.int[52]  # a card's worth
    hand: cython.ulonglong[2]
    table: cython.ulonglong
    nxt: cython.int  # the next card of the pack to deal
    blk: cython.int  # where the hands now held were dealt from
    turn: cython.int  # 0 the elder hand, 1 the dealer
    last: cython.int  # who took last (-1: no one yet)
    c0: cython.int  # cards taken, the elder's and the dealer's
    c1: cython.int
    s0: cython.int  # spades taken
    s1: cython.int
    points: cython.int  # aces, casinos and sweeps: the elder's less the dealer's
    pts_taken: cython.int
    u_masks: cython.ulonglong[192]  # the undo records: 3 masks a ply (MAX_PLIES)
    u_ints: cython.int[640]  # and UNDO_INTS ints
    played: cython.longlong[64]  # the moves played, MAX_PLIES
    ply = cython.declare(cython.int, visibility="readonly")
    groups: Moves  # scratch: a card's groups, then the kept plays' classes
    prios: Moves  # scratch: the moves' priorities, beside them
    rules: object
    seat_name: object
    # The key by classes (``card_class``): a rank's four suits as a nibble -> the same count of each
    # class on the class's first suits, [rank * 16 + nibble]; a hand (over its deal's cards) -> the
    # same count of each class on the class's first cards in the deal, [(who * 32 + deal) * 64 + hand].
    canon_nibble: cython.uchar[208]
    canon_hand: cython.uchar[4096]

    def __init__(self, rules: Casino, pack: tuple[int, ...], seat: str = "elder"):
        super().__init__()
        if len(pack) > MAX_PACK or len(set(pack)) != len(pack):
            raise ValueError("Casino plays one pack of distinct cards")
        self.rules, self.seat_name = rules, seat
        self.h, self.t = rules.hand_size, rules.table_cards
        self.court_combine, self.sweeps = rules.court_combine, rules.sweeps
        self.last_takes_rest = rules.last_takes_rest
        self.cards_points, self.spades_points = rules.cards_points, rules.spades_points
        self.n = len(pack)
        self.sign = 1 if seat == "elder" else -1
        self.spades_mask = SPADES_MASK
        self.pack = list(pack) + [0] * (MAX_PACK - len(pack))
        self.pts = [card_points(rules, c) for c in range(52)]
        self.wrt = [worth(rules, c) for c in range(52)]
        self.spades_total = sum(cards.suit(c) == SPADES for c in pack)
        self.every_deal_even = (self.n - self.t) % (2 * self.h) == 0
        if not cython.compiled:
            self.hand = [0, 0]
            self.u_masks = [0] * 192
            self.u_ints = [0] * 640
            self.played = [0] * 64
        self.groups, self.prios = Moves(), Moves()
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

    def _classes(self, rules: Casino) -> None:
        """The tables of ``canon_nibble`` and ``canon_hand``."""
        nibble = [0] * 208
        for r in range(13):
            suits = [4 * r + u for u in range(4)]
            for nib in range(16):
                nibble[r * 16 + nib] = _canonical([card_class(rules, c) for c in suits],
                                                  [nib >> u & 1 for u in range(4)])
        hands = [0] * 4096
        for k in range(MAX_DEALS):
            blk = 0 if k == 0 else 2 * self.h + self.t + 2 * self.h * (k - 1)
            for who in range(2):
                start = blk + who * self.h
                block = [card_class(rules, self.pack[i]) for i in range(start, min(start + self.h, self.n))]
                for nib in range(1 << len(block)):
                    hands[(who * MAX_DEALS + k) * 64 + nib] = _canonical(block,
                                                                         [nib >> u & 1 for u in range(len(block))])
        self.canon_nibble = nibble
        self.canon_hand = hands

    @cython.cfunc
    @cython.exceptval(check=False)
    def _canon(self, m: cython.ulonglong) -> cython.ulonglong:
        """A set of cards as the same count of each class on the class's first suits."""
        out: cython.ulonglong = 0
        part: cython.ulonglong
        r: cython.int
        for r in range(13):
            part = self.canon_nibble[r * 16 + ((m >> (4 * r)) & 15)]
            out |= part << (4 * r)
        return out

    @cython.cfunc
    @cython.exceptval(check=False)
    def _mask(self, start: cython.int, stop: cython.int) -> cython.ulonglong:
        """The cards pack[start:stop] (cut at the pack's end) as a mask."""
        m: cython.ulonglong = 0
        one: cython.ulonglong = 1
        i: cython.int
        for i in range(start, min(stop, self.n)):
            m |= one << self.pack[i]
        return m

    # ------------------------------------------------ the C level

    @cython.cfunc
    @cython.exceptval(-9, check=False)
    def c_side(self) -> cython.int:
        if self.hand[0] == 0 and self.hand[1] == 0 and self.nxt >= self.n:
            return 0
        return self.sign if self.turn == 0 else -self.sign

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _captures(self, card: cython.int) -> cython.int:
        """Append ``card | taken << 6`` to ``mv`` for every set of table cards ``card`` may take,
        each once: unions of disjoint groups, each group one card of its rank or number cards
        adding up to its value."""
        rank: cython.int = (card >> 2) + 1
        tc: cython.int[52]
        val: cython.int[52]
        if not cython.compiled:
            tc, val = [0] * 52, [0] * 52
        nt: cython.int = 0
        i: cython.int
        start: cython.Py_ssize_t = self.mv.size
        rest: cython.ulonglong = self.table
        one: cython.ulonglong = 1
        while rest:
            i = ctz(rest)
            rest &= rest - 1
            tc[nt] = i
            val[nt] = (i >> 2) + 1 if ((i >> 2) + 1 <= 10 or self.court_combine) else 99
            nt += 1
        self.groups.size = 0
        for i in range(nt):
            if (tc[i] >> 2) + 1 == rank:
                self._add_unique(self.groups, 0, one << tc[i])
        if self.court_combine or rank <= 10:
            self._grow(tc, val, nt, 0, 0, rank)
        self._unions(start, card, 0, 0)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _add_unique(self, v: Moves, start: cython.Py_ssize_t, x: cython.longlong) -> cython.int:
        j: cython.Py_ssize_t
        for j in range(start, v.size):
            if v.data[j] == x:
                return 0
        add(v, x)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _grow(self, tc: cython.p_int, val: cython.p_int, nt: cython.int, start: cython.int,
              chosen: cython.ulonglong, left: cython.int) -> cython.int:
        """The groups of number cards from ``start`` on adding up to ``left``, with ``chosen``."""
        j: cython.int
        one: cython.ulonglong = 1
        for j in range(start, nt):
            if val[j] == left:
                self._add_unique(self.groups, 0, chosen | (one << tc[j]))
            elif val[j] < left:
                self._grow(tc, val, nt, j + 1, chosen | (one << tc[j]), left - val[j])
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _unions(self, start: cython.Py_ssize_t, card: cython.int, k: cython.Py_ssize_t,
                used: cython.ulonglong) -> cython.int:
        """Every union of disjoint groups from the ``k``-th on with ``used``, as moves of ``card``."""
        g: cython.Py_ssize_t
        group: cython.ulonglong
        more: cython.ulonglong
        for g in range(k, self.groups.size):
            group = self.groups.data[g]
            if used & group == 0:
                more = used | group
                self._add_unique(self.mv, start, card | (more << 6))
                self._unions(start, card, g + 1, more)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_legal(self) -> cython.int:
        """Every play, in the search's order: captures before trails (a sweep first, then by the
        worth of the cards won), trails by the least given away (worth, and whether the other side
        holds the rank); ties by card, then by the cards taken (as a mask).  Of plays alike in
        classes (``card_class``) only the first."""
        out: Moves = self.mv
        prios: Moves = self.prios
        who: cython.int = self.turn
        rest: cython.ulonglong = self.hand[who]
        other: cython.ulonglong = self.hand[1 - who]
        taken: cython.ulonglong
        x: cython.ulonglong
        other_ranks: cython.int = 0
        card: cython.int
        prio: cython.int
        i: cython.int
        j: cython.int
        count: cython.int
        k: cython.Py_ssize_t
        first: cython.Py_ssize_t
        m: cython.longlong
        p: cython.longlong
        out.size = 0
        prios.size = 0
        while other:
            i = ctz(other)
            other &= other - 1
            other_ranks |= 1 << ((i >> 2) + 1)
        while rest:
            card = ctz(rest)
            rest &= rest - 1
            first = out.size
            self._captures(card)
            for k in range(first, out.size):
                taken = out.data[k] >> 6
                prio = self.wrt[card]
                if self.sweeps and taken == self.table:
                    prio += 1000
                x = taken
                while x:
                    i = ctz(x)
                    x &= x - 1
                    prio += self.wrt[i]
                add(prios, prio)
            add(out, card)
            add(prios, -1000 - self.wrt[card] - 2 * ((other_ranks >> ((card >> 2) + 1)) & 1))
        count = out.size
        for i in range(1, count):  # insertion sort, stable and total: (-prio, card, taken)
            m = out.data[i]
            p = prios.data[i]
            j = i - 1
            while j >= 0 and _before(m, p, out.data[j], prios.data[j]):
                out.data[j + 1] = out.data[j]
                prios.data[j + 1] = prios.data[j]
                j -= 1
            out.data[j + 1] = m
            prios.data[j + 1] = p
        return self._alike_once(count)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _alike_once(self, count: cython.int) -> cython.int:
        """Of the plays in ``mv``, alike in classes (the card's, the cards taken's), only the first;
        the count left."""
        out: Moves = self.mv
        kept_classes: Moves = self.groups  # the kept plays' classes, two words each
        i: cython.int
        j: cython.int
        kept: cython.int = 0
        dup: cython.bint
        one: cython.ulonglong = 1
        ci: cython.ulonglong
        ti: cython.ulonglong
        kept_classes.size = 0
        for i in range(count):
            ci = self._canon(one << (out.data[i] & 63))
            ti = self._canon(out.data[i] >> 6)
            dup = False
            for j in range(kept):
                if kept_classes.data[2 * j] == ci and kept_classes.data[2 * j + 1] == ti:
                    dup = True
                    break
            if not dup:
                add(kept_classes, ci)
                add(kept_classes, ti)
                out.data[kept] = out.data[i]
                kept += 1
        out.size = kept
        return kept

    @cython.cfunc
    @cython.exceptval(check=False)
    def _take(self, who: cython.int, taken: cython.ulonglong) -> cython.int:
        c: cython.int = popcount(taken)
        s: cython.int = popcount(taken & self.spades_mask)
        p: cython.int = 0
        i: cython.int
        while taken:
            i = ctz(taken)
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

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_push(self, move: cython.longlong) -> cython.int:
        card: cython.int = move & 63
        who: cython.int = self.turn
        taken: cython.ulonglong = move >> 6
        one: cython.ulonglong = 1
        u: cython.int = self.ply * UNDO_INTS
        if self.ply >= MAX_PLIES:
            raise IndexError("casino: too many plies")
        self.u_masks[3 * self.ply] = self.hand[0]
        self.u_masks[3 * self.ply + 1] = self.hand[1]
        self.u_masks[3 * self.ply + 2] = self.table
        self.u_ints[u] = self.nxt
        self.u_ints[u + 1] = self.blk
        self.u_ints[u + 2] = self.turn
        self.u_ints[u + 3] = self.last
        self.u_ints[u + 4] = self.c0
        self.u_ints[u + 5] = self.c1
        self.u_ints[u + 6] = self.s0
        self.u_ints[u + 7] = self.s1
        self.u_ints[u + 8] = self.points
        self.u_ints[u + 9] = self.pts_taken
        self.played[self.ply] = move
        self.ply += 1
        self.hand[who] &= ~(one << card)
        if taken:
            self.table &= ~taken
            self._take(who, taken | (one << card))
            self.last = who
            if self.table == 0 and self.sweeps and not (self.hand[0] == 0 and self.hand[1] == 0
                                                        and self.nxt >= self.n):
                self.points += 1 if who == 0 else -1
        else:
            self.table |= one << card
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

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_pop(self) -> cython.longlong:
        if self.ply == 0:
            raise IndexError("pop from the deal")
        self.ply -= 1
        u: cython.int = self.ply * UNDO_INTS
        self.hand[0] = self.u_masks[3 * self.ply]
        self.hand[1] = self.u_masks[3 * self.ply + 1]
        self.table = self.u_masks[3 * self.ply + 2]
        self.nxt = self.u_ints[u]
        self.blk = self.u_ints[u + 1]
        self.turn = self.u_ints[u + 2]
        self.last = self.u_ints[u + 3]
        self.c0 = self.u_ints[u + 4]
        self.c1 = self.u_ints[u + 5]
        self.s0 = self.u_ints[u + 6]
        self.s1 = self.u_ints[u + 7]
        self.points = self.u_ints[u + 8]
        self.pts_taken = self.u_ints[u + 9]
        return self.played[self.ply]

    @cython.cfunc
    @cython.exceptval(-999999, check=False)
    def c_score(self) -> cython.int:
        return self.sign * (self.points + self.cards_points * _sgn(self.c0 - self.c1)
                            + self.spades_points * _sgn(self.s0 - self.s1))

    @cython.cfunc
    @cython.exceptval(-999999, check=False)
    def c_banked(self) -> cython.int:
        return self.sign * self.points

    @cython.cfunc
    @cython.exceptval(check=False)
    def _plays_left(self) -> cython.int:
        """How many cards the elder and the dealer have still to play (in hand and to be dealt), as
        ``elder * 64 + dealer``."""
        elder: cython.int = popcount(self.hand[0])
        dealer: cython.int = popcount(self.hand[1])
        start: cython.int = self.nxt
        while start < self.n:
            elder += min(self.h, self.n - start)
            dealer += max(0, min(self.h, self.n - start - self.h))
            start += 2 * self.h
        return elder * 64 + dealer

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_bounds(self, lo: cython.p_int, hi: cython.p_int) -> cython.int:
        """Sound bounds on what is still to come (the score at the end less ``banked``), from each
        side's best case.  In the elder's terms:

        - points on cards (aces, the casinos) not yet in a pile: each goes to one side or to none,
          so they add between -P and +P, P their sum;
        - the cards point: with d the elder's cards less the dealer's so far and L the cards in no
          pile, the final difference lies in [d - L, d + L] (each of the L cards goes to one side or
          to none), so the point lies between cards_points * sign(d - L) and * sign(d + L); the same
          for the spades with the spades in no pile;
        - sweeps: at most the sweeps left for the elder (added to the top) and for the dealer
          (taken from the bottom).  A sweep is a play (a side scores at most one a play), never the
          last play of the game, and never a play onto an empty table (it takes nothing).  So a
          side scores at most one sweep a play it has left, less the play now if the table is
          empty and it is that side's turn, less the game's last play if it is that side's: when
          every deal gives both sides as many cards (the pack less the table cards a multiple of
          two hands), the elder plays first in each, so the dealer plays last.

        Nothing else scores, and a sum of bounds bounds the sum."""
        left: cython.int = self.n - self.c0 - self.c1
        spades_left: cython.int = self.spades_total - self.s0 - self.s1
        points: cython.int = 0
        d: cython.int = self.c0 - self.c1
        s: cython.int = self.s0 - self.s1
        e: cython.int = 0
        k: cython.int = 0
        i: cython.int
        plays: cython.int
        rest: cython.ulonglong = self.hand[0] | self.hand[1] | self.table
        for i in range(self.nxt, self.n):
            points += self.pts[self.pack[i]]
        while rest:
            i = ctz(rest)
            rest &= rest - 1
            points += self.pts[i]
        if self.sweeps:
            plays = self._plays_left()
            e, k = plays >> 6, plays & 63
            if self.table == 0:
                if self.turn == 0 and e:
                    e -= 1
                elif self.turn == 1 and k:
                    k -= 1
            if self.every_deal_even and k:
                k -= 1
        top: cython.int = (points + self.cards_points * _sgn(d + left) + self.spades_points * _sgn(s + spades_left)
                           + e)
        bottom: cython.int = (-points + self.cards_points * _sgn(d - left)
                              + self.spades_points * _sgn(s - spades_left) - k)
        if self.sign > 0:
            lo[0], hi[0] = bottom, top
        else:
            lo[0], hi[0] = -top, -bottom
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_key(self, words: cython.p_ulonglong) -> cython.int:
        """What decides the rest of the game, in two words: the table, whose turn, who took last
        (only read at the end when ``last_takes_rest``), the cards difference; the hands (as masks
        over the cards their deal gave them), the deal reached (``nxt``), the spades difference.
        The table and the hands by classes (``card_class``).  The differences are clamped to one
        beyond what is left: with L cards in no pile the final difference is within L of today's,
        so every difference above L + 1 ends positive (and below -L - 1 negative), the same for
        every line of play, and the point goes the same way (a difference of no points at all is
        kept as 0)."""
        left: cython.int = self.n - self.c0 - self.c1
        spades_left: cython.int = self.spades_total - self.s0 - self.s1
        d: cython.int = 0
        s: cython.int = 0
        i: cython.int
        k: cython.int
        rel0: cython.ulonglong = 0
        rel1: cython.ulonglong = 0
        turn: cython.ulonglong = self.turn
        last: cython.ulonglong = (self.last if self.last_takes_rest else 0) + 1
        dd: cython.ulonglong
        ss: cython.ulonglong
        nxt: cython.ulonglong = self.nxt
        if self.cards_points:
            d = max(-left - 1, min(self.c0 - self.c1, left + 1))
        if self.spades_points:
            s = max(-spades_left - 1, min(self.s0 - self.s1, spades_left + 1))
        dd, ss = d + 64, s + 64
        for i in range(self.h):  # the hands over the cards their deal gave them
            if self.blk + i < self.n:
                rel0 |= ((self.hand[0] >> self.pack[self.blk + i]) & 1) << i
            if self.blk + self.h + i < self.n:
                rel1 |= ((self.hand[1] >> self.pack[self.blk + self.h + i]) & 1) << i
        k = 0 if self.blk == 0 else (self.blk - 2 * self.h - self.t) // (2 * self.h) + 1
        rel0 = self.canon_hand[k * 64 + rel0]
        rel1 = self.canon_hand[(MAX_DEALS + k) * 64 + rel1]
        words[0] = self._canon(self.table) | (turn << 52) | (last << 53) | (dd << 55)
        words[1] = rel0 | (rel1 << 8) | (nxt << 16) | (ss << 24)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_plies_left(self) -> cython.int:
        plays: cython.int = self._plays_left()
        return (plays >> 6) + (plays & 63)

    # ------------------------------------------------ the Python level (``GameCore`` gives the rest)

    @property
    def history(self) -> list[int]:
        return [self.played[i] for i in range(self.ply)]

    def reference_move(self, move: int) -> tuple[int, tuple[int, ...]]:
        """A move code as ``(card, taken)``, the cards taken in order."""
        taken = move >> 6
        return move & 63, tuple(c for c in range(52) if taken >> c & 1)

    def move_code(self, move: tuple[int, tuple[int, ...]]) -> int:
        """The code of ``(card, taken)``."""
        card, taken = move
        return card | (sum(1 << c for c in taken) << 6)

    def move_json(self, move: int) -> dict[str, Any]:
        card, taken = self.reference_move(move)
        who = "elder" if self.turn == 0 else "dealer"
        out: dict[str, Any] = {"action": "take" if taken else "trail", "card": cards.name(card), "from": who,
                               "to": who if taken else "table"}
        if taken:
            out["taken"] = cards.names(taken)
        return out

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for the tests: hands, table, next, turn, cards, spades, points, last."""
        return ((tuple(c for c in range(52) if self.hand[0] >> c & 1),
                 tuple(c for c in range(52) if self.hand[1] >> c & 1)),
                tuple(c for c in range(52) if self.table >> c & 1), self.nxt, self.turn,
                (self.c0, self.c1), (self.s0, self.s1), self.points, self.last)
