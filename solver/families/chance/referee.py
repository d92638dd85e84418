"""Referees of the games of chance, written from the rules in words (``docs/rules/``).

Each replays a line of play over the known pack, on card names and plain lists,
and gives what is wrong with it (the first illegal move) or the seat's result
at the end.  They share nothing with the positions, the odds or the search:
they read the rule table (the layout) and nothing else.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...files import json_text
from .rules import Casino, Lansquenet, TwentyOne, ratio

Line = list[dict[str, Any]]


def _points(name: str, ace_high: bool, target: int) -> int:
    """A card's count: ace 1 (the hand decides on 11 below), court cards and tens 10."""
    r = "A23456789TJQK".index(name[0]) + 1
    return 1 if r == 1 else min(r, 10)


class _Hand:
    def __init__(self, rules: TwentyOne, cards: list[str], after_split: bool = False):
        self.rules, self.cards, self.after_split = rules, cards, after_split
        self.stake = 1
        self.finished = False

    def count(self) -> int:
        hard = sum(_points(c, False, self.rules.target) for c in self.cards)
        eleven = self.rules.ace == "one-or-eleven" and any(c[0] == "A" for c in self.cards)
        if eleven and hard + 10 <= self.rules.target:
            return hard + 10
        return hard

    def soft(self) -> bool:
        return self.count() != sum(_points(c, False, self.rules.target) for c in self.cards)

    def natural(self) -> bool:
        r = self.rules
        if not (r.naturals and r.hand == 2 and r.target == 21 and r.ace == "one-or-eleven") or self.after_split:
            return False
        return len(self.cards) == 2 and {c[0] for c in self.cards} & {"A"} != set() and \
            any(c[0] in "TJQK" for c in self.cards)

    def bust(self) -> bool:
        return self.count() > self.rules.target


def replay_twenty_one(rules: TwentyOne, pack: list[str], seat: str, line: Line) -> tuple[str | None, Fraction]:
    """The round dealt from ``pack`` and played by ``line``: (what is wrong, the seat's result)."""
    pos = 0

    def deal() -> str:
        nonlocal pos
        card = pack[pos]
        pos += 1
        return card

    mine: list[str] = []
    his: list[str] = []
    for _ in range(rules.hand):  # one card at a time: the player, then the banker
        mine.append(deal())
        his.append(deal())
    hands = [_Hand(rules, mine)]
    banker = _Hand(rules, his)
    done = (banker.natural() and rules.peek) or hands[0].natural()
    k = 0  # the move being checked
    i = 0  # the player's hand being played

    def wrong(text: str) -> tuple[str, Fraction]:
        return f"move {k + 1}: {text}", Fraction(0)

    # the player's hands
    while not done and i < len(hands):
        hand = hands[i]
        if hand.after_split and len(hand.cards) == 1:  # a split hand's second card
            hand.cards.append(deal())
        aces_split = hand.after_split and hand.cards[0][0] == "A"
        pair = (len(hand.cards) == 2 and _points(hand.cards[0], False, 0) == _points(hand.cards[1], False, 0)
                and len(hands) < rules.split_hands and (hand.cards[0][0] != "A" or rules.resplit_aces))
        if hand.count() >= rules.target or (aces_split and not rules.hit_split_aces and not pair):
            i += 1
            continue
        if k >= len(line):
            return "the line ends before the player's hands are finished", Fraction(0)
        m = line[k]
        who = f"player:{i}"
        action = m.get("action")
        if action == "stand":
            if m.get("from") != who:
                return wrong(f"expected the player's hand {i} to move, got {json_text(m.get('from'))}")
            i += 1
        elif action in ("hit", "double"):
            if aces_split and not rules.hit_split_aces:
                return wrong("a split ace takes one card")
            if m.get("card") != pack[pos] or m.get("to") != who:
                return wrong(f"expected {pack[pos]} to {who}, got {json_text(m.get('card'))} to "
                             f"{json_text(m.get('to'))}")
            if action == "double":
                hard = sum(_points(c, False, 0) for c in hand.cards)
                allowed = {"none": False, "any-two": True, "9-11": 9 <= hard <= 11, "10-11": 10 <= hard <= 11}
                if len(hand.cards) != 2 or not allowed[rules.double] or (len(hands) > 1 and
                                                                       not rules.double_after_split):
                    return wrong("doubling is not allowed here")
                hand.stake *= 2
            hand.cards.append(deal())
            if action == "double" or hand.count() >= rules.target:
                i += 1
        elif action == "split":
            if not pair:
                return wrong("only a pair may be split, into at most split_hands hands")
            moved = hand.cards.pop()
            if m.get("card") != moved:
                return wrong(f"expected the split card {moved}, got {json_text(m.get('card'))}")
            hand.after_split = True
            hands.insert(i + 1, _Hand(rules, [moved], after_split=True))
            hand.cards.append(deal())
        else:
            return wrong(f"expected stand, hit, double or split, got {json_text(action)}")
        k += 1
    # the banker
    all_bust = all(h.bust() for h in hands)
    if not done and not (all_bust and rules.both_bust == "player-loses"):
        while not banker.bust() and banker.count() < rules.target:
            must = banker.count() < rules.stands_on or (banker.count() == rules.stands_on and banker.soft()
                                                        and rules.hits_soft_17)
            if rules.banker_play == "rule" and not must:
                break
            if k >= len(line):
                return "the line ends before the banker is finished", Fraction(0)
            m = line[k]
            if m.get("from") not in ("pack", "banker") or m.get("to") != "banker":
                return wrong(f"expected the banker to move, got {json_text(m)}")
            if m.get("action") == "stand":
                if rules.banker_play == "rule":
                    return wrong("the banker's rule makes him draw here")
                k += 1
                break
            if m.get("action") != "hit" or m.get("card") != pack[pos]:
                return wrong(f"expected the banker to draw {pack[pos]}, got {json_text(m)}")
            banker.cards.append(deal())
            k += 1
    if k != len(line):
        return f"move {k + 1}: the round is over; the line goes on", Fraction(0)
    total = Fraction(0)
    for h in hands:
        total += h.stake * _settle(rules, h, banker)
    return None, total if seat == "player" else -total


