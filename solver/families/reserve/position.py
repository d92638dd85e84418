"""The debutante family: foundations in suit, reserve columns that only feed them.

One source (``solver/families/README.md``, "One source"): Cython compiles this module in
pure-Python mode where a compiler exists, and the compiled DFS drives the result through the C
interface of ``solver/families/core.pxd``; elsewhere it runs as it stands, under the Python DFS.
Annotations such as ``cython.int`` are the C types of the compiled module.

One position class serves every layout of the family (debutante and its readings, Colorado,
Grandfather, Double Line, Twenty, Sly Fox); what differs between them is layout data compiled
into the tables and flags below.

Representation
--------------
A card's value is ``card | marks << 6`` (a byte; the marks below).  Column i holds
``col_len[i]`` values at ``colbuf[i * stride ...]``, in the order they were put there (a stack's
top card, which leaves first, is the last; in a queue, ``reserve.access = "first"``, the first
leaves first).  The ``stock`` is an array whose end is the next card to turn, the ``waste`` one
whose end is its top card; the foundations are their heights ``h``; ``need[f]`` is the card
foundation f takes next (-1: finished).  Everything is changed in place by ``push`` and put
back by ``pop`` (``undo``: one entry per move).  Tables of two indices are flat.

Moves
-----
A move is a pair ``(src, dst)`` of stack codes: column ``i >= 0``, ``STOCK``, ``WASTE``,
``ROW`` (one card to every column), ``COMMIT`` (see below) or ``FOUND + f`` for foundation
``f``; as an int, ``code(src, dst)`` (``parts`` turns it back).

Decisions (the main dominance).  Say a card ``c`` is available and foundation ``f`` takes it
now.  If some win plays ``c`` to ``f`` later, the same win with ``c`` played to ``f`` at once
also wins: ``f`` takes nothing else meanwhile (it is waiting for this card), and the stack ``c``
leaves only loses a card.  So there are two cases only: ``c`` goes to ``f`` now, or ``c`` never
goes to ``f``.  The search decides at once, and the second case marks the card "never to f's
row" (bit ``6 + row`` of the card's value in the column).  With the decision made, no
interleaving of a pending foundation play with other moves is ever searched twice.

The position's fields are declared once, in ``state.pxd`` (``ReserveState``, with the sizes as
named constants), its C methods in ``position.pxd``.  The bounds (``dead``) and the learning are
functions over the position in modules of their own, each with its proof (issue #39):
``dead_ends.py`` (``dead_end``, which asks the bounds in turn; the buried card; whether a gap may
open), ``relaxed.py`` (the generous game: the counting bound), ``copies.py`` (the copy count),
``timed.py`` (the timed copy count), ``pairing.py`` (the pairing bound, Python, at the deal only)
and ``learned.py`` (learning's key, ``write_learned_key``).
"""

from __future__ import annotations

from array import array
from typing import Any

from ... import cards, positions
from ...deal import Deal
from ...errors import UnsupportedError
from ...layout import Layout, Reads
from ...positions import Snapshot
from .copies import cc_splits
from .relaxed import Generous, generous
from .rules import foundation_sequences
from .timed import timed_scratch

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:  # the sizes and codes: state.pxd's enums, cimported by position.pxd
    from cython.cimports.solver.families.core import MAX_KEY, MAX_MOVES
    from cython.cimports.solver.families.reserve.dead_ends import dead_end, gap_may_open
    from cython.cimports.solver.families.reserve.learned import learned_key
    from cython.cimports.solver.families.reserve.relaxed import relaxed_play
    from cython.cimports.solver.families.reserve.state import ReserveState, bit
else:
    from ..core import MAX_KEY, MAX_MOVES
    from .dead_ends import dead_end, gap_may_open
    from .learned import learned_key
    from .relaxed import relaxed_play
    from .state import (
        C_COMMIT,
        C_FOUND,
        C_ROW,
        C_STOCK,
        C_WASTE,
        MAXC,
        MAXCARDS,
        MAXF,
        NCARD,
        NSUIT,
        SEQ,
        T_DEALROW,
        T_PLACE,
        T_WASTE,
        VALUES,
        ReserveState,
        bit,
    )

COMPILED = cython.compiled  # this module was compiled (the compiled DFS can drive it)

# The rules this position plays; any other rule value is refused (``Reads``).
READS = Reads("the debutante family's DFS position", {
    "decks": None, "foundations.rows": lambda rows: all(base != 0 for base, _ in rows), "foundations.preset": None,
    "reserve.count": None, "reserve.capacity": None, "reserve.access": None,
    "reserve.accepts": {"any", "suit-sequence"}, "reserve.deal": None, "reserve.fill": None, "reserve.gaps": None,
    "stock.turn": {"place", "waste", "deal-row", "none"}, "stock.deal_count": None, "stock.redeals": None,
    "stock.waste_capacity": None, "stock.top_playable": None, "stock.batch": None,
}, together=(
    (lambda lay: lay.stock.turn == "waste" or (lay.stock.deal_count == 1 and lay.stock.redeals == 0
                                                and not lay.stock.waste_capacity),
     "stock.deal_count, stock.redeals and stock.waste_capacity only with stock.turn = 'waste'"),
    (lambda lay: lay.stock.turn == "place" or not (lay.stock.top_playable or lay.stock.batch),
     "stock.top_playable and stock.batch only with stock.turn = 'place' (where the pack's top card plays)"),
))

