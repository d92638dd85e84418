"""``patience odds``: the seat's exact expectation for an unknown shuffle, the strategy, the banker's
table, and a simulation any user can run as a check.

- twenty-one games: ``twentyone.Odds`` (expectiminimax memoised on the composition).
- Lansquenet: ``lansquenet_value``, a recursion over the ranks' remaining copies (below).
- Casino: a game of hidden hands; its odds are not computed (``UnsupportedError``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any, cast

from ... import cards
from ...errors import UnsupportedError
from .layout import ChanceLayout
from .rules import Casino, Lansquenet, TwentyOne
from .twentyone import BUST, NATURAL, Odds, UnboundedError, doubled_odds, full_shoe, value

Progress = Callable[[int, int], None]
Check = Callable[[], None]  # called between steps of the work; raises ``Stopped`` to stop it
ACTIONS = {"S": "stand", "H": "draw", "D": "double", "P": "split", "N": "natural"}


class Stopped(Exception):
    """The caller's ``check`` stopped the work (a time limit); the message is the reason."""


def describe(layout: ChanceLayout) -> str:
    """The rules in words, from the rule table."""
    packs = "an infinite shoe" if layout.decks == 0 else f"{layout.decks} pack{'s' if layout.decks > 1 else ''} of 52"
    lines = [f"{layout.title} ({layout.name}, rules version {layout.rules_version})", "",
             f"A game of chance ({layout.game}): {packs}. Seats: {', '.join(layout.seats)}.", ""]
    return "\n".join(lines + _RULES_IN_WORDS[layout.game](layout.rules)) + "\n"


def _twenty_one_words(r: TwentyOne) -> list[str]:
    ace = "1 or 11" if r.ace == "one-or-eleven" else "1"
    return [f"Cards count their pips, court cards 10, the ace {ace}. Target {r.target}: a hand past it is bust.",
            f"Each side is dealt {r.hand} card{'s' if r.hand > 1 else ''}, one at a time, the player first"
            + ("; the banker's first card face up." if r.upcard else "."),
            ("A natural (an ace and a ten-card) pays the player " + r.natural_pays + " and takes "
             + r.banker_natural_collects + " for the banker"
             + ("; the banker shows his at once." if r.peek else ".")) if r.natural_possible()
            else "No naturals.",
            "The player draws as he likes; the banker then draws "
            + ("as he likes, seeing the player's cards." if r.banker_play == "best" else
               "by the rule 'stand on T or more' best for him, not seeing the player's cards (on a known "
               "shuffle, as he likes)." if r.banker_play == "blind" else
               f"below {r.stands_on}" + (f" and on a soft {r.stands_on}." if r.hits_soft_17 else ".")),
            f"The target pays {r.target_pays}, takes {r.target_collects}; equal totals: {r.ties}"
            + (f" (both at {r.target}: {r.target_tie})" if r.target_tie != "as-ties" else "") + "; "
            f"the player's bust: {r.both_bust}; a drawn game: {r.draw}.",
            f"Doubling: {r.double}; splitting into at most {r.split_hands} hands."]


def _lansquenet_words(r: Lansquenet) -> list[str]:
    return [f"{r.hand_cards} hand cards, the banker's card, the rejouissance card, then the pack.",
            f"Stakes on: {r.stakes}; the banker's card pairing a hand card: {r.double_banker_card}."]


def _casino_words(r: Casino) -> list[str]:
    return ["Pair and combine; sweeps score a point; the last capture takes the rest.",
            f"Cards {r.cards_points}, spades {r.spades_points}, big casino {r.big_casino}, "
            f"little casino {r.little_casino}, aces {r.ace_points} each."]


# Each game's rules in words (``describe``), by the layout's ``game``.
_RULES_IN_WORDS: dict[str, Callable[[Any], list[str]]] = {
    "twenty-one": _twenty_one_words, "lansquenet": _lansquenet_words, "casino": _casino_words}


# ------------------------------------------------------------------ Lansquenet


