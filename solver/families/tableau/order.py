"""The tableau position's legal moves and their order (issue #39: the move ordering in a module
of its own, functions over the position, ``TableauState``; ``TableauPosition.legal`` calls
``legal_moves``).

Every useful legal move, best first.  Left out (each loses no win):

* a column's whole content (every card of it moving) into an empty column: the same position
  with the columns renamed;
* cell to cell, and to any but the first empty cell or the first empty column: the key treats
  cells, and columns, as interchangeable;
* sequences of several cards moving into an empty column when a shorter or longer one could:
  only the longest movable one (single cards are always offered, and a sequence move is only a
  shortcut for single moves through cells and spaces);
* a foundation's ace or two coming back (an ace takes nothing; a two only an ace, which can
  always go to its foundation instead);
* turning the stock: a waste card is offered with its *place*, "turn (and redeal) until it is on
  top, then play it" (``waste_reach``; the position's module text proves turning alone is never
  needed, but where a space takes the waste's or stock's card at once: then a turn alone is a move);
* with groups of any size and no cells, a lateral move (a group leaving a card it is built on,
  turning nothing up) on its own: it comes only joined to a use of the card it uncovers
  (``uses_after``, with its proof; the code's layout: ``codes.py``).

Order: each move gets a score (the constants below), highest first; a stable sort keeps the
order of generation (columns, cells, waste, reserve, foundations) among equal scores.  A
score below ``UNRANKED`` is lowered by the disorder the move leaves (``ranked``; when there
are several plain moves), lateral moves with their use come after the plain moves of equal
score.  The scores are heuristics, not proofs: they change the order of the search, never its
verdict; what is left out above is proved.

The functions read and write the position's fields (``state.pxd``: the scratch of ``legal``,
``need`` to ``jcode``, and the disorder's caches); ``order.pxd`` declares those the position
calls (``legal_moves``, and the queries it shares: ``found_for``, ``suit_home``, ``row_code``,
``waste_reach``).  Layered so: core <- state <- codes <- order <- position.

One source (``solver/families/README.md``, "One source"): compiled by Cython in pure-Python
mode where a compiler exists, interpreted otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..shadow import cython

if not cython.compiled:  # compiled, order.pxd cimports them
    from ..core import MAX_MOVES
    from .codes import (
        CARDS,
        COUNT_SHIFT,
        DEAL_USE,
        HOME_USE,
        JOINED,
        P_HOME,
        REDEAL_CODE,
        ROW_CODE,
        SUIT_HOME,
        TURN_CODE,
        code_dst,
        code_kind,
        code_n,
        code_place,
        code_src,
        joined_code,
        joined_dst,
        joined_n,
        joined_src,
        make_card,
        plain_code,
    )
    from .state import MAXC, MAXH, NCARD, SEQUENCE, SINGLE, TAKES_CARD, TAKES_COLUMN

    if TYPE_CHECKING:  # mypy reads no .pxd, so not the fields (state.pxd): any position here (as in blocked.py)
        TableauState = Any

ANY_SIZE = cython.declare(cython.int, 104)  # a group size no move reaches (two packs)


# -- The scores (the module text).
HOME = cython.declare(cython.int, 1000)  # a card to its foundation: progress, and loses little (position.py's ``safe``)
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


@cython.cfunc
@cython.exceptval(check=False)
def found_for(pos: TableauState, c: cython.int) -> cython.int:
    """The foundation that takes card c now, or -1."""
    s: cython.int = c & 3
    r: cython.int = c >> 2  # rank - 1
    x: cython.int
    for x in range(pos.suit_found_n[s]):
        if pos.fh[pos.suit_found[s * 8 + x]] == r:
            return pos.suit_found[s * 8 + x]
    return -1


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def seq_len(pos: TableauState, i: cython.int) -> cython.int:
    """Cards at the top of column i that form a built sequence that moves as a unit (all face
    up; with ``suit-sequence``, of one suit)."""
    h: cython.int = pos.h[i]
    lo: cython.int = pos.down[i]
    base: cython.int = i * MAXH
    j: cython.int
    if not h:
        return 0
    j = h - 1
    while j > lo and pos.gfits[pos.cols[base + j - 1] * NCARD + pos.cols[base + j]]:
        j -= 1
    return h - j


@cython.cfunc
@cython.exceptval(check=False)
def suit_home(pos: TableauState, i: cython.int) -> cython.int:
    """The move of a whole suit from column i to its foundation (``foundations.takes``): the
    column's top cards, face up, from the king to the ace in one suit (with ``column``: the
    whole column); or -1."""
    h: cython.int = pos.h[i]
    top: cython.int = pos.top
    base: cython.int = i * MAXH + h - 1  # the top card
    s: cython.int
    x: cython.int
    f: cython.int
    if h < top or h - top < pos.down[i] or (pos.takes == TAKES_COLUMN and h != top) or pos.cols[base] >= 4:
        return -1
    s = pos.cols[base] & 3
    for x in range(1, top):
        if pos.cols[base - x] != make_card(x + 1, s):
            return -1
    for x in range(pos.suit_found_n[s]):
        f = pos.suit_found[s * 8 + x]
        if pos.fh[f] == 0:
            return plain_code(i, pos.F + f, top, 0)
    return -1


@cython.cfunc
@cython.exceptval(check=False)
def row_code(pos: TableauState) -> cython.int:
    """The stock's next row: a card onto each column, fewer at the end."""
    return ROW_CODE | (min(pos.nrs, pos.nc) << COUNT_SHIFT)


