"""The debutante family: foundations in suit, reserve columns that only feed them.

One position class serves every layout of the family (debutante and its
readings, Colorado, Grandfather, Double Line, Twenty, Sly Fox); what differs
between them is layout data compiled into the tables and flags below.

State: the reserve ``cols`` (lists, the list's end is the card placed last),
the foundation heights ``h``, the ``stock`` (its end is the next card to
turn) and the ``waste``.  A move is a ``(src, dst)`` pair of stack codes:
column ``i >= 0``, ``STOCK``, ``WASTE``, ``ROW`` (one card to every column),
``COMMIT`` (see below) or ``FOUND + f`` for foundation ``f``.

Decisions (the main dominance).  Say a card ``c`` is available and
foundation ``f`` takes it now.  If some win plays ``c`` to ``f`` later, the
same win with ``c`` played to ``f`` at once also wins: ``f`` takes nothing
else meanwhile (it is waiting for this card), and the stack ``c`` leaves only
loses a card.  So there are two cases only: ``c`` goes to ``f`` now, or
``c`` never goes to ``f``.  The search decides at once, and the second case
marks the card "never to f's row" (bit ``6 + row`` of the card's value in
the column).  With the decision made, no interleaving of a pending
foundation play with other moves is ever searched twice.
"""

from __future__ import annotations

from typing import Any

from ... import cards, positions
from ...deal import Deal
from ...layout import Layout, Reads
from ...positions import Snapshot
from .pairing import pairing_horizon
from .rules import foundation_sequences
from .timed import timed_horizon

# The rules this position plays; any other rule value is refused (``Reads``).
READS = Reads("the debutante family's DFS position", {
    "decks": None, "foundations.rows": lambda rows: all(base != 0 for base, _ in rows), "foundations.preset": None,
    "reserve.count": None, "reserve.capacity": None, "reserve.access": None,
    "reserve.accepts": {"any", "suit-sequence"}, "reserve.deal": None, "reserve.fill": None, "reserve.gaps": None,
    "stock.turn": {"place", "waste", "deal-row", "none"}, "stock.deal_count": None, "stock.redeals": None,
    "stock.waste_capacity": None, "stock.top_playable": None, "stock.batch": None,
}, together=(
    (lambda lay: lay.stock.turn == "waste" or (lay.stock.deal_count == 1 and lay.stock.redeals == 0
                                                and not lay.stock.waste_capacity),
     "stock.deal_count, stock.redeals and stock.waste_capacity only with stock.turn = 'waste'"),
    (lambda lay: lay.stock.turn == "place" or not (lay.stock.top_playable or lay.stock.batch),
     "stock.top_playable and stock.batch only with stock.turn = 'place' (where the pack's top card plays)"),
))

STOCK, WASTE, ROW, COMMIT, FOUND = -1, -2, -3, -4, 1000
NEVER = 10**6
INERT = 255  # a card that ``learned_key`` leaves out
ALL_LINES = 255  # a horizon no line gets past: a position with a buried card (``learned_key``)
# The timed copy count costs a hundred times the other bounds and cuts few positions deep in a
# search (measured: 4% of them on debutante 55, where every position is tight), so it runs only
# near the deal: within TIMED_PLY moves of it, where the counts leave at most TIMED_ROOM room.
TIMED_ROOM = 2
TIMED_PLY = 8
# The pairing bound (``pairing.py``) costs a generous game per copy it holds (0.1 to 0.5 s in
# Python): at the deal only, where the counts leave at most PAIR_ROOM room.  Deeper in the search
# it cut 8 positions of 226 it was asked about on debutante 58 at 115 s, and decided nothing.
PAIR_ROOM = 1
PAIR_PLY = 0
Move = tuple[int, int]

# What ``is_dead`` names, in order (the compiled position reports these by number).
BURIED_DEAD = "buried card: a card can leave its column only after a card it must follow"
COUNTING_DEAD = ("counting bound: the forty-first card rule; even a generous play-out of the rest of the pack "
                 "fails")
COPIES_DEAD = ("copy count: the forty-first card rule with each copy of a card serving one foundation; the "
               "most cards the foundations can hold at some turn leave more cards out than the columns hold")
TIMED_DEAD = ("timed copy count: the forty-first card rule with each copy given one foundation for the whole "
              "game and the earliest time it can go there")
PAIRING_DEAD = ("pairing bound: the forty-first card rule with the columns' order; at a tight turn too few of "
                "the cards out can share a column, the one leaving first able to leave while the other waits")
DEAD_REASONS = (BURIED_DEAD, COUNTING_DEAD, COPIES_DEAD, TIMED_DEAD, PAIRING_DEAD)


