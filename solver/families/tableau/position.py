"""The tableau family (FreeCell, Baker's Game, Eight Off, Seahaven Towers, Forty Thieves, Klondike, ...).

One source (``solver/families/README.md``, "One source"): Cython compiles this module in
pure-Python mode where a compiler exists, and the compiled DFS drives the result through the C
interface of ``solver/families/core.pxd``; elsewhere it runs as it stands, under the Python DFS.
Annotations such as ``cython.int`` are the C types of the compiled module.

Rules, as the layout gives them: ``tableau.count`` columns built by ``tableau.build`` (alternate
colours, same suit, any suit, none) in ``tableau.direction``; an empty column takes what
``tableau.spaces`` allows; cards move one at a time, as built sequences (``"sequence"``), as
whole columns that are one built sequence (``"whole-pile"``) or as sequences as long as the free
cells and spaces could carry (``"supermove"``); ``cells.count`` free cells hold one card each;
foundations are built up in suit from the ace (one per suit and row, two rows with two packs),
with the aces placed before the deal when ``foundations.preset`` says so; with
``foundations.removable`` a foundation's top card may come back to a column;
``tableau.face_down`` cards cannot move and turn face up when they come to the top;
``stock.turn = "waste"`` turns ``stock.deal_count`` cards at a time onto a waste pile whose
top card is playable, with ``stock.redeals`` turns of the waste back into the stock;
``"deal-row"`` deals a row, one card onto every column, and ``"deal-row-no-spaces"`` the same
only while no column is empty (PySolFC's Spider).  A pack of fewer suits (``Layout.suits``,
PySolFC's one- and two-suit Spider) gives each foundation its suit (``fsuit``).
Canfield's pieces: a foundation base taken from the deal (``base = "deal"``, its rank starts
every foundation, ``foundations.wrap``: the ace follows the king), columns built in the
foundations' rank order or all the way round (``tableau.wrap``), and one reserve pile whose
top card plays to the foundations and columns and, with ``spaces = "reserve-then-any"``,
fills an emptied column at once; with ``"reserve-then-waste"`` (Solvitaire's
``auto-reserve-then-waste``, as its solver plays it) too, and once the reserve is empty, while a
column is empty, only the waste's card goes onto a column (``waste_only``).  With ``spaces =
"waste-then-stock"`` (Solvitaire's ``auto-waste-then-stock``) an emptied column is filled at
once with the waste's top card, or the stock's next when the waste is empty; then turning
matters by itself (which card fills the next space), so a turn alone is a move.  Several
reserve piles of one card each (Flower Garden, King Albert, Raglan, Northwest Territory,
Duchess): each card plays to the foundations, the columns, a space the layout's spaces rule
allows or a free cell; nothing is put into them.

Ranks from the deal: the deal's cards are renamed once, in ``__init__``, so that the base
rank is the ace (rank r becomes r - base + 1, around the pack's ranks); foundations then
build up from the ace as for every other game, and the build rule is compiled into ``fits``
from the real ranks (``rules.py``).  Only ``move_json`` names cards, through ``real``.

Representation
--------------
Cards are ints 0..51, ``(rank - 1) * 4 + suit`` (renamed); two packs share them.  Column i holds
``h[i]`` cards, bottom first, at ``cols[i * MAXH ...]``, the first ``down[i]`` face down; cells
hold -1 when empty, and after them in ``cells`` the single-card reserve piles (cells that no
move fills: ``free_cell`` and the supermove's count see the cells only); foundations are their
heights ``fh`` (renamed: from the ace); the reserve pile ``heel`` has its top card last.  Stock
and waste are one array ``ring`` of ``L`` cards in turn order with a pointer ``wp``:
``ring[:wp]`` is the waste (its top ``ring[wp - 1]``), ``ring[wp:]`` the stock (``ring[wp]``
turns next).  Turning advances the pointer by the deal count, a redeal sets it to 0, playing the
waste top removes ``ring[wp - 1]``.  Everything is changed in place by ``push`` and put back by
``pop``.  Tables of two indices are flat: ``fits[a * NCARD + b]``.

Moves
-----
A move is an int code laid out by the move table (``solver/moves.py``): its kind (cards from a
stack onto a stack, the stock's turn, the redeal), the stacks' numbers (columns 0..C-1, cells
C.., the single-card reserve piles after them, the waste W, foundations F.., the reserve R
after them) and the count.  Two kinds of decision pack more than one move into a code, and
``push`` plays them as primitive moves in a row (``history`` holds the primitives, each a move
of the contract; ``pop`` takes back the whole decision):

* a waste *place* q (bits 17-23): the search never branches on turning.  ``legal`` offers
  "turn (and redeal) until ``ring[q - 1]`` is on top, then play it".  Turning then doing
  something else is never needed: moves elsewhere do not depend on the pointer, so turns can
  always wait until a waste card is played, and reaching a waste card with fewer redeals
  leaves at least as many redeals.
* ``JOINED`` (bit 30): a lateral move played together with the use of the card it uncovers
  (``order.py``'s ``uses_after`` proves that nothing else is needed), in a layout of its own
  (``codes.py``).  The use's destination, column i or the uncovered card's foundation, follows
  from the position the code is played in, which is the position ``legal`` made it in.

Transposition key: columns are interchangeable (sorted), cells too (sorted), the single-card
reserve piles too (sorted, apart from the cells: they take no card), the foundations
are implied by the other stacks (every card not elsewhere is on them), the reserve by its
height, the ring with its pointer and the redeals left; with unlimited redeals the pointer is
folded to the positions from which the same waste cards are reachable (any pointer with one
card at a time; a multiple of the deal count or the end with several).  Each column's key
bytes are its face-down count (when the layout deals face down), then its cards.

Dominance (``forced``), proved in ``safe``.  Split by concern (issue #39), each a module of
functions over the position's fields with its proofs: the legal moves, what they leave out and
their order, ``order.py``; the one bound, ``blocked``, ``blocked.py``; the move codes,
``codes.py``.  The fields are declared in ``state.pxd`` (``TableauState``, the base class), the
C methods in ``position.pxd``; core <- state <- codes <- blocked, order <- position.
"""

from __future__ import annotations

from array import array
from typing import Any

