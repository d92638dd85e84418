"""Exact odds of the twenty-one games (Vingt-un, Двадцать один, blackjack, Quinze) for an unknown shuffle.

The value of a round is an expectation over the cards still unseen, with the
player's choices maximised and (``banker_play = "best"``) the banker's
minimised: an expectiminimax whose every node is memoised on the remaining
composition (``c``: how many cards of each value 1..10 are unseen, the banker's
hidden cards among them).  Cards are exchangeable, so the order in which the
hands are dealt does not change any probability; only what each side has seen
does.

Conditioning on the banker's natural (``peek``).  When a banker's natural is
shown and settled before the player draws, the player plays knowing that the
banker's hidden cards do not make one.  ``qnat(b, c)`` is the probability of
that, the banker holding ``b`` so far; a card ``v`` then comes to the player
with probability ``c_v/n * qnat(b, c - v) / qnat(b, c)`` (Bayes), and the
banker's hidden cards are drawn with the same weights.  This is exact, not the
usual approximation that leaves the player's draws unconditioned.

Splits (``split_hands > 1``).  With an infinite shoe (``decks = 0``) the split
hands are independent and the value below is exact.  With a finite shoe each
split hand is played from the composition after the pair and the banker's card
are removed, the other split hands' cards left in (the common approximation of
combinatorial analysers; ``docs/rules/blackjack.md``); everything else is exact.

Arithmetic.  ``num=Fraction`` computes exactly; ``num=float`` (the default for
the expectation, 10-100 times faster) sums products of probabilities, every one
in [0, 1], over at most a few million terms: its error stays below 1e-12, far
inside the 6 decimals printed (the tests compare the two).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .rules import TwentyOne, ratio

BUST = -1  # a final total past the target
NATURAL = 100  # an ace and a ten-card as the first two cards

Comp = tuple[int, ...]  # unseen cards of each value 1..10 (index 0: aces, 9: ten-cards)
State = tuple[int, bool, int]  # a hand: hard total (aces as 1), holds an ace, cards (capped at 3)


def full_shoe(decks: int) -> Comp:
    return (4 * decks,) * 9 + (16 * decks,)


def value(rank: int) -> int:
    """The count of a card of rank 1..13: ace 1, court cards 10."""
    return min(rank, 10)


def settle(r: TwentyOne, p: int, b: int) -> Fraction | None:
    """The player's result, per stake, of a player's final ``p`` against the banker's ``b`` (a total,
    ``BUST`` or ``NATURAL``); None for a drawn game (``both_bust = "draw"``), whose worth is the
    ``draw`` rule's.  The one reading of the settling rules, for the odds and the known shuffle."""
    if p == BUST:
        return None if (b == BUST and r.both_bust == "draw") else Fraction(-1)
    if p == NATURAL:
        if b == NATURAL:
            return Fraction(0) if r.natural_tie == "push" else -ratio(r.banker_natural_collects)
        return ratio(r.natural_pays)
    if b == NATURAL:
        return -ratio(r.banker_natural_collects)
    if b == BUST:
        return ratio(r.target_pays) if p == r.target else Fraction(1)
    if p == b:
        tie = r.target_tie if p == r.target and r.target_tie != "as-ties" else r.ties
        return Fraction({"push": 0, "banker": -1, "player": 1}[tie])
    if p == r.target:
        return ratio(r.target_pays)
    if b == r.target:
        return -ratio(r.target_collects)
    return Fraction(1 if p > b else -1)


@dataclass
class Decision:
    """The player's best first action for one starting hand, and every action's value."""

    action: str
    values: dict[str, Any] = field(default_factory=dict)


