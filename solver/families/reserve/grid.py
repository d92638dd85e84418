"""CP-SAT model of the debutante family's place layouts on a fixed grid of instants.

``model.py`` is the family's general model: its turns fall on instants of their own choosing, so
one play can be laid out in many ways.  Where every turned card is placed at once (``stock.turn =
"place"``) the turns need no choosing: turn ``t`` (the pack's t-th card, from 1) falls on instant
``t * K``, and the plays after it (its *cascade*) on ``t * K + 1 .. t * K + K - 1``; the deal's
cascade on ``1 .. K - 1``.  A cascade plays at most every card once, so ``K`` above the number of
cards leaves room for any order of it.  Measured on the deals a 60-second DFS leaves open, this
model finds their wins in seconds (debutante 176, 881; debutante-unlimited 31, 39, 83; Colorado
83), where the DFS's move-by-move search had not.

Variables (an *item* is one physical card):

- ``D[i]``: the instant item ``i`` goes to a foundation; ``T[r, j]`` the instant row ``r`` takes
  its ``j``-th card, strictly increasing along the row; a *sharing* literal per card says which of
  its copies goes to which row (one row per pack, each takes one copy of each card), and then
  ``D[i] == T[r, j]``.  A preset base card fills its place before instant 0.
- A turned card either goes straight to its row at its turn (``placed`` false, ``D == t * K``),
  which needs the row's previous card up before the turn, or is placed on a column (``D > t * K``).
  It goes straight when its row's previous card is up before its turn (the direct-play dominance
  of ``model.py``: playing it at once frees a place and changes nothing else).
- Columns without numbers (as ``model.py``): a placed card starts an empty column (``root``) or
  lies on a card there at its turn, its *parent* (``on[b, x]``).  A stack (``access = "last"``):
  the card on top leaves first (``D[x] < D[b]``) and the children of one card stay one after
  another (a child leaves before the next comes); with ``capacity = 2`` a parent lies at the
  bottom (a root or a dealt card); with ``capacity = 1`` nothing lies on anything.  A queue
  (``access = "first"``, capacity 2): the card behind leaves after the one ahead, a card has at
  most one behind it, and a card goes behind one that is then its queue's oldest.  At most
  ``count`` columns are in use at any instant (a cumulative over the roots, or over each queue's
  oldest card), and with a capacity at most ``count * capacity`` cards lie on columns.

Exact: a real game gives each event of its cascades an instant of its own in its order (turns on
the grid, a cascade holds fewer events than ``K``), and then meets every constraint; a solution
replays in instant order (``_moves``), the referee checking it again.  Redundant, proved: the
counting argument spelled out per turn (``model.py``'s ``counting``): after turn ``t`` the cards
seen less those up by then fit in the places; and on columns of two, the pairing bound's facts
(``pairing.py``, read from the same generous games): each copy's deadline, the earliest a card can
leave while the one it shares a column with stays (``_deadlines``), and at the tight turns where
the rows can stand and the bound's count of columns (``_hall``).  Each holds in every line that
gets past every turn, so in every win; where the bound proves a deal lost at the deal, the model
has no solution at once.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ortools.sat.python import cp_model

from ... import cards
from ...errors import UnsupportedError
from ...layout import Layout
from ...limits import Limits
from ..base import Solved
from ..cpsat import feature_flags, make_solver, run
from .pairing import NEVER, Copy, Games, _earliest, _nodes_at, matching_size
from .position import ReservePosition
from .rules import GRID_READS as READS
from .rules import foundation_sequences

FEATURES = {
    # after turn t, the cards seen less the foundation places filled by then fit in the columns
    "counting": True,
    # the two copies of a card dealt alike (both at the deal on columns of one card) are
    # interchangeable: the first goes to row 0
    "twins": True,
    # each copy leaves by its deadline, and a card sharing a column with another leaves no sooner
    # than it can while the other stays (the generous games of pairing.py)
    "deadlines": True,
    # at the pairing bound's tight turns: the facts it reads and its count of columns
    "hall": True,
    # solver settings: no LP relaxation, no probing in presolve (measured: both slower here)
    "light_search": True,
}

class GridModel:
    AUTO_SHARE: ClassVar[float] = 0.7  # the auto portfolio's share of the time left

    def __init__(self, layout: Layout, deal: dict[str, list[int]], features: Any = None):
        READS.check(layout)
        self.layout = layout
        self.flags = feature_flags(FEATURES, features)
        r = layout.reserve
        self.ncols, self.cap, self.lifo = r.count, r.capacity, r.access == "last"
        # items: (card, turn) with turn 0 for dealt cards; columns: the dealt items, bottom first
        self.items: list[tuple[int, int]] = []
        self.dealt: list[list[int]] = []
        for j in range(self.ncols):
            self.dealt.append([])
            for c in deal.get(f"reserve:{j}", []):
                self.dealt[j].append(len(self.items))
                self.items.append((c, 0))
        self.stock = []
        for k, c in enumerate(deal.get("stock", [])):
            self.stock.append(len(self.items))
            self.items.append((c, k + 1))
        self.preset = {int(name.split(":")[1]): cs[0] for name, cs in deal.items() if name.startswith("foundation:")}
        self.K = len(self.items) + 2
        self.end = (len(self.stock) + 1) * self.K  # every play is before this instant
        self.model = cp_model.CpModel()
        self.games: Games | None = None  # the pairing bound's facts (columns of two, two packs)
        self.bound_turns = 0  # the tight turns given the bound's count of columns (``_hall``)
        self.copy: list[Copy] = []  # item -> the same card as ``pairing.py`` names it
        if self.flags["deadlines"] or self.flags["hall"]:
            pos = ReservePosition(layout, deal)
            if pos.pairs:
                self.games = Games(pos)
                self.copy = self._copies(self.games)
        self._build()

    # ============================================================ building

    def _build(self) -> None:
        m, K = self.model, self.K
        self.D = [m.new_int_var(turn * K, self.end - 1, f"D{i}") for i, (_, turn) in enumerate(self.items)]
        self._foundations()
        self._turns()
        self._columns()
        if self.flags["counting"] and self.cap:
            self._counting()
        if self.games is not None and self.flags["deadlines"]:
            self._deadlines()
        if self.games is not None and self.flags["hall"]:
            self._hall()

    def _foundations(self) -> None:
        m, lay = self.model, self.layout
        self.T: dict[tuple[int, int], Any] = {}  # (row, place) -> instant, or -1 for a preset base
        self.slot_of: dict[int, list[tuple[int, int]]] = {}  # card -> its open places (row, place)
        for f, sequence in enumerate(foundation_sequences(lay)):
            prev = None
            for j, card in enumerate(sequence):
                if j == 0 and f in self.preset:
                    if self.preset[f] != card:
                        raise UnsupportedError(f"foundation:{f} starts with {cards.name(self.preset[f])}, "
                                               f"expected {cards.name(card)}")
                    self.T[f, j] = -1
                else:
                    var = m.new_int_var(0, self.end - 1, f"T{f}_{j}")
                    self.T[f, j] = var
                    self.slot_of.setdefault(card, []).append((f, j))
                    if prev is not None:
                        m.add(var > prev)
                prev = self.T[f, j]
        items_of: dict[int, list[int]] = {}
        for i, (c, _) in enumerate(self.items):
            items_of.setdefault(c, []).append(i)
        self.assign: dict[tuple[int, int], Any] = {}  # (item, row) -> literal
        for c, its in items_of.items():
            slots = self.slot_of.get(c, [])
            if len(slots) != len(its):
                raise UnsupportedError(f"{len(its)} copies of {cards.name(c)} to play but "
                                       f"{len(slots)} foundation places for them")
            lits: list[list[Any]]
            if len(its) == 1:
                lits = [[m.new_constant(1)]]
            else:
                sh = m.new_bool_var(f"sh{c}")
                lits = [[sh, ~sh], [~sh, sh]]
                a, b = its
                if (self.flags["twins"] and self.items[a][1] == self.items[b][1] == 0
                        and len(self.dealt[self._col(a)]) == len(self.dealt[self._col(b)]) == 1):
                    m.add(sh == 1)
            for i, row_lits in zip(its, lits):
                for (f, j), lit in zip(slots, row_lits):
                    self.assign[i, f] = lit
                    m.add(self.D[i] == self.T[f, j]).only_enforce_if(lit)

    def _col(self, i: int) -> int:
        return next(j for j, col in enumerate(self.dealt) if i in col)

    def _turns(self) -> None:
        """Each turned card goes straight to its row (its previous card up before the turn) or onto
        a column; it goes straight whenever it can (the direct-play dominance)."""
        m, K = self.model, self.K
        self.placed: dict[int, Any] = {}
        for i in self.stock:
            c, turn = self.items[i]
            p = m.new_bool_var(f"placed{i}")
            self.placed[i] = p
            m.add(self.D[i] == turn * K).only_enforce_if(~p)
            m.add(self.D[i] > turn * K).only_enforce_if(p)
            for f, j in self.slot_of[c]:
                lit = self.assign[i, f]
                before = self.T[f, j - 1] if j else -1
                if isinstance(before, int):  # the row's first place, or after a preset base
                    m.add_implication(lit, ~p)
                    continue
                ready = m.new_bool_var("")
                m.add(before < turn * K).only_enforce_if(ready)
                m.add(before >= turn * K).only_enforce_if(~ready)
                m.add_bool_or([~lit, ~ready, ~p])  # ready: straight to the row
                m.add_bool_or([~lit, ready, p])  # not ready: onto a column

    def _columns(self) -> None:
        m, K, cap = self.model, self.K, self.cap
        self.root: dict[int, Any] = {}
        self.on: dict[tuple[int, int], Any] = {}  # (parent, child) -> literal
        children: dict[int, list[int]] = {}
        for col in self.dealt:  # the dealt cards leave their columns in order
            for lo, hi in zip(col, col[1:]):
                m.add(self.D[hi] < self.D[lo]) if self.lifo else m.add(self.D[lo] < self.D[hi])
        for i in self.stock:
            turn = self.items[i][1]
            root = m.new_bool_var(f"root{i}")
            self.root[i] = root
            lits = [root]
            if cap != 1:
                for b, (_, bturn) in enumerate(self.items):
                    if bturn >= turn or not self._may_take(b) or not self._may_pair(b, i):
                        continue
                    lit = m.new_bool_var(f"on{b}_{i}")
                    self.on[b, i] = lit
                    lits.append(lit)
                    children.setdefault(b, []).append(i)
                    m.add(self.D[b] > turn * K).only_enforce_if(lit)  # there at the turn
                    if self.lifo:
                        m.add(self.D[i] < self.D[b]).only_enforce_if(lit)
                        if cap == 2 and bturn > 0:
                            m.add_implication(lit, self.root[b])
                        if bturn == 0 and (col := self.dealt[self._col(b)])[-1] != b:
                            m.add_implication(lit, self._gone_before(col[col.index(b) + 1], turn))
                    else:
                        m.add(self.D[i] > self.D[b]).only_enforce_if(lit)
                        self._oldest_then(b, turn, lit)
            m.add(sum(lits) == self.placed[i])
        gone_before = self._gone_before
        for b, kids in children.items():
            if self.lifo:  # the children of one card stay one after another
                for x, y in ((x, y) for k, x in enumerate(kids) for y in kids[k + 1:]):
                    m.add_bool_or([~self.on[b, x], ~self.on[b, y], gone_before(x, self.items[y][1])])
            else:  # a queue: at most one card behind each
                m.add_at_most_one(self.on[b, x] for x in kids)
        self._in_use()

    def _may_take(self, b: int) -> bool:
        """Whether item ``b`` can ever have a card put on it (or behind it): a pack card, or a dealt
        card with room above it in its column (a stack) or at its queue's end."""
        if self.items[b][1] > 0:
            return True
        col = self.dealt[self._col(b)]
        if self.lifo:
            return not self.cap or col.index(b) + 1 < self.cap
        return b == col[-1]

    def _oldest_then(self, b: int, turn: int, lit: Any) -> None:
        """A queue of two: ``b`` is its queue's oldest card at ``turn`` (the one ahead of it gone)."""
        m = self.model
        if self.items[b][1] == 0:
            col = self.dealt[self._col(b)]
            if len(col) > 1:
                m.add(self.D[col[-2]] < turn * self.K).only_enforce_if(lit)
            return
        for (a, x), ahead in list(self.on.items()):
            if x == b:
                m.add_bool_or([~lit, ~ahead, self._gone_before(a, turn)])

    def _gone_before(self, i: int, turn: int) -> Any:
        """A literal: item ``i`` is up before instant ``turn * K``."""
        return self._below(("D", i, turn), self.D[i], turn * self.K)

    _below_lits: dict[tuple[Any, ...], Any]

    def _below(self, key: tuple[Any, ...], var: Any, instant: int) -> Any:
        """A literal: ``var < instant`` (one per ``key``)."""
        if not hasattr(self, "_below_lits"):
            self._below_lits = {}
        if key not in self._below_lits:
            b = self.model.new_bool_var("")
            self.model.add(var < instant).only_enforce_if(b)
            self.model.add(var >= instant).only_enforce_if(~b)
            self._below_lits[key] = b
        return self._below_lits[key]

    def _in_use(self) -> None:
        """The columns in use and the cards on columns, as cumulatives over intervals of instants."""
        m, K = self.model, self.K
        stays, heads = [], []
        for col in self.dealt:
            for h, d in enumerate(col):
                stay = m.new_interval_var(0, self.D[d], self.D[d], f"stay{d}")
                stays.append(stay)
                if h == 0 and self.lifo:
                    heads.append(stay)
                elif not self.lifo:  # a queue's oldest card from when the one ahead leaves
                    start = 0 if h == 0 else self.D[col[h - 1]]
                    size = m.new_int_var(0, self.end, "")
                    m.add(size == self.D[d] - start)
                    heads.append(m.new_interval_var(start, size, self.D[d], f"head{d}"))
        for i in self.stock:
            t0 = self.items[i][1] * K
            size = m.new_int_var(0, self.end, "")
            m.add(size == self.D[i] - t0)
            stays.append(m.new_optional_interval_var(t0, size, self.D[i], self.placed[i], f"stay{i}"))
            if self.lifo:
                heads.append(m.new_optional_interval_var(t0, size, self.D[i], self.root[i], f"root{i}"))
            else:
                start = m.new_int_var(t0, self.end, "")
                m.add(start == t0).only_enforce_if(self.root[i])
                for (a, x), lit in self.on.items():
                    if x == i:
                        m.add(start == self.D[a]).only_enforce_if(lit)
                hsize = m.new_int_var(0, self.end, "")
                m.add(hsize == self.D[i] - start)
                heads.append(m.new_optional_interval_var(start, hsize, self.D[i], self.placed[i], f"head{i}"))
        m.add_cumulative(heads, [1] * len(heads), self.ncols)
        if self.cap:
            m.add_cumulative(stays, [1] * len(stays), self.ncols * self.cap)

    def _counting(self) -> None:
        """After turn t: cards seen (dealt and turned) less the places filled by t*K fit in the
        columns.  A filled place holds a card seen; the cards seen and not up lie on columns."""
        m, K = self.model, self.K
        places = [v for v in self.T.values() if not isinstance(v, int)]
        dealt = sum(len(col) for col in self.dealt)
        for t in range(1, len(self.stock) + 1):
            up = []
            for var in places:
                b = m.new_bool_var("")
                m.add(var <= t * K).only_enforce_if(b)
                m.add(var > t * K).only_enforce_if(~b)
                up.append(b)
            m.add(dealt + t - sum(up) <= self.ncols * self.cap)

    # ================================================ the pairing bound's facts

    def _copies(self, games: Games) -> list[Copy]:
        """Each item as ``pairing.py``'s ``Copy``: a dealt card by its column and depth (0 leaves
        first), a pack card by its turn."""
        by_place = {(cp.col, cp.depth): cp for cp in games.copies if cp.col >= 0}
        by_turn = {cp.turn: cp for cp in games.copies if cp.col < 0}
        out = [by_turn.get(turn, Copy(c)) for c, turn in self.items]
        for j, col in enumerate(self.dealt):
            for h, i in enumerate(col):
                out[i] = by_place[j, h if not self.lifo else len(col) - 1 - h]
        assert all((cp.value & 63) == (c & 63) for cp, (c, _) in zip(out, self.items, strict=True))
        return out

    def _first_last(self, b: int, x: int) -> tuple[int, int]:
        """Of ``b`` and ``x`` laid on it (behind it in a queue): the one that leaves first, the other."""
        return (b, x) if not self.lifo else (x, b)

    def _earliest(self, first: int, last: int) -> int:
        """``e(first | last)`` of ``pairing.py`` (without its tight turn): no real game plays
        ``first`` before this step while ``last`` stays in its column.  Until ``last`` leaves, the
        generous game with ``last`` held is at every step at least as far on at each foundation
        as the real one, so the real one takes first's card at no earlier step."""
        assert self.games is not None
        return _earliest(self.games.pos, self.copy[first], -1, self.games.trace_with(self.copy[last]), {})

    def _may_pair(self, b: int, x: int) -> bool:
        """Whether ``x`` may be laid on ``b`` (behind it): false when the one leaving first could
        leave, with the other still there, only after the other's deadline (``_deadlines``)."""
        if self.games is None or not self.flags["deadlines"] or self.cap != 2:
            return True
        first, last = self._first_last(b, x)
        return self._earliest(first, last) <= self.games.deadline(self.copy[last])

    def _deadlines(self) -> None:
        """Each copy ``y`` leaves by the end of step ``L(y)`` (``pairing.py``: with ``y`` held, the
        counts fail at step ``L``, so a line with ``y`` still out at its end fails there, and a
        win gets past every step).  Of two cards sharing a column, the one leaving first leaves
        while the other stays, so no earlier than step ``e(first | last)`` (``_earliest``);
        ``_may_pair`` left out the pairs where that is after the other's deadline."""
        assert self.games is not None
        m, K = self.model, self.K
        for i, cp in enumerate(self.copy):
            limit = self.games.deadline(cp)
            if limit < NEVER:
                m.add(self.D[i] < (limit + 1) * K)
        if self.cap == 2:
            for (b, x), lit in self.on.items():
                first, last = self._first_last(b, x)
                m.add(self.D[first] >= self._earliest(first, last) * K).only_enforce_if(lit)

    def _filled(self, f: int, j: int, step: int) -> Any:
        """The literal: row ``f``'s place ``j`` is filled by the end of ``step``."""
        var = self.T[f, j]
        if isinstance(var, int):
            return self.model.new_constant(1)
        return self._below(("T", f, j, step), var, (step + 1) * self.K)

    def _out(self, i: int, step: int) -> Any:
        """The literal: item ``i`` (seen by ``step``) is in a column at the end of ``step``."""
        return ~self._gone_before(i, step + 1)

    def _hall(self) -> None:
        """At each tight turn T of ``pairing.py`` (the counts leave at most ``TIGHT`` places spare
        in the generous game), its argument as constraints on the model, each holding in every
        line that gets past T (every win):

        - where the rows stand at the end of step T: each suit's two rows at one of the copy
          count's splits (``pairing.py``, "surely past"), so a place every split passes is filled
          and a place no split reaches is empty;
        - per card, its copies seen by T and still in columns plus its places filled equal its
          copies seen (a filled place took a copy seen by then, one copy each, and a copy seen
          and not up lies in a column);
        - the bound's count: a *node* (a copy, or two copies of a card one of which is out,
          ``_nodes_at``) is out when a copy of it lies in a column at the end of step T; two nodes
          out share a column only along an edge of the bound's graph (the claim of
          ``pairing.py``), so the columns holding them number at least the nodes out less a
          largest matching ``M`` of that graph; with the ``fixed`` columns whose two dealt cards
          are surely out (no node among them), nodes out <= count - fixed + M.

        Where the facts force every node out, the last is the bound itself and the model has no
        solution at once; elsewhere the search's decisions can force nodes out."""
        assert self.games is not None
        games, pos, m = self.games, self.games.pos, self.model
        item_of = {cp: i for i, cp in enumerate(self.copy)}
        for t in sorted(games.base.splits):
            for s, splits in enumerate(games.base.splits[t]):
                for f in (s, s + 4):
                    for j in range(pos.h[f], len(pos.seq[f])):
                        past = [(a if f == s else b) > j - pos.h[f] for a, b in splits]
                        if all(past) or not any(past):
                            m.add(self._filled(f, j, t) == int(all(past)))
            seen: dict[int, list[int]] = {}
            for i, (c, turn) in enumerate(self.items):
                if turn <= t:
                    seen.setdefault(c, []).append(i)
            for c, its in seen.items():
                places = [self._filled(f, j, t) for f, j in self._places_of(c)]
                m.add(sum(self._out(i, t) for i in its) + sum(places) == len(its))
            nodes, fixed, surely_past = _nodes_at(pos, games.copies, games.base, t)
            if len(nodes) + fixed <= self.ncols:
                continue
            out = []
            for node in nodes:
                its = [item_of[cp] for cp in node]
                if len(its) == 1:
                    out.append(self._out(its[0], t))
                    continue
                lit = m.new_bool_var("")
                for i in its:
                    m.add_implication(self._out(i, t), lit)
                for f, j in self._places_of(self.items[its[0]][0]):
                    m.add_bool_or([lit, self._filled(f, j, t)])  # a place empty: a copy is out
                out.append(lit)
            m.add(sum(out) <= self.ncols - fixed + matching_size(games.graph(nodes, t, surely_past, [])))
            self.bound_turns += 1

    def _places_of(self, card: int) -> list[tuple[int, int]]:
        return self.slot_of.get(card, [])

    # ============================================================= solving

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved:
        solver = make_solver(limits, options)
        if self.flags["light_search"]:
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_probing_level = 0
        verdict, reason, moves, stats = run(solver, self.model, limits, options, lambda: self._moves(solver))
        if self.games is not None:
            stats["pairing_turns"] = self.bound_turns  # the tight turns given the bound's count
        return verdict, reason, moves, stats

    def _moves(self, solver: cp_model.CpSolver) -> list[dict[str, Any]]:
        """The solution in instant order (leavings at an instant before its turn), columns numbered
        as they are used."""
        v, bv = solver.value, solver.boolean_value
        row = {i: f for (i, f), lit in self.assign.items() if bv(lit)}
        parent = {x: b for (b, x), lit in self.on.items() if bv(lit)}
        name = [cards.name(c) for c, _ in self.items]
        events = []
        for i, (_, turn) in enumerate(self.items):
            if turn:
                events.append((turn * self.K, 1, i))
            if not turn or bv(self.placed[i]):
                events.append((v(self.D[i]), 0, i))
        events.sort()
        cols = [list(col) for col in self.dealt]
        where = {d: j for j, col in enumerate(self.dealt) for d in col}
        moves: list[dict[str, Any]] = []

        def fail(msg: str) -> RuntimeError:
            return RuntimeError(f"CP-SAT grid solution does not replay ({msg}): a bug in the model")

        for _, kind, i in events:
            if kind == 1 and not bv(self.placed[i]):
                moves.append({"card": name[i], "from": "stock", "to": f"foundation:{row[i]}"})
            elif kind == 1:
                if i in parent:
                    j = where[parent[i]]
                    if not cols[j] or cols[j][-1] != parent[i]:
                        raise fail(f"{name[i]} should lie behind or on {name[parent[i]]}")
                else:
                    j = next((k for k, col in enumerate(cols) if not col), -1)
                    if j < 0:
                        raise fail(f"no empty column for {name[i]}")
                cols[j].append(i)
                where[i] = j
                moves.append({"card": name[i], "from": "stock", "to": f"reserve:{j}"})
            else:
                j = where[i]
                if not cols[j] or cols[j][-1 if self.lifo else 0] != i:
                    raise fail(f"{name[i]} is not available on reserve:{j}")
                cols[j].remove(i)
                moves.append({"card": name[i], "from": f"reserve:{j}", "to": f"foundation:{row[i]}"})
        return moves
