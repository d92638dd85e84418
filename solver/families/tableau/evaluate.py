"""The win finder's evaluation of a tableau position (``solver.engines.finder``).

A weighted count of what stands between the position and a win, lower is better, read from the
position's ``measure`` in one call:

- a face-down card: unseen, and everything on it must move first (``down``);
- a break: a face-up card on a card it does not move with (``gfits``: in Spider, another suit or
  rank), so it must move again before its column is in order (``breaks``);
- a card out of order: a lower rank lies somewhere under it (``disorder``);
- an empty column: room to reorder (counted against, ``empty``); an occupied cell
  (``held``); a card home (``home``); a card of a column built from a king at its bottom,
  the shape a suit takes before it goes home (``rooted``); a card on the waste, where only
  the top card plays (``waste``).

The weights were set by measurement on deals outside the recorded ones (Spider, Forty Thieves,
``benchmarks/finder.py``); no proof is needed: the score only orders the finder's beam, and the
finder reports nothing but wins that the referee replays.

**Three weight sets, one a run** (``WEIGHTS``).  The finder starts again with twice the width
whenever its beam dies out, and each run takes the next set.  A beam is sensitive to its weights
in a way no single set cures: on PySolFC's Spider 1001..1070 (3 million nodes a deal, the finder
alone), the first set left 1010, 1019 and 1042 open, the second (a face-down card counts more, a
space less) 1040 and 1051, the third 1041 and 1051 (set by set about the same: 67, 68 and 68 of
70), while the four deals of 1..200 that the first set leaves open at 60 s fell to the three in
turn in 0.5 to 1.4 million nodes each.  Taking them in turn costs a run on a deal the first set
wins (the same 67 of 70 there), and gives a deal that defeats one set the others.

**A card on the waste counts against** (``waste``): where the stock goes round once (Forty
Thieves), a card turned onto the waste and left there is buried under the next ones. Measured with
the finder alone at 1 million nodes a deal (the first weight set alone): Forty Thieves 1..20 won 1
with ``waste = 0``, 2 with 3, 5 with 8, 12 or 16; on 21..40, 2 with 0 and 5 with 8. Spider has no
waste; Klondike draw one (the waste comes round again) stays about as it was: 23 and 22 of
PySolFC's 32000..32029 at 200,000 nodes.

**Tried on Forty Thieves and not kept** (the finder alone, the three sets in turn, PySolFC's deals
11..40 at 1 million nodes, where the sets as they are win 8 of 30): a card home at 10 (4 won), rank
disorder at 4 (5), spaces at twice their weight (3), the waste at 4 (4); a further count, the
cards above each card a foundation takes next (in a column, on the waste, in the stock), at 1, 2,
4 and 8 (3, 4, 5, 4); one bucket for every position at width 50, 100, 200, 400 and 800 (8, 9, 11,
6, 0) and a bucket per stock card (0).  One bucket at width 200, the one gain, won 14 of 41..70
at 4 million nodes against 15 for the buckets below.  Restarts at the same width (not doubled)
with each kept child's score shaken by a seeded -6..6 from the second run on: 41..70 won 13 at 2
million nodes (the finder as it is: 12) and 17 at 6 million (16); the two together win 19 at 6
million each, so two different beams side by side look worth more than either alone (not built).

The bucket is the number of cards still to deal (stock, rows, reserve) divided by the columns,
so that in Spider the positions before and after each row do not crowd each other out of the
beam (KPat's solver keeps its beam per row left to deal), and in a game with a stock positions
far apart in the stock each keep their places.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..base import Rate


class Weights(NamedTuple):
    """The weight of each count ``measure`` gives (the module text)."""

    down: int
    breaks: int
    disorder: int
    empty: int
    held: int
    home: int
    rooted: int
    waste: int


WEIGHTS = (
    Weights(down=8, breaks=10, disorder=0, empty=12, held=4, home=3, rooted=1, waste=8),
    Weights(down=12, breaks=10, disorder=0, empty=6, held=4, home=3, rooted=1, waste=8),
    Weights(down=16, breaks=10, disorder=0, empty=8, held=4, home=3, rooted=1, waste=8),
)


class TableauEvaluation:
    """``base.Evaluation`` for the tableau family's position."""

    WIDTH = 100

    def __init__(self, columns: int, weights: tuple[Weights, ...] = WEIGHTS):
        self.columns = max(1, columns)
        self.weights = weights

    def rates(self) -> list[Rate]:
        """One rating a weight set, for the finder's runs in turn."""
        return [self._rating(w) for w in self.weights]

    def _rating(self, w: Weights) -> Rate:
        columns = self.columns

        def rate(pos: Any) -> tuple[int, int]:
            down, breaks, disorder, empty, held, home, to_deal, rooted, waste = pos.measure()
            return to_deal // columns, (w.down * down + w.breaks * breaks + w.disorder * disorder
                                        - w.empty * empty + w.held * held - w.home * home
                                        - w.rooted * rooted + w.waste * waste)

        return rate

    def focus(self, pos: Any, on: bool) -> None:
        """The position's own narrowing for the finder (``set_beam``: with groups of one suit, a
        suit breaks only where it grows, as KPat's Spider solver plays)."""
        pos.set_beam(on)