# Stack codes, for Python (``state.pxd``'s ``C_`` names the same as C ints).
STOCK, WASTE, ROW, COMMIT, FOUND = -1, -2, -3, -4, 1000
NEVER = 10**6  # a place in a foundation's order that no card has
TURNS = {"none": 0, "place": 1, "waste": 2, "deal-row": 3}  # stock.turn: T_NONE, T_PLACE, ...
# Sizes (NCARD, VALUES, SEQ, MAXF, MAXC, MAXCARDS, NSUIT, TM_*): ``state.pxd``'s named constants
# (``state.py``'s, interpreted).

# What ``is_dead`` names, in order (``dead`` reports these by number).
BURIED_DEAD = "buried card: a card can leave its column only after a card it must follow"
COUNTING_DEAD = ("counting bound: the forty-first card rule; even a generous play-out of the rest of the pack "
                 "fails")
COPIES_DEAD = ("copy count: the forty-first card rule with each copy of a card serving one foundation; the "
               "most cards the foundations can hold at some turn leave more cards out than the columns hold")
TIMED_DEAD = ("timed copy count: the forty-first card rule with each copy given one foundation for the whole "
              "game and the earliest time it can go there")
PAIRING_DEAD = ("pairing bound: the forty-first card rule with the columns' order; at a tight turn too few of "
                "the cards out can share a column, the one leaving first able to leave while the other waits")
DEAD_REASONS = (BURIED_DEAD, COUNTING_DEAD, COPIES_DEAD, TIMED_DEAD, PAIRING_DEAD)


# ------------------------------------------------------------------ move codes

def code(src: int, dst: int) -> int:
    """The int code of the move ``(src, dst)``."""
    return mcode(src, dst)


def parts(move: int) -> tuple[int, int]:
    """The move ``(src, dst)`` of an int code."""
    return msrc(move), mdst(move)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def mcode(src: cython.int, dst: cython.int) -> cython.int:
    return ((src + 8) << 12) | (dst + 8 if dst < C_FOUND else 2048 + dst - C_FOUND)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def msrc(move: cython.int) -> cython.int:
    return (move >> 12) - 8


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def mdst(move: cython.int) -> cython.int:
    d: cython.int = move & 0xFFF
    return d - 8 if d < 2048 else C_FOUND + d - 2048


def _name(move_end: int) -> str:
    if move_end >= FOUND:
        return f"foundation:{move_end - FOUND}"
    if move_end >= 0:
        return f"reserve:{move_end}"
    return {STOCK: "stock", WASTE: "waste"}[move_end]


