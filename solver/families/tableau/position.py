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
  (``uses_after`` proves that nothing else is needed).  It has its own layout, narrower than a
  plain code's (joined moves exist only without cells and single-card reserve piles, so every
  stack number is below 31): bits 0-4 the lateral move's column i, 5-9 its column j, 10-16
  its n cards; bits 17-21 the use's source (``HOME_USE``: the uncovered card goes to its
  foundation), bits 22-28 its count or waste place (``joined_src``, ``joined_dst``, ``joined_n``).  The use's
  destination, column i or the uncovered card's foundation, follows from the position the
  code is played in, which is the position ``legal`` made it in.

Transposition key: columns are interchangeable (sorted), cells too (sorted), the single-card
reserve piles too (sorted, apart from the cells: they take no card), the foundations
are implied by the other stacks (every card not elsewhere is on them), the reserve by its
height, the ring with its pointer and the redeals left; with unlimited redeals the pointer is
folded to the positions from which the same waste cards are reachable (any pointer with one
card at a time; a multiple of the deal count or the end with several).  Each column's key
bytes are its face-down count (when the layout deals face down), then its cards.

Dominance (``forced``), proved in ``safe``; pruned moves are listed in ``legal``; the one bound,
``blocked``, is a module of its own, ``blocked.py``, with its proof.  The fields are declared in
``state.pxd`` (``TableauState``, the base class), the C methods in ``position.pxd``.
"""

from __future__ import annotations

from array import array
from typing import Any, NamedTuple

from ... import cards, moves, positions
from ...errors import DealError, UnsupportedError
from ...layout import Reads
from ...positions import Snapshot
from .rules import rules_for

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if cython.compiled:  # the sizes and policies: state.pxd's enums, cimported by position.pxd
    from cython.cimports.solver.families.core import MAX_MOVES
    from cython.cimports.solver.families.tableau.blocked import blocked
    from cython.cimports.solver.families.tableau.state import TableauState
else:
    from ..core import MAX_MOVES
    from .blocked import blocked
    from .state import MAXC, MAXCELL, MAXF, MAXH, MAXRES, NCARD, SEQUENCE, SINGLE, TableauState

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

# Sizes (NCARD, MAXC, MAXCELL, MAXRES, MAXF, MAXH): ``state.pxd``'s named constants (``state.py``'s,
# interpreted).

# The move table's fields (``solver/moves.py``), as C ints of this module.
KIND_SHIFT = cython.declare(cython.int, moves.KIND_SHIFT)
DST_SHIFT = cython.declare(cython.int, moves.DST_SHIFT)
STACK_MASK = cython.declare(cython.int, moves.STACK_MASK)
COUNT_SHIFT = cython.declare(cython.int, moves.COUNT_SHIFT)
PLACE_SHIFT = cython.declare(cython.int, moves.PLACE_SHIFT)
CARDS = cython.declare(cython.int, moves.CARDS.number)
TURN = cython.declare(cython.int, moves.TURN.number)
REDEAL = cython.declare(cython.int, moves.REDEAL.number)
ROW = cython.declare(cython.int, moves.ROW.number)
TURN_CODE = cython.declare(cython.int, moves.code(moves.TURN))
REDEAL_CODE = cython.declare(cython.int, moves.code(moves.REDEAL))
ROW_CODE = cython.declare(cython.int, moves.code(moves.ROW, n=0))  # plus the count dealt
PRIMITIVE = cython.declare(cython.int, (1 << moves.PLACE_SHIFT) - 1)  # a move's stacks and count
JOINED_BIT = 1 << 30  # a lateral move with its use (its own layout: the module text); JOINED, for Python
JOINED = cython.declare(cython.int, JOINED_BIT)
HOME_USE = cython.declare(cython.int, 31)  # a joined move's use not from a stack, by its payload:
P_HOME = cython.declare(cython.int, 0)  # the uncovered card goes home
SUIT_HOME = cython.declare(cython.int, 1)  # the whole suit the move completed on its target column goes home
DEAL_USE = cython.declare(cython.int, 2)  # the stock deals a row
ANY_SIZE = cython.declare(cython.int, 104)  # a group size no move reaches (two packs)

# Policies (``tableau.moves``): SINGLE, SEQUENCE, SUPERMOVE (``state.pxd``, the field ``policy``).
# (suit-sequence: groups of any size, as sequence; which groups hold together is the ``gfits`` table)
# (whole-pile: groups of any size, as sequence, but only a whole column: ``whole``)
POLICIES = {"single": 0, "sequence": 1, "supermove": 2, "suit-sequence": 1, "whole-pile": 1}  # (READS lists them)

# What a foundation takes (``foundations.takes``): one card; a whole suit from a column's top; a whole
# column that is one suit.
TAKES_CARD = cython.declare(cython.int, 0)
TAKES_SUIT = cython.declare(cython.int, 1)
TAKES_COLUMN = cython.declare(cython.int, 2)
TAKES = {"card": 0, "suit": 1, "column": 2}

# -- Move ordering: each legal move gets a score, highest first (a stable sort keeps the order
# of generation among equal scores).  The scores are heuristics, not proofs: they change the
# order of the search, never its verdict.
HOME = cython.declare(cython.int, 1000)  # a card to its foundation: progress, and it loses little (see safe)
HOME_FLIP = cython.declare(cython.int, 10)  # ... and it turns a face-down card up
WASTE_HOME = 900  # a waste card to its foundation: after the column and cell cards (one further
#                   in scores below UNRANKED, REACH_COST per nearer card, and is ranked by disorder)
UNRANKED = cython.declare(cython.int, 900)  # scores from here up are kept as they are (``ranked``)
CELL_TO_COLUMN = 700  # a cell (or the reserve) card onto a column: frees a cell
COLUMN_TO_COLUMN = cython.declare(cython.int, 500)  # a built group onto another column (plus its size)
WASTE_TO_COLUMN = 450  # the waste card onto a column: a card out of the stock's cycle
LATERAL_USE = cython.declare(cython.int, 200)  # a lateral move with its use (added after ranking)
CELL_TO_SPACE = 120  # a cell card into an empty column: frees a cell, spends a space
WASTE_TO_SPACE = 110  # the waste card into an empty column
COLUMN_TO_SPACE = cython.declare(cython.int, 100)  # a group into an empty column: spends a space
TO_CELL = cython.declare(cython.int, 0)  # a column card to a free cell (then what it leaves decides)
WASTE_TO_CELL = -100  # the waste (or reserve) card to a cell: spends a cell to free little
FOUNDATION_TO_COLUMN = -300  # a foundation card back onto a column: undoes progress
FOUNDATION_TO_SPACE = -350  # ... into an empty column: also spends a space
DEPTH_TO_NEEDED = cython.declare(cython.int, 10)  # per card above a column's first card the foundations take
NO_NEEDED_CARD = cython.declare(cython.int, 20)  # the depth of a column without such a card
REACH_COST = cython.declare(cython.int, 1)  # per waste card nearer than the one a move plays: the nearest first
SUIT_TO_FOUNDATION = cython.declare(cython.int, 2000)  # a whole suit home (Spider): progress, and frees a column
TURN_ALONE = cython.declare(cython.int, -200)  # waste-then-stock: a turn alone, to choose the card that fills a space
DEAL_ROW = cython.declare(cython.int, 450)  # the stock deals a row: after the moves that lower the disorder
#   (``ranked``), before those that leave as much or more (Spider, measured: 1 of 8 deals won at 10 s here
#   and with the row after every move, 0 with it before every ranked move)


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
NONE = cython.declare(cython.int, -(1 << 29))  # a Destinations entry that is None
# The tables as the position keeps them: Leave rows at 0 (by group) and 4 (by cell), Destinations
# rows at 0 (cell), 4 (reserve), 8 (waste), 12 (foundation).
BY_GROUP = cython.declare(cython.int, 0)
BY_CELL = cython.declare(cython.int, 4)
D_CELL = cython.declare(cython.int, 0)
D_RESERVE = cython.declare(cython.int, 4)
D_WASTE = cython.declare(cython.int, 8)
D_FOUNDATION = cython.declare(cython.int, 12)
LEAVES = [*LEAVE_BY_GROUP, *LEAVE_BY_CELL]
DESTINATIONS = [NONE if v is None else v for row in (FROM_CELL, FROM_RESERVE, FROM_WASTE, FROM_FOUNDATION) for v in row]

# -- Disorder (``ranked``): the weights of its terms, and how much one unit of disorder weighs
# against the scores above.
OUT_OF_ORDER_W = cython.declare(cython.int, 3)  # per column card with a lower rank somewhere under it
CELL_W = cython.declare(cython.int, 2)  # per occupied cell
SPACE_W = cython.declare(cython.int, 3)  # per empty column, when spaces take any card (counted negative)
NEED_W = cython.declare(cython.int, 1)  # per card of a group times the cards the foundations need next in its column
FLIP_W = cython.declare(cython.int, 6)  # a face-down card turned up (counted negative)
DIS_W = cython.declare(cython.int, 1000)  # a unit of disorder outweighs most score differences
BREAK_W = 4  # groups of one suit: per face-up card lying on a card it is not built on in suit
ROOT_W = 5  # ... and per card of a column that is one suit from a king at its bottom (counted negative)


# ------------------------------------------------------------------ codes


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def plain_code(src: cython.int, dst: cython.int, n: cython.int, place: cython.int) -> cython.int:
    """Cards from ``src`` to ``dst`` (``moves.CARDS``); ``place``: a waste card further in."""
    return src | (dst << DST_SHIFT) | (n << COUNT_SHIFT) | (place << PLACE_SHIFT)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def joined_code(i: cython.int, j: cython.int, n: cython.int, use_src: cython.int,
                payload: cython.int) -> cython.int:
    """The lateral move (i, j, n) and its use: from ``use_src`` (``HOME_USE``: home), with
    ``payload`` its count or waste place (see the module text)."""
    return JOINED | i | (j << 5) | (n << 10) | (use_src << 17) | (payload << 22)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def joined_src(m: cython.int) -> cython.int:
    """A joined code's lateral move: its column i ..."""
    return m & 31


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def joined_dst(m: cython.int) -> cython.int:
    """... its column j ..."""
    return (m >> 5) & 31


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def joined_n(m: cython.int) -> cython.int:
    """... and its count."""
    return (m >> 10) & 127


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def code_src(m: cython.int) -> cython.int:
    """A plain code's source stack (of a joined code: ``joined_src``)."""
    return m & STACK_MASK


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def code_dst(m: cython.int) -> cython.int:
    return (m >> DST_SHIFT) & STACK_MASK


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def code_n(m: cython.int) -> cython.int:
    return (m >> COUNT_SHIFT) & 127


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def code_kind(m: cython.int) -> cython.int:
    """The kind of a primitive or placed code (a joined code is ``CARDS``: its lateral part)."""
    return CARDS if m & JOINED else (m >> KIND_SHIFT) & 15


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def code_place(m: cython.int) -> cython.int:
    """The waste place of a plain move (0 for a joined move's lateral part)."""
    return 0 if m & JOINED else (m >> PLACE_SHIFT) & 127


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def make_card(rank: cython.int, suit: cython.int) -> cython.int:
    """``cards.make``."""
    return (rank - 1) * 4 + suit


