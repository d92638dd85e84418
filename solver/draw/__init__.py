"""Pictures: any deal or position as SVG, and a page that steps through a solution.

>>> from solver import api, draw
>>> layout = api.load_layout("klondike")
>>> svg = draw.deal_svg(layout, api.make_deal(layout, seed=1))
>>> svg.startswith("<svg")
True

- ``deal_svg``, ``position_svg``, ``result_svg``: one picture, as an SVG document.
- ``viewer_html`` (``solver.draw.viewer``): one self-contained HTML page for a result.
- ``steps`` (``solver.draw.replay``): the position after each move, on plain stacks.

The cards are drawn here (``glyphs``); ``table`` places the stacks of card
games, ``pegs`` draws peg boards.  This is a services-level package: it reads
layouts, deals and results and never imports an engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import cards
from ..families import family_of
from ..result import Result
from . import glyphs, pegs, table
from .replay import Step, Table, is_peg, steps

__all__ = ["Drawing", "deal_svg", "position_svg", "result_svg", "steps", "deal_to_json", "caption"]

CAPTION = 24  # the height of a caption line above the table


@dataclass
class Drawing:
    """A frame of reference for some positions of one layout: its size, what lies under the
    cards, and a function drawing one position in it."""

    width: float
    height: float
    under: str  # the table, its rails and labels
    draw: Callable[[Step, Any], str]  # (step, the table before it or None) -> SVG elements
    definitions: str

    @classmethod
    def of(cls, layout: Any, positions: list[Step], top: float = 0) -> Drawing:
        """Sized for every one of ``positions``."""
        if is_peg(layout):
            pp = pegs.plan(layout, top)
            return cls(pp.width, pp.height, "".join(pp.decor),
                       lambda s, b: pegs.render(layout, pp, s, b), glyphs.defs((), pegs.defs()))
        tp = table.plan(layout, [s.table for s in positions], top)
        return cls(tp.width, tp.height, "".join(tp.decor),
                   lambda s, b: table.render(tp, s, b), glyphs.defs(cards.names(layout.pack())))

    def svg(self, body: str, title: str | None = None) -> str:
        """An SVG document: the felt, what lies under the cards, ``body`` and a ``title`` line."""
        width, head, content = self.width, "", self.under + body
        if title:
            head = glyphs.text(table.MARGIN, table.MARGIN + 10, title, size=13, weight="bold")
            width = max(width, 2 * table.MARGIN + 7.8 * len(title))  # a bold 13-unit letter is under 8 wide
        if width > self.width:  # a long title: the table in the middle below it
            content = f'<g transform="translate({glyphs.num((width - self.width) / 2)},0)">{content}</g>'
        felt = f'<rect width="{glyphs.num(width)}" height="{glyphs.num(self.height)}" rx="10" fill="{table.FELT}"/>'
        return glyphs.svg(width, self.height, felt + head + content, self.definitions)


def deal_to_json(layout: Any, deal: Any) -> dict[str, Any]:
    """A deal (or a position) as ``api.make_deal`` gives it, in the result contract's form (card
    names, peg holes; a position's JSON); one already in that form is passed through."""
    if isinstance(deal, dict) and isinstance(deal.get("stacks"), dict):
        return deal  # a position's JSON
    if isinstance(deal, dict) and all(isinstance(cs, list) and all(isinstance(c, str) for c in cs)
                                      for cs in deal.values()):
        return deal
    family = family_of(layout)
    if not family.is_deal(layout, deal):
        return family.position_to_json(layout, deal)
    return family.deal_to_json(layout, deal)


def position_svg(layout: Any, step: Step | Table, before: Table | None = None, title: str | None = None) -> str:
    """One position as an SVG document; with ``before``, the move into it is marked."""
    if not isinstance(step, Step):
        step = Step(step)
    check_drawn(layout)
    d = Drawing.of(layout, [step], CAPTION if title else 0)
    return d.svg(d.draw(step, before), title)


def check_drawn(layout: Any) -> None:
    """Refuse, in one line, a layout whose family has no pictures (the games of chance)."""
    if not family_of(layout).drawn:
        from ..errors import UnsupportedError

        raise UnsupportedError(f"layout {layout.name!r}: a game of chance has no table to draw; "
                               "`patience deal --json` gives its pack, `patience odds --svg` draws its strategy")


def deal_svg(layout: Any, deal: Any, title: str | None = None) -> str:
    """The deal as the game lays it out, as an SVG document."""
    check_drawn(layout)
    return position_svg(layout, steps(layout, deal_to_json(layout, deal), [])[0], title=title)


def caption(result: Result, layout: Any = None) -> str:
    """``debutante #2: won in 158 moves``, ``golf #1: lost``, ``... unknown (timeout 10 s)``."""
    name = (getattr(layout, "title", None) or result.layout) + (f" #{result.seed}" if result.seed is not None else "")
    if result.max_rank is not None:
        name += f", ranks A..{glyphs.RANKS[result.max_rank - 1].replace('T', '10')}"
    if result.verdict == "won":
        return f"{name}: won in {len(result.solution or [])} moves"
    return f"{name}: {result.verdict}" + (f" ({result.reason})" if result.reason else "")


def result_svg(result: Result, layout: Any, move: int = 0) -> str:
    """The position after ``move`` moves of ``result``'s solution (0: the deal), with its caption."""
    all_steps = steps(layout, result.position or result.deal, (result.solution or [])[:move])
    before = all_steps[-2].table if len(all_steps) > 1 else None
    title = caption(result, layout) + (f", after move {move}" if move else "")
    return position_svg(layout, all_steps[-1], before, title)