def lansquenet_value(r: Lansquenet, decks: int, choose: bool = False) -> tuple[Fraction, Fraction]:
    """The company's expectation for one round, and the expected number of stakes it lays.

    Ranks are interchangeable, so a state is: the banker's rank's copies left ``m``; the copies
    left of each staked rank; of each rank seen but not staked; how many ranks are still unseen
    (``full`` copies each); whether the next card is the rejouissance card.  The next card is
    each remaining copy with the same chance.  ``choose``: the company stakes only where that is
    worth more than passing (its best play); else it stakes wherever ``stakes`` lets it (the
    customary play on which the banker's edge is measured)."""
    full = 4 * decks

    @cache
    def turn(m: int, staked: tuple[int, ...], inert: tuple[int, ...], unseen: int,
             first: bool) -> tuple[Fraction, Fraction]:
        n = m + sum(staked) + sum(inert) + unseen * full
        if n == 0:
            return Fraction(0), Fraction(0)
        value, stakes = Fraction(0), Fraction(0)
        if m:
            p = Fraction(m, n)
            if first and r.exempt_first:
                v, s = turn(m - 1, staked, inert, unseen, False)
            else:
                v, s = Fraction(len(staked)), Fraction(0)
            value, stakes = value + p * v, stakes + p * s
        for i, k in enumerate(staked):
            p = Fraction(k, n)
            rest = staked[:i] + staked[i + 1:]
            v, s = turn(m, rest, _add(inert, k - 1), unseen, False)
            value, stakes = value + p * (v - 1), stakes + p * s
        for i, k in enumerate(inert):
            p = Fraction(k, n)
            v, s = turn(m, staked, _add(inert[:i] + inert[i + 1:], k - 1), unseen, False)
            value, stakes = value + p * v, stakes + p * s
        if unseen:
            p = Fraction(unseen * full, n)
            may = first or r.stakes == "every-single"
            pv, ps = turn(m, staked, _add(inert, full - 1), unseen - 1, False)
            if may:
                sv, ss = turn(m, tuple(sorted((*staked, full - 1))), inert, unseen - 1, False)
                ss += 1
                if choose and pv >= sv:
                    sv, ss = pv, ps
            else:
                sv, ss = pv, ps
            value, stakes = value + p * sv, stakes + p * ss
        return value, stakes

    # the hand cards and the banker's card, then the pack
    @cache
    def deal(left: int, inert: tuple[int, ...], unseen: int) -> tuple[Fraction, Fraction]:
        n = sum(inert) + unseen * full
        value, stakes = Fraction(0), Fraction(0)
        for i, k in enumerate(inert):
            p = Fraction(k, n)
            rest = inert[:i] + inert[i + 1:]
            if left:
                v, s = deal(left - 1, _add(rest, k - 1), unseen)
            elif r.double_banker_card == "void":
                v, s = Fraction(0), Fraction(0)
            else:
                v, s = turn(k - 1, (), rest, unseen, True)
            value, stakes = value + p * v, stakes + p * s
        if unseen:
            p = Fraction(unseen * full, n)
            if left:
                v, s = deal(left - 1, _add(inert, full - 1), unseen - 1)
            else:
                v, s = turn(full - 1, (), inert, unseen - 1, True)
            value, stakes = value + p * v, stakes + p * s
        return value, stakes

    return deal(r.hand_cards, (), 13)


def _add(group: tuple[int, ...], k: int) -> tuple[int, ...]:
    return tuple(sorted((*group, k))) if k > 0 else group


# ------------------------------------------------------------------ the report


def report(layout: ChanceLayout, seat: str | None = None, progress: Progress | None = None,
           check: Check | None = None) -> dict[str, Any]:
    """The seat's exact expectation with both sides at their best, and the strategy.  ``check`` is
    called between steps of the work (a start, a rule of the banker, a round of the doubled game's
    iteration; Lansquenet's recursion has none inside) and may raise ``Stopped``."""
    seat = seat or layout.seats[0]
    sign = 1 if seat == layout.seats[0] else -1
    t0 = time.perf_counter()
    out: dict[str, Any] = {"layout": layout.name, "seat": seat, "decks": layout.decks}
    _REPORTS[layout.game](layout, sign, out, progress, check)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _casino_report(layout: ChanceLayout, sign: int, out: dict[str, Any], progress: Progress | None,
                   check: Check | None) -> None:
    raise UnsupportedError(f"layout {layout.name!r}: Casino's hands are hidden from the other player, so its "
                           "odds are a game of imperfect information, not an expectation this command computes; "
                           "`patience solve casino --seed N` decides a known shuffle")


