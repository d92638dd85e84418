"""Disagreements with a peer, replayed through our referee.

When one of our engines and a peer both decide a deal and their verdicts differ, one of the
two is wrong, and the referee (written from the rules in words, sharing nothing with the
engines) says which:

- we say won: our solution was already replayed by the referee before the verdict was given
  (every ``won`` is), so the peer's ``lost`` is wrong, or the peer plays other rules;
- the peer says won: its solution, read from its output as moves between our stacks
  (``Step``: from, to, how many cards), is played move by move on the referee; the first move
  the referee refuses is named, with its number (the peer's "win" breaks a rule we play, most
  often a rule the two solvers read differently); a solution that replays to the end means our
  ``lost`` is wrong, a bug here.

A step names no card: the card is read from the referee's position (the top ``n`` cards of
the source).  A step from the waste names the card that arrives (Solvitaire plays any card it
can reach by turning): the stock is turned, and the waste turned back, until that card is on
top, each turn a move of its own.
"""

from __future__ import annotations

from typing import Any

from .. import api, moves
from ..families import family_of
from .peers import PEERS, Step
from .plan import load


def _foundation(stacks: dict[str, list[str]], card: str, taking: bool) -> str | None:
    """The foundation that takes ``card`` (``taking``) or holds it on top."""
    ranks = "A23456789TJQK"
    for name, pile in stacks.items():
        if not name.startswith("foundation:"):
            continue
        suit_of_pile = "CDHS"[int(name.split(":")[1]) % 4]
        if card[1] != suit_of_pile:
            continue
        if taking and (not pile or ranks.index(pile[-1][0]) == ranks.index(card[0]) - 1):
            return name
        if not taking and pile and pile[-1] == card:
            return name
    return None


def replay_steps(layout: Any, deal: Any, steps: list[Step]) -> str | None:
    """Play ``steps`` on the referee: None when they win; else what goes wrong, naming the move."""
    game = family_of(layout).referee(layout, deal)
    if game.problem:
        return game.problem
    for k, step in enumerate(steps, 1):
        stacks = game.stacks()
        src, dst, n, card = step
        if src == "waste" and card is not None:
            for _ in range(2 * len(stacks.get("stock", [])) + 2 * len(stacks.get("waste", [])) + 2):
                if stacks["waste"][-1:] == [card]:
                    break
                if stacks["stock"]:
                    turn = moves.contract(stacks["stock"][-1], "stock", "waste",
                                          min(layout.stock.deal_count, len(stacks["stock"])))
                else:
                    turn = moves.contract(stacks["waste"][0], "waste", "stock", len(stacks["waste"]))
                problem = game.play(turn)
                if problem:
                    return f"peer move {k} ({src} -> {dst}, {card}): {problem}"
                stacks = game.stacks()
        if src == "foundations":
            src = (_foundation(stacks, card, taking=False) if card else None) or src
        pile = stacks.get(src)
        if card is None:
            if not pile or len(pile) < n:
                return f"peer move {k}: {src} -> {dst}: {src} holds {len(pile or [])} card(s), not {n}"
            card = pile[-1] if src == "stock" else pile[-n]  # (the stock's last card leaves first)
        if dst == "foundations":
            dst = _foundation(stacks, card, taking=True) or "foundation:?"
        problem = game.play(moves.contract(card, src, dst, n))
        if problem:
            return f"peer move {k}: {problem}"
    return game.unfinished()


def check(label: str, name: str, max_rank: int | None, seed: int | None, ours: dict[str, Any],
          theirs: dict[str, Any], peer: str, where: str, options: list[str], limits: Any) -> dict[str, Any]:
    """A record of one disagreement: both verdicts and what the referee says."""
    out = {"kind": "disagreement", "layout": label, "seed": seed, "runner": ours["runner"], "against": peer,
           "ours": ours["verdict"], "theirs": theirs["verdict"]}
    if ours["verdict"] == "won":
        out["referee"] = ("our win was replayed by the referee move by move: the peer's 'lost' is wrong, or it "
                          "plays other rules")
        return out
    layout = load(name, max_rank)
    deal = api.make_deal(layout, seed)
    steps = PEERS[peer].solution(where, PEERS[peer].board(layout, deal, seed), options, limits)
    if steps is None:
        out["referee"] = f"{peer} gives no solution we can read: not replayed"
        return out
    problem = replay_steps(layout, deal, steps)
    out["peer_moves"] = len(steps)
    out["referee"] = (f"the peer's solution goes wrong: {problem}" if problem else
                      "the peer's solution replays to a win through our referee: our 'lost' is wrong (a bug)")
    return out
