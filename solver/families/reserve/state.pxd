# The reserve (debutante) family's position, its state declared once (issue #39): the fields of the
# position (the deal's rules and tables, the mutable state, the scratch of the generous game, of
# learning and of the timed copy count) in a base class, ``ReserveState``, with the sizes and codes
# they are read with.  ``state.py`` (one source, compiled in pure-Python mode: this file augments
# it) is the class; the position, ``position.py``/``position.pxd``, derives from it and adds the C
# methods; the bounds and the learning, functions over the position in modules of their own
# (``copies.py``, ``relaxed.py``, ``learned.py``, ``timed.py``, ``dead_ends.py``), cimport this
# file (``from solver.families.reserve.state cimport ReserveState``) and read the fields at C speed.
# Layered so, nothing imports in a circle:
# core <- state <- copies <- relaxed <- learned, timed <- dead_ends <- position.
#
# What each field holds is said here, what it is for in the module that uses it.  The sizes are
# named here, compile-time constants; interpreted, ``state.py`` gives the same names the same
# values, and the lists are sized from them.

cimport cython

from solver.families.core cimport CorePosition


cdef enum:
    NCARD = 64     # card ints 0..63 (a value's low 6 bits; ``card | marks << 6``)
    VALUES = 256   # card values: card | marks << 6 (bit 6 + row: never to that row's foundation)
    SEQ = 16       # room per foundation in ``fseq`` and ``pmask`` (13 cards, one past)
    MAXF = 64      # foundations at most (16 rows)
    MAXC = 64      # columns at most (the layout schema's limit)
    MAXCARDS = 255  # cards at most (a byte each in the key)
    NSUIT = 4      # suits: foundation f's suit is f % 4 (the copy count's and the timed count's)
    # the timed copy count's scratch (``timed.py``)
    TM_ITEMS = 256  # items at most: the cards off the foundations
    TM_TURNS = 256  # turns at most: the stock's cards, and one
    TM_FRONT = 1024  # kept sharings per suit at most (2 ** MAX_CHOICES)
    TM_GONE = 32   # room per kept sharing in ``tm_front``: a suit's two foundations' cards (26)
    MEMO = 65536   # keys the timed and pairing bounds' memos keep at most

# stock.turn (the field ``turn``)
cdef enum:
    T_NONE = 0
    T_PLACE = 1
    T_WASTE = 2
    T_DEALROW = 3

# Stack codes (``position.py``: moves are pairs of them): column i >= 0, the stock, the waste, a
# row dealt to every column, a decision's "never to these foundations", foundation f at FOUND + f.
cdef enum:
    C_STOCK = -1
    C_WASTE = -2
    C_ROW = -3
    C_COMMIT = -4
    C_FOUND = 1000


cdef inline unsigned long long bit(int c) noexcept:
    """The 64-bit word with bit c set (``state.py``'s ``bit`` interpreted)."""
    return (<unsigned long long>1) << c


