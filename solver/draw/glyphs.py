"""The cards, drawn by the project: suit symbols as paths, faces, the back, and SVG helpers.

Each card face is defined once (``<g id="pc-QH">`` in ``<defs>``) and placed
with ``<use>``, so a picture of 104 cards stays small and every card of a
position is exactly one ``<use class="card">`` element.  The suit symbols are
paths, not font glyphs, so they look the same on every machine; the rank is
text in the first sans-serif font the viewer has.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

W, H = 50, 70  # a card, in picture units
RANKS = "A23456789TJQK"
SUITS = "CDHS"
RED, BLACK = "#c8102e", "#1b1b1b"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# Each suit in a 10 x 10 box centred on the origin.
SUIT_PATHS = {
    "C": '<circle cx="0" cy="-2.5" r="2.35"/><circle cx="-2.6" cy="1.3" r="2.35"/>'
         '<circle cx="2.6" cy="1.3" r="2.35"/><circle cx="0" cy="0.4" r="1.4"/>'
         '<path d="M-0.6,0.5 Q-0.6,3.8 -2.1,5 L2.1,5 Q0.6,3.8 0.6,0.5 Z"/>',
    "D": '<path d="M0,-5.2 L4,0 L0,5.2 L-4,0 Z"/>',
    "H": '<path d="M0,4.8 C-2.2,3.1 -5,1 -5,-1.6 C-5,-3.6 -3.6,-4.8 -2.4,-4.8 C-1.2,-4.8 -0.3,-4 0,-3 '
         'C0.3,-4 1.2,-4.8 2.4,-4.8 C3.6,-4.8 5,-3.6 5,-1.6 C5,1 2.2,3.1 0,4.8 Z"/>',
    "S": '<path d="M0,-5 C-1.6,-3 -5,-1.2 -5,1.2 C-5,2.9 -3.7,3.7 -2.5,3.7 C-1.5,3.7 -0.8,3.2 -0.4,2.6 '
         'Q-0.6,4.2 -2,5 L2,5 Q0.6,4.2 0.4,2.6 C0.8,3.2 1.5,3.7 2.5,3.7 C3.7,3.7 5,2.9 5,1.2 '
         'C5,-1.2 1.6,-3 0,-5 Z"/>',
}
SUIT_TEXT = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def colour(card: str) -> str:
    return RED if card[1] in "DH" else BLACK


def rank_text(card: str) -> str:
    return "10" if card[0] == "T" else card[0]


def label(card: str) -> str:
    """A card for people: ``10♥``."""
    return rank_text(card) + SUIT_TEXT[card[1]]


def num(v: float) -> str:
    """A coordinate, short and the same on every machine."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def suit(s: str, x: float, y: float, size: float) -> str:
    """Suit ``s`` centred at (x, y), ``size`` units across."""
    return f'<use href="#pc-{s}" transform="translate({num(x)},{num(y)}) scale({num(size / 10)})"/>'


def face(card: str) -> str:
    """The definition of one card face."""
    fill = colour(card)
    fit = ' textLength="16" lengthAdjust="spacingAndGlyphs"' if card[0] == "T" else ""
    return (f'<g id="pc-{card}" fill="{fill}">'
            f'<rect width="{W}" height="{H}" rx="4" fill="#fffdf8" stroke="#6b6b6b" stroke-width="0.8"/>'
            f'<text x="3.5" y="16" font-size="15" font-weight="bold"{fit}>{rank_text(card)}</text>'
            f'{suit(card[1], 29, 10.5, 10)}{suit(card[1], 33, 50, 24)}</g>')


BACK = ('<g id="pc-back"><rect width="50" height="70" rx="4" fill="#2d4f8a" stroke="#f4f4f4" stroke-width="1"/>'
        '<rect x="4" y="4" width="42" height="62" rx="2.5" fill="url(#pc-lattice)" '
        'stroke="#c9d6ee" stroke-width="0.8"/></g>')
LATTICE = ('<pattern id="pc-lattice" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="6" height="6" fill="#34599b"/>'
           '<path d="M0,0 H6 M0,0 V6" stroke="#5b7fc0" stroke-width="1.2"/></pattern>')

HEAD = ('<marker id="pc-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="4" markerHeight="4" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" fill="#ffcf3f"/></marker>')


def defs(cards: Iterable[str], extra: str = "") -> str:
    """``<defs>`` with the suits, the back and the faces of ``cards`` (and ``extra``)."""
    parts = ["<defs>", LATTICE, HEAD, extra]
    parts += [f'<g id="pc-{s}">{p}</g>' for s, p in SUIT_PATHS.items()]
    parts.append(BACK)
    parts += [face(c) for c in sorted(set(cards), key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0])))]
    parts.append("</defs>")
    return "".join(parts)


def use(card: str | None, x: float, y: float, cls: str = "card") -> str:
    """One card at (x, y): its face, or its back when ``card`` is None."""
    return f'<use href="#pc-{card or "back"}" x="{num(x)}" y="{num(y)}" class="{cls}"/>'


def text(x: float, y: float, words: str, size: float = 11, fill: str = "#dcefe3", anchor: str = "start",
         weight: str = "normal") -> str:
    bold = ' font-weight="bold"' if weight != "normal" else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}" '
            f'text-anchor="{anchor}"{bold}>{escape(words)}</text>')


def svg(width: float, height: float, body: str, definitions: str) -> str:
    """A whole SVG document."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
            f'width="{num(width)}" height="{num(height)}" font-family="{FONT}">'
            f"{definitions}{body}</svg>")
