"""A plain exhaustive search over the referee's game: the engines' independent check.

It knows no rule of any game, only the result contract's move forms and stack names.
At each state it writes down, generously, every move the contract could name and lets
the referee (``GameFamily.referee``, written from the rules in words) refuse the
illegal ones.  From every stack that holds cards (the referee's ``stacks``: bottom
first, the card that leaves next last):

- ``stock``: its next card alone onto every stack; with count k = 1..n (a turn of k
  cards, named by the first card turned; a deal of one card to each of k columns) onto
  the waste and onto every kind of stack by itself ("reserve", "tableau": a deal to
  every column names no one column);
- ``waste``: its top card alone; all its n cards named by the first (a redeal);
- any other stack: its last card alone; its first card alone (a queue column gives its
  first card); for k = 2..n its last k cards named by the lowest of them (a group);
  onto every other stack.

``count`` is left out when it is 1, as the engines write it.  Every other move would
name a card the contract never names for its kind of move, so the referee would refuse
it anyway.  Distinct states (the referee's ``state``) are searched once, depth first,
moves to a foundation or the hole first (the order decides which win is found first,
never whether one is); the search ends ``won`` with the moves of a win (the caller
replays them with the family's ``replay``), ``lost`` when every reachable state was
seen, or ``unknown`` when ``max_states`` states were seen first.

It shares nothing with the positions, the rule tables or the models, and it is slow
(every candidate is a referee call): it is for tiny deals, in the tests and in
``benchmarks/differential.py``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import DealError
from ..result import Verdict
from . import family_of
from .base import Referee


@dataclass
class BruteResult:
    verdict: Verdict
    moves: list[dict[str, Any]] | None = None  # a win, for "won"
    states: int = 0  # distinct states seen
    reason: str | None = None  # the limit, for "unknown"


def candidates(game: Referee) -> Iterator[dict[str, Any]]:
    """Every move the contract could name from the stacks of ``game`` (see the module text),
    those to a foundation or the hole first."""
    stacks = game.stacks()
    home = [name for name in stacks if name == "hole" or name.startswith("foundation")]
    targets = home + [name for name in stacks if name not in home]
    kinds = sorted({name.split(":", 1)[0] for name in stacks if ":" in name})
    picks: dict[str, list[tuple[str, int]]] = {}
    for src, cs in stacks.items():
        n = len(cs)
        if not n:
            continue
        if src == "stock":
            picks[src] = [(cs[-1], k) for k in range(1, n + 1)]
        elif src == "waste":
            picks[src] = list(dict.fromkeys([(cs[-1], 1), (cs[0], n)]))
        else:
            picks[src] = list(dict.fromkeys([(cs[-1], 1), (cs[0], 1)] + [(cs[-k], k) for k in range(2, n + 1)]))
    for dst in targets + kinds:
        for src, some in picks.items():
            if dst == src or (dst in kinds and src != "stock"):
                continue
            if src == "stock" and dst != "waste" and dst not in kinds:
                some = some[:1]  # one card from the stock straight onto a stack
            for card, k in some:
                move: dict[str, Any] = {"card": card, "from": src, "to": dst}
                if k > 1:
                    move["count"] = k
                yield move


def successors(game: Referee) -> list[tuple[dict[str, Any], Referee]]:
    """Each legal move from ``game`` with the game after it (``game`` is left as it was)."""
    out = []
    trial = game.copy()
    for move in candidates(game):
        if trial.play(move) is None:  # a refused move changes nothing, so ``trial`` is reused
            out.append((move, trial))
            trial = game.copy()
    return out


def search(game: Referee, max_states: int = 100_000) -> BruteResult:
    """Search every state reachable from ``game`` (left as it was), depth first."""
    if game.problem:
        raise DealError(game.problem)
    if game.won():
        return BruteResult("won", [], 1)
    start = game.state()
    parent: dict[Hashable, tuple[Hashable, dict[str, Any]] | None] = {start: None}
    todo = [game]
    while todo:
        here = todo.pop()
        key = here.state()
        fresh = []
        for move, after in successors(here):
            s = after.state()
            if s in parent:
                continue
            parent[s] = (key, move)
            if after.won():
                return BruteResult("won", _path(parent, s), len(parent))
            if len(parent) >= max_states:
                return BruteResult("unknown", None, len(parent), f"max-states {max_states}")
            fresh.append(after)
        todo.extend(reversed(fresh))  # the first move found is searched first
    return BruteResult("lost", None, len(parent))


def _path(parent: dict[Hashable, tuple[Hashable, dict[str, Any]] | None], s: Hashable) -> list[dict[str, Any]]:
    moves = []
    while (link := parent[s]) is not None:
        s, move = link
        moves.append(move)
    return moves[::-1]


def solve(layout: Any, deal: Any, max_states: int = 100_000) -> BruteResult:
    """The plain search of ``deal`` through the referee of ``layout``'s family."""
    return search(family_of(layout).referee(layout, deal), max_states)