class Odds:
    """The round of ``rules`` from a shoe of ``decks`` packs (0: infinite), from the player's seat."""

    def __init__(self, rules: TwentyOne, decks: int, num: Callable[[Any], Any] = float,
                 draw_value: Any = 0, like: Odds | None = None):
        """``like``: the odds of the same rules, shoe and arithmetic at another ``draw_value``, whose
        tables of the cards and of the banker's final outcomes by his rule (``draws``, ``dealer``,
        ``dealer_final``) this one shares: they read the cards and the rule alone, never what a
        drawn game is worth (the doubled draw evaluates the round at several such values)."""
        self.r, self.decks, self.num = rules, decks, num
        self.infinite = decks == 0
        self.full = full_shoe(1 if self.infinite else decks)
        self.one = num(1)
        self.zero = num(0)
        self.draw_value = num(draw_value)
        self.pays = {k: num(ratio(getattr(rules, k))) for k in ("natural_pays", "banker_natural_collects")}
        self.nat_possible = rules.natural_possible()
        self.peek = rules.peek and self.nat_possible
        self._draws: dict[Comp, list[tuple[int, Any, Comp]]] = {}
        self._dist: dict[tuple[State, Comp, bool], dict[int, Any]] = {}
        self._banker: dict[tuple[int, State, Comp], Any] = {}
        self._player: dict[tuple[int, bool, Comp, State], tuple[Any, str]] = {}
        self._stand: dict[tuple[int, Comp, State], Any] = {}
        self.decisions: dict[tuple[tuple[int, ...], int], Decision] = {}
        self._terms: dict[State, DealerTerms] = {}
        self._payoff: dict[tuple[int, int], Any] = {}
        if like is not None:
            if (like.r, like.decks, like.num) != (rules, decks, num):
                raise ValueError("Odds(like=...): other rules, shoe or arithmetic")
            self._draws, self._dist, self._terms = like._draws, like._dist, like._terms

    # ------------------------------------------------------------ cards

    def draws(self, c: Comp) -> list[tuple[int, Any, Comp]]:
        """Each value that may come next, its probability, and the shoe after it."""
        got = self._draws.get(c)
        if got is None:
            got = []
            n = sum(c)
            for i, k in enumerate(c):
                if k:
                    if self.infinite:
                        got.append((i + 1, self.num(k) / self.num(n), c))
                    else:
                        got.append((i + 1, self.num(k) / self.num(n), c[:i] + (k - 1,) + c[i + 1:]))
            self._draws[c] = got
        return got

    def best(self, hard: int, ace: bool) -> int:
        """A hand's total: an ace counts 11 where that does not pass the target."""
        if ace and self.r.ace == "one-or-eleven" and hard + 10 <= self.r.target:
            return hard + 10
        return hard

    def soft(self, hard: int, ace: bool) -> bool:
        return self.best(hard, ace) != hard

    def add(self, s: State, v: int) -> State:
        return (s[0] + v, s[1] or v == 1, min(s[2] + 1, 3))

    def natural(self, s: State) -> bool:
        return self.nat_possible and s[2] == 2 and s[0] == 11 and s[1]

    def outcome(self, s: State) -> int:
        if self.natural(s):
            return NATURAL
        t = self.best(s[0], s[1])
        return BUST if t > self.r.target else t

    # ------------------------------------------------------------ the banker

    def qnat(self, b: State, c: Comp) -> Any:
        """The chance that the banker's first two cards, ``b`` so far, are no natural (1 without peek):
        with one card to come, the chance it is not the ace or ten-card he lacks; with two, one
        minus the chance of an ace and a ten-card in either order."""
        if not self.peek:
            return self.one
        if b[2] >= 2:
            return self.zero if self.natural(b) else self.one
        n = self.num(sum(c))
        aces, tens = (self.num(1), self.num(4)) if self.infinite else (self.num(c[0]), self.num(c[9]))
        if self.infinite:
            n = self.num(13)
        if b[2] == 1:
            if b[0] == 1:
                return 1 - tens / n
            return 1 - aces / n if b[0] == 10 else self.one
        return 1 - 2 * aces * tens / (n * (n if self.infinite else n - 1))

    def weighted(self, b: State, c: Comp, banker: bool = False) -> list[tuple[int, Any, Comp]]:
        """The draws from ``c`` given that the banker's first cards (``b`` so far) make no natural, when
        he peeks: to the player (``b`` unchanged), or to the banker's own first cards (``b`` grows)."""
        if not self.peek:
            return self.draws(c)
        q = self.qnat(b, c)
        out = []
        for v, p, c2 in self.draws(c):
            w = p * self.qnat(self.add(b, v) if banker else b, c2) / q
            if w:
                out.append((v, w, c2))
        return out

    def must_draw(self, s: State) -> bool:
        """The banker's fixed rule (``banker_play = "rule"``)."""
        if s[2] < self.r.hand:
            return True
        t = self.best(s[0], s[1])
        if t > self.r.target or self.natural(s):
            return False
        return t < self.r.stands_on or (t == self.r.stands_on and self.r.hits_soft_17 and self.soft(s[0], s[1]))

    def dealer(self, b: State, c: Comp, peeked: bool) -> dict[int, Any]:
        """The banker's final outcomes (totals, ``NATURAL``, ``BUST``) by his rule, from ``b`` and ``c``;
        ``peeked``: given that his first cards make no natural."""
        key = (b, c, peeked)
        got = self._dist.get(key)
        if got is not None:
            return got
        if not self.must_draw(b):
            got = {self.outcome(b): self.one}
        else:
            got = {}
            initial = b[2] < self.r.hand
            draws = self.weighted(b, c, banker=True) if peeked and initial else self.draws(c)
            for v, p, c2 in draws:
                for o, q in self.dealer(self.add(b, v), c2, peeked and initial).items():
                    got[o] = got.get(o, self.zero) + p * q
        self._dist[key] = got
        return got

    def dealer_final(self, b: State, c: Comp, peeked: bool) -> dict[int, Any]:
        """``dealer``, through the banker's draw sequences counted once (``DealerTerms``) where that
        is faster: float arithmetic and a finite shoe."""
        if self.num is not float or self.infinite:
            return self.dealer(b, c, peeked)
        key = (b, c, peeked)
        got = self._dist.get(key)
        if got is None:
            terms = self._terms.get(b)
            if terms is None:
                terms = self._terms[b] = DealerTerms(self, b)
            got = self._dist[key] = terms.final(c, peeked)
        return got

    def payoff(self, p: int, b: int) -> Any:
        """The player's result, per stake, of a player's final ``p`` against the banker's ``b``."""
        key = (p, b)
        got = self._payoff.get(key)
        if got is None:
            got = self.draw_value if settle(self.r, p, b) is None else self.num(settle(self.r, p, b))
            self._payoff[key] = got
        return got

    def banker_best(self, p: int, b: State, c: Comp, peeked: bool) -> Any:
        """The player's result when the banker, seeing the player's final ``p``, draws to minimise it."""
        key = (p, b, c) if not peeked else (p + 1000, b, c)
        got = self._banker.get(key)
        if got is not None:
            return got
        initial = b[2] < self.r.hand
        stand = None if initial else self.payoff(p, self.outcome(b))
        if self.outcome(b) == BUST or self.natural(b):
            got = stand
        else:
            draws = self.weighted(b, c, banker=True) if peeked and initial else self.draws(c)
            hit = sum((w * self.banker_best(p, self.add(b, v), c2, peeked and initial) for v, w, c2 in draws),
                      self.zero)
            got = hit if stand is None else min(stand, hit)
        self._banker[key] = got
        return got

    def stand(self, p: int, c: Comp, b0: State) -> Any:
        """The player's expectation standing on the final ``p`` with ``c`` unseen, the banker showing ``b0``."""
        key = (p, c, b0)
        got = self._stand.get(key)
        if got is None:
            if self.r.banker_play == "best":
                got = self.banker_best(p, b0, c, self.peek)
            else:
                got = sum((q * self.payoff(p, o) for o, q in self.dealer_final(b0, c, self.peek).items()), self.zero)
            self._stand[key] = got
        return got

    # ------------------------------------------------------------ the player

    def after_bust(self, c: Comp, b0: State) -> Any:
        return -self.one if self.r.both_bust == "player-loses" else self.stand(BUST, c, b0)

    def play(self, hard: int, ace: bool, c: Comp, b0: State) -> tuple[Any, str]:
        """The best of standing and drawing (then playing on at best), with its action."""
        key = (hard, ace, c, b0)
        got = self._player.get(key)
        if got is not None:
            return got
        stand = self.stand(self.best(hard, ace), c, b0)
        hit = self.hit_value(hard, ace, c, b0)
        got = (stand, "S") if stand >= hit else (hit, "H")
        self._player[key] = got
        return got

    def double(self, hard: int, ace: bool, c: Comp, b0: State) -> Any:
        out = self.zero
        for v, w, c2 in self.weighted(b0, c):
            h2, a2 = hard + v, ace or v == 1
            out += w * (self.after_bust(c2, b0) if h2 > self.r.target else self.stand(self.best(h2, a2), c2, b0))
        return 2 * out

    def may_double(self, hard: int, ace: bool) -> bool:
        rule = self.r.double
        if rule == "none":
            return False
        if rule == "any-two":
            return True
        lo = 9 if rule == "9-11" else 10
        return lo <= hard <= 11  # a hard total (a soft hand's hard total counts the ace as one)

    def first(self, hard: int, ace: bool, c: Comp, b0: State, doubles: bool) -> dict[str, Any]:
        values = {"S": self.stand(self.best(hard, ace), c, b0), "H": self.hit_value(hard, ace, c, b0)}
        if doubles and self.may_double(hard, ace):
            values["D"] = self.double(hard, ace, c, b0)
        return values

    def hit_value(self, hard: int, ace: bool, c: Comp, b0: State) -> Any:
        out = self.zero
        for v, w, c2 in self.weighted(b0, c):
            h2, a2 = hard + v, ace or v == 1
            out += w * (self.after_bust(c2, b0) if h2 > self.r.target else self.play(h2, a2, c2, b0)[0])
        return out

    def split(self, pv: int, c: Comp, b0: State) -> Any:
        """Splitting a pair of value ``pv`` (see the module text for finite shoes)."""
        r = self.r
        aces = pv == 1
        most = r.split_hands if (not aces or r.resplit_aces) else 2
        non_pair = self.zero
        pair_p = self.zero
        pair_value = self.zero
        for v, w, c2 in self.weighted(b0, c):
            hard, ace = pv + v, aces or v == 1
            if aces and not r.hit_split_aces:
                val = self.stand(self.best(hard, ace), c2, b0)  # one card to each ace; 21 is no natural
            else:
                val = max(self.first(hard, ace, c2, b0, r.double_after_split).values())
            if v == pv:
                pair_p, pair_value = w, val
            else:
                non_pair += w * val
        memo: dict[tuple[int, int], Any] = {}

        def hands(open_: int, made: int) -> Any:
            if open_ == 0:
                return self.zero
            key = (open_, made)
            if key not in memo:
                rest = non_pair + (1 - pair_p) * hands(open_ - 1, made)
                if made < most:
                    rest += pair_p * hands(open_ + 1, made + 1)
                else:
                    rest += pair_p * pair_value + pair_p * hands(open_ - 1, made)
                memo[key] = rest
            return memo[key]

        return hands(2, 2)

    # ------------------------------------------------------------ the round

    def starts(self) -> list[tuple[tuple[int, ...], int, Any, Comp]]:
        """Every start: the player's first cards (values), the banker's up-card (0: none), its
        probability, and the shoe after them."""
        out: list[tuple[tuple[int, ...], int, Any, Comp]] = []

        def deal(cards: tuple[int, ...], p: Any, c: Comp) -> None:
            if len(cards) < self.r.hand:
                for v, q, c2 in self.draws(c):
                    if not cards or v >= cards[-1]:  # one order of each pair: counted twice below
                        mult = 2 if cards and v != cards[-1] else 1
                        deal(cards + (v,), p * q * mult, c2)
                return
            if self.r.upcard:
                for u, q, c2 in self.draws(c):
                    out.append((cards, u, p * q, c2))
            else:
                out.append((cards, 0, p, c))

        deal((), self.one, self.full)
        return out

    def start_value(self, cards: tuple[int, ...], up: int, c: Comp) -> Any:
        """The player's expectation from a start, choosing the best first action (recorded)."""
        b0: State = (up, up == 1, 1) if up else (0, False, 0)
        hard, ace = sum(cards), 1 in cards
        mine: State = (hard, ace, len(cards))
        nat = 1 - self.qnat(b0, c) if self.peek else self.zero
        if self.natural(mine):
            if self.peek:
                value = nat * self.payoff(NATURAL, NATURAL) + (1 - nat) * self.pays["natural_pays"]
            else:
                value = self.stand(NATURAL, c, b0)
            self.decisions[(cards, up)] = Decision("N", {"N": value})
            return value
        if self.best(hard, ace) > self.r.target:  # dealt past a target below 20: bust at once, no choice
            return self.after_bust(c, b0)  # (no naturals then: they need the target 21)
        values = self.first(hard, ace, c, b0, self.r.hand == 2)
        if self.r.split_hands > 1 and len(cards) == 2 and cards[0] == cards[1]:
            values["P"] = self.split(cards[0], c, b0)
        action = max(values, key=lambda k: values[k])
        best = values[action]
        if self.peek:
            best = nat * -self.pays["banker_natural_collects"] + (1 - nat) * best
            values = {k: nat * -self.pays["banker_natural_collects"] + (1 - nat) * x for k, x in values.items()}
        self.decisions[(cards, up)] = Decision(action, values)
        return best

    def expectation(self, progress: Callable[[int, int], None] | None = None) -> Any:
        """The player's expectation per stake for one round, both sides at their best."""
        starts = self.starts()
        total = self.zero
        for i, (cards, up, p, c) in enumerate(starts):
            total += p * self.start_value(cards, up, c)
            if progress is not None:
                progress(i + 1, len(starts))
        return total

    def dealer_table(self) -> dict[int, dict[int, Any]]:
        """For each up-card value, the banker's final outcomes by his rule before he looks for a
        natural: the composition is the full shoe less the up-card."""
        out = {}
        for u, _, c in self.draws(self.full):
            out[u] = self.dealer((u, u == 1, 1), c, False)
        return out


