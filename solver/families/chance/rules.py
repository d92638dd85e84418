"""The games of chance as data: one rule table per game, read from a layout file.

A layout of this family names its ``game`` at the top of the file and gives the
game's rules as keys beside it (``layouts/blackjack.toml`` is the model)::

    title = "Blackjack"
    rules_version = 1
    game = "twenty-one"
    decks = 6
    hits_soft_17 = false

Three games are played: ``twenty-one`` (Vingt-un, Двадцать один, blackjack, and
Quinze, which is the same race to 15), ``lansquenet`` and ``casino``.  Each has
a frozen dataclass below; every field is a key of the file with the field's
default, every open point of a source text is one of them (``docs/rules/``
quotes the texts).  The position, the odds and the CP-free referee all read the
same table; the referee is written again from the rules in words.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, ClassVar

from ...schema import Table

GAMES = ("twenty-one", "lansquenet", "casino")


def ratio(text: str) -> Fraction:
    """``"3:2"`` as 3/2."""
    a, _, b = text.partition(":")
    return Fraction(int(a), int(b))


def _is_ratio(v: Any) -> bool:
    if not isinstance(v, str) or v.count(":") != 1:
        return False
    a, b = v.split(":")
    return a.isdigit() and b.isdigit() and 0 < int(a) <= 100 and 0 < int(b) <= 100


@dataclass(frozen=True)
class TwentyOne:
    """A race to a total without passing it, a player against a banker (heads-up).

    The player's seat draws first; the banker then draws, by a fixed rule
    (``banker_play = "rule"``: stand on ``stands_on`` or more) or by his best
    choice seeing the player's cards (``"best"``)."""

    target: int = 21  # the total to reach without passing (Quinze: 15)
    ace: str = "one-or-eleven"  # "one-or-eleven" or "one"
    hand: int = 2  # cards each side is dealt before drawing (Quinze: 1)
    upcard: bool = False  # the banker's first card is dealt face up (blackjack)
    naturals: bool = True  # an ace and a ten-card as the first two cards are a natural
    peek: bool = True  # a banker's natural is shown, and settled, before the player draws
    natural_pays: str = "2:1"  # what the player's natural wins
    banker_natural_collects: str = "2:1"  # what the banker's natural takes from the player
    natural_tie: str = "push"  # both naturals: "push", or "banker" (the banker's natural takes its due)
    target_pays: str = "1:1"  # what the player wins with the target total (Vingt-un: 2:1, any 21)
    target_collects: str = "1:1"  # what the banker's target total takes from a player without it
    ties: str = "push"  # equal totals: "push", "banker" wins or "player" wins (Quinze: the elder hand)
    # both at the target (not naturals): "as-ties" as ``ties`` says, or "push", "banker", "player"
    # (Vingt-un: "likewise having twenty-one, between whom it is thereby a drawn game")
    target_tie: str = "as-ties"
    both_bust: str = "player-loses"  # the player's bust: "player-loses" at once, or "draw" if the banker busts too
    draw: str = "push"  # a drawn game: "push" (stakes back) or "doubled" (played again for double stakes)
    # "rule": draw below stands_on; "best": the banker's best, seeing the player's cards; "blind": not seeing
    # them, the banker keeps to the rule "stand on T" best for him against the player's best reply
    banker_play: str = "rule"
    stands_on: int = 17
    hits_soft_17: bool = False  # with "rule": the banker draws to a soft total of stands_on
    double: str = "none"  # doubling the stake for one card: "none", "any-two", "9-11", "10-11"
    double_after_split: bool = False
    split_hands: int = 1  # most hands a pair may be split into (1: no splitting)
    resplit_aces: bool = False
    hit_split_aces: bool = False

    SEATS: ClassVar[tuple[str, ...]] = ("player", "banker")

    def natural_possible(self) -> bool:
        return self.naturals and self.hand == 2 and self.ace == "one-or-eleven" and self.target == 21

    def check(self, t: Table) -> None:
        """The rules that hang together, else a ``LayoutError`` naming the key (``t.fail``)."""
        if self.banker_play == "rule" and self.stands_on > self.target:
            raise t.fail("stands_on", f"at most target = {self.target}")
        if self.upcard and self.hand != 2:
            raise t.fail("upcard", "false when each side is dealt one card (hand = 1)")
        if self.split_hands > 1 and self.hand != 2:
            raise t.fail("split_hands", "1 when each side is dealt one card (hand = 1): no pairs to split")


