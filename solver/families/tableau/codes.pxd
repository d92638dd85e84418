# The tableau position's move codes (``codes.py``, one source: this file augments it): the move
# table's fields as compile-time constants, and the small functions that pack and read a code,
# written here with their bodies so that every module that cimports them (the position,
# ``position.py``; the move ordering, ``order.py``) inlines them (``codes.py`` has the same
# functions for the interpreted build, and checks the constants against ``solver/moves.py``).

# The move table's fields (``solver/moves.py``; ``codes.py`` checks them at import).
cdef enum:
    KIND_SHIFT = 26
    DST_SHIFT = 6
    STACK_MASK = 63
    COUNT_SHIFT = 12
    PLACE_SHIFT = 19
    CARDS = 0  # the kinds' numbers
    TURN = 1
    REDEAL = 2
    ROW = 3
    TURN_CODE = 67112960  # moves.code(moves.TURN)
    REDEAL_CODE = 134221824  # moves.code(moves.REDEAL)
    ROW_CODE = 201326592  # moves.code(moves.ROW, n=0), plus the count dealt
    PRIMITIVE = 524287  # (1 << PLACE_SHIFT) - 1: a move's stacks and count

# The position's own: a lateral move with its use (``codes.py``'s text).
cdef enum:
    JOINED = 1073741824  # 1 << 30
    HOME_USE = 31  # a joined move's use not from a stack, by its payload:
    P_HOME = 0  # the uncovered card goes home
    SUIT_HOME = 1  # the whole suit the move completed on its target column goes home
    DEAL_USE = 2  # the stock deals a row


cdef inline int plain_code(int src, int dst, int n, int place) noexcept:
    return src | (dst << DST_SHIFT) | (n << COUNT_SHIFT) | (place << PLACE_SHIFT)


cdef inline int joined_code(int i, int j, int n, int use_src, int payload) noexcept:
    return JOINED | i | (j << 5) | (n << 10) | (use_src << 17) | (payload << 22)


cdef inline int joined_src(int m) noexcept:
    return m & 31


cdef inline int joined_dst(int m) noexcept:
    return (m >> 5) & 31


cdef inline int joined_n(int m) noexcept:
    return (m >> 10) & 127


cdef inline int code_src(int m) noexcept:
    return m & STACK_MASK


cdef inline int code_dst(int m) noexcept:
    return (m >> DST_SHIFT) & STACK_MASK


cdef inline int code_n(int m) noexcept:
    return (m >> COUNT_SHIFT) & 127


cdef inline int code_kind(int m) noexcept:
    return CARDS if m & JOINED else (m >> KIND_SHIFT) & 15


cdef inline int code_place(int m) noexcept:
    return 0 if m & JOINED else (m >> PLACE_SHIFT) & 127


cdef inline int make_card(int rank, int suit) noexcept:
    return (rank - 1) * 4 + suit