@cython.cclass  # final (``position.pxd``): no subclass when compiled, its C methods called directly (and inlined)
class ReservePosition(ReserveState):
    """A deal of a debutante-family game, mutable; moves are int codes (``code``, ``parts``).
    Its fields: ``state.pxd``."""

    DEAD_REASONS = DEAD_REASONS

    def __init__(self, layout: Layout, deal: Deal | Snapshot, *, dominance: bool = True):
        """The position at ``deal``: a deal (the position at move 0) or a ``Snapshot`` part-way
        through a game (cards on the waste and the foundations, redeals spent, a batch open)."""
        super().__init__()
        READS.check(layout)
        at = positions.of(layout, deal)
        stacks = at.stacks
        r, s, fnd = layout.reserve, layout.stock, layout.foundations
        ncols, nf = r.count, fnd.count
        total = sum(len(v) for v in stacks.values())
        rows = nf // 4
        if ncols > MAXC or nf > MAXF or total > MAXCARDS:
            raise UnsupportedError(f"layout {layout.name!r}: the debutante family's position holds at most "
                                   f"{MAXC} columns, {MAXF} foundations and {MAXCARDS} cards")
        if ncols * rows + rows + 2 * ncols + 1 > MAX_MOVES or nf + ncols + total + 16 > MAX_KEY:  # legal, write_key
            raise UnsupportedError(f"layout {layout.name!r}: more legal moves or key bytes than the position holds")
        self.ncols, self.nf, self.total = ncols, nf, total
        self.stride = max(1, total)  # a column never holds more than every card
        self.capacity = r.capacity or NEVER
        self.fifo = r.access == "first"
        self.suit_sequence = r.accepts == "suit-sequence"
        self.refill = r.fill == "immediate"
        self.gaps_any_top = r.gaps == "any-top"
        self.turn = TURNS[s.turn]
        self.deal_count = s.deal_count
        self.batch_size = s.batch
        # Columns are interchangeable unless the pack deals to them in order.
        self.interchangeable = s.turn != "deal-row"
        self.waste_capacity = s.waste_capacity or NEVER
        self.c_slots = -1 if r.capacity == 0 else r.capacity * r.count
        # The foundations hold exactly the pack (one row per pack): every one must be finished.
        self.exact = len(fnd.rows) == layout.decks

        # Foundation f takes the cards seq[f] in order (row f // 4, suit f % 4).
        seq: list[list[int]] = [list(x) for x in foundation_sequences(layout)]  # rules.py
        if any(len(x) >= SEQ for x in seq):
            raise UnsupportedError(f"layout {layout.name!r}: a foundation of more than {SEQ - 1} cards")
        # Tables are indexed by a card's value: card | marks << 6.
        where = [[NEVER] * VALUES for _ in range(nf)]  # place in f's order
        for f in range(nf):
            for i, c in enumerate(seq[f]):
                for marks in range(4):
                    where[f][c | marks << 6] = i
        fdests: list[tuple[int, ...]] = [
            tuple(f for f in range(nf) if where[f][v] < NEVER and not (v >> (6 + f // 4)) & 1) for v in range(VALUES)]
        self.tables = (seq, where, fdests)
        if not cython.compiled:  # the C arrays (compiled: in the object, zeroed)
            self.fseq, self.seq_len, self.fd, self.fdw, self.fd_n = \
                [0] * (MAXF * SEQ), [0] * MAXF, [0] * (VALUES * MAXF), [0] * (VALUES * MAXF), [0] * VALUES
            self.pmask, self.cwhere = [0] * (MAXF * SEQ), [0] * (MAXF * NCARD)
        for f in range(nf):
            mask = 0
            self.seq_len[f] = len(seq[f])
            for i, c in enumerate(seq[f]):
                self.fseq[f * SEQ + i] = c
                self.pmask[f * SEQ + i] = mask
                mask |= 1 << c
            self.pmask[f * SEQ + len(seq[f])] = mask
            for c in range(NCARD):
                self.cwhere[f * NCARD + c] = min(where[f][c], 1 << 20)
        for v in range(VALUES):
            self.fd_n[v] = len(fdests[v])
            for k, f in enumerate(fdests[v]):
                self.fd[v * nf + k] = f
                self.fdw[v * nf + k] = where[f][v]
        # The decision dominance needs room for the marks (two rows), and fails
        # when an emptied column is refilled at once: playing a card early then
        # changes which column the next pack card goes to; nor with batches of
        # placements (Sly Fox), whose count a pack card played at once would
        # change.  Tests comparing searches with and without it found both.
        self.dominance = dominance and len(fnd.rows) <= 2 and not self.refill and not s.batch
        # For column (and waste) cards alone the decision stays sound with
        # batches: a column card played to a foundation does not count in a
        # batch, and columns play only between batches.  So Sly Fox keeps it
        # for its columns, though not for its pack cards.  With immediate
        # refills (Twenty) it holds for a card with another card under it
        # (``_decides``): playing it early leaves the column what the later
        # play would have left, and the cards under it stay until then, so no
        # column empties at another moment and no refill changes.
        self.column_dominance = dominance and len(fnd.rows) <= 2 and not (self.refill and self.fifo)

        # The state.
        if not cython.compiled:
            self.colbuf, self.col_len = [0] * (MAXC * MAXCARDS), [0] * MAXC
            self.stock_buf, self.waste_buf = [0] * (MAXCARDS + 1), [0] * (MAXCARDS + 1)
            self.heights, self.needs, self.remaining = [0] * MAXF, [0] * MAXF, [0] * NCARD
            self.sk, self.korder, self.kpos = [0] * MAXC, [0] * MAXC, [0] * MAXC
        for i in range(ncols):
            col = stacks.get(f"reserve:{i}", ())
            self.col_len[i] = len(col)
            for k, v in enumerate(col):
                self.colbuf[i * self.stride + k] = v
        stock = list(reversed(stacks.get("stock", ())))  # end = next card to turn
        waste = list(stacks.get("waste", ()))  # end = its top card
        self.stock_n, self.waste_n = len(stock), len(waste)
        for k, v in enumerate(stock):
            self.stock_buf[k] = v
        for k, v in enumerate(waste):
            self.waste_buf[k] = v
        for f in range(nf):
            self.heights[f] = len(stacks.get(f"foundation:{f}", ()))
            self.needs[f] = self._need_of(f)
        self.placed = sum(len(stacks.get(f"foundation:{f}", ())) for f in range(nf))
        for stack, cs in stacks.items():
            if not stack.startswith("foundation"):
                for c in cs:
                    self.remaining[c] += 1
        self.redeals_left = (at.redeals_left if at.redeals_left is not None
                             else s.redeals if s.redeals >= 0 else NEVER)
        # With unlimited redeals how many are left does not matter for play: the key leaves it
        # out, or every redeal would look like a new position and the search never end.
        self.unlimited_redeals = s.redeals < 0
        self.batch_left = at.batch_left
        self.undo = array("i", [0] * 64)
        self.nundo = 0
        self._set_want()
        self._sort_all()

        # Learning (``write_learned_key``): every turned card placed at once, on columns of limited
        # size and taking any card, which cards leave only to the foundations.
        # The copy count and the timed copy count (``strong_bounds``): the DFS engine's first search,
        # without learning, runs without them too (``dfs.run_dfs``).
        self.strong_bounds = True
        self.learns = (s.turn == "place" and r.capacity in (1, 2) and not s.batch and not self.refill
                       and not self.gaps_any_top and not self.suit_sequence)
        # The timed copy count (``timed.py``): two rows holding the two packs, every turned card
        # placed at once on columns of limited size.
        self.timed = (len(fnd.rows) == 2 == layout.decks and s.turn == "place" and r.capacity != 0
                      and not s.batch and not self.refill and not self.gaps_any_top)
        # The pairing bound (``pairing.py``): the same, on columns of two taking any card.
        self.pairs = self.timed and r.capacity == 2 and not self.suit_sequence
        tm_memo: dict[bytes, int] = {}  # the timed and pairing bounds' horizons by position key
        pr_memo: dict[bytes, int] = {}
        self.tm_memo, self.pr_memo = tm_memo, pr_memo
        self.room = 0
        self.snap_ok = False
        if not cython.compiled:
            self.g_hh, self.g_nd, self.g_can = ([0] * MAXF for _ in range(3))
            self.g_left, self.g_nxt = [0] * MAXC, [0] * MAXC
            self.g_todo = [0] * (MAXF * NCARD)
            self.g_head, self.g_tail, self.g_seen_of, self.g_passed = ([0] * NCARD for _ in range(4))
            self.g_both, self.g_only0, self.g_only1 = ([0] * NCARD for _ in range(3))
            self.g_best, self.g_dirty = [0] * NSUIT, [False] * NSUIT
            self.snap, self.lk = [0] * ((MAXCARDS + 1) * MAXF), [0] * (MAXC * MAXCARDS)
        if self.timed:
            timed_scratch(self)

    # ------------------------------------------------------------ helpers

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _top(self, i: cython.int) -> cython.int:
        """The value that leaves column ``i`` next (the column is not empty)."""
        return self.colbuf[i * self.stride] if self.fifo else self.colbuf[i * self.stride + self.col_len[i] - 1]

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _same_col(self, a: cython.int, b: cython.int) -> cython.bint:
        """Columns ``a`` and ``b`` hold the same values."""
        n: cython.int = self.col_len[a]
        k: cython.int
        if n != self.col_len[b]:
            return False
        for k in range(n):
            if self.colbuf[a * self.stride + k] != self.colbuf[b * self.stride + k]:
                return False
        return True

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _need_of(self, f: cython.int) -> cython.int:
        return self.fseq[f * SEQ + self.heights[f]] if self.heights[f] < self.seq_len[f] else -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _set_want(self) -> cython.void:
        f: cython.int
        self.want = 0
        for f in range(self.nf):
            if self.needs[f] >= 0:
                self.want |= bit(self.needs[f])

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _wanted(self, v: cython.int) -> cython.bint:
        """Some foundation takes ``v``'s card now (a quick test before ``_accepting``)."""
        return (self.want >> (v & 63)) & 1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _sort_key(self, i: cython.int) -> cython.void:
        n: cython.int = self.col_len[i]
        k: cython.int
        x: cython.ulonglong = n
        y: cython.ulonglong
        x <<= 56
        for k in range(n if n < 7 else 7):
            y = self.colbuf[i * self.stride + k]
            x |= y << (48 - 8 * k)
        self.sk[i] = x

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _after(self, a: cython.int, b: cython.int) -> cython.bint:
        """Column ``a`` comes after column ``b`` in the key's order: (length, values)."""
        n: cython.int
        k: cython.int
        if self.sk[a] != self.sk[b]:
            return self.sk[a] > self.sk[b]
        n = self.col_len[a]
        for k in range(7, n):
            if self.colbuf[a * self.stride + k] != self.colbuf[b * self.stride + k]:
                return self.colbuf[a * self.stride + k] > self.colbuf[b * self.stride + k]
        return False

    @cython.cfunc
    @cython.exceptval(check=False)
    def _moved(self, i: cython.int) -> cython.void:
        """Column ``i`` changed (alone): its place in the key's order, the others still sorted."""
        k: cython.int
        j: cython.int
        self._sort_key(i)
        k = self.kpos[i]
        while k > 0 and self._after(self.korder[k - 1], i):
            j = self.korder[k - 1]
            self.korder[k] = j
            self.kpos[j] = k
            k -= 1
        while k < self.ncols - 1 and self._after(i, self.korder[k + 1]):
            j = self.korder[k + 1]
            self.korder[k] = j
            self.kpos[j] = k
            k += 1
        self.korder[k] = i
        self.kpos[i] = k

    @cython.cfunc
    @cython.exceptval(check=False)
    def _sort_all(self) -> cython.void:
        """The key's order from scratch (after a row is dealt: many columns changed)."""
        i: cython.int
        j: cython.int
        for i in range(self.ncols):
            self._sort_key(i)
            j = i
            while j > 0 and self._after(self.korder[j - 1], i):
                self.korder[j] = self.korder[j - 1]
                j -= 1
            self.korder[j] = i
        for i in range(self.ncols):
            self.kpos[self.korder[i]] = i

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _accepting(self, v: cython.int, out: cython.p_int) -> cython.int:
        """The foundations that take ``v``'s card now, written to ``out``; their count."""
        c: cython.int = v & 63
        k: cython.int
        f: cython.int
        n: cython.int = 0
        for k in range(self.fd_n[v]):
            f = self.fd[v * self.nf + k]
            if self.needs[f] == c:
                out[n] = f
                n += 1
        return n

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _open(self, v: cython.int) -> cython.int:
        """How many foundations may still take ``v``'s card some day."""
        k: cython.int
        n: cython.int = 0
        for k in range(self.fd_n[v]):
            if self.fdw[v * self.nf + k] >= self.heights[self.fd[v * self.nf + k]]:
                n += 1
        return n

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    @cython.cdivision(True)  # f >= 0
    def _marks(self, v: cython.int) -> cython.int:
        """The marks of the rows that take ``v``'s card now (bit ``6 + row`` each)."""
        c: cython.int = v & 63
        k: cython.int
        f: cython.int
        m: cython.int = 0
        for k in range(self.fd_n[v]):
            f = self.fd[v * self.nf + k]
            if self.needs[f] == c:
                m += 1 << (6 + f // 4)
        return m

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _takes(self, i: cython.int, card: cython.int) -> cython.bint:
        """Whether column ``i`` may take ``card``."""
        n: cython.int = self.col_len[i]
        last: cython.int
        if n >= self.capacity:
            return False
        if self.suit_sequence and n:
            last = self.colbuf[i * self.stride + n - 1] & 63
            return (last & 3) == (card & 3) and ((last >> 2) - (card >> 2) == 1 or (card >> 2) - (last >> 2) == 1)
        return True

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _pending_refill(self) -> cython.int:
        """The empty column the pack must fill now (``reserve.fill = "immediate"``), or -1."""
        j: cython.int
        if self.refill and self.stock_n:
            for j in range(self.ncols):
                if self.col_len[j] == 0:
                    return j
        return -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _decides(self, i: cython.int) -> cython.bint:
        """Whether the decision dominance covers column ``i``'s top card."""
        n: cython.int = self.col_len[i]
        return n > 1 or (n == 1 and not (self.refill and self.stock_n))

    @cython.cfunc
    @cython.exceptval(check=False)
    def _decision(self, out: cython.p_int) -> cython.int:
        """The options of the first available card that a foundation takes now: with learning,
        the one of least value (the first such column for equal values: the choice then depends
        on the cards, not on where the columns stand, as ``write_learned_key`` needs), written to
        ``out``; their count (0: no decision).

        The card goes to such a foundation now, or (``COMMIT``) is marked never to go to any of
        them.  See the module docstring for why.
        """
        i: cython.int
        v: cython.int
        src: cython.int = 0
        best: cython.int = VALUES
        acc: cython.int[MAXF]
        if not cython.compiled:
            acc = [0] * MAXF
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
            v = self.waste_buf[self.waste_n - 1]
            if v < best and self._accepting(v, acc):
                best, src = v, C_WASTE
        return 0 if best == VALUES else self._decide(src, best, out)

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _decide(self, src: cython.int, v: cython.int, out: cython.p_int) -> cython.int:
        acc: cython.int[MAXF]
        if not cython.compiled:
            acc = [0] * MAXF
        n: cython.int = self._accepting(v, acc)
        k: cython.int
        if n == 0:
            return 0
        for k in range(n):
            out[k] = mcode(src, C_FOUND + acc[k])
        if self._open(v) > n:
            out[n] = mcode(src, C_COMMIT)
            n += 1
        return n

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _urgency(self, v: cython.int) -> cython.int:
        """How many cards a foundation still needs before it can take ``v`` (99: none will)."""
        k: cython.int
        w: cython.int
        best: cython.int = 99
        found: cython.bint = False
        for k in range(self.fd_n[v]):
            w = self.fdw[v * self.nf + k] - self.heights[self.fd[v * self.nf + k]]
            if w >= 0 and (not found or w < best):
                best = w
                found = True
        return best

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _placement_score(self, i: cython.int, v: cython.int) -> cython.int:
        """Lower is tried first.  Measured on Colorado and debutante seeds
        1..20 (3000 nodes each) against best-fit and empty-first orders:
        first, on a card needed later than this one (nothing is blocked),
        the more slack the better; then an empty column; then on a card
        needed sooner, the larger the gap first.  With batches, see
        ``_batch_placement_score``."""
        below: cython.int
        first: cython.int
        then: cython.int
        u_first: cython.int
        u_then: cython.int
        if self.batch_size and not self.fifo:
            return self._batch_placement_score(i, v)
        if self.col_len[i] == 0:
            return 50
        below = self._top(i)
        if self.fifo:
            first, then = below, v
        else:
            first, then = v, below
        u_first = self._urgency(first)
        u_then = self._urgency(then)
        return (30 - (u_then - u_first)) if u_first < u_then else 100 - (u_first - u_then)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _batch_placement_score(self, i: cython.int, v: cython.int) -> cython.int:
        """``_placement_score`` with batches (Sly Fox): best fit against the column's deadline.

        A batch's cards are all placed before any column plays, as in patience sorting,
        where putting each card on the pile it fits most tightly keeps the loose piles for
        the cards still to come.  A column's deadline is its most urgent card, counting one
        more for each card above it (they must go first); a card's urgency is that of
        ``_copy_urgency``.  First, on a column whose deadline is later than the card's
        urgency, the less slack the better; then an empty column; then on a column needed
        sooner, the smaller the gap first.  Measured on Sly Fox seeds 1..600 at 200,000
        nodes: 591 won; 561 with the column's top card for its deadline and ``_urgency``
        for urgency; with the order ``_placement_score`` gives the other layouts, 140 of
        seeds 1..300.
        """
        n: cython.int = self.col_len[i]
        first: cython.int
        deadline: cython.int
        k: cython.int
        w: cython.int
        if n == 0:
            return 50
        first = self._copy_urgency(v, -1)
        deadline = 1 << 30
        for k in range(n):
            w = self._copy_urgency(self.colbuf[i * self.stride + k], i) + (n - 1 - k)
            if w < deadline:
                deadline = w
        return 10 + (deadline - first) if first < deadline else 100 + (first - deadline)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _copy_urgency(self, v: cython.int, skip: cython.int) -> cython.int:
        """``_urgency``, but the farther of two foundations when another copy of the card
        is the top card of a column other than ``skip`` (-1: none): that copy can serve the
        nearer one (a column stack's top card is its last; used with batches only)."""
        k: cython.int
        w: cython.int
        d1: cython.int = 99
        d2: cython.int = 99
        j: cython.int
        for k in range(self.fd_n[v]):
            w = self.fdw[v * self.nf + k] - self.heights[self.fd[v * self.nf + k]]
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

    @cython.cfunc
    @cython.exceptval(check=False)
    def _placements(self, v: cython.int, src: cython.int, out: cython.p_int, n: cython.int) -> cython.int:
        """The moves ``(src, i)`` to the columns that may take ``v``, one per distinct column,
        best first (by score, then column), appended to ``out[n:]``; the new count."""
        idx: cython.int[MAXC]
        score: cython.int[MAXC]
        if not cython.compiled:
            idx, score = [0] * MAXC, [0] * MAXC
        cnt: cython.int = 0
        i: cython.int
        k: cython.int
        s: cython.int
        j: cython.int
        dup: cython.bint
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

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def won(self) -> cython.bint:
        return self.placed == self.total

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, out: cython.p_int) -> cython.int:
        """A pending refill alone; else the decision; else the column cards to foundations (one
        per distinct column), the pack's card to foundations, its placements (with the
        dominance, a card some foundation takes now is placed only if another foundation may
        still take it later), the pack's turn, and the gap moves."""
        j: cython.int = self._pending_refill()
        n: cython.int
        i: cython.int
        k: cython.int
        f: cython.int
        v: cython.int
        c: cython.int
        src: cython.int
        m: cython.int
        nacc: cython.int
        empty: cython.int
        dup: cython.bint
        acc: cython.int[MAXF]
        if not cython.compiled:
            acc = [0] * MAXF
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
                    if self.needs[f] != c:
                        continue
                    dup = False  # identical columns: try one of them
                    for m in range(n):
                        if mdst(out[m]) == C_FOUND + f and self._same_col(msrc(out[m]), i):
                            dup = True
                            break
                    if not dup:
                        out[n] = mcode(i, C_FOUND + f)
                        n += 1
        src, v = C_STOCK, -1  # the pack's card that may be played now, and its stack
        if self.turn == T_PLACE and self.stock_n:
            v = self.stock_buf[self.stock_n - 1]
        elif self.turn == T_WASTE and self.waste_n:
            src, v = C_WASTE, self.waste_buf[self.waste_n - 1]
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
        if self.gaps_any_top and not self.stock_n:  # the gap moves: a column's top into the first gap
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

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def forced(self) -> cython.int:
        """A pending refill, or a decision with one option; else -1."""
        j: cython.int = self._pending_refill()
        out: cython.int[65]  # MAXF + 1 (a compile-time expression is no size here)
        if not cython.compiled:
            out = [0] * (MAXF + 1)
        if j >= 0:
            return mcode(C_STOCK, j)
        if self.column_dominance and self._decision(out) == 1:
            return out[0]
        return -1

    def grow(self) -> None:
        """Double the room of the undo stack."""
        new = array("i", self.undo)
        new.extend(new)
        self.undo = new

    @cython.ccall
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # 0 <= nundo < len(undo), checked
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def push(self, move: cython.int) -> cython.int:
        """Play ``move``."""
        src: cython.int = msrc(move)
        dst: cython.int = mdst(move)
        n: cython.int
        j: cython.int
        _j: cython.int
        v: cython.int
        f: cython.int
        p: cython.int
        undo: cython.int = self.batch_left
        self.snap_ok = False
        self._check(src, dst)
        if dst == C_ROW:
            n = min(self.ncols, self.stock_n)
            for j in range(n):
                self.stock_n -= 1
                self.colbuf[j * self.stride + self.col_len[j]] = self.stock_buf[self.stock_n]
                self.col_len[j] += 1
            self._sort_all()
            undo = n
        elif src == C_WASTE and dst == C_STOCK:
            for j in range(self.waste_n):
                self.stock_buf[j] = self.waste_buf[self.waste_n - 1 - j]
            self.stock_n = self.waste_n
            self.waste_n = 0
            self.redeals_left -= 1
        elif src == C_STOCK and dst == C_WASTE:
            n = min(self.deal_count, self.stock_n)
            for _j in range(n):
                self.stock_n -= 1
                self.waste_buf[self.waste_n] = self.stock_buf[self.stock_n]
                self.waste_n += 1
            undo = n
        elif dst == C_COMMIT:
            if src >= 0:
                p = src * self.stride + (0 if self.fifo else self.col_len[src] - 1)
                v = self.colbuf[p]
                self.colbuf[p] = v | self._marks(v)
                self._moved(src)
            else:
                v = self.waste_buf[self.waste_n - 1]
                self.waste_buf[self.waste_n - 1] = v | self._marks(v)
            undo = v
        else:
            if src >= 0:
                p = src * self.stride
                n = self.col_len[src] - 1
                self.col_len[src] = n
                if self.fifo:
                    v = self.colbuf[p]
                    for j in range(n):
                        self.colbuf[p + j] = self.colbuf[p + j + 1]
                else:
                    v = self.colbuf[p + n]
                self._moved(src)
            elif src == C_STOCK:
                self.stock_n -= 1
                v = self.stock_buf[self.stock_n]
            else:
                self.waste_n -= 1
                v = self.waste_buf[self.waste_n]
            if dst >= C_FOUND:
                f = dst - C_FOUND
                self.heights[f] += 1
                self.needs[f] = self._need_of(f)
                self._set_want()
                self.placed += 1
                self.remaining[v & 63] -= 1
            else:
                # A pack card that a foundation takes now but is placed instead will never go to
                # that foundation (the dominance).
                self.colbuf[dst * self.stride + self.col_len[dst]] = (v | self._marks(v)) if self.dominance else v
                self.col_len[dst] += 1
                self._moved(dst)
                if self.batch_size and src == C_STOCK:
                    self.batch_left = (self.batch_left or self.batch_size) - 1
                    if not self.stock_n:
                        self.batch_left = 0
            undo = (undo << 8) | v
        if self.nundo == len(self.undo):
            self.grow()
        self.undo[self.nundo] = undo
        self.nundo += 1
        self.record(move)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _check(self, src: cython.int, dst: cython.int) -> cython.int:
        """Refuse a code that would read or write outside the state (not a full legality check)."""
        ok: cython.bint
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
                (C_FOUND <= dst < C_FOUND + self.nf and self.heights[dst - C_FOUND] < self.seq_len[dst - C_FOUND])
        if not ok:
            raise ValueError(f"not a move here: {(src, dst)}")
        return 0

    @cython.ccall
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # 0 <= nundo < len(undo), checked
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def pop(self) -> cython.int:
        """Take the last move back; returns its code."""
        move: cython.int = self.unrecord()
        undo: cython.int
        src: cython.int = msrc(move)
        dst: cython.int = mdst(move)
        j: cython.int
        _j: cython.int
        v: cython.int
        f: cython.int
        n: cython.int
        p: cython.int
        self.nundo -= 1
        undo = self.undo[self.nundo]
        self.snap_ok = False
        if dst == C_ROW:
            for j in range(undo - 1, -1, -1):
                self.col_len[j] -= 1
                self.stock_buf[self.stock_n] = self.colbuf[j * self.stride + self.col_len[j]]
                self.stock_n += 1
            self._sort_all()
        elif src == C_WASTE and dst == C_STOCK:
            for j in range(self.stock_n):
                self.waste_buf[j] = self.stock_buf[self.stock_n - 1 - j]
            self.waste_n = self.stock_n
            self.stock_n = 0
            self.redeals_left += 1
        elif src == C_STOCK and dst == C_WASTE:
            for _j in range(undo):
                self.waste_n -= 1
                self.stock_buf[self.stock_n] = self.waste_buf[self.waste_n]
                self.stock_n += 1
        elif dst == C_COMMIT:
            if src >= 0:
                self.colbuf[src * self.stride + (0 if self.fifo else self.col_len[src] - 1)] = undo
                self._moved(src)
            else:
                self.waste_buf[self.waste_n - 1] = undo
        else:
            self.batch_left = undo >> 8
            v = undo & 255
            if dst >= C_FOUND:
                f = dst - C_FOUND
                self.heights[f] -= 1
                self.needs[f] = self._need_of(f)
                self._set_want()
                self.placed -= 1
                self.remaining[v & 63] += 1
            else:
                self.col_len[dst] -= 1
                self._moved(dst)
            if src >= 0:
                p = src * self.stride
                n = self.col_len[src]
                if self.fifo:
                    for j in range(n, 0, -1):
                        self.colbuf[p + j] = self.colbuf[p + j - 1]
                    self.colbuf[p] = v
                else:
                    self.colbuf[p + n] = v
                self.col_len[src] = n + 1
                self._moved(src)
            elif src == C_STOCK:
                self.stock_buf[self.stock_n] = v
                self.stock_n += 1
            else:
                self.waste_buf[self.waste_n] = v
                self.waste_n += 1
        return move

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def write_key(self, buf: cython.p_uchar) -> cython.int:
        """The key: the foundation heights; the columns, each as its length and values, in the
        order of (length, values) (``korder``, kept by push and pop) unless the pack deals to the
        columns in order while it lasts; then, with a waste, the stock, the waste and the
        redeals left (none with no limit), as 4 bytes; with a row deal, the stock's length;
        with batches, the batch's place."""
        p: cython.int = 0
        f: cython.int
        k: cython.int
        i: cython.int
        n: cython.int
        left: cython.int
        sort: cython.bint = self.interchangeable or not self.stock_n
        for f in range(self.nf):
            buf[p] = self.heights[f]
            p += 1
        for k in range(self.ncols):
            i = self.korder[k] if sort else k
            n = self.col_len[i]
            buf[p] = n
            p += 1
            for f in range(n):
                buf[p + f] = self.colbuf[i * self.stride + f]
            p += n
        if self.turn == T_WASTE:
            buf[p] = self.stock_n
            p += 1
            for k in range(self.stock_n):
                buf[p + k] = self.stock_buf[k]
            p += self.stock_n
            buf[p] = self.waste_n
            p += 1
            for k in range(self.waste_n):
                buf[p + k] = self.waste_buf[k]
            p += self.waste_n
            left = -1 if self.unlimited_redeals else self.redeals_left
            for k in range(4):  # little-endian
                buf[p + k] = (left >> (8 * k)) & 255
            p += 4
        elif self.turn != T_PLACE:
            buf[p] = self.stock_n
            p += 1
        if self.batch_size:
            buf[p] = self.batch_left
            p += 1
        return p

    # ------------------------------------------------------------- learning (``learned.py``)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_clock(self) -> cython.int:
        """The stock's length: play turns it down, one card at a time."""
        return self.stock_n

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def c_stuck_horizon(self) -> cython.int:
        """With no legal move and the stock not empty, its next card can be neither placed nor
        played: no line gets past this stock length."""
        return self.stock_n

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def write_learned_key(self, kind: cython.int, horizon: cython.int, buf: cython.p_uchar) -> cython.int:
        """What the claim of ``kind`` at ``horizon`` rests on, written to ``buf``; its length
        (``learned.py`` has the key and its proof)."""
        return learned_key(self, kind, horizon, buf)

    # --------------------------------------------------------------- bounds (``dead_ends.py``)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def dead(self) -> cython.int:
        """The bound that proves no win is reachable, by its number in ``DEAD_REASONS``, or 0;
        ``horizons`` the claims of the learned key (``dead_ends.dead_end``)."""
        return dead_end(self)

    def cc_splits(self, s: int, spare: int) -> list[tuple[int, int]]:
        """Suit ``s``'s splits within ``spare`` of the copy count's most (``copies.cc_splits``)."""
        return cc_splits(self, s, spare)

    def generous(self, held: tuple[int, int, int] | None) -> Generous:
        """The counting generous game made here, with the copy count, played turn by turn by
        ``pairing.py`` (``relaxed.generous``; ``held`` a copy that never leaves)."""
        return generous(self, held)

    # ------------------------------------------------------------ the Python level

    def slack(self) -> int | None:
        """The counting bounds' room at their tightest turn: the columns' places minus the cards out
        (the fewer the copy count allows), least over the turns of the relaxed play's generous game
        (``relaxed.py``; negative: the bound cuts here).  None where the bound counts no places (columns of
        any height, a waste, batches) or may not prune (a gap may open).  Reported for unknowns;
        never used to prune."""
        if self.c_slots < 0 or self.turn != T_PLACE or self.batch_size:
            return None
        if self.gaps_any_top and gap_may_open(self):
            return None
        relaxed_play(self, True)
        return self.room

    def move_json(self, move: int) -> dict[str, Any] | None:
        """The move in the result contract; ``None`` for a ``COMMIT``, which is a decision of the
        search and not a move of the game."""
        src, dst = msrc(move), mdst(move)
        if dst == C_COMMIT:
            return None
        if dst == C_ROW:
            return {"card": cards.name(self.stock_buf[self.stock_n - 1] & 63), "from": "stock", "to": "reserve",
                    "count": min(self.ncols, self.stock_n)}
        if src == C_WASTE and dst == C_STOCK:
            return {"card": cards.name(self.waste_buf[0] & 63), "from": "waste", "to": "stock",
                    "count": self.waste_n}
        if src >= 0:
            v = self._top(src)
        elif src == C_STOCK:
            v = self.stock_buf[self.stock_n - 1]
        else:
            v = self.waste_buf[self.waste_n - 1]
        out: dict[str, Any] = {"card": cards.name(v & 63), "from": _name(src), "to": _name(dst)}
        if src == C_STOCK and dst == C_WASTE and self.deal_count > 1:
            out["count"] = min(self.deal_count, self.stock_n)
        return out

    def state(self) -> tuple[Any, ...]:
        """Everything mutable: the columns, heights, needs, stock, waste, copies off the
        foundations, cards placed, redeals left, the batch's place, the history and the undo
        stack."""
        return (self.cols, self.h, self.need, self.stock, self.waste, self.rem, self.placed,
                self.redeals_left, self.batch_left, self.history, [self.undo[k] for k in range(self.nundo)])

    # what the pairing bound and the tests read, as Python lists
    @property
    def cols(self) -> list[list[int]]:
        """Each column's values, in the order they were put there."""
        return [[self.colbuf[i * self.stride + k] for k in range(self.col_len[i])] for i in range(self.ncols)]

    @property
    def stock(self) -> list[int]:
        """The stock's values; the end is the next card to turn."""
        return [self.stock_buf[k] for k in range(self.stock_n)]

    @property
    def waste(self) -> list[int]:
        """The waste's values; the end is its top card."""
        return [self.waste_buf[k] for k in range(self.waste_n)]

    @property
    def h(self) -> list[int]:
        """The foundations' heights."""
        return [self.heights[f] for f in range(self.nf)]

    @property
    def need(self) -> list[int]:
        """The card each foundation takes next (-1: finished)."""
        return [self.needs[f] for f in range(self.nf)]

    @property
    def rem(self) -> list[int]:
        """Copies of each card not yet on a foundation."""
        return [self.remaining[c] for c in range(NCARD)]

    @property
    def slots(self) -> int | None:
        """The columns' places (None: columns of any height)."""
        return None if self.c_slots < 0 else self.c_slots

    @property
    def seq(self) -> list[list[int]]:
        """The cards each foundation takes, in order."""
        return self.tables[0]

    @property
    def where(self) -> list[list[int]]:
        """``where[f][v]``: value v's card's place in foundation f's order (``NEVER``: none)."""
        return self.tables[1]

    @property
    def fdests(self) -> list[tuple[int, ...]]:
        """``fdests[v]``: the foundations value v may go to (its marks allow them)."""
        return self.tables[2]
