"""Layouts: the rules of a game as data, read from a TOML file and checked.

A layout file names its stacks (stock, waste, reserve columns, tableau
columns, cells, foundations, hole), how the pack is dealt into them, what
each accepts and what wins.  ``layouts/README.md`` is the schema reference.
Every key is checked here once, so the engines can trust a ``Layout``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from . import cards, moves
from .errors import LayoutError, UnsupportedError
from .schema import Table, decode, layout_name

UNLIMITED = 0  # a capacity of 0 means "no limit"
DEFAULT_SUITS = ("C", "D", "H", "S")  # a pack of all four suits (``Layout.suits``)


@dataclass(frozen=True)
class FoundationRow:
    """One foundation per suit, built in suit from ``base`` in ``direction``."""

    base: int  # rank 1..13; 13 means "the highest rank in play"; 0: the rank of the card dealt to ``base``
    direction: int  # +1 up, -1 down


@dataclass(frozen=True)
class Foundations:
    rows: tuple[FoundationRow, ...] = ()
    preset: bool = False  # the base card of each foundation is placed before the deal
    # which pack (1 = the first) gives those bases, for the pysolfc generator: how the deal is made, not a rule
    preset_pack: int = field(default=1, metadata={"deal_only": True})
    removable: bool = False  # a foundation's top card may go back to a tableau column (Klondike)
    wrap: bool = False  # built past the king: ace follows king (Canfield)
    takes: str = "card"  # what one move puts on a foundation (``moves.RULES``): "card", its next card

    @property
    def base_from_deal(self) -> bool:
        """Every foundation starts at the rank of the card dealt to ``base`` (Canfield)."""
        return any(r.base == 0 for r in self.rows)

    @property
    def count(self) -> int:
        return 4 * len(self.rows)


@dataclass(frozen=True)
class Hole:
    """A single foundation taking any suit, one rank up or down from its top."""

    start: str = "stock"  # a card name (moved there before the deal) or "stock"
    wrap: bool = False  # king and ace are next to each other


@dataclass(frozen=True)
class Reserve:
    """Columns that only give cards to foundations (the debutante family)."""

    count: int = 0
    capacity: int = UNLIMITED
    access: str = "last"  # "last": top card placed last is available; "first": queue
    accepts: str = "any"  # "any" card, "suit-sequence" (same suit, next rank), or "none" (Canfield's heel)
    deal: int = 1  # cards dealt to each column at the start
    fill: str = "any-time"  # "any-time": gaps wait; "immediate": refilled from the pack at once
    gaps: str = "pack"  # "pack": a gap takes pack cards; "any-top": also any column top once the pack is empty


@dataclass(frozen=True)
class Tableau:
    count: int = 0
    deal: tuple[int, ...] = ()  # cards dealt to each column
    face_down: tuple[int, ...] = ()  # how many of those are face down
    build: str = "none"  # "alternate", "suit", "any", "none"
    direction: int = -1
    spaces: str = "any"  # what an empty column takes: "any", "kings", "none", "reserve-then-any", "reserve-then-waste",
    #                      "waste-then-stock"
    moves: str = "single"  # "single", "sequence" (built groups as a unit), "supermove" (``moves.RULES``)
    to_foundation: bool = True
    wrap: str = "none"  # rank order for building: "none" (A..K), "from-base" (foundation order), "cyclic"


@dataclass(frozen=True)
class Cells:
    count: int = 0
    deal: int = 0  # cards dealt into the cells at the start


@dataclass(frozen=True)
class Stock:
    turn: str = "none"  # "place", "waste", "deal-row", "hole", "none" (``moves.RULES``)
    deal_count: int = 1
    redeals: int = 0  # -1: unlimited
    waste_capacity: int = UNLIMITED
    top_playable: bool = False  # the top card of the pack may go to a foundation
    batch: int = 0  # once a pack card goes to a column, this many must follow before columns play


@dataclass(frozen=True)
class DealSpec:
    generator: str = "patience-v1"  # "patience-v1", "ms-freecell", "pysol", "pysolfc"
    pysol_game: str = ""  # pysol-cards' name of the game it deals (``Game(...)``), e.g. "black_hole"
    pysolfc_game: str = ""  # the game's name in PySolFC, e.g. "Colorado": seed N is its game number N
    order: tuple[str, ...] = ("cells", "tableau", "reserve", "hole")
    reverse: tuple[str, ...] = ()  # groups dealt last stack first in each round (PySolFC's dealRow(reverse=1))
    # the top rank of the deck the layout file itself names (its ``max_rank``): the generator deals that
    # deck as its own; a deck reduced further (``--max-ranks``) is dealt by ``patience-v1``
    max_rank: int = 13
    tops_last: bool = False  # the columns' top cards dealt last, one row (PySolFC's ``_startAndDealRow``)


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    description: str
    rules_version: int
    decks: int
    suits: tuple[str, ...] = DEFAULT_SUITS  # each pack's four 13-card suits, in the order C D H S
    foundations: Foundations = field(default_factory=Foundations)
    hole: Hole | None = None
    reserve: Reserve = field(default_factory=Reserve)
    tableau: Tableau = field(default_factory=Tableau)
    cells: Cells = field(default_factory=Cells)
    stock: Stock = field(default_factory=Stock)
    deal: DealSpec = field(default_factory=DealSpec)
    max_rank: int = 13
    path: str = ""

    @property
    def top_rank(self) -> int:
        return self.max_rank

    @property
    def family(self) -> str:
        """The family that plays this layout, by what it holds: a hole (Black Hole, Golf), a
        tableau (FreeCell and friends; with a reserve pile, Canfield), or reserve columns
        alone (the debutante family)."""
        if self.hole is not None:
            return "hole"
        if self.tableau.count:
            return "tableau"
        return "reserve"

    def pack(self) -> list[int]:
        if self.suits == DEFAULT_SUITS:
            return cards.pack(self.decks, self.max_rank)
        return [cards.make(r, cards.SUITS.index(s)) for _ in range(self.decks) for s in self.suits
                for r in range(1, self.max_rank + 1)]

    def foundation_suit(self, index: int) -> int:
        """The suit of foundation ``index`` (row * 4 + k): the pack's k-th suit (C D H S when
        the pack has all four)."""
        return cards.SUITS.index(self.suits[index % 4])

    def with_max_rank(self, max_rank: int) -> Layout:
        """The same game on a reduced deck holding ranks A..``max_rank`` (at most the file's own top rank)."""
        if not 1 <= max_rank <= self.deal.max_rank:
            top = self.deal.max_rank
            own = "" if top == 13 else f" ({self.name}'s deck holds ranks A..{cards.RANKS[top - 1]})"
            raise LayoutError(f"--max-ranks: expected 1..{top}{own}, got {max_rank}")
        reduced = replace(self, max_rank=max_rank)
        if self.hole is not None and self.hole.start != "stock" and cards.rank(cards.parse(self.hole.start)) > max_rank:
            raise LayoutError(f"--max-ranks {max_rank}: {self.name} starts the hole with {self.hole.start}, "
                              f"which ranks A..{cards.RANKS[max_rank - 1]} do not hold")
        dealt, size = _dealt(reduced), len(reduced.pack())
        t = self.tableau
        if dealt > size and t.count and _dealt(self) == len(self.pack()) and dealt - sum(t.deal) < size:
            # A layout that deals its whole pack to the tableau (FreeCell, Baker's Dozen) deals
            # a reduced pack the same way: round-robin, the first columns taking the extra card.
            n = size - (dealt - sum(t.deal))
            sizes = tuple(n // t.count + (j < n % t.count) for j in range(t.count))
            face_down = tuple(min(fd, max(k - 1, 0)) for fd, k in zip(t.face_down, sizes, strict=False))
            reduced = replace(reduced, tableau=replace(t, deal=sizes, face_down=face_down))
            dealt = _dealt(reduced)
        if dealt > size:
            raise LayoutError(f"--max-ranks {max_rank}: {self.name} deals {dealt} cards at the start "
                              f"but ranks A..{cards.RANKS[max_rank - 1]} make only {size}")
        return reduced


# ---------------------------------------------------------------- reading


def _rank(text: str) -> int:
    return cards.RANKS.index(text) + 1


def _foundations(t: Table) -> Foundations:
    rows = []
    raw = t.get("rows", [], "a list of {base = 'A'|'K'|'deal', build = 'up'|'down'} tables",
                lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v))
    for i, r in enumerate(raw):
        rt = Table(t.where, f"{t.path}.rows[{i}]", r)
        base = rt.str("base", "A", ("A", "K", "deal"))
        build = rt.str("build", "up", ("up", "down"))
        rt.done()
        rows.append(FoundationRow(0 if base == "deal" else _rank(base), 1 if build == "up" else -1))
    preset = t.bool("preset", False)
    preset_pack = t.int("preset_pack", 1, 1, 2)
    if "preset_pack" in t.data and not preset:
        raise t.fail("preset_pack", "preset = true beside it (it names the pack whose bases are placed first)")
    removable = t.bool("removable", False)
    wrap = t.bool("wrap", False)
    takes = t.str("takes", "card", moves.values("foundations.takes"))
    if any(r.base == 0 for r in rows):
        if not all(r.base == 0 for r in rows):
            raise t.fail("rows", "the same base for every row when one row's base is 'deal'")
        if preset:
            raise t.fail("preset", "false when the base comes from the deal (base = 'deal')")
        if not wrap:
            raise t.fail("wrap", "true when the base comes from the deal: a foundation started at a middle "
                                 "rank must turn the corner from king to ace to hold a whole suit")
    t.done()
    return Foundations(tuple(rows), preset, preset_pack, removable, wrap, takes)


def _hole(t: Table) -> Hole:
    start = t.get("start", "stock", "a card name such as 'AS', or 'stock'",
                  lambda v: v == "stock" or cards.parse(v) >= 0)
    h = Hole(start=start, wrap=t.bool("wrap", False))
    t.done()
    return h


def _reserve(t: Table) -> Reserve:
    r = Reserve(
        count=t.int("count", 0, 0, 64),
        capacity=t.int("capacity", UNLIMITED, 0, 104),
        access=t.str("access", "last", ("last", "first")),
        accepts=t.str("accepts", "any", ("any", "suit-sequence", "none")),
        deal=t.int("deal", 1, 0, 104),
        fill=t.str("fill", "any-time", ("any-time", "immediate")),
        gaps=t.str("gaps", "pack", ("pack", "any-top")),
    )
    t.done()
    return r


def _tableau(t: Table) -> Tableau:
    count = t.int("count", 0, 0, 20)
    deal = t.ints("deal", (), 0, 104)
    face_down = t.ints("face_down", (0,) * len(deal), 0, 104)
    if len(deal) != count:
        raise t.fail("deal", f"a list of {count} column sizes (one per column)")
    if len(face_down) != count or any(f > d for f, d in zip(face_down, deal)):
        raise t.fail("face_down", f"a list of {count} counts, each at most the column's deal")
    tab = Tableau(
        count=count, deal=deal, face_down=face_down,
        build=t.str("build", "none", ("alternate", "suit", "any", "none")),
        direction=1 if t.str("direction", "down", ("down", "up")) == "up" else -1,
        spaces=t.str("spaces", "any", ("any", "kings", "none", "reserve-then-any", "reserve-then-waste",
                                        "waste-then-stock")),
        moves=t.str("moves", "single", moves.values("tableau.moves")),
        to_foundation=t.bool("to_foundation", True),
        wrap=t.str("wrap", "none", ("none", "from-base", "cyclic")),
    )
    t.done()
    return tab


def _cells(t: Table) -> Cells:
    c = Cells(count=t.int("count", 0, 0, 16), deal=t.int("deal", 0, 0, 16))
    if c.deal > c.count:
        raise t.fail("deal", f"at most cells.count = {c.count}")
    t.done()
    return c


def _stock(t: Table) -> Stock:
    s = Stock(
        turn=t.str("turn", "none", moves.values("stock.turn")),
        deal_count=t.int("deal_count", 1, 1, 52),
        redeals=t.int("redeals", 0, -1, 100),
        waste_capacity=t.int("waste_capacity", UNLIMITED, 0, 104),
        top_playable=t.bool("top_playable", False),
        batch=t.int("batch", 0, 0, 104),
    )
    t.done()
    return s


# The deal generators' names (``solver.shuffles.GENERATORS`` has how each deals).
GENERATOR_NAMES = ("patience-v1", "ms-freecell", "pysol", "pysolfc", "solvitaire")


def _deal(t: Table) -> DealSpec:
    kinds = ("cells", "tableau", "reserve", "hole", "base")
    d = DealSpec(
        generator=t.str("generator", "patience-v1", GENERATOR_NAMES),
        pysol_game=t.str("pysol_game", ""),
        pysolfc_game=t.str("pysolfc_game", ""),
        order=tuple(t.get("order", list(DealSpec.order), f"a list drawn from {kinds}",
                          lambda v: isinstance(v, list) and all(x in kinds for x in v))),
    )
    d = replace(d, reverse=tuple(t.get("reverse", [], "a list of groups named in deal.order",
                                       lambda v: isinstance(v, list) and all(x in d.order for x in v))),
                tops_last=t.bool("tops_last", False))
    if d.generator == "pysol" and not d.pysol_game:
        raise t.fail("pysol_game", "the PySol game name, e.g. 'black_hole', when generator = 'pysol'")
    if d.pysol_game:
        from pysol_cards.deal_game import Game  # the games pysol-cards can deal

        if d.pysol_game not in Game.GAMES_MAP:
            raise t.fail("pysol_game", "a game pysol-cards deals: " + ", ".join(sorted(Game.GAMES_MAP)))
    if d.tops_last and (d.generator not in ("pysolfc", "patience-v1") or d.pysol_game or "tableau" not in d.order):
        raise t.fail("tops_last", "false unless the layout deals the columns itself (generator 'pysolfc' or "
                                  "'patience-v1' without pysol_game, 'tableau' in deal.order)")
    if d.generator == "pysolfc" and not d.pysolfc_game:
        raise t.fail("pysolfc_game", "the game's name in PySolFC, e.g. 'Colorado', when generator = 'pysolfc'")
    t.done()
    return d


def parse(data: dict[str, Any], where: str, name: str) -> Layout:
    """Read a card layout from parsed TOML ``data``; ``where`` names the file in messages."""
    top = Table(where, "", data)
    title = top.str("title", name)
    description = top.str("description", "")
    rules_version = top.int("rules_version", 1, 1)
    decks = top.int("decks", 1, 1, 2)
    max_rank = top.int("max_rank", 13, 1, 13)
    suits = tuple(sorted(top.get("suits", list(DEFAULT_SUITS), "a list of four suits drawn from 'C', 'D', 'H', 'S', "
                                 "such as ['C', 'C', 'H', 'H']",
                                 lambda v: isinstance(v, list) and len(v) == 4 and all(x in cards.SUITS for x in v)),
                         key=cards.SUITS.index))
    name = layout_name(top, name)

    def section(key, reader, default):
        sub = top.sub(key)
        return default if sub is None else reader(sub)

    layout = Layout(
        name=name, title=title, description=description, rules_version=rules_version,
        decks=decks, suits=suits,
        foundations=section("foundations", _foundations, Foundations()),
        hole=section("hole", _hole, None),
        reserve=section("reserve", _reserve, Reserve()),
        tableau=section("tableau", _tableau, Tableau()),
        cells=section("cells", _cells, Cells()),
        stock=section("stock", _stock, Stock()),
        deal=replace(section("deal", _deal, DealSpec()), max_rank=max_rank),
        max_rank=max_rank,
        path=where,
    )
    top.done()
    if suits != DEFAULT_SUITS and (layout.deal.generator not in ("pysolfc", "patience-v1") or layout.deal.pysol_game):
        raise LayoutError(f"{where}: suits: expected all four suits unless the layout deals its pack itself "
                          "(generator 'pysolfc' or 'patience-v1', no pysol_game)")
    if layout.hole is not None and layout.hole.start != "stock" and layout.hole.start[-1] not in suits:
        raise LayoutError(f"{where}: hole.start: expected a card of the pack's suits ({', '.join(suits)}), "
                          f"got {layout.hole.start!r}")
    found = data.get("foundations")
    _check_whole(layout, where, isinstance(found, dict) and "preset_pack" in found)
    return layout


def parse_text(text: str, where: str, name: str) -> Layout:
    """Read a card layout from TOML ``text``."""
    return parse(decode(text, where), where, name)


def _dealt(lay: Layout) -> int:
    """How many cards the deal places before the stock: columns, cells, preset bases, the hole."""
    return (
        sum(lay.tableau.deal) + lay.cells.deal + lay.reserve.count * lay.reserve.deal
        + (lay.foundations.count if lay.foundations.preset else 0)
        + (1 if lay.hole is not None else 0)
        + (1 if lay.foundations.base_from_deal else 0)
    )


def _check_whole(lay: Layout, where: str, preset_pack_given: bool = False) -> None:
    """Cross-section checks: the deal must fit the pack."""
    if lay.hole is not None and lay.hole.start != "stock" and cards.rank(cards.parse(lay.hole.start)) > lay.max_rank:
        raise LayoutError(f"{where}: hole.start: expected a card of ranks A..{cards.RANKS[lay.max_rank - 1]} "
                          f"(max_rank = {lay.max_rank}), got {lay.hole.start!r}")
    if lay.foundations.preset_pack > lay.decks:
        raise LayoutError(f"{where}: foundations.preset_pack: expected 1..{lay.decks} (decks = {lay.decks}), "
                          f"got {lay.foundations.preset_pack}")
    if preset_pack_given and lay.deal.generator != "pysolfc":
        raise LayoutError(f"{where}: foundations.preset_pack: only the 'pysolfc' generator keeps each card's pack; "
                          f"{lay.deal.generator!r} presets the first copy dealt: expected no preset_pack, "
                          "or deal.generator = 'pysolfc'")
    if lay.foundations.preset:
        for base in {r.base for r in lay.foundations.rows}:
            rows = sum(r.base == base for r in lay.foundations.rows)
            if rows > lay.decks:
                raise LayoutError(f"{where}: foundations.rows: with preset = true each row's base cards are placed "
                                  f"before the deal, but {rows} rows start at {cards.RANKS[base - 1]} and "
                                  f"the pack has {lay.decks} cop{'y' if lay.decks == 1 else 'ies'} of each card")
    dealt = _dealt(lay)
    if dealt > len(lay.pack()):
        raise LayoutError(f"{where}: the deal places {dealt} cards but the pack has {len(lay.pack())}"
                          + ("" if lay.max_rank == 13 else f" (max_rank = {lay.max_rank})"))
    if not lay.foundations.rows and lay.hole is None:
        raise LayoutError(f"{where}: foundations.rows or [hole]: a layout needs somewhere to win")
    if lay.hole is None and not lay.tableau.count and not lay.reserve.count:
        raise LayoutError(f"{where}: expected a [reserve], a [tableau] or a [hole]: "
                          "a layout needs columns (or a hole) to play from")
    if lay.reserve.capacity and lay.reserve.deal > lay.reserve.capacity:
        raise LayoutError(f"{where}: reserve.deal: expected at most reserve.capacity = {lay.reserve.capacity}")
    if lay.reserve.count and lay.reserve.accepts == "none" and not lay.tableau.count:
        raise LayoutError(f"{where}: reserve.accepts: 'none' (a pile that takes no cards, Canfield's reserve) "
                          "needs a [tableau] for its cards to go to; expected 'any' or 'suit-sequence'")
    if lay.foundations.base_from_deal and (not lay.tableau.count or lay.hole is not None):
        raise LayoutError(f"{where}: foundations.rows: base = 'deal' is played by the tableau engine: "
                          "expected a [tableau] and no [hole]")
    if lay.foundations.base_from_deal and "base" not in lay.deal.order:
        raise LayoutError(f"{where}: deal.order: expected 'base' in the list when foundations take their base "
                          "from the deal (base = 'deal')")
    dealt_to = {"cells": (lay.cells.deal > 0, "cards are dealt to the cells (cells.deal)"),
                "tableau": (sum(lay.tableau.deal) > 0, "cards are dealt to the tableau (tableau.deal)"),
                "reserve": (lay.reserve.count * lay.reserve.deal > 0, "cards are dealt to the reserve (reserve.deal)"),
                "hole": (lay.hole is not None and lay.hole.start == "stock",
                         "the hole's first card comes from the deal (hole.start = 'stock')")}
    for group, (dealt, why) in dealt_to.items():
        if dealt and group not in lay.deal.order:
            raise LayoutError(f"{where}: deal.order: expected {group!r} in the list when {why}")
    if lay.tableau.spaces in ("reserve-then-any", "reserve-then-waste") and not lay.reserve.count:
        raise LayoutError(f"{where}: tableau.spaces: {lay.tableau.spaces!r} needs a [reserve] to fill the spaces from")
    if lay.tableau.spaces in ("reserve-then-waste", "waste-then-stock") and lay.stock.turn != "waste":
        raise LayoutError(f"{where}: tableau.spaces: {lay.tableau.spaces!r} needs a waste (stock.turn = 'waste') "
                          "to fill the spaces from")


# ------------------------------------------------------------ what reads what


RULE_SECTIONS = ("foundations", "hole", "reserve", "tableau", "cells", "stock")


def rule_values(layout: Layout) -> dict[str, Any]:
    """Every rule of the layout as ``{"section.key": value}`` (``decks`` and ``foundations.rows``
    too): what an engine or a model must either honour or refuse.  How the deal is made
    (``deal.*``, fields marked ``deal_only``) and the names are not rules of play."""
    out: dict[str, Any] = {"decks": layout.decks, "suits": layout.suits}
    for section in RULE_SECTIONS:
        part = getattr(layout, section)
        if part is None:  # no [hole]
            continue
        for f in fields(part):
            if f.metadata.get("deal_only"):
                continue
            value = getattr(part, f.name)
            if section == "foundations" and f.name == "rows":
                value = tuple((r.base, r.direction) for r in value)
            out[f"{section}.{f.name}"] = value
    return out


# The values a layout file gets for every rule it leaves out.
DEFAULT_RULES: dict[str, Any] = rule_values(Layout(name="", title="", description="", rules_version=1, decks=1,
                                                   hole=Hole()))

Accepts = Collection[Any] | Callable[[Any], bool] | None


@dataclass(frozen=True)
class Reads:
    """The rules an engine or a model implements: ``{"section.key": accepted}``, where accepted
    is the values it plays (a collection), a test of the value, or None for any value.  A rule
    it does not list must keep its default: ``check`` refuses a layout that changes one, so that
    no rule is silently ignored (a model that ignored ``tableau.wrap`` once proved a won deal lost)."""

    who: str
    keys: Mapping[str, Accepts]
    # Rules that only mean something together: (test of the layout, what it needs), e.g.
    # redeals are read only with a waste pile.
    together: tuple[tuple[Callable[[Layout], bool], str], ...] = ()

    def problems(self, layout: Layout) -> list[str]:
        out = [needs for ok, needs in self.together if not ok(layout)]
        for key, value in rule_values(layout).items():
            if key not in self.keys:
                if value != DEFAULT_RULES[key]:
                    out.append(f"{key} = {_shown(value)}")
                continue
            accepted = self.keys[key]
            ok = accepted is None or (accepted(value) if callable(accepted) else value in accepted)
            if not ok:
                out.append(f"{key} = {_shown(value)}")
        return sorted(set(out), key=out.index)

    def check(self, layout: Layout) -> None:
        """Refuse, in one line, a layout using a rule value this engine or model does not play."""
        problems = self.problems(layout)
        if problems:
            raise UnsupportedError(f"layout {layout.name!r}: {self.who} does not play "
                                   + "; ".join(problems))


def _shown(value: Any) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # foundation rows
        return "[" + ", ".join(f"{'deal' if b == 0 else cards.RANKS[b - 1]} {'up' if d > 0 else 'down'}"
                               for b, d in value) + "]"
    return repr(value)
