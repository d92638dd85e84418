"""What the spread-out card games share (Accordion, Gaps): a layout type of their own, deals as
named places holding cards, Solvitaire's seeds.

These games do not fit the card layout schema (``solver.layout``): Accordion's row of piles and
Gaps' grid have no stock, columns or foundations.  Each family reads its own TOML table
(``[accordion]``, ``[gaps]``) into a small frozen dataclass, a ``SpreadLayout``, which carries
what the family needs: its stacks, its deal from a seed, its words, its Solvitaire forms.

A deal maps each stack holding cards to its cards, bottom card first (``dict[str, list[int]]``,
the card families' form), so that the result contract, the listings and the pictures read it as
they read any card deal.  A position part-way through a game is a deal of the same form (a game
of these families can start anywhere: a row of piles, a grid with its gaps).

Seeds: generator ``solvitaire`` only: seed N is Solvitaire's ``--random N`` (its Mersenne
twister and shuffle, ``solver.shuffles.solvitaire_deck``, then the family's own dealing).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Protocol

from .. import cards, shuffles, solvitaire
from ..deal import content_lines
from ..errors import CardError, DealError, LayoutError, SeedError
from ..files import DEAL_LIMIT, json_text, parse_json, read_text, shown
from ..schema import Table, layout_name
from .base import GameFamily, Position, Referee, replay_moves

Deal = dict[str, list[int]]

GENERATORS = ("solvitaire",)
SEEDS = shuffles.GENERATORS["solvitaire"].seeds  # Solvitaire's --random N


class SpreadLayout(Protocol):
    """What ``SpreadFamily`` needs of a layout (``AccordionLayout``, ``GapsLayout``)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def decks(self) -> int: ...

    @property
    def max_rank(self) -> int: ...

    def describe(self) -> str: ...

    def with_max_rank(self, max_rank: int) -> Any: ...

    def pack(self) -> list[int]: ...

    def stack_names(self) -> list[str]: ...

    def deal_from_seed(self, seed: int) -> Deal: ...

    def check_deal(self, deal: Deal, where: str) -> None:
        """Refuse, in one line naming ``where``, a deal this game cannot start from."""

    def deal_to_text(self, deal: Deal) -> str: ...

    def parse_listing(self, text: str, where: str) -> Deal: ...

    def from_solvitaire(self, obj: dict[str, Any], where: str) -> Deal: ...

    def to_solvitaire(self, deal: Deal) -> dict[str, Any]: ...

    def solvitaire_rules(self) -> dict[str, Any] | None: ...

    def start_position(self, deal: Deal) -> Position: ...

    def referee(self, deal: Deal) -> Referee: ...


def read_head(top: Table, name: str) -> dict[str, Any]:
    """The keys every layout file has: name, title, description, rules version; and ``[deal]``."""
    name = layout_name(top, name)
    head: dict[str, Any] = {"name": name, "title": top.str("title", name),
                            "rules_version": top.int("rules_version", 1, 1), "description": top.str("description", "")}
    deal = top.sub("deal")
    if deal is not None:
        deal.str("generator", "solvitaire", GENERATORS)
        deal.done()
    return head


def check_pack(layout: SpreadLayout, deal: Deal, where: str, whole: bool) -> None:
    """Every card of ``deal`` is a card of the layout's pack, at most as often as the pack holds it
    (``whole``: exactly as often); else a ``DealError`` naming the first that is not."""
    have = Counter(c for cs in deal.values() for c in cs)
    pack = Counter(layout.pack())
    for c, n in have.items():
        if n > pack[c]:
            what = "not in the pack" if not pack[c] else f"{n} times, but the pack holds it {pack[c]} time(s)"
            rank = "" if cards.rank(c) <= layout.max_rank else f" (above the top rank of {layout.name!r})"
            raise DealError(f"{where}: {cards.name(c)} is {what}{rank}")
    if whole:
        missing = sorted((pack - have).elements())
        if missing:
            raise DealError(f"{where}: {cards.name(missing[0])} is missing: a deal holds every card of the pack")


def cards_of(value: Any, where: str) -> list[int]:
    """A list of card names as cards; a ``DealError`` naming ``where`` otherwise."""
    if not isinstance(value, list):
        raise DealError(f"{where}: expected a list of card names, got {json_text(value)}")
    try:
        return [cards.parse(c) for c in value]
    except CardError as e:
        raise DealError(f"{where}: {e}") from None


