"""CP-SAT model of the hole family (Black Hole, Golf): the order in which cards reach the hole.

The model follows Gent et al., "Search in the patience game 'Black Hole'" (AI
Communications, 2007) and CSPLib problem 81: a winning game is a sequence of
all the cards, starting with the hole's first card, in which

- each card from a column differs by one rank from the card before it
  (kings and aces next to each other when the layout wraps);
- a stock card (Golf) may follow any card; stock cards come in stock order;
- the cards of a column leave top first.

Variables: ``pos[c]``, the place of card ``c`` in the sequence, and one literal
per allowed successor pair, tied together by a circuit constraint (the sequence
closed into a Hamiltonian circuit through the start card) and ``next => pos + 1``.
The model is exact: every winning game is a solution and every solution replays.

Optional features (on by default unless noted, each measured by the feature study
that ``benchmarks/cpsat.py --features`` ran, in the project's history):

- ``symmetry``: two tableau cards ``a < b`` of one rank in different columns can
  trade places in a solution whenever the column order allows; keep only the
  lexicographically least such solution (sound: the lex-least winning sequence
  satisfies every such constraint at once).
- ``alldiff``: ``AllDifferent(pos)``, implied by the circuit (off by default).
- ``sequence``: the dual view ``seq[i]``, the card at place ``i`` (channelled by
  element constraints), searched in order with the smallest card first: the search
  builds the game from its start, like the DFS, with CP-SAT's learning on top.
- ``light_presolve``: no probing in presolve (it costs about a second per deal and
  gains nothing measurable here).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, ClassVar

from ortools.sat.python import cp_model

from ... import cards
from ...errors import UnsupportedError
from ...layout import Layout, Reads
from ...limits import Limits
from ..base import Solved
from ..cpsat import feature_flags, make_solver, run
from .rules import neighbours

FEATURES = {"symmetry": True, "alldiff": False, "sequence": True, "light_presolve": True}


# The rules this model is exact for; any other rule value is refused.
READS = Reads("the CP-SAT hole model", {
    "decks": None, "hole.start": None, "hole.wrap": None,
    "tableau.count": None, "tableau.deal": None, "tableau.face_down": lambda v: not any(v),
    "tableau.build": {"none"}, "tableau.spaces": {"none"},
    "stock.turn": {"hole", "none"},
})


def check_supported(layout: Layout) -> None:
    if layout.hole is None:
        raise UnsupportedError(f"layout {layout.name!r}: the hole model needs a [hole]")
    READS.check(layout)


class HoleModel:
    """The model of one deal.  Node 0 is the hole's first card; nodes 1..M are the cards to move."""

    AUTO_SHARE: ClassVar[float] = 0.7  # the auto portfolio's share of the time left (see there)

    def __init__(self, layout: Layout, deal: dict[str, list[int]], features: Any = None):
        check_supported(layout)
        if deal.get("stock") and layout.stock.turn != "hole":  # the stock of a game that never turns it
            raise UnsupportedError(f"layout {layout.name!r}: stock cards but stock.turn is not 'hole'")
        self.layout = layout
        self.near = neighbours(layout)  # the same rule table the DFS position reads
        self.flags = feature_flags(FEATURES, features)
        self.card: list[int] = [deal["hole"][0]]
        self.source: list[str] = ["hole"]
        self.columns: list[list[int]] = []  # node ids, bottom to top
        for i in range(layout.tableau.count):
            col = []
            for c in deal.get(f"tableau:{i}", []):
                col.append(len(self.card))
                self.card.append(c)
                self.source.append(f"tableau:{i}")
            self.columns.append(col)
        self.stock: list[int] = []
        for c in deal.get("stock", []):
            self.stock.append(len(self.card))
            self.card.append(c)
            self.source.append("stock")
        self.model = cp_model.CpModel()
        self._build()

    # ------------------------------------------------------------ building

    def _adjacent(self, a: int, b: int) -> bool:
        return cards.rank(b) in self.near[cards.rank(a)]

    def _build(self) -> None:
        m = self.model
        n = len(self.card)
        last = n - 1
        self.pos = [m.new_constant(0)] + [m.new_int_var(1, last, f"pos{v}") for v in range(1, n)]
        above: dict[int, int] = {}  # node -> the node directly above it in its column
        below: dict[int, int] = {}
        colour: dict[int, int] = {}
        for ci, col in enumerate(self.columns):
            for lo, hi in pairwise(col):
                above[lo], below[hi] = hi, lo
                m.add(self.pos[hi] < self.pos[lo])  # the top card leaves first
            for v in col:
                colour[v] = ci
        stock_index = {v: j for j, v in enumerate(self.stock)}
        for a, b in pairwise(self.stock):
            m.add(self.pos[a] < self.pos[b])
        forbidden_before: dict[int, set[int]] = {}  # v -> nodes that can never come right before v
        for col in self.columns:
            for h, v in enumerate(col):
                # below v: must come after v; two or more above: the one between must come between
                forbidden_before[v] = set(col[:h]) | set(col[h + 2:])
        arcs = []
        self.next: dict[tuple[int, int], cp_model.IntVar] = {}
        for u in range(n):
            for v in range(1, n):
                if u == v or u in forbidden_before.get(v, ()):
                    continue
                if v in stock_index:
                    j = stock_index[v]
                    if u in stock_index and stock_index[u] != j - 1:
                        continue
                elif not self._adjacent(self.card[u], self.card[v]):
                    continue
                lit = m.new_bool_var(f"next{u}_{v}")
                self.next[u, v] = lit
                arcs.append((u, v, lit))
                m.add(self.pos[v] == self.pos[u] + 1).only_enforce_if(lit)
            if u:
                lit = m.new_bool_var(f"end{u}")
                arcs.append((u, 0, lit))
                m.add(self.pos[u] == last).only_enforce_if(lit)
        if n == 1:
            return
        m.add_circuit(arcs)
        if self.flags["alldiff"]:
            m.add_all_different(self.pos)
        if self.flags["symmetry"]:
            self._break_symmetry(above, below, colour)
        if self.flags["sequence"]:
            # seq[i] is the card at place i: pos[seq[i]] = i, with seq all different (the inverse of
            # pos).  Not CP-SAT's AddInverse: with it, OR-Tools 9.15's presolve proved winnable deals
            # infeasible (Black Hole on ranks A..4, seeds 114, 277, 358, 3600 of tests/test_differential.py).
            seq = [m.new_int_var(0, last, f"seq{i}") for i in range(n)]
            for i in range(n):
                m.add_element(seq[i], self.pos, i)
            m.add_all_different(seq)
            m.add_decision_strategy(seq[1:], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)

    def _break_symmetry(self, above: dict[int, int], below: dict[int, int], colour: dict[int, int]) -> None:
        """For tableau cards a < b of one rank in different columns: forbid a solution where b comes
        first although a and b could trade places (the column order allows it)."""
        m, pos = self.model, self.pos
        by_rank: dict[int, list[int]] = {}
        for v in colour:
            by_rank.setdefault(cards.rank(self.card[v]), []).append(v)
        for group in by_rank.values():
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    if colour[a] == colour[b]:
                        continue
                    conds = []
                    b_first = m.new_bool_var("")
                    m.add(pos[b] < pos[a]).only_enforce_if(b_first)
                    m.add(pos[b] > pos[a]).only_enforce_if(~b_first)
                    conds.append(b_first)
                    if a in above:  # a's upper cards are all gone before b's place
                        x = m.new_bool_var("")
                        m.add(pos[above[a]] < pos[b]).only_enforce_if(x)
                        m.add(pos[above[a]] > pos[b]).only_enforce_if(~x)
                        conds.append(x)
                    if b in below:  # b's lower cards all stay until after a's place
                        y = m.new_bool_var("")
                        m.add(pos[below[b]] > pos[a]).only_enforce_if(y)
                        m.add(pos[below[b]] < pos[a]).only_enforce_if(~y)
                        conds.append(y)
                    m.add_bool_or([~c for c in conds])

    # ------------------------------------------------------------- solving

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved:
        solver = make_solver(limits, options)
        if self.flags["sequence"]:
            solver.parameters.search_branching = cp_model.FIXED_SEARCH
        if self.flags["light_presolve"]:
            solver.parameters.cp_model_probing_level = 0
        return run(solver, self.model, limits, options, lambda: self._moves(solver))

    def _moves(self, solver: cp_model.CpSolver) -> list[dict[str, Any]]:
        order = sorted(range(1, len(self.card)), key=lambda v: solver.value(self.pos[v]))
        return [{"card": cards.name(self.card[v]), "from": self.source[v], "to": "hole"} for v in order]
