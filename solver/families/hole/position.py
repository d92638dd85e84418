"""The hole family (Black Hole, Golf): every card goes to one pile, one rank up or down.

Rules, as the layout gives them: ``tableau.count`` columns whose top cards may
go to the hole when their rank is next to the rank of the hole's top card (any
suit; with ``hole.wrap`` the highest rank and the ace are next to each other);
with ``stock.turn = "hole"`` the next stock card may be turned onto the hole at
any time, whatever its rank.  Won when every card is on the hole.

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
})

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
        unknown = set(stacks) - {"hole", "stock"} - {f"tableau:{i}" for i in range(ncols)}
        if any(stacks[s] for s in unknown):
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: "
                            + ", ".join(sorted(unknown)))
        top = layout.max_rank
        self.top_rank = top
        self.wrap = bool(hole.wrap)

        # Piles 0..ncols-1 are the columns (bottom first); pile ncols is the stock,
        # stored so that its last element is the next card to turn.
        piles = [list(stacks.get(f"tableau:{i}", [])) for i in range(ncols)] + [stock[::-1]]
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

        self._bind_key(piles)
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
            self.count[r] += 1
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
                     + self.height[ncols] * 16 + self.hole_rank)

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
        no order of the remaining cards is a legal play: dead.
        """
        if not self.walk_ok:
            return False
        n = self.walk_n
        c = self.col_count
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
        bottoms = self.bottoms
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
                tuple(frozenset(t) for t in self.tops), self._key)
