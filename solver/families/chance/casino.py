"""Casino on a known shuffle: two players, every card known, alpha-beta on the real score.

The deal (``docs/rules/casino.md``): four cards to the elder hand, four to the
dealer, four face up on the table; then four more to each, elder first, each
time both hands are empty, until the pack is out.  The elder hand plays first;
each turn a player plays one card from the hand.  The card takes a set of table
cards made of groups, each group one card of its rank (pairing) or number cards
whose values add up to the card's (combining: "nine and ace, eight and deuce");
court cards only pair unless ``court_combine``.  A card that takes nothing is
put down on the table.  Clearing the table scores a sweep, except with the last
card of the game; the last player to take anything takes the cards left.
Points: the most cards 3 (none at 26 each), the most spades 1, the ten of
diamonds 2, the two of spades 1, each ace 1, each sweep 1.  The score is the
seat's points less the other's.

Moves: ``(card, taken)``, ``taken`` a sorted tuple of table cards (empty: put down).
The table stores the value of the rest: aces, casinos and sweeps are banked as
they are taken; the cards and spades counts, which only score at the end, are
in the key.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any

from ... import cards
from .rules import Casino

SPADES = 3
BIG_CASINO = cards.make(10, 1)  # ten of diamonds
LITTLE_CASINO = cards.make(2, 3)  # two of spades


def card_points(r: Casino, c: int) -> int:
    return ((r.ace_points if cards.rank(c) == 1 else 0) + (r.big_casino if c == BIG_CASINO else 0)
            + (r.little_casino if c == LITTLE_CASINO else 0))


@cache
def captures(r: Casino, card: int, table: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every set of table cards ``card`` may take, largest first; empty if none.  A set is a union
    of disjoint groups: one card of ``card``'s rank, or number cards adding up to its value."""
    rank = cards.rank(card)
    numbers = r.court_combine or rank <= 10
    groups: set[tuple[int, ...]] = set()  # indexes into the table
    for i, c in enumerate(table):
        if cards.rank(c) == rank:
            groups.add((i,))
    if numbers:
        values = [cards.rank(c) if (cards.rank(c) <= 10 or r.court_combine) else 99 for c in table]

        def grow(start: int, chosen: tuple[int, ...], left: int) -> None:
            for j in range(start, len(table)):
                v = values[j]
                if v == left:
                    groups.add((*chosen, j))
                elif v < left:
                    grow(j + 1, (*chosen, j), left - v)

        grow(0, (), rank)
    ordered = sorted(groups)
    found: set[tuple[int, ...]] = set()

    def union(k: int, used: frozenset[int]) -> None:
        for g in range(k, len(ordered)):
            if used.isdisjoint(ordered[g]):
                more = used | set(ordered[g])
                found.add(tuple(sorted(table[i] for i in more)))
                union(g + 1, more)

    union(0, frozenset())
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


