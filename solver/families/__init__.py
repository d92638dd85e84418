"""The game families, registered by name, and the layout loader.

``family_of(layout)`` is the one way to find what plays a layout: the layout's
``family`` field names a registered ``GameFamily`` (see ``base``).  Layout files
are read by the registered ``LayoutReader`` that claims them: Solvitaire's
rules by their ending (``.json``, mapped onto the layout of whichever family plays
them), else the one that claims their TOML: games of chance (a top-level ``game``
key), peg boards (a ``[board]`` table), a row of piles (an ``[accordion]`` table),
a grid with gaps (a ``[gaps]`` table), else card layouts.

    ground  <-  families (card: reserve, hole, tableau; spread: accordion, gaps; peg; chance)
            <-  engines  <-  services  <-  face
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from .. import solvitaire
from ..errors import UnsupportedError
from ..layout import Layout
from ..schema import apply_settings, decode, read_layout_file
from . import accordion, card, chance, gaps, peg
from .accordion import AccordionFamily
from .base import GameFamily, LayoutReader, Model, Position, solution_json
from .chance import ChanceFamily
from .gaps import GapsFamily
from .hole import HoleFamily
from .peg import PegFamily
from .reserve import ReserveFamily
from .tableau import TableauFamily

if TYPE_CHECKING:
    from .accordion.layout import AccordionLayout
    from .chance.layout import ChanceLayout
    from .gaps.layout import GapsLayout
    from .peg.layout import PegLayout

# a card layout, a row of piles, a grid with gaps, a peg board (the board code loads lazily) or a game of chance
AnyLayout: TypeAlias = "Layout | AccordionLayout | GapsLayout | PegLayout | ChanceLayout"

FAMILIES: dict[str, GameFamily] = {f.name: f for f in (ReserveFamily(), HoleFamily(), TableauFamily(),
                                                       AccordionFamily(), GapsFamily(), PegFamily(),
                                                       ChanceFamily())}


def _read_rules(path: str, settings: tuple[str, ...]) -> AnyLayout:
    """A Solvitaire rules file as the layout of whichever family plays its game (``solver.solvitaire``)."""
    layout: AnyLayout = solvitaire.read_rules(path, settings, parse_layout)
    return layout


# the first that claims a file reads it: Solvitaire's rules by their ending; of TOML, a game of chance (a
# top-level `game`), a peg board, a row of piles, a grid with gaps, else cards
READERS: tuple[LayoutReader, ...] = (LayoutReader(suffix=".json", read=_read_rules), chance.READER, peg.READER,
                                     accordion.READER, gaps.READER, card.READER)

__all__ = ["FAMILIES", "AnyLayout", "GameFamily", "Model", "Position", "family_of", "load_layout",
           "parse_layout", "parse_layout_text", "rules_to_layout", "solution_json", "start_position"]


def family_of(layout: AnyLayout) -> GameFamily:
    try:
        return FAMILIES[layout.family]
    except KeyError:
        raise UnsupportedError(f"layout {layout.name!r}: no family plays {layout.family!r} layouts") from None


def parse_layout(data: dict[str, Any], where: str, name: str) -> AnyLayout:
    """A layout from parsed TOML, read by the reader that claims it."""
    reader = next(r for r in READERS if r.parse is not None and r.claims(data))
    assert reader.parse is not None
    layout: AnyLayout = reader.parse(data, where, name)
    return layout


def file_reader(path: str) -> LayoutReader | None:
    """The reader of a layout file of a format of its own, told by the file's ending, if any."""
    return next((r for r in READERS if r.suffix and path.endswith(r.suffix)), None)


def file_suffixes() -> tuple[str, ...]:
    """The endings of the layout files of a format of their own (``--rules FILE``)."""
    return tuple(r.suffix for r in READERS if r.suffix)


def load_layout(name_or_path: str, settings: tuple[str, ...] = ()) -> AnyLayout:
    """A built-in layout by name, the user's own layout file by path, or a file of a format of
    its own (a Solvitaire rules file, ``.json``); ``settings`` are ``KEY=VALUE`` overrides
    of its keys (``--set``; of a rules file, of the layout it maps to), checked by the reader
    like the file's own."""
    reader = file_reader(name_or_path)
    if reader is not None and reader.read is not None:
        layout: AnyLayout = reader.read(name_or_path, settings)
        return layout
    data, where, name = read_layout_file(name_or_path)
    data, where = apply_settings(data, where, settings)
    return parse_layout(data, where, name)


def rules_to_layout(obj: Any, where: str, name: str, settings: tuple[str, ...] = ()) -> AnyLayout:
    """The layout for Solvitaire's rules ``obj`` (``solver.solvitaire``), of whichever family plays them."""
    layout: AnyLayout = solvitaire.rules_to_layout(obj, where, name, settings, parse_layout)
    return layout


def parse_layout_text(text: str, where: str, name: str) -> AnyLayout:
    """A layout from the text of a TOML file."""
    return parse_layout(decode(text, where), where, name)


def start_position(layout: AnyLayout, deal: Any) -> Position:
    """The position the DFS searches from, made by the layout's family."""
    return family_of(layout).start_position(layout, deal)