def _lansquenet_report(layout: ChanceLayout, sign: int, out: dict[str, Any], progress: Progress | None,
                       check: Check | None) -> None:
    rules = cast(Lansquenet, layout.rules)  # the layout's game says so (``rules.RULE_TYPES``)
    value, stakes = lansquenet_value(rules, layout.decks)
    if check is not None:
        check()
    best, best_stakes = lansquenet_value(rules, layout.decks, choose=True)
    out.update({"expectation": float(sign * value), "exact": str(sign * value),
                "stakes_per_round": float(stakes), "per_stake": float(sign * value / stakes) if stakes else None,
                "banker_edge_per_stake": float(-value / stakes) if stakes else None,
                "best_play": {"expectation": float(sign * best), "exact": str(sign * best),
                              "stakes_per_round": float(best_stakes)},
                "strategy": lansquenet_strategy(layout.decks)})


def _twenty_one_report(layout: ChanceLayout, sign: int, out: dict[str, Any], progress: Progress | None,
                       check: Check | None) -> None:
    rules = cast(TwentyOne, layout.rules)  # the layout's game says so (``rules.RULE_TYPES``)
    tick: Progress | None = None if check is None else lambda done, total: check()
    if rules.banker_play == "best" and rules.split_hands > 1:
        raise UnsupportedError(f"layout {layout.name!r}: a banker at his best seeing the player's cards "
                               "(banker_play = 'best') draws once against every split hand; the odds price him "
                               "against one hand: give split_hands = 1 for these odds")
    rule_values: dict[int, float] = {}
    if rules.banker_play == "blind":  # the banker's best rule against the player's best reply to it
        low = max(rules.target - 10, 2)
        chosen: tuple[Odds, Any, str | None, int] | None = None  # kept alone: each rule's tables are large
        for t in range(low, rules.target + 1):
            try:
                got = _twenty_one(replace(rules, stands_on=t), layout.decks, tick)
            except UnboundedError:  # the banker would never choose a rule that gives the game no value
                continue
            rule_values[t] = float(got[1])
            if chosen is None or rule_values[t] < float(chosen[1]):
                chosen, best_rule = got, t
            if progress is not None:
                progress(t - low + 1, rules.target - low + 1)
        if chosen is None:
            raise UnsupportedError(f"layout {layout.name!r}: under every rule of the banker a round is drawn half "
                                   "the time or more, which gives the game at doubled stakes no finite value")
        odds, value, exact, iterations = chosen
        out["banker_rule"] = f"stand on {best_rule} or more"
        out["by_banker_rule"] = {str(t): sign * v for t, v in rule_values.items()}
    else:
        try:
            odds, value, exact, iterations = _twenty_one(rules, layout.decks, _both(progress, tick))
        except UnboundedError as e:
            raise UnsupportedError(f"layout {layout.name!r}: {e}") from None
    out.update({"expectation": sign * float(value), "exact": None if exact is None else str(sign * Fraction(exact)),
                "banker_edge": -float(value), "draw_rounds": iterations if iterations > 1 else None,
                "splits": ("exact (an infinite shoe)" if layout.decks == 0 else
                           "each split hand from the shoe less the pair and the up-card")
                if rules.split_hands > 1 else None,
                "strategy": strategy_table(odds)})
    out["_odds"] = odds


# Each game's report (``report``), by the layout's ``game``.
_REPORTS: dict[str, Callable[[ChanceLayout, int, dict[str, Any], Progress | None, Check | None], None]] = {
    "twenty-one": _twenty_one_report, "lansquenet": _lansquenet_report, "casino": _casino_report}


