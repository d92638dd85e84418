"""The win finder's evaluation of a tableau position (``solver.engines.finder``).

A weighted count of what stands between the position and a win, lower is better, read from the
position's ``measure`` in one call:

- a face-down card: unseen, and everything on it must move first (``DOWN_W``);
- a break: a face-up card on a card it does not move with (``gfits``: in Spider, another suit or
  rank), so it must move again before its column is in order (``BREAK_W``);
- a card out of order: a lower rank lies somewhere under it (``DISORDER_W``);
- an empty column: room to reorder (counted against, ``EMPTY_W``); an occupied cell
  (``HELD_W``); a card home (``HOME_W``); a card of a column built from a king at its bottom,
  the shape a suit takes before it goes home (``ROOTED_W``); a card on the waste, where only
  the top card plays (``WASTE_W``).

The weights were set by measurement on deals outside the recorded ones (Spider, Forty Thieves,
``benchmarks/finder.py``); no proof is needed: the score only orders the finder's beam, and the
finder reports nothing but wins that the referee replays.

The bucket is the number of cards still to deal (stock, rows, reserve) divided by the columns,
so that in Spider the positions before and after each row do not crowd each other out of the
beam (KPat's solver keeps its beam per row left to deal), and in a game with a stock positions
far apart in the stock each keep their places.
"""

from __future__ import annotations

from typing import Any

DOWN_W = 8
BREAK_W = 10
DISORDER_W = 0
EMPTY_W = 12
HELD_W = 4
HOME_W = 3
ROOTED_W = 1
WASTE_W = 0


class TableauEvaluation:
    """``base.Evaluation`` for the tableau family's position."""

    WIDTH = 100

    def __init__(self, columns: int):
        self.columns = max(1, columns)

    def rate(self, pos: Any) -> tuple[int, int]:
        down, breaks, disorder, empty, held, home, to_deal, rooted, waste = pos.measure()
        return to_deal // self.columns, (DOWN_W * down + BREAK_W * breaks + DISORDER_W * disorder - EMPTY_W * empty
                                         + HELD_W * held - HOME_W * home - ROOTED_W * rooted + WASTE_W * waste)

    def focus(self, pos: Any, on: bool) -> None:
        """The position's own narrowing for the finder (``set_beam``: with groups of one suit, a
        suit breaks only where it grows, as KPat's Spider solver plays)."""
        pos.set_beam(on)
