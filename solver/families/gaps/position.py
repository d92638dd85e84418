"""The gaps family (Gaps, Solvitaire's one-deal and basic variants): a grid filled in suit order.

Rules, as the layout gives them: four rows of ``max_rank`` places hold the pack without its aces;
the four empty places are the gaps.  A card may move into a gap when it is one rank above the card
just left of the gap (in suit, of the other colour, or any suit: ``rules.py``); a gap at the left
end of a row takes a two (with ``row_suits``, only the two of that row's suit); a gap after a gap
or after a card of the top rank takes nothing.  Won when each row holds the twos up to the top
rank in order from the left, each card fitting the one before it, with the row's gap at its
right end.  There is no redeal.

Representation
--------------
The grid is one list of places, row by row (``cell``: a card int, or ``GAP``), with ``where[c]``
the place of card ``c`` and ``gaps`` the four empty places.  A move is ``src * 256 + dst``: the card
at place ``src`` into the gap ``dst``; ``pop`` moves it back.  A place is *good* when it is not in
the last column and holds a card that follows what lies left of it (a two at the left end, else a
card fitting its left neighbour); ``good`` counts them, kept up to date by ``push`` and ``pop``
(a move changes at most the places it empties and fills and the two just right of them), and the
game is won when all ``4 * (max_rank - 1)`` places left of the last column are good.  Plain typed
lists throughout, for a compiled twin later.

Transposition key: the grid's bytes, exact.  Without ``row_suits`` the rows are interchangeable
(a move and the win read a row's places and nothing of which row it is), so the key is the rows
sorted: a row permutation of a position plays exactly as it does.

Dominance (``forced_move``, proved there): with ``build = "suit"``, a gap just right of a row
start that can never move again, or (``row_suits``) a row's left end, takes the one card that
fits it without branching when nothing can disturb that move and it disturbs nothing.

Measured and dropped (gaps-basic-variant seeds 2, 3, 4, 6, 7, 9, 10, 12, at most 400,000 nodes
each, in one process, forced moves on): a *frozen* bound (the cards that can never move again,
found as the complement of a closure of the cards that might, must lie where a win has them: a
rank's own column, one suit a row) cut 3% of the nodes and cost 2.4 times the time (46,000 nodes
a second against 113,000; on only the positions with one gap left to fill, 1% and 1.06 times);
and persistent sets built from that closure (the moves into one gap, when no card that might
move could disturb them) cut 4% at the same time: the closure makes nearly every card mobile.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...errors import DealError
from .rules import ROWS, left_end_twos, successors

GAP = 255  # an empty place (a byte, for the key)

DEAD_REASONS: tuple[str, ...] = ()


class GapsPosition:
    """A grid with its gaps, mutable, with an undo stack (``history``)."""

    learns = False  # the DFS learns nothing from its lost subtrees (``dfs``, "Learning")

    def __init__(self, layout: Any, deal: dict[str, list[int]]):
        width = layout.max_rank
        self.width: int = width
        self.build: str = layout.build
        self.fixed: bool = bool(layout.row_suits)
        self.row_suits: list[int] = [cards.SUITS.index(s) for s in layout.row_suits]
        self.succ: tuple[tuple[int, ...], ...] = successors(layout.build, width)
        self.twos: tuple[tuple[int, ...], ...] = left_end_twos("".join(layout.row_suits))
        size = ROWS * width
        self.cell: list[int] = [GAP] * size
        self.where: list[int] = [-1] * 52
        for r in range(ROWS):
            for c in range(width):
                got = deal.get(f"grid:{r}:{c}", [])
                if len(got) > 1:
                    raise DealError(f"layout {layout.name!r}: grid:{r}:{c} holds {len(got)} cards; a place holds one")
                if got:
                    self.cell[r * width + c] = got[0]
                    self.where[got[0]] = r * width + c
        # follows[left * 52 + card]: card may lie just right of left (the rule table, rules.py)
        self.follows: list[bool] = [False] * (52 * 52)
        for c in range(52):
            for x in self.succ[c]:
                self.follows[c * 52 + x] = True
        self.gaps: list[int] = [p for p in range(size) if self.cell[p] == GAP]
        self.left_end: list[int] = [p // width if p % width == 0 else -1 for p in range(size)]  # its row, or -1
        self.goal: int = ROWS * (width - 1)
        self.size: int = size
        self.col: list[int] = [p % width for p in range(size)]
        self.flag: list[int] = [self._good(p) for p in range(size)]  # 1 where the place is good
        self.good: int = sum(self.flag)
        self.history: list[int] = []

    # ------------------------------------------------------------ play

    def _good(self, p: int) -> int:
        """1 if place ``p`` is good (see the module doc), else 0."""
        col = self.col[p]
        card = self.cell[p]
        if card == GAP or col == self.width - 1:
            return 0
        if col == 0:
            return 1 if card >> 2 == 1 else 0  # a two (rank 2 is card >> 2 == 1)
        left = self.cell[p - 1]
        return 1 if left != GAP and self.follows[left * 52 + card] else 0

    def _move(self, src: int, dst: int) -> None:
        """The card at ``src`` into the gap ``dst``; then the goodness of the places it can
        change: those two and the places just right of them in their rows."""
        card = self.cell[src]
        self.cell[dst] = card
        self.cell[src] = GAP
        self.where[card] = dst
        gaps = self.gaps
        gaps[gaps.index(dst)] = src
        flag, col, size = self.flag, self.col, self.size
        change = 0
        for p in (src, dst, src + 1, dst + 1):
            if p < size and (p == src or p == dst or col[p]):
                now = self._good(p)
                change += now - flag[p]
                flag[p] = now
        self.good += change

    def push(self, move: int) -> None:
        self._move(move >> 8, move & 255)
        self.history.append(move)

    def pop(self) -> int:
        move = self.history.pop()
        self._move(move & 255, move >> 8)
        return move

    # ---------------------------------------------------------- queries

    def _fillers(self, g: int) -> tuple[int, ...]:
        """The cards that fit place ``g`` now, were it a gap."""
        if self.left_end[g] >= 0:
            return self.twos[self.left_end[g]]
        left = self.cell[g - 1]
        return () if left == GAP else self.succ[left]

    def legal_moves(self) -> list[int]:
        """Every move: into each gap, the cards that fit it."""
        where = self.where
        return [where[x] * 256 + g for g in self.gaps for x in self._fillers(g)]

    def forced_move(self) -> int | None:
        """A move that nothing can disturb and that disturbs nothing: played without branching.

        With ``build = "suit"`` (each card has one predecessor and one successor, one pack), take
        a gap g and the one card x that fits it, at place q: g is just right of the end of an
        *anchored* row start (a two at the left end and each card after it its predecessor's
        successor) whose two can never move (with ``row_suits``: it is its own row's two; else
        every left end holds a two, so no left end is ever a gap again), or g is a row's left end
        and x that row's two (``row_suits``).  And the place q + 1 cannot take x's successor
        before x leaves: q is in the last column, or q + 1 holds that successor (which can only
        lie right of x), or x has none (the top rank).

        Proof that playing x into g first loses no win.  The anchored start never moves: its
        two cannot, and every other card of it can only lie right of its predecessor, where it
        is.  So g takes only x (the successor of the card left of it, or the row's two), and x
        fits only g: until x moves into g, g stays a gap and x stays at q, so the move stays
        legal.  A win is a position with no legal move (each row's gap lies after its top-rank
        card, and nothing is one rank above it), so every winning line plays this move; and
        every move it plays before it touches none of q, g, the card left of g, and not q + 1
        either (only x's successor may go there while x is at q): the two moves commute, and
        the line with x moved first wins the same.
        """
        if self.build != "suit":
            return None
        width, cell, where = self.width, self.cell, self.where
        top_card = width - 1  # cards of the top rank: card >> 2 == width - 1
        all_twos = -1  # (unfixed rows) every left end holds a two: 1, 0, or -1 not looked at yet
        for g in self.gaps:
            col = self.col[g]
            if col == 0:
                if not self.fixed:
                    continue
                x = self.twos[g // width][0]
            else:
                start = g - col
                if self.fixed:
                    if cell[start] != self.twos[g // width][0]:
                        continue  # the row's two is not at its left end
                else:
                    if all_twos < 0:
                        all_twos = int(all(cell[r * width] != GAP and cell[r * width] >> 2 == 1 for r in range(ROWS)))
                    if not all_twos:
                        continue
                left = cell[g - 1]
                if left == GAP or left >> 2 == top_card:
                    continue
                flag = self.flag
                p = start
                while p < g and flag[p]:
                    p += 1
                if p < g:  # the row start must be anchored: every place before g good
                    continue
                x = self.succ[left][0]
            q = where[x]
            if x >> 2 != top_card and (q + 1) % width:
                after = cell[q + 1]
                if after == GAP or after != self.succ[x][0]:
                    continue
            return q * 256 + g
        return None

    def is_won(self) -> bool:
        return self.good == self.goal

    def is_dead(self) -> str | None:
        return None  # no bound: see "Measured and dropped" in the module doc

    def key(self) -> Hashable:
        if self.fixed:
            return bytes(self.cell)
        w = self.width
        cell = self.cell
        return b"".join(sorted([bytes(cell[0:w]), bytes(cell[w:2 * w]), bytes(cell[2 * w:3 * w]),
                                bytes(cell[3 * w:4 * w])]))

    def move_json(self, move: int) -> dict[str, Any]:
        src, dst = move >> 8, move & 255
        w = self.width
        return {"card": cards.name(self.cell[src]), "from": f"grid:{src // w}:{src % w}",
                "to": f"grid:{dst // w}:{dst % w}"}

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.cell), tuple(self.where), tuple(self.gaps), self.good, tuple(self.history))
