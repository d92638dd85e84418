"""The accordion family (Accordion, Late-binding Solitaire): a row of piles closing up into one.

- ``layout``: the layout file reader and ``AccordionLayout`` (words, deals, Solvitaire's forms).
- ``rules``: the rule table (which top cards match, how far a pile moves).
- ``position``: the DFS's position and its bound.
- ``referee``: an independent replay of a solution, from the rules in words.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..base import LayoutReader
from ..spread import SpreadFamily


class AccordionFamily(SpreadFamily):
    name: ClassVar[str] = "accordion"
    picture: ClassVar[str] = "row"

    @property
    def layout_type(self) -> type:  # type: ignore[override]
        from .layout import AccordionLayout

        return AccordionLayout


def _parse(data: dict[str, Any], where: str, name: str) -> Any:
    from .layout import parse_accordion_layout

    return parse_accordion_layout(data, where, name)


READER = LayoutReader(claims=lambda data: "accordion" in data, parse=_parse)