class CasinoGame:
    """The game from the deal to the end; ``seat`` ``elder`` or ``dealer``."""

    integral = True

    def __init__(self, rules: Casino, pack: tuple[int, ...], seat: str = "elder"):
        self.r, self.pack, self.sign = rules, pack, 1 if seat == "elder" else -1
        h, t = rules.hand_size, rules.table_cards
        self.hands = [tuple(sorted(pack[:h])), tuple(sorted(pack[h:2 * h]))]
        self.table = tuple(sorted(pack[2 * h:2 * h + t]))
        self.next = 2 * h + t
        self.turn = 0  # 0 the elder hand, 1 the dealer
        self.taken_cards = [0, 0]
        self.taken_spades = [0, 0]
        self.points = 0  # aces, casinos and sweeps: the elder's less the dealer's
        self.last = -1  # who took last
        self.history: list[Any] = []
        self._undo: list[tuple[Any, ...]] = []

    def over(self) -> bool:
        return not self.hands[0] and not self.hands[1] and self.next >= len(self.pack)

    def side(self) -> int:
        if self.over():
            return 0
        return self.sign if self.turn == 0 else -self.sign

    def legal_moves(self) -> list[tuple[int, tuple[int, ...]]]:
        moves: list[tuple[int, tuple[int, ...]]] = []
        trails = []
        for c in dict.fromkeys(self.hands[self.turn]):
            for taken in captures(self.r, c, self.table):
                moves.append((c, taken))
            trails.append((c, ()))
        moves.sort(key=lambda m: -sum(1 + 3 * card_points(self.r, x) for x in m[1]))
        return moves + trails

    def _take(self, who: int, taken: tuple[int, ...]) -> None:
        self.taken_cards[who] += len(taken)
        self.taken_spades[who] += sum(cards.suit(c) == SPADES for c in taken)
        self.points += (1 if who == 0 else -1) * sum(card_points(self.r, c) for c in taken)

    def push(self, move: tuple[int, tuple[int, ...]]) -> None:
        self._undo.append((list(self.hands), self.table, self.next, self.turn, list(self.taken_cards),
                           list(self.taken_spades), self.points, self.last))
        self.history.append(move)
        card, taken = move
        who = self.turn
        hand = list(self.hands[who])
        hand.remove(card)
        self.hands[who] = tuple(hand)
        if taken:
            table = list(self.table)
            for c in taken:
                table.remove(c)
            self.table = tuple(table)
            self._take(who, (card, *taken))
            self.last = who
            if not self.table and self.r.sweeps and not self._last_card():
                self.points += 1 if who == 0 else -1
        else:
            self.table = tuple(sorted((*self.table, card)))
        self.turn = 1 - who
        if not self.hands[0] and not self.hands[1]:
            if self.next < len(self.pack):
                h = self.r.hand_size
                self.hands = [tuple(sorted(self.pack[self.next:self.next + h])),
                              tuple(sorted(self.pack[self.next + h:self.next + 2 * h]))]
                self.next += 2 * h
                self.turn = 0
            elif self.table and self.last >= 0 and self.r.last_takes_rest:
                self._take(self.last, self.table)
                self.table = ()

    def _last_card(self) -> bool:
        return not self.hands[0] and not self.hands[1] and self.next >= len(self.pack)

    def pop(self) -> Any:
        (self.hands, self.table, self.next, self.turn, self.taken_cards, self.taken_spades, self.points,
         self.last) = self._undo.pop()
        return self.history.pop()

    def majority(self) -> int:
        """The cards and spades points: the elder's less the dealer's."""
        r = self.r
        out = 0
        if self.taken_cards[0] != self.taken_cards[1]:
            out += r.cards_points if self.taken_cards[0] > self.taken_cards[1] else -r.cards_points
        if self.taken_spades[0] != self.taken_spades[1]:
            out += r.spades_points if self.taken_spades[0] > self.taken_spades[1] else -r.spades_points
        return out

    def score(self) -> int:
        return self.sign * (self.points + self.majority())

    def banked(self) -> int:
        return self.sign * self.points

    def bounds(self) -> tuple[int, int]:
        """What is still to come lies within +-(points on cards not yet taken + the cards and spades
        points not yet decided + one sweep per play left but the last): each of these can go to
        either side at most once, and nothing else scores.  Cards are decided at 27 of 52 taken,
        spades at 7 of 13; a decided one adds its fixed value to both bounds."""
        r = self.r
        left = self.hands[0] + self.hands[1] + self.table + self.pack[self.next:]
        room = sum(card_points(r, c) for c in left) + max(len(self.hands[0]) + len(self.hands[1])
                                                           + len(self.pack) - self.next - 1, 0) * r.sweeps
        fixed = 0
        for mine, theirs, need, worth in ((self.taken_cards[0], self.taken_cards[1], 27, r.cards_points),
                                          (self.taken_spades[0], self.taken_spades[1], 7, r.spades_points)):
            if mine >= need:
                fixed += worth
            elif theirs >= need:
                fixed -= worth
            else:
                room += worth
        lo, hi = fixed - room, fixed + room
        return (lo, hi) if self.sign > 0 else (-hi, -lo)

    def key(self) -> Hashable:
        return (self.next, self.hands[0], self.hands[1], self.table, self.turn, self.last,
                self.taken_cards[0], self.taken_spades[0])

    def move_json(self, move: tuple[int, tuple[int, ...]]) -> dict[str, Any]:
        card, taken = move
        who = "elder" if self.turn == 0 else "dealer"
        out: dict[str, Any] = {"action": "take" if taken else "trail", "card": cards.name(card), "from": who,
                               "to": who if taken else "table"}
        if taken:
            out["taken"] = cards.names(taken)
        return out