@cython.cfunc
@cython.exceptval(check=False)
def row_allowed(pos: TableauState) -> cython.bint:
    """The stock may deal a row now: it has cards, and (``deal-row-no-spaces``) no column is empty."""
    x: cython.int
    if not pos.nrs:
        return False
    if pos.rows_need_full:
        for x in range(pos.nc):
            if not pos.h[x]:
                return False
    return True


@cython.cfunc
@cython.exceptval(check=False)
def max_move(pos: TableauState, to_empty: cython.bint) -> cython.int:
    """The most cards one move may carry onto a card (or, ``to_empty``, into a space)."""
    free: cython.int = 0
    empties: cython.int = 0
    x: cython.int
    if pos.policy == SINGLE:
        return 1
    if pos.policy == SEQUENCE:
        return ANY_SIZE
    for x in range(pos.ncell):
        if pos.cells[x] < 0:
            free += 1
    if pos.any_space:
        for x in range(pos.nc):
            if not pos.h[x]:
                empties += 1
    if to_empty and empties:
        empties -= 1
    return (free + 1) << empties


@cython.cfunc
@cython.exceptval(check=False)
def waste_reach(pos: TableauState, out: cython.p_int) -> cython.int:
    """Waste places q (ring[q - 1] playable after turning), nearest first, written to ``out``
    (room for 2 * MAXH + 2); how many."""
    n: cython.int = 0
    q: cython.int
    L: cython.int = pos.L
    k: cython.int = pos.k
    seen: cython.uchar[129]  # MAXH + 1
    if not cython.compiled:
        seen = [0] * (MAXH + 1)
    if pos.wp:
        out[n] = pos.wp
        n += 1
    q = pos.wp
    while q < L:
        q = min(L, q + k)
        out[n] = q
        n += 1
    if pos.redeals != 0 and L:
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


@cython.cfunc
@cython.exceptval(-1, check=False)
def legal_moves(pos: TableauState, out: cython.p_int) -> cython.int:
    """Every useful legal move, best first, written to ``out``; how many (``TableauPosition.legal``;
    what is left out, and the order: the module text)."""
    n: cython.int
    x: cython.int
    here(pos)
    pos.nplain = 0
    pos.njoined = 0
    pos.waste_only = pos.waste_spaces and pos.nheel == 0 and pos.first_empty >= 0
    from_columns(pos)
    from_cells(pos)
    from_waste(pos)
    from_reserve(pos)
    from_foundations(pos)
    if row_allowed(pos) and not (pos.beam and pos.first_empty >= 0 and pos.left > pos.nrs):
        add(pos, DEAL_ROW, row_code(pos))
    if pos.stock_spaces:  # which card fills the next space depends on the turns: they are moves
        if pos.wp < pos.L:
            add(pos, TURN_ALONE, TURN_CODE)
        elif pos.L and pos.redeals != 0:
            add(pos, TURN_ALONE, REDEAL_CODE)
    if pos.nplain > 1 or pos.njoined:
        prepare_disorder(pos)
    if pos.nplain > 1:
        for x in range(pos.nplain):
            pos.psc[x] = ranked(pos, pos.psc[x], pos.pcode[x])
    for x in range(pos.njoined):
        pos.jsc[x] = ranked(pos, pos.jsc[x], pos.jcode[x]) + LATERAL_USE
    n = pos.nplain
    if n + pos.njoined > MAX_MOVES:
        raise OverflowError("more legal moves than MAX_MOVES")
    for x in range(pos.njoined):
        pos.psc[n + x] = pos.jsc[x]
        pos.pcode[n + x] = pos.jcode[x]
    n += pos.njoined
    sort_desc(pos.psc, pos.pcode, n)
    if pos.beam and n and pos.psc[0] == SUIT_TO_FOUNDATION:
        n = 1  # the finder sends a finished suit home at once (``set_beam``)
    for x in range(n):
        out[x] = pos.pcode[x]
    return n


