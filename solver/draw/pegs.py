"""A peg solitaire board: a wooden board of holes, the pegs on it, the jump just made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .glyphs import num, text
from .replay import Step
from .table import DIM, MARGIN, MARK, curve

PITCH = 40  # between neighbouring holes
PEG, HOLE = 13, 5  # radii


@dataclass
class PegPlan:
    width: float
    height: float
    origin: tuple[float, float]  # the centre of row 0, column 0
    decor: list[str] = field(default_factory=list)


def plan(layout: Any, top: float = 0) -> PegPlan:
    """The board: a wooden square under each hole, column letters above and row numbers left."""
    b = layout.board
    ox, oy = MARGIN + 18 + PITCH / 2, top + MARGIN + 16 + PITCH / 2
    p = PegPlan(2 * MARGIN + 18 + b.cols * PITCH, top + 2 * MARGIN + 16 + b.rows * PITCH, (ox, oy))
    for c in range(b.cols):
        p.decor.append(text(ox + c * PITCH, top + MARGIN + 8, chr(ord("a") + c), size=12, fill=DIM, anchor="middle"))
    for r in range(b.rows):
        p.decor.append(text(MARGIN + 6, oy + r * PITCH + 4, str(r + 1), size=12, fill=DIM, anchor="middle"))
    for r, c in b.cells:
        x, y = ox + c * PITCH - PITCH / 2, oy + r * PITCH - PITCH / 2
        p.decor.append(f'<rect x="{num(x - 0.5)}" y="{num(y - 0.5)}" width="{PITCH + 1}" height="{PITCH + 1}" '
                       f'fill="#b98a55"/>')
    for i, (r, c) in enumerate(b.cells):
        x, y = ox + c * PITCH, oy + r * PITCH
        p.decor.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{HOLE}" fill="#4a3018"/>')
        if layout.goal.hole == i:
            p.decor.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{PEG + 4}" fill="none" stroke="#4a3018" '
                           f'stroke-width="1.2" stroke-dasharray="3 3"/>')
    return p


def render(layout: Any, p: PegPlan, step: Step, before: Any = None) -> str:
    """The pegs of one position (``<circle class="peg">``, one per peg) and the last jump's arrow."""
    b = layout.board
    ox, oy = p.origin
    moved = {hole for hole, _ in step.moved}
    out = []
    for name in sorted(step.table, key=b.index.__getitem__):
        r, c = b.cells[b.index[name]]
        x, y = ox + c * PITCH, oy + r * PITCH
        ring = f' stroke="{MARK}" stroke-width="3.5"' if name in moved else ' stroke="#5c1d0c" stroke-width="1"'
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{PEG}" fill="url(#pc-peg)"{ring} class="peg" '
                   f'data-hole="{name}"/>')
    if step.source and step.moved:
        (r1, c1), (r2, c2) = b.cells[b.index[step.source]], b.cells[b.index[step.moved[0][0]]]
        out.append(curve(ox + c1 * PITCH, oy + r1 * PITCH, ox + c2 * PITCH, oy + r2 * PITCH))
    return "".join(out)


def defs() -> str:
    return ('<radialGradient id="pc-peg" cx="0.35" cy="0.35" r="0.7"><stop offset="0" stop-color="#ffe2b8"/>'
            '<stop offset="0.45" stop-color="#d2691e"/><stop offset="1" stop-color="#7a2e0c"/></radialGradient>')

