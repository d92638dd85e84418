"""The rules of a layout in words, generated from the layout itself."""

from __future__ import annotations

from . import cards, moves, shuffles
from .deal import expected_counts
from .layout import DEFAULT_SUITS, Layout


def _rank(layout: Layout, r: int) -> str:
    names = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king"]
    return names[(layout.max_rank if r == 13 else r) - 1]


def describe(layout: Layout) -> str:
    """A paragraph per part of the game, in the order a player meets them."""
    lines = [f"{layout.title} ({layout.name}, rules version {layout.rules_version})", ""]
    packs = "one pack" if layout.decks == 1 else f"{layout.decks} packs"
    reduced = "" if layout.max_rank == 13 else f", reduced to ranks A..{cards.RANKS[layout.max_rank - 1]}"
    few = ""
    if layout.suits != DEFAULT_SUITS:
        names = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        kinds = [names[s] for s in dict.fromkeys(layout.suits)]
        few = f" whose four suits are {' '.join(layout.suits)} ({' and '.join(kinds)} only)"
    lines.append(f"Cards: {packs} of {len(layout.pack()) // layout.decks} cards{few}{reduced}; "
                 "the whole order is known to the solver.")
    counts = expected_counts(layout)
    lines.append("Deal: " + "; ".join(f"{stack} {n}" for stack, n in _group(counts).items()) + ".")
    lines.append(_seeds(layout))
    f = layout.foundations
    for row in f.rows:
        way = "up" if row.direction > 0 else "down"
        if row.base == 0:
            lines.append(f"Foundations: one per suit, built {way} in suit from the rank of the base card, "
                         "which is dealt to its suit's foundation; the others start when a card of that "
                         "rank comes.")
            continue
        started = (" (the base placed before the deal)" if f.preset else "" if f.takes != "card"
                   else ", started when its base card comes")
        lines.append(f"Foundations: one per suit, from the {_rank(layout, row.base)} built {way} in suit{started}.")
    if f.wrap:
        lines.append("Foundations turn the corner: the ace follows the king.")
    if f.rows:
        if moves.rule("foundations.takes", f.takes).words:
            lines.append(moves.rule("foundations.takes", f.takes).words)
        lines.append("A foundation's top card may go back to a column." if f.removable
                     else "Cards never leave a foundation.")
    if layout.hole is not None:
        h = layout.hole
        start = "the first stock card" if h.start == "stock" else h.start
        wrap = ("kings and aces are next to each other" if h.wrap
                else "no wrapping (nothing goes on an ace from a king)")
        lines.append(f"Hole: a single pile started with {start}; it takes any card one rank above "
                     f"or below its top card, whatever the suit; {wrap}.")
    r = layout.reserve
    if r.count and layout.tableau.count:
        lines.append(f"Reserve: {r.count} pile{'s' * (r.count > 1)} of {r.deal} cards; only the top card plays, "
                     "to a foundation or a column; nothing is put on it.")
    elif r.count:
        cap = "any number of cards" if r.capacity == 0 else f"at most {r.capacity} card{'s' * (r.capacity > 1)}"
        avail = "the card placed last" if r.access == "last" else "the card placed first"
        takes = "any card" if r.accepts == "any" else "a card of the same suit and next rank"
        lines.append(f"Reserve: {r.count} columns of {r.deal} card{'s' * (r.deal > 1)} each, holding {cap}; "
                     f"only {avail} is available, and only to go to a foundation; "
                     f"a column takes {takes}; cards never move between columns.")
        if r.fill == "immediate":
            lines.append("An emptied column is filled at once with the next card of the pack.")
        if r.gaps == "any-top":
            lines.append("Once the pack is empty, a gap may take the top card of any column.")
    t = layout.tableau
    if t.count:
        build = {"alternate": "in alternate colours", "suit": "in suit", "any": "regardless of suit",
                 "none": ""}[t.build]
        way = "down" if t.direction < 0 else "up"
        text = f"Tableau: {t.count} columns."
        if t.build != "none":
            text += f" Columns are built {way} {build}."
        else:
            text += " Nothing is built on the columns."
        if any(t.face_down):
            text += " Cards dealt face down turn up when they reach the top."
        if t.wrap == "from-base":
            text += (" Ranks follow the foundations' order: the base rank lowest, the rank below it"
                     " highest (an ace takes a king unless the base is an ace).")
        elif t.wrap == "cyclic":
            text += " Ranks go round: an ace takes a king."
        spaces = {"any": "any card", "kings": "only a king", "none": "nothing",
                  "reserve-then-any": "the reserve's top card at once, or any card once the reserve is empty",
                  "reserve-then-waste": "the reserve's top card at once; once the reserve is empty, while a column "
                                        "is empty only the waste's top card goes onto a column (into the space, "
                                        "or onto a card)",
                  "waste-then-stock": "the waste's top card at once, or the stock's next card when the waste is "
                                      "empty; any card once both are empty"}
        text += f" An empty column takes {spaces[t.spaces]}."
        if moves.rule("tableau.moves", t.moves).words:
            text += " " + moves.rule("tableau.moves", t.moves).words
        if t.to_foundation and f.rows and f.takes == "card":
            text += " Column tops may go to the foundations."
        if layout.hole is not None:
            text += " Column tops may go to the hole."
        lines.append(text)
    if layout.cells.count:
        n = layout.cells.count
        text = f"Cells: {n} free cell{'s, each' * (n > 1)} holding one card."
        if layout.hole is not None:
            text += " A column's top card may go to an empty cell, and a cell's card to the hole."
        lines.append(text)
    s = layout.stock
    turn = moves.rule("stock.turn", s.turn).words
    if turn:
        text = f"Stock: {turn}"
        if s.turn == "waste":
            text += "; " + ("no redeal" if s.redeals == 0 else "unlimited redeals" if s.redeals < 0
                            else f"{s.redeals} redeal{'s' * (s.redeals > 1)}")
        if s.deal_count > 1:
            text += f"; {s.deal_count} cards at a time"
        lines.append(text + ".")
    if s.top_playable:
        lines.append("The top card of the pack may go to a foundation.")
    if s.batch:
        lines.append(f"Once a pack card goes to a column, {s.batch} pack cards must be placed before "
                     "the columns may play to the foundations again.")
    lines.append("Won: every card on the " + ("hole." if layout.hole is not None else "foundations."))
    return "\n".join(lines) + "\n"


def _seeds(layout: Layout) -> str:
    """Which deal a seed means (``solver/shuffles.py`` says how each generator deals)."""
    return f"Seeds: {shuffles.words(layout)} (generator {shuffles.generator(layout)})."


def _group(counts: dict[str, int]) -> dict[str, str]:
    """``tableau:0 7, tableau:1 7`` becomes ``tableau 8 columns of 7, 7, ...``."""
    out: dict[str, list[int]] = {}
    for stack, n in counts.items():
        out.setdefault(stack.split(":")[0], []).append(n)
    text = {}
    for kind, ns in out.items():
        if len(ns) == 1:
            text[kind] = f"{ns[0]} card{'s' * (ns[0] > 1)}"
        elif len(set(ns)) == 1:
            text[kind] = f"{len(ns)} x {ns[0]} card{'s' * (ns[0] > 1)}"
        else:
            text[kind] = " + ".join(map(str, ns)) + " cards"
    return text
