"""Where each stack lies on the table, and a position drawn there.

A ``Plan`` places every stack of a layout once (``Slot``: a point and how its
cards spread), sized for the tallest column of all the positions it will
show, so that a viewer's frames share one frame of reference.  The plan is
read from the layout's parts, never from its name:

- the debutante family (reserve columns, no tableau): the foundation rows
  built up above the reserve and those built down below it, as the source
  text lays them ("aces go above, kings below"); each row is a fan of its
  cards in order, on a rail as long as a full row; the reserve columns in
  lines of ten; the stock (and waste) in a gutter on the left.
- the tableau and hole families: a top line of stock, waste, reserve pile,
  cells and, on the right, the foundations or the hole; the columns below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..families import family_of
from .glyphs import RANKS, SUIT_TEXT, SUITS, H, W, num, text, use
from .replay import Step, Table, stack_names

GAP = 8
PITCH = W + GAP
MARGIN = 14
LABEL = 15  # a line of small text
DOWN, HIDDEN, RIGHT, WASTE = 22, 8, 20, 34  # the steps of fanned cards
FELT, INK, DIM = "#1d6a45", "#e2f1e7", "#9fcab0"
MARK = "#ffcf3f"
RANK_WORDS = dict(zip("A23456789TJQK", ["aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s",
                                        "jacks", "queens", "kings"]))


@dataclass
class Slot:
    """Where a stack lies and how its cards spread: ``pile`` (squared), ``down`` (a column),
    ``right`` (a foundation row) or ``waste`` (the last ``fanned`` cards spread to the right)."""

    stack: str
    x: float
    y: float
    fan: str = "pile"
    ghost: str = ""  # shown in the empty slot, e.g. "A♣"
    count: bool = False  # the number of cards, written under the pile
    fanned: int = 1
    ghost_red: bool = False

    def places(self, n: int, face_down: int = 0) -> list[tuple[float, float]]:
        """The top-left corner of each of ``n`` cards, bottom card first."""
        if self.fan == "down":
            out, y = [], self.y
            for i in range(n):
                out.append((self.x, y))
                y += HIDDEN if i < face_down else DOWN
            return out
        if self.fan == "right":
            return [(self.x + RIGHT * i, self.y) for i in range(n)]
        spread = n - min(self.fanned, n) if self.fan == "waste" else n
        out = [(self.x - min(i // 8, 4) * 0.6, self.y - min(i // 8, 4) * 0.6) for i in range(spread)]
        return out + [(self.x + WASTE * j, self.y) for j in range(n - spread)]


@dataclass
class Plan:
    width: float
    height: float
    slots: dict[str, Slot] = field(default_factory=dict)
    decor: list[str] = field(default_factory=list)  # drawn under the cards


def column_height(table: Table, stack: str) -> float:
    cards, down = len(table.stacks[stack]), table.face_down.get(stack, 0)
    return H + sum(HIDDEN if i < down else DOWN for i in range(cards - 1)) if cards else H


def plan(layout: Any, tables: list[Table], top: float = 0) -> Plan:
    """The plan of a card layout for ``tables`` (its positions), starting ``top`` units down."""
    picture = family_of(layout).picture
    if picture == "row":
        return _row_plan(layout, top)
    if picture == "grid":
        return _grid_plan(layout, top)
    tall = {s: max(column_height(t, s) for t in tables) for s in stack_names(layout)}
    if picture == "reserve":
        return _reserve_plan(layout, tall, top)
    return _tableau_plan(layout, tall, top)


def _ghost(index: int, layout: Any) -> tuple[str, bool]:
    """The empty foundation's label: its base card where the layout fixes it, else its suit."""
    suit = getattr(layout, "suits", SUITS)[index % 4]  # (a pack of fewer suits: its own)
    base = layout.foundations.rows[index // 4].base
    rank = "" if base == 0 else RANKS[(layout.max_rank if base == 13 else base) - 1]
    return rank.replace("T", "10") + SUIT_TEXT[suit], suit in "DH"


def _rank_words(rank: int) -> str:
    return RANK_WORDS["A23456789TJQK"[rank - 1]]


def _reserve_plan(layout: Any, tall: dict[str, float], top: float) -> Plan:
    """The debutante family: rows up above the reserve, rows down below, stock on the left."""
    p = Plan(0, 0)
    x0 = MARGIN + PITCH + 18  # the gutter holds the stock and waste
    per_line = (layout.reserve.count + 1) // 2 if layout.reserve.count > 10 else layout.reserve.count
    fan_width = (layout.max_rank - 1) * RIGHT + W  # a whole row; two rows side by side
    content = max(per_line * PITCH - GAP, 2 * fan_width + 24)
    width = x0 + content + 10 + MARGIN
    y = top + MARGIN

    def band(rows: list[int], y: float) -> float:
        for r in rows:
            row = layout.foundations.rows[r]
            first = layout.max_rank if row.base == 13 else row.base
            last = 1 if row.direction < 0 else layout.max_rank
            arrow, way = ("\u2191", "up") if row.direction > 0 else ("\u2193", "down")
            height = LABEL + 6 + 2 * (H + 8) + 2
            shade = "#ffffff" if row.direction > 0 else "#0b2c1c"
            p.decor.append(f'<rect x="{num(x0 - 10)}" y="{num(y - 4)}" width="{num(content + 20)}" '
                           f'height="{num(height)}" rx="8" fill="{shade}" fill-opacity="0.09"/>')
            p.decor.append(text(x0 - 2, y + 10, f"{arrow}  built {way} in suit from the {_rank_words(first)} "
                                f"to the {_rank_words(last)}", size=11.5, weight="bold"))
            y += LABEL + 6
            for s in range(4):
                i = r * 4 + s
                fx = x0 + (s % 2) * (fan_width + 24)
                fy = y + (s // 2) * (H + 8)
                ghost, red = _ghost(i, layout)
                p.decor.append(f'<rect x="{num(fx)}" y="{num(fy)}" width="{num(fan_width)}" height="{H}" rx="5" '
                               f'fill="#000" fill-opacity="0.12" stroke="{INK}" stroke-opacity="0.25" '
                               f'stroke-dasharray="4 3"/>')
                p.slots[f"foundation:{i}"] = Slot(f"foundation:{i}", fx, fy, "right", ghost, ghost_red=red)
            y += 2 * (H + 8) + 10
        return y

    up = [r for r, row in enumerate(layout.foundations.rows) if row.direction > 0]
    down = [r for r, row in enumerate(layout.foundations.rows) if row.direction < 0]
    y = band(up, y)
    reserve_top = y
    for line in range(0, layout.reserve.count, per_line):
        names = [f"reserve:{i}" for i in range(line, min(line + per_line, layout.reserve.count))]
        for k, name in enumerate(names):
            cx = x0 + k * PITCH
            p.decor.append(text(cx + W / 2, y + 10, name.split(":")[1], size=10, fill=DIM, anchor="middle"))
            p.slots[name] = Slot(name, cx, y + LABEL, "down")
        y += LABEL + max(tall[n] for n in names) + 10
    if "stock" in tall:
        p.decor.append(text(MARGIN + W / 2, reserve_top + 10, "stock", size=10, fill=DIM, anchor="middle"))
        p.slots["stock"] = Slot("stock", MARGIN, reserve_top + LABEL, count=True)
    if "waste" in tall:
        wy = reserve_top + LABEL + H + 18 + LABEL
        p.decor.append(text(MARGIN + W / 2, wy - 5, "waste", size=10, fill=DIM, anchor="middle"))
        p.slots["waste"] = Slot("waste", MARGIN, wy, "pile", count=True)
        y = max(y, wy + H + LABEL + 6)
    y = band(down, y + 4)
    p.width, p.height = width, y + MARGIN - 10
    return p


def _tableau_plan(layout: Any, tall: dict[str, float], top: float) -> Plan:
    """Tableau and hole games: stock, waste, reserve and cells on the left of the top line,
    foundations or the hole on its right; the columns below, in one line or two."""
    p = Plan(0, 0)
    y = top + MARGIN + LABEL
    x = MARGIN

    def group(title: str, names: list[str], **kw: Any) -> None:
        nonlocal x
        p.decor.append(text(x, y - 5, title, size=10, fill=DIM))
        for name in names:
            p.slots[name] = Slot(name, x, y, **kw)
            x += PITCH
        x += 14

    if "stock" in tall:
        group("stock", ["stock"], count=True)
    if "waste" in tall:
        fanned = layout.stock.deal_count
        group("waste", ["waste"], fan="waste", fanned=fanned, count=True)
        x += (fanned - 1) * WASTE
    if layout.reserve.count:
        group("reserve", [f"reserve:{i}" for i in range(layout.reserve.count)], count=True)
    if layout.cells.count:
        group("cells", [f"cell:{i}" for i in range(layout.cells.count)])
    left_end = x
    right = ["hole"] if layout.hole is not None else [f"foundation:{i}" for i in range(layout.foundations.count)]
    per_line = layout.tableau.count if layout.tableau.count <= 13 else (layout.tableau.count + 1) // 2
    width = max(left_end + 12 + len(right) * PITCH - GAP, MARGIN + per_line * PITCH - GAP) + MARGIN
    x = width - MARGIN - len(right) * PITCH + GAP
    if layout.hole is not None:
        group("hole", right, count=True)
    else:
        group("foundations", right)
        for i, name in enumerate(right):
            p.slots[name].ghost, p.slots[name].ghost_red = _ghost(i, layout)
    y += H + LABEL + 12
    cols = [f"tableau:{i}" for i in range(layout.tableau.count)]
    for line in range(0, len(cols), per_line):
        names = cols[line:line + per_line]
        for k, name in enumerate(names):
            cx = MARGIN + k * PITCH
            p.decor.append(text(cx + W / 2, y + 10, name.split(":")[1], size=10, fill=DIM, anchor="middle"))
            p.slots[name] = Slot(name, cx, y + LABEL, "down")
        y += LABEL + max(tall[n] for n in names) + 10
    p.width, p.height = width, y + MARGIN - 10
    return p


def _row_plan(layout: Any, top: float) -> Plan:
    """Accordion: the row of piles in lines of 13, left to right, each pile squared with its size."""
    p = Plan(0, 0)
    per_line = 13
    names = layout.stack_names()
    y = top + MARGIN
    for line in range(0, len(names), per_line):
        for k, name in enumerate(names[line:line + per_line]):
            cx = MARGIN + k * PITCH
            p.decor.append(text(cx + W / 2, y + 10, name.split(":")[1], size=10, fill=DIM, anchor="middle"))
            p.slots[name] = Slot(name, cx, y + LABEL, count=True)
        y += LABEL + H + LABEL + 8
    p.width = 2 * MARGIN + min(per_line, len(names)) * PITCH - GAP
    p.height = y + MARGIN - 8
    return p


def _grid_plan(layout: Any, top: float) -> Plan:
    """Gaps: four rows of places, a two's ghost at each row's left end."""
    p = Plan(0, 0)
    width = layout.max_rank
    y = top + MARGIN + LABEL
    for c in range(width):
        p.decor.append(text(MARGIN + 24 + c * PITCH + W / 2, y - 5, str(c), size=10, fill=DIM, anchor="middle"))
    for r in range(4):
        p.decor.append(text(MARGIN, y + H / 2 + 4, str(r), size=10, fill=DIM))
        for c in range(width):
            ghost = ""
            if c == 0:
                ghost = "2" + (SUIT_TEXT[layout.row_suits[r]] if layout.row_suits else "")
            p.slots[f"grid:{r}:{c}"] = Slot(f"grid:{r}:{c}", MARGIN + 24 + c * PITCH, y, ghost=ghost,
                                            ghost_red=bool(layout.row_suits) and layout.row_suits[r] in "DH")
        y += H + GAP
    p.width = MARGIN + 24 + width * PITCH - GAP + MARGIN
    p.height = y - GAP + MARGIN
    return p


def render(p: Plan, step: Step, before: Table | None = None) -> str:
    """One position drawn on ``p``: every card once (a ``<use class="card">`` in a group per stack),
    the moved cards outlined, and an arrow from where the move took them."""
    table = step.table
    moved = set(step.moved)
    out = []
    for name, slot in p.slots.items():
        cards = table.stacks.get(name, [])
        down = len(cards) if name == "stock" else table.face_down.get(name, 0)
        out.append(f'<g data-stack="{name}">')
        if not cards:
            out.append(_empty(slot))
        for i, ((cx, cy), card) in enumerate(zip(slot.places(len(cards), down), cards)):
            out.append(use(None if i < down else card, cx, cy))
            if (name, i) in moved:
                out.append(f'<rect x="{num(cx - 1.5)}" y="{num(cy - 1.5)}" width="{W + 3}" height="{H + 3}" '
                           f'rx="5" fill="none" stroke="{MARK}" stroke-width="3" class="moved"/>')
        if slot.count:
            out.append(text(slot.x + W / 2, slot.y + H + 12, str(len(cards)), size=10.5, fill=INK, anchor="middle"))
        out.append("</g>")
    if before is not None and step.source and step.moved:
        out.append(_arrow(p, before, step))
    return "".join(out)


def _empty(slot: Slot) -> str:
    outline = (f'<rect x="{num(slot.x)}" y="{num(slot.y)}" width="{W}" height="{H}" rx="4" fill="#000" '
               f'fill-opacity="0.12" stroke="{INK}" stroke-opacity="0.3" stroke-dasharray="4 3"/>')
    if not slot.ghost:
        return outline
    return outline + text(slot.x + W / 2, slot.y + H / 2 + 6, slot.ghost, size=17, anchor="middle",
                          fill="#ff9c9c" if slot.ghost_red else INK, weight="bold").replace(
                              "<text ", '<text fill-opacity="0.5" ', 1)


def _centre(p: Plan, table: Table, stack: str, index: int) -> tuple[float, float]:
    """The middle of the visible part of card ``index`` of ``stack``."""
    slot = p.slots[stack]
    cards = table.stacks.get(stack, [])
    places = slot.places(max(len(cards), index + 1), table.face_down.get(stack, 0))
    x, y = places[min(index, len(places) - 1)]
    last = index >= len(cards) - 1
    if slot.fan == "down" and not last:
        return x + W / 2, y + DOWN / 2
    if slot.fan in ("right", "waste") and not last:
        return x + RIGHT / 2, y + H / 2
    return x + W / 2, y + H / 2


def _arrow(p: Plan, before: Table, step: Step) -> str:
    """A curved arrow from where the first moved card was to where it lies now."""
    src, (dst, di) = step.source or "", step.moved[0]
    n = sum(1 for s, _ in step.moved if s == dst)
    if src not in p.slots or dst not in p.slots or src == dst:
        return ""
    size = len(before.stacks.get(src, []))
    si = 0 if src == "stock" or p.slots[src].fan == "pile" else max(size - n, 0)
    (x1, y1), (x2, y2) = _centre(p, before, src, si), _centre(p, step.table, dst, di)
    return curve(x1, y1, x2, y2)


def curve(x1: float, y1: float, x2: float, y2: float) -> str:
    """A gently bent arrow from (x1, y1) to (x2, y2), ending just short of its target."""
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1)
    mx, my = (x1 + x2) / 2 - dy * 0.15, (y1 + y2) / 2 + dx * 0.15
    ex, ey = x2 - dx / length * 6, y2 - dy / length * 6
    return (f'<path d="M{num(x1)},{num(y1)} Q{num(mx)},{num(my)} {num(ex)},{num(ey)}" fill="none" '
            f'stroke="{MARK}" stroke-width="2.5" stroke-opacity="0.9" stroke-linecap="round" '
            f'marker-end="url(#pc-head)" class="arrow"/>')

