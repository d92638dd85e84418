"""Positions: a card game part-way through, as a person would write it down (issue #27).

A ``Snapshot`` is the table at one moment: every stack's cards (the stock still to turn, the
waste, the foundations, the cells, the tableau and reserve columns, the hole), how many of a
tableau column's bottom cards lie face down, and the counters the rules keep: the redeals left
(layouts whose waste may be turned over a limited number of times) and the pack cards the
current batch still places before the columns play again (``stock.batch``, Sly Fox).  A deal is
the position at move 0 (``from_deal``); the families build their search positions and their
referees from a snapshot, so a game can be searched and replayed from anywhere in it.

Stacks list their cards as deals do: columns bottom card first, the stock first turned first,
the waste and the foundations bottom card first (the waste's top card, the one that plays, is
its last).  A reserve column with ``access = "first"`` lists the card placed first first: that
is the one that leaves next.  The search's own decisions (the debutante family's "never to this
row" marks) are not part of a position: a position is what lies on the table.

Formats (``docs/positions.md``): a text listing, one stack per line, with ``|`` after a
column's face-down cards and a line per counter, and JSON.  ``check`` refuses a position that
no deal could reach (a card too many or missing, a foundation out of order, more redeals left
than the layout gives, ...), naming the line or key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import cards
from .deal import Deal, check_pack, content_lines, expected_counts, layout_stacks
from .errors import CardError, DealError
from .files import DEAL_LIMIT, json_text, parse_json, read_text, shown
from .layout import Layout

__all__ = ["Snapshot", "check", "counts_batches", "counts_redeals", "from_deal", "from_json", "from_text",
           "of", "read", "stack_names", "to_deal", "to_json", "to_text"]


class PositionError(DealError):
    """A position that does not fit its layout, or that no deal could reach."""


@dataclass(frozen=True)
class Snapshot:
    """A card game at one moment (see the module text).

    ``stacks`` holds every stack of the layout (``stack_names``), empty ones too, so that two
    snapshots of one position are equal; ``face_down`` only the columns with face-down cards.
    ``redeals_left`` is None where the layout does not count redeals (``counts_redeals``);
    ``batch_left`` is 0 where it has no batches.
    """

    stacks: Mapping[str, tuple[int, ...]]
    face_down: Mapping[str, int] = field(default_factory=dict)
    redeals_left: int | None = None
    batch_left: int = 0

    def cards_left(self) -> int:
        """Cards not on a foundation (nor on the hole)."""
        return sum(len(cs) for s, cs in self.stacks.items() if not s.startswith("foundation") and s != "hole")


# ------------------------------------------------------------ the layout's stacks


def stack_names(layout: Layout) -> list[str]:
    """Every stack a position of ``layout`` lists, in the order the text lists them: the layout's
    stacks (``deal.layout_stacks``), the stock only where the game has one, and no ``base``
    (the base card of a deal lies on its foundation)."""
    stock = layout.stock.turn != "none" or bool(expected_counts(layout).get("stock"))
    return [s for s in layout_stacks(layout) if s != "base" and (s != "stock" or stock)]


def counts_redeals(layout: Layout) -> bool:
    """Whether a position says how many redeals are left: a waste turned over a limited number
    of times, at least once (with none the count is always 0, with no limit it never matters)."""
    return layout.stock.turn == "waste" and layout.stock.redeals > 0


def counts_batches(layout: Layout) -> bool:
    """Whether a position says how many pack cards the current batch still places (``stock.batch``)."""
    return layout.stock.batch > 0


# ------------------------------------------------------------ deals and positions


def from_deal(layout: Layout, deal: Deal) -> Snapshot:
    """The position at move 0 of ``deal`` (not checked: ``solver.deal`` checks deals).

    Canfield's base card lies on its suit's foundation; a column's face-down cards are the
    layout's ``tableau.face_down`` (its top card always lies face up); with ``spaces =
    "reserve-then-any"`` (or ``"reserve-then-waste"``) an empty column is filled from the reserve at
    once; the redeals are all left.  A stack the layout lacks is kept, for the positions to name it.
    """
    stacks: dict[str, tuple[int, ...]] = {name: () for name in stack_names(layout)}
    for stack, cs in deal.items():
        if stack == "base" and cs:
            f = f"foundation:{cards.suit(cs[0])}"
            stacks[f] = stacks.get(f, ()) + tuple(cs)
        else:
            stacks[stack] = tuple(cs)
    face_down = {}
    for i, fd in enumerate(layout.tableau.face_down):
        n = min(fd, max(0, len(stacks.get(f"tableau:{i}", ())) - 1))
        if n:
            face_down[f"tableau:{i}"] = n
    if layout.tableau.spaces in ("reserve-then-any", "reserve-then-waste"):
        for i in range(layout.tableau.count):
            heel = stacks.get("reserve:0", ())
            if not stacks[f"tableau:{i}"] and heel:
                stacks[f"tableau:{i}"], stacks["reserve:0"] = heel[-1:], heel[:-1]
    return Snapshot(stacks, face_down, layout.stock.redeals if counts_redeals(layout) else None, 0)


def of(layout: Layout, deal_or_position: Deal | Snapshot) -> Snapshot:
    """A snapshot passed through, or the position at move 0 of a deal."""
    if isinstance(deal_or_position, Snapshot):
        return deal_or_position
    return from_deal(layout, deal_or_position)


def to_deal(layout: Layout, pos: Snapshot) -> Deal | None:
    """The deal whose position at move 0 is ``pos``, or None if ``pos`` is not one
    (for what only starts from a deal: the CP-SAT models)."""
    deal: Deal = {}
    for stack, cs in pos.stacks.items():
        if cs:
            deal[stack] = list(cs)
    if layout.foundations.base_from_deal:
        bases = [s for s in deal if s.startswith("foundation")]
        if len(bases) != 1:
            return None
        deal["base"] = deal.pop(bases[0])
    expected = expected_counts(layout)
    if set(deal) != set(expected) or any(len(deal[s]) != n for s, n in expected.items()):
        return None
    deal = {s: deal[s] for s in expected}
    return deal if from_deal(layout, deal) == pos else None


# ------------------------------------------------------------ reachable

Lines = Mapping[str, int]  # a stack or counter -> the line of the text naming it


def foundation_cards(layout: Layout, f: int, base_rank: int) -> list[int]:
    """The cards foundation ``f`` takes, first to last: its row's base (the highest rank in
    play for a king; ``base_rank`` for a base from the deal), then its suit in its row's
    direction, round the corner past the king when the foundations wrap."""
    row = layout.foundations.rows[f // 4]
    top = layout.max_rank
    first = base_rank if row.base == 0 else top if row.base == 13 else row.base
    out, r = [], first
    for _ in range(top):
        out.append(cards.make(r, layout.foundation_suit(f)))
        r += row.direction
        if layout.foundations.wrap:
            r = (r - 1) % top + 1
        elif not 1 <= r <= top:
            break
    return out


def check(layout: Layout, pos: Snapshot, where: str, lines: Lines | None = None) -> Snapshot:
    """``pos`` if a deal of ``layout`` could reach it; else a ``PositionError`` naming what is
    wrong (with the line of the text, from ``lines``, where there is one).

    Checked: the stacks are the layout's, each card of the pack lies somewhere exactly as often
    as the pack holds it; each foundation holds the first cards it takes, in order (a preset one
    at least its base; with a base from the deal one rank for every foundation, and the base
    card never leaves); a cell holds one card, a column no more than its capacity or (in the
    hole games, whose columns only give cards) than it was dealt, a built reserve column (suit
    sequences) its built order above the dealt cards; face-down cards only where the layout
    deals them, never more, and never the top card; a hole holds its first card; the waste no
    more than its capacity; no more redeals left than the layout gives; a batch no longer than
    ``stock.batch``, and none open with the pack empty; no empty column while a reserve that
    fills spaces at once holds cards.  Not checked: which card lay under which as the game went
    (a hole's order, a tableau column's face-up cards), which no rule of play constrains alone.
    """
    lines = lines or {}

    def at(stack: str) -> str:
        return f"{where}:{lines[stack]}" if stack in lines else f"{where}: {stack}"

    def fail(stack: str, message: str) -> PositionError:
        return PositionError(f"{at(stack)}: {message}")

    names = stack_names(layout)
    for stack in pos.stacks:
        if stack not in names:
            hint = " (in a position the base card lies on its foundation)" if stack == "base" else ""
            raise fail(stack, f"layout {layout.name!r} has no stack {stack!r}{hint}; its stacks: {', '.join(names)}")
    stacks = {name: tuple(pos.stacks.get(name, ())) for name in names}
    check_pack(layout, stacks, where, at, PositionError)
    _check_foundations(layout, stacks, fail)
    _check_stacks(layout, stacks, fail)
    for stack, n in pos.face_down.items():
        if stack not in stacks or not stack.startswith("tableau:"):
            raise fail(stack, f"only tableau columns hold face-down cards, not {stack!r}")
        i = int(stack.partition(":")[2])
        dealt = layout.tableau.face_down[i] if i < len(layout.tableau.face_down) else 0
        if n > dealt:
            raise fail(stack, f"{n} face-down cards, but {layout.name!r} deals {dealt} to {stack} and "
                              "face-down cards only ever turn up")
        if n >= len(stacks[stack]) and n:
            raise fail(stack, "the top card of a column lies face up (cards before '|' are face down)")
    if counts_redeals(layout):
        most = layout.stock.redeals
        if pos.redeals_left is None or not 0 <= pos.redeals_left <= most:
            raise fail("redeals_left", f"expected the redeals left, 0..{most} ({layout.name!r} turns the waste "
                                       f"over at most {most} time{'s' if most > 1 else ''}), got {pos.redeals_left}")
    elif pos.redeals_left is not None:
        raise fail("redeals_left", f"{layout.name!r} counts no redeals; leave out redeals_left")
    if counts_batches(layout):
        if not 0 <= pos.batch_left < layout.stock.batch:
            raise fail("batch_left", f"expected the pack cards the batch still places, 0..{layout.stock.batch - 1}, "
                                     f"got {pos.batch_left}")
        if pos.batch_left and not stacks.get("stock"):
            raise fail("batch_left", "a batch ends when the pack runs out: with the stock empty it is 0")
    elif pos.batch_left:
        raise fail("batch_left", f"{layout.name!r} places no batches; leave out batch_left")
    face_down = {s: n for s, n in pos.face_down.items() if n}
    if face_down != dict(pos.face_down) or stacks != dict(pos.stacks):  # one form for one position
        return Snapshot(stacks, face_down, pos.redeals_left, pos.batch_left)
    return pos


def _check_foundations(layout: Layout, stacks: dict[str, tuple[int, ...]], fail: Any) -> None:
    fo = layout.foundations
    base_rank = 1
    if fo.base_from_deal:
        firsts = [(f"foundation:{f}", stacks[f"foundation:{f}"][0]) for f in range(fo.count)
                  if stacks[f"foundation:{f}"]]
        if not firsts:
            raise fail("foundation:0", "every foundation is empty, but the base card dealt to its foundation "
                                       "never leaves it")
        base_rank = cards.rank(firsts[0][1])
        for stack, c in firsts:
            if cards.rank(c) != base_rank:
                raise fail(stack, f"starts with {cards.name(c)}, but every foundation starts at the base's rank, "
                                  f"{cards.RANKS[base_rank - 1]} (as {firsts[0][0]} does)")
    for f in range(fo.count):
        stack = f"foundation:{f}"
        got = list(stacks[stack])
        takes = foundation_cards(layout, f, base_rank)
        if got != takes[:len(got)]:
            k = next(i for i, (a, b) in enumerate(zip(got, takes + [-1] * len(got))) if a != b)
            want = cards.name(takes[k]) if k < len(takes) else "nothing more"
            raise fail(stack, f"out of order: card {k + 1} is {cards.name(got[k])}, but {stack} takes "
                              f"{want} there ({' '.join(cards.names(takes[:3]))} ...)")
        if fo.preset and not got:
            raise fail(stack, f"empty, but its base {cards.name(takes[0])} is placed before the deal and never leaves")


def _check_stacks(layout: Layout, stacks: dict[str, tuple[int, ...]], fail: Any) -> None:
    r, t = layout.reserve, layout.tableau
    for i in range(layout.cells.count):
        if len(stacks[f"cell:{i}"]) > 1:
            raise fail(f"cell:{i}", f"a cell holds one card, not {len(stacks[f'cell:{i}'])}")
    for i in range(r.count):
        col = stacks[f"reserve:{i}"]
        if r.capacity and len(col) > r.capacity:
            raise fail(f"reserve:{i}", f"{len(col)} cards, but a reserve column holds at most {r.capacity}")
        if r.accepts == "suit-sequence":
            for k in range(r.deal, len(col)):
                if k and (cards.suit(col[k]) != cards.suit(col[k - 1])
                          or abs(cards.rank(col[k]) - cards.rank(col[k - 1])) != 1):
                    raise fail(f"reserve:{i}", f"{cards.name(col[k])} lies on {cards.name(col[k - 1])}, but a "
                                               "placed card must follow the card under it in suit, one rank apart")
    if layout.hole is not None:
        hole = stacks["hole"]
        if not hole:
            raise fail("hole", "the hole is empty, but it holds a card from the deal on")
        if layout.hole.start != "stock" and hole[0] != cards.parse(layout.hole.start):
            raise fail("hole", f"the hole starts with {layout.hole.start}, placed before the deal; "
                               f"got {cards.name(hole[0])} at the bottom")
        for i, n in enumerate(t.deal):
            if len(stacks[f"tableau:{i}"]) > n:
                raise fail(f"tableau:{i}", f"{len(stacks[f'tableau:{i}'])} cards, but columns here only give "
                                           f"cards and tableau:{i} is dealt {n}")
    if layout.stock.waste_capacity and len(stacks.get("waste", ())) > layout.stock.waste_capacity:
        raise fail("waste", f"the waste holds at most {layout.stock.waste_capacity} cards")
    if t.spaces in ("reserve-then-any", "reserve-then-waste") and stacks.get("reserve:0"):
        for i in range(t.count):
            if not stacks[f"tableau:{i}"]:
                raise fail(f"tableau:{i}", "empty while the reserve holds cards, but the reserve fills an "
                                           "empty column at once")


# ------------------------------------------------------------ text


def to_text(layout: Layout, pos: Snapshot, title: str | None = None) -> str:
    """The listing ``from_text`` reads: a stack per line, ``|`` after a column's face-down
    cards, a line per counter; ``title`` as a comment first."""
    out = [f"# {title}\n"] if title else []
    for stack, cs in pos.stacks.items():
        names = cards.names(cs)
        down = pos.face_down.get(stack, 0)
        if down:
            names = [*names[:down], "|", *names[down:]]
        out.append(f"{stack}: {' '.join(names)}".rstrip() + "\n")
    if pos.redeals_left is not None:
        out.append(f"redeals_left: {pos.redeals_left}\n")
    if counts_batches(layout):
        out.append(f"batch_left: {pos.batch_left}\n")
    return "".join(out)


_LINE = re.compile(r"(stock|waste|hole|base|(?:reserve|tableau|cell|foundation):\d+|redeals_left|batch_left)"
                   r"\s*:(.*)")


def from_text(text: str, layout: Layout, where: str) -> Snapshot:
    """Read ``to_text``'s listing (or JSON, by its first character), and ``check`` it.  A stack
    not listed is empty; the counters the layout keeps must be given."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        return from_json(parse_json(text, where, PositionError), layout, where)
    stacks: dict[str, tuple[int, ...]] = {}
    face_down: dict[str, int] = {}
    counters: dict[str, int] = {}
    lines: dict[str, int] = {}
    for lineno, line in content_lines(text):
        m = _LINE.fullmatch(line)
        if m is None:
            raise PositionError(f"{where}:{lineno}: expected a stack and its cards, such as 'tableau:0: 4C 9H | KD' "
                                f"or 'stock: 7S QH', or a counter such as 'redeals_left: 1', got {line[:60]!r}")
        name, rest = m.group(1), m.group(2).split()
        if name in lines:
            raise PositionError(f"{where}:{lineno}: {name} is listed twice (also line {lines[name]})")
        lines[name] = lineno
        if name in ("redeals_left", "batch_left"):
            if len(rest) != 1 or not rest[0].isdigit():
                raise PositionError(f"{where}:{lineno}: {name}: expected a whole number >= 0, got {' '.join(rest)!r}")
            counters[name] = int(rest[0])
            continue
        if rest.count("|") > 1 or ("|" in rest and not name.startswith("tableau:")):
            raise PositionError(f"{where}:{lineno}: '|' follows the face-down cards of a tableau column, once")
        if "|" in rest:
            face_down[name] = rest.index("|")
            rest.remove("|")
        try:
            stacks[name] = tuple(cards.parse(w) for w in rest)
        except CardError as e:
            raise PositionError(f"{where}:{lineno}: {e}") from None
    _require_counters(layout, counters, where)
    pos = Snapshot(stacks, face_down, counters.get("redeals_left"), counters.get("batch_left", 0))
    return check(layout, pos, where, lines)


