"""The tableau family: FreeCell and its relatives, Klondike, Canfield, Baker's Dozen, Forty Thieves.

- ``position``: the DFS's position, its dominances and move ordering.
- ``referee``: an independent replay of a solution, from the rules in words.
- ``model``: the CP-SAT model of the open games (no stock, no face-down cards).
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...layout import Layout
from ..base import Model, Position
from ..card import CardFamily, Deal


class TableauFamily(CardFamily):
    name: ClassVar[str] = "tableau"

    def start_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import TableauPosition

        return TableauPosition(layout, deal)

    def cpsat_model(self, layout: Layout) -> type[Model]:
        from .model import TableauModel

        return TableauModel

    def replay(self, layout: Layout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        from .referee import replay

        return replay(layout, deal, solution)
