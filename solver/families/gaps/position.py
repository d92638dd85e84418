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

Sound bound (``is_dead``)
-------------------------
* ``FROZEN_DEAD``: a card that can never move again lies where no win has it.  See ``_frozen``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards
from ...errors import DealError
from .rules import ROWS, left_end_twos, successors

GAP = 255  # an empty place (a byte, for the key)

FROZEN_DEAD = "frozen bound: a card that can never move lies where no win has it"
DEAD_REASONS = (FROZEN_DEAD,)


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
        # the cards each card may lie right of (for the bound: a card's way in)
        preds: list[list[int]] = [[] for _ in range(52)]
        for c in range(52):
            for x in self.succ[c]:
                preds[x].append(c)
        self.preds: list[list[int]] = preds
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
        self.good: int = sum(self._good(p) for p in range(size))
        self.history: list[int] = []

    # ------------------------------------------------------------ play

    def _good(self, p: int) -> int:
        """1 if place ``p`` is good (see the module doc), else 0."""
        width = self.width
        col = p % width
        card = self.cell[p]
        if card == GAP or col == width - 1:
            return 0
        if col == 0:
            return 1 if card >> 2 == 1 else 0  # a two (rank 2 is card >> 2 == 1)
        left = self.cell[p - 1]
        return 1 if left != GAP and self.follows[left * 52 + card] else 0

    def _touched(self, src: int, dst: int) -> list[int]:
        """The places whose goodness a move between ``src`` and ``dst`` may change."""
        width = self.width
        out = [src, dst]
        for p in (src + 1, dst + 1):
            if p % width and p not in out:  # the place just right, in the same row
                out.append(p)
        return out

    def _move(self, src: int, dst: int) -> None:
        touched = self._touched(src, dst)
        before = 0
        for p in touched:
            before += self._good(p)
        card = self.cell[src]
        self.cell[dst] = card
        self.cell[src] = GAP
        self.where[card] = dst
        gaps = self.gaps
        gaps[gaps.index(dst)] = src
        after = 0
        for p in touched:
            after += self._good(p)
        self.good += after - before

    def push(self, move: int) -> None:
        self._move(move >> 8, move & 255)
        self.history.append(move)

    def pop(self) -> int:
        move = self.history.pop()
        self._move(move & 255, move >> 8)
        return move

    # ---------------------------------------------------------- queries

    def legal_moves(self) -> list[int]:
        """Every move: into each gap, the cards that fit it."""
        width, cell, where = self.width, self.cell, self.where
        out: list[int] = []
        for g in self.gaps:
            if g % width == 0:
                for two in self.twos[g // width]:
                    out.append(where[two] * 256 + g)
                continue
            left = cell[g - 1]
            if left != GAP:
                for card in self.succ[left]:
                    out.append(where[card] * 256 + g)
        return out

    def forced_move(self) -> int | None:
        return None

    def is_won(self) -> bool:
        return self.good == self.goal

    def is_dead(self) -> str | None:
        return FROZEN_DEAD if self._frozen() else None

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

    # ---------------------------------------------------------- the bound

    def _frozen(self) -> bool:
        """Some card that can never move again lies where no win has it: no win.

        *Mobile* cards: ``mobile`` is the least set of cards closed under three rules.
        (a) The cards that fit a gap now (the twos a left-end gap takes; the cards that fit the
        card left of a gap).  (b) When card y is mobile: the cards that may lie right of y
        (``succ[y]``).  (c) When card y is mobile: the cards that fit y's place now, as if it were
        a gap (the twos, at a left end; else the cards that fit the card now left of it).

        Claim: no card outside ``mobile`` ever moves, in any continuation.  Take the first move
        of such a card x in some continuation, into a place g; every card that moved before it is
        mobile.  If g is at a left end, x is a two that g's row takes, and g is a gap: it was one
        at the start, so (a) made x mobile, or the card y there then has moved, so y is mobile
        and (c) made x mobile.  Else the card p just left of g fits x.  If p moved there, p is
        mobile and (b) made x mobile.  Else p lay there at the start; g was a gap then ((a)
        made x mobile) or held a card that moved since, a mobile one ((c) made x mobile).  Each
        case contradicts x being outside ``mobile``.

        So the other cards, *frozen*, stay where they are for good, and a win must have them
        there.  In a win, a row's column c holds a card of rank c + 2 and its last column a gap;
        with ``build = "suit"`` a row holds one suit, a different one in each row, and with
        ``row_suits`` a two reaches a left end only if it is that row's two.  So it is dead if
        a frozen card lies in a last column or in a column not its rank's; with ``build =
        "suit"``, if two frozen cards of different suits share a row, or two rows hold frozen
        cards of one suit; with ``row_suits`` as well, if a row's frozen cards are of a suit
        whose two is not at the row's left end and may not go there.
        """
        cell, where, succ, left_end = self.cell, self.where, self.succ, self.left_end
        mobile = [False] * 52
        todo: list[int] = []
        for g in self.gaps:  # (a), and (c) for a gap: the cards that fit it
            if left_end[g] >= 0:
                todo += self.twos[left_end[g]]
            elif cell[g - 1] != GAP:
                todo += succ[cell[g - 1]]
        while todo:
            y = todo.pop()
            if mobile[y]:
                continue
            mobile[y] = True
            todo += succ[y]  # (b)
            q = where[y]  # (c)
            if left_end[q] >= 0:
                todo += self.twos[left_end[q]]
            elif cell[q - 1] != GAP:
                todo += succ[cell[q - 1]]
        width = self.width
        by_suit = self.build == "suit"
        row_suit = [-1] * ROWS
        suit_row = [-1, -1, -1, -1]
        for p in range(ROWS * width):
            x = cell[p]
            if x == GAP or mobile[x]:
                continue
            col = p % width
            if col == width - 1 or (x >> 2) + 1 != col + 2:
                return True
            if by_suit:
                r, s = p // width, x & 3
                if row_suit[r] == -1:
                    if suit_row[s] != -1:
                        return True  # suit s is held in place in another row
                    row_suit[r], suit_row[s] = s, r
                elif row_suit[r] != s:
                    return True
        if by_suit and self.fixed:
            for r in range(ROWS):
                s = row_suit[r]
                if s != -1 and cell[r * width] != cards.make(2, s) and self.row_suits[r] != s:
                    return True  # row r must end in suit s, whose two may not go to its left end
        return False

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(self.cell), tuple(self.where), tuple(self.gaps), self.good, tuple(self.history))
