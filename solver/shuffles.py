"""Seeds to deals: the deal generators, one table (``GENERATORS``), beside the shuffles they use.

A generator maps a seed to a deal forever: a changed mapping gets a new name,
and the layouts that change to it a new ``rules_version``.  A layout names its
generator (``deal.generator``); a deck reduced by ``--max-ranks`` is always dealt by ``patience-v1``
(the deck a layout file's own ``max_rank`` names is dealt by its generator).
A new generator is one entry of ``GENERATORS``: its seeds, how it deals, and how
``patience rules`` says which deal a seed means.

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
first; ``deal.tops_last``: every column's cards but its top one row by row,
then a row of the top cards, PySolFC's ``_startAndDealRow``), the rest to
the stock in turn order.  PySolFC turns the first stock
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
dealing; ``solvitaire_deal``), so that seed N is the deal Blake and Gent's solver plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import cards
from .deal import Deal, expected_counts, foundation_base, parse_board, validate
from .errors import SeedError
from .layout import Layout

_PYSOL_SUITS = "CSHD"  # pysol-cards' (and PySolFC's) suit order
PYSOLFC_MT_FROM = 32000  # PySolFC: Microsoft's generator below this game number, the Mersenne twister from it


@dataclass(frozen=True)
class Generator:
    """One numbering of deals: the seeds it takes, the deal of a seed (checked against the
    layout), and which deal a seed means, in words (``patience rules``)."""

    seeds: tuple[int, int]  # the lowest and the highest
    deal: Callable[[Layout, int], Deal]
    words: Callable[[Layout], str]


# ----------------------------------------------------------------- from seed


def seed_range(layout: Layout) -> tuple[int, int]:
    """The lowest and highest seed the layout's generator accepts."""
    return GENERATORS[generator(layout)].seeds


def check_seed(layout: Layout, seed: int) -> None:
    lo, hi = seed_range(layout)
    if not isinstance(seed, int) or not lo <= seed <= hi:
        raise SeedError.outside(seed, lo, hi, layout.name)


def generator(layout: Layout) -> str:
    """The name of the generator that deals ``layout``'s seeds."""
    # A deck reduced below the layout file's own (``--max-ranks``) is dealt by our own generator.
    return layout.deal.generator if layout.max_rank == layout.deal.max_rank else "patience-v1"


def from_seed(layout: Layout, seed: int) -> Deal:
    """The deal numbered ``seed`` of ``layout``: the same on every machine, forever."""
    check_seed(layout, seed)
    return GENERATORS[generator(layout)].deal(layout, seed)


def words(layout: Layout) -> str:
    """Which deal a seed of ``layout`` means, in one line."""
    return GENERATORS[generator(layout)].words(layout)


# ------------------------------------------------------------- PySol's shuffles


def _by_layout(layout: Layout, seed: int, pysolfc: bool) -> Deal:
    """The packs shuffled (PySolFC's shuffle, or ``patience-v1``'s) and dealt by the layout."""
    deal = _deal_pack(layout, _shuffled_pack(layout, seed, pysolfc), track_packs=pysolfc)
    return {stack: deal[stack] for stack in expected_counts(layout)}  # the order validate gives


def _pysol_cards(layout: Layout, seed: int, gen: str) -> Deal:
    """pysol-cards' own dealing of ``deal.pysol_game`` (or of FreeCell), read from its board text."""
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


