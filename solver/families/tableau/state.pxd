# The tableau family's position, its state declared once (issue #39): the fields of the position
# (the deal's rules, the mutable state, the scratch of ``legal`` and of the blocked bound) in a
# base class, ``TableauState``, with the sizes and codes they are read with.  ``state.py`` (one
# source, compiled in pure-Python mode: this file augments it) is the class; the position,
# ``position.py``/``position.pxd``, derives from it and adds the C methods; the bounds and the move
# ordering, functions over the position in modules of their own (``blocked.py``, ``order.py``),
# cimport this file (``from solver.families.tableau.state cimport TableauState``) and read the
# fields at C speed.  Layered so, nothing imports in a circle: core <- state <- codes <- blocked,
# order <- position.
#
# What each field holds is said here, what it is for in ``position.py`` and ``order.py``.  The
# sizes are named here, compile-time constants; interpreted, ``state.py`` gives the same names the
# same values, and the lists are sized from them.

cimport cython

from solver.families.core cimport MAX_MOVES, CorePosition


cdef enum:
    NCARD = 52    # card ints 0..51; two packs share them
    MAXC = 20     # columns at most (as many as a layout may have)
    MAXCELL = 16  # cells at most
    MAXRES = 32   # single-card reserve piles at most (Solvitaire's klondike-reserve: 24)
    MAXF = 8      # foundations at most
    MAXH = 128    # cards in a column, the reserve or the ring at most (the code's 7 bits)
    NLEAVES = 8   # the move ordering's ``Leave`` rows: by group, by cell (4 scores each)
    NDESTINATIONS = 16  # its ``Destinations`` rows: cell, reserve, waste, foundation (4 each)

# Policies (``tableau.moves``; the field ``policy``).
cdef enum:
    SINGLE = 0
    SEQUENCE = 1
    SUPERMOVE = 2

# What a foundation takes (``foundations.takes``; the field ``takes``): one card; a whole suit from a
# column's top; a whole column that is one suit.
cdef enum:
    TAKES_CARD = 0
    TAKES_SUIT = 1
    TAKES_COLUMN = 2


