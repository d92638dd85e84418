"""CP-SAT model of the debutante family: one model driven by the layout, not one per game.

Time
----
Time is counted in *instants* 0..H-1.  At one instant, in this order: a redeal
(if one is due), stock turns (in stock order, each turned card that goes straight
to a foundation going there at once), at most one card leaving the waste, then
the other foundation plays.  Every dependency between two events is a strict
inequality between instants, so plays that share an instant are independent
and may be made in any order.  Any real game fits (give every play, every move
out of the waste and every redeal an instant of its own, and each turn the
instant of the next such event), so the model loses no winning game; and every
solution of the model replays in the order above, which the extraction checks
and the referee checks again.

Variables (an *item* is one physical card: two packs give two items per card)
---------
- ``p[i]``: the instant item ``i`` goes to a foundation.  Each card value has one
  foundation slot per row (one row per pack): ``x[i, slot]`` says which copy goes
  to which row, and the slots of one foundation are played in build order.  A
  preset base card fills its slot before instant 0.
- ``t[k]``: the instant stock card ``k`` is turned (non-decreasing in ``k``).
- ``place`` layouts: each turned card goes straight to a foundation (``direct[k]``,
  then ``p = t``, played right after its turn) or onto a column.
- ``waste`` layouts: ``leave[k]``, the instant the card leaves the waste, to a
  foundation (``p = leave``) or to a column (``oncol[k]``, then ``p > leave``); the
  waste is a stack (for turned cards ``i < k``: if ``i`` is still on the waste
  when ``k`` is turned, ``k`` leaves first); each redeal turns the waste over, and
  the cards still on it are turned again in the same order.
- Columns, with no column numbers (so no symmetry between columns): a card that
  arrives on a column either starts an empty column (``root[k]``) or lies on the
  card then on top, its *parent* (``under[i, k]``).  ``access = "last"``: the parent
  is still there when the card arrives and leaves after it, and the stays of the
  children of one parent never overlap (a no-overlap constraint per parent), so
  the stays of the cards of one column nest or are disjoint.  ``access = "first"``
  (a queue): a card has at most one child, which leaves after it.  The number of
  non-empty columns never exceeds the column count (a cumulative over the roots,
  or over the oldest card of each queue), and the depth never exceeds the
  capacity.
- Batches (``stock.batch``, Sly Fox): each batch of placements is an interval
  of instants in which no column card plays (``_batches``).

The model is exact for every layout ``check_supported`` accepts: a ``lost`` is a
proof.  Redundant constraints and dominance rules (``FEATURES``) only remove
solutions that another solution of the model replaces; each was measured by the
feature study that ``benchmarks/cpsat.py --features`` ran (in the project's history).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from ortools.sat.python import cp_model

from ... import cards
from ...errors import UnsupportedError
from ...layout import Layout, Reads
from ...limits import Limits
from ..base import Solved
from ..cpsat import feature_flags, make_solver, run
from .rules import foundation_sequences

FEATURES = {
    # the total number of cards on columns never exceeds count x capacity (implied)
    "cumulative": True,
    # a turned card whose foundation predecessor is already up goes there at once
    # (moving that play earlier never hurts: it only frees the waste or a column;
    # not with batches, where placing it instead may end a batch sooner)
    "direct": True,
    # two columns dealt the same card are interchangeable: the one on the lower
    # column goes to its foundation no later than the other
    "twin_columns": True,
    # the children of one card as a chain (each child names the sibling before
    # it) instead of one no-overlap constraint per card: same solutions, cheaper
    # per branch but a much longer search (measured: off)
    "siblings": False,
    # the children of one card as a cumulative of capacity one rather than a
    # no-overlap constraint: same solutions, another propagator (measured: off)
    "children_cumulative": False,
    # solver settings: no LP relaxation, no probing in presolve, no precedence
    # reasoning inside the no-overlap constraints (all slower than they help here)
    "light_search": True,
    # ("place" layouts, columns of limited size) the counting argument, spelled out:
    # after turn k, the foundation places still empty number at most the column
    # places plus the cards left in the stock; one literal per (place, turn),
    # monotone along each foundation and along the stock
    "counting": True,
    # ("place" layouts, stacks) a greedy game, played before solving, given to
    # CP-SAT as a hint (as far as it gets): only the search changes
    "hint": True,
    # ("place" layouts) a column card goes to its foundation at the first instant
    # it can: right after the card before it on its foundation, the cards it waits
    # for on its column, or its own turn, whichever is last (it prunes, but finding
    # wins got slower: off)
    "asap": False,
}


# The rules this model is exact for; any other rule value is refused (``Reads``).
READS = Reads("the CP-SAT debutante-family model", {
    "decks": None, "foundations.rows": lambda rows: bool(rows) and all(r in ((1, 1), (13, -1)) for r in rows),
    "foundations.preset": None,
    "reserve.count": lambda n: n > 0, "reserve.capacity": None, "reserve.access": None, "reserve.accepts": {"any"},
    "reserve.deal": None,
    "stock.turn": {"place", "waste"}, "stock.redeals": lambda n: n >= 0,
    "stock.top_playable": None, "stock.batch": None,
}, together=(
    (lambda lay: len(lay.foundations.rows) == lay.decks, "decks and foundations.rows: one row per pack"),
    (lambda lay: lay.stock.turn == "waste" or not lay.stock.redeals, "stock.redeals only with a waste pile"),
    (lambda lay: lay.reserve.access == "last" or lay.reserve.capacity in (1, 2),
     "reserve.access = 'first' (queues) only with reserve.capacity 1 or 2"),
    (lambda lay: lay.stock.turn == "place" or not (lay.stock.top_playable or lay.stock.batch),
     "stock.top_playable and stock.batch only with stock.turn = 'place'"),
))


def check_supported(layout: Layout) -> None:
    """Raise ``UnsupportedError`` unless the model is exact for ``layout``'s rules."""
    READS.check(layout)