class SpreadFamily(GameFamily):
    """A family whose layouts are ``SpreadLayout``s: everything but the family's name, layout
    type and position is the layout's own (the manner of the peg family's ``PegLayout``)."""

    shuffled: ClassVar[bool] = True
    own_stacks: ClassVar[bool] = True
    peers: ClassVar[tuple[str, ...]] = ("solvitaire",)

    def describe(self, layout: SpreadLayout) -> str:
        return layout.describe()

    def with_max_rank(self, layout: SpreadLayout, max_rank: int) -> Any:
        return layout.with_max_rank(max_rank)

    def max_rank(self, layout: SpreadLayout) -> int | None:
        return None if layout.max_rank == 13 else layout.max_rank

    def seed_range(self, layout: SpreadLayout) -> tuple[int, int]:
        return SEEDS

    def deal_from_seed(self, layout: SpreadLayout, seed: int | None) -> Deal:
        if seed is None:
            raise SeedError(f"layout {layout.name!r}: expected a seed (--seed N) or a deal file (--deal FILE)")
        lo, hi = SEEDS
        if not lo <= seed <= hi:
            raise SeedError.outside(seed, lo, hi, layout.name)
        return layout.deal_from_seed(seed)

    def read_deal(self, layout: SpreadLayout, path: str) -> Deal:
        """A deal file: JSON (the result contract's deal, a whole result, or Solvitaire's deal
        file) or the listing ``patience deal`` prints."""
        text = read_text(path, DEAL_LIMIT, "deal file", "JSON or a listing", DealError)
        where = shown(path)
        if text.lstrip().startswith("{"):
            return self.deal_from_json(layout, parse_json(text, where, DealError), where)
        deal = layout.parse_listing(text, where)
        layout.check_deal(deal, where)
        return deal

    def deal_from_json(self, layout: SpreadLayout, obj: Any, where: str) -> Deal:
        if isinstance(obj, dict) and isinstance(obj.get("deal"), dict) and "verdict" in obj:
            obj, where = obj["deal"], f"{where}: deal"  # a whole result file
        if not isinstance(obj, dict):
            raise DealError(f"{where}: expected a JSON object mapping stacks to lists of card names")
        if solvitaire.is_solvitaire_deal(obj):
            deal = layout.from_solvitaire(obj, where)
        else:
            names = set(layout.stack_names())
            deal = {}
            for stack, value in obj.items():
                if stack not in names:
                    raise DealError(f"{where}: {str(stack)!r:.40}: not a stack of {layout.name!r} "
                                    f"(its stacks are {layout.stack_names()[0]}, {layout.stack_names()[1]}, ...)")
                got = cards_of(value, f"{where}: {stack}")
                if got:
                    deal[stack] = got
        layout.check_deal(deal, where)
        return deal

    def deal_to_json(self, layout: SpreadLayout, deal: Deal) -> dict[str, list[str]]:
        return {stack: cards.names(cs) for stack, cs in deal.items()}

    def deal_to_text(self, layout: SpreadLayout, deal: Deal) -> str:
        return layout.deal_to_text(deal)

    def start_position(self, layout: SpreadLayout, deal: Deal) -> Position:
        return layout.start_position(deal)

    def referee(self, layout: SpreadLayout, deal: Deal) -> Referee:
        return layout.referee(deal)

    def replay(self, layout: SpreadLayout, deal: Deal, solution: list[dict[str, Any]]) -> str | None:
        return replay_moves(layout.referee(deal), solution)

    def solvitaire_rules(self, layout: SpreadLayout) -> dict[str, Any] | None:
        rules = layout.solvitaire_rules()
        return None if rules is None else dict(rules)

    def solvitaire_deal(self, layout: SpreadLayout, deal: Deal) -> dict[str, Any]:
        return dict(layout.to_solvitaire(deal))


def listing_lines(text: str, where: str, names: list[str], example: str) -> dict[str, tuple[int, list[str]]]:
    """The lines ``stack: words`` of a listing (``#`` starts a comment), as each stack's line
    number and words; a line naming no stack of ``names``, or a stack twice, is a ``DealError``."""
    known = set(names)
    out: dict[str, tuple[int, list[str]]] = {}
    for lineno, line in content_lines(text.removeprefix("\ufeff")):
        stack, colon, rest = line.partition(": ")
        if not colon and line.endswith(":"):
            stack, colon, rest = line[:-1], ":", ""
        if not colon or stack not in known:
            raise DealError(f"{where}:{lineno}: expected a stack and its cards, such as {example!r}, "
                            f"got {line!r:.60}")
        if stack in out:
            raise DealError(f"{where}:{lineno}: {stack} is listed twice (also line {out[stack][0]})")
        out[stack] = (lineno, rest.split())
    return out


def check_max_rank(max_rank: int) -> None:
    if not 1 <= max_rank <= 13:
        raise LayoutError(f"--max-ranks: expected 1..13, got {max_rank}")
