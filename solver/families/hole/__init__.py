"""The hole family (Black Hole, Golf, Worm Hole): every card goes to one pile, one rank up or down.

- ``position``: the DFS's position, its bounds and forced moves: one source, compiled by Cython
  where a compiler exists (then the compiled DFS drives it), interpreted otherwise.
- ``referee``: an independent replay of a solution, from the rules in words.
- ``model``: the CP-SAT model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ... import solvitaire
from ...errors import UnsupportedError
from ...layout import Layout
from ..base import Model, Position, Referee
from ..card import CardFamily, Deal


class HoleFamily(CardFamily):
    name: ClassVar[str] = "hole"
    peers: ClassVar[tuple[str, ...]] = ("black-hole-solver", "solvitaire")

    def solvitaire_rules(self, layout: Layout) -> dict[str, Any] | None:
        return solvitaire.hole_rules(layout)

    def start_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import HolePosition

        return HolePosition(layout, deal)

    def compiled_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import COMPILED, HolePosition

        if not COMPILED:
            raise UnsupportedError("the hole family's position is not compiled (it runs interpreted)")
        return HolePosition(layout, deal)

    def cpsat_model(self, layout: Layout) -> type[Model]:
        from .model import HoleModel, check_supported

        check_supported(layout)
        return HoleModel

    def referee(self, layout: Layout, deal: Deal) -> Referee:
        from .referee import HoleGame

        return HoleGame(layout, deal)

    def replay(self, layout: Layout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        from .referee import replay

        return replay(layout, deal, solution)