@cython.cfunc
@cython.inline
@cython.exceptval(-1, check=False)
def add(pos: TableauState, score: cython.int, code: cython.int) -> cython.int:
    if pos.nplain >= MAX_MOVES:
        raise OverflowError("more legal moves than MAX_MOVES")
    pos.psc[pos.nplain] = score
    pos.pcode[pos.nplain] = code
    pos.nplain += 1
    return 0


@cython.cfunc
@cython.inline
@cython.exceptval(-1, check=False)
def add_joined(pos: TableauState, score: cython.int, code: cython.int) -> cython.int:
    if pos.njoined >= MAX_MOVES:
        raise OverflowError("more legal moves than MAX_MOVES")
    pos.jsc[pos.njoined] = score
    pos.jcode[pos.njoined] = code
    pos.njoined += 1
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def here(pos: TableauState) -> cython.void:
    """What every generator needs to know about this position: the needed cards, the
    accepting columns per card, the sequences, the first empty column and free cell, the
    largest groups."""
    nc: cython.int = pos.nc
    t: cython.int
    x: cython.int
    b: cython.int
    top: cython.int
    r: cython.int
    for x in range(NCARD):
        pos.need[x] = 0
        pos.accept_n[x] = 0
    for x in range(pos.nf):
        r = pos.fh[x]
        if r < pos.top and pos.takes == TAKES_CARD:
            pos.need[make_card(r + 1, pos.fsuit[x])] = 1
    pos.first_empty = -1
    for t in range(nc):
        if pos.h[t]:
            top = pos.cols[t * MAXH + pos.h[t] - 1]
            for x in range(pos.under_n[top]):
                b = pos.under[top * NCARD + x]
                pos.accept[b * MAXC + pos.accept_n[b]] = t
                pos.accept_n[b] += 1
        elif pos.first_empty < 0:
            pos.first_empty = t
        pos.seqs[t] = seq_len(pos, t)
    pos.free_cell = -1
    for x in range(pos.ncell):
        if pos.cells[x] < 0:
            pos.free_cell = nc + x
            break
    pos.max_nonempty = max_move(pos, False)
    pos.max_empty = max_move(pos, True) if pos.first_empty >= 0 else 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_columns(pos: TableauState) -> cython.int:
    """Per column: its top card home, its groups onto columns and into a space, its top to a cell."""
    i: cython.int
    f: cython.int
    d: cython.int
    h: cython.int
    score: cython.int
    for i in range(pos.nc):
        h = pos.h[i]
        if not h:
            continue
        if pos.to_foundation and pos.takes == TAKES_CARD:
            f = found_for(pos, pos.cols[i * MAXH + h - 1])
            if f >= 0:
                d = pos.down[i]
                add(pos, HOME + (HOME_FLIP if d and h - 1 == d else 0), plain_code(i, pos.F + f, 1, 0))
        elif pos.to_foundation and pos.seqs[i] >= pos.top:
            f = suit_home(pos, i)
            if f >= 0:
                add(pos, SUIT_TO_FOUNDATION, f)
        if not pos.waste_only:
            groups_from(pos, i)
        if pos.free_cell >= 0:
            score = (TO_CELL + leave_score(pos, i, 1, BY_CELL)
                     - DEPTH_TO_NEEDED * depth_to_needed(pos, i))
            add(pos, score, plain_code(i, pos.free_cell, 1, 0))
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def groups_from(pos: TableauState, i: cython.int) -> cython.int:
    """The built groups on top of column i (shortest first) onto other columns and into a space."""
    base: cython.int = i * MAXH
    d: cython.int = pos.down[i]
    h: cython.int = pos.h[i]
    seq: cython.int = pos.seqs[i]
    n: cython.int
    b: cython.int
    score: cython.int
    x: cython.int
    j: cython.int
    lateral: cython.bint
    lo: cython.int = 1
    if pos.whole:  # only the whole column, when it is one built sequence face up
        if seq < h or d:
            return 0
        lo = h
    for n in range(lo, min(seq, max(pos.max_nonempty, pos.max_empty)) + 1):
        b = pos.cols[base + h - n]  # the group's lowest card
        score = leave_score(pos, i, n, BY_GROUP) + n
        if n <= pos.max_nonempty:
            lateral = (pos.lateral_only_with_use and h - n > d
                       and pos.gfits[pos.cols[base + h - n - 1] * NCARD + b])
            for x in range(pos.accept_n[b]):
                j = pos.accept[b * MAXC + x]
                if j == i:
                    continue
                if not pos.gfits[pos.cols[j * MAXH + pos.h[j] - 1] * NCARD + b] and (
                        (pos.beam and n < seq) or (pos.narrow and (lateral or not (h - n == d or n == h)))):
                    continue
                if lateral:
                    uses_after(pos, i, j, n, COLUMN_TO_COLUMN + score)
                else:
                    add(pos, COLUMN_TO_COLUMN + score, plain_code(i, j, n, 0))
        if (pos.first_empty >= 0 and (n < h or pos.nrs) and pos.space_ok[b] and n <= pos.max_empty
                and (n == 1 or n == min(seq, pos.max_empty) or pos.any_size_to_space)
                and not (pos.beam and n < min(seq, pos.max_empty))):
            to_spaces(pos, COLUMN_TO_SPACE + score, i, n, 0)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def to_spaces(pos: TableauState, score: cython.int, src: cython.int, n: cython.int, place: cython.int) -> cython.int:
    """The move of n cards from ``src`` into the first empty column; into each, while the
    stock deals rows (then the columns are not interchangeable: each gets its own stock card)."""
    e: cython.int
    if not pos.nrs or pos.beam:
        return add(pos, score, plain_code(src, pos.first_empty, n, place))
    for e in range(pos.first_empty, pos.nc):
        if not pos.h[e] and e != src:
            add(pos, score, plain_code(src, e, n, place))
    return 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def leave_score(pos: TableauState, i: cython.int, n: cython.int, leave: cython.int) -> cython.int:
    """What moving the top n cards of column i leaves behind, scored by the ``Leave`` row at
    ``leave``."""
    d: cython.int = pos.down[i]
    h: cython.int = pos.h[i]
    below: cython.int
    if d and h - n == d:
        return pos.leave[leave]
    if n == h:
        return pos.leave[leave + 1]
    below = pos.cols[i * MAXH + h - n - 1]
    if pos.need[below]:
        return pos.leave[leave + 2]
    if pos.fits[below * NCARD + pos.cols[i * MAXH + h - n]]:
        return pos.leave[leave + 3]
    return 0


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def depth_to_needed(pos: TableauState, i: cython.int) -> cython.int:
    """Cards above column i's highest card that the foundations take next."""
    h: cython.int = pos.h[i]
    d: cython.int
    for d in range(h):
        if pos.need[pos.cols[i * MAXH + h - 1 - d]]:
            return d
    return NO_NEEDED_CARD


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_cells(pos: TableauState) -> cython.int:
    j: cython.int
    for j in range(pos.ncell):
        if pos.cells[j] >= 0:
            card_moves(pos, pos.cells[j], pos.nc + j, D_CELL, 0, 0)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_reserve_piles(pos: TableauState) -> cython.int:
    """The single-card reserve piles' cards: as the reserve's top (home, onto a column, into a
    space, to a free cell); nothing ever goes back into them."""
    j: cython.int
    for j in range(pos.ncell, pos.ncell + pos.nres):
        if pos.cells[j] >= 0:
            card_moves(pos, pos.cells[j], pos.nc + j, D_RESERVE, 0, 0)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_waste(pos: TableauState) -> cython.int:
    """Every waste card turning can reach (``waste_reach``), the nearest first."""
    qs: cython.int[258]  # 2 * MAXH + 2
    if not cython.compiled:
        qs = [0] * (2 * MAXH + 2)
    nq: cython.int = waste_reach(pos, qs)
    x: cython.int
    q: cython.int
    for x in range(nq):
        q = qs[x]
        card_moves(pos, pos.ring[q - 1], pos.W, D_WASTE, 0 if q == pos.wp else q, -REACH_COST * x)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_reserve(pos: TableauState) -> cython.int:
    if pos.nheel:
        card_moves(pos, pos.heel[pos.nheel - 1], pos.R, D_RESERVE, 0, 0)
    if pos.nres:
        from_reserve_piles(pos)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def from_foundations(pos: TableauState) -> cython.int:
    """With ``foundations.removable``: each foundation's top card from a three up."""
    f: cython.int
    if pos.removable:
        for f in range(pos.nf):
            if pos.fh[f] >= 3:
                card_moves(pos, make_card(pos.fh[f], pos.fsuit[f]), pos.F + f, D_FOUNDATION, 0, 0)
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def card_moves(pos: TableauState, c: cython.int, src: cython.int, to: cython.int, place: cython.int,
               bonus: cython.int) -> cython.int:
    """Card c alone from stack ``src`` to every place that takes it, scored by the
    ``Destinations`` row at ``to`` plus ``bonus``."""
    f: cython.int
    x: cython.int
    if pos.dest[to] != NONE and pos.takes == TAKES_CARD:
        f = found_for(pos, c)
        if f >= 0:
            add(pos, pos.dest[to] + bonus, plain_code(src, pos.F + f, 1, place))
    if pos.waste_only and src != pos.W:  # (reserve-then-waste: a space, the reserve empty)
        if pos.dest[to + 3] != NONE and pos.free_cell >= 0:
            add(pos, pos.dest[to + 3] + bonus, plain_code(src, pos.free_cell, 1, place))
        return 0
    for x in range(pos.accept_n[c]):
        add(pos, pos.dest[to + 1] + bonus, plain_code(src, pos.accept[c * MAXC + x], 1, place))
    if pos.first_empty >= 0 and pos.space_ok[c]:
        to_spaces(pos, pos.dest[to + 2] + bonus, src, 1, place)
    if pos.dest[to + 3] != NONE and pos.free_cell >= 0:
        add(pos, pos.dest[to + 3] + bonus, plain_code(src, pos.free_cell, 1, place))
    return 0