class DealerTerms:
    """The banker's rule from one start ``b``, as a sum over the sets of cards he may draw.

    The chance of drawing a given sequence from ``c`` is ``prod_v (c_v)_(k_v) / (n)_(K)``
    (falling factorials: ``k_v`` cards of value v, K in all), the same for every order of the same
    cards; and whether the banker stops depends only on the cards held, not their order.  So each
    final set of cards is one term: its number of orders, its outcome, and that product, evaluated
    for a whole shoe at once with numpy.  Exactly the recursion of ``Odds.dealer``, summed in another
    order (the tests compare them)."""

    def __init__(self, odds: Odds, b: State):
        import numpy as np

        self.np = np
        frontier: dict[Comp, int] = {(0,) * 10: 1}
        final: dict[tuple[Comp, int], int] = {}
        while frontier:
            nxt: dict[Comp, int] = {}
            for counts, ways in frontier.items():
                s = b
                for v, k in enumerate(counts, 1):
                    for _ in range(k):
                        s = odds.add(s, v)
                if not odds.must_draw(s):
                    key = (counts, odds.outcome(s))
                    final[key] = final.get(key, 0) + ways
                    continue
                for v in range(1, 11):
                    c2 = counts[:v - 1] + (counts[v - 1] + 1,) + counts[v:]
                    nxt[c2] = nxt.get(c2, 0) + ways
            frontier = nxt
        self.outcomes = sorted({o for _, o in final})
        index = {o: i for i, o in enumerate(self.outcomes)}
        keys = list(final)
        self.k = np.array([k for k, _ in keys], dtype=np.int64)  # terms x 10
        self.columns = [np.ascontiguousarray(self.k[:, v]) for v in range(10)]
        self.total = self.k.sum(axis=1)
        self.ways = np.array([final[key] for key in keys], dtype=np.float64)
        self.which = np.array([index[o] for _, o in keys], dtype=np.int64)
        self.most = int(self.k.max()) + 1
        self.longest = int(self.total.max()) + 1
        self.natural = index.get(NATURAL)

    def final(self, c: Comp, peeked: bool) -> dict[int, float]:
        np = self.np
        n = sum(c)
        # falling[v, k] = c_v (c_v - 1) ... (c_v - k + 1); below[K] = n (n - 1) ... (n - K + 1)
        steps = np.arange(self.most, dtype=np.float64)
        falling = np.cumprod(np.concatenate([np.ones((10, 1)), np.maximum(
            np.array(c, dtype=np.float64)[:, None] - steps[None, :-1], 0)], axis=1), axis=1)
        below = np.cumprod(np.concatenate([[1.0], np.maximum(n - np.arange(self.longest - 1, dtype=np.float64), 0)]))
        below[below == 0] = 1.0  # more cards than the shoe holds: those terms' falling product is 0 already
        p = self.ways / below[self.total]
        for v in range(10):  # the product over values, a column at a time (faster than one 2-D gather)
            p *= falling[v][self.columns[v]]
        dist = np.bincount(self.which, weights=p, minlength=len(self.outcomes))
        if peeked and self.natural is not None:
            dist[self.natural] = 0.0
            dist = dist / dist.sum()
        return {o: float(x) for o, x in zip(self.outcomes, dist) if x}


