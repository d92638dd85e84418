"""The hole family's rule table: which ranks are next to each other.

A card goes to the hole when its rank is next to the rank of the hole's top card,
whatever the suit; with ``hole.wrap`` the highest rank in play and the ace are next
to each other too.  The DFS position (compiled or not, one source) and the CP-SAT model read
this one table; the referee is written apart, from the rules in words.
"""

from __future__ import annotations

from functools import lru_cache

from ...layout import Layout


@lru_cache(maxsize=64)
def neighbours(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """``neighbours(layout)[r]``: the ranks next to rank ``r`` (1..13; index 0 is empty), sorted.
    A rank is never its own neighbour, and a pair is not counted twice when ranks wrap."""
    top, wrap = layout.max_rank, layout.hole is not None and layout.hole.wrap
    near: list[tuple[int, ...]] = [()]
    for r in range(1, 14):
        ns = {x for x in (r - 1, r + 1) if 1 <= x <= top}
        if wrap and r in (1, top):
            ns.add(top if r == 1 else 1)
        ns.discard(r)
        near.append(tuple(sorted(ns)))
    return tuple(near)
