"""Deals: seed to deal, deal files (JSON, the plain listing, the fc-solve board format), validation.

A ``Deal`` maps each stack that holds cards at the start to its cards in
dealing order: columns bottom to top, the stock in the order the cards are
turned (first turned first).  Stack names are ``kind`` or ``kind:index``.

Seeds to deals: ``solver.shuffles`` (the generators, one table, beside the shuffles they use).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from . import cards
from .errors import CardError, DealError
from .files import DEAL_LIMIT, json_text, parse_json, read_text, shown
from .layout import Layout

Deal = dict[str, list[int]]

# ------------------------------------------------------------ expected shape


def expected_counts(layout: Layout) -> dict[str, int]:
    """How many cards each stack of ``layout`` holds at the start."""
    out: dict[str, int] = {}
    if layout.foundations.preset:
        for i in range(layout.foundations.count):
            out[f"foundation:{i}"] = 1
    for i in range(layout.cells.deal):
        out[f"cell:{i}"] = 1
    for i, n in enumerate(layout.tableau.deal):
        out[f"tableau:{i}"] = n
    for i in range(layout.reserve.count):
        out[f"reserve:{i}"] = layout.reserve.deal
    if layout.hole is not None:
        out["hole"] = 1
    if layout.foundations.base_from_deal:
        out["base"] = 1  # the card whose rank is every foundation's base (Canfield)
    out["stock"] = len(layout.pack()) - sum(out.values())
    return {k: v for k, v in out.items() if v}


def layout_stacks(layout: Layout) -> list[str]:
    """Every stack of ``layout``, whether or not it holds cards at the start."""
    out = ["stock"]
    if layout.stock.turn == "waste":
        out.append("waste")
    out += [f"foundation:{i}" for i in range(layout.foundations.count)]
    out += [f"cell:{i}" for i in range(layout.cells.count)]
    out += [f"tableau:{i}" for i in range(layout.tableau.count)]
    out += [f"reserve:{i}" for i in range(layout.reserve.count)]
    if layout.hole is not None:
        out.append("hole")
    if layout.foundations.base_from_deal:
        out.append("base")
    return out


def foundation_base(layout: Layout, index: int) -> int:
    """The base card of foundation ``index`` (row-major: row * 4 + suit)."""
    row = layout.foundations.rows[index // 4]
    base = layout.max_rank if row.base == 13 else row.base
    return cards.make(base, layout.foundation_suit(index))


# ------------------------------------------------------------- validation


def validate(layout: Layout, deal: Deal, where: str, lines: dict[str, int] | None = None,
             named: Iterable[str] = ()) -> Deal:
    """Check ``deal`` against ``layout``: stack names and sizes, and the multiset of cards.
    ``named`` are the stacks the file named, empty ones included (the keys of ``lines`` too):
    each must be a stack of the layout, even when it holds no card."""
    lines = lines or {}

    def at(stack: str) -> str:
        return f"{where}:{lines[stack]}" if stack in lines else f"{where}: {stack}"

    expected = expected_counts(layout)
    stacks = layout_stacks(layout)
    for stack in [*named, *lines]:
        if stack not in deal and stack not in stacks:
            raise DealError(f"{at(stack)}: layout {layout.name!r} has no stack {stack!r}; "
                            f"its stacks: {', '.join(stacks)}")
    for stack, got in deal.items():
        if stack not in expected:
            allowed = ", ".join(expected)
            raise DealError(f"{at(stack)}: stack {stack!r} holds no cards at the start of "
                            f"{layout.name!r}; expected stacks: {allowed}")
        if len(got) != expected[stack]:
            raise DealError(f"{at(stack)}: {stack} holds {len(got)} cards, expected {expected[stack]}")
    for stack, n in expected.items():
        if stack not in deal:
            raise DealError(f"{where}: {stack}: missing, expected {n} cards")
    for stack, card in _placed_before_deal(layout).items():
        if deal[stack] != [card]:
            raise DealError(f"{at(stack)}: {stack} must hold {cards.name(card)}, placed there before "
                            f"the deal; got {' '.join(cards.names(deal[stack]))}")
    check_pack(layout, deal, where, at)
    return {stack: deal[stack] for stack in expected}  # one stack order, however the deal was written


def check_pack(layout: Layout, stacks: Mapping[str, Sequence[int]], where: str, at: Callable[[str], str],
               error: type[DealError] = DealError) -> None:
    """Every card of the pack lies in ``stacks`` exactly as often as the pack holds it; else
    ``error`` naming the stack (``at(stack)``: where it was written) or the missing cards."""
    want = Counter(layout.pack())
    have: Counter[int] = Counter()
    for stack, got in stacks.items():
        for c in got:
            have[c] += 1
            if have[c] > want[c]:
                copies = "once" if want[c] == 1 else f"{want[c]} times"
                if want[c] == 0:
                    raise error(f"{at(stack)}: card {cards.name(c)} is not in this pack "
                                f"(ranks A..{cards.RANKS[layout.max_rank - 1]})")
                raise error(f"{at(stack)}: card {cards.name(c)} appears more than {copies}")
    missing = want - have
    if missing:
        names = " ".join(cards.name(c) for c in sorted(missing))
        raise error(f"{where}: missing cards: {names}")


def _placed_before_deal(layout: Layout) -> dict[str, int]:
    """The stacks whose card the layout fixes: preset foundation bases, a hole's start card."""
    out = {}
    if layout.foundations.preset:
        for i in range(layout.foundations.count):
            out[f"foundation:{i}"] = foundation_base(layout, i)
    if layout.hole is not None and layout.hole.start != "stock":
        out["hole"] = cards.parse(layout.hole.start)
    return out


