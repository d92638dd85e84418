"""The gaps family (Gaps): a grid of the pack without its aces, filled in order through four gaps.

- ``layout``: the layout file reader and ``GapsLayout`` (words, deals, Solvitaire's forms).
- ``rules``: the rule table (which card may lie right of which; the twos a row's left end takes).
- ``position``: the DFS's position (one source: compiled where it is built).
- ``referee``: an independent replay of a solution, from the rules in words.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...errors import UnsupportedError
from ..base import LayoutReader
from ..spread import SpreadFamily


class GapsFamily(SpreadFamily):
    name: ClassVar[str] = "gaps"
    picture: ClassVar[str] = "grid"

    @property
    def layout_type(self) -> type:  # type: ignore[override]
        from .layout import GapsLayout

        return GapsLayout

    def compiled_position(self, layout: Any, deal: Any) -> Any:
        from .position import COMPILED, GapsPosition

        if not COMPILED:
            raise UnsupportedError("the gaps family's position is not compiled (it runs interpreted)")
        return GapsPosition(layout, deal)


def _parse(data: dict[str, Any], where: str, name: str) -> Any:
    from .layout import parse_gaps_layout

    return parse_gaps_layout(data, where, name)


READER = LayoutReader(claims=lambda data: "gaps" in data, parse=_parse)
