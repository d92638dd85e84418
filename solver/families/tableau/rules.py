"""The tableau family's rule table: a layout's build, space and move rules compiled once.

The DFS position (one source, compiled or not) and the CP-SAT model read this table, so
that a rule is written once: whether card b may go on card a in a column
(``fits``, with the layout's rank order: plain, from the foundations' base, or
all the way round), what an empty column takes (``space_ok``), which cards may
come to lie on a card (``under``, for the safe-autoplay rule).  The referee is
written apart, from the rules in words.

Ranks from the deal (Canfield): the cards are renamed so that the foundations'
base rank is the ace (rank r becomes r - base + 1, around the pack's ranks); the
tables are over renamed cards, ``real`` maps them back.  Without a dealt base the
renaming is the identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ... import cards
from ...layout import Layout

NCARD = 52  # card ints 0..51 (rank - 1) * 4 + suit; two packs share them


@dataclass(frozen=True)
class TableauRules:
    top: int  # the highest rank in play
    shift: int  # the dealt base's rank - 1 (0 without one)
    real: tuple[int, ...]  # real[renamed card] = the real card
    rel: tuple[int, ...]  # rel[real card] = the renamed card
    fits: tuple[tuple[bool, ...], ...]  # fits[a][b]: (renamed) card b may go on card a in a column
    space_ok: tuple[bool, ...]  # space_ok[c]: an empty column takes card c
    under: tuple[tuple[int, ...], ...]  # under[c]: the cards that may go on card c
    over: tuple[tuple[int, ...], ...]  # over[c]: the cards that card c may go on (for the blocked bound)
    always_safe: tuple[bool, ...]  # c may always go home at once (see TableauPosition.safe)
    # With removable foundations: per card c and suit s, the height every foundation of suit s
    # must have for c to go home safely (the closure rule of TableauPosition.safe).
    removable_need: tuple[tuple[int, int, int, int], ...]

    def builds_on(self, lower: int, upper: int) -> bool:
        """May the real card ``upper`` be placed on the real card ``lower`` in a column?"""
        return self.fits[self.rel[lower]][self.rel[upper]]


def _fits(a: int, b: int, build: str, direction: int, ranks: list[int], mod: int) -> bool:
    """``ranks[c]``: the rank that orders card c for building; ``mod``: ranks go round."""
    if build == "none":
        return False
    step, want = ranks[a] - ranks[b], (1 if direction < 0 else -1)
    if mod:
        step, want = step % mod, want % mod
    if step != want:
        return False
    if build == "alternate":
        return cards.is_red(a) != cards.is_red(b)
    if build == "suit":
        return cards.suit(a) == cards.suit(b)
    return True


@lru_cache(maxsize=64)
def rules_for(layout: Layout, shift: int = 0) -> TableauRules:
    """The table of ``layout`` with the foundations' base rank ``shift + 1``."""
    t, top = layout.tableau, layout.max_rank
    rel = tuple(cards.make((cards.rank(c) - 1 - shift) % top + 1, cards.suit(c)) if cards.rank(c) <= top else c
                for c in range(NCARD))
    real = [0] * NCARD
    for c in range(NCARD):
        real[rel[c]] = c
    # The rank order for building: the real one, the foundations' one from the base, or round.
    ranks = [cards.rank(c if t.wrap == "from-base" else real[c]) for c in range(NCARD)]
    mod = top if t.wrap == "cyclic" else 0
    fits = tuple(tuple(_fits(a, b, t.build, t.direction, ranks, mod) for b in range(NCARD)) for a in range(NCARD))
    space_ok = tuple(t.spaces in ("any", "reserve-then-any", "reserve-then-waste", "waste-then-stock")
                     or (t.spaces == "kings" and cards.rank(real[c]) == top)
                     for c in range(NCARD))
    under = tuple(tuple(b for b in range(NCARD) if fits[c][b] and cards.rank(b) <= top) for c in range(NCARD))
    over = tuple(tuple(a for a in range(NCARD) if fits[a][c] and cards.rank(a) <= top) for c in range(NCARD))
    # A foundation's first card is always safe when nothing may go on it; its second when only
    # first cards that themselves take nothing may (the proof is in TableauPosition.safe).
    always_safe = tuple((c >> 2 == 0 and not under[c])
                        or (c >> 2 == 1 and all(b >> 2 == 0 and not under[b] for b in under[c]))
                        for c in range(NCARD))
    removable_need = tuple(_closure_need(c, under) for c in range(NCARD))
    return TableauRules(top, shift, tuple(real), rel, fits, space_ok, under, over, always_safe, removable_need)


def _closure_need(c: int, under: tuple[tuple[int, ...], ...]) -> tuple[int, int, int, int]:
    """Per suit, the highest rank of the cards that must all be home for c to go home safely
    when foundation cards may come back (``TableauPosition.safe``): the smallest set X that
    holds c, every card that may go on a card of X, and every lower card of a suit of X
    (a foundation is a pile: a card of X stays home only with the cards under it);
    c itself left out.  Ranks go round only with ``tableau.wrap``, where X may hold every
    card of a suit: then that suit needs its whole foundation, and c is never safe this way.
    """
    x = {c}
    todo = [c]
    while todo:
        a = todo.pop()
        for b in (*under[a], *(cards.make(r, a & 3) for r in range(1, cards.rank(a)))):
            if b not in x:
                x.add(b)
                todo.append(b)
    need = [0, 0, 0, 0]
    for b in x - {c}:
        need[b & 3] = max(need[b & 3], cards.rank(b))
    return need[0], need[1], need[2], need[3]
