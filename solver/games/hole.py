"""The hole family (Black Hole, Golf): every card goes to one pile, one rank up or down.

Rules, as the layout gives them: ``tableau.count`` columns whose top cards may
go to the hole when their rank is next to the rank of the hole's top card (any
suit; with ``hole.wrap`` the highest rank and the ace are next to each other);
with ``stock.turn = "hole"`` the next stock card may be turned onto the hole at
any time, whatever its rank.  Won when every card is on the hole.

Representation.  Columns never receive cards, so each is a fixed sequence and
its state is its height.  The stock is one more such pile (its top is the next
card to turn), kept after the columns.  Every card place ("slot") has a number;
a move is the number of the pile it comes from.  A position is the pile
heights plus the rank on the hole: that is the transposition key, packed into
one int and updated in place.

Dead-end bound and forced move (the *neighbour counts*).  In a winning
continuation s1, s2, ..., sn of the remaining cards, each card's predecessor is
the card played just before it (the hole's top card for s1), and each card but
sn has a successor.  For a column card X let

* ``pred[X]`` = the remaining cards of a rank next to X's that are not under X
  in X's column (cards under X are played after it).  Only these can be played
  just before X: a card goes to the hole only onto a neighbouring rank, and a
  stock card turned just before X must also be X's neighbour for X to follow.
* ``succ[X]`` = the remaining cards of a rank next to X's that are not above X
  in its column (those are played before X).  Only these can be played onto X.

If ``pred[X] == 0``, X's predecessor is the hole's current top card: X must be
the very next card.  So two such cards mean no win (dead), one such card that
is not playable now means no win (dead), and one that is playable now is the
only move that can still win (the forced move: every other move loses).
If ``succ[X] == 0``, X is either the last card of the game or is followed by a
stock turn.  A card with cards under it in its column cannot be last, and only
one card is last, so: (cards with ``succ == 0`` not at the bottom of their
column) <= stock cards left, and (all cards with ``succ == 0``) <= stock cards
left + 1.  Both counts only fall as cards leave, so they are kept up to date
in push/pop in time proportional to the few cards of neighbouring rank.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .. import cards
from ..errors import DealError, UnsupportedError


class HolePosition:
    """A deal of a hole game, mutable, with an undo stack (``history``)."""

    def __init__(self, layout: Any, deal: dict[str, list[int]]):
        hole = layout.hole
        if hole is None:
            raise UnsupportedError(f"layout {layout.name!r} has no hole")
        ncols = layout.tableau.count
        has_stock = layout.stock.turn == "hole"
        stock = list(deal.get("stock", []))
        if stock and not has_stock:
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'hole'")
        start = deal.get("hole") or []
        if not start:
            raise DealError(f"layout {layout.name!r}: the deal puts no card on the hole")
        unknown = set(deal) - {"hole", "stock"} - {f"tableau:{i}" for i in range(ncols)}
        if unknown:
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: "
                            + ", ".join(sorted(unknown)))

        # Piles 0..ncols-1 are the columns (bottom first); pile ncols is the stock,
        # stored so that its last element is the next card to turn.
        piles = [list(deal.get(f"tableau:{i}", [])) for i in range(ncols)] + [stock[::-1]]
        self.ncols = ncols
        self.stock_pile = ncols if has_stock else -1
        self.slot_card: list[int] = []
        self.slot_rank: list[int] = []
        self.slot_pile: list[int] = []
        self.slot_depth: list[int] = []  # index in the pile, 0 = bottom
        self.base: list[int] = []  # slot number of each pile's bottom card
        for p, cs in enumerate(piles):
            self.base.append(len(self.slot_card))
            for j, c in enumerate(cs):
                self.slot_card.append(c)
                self.slot_rank.append(cards.rank(c))
                self.slot_pile.append(p)
                self.slot_depth.append(j)
        nslots = len(self.slot_card)

        # Ranks next to each rank (a set, so that two ranks with wrap are not counted twice).
        top = layout.max_rank
        self.near: list[frozenset[int]] = [frozenset()]
        for r in range(1, 14):
            ns = {x for x in (r - 1, r + 1) if 1 <= x <= top}
            if hole.wrap and top > 2:
                if r == 1:
                    ns.add(top)
                if r == top:
                    ns.add(1)
            ns.discard(r)
            self.near.append(frozenset(ns))
        # accepts[hole rank][card rank]: may that card go onto that hole rank?
        self.accepts = [[r in self.near[h] for r in range(14)] for h in range(14)]

        # For every slot, the column slots of a neighbouring rank whose counts it feeds.
        col_slots = [s for s in range(nslots) if self.slot_pile[s] < ncols]
        self.feeds: list[tuple[int, ...]] = [
            tuple(x for x in col_slots if x != s and self.slot_rank[x] in self.near[self.slot_rank[s]])
            for s in range(nslots)
        ]

        # The mutable state.
        self.height = [len(cs) for cs in piles]
        self.present = [True] * nslots
        self.hole: list[int] = list(start)  # cards on the hole, bottom first
        self.hole_rank = cards.rank(start[-1])
        self.history: list[int] = []
        self.pred = [0] * nslots
        self.succ = [0] * nslots
        for x in col_slots:
            for s in range(nslots):
                if s == x or self.slot_rank[s] not in self.near[self.slot_rank[x]]:
                    continue
                same = self.slot_pile[s] == self.slot_pile[x]
                if not (same and self.slot_depth[s] < self.slot_depth[x]):
                    self.pred[x] += 1
                if not (same and self.slot_depth[s] > self.slot_depth[x]):
                    self.succ[x] += 1
        self.no_pred = {x for x in col_slots if self.pred[x] == 0}
        self.no_succ = sum(1 for x in col_slots if self.succ[x] == 0)
        self.no_succ_high = sum(1 for x in col_slots if self.succ[x] == 0 and self.slot_depth[x] > 0)
        self.left = nslots

        # Columns by the rank of their top card, for move generation.
        self.tops: list[set[int]] = [set() for _ in range(14)]
        for p in range(ncols):
            if self.height[p]:
                self.tops[self.slot_rank[self.base[p] + self.height[p] - 1]].add(p)

        # The key: pile heights in mixed radix, then the hole rank.
        self.mul: list[int] = []
        m = 1
        for cs in piles:
            self.mul.append(m)
            m *= len(cs) + 1
        self.rank_mul = m
        self._key = sum(h * k for h, k in zip(self.height, self.mul)) + self.hole_rank * m

    # ------------------------------------------------------------ play

    def push(self, move: int) -> None:
        j = self.height[move] - 1
        s = self.base[move] + j
        self.height[move] = j
        r = self.slot_rank[s]
        if move != self.stock_pile:
            tops = self.tops
            tops[r].discard(move)
            if j:
                tops[self.slot_rank[s - 1]].add(move)
        self._key += (r - self.hole_rank) * self.rank_mul - self.mul[move]
        self.hole.append(self.slot_card[s])
        self.hole_rank = r
        self.history.append(move)
        self.present[s] = False
        self.left -= 1
        pred, succ, present = self.pred, self.succ, self.present
        if move != self.stock_pile:
            if pred[s] == 0:
                self.no_pred.discard(s)
            if succ[s] == 0:
                self.no_succ -= 1
                if j:
                    self.no_succ_high -= 1
        pile = self.slot_pile
        for x in self.feeds[s]:
            if present[x]:
                pred[x] -= 1
                if pred[x] == 0:
                    self.no_pred.add(x)
                if pile[x] != move:  # a card above x in its own column never counted as a successor
                    succ[x] -= 1
                    if succ[x] == 0:
                        self.no_succ += 1
                        if self.slot_depth[x]:
                            self.no_succ_high += 1

    def pop(self) -> int:
        move = self.history.pop()
        j = self.height[move]
        s = self.base[move] + j
        self.height[move] = j + 1
        self.hole.pop()
        r = self.slot_rank[s]
        old = cards.rank(self.hole[-1])
        self._key += (old - r) * self.rank_mul + self.mul[move]
        self.hole_rank = old
        if move != self.stock_pile:
            tops = self.tops
            if j:
                tops[self.slot_rank[s - 1]].discard(move)
            tops[r].add(move)
        self.present[s] = True
        self.left += 1
        pred, succ, present = self.pred, self.succ, self.present
        pile = self.slot_pile
        for x in self.feeds[s]:
            if present[x]:
                if pred[x] == 0:
                    self.no_pred.discard(x)
                pred[x] += 1
                if pile[x] != move:
                    if succ[x] == 0:
                        self.no_succ -= 1
                        if self.slot_depth[x]:
                            self.no_succ_high -= 1
                    succ[x] += 1
        if move != self.stock_pile:
            if pred[s] == 0:
                self.no_pred.add(s)
            if succ[s] == 0:
                self.no_succ += 1
                if j:
                    self.no_succ_high += 1
        return move

    # ---------------------------------------------------------- queries

    def legal_moves(self) -> list[int]:
        """Column moves first, the columns holding most cards first; the stock turn last."""
        tops = self.tops
        moves: list[int] = []
        for r in self.near[self.hole_rank]:
            moves.extend(tops[r])
        if len(moves) > 1:
            moves.sort(key=self.height.__getitem__, reverse=True)
        if self.stock_pile >= 0 and self.height[self.stock_pile]:
            moves.append(self.stock_pile)
        return moves

    def forced_move(self) -> int | None:
        """The one card no remaining card can precede, when it is playable now (see the module doc)."""
        if len(self.no_pred) != 1:
            return None
        (x,) = self.no_pred
        p = self.slot_pile[x]
        if self.height[p] - 1 == self.slot_depth[x] and self.accepts[self.hole_rank][self.slot_rank[x]]:
            return p
        return None

    def is_won(self) -> bool:
        return self.left == 0

    def is_dead(self) -> bool:
        """The neighbour-count bounds of the module doc; True only if no win is reachable."""
        no_pred = self.no_pred
        if no_pred:
            if len(no_pred) > 1:
                return True
            (x,) = no_pred
            if not (self.height[self.slot_pile[x]] - 1 == self.slot_depth[x]
                    and self.accepts[self.hole_rank][self.slot_rank[x]]):
                return True
        if self.no_succ:
            turns = self.height[self.stock_pile] if self.stock_pile >= 0 else 0
            if self.no_succ_high > turns or self.no_succ > turns + 1:
                return True
        return False

    def key(self) -> Hashable:
        return self._key

    def move_json(self, move: int) -> dict[str, Any]:
        s = self.base[move] + self.height[move] - 1
        src = "stock" if move == self.stock_pile else f"tableau:{move}"
        return {"card": cards.name(self.slot_card[s]), "from": src, "to": "hole"}

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.height), tuple(self.present), tuple(self.hole), self.hole_rank,
                tuple(self.history), tuple(self.pred), tuple(self.succ), frozenset(self.no_pred),
                self.no_succ, self.no_succ_high, self.left, tuple(frozenset(t) for t in self.tops),
                self._key)