# ------------------------------------------------------------------ JSON


def to_json(deal: Deal) -> dict[str, list[str]]:
    return {stack: cards.names(cs) for stack, cs in deal.items()}


@dataclass(frozen=True)
class DealReader:
    """An outside JSON form of a deal (Solvitaire's deal files): whether an object is in it, and
    the deal it holds (checked against the layout by ``from_json``).  The families register theirs
    (``solver.families.card.DEAL_READERS``)."""

    claims: Callable[[object], bool]
    read: Callable[[object, Layout, str], Deal]


def from_json(obj: object, layout: Layout, where: str, readers: Sequence[DealReader] = ()) -> Deal:
    """Read the ``deal`` object of the result contract (or a whole result holding one), or an
    object of an outside form ``readers`` claims."""
    for reader in readers:
        if reader.claims(obj):
            return validate(layout, reader.read(obj, layout, where), where)
    if isinstance(obj, dict) and isinstance(obj.get("deal"), dict):
        obj = obj["deal"]
    if not isinstance(obj, dict):
        raise DealError(f"{where}: expected a JSON object mapping stack names to lists of cards")
    deal: Deal = {}
    for stack, cs in obj.items():
        if not isinstance(stack, str) or not stack.isprintable():
            raise DealError(f"{where}: {stack!r}: expected a stack name such as 'tableau:0' or 'stock'")
        if not isinstance(cs, list):
            raise DealError(f"{where}: {stack}: expected a list of card names, got {json_text(cs)}")
        out = []
        for i, c in enumerate(cs):
            try:
                out.append(cards.parse(c))
            except CardError as e:
                raise DealError(f"{where}: {stack}[{i}]: {e}") from None
        if out:
            deal[stack] = out
    return validate(layout, deal, where, named=[k for k in obj if isinstance(k, str)])


# ------------------------------------------------------- fc-solve board text


def covers_board_format(layout: Layout) -> bool:
    """The fc-solve board format covers games of tableau columns, cells, a talon and a hole."""
    return layout.reserve.count == 0 and not layout.foundations.preset


_BOARD_LABELS = {"foundations": "foundations", "founds": "foundations", "freecells": "freecells",
                 "fc": "freecells", "talon": "talon"}


def parse_board(text: str, layout: Layout, where: str) -> Deal:
    """Read fc-solve's board format: optional ``Foundations:`` (or ``Founds:``), ``Freecells:``
    (or ``FC:``) and ``Talon:`` lines, then one tableau column per line, bottom card first (a
    column line may start with ``:``, as fc-solve prints them).  ``-`` is an empty free cell and
    ``H-0`` an empty foundation."""
    if not covers_board_format(layout):
        raise DealError(f"{where}: the board format does not cover layout {layout.name!r}; use a JSON deal")
    deal: Deal = {}
    lines: dict[str, int] = {}
    col = 0
    for lineno, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        label = _BOARD_LABELS.get(head.strip().lower(), "column") if sep else "column"
        if label == "column":
            words = rest.split() if sep and not head.strip() else line.split()
        else:
            words = rest.split()
        try:
            slots = [_board_card(w) for w in words]
        except CardError as e:
            raise DealError(f"{where}:{lineno}: {e}") from None
        parsed = [c for c in slots if c is not None]
        if label == "column":
            stack = f"tableau:{col}"
            col += 1
        elif label == "talon":
            stack = "stock"
        elif label == "freecells":
            if len(slots) > layout.cells.count:
                raise DealError(f"{where}:{lineno}: {len(slots)} free cells, expected at most "
                                f"{layout.cells.count} for layout {layout.name!r}")
            for i, c in enumerate(parsed):  # free cells are alike: the dealt ones are cell:0, cell:1, ...
                deal[f"cell:{i}"] = [c]
                lines[f"cell:{i}"] = lineno
            continue
        elif layout.hole is not None:
            stack = "hole"
        else:
            if parsed:
                raise DealError(f"{where}:{lineno}: a deal starts with empty foundations")
            continue
        if parsed:
            deal[stack] = parsed
        lines[stack] = lineno
    if col > layout.tableau.count:
        raise DealError(f"{where}: {col} columns, expected {layout.tableau.count}")
    return validate(layout, deal, where, lines)


