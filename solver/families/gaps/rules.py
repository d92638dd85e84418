"""The gaps family's rule table: which cards may lie just right of which.

A card may go into a gap when it is one rank above the card just left of the gap and, by the
layout's ``build``, of its suit (``"suit"``), of the other colour (``"alternate"``) or of any
suit (``"any"``); a gap at the left end of a row takes a two (with ``row_suits``, only the two
of that row's suit).  The DFS position reads these tables; the referee is written apart, from
the rules in words.
"""

from __future__ import annotations

from functools import lru_cache

from ... import cards

BUILDS = ("suit", "alternate", "any")
ROWS = 4


def fits_right(build: str, left: int, card: int) -> bool:
    """Whether ``card`` may lie just right of ``left`` (both card ints)."""
    if cards.rank(card) != cards.rank(left) + 1:
        return False
    if build == "suit":
        return cards.suit(card) == cards.suit(left)
    if build == "alternate":
        return cards.is_red(card) != cards.is_red(left)
    return True


@lru_cache(maxsize=32)
def successors(build: str, top: int) -> tuple[tuple[int, ...], ...]:
    """``successors(build, top)[c]``: the cards (ranks up to ``top``) that may lie just right of card ``c``."""
    pack = [c for c in range(52) if 2 <= cards.rank(c) <= top]
    return tuple(tuple(x for x in pack if fits_right(build, c, x)) for c in range(52))


@lru_cache(maxsize=32)
def left_end_twos(row_suits: str) -> tuple[tuple[int, ...], ...]:
    """``left_end_twos(row_suits)[r]``: the twos the left end of row ``r`` takes."""
    if not row_suits:
        return tuple(tuple(cards.make(2, s) for s in range(4)) for _ in range(ROWS))
    return tuple((cards.make(2, cards.SUITS.index(s)),) for s in row_suits)