def _both(a: Progress | None, b: Progress | None) -> Progress | None:
    if a is None or b is None:
        return a or b

    def both(done: int, total: int) -> None:
        a(done, total)
        b(done, total)

    return both


def _twenty_one(rules: TwentyOne, decks: int, progress: Progress | None) -> tuple[Odds, Any, str | None, int]:
    """The round's odds: (the odds, the value, its exact fraction where computed in fractions, the
    rounds of the doubled-draw iteration)."""
    if rules.draw == "doubled" and rules.both_bust == "draw":
        odds, value, iterations = doubled_odds(rules, decks, progress)
        return odds, value, None, iterations
    exactly = decks == 0  # a finite shoe in floats: 10-100 times faster, within 1e-12 (twentyone's text)
    odds = Odds(rules, decks, Fraction if exactly else float)
    value = odds.expectation(progress)
    return odds, value, str(value) if exactly else None, 1


def lansquenet_strategy(decks: int) -> dict[str, Any]:
    """The company's expectation staking on a card whose rank has k copies left, the banker's m:
    the banker's rank comes first with chance m / (m + k), whatever else the pack holds."""
    full = 4 * decks
    return {"rows": [f"banker {m} left" for m in range(1, full)],
            "columns": [f"card {k} left" for k in range(1, full)],
            "cells": [[f"{Fraction(m - k, m + k)}" for k in range(1, full)] for m in range(1, full)],
            "rule": "stake when the banker's rank has more copies left than the card's"}


def strategy_table(odds: Odds) -> dict[str, Any]:
    """The player's best first action by starting total and up-card, as rows of letters
    (S stand, H draw, D double, P split, N natural); an asterisk marks a total whose hands of
    different cards want different actions (composition-dependent play)."""
    r = odds.r
    ups = sorted({up for _, up in odds.decisions})
    cells: dict[tuple[str, int], dict[str, float]] = {}
    weights: dict[tuple[tuple[int, ...], int], float] = {}
    for cards_, up, p, _ in odds.starts():
        weights[(cards_, up)] = weights.get((cards_, up), 0.0) + float(p)
    for (cards_, up), decision in odds.decisions.items():
        hard, ace = sum(cards_), 1 in cards_
        total = odds.best(hard, ace)
        if len(cards_) == 2 and cards_[0] == cards_[1] and r.split_hands > 1:
            row = f"pair {'A' if cards_[0] == 1 else cards_[0]}"
        elif odds.soft(hard, ace):
            row = f"soft {total}"
        else:
            row = f"hard {total}"
        votes = cells.setdefault((row, up), {})
        votes[decision.action] = votes.get(decision.action, 0.0) + weights.get((cards_, up), 0.0)

    def order(row: str) -> tuple[int, int]:
        kind, _, n = row.partition(" ")
        return ({"hard": 0, "soft": 1, "pair": 2}[kind], 11 if n == "A" else int(n))

    rows = sorted({row for row, _ in cells}, key=order)
    table = []
    for row in rows:
        line = []
        for up in ups:
            votes = cells.get((row, up), {})
            if not votes:
                line.append("")
                continue
            best = max(votes, key=lambda a: votes[a])
            line.append(best + ("*" if len(votes) > 1 else ""))
        table.append(line)
    columns = ["A" if u == 1 else str(u) for u in ups] if ups != [0] else ["-"]
    allowed = {"S", "H", *"D" * (r.double != "none"), *"P" * (r.split_hands > 1), *"N" * r.natural_possible()}
    return {"rows": rows, "columns": columns, "cells": table,
            "legend": {k: v for k, v in ACTIONS.items() if k in allowed}}