def doubled_odds(rules: TwentyOne, decks: int, progress: Callable[[int, int], None] | None = None
                 ) -> tuple[Odds, Any, int]:
    """The odds of a game whose drawn rounds are played again for double stakes: the round's odds
    with a drawn round worth twice the game's value ``V`` (``_doubled``), its expectation (``V``
    again, recomputed there) and the evaluations the value took.  A round drawn half the time or
    more has no value at double stakes (the stakes grow faster than the game ends):
    ``UnboundedError``.  ``progress`` is each evaluation's."""
    v, rounds, like = _doubled(rules, decks, 60, progress)
    odds = Odds(rules, decks, float, 2 * v, like=like)
    return odds, odds.expectation(progress), rounds


class UnboundedError(ArithmeticError):
    """A game drawn so often that doubling the stakes each time gives it no finite value."""


def _doubled(rules: TwentyOne, decks: int, rounds: int,
             progress: Callable[[int, int], None] | None = None) -> tuple[float, int, Odds]:
    """The value of a game whose drawn rounds are played again for double stakes (Quinze):
    V = G(2V), G(x) the round's value when a draw is worth x.  For one strategy G is linear,
    A + D x (D the chance of a draw), so two evaluations give the fixed point A / (1 - 2D); a
    third at x = 2V checks that the best strategy there is the same (G(2V) = V).  If not, the
    iteration x <- 2 G(x) goes on from there: G's slope 2D is below 1, so it converges.  Every
    evaluation shares the first one's tables of the banker (``Odds``'s ``like``), which it also
    returns with the value and the count of evaluations."""
    first = Odds(rules, decks, float, 0.0)
    g0 = float(first.expectation(progress))
    g1 = float(Odds(rules, decks, float, 1.0, like=first).expectation(progress))
    if 2 * (g1 - g0) >= 1:
        raise UnboundedError(f"a round drawn with chance {g1 - g0:.3f}: no finite value at doubled stakes")
    x = 2 * g0 / (1 - 2 * (g1 - g0))
    v = g0
    for i in range(3, rounds + 3):
        v = float(Odds(rules, decks, float, x, like=first).expectation(progress))
        if abs(2 * v - x) < 1e-13:
            return v, i, first
        x = 2 * v
    return v, rounds, first


def exact(rules: TwentyOne, decks: int) -> Fraction:
    """The expectation in fractions (small games and tests)."""
    got: Fraction = Odds(rules, decks, Fraction).expectation()
    return got
