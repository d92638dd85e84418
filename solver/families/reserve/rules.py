"""The debutante family's rule table: the cards each foundation takes, in order.

Foundation ``f`` is row ``f // 4`` of ``foundations.rows`` and suit ``f % 4``
(clubs, diamonds, hearts, spades); it starts at its row's base (13: the highest
rank in play) and takes the next rank of its suit in its row's direction, one
copy of each.  The DFS position, its compiled twin and the CP-SAT model read this
one table; the referee is written apart, from the rules in words.
"""

from __future__ import annotations

from functools import lru_cache

from ... import cards
from ...deal import foundation_base
from ...layout import Layout


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