class ReservePosition:
    def __init__(self, layout: Layout, deal: Deal | Snapshot, *, dominance: bool = True):
        """The position at ``deal``: a deal (the position at move 0) or a ``Snapshot`` part-way
        through a game (cards on the waste and the foundations, redeals spent, a batch open)."""
        READS.check(layout)
        at = positions.of(layout, deal)
        stacks = at.stacks
        r, s, fnd = layout.reserve, layout.stock, layout.foundations
        self.layout = layout
        self.ncols = r.count
        self.capacity = r.capacity or NEVER
        self.fifo = r.access == "first"
        self.suit_sequence = r.accepts == "suit-sequence"
        self.refill = r.fill == "immediate"
        self.gaps_any_top = r.gaps == "any-top"
        self.turn = s.turn
        self.deal_count = s.deal_count
        self.batch_size = s.batch
        # Columns are interchangeable unless the pack deals to them in order.
        self.interchangeable = s.turn != "deal-row"
        self.waste_capacity = s.waste_capacity or NEVER
        self.slots = None if r.capacity == 0 else r.capacity * r.count
        # The foundations hold exactly the pack (one row per pack): every one must be finished.
        self.exact = len(fnd.rows) == layout.decks

        # Foundation f takes the cards seq[f] in order (row f // 4, suit f % 4).
        nf = self.nf = fnd.count
        self.seq: list[list[int]] = [list(s) for s in foundation_sequences(layout)]  # rules.py
        # Tables are indexed by a card's value: card | marks << 6.
        self.where = [[NEVER] * 256 for _ in range(nf)]  # place in f's order
        for f in range(nf):
            for i, c in enumerate(self.seq[f]):
                for marks in range(4):
                    self.where[f][c | marks << 6] = i
        self.fdests: list[tuple[int, ...]] = [
            tuple(f for f in range(nf) if self.where[f][v] < NEVER and not (v >> (6 + f // 4)) & 1)
            for v in range(256)
        ]
        # The decision dominance needs room for the marks (two rows), and fails
        # when an emptied column is refilled at once: playing a card early then
        # changes which column the next pack card goes to; nor with batches of
        # placements (Sly Fox), whose count a pack card played at once would
        # change.  Tests comparing searches with and without it found both.
        self.dominance = dominance and len(fnd.rows) <= 2 and not self.refill and not s.batch
        # For column (and waste) cards alone the decision stays sound with
        # batches: a column card played to a foundation does not count in a
        # batch, and columns play only between batches.  So Sly Fox keeps it
        # for its columns, though not for its pack cards.  With immediate
        # refills (Twenty) it holds for a card with another card under it
        # (``_decides``): playing it early leaves the column what the later
        # play would have left, and the cards under it stay until then, so no
        # column empties at another moment and no refill changes.
        self.column_dominance = dominance and len(fnd.rows) <= 2 and not (self.refill and self.fifo)

        self.h = [len(stacks.get(f"foundation:{f}", ())) for f in range(nf)]
        self.need = [self._need_of(f) for f in range(nf)]
        self.total = sum(len(v) for v in stacks.values())
        self.placed = sum(self.h)
        self.rem = [0] * 64  # copies of each card not yet on a foundation
        for stack, cs in stacks.items():
            if not stack.startswith("foundation"):
                for c in cs:
                    self.rem[c] += 1
        self.cols = [list(stacks.get(f"reserve:{i}", ())) for i in range(self.ncols)]
        self.stock = list(reversed(stacks.get("stock", ())))  # end = next card to turn
        self.waste: list[int] = list(stacks.get("waste", ()))  # end = its top card
        self.redeals_left = (at.redeals_left if at.redeals_left is not None
                             else s.redeals if s.redeals >= 0 else NEVER)
        # With unlimited redeals how many are left does not matter for play: the key leaves it
        # out, or every redeal would look like a new position and the search never end.
        self.unlimited_redeals = s.redeals < 0
        self.batch_left = at.batch_left
        # Learning (``learned_key``): every turned card placed at once, on columns of limited
        # size and taking any card, which cards leave only to the foundations.
        # The copy count and the timed copy count (``strong_bounds``): the DFS engine's first search,
        # without learning, runs without them too (``dfs.run_dfs``).
        self.strong_bounds = True
        self.learns = (s.turn == "place" and r.capacity in (1, 2) and not s.batch and not self.refill
                       and not self.gaps_any_top and not self.suit_sequence)
        self.horizons = (0, 0)  # set by ``is_dead``: the claims of each kind (``learned_key``)
        self.room = 0  # set by ``_relaxed_play``: the counts' least room over the turns
        # The timed copy count (``timed.py``): two rows holding the two packs, every turned card
        # placed at once on columns of limited size.
        self.timed = (len(fnd.rows) == 2 == layout.decks and s.turn == "place" and self.slots is not None
                      and not s.batch and not self.refill and not self.gaps_any_top)
        # The pairing bound (``pairing.py``): the same, on columns of two taking any card.
        self.pairs = self.timed and r.capacity == 2 and not self.suit_sequence
        self.history: list[Move] = []
        self._undo: list[Any] = []

    # ------------------------------------------------------------ helpers

    def _need_of(self, f: int) -> int:
        seq = self.seq[f]
        return seq[self.h[f]] if self.h[f] < len(seq) else -1

    def _top(self, col: list[int]) -> int:
        return col[0] if self.fifo else col[-1]

    def _accepting(self, v: int) -> list[int]:
        c = v & 63
        return [f for f in self.fdests[v] if self.need[f] == c]

    def _open(self, v: int) -> list[int]:
        """The foundations that may still take ``v``'s card some day."""
        h, where = self.h, self.where
        return [f for f in self.fdests[v] if where[f][v] >= h[f]]

    def _marks(self, foundations: list[int]) -> int:
        return sum(1 << (6 + f // 4) for f in foundations)

    def _takes(self, col: list[int], card: int) -> bool:
        if len(col) >= self.capacity:
            return False
        if self.suit_sequence and col:
            last = col[-1] & 63
            return cards.suit(last) == cards.suit(card) and abs(cards.rank(last) - cards.rank(card)) == 1
        return True

    def _offered(self) -> tuple[int, int | None]:
        """The pack's card that may be played now, and the stack it comes from."""
        if self.turn == "place" and self.stock:
            return STOCK, self.stock[-1]
        if self.turn == "waste" and self.waste:
            return WASTE, self.waste[-1]
        return STOCK, None

    def _pending_refill(self) -> Move | None:
        if self.refill and self.stock:
            for j, col in enumerate(self.cols):
                if not col:
                    return (STOCK, j)
        return None

    def _decides(self, col: list[int]) -> bool:
        """Whether the decision dominance covers the top card of ``col``."""
        return len(col) > 1 or (bool(col) and not (self.refill and self.stock))

    def _decision(self) -> list[Move] | None:
        """The options of the first available card that a foundation takes now: with learning,
        the one of least value (the first such column for equal values: the choice then depends
        on the cards, not on where the columns stand, as ``learned_key`` needs).

        The card goes to such a foundation now, or (``COMMIT``) is marked
        never to go to any of them.  See the module docstring for why.
        """
        if self.batch_left:
            return None
        available = [(i, col[0] if self.fifo else col[-1]) for i, col in enumerate(self.cols) if self._decides(col)]
        if self.turn == "waste" and self.waste:
            available.append((WASTE, self.waste[-1]))
        best: tuple[int, int] | None = None
        for src, v in available:
            if (best is None or v < best[1]) and self._accepting(v):
                best = (src, v)
                if not self.learns:
                    break
        if best is None:
            return None
        src, v = best
        acc = self._accepting(v)
        moves = [(src, FOUND + f) for f in acc]
        if len(self._open(v)) > len(acc):
            moves.append((src, COMMIT))
        return moves

    # ------------------------------------------------------- the interface

    def is_won(self) -> bool:
        return self.placed == self.total

    def legal_moves(self) -> list[Move]:
        refill = self._pending_refill()
        if refill is not None:
            return [refill]
        if self.column_dominance:
            decision = self._decision()
            if decision is not None:
                return decision
        found_moves: list[Move] = []
        other: list[Move] = []
        if self.batch_left == 0:
            seen: set[tuple[Any, ...]] = set()  # identical columns: try one of them
            for i, col in enumerate(self.cols):
                if col and not (self.column_dominance and self._decides(col)):
                    for f in self._accepting(self._top(col)):
                        t = (f, *col)
                        if t not in seen:
                            seen.add(t)
                            found_moves.append((i, FOUND + f))
        src, v = self._offered()
        if v is not None:
            acc = self._accepting(v)
            found_moves.extend((src, FOUND + f) for f in acc)
            # With the dominance, a card some foundation takes now is placed
            # only if another foundation may still take it later.
            placeable = not (self.dominance and acc and len(self._open(v)) == len(acc))
            if placeable and self.turn in ("place", "waste"):
                other.extend((src, i) for i in self._placements(v))
        if self.turn == "waste":
            # a turn may not leave more cards on the waste than it holds
            if self.stock and len(self.waste) + min(self.deal_count, len(self.stock)) <= self.waste_capacity:
                other.append((STOCK, WASTE))
            elif not self.stock and self.waste and self.redeals_left > 0:
                other.append((WASTE, STOCK))
        elif self.turn == "deal-row" and self.stock:
            other.append((STOCK, ROW))
        if self.gaps_any_top and not self.stock:
            other.extend(self._gap_moves())
        return found_moves + other

    def _placements(self, v: int) -> list[int]:
        """Columns that may take ``v``, one per distinct column, best first."""
        seen: set[tuple[int, ...]] = set()
        scored = []
        for i, col in enumerate(self.cols):
            if not self._takes(col, v & 63):
                continue
            t = tuple(col)
            if t in seen:
                continue
            seen.add(t)
            scored.append((self._placement_score(col, v), i))
        scored.sort()
        return [i for _, i in scored]

    def _urgency(self, v: int) -> int:
        """How many cards a foundation still needs before it can take ``v``."""
        h, where = self.h, self.where
        return min((where[f][v] - h[f] for f in self.fdests[v] if where[f][v] >= h[f]), default=99)

    def _placement_score(self, col: list[int], v: int) -> int:
        """Lower is tried first.  Measured on Colorado and debutante seeds
        1..20 (3000 nodes each) against best-fit and empty-first orders:
        first, on a card needed later than this one (nothing is blocked),
        the more slack the better; then an empty column; then on a card
        needed sooner, the larger the gap first.  With batches, see
        ``_batch_placement_score``."""
        if self.batch_size and not self.fifo:
            return self._batch_placement_score(col, v)
        if not col:
            return 50
        below = col[0] if self.fifo else col[-1]
        first, then = (below, v) if self.fifo else (v, below)
        u_first, u_then = self._urgency(first), self._urgency(then)
        return (30 - (u_then - u_first)) if u_first < u_then else 100 - (u_first - u_then)

    def _batch_placement_score(self, col: list[int], v: int) -> int:
        """``_placement_score`` with batches (Sly Fox): best fit against the column's deadline.

        A batch's cards are all placed before any column plays, as in patience sorting,
        where putting each card on the pile it fits most tightly keeps the loose piles for
        the cards still to come.  A column's deadline is its most urgent card, counting one
        more for each card above it (they must go first); a card's urgency is that of
        ``_copy_urgency``.  First, on a column whose deadline is later than the card's
        urgency, the less slack the better; then an empty column; then on a column needed
        sooner, the smaller the gap first.  Measured on Sly Fox seeds 1..600 at 200,000
        nodes: 591 won; 561 with the column's top card for its deadline and ``_urgency``
        for urgency; with the order ``_placement_score`` gives the other layouts, 140 of
        seeds 1..300.
        """
        if not col:
            return 50
        n = len(col)
        first = self._copy_urgency(v, None)
        deadline = min(self._copy_urgency(col[k], col) + (n - 1 - k) for k in range(n))
        return 10 + (deadline - first) if first < deadline else 100 + (first - deadline)

    def _copy_urgency(self, v: int, col: list[int] | None) -> int:
        """``_urgency``, but the farther of two foundations when another copy of the card
        is the top card of a column other than ``col``: that copy can serve the nearer one
        (a column stack's top card is its last; used with batches only)."""
        h, where = self.h, self.where
        dists = sorted(where[f][v] - h[f] for f in self.fdests[v] if where[f][v] >= h[f])
        if not dists:
            return 99
        c = v & 63
        if len(dists) > 1 and any(other and other[-1] & 63 == c for other in self.cols if other is not col):
            return dists[1]
        return dists[0]

    def _gap_moves(self) -> list[Move]:
        empty = next((j for j, col in enumerate(self.cols) if not col), None)
        if empty is None:
            return []
        return [(i, empty) for i, col in enumerate(self.cols) if len(col) > 1]

    def forced_move(self) -> Move | None:
        refill = self._pending_refill()
        if refill is not None:
            return refill
        if self.column_dominance:
            decision = self._decision()
            if decision is not None and len(decision) == 1:
                return decision[0]
        return None

    def push(self, move: Move) -> None:
        src, dst = move
        undo: Any = self.batch_left
        if dst == ROW:
            n = min(self.ncols, len(self.stock))
            for j in range(n):
                self.cols[j].append(self.stock.pop())
            undo = n
        elif src == WASTE and dst == STOCK:
            self.stock = self.waste[::-1]
            self.waste = []
            self.redeals_left -= 1
        elif src == STOCK and dst == WASTE:
            n = min(self.deal_count, len(self.stock))
            for _ in range(n):
                self.waste.append(self.stock.pop())
            undo = n
        elif dst == COMMIT:
            pile = self.cols[src] if src >= 0 else self.waste
            at = 0 if (src >= 0 and self.fifo) else -1
            v = pile[at]
            pile[at] = v | self._marks(self._accepting(v))
            undo = v
        else:
            if src >= 0:
                col = self.cols[src]
                v = col.pop(0) if self.fifo else col.pop()
            elif src == STOCK:
                v = self.stock.pop()
            else:
                v = self.waste.pop()
            if dst >= FOUND:
                f = dst - FOUND
                self.h[f] += 1
                self.need[f] = self._need_of(f)
                self.placed += 1
                self.rem[v & 63] -= 1
            else:
                # A pack card that a foundation takes now but is placed
                # instead will never go to that foundation (the dominance).
                placed = v | self._marks(self._accepting(v)) if self.dominance else v
                self.cols[dst].append(placed)
                if self.batch_size and src == STOCK:
                    self.batch_left = (self.batch_left or self.batch_size) - 1
                    if not self.stock:
                        self.batch_left = 0
            undo = (undo, v)
        self.history.append(move)
        self._undo.append(undo)

    def pop(self) -> Move:
        move = self.history.pop()
        undo = self._undo.pop()
        src, dst = move
        if dst == ROW:
            for j in reversed(range(undo)):
                self.stock.append(self.cols[j].pop())
        elif src == WASTE and dst == STOCK:
            self.waste = self.stock[::-1]
            self.stock = []
            self.redeals_left += 1
        elif src == STOCK and dst == WASTE:
            for _ in range(undo):
                self.stock.append(self.waste.pop())
        elif dst == COMMIT:
            pile = self.cols[src] if src >= 0 else self.waste
            pile[0 if (src >= 0 and self.fifo) else -1] = undo
        else:
            self.batch_left, v = undo
            if dst >= FOUND:
                f = dst - FOUND
                self.h[f] -= 1
                self.need[f] = self._need_of(f)
                self.placed -= 1
                self.rem[v & 63] += 1
            else:
                self.cols[dst].pop()
            if src >= 0:
                if self.fifo:
                    self.cols[src].insert(0, v)
                else:
                    self.cols[src].append(v)
            elif src == STOCK:
                self.stock.append(v)
            else:
                self.waste.append(v)
        return move

    def key(self) -> Any:
        cols = [bytes(c) for c in self.cols]
        if self.interchangeable or not self.stock:
            cols.sort()
        k: tuple[Any, ...] = (bytes(self.h), b"|".join(cols))
        if self.turn == "waste":
            k += (bytes(self.stock), bytes(self.waste), -1 if self.unlimited_redeals else self.redeals_left)
        elif self.turn != "place":
            k += (len(self.stock),)
        if self.batch_size:
            k += (self.batch_left,)
        return k

    def move_json(self, move: Move) -> dict[str, Any] | None:
        """The move in the result contract; ``None`` for a ``COMMIT``, which
        is a decision of the search and not a move of the game."""
        src, dst = move
        if dst == COMMIT:
            return None
        if dst == ROW:
            n = min(self.ncols, len(self.stock))
            return {"card": cards.name(self.stock[-1] & 63), "from": "stock", "to": "reserve", "count": n}
        if src == WASTE and dst == STOCK:
            return {"card": cards.name(self.waste[0] & 63), "from": "waste", "to": "stock",
                    "count": len(self.waste)}
        if src >= 0:
            v = self._top(self.cols[src])
        elif src == STOCK:
            v = self.stock[-1]
        else:
            v = self.waste[-1]
        out: dict[str, Any] = {"card": cards.name(v & 63), "from": _name(src), "to": _name(dst)}
        if src == STOCK and dst == WASTE and self.deal_count > 1:
            out["count"] = min(self.deal_count, len(self.stock))
        return out

    # ------------------------------------------------------------- learning

    def clock(self) -> int:
        """The stock's length: play turns it down, one card at a time."""
        return len(self.stock)

    def stuck_horizon(self) -> int:
        """With no legal move and the stock not empty, its next card can be neither placed nor
        played: no line gets past this stock length."""
        return len(self.stock)

    def learned_key(self, kind: int, horizon: int) -> Any:
        """What the claim of ``kind`` at ``horizon`` rests on (``solver.engines.dfs``, "Learning").

        A line *gets past* L when it turns the pack's card ``stock[L - 1]`` and places or plays it.
        The claims at horizon L (kind 0 implies kind 1; either makes the position lost, since a win
        turns every card and the search's tree holds a win if there is one):

        - kind 0: no line of play from here gets past L;
        - kind 1: every line of the search's tree from here buries a card (``_buried``: then it is
          lost) or gets stuck before it gets past L.

        The key.  Run the generous game of ``_relaxed_play`` from here through the turns down to
        stock length L (cards ``stock[L:]``).  A column card is *inert* if no foundation that may
        take it is then past its card: no real line plays it before getting past L, since every
        foundation is then at most as far as in the generous game.  Kind 0 hides the inert cards.
        Kind 1 hides fewer: a card is *shown* if a foundation that takes its card, marks aside,
        is then past it (so no copy of it is played before L otherwise), or it is the last copy of
        its card off the foundations, or it leaves its column before a shown card; in a queue
        (``access = "first"``) also the column's first inert card in the order they leave; the
        others are hidden.  The key is the stock's length, the foundation heights, and the columns
        as a multiset with each hidden card written ``INERT`` (the others keep their values, marks
        included).

        Proof that positions with equal keys share the claim.  Say P has it and Q has P's key.
        Both hold the same stock and foundations, hence the same cards out and the same hidden
        cards as a multiset, in columns matched by their symbols.  Take a line from Q that gets
        past L (of kind 1: a line of Q's tree that buries no card), up to that turn, and play the
        same moves from P on the matched columns.  Hidden cards never move in it (they are inert,
        and cards leave columns only to foundations), so at each step the two positions differ
        only in which hidden card lies where, and the same moves are legal: a move involves
        shown cards or the pack's, and columns of the same length take any card.  So P has a line
        that gets past L: for kind 0, a contradiction.  For kind 1, also:

        - the search's tree offers the same moves: decisions take the available card of least
          value that a foundation takes now, which is never hidden, and equal columns are one
          column either way;
        - neither has a buried card or both.  A buried card y leaves before a card z that is the
          last copy of its card off the foundations (columns hold two cards at most).  Either z
          was in a column here: z is then shown (a card only becomes a last copy when its other
          copy is played, which shows it), and y, leaving before z, is shown too.  Or z is a pack
          card put behind y: in a stack it goes on top, so there y is the pack card and z a
          column's card, as before; in a queue y is the first card left in a column with room,
          every card before it having gone to a foundation (so not inert): y is shown.  The pack's
          cards are the same in both.

        So P's tree has a line that gets past L without burying a card: a contradiction.

        The search stores a claim for a position whose tree it has searched to the end, from its
        children's.  Kind 0: the tree keeps, of all lines, one that gets as far (the decision
        dominance moves a play to a foundation earlier, or keeps a line that never makes it; a
        pack card placed where no foundation could ever take it instead goes to one now, which
        changes no later move; equal columns are one column).  A child cut by the counting bounds
        claims the turn whose count fails, which no line survives (both kinds); one with no legal
        move, its stock length (both); one with a buried card claims nothing of kind 0 and kind 1
        at every horizon (``ALL_LINES``); the end-of-game bounds claim nothing (0).
        """
        game = _Generous(self, False)
        stock = self.stock
        for t in range(len(stock) - 1, min(horizon, len(stock)) - 1, -1):
            game.turn(stock[t])
        hh, where, fdests, rem = game.hh, self.where, self.fdests, self.rem
        cols = []
        for col in self.cols:
            order = col if self.fifo else col[::-1]  # the order cards leave in
            if kind == 0:
                shown = [_passed(hh, where, fdests, v) for v in order]
            else:
                own = [rem[v & 63] == 1 or _passed(hh, where, fdests, v & 63) for v in order]
                if self.fifo and not all(own):
                    own[own.index(False)] = True  # the front card once those before it have left
                shown = [any(own[k:]) for k in range(len(order))]  # leaves before a shown card
            out = [v if sh else INERT for v, sh in zip(order, shown)]
            cols.append(bytes(out if self.fifo else out[::-1]))
        return (len(stock), bytes(self.h), b"|".join(sorted(cols)))

    # --------------------------------------------------------------- bounds

    def is_dead(self) -> str | None:
        """The bound that proves no win is reachable (the methods below), or None."""
        self.horizons = (0, 0)
        if self.gaps_any_top and self._gap_may_open():
            return None  # both bounds below assume cards leave columns only to foundations
        if self._buried():
            self.horizons = (0, ALL_LINES)  # the claims of ``learned_key``: every line is buried
            return BURIED_DEAD
        why = self._relaxed_play()
        if (why is None and self.timed and self.strong_bounds and len(self.history) <= TIMED_PLY
                and self.room <= TIMED_ROOM and (horizon := timed_horizon(self))):
            self.horizons = (horizon, horizon)
            return TIMED_DEAD
        if (why is None and self.pairs and self.strong_bounds and len(self.history) <= PAIR_PLY
                and self.room <= PAIR_ROOM and (horizon := pairing_horizon(self))):
            self.horizons = (horizon, horizon) if horizon > 0 else (0, 0)
            return PAIRING_DEAD
        return why

    def generous(self, held: tuple[int, int, int] | None) -> _Generous:
        """The counting generous game made here, with the copy count; ``held`` as ``_Generous``'s
        (``pairing.py`` plays it turn by turn)."""
        return _Generous(self, True, held)

    def slack(self) -> int | None:
        """The counting bounds' room at their tightest turn: the columns' places minus the cards out
        (the fewer the copy count allows), least over the turns of ``_relaxed_play``'s generous
        game (negative: the bound cuts here).  None where the bound counts no places (columns of
        any height, a waste, batches) or may not prune (a gap may open).  Reported for unknowns;
        never used to prune."""
        if self.slots is None or self.turn != "place" or self.batch_size:
            return None
        if self.gaps_any_top and self._gap_may_open():
            return None
        room = [self.slots]
        self._relaxed_play(room)
        return room[0]

    def _relaxed_play(self, room: list[int] | None = None) -> str | None:
        """Play a generous version of the rest of the game; if even it fails, so does the deal.

        The generous game: every pack card is available from its turn on
        (it never needs a place and never covers anything); one copy of a
        card may serve both foundations that want it; a column card leaves
        as soon as a foundation that may take it, and had not taken its card
        at the position, has taken its card (a foundation past the card at the
        position took another copy: each takes one copy).  Each
        foundation is then at least as far on, at every turn, as in any real
        play (playing a card in the generous game never hurts, so playing
        every playable card at once is its best play), and every card a real
        play has freed by a turn is free by then in the generous game too (the
        cards above it have gone to foundations that had not taken their cards
        at the position, which the generous game has then taken past them too).
        So:

        - if a foundation cannot be finished even so, the deal is lost, when
          the foundations hold exactly the pack (one row per pack: every one
          must be finished to win); with more foundation places than cards
          (two rows, one pack), if some card left is passed by no foundation
          that may take it, that card can never be played, and the deal is
          lost (a real win plays it to a foundation, which the generous game
          has then taken past it too);
        - with columns of limited size and every turned card placed at once,
          the cards out at each turn must fit in the columns' places, or it
          is lost (``COUNTING_DEAD``).  Cards out = cards seen (in columns, or
          turned so far) minus those that can have left.  A copy leaves only to a
          foundation, one copy per foundation, so the copies of a card that
          can have left number at most the copies seen and at most the
          foundations the generous game has taken past that card since now
          (a copy marked for one row only is counted as free to go to
          either, which is generous, so still sound): the second copy of a
          card stays out until its other foundation gets there too.
        - the same count with the copies kept apart (``_copy_count``, for two
          rows of foundations: ``COPIES_DEAD``): at each turn, at most
          ``_copy_count`` cards can have gone to the foundations since now,
          however the copies free by then (in the generous game, so at least
          every copy free in a real play) are shared out between a suit's two
          foundations, each copy serving one foundation that it may go to; the
          cards seen minus that many must fit in the columns' places.  With the
          foundations holding exactly the pack, the copies free at the end must
          also be able to finish every foundation.

        With ``room`` (``slack``), ``room[0]`` becomes the least room left over the turns, and the
        play goes on past a turn that overflows.
        """
        check_room = self.slots is not None and self.turn == "place" and not self.batch_size
        game = _Generous(self, check_room)
        slots = self.slots or 0
        stock = self.stock
        least = slots  # the least room over the turns
        for t in range(len(stock) - 1, -1, -1):
            game.turn(stock[t])  # marked if it was committed in the waste before a redeal
            if check_room:
                out = game.seen - game.gone
                if out > slots and room is None:
                    self.horizons = (t + 1, t + 1)
                    return COUNTING_DEAD
                if game.copies is not None:
                    out = max(out, game.seen - game.copies.most())
                    if out > slots and room is None:
                        self.horizons = (t + 1, t + 1)
                        return COPIES_DEAD
                least = min(least, slots - out)
        self.room = least
        if room is not None:
            room[0] = least
        if self.exact:
            if any(k >= 0 for k in game.need):
                return COUNTING_DEAD
            if game.copies is not None and game.copies.most() < self.total - self.placed:
                return COPIES_DEAD
            return None
        hh, where, fdests = game.hh, self.where, self.fdests
        left = [v for col in self.cols for v in col] + self.waste + stock
        return COUNTING_DEAD if any(all(where[f][v] >= hh[f] for f in fdests[v]) for v in left) else None

    def _buried(self) -> bool:
        """A card that can leave its column only after a card it must follow.

        In a column, card y leaves before the cards behind it.  If every
        foundation that may still take y needs first a card of which every
        copy not yet on a foundation is behind y in that column, y can never
        leave, and the deal is lost.
        """
        rem, where, h = self.rem, self.where, self.h
        for col in self.cols:
            if len(col) < 2:
                continue
            order = col if self.fifo else col[::-1]  # the order cards can leave in
            for j in range(len(order) - 1):
                y = order[j]
                behind = [v & 63 for v in order[j + 1:]]
                stuck = True
                for f in self.fdests[y]:
                    wy = where[f][y]
                    if wy < h[f]:
                        continue  # f is already past y's card
                    seq = self.seq[f]
                    if not any(behind.count(seq[i]) >= rem[seq[i]] for i in range(h[f], wy)
                               if seq[i] in behind):
                        stuck = False
                        break
                if stuck:
                    return True
        return False

    def _gap_may_open(self) -> bool:
        """Whether a gap may ever open: an empty column while the pack is empty, which
        (``reserve.gaps = "any-top"``, Twenty) takes any top card of another column.

        ``_buried`` and ``_relaxed_play`` assume that a card leaves its column only to a
        foundation, so that a column's cards leave top first; a move into a gap breaks
        that (a card can be set aside to dig out the one under it), so they may prune only
        where no gap can ever open.  A gap move needs an empty column; before the first
        gap move every card leaves its column to a foundation, in order, so the first empty
        column (unless one is empty now) is emptied that way: all its present cards go to
        foundations, top first (cards put on it later only add to what must go).  The
        generous game of ``_relaxed_play`` (every pack card free from its turn, a column
        card free to leave once a foundation that may take it has passed its card) lets
        every column card leave that a real play without gap moves lets leave.  So if,
        played to the end, the generous game leaves a card in every column, no column
        is ever emptied, no gap move is ever made, and the two bounds hold as proved.
        This is that play, without the turns (only its end counts): True if some column
        is empty now or empties in it.
        """
        seq, where, fdests, nf = self.seq, self.where, self.fdests, self.nf
        cols, fifo = self.cols, self.fifo
        left = [len(col) for col in cols]
        if 0 in left:
            return True
        hh = self.h[:]
        can = [bytearray(64) for _ in range(nf)]  # cards foundation f may be given

        def offer(v: int) -> None:
            for f in fdests[v]:
                can[f][v & 63] = 1

        def top(i: int) -> int:
            col = cols[i]
            return col[len(col) - left[i]] if fifo else col[left[i] - 1]

        for v in self.stock:
            offer(v)
        for v in self.waste:
            offer(v)
        for i in range(len(cols)):
            offer(top(i))
        moved = True
        while moved:
            moved = False
            for f in range(nf):
                s = seq[f]
                while hh[f] < len(s) and can[f][s[hh[f]]]:
                    hh[f] += 1
                    moved = True
            for i in range(len(cols)):
                while _passed(hh, where, fdests, top(i)):
                    left[i] -= 1  # a foundation passed its card: it may have left
                    moved = True
                    if not left[i]:
                        return True
                    offer(top(i))
        return False


class _Generous:
    """The generous game of ``_relaxed_play`` (its docstring has the rules and the proof), step by
    step: made at the position (its columns exposed, its waste offered, the foundations settled),
    then ``turn(v)`` for each pack card in turn order.  ``hh`` and ``need`` are the foundations
    of the generous game; with ``count``, ``seen`` and ``gone`` the cards seen and the most that
    can have left, and ``copies`` the copy count (two rows of foundations) or None.

    The order of the steps matters (a column card is let go when any foundation takes its card,
    in ``settle``, but when exposed only if a foundation it may go to is past it, in ``expose``),
    and the compiled twin keeps it exactly.
    """

    def __init__(self, pos: ReservePosition, count: bool, held: tuple[int, int, int] | None = None):
        self.pos = pos
        self.count = count
        # ``held`` (``pairing.py``): a copy that never leaves, (column, depth, 0) for a column's card
        # (depth 0 leaves first) or (-1, 0, turn) for the pack's card turned at step ``turn`` from 1;
        # it is never offered, so nothing under it in its column is exposed either.
        self.held_col = self.held_left = self.held_turn = -1
        if held is not None:
            at, depth, turn = held
            self.held_col, self.held_turn = at, turn if at < 0 else -1
            self.held_left = len(pos.cols[at]) - depth if at >= 0 else -1
        self.turns = 0
        self.hh = pos.h[:]
        self.need = pos.need[:]
        self.can = [bytearray(64) for _ in range(pos.nf)]  # cards foundation f could take by now
        self.left = [len(col) for col in pos.cols]  # cards still in each column (for exposure)
        self.by_card: dict[int, list[int]] = {}  # card -> columns showing it
        self.todo: list[int] = []  # foundations that may move on
        self.seen = 0  # copies seen: in columns, or turned so far
        self.gone = 0  # most copies that can have left, summed over cards
        self.seen_of = [0] * 64  # copies of each card seen
        self.passed = [0] * 64  # foundations taken past each card since now
        self.copies = _CopyCount(pos) if pos.nf == 8 and pos.strong_bounds else None
        if count:
            for col in pos.cols:
                for v in col:
                    self._see(v & 63)
        for i in range(len(pos.cols)):
            self._expose(i)
        for v in pos.waste:
            self._offer(v & 63, v)
        self._settle()

    def turn(self, v: int) -> None:
        """The pack's next card ``v`` is turned."""
        c = v & 63
        self.turns += 1
        if self.turns != self.held_turn:
            self._offer(c, v)
        if self.count:
            self._see(c)
        self._settle()

    def _see(self, c: int) -> None:
        self.seen += 1
        self.seen_of[c] += 1
        if self.seen_of[c] <= self.passed[c]:
            self.gone += 1

    def _offer(self, c: int, v: int) -> None:
        if self.copies is not None:
            self.copies.free(v)
        for f in self.pos.fdests[v]:
            if not self.can[f][c]:
                self.can[f][c] = 1
                if self.need[f] == c:
                    self.todo.append(f)

    def _expose(self, i: int) -> None:
        pos, left = self.pos, self.left
        col = pos.cols[i]
        while left[i] and not (i == self.held_col and left[i] == self.held_left):
            v = col[len(col) - left[i]] if pos.fifo else col[left[i] - 1]
            c = v & 63
            self._offer(c, v)
            if _passed_open(self.hh, pos.h, pos.where, pos.fdests, v):
                left[i] -= 1  # a copy of its card was played already: let it go too
                continue
            self.by_card.setdefault(c, []).append(i)
            return

    def _settle(self) -> None:
        seq, hh, need = self.pos.seq, self.hh, self.need
        while self.todo:
            f = self.todo.pop()
            s, cf = seq[f], self.can[f]
            while need[f] >= 0 and cf[need[f]]:
                c = need[f]
                hh[f] += 1
                need[f] = s[hh[f]] if hh[f] < len(s) else -1
                self.passed[c] += 1
                if self.passed[c] <= self.seen_of[c]:
                    self.gone += 1
                for i in self.by_card.pop(c, ()):
                    self.left[i] -= 1
                    self._expose(i)


class _CopyCount:
    """The most cards that can go to the foundations from now on, copy by copy (``_relaxed_play``).

    For two rows of foundations: suit ``s`` has foundations ``s`` (row 0) and ``s + 4`` (row 1),
    each taking its next cards in order, one copy each.  ``free(v)`` makes one copy of value
    ``v``'s card free; a copy marked never to go to one row (bit ``6 + row``) may serve only the
    other.  ``most()`` is the sum over the suits of the largest ``a + b`` such that row 0's next
    ``a`` cards and row 1's next ``b`` cards can each be given a free copy that may go there, no
    copy given twice.  Each foundation's next cards are distinct cards, so a card is wanted at
    most once by each row; it is wanted by both exactly when it lies in both prefixes, and then
    needs two copies, one for each row.  Proof of the search below: for a fixed ``a`` the
    feasible ``b`` form a prefix (dropping a card of row 1's prefix frees nothing row 0 needs),
    and shortening row 0's prefix only frees copies, so the longest ``b`` grows as ``a``
    shrinks: one pass of ``a`` down from its longest and ``b`` up gives the maximum.  Row 0's
    cards take a copy that only row 0 may use when there is one, which leaves row 1 the most.
    """

    def __init__(self, pos: ReservePosition):
        self.pos = pos
        self.both = [0] * 64  # free copies that may go to either row
        self.only = ([0] * 64, [0] * 64)  # free copies that may go to row 0 only, row 1 only
        self.best = [0] * 4
        self.dirty = [False] * 4
        for s in range(4):
            self.best[s] = self._suit(s)

    def free(self, v: int) -> None:
        c, marks = v & 63, (v >> 6) & 3
        if marks == 0:
            self.both[c] += 1
        elif marks == 1:  # never to row 0
            self.only[1][c] += 1
        elif marks == 2:
            self.only[0][c] += 1
        else:
            return  # may go nowhere
        self.dirty[c & 3] = True

    def splits(self, s: int, spare: int) -> list[tuple[int, int]]:
        """Suit ``s``'s splits (a, b) within ``spare`` of its most: row 0's next ``a`` cards and
        row 1's next ``b`` each given a free copy (as ``_suit``), a + b >= the most - ``spare``;
        the feasible ``b`` for a given ``a`` form a prefix (``_suit``), so each ``a`` gives its
        longest and every shorter one."""
        longest = []
        a = 0
        while True:
            longest.append((a, self._longest_b(s, a)))
            pos, both, only0 = self.pos, self.both, self.only[0]
            c = pos.seq[s][pos.h[s] + a] if pos.h[s] + a < len(pos.seq[s]) else -1
            if c < 0 or not both[c] + only0[c]:
                break
            a += 1
        best = max(a + b for a, b in longest)
        return [(a, b) for a, top in longest for b in range(top + 1) if a + b >= best - spare]

    def _longest_b(self, s: int, a: int) -> int:
        """The longest prefix of row 1 given copies while row 0 takes its next ``a`` cards."""
        pos, both, only0, only1 = self.pos, self.both, self.only[0], self.only[1]
        seq1, h0, h1 = pos.seq[s + 4], pos.h[s], pos.h[s + 4]
        where0 = pos.where[s]
        b = 0
        while h1 + b < len(seq1):
            c = seq1[h1 + b]
            spare = both[c] + only1[c]
            if h0 <= where0[c] < h0 + a and not only0[c]:
                spare -= 1  # row 0 takes one of the copies either row may use
            if spare < 1:
                break
            b += 1
        return b

    def most(self) -> int:
        for s in range(4):
            if self.dirty[s]:
                self.dirty[s] = False
                self.best[s] = self._suit(s)
        return sum(self.best)

    def _suit(self, s: int) -> int:
        pos, both, only0, only1 = self.pos, self.both, self.only[0], self.only[1]
        seq0, seq1, h0, h1 = pos.seq[s], pos.seq[s + 4], pos.h[s], pos.h[s + 4]
        where0 = pos.where[s]
        a = 0
        while h0 + a < len(seq0) and both[seq0[h0 + a]] + only0[seq0[h0 + a]]:
            a += 1
        b = best = 0
        while True:
            while h1 + b < len(seq1):
                c = seq1[h1 + b]
                spare = both[c] + only1[c]
                if h0 <= where0[c] < h0 + a and not only0[c]:
                    spare -= 1  # row 0 takes one of the copies either row may use
                if spare < 1:
                    break
                b += 1
            best = max(best, a + b)
            if a == 0:
                return best
            a -= 1


def _passed_open(hh: list[int], h: list[int], where: list[list[int]], fdests: list[tuple[int, ...]],
                 v: int) -> bool:
    """Some foundation that may take value ``v`` and had not taken its card at heights ``h`` (the
    position's) stands past it at heights ``hh`` (the generous game's).  A foundation already past
    the card at the position took a copy that is not this one (a foundation takes one copy of each
    card), so only the others can take this copy."""
    return any(hh[f] > where[f][v] >= h[f] for f in fdests[v])


def _passed(hh: list[int], where: list[list[int]], fdests: list[tuple[int, ...]], v: int) -> bool:
    """Some foundation that may take value ``v`` stands past its card (heights ``hh``)."""
    return any(hh[f] > where[f][v] for f in fdests[v])


def _name(code: int) -> str:
    if code >= FOUND:
        return f"foundation:{code - FOUND}"
    if code >= 0:
        return f"reserve:{code}"
    return {STOCK: "stock", WASTE: "waste"}[code]