def _require_counters(layout: Layout, counters: Mapping[str, Any], where: str) -> None:
    if counts_redeals(layout) and "redeals_left" not in counters:
        raise PositionError(f"{where}: redeals_left: missing; {layout.name!r} turns the waste over at most "
                            f"{layout.stock.redeals} times: expected how many redeals are left, such as "
                            f"'redeals_left: {layout.stock.redeals}'")
    if counts_batches(layout) and "batch_left" not in counters:
        raise PositionError(f"{where}: batch_left: missing; {layout.name!r} places pack cards in batches of "
                            f"{layout.stock.batch}: expected how many the current batch still places "
                            "(0 between batches), such as 'batch_left: 0'")


def read(path: str, layout: Layout) -> Snapshot:
    """A position from a file (``-``: standard input): the text listing or JSON, at most
    ``files.DEAL_LIMIT`` bytes of UTF-8."""
    text = read_text(path, DEAL_LIMIT, "position file", "a position: the listing of `patience deal --moves` or JSON",
                     PositionError)
    return from_text(text, layout, shown(path))


# ------------------------------------------------------------ JSON


def to_json(layout: Layout, pos: Snapshot) -> dict[str, Any]:
    """``{"stacks": {stack: [cards]}, "face_down": {column: n}, "redeals_left": n, "batch_left": n}``,
    the counters only where the layout keeps them."""
    out: dict[str, Any] = {"stacks": {s: cards.names(cs) for s, cs in pos.stacks.items()}}
    if pos.face_down:
        out["face_down"] = dict(pos.face_down)
    if pos.redeals_left is not None:
        out["redeals_left"] = pos.redeals_left
    if counts_batches(layout):
        out["batch_left"] = pos.batch_left
    return out


