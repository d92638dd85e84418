"""Deals: seed to deal, deal files (JSON, the plain listing, the fc-solve board format), validation.

A ``Deal`` maps each stack that holds cards at the start to its cards in
dealing order: columns bottom to top, the stock in the order the cards are
turned (first turned first).  Stack names are ``kind`` or ``kind:index``.

Seeds
-----
A generator maps a seed to a deal forever: a changed mapping gets a new name,
and the layouts that change to it a new ``rules_version``.

``pysolfc`` (every built-in layout whose game PySolFC has, FreeCell aside):
seed N is PySolFC's game number N of ``deal.pysolfc_game``.  The packs in
PySolFC's order (pack by pack, suits C S H D, ace to king) are shuffled as
PySolFC shuffles game N: Microsoft's generator below 32000, the Mersenne
twister from 32000 on (``pysollib.pysolrandom.construct_random``).  Where
``deal.pysol_game`` names a game pysol-cards deals, pysol-cards' own dealing
of it is used; otherwise the layout deals the shuffled packs, read from the
end, keeping each card's pack: the bases of pack ``foundations.preset_pack``
first (PySolFC's ``_shuffleHookMoveToTop``), then each stack group of
``deal.order`` round-robin like a dealer (``deal.reverse``: last stack
first), the rest to the stock in turn order.  PySolFC turns the first stock
card(s) onto its waste as it deals (Colorado, Grandfather, Double Line,
Forty Thieves, Klondike, Canfield); here they stay the first cards of the
stock, so the first turn shows them (a turn PySolFC makes as it deals).

``patience-v1`` (the debutante family, which PySolFC lacks, and reduced
decks): the same dealing by the layout, but with PySol's shuffle as
pysol-cards' ``shuffle`` implements it (Microsoft's generator up to and
including 32000) and without packs: a preset base is the first copy dealt.
It is not PySolFC's numbering (seed 32000, preset bases of two-pack games);
it stays for the layouts that use it and to reproduce results recorded with
it (the PySolFC games' rules version 1 used it or ``pysol``).

``ms-freecell``: Microsoft FreeCell deal N (pysol-cards' Microsoft numbering),
which is also PySolFC's FreeCell game N below 32000 (PySolFC's "ms N" above).
``pysol``: pysol-cards' numbering of ``deal.pysol_game``: PySolFC's game N
except N = 32000 (pysol-cards switches generator after 32000); kept to
reproduce results recorded with it.

``solvitaire``: seed N is Solvitaire's ``--random N`` (its Mersenne twister, its shuffle and its
dealing; ``solvitaire.deal_from_seed``), so that seed N is the deal Blake and Gent's solver plays.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from . import cards
from .errors import CardError, DealError, SeedError
from .files import DEAL_LIMIT, json_text, parse_json, read_text, shown
from .layout import Layout

Deal = dict[str, list[int]]

GENERATORS = {
    # name: (lowest seed, highest seed)
    "patience-v1": (1, 2**63 - 1),
    "ms-freecell": (1, 2**33 - 1),
    "pysol": (1, 10**20 - 1),
    "pysolfc": (1, 10**20 - 1),
    "solvitaire": (0, 2**31 - 1),
}
_PYSOL_SUITS = "CSHD"  # pysol-cards' (and PySolFC's) suit order
PYSOLFC_MT_FROM = 32000  # PySolFC: Microsoft's generator below this game number, the Mersenne twister from it


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
    return cards.make(base, index % 4)


# ----------------------------------------------------------------- from seed


def seed_range(layout: Layout) -> tuple[int, int]:
    """The lowest and highest seed the layout's generator accepts."""
    return GENERATORS[generator(layout)]


def check_seed(layout: Layout, seed: int) -> None:
    lo, hi = seed_range(layout)
    if not isinstance(seed, int) or not lo <= seed <= hi:
        raise SeedError.outside(seed, lo, hi, layout.name)


def generator(layout: Layout) -> str:
    """The name of the generator that deals ``layout``'s seeds."""
    # Reduced decks exist only for our own generator.
    return layout.deal.generator if layout.max_rank == 13 else "patience-v1"


def from_seed(layout: Layout, seed: int) -> Deal:
    """The deal numbered ``seed`` of ``layout``: the same on every machine, forever."""
    check_seed(layout, seed)
    gen = generator(layout)
    if gen == "solvitaire":
        from . import solvitaire

        return validate(layout, solvitaire.deal_from_seed(layout, seed), f"solvitaire #{seed}")
    if gen == "patience-v1" or (gen == "pysolfc" and not layout.deal.pysol_game):
        pysolfc = gen == "pysolfc"
        deal = _deal_pack(layout, _shuffled_pack(layout, seed, pysolfc), track_packs=pysolfc)
        return {stack: deal[stack] for stack in expected_counts(layout)}  # the order validate gives
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    if gen == "ms-freecell":
        game = Game("freecell", seed, RandomBase.DEALS_MS)
    elif gen == "pysolfc":
        game = _pysolfc_game_class()(layout.deal.pysol_game, seed, RandomBase.DEALS_PYSOLFC)
    else:
        game = Game(layout.deal.pysol_game, seed, RandomBase.DEALS_PYSOLFC)
    text = game.calc_layout_string(CardRenderer(True))
    return parse_board(text, layout, f"pysol-cards {layout.deal.pysol_game or 'freecell'} #{seed}")


