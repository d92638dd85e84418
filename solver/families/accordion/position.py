"""The accordion family (Accordion, Late-binding Solitaire): a row of piles closing up into one.

Rules, as the layout gives them: ``piles`` cards dealt in a row, one per pile, left to right.  A
pile, all its cards at once, may go onto the pile ``k`` places to its left (``"Lk"``; right:
``"Rk"``) for each move the layout lists, counting only the piles still in the row, when the two
top cards match (by suit, by rank, ...: ``rules.py``).  The moved pile leaves the row, which
closes up.  Won when one pile is left.

Representation
--------------
Only the top cards matter for play: the cards under a top card never show again.  So the row is
its top cards, left to right (``tops``), beside the pile each belongs to (``ids``: its number in
the deal, for the contract's moves and the piles' sizes).  A move is ``i * 256 + j``: the pile at
row index ``i`` goes onto the pile at row index ``j``.  ``push`` deletes index ``i`` from both
lists and ``pop`` inserts it back (lists of at most 104 entries, shifted in C); the covered top
card and the moved pile wait on two undo stacks.  Plain typed lists throughout, for a compiled
twin later.

Transposition key: ``bytes(tops)``.  Exact: what may happen next depends only on the top cards
in row order (the moves, their targets and the win read nothing else), so two rows with equal
tops play alike whatever lies under them.

Sound bound (``is_dead``)
-------------------------
* ``MATCH_DEAD``: the top cards fall apart into groups that never meet.  See ``_split``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...errors import DealError
from .rules import CARDS, match_table, offsets

MATCH_DEAD = "match bound: the top cards fall apart into groups that never match"
DEAD_REASONS = (MATCH_DEAD,)

RED = (1, 2)  # the red suits, D and H (``solver.cards``)


class AccordionPosition:
    """A row of piles, mutable, with an undo stack (``history``)."""

    learns = False  # the DFS learns nothing from its lost subtrees (``dfs``, "Learning")

    def __init__(self, layout: Any, deal: dict[str, list[int]]):
        self.fits: list[bool] = match_table(tuple(layout.match))
        self.offsets: list[int] = list(offsets(layout))
        match = set(layout.match)
        self.any_match: bool = "any" in match
        self.by_suit: bool = "suit" in match
        self.by_rank: bool = "rank" in match
        self.by_colour: bool = "alternate" in match
        self.tops: list[int] = []
        self.ids: list[int] = []
        self.bottom: list[int] = []  # each pile's bottom card, by pile number
        self.size: list[int] = []  # each pile's cards, by pile number
        for p in range(layout.piles):
            pile = deal.get(f"pile:{p}", [])
            self.bottom.append(pile[0] if pile else -1)
            self.size.append(len(pile))
            if pile:
                self.tops.append(pile[-1])
                self.ids.append(p)
        if not self.tops:
            raise DealError(f"layout {layout.name!r}: the deal has no cards")
        # the bound's counts: how many top cards each card is, and per suit the ranks showing (bits)
        self.showing: list[int] = [0] * CARDS
        self.suit_ranks: list[int] = [0, 0, 0, 0]
        for c in self.tops:
            self._show(c)
        self.history: list[int] = []
        self.covered: list[int] = []  # the top card each move covered
        self.moved: list[int] = []  # the pile each move moved

    # ------------------------------------------------------------ play

    def _show(self, c: int) -> None:
        self.showing[c] += 1
        self.suit_ranks[c & 3] |= 1 << (c >> 2)

    def _hide(self, c: int) -> None:
        n = self.showing[c] - 1
        self.showing[c] = n
        if n == 0:
            self.suit_ranks[c & 3] &= ~(1 << (c >> 2))

    def push(self, move: int) -> None:
        i, j = move >> 8, move & 255
        tops, ids = self.tops, self.ids
        b = tops[j]
        tops[j] = tops[i]
        src, dst = ids[i], ids[j]
        del tops[i]
        del ids[i]
        self.size[dst] += self.size[src]
        self._hide(b)
        self.covered.append(b)
        self.moved.append(src)
        self.history.append(move)

    def pop(self) -> int:
        move = self.history.pop()
        i, j = move >> 8, move & 255
        tops, ids = self.tops, self.ids
        b = self.covered.pop()
        src = self.moved.pop()
        at = j if j < i else j - 1  # the target's index with pile i out of the row
        a = tops[at]
        tops[at] = b
        tops.insert(i, a)
        ids.insert(i, src)
        self.size[ids[j]] -= self.size[src]
        self._show(b)
        return move

    # ---------------------------------------------------------- queries

    def legal_moves(self) -> list[int]:
        """Every move, the piles from the right end first, the longest step first."""
        tops, fits, steps = self.tops, self.fits, self.offsets
        n = len(tops)
        out: list[int] = []
        for i in range(n - 1, -1, -1):
            a = tops[i] * CARDS
            for d in steps:
                j = i + d
                if 0 <= j < n and fits[a + tops[j]]:
                    out.append(i * 256 + j)
        return out

    def forced_move(self) -> int | None:
        return None

    def is_won(self) -> bool:
        return len(self.tops) == 1

    def is_dead(self) -> str | None:
        return MATCH_DEAD if len(self.tops) > 1 and self._split() else None

    def key(self) -> Hashable:
        return bytes(self.tops)

    def move_json(self, move: int) -> dict[str, Any]:
        """The pile at row index ``i`` onto the one at ``j``, named as the contract names a group:
        by its first (bottom) card, with ``count`` its cards."""
        src, dst = self.ids[move >> 8], self.ids[move & 255]
        out: dict[str, Any] = {"card": cards.name(self.bottom[src]), "from": f"pile:{src}", "to": f"pile:{dst}"}
        if self.size[src] > 1:
            out["count"] = self.size[src]
        return out

    # ---------------------------------------------------------- the bound

    def _split(self) -> bool:
        """The top cards cannot all end in one pile: no win.

        Proof.  Call two cards *linked* when they match (the layout's rule, which is symmetric).
        A move puts a pile topped by ``a`` onto one topped by ``b`` only when ``a`` and ``b`` are
        linked; afterwards ``b`` is covered for good and ``a`` is still a top card.  So no card
        ever becomes a top card again, and each card covered was linked to a card that outlives
        it.  In a win every top card but the last is covered; linking each to the card that
        covered it gives a tree over today's top cards (every link leads to a card covered
        later, or to the last one).  So today's top cards, with their links, must be connected.

        The links are read off per suit: ``suit_ranks[s]`` holds the ranks of suit ``s`` showing.
        With suits and ranks both linking, the top cards are connected exactly when the suits
        showing are, suits being joined when they show a common rank (every card joins its suit
        and its rank).  Alone, suits link only within a suit, ranks only within a rank.  With
        ``alternate``, one red and one black card showing link every card to the other colour's.
        """
        if self.any_match:
            return False
        sr = self.suit_ranks
        red = sr[RED[0]] | sr[RED[1]]
        black = sr[0] | sr[3]
        if self.by_colour and red and black:
            return False
        showing = [m for m in sr if m]
        if self.by_suit and self.by_rank:
            reach = showing[0]
            joined = 1
            grew = True
            while grew and joined < len(showing):
                grew = False
                joined = 1
                for m in showing[1:]:
                    if m & reach:
                        joined += 1
                        if m | reach != reach:
                            reach |= m
                            grew = True
            return joined < len(showing)
        if self.by_suit:
            return len(showing) > 1
        if self.by_rank:
            ranks = red | black
            return ranks & (ranks - 1) != 0
        return True  # no link at all between two or more cards

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.tops), tuple(self.ids), tuple(self.size), tuple(self.showing), tuple(self.suit_ranks),
                tuple(self.history))