def dealer_table(layout: ChanceLayout) -> dict[str, dict[str, float]]:
    """For each up-card, the chance of each final total of the banker by his rule, before he looks
    for a natural (exact fractions, shown as floats)."""
    rules = cast(TwentyOne, layout.rules)
    if layout.game != "twenty-one" or rules.banker_play != "rule" or not rules.upcard:
        raise UnsupportedError(f"--dealer: layout {layout.name!r} has no banker drawing by a fixed rule to an "
                               "up-card (blackjack has one)")
    odds = Odds(rules, layout.decks, Fraction)
    out: dict[str, dict[str, float]] = {}
    for up, dist in odds.dealer_table().items():
        row = {str(t): float(dist.get(t, 0)) for t in range(rules.stands_on, rules.target + 1)}
        row["natural"] = float(dist.get(NATURAL, 0))
        row["bust"] = float(dist.get(BUST, 0))
        out["A" if up == 1 else str(up)] = row
    order = ["A"] + [str(v) for v in range(2, 11)]
    return {k: out[k] for k in order if k in out}


# ------------------------------------------------------------------ simulation

AGREE_SE = 4  # a simulation further than this many standard errors from the exact value disagrees with it


def simulate(layout: ChanceLayout, rep: dict[str, Any], n: int, seed: int,
             progress: Progress | None = None, check: Check | None = None) -> dict[str, Any]:
    """Play ``n`` random shuffles (``random.Random(seed)``) from the seat's side, each side as the
    odds have it play: the player (the company) by the strategy found, the banker by his rule, at
    his best seeing the player's cards (``banker_play = "best"``), or, not seeing them
    (``"blind"``), by the rule the odds chose for him.  A drawn game replayed for double stakes
    (``draw = "doubled"``) is replayed, from a fresh shuffle.  The mean, its standard error and
    95% interval (normal, from the sample's spread), and whether it agrees with the exact value:
    within ``AGREE_SE`` standard errors (a chance of 6e-5 to fail when the exact value is right).
    ``check``, called every 1000 rounds, may raise ``Stopped``: the rounds played so far are the
    sample, and ``stopped`` names the reason."""
    rng = random.Random(seed)
    play = _GAMES[layout.game]
    sign = 1 if rep["seat"] == layout.seats[0] else -1
    total = square = 0.0
    odds: Odds | None = rep.get("_odds")
    memo: dict[Any, tuple[str]] = {}
    stopped = None
    played = 0
    for i in range(n):
        if check is not None and i and i % 1000 == 0:
            try:
                check()
            except Stopped as e:
                stopped = str(e)
                break
        x = sign * play(layout, odds, rng, memo)
        total += x
        square += x * x
        played += 1
        if progress is not None and (i + 1) % 1000 == 0:
            progress(i + 1, n)
    n = played
    mean = total / n
    sd = math.sqrt(max(square / n - mean * mean, 0.0) * n / max(n - 1, 1))
    se = sd / math.sqrt(n)
    off = mean - rep["expectation"]
    return {"rounds": n, "seed": seed, "mean": mean, "standard_error": se,
            "low": mean - 1.96 * se, "high": mean + 1.96 * se,
            "standard_errors_off": off / se if se else None,  # None: every round alike, no spread
            "agrees": abs(off) <= AGREE_SE * se + 1e-12, "stopped": stopped}


def _shuffled(layout: ChanceLayout, rng: random.Random) -> tuple[int, ...]:
    """A random shuffle; an infinite shoe: each card drawn afresh from a whole pack (more than any
    round can use: four split hands and the banker's, all of small cards)."""
    if not layout.decks:
        one = cards.pack(1)
        return tuple(rng.choice(one) for _ in range(120))
    deck = layout.pack()
    rng.shuffle(deck)
    return tuple(deck)


def _lansquenet_game(layout: ChanceLayout, odds: Odds | None, rng: random.Random,
                    memo: dict[Any, tuple[str]]) -> float:
    """One game of Lansquenet from the company's side, staking wherever it may (the customary play
    ``expectation`` prices)."""
    from .position import LansquenetRound

    pos = LansquenetRound(cast(Lansquenet, layout.rules), _shuffled(layout, rng))
    while pos.side() != 0:
        pos.push(("stake",))
    return float(pos.score())