@cython.cfunc
@cython.exceptval(-1, check=False)
def uses_after(pos: TableauState, i: cython.int, j: cython.int, n: cython.int, score: cython.int) -> cython.int:
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
    # the lateral move, on the columns alone (it turns nothing up and empties no column, and
    # nothing here reads the history or the caches; its cards stay where they lay, above column i)
    for x in range(n):
        pos.cols[j * MAXH + pos.h[j] + x] = pos.cols[i * MAXH + pos.h[i] - n + x]
    pos.h[j] += n
    pos.h[i] -= n
    p = pos.cols[i * MAXH + pos.h[i] - 1]
    if pos.takes == TAKES_CARD:
        f = found_for(pos, p)
        if f >= 0 and pos.to_foundation:
            add_joined(pos, score, joined_code(i, j, n, HOME_USE, P_HOME))
    elif pos.to_foundation and suit_home(pos, j) >= 0:
        add_joined(pos, score, joined_code(i, j, n, HOME_USE, SUIT_HOME))
    if row_allowed(pos):
        add_joined(pos, score, joined_code(i, j, n, HOME_USE, DEAL_USE))
    for k in range(pos.nc):
        if k == i:
            continue
        top = seq_len(pos, k) if k == j else pos.seqs[k]
        for m in range(1, top + 1):
            if pos.fits[p * NCARD + pos.cols[k * MAXH + pos.h[k] - m]] and not (k == j and m == n):
                add_joined(pos, score, joined_code(i, j, n, k, m))  # (not the group back)
    nq = waste_reach(pos, qs)
    for x in range(nq):
        if pos.fits[p * NCARD + pos.ring[qs[x] - 1]]:
            add_joined(pos, score, joined_code(i, j, n, pos.W, 0 if qs[x] == pos.wp else qs[x]))
    if pos.nheel and pos.fits[p * NCARD + pos.heel[pos.nheel - 1]]:
        add_joined(pos, score, joined_code(i, j, n, pos.R, 0))
    if pos.removable:
        for g in range(pos.nf):
            r = pos.fh[g]
            if r >= 3 and pos.fits[p * NCARD + make_card(r, pos.fsuit[g])]:
                add_joined(pos, score, joined_code(i, j, n, pos.F + g, 0))
    pos.h[i] += n  # taken back
    pos.h[j] -= n
    return 0