def _settle(r: TwentyOne, h: _Hand, b: _Hand) -> Fraction:
    """What the player's hand ``h`` wins (negative: pays) against the banker's ``b``, per stake, by
    the rules in words (``layouts/README.md``, "Games of chance"; ``docs/rules/``):

    - a player over the target pays his stake at once, whatever the banker holds later, unless
      the rules call it a drawn game when the banker goes over too (``both_bust``; 0 here);
    - else the better hand wins: a natural beats every other hand, then the higher total, and a
      banker over the target holds none;
    - hands as good as each other: two naturals as ``natural_tie`` says, both at the target as
      ``target_tie`` says (unless it says "as-ties"), other equal totals as ``ties`` says (one
      stake, or none);
    - the winner is paid at his hand's rate: a natural's, the target total's, else one stake."""
    if h.bust():
        return Fraction(0) if (b.bust() and r.both_bust == "draw") else Fraction(-1)

    def worth(x: _Hand) -> tuple[int, int]:
        return (-1, 0) if x.bust() else (int(x.natural()), x.count())

    def rate(x: _Hand, natural: str, target: str) -> Fraction:
        return ratio(natural) if x.natural() else ratio(target) if x.count() == r.target else Fraction(1)

    if worth(h) > worth(b):
        return rate(h, r.natural_pays, r.target_pays)
    if worth(h) < worth(b):
        return -rate(b, r.banker_natural_collects, r.target_collects)
    if h.natural():
        return Fraction(0) if r.natural_tie == "push" else -ratio(r.banker_natural_collects)
    at_target = h.count() == r.target and r.target_tie != "as-ties"
    return Fraction({"push": 0, "banker": -1, "player": 1}[r.target_tie if at_target else r.ties])


