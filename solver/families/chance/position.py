"""The games of chance on a known shuffle: positions for the minimax engine.

A ``GamePosition`` (``solver.families.base``) is one round played over the
known pack, with push/pop: ``side()`` says who chooses the next move (+1 the
seat asked about, -1 the other side, 0 when the round is over), ``score()`` is
the seat's result when it is over (in stakes, or points at Casino), and
``key()`` is everything that decides the rest of the round.  Cards the rules
turn without a choice are turned inside ``push``.

- ``TwentyOneRound``: one round of a twenty-one game, a player against the banker.
- ``LansquenetRound``: one round of Lansquenet, the company against the banker.

Casino is in ``casino``.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

from ... import cards
from .rules import Lansquenet, TwentyOne
from .twentyone import BUST, NATURAL, settle, value

INF = float("inf")

# ------------------------------------------------------------------ twenty-one


class TwentyOneRound:
    """One round heads-up: the deal (player, banker, one card at a time), the banker's natural
    shown at once (``peek``), the player's hands (hit, stand, double, split), then the banker.

    Moves: ``("hit",)``, ``("stand",)``, ``("double",)``, ``("split",)``; the hand is the current one.
    """

    integral = False  # 3:2 naturals

    def __init__(self, rules: TwentyOne, pack: tuple[int, ...], seat: str = "player"):
        self.r, self.pack, self.sign = rules, pack, 1 if seat == "player" else -1
        self.history: list[Any] = []
        self._undo: list[tuple[Any, ...]] = []
        i = 0
        player: list[int] = []
        banker: list[int] = []
        for _ in range(rules.hand):
            player.append(pack[i])
            banker.append(pack[i + 1])
            i += 2
        self.next = i
        self.hands: list[list[int]] = [player]  # the player's hands, cards in order
        self.stakes: list[int] = [1]
        self.done: list[bool] = [False]
        self.banker = banker
        self.current = 0
        self.banker_done = False
        self.over = False
        if self._natural(banker) and rules.peek or self._natural(player):
            self.over = True
        self._settle_phase()

    # -- reading hands

    def _total(self, hand: list[int]) -> int:
        hard = sum(value(cards.rank(c)) for c in hand)
        ace = any(cards.rank(c) == 1 for c in hand)
        if ace and self.r.ace == "one-or-eleven" and hard + 10 <= self.r.target:
            return hard + 10
        return hard

    def _natural(self, hand: list[int], split: bool = False) -> bool:
        return (self.r.natural_possible() and not split and len(hand) == 2
                and sorted(value(cards.rank(c)) for c in hand) == [1, 10])

    def _outcome(self, hand: list[int], split: bool = False) -> int:
        if self._natural(hand, split):
            return NATURAL
        t = self._total(hand)
        return BUST if t > self.r.target else t

    def _banker_must_draw(self) -> bool:
        t = self._total(self.banker)
        if t > self.r.target or self._natural(self.banker):
            return False
        soft = t != sum(value(cards.rank(c)) for c in self.banker)
        return t < self.r.stands_on or (t == self.r.stands_on and soft and self.r.hits_soft_17)

    # -- the game

    def _settle_phase(self) -> None:
        """After a move: finish hands that cannot go on, then the player's turn, then the banker's."""
        if self.over:
            return
        while self.current < len(self.hands) and self.done[self.current]:
            self.current += 1
        if self.current < len(self.hands):
            hand = self.hands[self.current]
            if len(hand) == 1 and len(self.hands) > 1:  # a split hand takes its second card
                hand.append(self.pack[self.next])
                self.next += 1
                if cards.rank(hand[0]) == 1 and not self.r.hit_split_aces and not self._can_resplit():
                    self.done[self.current] = True
                    return self._settle_phase()
            if self._total(hand) >= self.r.target or self.next >= len(self.pack):
                self.done[self.current] = True
                return self._settle_phase()
            return
        if all(self._total(h) > self.r.target for h in self.hands) and self.r.both_bust == "player-loses":
            self.over = True
            return
        if self.banker_done or self.next >= len(self.pack):
            self.over = True
            return
        if self.r.banker_play == "rule" and not self._banker_must_draw():
            self.over = True
        elif self._total(self.banker) >= self.r.target:
            self.over = True

    def _can_resplit(self) -> bool:
        hand = self.hands[self.current]
        return (len(hand) == 2 and len(self.hands) < self.r.split_hands
                and value(cards.rank(hand[0])) == value(cards.rank(hand[1]))
                and (cards.rank(hand[0]) != 1 or self.r.resplit_aces))

    def side(self) -> int:
        if self.over:
            return 0
        return self.sign if self.current < len(self.hands) else -self.sign

    def legal_moves(self) -> list[tuple[str]]:
        if self.over:
            return []
        if self.current < len(self.hands):
            hand = self.hands[self.current]
            split_aces = len(self.hands) > 1 and cards.rank(hand[0]) == 1
            if split_aces and not self.r.hit_split_aces:
                moves = [("stand",)]
            else:
                moves = [("stand",), ("hit",)]
            if len(hand) == 2 and self.next < len(self.pack):
                hard = sum(value(cards.rank(c)) for c in hand)
                rule = self.r.double
                ok = (rule == "any-two" or (rule == "9-11" and 9 <= hard <= 11)
                      or (rule == "10-11" and 10 <= hard <= 11))
                if ok and (len(self.hands) == 1 or self.r.double_after_split) and not (split_aces and not
                                                                                         self.r.hit_split_aces):
                    moves.append(("double",))
                if self._can_resplit() and self.next < len(self.pack):
                    moves.append(("split",))
            return moves
        if self.r.banker_play == "rule":
            return [("hit",)]
        return [("stand",), ("hit",)]

    def push(self, move: tuple[str]) -> None:
        snapshot = ([h[:] for h in self.hands], self.stakes[:], self.done[:], self.banker[:], self.current,
                    self.banker_done, self.over, self.next)
        self._undo.append(snapshot)
        self.history.append(move)
        what = move[0]
        if self.current < len(self.hands):
            i = self.current
            if what == "stand":
                self.done[i] = True
            elif what in ("hit", "double"):
                self.hands[i].append(self.pack[self.next])
                self.next += 1
                if what == "double":
                    self.stakes[i] *= 2
                    self.done[i] = True
                elif self._total(self.hands[i]) >= self.r.target:
                    self.done[i] = True
            elif what == "split":
                card = self.hands[i].pop()
                self.hands.insert(i + 1, [card])
                self.stakes.insert(i + 1, self.stakes[i])
                self.done.insert(i + 1, False)
                self.hands[i].append(self.pack[self.next])
                self.next += 1
                if cards.rank(card) == 1 and not self.r.hit_split_aces and not self._can_resplit():
                    self.done[i] = True
        else:
            if what == "stand":
                self.banker_done = True
            else:
                self.banker.append(self.pack[self.next])
                self.next += 1
        self._settle_phase()

    def pop(self) -> Any:
        (self.hands, self.stakes, self.done, self.banker, self.current, self.banker_done, self.over,
         self.next) = self._undo.pop()
        return self.history.pop()

    def settlements(self) -> list[tuple[int, Fraction | None]]:
        """Each hand's stake and what it settles for the player per stake (None: a drawn game)."""
        b = self._outcome(self.banker)
        split = len(self.hands) > 1
        return [(stake, settle(self.r, self._outcome(hand, split), b)) for hand, stake in zip(self.hands, self.stakes)]

    def score(self) -> Fraction:
        """The seat's result in stakes (a drawn game, Quinze's both bust, counts 0)."""
        return self.sign * sum((stake * Fraction(got or 0) for stake, got in self.settlements()), Fraction(0))

    def banked(self) -> Fraction:
        return Fraction(0)

    def bounds(self) -> tuple[float, float]:
        return -INF, INF

    def key(self) -> Hashable:
        return (self.next, tuple(map(tuple, self.hands)), tuple(self.stakes), tuple(self.done), self.current,
                tuple(self.banker), self.banker_done, self.over)

    def move_json(self, move: tuple[str]) -> dict[str, Any]:
        what = move[0]
        if self.current < len(self.hands):
            who = f"player:{self.current}"
            if what == "split":
                return {"action": "split", "card": cards.name(self.hands[self.current][1]), "from": who,
                        "to": f"player:{self.current + 1}"}
        else:
            who = "banker"
        if what == "stand":
            return {"action": "stand", "card": "", "from": who, "to": who}
        return {"action": what, "card": cards.name(self.pack[self.next]), "from": "pack", "to": who}