cdef class TableauState(CorePosition):
    # -- the deal and its rules (fixed); the stacks' numbers and ``real`` are read from Python too
    cdef readonly tuple real  # real[renamed card]: the card dealt (``rules.py``)
    cdef readonly int nc  # columns 0..nc-1
    cdef readonly int ncell  # cells nc..nc+ncell-1
    cdef readonly int nres  # single-card reserve piles nc+ncell..W-1
    cdef readonly int W  # the waste
    cdef readonly int F  # foundations F..R-1
    cdef readonly int R  # the reserve
    cdef readonly int nf
    cdef bint counts_redeals  # a position of the layout says how many redeals are left
    cdef int top
    cdef int k  # the stock's deal count
    cdef int policy
    cdef bint has_heel
    cdef bint autofill
    cdef bint whole  # whole-pile: a column's cards go onto a column only all together (``groups_from``)
    cdef bint stock_spaces  # waste-then-stock: the waste's top, else the stock's next card, fills a space at once
    cdef bint waste_spaces  # reserve-then-waste: with the reserve empty, a space lets only the waste onto columns
    cdef bint waste_only  # ... and now is such a time (``legal``)
    cdef bint unlimited
    cdef bint has_face_down
    cdef bint to_foundation
    cdef bint removable
    cdef bint waste_safe
    cdef bint lateral_only_with_use
    cdef bint any_size_to_space
    cdef bint any_space
    cdef int break_w  # BREAK_W with groups of one suit (``ranked``), else 0
    cdef int root_w  # ROOT_W with groups of one suit, else 0
    cdef bint narrow  # only the moves ``set_narrow`` names (a search that can only win)
    cdef bint beam  # only the moves ``set_beam`` names (the win finder's)
    cdef bint blocked_bound
    cdef int takes  # TAKES_CARD, TAKES_SUIT or TAKES_COLUMN
    cdef bint rowdeal  # the stock deals rows onto the columns
    cdef bint rows_need_full  # ... only while no column is empty (``deal-row-no-spaces``)
    cdef unsigned char fits[NCARD * NCARD]  # fits[a * 52 + b], card b may go on card a in a column
    cdef unsigned char gfits[NCARD * NCARD]  # ... and b on a moves with a in a group (suit-sequence: in suit too)
    cdef unsigned char space_ok[NCARD]  # an empty column takes the card
    cdef unsigned char always_safe[NCARD]  # see safe
    cdef int removable_need[NCARD * 4]  # [c * 4 + suit]: see safe
    cdef int under_n[NCARD]  # how many cards may go on the card ...
    cdef unsigned char under[NCARD * NCARD]  # ... and which: under[c * 52 + x]
    cdef unsigned long long over_mask[NCARD]  # bit a set: card c may go on card a (for the blocked bound)
    cdef int fsuit[MAXF]  # each foundation's suit (``Layout.foundation_suit``: f & 3 unless the pack has fewer suits)
    cdef bint few_suits  # a pack of fewer than four suits: more than two copies of a card
    cdef int suit_found_n[4]  # the foundations of each suit ...
    cdef int suit_found[4 * MAXF]  # ... suit_found[s * MAXF + x]
    cdef int leave[NLEAVES]  # LEAVES (``order.py``)
    cdef int dest[NDESTINATIONS]  # DESTINATIONS (``order.py``)

    # -- the mutable state
    cdef unsigned char cols[MAXC * MAXH]  # column i at cols[i * 128 ...]
    cdef int h[MAXC]  # column heights
    cdef int down[MAXC]  # face-down cards at the bottom of each column
    cdef int cells[MAXCELL + MAXRES]  # the cells, then the single-card reserve piles; -1: empty
    cdef int fh[MAXF]  # foundation heights
    cdef unsigned char heel[MAXH]  # the reserve pile, top card last
    cdef int nheel
    cdef unsigned char ring[MAXH]  # stock and waste: ring[:wp] the waste, ring[wp:] the stock
    cdef unsigned char rs[MAXH]  # a stock dealt in rows: its next card last
    cdef int nrs
    cdef int L
    cdef int wp
    cdef int redeals  # left; -1: no limit
    cdef int left  # cards not home
    cdef int[::1] undo  # per primitive: what unprim needs (the waste pointer, or how a column changed)
    cdef int nundo
    cdef int[::1] groups  # per push: its primitives
    cdef int ngroups
    cdef list stacks  # the arrays behind undo and groups (grown by ``grow``)

    # -- scratch for legal (per call; ``order.py``)
    cdef unsigned char need[NCARD]  # the cards the foundations take next
    cdef int accept_n[NCARD]  # per card, the columns whose top card it fits on ...
    cdef unsigned char accept[NCARD * MAXC]  # ... accept[c * MAXC + x]
    cdef int seqs[MAXC]  # per column: the built sequence on top
    cdef int first_empty  # the first empty column, or -1
    cdef int free_cell  # the first free cell's stack number, or -1
    cdef int max_nonempty  # the largest group that may move onto a card
    cdef int max_empty  # the largest group that may move into the first empty column (0: none)
    cdef int nplain
    cdef int njoined
    cdef int psc[MAX_MOVES]  # plain moves' scores and codes
    cdef int pcode[MAX_MOVES]
    cdef int jsc[MAX_MOVES]  # joined moves' likewise
    cdef int jcode[MAX_MOVES]
    # the disorder (``ranked``): per column and height, the cards out of order and the lowest rank
    # below it (pref_out[i * (MAXH + 1) + x]); per column, the cards the foundations need next
    cdef int pref_out[MAXC * (MAXH + 1)]
    cdef int pref_min[MAXC * (MAXH + 1)]
    cdef int nneed[MAXC]
    # caches per column, recomputed only for columns changed since (``touch``): the first key
    # bytes packed into a word (``pack``), the disorder's prefix counts and needed cards
    cdef unsigned long long packed[MAXC]
    cdef unsigned char key_stale[MAXC]
    cdef int key_order[MAXC]  # the columns in key order, as last sorted (nearly sorted next time)
    cdef unsigned char dis_stale[MAXC]
    cdef unsigned long long need_version  # bumped when a foundation changes (the needed cards change)
    cdef unsigned long long nneed_version[MAXC]  # the need_version nneed was counted at (0: never)
    # scratch of the blocked bound (``blocked.py``): per place, per card value, a stack of places
    cdef unsigned char b_card[MAXH]
    cdef int b_above[MAXH]
    cdef int b_below[MAXH]
    cdef unsigned char b_face_down[MAXH]
    cdef unsigned char b_bottom[MAXH]
    cdef unsigned char b_in_column[MAXH]
    cdef unsigned char b_freed[MAXH]
    cdef unsigned char b_leaves[MAXH]
    cdef unsigned char b_goes_home[MAXH]
    cdef unsigned char b_queued[MAXH]
    cdef int b_stack[MAXH]
    cdef int b_top
    cdef int b_n
    cdef int b_homed
    cdef bint b_space
    cdef unsigned long long b_home  # bit c: some copy of card value c is, or goes, home
    cdef unsigned long long b_can_top  # bit c: some copy of card value c can be a top
    cdef int b_nplaces[NCARD]
    cdef int b_ring_count[NCARD]  # copies of each card value in the stock and waste
    cdef unsigned long long b_ring_home  # bit c: the stock's copies of c go home
    cdef unsigned long long b_ring_left  # bit c: the stock's copies of c leave
    cdef int b_places[2 * NCARD]  # [c * 2 + y]