@cython.cfunc
@cython.exceptval(check=False)
def sort_desc(score: cython.p_int, code: cython.p_int, n: cython.int) -> cython.void:
    """A stable sort by score, highest first (insertion sort: a few dozen moves)."""
    i: cython.int
    j: cython.int
    s: cython.int
    c: cython.int
    for i in range(1, n):
        s, c = score[i], code[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            score[j + 1], code[j + 1] = score[j], code[j]
            j -= 1
        score[j + 1], code[j + 1] = s, c


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
        # Lateral moves only together with a use of the card they uncover (see uses_after).
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

    # ----------------------------------------------------------- helpers

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def found_for(self, c: cython.int) -> cython.int:
        """The foundation that takes card c now, or -1."""
        s: cython.int = c & 3
        r: cython.int = c >> 2  # rank - 1
        x: cython.int
        for x in range(self.suit_found_n[s]):
            if self.fh[self.suit_found[s * 8 + x]] == r:
                return self.suit_found[s * 8 + x]
        return -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def seq_len(self, i: cython.int) -> cython.int:
        """Cards at the top of column i that form a built sequence that moves as a unit (all face
        up; with ``suit-sequence``, of one suit)."""
        h: cython.int = self.h[i]
        lo: cython.int = self.down[i]
        base: cython.int = i * MAXH
        j: cython.int
        if not h:
            return 0
        j = h - 1
        while j > lo and self.gfits[self.cols[base + j - 1] * NCARD + self.cols[base + j]]:
            j -= 1
        return h - j

    @cython.cfunc
    @cython.exceptval(check=False)
    def suit_home(self, i: cython.int) -> cython.int:
        """The move of a whole suit from column i to its foundation (``foundations.takes``): the
        column's top cards, face up, from the king to the ace in one suit (with ``column``: the
        whole column); or -1."""
        h: cython.int = self.h[i]
        top: cython.int = self.top
        base: cython.int = i * MAXH + h - 1  # the top card
        s: cython.int
        x: cython.int
        f: cython.int
        if h < top or h - top < self.down[i] or (self.takes == TAKES_COLUMN and h != top) or self.cols[base] >= 4:
            return -1
        s = self.cols[base] & 3
        for x in range(1, top):
            if self.cols[base - x] != make_card(x + 1, s):
                return -1
        for x in range(self.suit_found_n[s]):
            f = self.suit_found[s * 8 + x]
            if self.fh[f] == 0:
                return plain_code(i, self.F + f, top, 0)
        return -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def row_code(self) -> cython.int:
        """The stock's next row: a card onto each column, fewer at the end."""
        return ROW_CODE | (min(self.nrs, self.nc) << COUNT_SHIFT)

    @cython.cfunc
    @cython.exceptval(check=False)
    def row_allowed(self) -> cython.bint:
        """The stock may deal a row now: it has cards, and (``deal-row-no-spaces``) no column is empty."""
        x: cython.int
        if not self.nrs:
            return False
        if self.rows_need_full:
            for x in range(self.nc):
                if not self.h[x]:
                    return False
        return True

    @cython.cfunc
    @cython.exceptval(check=False)
    def max_move(self, to_empty: cython.bint) -> cython.int:
        """The most cards one move may carry onto a card (or, ``to_empty``, into a space)."""
        free: cython.int = 0
        empties: cython.int = 0
        x: cython.int
        if self.policy == SINGLE:
            return 1
        if self.policy == SEQUENCE:
            return ANY_SIZE
        for x in range(self.ncell):
            if self.cells[x] < 0:
                free += 1
        if self.any_space:
            for x in range(self.nc):
                if not self.h[x]:
                    empties += 1
        if to_empty and empties:
            empties -= 1
        return (free + 1) << empties

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

    @cython.cfunc
    @cython.exceptval(check=False)
    def waste_reach(self, out: cython.p_int) -> cython.int:
        """Waste places q (ring[q - 1] playable after turning), nearest first, written to ``out``
        (room for 2 * MAXH + 2); how many."""
        n: cython.int = 0
        q: cython.int
        L: cython.int = self.L
        k: cython.int = self.k
        seen: cython.uchar[129]  # MAXH + 1
        if not cython.compiled:
            seen = [0] * (MAXH + 1)
        if self.wp:
            out[n] = self.wp
            n += 1
        q = self.wp
        while q < L:
            q = min(L, q + k)
            out[n] = q
            n += 1
        if self.redeals != 0 and L:
            for q in range(L + 1):
                seen[q] = 0
            for q in range(n):
                seen[out[q]] = 1
            q = 0
            while q < L:
                q = min(L, q + k)
                if not seen[q]:
                    out[n] = q
                    n += 1
        return n

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
                count += self.play(plain_code(i, self.F + self.found_for(self.cols[i * MAXH + self.h[i] - 1]), 1, 0))
            elif use_src == HOME_USE and payload == SUIT_HOME:  # the suit the move completed goes home
                count += self.play(self.suit_home(joined_dst(move)))
            elif use_src == HOME_USE:  # DEAL_USE: the stock deals a row
                count += self.play(self.row_code())
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
            f = self.found_for(c)
            if f >= 0 and self.safe(c):
                return plain_code(self.W, self.F + f, 1, 0)
        if self.nheel and not self.autofill:
            c = self.heel[self.nheel - 1]
            f = self.found_for(c)
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
        """Every useful legal move, best first, written to ``out``; how many.

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
          it uncovers (``uses_after``).
        Order: by score (the constants at the top of the module), each lowered by the
        disorder the move leaves (``ranked``; when there are several plain moves), lateral
        moves with their use after the plain moves of equal score; among equal scores, the
        order of the generators (columns, cells, waste, reserve, foundations).
        """
        n: cython.int
        x: cython.int
        self.here()
        self.nplain = 0
        self.njoined = 0
        self.waste_only = self.waste_spaces and self.nheel == 0 and self.first_empty >= 0
        self.from_columns()
        self.from_cells()
        self.from_waste()
        self.from_reserve()
        self.from_foundations()
        if self.row_allowed() and not (self.beam and self.first_empty >= 0 and self.left > self.nrs):
            self.add(DEAL_ROW, self.row_code())
        if self.stock_spaces:  # which card fills the next space depends on the turns: they are moves
            if self.wp < self.L:
                self.add(TURN_ALONE, TURN_CODE)
            elif self.L and self.redeals != 0:
                self.add(TURN_ALONE, REDEAL_CODE)
        if self.nplain > 1 or self.njoined:
            self.prepare_disorder()
        if self.nplain > 1:
            for x in range(self.nplain):
                self.psc[x] = self.ranked(self.psc[x], self.pcode[x])
        for x in range(self.njoined):
            self.jsc[x] = self.ranked(self.jsc[x], self.jcode[x]) + LATERAL_USE
        n = self.nplain
        if n + self.njoined > MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        for x in range(self.njoined):
            self.psc[n + x] = self.jsc[x]
            self.pcode[n + x] = self.jcode[x]
        n += self.njoined
        sort_desc(self.psc, self.pcode, n)
        if self.beam and n and self.psc[0] == SUIT_TO_FOUNDATION:
            n = 1  # the finder sends a finished suit home at once (``set_beam``)
        for x in range(n):
            out[x] = self.pcode[x]
        return n

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def add(self, score: cython.int, code: cython.int) -> cython.int:
        if self.nplain >= MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        self.psc[self.nplain] = score
        self.pcode[self.nplain] = code
        self.nplain += 1
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def add_joined(self, score: cython.int, code: cython.int) -> cython.int:
        if self.njoined >= MAX_MOVES:
            raise OverflowError("more legal moves than MAX_MOVES")
        self.jsc[self.njoined] = score
        self.jcode[self.njoined] = code
        self.njoined += 1
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def here(self) -> cython.void:
        """What every generator needs to know about this position: the needed cards, the
        accepting columns per card, the sequences, the first empty column and free cell, the
        largest groups."""
        nc: cython.int = self.nc
        t: cython.int
        x: cython.int
        b: cython.int
        top: cython.int
        r: cython.int
        for x in range(NCARD):
            self.need[x] = 0
            self.accept_n[x] = 0
        for x in range(self.nf):
            r = self.fh[x]
            if r < self.top and self.takes == TAKES_CARD:
                self.need[make_card(r + 1, self.fsuit[x])] = 1
        self.first_empty = -1
        for t in range(nc):
            if self.h[t]:
                top = self.cols[t * MAXH + self.h[t] - 1]
                for x in range(self.under_n[top]):
                    b = self.under[top * NCARD + x]
                    self.accept[b * MAXC + self.accept_n[b]] = t
                    self.accept_n[b] += 1
            elif self.first_empty < 0:
                self.first_empty = t
            self.seqs[t] = self.seq_len(t)
        self.free_cell = -1
        for x in range(self.ncell):
            if self.cells[x] < 0:
                self.free_cell = nc + x
                break
        self.max_nonempty = self.max_move(False)
        self.max_empty = self.max_move(True) if self.first_empty >= 0 else 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_columns(self) -> cython.int:
        """Per column: its top card home, its groups onto columns and into a space, its top to a cell."""
        i: cython.int
        f: cython.int
        d: cython.int
        h: cython.int
        score: cython.int
        for i in range(self.nc):
            h = self.h[i]
            if not h:
                continue
            if self.to_foundation and self.takes == TAKES_CARD:
                f = self.found_for(self.cols[i * MAXH + h - 1])
                if f >= 0:
                    d = self.down[i]
                    self.add(HOME + (HOME_FLIP if d and h - 1 == d else 0), plain_code(i, self.F + f, 1, 0))
            elif self.to_foundation and self.seqs[i] >= self.top:
                f = self.suit_home(i)
                if f >= 0:
                    self.add(SUIT_TO_FOUNDATION, f)
            if not self.waste_only:
                self.groups_from(i)
            if self.free_cell >= 0:
                score = (TO_CELL + self.leave_score(i, 1, BY_CELL)
                         - DEPTH_TO_NEEDED * self.depth_to_needed(i))
                self.add(score, plain_code(i, self.free_cell, 1, 0))
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def groups_from(self, i: cython.int) -> cython.int:
        """The built groups on top of column i (shortest first) onto other columns and into a space."""
        base: cython.int = i * MAXH
        d: cython.int = self.down[i]
        h: cython.int = self.h[i]
        seq: cython.int = self.seqs[i]
        n: cython.int
        b: cython.int
        score: cython.int
        x: cython.int
        j: cython.int
        lateral: cython.bint
        lo: cython.int = 1
        if self.whole:  # only the whole column, when it is one built sequence face up
            if seq < h or d:
                return 0
            lo = h
        for n in range(lo, min(seq, max(self.max_nonempty, self.max_empty)) + 1):
            b = self.cols[base + h - n]  # the group's lowest card
            score = self.leave_score(i, n, BY_GROUP) + n
            if n <= self.max_nonempty:
                lateral = (self.lateral_only_with_use and h - n > d
                           and self.gfits[self.cols[base + h - n - 1] * NCARD + b])
                for x in range(self.accept_n[b]):
                    j = self.accept[b * MAXC + x]
                    if j == i:
                        continue
                    if not self.gfits[self.cols[j * MAXH + self.h[j] - 1] * NCARD + b] and (
                            (self.beam and n < seq) or (self.narrow and (lateral or not (h - n == d or n == h)))):
                        continue
                    if lateral:
                        self.uses_after(i, j, n, COLUMN_TO_COLUMN + score)
                    else:
                        self.add(COLUMN_TO_COLUMN + score, plain_code(i, j, n, 0))
            if (self.first_empty >= 0 and (n < h or self.nrs) and self.space_ok[b] and n <= self.max_empty
                    and (n == 1 or n == min(seq, self.max_empty) or self.any_size_to_space)
                    and not (self.beam and n < min(seq, self.max_empty))):
                self.to_spaces(COLUMN_TO_SPACE + score, i, n, 0)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def to_spaces(self, score: cython.int, src: cython.int, n: cython.int, place: cython.int) -> cython.int:
        """The move of n cards from ``src`` into the first empty column; into each, while the
        stock deals rows (then the columns are not interchangeable: each gets its own stock card)."""
        e: cython.int
        if not self.nrs or self.beam:
            return self.add(score, plain_code(src, self.first_empty, n, place))
        for e in range(self.first_empty, self.nc):
            if not self.h[e] and e != src:
                self.add(score, plain_code(src, e, n, place))
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def leave_score(self, i: cython.int, n: cython.int, leave: cython.int) -> cython.int:
        """What moving the top n cards of column i leaves behind, scored by the ``Leave`` row at
        ``leave``."""
        d: cython.int = self.down[i]
        h: cython.int = self.h[i]
        below: cython.int
        if d and h - n == d:
            return self.leave[leave]
        if n == h:
            return self.leave[leave + 1]
        below = self.cols[i * MAXH + h - n - 1]
        if self.need[below]:
            return self.leave[leave + 2]
        if self.fits[below * NCARD + self.cols[i * MAXH + h - n]]:
            return self.leave[leave + 3]
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def depth_to_needed(self, i: cython.int) -> cython.int:
        """Cards above column i's highest card that the foundations take next."""
        h: cython.int = self.h[i]
        d: cython.int
        for d in range(h):
            if self.need[self.cols[i * MAXH + h - 1 - d]]:
                return d
        return NO_NEEDED_CARD

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_cells(self) -> cython.int:
        j: cython.int
        for j in range(self.ncell):
            if self.cells[j] >= 0:
                self.card_moves(self.cells[j], self.nc + j, D_CELL, 0, 0)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_reserve_piles(self) -> cython.int:
        """The single-card reserve piles' cards: as the reserve's top (home, onto a column, into a
        space, to a free cell); nothing ever goes back into them."""
        j: cython.int
        for j in range(self.ncell, self.ncell + self.nres):
            if self.cells[j] >= 0:
                self.card_moves(self.cells[j], self.nc + j, D_RESERVE, 0, 0)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_waste(self) -> cython.int:
        """Every waste card turning can reach (``waste_reach``), the nearest first."""
        qs: cython.int[258]  # 2 * MAXH + 2
        if not cython.compiled:
            qs = [0] * (2 * MAXH + 2)
        nq: cython.int = self.waste_reach(qs)
        x: cython.int
        q: cython.int
        for x in range(nq):
            q = qs[x]
            self.card_moves(self.ring[q - 1], self.W, D_WASTE, 0 if q == self.wp else q, -REACH_COST * x)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_reserve(self) -> cython.int:
        if self.nheel:
            self.card_moves(self.heel[self.nheel - 1], self.R, D_RESERVE, 0, 0)
        if self.nres:
            self.from_reserve_piles()
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def from_foundations(self) -> cython.int:
        """With ``foundations.removable``: each foundation's top card from a three up."""
        f: cython.int
        if self.removable:
            for f in range(self.nf):
                if self.fh[f] >= 3:
                    self.card_moves(make_card(self.fh[f], self.fsuit[f]), self.F + f, D_FOUNDATION, 0, 0)
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def card_moves(self, c: cython.int, src: cython.int, to: cython.int, place: cython.int,
                   bonus: cython.int) -> cython.int:
        """Card c alone from stack ``src`` to every place that takes it, scored by the
        ``Destinations`` row at ``to`` plus ``bonus``."""
        f: cython.int
        x: cython.int
        if self.dest[to] != NONE and self.takes == TAKES_CARD:
            f = self.found_for(c)
            if f >= 0:
                self.add(self.dest[to] + bonus, plain_code(src, self.F + f, 1, place))
        if self.waste_only and src != self.W:  # (reserve-then-waste: a space, the reserve empty)
            if self.dest[to + 3] != NONE and self.free_cell >= 0:
                self.add(self.dest[to + 3] + bonus, plain_code(src, self.free_cell, 1, place))
            return 0
        for x in range(self.accept_n[c]):
            self.add(self.dest[to + 1] + bonus, plain_code(src, self.accept[c * MAXC + x], 1, place))
        if self.first_empty >= 0 and self.space_ok[c]:
            self.to_spaces(self.dest[to + 2] + bonus, src, 1, place)
        if self.dest[to + 3] != NONE and self.free_cell >= 0:
            self.add(self.dest[to + 3] + bonus, plain_code(src, self.free_cell, 1, place))
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def uses_after(self, i: cython.int, j: cython.int, n: cython.int, score: cython.int) -> cython.int:
        """The lateral move (i, j, n) joined with each use of the card p it uncovers, each added
        with ``score``.

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

        Groups of one suit (``suit-sequence``): "lies on a card p that it builds on" means in
        suit (``gfits``), so that p moves with the group as above.  Whole suits to the
        foundations (``foundations.takes``): p goes home only inside its own whole suit, with
        the cards on it, which is a use listed here (a group onto p) or a move of p with the
        group; but the group on the other column may complete a whole suit there, which goes
        home at once (that column, not p, is touched): a use (``SUIT_HOME``).  A stock dealt in
        rows: a row puts a card on p (p is the top of its column), so a row is a use of p
        (``DEAL_USE``): before a row, the lateral move is needed only just before it.  A row
        only while no column is empty (``deal-row-no-spaces``): the lateral move and every
        move the argument rearranges (the group, or p with it, leaving p's column instead of
        q's) leave both columns as empty or not as the win had them (p and q stay under the
        group's old and new places), so every row of the win stays legal where it is dealt;
        the row as a use is offered only when it is legal (``row_allowed``).
        """
        p: cython.int
        f: cython.int
        k: cython.int
        m: cython.int
        top: cython.int
        x: cython.int
        g: cython.int
        r: cython.int
        nq: cython.int
        qs: cython.int[258]  # 2 * MAXH + 2
        if not cython.compiled:
            qs = [0] * (2 * MAXH + 2)
        self.prim(plain_code(i, j, n, 0))
        p = self.cols[i * MAXH + self.h[i] - 1]
        if self.takes == TAKES_CARD:
            f = self.found_for(p)
            if f >= 0 and self.to_foundation:
                self.add_joined(score, joined_code(i, j, n, HOME_USE, P_HOME))
        elif self.to_foundation and self.suit_home(j) >= 0:
            self.add_joined(score, joined_code(i, j, n, HOME_USE, SUIT_HOME))
        if self.row_allowed():
            self.add_joined(score, joined_code(i, j, n, HOME_USE, DEAL_USE))
        for k in range(self.nc):
            if k == i:
                continue
            top = self.seq_len(k) if k == j else self.seqs[k]
            for m in range(1, top + 1):
                if self.fits[p * NCARD + self.cols[k * MAXH + self.h[k] - m]] and not (k == j and m == n):
                    self.add_joined(score, joined_code(i, j, n, k, m))  # (not the group back)
        nq = self.waste_reach(qs)
        for x in range(nq):
            if self.fits[p * NCARD + self.ring[qs[x] - 1]]:
                self.add_joined(score, joined_code(i, j, n, self.W, 0 if qs[x] == self.wp else qs[x]))
        if self.nheel and self.fits[p * NCARD + self.heel[self.nheel - 1]]:
            self.add_joined(score, joined_code(i, j, n, self.R, 0))
        if self.removable:
            for g in range(self.nf):
                r = self.fh[g]
                if r >= 3 and self.fits[p * NCARD + make_card(r, self.fsuit[g])]:
                    self.add_joined(score, joined_code(i, j, n, self.F + g, 0))
        self.unprim()
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def prepare_disorder(self) -> cython.void:
        """The prefix counts and needed cards of the columns changed since they were counted."""
        i: cython.int
        x: cython.int
        o: cython.int
        m: cython.int
        r: cython.int
        nn: cython.int
        for i in range(self.nc):
            if self.dis_stale[i]:
                self.dis_stale[i] = False
                o, m = 0, 99
                self.pref_out[i * (MAXH + 1)] = 0
                self.pref_min[i * (MAXH + 1)] = 99
                for x in range(self.h[i]):
                    r = self.cols[i * MAXH + x] >> 2
                    if r > m:
                        o += 1
                    else:
                        m = r
                    self.pref_out[i * (MAXH + 1) + x + 1] = o
                    self.pref_min[i * (MAXH + 1) + x + 1] = m
                self.nneed_version[i] = 0
            if self.nneed_version[i] != self.need_version:
                self.nneed_version[i] = self.need_version
                nn = 0
                for x in range(self.h[i]):
                    nn += self.need[self.cols[i * MAXH + x]]
                self.nneed[i] = nn

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def rooted(self, i: cython.int) -> cython.bint:
        """Column i is one group from a king at its bottom, all face up (``seqs`` is this position's)."""
        return (self.h[i] > 0 and self.down[i] == 0 and self.seqs[i] == self.h[i]
                and self.cols[i * MAXH] >> 2 == self.top - 1)

    @cython.cfunc
    @cython.exceptval(check=False)
    def ranked(self, score: cython.int, code: cython.int) -> cython.int:
        """The score lowered (below ``UNRANKED``) by ``DIS_W`` times the disorder the move (its
        first part) leaves.

        A column card is out of order when a card of lower rank lies somewhere under it: it
        must move before that card can go home.  The disorder counts ``OUT_OF_ORDER_W`` per
        such card, ``CELL_W`` per occupied cell, ``-SPACE_W`` per empty column (when spaces
        take any card), ``-FLIP_W`` for a card turned face up, ``NEED_W`` for each card of
        a group times the cards the foundations need next under it, and, with groups of one
        suit, ``BREAK_W`` per face-up card lying on a card it is not built on in suit (such a
        card must move again before its suit can go home whole) and ``-ROOT_W`` per card of a
        column that is one group from a king at its bottom (a suit growing where it can go
        home: Solvitaire's Spider takes only a whole column); computed as the change the move
        makes, from the columns it touches.
        """
        src: cython.int
        dst: cython.int
        n: cython.int
        place: cython.int
        nc: cython.int = self.nc
        d: cython.int = 0
        h: cython.int
        x: cython.int
        m: cython.int
        r: cython.int
        gneed: cython.int
        group: cython.int = -1  # where the moving cards lie in ``cols``, when they come from a column
        card: cython.int = 0  # else the moving card
        if score >= UNRANKED or code_kind(code) != CARDS:
            return score
        if code & JOINED:  # its lateral move
            src, dst, n, place = joined_src(code), joined_dst(code), joined_n(code), 0
        else:
            src, dst, n, place = code_src(code), code_dst(code), code_n(code), code_place(code)
        if src < nc:
            h = self.h[src]
            d += OUT_OF_ORDER_W * (self.pref_out[src * (MAXH + 1) + h - n] - self.pref_out[src * (MAXH + 1) + h])
            if h == n and self.any_space:
                d -= SPACE_W
            if self.down[src] and h - n == self.down[src]:
                d -= FLIP_W
            group = src * MAXH + h - n
            if h - n > self.down[src]:
                d -= self.break_w * (1 - self.gfits[self.cols[group - 1] * NCARD + self.cols[group]])
            d += self.root_w * n * self.rooted(src)
            if self.nneed[src]:
                gneed = 0
                for x in range(n):
                    gneed += self.need[self.cols[group + x]]
                d -= NEED_W * n * (self.nneed[src] - gneed)
        elif src < self.W:
            d -= CELL_W
            card = self.cells[src - nc]
        elif src == self.W:
            card = self.ring[(place or self.wp) - 1]
        elif src == self.R:
            d -= CELL_W
            card = self.heel[self.nheel - 1]
        else:
            card = make_card(self.fh[src - self.F], self.fsuit[src - self.F])
        if dst < nc:
            m = self.pref_min[dst * (MAXH + 1) + self.h[dst]]
            if not self.h[dst] and self.any_space:
                d += SPACE_W
            if self.h[dst]:
                d += self.break_w * (1 - self.gfits[self.cols[dst * MAXH + self.h[dst] - 1] * NCARD
                                                    + (self.cols[group] if group >= 0 else card)])
                d -= self.root_w * n * (self.rooted(dst) and self.gfits[self.cols[dst * MAXH + self.h[dst] - 1] * NCARD
                                                                        + (self.cols[group] if group >= 0 else card)])
            else:
                d -= self.root_w * n * ((self.cols[group] if group >= 0 else card) >> 2 == self.top - 1)
            d += NEED_W * n * self.nneed[dst]
            for x in range(n):
                r = (self.cols[group + x] if group >= 0 else card) >> 2
                if r > m:
                    d += OUT_OF_ORDER_W
                else:
                    m = r
        elif dst < self.W:
            d += CELL_W
        return score - DIS_W * d

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
        n: cython.int = self.waste_reach(out)
        return [out[x] for x in range(n)]