@dataclass(frozen=True)
class Lansquenet:
    """The banker turns cards until a card of his own rank comes; a staked card whose rank comes
    first wins the stake for him, his own rank first loses every stake still on the table."""

    hand_cards: int = 2  # the cards dealt first to the banker's left (the "hand cards")
    stakes: str = "rejouissance"  # where the company stakes: "rejouissance" (the fourth card) or "every-single"
    double_banker_card: str = "void"  # the banker's card pairs a hand card: "void" (no stakes, deal again) or "play"
    exempt_first: bool = False  # the privilege: a card of the banker's rank turned next after his own is no loss

    SEATS: ClassVar[tuple[str, ...]] = ("player", "banker")

    def check(self, t: Table) -> None:
        """Every combination of its keys is a game."""


@dataclass(frozen=True)
class Casino:
    """Two players, every card known: capture by pairing and combining, sweeps, the last trick."""

    hand_size: int = 4  # cards dealt to each player at a time
    table_cards: int = 4  # cards dealt to the table at the start
    court_combine: bool = False  # court cards combine as 11, 12, 13 (else they only pair)
    sweeps: bool = True  # clearing the board scores a point
    last_takes_rest: bool = True  # the last capture takes the cards left on the table
    cards_points: int = 3  # the most cards (27 or more of 52)
    spades_points: int = 1  # the most spades
    big_casino: int = 2  # the ten of diamonds
    little_casino: int = 1  # the two of spades
    ace_points: int = 1  # each ace

    SEATS: ClassVar[tuple[str, ...]] = ("elder", "dealer")

    def check(self, t: Table) -> None:
        """Every deal gives both hands as many cards: the elder plays first, the dealer answers."""
        h, n = self.hand_size, self.table_cards
        if (52 - n) % (2 * h) == 0:
            return
        if "hand_size" in t.data:
            fits = [str(k) for k in range(1, RANGES["hand_size"][1] + 1) if (52 - n) % (2 * k) == 0]
            want = f"a hand size that deals the pack out in whole rounds of two hands with table_cards = {n}: " \
                   f"{', '.join(fits)} (52 - table_cards a multiple of 2 * hand_size)"
            raise t.fail("hand_size", want)
        fits = [str(k) for k in range(RANGES["table_cards"][1] + 1) if (52 - k) % (2 * h) == 0]
        raise t.fail("table_cards", f"table cards that leave the pack dealt out in whole rounds of two hands of "
                                    f"hand_size = {h}: {', '.join(fits) or 'none'}")


RULE_TYPES: dict[str, type] = {"twenty-one": TwentyOne, "lansquenet": Lansquenet, "casino": Casino}

# The values each string field accepts (the rest are ints, bools or "a:b" ratios).
CHOICES: dict[str, tuple[str, ...]] = {
    "ace": ("one-or-eleven", "one"), "natural_tie": ("push", "banker"), "ties": ("push", "banker", "player"),
    "target_tie": ("as-ties", "push", "banker", "player"),
    "both_bust": ("player-loses", "draw"), "draw": ("push", "doubled"), "banker_play": ("rule", "best", "blind"),
    "double": ("none", "any-two", "9-11", "10-11"), "stakes": ("rejouissance", "every-single"),
    "double_banker_card": ("void", "play"),
}
RANGES: dict[str, tuple[int, int]] = {
    "target": (5, 31), "hand": (1, 2), "stands_on": (2, 31), "split_hands": (1, 4), "hand_cards": (0, 4),
    "hand_size": (1, 6), "table_cards": (0, 8), "cards_points": (0, 10), "spades_points": (0, 10),
    "big_casino": (0, 10), "little_casino": (0, 10), "ace_points": (0, 10),
}


def read_rules(game: str, t: Table) -> Any:
    """The rule table of ``game`` from the layout's top-level keys, each checked."""
    cls = RULE_TYPES[game]
    values: dict[str, Any] = {}
    for f in fields(cls):
        default: Any = f.default
        if isinstance(default, bool):
            values[f.name] = t.bool(f.name, default)
        elif isinstance(default, int):
            lo, hi = RANGES[f.name]
            values[f.name] = t.int(f.name, default, lo, hi)
        elif f.name in CHOICES:
            values[f.name] = t.str(f.name, default, CHOICES[f.name])
        else:
            values[f.name] = t.get(f.name, default, "a ratio such as '3:2' (whole numbers 1..100)", _is_ratio)
    rules = cls(**values)
    rules.check(t)
    return rules