@cython.cfunc
@cython.exceptval(check=False)
def prepare_disorder(pos: TableauState) -> cython.void:
    """The prefix counts and needed cards of the columns changed since they were counted."""
    i: cython.int
    x: cython.int
    o: cython.int
    m: cython.int
    r: cython.int
    nn: cython.int
    for i in range(pos.nc):
        if pos.dis_stale[i]:
            pos.dis_stale[i] = False
            o, m = 0, 99
            pos.pref_out[i * (MAXH + 1)] = 0
            pos.pref_min[i * (MAXH + 1)] = 99
            for x in range(pos.h[i]):
                r = pos.cols[i * MAXH + x] >> 2
                if r > m:
                    o += 1
                else:
                    m = r
                pos.pref_out[i * (MAXH + 1) + x + 1] = o
                pos.pref_min[i * (MAXH + 1) + x + 1] = m
            pos.nneed_version[i] = 0
        if pos.nneed_version[i] != pos.need_version:
            pos.nneed_version[i] = pos.need_version
            nn = 0
            for x in range(pos.h[i]):
                nn += pos.need[pos.cols[i * MAXH + x]]
            pos.nneed[i] = nn


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def rooted(pos: TableauState, i: cython.int) -> cython.bint:
    """Column i is one group from a king at its bottom, all face up (``seqs`` is this position's)."""
    return (pos.h[i] > 0 and pos.down[i] == 0 and pos.seqs[i] == pos.h[i]
            and pos.cols[i * MAXH] >> 2 == pos.top - 1)


