"""The hole family (Black Hole, Golf): every card goes to one pile, one rank up or down.

Rules, as the layout gives them: ``tableau.count`` columns whose top cards may
go to the hole when their rank is next to the rank of the hole's top card (any
suit; with ``hole.wrap`` the highest rank and the ace are next to each other);
with ``stock.turn = "hole"`` the next stock card may be turned onto the hole at
any time, whatever its rank; with ``cells.count`` free cells (Worm Hole), a
column's top card may go to an empty cell, and a cell's card to the hole as a
column's top card would.  Won when every card is on the hole.

Cells (``cells.count`` > 0): a move ``TO_CELL + p`` puts column p's top card in
the first empty cell, ``FROM_CELL + i`` plays cell i's card to the hole; the key
adds the multiset of the cells' ranks (cells are interchangeable, suits never
matter).  The compiled core has no cells: a layout with cells runs in Python.
With cells, ``legal_moves`` keeps every move and ``forced_move`` plays only a
move that is the one legal move; the walk bound counts the cells' cards with
the others and lets any remaining card be the last (a card can wait in a cell
until the cards under it are gone); the heads bound is unchanged (a cell card
is one more possible predecessor, counted in ``count``; leaving the cell cards
out of the demands only weakens it).

Representation
--------------
Columns never receive cards, so each is a fixed sequence and its state is its
height.  The stock is one more such pile (its top is the next card to turn),
kept after the columns.  Every card place ("slot") has a number; a move is the
number of the pile it comes from.  Everything is updated in place by
``push``/``pop``.

Transposition key: suits never matter and columns are interchangeable, so a
position is the *multiset* of the rank sequences left in the columns, the
stock height and the hole's rank.  Each distinct rank sequence (a column cut
to some height) gets a number i and its own FIELD-bit field of an int; the key
is the sum over the columns of a 1 in their sequence's field (exact: a field
counts up to 2**FIELD - 1 equal columns) plus the stock height and the hole
rank in the low 16 bits.

Sound bounds, forced move and pruning (each proved where it is defined)
----------------------------------------------------------------------
* ``_walk_dead`` (no stock left): the ranks of the remaining column cards must
  be walkable from the hole's rank (Euler's condition on the rank cycle or
  line), ending on a card with nothing under it.
* ``_heads_dead`` (stock left, ranks on a line): every column card needs its
  own predecessor of a neighbouring rank among the column cards, the stock
  cards and the hole's top.
* ``forced_move``: the only legal move is played without branching.
* ``legal_moves`` leaves out a bottom card when a same-rank card with cards
  under it is also on top (an exchange argument); moves are ordered by how
  many cards of their rank remain, so that no rank runs out early.

Measured and dropped: per-card counts of possible predecessors and successors
(a card no remaining card can precede must be next; one nothing can follow
must be last or precede a stock turn).  Sound, but kept up to date in push/pop
they cost 13-70% more time for under 6% fewer nodes on PySol deals 1..80
(Black Hole) and 1..12 (Golf).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from functools import cache
from typing import Any

from ... import cards, positions
from ...errors import DealError, UnsupportedError
from ...layout import Reads
from ...positions import Snapshot
from .rules import neighbours

FIELD = 6  # bits per rank-sequence count in the key: up to 63 equal columns

# The rules this position plays; any other rule value is refused (``Reads``).  Columns only
# give cards to the hole: nothing is built on them and nothing moves into an empty one.
READS = Reads("the hole family's DFS position", {
    "decks": None, "hole.start": None, "hole.wrap": None,
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": lambda v: not any(v),
    "tableau.build": {"none"}, "tableau.spaces": {"none"},
    "stock.turn": {"hole", "none"},
    "cells.count": None, "cells.deal": None,
})

TO_CELL = 1 << 10  # TO_CELL + p: column p's top card to the first empty cell
FROM_CELL = 1 << 11  # FROM_CELL + i: cell i's card to the hole

# What ``is_dead`` names, in order (the compiled position reports these by number).
WALK_DEAD = "walk bound: the ranks left make no walk from the hole"
HEADS_DEAD = "heads bound: a column card can get no predecessor"
DEAD_REASONS = (WALK_DEAD, HEADS_DEAD)


@cache  # the same few tables for every deal
def _connected_table(n: int, cyclic: bool) -> list[bool]:
    """For every set of edges (a bit mask over ``n`` edges), whether it is one run."""
    full = (1 << n) - 1
    table = []
    for m in range(1 << n):
        if m == 0 or (cyclic and m == full):
            table.append(True)
            continue
        prev = ((m << 1) | (m >> (n - 1))) & full if cyclic else (m << 1) & full
        starts = m & ~prev  # edges in the set whose predecessor edge is not
        table.append(starts & (starts - 1) == 0)
    return table


class HolePosition:
    """A deal of a hole game, mutable, with an undo stack (``history``)."""

    learns = False  # the DFS learns nothing from its lost subtrees (``dfs``, "Learning")

    def __init__(self, layout: Any, deal: dict[str, list[int]] | Snapshot):
        """The position at ``deal``: a deal, or a ``Snapshot`` part-way through a game (its
        columns cut down, cards on the hole)."""
        READS.check(layout)
        hole = layout.hole
        if hole is None:
            raise UnsupportedError(f"layout {layout.name!r} has no hole")
        stacks = positions.of(layout, deal).stacks
        ncols = layout.tableau.count
        has_stock = layout.stock.turn == "hole"
        stock = list(stacks.get("stock", []))
        if stock and not has_stock:
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'hole'")
        start: Sequence[int] = stacks.get("hole") or ()
        if not start:
            raise DealError(f"layout {layout.name!r}: the deal puts no card on the hole")
        cell_names = [f"cell:{i}" for i in range(layout.cells.count)]
        unknown = set(stacks) - {"hole", "stock"} - {f"tableau:{i}" for i in range(ncols)} - set(cell_names)
        if any(stacks[s] for s in unknown):
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: "
                            + ", ".join(sorted(unknown)))
        top = layout.max_rank
        self.top_rank = top
        self.wrap = bool(hole.wrap)

        # Piles 0..ncols-1 are the columns (bottom first); pile ncols is the stock,
        # stored so that its last element is the next card to turn; then each cell
        # holding a card at the start, as a pile of its own that no move plays from
        # (its card is in ``cell_slot`` from the start).
        piles = [list(stacks.get(f"tableau:{i}", [])) for i in range(ncols)] + [stock[::-1]]
        dealt_cells = [list(stacks.get(name, [])) for name in cell_names]
        if any(len(c) > 1 for c in dealt_cells):
            raise DealError(f"layout {layout.name!r}: a cell holds one card")
        piles += [c for c in dealt_cells if c]
        self.ncols = ncols
        self.stock_pile = ncols  # a pile that may be empty
        self.slot_card: list[int] = []
        self.slot_rank: list[int] = []
        self.slot_pile: list[int] = []
        self.slot_depth: list[int] = []  # index in the pile, 0 = bottom
        self.base: list[int] = []  # slot number of each pile's bottom card
        for p, cs in enumerate(piles):
            self.base.append(len(self.slot_card))
            for j, c in enumerate(cs):
                if not 1 <= cards.rank(c) <= top:
                    raise DealError(f"card {cards.name(c)} is above the top rank of {layout.name!r}")
                self.slot_card.append(c)
                self.slot_rank.append(cards.rank(c))
                self.slot_pile.append(p)
                self.slot_depth.append(j)
        nslots = len(self.slot_card)

        self.near = neighbours(layout)  # the ranks next to each rank (the rule table, rules.py)

        self.ncells = layout.cells.count
        self.cell_slot = [-1] * self.ncells  # the slot of the card in each cell, or -1
        self.cell_played: list[int] = []  # the slot of each card played from a cell, for ``pop``
        cell_piles = iter(range(ncols + 1, len(piles)))
        for i, dealt in enumerate(dealt_cells):
            if dealt:
                self.cell_slot[i] = self.base[next(cell_piles)]

        self._bind_key(piles[:ncols + 1])
        self._bind_walk()
        self.line_heads = not self.wrap  # _heads_dead assumes ranks on a line

        # The mutable state.
        self.height = [len(cs) for cs in piles]
        self.history: list[int] = []
        self.hole_ranks = [cards.rank(c) for c in start]  # ranks on the hole, bottom first
        self.hole_rank = self.hole_ranks[-1]
        self.left = nslots  # cards not yet on the hole
        self.count = [0] * 14  # remaining cards of each rank (columns and stock)
        self.col_count = [0] * 14  # remaining column cards of each rank
        self.bottoms = [0] * 14  # remaining bottom cards (depth 0 in a column) of each rank
        for s in range(nslots):
            r = self.slot_rank[s]
            self.count[r] += 1  # (a cell's card counts here, not in col_count)
            if self.slot_pile[s] < ncols:
                self.col_count[r] += 1
                if self.slot_depth[s] == 0:
                    self.bottoms[r] += 1
        # Column numbers by the rank of their top card, for move generation.
        self.tops: list[set[int]] = [set() for _ in range(14)]
        for p in range(ncols):
            if self.height[p]:
                self.tops[self.slot_rank[self.base[p] + self.height[p] - 1]].add(p)
        self._key = (sum(self.seq_weight[p][h] for p, h in enumerate(self.height[:ncols]))
                     + self.height[ncols] * 16 + self.hole_rank
                     + sum(self.cell_weight[self.slot_rank[s]] for s in self.cell_slot if s >= 0))

    # ------------------------------------------------------------ setup

    def _bind_key(self, piles: list[list[int]]) -> None:
        """seq_weight[p][h]: the key term of column p cut to height h."""
        ids: dict[tuple[int, ...], int] = {}
        self.seq_weight: list[list[int]] = []
        for cs in piles[:-1]:
            row = [0]
            for h in range(1, len(cs) + 1):
                seq = tuple(cards.rank(c) for c in cs[:h])
                i = ids.setdefault(seq, len(ids))
                row.append(1 << (FIELD * (i + 1) + 16))  # the low 16 bits: stock height, hole rank
            self.seq_weight.append(row)
        if len(piles) - 1 >= 1 << FIELD or len(piles[-1]) >= 1 << 12:
            raise UnsupportedError("too many columns or stock cards for the hole engine's key")
        # the cells' ranks: 4 bits a rank above every column field (at most 15 cells)
        if self.ncells >= 16:
            raise UnsupportedError("too many cells for the hole engine's key")
        top_bit = FIELD * (len(ids) + 1) + 16
        self.cell_weight = [0] + [1 << (top_bit + 4 * (r - 1)) for r in range(1, 14)]
        # Playing slot s (pile p, depth j) changes the key's column term by key_step[s].
        self.key_step = [0] * sum(len(cs) for cs in piles)
        s = 0
        for p, cs in enumerate(piles):
            for j in range(len(cs)):
                self.key_step[s] = (self.seq_weight[p][j] - self.seq_weight[p][j + 1]
                                    if p < len(piles) - 1 else -16)
                s += 1

    # ------------------------------------------------------------ play

    def push(self, move: int) -> None:
        if move >= TO_CELL:
            self._push_cell(move)
            return
        height = self.height
        j = height[move] - 1
        height[move] = j
        s = self.base[move] + j
        r = self.slot_rank[s]
        if move != self.stock_pile:
            tops = self.tops
            tops[r].discard(move)
            if j:
                tops[self.slot_rank[s - 1]].add(move)
            else:
                self.bottoms[r] -= 1
            self.col_count[r] -= 1
        self._key += self.key_step[s] + r - self.hole_rank
        self.hole_ranks.append(r)
        self.hole_rank = r
        self.history.append(move)
        self.count[r] -= 1
        self.left -= 1

    def pop(self) -> int:
        move = self.history.pop()
        if move >= TO_CELL:
            self._pop_cell(move)
            return move
        height = self.height
        j = height[move]
        height[move] = j + 1
        s = self.base[move] + j
        ranks = self.hole_ranks
        r = ranks.pop()
        old = ranks[-1]
        self._key += old - r - self.key_step[s]
        self.hole_rank = old
        if move != self.stock_pile:
            tops = self.tops
            if j:
                tops[self.slot_rank[s - 1]].discard(move)
            else:
                self.bottoms[r] += 1
            tops[r].add(move)
            self.col_count[r] += 1
        self.count[r] += 1
        self.left += 1
        return move

    def _push_cell(self, move: int) -> None:
        """A move with a cell: column p's top card into the first empty cell, or cell i's card to the hole."""
        if move >= FROM_CELL:
            i = move - FROM_CELL
            s = self.cell_slot[i]
            r = self.slot_rank[s]
            self.cell_slot[i] = -1
            self.cell_played.append(s)
            self._key += r - self.hole_rank - self.cell_weight[r]
            self.hole_ranks.append(r)
            self.hole_rank = r
            self.count[r] -= 1
            self.left -= 1
        else:
            p = move - TO_CELL
            j = self.height[p] - 1
            self.height[p] = j
            s = self.base[p] + j
            r = self.slot_rank[s]
            self.tops[r].discard(p)
            if j:
                self.tops[self.slot_rank[s - 1]].add(p)
            else:
                self.bottoms[r] -= 1
            self.col_count[r] -= 1
            self.cell_slot[self.cell_slot.index(-1)] = s
            self._key += self.key_step[s] + self.cell_weight[r]
        self.history.append(move)

    def _pop_cell(self, move: int) -> None:
        if move >= FROM_CELL:
            i = move - FROM_CELL
            r = self.hole_ranks.pop()
            old = self.hole_ranks[-1]
            self.hole_rank = old
            self.cell_slot[i] = self.cell_played.pop()
            self._key += old - r + self.cell_weight[r]
            self.count[r] += 1
            self.left += 1
        else:
            p = move - TO_CELL
            j = self.height[p]
            s = self.base[p] + j
            r = self.slot_rank[s]
            self.cell_slot[self.cell_slot.index(s)] = -1
            self.height[p] = j + 1
            if j:
                self.tops[self.slot_rank[s - 1]].discard(p)
            else:
                self.bottoms[r] += 1
            self.tops[r].add(p)
            self.col_count[r] += 1
            self._key -= self.key_step[s] + self.cell_weight[r]

    # ---------------------------------------------------------- queries

    def legal_moves(self) -> list[int]:
        """Column moves first, the card of the rank with most cards left first (so that no rank
        runs out early), then the fuller column; the stock turn last.

        Left out: a card at the bottom of its column (nothing under it) when another card of
        the same rank with cards under it is also on top.  Proof that no win is lost: take a
        win that plays the bottom card Y now and that other card X later; exchange them (X now,
        Y at X's old turn).  The ranks are equal, so every step is still onto a neighbouring
        rank; X is on top now; Y, with nothing under it, is still on top later; the cards under
        X were played after X's old turn, so after its new one.  Each exchange moves a bottom
        card later, so repeating it ends in a win that never plays such a Y.  (With two bottom
        cards of one rank on top the columns are interchangeable; the key merges them.)
        """
        if self.ncells:
            return self._cell_game_moves()
        tops = self.tops
        height = self.height
        moves: list[int] = []
        for r in self.near[self.hole_rank]:
            ps: Collection[int] = tops[r]
            if len(ps) > 1:
                deep = [p for p in ps if height[p] > 1]
                if deep:
                    ps = deep
                else:
                    ps = (min(ps),)  # interchangeable bottom cards: one is enough
            moves.extend(ps)
        if len(moves) > 1:
            count, rank, base = self.count, self.slot_rank, self.base
            moves.sort(key=lambda p: (-count[rank[base[p] + height[p] - 1]], -height[p], p))
        if height[self.stock_pile]:
            moves.append(self.stock_pile)
        return moves

    def _cell_game_moves(self) -> list[int]:
        """With cells: every move, the column cards and cell cards that fit the hole first (the card
        of the rank with most cards left first), the stock turn, then the columns' tops to a cell."""
        tops, height, count, rank, base = self.tops, self.height, self.count, self.slot_rank, self.base
        near = self.near[self.hole_rank]
        moves: list[int] = [p for r in near for p in sorted(tops[r])]
        moves.sort(key=lambda p: (-count[rank[base[p] + height[p] - 1]], -height[p], p))
        moves += [FROM_CELL + i for i, s in enumerate(self.cell_slot) if s >= 0 and rank[s] in near]
        if height[self.stock_pile]:
            moves.append(self.stock_pile)
        if -1 in self.cell_slot:
            moves += [TO_CELL + p for p in range(self.ncols) if height[p]]
        return moves

    def is_won(self) -> bool:
        return self.left == 0

    def is_dead(self) -> str | None:
        """The bound that proves no win is reachable (see the module doc), or None."""
        if not self.height[self.stock_pile]:
            return WALK_DEAD if self.left > 0 and self._walk_dead() else None
        return HEADS_DEAD if self.line_heads and self._heads_dead() else None

    def key(self) -> Hashable:
        return self._key

    def move_json(self, move: int) -> dict[str, Any]:
        if move >= FROM_CELL:
            s = self.cell_slot[move - FROM_CELL]
            return {"card": cards.name(self.slot_card[s]), "from": f"cell:{move - FROM_CELL}", "to": "hole"}
        if move >= TO_CELL:
            p = move - TO_CELL
            s = self.base[p] + self.height[p] - 1
            return {"card": cards.name(self.slot_card[s]), "from": f"tableau:{p}",
                    "to": f"cell:{self.cell_slot.index(-1)}"}
        s = self.base[move] + self.height[move] - 1
        src = "stock" if move == self.stock_pile else f"tableau:{move}"
        return {"card": cards.name(self.slot_card[s]), "from": src, "to": "hole"}

    # -------------------------------------------------- the walk bound

    def _bind_walk(self) -> None:
        """Tables for ``_walk_dead`` over the n ranks (0-based k = rank - 1).

        Edge k joins ranks k and k + 1 (and, on the cycle, edge n - 1 joins the
        top rank and the ace).  For a last rank t, tau[t][k] in {-1, 0, +1} is
        how the end at t shifts edge k's count (see ``_walk_dead``); walk_t0[t] and
        walk_tp[t] are the edges where it is 0 and +1 (the rest are -1).
        """
        n = self.top_rank
        self.walk_n = n
        self.walk_cyclic = self.wrap and n > 2
        # An even cycle leaves the edge counts underdetermined; the bound is then
        # simply not used (declining a bound is always sound).
        self.walk_ok = n >= 2 and not (self.walk_cyclic and n % 2 == 0)
        if not self.walk_ok:
            return
        edges = n if self.walk_cyclic else n - 1
        self.walk_all = (1 << edges) - 1
        self.walk_conn = _connected_table(edges, self.walk_cyclic)
        self.walk_t0: list[int] = []  # edges with tau == 0
        self.walk_tp: list[int] = []  # edges with tau == +1
        self.walk_close: list[int] = []  # on the line: the value the closing sum must have
        for t in range(n):
            t0 = tp = 0
            for k in range(edges):
                if self.walk_cyclic:
                    sign = 1 if (k - t) % n % 2 == 0 else -1
                elif k < t:
                    sign = 0
                else:
                    sign = 1 if (k - t) % 2 == 0 else -1
                if sign == 0:
                    t0 |= 1 << k
                elif sign > 0:
                    tp |= 1 << k
            self.walk_t0.append(t0)
            self.walk_tp.append(tp)
            self.walk_close.append(1 if (n - 1 - t) % 2 == 0 else -1)

    def _walk_dead(self) -> bool:
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
        n = self.walk_n
        c = self.count if self.ncells else self.col_count  # no stock: every card left, cells' too
        h = self.hole_rank - 1
        d = [2 * c[k + 1] for k in range(n)]
        d[h] += 1
        am1 = a0 = a1 = 0  # the edges whose value (S_k or P_k) is -1, 0, 1
        close = None
        if self.walk_cyclic:
            s = d[0]
            sign = -1
            for k in range(n - 1, 0, -1):
                s += sign * d[k]
                sign = -sign
            vals = n
        else:
            s = d[0]
            vals = n - 1
        for k in range(vals):
            if k:
                s = (2 * d[k] if self.walk_cyclic else d[k]) - s
            if s <= 1:
                if s < -1:
                    return True
                if s == -1:
                    am1 |= 1 << k
                elif s == 0:
                    a0 |= 1 << k
                else:
                    a1 |= 1 << k
        if not self.walk_cyclic:
            close = d[n - 1] - s  # the would-be edge past the top rank
        bottoms = self.count if self.ncells else self.bottoms  # with cells any card left may be the last
        t0s, tps, conn, full = self.walk_t0, self.walk_tp, self.walk_conn, self.walk_all
        for t in range(n):
            if not bottoms[t + 1]:
                continue
            if close is not None and close != self.walk_close[t]:
                continue
            t0, tp = t0s[t], tps[t]
            if am1 & (t0 | tp) or a0 & tp:
                continue  # some edge count would be negative
            zero = am1 | (a0 & t0) | (a1 & tp)
            if conn[full & ~zero]:
                return False
        return True

    # ------------------------------------------------ the heads bound

    def _heads_dead(self) -> bool:
        """Some column card can get no predecessor: no win (ranks on a line, stock left).

        Every remaining column card x is played just after some other card: a remaining
        column card of a neighbouring rank, the hole's present top card, or a stock card
        turned just before it.  Each of those is followed by at most one card, so the
        column cards need distinct predecessors of neighbouring ranks among the column
        cards, the stock cards and the hole's top.  On the rank line (no wrap) a card of
        odd rank is preceded by one of even rank and the other way round, so there are
        two independent assignments, each between ranks r and r +- 1; for each, taking
        the spare predecessors of rank r - 1 first (they can serve nothing higher) and
        then those of rank r + 1 decides whether all demands can be met.
        """
        need_of = self.col_count
        cnt = self.count  # predecessors of each rank: column and stock cards ...
        h = self.hole_rank  # ... and the hole's top
        n = self.top_rank
        for first in (1, 2):
            spare = 0 if first == 1 else cnt[1] + (h == 1)
            for r in range(first, n + 1, 2):
                need = need_of[r] - spare
                above = cnt[r + 1] + (h == r + 1) if r < n else 0
                if need > 0:
                    if need > above:
                        return True
                    spare = above - need
                else:
                    spare = above
        return False

    def forced_move(self) -> int | None:
        """The only legal move, when there is exactly one (a move that cannot be avoided).

        With only stock cards left, or no column card fitting the hole, that is the stock
        turn; in a game without stock, a single column card that fits.  Playing it loses
        nothing: every continuation starts with it.
        """
        if self.ncells:
            moves = self._cell_game_moves()
            return moves[0] if len(moves) == 1 else None
        stock = self.height[self.stock_pile]
        fits: set[int] = set()
        for r in self.near[self.hole_rank]:
            ps = self.tops[r]
            if ps:
                if fits or len(ps) > 1 or stock:
                    return None
                fits = ps
        if fits:
            return next(iter(fits))
        return self.stock_pile if stock else None

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.height), tuple(self.hole_ranks), self.hole_rank, tuple(self.history), self.left,
                tuple(self.count), tuple(self.col_count), tuple(self.bottoms),
                tuple(frozenset(t) for t in self.tops), self._key, tuple(self.cell_slot))