def _board_card(word: str) -> int | None:
    """A card, or None for an empty place: ``-`` (a free cell) or rank 0 (``H-0``, a foundation)."""
    w = word.strip("<>")
    if w in ("-", "--", ""):
        return None
    if "-" in w:  # a foundation written as suit-rank, e.g. S-A; S-0 is an empty one
        s, _, r = w.partition("-")
        if r == "0" and len(s) == 1 and s.upper() in cards.SUITS:
            return None
        w = r + s
    return cards.parse(w)


def to_board(deal: Deal, layout: Layout) -> str:
    """Write ``deal`` in the fc-solve board format."""
    if not covers_board_format(layout):
        raise DealError(f"the board format does not cover layout {layout.name!r}; use --json")
    out = []
    if "hole" in deal:
        out.append("Foundations: " + " ".join(cards.names(deal["hole"])))
    if layout.cells.count:
        cells_ = [cards.name(deal[f"cell:{i}"][0]) if f"cell:{i}" in deal else "-"
                  for i in range(layout.cells.count)]
        if any(c != "-" for c in cells_):
            out.append("Freecells: " + " ".join(cells_))
    if "stock" in deal:
        out.append("Talon: " + " ".join(cards.names(deal["stock"])))
    for i in range(layout.tableau.count):
        out.append(" ".join(cards.names(deal.get(f"tableau:{i}", []))))
    return "\n".join(out) + "\n"


def to_text(deal: Deal) -> str:
    """A plain listing, one stack per line (any layout); ``parse_listing`` reads it back."""
    return "".join(f"{stack}: {' '.join(cards.names(cs))}\n" for stack, cs in deal.items())


_LISTING_LINE = re.compile(r"(stock|waste|hole|base|(?:reserve|tableau|cell|foundation):\d+)\s*:(.*)")


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of ``text`` that say something, numbered from 1, without comments (``#``)."""
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield lineno, line


def is_listing(text: str) -> bool:
    """Whether ``text`` looks like ``to_text``'s listing: its first line names a stack."""
    first = next(content_lines(text), None)
    return first is not None and _LISTING_LINE.fullmatch(first[1]) is not None


def parse_listing(text: str, layout: Layout, where: str) -> Deal:
    """Read ``to_text``'s listing: lines ``stack: cards``, columns bottom card first."""
    deal: Deal = {}
    lines: dict[str, int] = {}
    for lineno, line in content_lines(text):
        m = _LISTING_LINE.fullmatch(line)
        if m is None:
            raise DealError(f"{where}:{lineno}: expected a stack and its cards, such as "
                            f"'tableau:0: JD KD 2S' or 'stock: 7S QH', got {line!r}")
        stack = m.group(1)
        if stack in lines:
            raise DealError(f"{where}:{lineno}: {stack} is listed twice (also line {lines[stack]})")
        try:
            parsed = [cards.parse(w) for w in m.group(2).split()]
        except CardError as e:
            raise DealError(f"{where}:{lineno}: {e}") from None
        lines[stack] = lineno
        if parsed:
            deal[stack] = parsed
    return validate(layout, deal, where, lines)


def parse_text(text: str, layout: Layout, where: str, readers: Sequence[DealReader] = ()) -> Deal:
    """Read a deal from text: JSON (by content; ``readers`` as ``from_json``'s), ``to_text``'s
    listing or the fc-solve board format."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith(("{", "[")):
        return from_json(parse_json(text, where, DealError), layout, where, readers)
    if is_listing(text):
        return parse_listing(text, layout, where)
    return parse_board(text, layout, where)


def read(path: str, layout: Layout, readers: Sequence[DealReader] = ()) -> Deal:
    """Read a deal file: JSON (``readers`` as ``from_json``'s), the listing ``patience deal``
    prints, or the fc-solve board format (at most ``files.DEAL_LIMIT`` bytes of UTF-8, a
    byte-order mark allowed)."""
    text = read_text(path, DEAL_LIMIT, "deal file", "JSON, a listing or the fc-solve board format", DealError)
    return parse_text(text, layout, shown(path), readers)