@cython.cfunc
@cython.exceptval(check=False)
def ranked(pos: TableauState, score: cython.int, code: cython.int) -> cython.int:
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
    nc: cython.int = pos.nc
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
        h = pos.h[src]
        d += OUT_OF_ORDER_W * (pos.pref_out[src * (MAXH + 1) + h - n] - pos.pref_out[src * (MAXH + 1) + h])
        if h == n and pos.any_space:
            d -= SPACE_W
        if pos.down[src] and h - n == pos.down[src]:
            d -= FLIP_W
        group = src * MAXH + h - n
        if h - n > pos.down[src]:
            d -= pos.break_w * (1 - pos.gfits[pos.cols[group - 1] * NCARD + pos.cols[group]])
        d += pos.root_w * n * rooted(pos, src)
        if pos.nneed[src]:
            gneed = 0
            for x in range(n):
                gneed += pos.need[pos.cols[group + x]]
            d -= NEED_W * n * (pos.nneed[src] - gneed)
    elif src < pos.W:
        d -= CELL_W
        card = pos.cells[src - nc]
    elif src == pos.W:
        card = pos.ring[(place or pos.wp) - 1]
    elif src == pos.R:
        d -= CELL_W
        card = pos.heel[pos.nheel - 1]
    else:
        card = make_card(pos.fh[src - pos.F], pos.fsuit[src - pos.F])
    if dst < nc:
        m = pos.pref_min[dst * (MAXH + 1) + pos.h[dst]]
        if not pos.h[dst] and pos.any_space:
            d += SPACE_W
        if pos.h[dst]:
            d += pos.break_w * (1 - pos.gfits[pos.cols[dst * MAXH + pos.h[dst] - 1] * NCARD
                                                + (pos.cols[group] if group >= 0 else card)])
            d -= pos.root_w * n * (rooted(pos, dst) and pos.gfits[pos.cols[dst * MAXH + pos.h[dst] - 1] * NCARD
                                                                    + (pos.cols[group] if group >= 0 else card)])
        else:
            d -= pos.root_w * n * ((pos.cols[group] if group >= 0 else card) >> 2 == pos.top - 1)
        d += NEED_W * n * pos.nneed[dst]
        for x in range(n):
            r = (pos.cols[group + x] if group >= 0 else card) >> 2
            if r > m:
                d += OUT_OF_ORDER_W
            else:
                m = r
    elif dst < pos.W:
        d += CELL_W
    return score - DIS_W * d
