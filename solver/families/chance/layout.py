"""Layouts of the games of chance: the reader of their files, and their deals.

A file with a top-level ``game`` key is a game of chance (see ``rules``); every
other key is checked as the card layouts' are (``solver.schema.Table``).  The
deal of a game of chance is the shuffled pack, first card dealt first:
``patience deal blackjack --seed 7`` prints it, ``--deal FILE`` reads it back
(JSON ``{"pack": ["AS", ...]}`` or the listing ``pack: AS 2D ...``).  Seeds
shuffle the packs as the ``patience-v1`` generator does (pysol-cards' shuffle
of the fresh packs, read from the end).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ... import cards
from ...errors import CardError, DealError, LayoutError, SeedError
from ...files import DEAL_LIMIT, parse_json, read_text, shown
from ...schema import Table, layout_name
from .rules import GAMES, Casino, Lansquenet, TwentyOne, read_rules

Deal = tuple[int, ...]  # the pack, first card dealt first

SEEDS = (1, 2**63 - 1)  # the patience-v1 generator's seeds
MAX_DECKS = {"twenty-one": 8, "lansquenet": 2, "casino": 1}


@dataclass(frozen=True)
class ChanceLayout:
    name: str
    title: str
    description: str
    rules_version: int
    game: str
    decks: int  # packs of 52; 0 (twenty-one only): an infinite shoe, for odds alone
    rules: TwentyOne | Lansquenet | Casino
    path: str = ""

    family = "chance"
    max_rank = 13

    @property
    def seats(self) -> tuple[str, ...]:
        return self.rules.SEATS

    def pack(self) -> list[int]:
        return cards.pack(self.decks)


def parse(data: dict[str, Any], where: str, name: str) -> ChanceLayout:
    """A game of chance from parsed TOML ``data``; ``where`` names the file in messages."""
    top = Table(where, "", data)
    title = top.str("title", name)
    description = top.str("description", "")
    rules_version = top.int("rules_version", 1, 1)
    name = layout_name(top, name)
    game = top.str("game", "twenty-one", GAMES)
    decks = top.int("decks", 1, 0 if game == "twenty-one" else 1, MAX_DECKS[game])
    rules = read_rules(game, top)
    top.done()
    return ChanceLayout(name, title, description, rules_version, game, decks, rules, where)


# ------------------------------------------------------------------ deals


def deal_from_seed(layout: ChanceLayout, seed: int | None) -> Deal:
    if seed is None:
        raise SeedError(f"layout {layout.name!r}: expected a seed (--seed N) or a deal file (--deal FILE)")
    check_finite(layout)
    lo, hi = SEEDS
    if not lo <= seed <= hi:
        raise SeedError.outside(seed, lo, hi, layout.name)
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    shuffled = shuffle(createCards(layout.decks, 13), seed, RandomBase.DEALS_PYSOLFC)
    return tuple(cards.make(c.rank, cards.SUITS.index("CSHD"[c.suit])) for c in reversed(shuffled))


def check_finite(layout: ChanceLayout) -> None:
    if layout.decks == 0:
        raise LayoutError(f"layout {layout.name!r}: decks = 0 is an infinite shoe, which has no shuffle to "
                          "deal; it is for `patience odds` (give --set decks=N for a known shuffle)")


def check_pack(layout: ChanceLayout, pack: list[int], where: str) -> Deal:
    """The pack of a deal file: every card exactly ``decks`` times."""
    check_finite(layout)
    want = 52 * layout.decks
    if len(pack) != want:
        packs = f" ({len(pack) / 52:g} packs)" if len(pack) % 52 == 0 else ""
        raise DealError(f"{where}: expected {want} cards ({layout.decks} pack{'s' if layout.decks > 1 else ''} "
                        f"of 52) for layout {layout.name!r}, got {len(pack)}{packs}")
    counts = Counter(pack)
    for card in sorted(set(cards.pack(1))):
        if counts[card] != layout.decks:
            raise DealError(f"{where}: expected {layout.decks} of each card, got {counts[card]} of {cards.name(card)}")
    return tuple(pack)


def _cards(words: Any, where: str) -> list[int]:
    if not isinstance(words, list):
        raise DealError(f"{where}: expected a list of card names")
    try:
        return [cards.parse(w) for w in words]
    except CardError as e:
        raise DealError(f"{where}: {e}") from None


def deal_from_json(layout: ChanceLayout, obj: Any, where: str) -> Deal:
    if not isinstance(obj, dict) or set(obj) != {"pack"}:
        raise DealError(f"{where}: expected {{\"pack\": [card names, first dealt first]}}")
    return check_pack(layout, _cards(obj["pack"], f"{where}: pack"), f"{where}: pack")


def read_deal(layout: ChanceLayout, path: str) -> Deal:
    text = read_text(path, DEAL_LIMIT, "deal file", 'JSON {"pack": [...]} or a line "pack: AS 2D ..."', DealError)
    where = shown(path)
    if text.lstrip().startswith("{"):
        return deal_from_json(layout, parse_json(text, where, DealError), where)
    words: list[str] = []
    for i, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        if not colon or head.strip() != "pack":
            raise DealError(f"{where}:{i}: expected 'pack: AS 2D ...' (the pack, first dealt first)")
        words += rest.split()
    return check_pack(layout, _cards(words, where), where)


def deal_to_json(deal: Deal) -> dict[str, list[str]]:
    return {"pack": cards.names(deal)}


def deal_to_text(deal: Deal) -> str:
    return "pack: " + " ".join(cards.names(deal)) + "\n"
