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


def worth(r: Casino, c: int) -> int:
    """A card's weight in the move order (not in the score): one for the card, four per point it
    carries, one more for a spade."""
    return 1 + 4 * card_points(r, c) + (cards.suit(c) == SPADES)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def card_class(r: Casino, c: int) -> tuple[int, bool, int]:
    """What the rules read of a card: its rank, whether it is a spade, its points.

    Cards of one class are interchangeable: every rule (pairing and combining by rank, the spades
    count, the points) reads a card through its class alone, and the cards count counts cards.  So
    a permutation of the pack that keeps every card in its class maps the lines of play of a
    position one to one onto those of its image, with the same scores: two positions with the same
    pack still to deal and, in each hand and on the table, as many cards of each class, have the
    same value of the rest (the piles differ, but only through their counts and banked points,
    which the key and ``banked`` carry).  Hence the key holds classes, and of two plays of cards of
    one class taking cards of the same classes only the first is searched."""
    return cards.rank(c), cards.suit(c) == SPADES, card_points(r, c)


def classes(r: Casino, cs: tuple[int, ...]) -> tuple[tuple[int, bool, int], ...]:
    return tuple(sorted(card_class(r, c) for c in cs))


class CasinoGame:
    """The game from the deal to the end; ``seat`` ``elder`` or ``dealer``.

    The verdict is the sign of the score (``sign_only``): the engine decides it by one search of the
    window (-1, 1) (``minimax.Search.sign``), far fewer positions than the exact score, which it
    closes in on only when asked.
    """

    integral = True
    sign_only = True

    def __init__(self, rules: Casino, pack: tuple[int, ...], seat: str = "elder"):
        self.r, self.pack, self.sign = rules, pack, 1 if seat == "elder" else -1
        h, t = rules.hand_size, rules.table_cards
        self.hands = [tuple(sorted(pack[:h])), tuple(sorted(pack[h:2 * h]))]
        self.table = tuple(sorted(pack[2 * h:2 * h + t]))
        self.next = 2 * h + t
        self.turn = 0  # 0 the elder hand, 1 the dealer
        self.taken_cards = [0, 0]
        self.taken_spades = [0, 0]
        self.spades = sum(cards.suit(c) == SPADES for c in pack)
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
        """Every play, in the search's order: captures before trails (a sweep first, then by the
        worth of the cards won), trails by the least given away (worth, and whether the other side
        holds the rank); ties by card, then by the cards taken (as a set of card numbers).  Of plays
        alike in classes (``card_class``) only the first."""
        r, who = self.r, self.turn
        other_ranks = {cards.rank(c) for c in self.hands[1 - who]}
        scored: list[tuple[int, int, int, tuple[int, tuple[int, ...]]]] = []
        for c in dict.fromkeys(self.hands[who]):
            for taken in captures(r, c, self.table):
                prio = 1000 * (r.sweeps and len(taken) == len(self.table)) + worth(r, c) + sum(
                    worth(r, x) for x in taken)
                scored.append((-prio, c, sum(1 << x for x in taken), (c, taken)))
            prio = -1000 - worth(r, c) - 2 * (cards.rank(c) in other_ranks)
            scored.append((-prio, c, 0, (c, ())))
        scored.sort()
        seen = set()
        out = []
        for *_, m in scored:
            alike = (card_class(r, m[0]), classes(r, m[1]))
            if alike not in seen:
                seen.add(alike)
                out.append(m)
        return out

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
        return (r.cards_points * sign(self.taken_cards[0] - self.taken_cards[1])
                + r.spades_points * sign(self.taken_spades[0] - self.taken_spades[1]))

    def score(self) -> int:
        return self.sign * (self.points + self.majority())

    def banked(self) -> int:
        return self.sign * self.points

    def _left(self) -> tuple[int, int]:
        """Cards and spades in no one's pile yet (in the hands, on the table, in the pack)."""
        return (len(self.pack) - self.taken_cards[0] - self.taken_cards[1],
                self.spades - self.taken_spades[0] - self.taken_spades[1])

    def plays_left(self) -> tuple[int, int]:
        """How many cards the elder and the dealer have still to play (in hand and to be dealt)."""
        h, n = self.r.hand_size, len(self.pack)
        elder, dealer = len(self.hands[0]), len(self.hands[1])
        for start in range(self.next, n, 2 * h):
            elder += len(self.pack[start:start + h])
            dealer += len(self.pack[start + h:start + 2 * h])
        return elder, dealer

    def sweeps_left(self) -> tuple[int, int]:
        """The most sweeps the elder and the dealer can still score.

        A sweep is a play (a side scores at most one a play), never the last play of the game, and
        never a play onto an empty table (it takes nothing).  So a side scores at most one sweep a
        play it has left, less the play now if the table is empty and it is that side's turn, less
        the game's last play if it is that side's: when every deal gives both sides as many cards
        (the pack less the table cards a multiple of two hands), the elder plays first in each, so
        the dealer plays last."""
        if not self.r.sweeps:
            return 0, 0
        left = list(self.plays_left())
        if not self.table and left[self.turn]:
            left[self.turn] -= 1
        r = self.r
        if (len(self.pack) - r.table_cards) % (2 * r.hand_size) == 0 and left[1]:  # every deal even
            left[1] -= 1
        return left[0], left[1]

    def bounds(self) -> tuple[int, int]:
        """Sound bounds on what is still to come (the score at the end less ``banked``), from each
        side's best case.  In the elder's terms:

        - points on cards (aces, the casinos) not yet in a pile: each goes to one side or to none,
          so they add between -P and +P, P their sum;
        - the cards point: with d the elder's cards less the dealer's so far and L the cards in no
          pile, the final difference lies in [d - L, d + L] (each of the L cards goes to one side or
          to none), so the point lies between cards_points * sign(d - L) and * sign(d + L); the same
          for the spades with the spades in no pile;
        - sweeps: at most ``sweeps_left()`` for the elder (added to the top) and for the dealer
          (taken from the bottom).

        Nothing else scores, and a sum of bounds bounds the sum."""
        r = self.r
        left, spades_left = self._left()
        points = sum(card_points(r, c) for c in self.hands[0] + self.hands[1] + self.table + self.pack[self.next:])
        d = self.taken_cards[0] - self.taken_cards[1]
        s = self.taken_spades[0] - self.taken_spades[1]
        elder_sweeps, dealer_sweeps = self.sweeps_left()
        hi = points + r.cards_points * sign(d + left) + r.spades_points * sign(s + spades_left) + elder_sweeps
        lo = -points + r.cards_points * sign(d - left) + r.spades_points * sign(s - spades_left) - dealer_sweeps
        return (lo, hi) if self.sign > 0 else (-hi, -lo)

    def key(self) -> Hashable:
        """What decides the rest of the game: the deal reached, the hands, the table, whose turn and
        who took last (only read at the end when ``last_takes_rest``), and the cards and spades
        differences, each clamped to one beyond what is left: with L cards in no pile the final
        difference is within L of today's, so every difference above L + 1 ends positive (and below
        -L - 1 negative), the same for every line of play, and the point goes the same way (a
        difference of no points at all is kept as 0).  The hands and the table as classes
        (``card_class``)."""
        left, spades_left = self._left()
        d = self.taken_cards[0] - self.taken_cards[1]
        s = self.taken_spades[0] - self.taken_spades[1]
        d = max(-left - 1, min(d, left + 1)) if self.r.cards_points else 0
        s = max(-spades_left - 1, min(s, spades_left + 1)) if self.r.spades_points else 0
        r = self.r
        return (self.next, classes(r, self.hands[0]), classes(r, self.hands[1]), classes(r, self.table),
                self.turn, self.last if r.last_takes_rest else 0, d, s)

    def move_json(self, move: tuple[int, tuple[int, ...]]) -> dict[str, Any]:
        card, taken = move
        who = "elder" if self.turn == 0 else "dealer"
        out: dict[str, Any] = {"action": "take" if taken else "trail", "card": cards.name(card), "from": who,
                               "to": who if taken else "table"}
        if taken:
            out["taken"] = cards.names(taken)
        return out
