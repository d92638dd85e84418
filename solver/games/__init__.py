"""Game families: a layout and a deal compiled into a ``Position`` for the engines.

The family is chosen by what the layout holds, never by its name: a hole
(Black Hole, Golf), reserve columns without a tableau (the debutante family), a
tableau (FreeCell and friends; with a reserve, Canfield), a peg board.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedError
from ..game import Position


def start_position(layout: Any, deal: Any) -> Position:
    if hasattr(layout, "start_position"):  # layouts that compile themselves (peg boards)
        return layout.start_position(deal)
    if layout.hole is not None:
        from .hole import HolePosition

        return HolePosition(layout, deal)
    if layout.reserve.count and not layout.tableau.count:
        from .reserve import ReservePosition

        return ReservePosition(layout, deal)
    if layout.tableau.count:
        from .tableau import TableauPosition

        return TableauPosition(layout, deal)
    raise UnsupportedError(f"layout {layout.name!r}: no engine implements its moves yet")