def from_json(obj: Any, layout: Layout, where: str) -> Snapshot:
    """Read ``to_json``'s object (or a result or an analysis holding one under ``position``),
    and ``check`` it."""
    if isinstance(obj, dict) and isinstance(obj.get("position"), dict):
        obj = obj["position"]
    if not isinstance(obj, dict) or not isinstance(obj.get("stacks"), dict):
        raise PositionError(f"{where}: expected a position: an object with 'stacks' (stack -> cards) and the "
                            "counters the layout keeps (see docs/positions.md)")
    unknown = set(obj) - {"stacks", "face_down", "redeals_left", "batch_left", "layout"}
    if unknown:
        raise PositionError(f"{where}: {sorted(unknown)[0]!r}: not a key of a position; expected stacks, face_down, "
                            "redeals_left, batch_left")
    stacks: dict[str, tuple[int, ...]] = {}
    for stack, cs in obj["stacks"].items():
        if not isinstance(cs, list):
            raise PositionError(f"{where}: stacks: {stack}: expected a list of card names, got {json_text(cs)}")
        try:
            stacks[stack] = tuple(cards.parse(c) for c in cs)
        except CardError as e:
            raise PositionError(f"{where}: stacks: {stack}: {e}") from None
    face_down = obj.get("face_down", {})
    if not isinstance(face_down, dict) or not all(type(n) is int and n >= 0 for n in face_down.values()):
        raise PositionError(f"{where}: face_down: expected an object: tableau column -> number of face-down cards")
    for key in ("redeals_left", "batch_left"):
        if key in obj and not (type(obj[key]) is int and obj[key] >= 0):
            raise PositionError(f"{where}: {key}: expected a whole number >= 0, got {obj[key]!r:.40}")
    _require_counters(layout, obj, where)
    pos = Snapshot(stacks, face_down, obj.get("redeals_left"), obj.get("batch_left", 0))
    return check(layout, pos, where)
