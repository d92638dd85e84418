"""The win finder's evaluation of a position of the debutante family (``solver.engines.finder``).

The family's positions die of one thing: the columns fill before the foundations take their
cards (the forty-first card rule).  So a position is as promising as the room its counting bound
leaves at its tightest turn (``slack``: the columns' places minus the cards out, in the generous
game the bound plays; the more, the better) and the more cards are home (``HOME_W``).  Layouts
whose bound counts no places (columns of any height, a waste) have no slack; there the cards
home and the cards held in columns (``HELD_W``) order the beam alone.

Positions of one bucket have the same number of cards left to turn, so that the beam compares
positions at the same point of the pack.  No proof is needed: the score only orders the finder's
beam, whose wins the referee replays.
"""

from __future__ import annotations

from typing import Any

from ..base import Rate

SLACK_W = 4
HOME_W = 1
HELD_W = 1


class ReserveEvaluation:
    """``base.Evaluation`` for the reserve family's position."""

    WIDTH = 100

    def rate(self, pos: Any) -> tuple[int, int]:
        home = sum(pos.h)
        held = sum(len(col) for col in pos.cols)
        room = pos.slack()
        return len(pos.stock), -SLACK_W * (room or 0) - HOME_W * home + HELD_W * held

    def rates(self) -> list[Rate]:
        """One rating serves: ``rate``."""
        return [self.rate]

    def focus(self, pos: Any, on: bool) -> None:
        """Every move stays: the family's moves are few (a card to a foundation or a column)."""