from ... import cards, moves, positions
from ...errors import DealError, UnsupportedError
from ...layout import Reads
from ...positions import Snapshot
from .rules import rules_for

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:  # the sizes, policies and move codes: state.pxd's and codes.pxd's, cimported by position.pxd
    from cython.cimports.solver.families.core import MAX_MOVES
    from cython.cimports.solver.families.tableau.blocked import blocked
    from cython.cimports.solver.families.tableau.order import found_for, legal_moves, row_code, suit_home, waste_reach
    from cython.cimports.solver.families.tableau.state import TableauState
else:
    from ..core import MAX_MOVES
    from .blocked import blocked
    from .codes import (
        CARDS,
        HOME_USE,
        JOINED,
        P_HOME,
        PRIMITIVE,
        REDEAL,
        REDEAL_CODE,
        ROW,
        SUIT_HOME,
        TURN,
        TURN_CODE,
        code_dst,
        code_kind,
        code_n,
        code_place,
        code_src,
        joined_dst,
        joined_n,
        joined_src,
        make_card,
        plain_code,
    )
    from .order import found_for, legal_moves, row_code, suit_home, waste_reach
    from .state import MAXC, MAXCELL, MAXF, MAXH, MAXRES, NCARD, TAKES_CARD, TableauState
from .order import BREAK_W, DESTINATIONS, LEAVES, ROOT_W

COMPILED = cython.compiled  # this module was compiled (the compiled DFS can drive it)

# The rules this position plays; any other rule value is refused (``Reads``).
READS = Reads("the tableau family's DFS position", {
    "decks": None, "suits": None, "foundations.rows": lambda rows: all(base in (0, 1) and d == 1 for base, d in rows),
    "foundations.preset": None, "foundations.removable": None, "foundations.wrap": None,
    "reserve.count": None, "reserve.accepts": {"any", "none"}, "reserve.deal": None,
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": None, "tableau.build": None,
    "tableau.direction": None, "tableau.spaces": None,
    "tableau.moves": {"single", "sequence", "supermove", "suit-sequence", "whole-pile"}, "tableau.to_foundation": None,
    "tableau.wrap": None, "cells.count": None, "cells.deal": None,
    "stock.turn": {"waste", "deal-row", "deal-row-no-spaces", "none"}, "stock.deal_count": None, "stock.redeals": None,
    "foundations.takes": {"card", "suit", "column"},
}, together=(
    (lambda lay: lay.reserve.count == 0 or lay.reserve.accepts == "none",
     "a reserve only as piles that take no cards (reserve.accepts = 'none', Canfield's)"),
    (lambda lay: lay.reserve.count <= 1 or (lay.reserve.deal == 1
                                            and lay.tableau.spaces not in ("reserve-then-any", "reserve-then-waste")),
     "several reserve piles only of one card each (reserve.deal = 1), filling no space by themselves"),
    (lambda lay: lay.foundations.takes == "card" or (
        not lay.foundations.removable and not lay.foundations.base_from_deal and lay.tableau.wrap == "none"),
     "whole suits to the foundations (foundations.takes) only from the ace, with columns built in plain rank order "
     "and foundations that keep their cards"),
    (lambda lay: not lay.stock.turn.startswith("deal-row") or (lay.stock.redeals == 0 and lay.stock.deal_count == 1),
     "a stock dealt in rows onto the columns with no redeal (stock.redeals = 0, stock.deal_count = 1)"),
))

# What ``is_dead`` names (``dead`` reports it by number).
BLOCKED_DEAD = ("blocked: a card can never reach its foundation (every way out for it, or for a card above it, "
                "waits on itself)")
DEAD_REASONS = (BLOCKED_DEAD,)

# Sizes (NCARD, MAXC, MAXCELL, MAXRES, MAXF, MAXH), policies and what a foundation takes:
# ``state.pxd``'s named constants (``state.py``'s, interpreted); the move codes: ``codes.pxd``'s
# (``codes.py``'s).

# Policies (``tableau.moves``): SINGLE, SEQUENCE, SUPERMOVE (``state.pxd``, the field ``policy``).
# (suit-sequence: groups of any size, as sequence; which groups hold together is the ``gfits`` table)
# (whole-pile: groups of any size, as sequence, but only a whole column: ``whole``)
POLICIES = {"single": 0, "sequence": 1, "supermove": 2, "suit-sequence": 1, "whole-pile": 1}  # (READS lists them)
# What a foundation takes (``foundations.takes``): TAKES_CARD, TAKES_SUIT, TAKES_COLUMN (``state.pxd``).
TAKES = {"card": 0, "suit": 1, "column": 2}