def _twenty_one_game(layout: ChanceLayout, odds: Odds | None, rng: random.Random,
                     memo: dict[Any, tuple[str]]) -> float:
    """One game of a twenty-one game from the player's side, each side as the odds have it play
    (``_choose``); a drawn hand at double stakes (``draw = "doubled"``) is a fresh game for twice
    its stake."""
    assert odds is not None  # the report of a twenty-one game has them
    doubled = cast(TwentyOne, layout.rules).draw == "doubled"
    x, stake = 0.0, 1.0
    while stake:
        settled, drawn = _twenty_one_round(odds, _shuffled(layout, rng), memo)
        x += stake * settled
        stake *= 2 * drawn if doubled else 0
    return x


def _twenty_one_round(odds: Odds, deck: tuple[int, ...], memo: dict[Any, tuple[str]]) -> tuple[float, float]:
    """One round from the player's side: what it settles, and the stakes of its drawn hands
    (``memo``: the player's decisions so far, by what they depend on)."""
    from .position import TwentyOneRound

    pos = TwentyOneRound(odds.r, deck)
    while pos.side() != 0:
        pos.push(_choose(odds, pos, memo))
    settled = drawn = 0.0
    for stake, got in pos.settlements():
        if got is None:
            drawn += stake
        else:
            settled += stake * float(got)
    return settled, drawn


# One game played as the odds have it (``simulate``), by the layout's ``game`` (Casino has no odds).
_GAMES: dict[str, Callable[[ChanceLayout, Odds | None, random.Random, dict[Any, tuple[str]]], float]] = {
    "twenty-one": _twenty_one_game, "lansquenet": _lansquenet_game}


def _unseen(odds: Odds, seen: list[int]) -> tuple[int, ...]:
    if odds.infinite:
        return odds.full
    c = list(full_shoe(odds.decks))
    for card in seen:
        c[value(cards.rank(card)) - 1] -= 1
    return tuple(c)


def _choose(odds: Odds, pos: Any, memo: dict[Any, tuple[str]]) -> tuple[str]:
    """The move the exact odds choose in a round being played: the player's best; the banker's by
    his rule (``odds.r.stands_on``: for a blind banker, the rule the odds chose for him), or at his
    best seeing the player's hand (``banker_play = "best"``, one hand: ``report`` refuses splits)."""
    moves = pos.legal_moves()
    if len(moves) == 1:
        return tuple(moves[0])
    r = odds.r

    def hand_state(hand: list[int]) -> tuple[int, bool, int]:
        vals = [value(cards.rank(x)) for x in hand]
        return sum(vals), 1 in vals, min(len(hand), 3)

    up = value(cards.rank(pos.banker[0])) if r.upcard else 0
    b0 = (up, up == 1, 1) if up else (0, False, 0)
    if pos.current < len(pos.hands):
        seen = [x for h in pos.hands for x in h] + ([pos.banker[0]] if r.upcard else [])
        c = _unseen(odds, seen)
        hand = pos.hands[pos.current]
        hard, ace, _ = hand_state(hand)
        legal = frozenset(m[0] for m in moves)
        key = (hard, ace, c, b0, legal, value(cards.rank(hand[0])) if "split" in legal else 0)
        if key not in memo:
            values = odds.first(hard, ace, c, b0, "double" in legal)
            if "split" in legal:
                values["P"] = odds.split(key[-1], c, b0)
            names = {"S": "stand", "H": "hit", "D": "double", "P": "split"}
            memo[key] = (names[max((k for k in values if names[k] in legal), key=lambda k: values[k])],)
        return memo[key]
    b = hand_state(pos.banker)
    if r.banker_play != "best":
        return ("hit",) if odds.must_draw(b) else ("stand",)
    seen = [x for h in pos.hands for x in h] + pos.banker
    c = _unseen(odds, seen)
    hard, ace, _ = hand_state(pos.hands[0])
    p = odds.best(hard, ace)
    p = BUST if p > r.target else p
    stand = odds.payoff(p, odds.outcome(b))
    hit = sum(w * odds.banker_best(p, odds.add(b, v), c2, False) for v, w, c2 in odds.draws(c))
    return ("stand",) if stand <= hit else ("hit",)
