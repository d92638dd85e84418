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
game is won when all ``4 * (max_rank - 1)`` places left of the last column are good.

One source (``solver/families/README.md``, "One source"): Cython compiles this module in
pure-Python mode where a compiler exists, and the compiled DFS drives the class through the C
interface of ``solver/families/core.pxd`` (its fields C arrays sized by ``MAXP``, the places a
grid holds at most); elsewhere it runs as it stands, under the Python DFS, the same search node
for node.

Transposition key: the grid's bytes, exact.  Without ``row_suits`` the rows are interchangeable
(a move and the win read a row's places and nothing of which row it is), so the key is the rows
in the order of their bytes: a row permutation of a position plays exactly as it does.

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

from typing import Any

from ... import cards
from ...errors import DealError
from .rules import ROWS, left_end_twos, successors

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:
    from cython.cimports.solver.families.core import CorePosition
else:
    from ..core import CorePosition

COMPILED = cython.compiled  # this module was compiled (the compiled DFS can drive it)

GAP = 255  # an empty place (a byte, for the key)
MAXP = 52  # places at most: four rows of thirteen
MAXW = 13  # places a row at most
NSUCC = 4  # cards that may lie right of one card at most (any suit: the four of the next rank)

DEAD_REASONS: tuple[str, ...] = ()


@cython.cclass
class GapsPosition(CorePosition):
    """A grid with its gaps, mutable; a move is ``src * 256 + dst`` (the module text)."""

    DEAD_REASONS = DEAD_REASONS

    # -- the deal and its rules (fixed)
    width = cython.declare(cython.int, visibility="readonly")  # places a row
    size: cython.int  # places
    goal: cython.int  # good places of a win: every place left of the last column
    fixed: cython.bint  # row_suits: each row takes its own suit (rows not interchangeable)
    by_suit: cython.bint  # build = "suit" (forced moves)
    succ_n: cython.int[52]  # per card: how many cards may lie right of it ...
    succ: cython.int[208]  # ... and which: succ[NSUCC * card + k]
    twos_n: cython.int[4]  # per row: how many twos its left end takes ...
    twos: cython.int[16]  # ... and which: twos[NSUCC * row + k]
    follows: cython.uchar[2704]  # follows[left * 52 + card]: card may lie just right of left
    left_end: cython.int[52]  # per place: its row where it is a row's left end, else -1
    col: cython.int[52]  # per place: its column
    # -- the mutable state
    cell: cython.int[52]  # per place: a card, or GAP
    where: cython.int[52]  # per card: its place, or -1
    gaps: cython.int[52]  # the empty places (their order: where each move left its gap)
    ngaps: cython.int
    flag: cython.int[52]  # per place: 1 where it is good
    good: cython.int  # good places

    def __init__(self, layout: Any, deal: dict[str, list[int]]):
        super().__init__()
        width = layout.max_rank
        size = ROWS * width
        if width > MAXW:
            raise DealError(f"layout {layout.name!r}: rows of {width} places; at most {MAXW}")
        self.width, self.size, self.goal = width, size, ROWS * (width - 1)
        self.fixed = bool(layout.row_suits)
        self.by_suit = layout.build == "suit"
        cell = [GAP] * MAXP
        where = [-1] * 52
        for r in range(ROWS):
            for c in range(width):
                got = deal.get(f"grid:{r}:{c}", [])
                if len(got) > 1:
                    raise DealError(f"layout {layout.name!r}: grid:{r}:{c} holds {len(got)} cards; a place holds one")
                if got:
                    cell[r * width + c] = got[0]
                    where[got[0]] = r * width + c
        self.cell, self.where = cell, where
        succ = successors(layout.build, width)
        self.succ_n = [len(succ[c]) for c in range(52)]
        self.succ = [succ[c][k] if k < len(succ[c]) else 0 for c in range(52) for k in range(NSUCC)]
        twos = left_end_twos("".join(layout.row_suits))
        self.twos_n = [len(twos[r]) for r in range(ROWS)]
        self.twos = [twos[r][k] if k < len(twos[r]) else 0 for r in range(ROWS) for k in range(NSUCC)]
        self.follows = [1 if x in succ[c] else 0 for c in range(52) for x in range(52)]
        self.left_end = [p // width if p < size and p % width == 0 else -1 for p in range(MAXP)]
        self.col = [p % width for p in range(MAXP)]
        gaps = [p for p in range(size) if cell[p] == GAP]
        self.ngaps = len(gaps)
        self.gaps = gaps + [0] * (MAXP - len(gaps))
        self.flag = list([0] * MAXP)  # (list(): a Python list, converted once)
        good = 0
        for p in range(size):
            self.flag[p] = self._good(p)
            good += self.flag[p]
        self.good = good

    # ------------------------------------------------------------ play

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _good(self, p: cython.int) -> cython.int:
        """1 if place ``p`` is good (see the module doc), else 0."""
        col: cython.int = self.col[p]
        card: cython.int = self.cell[p]
        left: cython.int
        if card == GAP or col == self.width - 1:
            return 0
        if col == 0:
            return 1 if card >> 2 == 1 else 0  # a two (rank 2 is card >> 2 == 1)
        left = self.cell[p - 1]
        return 1 if left != GAP and self.follows[left * 52 + card] else 0

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _move(self, src: cython.int, dst: cython.int) -> cython.void:
        """The card at ``src`` into the gap ``dst``; then the goodness of the places it can
        change: those two and the places just right of them in their rows."""
        card: cython.int = self.cell[src]
        i: cython.int
        self.cell[dst] = card
        self.cell[src] = GAP
        self.where[card] = dst
        for i in range(self.ngaps):
            if self.gaps[i] == dst:
                self.gaps[i] = src
                break
        self._regood(src)
        self._regood(dst)
        if src + 1 < self.size and self.col[src + 1]:  # the place right of it, in its row
            self._regood(src + 1)
        if dst + 1 < self.size and self.col[dst + 1]:
            self._regood(dst + 1)

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _regood(self, p: cython.int) -> cython.void:
        """Place ``p``'s goodness again, and ``good`` with it."""
        now: cython.int = self._good(p)
        self.good += now - self.flag[p]
        self.flag[p] = now

    @cython.ccall
    @cython.exceptval(-1, check=False)
    def push(self, move: cython.int) -> cython.int:
        """The card at place ``move >> 8`` into the gap ``move & 255``."""
        src: cython.int = move >> 8
        dst: cython.int = move & 255
        if not (0 <= src < self.size and 0 <= dst < self.size) or self.cell[src] == GAP or self.cell[dst] != GAP:
            raise ValueError(f"no card at place {src} to move into a gap at {dst}")
        self._move(src, dst)
        self.record(move)
        return 0

    @cython.ccall
    @cython.exceptval(-1, check=False)
    def pop(self) -> cython.int:
        """The last card moved goes back; returns the move."""
        move: cython.int = self.unrecord()
        self._move(move & 255, move >> 8)
        return move

    # ---------------------------------------------------------- queries

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, out: cython.p_int) -> cython.int:
        """Every move: into each gap (in the order of ``gaps``), the cards that fit it."""
        n: cython.int = 0
        i: cython.int
        k: cython.int
        g: cython.int
        row: cython.int
        left: cython.int
        for i in range(self.ngaps):
            g = self.gaps[i]
            row = self.left_end[g]
            if row >= 0:
                for k in range(self.twos_n[row]):
                    out[n] = self.where[self.twos[NSUCC * row + k]] * 256 + g
                    n += 1
            else:
                left = self.cell[g - 1]
                if left != GAP:
                    for k in range(self.succ_n[left]):
                        out[n] = self.where[self.succ[NSUCC * left + k]] * 256 + g
                        n += 1
        return n

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def forced(self) -> cython.int:
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
        if not self.by_suit:
            return -1
        width: cython.int = self.width
        top_card: cython.int = width - 1  # cards of the top rank: card >> 2 == width - 1
        all_twos: cython.int = -1  # (unfixed rows) every left end holds a two: 1, 0, or -1 not looked at yet
        i: cython.int
        r: cython.int
        g: cython.int
        col: cython.int
        start: cython.int
        left: cython.int
        p: cython.int
        x: cython.int
        q: cython.int
        after: cython.int
        for i in range(self.ngaps):
            g = self.gaps[i]
            col = self.col[g]
            if col == 0:
                if not self.fixed:
                    continue
                x = self.twos[NSUCC * (g // width)]
            else:
                start = g - col
                if self.fixed:
                    if self.cell[start] != self.twos[NSUCC * (g // width)]:
                        continue  # the row's two is not at its left end
                else:
                    if all_twos < 0:
                        all_twos = 1
                        for r in range(ROWS):
                            if self.cell[r * width] == GAP or self.cell[r * width] >> 2 != 1:
                                all_twos = 0
                    if not all_twos:
                        continue
                left = self.cell[g - 1]
                if left == GAP or left >> 2 == top_card:
                    continue
                p = start
                while p < g and self.flag[p]:
                    p += 1
                if p < g:  # the row start must be anchored: every place before g good
                    continue
                x = self.succ[NSUCC * left]
            q = self.where[x]
            if x >> 2 != top_card and (q + 1) % width:
                after = self.cell[q + 1]
                if after == GAP or after != self.succ[NSUCC * x]:
                    continue
            return q * 256 + g
        return -1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def won(self) -> cython.bint:
        return self.good == self.goal

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def dead(self) -> cython.int:
        return 0  # no bound: see "Measured and dropped" in the module doc

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def write_key(self, buf: cython.p_uchar) -> cython.int:
        """The grid's bytes; without ``row_suits`` the rows in the order of their bytes."""
        width: cython.int = self.width
        order: cython.int[4]
        i: cython.int
        j: cython.int
        k: cython.int
        r: cython.int
        c: cython.int
        if not cython.compiled:
            order = [0] * ROWS
        for i in range(ROWS):
            order[i] = i
        if not self.fixed:
            for i in range(1, ROWS):  # insertion sort of the rows by their bytes
                r = order[i]
                j = i
                while j > 0 and self._row_before(r, order[j - 1]):
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = r
        k = 0
        for i in range(ROWS):
            for c in range(width):
                buf[k] = self.cell[order[i] * width + c]
                k += 1
        return k

    @cython.cfunc
    @cython.exceptval(check=False)  # noexcept
    def _row_before(self, a: cython.int, b: cython.int) -> cython.bint:
        """Row a's bytes come strictly before row b's."""
        c: cython.int
        x: cython.int
        y: cython.int
        for c in range(self.width):
            x = self.cell[a * self.width + c]
            y = self.cell[b * self.width + c]
            if x != y:
                return x < y
        return False

    # ---------------------------------------------------------- Python

    def grid(self) -> list[int]:
        """The places, row by row: a card, or ``GAP``."""
        return [self.cell[p] for p in range(self.size)]

    def move_json(self, move: int) -> dict[str, Any]:
        src, dst = move >> 8, move & 255
        w = self.width
        return {"card": cards.name(self.cell[src]), "from": f"grid:{src // w}:{src % w}",
                "to": f"grid:{dst // w}:{dst % w}"}

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.grid()), tuple(self.where[c] for c in range(52)),
                tuple(self.gaps[i] for i in range(self.ngaps)), self.good, tuple(self.history))
