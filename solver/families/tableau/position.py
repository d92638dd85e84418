"""The tableau family (FreeCell, Baker's Game, Eight Off, Seahaven Towers, Forty Thieves, Klondike, ...).

Rules, as the layout gives them: ``tableau.count`` columns built by ``tableau.build``
(alternate colours, same suit, any suit, none) in ``tableau.direction``; an empty column
takes what ``tableau.spaces`` allows; cards move one at a time, as built sequences
(``"sequence"``) or as sequences as long as the free cells and spaces could carry
(``"supermove"``); ``cells.count`` free cells hold one card each; foundations are built up
in suit from the ace (one per suit and row, two rows with two packs), with the aces placed
before the deal when ``foundations.preset`` says so; with
``foundations.removable`` a foundation's top card may come back to a column;
``tableau.face_down`` cards cannot move and turn face up when they come to the top;
``stock.turn = "waste"`` turns ``stock.deal_count`` cards at a time onto a waste pile whose
top card is playable, with ``stock.redeals`` turns of the waste back into the stock.
Canfield's pieces: a foundation base taken from the deal (``base = "deal"``, its rank starts
every foundation, ``foundations.wrap``: the ace follows the king), columns built in the
foundations' rank order or all the way round (``tableau.wrap``), and one reserve pile whose
top card plays to the foundations and columns and, with ``spaces = "reserve-then-any"``,
fills an emptied column at once.

Ranks from the deal: the deal's cards are renamed once, in ``__init__``, so that the base
rank is the ace (rank r becomes r - base + 1, around the pack's ranks); foundations then
build up from the ace as for every other game, and the build rule is compiled into ``fits``
from the real ranks.  Only ``move_json`` names cards, through ``real``.

Representation
--------------
Columns are mutable lists of card ints (bottom first) with a count of face-down cards at
their bottom; cells a list with -1 for empty; foundations their heights.  Stock and waste
are one list ``ring`` in turn order with a pointer ``wp``: ``ring[:wp]`` is the waste (its
top ``ring[wp - 1]``), ``ring[wp:]`` the stock (``ring[wp]`` turns next).  Turning advances
the pointer by the deal count, a redeal sets it to 0, playing the waste top removes
``ring[wp - 1]``.  Everything is changed in place by ``push`` and put back by ``pop``.

Moves: one type, ``Move(src, dst, n)``: n cards from stack ``src`` to stack ``dst``
(stack numbers: columns 0..C-1, cells C.., the waste W, foundations F.., the reserve R after
them).  ``TURN`` and ``REDEAL`` are the stock's moves (the ``STOCK`` pseudo-stack).  Two
fields make a move do more than one thing, and ``push`` plays it as primitive moves in a row
(``history`` holds the primitives; ``pop`` takes back the whole group):

* ``reach = q``: the search never branches on turning.  ``legal_moves`` offers
  ``Move(W, dst, 1, reach=q)``, "turn (and redeal) until ``ring[q - 1]`` is on top, then play
  it".  Turning then doing something else is never needed: moves elsewhere do not depend on
  the pointer, so turns can always wait until a waste card is played, and reaching a waste
  card with fewer redeals leaves at least as many redeals.
* ``then = use``: a lateral move played together with the use of the card it uncovers
  (``_uses_after`` proves that nothing else is needed).

Transposition key: columns are interchangeable (sorted), cells too (sorted), the foundations
are implied by the other stacks (every card not elsewhere is on them), the ring with its
pointer; with unlimited redeals the pointer is folded to the positions from which the same
waste cards are reachable (any pointer with one card at a time; a multiple of the deal count
or the end with several).

Dominance (``forced_move``), proved in ``_safe``; pruned moves are listed in ``legal_moves``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any, NamedTuple

from ... import cards, positions
from ...errors import DealError, UnsupportedError
from ...layout import Reads
from ...positions import Snapshot
from .rules import rules_for

# The rules this position plays; any other rule value is refused (``Reads``).
READS = Reads("the tableau family's DFS position", {
    "decks": None, "foundations.rows": lambda rows: all(base in (0, 1) and d == 1 for base, d in rows),
    "foundations.preset": None, "foundations.removable": None, "foundations.wrap": None,
    "reserve.count": {0, 1}, "reserve.accepts": {"any", "none"}, "reserve.deal": None,
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": None, "tableau.build": None,
    "tableau.direction": None, "tableau.spaces": None, "tableau.moves": None, "tableau.to_foundation": None,
    "tableau.wrap": None, "cells.count": None, "cells.deal": None,
    "stock.turn": {"waste", "none"}, "stock.deal_count": None, "stock.redeals": None,
}, together=(
    (lambda lay: lay.reserve.count == 0 or lay.reserve.accepts == "none",
     "a reserve only as one pile that takes no cards (reserve.accepts = 'none', Canfield's)"),
))


class Move(NamedTuple):
    """A move of the tableau family (see the module text).

    ``n`` is the number of cards (for the stock's own moves, 1 turns and -1 redeals);
    ``reach`` is 0, or for a waste card further in its place q in the ring (``ring[q - 1]``);
    ``then`` is None, or the move that uses the card a lateral move uncovers.
    """

    src: int
    dst: int
    n: int = 1
    reach: int = 0
    then: Move | None = None


STOCK = -1  # the stock's pseudo-stack number: only TURN and REDEAL name it
TURN = Move(STOCK, STOCK, 1)  # turn the stock's next cards onto the waste
REDEAL = Move(STOCK, STOCK, -1)  # turn the waste back into the stock
ANY_SIZE = 104  # a group size no move reaches (two packs): "as long as the sequence is"

# -- Move ordering: each legal move gets a score, highest first (a stable sort keeps the order
# of generation among equal scores).  The scores are heuristics, not proofs: they change the
# order of the search, never its verdict.
HOME = 1000  # a card to its foundation: progress, and it loses little (often nothing, see _safe)
HOME_FLIP = 10  # ... and it turns a face-down card up
WASTE_HOME = 900  # a waste card to its foundation: after the column and cell cards (one further
#                   in scores below UNRANKED, REACH_COST per nearer card, and is ranked by disorder)
UNRANKED = 900  # scores from here up are kept as they are (``_rank_by_disorder``)
CELL_TO_COLUMN = 700  # a cell (or the reserve) card onto a column: frees a cell
COLUMN_TO_COLUMN = 500  # a built group onto another column (plus its size: longer first)
WASTE_TO_COLUMN = 450  # the waste card onto a column: a card out of the stock's cycle
LATERAL_USE = 200  # a lateral move with its use (added after ranking): a shift that pays at once
CELL_TO_SPACE = 120  # a cell card into an empty column: frees a cell, spends a space
WASTE_TO_SPACE = 110  # the waste card into an empty column
COLUMN_TO_SPACE = 100  # a group into an empty column: spends a space
TO_CELL = 0  # a column card to a free cell (then what it leaves behind decides)
WASTE_TO_CELL = -100  # the waste (or reserve) card to a cell: spends a cell to free little
FOUNDATION_TO_COLUMN = -300  # a foundation card back onto a column: undoes progress
FOUNDATION_TO_SPACE = -350  # ... into an empty column: also spends a space
DEPTH_TO_NEEDED = 10  # per card above a column's first card the foundations take: to-cell moves
NO_NEEDED_CARD = 20  # the depth of a column without such a card
REACH_COST = 1  # per waste card nearer than the one a move plays: the nearest first


class Leave(NamedTuple):
    """What a move from a column scores for what it leaves behind (the first that holds)."""

    flips: int  # a face-down card comes to the top
    empties: int  # the column is left empty
    uncovers: int  # the card left on top is one the foundations take next
    breaks: int  # the moving card was built on the card left on top (a built sequence broken)


LEAVE_BY_GROUP = Leave(flips=300, empties=150, uncovers=200, breaks=-150)  # to a column or a space
LEAVE_BY_CELL = Leave(flips=300, empties=50, uncovers=150, breaks=-200)  # one card to a cell


class Destinations(NamedTuple):
    """A single card's scores by destination (None: that source never goes there)."""

    home: int | None
    column: int
    space: int
    cell: int | None


FROM_CELL = Destinations(home=HOME, column=CELL_TO_COLUMN, space=CELL_TO_SPACE, cell=None)  # cells are alike
FROM_RESERVE = Destinations(home=HOME, column=CELL_TO_COLUMN, space=CELL_TO_SPACE, cell=WASTE_TO_CELL)
FROM_WASTE = Destinations(home=WASTE_HOME, column=WASTE_TO_COLUMN, space=WASTE_TO_SPACE, cell=WASTE_TO_CELL)
FROM_FOUNDATION = Destinations(home=None, column=FOUNDATION_TO_COLUMN, space=FOUNDATION_TO_SPACE, cell=None)

# -- Disorder (``_rank_by_disorder``): the weights of its terms, and how much one unit of
# disorder weighs against the scores above.
OUT_OF_ORDER_W = 3  # per column card with a lower rank somewhere under it
CELL_W = 2  # per occupied cell
SPACE_W = 3  # per empty column, when spaces take any card (counted negative: spaces are good)
NEED_W = 1  # per card of a group times the cards the foundations need next in its column
FLIP_W = 6  # a face-down card turned up (counted negative)
DIS_W = 1000  # a unit of disorder outweighs most score differences: the disorder decides first

NCARD = 52  # card values (two packs share them)

# What ``is_dead`` names (the compiled position reports it by number).
BLOCKED_DEAD = ("blocked: a card can never reach its foundation (every way out for it, or for a card above it, "
                "waits on itself)")
DEAD_REASONS = (BLOCKED_DEAD,)

_DOWN_BYTES = [bytes((200 + d,)) for d in range(56)]  # a column's face-down count, first in its key


class _Here(NamedTuple):
    """What the move generators share at one position (computed once per ``legal_moves``)."""

    need: dict[int, bool]  # the cards the foundations take next
    accept: dict[int, list[int]]  # card -> the columns whose top card it fits on
    seqs: list[int]  # per column: the built sequence on top
    first_empty: int  # the first empty column, or -1
    free_cell: int  # the first free cell's stack number, or -1
    max_nonempty: int  # the largest group that may move onto a card
    max_empty: int  # the largest group that may move into the first empty column (0: none)


class TableauPosition:
    """A deal of a tableau game, mutable, with an undo stack."""

    learns = False  # the DFS learns nothing from its lost subtrees (``dfs``, "Learning")

    def __init__(self, layout: Any, deal: dict[str, list[int]] | Snapshot):
        """The position at ``deal``: a deal (the position at move 0) or a ``Snapshot`` part-way
        through a game (cards on the waste, the foundations and the cells, face-down cards turned
        up, redeals spent)."""
        READS.check(layout)
        t, st, fo, res = layout.tableau, layout.stock, layout.foundations, layout.reserve
        self.name = layout.name
        self.top = layout.max_rank
        nc, ncell = t.count, layout.cells.count
        self.nc, self.ncell = nc, ncell
        self.W = nc + ncell
        self.F = self.W + 1
        self.nf = layout.foundations.count
        self.decks = layout.decks
        at = positions.of(layout, deal)
        known = {f"tableau:{i}" for i in range(nc)} | {f"cell:{i}" for i in range(ncell)} | {"stock", "waste"}
        known |= {f"foundation:{f}" for f in range(self.nf)}
        if res.count:
            known.add("reserve:0")
        extra = [s for s in at.stacks if at.stacks[s] and s not in known]
        if extra:
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: {', '.join(sorted(extra))}")
        if (at.stacks.get("stock") or at.stacks.get("waste")) and st.turn != "waste":
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'waste'")

        # Ranks from the deal: rename cards so that the base rank is the ace (see the module text).
        # The dealt base lies on its foundation; every foundation starts at its rank.
        based = [cs[0] for f in range(self.nf) if (cs := at.stacks.get(f"foundation:{f}"))] if fo.base_from_deal else []
        rules = self.rules = rules_for(layout, cards.rank(based[0]) - 1 if based else 0)
        self.real = rules.real  # a renamed card's real card
        stacks = {k: [rules.rel[c] for c in v] for k, v in at.stacks.items()}
        self.cols: list[list[int]] = [list(stacks.get(f"tableau:{i}", [])) for i in range(nc)]
        self.down: list[int] = [at.face_down.get(f"tableau:{i}", 0) for i in range(nc)]
        self.cells: list[int] = [stacks[f"cell:{i}"][0] if stacks.get(f"cell:{i}") else -1 for i in range(ncell)]
        self.fh: list[int] = [len(stacks.get(f"foundation:{f}", [])) for f in range(self.nf)]  # renamed: from the ace
        self.R = self.F + self.nf
        self.heel: list[int] = list(stacks.get("reserve:0", []))  # the reserve pile, top card last
        self.has_heel = bool(res.count)
        self.autofill = t.spaces == "reserve-then-any"
        waste = stacks.get("waste", [])
        self.ring: list[int] = waste + stacks.get("stock", [])
        self.wp = len(waste)
        self.k = st.deal_count
        self.unlimited = st.redeals < 0
        self.redeals: int | None = (None if self.unlimited else  # left; None: no limit
                                    at.redeals_left if at.redeals_left is not None else st.redeals)
        # the key's form follows the layout, not the position: one position, one key, however reached
        self.has_face_down = any(self.down) or any(t.face_down)
        self.left = (sum(map(len, self.cols)) + sum(c >= 0 for c in self.cells) + len(self.ring)
                     + len(self.heel))
        if self.autofill:
            for col in self.cols:
                if not col and self.heel:
                    col.append(self.heel.pop())

        # The rule table (``rules.py``), and the layout's policies.
        self.moves_policy = t.moves
        self.spaces = t.spaces
        self.to_foundation = t.to_foundation
        self.removable = fo.removable
        self.fits = rules.fits  # fits[a][b]: card b may go on card a in a column (renamed cards)
        self.space_ok = rules.space_ok
        self.under = rules.under  # the cards that may go on card c (any copy): for the safe rule
        self.always_safe = rules.always_safe  # see _safe
        self.removable_need = rules.removable_need  # see _safe
        self.over = rules.over  # see _blocked
        # The blocked bound (``_blocked``): where cards go home from columns and there are no cells.
        self.blocked_bound = t.to_foundation and ncell == 0
        self.suit_found = [[f for f in range(self.nf) if f % 4 == s] for s in range(4)]
        # Waste autoplay is safe only when removing the waste top changes no later turn.
        self.waste_safe = self.k == 1 or self.redeals == 0
        # Lateral moves only together with a use of the card they uncover (see _uses_after).
        self.lateral_only_with_use = t.moves == "sequence" and ncell == 0
        # Groups of any size may go into a space (no cells to shortcut through).
        self.any_size_to_space = t.moves == "sequence"

        self.history: list[Move] = []  # the primitive moves played, oldest first
        self._undo: list[int] = []  # per primitive: what pop needs
        self._groups: list[int] = []  # primitives per push

    # ----------------------------------------------------------- helpers

    def _found_for(self, c: int) -> int:
        """The foundation that takes card c now, or -1."""
        r = (c >> 2)  # rank - 1
        for f in self.suit_found[c & 3]:
            if self.fh[f] == r:
                return f
        return -1

    def _seq_len(self, i: int) -> int:
        """Cards at the top of column i that form a built sequence (all face up)."""
        col = self.cols[i]
        h = len(col)
        if not h:
            return 0
        j = h - 1
        lo = self.down[i]
        fits = self.fits
        while j > lo and fits[col[j - 1]][col[j]]:
            j -= 1
        return h - j

    def _max_move(self, to_empty: bool) -> int:
        """The most cards one move may carry onto a card (or, ``to_empty``, into a space)."""
        p = self.moves_policy
        if p == "single":
            return 1
        if p == "sequence":
            return ANY_SIZE
        free = self.cells.count(-1)
        empties = sum(1 for c in self.cols if not c) if self.spaces == "any" else 0
        if to_empty and empties:
            empties -= 1
        return (free + 1) << empties

    def _safe(self, c: int) -> bool:
        """Card c may go to its foundation now without losing a win (it is its foundation's next card).

        Proof.  Let P be this position and P' the same with c on its foundation.  Take any
        win from P and leave out every move of c (c only ever moves to cells, onto columns
        and finally to its foundation, which P' has done).  The rest stays legal from P':
        stacks other than c's place look the same, c's place is freer (an emptier column,
        a free cell, more room for a sequence), and a built sequence that carried c on top
        moves without it.  The one thing P' loses is a place to put a card on c: a card
        that c takes by the build rule.  So c is safe when no such card can ever be
        placed on it:
        * aces and twos always (only an ace goes on a two, and an ace can always go to
          an empty foundation of its suit instead);
        * otherwise every card c takes (alternate colours: the two opposite-colour cards of
          rank - 1; same suit: c's suit at rank - 1, both copies with two packs; any suit:
          all of them) is already on a foundation, and foundations never give cards back.
        With removable foundations a card b that c takes could come back from its
        foundation to go on c (and a card that b takes could come back to go on b, and so
        on), so the rule above is not enough (``test_removable_foundations_break_the_other_
        colour_rule`` is a deal it loses).  There c is safe when every card of a set X is
        home, X the smallest set holding c, every card that may go on a card of X, and every
        lower card of the suit of a card of X (``rules.removable_need`` gives, per suit, the
        height that takes).  Proof: take any win from P and leave out every move of a card
        of X (all of them are home in P', and stay there; none is in the stock).  In the
        win a card of X only ever has cards of X on it (what goes on a card of X is in X,
        and at P every card of X but c is home and c is on top of its stack), so
        leaving them out takes cards off the tops of stacks only: a group moves without
        its top cards of X, onto the same card (its lowest card is not in X, or the whole
        group is left out), a column without them is emptier, a card lies under one of X
        only if it lay under c at P (then P' turned it up already).  A foundation of suit s
        holds in P' the cards it holds in the win or those up to ``removable_need``,
        whichever are more (X holds every card of s up to it, and a card of s above it goes
        home or comes back in the win only when the foundation already holds them all), so
        each move to or from a foundation that is left stays legal.  With alternate colours
        this reads: the opposite-colour foundations at rank - 1 and the other foundation of
        c's colour at rank - 2.  (Not with a reserve that fills spaces at once: a column that
        the win leaves holding cards of X only is empty in P' and would be filled.  No such
        layout has removable foundations; there only aces and twos go home by themselves.)

        Where columns wrap (``tableau.wrap = "cyclic"``) an ace may take a king, and the
        first rule is read from the build table (``always_safe``): a foundation's first card
        is safe when nothing may be placed on it, its second card when only first cards that
        themselves take nothing may be (such a card, instead of going on c, goes to its own
        foundation, where it is the next card, and nothing it could have carried is lost).
        Without wrapping this is "aces and twos"; ranks are those after the renaming that makes
        a dealt base the ace.

        A reserve that fills spaces at once (``spaces = "reserve-then-any"``) adds one thing
        the argument must keep: the same columns empty at the same moves, so that the same
        reserve card fills each.  Leaving out c's moves changes that only if c is the reserve's
        top card, or c is a column's only card (then P' has a column emptied, and filled, that P
        has not), or c alone later leaves a column it is the only card of; while the reserve
        has cards no column is ever empty, so c can come alone to a column only onto a card,
        which stays behind.  So ``forced_move`` plays c automatically only from elsewhere, or
        once the reserve is empty (then nothing is filled and the argument above holds).
        """
        if self.always_safe[c]:
            return True
        fh = self.fh
        if self.removable:
            if self.autofill:
                return False
            heights = self.removable_need[c]
            return all(fh[f] >= heights[f & 3] for f in range(self.nf))
        for b in self.under[c]:
            need = (b >> 2) + 1  # b must be on every foundation of its suit with this many copies
            for f in self.suit_found[b & 3]:
                if fh[f] < need:
                    return False
        return True

    # ---------------------------------------------------------- playing

    def push(self, move: Move) -> None:
        """Play ``move`` as primitive moves (see the module text); ``pop`` takes them all back."""
        src, dst, n, reach, then = move
        if then is None and not reach:  # a primitive move
            self._prim(move)
            self._groups.append(1)
            return
        count = self._play(move)
        if then is not None:  # a lateral move and the use of the card it uncovers
            count += self._play(then)
        self._groups.append(count)

    def _play(self, move: Move) -> int:
        """Play ``move`` (not its ``then``) as primitive moves; how many."""
        if not move.reach:
            self._prim(Move(move.src, move.dst, move.n))
            return 1
        # a waste card further in: turn (and redeal) first
        q = move.reach
        n = 0
        L = len(self.ring)
        if not (q >= self.wp and ((q - self.wp) % self.k == 0 or q == L)):
            while self.wp < L:
                self._prim(TURN)
                n += 1
            self._prim(REDEAL)
            n += 1
        while self.wp < q:
            self._prim(TURN)
            n += 1
        if self.wp != q:
            raise ValueError(f"waste card {q} is not reachable")
        self._prim(Move(move.src, move.dst, move.n))
        return n + 1

    def _prim(self, move: Move) -> None:
        """Play one primitive move and note what ``_unprim`` needs."""
        self.history.append(move)
        src, dst, n, _, _ = move
        if src == STOCK:
            self._undo.append(self.wp)
            if n > 0:  # TURN
                self.wp = min(len(self.ring), self.wp + self.k)
            else:  # REDEAL
                self.wp = 0
                if self.redeals is not None:
                    self.redeals -= 1
            return
        nc, W, F = self.nc, self.W, self.F
        flipped = 0  # 1: a card turned face up; 2: the reserve filled the space
        # take
        if src < nc:
            col = self.cols[src]
            moving = col[-n:]
            del col[-n:]
            if self.down[src] and len(col) == self.down[src]:
                self.down[src] -= 1
                flipped = 1
            elif not col and self.autofill and self.heel:
                col.append(self.heel.pop())  # the reserve fills the space at once
                flipped = 2
        elif src < W:
            moving = [self.cells[src - nc]]
            self.cells[src - nc] = -1
        elif src == W:
            self.wp -= 1
            moving = [self.ring.pop(self.wp)]
        elif src == self.R:
            moving = [self.heel.pop()]
        else:
            f = src - F
            moving = [cards.make(self.fh[f], f & 3)]
            self.fh[f] -= 1
            self.left += 1
        # put
        if dst < nc:
            self.cols[dst].extend(moving)
        elif dst < W:
            self.cells[dst - nc] = moving[0]
        else:
            self.fh[dst - F] += 1
            self.left -= 1
        self._undo.append(flipped)

    def pop(self) -> Move:
        """Take back the last ``push`` (all its primitive moves); returns the last primitive."""
        n = self._groups.pop()
        last = self._unprim()
        for _ in range(n - 1):
            last = self._unprim()
        return last

    def _unprim(self) -> Move:
        move = self.history.pop()
        u = self._undo.pop()
        src, dst, n, _, _ = move
        if src == STOCK:
            self.wp = u
            if n < 0 and self.redeals is not None:  # REDEAL
                self.redeals += 1
            return move
        nc, W, F = self.nc, self.W, self.F
        if dst < nc:
            col = self.cols[dst]
            moving = col[-n:]
            del col[-n:]
        elif dst < W:
            moving = [self.cells[dst - nc]]
            self.cells[dst - nc] = -1
        else:
            f = dst - F
            moving = [cards.make(self.fh[f], f & 3)]
            self.fh[f] -= 1
            self.left += 1
        if src < nc:
            if u == 2:
                self.heel.append(self.cols[src].pop())
            elif u:
                self.down[src] += 1
            self.cols[src].extend(moving)
        elif src < W:
            self.cells[src - nc] = moving[0]
        elif src == W:
            self.ring.insert(self.wp, moving[0])
            self.wp += 1
        elif src == self.R:
            self.heel.append(moving[0])
        else:
            self.fh[src - F] += 1
            self.left -= 1
        return move

    # ---------------------------------------------------------- queries

    def is_won(self) -> bool:
        return self.left == 0

    def is_dead(self) -> str | None:
        """``BLOCKED_DEAD`` when some card can never reach its foundation (``_blocked``)."""
        return BLOCKED_DEAD if self.blocked_bound and self._blocked() else None

    def _blocked(self) -> bool:
        """Whether some card not yet home can never go home, whatever is played: a sound bound.

        A generous account of what can ever happen from here, as a least fixpoint.  Cards
        are counted by their places (two copies of a card are two places).  For each card x
        not home, three things may or may not ever happen: x is *freed* (nothing lies on it:
        the card on it now leaves), x *leaves* (it moves from the card or stack under it now,
        alone or carrying the cards on it), x *goes home*.  Per card value: it *can be a top*
        (some copy lies on top of a column at some time) and it *is home* (some copy is,
        or goes there).  And *a space* (some column is empty at some time).  Start from what
        is true now (column tops, the stock and waste, the cells and the reserve's top are
        free; cards on the foundations are home; empty columns) and apply until nothing
        changes:

        * x is freed if the card on x leaves (in the reserve, the card above it);
        * a freed column card can be a top (a freed card of the stock, a cell or the reserve
          can be a top once it leaves: it goes alone, onto a column);
        * x goes home if it is freed and the card of its suit below it is home (or x is an ace);
        * x leaves if it can move: it is freed, or (groups of several cards moving) it is
          face up with the card on it built on it; and it has somewhere to go: home, a card
          it may go on that can be a top, or a space if a space takes it;
        * a column's bottom card leaving makes a space;
        * with ``removable`` foundations, a card that is home can be a top if it has
          somewhere to go (a card it may go on that can be a top, or a space).

        Every rule only adds what is true, so the order does not matter.  Proof that it
        is generous enough: take any play from here and its events (a card freed, leaving,
        going home, a card value on top of a column, a column empty) in the order they
        first happen.  Each event's conditions are events that happened before it, and
        each rule above lists every way it can happen: the card on x is the first of the
        cards above x to go (the others go with it or before), so x is freed exactly when
        that card leaves; x moves only when nothing it cannot carry lies on it (for a
        group, the card on x must be built on x at that time: the one that is on it now,
        or, when that one has gone, x is freed); a card goes home only from the top of a
        stack, onto its suit's card below it; a card goes onto a column only onto a top
        or into a space; a column empties only when its bottom card leaves.  The stock is
        taken as all free (more than the rules allow, which is generous).  By induction
        each event of the play is reached by the fixpoint, so in a win every card goes
        home in it.  A card that does not is thus a proof that the deal is lost.

        Klondike's typical dead end: a queen on a king whose other king of that colour is
        face down under the other queen of that colour, and a card below that king is the
        start of a suit the first queen needs: neither queen can leave, so the cards under
        them are never freed.  Only with ``tableau.to_foundation`` and no cells (a card could
        always leave to a cell: the bound would never fire, and it costs time).
        """
        fits, over, space_ok, seq = self.fits, self.over, self.space_ok, self.moves_policy != "single"
        # places, in order: columns bottom to top, the stock and waste, the reserve bottom to top;
        # above[x]: the place on it (-1: none); stacked[x]: in a column or the reserve
        card: list[int] = []
        above: list[int] = []
        face_down: list[bool] = []
        bottom: list[bool] = []
        in_column: list[bool] = []
        for i, col in enumerate(self.cols):
            for j, c in enumerate(col):
                card.append(c)
                above.append(len(card) if j + 1 < len(col) else -1)
                face_down.append(j < self.down[i])
                bottom.append(j == 0)
                in_column.append(True)
        for pile, stacked in ((self.ring, False), (self.heel, True)):
            for j, c in enumerate(pile):
                card.append(c)
                above.append(len(card) if stacked and j + 1 < len(pile) else -1)
                face_down.append(False)
                bottom.append(False)
                in_column.append(False)
        n = len(card)
        home = [False] * NCARD  # per card value: some copy is, or goes, home
        for f in range(self.nf):
            for r in range(self.fh[f]):
                home[r * 4 + (f & 3)] = True
        can_top = [False] * NCARD
        space = any(not col for col in self.cols)
        freed = [above[x] < 0 for x in range(n)]
        leaves = [False] * n
        goes_home = [False] * n
        changed = True
        while changed:
            changed = False
            if self.removable:
                for c in range(NCARD):
                    if home[c] and not can_top[c] and (space and space_ok[c] or any(can_top[a] for a in over[c])):
                        can_top[c] = changed = True
            for x in range(n):
                c, a = card[x], above[x]
                if not freed[x] and leaves[a]:  # (here a >= 0: a card with nothing on it starts freed)
                    freed[x] = changed = True
                if freed[x] and in_column[x] and not can_top[c]:
                    can_top[c] = changed = True
                if not goes_home[x] and freed[x] and (c < 4 or home[c - 4]):
                    goes_home[x] = home[c] = changed = True
                if not leaves[x] and (freed[x] or (in_column[x] and seq and not face_down[x] and a >= 0
                                                   and fits[c][card[a]])):
                    if (goes_home[x] or space and space_ok[c] or any(can_top[p] for p in over[c])):
                        leaves[x] = changed = True
                        if not in_column[x]:
                            can_top[c] = True
                        if bottom[x]:
                            space = True
        return not all(goes_home)

    def key(self) -> Hashable:
        if self.has_face_down:
            kd = _DOWN_BYTES
            cols = sorted([kd[d] + bytes(c) for d, c in zip(self.down, self.cols)])
        else:
            cols = sorted(map(bytes, self.cols))
        parts = b"\xff".join(cols)
        if self.ncell:
            parts += b"\xfe" + bytes(sorted(c & 255 for c in self.cells))
        if self.has_heel:
            parts += b"\xfc" + bytes((len(self.heel),))
        if self.ring or self.wp:
            wp = self.wp
            if self.unlimited:
                if self.k == 1 or wp % self.k == 0 or wp == len(self.ring):
                    wp = 0
            redeals = 255 if self.redeals is None else min(self.redeals, 255)
            parts += b"\xfd" + bytes(self.ring) + bytes((wp & 255, wp >> 8, redeals))
        return parts

    def _waste_reach(self) -> list[int]:
        """Waste positions q (ring[q - 1] playable after turning), nearest first."""
        L, wp, k = len(self.ring), self.wp, self.k
        out = []
        if wp:
            out.append(wp)
        q = wp
        while q < L:
            q = min(L, q + k)
            out.append(q)
        if (self.redeals is None or self.redeals > 0) and L:
            seen = set(out)
            q = 0
            while q < L:
                q = min(L, q + k)
                if q not in seen:
                    out.append(q)
        return out

    def forced_move(self) -> Move | None:
        """A foundation move that ``_safe`` proves loses nothing: column tops, cells, the waste top."""
        fh = self.fh
        suit_found = self.suit_found
        safe = self._safe
        nc = self.nc
        filling = self.autofill and bool(self.heel)  # see _safe: no forced move may empty a column
        if self.to_foundation:
            for i, col in enumerate(self.cols):
                if col and not (filling and len(col) == 1):
                    c = col[-1]
                    r = c >> 2
                    for f in suit_found[c & 3]:
                        if fh[f] == r:
                            if safe(c):
                                return Move(i, self.F + f)
                            break
        for j, c in enumerate(self.cells):
            if c >= 0:
                r = c >> 2
                for f in suit_found[c & 3]:
                    if fh[f] == r:
                        if safe(c):
                            return Move(nc + j, self.F + f)
                        break
        if self.wp and self.waste_safe:
            c = self.ring[self.wp - 1]
            f = self._found_for(c)
            if f >= 0 and safe(c):
                return Move(self.W, self.F + f)
        if self.heel and not self.autofill:
            c = self.heel[-1]
            f = self._found_for(c)
            if f >= 0 and safe(c):
                return Move(self.R, self.F + f)
        return None

    def legal_moves(self) -> list[Move]:
        """Every useful legal move, best first.

        Left out (each loses no win):
        * a column's whole content (every card of it moving) into an empty column: the same
          position with the columns renamed;
        * cell to cell, and to any but the first empty cell or the first empty column: the
          key treats cells, and columns, as interchangeable;
        * sequences of several cards moving into an empty column when a shorter or longer
          one could: only the longest movable one (single cards are always offered, and a
          sequence move is only a shortcut for single moves through cells and spaces);
        * a foundation's ace or two coming back (an ace takes nothing; a two only an ace,
          which can always go to its foundation instead);
        * with groups of any size and no cells, a lateral move (a group leaving a card it is
          built on, turning nothing up) on its own: it comes only joined to a use of the card
          it uncovers (``_uses_after``).
        Order: by score (the constants at the top of the module), each lowered by the
        disorder the move leaves (``_rank_by_disorder``; when there are several plain moves),
        lateral moves with their use after the plain moves of equal score; among equal
        scores, the order of the generators (columns, cells, waste, reserve, foundations).
        """
        here = self._here()
        scored: list[tuple[int, Move]] = []
        joined: list[tuple[int, Move]] = []  # lateral moves with their use
        for sources in (self._from_columns(here), self._from_cells(here), self._from_waste(here),
                        self._from_reserve(here), self._from_foundations(here)):
            for score, mv in sources:
                (scored if mv.then is None else joined).append((score, mv))
        if len(scored) > 1:
            scored = self._rank_by_disorder(scored, here.need)
        if joined:
            scored += [(score + LATERAL_USE, mv) for score, mv in self._rank_by_disorder(joined, here.need)]
        scored.sort(key=lambda sm: -sm[0])
        return [m for _, m in scored]

    def _here(self) -> _Here:
        """What every generator needs to know about this position."""
        cols, nc = self.cols, self.nc
        accept: dict[int, list[int]] = {}
        for t in range(nc):
            if cols[t]:
                for b in self.under[cols[t][-1]]:
                    if b in accept:
                        accept[b].append(t)
                    else:
                        accept[b] = [t]
        first_empty = next((i for i in range(nc) if not cols[i]), -1)
        free_cell = next((nc + j for j, c in enumerate(self.cells) if c < 0), -1)
        return _Here(self._next_needed(), accept, [self._seq_len(i) for i in range(nc)], first_empty, free_cell,
                     self._max_move(False), self._max_move(True) if first_empty >= 0 else 0)

    def _from_columns(self, here: _Here) -> Iterator[tuple[int, Move]]:
        """Per column: its top card home, its groups onto columns and into a space, its top to a cell."""
        for i, col in enumerate(self.cols):
            if not col:
                continue
            if self.to_foundation:
                f = self._found_for(col[-1])
                if f >= 0:
                    d = self.down[i]
                    yield HOME + (HOME_FLIP if d and len(col) - 1 == d else 0), Move(i, self.F + f)
            yield from self._groups_from(i, here)
            if here.free_cell >= 0:
                score = (TO_CELL + self._leave_score(i, 1, here.need, LEAVE_BY_CELL)
                         - DEPTH_TO_NEEDED * self._depth_to_needed(i, here.need))
                yield score, Move(i, here.free_cell)

    def _groups_from(self, i: int, here: _Here) -> Iterator[tuple[int, Move]]:
        """The built groups on top of column i (shortest first) onto other columns and into a space."""
        col, d, fits = self.cols[i], self.down[i], self.fits
        h, seq = len(col), here.seqs[i]
        for n in range(1, min(seq, max(here.max_nonempty, here.max_empty)) + 1):
            b = col[h - n]  # the group's lowest card
            onto = [j for j in here.accept.get(b, ()) if j != i] if n <= here.max_nonempty else []
            to_space = (here.first_empty >= 0 and n < h and self.space_ok[b] and n <= here.max_empty
                        and (n == 1 or n == min(seq, here.max_empty) or self.any_size_to_space))
            if not onto and not to_space:
                continue
            base = self._leave_score(i, n, here.need, LEAVE_BY_GROUP) + n
            lateral = self.lateral_only_with_use and h - n > d and fits[col[h - n - 1]][b]
            for j in onto:
                if lateral:
                    for use in self._uses_after(Move(i, j, n), here.seqs):
                        yield COLUMN_TO_COLUMN + base, Move(i, j, n, then=use)
                else:
                    yield COLUMN_TO_COLUMN + base, Move(i, j, n)
            if to_space:
                yield COLUMN_TO_SPACE + base, Move(i, here.first_empty, n)

    def _leave_score(self, i: int, n: int, need: dict[int, bool], leave: Leave) -> int:
        """What moving the top n cards of column i leaves behind, scored by ``leave``."""
        col, d = self.cols[i], self.down[i]
        h = len(col)
        if d and h - n == d:
            return leave.flips
        if n == h:
            return leave.empties
        below = col[h - n - 1]
        if need.get(below):
            return leave.uncovers
        if self.fits[below][col[h - n]]:
            return leave.breaks
        return 0

    def _from_cells(self, here: _Here) -> Iterator[tuple[int, Move]]:
        for j, c in enumerate(self.cells):
            if c >= 0:
                yield from self._card_moves(c, self.nc + j, here, FROM_CELL)

    def _from_waste(self, here: _Here) -> Iterator[tuple[int, Move]]:
        """Every waste card turning can reach (``_waste_reach``), the nearest first."""
        for nearer, q in enumerate(self._waste_reach()):
            reach = 0 if q == self.wp else q
            yield from self._card_moves(self.ring[q - 1], self.W, here, FROM_WASTE, reach, -REACH_COST * nearer)

    def _from_reserve(self, here: _Here) -> Iterator[tuple[int, Move]]:
        if self.heel:
            yield from self._card_moves(self.heel[-1], self.R, here, FROM_RESERVE)

    def _from_foundations(self, here: _Here) -> Iterator[tuple[int, Move]]:
        """With ``foundations.removable``: each foundation's top card from a three up."""
        if self.removable:
            for f in range(self.nf):
                if self.fh[f] >= 3:
                    yield from self._card_moves(cards.make(self.fh[f], f & 3), self.F + f, here, FROM_FOUNDATION)

    def _card_moves(self, c: int, src: int, here: _Here, to: Destinations, reach: int = 0,
                    bonus: int = 0) -> Iterator[tuple[int, Move]]:
        """Card c alone from stack ``src`` to every place that takes it, scored by ``to`` plus ``bonus``."""
        if to.home is not None:
            f = self._found_for(c)
            if f >= 0:
                yield to.home + bonus, Move(src, self.F + f, 1, reach)
        for t in here.accept.get(c, ()):
            yield to.column + bonus, Move(src, t, 1, reach)
        if here.first_empty >= 0 and self.space_ok[c]:
            yield to.space + bonus, Move(src, here.first_empty, 1, reach)
        if to.cell is not None and here.free_cell >= 0:
            yield to.cell + bonus, Move(src, here.free_cell, 1, reach)

    def _rank_by_disorder(self, scored: list[tuple[int, Move]], need: dict[int, bool]) -> list[tuple[int, Move]]:
        """Lower each move's score (below ``UNRANKED``) by ``DIS_W`` times the disorder it leaves.

        A column card is out of order when a card of lower rank lies somewhere under it: it
        must move before that card can go home.  The disorder counts ``OUT_OF_ORDER_W`` per
        such card, ``CELL_W`` per occupied cell, ``-SPACE_W`` per empty column (when spaces
        take any card), ``-FLIP_W`` for a card turned face up, and ``NEED_W`` for each card of
        a group times the cards the foundations need next under it; computed as the change
        the move makes, from the columns it touches.
        """
        cols, nc, W = self.cols, self.nc, self.W
        pref_out: list[list[int]] = []  # per column and height: cards out of order below it
        pref_min: list[list[int]] = []  # per column and height: the lowest rank below it
        for col in cols:
            po, pm = [0], [99]
            o, m = 0, 99
            for c in col:
                r = c >> 2
                if r > m:
                    o += 1
                else:
                    m = r
                po.append(o)
                pm.append(m)
            pref_out.append(po)
            pref_min.append(pm)
        any_space = self.spaces == "any"
        nneed = [sum(1 for c in col if c in need) for col in cols]
        out = []
        for score, mv in scored:
            src, dst, n, reach, _ = mv
            d = 0
            if src < nc:
                h = len(cols[src])
                d += OUT_OF_ORDER_W * (pref_out[src][h - n] - pref_out[src][h])
                if h == n and any_space:
                    d -= SPACE_W
                if self.down[src] and h - n == self.down[src]:
                    d -= FLIP_W
                group = cols[src][h - n:]
                if nneed[src]:
                    d -= NEED_W * n * (nneed[src] - sum(1 for c in group if c in need))
            elif src < W:
                d -= CELL_W
                group = [self.cells[src - nc]]
            elif src == W:
                group = [self.ring[(reach or self.wp) - 1]]
            elif src == self.R:
                d -= CELL_W
                group = [self.heel[-1]]
            else:
                group = [cards.make(self.fh[src - self.F], (src - self.F) & 3)]
            if dst < nc:
                m = pref_min[dst][-1]
                if not cols[dst] and any_space:
                    d += SPACE_W
                d += NEED_W * n * nneed[dst]
                for c in group:
                    r = c >> 2
                    if r > m:
                        d += OUT_OF_ORDER_W
                    else:
                        m = r
            elif dst < W:
                d += CELL_W
            out.append((score - DIS_W * d if score < UNRANKED else score, mv))
        return out

    def _uses_after(self, lateral: Move, seqs: list[int]) -> list[Move]:
        """The moves that use the card a lateral move uncovers, played just after it.

        A lateral move takes a group whose lowest card b lies on a card p that it builds on
        (so it uncovers p, and turns nothing up) onto another column.  With groups of any
        size and no cells (``lateral_only_with_use``) it is needed only just before p is used:
        p goes to a foundation, or a group whose lowest card fits p comes onto it.  Proof:
        in a win, delay the lateral move until just before p is next touched.  In between, p
        lies on top of its column untouched; the moved group's column top q (a card of p's
        rank and colour) stays uncovered, which only adds options; moves of the group, or of
        cards onto it, are the same moves made from p's column; a group moved off q onto
        another twin is moved there directly.  If p is next touched by moving p itself onto
        another column, move p with the group on it (any size moves) and delay again.  If p
        is never touched again it never reaches a foundation, so it is.  The lateral move is
        thus always followed at once by one of the uses this lists (or the game never needs it).
        The group itself going back onto p is left out: that is the position before the
        lateral move, on the search's current line.
        """
        self._play(lateral)
        i = lateral.src
        p = self.cols[i][-1]
        fits = self.fits
        uses: list[Move] = []
        f = self._found_for(p)
        if f >= 0 and self.to_foundation:
            uses.append(Move(i, self.F + f))
        for k in range(self.nc):
            if k == i:
                continue
            col = self.cols[k]
            for n in range(1, (self._seq_len(k) if k == lateral.dst else seqs[k]) + 1):
                if fits[p][col[-n]] and not (k == lateral.dst and n == lateral.n):  # not the group back
                    uses.append(Move(k, i, n))
        for q in self._waste_reach():
            if fits[p][self.ring[q - 1]]:
                uses.append(Move(self.W, i, 1, 0 if q == self.wp else q))
        if self.heel and fits[p][self.heel[-1]]:
            uses.append(Move(self.R, i))
        if self.removable:
            for g in range(self.nf):
                r = self.fh[g]
                if r >= 3 and fits[p][cards.make(r, g & 3)]:
                    uses.append(Move(self.F + g, i))
        self._unprim()
        return uses

    def _next_needed(self) -> dict[int, bool]:
        """The cards the foundations take next."""
        out = {}
        for f in range(self.nf):
            r = self.fh[f]
            if r < self.top:
                out[cards.make(r + 1, f & 3)] = True
        return out

    def _depth_to_needed(self, i: int, need: dict[int, bool]) -> int:
        col = self.cols[i]
        for d in range(len(col)):
            if need.get(col[-1 - d]):
                return d
        return NO_NEEDED_CARD

    # ------------------------------------------------------ naming moves

    def stack_name(self, s: int) -> str:
        if s < self.nc:
            return f"tableau:{s}"
        if s < self.W:
            return f"cell:{s - self.nc}"
        if s == self.W:
            return "waste"
        if s == self.R:
            return "reserve:0"
        return f"foundation:{s - self.F}"

    def move_json(self, move: Move) -> dict[str, Any]:
        """The move in the result contract's form, from this position (before it is played).

        A turn names the first card turned and ``count``; a redeal is ``waste`` to ``stock``.
        A waste card further in (``reach``), or a lateral move with its use (``then``), is
        named as its first card move only; the solutions the engines report are made of the
        primitive moves ``history`` holds.
        """
        out: dict[str, Any]
        src, dst, n = move.src, move.dst, move.n
        if src == STOCK and n > 0:  # TURN
            count = min(self.k, len(self.ring) - self.wp)
            out = {"card": cards.name(self.real[self.ring[self.wp]]), "from": "stock", "to": "waste"}
            if count > 1:
                out["count"] = count
            return out
        if src == STOCK:  # REDEAL
            out = {"card": cards.name(self.real[self.ring[0]]), "from": "waste", "to": "stock"}
            if len(self.ring) > 1:
                out["count"] = len(self.ring)
            return out
        if src < self.nc:
            card = self.cols[src][-n]
        elif src < self.W:
            card = self.cells[src - self.nc]
        elif src == self.W:
            card = self.ring[(move.reach or self.wp) - 1]
        elif src == self.R:
            card = self.heel[-1]
        else:
            f = src - self.F
            card = cards.make(self.fh[f], f & 3)
        out = {"card": cards.name(self.real[card]), "from": self.stack_name(src), "to": self.stack_name(dst)}
        if n > 1:
            out["count"] = n
        return out

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position."""
        return (tuple(map(tuple, self.cols)), tuple(self.down), tuple(self.cells), tuple(self.fh),
                tuple(self.ring), self.wp, self.redeals, self.left, tuple(self.history), tuple(self.heel))
