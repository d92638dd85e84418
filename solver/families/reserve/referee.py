"""Referee for the debutante family: replays a solution from the rules in words.

Works on card names and plain lists; shares nothing with the positions, the rule
tables or the models.  ``ReserveGame`` is the game at one moment: ``play`` checks one
move and, if it is legal, plays it (a refused move changes nothing); ``replay`` is a
loop over it.  The plain exhaustive search (``solver.families.brute``) steps it too.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ... import cards
from ...layout import Layout
from ...positions import Snapshot, counts_redeals, stack_names
from ..base import replay_moves

RANKS = "A23456789TJQK"


def _rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


@lru_cache(maxsize=512)
def _parse_stack(name: Any) -> tuple[str, int | None]:
    """``"reserve:3"`` -> ``("reserve", 3)``; a name without a number gives None."""
    if not isinstance(name, str) or ":" not in name:
        return "", None
    kind, _, number = name.partition(":")
    try:
        return kind, int(number)
    except ValueError:
        return "", None


class ReserveGame:
    """A deal of a debutante-family game being played: reserve columns, foundations, the pack."""

    def __init__(self, layout: Layout, deal: dict[str, list[int]] | Snapshot):
        """The game at ``deal``, or at a position part-way through one (a ``Snapshot``: its
        waste, its foundations, its redeals left and the batch it is placing)."""
        r = layout.reserve
        self.layout = layout
        at = deal if isinstance(deal, Snapshot) else None
        stacks: Mapping[str, Sequence[int]] = deal.stacks if isinstance(deal, Snapshot) else deal
        self.cols = [cards.names(stacks.get(f"reserve:{i}", [])) for i in range(r.count)]
        self.nf = 4 * len(layout.foundations.rows)
        self.found = [cards.names(stacks.get(f"foundation:{i}", [])) for i in range(self.nf)]
        self.stock = cards.names(stacks.get("stock", []))  # stock[0] turns next
        self.waste: list[str] = cards.names(stacks.get("waste", []))  # its last card is on top
        self.redeals_left = layout.stock.redeals if layout.stock.redeals >= 0 else 10**9
        if at is not None and at.redeals_left is not None:
            self.redeals_left = at.redeals_left
        self.batch_left = at.batch_left if at is not None else 0
        self.capacity = r.capacity or 10**9
        self.moves = 0  # moves played so far
        self.problem: str | None = None  # this referee takes the deal as it comes

    def copy(self) -> ReserveGame:
        other = object.__new__(ReserveGame)
        other.__dict__.update(self.__dict__)
        other.cols = [list(c) for c in self.cols]
        other.found = [list(f) for f in self.found]
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        return other

    def state(self) -> Hashable:
        """Everything that decides what may happen next (not the number of moves played)."""
        return (tuple(map(tuple, self.cols)), tuple(map(tuple, self.found)), tuple(self.stock),
                tuple(self.waste), self.redeals_left, self.batch_left)

    def stacks(self) -> dict[str, list[str]]:
        """Every stack by name, bottom card first and the card that leaves next last (the pack
        too: its last card turns next).  A queue column (``access = "first"``) gives its first."""
        out = {f"reserve:{i}": c for i, c in enumerate(self.cols)}
        out.update({"stock": self.stock[::-1], "waste": self.waste})
        out.update({f"foundation:{i}": f for i, f in enumerate(self.found)})
        return out

    def position(self) -> Snapshot:
        """The game now, as a position (the counters only where the layout keeps them)."""
        stacks = {"stock": self.stock, "waste": self.waste}
        stacks.update({f"foundation:{i}": f for i, f in enumerate(self.found)})
        stacks.update({f"reserve:{i}": c for i, c in enumerate(self.cols)})
        return Snapshot({k: tuple(map(cards.parse, stacks[k])) for k in stack_names(self.layout)}, {},
                        self.redeals_left if counts_redeals(self.layout) else None,
                        self.batch_left)

    def unfinished(self) -> str | None:
        left = self.left()
        return f"after move {self.moves}: {left} cards are not on the foundations" if left else None

    def left(self) -> int:
        """Cards not on the foundations."""
        return sum(map(len, self.cols)) + len(self.stock) + len(self.waste)

    def won(self) -> bool:
        return not self.left()

    # ------------------------------------------------------------ the rules

    def foundation_wants(self, i: int) -> str | None:
        """The card foundation i takes next, or None when it is full."""
        top_rank = self.layout.max_rank
        row = self.layout.foundations.rows[i // 4]
        suit = "CDHS"[i % 4]
        base = top_rank if row.base == 13 else row.base
        if not self.found[i]:
            want = base
        else:
            want = _rank(self.found[i][-1]) + row.direction
        if not 1 <= want <= top_rank:
            return None
        return RANKS[want - 1] + suit

    def available(self, i: int) -> str | None:
        col = self.cols[i]
        if not col:
            return None
        return col[0] if self.layout.reserve.access == "first" else col[-1]

    def column_takes(self, i: int, card: str) -> str | None:
        col = self.cols[i]
        if len(col) >= self.capacity:
            return f"reserve:{i} is full ({len(col)} cards)"
        if self.layout.reserve.accepts == "suit-sequence" and col:
            last = col[-1]
            if last[1] != card[1] or abs(_rank(last) - _rank(card)) != 1:
                return f"reserve:{i} takes only a card of {last}'s suit and next rank"
        return None

    def _index(self, name: str, kind: str, n: int) -> int | None:
        """The number of stack ``name`` if it is a ``kind`` stack (of ``n``), else None."""
        k, i = _parse_stack(name)
        return i if k == kind and i is not None and 0 <= i < n else None

    def play(self, move: Any) -> str | None:
        """Play ``move`` if it is legal and return None; else what is wrong (nothing changes)."""
        problem = self._check_and_play(move, f"move {self.moves + 1}")
        if problem is None:
            self.moves += 1
        return problem

    def _check_and_play(self, move: Any, n: str) -> str | None:
        r, s = self.layout.reserve, self.layout.stock
        cols, stock, waste = self.cols, self.stock, self.waste
        try:
            card, src, dst = move["card"], move["from"], move["to"]
        except (KeyError, TypeError):
            return f"{n}: expected an object with card, from and to"
        count = move.get("count", 1)
        if not all(isinstance(x, str) for x in (card, src, dst)) or not isinstance(count, int):
            return f"{n}: expected card, from and to as strings and count as a whole number"
        where = f"{n} ({card} from {src} to {dst})"
        if r.fill == "immediate" and stock and not all(cols):
            j = self._index(dst, "reserve", r.count)
            if not (src == "stock" and j is not None and not cols[j]):
                return f"{where}: an empty column must first be filled from the pack"
        # The stock's and the waste's own moves.
        if src == "stock":
            if not stock:
                return f"{where}: the pack is empty"
            if dst == "reserve" and s.turn == "deal-row":
                k = min(r.count, len(stock))
                if count != k or stock[0] != card:
                    return f"{where}: a deal puts {k} cards, from {stock[0]}, one on each column"
                for col in cols[:k]:
                    col.append(stock.pop(0))
                return None
            if dst == "waste":
                if s.turn != "waste":
                    return f"{where}: this game has no waste pile"
                if stock[0] != card:
                    return f"{where}: the next card of the pack is {stock[0]}"
                k = min(s.deal_count, len(stock))
                if count != k:
                    return f"{where}: a turn moves {k} cards"
                if s.waste_capacity and len(waste) + k > s.waste_capacity:
                    return f"{where}: the waste holds at most {s.waste_capacity} cards"
                for _ in range(k):
                    waste.append(stock.pop(0))
                return None
        if src == "waste" and dst == "stock":
            if stock or not waste:
                return f"{where}: a redeal needs an empty pack and a waste pile"
            if self.redeals_left <= 0:
                return f"{where}: no redeal left"
            if count != len(waste) or waste[0] != card:
                return f"{where}: the redeal turns over all {len(waste)} waste cards, from {waste[0]}"
            self.stock, self.waste = waste, []
            self.redeals_left -= 1
            return None
        # One card: where it comes from.
        i: int | None = None
        if src == "stock":
            if stock[0] != card:
                return f"{where}: the next card of the pack is {stock[0]}"
            j = self._index(dst, "reserve", r.count)
            refill = r.fill == "immediate" and j is not None and not cols[j]
            if s.turn not in ("place",) and not refill and not (
                    s.top_playable and dst.startswith("foundation")):
                return f"{where}: pack cards are not played straight from the pack in this game"
        elif src == "waste":
            if not waste or waste[-1] != card:
                return f"{where}: {card} is not on top of the waste"
        else:
            i = self._index(src, "reserve", r.count)
            if i is None:
                return f"{where}: unknown source {src!r}"
            if self.available(i) != card:
                return f"{where}: {card} is not the available card of {src}"
            if self.batch_left and dst.startswith("foundation"):
                return f"{where}: columns may not play to foundations while pack cards are being placed"
            if dst.startswith("reserve"):
                j = self._index(dst, "reserve", r.count)
                if not (r.gaps == "any-top" and not stock and j is not None and not cols[j]):
                    return f"{where}: cards never move between columns here"
        if count != 1:
            return f"{where}: one card moves at a time, not {count}"
        # Where it goes.
        f = self._index(dst, "foundation", self.nf)
        j = self._index(dst, "reserve", r.count)
        if f is not None:
            want = self.foundation_wants(f)
            if want != card:
                return f"{where}: {dst} takes {want or 'nothing more'}, not {card}"
        elif j is not None:
            problem = self.column_takes(j, card)
            if problem:
                return f"{where}: {problem}"
        else:
            return f"{where}: unknown destination {dst!r}"
        # Move it.
        if src == "stock":
            stock.pop(0)
        elif src == "waste":
            waste.pop()
        elif i is not None:
            cols[i].pop(0) if r.access == "first" else cols[i].pop()
        if f is not None:
            self.found[f].append(card)
        elif j is not None:
            cols[j].append(card)
            if s.batch and src == "stock":
                self.batch_left = (self.batch_left or s.batch) - 1
                if not stock:
                    self.batch_left = 0
        return None


def replay(layout: Layout, deal: dict[str, list[int]], solution: list[dict[str, Any]]) -> str | None:
    """None if ``solution`` is legal move by move and wins; else what is wrong, naming the move."""
    return replay_moves(ReserveGame(layout, deal), solution)