@dataclass
class Item:
    card: int
    column: int = -1  # the dealt column, for dealt cards
    height: int = 0  # 0 = bottom of the dealt column
    turn: int = -1  # index in the stock, for stock cards


class ReserveModel:
    AUTO_SHARE: ClassVar[float] = 0.7  # the auto portfolio's share of the time left (see there)

    def __init__(self, layout: Layout, deal: dict[str, list[int]], features: Any = None):
        check_supported(layout)
        self.layout = layout
        self.flags = feature_flags(FEATURES, features)
        r = layout.reserve
        self.ncols = r.count
        self.cap = r.capacity  # 0: unlimited
        self.lifo = r.access == "last"
        self.waste = layout.stock.turn == "waste"
        self.passes = 1 + (layout.stock.redeals if self.waste else 0)
        self.batch = layout.stock.batch  # pack cards placed per batch (Sly Fox), 0: none
        self.items: list[Item] = []
        self.dealt: list[list[int]] = []
        for j in range(self.ncols):
            col = []
            for h, c in enumerate(deal.get(f"reserve:{j}", [])):
                col.append(len(self.items))
                self.items.append(Item(c, column=j, height=h))
            self.dealt.append(col)
        self.stock: list[int] = []
        for k, c in enumerate(deal.get("stock", [])):
            self.stock.append(len(self.items))
            self.items.append(Item(c, turn=k))
        self.preset = {int(name.split(":")[1]): cs[0] for name, cs in deal.items()
                       if name.startswith("foundation:")}
        n, s = len(self.items), len(self.stock)
        self.horizon = max(1, n + (s + self.passes - 1 if self.waste else 0))
        self.model = cp_model.CpModel()
        self._build()

    # ============================================================ building

    def _int(self, name: str) -> cp_model.IntVar:
        return self.model.new_int_var(0, self.horizon - 1, name)

    def _build(self) -> None:
        self.p = [self._int(f"p{i}") for i in range(len(self.items))]
        self._foundations()
        if self.waste:
            self._waste()
        else:
            self._place()
        self._columns()
        if self.batch:
            self._batches()

    def _foundations(self) -> None:
        """Which copy goes to which row, and the build order of every foundation."""
        m, lay = self.model, self.layout
        self.slot_time: dict[tuple[int, int], Any] = {}  # (foundation, rank) -> instant or -1
        self.prev_slot: dict[tuple[int, int], tuple[int, int] | None] = {}
        slots_of: dict[int, list[tuple[int, int]]] = {}  # card -> free slots
        for f, sequence in enumerate(foundation_sequences(lay)):  # the same table the DFS position reads
            prev = None
            for j, card in enumerate(sequence):
                rank = cards.rank(card)
                key = (f, rank)
                if j == 0 and f in self.preset:
                    if self.preset[f] != card:
                        raise UnsupportedError(f"foundation:{f} starts with {cards.name(self.preset[f])}, "
                                               f"expected {cards.name(card)}")
                    self.slot_time[key] = -1
                else:
                    var = self._int(f"T{f}_{rank}")
                    self.slot_time[key] = var
                    slots_of.setdefault(card, []).append(key)
                    if prev is not None:
                        m.add(self.slot_time[prev] < var)
                self.prev_slot[key] = prev
                prev = key
        items_of: dict[int, list[int]] = {}
        for i, it in enumerate(self.items):
            items_of.setdefault(it.card, []).append(i)
        self.assign: dict[tuple[int, tuple[int, int]], Any] = {}  # (item, slot) -> literal
        for card, its in items_of.items():
            slots = slots_of.get(card, [])
            if len(slots) != len(its):
                raise UnsupportedError(f"{len(its)} copies of {cards.name(card)} to play but "
                                       f"{len(slots)} foundation places for them")
            for i in its:
                for key in slots:
                    lit = m.new_bool_var(f"x{i}_{key[0]}") if len(slots) > 1 else m.new_constant(1)
                    self.assign[i, key] = lit
                    m.add(self.p[i] == self.slot_time[key]).only_enforce_if(lit)
            if len(slots) > 1:
                for i in its:
                    m.add_exactly_one(self.assign[i, key] for key in slots)
                for key in slots:
                    m.add_exactly_one(self.assign[i, key] for i in its)
        if self.flags["twin_columns"]:
            for its in items_of.values():
                bottoms = [i for i in its if self.items[i].column >= 0
                           and len(self.dealt[self.items[i].column]) == 1]
                for a, b in pairwise(bottoms):
                    m.add(self.p[a] <= self.p[b])

    def _pred_up_before(self, i: int, instant: Any) -> list[Any]:
        """Literals, one per possible row of item ``i``: that row is chosen and the card
        before ``i`` on it is up strictly before ``instant``."""
        m = self.model
        out = []
        for (j, key), lit in self.assign.items():
            if j != i:
                continue
            prev = self.prev_slot[key]
            if prev is None or isinstance(self.slot_time[prev], int):
                out.append(lit)
                continue
            b = m.new_bool_var("")
            m.add(self.slot_time[prev] < instant).only_enforce_if(b)
            m.add_implication(b, lit)
            out.append(b)
        return out

    def _place(self) -> None:
        """Each turned card goes at once to a foundation or onto a column."""
        m = self.model
        self.t = [self._int(f"t{k}") for k in range(len(self.stock))]
        self.direct = []
        self.arrive: dict[int, Any] = {}
        self.oncol: dict[int, Any] = {}
        for k, i in enumerate(self.stock):
            if k:
                m.add(self.t[k - 1] <= self.t[k])
            m.add(self.t[k] <= self.p[i])
            d = m.new_bool_var(f"direct{k}")
            self.direct.append(d)
            m.add(self.p[i] == self.t[k]).only_enforce_if(d)
            self.arrive[i] = self.t[k]
            self.oncol[i] = ~d
            if self.flags["direct"] and not self.batch:  # with batches, placing it may end one
                for lit in self._pred_up_before(i, self.t[k]):
                    m.add_implication(lit, d)

    def _waste(self) -> None:
        """Turned cards go onto the waste, a stack; its top goes to a foundation or a column."""
        m = self.model
        s = len(self.stock)
        self.redeal = [self._int(f"redeal{j}") for j in range(1, self.passes)]
        for earlier, later in pairwise(self.redeal):
            m.add(earlier < later)
        # turn[j][k]: card k's turn in pass j (for a card gone before pass j, a free dummy)
        self.turn = [[self._int(f"t{j}_{k}") for k in range(s)] for j in range(self.passes)]
        self.leave = [self._int(f"leave{k}") for k in range(s)]
        # stays[j][k]: card k is still on the waste at redeal j (1-based), i.e. leaves after it
        self.stays: list[list[Any]] = [[]]
        for j in range(1, self.passes):
            row = []
            for k in range(s):
                stay = m.new_bool_var(f"stays{j}_{k}")
                m.add(self.leave[k] >= self.redeal[j - 1]).only_enforce_if(stay)
                m.add(self.leave[k] < self.redeal[j - 1]).only_enforce_if(~stay)
                row.append(stay)
            self.stays.append(row)
        self.arrive, self.oncol = {}, {}
        for j in range(self.passes):
            tj = self.turn[j]
            for k in range(s):
                if k:
                    m.add(tj[k - 1] <= tj[k])
                if j:
                    m.add(tj[k] >= self.redeal[j - 1])
                    m.add(self.leave[k] >= tj[k]).only_enforce_if(self.stays[j][k])
                else:
                    m.add(self.leave[k] >= tj[k])
            if j + 1 < self.passes and s:
                m.add(tj[s - 1] < self.redeal[j])
        for k, i in enumerate(self.stock):
            col = m.new_bool_var(f"oncol{k}")
            m.add(self.p[i] == self.leave[k]).only_enforce_if(~col)
            m.add(self.p[i] > self.leave[k]).only_enforce_if(col)
            self.arrive[i] = self.leave[k]
            self.oncol[i] = col
            if self.flags["direct"]:
                for lit in self._pred_up_before(i, self.turn[0][k]):
                    m.add(self.p[i] == self.turn[0][k]).only_enforce_if(lit)
        # the waste is a stack, in every pass
        for j in range(self.passes):
            tj = self.turn[j]
            for a in range(s):
                for b in range(a + 1, s):
                    under = m.new_bool_var("")  # a is still on the waste when b is turned
                    m.add(self.leave[a] >= tj[b]).only_enforce_if(under)
                    m.add(self.leave[a] < tj[b]).only_enforce_if(~under)
                    cond = [under]
                    if j + 1 < self.passes:
                        cond.append(~self.stays[j + 1][a])  # ... and leaves it in this pass
                    m.add(self.leave[b] < self.leave[a]).only_enforce_if(cond)

    def _columns(self) -> None:
        """Which card each arriving card lies on, and the limits on columns."""
        m = self.model
        cap, lifo = self.cap, self.lifo
        self.root: dict[int, Any] = {}
        self.under: dict[tuple[int, int], Any] = {}
        self.children: dict[int, list[int]] = {}
        self.parents: dict[int, list[int]] = {}
        for k, i in enumerate(self.stock):
            cands = []
            if cap != 1:
                for col in self.dealt:
                    for h, d in enumerate(col):
                        if lifo and cap and h + 1 >= cap:
                            continue
                        if not lifo and h + 1 < len(col):
                            continue  # a queue takes new cards behind its last card only
                        cands.append(d)
                for k2, i2 in enumerate(self.stock):
                    if k2 == k or (not self.waste and k2 > k):
                        continue
                    cands.append(i2)
            root = m.new_bool_var(f"root{k}")
            self.root[i] = root
            self.parents[i] = cands
            lits = [root]
            for par in cands:
                b = m.new_bool_var(f"under{par}_{i}")
                self.under[par, i] = b
                lits.append(b)
                self.children.setdefault(par, []).append(i)
                pi = self.items[par]
                m.add(self.p[par] >= self.arrive[i]).only_enforce_if(b)  # still there
                if lifo:
                    m.add(self.p[i] < self.p[par]).only_enforce_if(b)
                else:
                    m.add(self.p[i] > self.p[par]).only_enforce_if(b)
                if pi.turn >= 0:
                    m.add_implication(b, self.oncol[par])
                    if self.waste:
                        m.add(self.arrive[par] < self.arrive[i]).only_enforce_if(b)
                elif lifo and pi.height + 1 < len(self.dealt[pi.column]):
                    above = self.dealt[pi.column][pi.height + 1]
                    m.add(self.p[above] < self.arrive[i]).only_enforce_if(b)
            m.add_exactly_one([~self.oncol[i]] + lits)
        if lifo and cap == 2:  # a stack of two: a parent lies at the bottom
            for (par, _), b in self.under.items():
                if self.items[par].turn >= 0:
                    m.add_implication(b, self.root[par])
        elif lifo and cap > 2:
            self._depths()
        # dealt cards leave their columns in order
        for col in self.dealt:
            for lo, hi in pairwise(col):
                m.add(self.p[hi] < self.p[lo]) if lifo else m.add(self.p[lo] < self.p[hi])
        self._counts()
        if self.flags["asap"] and not self.waste:
            self._asap()
        if self.flags["counting"] and not self.waste and self.cap:
            self._counting()
        if self.flags["hint"] and not self.waste and self.lifo:
            self._hint(self._greedy())

    def _greedy(self) -> list[tuple[str, int, Any]]:
        """A quick game by rule of thumb: play every column top some foundation takes; lay a
        turned card straight on its foundation, else on the column whose top it will leave
        before with the least time to spare, else on an empty column, else on the top needed
        last.  Returns events ("play", item, slot), ("direct", item, slot), ("lay", item,
        parent or None) up to the end or to the first card with nowhere to go."""
        top_rank = self.layout.max_rank
        rows = self.layout.foundations.rows
        height = {}  # foundation -> rank of its top card (0: empty)
        for f in range(4 * len(rows)):
            base = 1 if rows[f // 4].direction > 0 else top_rank
            height[f] = base if f in self.preset else 0

        def wants(f: int) -> int:  # the rank foundation f takes next, or 0
            d = rows[f // 4].direction
            nxt = (height[f] + 1 if height[f] else 1) if d > 0 else (height[f] - 1 if height[f] else top_rank)
            return nxt if 1 <= nxt <= top_rank else 0

        free = {key for key, var in self.slot_time.items() if not isinstance(var, int)}

        def taker(i: int) -> tuple[int, int] | None:
            c = self.items[i].card
            for f in range(cards.suit(c), len(height), 4):
                if wants(f) == cards.rank(c) and (f, cards.rank(c)) in free:
                    return (f, cards.rank(c))
            return None

        def need(i: int) -> int:  # how many cards its nearer foundation still waits for
            c = self.items[i].card
            best = 99
            for f in range(cards.suit(c), len(height), 4):
                w = wants(f)
                if w:
                    gap = (cards.rank(c) - w) * rows[f // 4].direction
                    if gap >= 0:
                        best = min(best, gap)
            return best

        cols = [list(c) for c in self.dealt]
        events: list[tuple[str, int, Any]] = []

        def settle() -> None:
            moved = True
            while moved:
                moved = False
                for col in cols:
                    if col and (slot := taker(col[-1])) is not None:
                        i = col.pop()
                        free.discard(slot)
                        height[slot[0]] = slot[1]
                        events.append(("play", i, slot))
                        moved = True

        settle()
        batch_left = 0  # placements still due in the open batch (columns wait meanwhile)
        for i in self.stock:
            slot = taker(i)
            if slot is not None:
                free.discard(slot)
                height[slot[0]] = slot[1]
                events.append(("direct", i, slot))
                if not batch_left:
                    settle()
                continue
            mine = need(i)
            best, where = None, None
            for j, col in enumerate(cols):
                if self.cap and len(col) >= self.cap:
                    continue
                if col and self.cap == 2 and len(col) > 1:
                    continue
                score = (1, 0) if not col else ((0, need(col[-1]) - mine) if need(col[-1]) > mine
                                                else (2, -need(col[-1])))
                if best is None or score < best:
                    best, where = score, j
            if where is None:
                break
            events.append(("lay", i, cols[where][-1] if cols[where] else None))
            cols[where].append(i)
            if self.batch:
                batch_left = 0 if i == self.stock[-1] else (batch_left or self.batch) - 1
            if not batch_left:
                settle()
        return events

    def _hint(self, events: list[tuple[str, int, Any]]) -> None:
        """Hint the greedy game's values, each play an instant of its own."""
        m = self.model
        x, pending = 0, []
        for kind, i, what in events:
            if kind == "lay":
                pending.append(i)
                continue
            for j in pending + ([i] if kind == "direct" else []):
                m.add_hint(self.t[self.items[j].turn], x)
            pending = []
            m.add_hint(self.p[i], x)
            if len(self.slot_time) and not isinstance(self.slot_time[what], int):
                m.add_hint(self.slot_time[what], x)
            choices = [(key, lit) for (j, key), lit in self.assign.items() if j == i]
            if len(choices) > 1:  # (a single choice is a constant)
                for key, lit in choices:
                    m.add_hint(lit, key == what)
            x += 1
        for kind, i, what in events:
            k = self.items[i].turn
            if kind == "play":
                continue
            m.add_hint(self.direct[k], kind == "direct")
            if kind == "lay":
                m.add_hint(self.root[i], what is None)
                for par in self.parents[i]:
                    m.add_hint(self.under[par, i], par == what)

    def _counting(self) -> None:
        m = self.model
        s = len(self.stock)
        slots = [key for key, var in self.slot_time.items() if not isinstance(var, int)]
        later: dict[tuple[tuple[int, int], int], Any] = {}
        for k in range(s):
            for key in slots:
                b = m.new_bool_var("")
                m.add(self.slot_time[key] > self.t[k]).only_enforce_if(b)
                m.add(self.slot_time[key] <= self.t[k]).only_enforce_if(~b)
                later[key, k] = b
                if k:
                    m.add_implication(b, later[key, k - 1])  # later than turn k: later than turn k-1
                prev = self.prev_slot[key]
                if prev is not None and (prev, k) in later:
                    m.add_implication(later[prev, k], b)  # its predecessor is later: so is it
            room = self.ncols * self.cap + (s - k - 1)
            m.add(sum(later[key, k] for key in slots) <= room)

    def _asap(self) -> None:
        """p[i] is the largest of the instants it must follow (lowering any p[i] to that
        largest keeps every constraint, so some solution has them all there)."""
        m = self.model
        for i, it in enumerate(self.items):
            reasons = []
            for (j, key), lit in self.assign.items():
                if j != i:
                    continue
                prev = self.prev_slot[key]
                before = -1 if prev is None else self.slot_time[prev]
                r = m.new_bool_var("")
                m.add_implication(r, lit)
                m.add(self.p[i] == before + 1).only_enforce_if(r)
                reasons.append(r)
            # on its column it waits for the cards laid on it (a stack) or for the card
            # ahead of it (a queue)
            waits = ([(k, self.under[i, k]) for k in self.children.get(i, [])] if self.lifo
                     else [(par, self.under[par, i]) for par in self.parents.get(i, [])])
            for k, lit in waits:
                r = m.new_bool_var("")
                m.add_implication(r, lit)
                m.add(self.p[i] == self.p[k] + 1).only_enforce_if(r)
                reasons.append(r)
            if it.turn >= 0:
                r = m.new_bool_var("")
                m.add(self.p[i] == self.t[it.turn]).only_enforce_if(r)
                reasons.append(r)
            else:
                col, h = self.dealt[it.column], it.height
                waited = col[h + 1] if self.lifo and h + 1 < len(col) else (
                    col[h - 1] if not self.lifo and h else None)
                if waited is not None:
                    r = m.new_bool_var("")
                    m.add(self.p[i] == self.p[waited] + 1).only_enforce_if(r)
                    reasons.append(r)
            m.add_bool_or(reasons)

    def _batches(self) -> None:
        """Batches (``stock.batch = B``, Sly Fox): once a pack card goes to a column, no column
        card plays until B pack cards have gone to columns; a placement that empties the
        pack ends the batch early, and an open batch never ends if the pack empties by a card
        played straight to a foundation (as the position and the referee read the rule).

        Batch b is the placements numbered bB .. bB+B-1 (numbered from 0, in stock order,
        among the turned cards that go to columns).  It starts at the instant of its first
        placement and ends at the instant of its last, or at the horizon if it never ends.
        A column card plays outside [start, end): before the first placement, or at the
        instant of the last one or later (within an instant turns come first).  Exact: a
        real game, each event at an instant of its own, meets this; and a solution replayed
        in instant order (``_moves``) has no column play inside a batch.
        """
        m, size, s, horizon = self.model, self.batch, len(self.stock), self.horizon
        placed = [m.new_int_var(0, s, f"placed{k}") for k in range(s + 1)]  # placements before card k
        m.add(placed[0] == 0)
        for k, i in enumerate(self.stock):
            m.add(placed[k + 1] == placed[k] + self.oncol[i])

        def number(k: int, n: int) -> Any:
            """A literal: stock card k goes to a column, as placement number n."""
            eq = m.new_bool_var("")
            m.add(placed[k] == n).only_enforce_if(eq)
            m.add(placed[k] != n).only_enforce_if(~eq)
            lit = m.new_bool_var("")
            m.add_bool_and([eq, self.oncol[self.stock[k]]]).only_enforce_if(lit)
            m.add_bool_or([~eq, ~self.oncol[self.stock[k]]]).only_enforce_if(~lit)
            return lit

        players = [(i, None) for i, it in enumerate(self.items) if it.turn < 0]
        players += [(i, self.oncol[i]) for i in self.stock]
        previous_end = None
        for b in range((s + size - 1) // size):
            first, last = b * size, b * size + size - 1
            start, end = m.new_int_var(0, horizon, f"start{b}"), m.new_int_var(0, horizon, f"end{b}")
            firsts = [number(k, first) for k in range(first, s)]
            for k, lit in zip(range(first, s), firsts, strict=True):
                m.add(start == self.t[k]).only_enforce_if(lit)
            m.add(start == horizon).only_enforce_if([~lit for lit in firsts])
            ends = [(k, number(k, last)) for k in range(last, s)]
            ends += [(s - 1, number(s - 1, n)) for n in range(first, min(last, s))]  # the pack ends it
            for k, lit in ends:
                m.add(end == self.t[k]).only_enforce_if(lit)
            m.add(end == horizon).only_enforce_if([~lit for _, lit in ends])
            m.add(start <= end)
            if previous_end is not None:
                m.add(previous_end <= start)
            previous_end = end
            for i, on_column in players:
                before = m.new_bool_var("")
                also: list[Any] = [] if on_column is None else [on_column]
                m.add(self.p[i] < start).only_enforce_if([before, *also])
                m.add(self.p[i] >= end).only_enforce_if([~before, *also])

    def _depths(self) -> None:
        m = self.model
        depth: dict[int, Any] = {}
        for col in self.dealt:
            for h, d in enumerate(col):
                depth[d] = h + 1
        for i in self.stock:
            depth[i] = m.new_int_var(1, self.cap, f"depth{i}")
            m.add(depth[i] == 1).only_enforce_if(self.root[i])
        for (par, i), b in self.under.items():
            m.add(depth[i] == depth[par] + 1).only_enforce_if(b)

    def _stay(self, i: int, start: Any, present: Any, name: str, key: str = "") -> Any:
        """The interval [start, p[i] + 1), optional when ``present`` is a literal.
        Intervals of one item with the same ``key`` share their size variable."""
        m = self.model
        size = self._sizes.get((i, key)) if key else None
        if size is None:
            size = m.new_int_var(1, self.horizon + 1, f"size_{name}")
            m.add(size == self.p[i] + 1 - start)
            if key:
                self._sizes[i, key] = size
        if present is None:
            return m.new_interval_var(start, size, self.p[i] + 1, name)
        return m.new_optional_interval_var(start, size, self.p[i] + 1, present, name)

    def _counts(self) -> None:
        m = self.model
        cap, lifo = self.cap, self.lifo
        self._sizes: dict[tuple[int, str], Any] = {}
        occupancy = []  # every card on a column, for the redundant total count
        for col in self.dealt:
            for d in col:
                occupancy.append(self._stay(d, 0, None, f"deal{d}", "deal"))
        for i in self.stock:
            occupancy.append(self._stay(i, self.arrive[i], self.oncol[i], f"on{i}", "arrive"))
        if lifo and self.flags["siblings"]:
            self._siblings()
        if lifo:
            # the children of one card stay one after another
            for par, kids in self.children.items():
                if len(kids) > 1 and not self.flags["siblings"]:
                    stays = [self._stay(k, self.arrive[k], self.under[par, k], f"c{par}_{k}", "arrive")
                             for k in kids]
                    if self.flags["children_cumulative"]:
                        m.add_cumulative(stays, [1] * len(stays), 1)
                    else:
                        m.add_no_overlap(stays)
            # a column is in use from its bottom card's arrival until that card leaves
            bottoms = [self._stay(col[0], 0, None, f"bottom{col[0]}", "deal") for col in self.dealt if col]
            bottoms += [self._stay(i, self.arrive[i], self.root[i], f"root{i}", "arrive") for i in self.stock]
            m.add_cumulative(bottoms, [1] * len(bottoms), self.ncols)
        else:
            for par, kids in self.children.items():
                m.add_at_most_one(self.under[par, k] for k in kids)
            # a queue is in use while its oldest card is there: count the oldest cards
            heads = []
            for col in self.dealt:
                for h, d in enumerate(col):
                    start = 0 if h == 0 else self.p[col[h - 1]] + 1
                    heads.append(self._stay(d, start, None, f"head{d}"))
            head_start = {i: self._int(f"headstart{i}") for i in self.stock}
            for i in self.stock:
                hs = head_start[i]
                m.add(hs == self.arrive[i]).only_enforce_if(self.root[i])
                for par in self.parents[i]:
                    b = self.under[par, i]
                    m.add(hs == self.p[par] + 1).only_enforce_if(b)
                    if cap == 2:  # a queue of two: the parent must be its queue's oldest card
                        if par in head_start:
                            m.add(head_start[par] <= self.arrive[i]).only_enforce_if(b)
                        else:
                            col = self.dealt[self.items[par].column]
                            if len(col) >= 2:
                                m.add(self.p[col[-2]] < self.arrive[i]).only_enforce_if(b)
                heads.append(self._stay(i, hs, self.oncol[i], f"head{i}"))
            m.add_cumulative(heads, [1] * len(heads), self.ncols)
        if cap and self.flags["cumulative"]:
            m.add_cumulative(occupancy, [1] * len(occupancy), self.ncols * cap)

    def _siblings(self) -> None:
        """The children of one card, in order of arrival, each gone before the next comes:
        every child is either its parent's first child or follows one sibling, which left
        before it arrived; a card has at most one first child and a child at most one
        next sibling, so the children of a card form one chain."""
        m = self.model
        par = {i: m.new_int_var(-1, len(self.items) - 1, f"par{i}") for i in self.stock}
        incoming: dict[int, list[Any]] = {i: [] for i in self.stock}
        for i in self.stock:
            m.add(par[i] == -1).only_enforce_if(self.root[i])
            m.add(par[i] == -1).only_enforce_if(~self.oncol[i])
        for parent, kids in self.children.items():
            firsts = []
            for k in kids:
                m.add(par[k] == parent).only_enforce_if(self.under[parent, k])
                f = m.new_bool_var("")
                m.add_implication(f, self.under[parent, k])
                firsts.append(f)
                incoming[k].append(f)
            m.add_at_most_one(firsts)
        shared = {i: set(self.parents[i]) for i in self.stock}
        for j in self.stock:
            nexts = []
            for k in self.stock:
                if j == k or (not self.waste and k < j) or not shared[j] & shared[k]:
                    continue
                b = m.new_bool_var("")
                m.add(par[j] == par[k]).only_enforce_if(b)
                m.add(self.p[j] < self.arrive[k]).only_enforce_if(b)
                m.add_implication(b, ~self.root[k])
                nexts.append(b)
                incoming[k].append(b)
            m.add_at_most_one(nexts)
        for k in self.stock:
            is_child = [self.under[parent, k] for parent in self.parents[k]]
            m.add(sum(incoming[k]) == sum(is_child))

    # ============================================================= solving

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved:
        solver = make_solver(limits, options)
        if self.flags["light_search"]:
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_probing_level = 0
            solver.parameters.use_precedences_in_disjunctive_constraint = False
        return run(solver, self.model, limits, options, lambda: self._moves(solver))

    def _foundation_of(self, solver: cp_model.CpSolver, i: int) -> int:
        for (j, key), lit in self.assign.items():
            if j == i and solver.boolean_value(lit):
                return key[0]
        raise RuntimeError(f"item {i} has no foundation in the CP-SAT solution")

    def _moves(self, solver: cp_model.CpSolver) -> list[dict[str, Any]]:
        """Replay the solution in instant order, giving columns numbers as they are used."""
        v, bv = solver.value, solver.boolean_value
        name = [cards.name(it.card) for it in self.items]
        events: list[tuple] = []  # (instant, phase, tie, kind, item)
        if self.waste:
            for j, r in enumerate(self.redeal, 1):
                events.append((v(r), 0, 0, "redeal", j))
            for j in range(self.passes):
                for k, i in enumerate(self.stock):
                    if j == 0 or bv(self.stays[j][k]):
                        events.append((v(self.turn[j][k]), 1, k, "turn", i))
            for k, i in enumerate(self.stock):
                kind = "waste-col" if bv(self.oncol[i]) else "waste-fnd"
                events.append((v(self.leave[k]), 2, -k, kind, i))
        else:
            for k, i in enumerate(self.stock):
                events.append((v(self.t[k]), 1, k, "turn", i))
        for i in range(len(self.items)):
            if self.items[i].turn < 0 or bv(self.oncol[i]):
                events.append((v(self.p[i]), 3, 0, "play", i))
        events.sort()
        cols: list[list[int]] = [list(c) for c in self.dealt]
        where: dict[int, int] = {d: j for j, c in enumerate(self.dealt) for d in c}
        waste: list[int] = []
        stock = list(self.stock)
        moves: list[dict[str, Any]] = []

        def fail(msg: str) -> RuntimeError:
            return RuntimeError(f"CP-SAT solution does not replay ({msg}): a bug in the model")

        def to_column(i: int) -> str:
            if bv(self.root[i]):
                free = [j for j, c in enumerate(cols) if not c]
                if not free:
                    raise fail(f"no empty column for {name[i]}")
                j = free[0]
            else:
                par = next(p for p in self.parents[i] if bv(self.under[p, i]))
                j = where[par]
                if not cols[j] or cols[j][-1] != par:
                    raise fail(f"{name[i]} should lie on {name[par]}")
            cols[j].append(i)
            where[i] = j
            return f"reserve:{j}"

        for _, _, _, kind, i in events:
            if kind == "redeal":
                if waste:
                    moves.append({"card": name[waste[0]], "from": "waste", "to": "stock",
                                  "count": len(waste)})
                stock, waste = waste, []
            elif kind == "turn":
                if not stock or stock[0] != i:
                    raise fail(f"{name[i]} is not next in the stock")
                stock.pop(0)
                if self.waste:
                    waste.append(i)
                    moves.append({"card": name[i], "from": "stock", "to": "waste"})
                elif bv(self.direct[self.items[i].turn]):
                    moves.append({"card": name[i], "from": "stock",
                                  "to": f"foundation:{self._foundation_of(solver, i)}"})
                else:
                    moves.append({"card": name[i], "from": "stock", "to": to_column(i)})
            elif kind in ("waste-col", "waste-fnd"):
                if not waste or waste[-1] != i:
                    raise fail(f"{name[i]} is not on top of the waste")
                waste.pop()
                to = to_column(i) if kind == "waste-col" else f"foundation:{self._foundation_of(solver, i)}"
                moves.append({"card": name[i], "from": "waste", "to": to})
            else:  # a column card to its foundation
                j = where[i]
                if cols[j][-1 if self.lifo else 0] != i:
                    raise fail(f"{name[i]} is not available on reserve:{j}")
                cols[j].remove(i)
                moves.append({"card": name[i], "from": f"reserve:{j}",
                              "to": f"foundation:{self._foundation_of(solver, i)}"})
        return moves