def pysolfc_shuffle(pack: list[Any], seed: int) -> list[Any]:
    """Shuffle pysol-cards ``Card``s as PySolFC shuffles its game number ``seed``.

    pysol-cards' ``shuffle`` (0.24) uses Microsoft's generator for game numbers up to
    and including 32000; PySolFC (``pysollib.pysolrandom.construct_random``) only
    below 32000, so its game 32000 is dealt by the Mersenne twister.  This wraps
    pysol-cards with PySolFC's boundary and changes nothing else: below 32000 it is
    pysol-cards' shuffle, from 32000 on the same twister pysol-cards uses above 32000.
    """
    from pysol_cards.random import MTRandom, shuffle
    from pysol_cards.random_base import RandomBase

    if seed < PYSOLFC_MT_FROM:
        return shuffle(pack, seed, RandomBase.DEALS_PYSOLFC)
    shuffled: list[Any] = MTRandom(seed).shuffle(pack)
    return shuffled


@cache
def _pysolfc_game_class() -> type:
    """pysol-cards' per-game dealer (``Game``) with PySolFC's generator boundary."""
    from pysol_cards.cards import createCards
    from pysol_cards.deal_game import Game

    class PySolFCGame(Game):  # pysol-cards has no type hints: Game is Any to mypy
        def deal(self) -> None:  # pysol-cards' Game.deal, with pysolfc_shuffle for its shuffle
            pack = pysolfc_shuffle(createCards(self.get_num_decks(), self.max_rank), self.game_num)
            pack.reverse()
            self.new_cards(pack)

    return PySolFCGame


def _shuffled_pack(layout: Layout, seed: int, pysolfc: bool) -> list[tuple[int, int]]:
    """The packs shuffled for ``seed``, first dealt first: (card, pack index) pairs.

    ``pysolfc``: PySolFC's shuffle; otherwise ``patience-v1``'s (pysol-cards' own).
    """
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    fresh = createCards(layout.decks, layout.max_rank)  # card ids count up pack by pack
    shuffled = pysolfc_shuffle(fresh, seed) if pysolfc else shuffle(fresh, seed, RandomBase.DEALS_PYSOLFC)
    per_pack = 4 * layout.max_rank
    return [(cards.make(c.rank, cards.SUITS.index(_PYSOL_SUITS[c.suit])), c.id // per_pack)
            for c in reversed(shuffled)]


def _deal_pack(layout: Layout, pack: list[tuple[int, int]], track_packs: bool) -> Deal:
    """Deal ``pack`` ((card, pack index) pairs, first dealt first) into the layout's stacks.

    ``track_packs``: a preset foundation base is the copy from ``foundations.preset_pack``
    (PySolFC moves that pack's bases to the top of its talon, the others keep their order; a
    second row with the same base takes the other copy); otherwise (``patience-v1``) the first
    copy in dealing order.  The layout guarantees enough copies (``layout._check_whole``).
    """
    pack = list(pack)
    deal: Deal = {}

    def take(card: int, from_pack: int | None = None) -> int:
        copies = [i for i, (c, _) in enumerate(pack) if c == card]
        del pack[next((i for i in copies if pack[i][1] == from_pack), copies[0])]
        return card

    if layout.foundations.preset:
        from_pack = layout.foundations.preset_pack - 1 if track_packs else None
        for i in range(layout.foundations.count):
            deal[f"foundation:{i}"] = [take(foundation_base(layout, i), from_pack)]
    if layout.hole is not None and layout.hole.start != "stock":
        deal["hole"] = [take(cards.parse(layout.hole.start))]
    pos = 0

    def deal_round_robin(kind: str, names: list[str], sizes: list[int]) -> None:
        nonlocal pos
        if kind in layout.deal.reverse:  # PySolFC's dealRow(reverse=1): the last stack first
            names, sizes = names[::-1], sizes[::-1]
        for row in range(max(sizes, default=0)):
            for stack, size in zip(names, sizes):
                if row < size:
                    deal.setdefault(stack, []).append(pack[pos][0])
                    pos += 1

    for kind in layout.deal.order:
        if kind == "cells":
            deal_round_robin(kind, [f"cell:{i}" for i in range(layout.cells.deal)], [1] * layout.cells.deal)
        elif kind == "tableau":
            t = layout.tableau
            deal_round_robin(kind, [f"tableau:{i}" for i in range(t.count)], list(t.deal))
        elif kind == "reserve":
            r = layout.reserve
            deal_round_robin(kind, [f"reserve:{i}" for i in range(r.count)], [r.deal] * r.count)
        elif kind == "hole" and layout.hole is not None and layout.hole.start == "stock":
            deal["hole"] = [pack[pos][0]]
            pos += 1
        elif kind == "base" and layout.foundations.base_from_deal:
            deal["base"] = [pack[pos][0]]
            pos += 1
    if pos < len(pack):
        deal["stock"] = [c for c, _ in pack[pos:]]
    return deal


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


def from_json(obj: object, layout: Layout, where: str) -> Deal:
    """Read the ``deal`` object of the result contract (or a whole result holding one), or a
    deal file of Solvitaire's (``solvitaire.deal_from_json``)."""
    from . import solvitaire

    if solvitaire.is_solvitaire_deal(obj):
        return validate(layout, solvitaire.deal_from_json(obj, layout, where), where)
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


def parse_text(text: str, layout: Layout, where: str) -> Deal:
    """Read a deal from text: JSON (by content), ``to_text``'s listing or the fc-solve board format."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith(("{", "[")):
        return from_json(parse_json(text, where, DealError), layout, where)
    if is_listing(text):
        return parse_listing(text, layout, where)
    return parse_board(text, layout, where)


def read(path: str, layout: Layout) -> Deal:
    """Read a deal file: JSON, the listing ``patience deal`` prints, or the fc-solve board format
    (at most ``files.DEAL_LIMIT`` bytes of UTF-8, a byte-order mark allowed)."""
    text = read_text(path, DEAL_LIMIT, "deal file", "JSON, a listing or the fc-solve board format", DealError)
    return parse_text(text, layout, shown(path))
