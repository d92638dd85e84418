"""The hole family (Black Hole, Golf, Worm Hole): every card goes to one pile, one rank up or down.

- ``position``: the DFS's position, its bounds and forced moves.
- ``_core``: the same position compiled (Cython), for the compiled DFS.
- ``referee``: an independent replay of a solution, from the rules in words.
- ``model``: the CP-SAT model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...errors import UnsupportedError
from ...layout import Layout
from ..base import Model, Position, Referee
from ..card import CardFamily, Deal


class HoleFamily(CardFamily):
    name: ClassVar[str] = "hole"

    def start_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import HolePosition

        return HolePosition(layout, deal)

    def compiled_position(self, layout: Layout, deal: Deal) -> Position:
        from .position import HolePosition

        if layout.cells.count:
            raise UnsupportedError(f"layout {layout.name!r}: the hole family's compiled core has no cells; "
                                   "use --core python")
        try:
            from ._core import HoleCore
        except ImportError as e:
            raise UnsupportedError(f"the hole family's compiled core is not built ({e})") from None
        return HoleCore(HolePosition(layout, deal))

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