@cython.cclass  # final (``position.pxd``): no subclass when compiled, its C methods called directly (and inlined)
class TableauPosition(TableauState):
    """A deal of a tableau game, mutable; moves are int codes (see the module text)."""

    DEAD_REASONS = DEAD_REASONS

    # Its fields (the deal's rules, the state, the scratch of ``legal`` and of the blocked bound)
    # are declared once, in ``state.pxd`` (``TableauState``), and the signatures of its C methods in
    # ``position.pxd``: compiled, C fields in the object; interpreted, attributes that ``__init__``
    # (or the function that uses them) sets.

    def __init__(self, layout: Any, deal: dict[str, list[int]] | Snapshot):
        """The position at ``deal``: a deal (the position at move 0) or a ``Snapshot`` part-way
        through a game (cards on the waste, the foundations and the cells, face-down cards turned
        up, redeals spent)."""
        super().__init__()
        READS.check(layout)
        t, st, fo, res = layout.tableau, layout.stock, layout.foundations, layout.reserve
        self.top = layout.max_rank
        nc, ncell, nf = t.count, layout.cells.count, fo.count
        self.nc, self.ncell, self.nf = nc, ncell, nf
        # A reserve of several piles (Flower Garden, King Albert, ...) is single cards that take
        # nothing: kept as cells after the cells that no move fills (``free_cell`` scans the cells
        # only).  One pile (Canfield's) is the ``heel``.
        nres = res.count if res.count > 1 else 0
        self.nres = nres
        self.W = nc + ncell + nres
        self.F = self.W + 1
        self.R = self.F + nf
        if nc > MAXC or ncell > MAXCELL or nres > MAXRES or nf > MAXF or self.R > moves.MAX_STACK:
            raise UnsupportedError(f"layout {layout.name!r}: the tableau position holds at most {MAXC} columns, "
                                   f"{MAXCELL} cells, {MAXRES} reserve piles, {MAXF} foundations "
                                   f"and {moves.MAX_STACK + 1} stacks in all")
        at = positions.of(layout, deal)
        known = {f"tableau:{i}" for i in range(nc)} | {f"cell:{i}" for i in range(ncell)} | {"stock", "waste"}
        known |= {f"foundation:{f}" for f in range(nf)}
        known |= {f"reserve:{i}" for i in range(res.count)}
        extra = [s for s in at.stacks if at.stacks[s] and s not in known]
        if extra:
            raise DealError(f"layout {layout.name!r}: the deal has stacks this game lacks: {', '.join(sorted(extra))}")
        if (at.stacks.get("stock") and st.turn not in ("waste", "deal-row", "deal-row-no-spaces")) or (
                at.stacks.get("waste") and st.turn != "waste"):
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'waste' or 'deal-row'")

        # Ranks from the deal: rename cards so that the base rank is the ace (see the module text).
        # The dealt base lies on its foundation; every foundation starts at its rank.
        based = [cs[0] for f in range(nf) if (cs := at.stacks.get(f"foundation:{f}"))] if fo.base_from_deal else []
        rules = rules_for(layout, cards.rank(based[0]) - 1 if based else 0)
        self.real = rules.real
        stacks = {k: [rules.rel[c] for c in v] for k, v in at.stacks.items()}
        cols = [list(stacks.get(f"tableau:{i}", [])) for i in range(nc)]
        heel = [] if nres else list(stacks.get("reserve:0", []))  # the reserve pile, top card last
        self.autofill = t.spaces in ("reserve-then-any", "reserve-then-waste")
        self.waste_spaces = t.spaces == "reserve-then-waste"
        self.stock_spaces = t.spaces == "waste-then-stock"
        self.waste_only = False
        if self.autofill:
            for col in cols:
                if not col and heel:
                    col.append(heel.pop())
        waste = stacks.get("waste", [])
        self.rowdeal = st.turn in ("deal-row", "deal-row-no-spaces")
        self.rows_need_full = st.turn == "deal-row-no-spaces"
        rows = list(reversed(stacks.get("stock", []))) if self.rowdeal else []  # the next card last
        ring = [] if self.rowdeal else waste + stacks.get("stock", [])
        self.nrs = len(rows)
        self.rs = rows + [0] * (MAXH - len(rows))
        if sum(map(len, cols)) + len(heel) + len(ring) + len(rows) >= MAXH:
            raise UnsupportedError(f"layout {layout.name!r}: the tableau position holds at most {MAXH - 1} cards")
        self.cols = [c for col in cols for c in col + [0] * (MAXH - len(col))] + [0] * (MAXH * (MAXC - nc))
        self.h = [len(col) for col in cols] + [0] * (MAXC - nc)
        self.down = [at.face_down.get(f"tableau:{i}", 0) for i in range(nc)] + [0] * (MAXC - nc)
        self.cells = [stacks[f"cell:{i}"][0] if stacks.get(f"cell:{i}") else -1 for i in range(ncell)] \
            + [stacks[f"reserve:{i}"][0] if stacks.get(f"reserve:{i}") else -1 for i in range(nres)] \
            + [-1] * (MAXCELL + MAXRES - ncell - nres)
        self.fh = [len(stacks.get(f"foundation:{f}", [])) for f in range(nf)] + [0] * (MAXF - nf)
        self.has_heel = bool(res.count) and not nres
        self.nheel = len(heel)
        self.heel = heel + [0] * (MAXH - len(heel))
        self.L, self.wp = len(ring), len(waste)
        self.ring = ring + [0] * (MAXH - len(ring))
        self.k = st.deal_count
        self.unlimited = st.redeals < 0
        self.counts_redeals = positions.counts_redeals(layout)
        self.redeals = -1 if self.unlimited else at.redeals_left if at.redeals_left is not None else st.redeals
        # the key's form follows the layout, not the position: one position, one key, however reached
        self.has_face_down = any(self.down) or any(t.face_down)
        self.left = sum(map(len, cols)) + sum(c >= 0 for c in self.cells) + len(ring) + len(heel) + len(rows)

        # The rule table (``rules.py``), and the layout's policies.
        self.policy = POLICIES[t.moves]
        self.whole = t.moves == "whole-pile"
        self.any_space = t.spaces == "any"
        self.break_w = BREAK_W if t.moves == "suit-sequence" else 0
        self.root_w = ROOT_W if t.moves == "suit-sequence" else 0
        self.narrow = False
        self.beam = False
        self.to_foundation = t.to_foundation
        self.removable = fo.removable
        self.takes = TAKES[fo.takes]
        self.fits = [rules.fits[a][b] for a in range(NCARD) for b in range(NCARD)]
        self.gfits = [rules.fits[a][b] and (t.moves != "suit-sequence" or (a & 3) == (b & 3))
                      for a in range(NCARD) for b in range(NCARD)]
        self.space_ok = list(rules.space_ok)
        self.always_safe = list(rules.always_safe)
        self.removable_need = [n for c in range(NCARD) for n in rules.removable_need[c]]
        self.under_n = [len(u) for u in rules.under]
        self.under = [u[x] if x < len(u) else 0 for u in rules.under for x in range(NCARD)]
        self.over_mask = [sum(1 << a for a in set(rules.over[c])) for c in range(NCARD)]
        self.fsuit = [layout.foundation_suit(f) for f in range(nf)] + [0] * (MAXF - nf)
        # A pack of fewer suits (PySolFC's one- and two-suit Spider) has up to eight copies of a
        # card: ``safe`` and ``blocked`` count on two at most, so neither is used there.
        self.few_suits = len(set(layout.suits)) < 4
        suit_found = [[f for f in range(nf) if self.fsuit[f] == s] for s in range(4)]
        self.suit_found_n = [len(fs) for fs in suit_found]
        self.suit_found = [fs[x] if x < len(fs) else 0 for fs in suit_found for x in range(MAXF)]
        self.leave = LEAVES
        self.dest = DESTINATIONS
        # The blocked bound (``blocked.py``): where cards go home from columns and there are no cells
        # (nor single-card reserve piles: its proof does not list them).
        # (not with waste-then-stock: its proof knows no stock card filling a space)
        self.blocked_bound = (t.to_foundation and ncell == 0 and nres == 0 and self.takes == TAKES_CARD
                              and not self.few_suits and not self.stock_spaces)
        # Waste autoplay is safe only when removing the waste top changes no later turn.
        self.waste_safe = self.k == 1 or self.redeals == 0
        # Lateral moves only together with a use of the card they uncover (``order.py``, ``uses_after``).
        # (Not with single-card reserve piles: a reserve card onto p is a use ``uses_after`` does not list.)
        # (joined codes name stacks in 5 bits: without cells and reserve piles every number is below HOME_USE)
        # (not with reserve-then-waste: its proof, ``uses_after``, commutes moves whose legality a space changes)
        self.lateral_only_with_use = (t.moves in ("sequence", "suit-sequence") and ncell == 0 and nres == 0
                                      and not self.waste_spaces and not self.stock_spaces)
        # Groups of any size may go into a space (no cells to shortcut through).
        self.any_size_to_space = t.moves in ("sequence", "suit-sequence")

        self.stacks = [array("i", [0] * 64), array("i", [0] * 64)]
        self.undo, self.groups = self.stacks[0], self.stacks[1]
        self.nundo = self.ngroups = 0
        self.key_stale = list([1] * MAXC)  # (list(): a Python list, converted once)
        self.dis_stale = list([1] * MAXC)
        self.key_order = list(range(MAXC))
        self.nneed_version = list([0] * MAXC)
        self.need_version = 1
        if not cython.compiled:  # the scratch arrays (compiled: in the object)
            self.need, self.accept_n, self.accept = [0] * NCARD, [0] * NCARD, [0] * (NCARD * MAXC)
            self.seqs, self.nneed, self.packed = [0] * MAXC, [0] * MAXC, [0] * MAXC
            self.psc, self.pcode, self.jsc, self.jcode = ([0] * MAX_MOVES for _ in range(4))
            self.pref_out, self.pref_min = [0] * (MAXC * (MAXH + 1)), [0] * (MAXC * (MAXH + 1))
            self.b_card, self.b_above, self.b_below, self.b_face_down, self.b_bottom, self.b_in_column, \
                self.b_freed, self.b_leaves, self.b_goes_home, self.b_queued, self.b_stack = \
                ([0] * MAXH for _ in range(11))
            self.b_nplaces, self.b_ring_count, self.b_places = [0] * NCARD, [0] * NCARD, [0] * (2 * NCARD)
            self.b_top = self.b_n = self.b_homed = 0  # (``blocked.py`` sets them per call)
            self.b_space = False
            self.b_home = self.b_can_top = self.b_ring_home = self.b_ring_left = 0

    # ----------------------------------------------------------- dominance

    @cython.cfunc
    @cython.exceptval(check=False)
    def safe(self, c: cython.int) -> cython.bint:
        """Card c may go to its foundation now without losing a win (it is its foundation's next card).

        Proof.  Let P be this position and P' the same with c on its foundation.  Take any
        win from P and leave out every move of c (c only ever moves to cells, onto columns
        and finally to its foundation, which P' has done).  The rest stays legal from P':
        stacks other than c's place look the same, c's place is freer (an emptier column,
        a free cell, more room for a sequence; a single-card reserve pile c leaves is empty
        in both, as it takes no card), and a built sequence that carried c on top
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
        which stays behind.  So ``forced`` plays c automatically only from elsewhere, or
        once the reserve is empty (then nothing is filled and the argument above holds).

        With whole-pile moves (``tableau.moves = "whole-pile"``) the argument holds as it stands:
        a column in P' is the column in P without its top cards of X, so a move of a whole
        column stays one, or is left out with its cards.

        With ``spaces = "reserve-then-waste"``, once the reserve is empty, an empty column lets
        only the waste's card onto a column: which moves are legal depends on which columns are
        empty, so the win from P' must have the same columns empty at the same moves even then.
        It does when c lies on a card of a column, or in a cell: leaving out c's moves empties
        no column sooner (the cards under c leave only after c), and c never comes into a
        space later in the win from P (while the reserve has cards no column is empty; once it
        is empty a space lets only the waste's card onto a column, and c, not in the waste, never
        goes there).  A column's only card would leave a space sooner, and the waste's top
        card may come into a space in the win from P that stays empty in P'.  So in such a
        layout ``forced`` plays only the cells' cards and the tops of columns of two cards or more.
        With ``spaces = "waste-then-stock"`` (the waste's top card, else the stock's next, fills
        a space at once) likewise while the stock and waste hold cards: a column's only card
        going home sooner would fill its column sooner, with another card, and the waste's top
        card going home would change which card fills the next space; c on a card of a column
        or in a cell never comes into a space (every space is filled at once).  Once the stock
        and the waste are empty nothing is filled and the argument above holds.

        A stock dealt in rows onto the columns (``deal-row``) may put a card d on c, whatever the
        build rule says, which the argument above must also keep (in the win from P, d lies on
        c; in P', on the card c lay on).  It does when d is not a card that c takes: then c and
        d never move together, so leaving out c's moves takes c from under d and changes no
        move of d or of the cards on it, and a card on which d lies in P' but not in P is only
        one more card d might build on.  The rules above need every card that c takes (with
        removable foundations, every card of X but c) on the foundations, so d, a stock card,
        is not one of them.  The first rule (aces and twos) does not: a two takes an ace that
        may lie in the stock.  So while the stock still deals rows, a two is safe by the
        second rule only (an ace, taking nothing, by both).

        A stock that deals no row while a column is empty (``deal-row-no-spaces``, PySolFC's
        Spider) breaks the argument while rows are left: where the win has c alone in a column
        (dealt there, or moved there into a space) and deals a row, P' has that column empty
        and may not deal it (with one card on every other column and none to spare, P' can
        deal no row at all).  So ``forced`` plays nothing while such a stock has rows left;
        once it is empty the rule says nothing and the argument above holds as it stands.
        """
        x: cython.int
        b: cython.int
        need: cython.int
        s: cython.int
        y: cython.int
        if self.always_safe[c] and (self.nrs == 0 or self.under_n[c] == 0):
            return True
        if self.removable:
            if self.autofill:
                return False
            for x in range(self.nf):
                if self.fh[x] < self.removable_need[c * 4 + self.fsuit[x]]:
                    return False
            return True
        for x in range(self.under_n[c]):
            b = self.under[c * NCARD + x]
            need = (b >> 2) + 1  # b must be on every foundation of its suit with this many copies
            s = b & 3
            for y in range(self.suit_found_n[s]):
                if self.fh[self.suit_found[s * 8 + y]] < need:
                    return False
        return True

    # ------------------------------------------------------------ play

    @cython.ccall
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # ngroups < len(groups)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def push(self, move: cython.int) -> cython.int:
        """Play ``move`` as primitive moves (see the module text); ``pop`` takes them all back."""
        count: cython.int
        i: cython.int
        n: cython.int
        use_src: cython.int
        payload: cython.int
        if move & JOINED:
            i, n = joined_src(move), joined_n(move)
            count = self.play(plain_code(i, joined_dst(move), n, 0))
            use_src = (move >> 17) & 31
            payload = (move >> 22) & 127
            if use_src == HOME_USE and payload == P_HOME:  # the card the lateral move uncovered goes home
                count += self.play(plain_code(i, self.F + found_for(self, self.cols[i * MAXH + self.h[i] - 1]), 1, 0))
            elif use_src == HOME_USE and payload == SUIT_HOME:  # the suit the move completed goes home
                count += self.play(suit_home(self, joined_dst(move)))
            elif use_src == HOME_USE:  # DEAL_USE: the stock deals a row
                count += self.play(row_code(self))
            elif use_src < self.nc:
                count += self.play(plain_code(use_src, i, payload, 0))
            elif use_src == self.W:
                count += self.play(plain_code(use_src, i, 1, payload))
            else:
                count += self.play(plain_code(use_src, i, 1, 0))
        else:
            count = self.play(move)
        if self.ngroups == len(self.groups):
            self.grow(1)
        self.groups[self.ngroups] = count
        self.ngroups += 1
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.cdivision(True)  # non-negative operands, k > 0
    def play(self, move: cython.int) -> cython.int:
        """A move that is not joined, as primitive moves (turning first for a waste card further
        in); how many."""
        q: cython.int = code_place(move)
        n: cython.int = 0
        L: cython.int = self.L
        if not q:
            self.prim(move)
            return 1
        if not (q >= self.wp and ((q - self.wp) % self.k == 0 or q == L)):
            while self.wp < L:
                self.prim(TURN_CODE)
                n += 1
            self.prim(REDEAL_CODE)
            n += 1
        while self.wp < q:
            self.prim(TURN_CODE)
            n += 1
        if self.wp != q:
            raise ValueError(f"waste card {q} is not reachable")
        self.prim(move & PRIMITIVE)
        return n + 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def prim(self, move: cython.int) -> cython.int:
        """Play one primitive move, noting what ``unprim`` needs: the waste pointer before a
        stock move; for a move of cards, 1 when a face-down card turned up, 2 when the reserve
        filled the emptied column, else 0."""
        kind: cython.int = code_kind(move)
        src: cython.int = code_src(move)
        dst: cython.int = code_dst(move)
        n: cython.int = code_n(move)
        nc: cython.int = self.nc
        flipped: cython.int = 0
        card: cython.int = 0
        x: cython.int
        b: cython.int = 0
        if kind == ROW:  # one card onto each of the first n columns, face up
            for x in range(n):
                self.nrs -= 1
                self.cols[x * MAXH + self.h[x]] = self.rs[self.nrs]
                self.h[x] += 1
                self.touch(x)
            self.note(0)
            self.record(move)
            return 0
        if kind != CARDS:
            self.note(self.wp)
            if kind == TURN:
                self.wp = min(self.L, self.wp + self.k)
            else:  # REDEAL
                self.wp = 0
                if not self.unlimited:
                    self.redeals -= 1
            self.record(move)
            return 0
        # take (a column's group stays where it lies until it is copied)
        if src < nc:
            b = src * MAXH + self.h[src] - n
            card = self.cols[b]
        elif src < self.W:
            card = self.cells[src - nc]
            self.cells[src - nc] = -1
        elif src == self.W:
            self.wp -= 1
            card = self.ring[self.wp]
            for x in range(self.wp, self.L - 1):
                self.ring[x] = self.ring[x + 1]
            self.L -= 1
        elif src == self.R:
            self.nheel -= 1
            card = self.heel[self.nheel]
        else:
            card = make_card(self.fh[src - self.F], self.fsuit[src - self.F])
            self.fh[src - self.F] -= 1
            self.left += 1
        # put
        if dst < nc:
            if src < nc:
                for x in range(n):
                    self.cols[dst * MAXH + self.h[dst] + x] = self.cols[b + x]
            else:
                self.cols[dst * MAXH + self.h[dst]] = card
            self.h[dst] += n
        elif dst < self.W:
            self.cells[dst - nc] = card
        else:  # (n cards: a whole suit)
            self.fh[dst - self.F] += n
            self.left -= n
        # the column left behind
        if src < nc:
            self.h[src] -= n
            if self.down[src] and self.h[src] == self.down[src]:
                self.down[src] -= 1
                flipped = 1
            elif not self.h[src] and self.autofill and self.nheel:
                self.nheel -= 1
                self.cols[src * MAXH] = self.heel[self.nheel]  # the reserve fills the space at once
                self.h[src] = 1
                flipped = 2
            elif not self.h[src] and self.stock_spaces and self.L:
                # the waste's top card, or with the waste empty the stock's next, fills the space at once
                flipped = 3 if self.wp else 4
                if self.wp:
                    self.wp -= 1
                self.cols[src * MAXH] = self.ring[self.wp]
                for x in range(self.wp, self.L - 1):
                    self.ring[x] = self.ring[x + 1]
                self.L -= 1
                self.h[src] = 1
        self.touch(src)
        self.touch(dst)
        self.note(flipped)
        self.record(move)
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # nundo < len(undo)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def note(self, value: cython.int) -> cython.int:
        """Push ``value`` on the undo stack."""
        if self.nundo == len(self.undo):
            self.grow(0)
        self.undo[self.nundo] = value
        self.nundo += 1
        return 0

    def grow(self, which: int) -> None:
        """Double the room of the undo stack (0) or the group stack (1)."""
        old = self.stacks[which]
        new = array("i", old)
        new.extend(old)
        self.stacks[which] = new
        if which:
            self.groups = new
        else:
            self.undo = new

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def touch(self, s: cython.int) -> cython.void:
        """Stack s changed: its cached key bytes and disorder counts are stale."""
        if s < self.nc:
            self.key_stale[s] = self.dis_stale[s] = True
        elif s >= self.F and s < self.R:
            self.need_version += 1

    @cython.ccall
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # 0 <= ngroups < len(groups)
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def pop(self) -> cython.int:
        """Take back the last ``push`` (all its primitive moves); returns the first primitive."""
        n: cython.int
        last: cython.int = 0
        if self.ngroups == 0:
            raise IndexError("pop from a position at the deal")
        self.ngroups -= 1
        n = self.groups[self.ngroups]
        while n:
            last = self.unprim()
            n -= 1
        return last

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.boundscheck(False)  # 0 <= nundo < len(undo): one entry per primitive played
    @cython.wraparound(False)
    @cython.initializedcheck(False)
    def unprim(self) -> cython.int:
        """Take back the last primitive move; returns it."""
        move: cython.int = self.unrecord()
        self.nundo -= 1
        u: cython.int = self.undo[self.nundo]
        kind: cython.int = code_kind(move)
        src: cython.int = code_src(move)
        dst: cython.int = code_dst(move)
        n: cython.int = code_n(move)
        nc: cython.int = self.nc
        card: cython.int = 0
        x: cython.int
        b: cython.int = 0
        top: cython.int = 0  # the highest rank of the cards taken back from a foundation
        if kind == ROW:
            for x in range(n - 1, -1, -1):
                self.h[x] -= 1
                self.rs[self.nrs] = self.cols[x * MAXH + self.h[x]]
                self.nrs += 1
                self.touch(x)
            return move
        if kind != CARDS:
            self.wp = u
            if kind == REDEAL and not self.unlimited:
                self.redeals += 1
            return move
        # take back from where the cards went (a column's group stays until it is copied)
        if dst < nc:
            self.h[dst] -= n
            b = dst * MAXH + self.h[dst]
            card = self.cols[b]
        elif dst < self.W:
            card = self.cells[dst - nc]
            self.cells[dst - nc] = -1
        else:
            top = self.fh[dst - self.F]
            card = make_card(top, self.fsuit[dst - self.F])
            self.fh[dst - self.F] -= n
            self.left += n
        # put back
        if src < nc:
            if u == 2:  # the reserve's card that filled the space goes back
                self.h[src] -= 1
                self.heel[self.nheel] = self.cols[src * MAXH]
                self.nheel += 1
            elif u >= 3:  # the waste's (3) or the stock's (4) card that filled the space goes back
                self.h[src] -= 1
                for x in range(self.L, self.wp, -1):
                    self.ring[x] = self.ring[x - 1]
                self.ring[self.wp] = self.cols[src * MAXH]
                self.L += 1
                if u == 3:
                    self.wp += 1
            elif u:
                self.down[src] += 1
            if dst < nc:
                for x in range(n):
                    self.cols[src * MAXH + self.h[src] + x] = self.cols[b + x]
            elif n > 1:  # a whole suit back from its foundation, the highest rank lowest
                for x in range(n):
                    self.cols[src * MAXH + self.h[src] + x] = make_card(top - x, self.fsuit[dst - self.F])
            else:
                self.cols[src * MAXH + self.h[src]] = card
            self.h[src] += n
        elif src < self.W:
            self.cells[src - nc] = card
        elif src == self.W:
            for x in range(self.L, self.wp, -1):
                self.ring[x] = self.ring[x - 1]
            self.ring[self.wp] = card
            self.L += 1
            self.wp += 1
        elif src == self.R:
            self.heel[self.nheel] = card
            self.nheel += 1
        else:
            self.fh[src - self.F] += 1
            self.left -= 1
        self.touch(src)
        self.touch(dst)
        return move

    # ---------------------------------------------------------- queries

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def won(self) -> cython.bint:
        return self.left == 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def dead(self) -> cython.int:
        """1 (``BLOCKED_DEAD``) when ``blocked`` proves no win, else 0."""
        return 1 if self.blocked_bound and blocked(self) else 0

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def forced(self) -> cython.int:
        """A foundation move that ``safe`` proves loses nothing: column tops, cells, the waste
        top, the reserve's top; or -1."""
        i: cython.int
        j: cython.int
        c: cython.int
        r: cython.int
        x: cython.int
        s: cython.int
        f: cython.int
        # see safe: no forced move may empty a column (reserve-then-waste: ever; waste-then-stock: while it fills)
        filling: cython.bint = ((self.autofill and (self.nheel > 0 or self.waste_spaces))
                                or (self.stock_spaces and self.L > 0))
        if self.takes != TAKES_CARD:  # (whole suits: no proof that one may go home at once)
            return -1
        if self.rows_need_full and self.nrs:  # see safe: no proof while a space can stop a row
            return -1
        if self.few_suits:  # (more than two copies of a card: safe's proof counts two)
            return -1
        if self.to_foundation:
            for i in range(self.nc):
                if self.h[i] and not (filling and self.h[i] == 1):
                    c = self.cols[i * MAXH + self.h[i] - 1]
                    r = c >> 2
                    s = c & 3
                    for x in range(self.suit_found_n[s]):
                        f = self.suit_found[s * 8 + x]
                        if self.fh[f] == r:
                            if self.safe(c):
                                return plain_code(i, self.F + f, 1, 0)
                            break
        for j in range(self.ncell + self.nres):  # the cells, then the single-card reserve piles
            c = self.cells[j]
            if c >= 0:
                r = c >> 2
                s = c & 3
                for x in range(self.suit_found_n[s]):
                    f = self.suit_found[s * 8 + x]
                    if self.fh[f] == r:
                        if self.safe(c):
                            return plain_code(self.nc + j, self.F + f, 1, 0)
                        break
        if self.wp and self.waste_safe and not self.waste_spaces and not self.stock_spaces:
            c = self.ring[self.wp - 1]
            f = found_for(self, c)
            if f >= 0 and self.safe(c):
                return plain_code(self.W, self.F + f, 1, 0)
        if self.nheel and not self.autofill:
            c = self.heel[self.nheel - 1]
            f = found_for(self, c)
            if f >= 0 and self.safe(c):
                return plain_code(self.R, self.F + f, 1, 0)
        return -1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    @cython.cdivision(True)  # non-negative operands, k > 0
    def write_key(self, buf: cython.p_uchar) -> cython.int:
        """The key (see the module text): the columns sorted by their bytes (each after its
        face-down count; in their places while the stock deals rows), the cells sorted, the
        single-card reserve piles sorted, the reserve's height, the rows left to deal, the ring
        with its (folded) pointer and the redeals left."""
        nc: cython.int = self.nc
        i: cython.int
        j: cython.int
        x: cython.int
        y: cython.int
        n: cython.int = 0
        wp: cython.int
        t: cython.int
        g: cython.int
        first: cython.int
        count: cython.int
        for i in range(nc):
            if self.key_stale[i]:
                self.packed[i] = self.pack(i)
                self.key_stale[i] = False
        for i in range(1, 0 if self.nrs else nc):  # insertion sort by the columns' key bytes, from the last order
            x = self.key_order[i]
            j = i - 1
            while j >= 0 and self.col_before(x, self.key_order[j]):
                self.key_order[j + 1] = self.key_order[j]
                j -= 1
            self.key_order[j + 1] = x
        for i in range(nc):
            if i:
                buf[n] = 0xFF
                n += 1
            x = i if self.nrs else self.key_order[i]  # (rows still to deal: columns in their places)
            if self.has_face_down:
                buf[n] = 200 + self.down[x]
                n += 1
            for y in range(self.h[x]):
                buf[n + y] = self.cols[x * MAXH + y]
            n += self.h[x]
        for g in range(2):  # the cells (0xFE), then the single-card reserve piles (0xFA), each sorted
            first = 0 if g == 0 else self.ncell
            count = self.ncell if g == 0 else self.nres
            if count:
                buf[n] = 0xFE if g == 0 else 0xFA
                n += 1
                for i in range(count):  # insertion sort of their bytes, in place
                    t = self.cells[first + i] & 255
                    j = n + i - 1
                    while j >= n and buf[j] > t:
                        buf[j + 1] = buf[j]
                        j -= 1
                    buf[j + 1] = t
                n += count
        if self.has_heel:
            buf[n] = 0xFC
            buf[n + 1] = self.nheel
            n += 2
        if self.rowdeal:
            buf[n] = 0xFB
            buf[n + 1] = self.nrs
            n += 2
        if self.L or self.wp:
            wp = self.wp
            if self.unlimited and (self.k == 1 or wp % self.k == 0 or wp == self.L):
                wp = 0
            buf[n] = 0xFD
            n += 1
            for y in range(self.L):
                buf[n + y] = self.ring[y]
            n += self.L
            buf[n] = wp & 255
            buf[n + 1] = wp >> 8
            buf[n + 2] = 255 if self.redeals < 0 else min(self.redeals, 255)
            n += 3
        return n

    @cython.cfunc
    @cython.exceptval(check=False)
    def pack(self, i: cython.int) -> cython.ulonglong:
        """Column i's first 7 key bytes (the face-down byte, then cards), each plus one in 9
        bits, missing ones 0: packs of two columns compare as their key bytes do, as far as
        those 7 bytes go (a shorter column that is a prefix comes first, as with bytes)."""
        pk: cython.ulonglong = 0
        used: cython.int = 0
        x: cython.int = 0
        if self.has_face_down:
            pk = 200 + self.down[i] + 1
            used = 1
        while used < 7 and x < self.h[i]:
            pk = (pk << 9) | (self.cols[i * MAXH + x] + 1)
            used += 1
            x += 1
        return pk << (9 * (7 - used))

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def col_before(self, a: cython.int, b: cython.int) -> cython.bint:
        """Column a's key bytes come strictly before column b's."""
        if self.packed[a] != self.packed[b]:
            return self.packed[a] < self.packed[b]
        return self.col_cmp(a, b) < 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def col_cmp(self, a: cython.int, b: cython.int) -> cython.int:
        """The order of two columns' key bytes (face-down count first, when there are any)."""
        ha: cython.int = self.h[a]
        hb: cython.int = self.h[b]
        x: cython.int
        m: cython.int
        if self.has_face_down and self.down[a] != self.down[b]:
            return self.down[a] - self.down[b]
        m = ha if ha < hb else hb
        for x in range(m):
            if self.cols[a * MAXH + x] != self.cols[b * MAXH + x]:
                return self.cols[a * MAXH + x] - self.cols[b * MAXH + x]
        return ha - hb

    # ------------------------------------------------------------ legal moves

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def legal(self, out: cython.p_int) -> cython.int:
        """Every useful legal move, best first, written to ``out``; how many (``order.py``: what is
        left out, with the proofs, and the order)."""
        return legal_moves(self, out)

    # ------------------------------------------------------------ Python level

    def stack_name(self, s: int) -> str:
        if s < self.nc:
            return f"tableau:{s}"
        if s < self.nc + self.ncell:
            return f"cell:{s - self.nc}"
        if s < self.W:
            return f"reserve:{s - self.nc - self.ncell}"
        if s == self.W:
            return "waste"
        if s == self.R:
            return "reserve:0"
        return f"foundation:{s - self.F}"

    def move_json(self, move: int) -> dict[str, Any]:
        """The move in the result contract's form, from this position (before it is played).

        A turn names the first card turned and ``count``; a redeal is ``waste`` to ``stock``.
        A waste card further in (a place), or a lateral move with its use (``JOINED``), is
        named as its first card move only; the solutions the engines report are made of the
        primitive moves ``history`` holds.
        """
        if move & JOINED:  # its lateral move
            kind, src, dst, n = CARDS, joined_src(move), joined_dst(move), joined_n(move)
        else:
            kind, src, dst, n = code_kind(move), code_src(move), code_dst(move), code_n(move)
        name, real = cards.name, self.real
        if kind == TURN:
            return moves.contract(name(real[self.ring[self.wp]]), "stock", "waste", min(self.k, self.L - self.wp))
        if kind == REDEAL:
            return moves.contract(name(real[self.ring[0]]), "waste", "stock", self.L)
        if kind == ROW:
            return moves.contract(name(real[self.rs[self.nrs - 1]]), "stock", "tableau", n)
        if src < self.nc:
            card = self.cols[src * MAXH + self.h[src] - n]
        elif src < self.W:
            card = self.cells[src - self.nc]
        elif src == self.W:
            card = self.ring[(code_place(move) or self.wp) - 1]
        elif src == self.R:
            card = self.heel[self.nheel - 1]
        else:
            card = make_card(self.fh[src - self.F], self.fsuit[src - self.F])
        return moves.contract(name(real[card]), self.stack_name(src), self.stack_name(dst), n)

    def state(self) -> tuple[Any, ...]:
        """Everything mutable, for tests that check push then pop restores a position: the
        columns, face-down counts, cells, foundation heights, ring, waste pointer, redeals left
        (None: no limit), cards not home, history, reserve, a stock dealt in rows (next card first)."""
        return (tuple(tuple(self.cols[i * MAXH + x] for x in range(self.h[i])) for i in range(self.nc)),
                tuple(self.down[i] for i in range(self.nc)),
                tuple(self.cells[j] for j in range(self.ncell + self.nres)),
                tuple(self.fh[f] for f in range(self.nf)), tuple(self.ring[x] for x in range(self.L)), self.wp,
                None if self.redeals < 0 else self.redeals, self.left, tuple(self.history),
                tuple(self.heel[x] for x in range(self.nheel)), tuple(self.rs[x] for x in range(self.nrs - 1, -1, -1)))

    def snapshot(self) -> Snapshot:
        """The position now, as the table shows it (real cards; ``positions.Snapshot``)."""
        cols, down, cells, fh, ring, wp, redeals, _, _, heel, rows = self.state()
        real = self.real
        stacks: dict[str, tuple[int, ...]] = {f"tableau:{i}": tuple(real[c] for c in col) for i, col in enumerate(cols)}
        stacks.update({f"cell:{j}": () if c < 0 else (real[c],) for j, c in enumerate(cells[:self.ncell])})
        stacks.update({f"reserve:{j}": () if c < 0 else (real[c],) for j, c in enumerate(cells[self.ncell:])})
        stacks.update({f"foundation:{f}": tuple(real[make_card(r, self.fsuit[f])] for r in range(1, h + 1))
                       for f, h in enumerate(fh)})
        stacks.update({"waste": tuple(real[c] for c in ring[:wp]), "stock": tuple(real[c] for c in ring[wp:] + rows)})
        if self.has_heel:
            stacks["reserve:0"] = tuple(real[c] for c in heel)
        return Snapshot(stacks, {f"tableau:{i}": d for i, d in enumerate(down) if d},
                        redeals if self.counts_redeals else None)

    def parts(self, move: int) -> list[int]:
        """The primitive moves ``move`` plays from here, oldest first (a decision may play several:
        turns before a waste card further in, a lateral move and its use)."""
        before = self.ply
        self.push(move)
        out = list(self.history[before:])
        self.pop()
        return out

    def set_narrow(self, on: bool) -> bool:
        """With ``on``, leave out every move of a group onto a card it is not built on in suit
        (``gfits``) that neither turns a card up nor empties its column (groups of one suit
        only; else nothing changes): a search of what is left can find a win (every move it
        plays is legal) but proves no loss (``solver.engines.dfs.run_dfs``).  Whether moves
        are now left out."""
        self.narrow = on and self.break_w != 0
        return bool(self.narrow)

    def measure(self) -> tuple[int, int, int, int, int, int, int, int, int]:
        """The counts the win finder's evaluation weighs (``evaluate.py``), in one call:
        face-down cards; breaks (face-up cards lying on a card they do not move with, ``gfits``:
        each must move again before its column is in order); cards out of order (a lower rank
        lies somewhere under them in their column); empty columns; occupied cells and single-card
        reserve piles; cards home; cards still to deal or turn (stock, rows, the reserve); cards
        of columns built from a king at the bottom, all face up and moving as one; cards on the
        waste."""
        down: cython.int = 0
        breaks: cython.int = 0
        disorder: cython.int = 0
        empty: cython.int = 0
        held: cython.int = 0
        home: cython.int = 0
        rooted: cython.int = 0
        i: cython.int
        x: cython.int
        h: cython.int
        m: cython.int
        r: cython.int
        base: cython.int
        for i in range(self.nc):
            h = self.h[i]
            base = i * MAXH
            if h == 0:
                empty += 1
                continue
            down += self.down[i]
            m = 99
            for x in range(h):
                r = self.cols[base + x] >> 2
                if r > m:
                    disorder += 1
                else:
                    m = r
                if x > self.down[i] and not self.gfits[self.cols[base + x - 1] * NCARD + self.cols[base + x]]:
                    breaks += 1
            if self.down[i] == 0 and self.cols[base] >> 2 == self.top - 1:
                x = 1
                while x < h and self.gfits[self.cols[base + x - 1] * NCARD + self.cols[base + x]]:
                    x += 1
                rooted += x
        for x in range(self.ncell + self.nres):
            if self.cells[x] >= 0:
                held += 1
        for x in range(self.nf):
            home += self.fh[x]
        return down, breaks, disorder, empty, held, home, self.L - self.wp + self.nrs + self.nheel, rooted, self.wp

    def set_beam(self, on: bool) -> bool:
        """With ``on``, the win finder's moves (``evaluate.py``; KPat's Spider solver plays the same
        restriction): with groups of one suit, a group that is only part of its column's top group
        moves only onto a card it is built on in suit (breaking a suit only where it grows), and
        into an empty column only whole; a group goes only into the first empty column, also while
        rows are left to deal; no row is dealt while a column is empty and cards lie on the
        table (KPat's solver's rule too); a finished suit that can go home is the only move.
        A subset of the legal moves: a win found with them is a win, and
        nothing else is claimed.  Whether moves are now left out."""
        self.beam = on and self.break_w != 0
        return bool(self.beam)

    def is_safe(self, card: int) -> bool:
        """``safe``, from Python: may ``card`` (renamed) go home now without losing a win?"""
        return self.safe(card)

    def waste_places(self) -> list[int]:
        """``waste_reach``, from Python: the waste places turning can reach, nearest first."""
        out: cython.int[258]  # 2 * MAXH + 2
        if not cython.compiled:
            out = [0] * (2 * MAXH + 2)
        n: cython.int = waste_reach(self, out)
        return [out[x] for x in range(n)]