def replay_lansquenet(rules: Lansquenet, pack: list[str], seat: str, line: Line) -> tuple[str | None, Fraction]:
    """The banker's hand cards, his own card and the rejouissance card are turned; then the pack.  The
    company decides on each single card it may take; a card of a staked rank pays the banker, one of
    the banker's rank pays every stake left on the table to the company and ends the round."""
    h = rules.hand_cards
    ranks_seen = [c[0] for c in pack[:h + 1]]
    mine = pack[h][0]
    company = 0
    on_table: list[str] = []
    k = 0
    if ranks_seen.count(mine) > 1 and rules.double_banker_card == "void":
        return (None if not line else "move 1: the round is void (the banker's card pairs a hand card)"), Fraction(0)
    for pos in range(h + 1, len(pack)):
        card = pack[pos]
        rank = card[0]
        if rank == mine and not (pos == h + 1 and rules.exempt_first):
            company += len(on_table)
            on_table = []
            break
        if rank == mine:
            ranks_seen.append(rank)
            continue
        if rank in on_table:
            company -= 1
            on_table.remove(rank)
        elif rank not in ranks_seen and (pos == h + 1 or rules.stakes == "every-single"):
            if k >= len(line) or line[k].get("card") != card or line[k].get("action") not in ("stake", "pass"):
                return f"move {k + 1}: expected the company's stake or pass on {card}", Fraction(0)
            if line[k]["action"] == "stake":
                on_table.append(rank)
            k += 1
        ranks_seen.append(rank)
    if k != len(line):
        return f"move {k + 1}: the round is over; the line goes on", Fraction(0)
    return None, Fraction(company if seat == "player" else -company)


def replay_casino(rules: Casino, pack: list[str], seat: str, line: Line) -> tuple[str | None, Fraction]:
    """Casino as ``casino``'s module text tells it, move by move."""
    n, t = rules.hand_size, rules.table_cards
    hands = [pack[:n], pack[n:2 * n]]
    table = pack[2 * n:2 * n + t]
    nxt = 2 * n + t
    piles: list[list[str]] = [[], []]
    sweeps = [0, 0]
    last = -1
    who = 0

    def val(c: str) -> int:
        return "A23456789TJQK".index(c[0]) + 1

    def groups_ok(card: str, taken: list[str]) -> bool:
        """Can ``taken`` be split into groups each of ``card``'s rank or (numbers) adding to it?"""
        if not taken:
            return True
        first, rest = taken[0], taken[1:]
        if first[0] == card[0] and groups_ok(card, rest):
            return True
        numbers = rules.court_combine or (val(card) <= 10)
        if not numbers:
            return False
        for mask in range(1 << len(rest)):
            group = [first] + [rest[j] for j in range(len(rest)) if mask >> j & 1]
            if all(rules.court_combine or val(c) <= 10 for c in group) and sum(map(val, group)) == val(card):
                if groups_ok(card, [rest[j] for j in range(len(rest)) if not mask >> j & 1]):
                    return True
        return False

    for k, m in enumerate(line):
        if not hands[0] and not hands[1]:
            if nxt >= len(pack):
                return f"move {k + 1}: the game is over; the line goes on", Fraction(0)
            hands = [pack[nxt:nxt + n], pack[nxt + n:nxt + 2 * n]]
            nxt += 2 * n
            who = 0
        name = ("elder", "dealer")[who]
        card, taken = m.get("card"), m.get("taken", [])
        if m.get("from") != name or card not in hands[who]:
            return f"move {k + 1}: expected a card from the {name}'s hand, got {json_text(m)}", Fraction(0)
        if not isinstance(taken, list) or any(c not in table for c in taken) or len(set(taken)) != len(taken):
            return f"move {k + 1}: takes cards that are not on the table", Fraction(0)
        if not groups_ok(card, list(taken)):
            return f"move {k + 1}: {card} cannot take {' '.join(taken)} (by pairing or combining)", Fraction(0)
        hands[who].remove(card)
        if taken:
            for c in taken:
                table.remove(c)
            piles[who] += [card, *taken]
            last = who
            game_ends = not hands[0] and not hands[1] and nxt >= len(pack)
            if not table and rules.sweeps and not game_ends:
                sweeps[who] += 1
        else:
            table.append(card)
        who = 1 - who
    if hands[0] or hands[1] or nxt < len(pack):
        return "the line ends before the game is over", Fraction(0)
    if table and last >= 0 and rules.last_takes_rest:
        piles[last] += table
    points = [0, 0]
    for p in (0, 1):
        pile = piles[p]
        points[p] += sweeps[p] + rules.ace_points * sum(c[0] == "A" for c in pile)
        points[p] += rules.big_casino * ("TD" in pile) + rules.little_casino * ("2S" in pile)
    if len(piles[0]) != len(piles[1]):
        points[0 if len(piles[0]) > len(piles[1]) else 1] += rules.cards_points
    spades = [sum(c[1] == "S" for c in pile) for pile in piles]
    if spades[0] != spades[1]:
        points[0 if spades[0] > spades[1] else 1] += rules.spades_points
    diff = points[0] - points[1]
    return None, Fraction(diff if seat == "elder" else -diff)
