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

The bounds (``dead``): the buried card (``_buried``), the generous game's counts
(``_relaxed_play``: the counting bound and the copy count), the timed copy count (``_timed``)
and the pairing bound (``pairing.py``, Python, at the deal only), each proved where it is
defined; learning's key (``write_learned_key``) is proved there too.
"""

from __future__ import annotations

from array import array
from typing import Any

from ... import cards, positions
from ...deal import Deal
from ...errors import UnsupportedError
from ...layout import Layout, Reads
from ...positions import Snapshot
from .pairing import pairing_horizon
from .rules import foundation_sequences

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.core import MAX_KEY, MAX_MOVES, CorePosition
else:
    from ..core import MAX_KEY, MAX_MOVES, CorePosition

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

# Stack codes, for Python (``C_`` the same as C ints of this module).
STOCK, WASTE, ROW, COMMIT, FOUND = -1, -2, -3, -4, 1000
C_STOCK = cython.declare(cython.int, -1)
C_WASTE = cython.declare(cython.int, -2)
C_ROW = cython.declare(cython.int, -3)
C_COMMIT = cython.declare(cython.int, -4)
C_FOUND = cython.declare(cython.int, 1000)
NEVER = 10**6  # a place in a foundation's order that no card has
INERT = cython.declare(cython.int, 255)  # a card that ``write_learned_key`` leaves out
ALL_LINES = cython.declare(cython.int, 255)  # a horizon no line gets past: a buried card (``write_learned_key``)
# The timed copy count costs a hundred times the other bounds and cuts few positions deep in a
# search (measured: 4% of them on debutante 55, where every position is tight), so it runs only
# near the deal: within TIMED_PLY moves of it, where the counts leave at most TIMED_ROOM room.
TIMED_ROOM = cython.declare(cython.int, 2)
TIMED_PLY = cython.declare(cython.int, 8)
# The pairing bound (``pairing.py``) costs a generous game per copy it holds (0.1 to 0.5 s in
# Python): at the deal only, where the counts leave at most PAIR_ROOM room.  Deeper in the search
# it cut 8 positions of 226 it was asked about on debutante 58 at 115 s, and decided nothing.
PAIR_ROOM = cython.declare(cython.int, 1)
PAIR_PLY = cython.declare(cython.int, 0)
MEMO = cython.declare(cython.int, 1 << 16)  # keys the timed and pairing bounds' memos keep at most

# Sizes (the C arrays' sizes are these numbers, written out in the annotations below).
SEQ = cython.declare(cython.int, 16)  # room per foundation in ``seq`` and ``pmask`` (13 cards, one past)
VALUES = cython.declare(cython.int, 256)  # card values: card | marks << 6
MAXF = cython.declare(cython.int, 64)  # foundations at most (16 rows)
MAXC = cython.declare(cython.int, 64)  # columns at most (the layout schema's limit)
MAXCARDS = cython.declare(cython.int, 255)  # cards at most (a byte each in the key)

# stock.turn
T_NONE = cython.declare(cython.int, 0)
T_PLACE = cython.declare(cython.int, 1)
T_WASTE = cython.declare(cython.int, 2)
T_DEALROW = cython.declare(cython.int, 3)
TURNS = {"none": 0, "place": 1, "waste": 2, "deal-row": 3}

# The timed copy count (``_timed``).
MAX_CHOICES = cython.declare(cython.int, 10)  # choices per suit tried at most (2**10 sharings)
ROUNDS = cython.declare(cython.int, 3)  # rounds of the items' lower bounds
BUDGET = cython.declare(cython.int, 20000)  # combinations of the suits' curves tried at most, else nothing
TM_NEVER = cython.declare(cython.int, 1 << 20)
TM_ITEMS = cython.declare(cython.int, 256)
TM_TURNS = cython.declare(cython.int, 256)
TM_FRONT = cython.declare(cython.int, 1024)  # kept sharings per suit at most (2 ** MAX_CHOICES)

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


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def bit(c: cython.int) -> cython.ulonglong:
    """The 64-bit word with bit c set."""
    one: cython.ulonglong = 1
    return one << c


def _name(move_end: int) -> str:
    if move_end >= FOUND:
        return f"foundation:{move_end - FOUND}"
    if move_end >= 0:
        return f"reserve:{move_end}"
    return {STOCK: "stock", WASTE: "waste"}[move_end]


@cython.final  # no subclass when compiled: its C methods are called directly (and inlined)
@cython.cclass
class ReservePosition(CorePosition):
    """A deal of a debutante-family game, mutable; moves are int codes (``code``, ``parts``)."""

    DEAD_REASONS = DEAD_REASONS

    # -- the deal and its rules (fixed)
    ncols = cython.declare(cython.int, visibility="readonly")
    nf = cython.declare(cython.int, visibility="readonly")
    total = cython.declare(cython.int, visibility="readonly")  # the cards of the game
    fifo = cython.declare(cython.bint, visibility="readonly")  # columns are queues (``access = "first"``)
    capacity: cython.int
    stride: cython.int  # room per column in ``colbuf``
    turn: cython.int  # stock.turn: T_PLACE, ...
    deal_count: cython.int
    batch_size: cython.int
    waste_capacity: cython.int
    c_slots: cython.int  # the columns' places (-1: columns of any height)
    exact: cython.bint  # the foundations hold exactly the pack (one row per pack)
    timed = cython.declare(cython.bint, visibility="readonly")  # the timed copy count runs
    pairs = cython.declare(cython.bint, visibility="readonly")  # the pairing bound runs
    suit_sequence: cython.bint
    refill: cython.bint
    gaps_any_top: cython.bint
    interchangeable: cython.bint
    dominance: cython.bint
    column_dominance: cython.bint
    unlimited_redeals: cython.bint  # the key leaves redeals_left out
    fseq: cython.int[1024]  # MAXF * SEQ: foundation f takes fseq[f * SEQ + i] in order
    seq_len: cython.int[64]  # per foundation
    fd: cython.int[16384]  # VALUES * nf: fdests, the foundations a value may go to ...
    fdw: cython.int[16384]  # ... and where[f][v] for the k-th of them (f = fd[v * nf + k])
    fd_n: cython.int[256]
    pmask: cython.ulonglong[1024]  # MAXF * SEQ: the cards seq[f][0..i) as a mask (``_buried``)
    cwhere: cython.int[4096]  # MAXF * 64: where[f][c] for a card c without marks (the copy count)
    tables: tuple  # (seq, where, fdests) as Python lists, for ``pairing.py`` and the tests
    room: cython.int  # set by _relaxed_play: the counts' least room over the turns
    tm_memo: dict  # the timed count's horizon by position key
    pr_memo: dict  # the pairing bound's horizon by position key

    # -- the mutable state
    colbuf: cython.uchar[16320]  # MAXC * MAXCARDS: column i is col_len[i] values at colbuf[i * stride ...]
    col_len: cython.int[64]
    stock_buf: cython.uchar[256]  # the end is the next card to turn
    waste_buf: cython.uchar[256]  # the end is the top card
    stock_n: cython.int
    waste_n: cython.int
    heights: cython.int[64]  # foundation heights
    needs: cython.int[64]  # the card each foundation takes next, -1 when finished
    remaining: cython.int[64]  # copies of each card not yet on a foundation
    placed = cython.declare(cython.int, visibility="readonly")  # cards on the foundations
    redeals_left = cython.declare(cython.int, visibility="readonly")
    batch_left = cython.declare(cython.int, visibility="readonly")  # placements left in the open batch
    undo: cython.int[::1]  # per move played, what ``pop`` needs
    nundo: cython.int
    # -- kept from the state by push and pop (not state of their own)
    want: cython.ulonglong  # the cards some foundation takes now (the ``needs``, as bits)
    sk: cython.ulonglong[64]  # per column: its length and first 7 values, the key order's first test
    korder: cython.int[64]  # the columns sorted by (length, values): the key's order
    kpos: cython.int[64]  # the place of each column in ``korder``

    # -- scratch: the generous game (``_relaxed_play``), one at a time
    g_hh: cython.int[64]  # foundation heights in the generous game
    g_nd: cython.int[64]  # the card each foundation needs next (-1: finished)
    g_can: cython.ulonglong[64]  # per foundation: the cards it could take by now (bit per card)
    g_left: cython.int[64]  # cards still in each column
    g_nxt: cython.int[64]  # by_card's linked lists: the next column showing the same card
    g_todo: cython.int[4096]  # foundations that may move on (a stack; each once per card offered)
    g_ntodo: cython.int
    g_seen: cython.int  # copies seen: in columns, or turned so far
    g_gone: cython.int  # most copies that can have left, summed over cards
    g_head: cython.int[64]  # by_card: card -> first and last column showing it (-1: none)
    g_tail: cython.int[64]
    g_seen_of: cython.int[64]  # copies of each card seen
    g_passed: cython.int[64]  # foundations taken past each card since now
    g_turns: cython.int  # pack cards turned
    g_held_col: cython.int  # ``held`` (``generous``): the column of a copy that never leaves ...
    g_held_left: cython.int  # ... when the column holds this many cards (-1: none)
    g_held_turn: cython.int  # ... or the turn of a pack card that never leaves (-1: none)
    # the copy count (``_cc_most``), with two rows of foundations
    g_copies: cython.bint
    g_both: cython.int[64]  # free copies that may go to either row
    g_only0: cython.int[64]  # free copies that may go to row 0 only
    g_only1: cython.int[64]  # ... to row 1 only
    g_best: cython.int[4]  # per suit, the most cards its two foundations can take
    g_dirty: cython.bint[4]  # g_best[s] is stale
    snap: cython.uchar[16384]  # the generous game's heights at each stock length (``_relaxed_play``)
    snap_ok: cython.bint  # snap holds this position's generous game to the end (set by dead)
    lk: cython.uchar[16320]  # write_learned_key's columns
    # the timed copy count's scratch: items, kept sharings and their curves, the search
    tm_ints: cython.int[1792]  # 7 * TM_ITEMS
    tm_front: cython.uchar[::1]  # 4 * TM_FRONT * 32
    tm_curves: cython.int[::1]  # 4 * TM_FRONT * TM_TURNS
    tm_best: cython.int[1024]  # 4 * TM_TURNS
    tm_rest: cython.int[1280]  # 5 * TM_TURNS
    tm_acc: cython.int[1280]  # 5 * TM_TURNS
    tm_nfront: cython.int[4]
    tm_total: cython.int[4]
    tm_tried: cython.int

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
        where = [[NEVER] * 256 for _ in range(nf)]  # place in f's order
        for f in range(nf):
            for i, c in enumerate(seq[f]):
                for marks in range(4):
                    where[f][c | marks << 6] = i
        fdests: list[tuple[int, ...]] = [
            tuple(f for f in range(nf) if where[f][v] < NEVER and not (v >> (6 + f // 4)) & 1) for v in range(256)]
        self.tables = (seq, where, fdests)
        if not cython.compiled:  # the C arrays (compiled: in the object, zeroed)
            self.fseq, self.seq_len, self.fd, self.fdw, self.fd_n = \
                [0] * (MAXF * SEQ), [0] * MAXF, [0] * (VALUES * MAXF), [0] * (VALUES * MAXF), [0] * VALUES
            self.pmask, self.cwhere = [0] * (MAXF * SEQ), [0] * (MAXF * 64)
        for f in range(nf):
            mask = 0
            self.seq_len[f] = len(seq[f])
            for i, c in enumerate(seq[f]):
                self.fseq[f * SEQ + i] = c
                self.pmask[f * SEQ + i] = mask
                mask |= 1 << c
            self.pmask[f * SEQ + len(seq[f])] = mask
            for c in range(64):
                self.cwhere[f * 64 + c] = min(where[f][c], 1 << 20)
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
            self.stock_buf, self.waste_buf = [0] * 256, [0] * 256
            self.heights, self.needs, self.remaining = [0] * MAXF, [0] * MAXF, [0] * 64
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
        # The timed copy count (``_timed``): two rows holding the two packs, every turned card
        # placed at once on columns of limited size.
        self.timed = (len(fnd.rows) == 2 == layout.decks and s.turn == "place" and r.capacity != 0
                      and not s.batch and not self.refill and not self.gaps_any_top)
        # The pairing bound (``pairing.py``): the same, on columns of two taking any card.
        self.pairs = self.timed and r.capacity == 2 and not self.suit_sequence
        self.tm_memo, self.pr_memo = {}, {}
        self.room = 0
        self.snap_ok = False
        if not cython.compiled:
            self.g_hh, self.g_nd, self.g_can, self.g_left, self.g_nxt = ([0] * MAXC for _ in range(5))
            self.g_todo = [0] * (MAXF * 64)
            self.g_head, self.g_tail, self.g_seen_of, self.g_passed = ([0] * 64 for _ in range(4))
            self.g_both, self.g_only0, self.g_only1 = ([0] * 64 for _ in range(3))
            self.g_best, self.g_dirty = [0] * 4, [False] * 4
            self.snap, self.lk = [0] * (256 * MAXF), [0] * (MAXC * MAXCARDS)
            self.tm_ints, self.tm_best, self.tm_rest, self.tm_acc = \
                [0] * (7 * TM_ITEMS), [0] * (4 * TM_TURNS), [0] * (5 * TM_TURNS), [0] * (5 * TM_TURNS)
            self.tm_nfront, self.tm_total = [0] * 4, [0] * 4
        if self.timed:
            self.tm_front = array("B", bytes(4 * TM_FRONT * 32))
            self.tm_curves = array("i", bytes(4 * 4 * TM_FRONT * TM_TURNS))

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
        acc: cython.int[64]
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
        acc: cython.int[64]
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
        idx: cython.int[64]
        score: cython.int[64]
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
        acc: cython.int[64]
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
        out: cython.int[65]
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

    # ------------------------------------------------------------- learning

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
        """What the claim of ``kind`` at ``horizon`` rests on (``solver.engines.dfs``, "Learning"),
        written to ``buf``; its length.

        A line *gets past* L when it turns the pack's card ``stock[L - 1]`` and places or plays it.
        The claims at horizon L (kind 0 implies kind 1; either makes the position lost, since a win
        turns every card and the search's tree holds a win if there is one):

        - kind 0: no line of play from here gets past L;
        - kind 1: every line of the search's tree from here buries a card (``_buried``: then it is
          lost) or gets stuck before it gets past L.

        The key.  Run the generous game of ``_relaxed_play`` from here through the turns down to
        stock length L (cards ``stock[L:]``).  A column card is *inert* if no foundation that may
        take it is then past its card: no real line plays it before getting past L, since every
        foundation is then at most as far as in the generous game.  Kind 0 hides the inert cards.
        Kind 1 hides fewer: a card is *shown* if a foundation that takes its card, marks aside,
        is then past it (so no copy of it is played before L otherwise), or it is the last copy of
        its card off the foundations, or it leaves its column before a shown card; in a queue
        (``access = "first"``) also the column's first inert card in the order they leave; the
        others are hidden.  The key is the stock's length, the foundation heights, and the columns
        as a multiset (each as its length and values, sorted by (length, values)) with each hidden
        card written ``INERT`` (the others keep their values, marks included).

        Proof that positions with equal keys share the claim.  Say P has it and Q has P's key.
        Both hold the same stock and foundations, hence the same cards out and the same hidden
        cards as a multiset, in columns matched by their symbols.  Take a line from Q that gets
        past L (of kind 1: a line of Q's tree that buries no card), up to that turn, and play the
        same moves from P on the matched columns.  Hidden cards never move in it (they are inert,
        and cards leave columns only to foundations), so at each step the two positions differ
        only in which hidden card lies where, and the same moves are legal: a move involves
        shown cards or the pack's, and columns of the same length take any card.  So P has a line
        that gets past L: for kind 0, a contradiction.  For kind 1, also:

        - the search's tree offers the same moves: decisions take the available card of least
          value that a foundation takes now, which is never hidden, and equal columns are one
          column either way;
        - neither has a buried card or both.  A buried card y leaves before a card z that is the
          last copy of its card off the foundations (columns hold two cards at most).  Either z
          was in a column here: z is then shown (a card only becomes a last copy when its other
          copy is played, which shows it), and y, leaving before z, is shown too.  Or z is a pack
          card put behind y: in a stack it goes on top, so there y is the pack card and z a
          column's card, as before; in a queue y is the first card left in a column with room,
          every card before it having gone to a foundation (so not inert): y is shown.  The pack's
          cards are the same in both.

        So P's tree has a line that gets past L without burying a card: a contradiction.

        The search stores a claim for a position whose tree it has searched to the end, from its
        children's.  Kind 0: the tree keeps, of all lines, one that gets as far (the decision
        dominance moves a play to a foundation earlier, or keeps a line that never makes it; a
        pack card placed where no foundation could ever take it instead goes to one now, which
        changes no later move; equal columns are one column).  A child cut by the counting bounds
        claims the turn whose count fails, which no line survives (both kinds); one with no legal
        move, its stock length (both); one with a buried card claims nothing of kind 0 and kind 1
        at every horizon (``ALL_LINES``); the end-of-game bounds claim nothing (0).
        """
        t: cython.int
        i: cython.int
        k: cython.int
        j: cython.int
        n: cython.int
        p: cython.int
        v: cython.int
        a: cython.int
        b: cython.int
        m: cython.int
        f: cython.int
        first: cython.int
        base: cython.int
        shown: cython.bint
        packed: cython.bint = True
        before: cython.bint
        order: cython.int[64]
        sk: cython.ulonglong[64]  # (length, values) packed into one number, for columns of at most 7 cards
        y: cython.ulonglong
        if not cython.compiled:
            order, sk = [0] * MAXC, [0] * MAXC
        horizon = min(horizon, self.stock_n)
        if self.snap_ok:  # the heights of ``dead``'s generous game, which is the same game
            for f in range(self.nf):
                self.g_hh[f] = self.snap[horizon * self.nf + f]
        else:
            self._rp_start(False, False, -1, -1)
            for t in range(self.stock_n - 1, horizon - 1, -1):
                v = self.stock_buf[t]
                self._rp_offer(v & 63, v)
                if self.g_ntodo:
                    self._rp_settle()
        for i in range(self.ncols):  # the columns, hidden cards written INERT, into ``lk``
            base = i * self.stride
            n = self.col_len[i]
            order[i] = i
            if kind == 0:  # the inert cards hidden
                for k in range(n):
                    v = self.colbuf[base + k]
                    self.lk[base + k] = v if self._passed(v) else INERT
                continue
            first = -1  # in a queue: the first inert card, in the order cards leave (from the front)
            if self.fifo:
                for k in range(n):
                    v = self.colbuf[base + k]
                    if not (self.remaining[v & 63] == 1 or self._passed(v & 63)):
                        first = k
                        break
            shown = False
            for j in range(n):  # from the card that leaves last: the front of a stack, the end of a queue
                k = n - 1 - j if self.fifo else j
                v = self.colbuf[base + k]
                shown = shown or k == first or self.remaining[v & 63] == 1 or self._passed(v & 63)
                self.lk[base + k] = v if shown else INERT
        for i in range(self.ncols):
            n = self.col_len[i]
            if n > 7:
                packed = False
                break
            sk[i] = n
            sk[i] <<= 56
            for k in range(n):
                y = self.lk[i * self.stride + k]
                sk[i] |= y << (48 - 8 * k)
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
                if n < self.col_len[a]:
                    break
                if n == self.col_len[a]:
                    before = True  # b's values <= a's
                    for k in range(n):
                        if self.lk[b * self.stride + k] != self.lk[a * self.stride + k]:
                            before = self.lk[b * self.stride + k] < self.lk[a * self.stride + k]
                            break
                    if before:
                        break
                order[j] = b
                j -= 1
            order[j] = a
        buf[0] = self.stock_n
        p = 1
        for f in range(self.nf):
            buf[p] = self.heights[f]
            p += 1
        for k in range(self.ncols):
            i = order[k]
            m = self.col_len[i]
            buf[p] = m
            p += 1
            for j in range(m):
                buf[p + j] = self.lk[i * self.stride + j]
            p += m
        return p

    # --------------------------------------------------------------- bounds

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def dead(self) -> cython.int:
        """The bound that proves no win is reachable (the methods below), by its number in
        ``DEAD_REASONS`` (1 the buried card, 2 the counting bound, 3 the copy count, 4 the timed
        copy count, 5 the pairing bound), or 0; ``horizons`` the claims of ``write_learned_key``."""
        why: cython.int
        horizon: cython.int
        self.horizons = (0, 0)
        self.snap_ok = False
        if self.gaps_any_top and self._gap_may_open():
            return 0  # the bounds below assume cards leave columns only to foundations
        if self._buried():
            self.horizons = (0, ALL_LINES)  # every line is buried
            return 1
        why = self._relaxed_play(False)
        if why == 0 and self.timed and self.strong_bounds and self.ply <= TIMED_PLY and self.room <= TIMED_ROOM:
            horizon = self._timed_memo()
            if horizon:
                self.horizons = (horizon, horizon)
                return 4
        if why == 0 and self.pairs and self.strong_bounds and self.ply <= PAIR_PLY and self.room <= PAIR_ROOM:
            horizon = self._pairing()
            if horizon:
                self.horizons = (max(horizon, 0), max(horizon, 0))
                return 5
        return why

    @cython.cfunc
    @cython.exceptval(check=False)
    def _buried(self) -> cython.bint:
        """A card that can leave its column only after a card it must follow.

        In a column, card y leaves before the cards behind it.  If every
        foundation that may still take y needs first a card of which every
        copy not yet on a foundation is behind y in that column, y can never
        leave, and the deal is lost.

        Each column is read once, from the card that leaves last up: ``blocked`` holds the
        cards of which every copy not yet on a foundation is behind the current card, and a
        foundation is blocked for card y when one of the cards it needs before y
        (``seq[h[f]:where[y]]``, a mask from ``pmask``) is.
        """
        cnt: cython.int[64]
        if not cython.compiled:
            cnt = [0] * 64
        i: cython.int
        j: cython.int
        k: cython.int
        f: cython.int
        n: cython.int
        wy: cython.int
        y: cython.int
        c: cython.int
        base: cython.int
        blocked: cython.ulonglong
        stuck: cython.bint
        found: cython.bint = False
        for c in range(64):
            cnt[c] = 0
        for i in range(self.ncols):
            n = self.col_len[i]
            if n < 2:
                continue
            base = i * self.stride
            blocked = 0
            for j in range(n - 2, -1, -1):  # the j-th card to leave; the ones after it are behind
                c = (self.colbuf[base + j + 1] if self.fifo else self.colbuf[base + n - 2 - j]) & 63
                cnt[c] += 1
                if cnt[c] >= self.remaining[c]:
                    blocked |= bit(c)
                y = self.colbuf[base + j] if self.fifo else self.colbuf[base + n - 1 - j]
                stuck = True
                for k in range(self.fd_n[y]):
                    f = self.fd[y * self.nf + k]
                    wy = self.fdw[y * self.nf + k]
                    if wy < self.heights[f]:
                        continue  # f is already past y's card
                    if not (blocked & self.pmask[f * SEQ + wy] & ~self.pmask[f * SEQ + self.heights[f]]):
                        stuck = False
                        break
                if stuck:
                    found = True
                    break
            for j in range(n):
                cnt[self.colbuf[base + j] & 63] = 0
            if found:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(check=False)
    def _gap_may_open(self) -> cython.bint:
        """Whether a gap may ever open: an empty column while the pack is empty, which
        (``reserve.gaps = "any-top"``, Twenty) takes any top card of another column.

        ``_buried`` and ``_relaxed_play`` assume that a card leaves its column only to a
        foundation, so that a column's cards leave top first; a move into a gap breaks
        that (a card can be set aside to dig out the one under it), so they may prune only
        where no gap can ever open.  A gap move needs an empty column; before the first
        gap move every card leaves its column to a foundation, in order, so the first empty
        column (unless one is empty now) is emptied that way: all its present cards go to
        foundations, top first (cards put on it later only add to what must go).  The
        generous game of ``_relaxed_play`` (every pack card free from its turn, a column
        card free to leave once a foundation that may take it has passed its card) lets
        every column card leave that a real play without gap moves lets leave.  So if,
        played to the end, the generous game leaves a card in every column, no column
        is ever emptied, no gap move is ever made, and the two bounds hold as proved.
        This is that play, without the turns (only its end counts): True if some column
        is empty now or empties in it.  (It uses the generous game's ``g_hh``, ``g_can``
        and ``g_left``.)
        """
        f: cython.int
        i: cython.int
        k: cython.int
        v: cython.int
        moved: cython.bint = True
        for i in range(self.ncols):
            if self.col_len[i] == 0:
                return True
            self.g_left[i] = self.col_len[i]
        for f in range(self.nf):
            self.g_hh[f] = self.heights[f]
            self.g_can[f] = 0
        for k in range(self.stock_n):
            self._gm_offer(self.stock_buf[k])
        for k in range(self.waste_n):
            self._gm_offer(self.waste_buf[k])
        for i in range(self.ncols):
            self._gm_offer(self._gm_top(i))
        while moved:
            moved = False
            for f in range(self.nf):
                while self.g_hh[f] < self.seq_len[f] and (self.g_can[f] >> self.fseq[f * SEQ + self.g_hh[f]]) & 1:
                    self.g_hh[f] += 1
                    moved = True
            for i in range(self.ncols):
                while True:
                    v = self._gm_top(i)
                    if not self._passed(v):
                        break
                    self.g_left[i] -= 1  # a foundation passed its card: it may have left
                    moved = True
                    if self.g_left[i] == 0:
                        return True
                    self._gm_offer(self._gm_top(i))
        return False

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _gm_top(self, i: cython.int) -> cython.int:
        """``_gap_may_open``'s top of column ``i``, with ``g_left[i]`` cards still in it."""
        if self.fifo:
            return self.colbuf[i * self.stride + self.col_len[i] - self.g_left[i]]
        return self.colbuf[i * self.stride + self.g_left[i] - 1]

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _gm_offer(self, v: cython.int) -> cython.void:
        """Every foundation that may take ``v`` may be given its card (``_gap_may_open``)."""
        k: cython.int
        for k in range(self.fd_n[v]):
            self.g_can[self.fd[v * self.nf + k]] |= bit(v & 63)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _relaxed_play(self, keep_going: cython.bint) -> cython.int:
        """Play a generous version of the rest of the game; if even it fails, so does the deal:
        2 (``COUNTING_DEAD``) or 3 (``COPIES_DEAD``), else 0.

        The generous game: every pack card is available from its turn on
        (it never needs a place and never covers anything); one copy of a
        card may serve both foundations that want it; a column card leaves
        as soon as a foundation that may take it, and had not taken its card
        at the position, has taken its card (a foundation past the card at the
        position took another copy: each takes one copy).  Each
        foundation is then at least as far on, at every turn, as in any real
        play (playing a card in the generous game never hurts, so playing
        every playable card at once is its best play), and every card a real
        play has freed by a turn is free by then in the generous game too (the
        cards above it have gone to foundations that had not taken their cards
        at the position, which the generous game has then taken past them too).
        So:

        - if a foundation cannot be finished even so, the deal is lost, when
          the foundations hold exactly the pack (one row per pack: every one
          must be finished to win); with more foundation places than cards
          (two rows, one pack), if some card left is passed by no foundation
          that may take it, that card can never be played, and the deal is
          lost (a real win plays it to a foundation, which the generous game
          has then taken past it too);
        - with columns of limited size and every turned card placed at once,
          the cards out at each turn must fit in the columns' places, or it
          is lost (``COUNTING_DEAD``).  Cards out = cards seen (in columns, or
          turned so far) minus those that can have left.  A copy leaves only to a
          foundation, one copy per foundation, so the copies of a card that
          can have left number at most the copies seen and at most the
          foundations the generous game has taken past that card since now
          (a copy marked for one row only is counted as free to go to
          either, which is generous, so still sound): the second copy of a
          card stays out until its other foundation gets there too.
        - the same count with the copies kept apart (``_cc_most``, for two
          rows of foundations: ``COPIES_DEAD``): at each turn, at most
          ``_cc_most`` cards can have gone to the foundations since now,
          however the copies free by then (in the generous game, so at least
          every copy free in a real play) are shared out between a suit's two
          foundations, each copy serving one foundation that it may go to; the
          cards seen minus that many must fit in the columns' places.  With the
          foundations holding exactly the pack, the copies free at the end must
          also be able to finish every foundation.

        ``room`` becomes the least room left over the turns; with ``keep_going`` (``slack``) the
        play goes on past a turn that overflows.  With learning, ``snap`` keeps the generous
        heights at every stock length for ``write_learned_key`` (the same game).
        """
        f: cython.int
        i: cython.int
        k: cython.int
        t: cython.int
        v: cython.int
        c: cython.int
        out: cython.int
        check_room: cython.bint = self.c_slots >= 0 and self.turn == T_PLACE and not self.batch_size
        snap: cython.bint = self.learns
        least: cython.int = self.c_slots  # the least room over the turns
        self._rp_start(check_room, self.nf == 8 and self.strong_bounds, -1, -1)
        if snap:
            self._snap(self.stock_n)
        for t in range(self.stock_n - 1, -1, -1):
            v = self.stock_buf[t]  # marked if it was committed in the waste before a redeal
            c = v & 63
            self._rp_offer(c, v)
            if check_room:
                self._rp_see(c)
                if self.g_ntodo:
                    self._rp_settle()
                out = self.g_seen - self.g_gone
                if out > self.c_slots and not keep_going:
                    self.horizons = (t + 1, t + 1)
                    return 2
                if self.g_copies:
                    out = max(out, self.g_seen - self._cc_most())
                    if out > self.c_slots and not keep_going:
                        self.horizons = (t + 1, t + 1)
                        return 3
                if self.c_slots - out < least:
                    least = self.c_slots - out
            elif self.g_ntodo:
                self._rp_settle()
            if snap:
                self._snap(t)
        self.snap_ok = snap  # kept for ``write_learned_key`` until the next move
        self.room = least
        if self.exact:  # every foundation must be finished
            for f in range(self.nf):
                if self.g_nd[f] >= 0:
                    return 2
            if self.g_copies and self._cc_most() < self.total - self.placed:
                return 3
            return 0
        # more foundation places than cards: lost if some card left is passed by no foundation
        for i in range(self.ncols):
            for k in range(self.col_len[i]):
                if not self._passed(self.colbuf[i * self.stride + k]):
                    return 2
        for k in range(self.waste_n):
            if not self._passed(self.waste_buf[k]):
                return 2
        for k in range(self.stock_n):
            if not self._passed(self.stock_buf[k]):
                return 2
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _snap(self, t: cython.int) -> cython.void:
        """The generous heights when the stock has ``t`` cards left, into ``snap``."""
        f: cython.int
        for f in range(self.nf):
            self.snap[t * self.nf + f] = self.g_hh[f]

    @cython.cfunc
    @cython.exceptval(check=False)
    def _rp_start(self, count: cython.bint, copies: cython.bint, held_col: cython.int,
                  held_left: cython.int) -> cython.void:
        """The generous game of ``_relaxed_play``, made at this position (its columns exposed, its
        waste offered, the foundations settled); then ``_rp_offer`` (and ``_rp_see``, counting)
        and ``_rp_settle`` for each pack card in turn order.  ``g_hh`` and ``g_nd`` are the
        foundations of the generous game; with ``count``, ``g_seen`` and ``g_gone`` the cards seen
        and the most that can have left, and with ``copies`` the copy count (two rows of
        foundations).  ``held_col``, ``held_left``: a copy that never leaves, column ``held_col``'s
        card when ``held_left`` cards are left in it (``generous``; -1: none).

        The order of the steps matters (a column card is let go when any foundation takes its
        card, in ``_rp_settle``, but when exposed only if a foundation it may go to is past it,
        in ``_rp_expose``), and the counts and learned keys depend on it."""
        f: cython.int
        i: cython.int
        k: cython.int
        v: cython.int
        self.g_ntodo = self.g_seen = self.g_gone = self.g_turns = 0
        self.g_held_col, self.g_held_left = held_col, held_left
        for k in range(64):
            self.g_head[k] = -1
            self.g_seen_of[k] = 0
            self.g_passed[k] = 0
        self.g_copies = copies
        if copies:
            for k in range(64):
                self.g_both[k] = self.g_only0[k] = self.g_only1[k] = 0
            for k in range(4):
                self.g_dirty[k] = True
        for f in range(self.nf):
            self.g_hh[f] = self.heights[f]
            self.g_nd[f] = self.needs[f]
            self.g_can[f] = 0
        for i in range(self.ncols):
            self.g_left[i] = self.col_len[i]
        if count:
            for i in range(self.ncols):
                for k in range(self.col_len[i]):
                    self._rp_see(self.colbuf[i * self.stride + k] & 63)
        for i in range(self.ncols):
            self._rp_expose(i)
        for k in range(self.waste_n):
            v = self.waste_buf[k]
            self._rp_offer(v & 63, v)
        self._rp_settle()

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _passed(self, v: cython.int) -> cython.bint:
        """Some foundation that may take value ``v`` stands past its card at the generous game's
        heights ``g_hh``."""
        k: cython.int
        for k in range(self.fd_n[v]):
            if self.g_hh[self.fd[v * self.nf + k]] > self.fdw[v * self.nf + k]:
                return True
        return False

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _rp_see(self, c: cython.int) -> cython.void:
        self.g_seen += 1
        self.g_seen_of[c] += 1
        if self.g_seen_of[c] <= self.g_passed[c]:
            self.g_gone += 1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _rp_offer(self, c: cython.int, v: cython.int) -> cython.void:
        """A copy of card ``c`` (value ``v``) is free: every foundation that may take it could."""
        k: cython.int
        f: cython.int
        b: cython.ulonglong = bit(c)
        if self.g_copies:
            self._cc_free(v)
        for k in range(self.fd_n[v]):
            f = self.fd[v * self.nf + k]
            if not (self.g_can[f] & b):
                self.g_can[f] |= b
                if self.g_nd[f] == c:
                    self.g_todo[self.g_ntodo] = f
                    self.g_ntodo += 1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _rp_expose(self, i: cython.int) -> cython.void:
        """Column ``i``'s next card is offered; a card some foundation that had not taken its card
        at the position is past already (a copy of it was played) is let go too, and the next."""
        n: cython.int = self.col_len[i]
        v: cython.int
        c: cython.int
        k: cython.int
        f: cython.int
        past: cython.bint
        while self.g_left[i] and not (i == self.g_held_col and self.g_left[i] == self.g_held_left):
            v = self.colbuf[i * self.stride + n - self.g_left[i]] if self.fifo \
                else self.colbuf[i * self.stride + self.g_left[i] - 1]
            c = v & 63
            self._rp_offer(c, v)
            past = False
            for k in range(self.fd_n[v]):
                f = self.fd[v * self.nf + k]
                # a foundation past the card at the position took a copy that is not this one
                if self.g_hh[f] > self.fdw[v * self.nf + k] >= self.heights[f]:
                    past = True
                    break
            if past:
                self.g_left[i] -= 1  # a copy of its card was played already: let it go too
                continue
            self.g_nxt[i] = -1  # by_card[c].append(i)
            if self.g_head[c] < 0:
                self.g_head[c] = i
            else:
                self.g_nxt[self.g_tail[c]] = i
            self.g_tail[c] = i
            return

    @cython.cfunc
    @cython.exceptval(check=False)
    def _rp_settle(self) -> cython.void:
        """The foundations that may move on take every card they can, in turn; the columns
        showing a card taken let it go and expose the next."""
        f: cython.int
        c: cython.int
        i: cython.int
        j: cython.int
        while self.g_ntodo:
            self.g_ntodo -= 1
            f = self.g_todo[self.g_ntodo]
            while self.g_nd[f] >= 0 and (self.g_can[f] >> self.g_nd[f]) & 1:
                c = self.g_nd[f]
                self.g_hh[f] += 1
                self.g_nd[f] = self.fseq[f * SEQ + self.g_hh[f]] if self.g_hh[f] < self.seq_len[f] else -1
                self.g_passed[c] += 1
                if self.g_passed[c] <= self.g_seen_of[c]:
                    self.g_gone += 1
                i = self.g_head[c]  # by_card.pop(c): detach the list, then walk it
                self.g_head[c] = -1
                while i >= 0:
                    j = self.g_nxt[i]
                    self.g_left[i] -= 1
                    self._rp_expose(i)
                    i = j

    # The copy count: the most cards that can go to the foundations from now on, copy by copy.
    #
    # For two rows of foundations: suit ``s`` has foundations ``s`` (row 0) and ``s + 4`` (row 1),
    # each taking its next cards in order, one copy each.  ``_cc_free(v)`` makes one copy of value
    # ``v``'s card free; a copy marked never to go to one row (bit ``6 + row``) may serve only the
    # other.  ``_cc_most()`` is the sum over the suits of the largest ``a + b`` such that row 0's
    # next ``a`` cards and row 1's next ``b`` cards can each be given a free copy that may go
    # there, no copy given twice.  Each foundation's next cards are distinct cards, so a card is
    # wanted at most once by each row; it is wanted by both exactly when it lies in both prefixes,
    # and then needs two copies, one for each row.  Proof of the search (``_cc_suit``): for a fixed
    # ``a`` the feasible ``b`` form a prefix (dropping a card of row 1's prefix frees nothing row 0
    # needs), and shortening row 0's prefix only frees copies, so the longest ``b`` grows as ``a``
    # shrinks: one pass of ``a`` down from its longest and ``b`` up gives the maximum.  Row 0's
    # cards take a copy that only row 0 may use when there is one, which leaves row 1 the most.

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _cc_free(self, v: cython.int) -> cython.void:
        """One more free copy of ``v``'s card."""
        c: cython.int = v & 63
        marks: cython.int = (v >> 6) & 3
        if marks == 0:
            self.g_both[c] += 1
        elif marks == 1:  # never to row 0
            self.g_only1[c] += 1
        elif marks == 2:
            self.g_only0[c] += 1
        else:
            return  # may go nowhere
        self.g_dirty[c & 3] = True

    @cython.cfunc
    @cython.exceptval(check=False)
    def _cc_most(self) -> cython.int:
        s: cython.int
        total: cython.int = 0
        for s in range(4):
            if self.g_dirty[s]:
                self.g_dirty[s] = False
                self.g_best[s] = self._cc_suit(s)
            total += self.g_best[s]
        return total

    @cython.cfunc
    @cython.exceptval(check=False)
    def _cc_suit(self, s: cython.int) -> cython.int:
        """Suit ``s``'s most: the largest a + b (see above)."""
        a: cython.int = self._cc_longest_a(s)
        b: cython.int = 0
        best: cython.int = 0
        while True:
            b = self._cc_longest_b(s, a, b)
            if a + b > best:
                best = a + b
            if a == 0:
                return best
            a -= 1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _cc_longest_a(self, s: cython.int) -> cython.int:
        """The longest prefix of row 0 given free copies."""
        a: cython.int = 0
        c: cython.int
        while self.heights[s] + a < self.seq_len[s]:
            c = self.fseq[s * SEQ + self.heights[s] + a]
            if not (self.g_both[c] + self.g_only0[c]):
                break
            a += 1
        return a

    @cython.cfunc
    @cython.exceptval(check=False)
    def _cc_longest_b(self, s: cython.int, a: cython.int, b: cython.int) -> cython.int:
        """The longest prefix of row 1 given copies while row 0 takes its next ``a`` cards, from
        ``b`` on (a prefix known feasible)."""
        h0: cython.int = self.heights[s]
        h1: cython.int = self.heights[s + 4]
        c: cython.int
        spare: cython.int
        while h1 + b < self.seq_len[s + 4]:
            c = self.fseq[(s + 4) * SEQ + h1 + b]
            spare = self.g_both[c] + self.g_only1[c]
            if h0 <= self.cwhere[s * 64 + c] < h0 + a and not self.g_only0[c]:
                spare -= 1  # row 0 takes one of the copies either row may use
            if spare < 1:
                break
            b += 1
        return b

    def cc_splits(self, s: int, spare: int) -> list[tuple[int, int]]:
        """Suit ``s``'s splits (a, b) within ``spare`` of its most: row 0's next ``a`` cards and
        row 1's next ``b`` each given a free copy (as ``_cc_suit``), a + b >= the most - ``spare``;
        the feasible ``b`` for a given ``a`` form a prefix (``_cc_suit``), so each ``a`` gives its
        longest and every shorter one."""
        longest = [(a, self._cc_longest_b(s, a, 0)) for a in range(self._cc_longest_a(s) + 1)]
        best = max(a + b for a, b in longest)
        return [(a, b) for a, top in longest for b in range(top + 1) if a + b >= best - spare]

    # ------------------------------------------------------------ the pairing bound

    def _pairing(self) -> int:
        """``pairing.pairing_horizon`` (Python, run near the deal only) on this position,
        remembered by the position's key."""
        key = self.key()
        found = self.pr_memo.get(key)
        if found is not None:
            return found
        if len(self.pr_memo) >= MEMO:
            self.pr_memo.clear()
        horizon: int = pairing_horizon(self)
        self.pr_memo[key] = horizon
        return horizon

    def generous(self, held: tuple[int, int, int] | None) -> Generous:
        """The counting generous game made here, with the copy count, played turn by turn by
        ``pairing.py``; ``held`` a copy that never leaves, (column, depth, 0) for a column's card
        (depth 0 leaves first) or (-1, 0, turn) for the pack's card turned at step ``turn`` from
        1: it is never offered, so nothing under it in its column is exposed either.  One game at
        a time: the next game, or a bound, takes its place."""
        col, depth, turn = (-1, 0, -1) if held is None else held
        self.g_held_turn = turn if col < 0 else -1
        self._rp_start(True, self.nf == 8, col, self.col_len[col] - depth if col >= 0 else -1)
        return Generous(self)

    def g_turn(self, v: int) -> None:
        """The generous game's next pack card ``v`` is turned (``Generous.turn``)."""
        c = v & 63
        self.g_turns += 1
        if self.g_turns != self.g_held_turn:
            self._rp_offer(c, v)
        self._rp_see(c)
        self._rp_settle()

    def g_state(self) -> tuple[list[int], int, int, int]:
        """The generous game's heights, cards seen, most gone, and the copy count's most."""
        return [self.g_hh[f] for f in range(self.nf)], self.g_seen, self.g_gone, self._cc_most()

    # ------------------------------------------------------------ the timed copy count

    def _timed_memo(self) -> int:
        """``_timed``, remembered by the position's key: the positions near the deal are met
        again at every restart, and the count costs a hundred times the other bounds."""
        key = self.key()
        found = self.tm_memo.get(key)
        if found is not None:
            return found
        if len(self.tm_memo) >= MEMO:
            self.tm_memo.clear()
        horizon: int = self._timed()
        self.tm_memo[key] = horizon
        return horizon

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.cdivision(True)  # non-negative operands
    def _timed(self) -> cython.int:
        """The timed copy count: the forty-first card rule with each copy given a time.  The
        horizon (stock length at the failing turn, plus one) if it proves that no line gets past
        some turn; else 0.  Only for two rows of foundations holding two packs and every turned
        card placed at once on columns of limited size (``timed``).

        The counting bounds of ``_relaxed_play`` ask, turn by turn, how many cards the foundations
        can hold by then; the copy count lets the foundations share out the copies afresh at every
        turn.  Here one sharing serves the whole game, and each copy has a time: a real play is
        bound to one.

        The relaxation.  Every card off the foundations is an *item*: a column card, free from now
        (time 0) or from when the card above it can have left, or a pack card, free from its turn.
        The columns' order is kept only as that lower bound; places, and the cards put on columns
        later, are forgotten (a generous relaxation: it only makes items free earlier).  Each of a
        suit's two foundations (rows 0 and 1, two rows of foundations) takes its next cards in
        order, one item each, an item only into a row its marks allow; an item goes at the earliest
        time its card's turn comes in its row: the later of its own time and the row's previous
        card's.

        Claim: if for every sharing of the items between the rows, at some turn t the cards seen
        (in columns now, and turned since) minus the items gone by t exceed the columns' places,
        then no line of play gets past turn t (``write_learned_key``'s horizon: the stock's length
        when that card is turned, plus one).  Proof: a real line gives each copy it plays a row, a
        sharing; it plays each copy no earlier than the copy is free and no earlier than the row's
        previous card, so by every turn it has played at most the items the earliest-time play of
        that sharing has gone (by induction along each row); its cards out at the turn are at least
        seen minus those, more than the places.

        Computing it.
        - Lower bounds on the items' times (``ROUNDS`` rounds, each only raising valid bounds): a
          column card leaves after the one above it (in a queue, the one before it), which leaves
          no earlier than its row's previous card can be free: the latest of the earliest items of
          the cards before it in a row it may go to (the earliest over those rows).
        - A card both rows still take has two items: which goes to row 0 is a choice; a card one
          row takes, that row's earliest item.  Choices are cut by dominance (``_tm_front``); the
          rest are tried (at most ``MAX_CHOICES`` per suit, else the bound says nothing); each
          sharing gives the suit the times its items go, sorted, whose count at or before each turn
          is its curve; only curves no other curve of the suit beats are kept, and the suits'
          curves are combined by a search with the other suits' best as its bound
          (``_tm_combinable``; at most ``BUDGET`` steps, else the bound says nothing).
        - The horizon: the first turn by which every combination has failed.

        The items: ``card``, ``value``, ``free_`` (the time it is free from at the least),
        ``above`` (the item that leaves its column before this one, or -1), ``times``, ``leave``,
        ``raised``: seven arrays of ``TM_ITEMS`` in ``tm_ints``; ``of[c * 2 + k]`` the k-th item
        of card c (``nof[c]`` of them).
        """
        turns: cython.int = self.stock_n
        n: cython.int = 0
        i: cython.int
        k: cython.int
        t: cython.int
        v: cython.int
        c: cython.int
        s: cython.int
        row: cython.int
        f: cython.int
        prev: cython.int
        before: cython.int
        lo: cython.int
        hi: cython.int
        mid: cython.int
        _rnd: cython.int
        in_columns: cython.int
        best: cython.int
        x: cython.int
        changed: cython.bint
        card: cython.int = 0  # the arrays' offsets in tm_ints
        value: cython.int = TM_ITEMS
        free_: cython.int = 2 * TM_ITEMS
        above: cython.int = 3 * TM_ITEMS
        times: cython.int = 4 * TM_ITEMS
        leave: cython.int = 5 * TM_ITEMS
        raised: cython.int = 6 * TM_ITEMS
        nof: cython.int[64]
        of: cython.int[128]
        if not cython.compiled:
            nof, of = [0] * 64, [0] * 128
        items: cython.p_int = self.tm_ints
        for i in range(self.ncols):  # the items: column cards in leaving order, then the pack's
            prev = -1
            for k in range(self.col_len[i]):
                v = self.colbuf[i * self.stride + (k if self.fifo else self.col_len[i] - 1 - k)]
                items[card + n] = v & 63
                items[value + n] = v
                items[free_ + n] = 0
                items[above + n] = prev
                prev = n
                n += 1
        in_columns = n
        for t in range(turns):
            v = self.stock_buf[turns - 1 - t]
            items[card + n] = v & 63
            items[value + n] = v
            items[free_ + n] = t + 1
            items[above + n] = -1
            n += 1
        for c in range(64):
            nof[c] = 0
        for i in range(n):
            c = items[card + i]
            if nof[c] == 2:
                return 0  # more than two copies: not this bound's game
            of[c * 2 + nof[c]] = i
            nof[c] += 1
        for s in range(4):
            for row in range(2):
                f = s + 4 * row
                for k in range(self.heights[f], self.seq_len[f]):
                    c = self.fseq[f * SEQ + k]
                    if not ((nof[c] > 0 and _allowed(items[value + of[c * 2]], row))
                            or (nof[c] > 1 and _allowed(items[value + of[c * 2 + 1]], row))):
                        return 0  # the row cannot be finished: the end-of-game bounds' business
        for i in range(n):
            items[times + i] = items[free_ + i]
        for _rnd in range(ROUNDS):
            for i in range(n):
                items[leave + i] = TM_NEVER  # the earliest each item can leave, over its rows
            for s in range(4):
                for row in range(2):
                    f = s + 4 * row
                    before = 0  # the row's previous card is free no earlier than this
                    for k in range(self.heights[f], self.seq_len[f]):
                        c = self.fseq[f * SEQ + k]
                        best = TM_NEVER
                        for t in range(nof[c]):
                            i = of[c * 2 + t]
                            if _allowed(items[value + i], row):
                                items[leave + i] = min(items[leave + i], max(before, items[times + i]))
                                best = min(best, items[times + i])
                        before = max(before, best)
            changed = False
            for i in range(n):
                x = items[above + i]
                items[raised + i] = max(items[free_ + i], items[leave + x] if x >= 0 else 0)
                if items[raised + i] != items[times + i]:
                    changed = True
            if not changed:
                break
            for i in range(n):
                items[times + i] = items[raised + i]
        for s in range(4):
            self.tm_nfront[s] = self._tm_front(s, nof, of, turns)
            if self.tm_nfront[s] < 0:
                return 0
        if self._tm_combinable(in_columns, turns):
            return 0
        lo, hi = 1, turns  # the first turn by which every combination has failed: in (lo - 1, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if self._tm_combinable(in_columns, mid):
                lo = mid + 1
            else:
                hi = mid
        return turns - hi + 1

    @cython.cfunc
    @cython.exceptval(check=False)
    def _tm_settled(self, s: cython.int, row: cython.int, c: cython.int, fixed: cython.p_int,
                    is_open: cython.p_int, of: cython.p_int) -> cython.int:
        """Every sharing has the row past the cards before c no earlier than this."""
        f: cython.int = s + 4 * row
        k: cython.int
        c2: cython.int
        before: cython.int = 0
        times: cython.int = 4 * TM_ITEMS
        for k in range(self.heights[f], self.seq_len[f]):
            c2 = self.fseq[f * SEQ + k]
            if c2 == c:
                return before
            if is_open[c2]:
                before = max(before, min(self.tm_ints[times + of[c2 * 2]], self.tm_ints[times + of[c2 * 2 + 1]]))
            else:
                before = max(before, self.tm_ints[times + fixed[row * 64 + c2]])
        return before

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)  # tm_front: s * TM_FRONT * 32 + j * 32 + k with j < TM_FRONT, k < 32
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _tm_front(self, s: cython.int, nof: cython.p_int, of: cython.p_int, turns: cython.int) -> cython.int:
        """Suit ``s``'s sharings that no other beats, each as the times its items go (after the
        last turn: ``turns + 1``), sorted, written to ``tm_front`` (TM_FRONT of them at most);
        their count, or -1 (too many choices).

        Choices are cut by dominance: when every sharing has row 0 past the cards before a card
        no earlier than its later item's time (``_tm_settled``: each earlier card's earliest item
        bounds it), row 0 cannot gain by the earlier item, so row 1 takes it (and the same with
        the rows swapped).  One curve matches or beats another at every turn exactly when its
        sorted times are, one by one, no later (``_no_later``)."""
        fixed: cython.int[128]  # row * 64 + card -> item
        ch_card: cython.int[16]
        ch_early: cython.int[16]
        ch_late: cython.int[16]
        is_open: cython.int[64]
        gone: cython.uchar[32]
        if not cython.compiled:
            fixed, ch_card, ch_early, ch_late, is_open, gone = \
                [0] * 128, [0] * 16, [0] * 16, [0] * 16, [0] * 64, [0] * 32
        nch: cython.int = 0
        k: cython.int
        j: cython.int
        c: cython.int
        a: cython.int
        b: cython.int
        f: cython.int
        f0: cython.int = s
        f1: cython.int = s + 4
        row: cython.int
        i: cython.int
        best: cython.int
        t: cython.int
        m: cython.int
        x: cython.int
        count: cython.int = 0
        q: cython.int
        total: cython.int
        ways: cython.int
        skip: cython.bint
        changed: cython.bint
        store: cython.int = s * TM_FRONT * 32  # the suit's kept sharings in tm_front
        value: cython.int = TM_ITEMS
        times: cython.int = 4 * TM_ITEMS
        items: cython.p_int = self.tm_ints
        for k in range(64):
            is_open[k] = 0
        for row in range(2):  # cards one row takes: that row's earliest item
            f = s + 4 * row
            for k in range(self.heights[f], self.seq_len[f]):
                c = self.fseq[f * SEQ + k]
                if self._tm_in(1 - row, s, c):
                    continue
                best = -1
                for j in range(nof[c]):
                    i = of[c * 2 + j]
                    if _allowed(items[value + i], row) and (best < 0 or items[times + i] < items[times + best]):
                        best = i
                fixed[row * 64 + c] = best
        for k in range(self.heights[f0], self.seq_len[f0]):  # cards both rows take, in row 0's order
            c = self.fseq[f0 * SEQ + k]
            if not self._tm_in(1, s, c):
                continue
            if nof[c] != 2:
                return -1
            a, b = of[c * 2], of[c * 2 + 1]
            if items[times + b] < items[times + a]:
                a, b = b, a
            ways = 0
            if _allowed(items[value + a], 0) and _allowed(items[value + b], 1):
                ways |= 1
            if _allowed(items[value + b], 0) and _allowed(items[value + a], 1):
                ways |= 2
            if ways == 0:
                return -1
            if ways != 3 or items[times + a] == items[times + b]:
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
                is_open[ch_card[j]] = 1
            for j in range(nch):
                c = ch_card[j]
                if self._tm_settled(s, 0, c, fixed, is_open, of) >= items[times + ch_late[j]]:
                    fixed[c], fixed[64 + c] = ch_late[j], ch_early[j]
                elif self._tm_settled(s, 1, c, fixed, is_open, of) >= items[times + ch_late[j]]:
                    fixed[c], fixed[64 + c] = ch_early[j], ch_late[j]
                else:
                    continue
                for q in range(j, nch - 1):
                    ch_card[q], ch_early[q], ch_late[q] = ch_card[q + 1], ch_early[q + 1], ch_late[q + 1]
                nch -= 1
                is_open[c] = 0
                changed = True
                break
        if nch > MAX_CHOICES:
            return -1
        total = (self.seq_len[f0] - self.heights[f0]) + (self.seq_len[f1] - self.heights[f1])
        for m in range(1 << nch):
            for j in range(nch):  # the first choice varies slowest
                c = ch_card[j]
                if (m >> (nch - 1 - j)) & 1:
                    fixed[c], fixed[64 + c] = ch_late[j], ch_early[j]
                else:
                    fixed[c], fixed[64 + c] = ch_early[j], ch_late[j]
            q = 0
            for row in range(2):
                f = s + 4 * row
                t = 0
                for k in range(self.heights[f], self.seq_len[f]):
                    t = max(t, items[times + fixed[row * 64 + self.fseq[f * SEQ + k]]])
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
                if self._no_later_kept(store + j * 32, gone, total):
                    skip = True
                    break
            if skip:
                continue
            j = 0
            for k in range(count):  # drop the kept ones it beats, keeping their order
                if not self._no_later_new(gone, store + k * 32, total):
                    if j != k:
                        for x in range(32):
                            self.tm_front[store + j * 32 + x] = self.tm_front[store + k * 32 + x]
                    j += 1
            count = j
            if count == TM_FRONT:
                return -1
            for x in range(total):
                self.tm_front[store + count * 32 + x] = gone[x]
            self.tm_total[s] = total
            count += 1
        self.tm_total[s] = total
        return count

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _no_later_kept(self, at: cython.int, gone: cython.p_uchar, n: cython.int) -> cython.bint:
        """Every one of the n times kept at ``tm_front[at:]`` is at most the one in ``gone``."""
        k: cython.int
        for k in range(n):
            if self.tm_front[at + k] > gone[k]:
                return False
        return True

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _no_later_new(self, gone: cython.p_uchar, at: cython.int, n: cython.int) -> cython.bint:
        """Every one of the n times in ``gone`` is at most the one kept at ``tm_front[at:]``."""
        k: cython.int
        for k in range(n):
            if gone[k] > self.tm_front[at + k]:
                return False
        return True

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _tm_in(self, row: cython.int, s: cython.int, c: cython.int) -> cython.bint:
        """Row ``row`` of suit ``s`` still takes card ``c``."""
        f: cython.int = s + 4 * row
        w: cython.int = self.cwhere[f * 64 + c]
        return self.heights[f] <= w < self.seq_len[f]

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)  # the indices stay in the arrays' sizes (TM_FRONT, TM_TURNS)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _tm_combinable(self, in_columns: cython.int, last: cython.int) -> cython.bint:
        """Whether one curve per suit gives, at every turn 1..``last``, at least the cards seen by
        then less the places gone (``_tm_go``): each kept sharing's curve, the items gone by each
        turn 0..last, in ``tm_curves``; each suit's best in ``tm_best``; the sums of the best of
        suits j.. in ``tm_rest``."""
        s: cython.int
        j: cython.int
        k: cython.int
        t: cython.int
        g: cython.int
        curve: cython.int
        best: cython.int
        for s in range(4):
            best = s * TM_TURNS
            for t in range(last + 1):
                self.tm_best[best + t] = 0
            for j in range(self.tm_nfront[s]):
                curve = (s * TM_FRONT + j) * TM_TURNS
                for t in range(last + 1):
                    self.tm_curves[curve + t] = 0
                for k in range(self.tm_total[s]):
                    g = self.tm_front[(s * TM_FRONT + j) * 32 + k]
                    if g <= last:
                        self.tm_curves[curve + g] += 1
                for t in range(1, last + 1):
                    self.tm_curves[curve + t] += self.tm_curves[curve + t - 1]
                for t in range(last + 1):
                    if self.tm_curves[curve + t] > self.tm_best[best + t]:
                        self.tm_best[best + t] = self.tm_curves[curve + t]
        for t in range(last + 1):
            self.tm_rest[4 * TM_TURNS + t] = 0
        for j in range(3, -1, -1):
            for t in range(last + 1):
                self.tm_rest[j * TM_TURNS + t] = self.tm_rest[(j + 1) * TM_TURNS + t] + self.tm_best[j * TM_TURNS + t]
        for t in range(last + 1):
            self.tm_acc[t] = 0
        self.tm_tried = 0
        return self._tm_go(0, 0, in_columns, last)

    @cython.cfunc
    @cython.exceptval(check=False)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def _tm_go(self, j: cython.int, acc: cython.int, in_columns: cython.int, last: cython.int) -> cython.bint:
        """Suits j.. can add to the sums so far (``tm_acc[acc:]``) curves that reach the need at
        every turn: the search of ``_tm_combinable``, bounded by the other suits' best."""
        t: cython.int
        k: cython.int
        nxt: cython.int = (j + 1) * TM_TURNS
        curve: cython.int
        self.tm_tried += 1
        if self.tm_tried > BUDGET:
            return True  # too many to try: claim nothing
        for t in range(1, last + 1):
            if self.tm_acc[acc + t] + self.tm_rest[j * TM_TURNS + t] < in_columns + t - self.c_slots:
                return False
        if j == 4:
            return True
        for k in range(self.tm_nfront[j]):
            curve = (j * TM_FRONT + k) * TM_TURNS
            for t in range(last + 1):
                self.tm_acc[nxt + t] = self.tm_acc[acc + t] + self.tm_curves[curve + t]
            if self._tm_go(j + 1, nxt, in_columns, last):
                return True
        return False

    # ------------------------------------------------------------ the Python level

    def slack(self) -> int | None:
        """The counting bounds' room at their tightest turn: the columns' places minus the cards out
        (the fewer the copy count allows), least over the turns of ``_relaxed_play``'s generous
        game (negative: the bound cuts here).  None where the bound counts no places (columns of
        any height, a waste, batches) or may not prune (a gap may open).  Reported for unknowns;
        never used to prune."""
        if self.c_slots < 0 or self.turn != T_PLACE or self.batch_size:
            return None
        if self.gaps_any_top and self._gap_may_open():
            return None
        self._relaxed_play(True)
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
        return [self.remaining[c] for c in range(64)]

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


class Generous:
    """The generous game of ``_relaxed_play`` (its docstring has the rules and the proof), counting,
    with the copy count, made at a position by ``ReservePosition.generous``, for ``pairing.py``:
    ``turn(v)`` for each pack card in turn order; ``hh`` the foundations' heights, ``seen`` and
    ``gone`` the cards seen and the most that can have left, ``most()`` the copy count's most and
    ``splits(s, spare)`` suit ``s``'s splits within ``spare`` of it (``cc_splits``)."""

    def __init__(self, pos: ReservePosition):
        self.pos = pos
        self.hh, self.seen, self.gone, self._most = pos.g_state()

    def turn(self, v: int) -> None:
        self.pos.g_turn(v)
        self.hh, self.seen, self.gone, self._most = self.pos.g_state()

    def most(self) -> int:
        return self._most

    def splits(self, s: int, spare: int) -> list[tuple[int, int]]:
        return self.pos.cc_splits(s, spare)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _allowed(v: cython.int, row: cython.int) -> cython.bint:
    """Value ``v``'s marks let it go to row ``row``."""
    return not ((v >> (6 + row)) & 1)
