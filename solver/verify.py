"""Replay a solution against a layout's rules, sharing no code with the engines.

The referees in ``solver/referee/`` are written from the rules in words, on
plain lists of card names, as slowly and plainly as a person would check a
game: they never import the engines' move generation.
"""

from __future__ import annotations

from typing import Any


def verify_solution(layout: Any, deal: Any, solution: list[dict[str, Any]]) -> str | None:
    """None if ``solution`` is legal move by move and wins; else what is wrong, naming the move."""
    if hasattr(layout, "verify_solution"):  # layouts that referee themselves (peg boards)
        return layout.verify_solution(deal, solution)
    if layout.hole is not None:
        from .referee.hole import replay
    elif layout.reserve.count and not layout.tableau.count:
        from .referee.reserve import replay
    elif layout.tableau.count:
        from .referee.tableau import replay
    else:
        return f"no referee for layout {layout.name!r}"
    return replay(layout, deal, solution)