# ------------------------------------------------------------------ Lansquenet


class LansquenetRound:
    """One round: the hand cards, the banker's card and the rejouissance card are turned; then the
    banker turns the pack.  At each single card the company may take (``stakes``: the rejouissance
    card alone, or every single card) the company decides: ``("stake",)`` or ``("pass",)``.  A card
    of a staked card's rank wins that stake for the banker; a card of the banker's rank loses him
    every stake still on the table and ends the round; the end of the pack ends it too (stakes back).
    """

    integral = True

    def __init__(self, rules: Lansquenet, pack: tuple[int, ...], seat: str = "player"):
        self.r, self.pack, self.sign = rules, pack, 1 if seat == "player" else -1
        self.history: list[Any] = []
        self._undo: list[tuple[Any, ...]] = []
        h = rules.hand_cards
        self.hand_ranks = [cards.rank(c) for c in pack[:h]]
        self.banker_rank = cards.rank(pack[h])
        self.seen: dict[int, int] = {}
        for c in pack[:h + 1]:
            self.seen[cards.rank(c)] = self.seen.get(cards.rank(c), 0) + 1
        self.next = h + 1  # the rejouissance card comes next
        self.staked: tuple[int, ...] = ()  # ranks staked on and still on the table
        self.won = 0  # stakes the company has won so far
        self.lost = 0
        self.over = False
        self.pending = False  # a single card waits for the company's decision
        if self.seen[self.banker_rank] > 1 and rules.double_banker_card == "void":
            self.over = True
        else:
            self._turn()

    def _turn(self) -> None:
        """Turn cards until one asks for a decision or the round ends."""
        first = self.next == self.r.hand_cards + 1
        while self.next < len(self.pack):
            c = self.pack[self.next]
            rank = cards.rank(c)
            self.next += 1
            before = self.seen.get(rank, 0)
            self.seen[rank] = before + 1
            if rank == self.banker_rank:
                if first and self.r.exempt_first:
                    first = False
                    continue
                self.won += len(self.staked)
                self.staked = ()
                self.over = True
                return
            if rank in self.staked:
                self.lost += 1
                self.staked = tuple(r for r in self.staked if r != rank)
            elif before == 0 and (first or self.r.stakes == "every-single"):
                self.pending = True
                return
            first = False
        self.over = True

    def side(self) -> int:
        return 0 if self.over else self.sign

    def legal_moves(self) -> list[tuple[str]]:
        return [] if self.over else [("stake",), ("pass",)]

    def push(self, move: tuple[str]) -> None:
        self._undo.append((dict(self.seen), self.next, self.staked, self.won, self.lost, self.over, self.pending))
        self.history.append(move)
        if move[0] == "stake":
            self.staked = self.staked + (cards.rank(self.pack[self.next - 1]),)
        self.pending = False
        self._turn()

    def pop(self) -> Any:
        self.seen, self.next, self.staked, self.won, self.lost, self.over, self.pending = self._undo.pop()
        return self.history.pop()

    def score(self) -> Fraction:
        return Fraction(self.sign * (self.won - self.lost))

    def banked(self) -> Fraction:
        return Fraction(self.sign * (self.won - self.lost))

    def bounds(self) -> tuple[float, float]:
        return -INF, INF

    def key(self) -> Hashable:
        return (self.next, tuple(sorted(self.staked)), self.over)

    def move_json(self, move: tuple[str]) -> dict[str, Any]:
        return {"action": move[0], "card": cards.name(self.pack[self.next - 1]), "from": "pack", "to": "company"}
