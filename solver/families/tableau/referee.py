"""Referee for the tableau family (FreeCell, Klondike, ...), written from the rules in words.

The rules, read from the layout:

* Columns are dealt bottom card first; the first ``face_down`` cards of a column lie face
  down.  A face-down card never moves; when the cards above it have all gone it is turned
  face up.
* A card goes onto a column whose top card is one rank above it (building down) or below
  it (building up), and: of the other colour (``alternate``), of the same suit (``suit``),
  of any suit (``any``); nothing goes onto a column when the build is ``none``.  An empty
  column takes any card (``any``), only the highest rank of the pack (``kings``), or
  nothing (``none``).
* Several cards move together only if each lies on the one below by the build rule and
  they are face up; with ``single`` only one card moves, with ``sequence`` any such group,
  with ``suit-sequence`` any such group of one suit, with ``supermove`` at most (free cells
  + 1) * 2 ** (empty columns), counting only empty columns that take any card, and not the
  column the group goes to; with ``whole-pile`` cards leave a column for another column only
  all of them together (a column's one card too).
* A free cell holds one card.  A foundation takes the ace of its suit, then the next rank
  of that suit (foundation i has suit ``CDHS[i % 4]``, or with a pack of fewer suits the pack's
  (i % 4)-th suit, ``Layout.foundation_suit``); with ``removable`` its top card may
  come back to a column.  With ``takes = "suit"`` an empty foundation takes only a whole suit
  in one move: the 13 top cards of a column (as many as the ranks in play), face up, king
  lowest and ace on top, in its suit; with ``takes = "column"`` only when they are the whole
  column.
* The stock turns ``deal_count`` cards (fewer at the end) onto the waste, keeping their
  order; only the waste's last card plays.  When the stock is empty and a redeal is left,
  the waste turns back into the stock, its first card to turn first again.  With
  ``turn = "deal-row"`` the stock instead deals its next cards one onto each column, face
  up, from the first column on (fewer at the end: onto the first columns), at any time;
  with ``turn = "deal-row-no-spaces"`` the same, but only while no column is empty.
* Canfield's pieces.  With ``base = "deal"`` the card dealt to ``base`` starts the
  foundation of its suit and its rank starts every foundation; with ``foundations.wrap``
  the ace comes after the king.  ``tableau.wrap`` says which ranks are next to each other
  in a column: ``none``, ace low and king high; ``cyclic``, also king and ace;
  ``from-base``, ranks counted from the foundations' base (so the rank below the base is
  the highest and nothing goes on a base card).  The reserve (``reserve:0``) is dealt
  bottom card first; only its last card plays, to a foundation, a column or a cell, and
  nothing is put on it.  With ``spaces = "reserve-then-any"`` a column emptied by a move is filled
  at once, as part of that move, with the reserve's last card; once the reserve is empty a space
  takes any card or group.  With ``spaces = "reserve-then-waste"`` the reserve fills a space alike;
  once the reserve is empty, while any column is empty, no card goes onto a column but the waste's
  top card (which may go into the space or onto a card).  With ``spaces = "waste-then-stock"``
  a column emptied by a move is filled at once, as part of that move, with the waste's last card,
  or when the waste is empty with the stock's next card; once both are empty a space takes any
  card or group.  Several reserve piles (``reserve.count`` >
  1, Flower Garden's, King Albert's, ...: ``reserve:0``, ``reserve:1``, ...) are dealt one card each
  and play alike: the card to a foundation, a column or a cell, and nothing is put into them.
* The game is won when every card is on the foundations.

A move is ``{"card", "from", "to"[, "count"]}``; ``card`` is the lowest card moved (for a
turn, the first card turned; for a redeal, the waste's first card).  Which kind of move it is
comes from the move table (``solver/moves.py``, ``kind_of``): data this module reads, then
checks each kind by its own rule below (``CHECKS``); a kind it has no rule for is refused.

This module works on card names and plain lists and shares nothing with the engines.
``TableauGame`` is the game at one moment, stepped by ``replay`` and by the plain
exhaustive search (``solver.families.brute``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ... import cards, moves
from ...files import json_text
from ...positions import Snapshot, counts_redeals, stack_names
from ..base import replay_moves

RANKS = "A23456789TJQK"
SUITS = "CDHS"


GROUPS = ("single", "sequence", "suit-sequence", "supermove", "whole-pile")  # the values of tableau.moves ruled above
TAKES = ("card", "suit", "column")  # the values of foundations.takes ruled above


def _name(card: Any) -> str:
    if isinstance(card, int):
        return RANKS[card // 4] + SUITS[card % 4]
    text = str(card).strip().upper()
    return "T" + text[2:] if text.startswith("10") else text


def _rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def _red(card: str) -> bool:
    return card[1] in "DH"


class TableauGame:
    """A deal of a tableau game being played.  ``play`` checks one move and plays it if it is
    legal (a refused move changes nothing); ``problem`` says what is wrong with the deal itself."""

    def __init__(self, layout: Any, deal: dict[str, list[Any]] | Snapshot):
        """The game at ``deal``, or at a position part-way through one (a ``Snapshot``: see
        ``_start_at``)."""
        self.layout = layout
        at, deal = (deal, {}) if isinstance(deal, Snapshot) else (None, deal)
        tab = self.tab = layout.tableau
        self.stock_rules = layout.stock
        self.highest = layout.max_rank
        self.columns = [[_name(c) for c in deal.get(f"tableau:{i}", [])] for i in range(tab.count)]
        self.face_down = [min(tab.face_down[i] if i < len(tab.face_down) else 0, max(0, len(col) - 1))
                          for i, col in enumerate(self.columns)]
        self.cells: list[str | None] = [None] * layout.cells.count
        for i in range(layout.cells.count):
            if deal.get(f"cell:{i}"):
                self.cells[i] = _name(deal[f"cell:{i}"][0])
        self.foundations: list[list[str]] = [[] for _ in range(4 * len(layout.foundations.rows))]
        self.found_suits = [SUITS[layout.foundation_suit(i)] for i in range(len(self.foundations))]
        self.stock = [_name(c) for c in deal.get("stock", [])]  # stock[0] turns next
        self.waste: list[str] = []
        self.redeals_left = self.stock_rules.redeals if self.stock_rules.redeals >= 0 else None  # None: no limit
        self.removable = getattr(layout.foundations, "removable", False)
        self.reserves = [[_name(c) for c in deal.get(f"reserve:{i}", [])] for i in range(layout.reserve.count)]
        self.base_rank = 1
        self.wrap_found = getattr(layout.foundations, "wrap", False)
        self.wrap_cols = getattr(tab, "wrap", "none")
        self.fill_spaces = tab.spaces in ("reserve-then-any", "reserve-then-waste")
        self.moves = 0  # moves played so far
        self.problem: str | None = None  # what is wrong with the deal itself
        if tab.moves not in GROUPS or layout.foundations.takes not in TAKES:  # (the move table may hold more)
            self.problem = (f"the referee has no rule for tableau.moves = {tab.moves!r} or foundations.takes = "
                            f"{layout.foundations.takes!r}")
            return
        if at is not None:
            self._start_at(at)
            return
        from_deal = layout.foundations.base_from_deal
        preset = layout.foundations.preset  # each foundation's ace lies on it before the deal
        for stack, cs in deal.items():
            known = (stack == "stock" or stack.startswith(("tableau:", "cell:"))
                     or _stack_index(stack, "reserve", len(self.reserves)) is not None
                     or (stack == "base" and from_deal)
                     or (stack.startswith("foundation:") and preset))
            if cs and not known:
                self.problem = f"the deal has cards on {stack}, which this game does not have"
                return
        if preset:
            for i, pile in enumerate(self.foundations):
                placed = [_name(c) for c in deal.get(f"foundation:{i}", [])]
                if placed != ["A" + self.found_suits[i]]:
                    self.problem = f"foundation:{i} must start with its ace, placed before the deal"
                    return
                pile.extend(placed)
        if from_deal:
            if len(deal.get("base", [])) != 1:
                self.problem = "the deal must hold one base card"
                return
            base_card = _name(deal["base"][0])
            self.base_rank = _rank(base_card)
            self.foundations[SUITS.index(base_card[1])].append(base_card)
        self.fill()

    def _start_at(self, at: Snapshot) -> None:
        """Every stack as the position lists it, its face-down cards, its redeals left; with a
        base from the deal, the foundations' base rank is that of their first cards."""
        self.columns = [[_name(c) for c in at.stacks.get(f"tableau:{i}", ())] for i in range(self.tab.count)]
        self.face_down = [at.face_down.get(f"tableau:{i}", 0) for i in range(self.tab.count)]
        self.cells = [_name(at.stacks[f"cell:{i}"][0]) if at.stacks.get(f"cell:{i}") else None
                      for i in range(len(self.cells))]
        self.foundations = [[_name(c) for c in at.stacks.get(f"foundation:{i}", ())]
                            for i in range(len(self.foundations))]
        self.stock = [_name(c) for c in at.stacks.get("stock", ())]
        self.waste = [_name(c) for c in at.stacks.get("waste", ())]
        self.reserves = [[_name(c) for c in at.stacks.get(f"reserve:{i}", ())] for i in range(len(self.reserves))]
        if at.redeals_left is not None:
            self.redeals_left = at.redeals_left
        if self.layout.foundations.base_from_deal:
            firsts = [f[0] for f in self.foundations if f]
            if not firsts:
                self.problem = "the position has no base card on the foundations"
                return
            self.base_rank = _rank(firsts[0])
        self.fill()

    def position(self) -> Snapshot:
        """The game now, as a position (the counters only where the layout keeps them)."""
        stacks: dict[str, list[str]] = {f"tableau:{i}": c for i, c in enumerate(self.columns)}
        stacks.update({f"cell:{i}": [] if c is None else [c] for i, c in enumerate(self.cells)})
        stacks.update({f"foundation:{i}": f for i, f in enumerate(self.foundations)})
        stacks.update({"stock": self.stock, "waste": self.waste})
        stacks.update({f"reserve:{i}": r for i, r in enumerate(self.reserves)})
        face_down = {f"tableau:{i}": n for i, n in enumerate(self.face_down) if n}
        return Snapshot({k: tuple(map(cards.parse, stacks[k])) for k in stack_names(self.layout)}, face_down,
                        self.redeals_left if counts_redeals(self.layout) else None)

    def copy(self) -> TableauGame:
        other = object.__new__(TableauGame)
        other.__dict__.update(self.__dict__)
        other.columns = [list(c) for c in self.columns]
        other.face_down = list(self.face_down)
        other.cells = list(self.cells)
        other.foundations = [list(f) for f in self.foundations]
        other.stock = list(self.stock)
        other.waste = list(self.waste)
        other.reserves = [list(r) for r in self.reserves]
        return other

    def state(self) -> Hashable:
        """Everything that decides what may happen next (not the number of moves played)."""
        return (tuple(map(tuple, self.columns)), tuple(self.face_down), tuple(self.cells),
                tuple(map(tuple, self.foundations)), tuple(self.stock), tuple(self.waste), self.redeals_left,
                tuple(map(tuple, self.reserves)))

    def stacks(self) -> dict[str, list[str]]:
        """Every stack by name, bottom card first and the card that leaves next last (the stock
        too: its last card turns next).  Face-down cards are listed: the referee refuses them."""
        out: dict[str, list[str]] = {f"tableau:{i}": c for i, c in enumerate(self.columns)}
        out.update({f"cell:{i}": [] if c is None else [c] for i, c in enumerate(self.cells)})
        out.update({f"foundation:{i}": f for i, f in enumerate(self.foundations)})
        out.update({"stock": self.stock[::-1], "waste": self.waste})
        out.update({f"reserve:{i}": r for i, r in enumerate(self.reserves)})
        return out

    def unfinished(self) -> str | None:
        left = self.left()
        return f"after move {self.moves}: {left} cards are not on the foundations" if left else None

    def left(self) -> int:
        """Cards not on the foundations."""
        return (sum(map(len, self.columns)) + sum(c is not None for c in self.cells) + len(self.stock)
                + len(self.waste) + sum(map(len, self.reserves)))

    def won(self) -> bool:
        return self.problem is None and not self.left()

    # ------------------------------------------------------------ the rules

    def fill(self) -> None:
        """The reserve fills every empty column at once (``reserve-then-any``, ``reserve-then-waste``);
        or the waste's last card, else the stock's next (``waste-then-stock``)."""
        if self.fill_spaces:
            for col in self.columns:
                if not col and self.reserves[0]:
                    col.append(self.reserves[0].pop())
        if self.tab.spaces == "waste-then-stock":
            for col in self.columns:
                if not col and (self.waste or self.stock):
                    col.append(self.waste.pop() if self.waste else self.stock.pop(0))

    def order(self, card: str) -> int:
        """The card's rank as columns count it."""
        r = _rank(card)
        return (r - self.base_rank) % self.highest if self.wrap_cols == "from-base" else r

    def builds_on(self, lower: str, upper: str) -> bool:
        """May ``upper`` lie on ``lower`` in a column?"""
        tab = self.tab
        step, want = self.order(lower) - self.order(upper), (1 if tab.direction < 0 else -1)
        if self.wrap_cols == "cyclic":
            step, want = step % self.highest, want % self.highest
        if step != want:
            return False
        if tab.build == "alternate":
            return _red(lower) != _red(upper)
        if tab.build == "suit":
            return lower[1] == upper[1]
        return tab.build == "any"

    def play(self, move: Any) -> str | None:
        """Play ``move`` if it is legal and return None; else what is wrong (nothing changes)."""
        problem = self._check_and_play(move, f"move {self.moves + 1}")
        if problem is None:
            self.moves += 1
        return problem

    def _check_and_play(self, move: Any, at: str) -> str | None:
        if self.problem:
            return f"{at}: {self.problem}"
        if not isinstance(move, dict):
            return f"{at}: expected an object with card, from and to, got {json_text(move)}"
        card, source, target = move.get("card"), move.get("from"), move.get("to")
        count = move.get("count", 1)
        if not isinstance(card, str) or not isinstance(source, str) or not isinstance(target, str):
            return f"{at}: expected card, from and to as strings"
        if not isinstance(count, int) or count < 1:
            return f"{at}: count must be a positive whole number"
        kind = moves.kind_of(move)
        check = CHECKS.get(kind.name)
        if check is None:
            return f"{at}: this game has no {kind.name} moves ({kind.words})"
        return check(self, _name(card), source, target, count, at)

    def _turn(self, card: str, source: str, target: str, count: int, at: str) -> str | None:
        """The stock turns its next ``deal_count`` cards (fewer at the end) onto the waste."""
        stock = self.stock
        if self.stock_rules.turn != "waste":
            return f"{at}: the stock only turns onto the waste, and this game has none"
        if not stock:
            return f"{at}: the stock is empty"
        turned = stock[:self.stock_rules.deal_count]
        if card != turned[0] or count != len(turned):
            return f"{at}: turning gives {turned[0]} and {len(turned)} card(s), not {card} and {count}"
        del stock[:len(turned)]
        self.waste.extend(turned)
        return None

    def _row(self, card: str, source: str, target: str, count: int, at: str) -> str | None:
        """The stock deals its next cards, one onto each column from the first, face up."""
        stock = self.stock
        if self.stock_rules.turn not in ("deal-row", "deal-row-no-spaces") or target != "tableau":
            return f"{at}: the stock does not deal rows onto {target} in this game"
        dealt = stock[:len(self.columns)]
        if not dealt:
            return f"{at}: the stock is empty"
        if self.stock_rules.turn == "deal-row-no-spaces":
            empty = [i for i, col in enumerate(self.columns) if not col]
            if empty:
                return f"{at}: no row is dealt while a column is empty (tableau:{empty[0]} is)"
        if card != dealt[0] or count != len(dealt):
            return f"{at}: the row deals {dealt[0]} and {len(dealt)} card(s), not {card} and {count}"
        del stock[:len(dealt)]
        for col, c in zip(self.columns, dealt):
            col.append(c)
        return None

    def _redeal(self, card: str, source: str, target: str, count: int, at: str) -> str | None:
        """The whole waste goes back to the stock, once the stock is empty, while redeals are left."""
        waste = self.waste
        if self.stock:
            return f"{at}: the waste goes back only when the stock is empty"
        if self.redeals_left == 0:
            return f"{at}: no redeal is left"
        if not waste or card != waste[0] or count != len(waste):
            return f"{at}: a redeal moves the whole waste ({len(waste)} cards from {waste[:1]})"
        self.stock, self.waste = waste, []
        if self.redeals_left is not None:
            self.redeals_left -= 1
        return None

    def _cards(self, card: str, source: str, target: str, count: int, at: str) -> str | None:
        """``count`` cards from the top of ``source`` onto ``target``, by the rules of the module text."""
        tab = self.tab
        columns, cells, foundations = self.columns, self.cells, self.foundations
        waste = self.waste

        # Take the cards from their source.
        col_from = _stack_index(source, "tableau", len(columns))
        cell_from = _stack_index(source, "cell", len(cells))
        found_from = _stack_index(source, "foundation", len(foundations))
        reserve_from = _stack_index(source, "reserve", len(self.reserves))
        if col_from is not None:
            col = columns[col_from]
            if len(col) < count:
                return f"{at}: {source} holds fewer than {count} cards"
            group = col[len(col) - count:]
            if group[0] != card:
                return f"{at}: {card} is not the card {count} from the top of {source} (that is {group[0]})"
            if len(col) - count < self.face_down[col_from]:
                return f"{at}: {card} on {source} is face down"
            for lower, upper in zip(group, group[1:]):
                if not self.builds_on(lower, upper):
                    return f"{at}: {upper} does not lie on {lower} by the build rule, so they cannot move together"
                if tab.moves == "suit-sequence" and lower[1] != upper[1]:
                    return f"{at}: {upper} and {lower} are not of one suit, so they cannot move together"
        elif cell_from is not None:
            if cells[cell_from] != card or count != 1:
                return f"{at}: {card} is not in {source}"
            group = [card]
        elif source == "waste":
            if not waste or waste[-1] != card or count != 1:
                return f"{at}: {card} is not the waste's top card"
            group = [card]
        elif reserve_from is not None:
            reserve = self.reserves[reserve_from]
            if not reserve or reserve[-1] != card or count != 1:
                return f"{at}: {card} is not the reserve's top card ({source})"
            group = [card]
        elif found_from is not None:
            if not self.removable:
                return f"{at}: cards never leave the foundations in this game"
            if not foundations[found_from] or foundations[found_from][-1] != card or count != 1:
                return f"{at}: {card} is not on top of {source}"
            group = [card]
        else:
            return f"{at}: {source!r} is not a stack of this game"

        # Check the target.
        highest = self.highest
        col_to = _stack_index(target, "tableau", len(columns))
        cell_to = _stack_index(target, "cell", len(cells))
        found_to = _stack_index(target, "foundation", len(foundations))
        if col_to is not None:
            if col_to == col_from:
                return f"{at}: {card} moves from {source} onto itself"
            if tab.spaces == "reserve-then-waste" and source != "waste" and any(not col for col in columns):
                return (f"{at}: a column is empty and the reserve is spent, so only the waste's top card goes onto "
                        f"a column, not {card} from {source}")
            dest = columns[col_to]
            if dest:
                if not self.builds_on(dest[-1], card):
                    return f"{at}: {card} cannot go on {dest[-1]} ({tab.build} build)"
            elif tab.spaces == "none" or (tab.spaces == "kings" and _rank(card) != highest):
                return f"{at}: the empty {target} takes {'nothing' if tab.spaces == 'none' else 'only a king'}"
            if tab.moves == "whole-pile" and col_from is not None and count != len(columns[col_from]):
                return (f"{at}: a column's cards go onto a column only all together, and {source} holds "
                        f"{len(columns[col_from])}, not {count}")
            if count > 1:
                if col_from is None:
                    return f"{at}: only cards of a column move together"
                if tab.moves == "single":
                    return f"{at}: cards move one at a time in this game"
                if tab.moves == "supermove":
                    free = sum(c is None for c in cells)
                    spaces = 0
                    if tab.spaces == "any":
                        spaces = sum(1 for i, c in enumerate(columns) if not c and i != col_to)
                    limit = (free + 1) * 2 ** spaces
                    if count > limit:
                        return f"{at}: {count} cards move together but the cells and spaces carry only {limit}"
        elif cell_to is not None:
            if cells[cell_to] is not None:
                return f"{at}: {target} is not free"
            if count != 1:
                return f"{at}: a cell holds one card"
        elif found_to is not None and self.layout.foundations.takes != "card":
            suit = self.found_suits[found_to]
            whole = [RANKS[r - 1] + suit for r in range(highest, 0, -1)]  # the king lowest
            if col_from is None or group != whole:
                return f"{at}: {target} takes only the whole suit {whole[0]}..{whole[-1]} from a column"
            if self.layout.foundations.takes == "column" and len(columns[col_from]) != count:
                return f"{at}: {target} takes a whole suit only when it is the whole column"
            if foundations[found_to]:
                return f"{at}: {target} is not empty"
        elif found_to is not None:
            if count != 1:
                return f"{at}: cards go to the foundations one at a time"
            if col_from is not None and not tab.to_foundation:
                return f"{at}: column cards do not go to the foundations in this game"
            pile = foundations[found_to]
            suit = self.found_suits[found_to]
            if not pile:
                want = RANKS[self.base_rank - 1] + suit
            elif len(pile) >= highest:
                want = None
            elif _rank(pile[-1]) < highest:
                want = RANKS[_rank(pile[-1])] + suit
            else:
                want = "A" + suit if self.wrap_found else None
            if card != want:
                return f"{at}: {target} takes {want or 'nothing more'}, not {card}"
        elif _stack_index(target, "reserve", len(self.reserves)) is not None:
            return f"{at}: nothing is put into the reserve ({target})"
        else:
            return f"{at}: {target!r} is not a stack of this game"

        # Move them.
        if col_from is not None:
            col = columns[col_from]
            del col[len(col) - count:]
            if col and len(col) == self.face_down[col_from]:
                self.face_down[col_from] -= 1  # the top card turns face up
        elif cell_from is not None:
            cells[cell_from] = None
        elif source == "waste":
            waste.pop()
        elif reserve_from is not None:
            self.reserves[reserve_from].pop()
        elif found_from is not None:
            foundations[found_from].pop()
        if col_to is not None:
            columns[col_to].extend(group)
        elif cell_to is not None:
            cells[cell_to] = card
        elif found_to is not None:
            foundations[found_to].extend(reversed(group))  # (a whole suit: the ace first)
        self.fill()
        return None


# The rule that checks each kind of move (``moves.KINDS``) this family has.
CHECKS = {moves.CARDS.name: TableauGame._cards, moves.TURN.name: TableauGame._turn,
          moves.REDEAL.name: TableauGame._redeal, moves.ROW.name: TableauGame._row}


def _stack_index(name: str, kind: str, count: int) -> int | None:
    if not name.startswith(kind + ":"):
        return None
    try:
        i = int(name[len(kind) + 1:])
    except ValueError:
        return None
    return i if 0 <= i < count else None


def replay(layout: Any, deal: dict[str, list[Any]], solution: list[dict[str, Any]]) -> str | None:
    """None if every move of ``solution`` is legal and the game ends won; else what is wrong."""
    return replay_moves(TableauGame(layout, deal), solution)