cdef class ReserveState(CorePosition):
    # -- the deal and its rules (fixed)
    cdef readonly int ncols
    cdef readonly int nf
    cdef readonly int total  # the cards of the game
    cdef readonly bint fifo  # columns are queues (``reserve.access = "first"``)
    cdef int capacity
    cdef int stride  # room per column in ``colbuf``
    cdef int turn  # stock.turn: T_PLACE, ...
    cdef int deal_count
    cdef int batch_size
    cdef int waste_capacity
    cdef int c_slots  # the columns' places (-1: columns of any height)
    cdef bint exact  # the foundations hold exactly the pack (one row per pack)
    cdef readonly bint timed  # the timed copy count runs
    cdef readonly bint pairs  # the pairing bound runs
    cdef bint suit_sequence
    cdef bint refill
    cdef bint gaps_any_top
    cdef bint interchangeable
    cdef bint dominance
    cdef bint column_dominance
    cdef bint unlimited_redeals  # the key leaves redeals_left out
    cdef int fseq[MAXF * SEQ]  # foundation f takes fseq[f * SEQ + i] in order
    cdef int seq_len[MAXF]  # per foundation
    cdef int fd[VALUES * MAXF]  # fdests, the foundations a value may go to ([v * nf + k]) ...
    cdef int fdw[VALUES * MAXF]  # ... and where[f][v] for the k-th of them (f = fd[v * nf + k])
    cdef int fd_n[VALUES]
    cdef unsigned long long pmask[MAXF * SEQ]  # the cards seq[f][0..i) as a mask (``_buried``)
    cdef int cwhere[MAXF * NCARD]  # where[f][c] for a card c without marks (the copy count)
    cdef tuple tables  # (seq, where, fdests) as Python lists, for ``pairing.py`` and the tests
    cdef int room  # set by the relaxed play: the counts' least room over the turns
    cdef dict tm_memo  # the timed count's horizon by position key
    cdef dict pr_memo  # the pairing bound's horizon by position key

    # -- the mutable state
    cdef unsigned char colbuf[MAXC * MAXCARDS]  # column i is col_len[i] values at colbuf[i * stride ...]
    cdef int col_len[MAXC]
    cdef unsigned char stock_buf[MAXCARDS + 1]  # the end is the next card to turn
    cdef unsigned char waste_buf[MAXCARDS + 1]  # the end is the top card
    cdef int stock_n
    cdef int waste_n
    cdef int heights[MAXF]  # foundation heights
    cdef int needs[MAXF]  # the card each foundation takes next, -1 when finished
    cdef int remaining[NCARD]  # copies of each card not yet on a foundation
    cdef readonly int placed  # cards on the foundations
    cdef readonly int redeals_left
    cdef readonly int batch_left  # placements left in the open batch
    cdef int[::1] undo  # per move played, what ``pop`` needs
    cdef int nundo
    # -- kept from the state by push and pop (not state of their own)
    cdef unsigned long long want  # the cards some foundation takes now (the ``needs``, as bits)
    cdef unsigned long long sk[MAXC]  # per column: its length and first 7 values, the key order's first test
    cdef int korder[MAXC]  # the columns sorted by (length, values): the key's order
    cdef int kpos[MAXC]  # the place of each column in ``korder``

    # -- scratch: the generous game (``relaxed.py``), one at a time
    cdef int g_hh[MAXF]  # foundation heights in the generous game
    cdef int g_nd[MAXF]  # the card each foundation needs next (-1: finished)
    cdef unsigned long long g_can[MAXF]  # per foundation: the cards it could take by now (bit per card)
    cdef int g_left[MAXC]  # cards still in each column
    cdef int g_nxt[MAXC]  # by_card's linked lists: the next column showing the same card
    cdef int g_todo[MAXF * NCARD]  # foundations that may move on (a stack; each once per card offered)
    cdef int g_ntodo
    cdef int g_seen  # copies seen: in columns, or turned so far
    cdef int g_gone  # most copies that can have left, summed over cards
    cdef int g_head[NCARD]  # by_card: card -> first and last column showing it (-1: none)
    cdef int g_tail[NCARD]
    cdef int g_seen_of[NCARD]  # copies of each card seen
    cdef int g_passed[NCARD]  # foundations taken past each card since now
    cdef int g_turns  # pack cards turned
    cdef int g_held_col  # ``held`` (``generous``): the column of a copy that never leaves ...
    cdef int g_held_left  # ... when the column holds this many cards (-1: none)
    cdef int g_held_turn  # ... or the turn of a pack card that never leaves (-1: none)
    # the copy count (``copies.py``), with two rows of foundations
    cdef bint g_copies
    cdef int g_both[NCARD]  # free copies that may go to either row
    cdef int g_only0[NCARD]  # free copies that may go to row 0 only
    cdef int g_only1[NCARD]  # ... to row 1 only
    cdef int g_best[NSUIT]  # per suit, the most cards its two foundations can take
    cdef bint g_dirty[NSUIT]  # g_best[s] is stale
    cdef unsigned char snap[(MAXCARDS + 1) * MAXF]  # the generous game's heights at each stock length
    cdef bint snap_ok  # snap holds this position's generous game to the end (set by dead)
    cdef unsigned char lk[MAXC * MAXCARDS]  # the learned key's columns (``learned.py``)
    # the timed copy count's scratch (``timed.py``): items, kept sharings and their curves, the search
    cdef int tm_ints[7 * TM_ITEMS]
    cdef unsigned char[::1] tm_front  # NSUIT * TM_FRONT * TM_GONE
    cdef int[::1] tm_curves  # NSUIT * TM_FRONT * TM_TURNS
    cdef int tm_best[NSUIT * TM_TURNS]
    cdef int tm_rest[(NSUIT + 1) * TM_TURNS]
    cdef int tm_acc[(NSUIT + 1) * TM_TURNS]
    cdef int tm_nfront[NSUIT]
    cdef int tm_total[NSUIT]
    cdef int tm_tried