def _pysolfc(layout: Layout, seed: int) -> Deal:
    return _pysol_cards(layout, seed, "pysolfc") if layout.deal.pysol_game else _by_layout(layout, seed, True)


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
    # A pack's four runs of 13 ids take its suits in PySolFC's order (C S H D; a pack of fewer suits,
    # PySolFC's GameInfo(suits=...), lists them so too: Spider (2 Suits) is (0, 0, 2, 2), C C H H).
    slots = sorted(layout.suits, key=_PYSOL_SUITS.index)
    return [(cards.make(c.rank, cards.SUITS.index(slots[c.suit])), c.id // per_pack)
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
            names = [f"tableau:{i}" for i in range(t.count)]
            if layout.deal.tops_last:  # the cards under the tops row by row, then a row of tops
                deal_round_robin(kind, names, [max(0, n - 1) for n in t.deal])
                deal_round_robin(kind, names, [min(1, n) for n in t.deal])
            else:
                deal_round_robin(kind, names, list(t.deal))
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



# ------------------------------------------------------------ Solvitaire's shuffle

_SOLVITAIRE_SUITS = (0, 2, 3, 1)  # Solvitaire numbers its suits clubs, hearts, spades, diamonds: ours C D H S


def _mt19937(seed: int) -> Any:
    """A ``random.Random`` whose ``getrandbits(32)`` gives C++'s ``std::mt19937(seed)`` outputs
    (the same Mersenne twister as Python's, seeded by the C++ standard's single-word rule)."""
    import random

    mt = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    rng = random.Random()
    rng.setstate((3, (*mt, 624), None))
    return rng


def _uniform(rng: Any, high: int) -> int:
    """Boost's ``uniform_int_distribution`` over 0..high drawn from a 32-bit engine: the
    engine's range cut into ``high + 1`` equal buckets, a draw past the last bucket drawn again."""
    if high == 0:
        return 0
    brange = 0xFFFFFFFF
    bucket = brange // (high + 1)
    if brange % (high + 1) == high:
        bucket += 1
    while True:
        value = rng.getrandbits(32) // bucket
        if value <= high:
            return value


def solvitaire_deck(decks: int, max_rank: int, seed: int) -> list[int]:
    """Solvitaire's deck for ``--random seed``: pack by pack, rank by rank, suits in its order,
    shuffled by its Fisher-Yates loop (from the last card down, each swapped with a card at or
    before it); our card ints."""
    deck = [cards.make(r, _SOLVITAIRE_SUITS[s]) for _ in range(decks) for r in range(1, max_rank + 1)
            for s in range(4)]
    rng = _mt19937(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform(rng, i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def solvitaire_deal(layout: Layout, seed: int) -> Deal:
    """The deal Solvitaire makes for ``--random seed`` of a game of ``layout``'s rules.

    Its order: a hole card ('stock': the deck's first card; a named card: taken out), a base
    for the foundations from the deck's first card (Canfield's, taken out with the preset
    ones), the preset foundation bases; then from the deck's end: the pre-filled cells, the
    stock (its first card dealt is its bottom, turned last), the reserve (a pile bottom card
    first, or a card per pile), and the columns row by row, the rows of a diagonal deal
    (``deal.reverse`` holds "tableau") from the last column down to the row's own column."""
    deck = solvitaire_deck(layout.decks, layout.max_rank, seed)
    deal: Deal = {}
    if layout.hole is not None:
        card = deck[0] if layout.hole.start == "stock" else cards.parse(layout.hole.start)
        deck.remove(card)
        deal["hole"] = [card]
    fo = layout.foundations
    if fo.base_from_deal:
        deal["base"] = [deck.pop(0)]
    elif fo.preset:
        for i in range(fo.count):
            ace = cards.make(1, i % 4)
            deck.remove(ace)
            deal[f"foundation:{i}"] = [ace]
    for i in range(layout.cells.deal):
        deal[f"cell:{i}"] = [deck.pop()]
    stock = len(deck) - (layout.reserve.count * layout.reserve.deal + sum(layout.tableau.deal))
    if stock > 0:
        deal["stock"] = [deck.pop() for _ in range(stock)][::-1]
    for i in range(layout.reserve.count):
        deal[f"reserve:{i}"] = [deck.pop() for _ in range(layout.reserve.deal)]
    sizes = list(layout.tableau.deal)
    n = len(sizes)
    diagonal = "tableau" in layout.deal.reverse
    row = 0
    while deck:
        order = range(n - 1, row - 1, -1) if diagonal and row < n else range(n)
        for p in order:
            if deck and len(deal.get(f"tableau:{p}", [])) < sizes[p]:
                deal.setdefault(f"tableau:{p}", []).append(deck.pop())
        row += 1
    return deal


# ------------------------------------------------------------------ the table


def _pysolfc_words(layout: Layout) -> str:
    return f"seed N is PySolFC's {layout.deal.pysolfc_game} game number N"


def _ms_words(layout: Layout) -> str:
    game = layout.deal.pysolfc_game
    also = f"; PySolFC's {game} game N below 32000, its 'ms N' from 32000 on" if game else ""
    return f"seed N is Microsoft FreeCell deal N{also}"


def _own_words(layout: Layout) -> str:
    return "this project's own numbering" + (", which deals every reduced deck" if layout.max_rank != 13 else "")


GENERATORS: dict[str, Generator] = {
    "patience-v1": Generator((1, 2**63 - 1), lambda lay, seed: _by_layout(lay, seed, False), _own_words),
    "ms-freecell": Generator((1, 2**33 - 1), lambda lay, seed: _pysol_cards(lay, seed, "ms-freecell"), _ms_words),
    "pysol": Generator((1, 10**20 - 1), lambda lay, seed: _pysol_cards(lay, seed, "pysol"),
                       lambda lay: f"pysol-cards' numbering of {lay.deal.pysol_game}, PySolFC's game numbers "
                                   "except 32000"),
    "pysolfc": Generator((1, 10**20 - 1), _pysolfc, _pysolfc_words),
    "solvitaire": Generator((0, 2**31 - 1),  # Solvitaire's --random N takes a C int
                            lambda lay, seed: validate(lay, solvitaire_deal(lay, seed), f"solvitaire #{seed}"),
                            lambda lay: "seed N (from 0) is Solvitaire's --random N"),
}
