"""The hole family (Black Hole, Golf, Worm Hole): every card goes to one pile, one rank up or down.

One source (``solver/families/README.md``, "One source"): Cython compiles this module in
pure-Python mode where a compiler exists, and the compiled DFS drives the result through the C
interface of ``solver/families/core.pxd``; elsewhere it runs as it stands, under the Python DFS.
Annotations such as ``cython.int`` are the C types of the compiled module.

Rules, as the layout gives them: ``tableau.count`` columns whose top cards may
go to the hole when their rank is next to the rank of the hole's top card (any
suit; with ``hole.wrap`` the highest rank and the ace are next to each other);
with ``stock.turn = "hole"`` the next stock card may be turned onto the hole at
any time, whatever its rank; with ``cells.count`` free cells (Worm Hole), a
column's top card may go to an empty cell, and a cell's card to the hole as a
column's top card would.  Won when every card is on the hole.

Representation
--------------
Columns never receive cards, so each is a fixed sequence and its state is its
height.  The stock is one more such pile (its top is the next card to turn),
kept after the columns.  Every card place ("slot") has a number; a move is the
number of the pile it comes from.  Everything is updated in place by
``push``/``pop``.  The columns whose top card has rank r are a bit mask
``tops[r]``; ``tall`` is the mask of columns with two cards or more.

Transposition key: suits never matter and columns are interchangeable, so a
position is the *multiset* of the rank sequences left in the columns, the
stock height and the hole's rank: exactly, the count of columns showing each
distinct rank sequence (a column cut to some height), the stock height and the
hole's rank, packed into 64-bit words (``_bind_key``) and updated by push and pop.

Cells (``cells.count`` > 0; without them every path below is as if they did not exist): a
move ``TO_CELL + p`` puts column p's top card in the first empty cell, ``FROM_CELL + i``
plays cell i's card to the hole.  A card dealt into a cell is a pile of its own after the
stock, never played from (its slot is in ``cell_slot`` from the start).  The key adds, per
rank, how many cells hold a card of that rank (cells are interchangeable, suits never
matter).  With cells ``legal`` keeps every move (no exchange argument is claimed) and
``forced`` plays only a move that is the one legal move; the walk bound counts the cells'
cards with the others and lets any card left be the last; the heads bound is unchanged.

Sound bounds, forced move and pruning (each proved where it is defined)
----------------------------------------------------------------------
* ``_walk_dead`` (no stock left): the ranks of the remaining column cards must
  be walkable from the hole's rank (Euler's condition on the rank cycle or
  line), ending on a card with nothing under it.
* ``_heads_dead`` (stock left, ranks on a line): every column card needs its
  own predecessor of a neighbouring rank among the column cards, the stock
  cards and the hole's top.
* ``forced``: the only legal move is played without branching.
* ``legal`` leaves out a bottom card when a same-rank card with cards
  under it is also on top (an exchange argument); moves are ordered by how
  many cards of their rank remain, so that no rank runs out early.

Measured and dropped: per-card counts of possible predecessors and successors
(a card no remaining card can precede must be next; one nothing can follow
must be last or precede a stock turn).  Sound, but kept up to date in push/pop
they cost 13-70% more time for under 6% fewer nodes on PySol deals 1..80
(Black Hole) and 1..12 (Golf).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import cache
from typing import Any

from ... import cards, positions
from ...errors import DealError, UnsupportedError
from ...layout import Reads
from ...positions import Snapshot
from .rules import neighbours

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.core import CorePosition
else:
    from ..core import CorePosition

COMPILED = cython.compiled  # this module was compiled (the compiled DFS can drive it)

NRANKS = 14  # rank-indexed arrays: ranks 1..13, index 0 unused
MAX_WORDS = 64  # key words: at most 64 * 64 bits of packed counts

# The rules this position plays; any other rule value is refused (``Reads``).  Columns only
# give cards to the hole: nothing is built on them and nothing moves into an empty one.
READS = Reads("the hole family's DFS position", {
    "decks": None, "hole.start": None, "hole.wrap": None,
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": lambda v: not any(v),
    "tableau.build": {"none"}, "tableau.spaces": {"none"},
    "stock.turn": {"hole", "none"},
    "cells.count": None, "cells.deal": None,
})

# The move codes with a cell, C constants where compiled (compared in every push and pop: a module's
# Python int there cost 5-7% of the speed, measured), plain ints interpreted.
TO_CELL = cython.declare(cython.int, 1 << 10)  # TO_CELL + p: column p's top card to the first empty cell
FROM_CELL = cython.declare(cython.int, 1 << 11)  # FROM_CELL + i: cell i's card to the hole
MAX_CELLS = 15  # at most 15 cells (``cell_slot``)

# What ``is_dead`` names, in order (``dead`` reports these by number).
WALK_DEAD = "walk bound: the ranks left make no walk from the hole"
HEADS_DEAD = "heads bound: a column card can get no predecessor"
DEAD_REASONS = (WALK_DEAD, HEADS_DEAD)

# The number of the lowest set bit of a 64-bit word m: the de Bruijn sequence DE_BRUIJN makes
# the top six bits of (m & -m) * DE_BRUIJN (mod 2**64) a different number for each of the 64
# powers of two, and LOWEST[that number] is the bit's (``HolePosition._lowest``).
DE_BRUIJN = 0x022FDD63CC95386D
LOWEST = [0] * 64
for _b in range(64):
    LOWEST[(((1 << _b) * DE_BRUIJN) >> 58) & 63] = _b


@cache  # the same few tables for every deal
def _connected_table(n: int, cyclic: bool) -> array[int]:
    """For every set of edges (a bit mask over ``n`` edges), whether it is one run (1 or 0)."""
    full = (1 << n) - 1
    table = array("B")
    for m in range(1 << n):
        if m == 0 or (cyclic and m == full):
            table.append(1)
            continue
        prev = ((m << 1) | (m >> (n - 1))) & full if cyclic else (m << 1) & full
        starts = m & ~prev  # edges in the set whose predecessor edge is not
        table.append(starts & (starts - 1) == 0)
    return table


@cython.cclass
class HolePosition(CorePosition):
    """A deal of a hole game, mutable; moves are pile numbers (and ``TO_CELL``, ``FROM_CELL`` codes)."""

    DEAD_REASONS = DEAD_REASONS

    # -- the deal (fixed)
    ncols: cython.int
    stock_pile: cython.int  # the stock's pile number (ncols); the pile may be empty
    top_rank: cython.int
    line_heads: cython.bint  # _heads_dead assumes ranks on a line
    slot_rank: cython.int[::1]  # per slot: its card's rank
    slot_card: cython.int[::1]  # per slot: its card
    base: cython.int[::1]  # per pile: the slot of its bottom card
    near_n: cython.int[14]  # NRANKS: how many ranks are next to each rank (at most two) ...
    near: cython.int[28]  # ... and which: near[2 * r + k]
    lowest_bit: cython.int[64]  # LOWEST
    de_bruijn: cython.ulonglong  # DE_BRUIJN (a literal this long would be a Python int)
    # -- the key terms per slot: playing slot s takes ``sub_val[s]`` from word ``sub_word[s]``
    #    and adds ``add_val[s]`` to word ``add_word[s]``
    sub_word: cython.int[::1]
    add_word: cython.int[::1]
    sub_val: cython.ulonglong[::1]
    add_val: cython.ulonglong[::1]
    nwords: cython.int
    last_bytes: cython.int
    # -- the walk bound's tables (``_bind_walk``)
    walk_ok: cython.bint
    walk_cyclic: cython.bint
    walk_n: cython.int
    walk_all: cython.uint
    walk_conn: cython.uchar[::1]
    walk_t0: cython.uint[14]
    walk_tp: cython.uint[14]
    walk_close: cython.int[14]

    # -- the mutable state
    height: cython.int[::1]  # per pile
    hole_stack: cython.int[::1]  # the hole's rank before each move played (what pop restores)
    hole_rank: cython.int
    left: cython.int  # cards not yet on the hole
    count: cython.int[14]  # remaining cards of each rank (columns, cells and stock)
    col_count: cython.int[14]  # remaining column cards of each rank
    bottoms: cython.int[14]  # remaining bottom cards (depth 0 in a column) of each rank
    tops: cython.ulonglong[14]  # columns by the rank of their top card
    tall: cython.ulonglong  # columns holding two cards or more
    words: cython.ulonglong[64]  # MAX_WORDS: the key
    start_ranks: tuple  # the hole's ranks at the deal, bottom first, for ``state``
    # -- the cells (``ncells`` 0: none)
    ncells: cython.int
    cell_slot: cython.int[15]  # MAX_CELLS: the slot of the card in each cell, or -1
    cell_undo: cython.int[::1]  # per ply of a move with a cell: the cell filled, or the slot played
    cell_word: cython.int[14]  # per rank: the key word of its count in the cells ...
    cell_val: cython.ulonglong[14]  # ... and one of it there

    def __init__(self, layout: Any, deal: dict[str, list[int]] | Snapshot):
        """The position at ``deal``: a deal, or a ``Snapshot`` part-way through a game (its
        columns cut down, cards on the hole)."""
        super().__init__()
        self.lowest_bit, self.de_bruijn = LOWEST, DE_BRUIJN
        READS.check(layout)
        hole = layout.hole
        if hole is None:
            raise UnsupportedError(f"layout {layout.name!r} has no hole")
        stacks = positions.of(layout, deal).stacks
        ncols = layout.tableau.count
        stock = list(stacks.get("stock", []))
        if stock and layout.stock.turn != "hole":
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'hole'")
        start: Sequence[int] = stacks.get("hole") or ()
        if not start:
            raise DealError(f"layout {layout.name!r}: the deal puts no card on the hole")
        cell_names = [f"cell:{i}" for i in range(layout.cells.count)]
        unknown = set(stacks) - {"hole", "stock", *cell_names} - {f"tableau:{i}" for i in range(ncols)}
        if any(stacks[s] for s in unknown):
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: "
                            + ", ".join(sorted(unknown)))
        if ncols > 63:
            raise UnsupportedError(f"layout {layout.name!r}: the hole engine holds at most 63 columns")
        if layout.cells.count > MAX_CELLS:
            raise UnsupportedError(f"layout {layout.name!r}: the hole engine holds at most {MAX_CELLS} cells")
        dealt_cells = [list(stacks.get(name, [])) for name in cell_names]
        if any(len(cs) > 1 for cs in dealt_cells):
            raise DealError(f"layout {layout.name!r}: the deal puts more than one card in a cell")
        top = layout.max_rank
        self.top_rank = top
        self.line_heads = not hole.wrap

        # Piles 0..ncols-1 are the columns (bottom first); pile ncols is the stock,
        # stored so that its last element is the next card to turn; then each card dealt
        # into a cell, a pile of its own.
        piles = [list(stacks.get(f"tableau:{i}", [])) for i in range(ncols)] + [stock[::-1]]
        piles += [cs for cs in dealt_cells if cs]
        self.ncols = ncols
        self.stock_pile = ncols
        slots = [(c, p, j) for p, cs in enumerate(piles) for j, c in enumerate(cs)]  # card, pile, depth
        for c, _, _ in slots:
            if not 1 <= cards.rank(c) <= top:
                raise DealError(f"card {cards.name(c)} is above the top rank of {layout.name!r}")
        self.slot_card = array("i", [c for c, _, _ in slots])
        self.slot_rank = array("i", [cards.rank(c) for c, _, _ in slots])
        self.base = array("i", [sum(len(cs) for cs in piles[:p]) for p in range(len(piles))])
        self.height = array("i", [len(cs) for cs in piles])
        plies = 2 * len(slots) + 1  # a move a card, two for a card through a cell
        self.hole_stack = array("i", [0] * plies)
        self.cell_undo = array("i", [0] * plies)
        self.ncells = layout.cells.count
        cell_piles = iter(range(ncols + 1, len(piles)))
        self.cell_slot = [self.base[next(cell_piles)] if cs else -1 for cs in dealt_cells] + \
            [-1] * (MAX_CELLS - self.ncells)
        near = neighbours(layout)  # the ranks next to each rank (the rule table, rules.py)
        self.near_n = [len(near[r]) for r in range(NRANKS)]
        self.near = [near[r][k] if k < len(near[r]) else 0 for r in range(NRANKS) for k in (0, 1)]
        if max(len(ns) for ns in near) > 2:
            raise UnsupportedError("a rank with more than two neighbours")

        # The state at the deal.
        self.start_ranks = tuple(cards.rank(c) for c in start)
        self.hole_rank = self.start_ranks[-1]
        self.left = len(slots)
        count, col_count, bottoms, tops = [0] * NRANKS, [0] * NRANKS, [0] * NRANKS, [0] * NRANKS
        tall = 0
        for c, p, j in slots:
            count[cards.rank(c)] += 1
            if p < ncols:
                col_count[cards.rank(c)] += 1
                bottoms[cards.rank(c)] += j == 0
        for p, cs in enumerate(piles[:ncols]):
            if cs:
                tops[cards.rank(cs[-1])] |= 1 << p
            if len(cs) > 1:
                tall |= 1 << p
        self.count, self.col_count, self.bottoms, self.tops, self.tall = count, col_count, bottoms, tops, tall
        self._bind_key(piles, slots)
        self._bind_walk()

    # ------------------------------------------------------------ setup

    def _bind_key(self, piles: list[list[int]], slots: list[tuple[int, int, int]]) -> None:
        """The key: the count of columns showing each rank sequence, the stock height and the hole's
        rank, as fields in 64-bit words, each field just wide enough for every value it can hold.

        Sequence i (a distinct rank sequence, a column cut to some height) can be shown by at
        most m_i columns (those that have it as a prefix), so its field has bit_length(m_i)
        bits; the stock height at most its start; the rank 4 bits; with cells, each rank's count
        in the cells at most ``ncells``.  A field never spills (its
        value stays in range), so adding and subtracting terms in a word is exact, and equal
        words mean equal counts: keys are equal exactly when the positions are the same for play.
        """
        ids: dict[tuple[int, ...], int] = {}
        seq = []  # seq[p][h]: the sequence number of column p cut to height h (h >= 1)
        for cs in piles[:self.ncols]:
            seq.append([-1] + [ids.setdefault(tuple(cards.rank(c) for c in cs[:h]), len(ids))
                               for h in range(1, len(cs) + 1)])
        mult = [0] * len(ids)
        for row in seq:
            for i in row[1:]:
                mult[i] += 1
        nstock = len(piles[self.stock_pile])
        fields: list[tuple[int, Any]] = [(4, "rank"), (max(1, nstock.bit_length()), "stock")]
        fields += [(m.bit_length(), i) for i, m in enumerate(mult)]
        cell_ranks = range(1, self.top_rank + 1) if self.ncells else range(0)
        fields += [(self.ncells.bit_length(), ("cell", r)) for r in cell_ranks]  # a rank's count in the cells
        place: dict[Any, tuple[int, int]] = {}
        word = used = 0
        for bits, name in fields:
            if used + bits > 64:
                word, used = word + 1, 0
            place[name] = (word, used)
            used += bits
        # place["rank"] is (0, 0): push and pop update the rank in the low bits of word 0
        if word >= MAX_WORDS:
            raise UnsupportedError("too many columns or stock cards for the hole engine's key")
        self.nwords = word + 1
        self.last_bytes = (used + 7) // 8

        def term(name: Any) -> tuple[int, int]:
            w, shift = place[name]
            return w, 1 << shift

        sub: list[tuple[int, int]] = []
        add: list[tuple[int, int]] = []
        for _, p, j in slots:  # playing the slot leaves pile p at height j
            if p == self.stock_pile:
                sub.append(term("stock"))
                add.append((0, 0))
            elif p < self.stock_pile:
                sub.append(term(seq[p][j + 1]))
                add.append(term(seq[p][j]) if j else (0, 0))
            else:  # a card dealt into a cell: its term is the cell's (``cell_word``)
                sub.append((0, 0))
                add.append((0, 0))
        self.sub_word = array("i", [w for w, _ in sub])
        self.sub_val = array("Q", [v for _, v in sub])
        self.add_word = array("i", [w for w, _ in add])
        self.add_val = array("Q", [v for _, v in add])
        cell = [term(("cell", r)) if r in cell_ranks else (0, 0) for r in range(NRANKS)]
        self.cell_word = [w for w, _ in cell]
        self.cell_val = [v for _, v in cell]
        words = [0] * MAX_WORDS  # the key of the deal
        words[0] = self.hole_rank
        w, shift = place["stock"]
        words[w] += nstock << shift
        for p, cs in enumerate(piles[:self.ncols]):
            if cs:
                w, v = term(seq[p][len(cs)])
                words[w] += v
        for i in range(self.ncells):
            if self.cell_slot[i] >= 0:
                r = cards.rank(slots[self.cell_slot[i]][0])
                words[cell[r][0]] += cell[r][1]
        self.words = words

    def _bind_walk(self) -> None:
        """Tables for ``_walk_dead`` over the n ranks (0-based k = rank - 1).

        Edge k joins ranks k and k + 1 (and, on the cycle, edge n - 1 joins the
        top rank and the ace).  For a last rank t, tau[t][k] in {-1, 0, +1} is
        how the end at t shifts edge k's count (see ``_walk_dead``); walk_t0[t] and
        walk_tp[t] are the edges where it is 0 and +1 (the rest are -1).
        """
        n = self.top_rank
        self.walk_n = n
        self.walk_cyclic = not self.line_heads and n > 2
        # An even cycle leaves the edge counts underdetermined; the bound is then
        # simply not used (declining a bound is always sound).
        self.walk_ok = n >= 2 and not (self.walk_cyclic and n % 2 == 0)
        if not self.walk_ok:
            return
        edges = n if self.walk_cyclic else n - 1
        self.walk_all = (1 << edges) - 1
        self.walk_conn = _connected_table(edges, self.walk_cyclic)
        t0s, tps, close = [0] * NRANKS, [0] * NRANKS, [0] * NRANKS
        for t in range(n):
            for k in range(edges):
                if self.walk_cyclic:
                    sign = 1 if (k - t) % n % 2 == 0 else -1
                elif k < t:
                    sign = 0
                else:
                    sign = 1 if (k - t) % 2 == 0 else -1
                if sign == 0:
                    t0s[t] |= 1 << k
                elif sign > 0:
                    tps[t] |= 1 << k
            close[t] = 1 if (n - 1 - t) % 2 == 0 else -1  # on the line: what the closing sum must be
        self.walk_t0, self.walk_tp, self.walk_close = t0s, tps, close

    # ------------------------------------------------------------ play

    @cython.ccall
    @cython.exceptval(-1, check=False)
    def push(self, move: cython.int) -> cython.int:
        """The top card of pile ``move`` goes to the hole (``TO_CELL + p``: column p's top card to
        the first empty cell; ``FROM_CELL + i``: cell i's card to the hole)."""
        p: cython.int = move
        cell: cython.int = -1
        if move >= TO_CELL:
            if move >= FROM_CELL:
                return self._push_from_cell(move - FROM_CELL)
            p = move - TO_CELL
            cell = self._empty_cell()
            if cell < 0 or p >= self.ncols:
                raise ValueError(f"no cell to take column {p}'s card")
        if p < 0 or p > self.stock_pile or self.height[p] == 0:
            raise ValueError(f"no card to play from pile {p}")
        j: cython.int = self.height[p] - 1
        s: cython.int = self.base[p] + j
        r: cython.int = self.slot_rank[s]
        bit: cython.ulonglong
        self.height[p] = j
        if p != self.stock_pile:
            bit = 1
            bit <<= p
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
        self.hole_stack[self.ply] = self.hole_rank
        if cell >= 0:  # into the cell: the hole is as it was
            self.cell_slot[cell] = s
            self.cell_undo[self.ply] = cell
            self.words[self.cell_word[r]] += self.cell_val[r]
        else:
            self.words[0] = self.words[0] + r - self.hole_rank  # the rank field is the low 4 bits of word 0
            self.hole_rank = r
            self.count[r] -= 1
            self.left -= 1
        self.record(move)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _push_from_cell(self, i: cython.int) -> cython.int:
        """Cell i's card goes to the hole."""
        if i < 0 or i >= self.ncells or self.cell_slot[i] < 0:
            raise ValueError(f"no card in cell {i}")
        s: cython.int = self.cell_slot[i]
        r: cython.int = self.slot_rank[s]
        self.cell_slot[i] = -1
        self.cell_undo[self.ply] = s
        self.words[self.cell_word[r]] -= self.cell_val[r]
        self.words[0] = self.words[0] + r - self.hole_rank
        self.hole_stack[self.ply] = self.hole_rank
        self.hole_rank = r
        self.count[r] -= 1
        self.left -= 1
        self.record(FROM_CELL + i)
        return 0

    @cython.ccall
    @cython.exceptval(-1, check=False)
    def pop(self) -> cython.int:
        """The last card played goes back where it came from; returns the move."""
        move: cython.int = self.unrecord()
        p: cython.int = move
        cell: cython.int = -1
        if move >= TO_CELL:
            if move >= FROM_CELL:
                return self._pop_from_cell(move)
            p = move - TO_CELL
            cell = self.cell_undo[self.ply]
        j: cython.int = self.height[p]
        s: cython.int = self.base[p] + j
        r: cython.int = self.hole_rank if cell < 0 else self.slot_rank[s]  # the card back
        old: cython.int = self.hole_stack[self.ply]
        bit: cython.ulonglong
        self.height[p] = j + 1
        if cell >= 0:
            self.cell_slot[cell] = -1
            self.words[self.cell_word[r]] -= self.cell_val[r]
        else:
            self.words[0] = self.words[0] + old - r
            self.hole_rank = old
            self.count[r] += 1
            self.left += 1
        self.words[self.add_word[s]] -= self.add_val[s]
        self.words[self.sub_word[s]] += self.sub_val[s]
        if p != self.stock_pile:
            bit = 1
            bit <<= p
            if j:
                self.tops[self.slot_rank[s - 1]] &= ~bit
                if j == 1:
                    self.tall |= bit
            else:
                self.bottoms[r] += 1
            self.tops[r] |= bit
            self.col_count[r] += 1
        return move

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _pop_from_cell(self, move: cython.int) -> cython.int:
        """The hole's top card goes back to the cell it came from (``move``: FROM_CELL + i)."""
        s: cython.int = self.cell_undo[self.ply]
        r: cython.int = self.hole_rank
        old: cython.int = self.hole_stack[self.ply]
        self.cell_slot[move - FROM_CELL] = s
        self.words[self.cell_word[r]] += self.cell_val[r]
        self.words[0] = self.words[0] + old - r
        self.hole_rank = old
        self.count[r] += 1
        self.left += 1
        return move

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _empty_cell(self) -> cython.int:
        """The first empty cell, or -1."""
        i: cython.int
        for i in range(self.ncells):
            if self.cell_slot[i] < 0:
                return i
        return -1

    # ---------------------------------------------------------- queries

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, out: cython.p_int) -> cython.int:
        """Column moves first, the card of the rank with most cards left first (so that no rank
        runs out early), then the taller column, then the lower number; the stock turn last.

        Left out: a card at the bottom of its column (nothing under it) when another card of
        the same rank with cards under it is also on top.  Proof that no win is lost: take a
        win that plays the bottom card Y now and that other card X later; exchange them (X now,
        Y at X's old turn).  The ranks are equal, so every step is still onto a neighbouring
        rank; X is on top now; Y, with nothing under it, is still on top later; the cards under
        X were played after X's old turn, so after its new one.  Each exchange moves a bottom
        card later, so repeating it ends in a win that never plays such a Y.  (With two bottom
        cards of one rank on top the columns are interchangeable; the key merges them: one is
        enough, the lowest.)

        With cells every move is kept (a card may wait in a cell, which the exchange above does
        not follow): the column cards that fit, ordered as above, then the cells' cards that
        fit, the stock turn, then each column's top card to the first empty cell.
        """
        n: cython.int = 0
        k: cython.int
        i: cython.int
        j: cython.int
        m: cython.int
        km: cython.longlong
        ps: cython.ulonglong
        h: cython.int = self.hole_rank
        for k in range(self.near_n[h]):
            ps = self.tops[self.near[2 * h + k]]
            if ps & (ps - 1) and not self.ncells:  # several columns
                if ps & self.tall:
                    ps &= self.tall
                else:
                    ps &= ~ps + 1  # the lowest column
            while ps:
                out[n] = self._lowest(ps)
                n += 1
                ps &= ps - 1
        for i in range(1, n):  # insertion sort (a handful of moves), larger order first
            m = out[i]
            km = self._order(m)
            j = i
            while j > 0 and self._order(out[j - 1]) < km:
                out[j] = out[j - 1]
                j -= 1
            out[j] = m
        if self.ncells:
            return self._cell_moves(out, n)
        if self.height[self.stock_pile]:
            out[n] = self.stock_pile
            n += 1
        return n

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _cell_moves(self, out: cython.p_int, n: cython.int) -> cython.int:
        """``legal``'s moves after the ``n`` column moves, with cells: the cells' cards that fit,
        the stock turn, each column's top card to the first empty cell."""
        i: cython.int
        for i in range(self.ncells):
            if self.cell_slot[i] >= 0 and self._fits(self.slot_rank[self.cell_slot[i]]):
                out[n] = FROM_CELL + i
                n += 1
        if self.height[self.stock_pile]:
            out[n] = self.stock_pile
            n += 1
        if self._empty_cell() >= 0:
            for i in range(self.ncols):
                if self.height[i]:
                    out[n] = TO_CELL + i
                    n += 1
        return n

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _fits(self, r: cython.int) -> cython.bint:
        """Whether rank ``r`` is next to the hole's."""
        k: cython.int
        h: cython.int = self.hole_rank
        for k in range(self.near_n[h]):
            if self.near[2 * h + k] == r:
                return True
        return False

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    @cython.inline
    def _lowest(self, m: cython.ulonglong) -> cython.int:
        """The number of the lowest set bit of ``m`` (m != 0)."""
        return self.lowest_bit[(((m & (~m + 1)) * self.de_bruijn) >> 58) & 63]

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    @cython.inline
    def _order(self, p: cython.int) -> cython.longlong:
        """Larger first: (cards of the top card's rank left, column height, -p)."""
        h: cython.longlong = self.height[p]
        c: cython.longlong = self.count[self.slot_rank[self.base[p] + h - 1]]
        return (c << 40) | (h << 16) | (0xFFFF - p)

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def forced(self) -> cython.int:
        """The only legal move, when there is exactly one (a move that cannot be avoided), or -1.

        With only stock cards left, or no column card fitting the hole, that is the stock
        turn; in a game without stock, a single column card that fits.  Playing it loses
        nothing: every continuation starts with it.  With cells, the one legal move, if any.
        """
        if self.ncells:
            return self._only_move()
        stock: cython.int = self.height[self.stock_pile]
        k: cython.int
        h: cython.int = self.hole_rank
        ps: cython.ulonglong
        fits: cython.ulonglong = 0
        for k in range(self.near_n[h]):
            ps = self.tops[self.near[2 * h + k]]
            if ps:
                if fits or ps & (ps - 1) or stock:
                    return -1
                fits = ps
        if fits:
            return self._lowest(fits)
        return self.stock_pile if stock else -1

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _only_move(self) -> cython.int:
        """With cells: the one move ``legal`` gives, when it gives exactly one, else -1."""
        n: cython.int = 0
        only: cython.int = -1
        k: cython.int
        i: cython.int
        h: cython.int = self.hole_rank
        ps: cython.ulonglong
        for k in range(self.near_n[h]):
            ps = self.tops[self.near[2 * h + k]]
            while ps:
                n += 1
                only = self._lowest(ps)
                ps &= ps - 1
        for i in range(self.ncells):
            if self.cell_slot[i] >= 0 and self._fits(self.slot_rank[self.cell_slot[i]]):
                n += 1
                only = FROM_CELL + i
        if self.height[self.stock_pile]:
            n += 1
            only = self.stock_pile
        if self._empty_cell() >= 0:
            for i in range(self.ncols):
                if self.height[i]:
                    n += 1
                    only = TO_CELL + i
        return only if n == 1 else -1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def won(self) -> cython.bint:
        return self.left == 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def dead(self) -> cython.int:
        """The bound that proves no win is reachable (see the module doc): 1 the walk bound, 2 the
        heads bound, 0 neither."""
        if not self.height[self.stock_pile]:
            return 1 if self.left > 0 and self._walk_dead() else 0
        return 2 if self.line_heads and self._heads_dead() else 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def write_key(self, buf: cython.p_uchar) -> cython.int:
        """The key words, little-endian, the last one cut to its used bytes (``buf`` has room
        for all of its eight)."""
        i: cython.int
        b: cython.int
        w: cython.ulonglong
        for i in range(self.nwords):
            w = self.words[i]
            for b in range(8):
                buf[8 * i + b] = (w >> (8 * b)) & 0xFF
        return 8 * (self.nwords - 1) + self.last_bytes

    # -------------------------------------------------- the walk bound

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _walk_dead(self) -> cython.bint:
        """The ranks left cannot be played as one walk from the hole: no win.

        With no stock to turn, the remaining cards s1..sm are played so that
        consecutive ranks (starting from the hole's rank h) are neighbours: a
        walk on the rank line, or cycle when ranks wrap.  Let e_k be how often
        the walk crosses edge k.  Each visit to rank v uses two crossings,
        except that the walk starts at h and ends at the last rank t, so
            e_{k-1} + e_k = d_k,  d_k = 2 c_k + [k = h] - [k = t],
        with c_k the cards of rank k left.  These counts must be whole, not
        negative, and the crossed edges must form one connected run (a walk is
        connected).  On the line (e_{-1} = e_{n-1} = 0) the equations give
        e_k = P_k - tau_k(t) with P_k = d_k - P_{k-1} (the d without t), and
        must close with P_{n-1} = tau_{n-1}(t).  On a cycle of odd length n
        they give e_k = (S_k - tau_k(t)) / 2 with S_{k+1} = 2 d_{k+1} - S_k,
        S_0 the alternating sum of d_0, d_{n-1}, ..., d_1.  The last card has
        no card under it (the cards under a card are played after it), so t
        ranges over the ranks of the remaining bottom cards.  If no t passes,
        no order of the remaining cards is a legal play: dead.  With cells the
        c_k count every card left (a cell's too), and t ranges over every rank
        left: a card can wait in a cell while the cards under it are played.
        """
        if not self.walk_ok:
            return False
        n: cython.int = self.walk_n
        h: cython.int = self.hole_rank - 1
        cyclic: cython.bint = self.walk_cyclic
        k: cython.int
        t: cython.int
        s: cython.int
        sign: cython.int
        vals: cython.int
        close: cython.int = 0
        am1: cython.uint = 0  # the edges whose value (S_k or P_k) is -1, 0, 1
        a0: cython.uint = 0
        a1: cython.uint = 0
        t0: cython.uint
        tp: cython.uint
        zero: cython.uint
        d: cython.int[14]
        if not cython.compiled:
            d = [0] * NRANKS
        c: cython.p_int = self.col_count  # the cards to walk, and those that may be last
        last: cython.p_int = self.bottoms
        if self.ncells:
            c = self.count  # no stock left: every card, the cells' too
            last = self.count
        for k in range(n):
            d[k] = 2 * c[k + 1]
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
                    am1 |= 1 << k
                elif s == 0:
                    a0 |= 1 << k
                else:
                    a1 |= 1 << k
        if not cyclic:
            close = d[n - 1] - s  # the would-be edge past the top rank
        for t in range(n):
            if not last[t + 1]:
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

    # ------------------------------------------------ the heads bound

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _heads_dead(self) -> cython.bint:
        """Some column card can get no predecessor: no win (ranks on a line, stock left).

        Every remaining column card x is played just after some other card: a remaining
        column card of a neighbouring rank, the hole's present top card, or a stock card
        turned just before it.  Each of those is followed by at most one card, so the
        column cards need distinct predecessors of neighbouring ranks among the column
        cards, the stock cards and the hole's top.  On the rank line (no wrap) a card of
        odd rank is preceded by one of even rank and the other way round, so there are
        two independent assignments, each between ranks r and r +- 1; for each, taking
        the spare predecessors of rank r - 1 first (they can serve nothing higher) and
        then those of rank r + 1 decides whether all demands can be met.  With cells
        the demands stay the column cards' and the predecessors counted (``count``)
        include the cells' cards: a card in a cell is one more possible predecessor, and
        leaving its own demand out only weakens the bound.
        """
        h: cython.int = self.hole_rank
        n: cython.int = self.top_rank
        first: cython.int
        r: cython.int
        spare: cython.int
        need: cython.int
        above: cython.int
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

    def move_json(self, move: int) -> dict[str, Any]:
        if move >= FROM_CELL:
            s = self.cell_slot[move - FROM_CELL]
            return {"card": cards.name(self.slot_card[s]), "from": f"cell:{move - FROM_CELL}", "to": "hole"}
        p = move - TO_CELL if move >= TO_CELL else move
        s = self.base[p] + self.height[p] - 1
        src = "stock" if p == self.stock_pile else f"tableau:{p}"
        return {"card": cards.name(self.slot_card[s]), "from": src,
                "to": f"cell:{self._empty_cell()}" if move >= TO_CELL else "hole"}

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.height[p] for p in range(self.stock_pile + 1)),
                self.start_ranks + tuple(self.hole_stack[i] for i in range(1, self.ply)) + (self.hole_rank,)
                if self.ply else self.start_ranks,
                self.hole_rank, tuple(self.history), self.left,
                tuple(self.count), tuple(self.col_count), tuple(self.bottoms),
                tuple(self.tops), self.tall, tuple(self.words[i] for i in range(self.nwords)),
                tuple(self.cell_slot[i] for i in range(self.ncells)))
