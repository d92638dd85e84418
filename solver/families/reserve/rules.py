"""The debutante family's rule table: the cards each foundation takes, in order.

Foundation ``f`` is row ``f // 4`` of ``foundations.rows`` and suit ``f % 4``
(clubs, diamonds, hearts, spades); it starts at its row's base (13: the highest
rank in play) and takes the next rank of its suit in its row's direction, one
copy of each.  The DFS position (one source, compiled or not) and the CP-SAT model read this
one table; the referee is written apart, from the rules in words.
"""

from __future__ import annotations

from functools import lru_cache

from ... import cards
from ...deal import foundation_base
from ...errors import UnsupportedError
from ...layout import Layout, Reads


@lru_cache(maxsize=64)
def foundation_sequences(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """``foundation_sequences(layout)[f]``: the cards foundation ``f`` takes, first to last."""
    out = []
    for f in range(layout.foundations.count):
        row = layout.foundations.rows[f // 4]
        base = cards.rank(foundation_base(layout, f))
        ranks = range(base, layout.max_rank + 1) if row.direction > 0 else range(base, 0, -1)
        out.append(tuple(cards.make(rk, f % 4) for rk in ranks))
    return tuple(out)


# The rules the CP-SAT grid model (grid.py) plays, here so that asking costs no OR-Tools import
# (the portfolio asks in its first process, before the search starts).
GRID_READS = Reads("the CP-SAT grid model of the debutante family", {
    "decks": None, "foundations.rows": lambda rows: bool(rows) and all(r in ((1, 1), (13, -1)) for r in rows),
    "foundations.preset": None, "reserve.count": lambda n: n > 0, "reserve.capacity": {0, 1, 2},
    "reserve.access": None, "reserve.accepts": {"any"}, "reserve.deal": None,
    "stock.turn": {"place"}, "stock.top_playable": None,
}, together=(
    (lambda lay: len(lay.foundations.rows) == lay.decks, "decks and foundations.rows: one row per pack"),
    (lambda lay: lay.reserve.access == "last" or lay.reserve.capacity == 2,
     "reserve.access = 'first' (queues) only with reserve.capacity 2"),
))


def grid_supported(layout: Layout) -> bool:
    """Whether the grid model (``grid.py``) is exact for ``layout``'s rules."""
    try:
        GRID_READS.check(layout)
    except UnsupportedError:
        return False
    return True
