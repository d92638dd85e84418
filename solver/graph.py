"""The state graph of a deal: every position reachable from the deal, and the moves between them.

Built over the generic ``Position`` interface (``solver/families/base.py``), so it serves
every family the engines serve (the hole games, the debutante family, peg
boards) with no code of its own per game.

What the graph is
-----------------
- **Nodes** are transposition keys (``position.key()``): positions that are the
  same for play (interchangeable columns sorted, board symmetries folded) are
  one node, so the transposition table's merging shows as nodes with several
  parents.  A node's moves are generated from the first position reached with
  that key (its *representative*).
- **Edges** are the moves of ``legal_moves()``, exactly as the depth-first
  engine sees them.  Where a family's move generator already applies a proved
  dominance, the graph is the game graph reduced by it: the hole family leaves
  out bottom cards that a same-rank card with cards under it makes redundant,
  and the debutante family asks, for a card a foundation takes now, only "now
  or never" (the second answer is a *decision* edge, ``kind="decision"``,
  label ``decision``: it marks the card and moves no card, so it counts 0
  moves).  With ``follow_forced=True`` the automatic moves (``forced_move``,
  each a proved dominance) are played after every move, as the DFS does, and
  an edge stands for the move and the forced moves after it (``forced``
  counts them); by default they are not followed, so every legal move is its
  own edge.  Several moves leading to one next state make one edge whose
  ``moves`` attribute counts them.
- **Node attributes**: ``depth`` (the fewest moves from the deal; decisions
  cost nothing), ``won``, ``dead`` (the family's sound dead-end bound says no
  win is left; None for states not yet looked at), ``expanded`` (its moves
  are all in the graph) and ``winnable``: True when some path in the graph
  reaches a won state, False when none can (every state reachable from it was
  expanded, or the dead bound says so), None when the graph was cut by
  ``max_nodes``/``timeout`` before that was known.
- **Edge attributes**: ``card``, ``from``, ``to`` (as in the result contract;
  empty strings for decisions), ``count`` (cards moved at once, when more
  than one), ``kind``, ``label``, ``weight`` (moves it stands for, for
  shortest paths), ``moves`` and ``forced``.

States are explored in order of their distance in moves from the deal
(Dijkstra over the edge weights: a breadth-first search that gives decisions
weight 0), so a graph cut by ``max_nodes`` holds the states nearest the deal,
and the first won state reached lies at the end of a shortest win.
"""

from __future__ import annotations

import heapq
import itertools
import json
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputError, PatienceError, VerificationFailed
from .families import AnyLayout, family_of
from .families.base import Position
from .fingerprint import rules_fingerprint
from .result import SEARCH, Result, Verdict

if TYPE_CHECKING:  # networkx is imported where a graph is built: `patience solve` never needs it
    import networkx as nx

DEFAULT_MAX_NODES = 100_000
# Bytes a state costs while exploring (graph node and edges, tree line, queue), measured on
# Twenty with ranks A..4: about 2.7 KB; used to turn --max-memory into a number of states.
BYTES_PER_STATE = 3000
# States in a picture at most: beyond that a drawing is a blot.
MAX_DRAWN = 400
FORMATS = (".graphml", ".gexf", ".dot", ".gv", ".png")


class GraphLimit(PatienceError):
    """The exploration stopped at a limit before it could answer; the message names the limit."""


# ----------------------------------------------------------- exploration


@dataclass
class Exploration:
    """A state graph being built, with the tree of first-reached lines that leads to every state."""

    pos: Position
    follow_forced: bool = False
    prune_dead: bool = False
    graph: nx.DiGraph = field(default_factory=lambda: _nx().DiGraph())
    parent: dict[Hashable, Hashable | None] = field(default_factory=dict)
    chain: dict[Hashable, tuple[Any, ...]] = field(default_factory=dict)  # engine moves from the parent
    reason: str | None = None  # the limit that cut the graph, if any
    expansions: int = 0

    def __post_init__(self) -> None:
        self.depth0 = len(self.pos.history)
        self.root = self.pos.key()
        self.parent[self.root] = None
        self.chain[self.root] = ()
        won = self.pos.is_won()
        self.graph.add_node(self.root, depth=0, won=won, dead=False if won else bool(self.pos.is_dead()),
                            expanded=False)
        self.graph.graph["root"] = self.root

    # -- moving the one mutable position around the tree

    def line(self, key: Hashable) -> list[Any]:
        """The engine moves from the deal to ``key``'s representative."""
        parts = []
        while key is not None:
            parts.append(self.chain[key])
            key = self.parent[key]
        return [m for part in reversed(parts) for m in part]

    def goto(self, key: Hashable) -> None:
        """Put the position on ``key``'s representative, taking back only the moves not shared."""
        target = self.line(key)
        hist = self.pos.history
        same = 0
        limit = min(len(target), len(hist) - self.depth0)
        while same < limit and hist[self.depth0 + same] == target[same]:
            same += 1
        while len(self.pos.history) > self.depth0 + same:
            self.pos.pop()
        for m in target[same:]:
            self.pos.push(m)

    def rewind(self) -> None:
        while len(self.pos.history) > self.depth0:
            self.pos.pop()

    # -- the search

    def run(self, max_nodes: int | None = None, timeout: float | None = None,
            stop_at_win: bool = False, progress: Callable[[dict[str, float | int]], None] | None = None,
            ) -> Hashable | None:
        """Explore by distance in moves; return the first won state reached (a nearest one), if
        ``stop_at_win``, else None.  Sets ``reason`` when a limit cut the exploration.
        ``progress``, if given, is called about twice a second with ``seconds``, ``states``,
        ``expanded`` and ``depth`` (of the state being expanded)."""
        g = self.graph
        nodes = g.nodes
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        next_report = start + 0.5
        tie = itertools.count()
        heap: list[tuple[int, int, Hashable]] = [(0, next(tie), self.root)]
        try:
            while heap:
                d, _, u = heapq.heappop(heap)
                info = nodes[u]
                if info["expanded"] or d > info["depth"]:
                    continue  # already done, or a stale entry
                if info["won"]:
                    info["expanded"] = True  # a won state is an end
                    if stop_at_win:
                        return u
                    continue
                if self.prune_dead and info["dead"]:
                    continue
                if self.expansions & 255 == 0 and (deadline is not None or progress is not None):
                    now = time.perf_counter()
                    if deadline is not None and now > deadline:
                        self.reason = f"timeout {timeout:g} s"
                        return None
                    if progress is not None and now >= next_report:
                        next_report = now + 0.5
                        progress({"seconds": now - start, "states": len(nodes), "expanded": self.expansions,
                                  "depth": d})
                self.goto(u)
                if not self._expand(u, d, heap, tie, max_nodes):
                    self.reason = f"max-nodes {max_nodes}"
                    return None
            return None
        finally:
            self.rewind()

    def _expand(self, u: Hashable, d: int, heap: list, tie: Iterator[int], max_nodes: int | None) -> bool:
        """Add every move of ``u`` (the position stands on it); False if ``max_nodes`` stopped it."""
        pos, g = self.pos, self.graph
        nodes = g.nodes
        self.expansions += 1
        for move in pos.legal_moves():
            chain = [move]
            records = [pos.move_json(move)]
            pos.push(move)
            if self.follow_forced:
                while not pos.is_won() and (f := pos.forced_move()) is not None:
                    records.append(pos.move_json(f))
                    pos.push(f)
                    chain.append(f)
            v = pos.key()
            weight = sum(r is not None for r in records)
            dv = d + weight
            if v not in nodes:
                if max_nodes is not None and len(nodes) >= max_nodes:
                    for _ in chain:
                        pos.pop()
                    return False
                won = pos.is_won()
                g.add_node(v, depth=dv, won=won, dead=False if won else bool(pos.is_dead()), expanded=False)
                self.parent[v], self.chain[v] = u, tuple(chain)
                heapq.heappush(heap, (dv, next(tie), v))
            elif dv < nodes[v]["depth"] and not nodes[v]["expanded"]:
                nodes[v]["depth"] = dv
                self.parent[v], self.chain[v] = u, tuple(chain)
                heapq.heappush(heap, (dv, next(tie), v))
            for _ in chain:
                pos.pop()
            if g.has_edge(u, v):
                g.edges[u, v]["moves"] += 1
            else:
                g.add_edge(u, v, **_edge_data(records, weight))
        nodes[u]["expanded"] = True
        return True

    def solution(self, key: Hashable) -> list[dict[str, Any]]:
        """The moves (result contract) of the tree line to ``key``: a real, playable line."""
        out = []
        try:
            for m in self.line(key):
                record = self.pos.move_json(m)
                if record is not None:  # None: a decision of the search, not a move of the game
                    out.append(record)
                self.pos.push(m)
        finally:
            self.rewind()
        return out


def _edge_data(records: list[dict[str, Any] | None], weight: int) -> dict[str, Any]:
    first = records[0]
    forced = len(records) - 1
    if first is None:
        data: dict[str, Any] = {"card": "", "from": "", "to": "", "kind": "decision", "label": "decision"}
    else:
        data = {"card": first["card"], "from": first["from"], "to": first["to"], "kind": "move",
                "label": f"{first['card']} {first['from']}>{first['to']}"}
        if first.get("count", 1) > 1:
            data["count"] = first["count"]
    if forced:
        data["label"] += f" +{forced} forced"
    data.update(weight=weight, moves=1, forced=forced)
    return data


# ------------------------------------------------------------ the graph


def explore(layout: AnyLayout, deal: Any, max_nodes: int | None = DEFAULT_MAX_NODES, *, follow_forced: bool = False,
            prune_dead: bool = False, timeout: float | None = None, position: Position | None = None,
            stop_at_win: bool = False, progress: Any = None) -> tuple[Exploration, Hashable | None]:
    """Explore the deal; the exploration and, with ``stop_at_win``, the nearest won state."""
    if max_nodes is not None and max_nodes < 1:
        raise InputError(f"--max-nodes: expected a number >= 1, got {max_nodes}")
    if position is None:
        position = family_of(layout).start_position(layout, deal)
    ex = Exploration(position, follow_forced=follow_forced, prune_dead=prune_dead)
    found = ex.run(max_nodes, timeout, stop_at_win, progress)
    return ex, found


def _nx() -> Any:
    import networkx

    return networkx


def state_graph(layout: AnyLayout, deal: Any, max_nodes: int | None = DEFAULT_MAX_NODES, *,
                follow_forced: bool = False, prune_dead: bool = False, timeout: float | None = None,
                position: Position | None = None, progress: Any = None) -> nx.DiGraph:
    """The state graph of ``deal`` (see the module docstring), at most ``max_nodes`` states.

    ``position`` starts from a ready position instead of the layout's (e.g. a family's position
    built with other options).  ``graph.graph`` holds ``root``, ``complete``, ``reason`` (the limit
    that cut it), ``shortest_win`` (moves, or None) and ``solution`` (the moves of one shortest
    win in the result contract, replayable by the referee, or None).
    """
    nx = _nx()
    t0 = time.perf_counter()
    ex, _ = explore(layout, deal, max_nodes, follow_forced=follow_forced, prune_dead=prune_dead,
                    timeout=timeout, position=position, progress=progress)
    g = ex.graph
    _label_winnable(g, ex.prune_dead)
    best = min((n for n, w in g.nodes(data="won") if w), key=lambda n: g.nodes[n]["depth"], default=None)
    g.graph.update(layout=layout.name, complete=ex.reason is None, reason=ex.reason,
                   follow_forced=follow_forced, prune_dead=prune_dead, max_nodes=max_nodes,
                   shortest_win=None, solution=None, seconds=round(time.perf_counter() - t0, 4))
    nx.set_node_attributes(g, False, "shortest")
    nx.set_edge_attributes(g, False, "shortest")
    if best is not None:
        g.graph["shortest_win"] = g.nodes[best]["depth"]
        g.graph["solution"] = ex.solution(best)
        node = best
        while ex.parent[node] is not None:
            g.nodes[node]["shortest"] = True
            g.edges[ex.parent[node], node]["shortest"] = True
            node = ex.parent[node]
        g.nodes[node]["shortest"] = True
    return g


def _label_winnable(g: nx.DiGraph, prune_dead: bool) -> None:
    """``winnable`` by propagation backwards: True if a won state is reachable in the graph;
    else None if an unexplored state is, False if not (or if the dead bound says so)."""
    def backwards(sources: list[Hashable]) -> set[Hashable]:
        seen = set(sources)
        todo = deque(sources)
        while todo:
            v = todo.popleft()
            for u in g.predecessors(v):
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
        return seen

    nodes = g.nodes
    win = backwards([n for n in g if nodes[n]["won"]])
    open_ = backwards([n for n in g if not nodes[n]["expanded"] and not nodes[n]["won"]
                       and not (prune_dead and nodes[n]["dead"])])
    for n in g:
        info = nodes[n]
        if n in win:
            info["winnable"] = True
        elif info["dead"] or n not in open_:
            info["winnable"] = False
        else:
            info["winnable"] = None


def figures(g: nx.DiGraph) -> dict[str, Any]:
    """The graph's figures, by name (see ``patience graph``)."""
    nodes = g.nodes
    expanded = [n for n in g if nodes[n]["expanded"] and not nodes[n]["won"]]
    inner = [n for n in expanded if g.out_degree(n)]
    labels = [nodes[n]["winnable"] for n in g]
    root = g.graph["root"]
    n = g.number_of_nodes()
    winnable = labels.count(True)
    return {
        "states": n,
        "moves": g.number_of_edges(),
        "complete": g.graph.get("complete", True),
        "reason": g.graph.get("reason"),
        "expanded": len(expanded),
        "branching": round(sum(g.out_degree(x) for x in inner) / len(inner), 3) if inner else 0.0,
        "max_branching": max((g.out_degree(x) for x in inner), default=0),
        "transpositions": sum(1 for x in g if g.in_degree(x) > 1),
        "dead_ends": sum(1 for x in expanded if not g.out_degree(x)),
        "dead_by_bound": sum(1 for x in g if nodes[x]["dead"]),
        "won_states": sum(1 for x in g if nodes[x]["won"]),
        "winnable": winnable,
        "not_winnable": labels.count(False),
        "winnable_unknown": labels.count(None),
        "winnable_share": round(winnable / n, 4) if n else 0.0,
        "root_winnable": nodes[root]["winnable"],
        "max_depth": max((nodes[x]["depth"] for x in g), default=0),
        "shortest_win": g.graph.get("shortest_win"),
    }


def shortest_win(layout: AnyLayout, deal: Any, max_nodes: int | None = DEFAULT_MAX_NODES, *,
                 timeout: float | None = None, position: Position | None = None) -> list[dict[str, Any]] | None:
    """A win with the fewest moves (result-contract moves), or None when the deal is lost.

    A search by distance in moves that stops at the first won state (the dead-end bounds cut
    states no win is left from, which never shortens or loses a win).  Raises ``GraphLimit``
    when ``max_nodes`` or ``timeout`` stopped it before a won state was reached.  Replay the
    line with the referee (``GameFamily.replay``) before trusting it (``solve_shortest`` does).
    """
    ex, found = explore(layout, deal, max_nodes, prune_dead=True, timeout=timeout, position=position,
                        stop_at_win=True)
    if found is not None:
        return ex.solution(found)
    if ex.reason is not None:
        raise GraphLimit(ex.reason)
    return None


def solve_shortest(layout: AnyLayout, deal: Any, seed: int | None = None, limits: Any = None,
                   progress: Any = None) -> Any:
    """``patience solve --shortest``: a ``Result`` whose win has the fewest moves, replayed by the
    referee; ``lost`` when every reachable state was explored; ``unknown`` at a limit."""
    max_nodes = DEFAULT_MAX_NODES
    timeout = None
    if limits is not None:
        timeout = limits.timeout
        if limits.max_nodes is not None:
            max_nodes = max(1, limits.max_nodes)
        if limits.max_memory is not None:
            max_nodes = min(max_nodes, max(1, limits.max_memory // BYTES_PER_STATE))
    t0 = time.perf_counter()
    ex, found = explore(layout, deal, max_nodes, prune_dead=True, timeout=timeout, stop_at_win=True,
                        progress=progress)
    solution = ex.solution(found) if found is not None else None
    if solution is not None:
        verdict: Verdict = "won"
        reason = None
    elif ex.reason is not None:
        verdict, reason = "unknown", f"{ex.reason} (the shortest-win search keeps every state it meets)"
    else:
        verdict, reason = "lost", None
    stats: dict[str, Any] = {"nodes": ex.graph.number_of_nodes(), "seconds": round(time.perf_counter() - t0, 4),
                             "shortest": True}
    if solution is not None:
        stats["moves"] = len(solution)
    if verdict != "unknown":
        stats["decided_by"] = SEARCH  # breadth first: a win found, or every reachable state explored
    family = family_of(layout)
    result = Result(layout=layout.name, seed=seed, engine="bfs", verdict=verdict, reason=reason,
                    stats=stats, **family.start_to_json(layout, deal), solution=solution,
                    max_rank=family.max_rank(layout), fingerprint=rules_fingerprint(layout))
    if solution is not None:
        problem = family.replay(layout, deal, solution)
        if problem is not None:
            raise VerificationFailed(f"the shortest-win search claimed a win on {layout.name} seed {seed} "
                                     f"but the verifier says: {problem}")
    return result


# ------------------------------------------------------------ export


def check_out_path(path: str) -> str:
    """The format of an output file, from its extension; ``InputError`` if unknown."""
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise InputError(f"--out {path}: expected a file ending in {', '.join(FORMATS)}, got {ext or 'no extension'!r}")
    if ext == ".png":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError(f"--out {path}: a picture needs matplotlib: pip install "
                             "'patience-solver[plot]'") from None
    return ext


def exportable(g: nx.DiGraph) -> nx.DiGraph:
    """A copy with string node ids (``s0`` is the deal) and scalar attributes only, for files:
    ``key`` is the transposition key's text, ``winnable`` is ``yes``/``no``/``unknown``."""
    nx = _nx()
    ids = {n: f"s{i}" for i, n in enumerate(g)}
    out = nx.DiGraph()
    for k, v in g.graph.items():
        if k == "root":
            v = ids[v]
        if v is None:
            continue
        out.graph[k] = v if isinstance(v, str | int | float | bool) else json.dumps(v)
    for n, data in g.nodes(data=True):
        attrs = {k: v for k, v in data.items() if v is not None and k != "winnable"}
        attrs["winnable"] = {True: "yes", False: "no", None: "unknown"}[data.get("winnable")]
        attrs["key"] = _key_text(n)
        out.add_node(ids[n], **attrs)
    for u, v, data in g.edges(data=True):
        out.add_edge(ids[u], ids[v], **{k: x for k, x in data.items() if x is not None})
    return out


def _key_text(key: Hashable) -> str:
    if isinstance(key, tuple):
        return "(" + ", ".join(_key_text(k) for k in key) + ")"
    if isinstance(key, bytes):
        return key.hex(" ")
    return str(key)


def write_graph(g: nx.DiGraph, path: str) -> None:
    """Write ``g`` as GraphML, GEXF, DOT or a PNG picture, chosen by ``path``'s extension."""
    nx = _nx()
    ext = check_out_path(path)
    try:
        if ext == ".png":
            draw_png(g, path)
            return
        out = exportable(g)
        if ext == ".graphml":
            nx.write_graphml(out, path)
        elif ext == ".gexf":
            nx.write_gexf(out, path)
        else:
            Path(path).write_text(to_dot(out), encoding="utf-8")
    except OSError as e:
        raise InputError(f"--out {path}: cannot write: {e.strerror}") from None


def _dot_quote(x: Any) -> str:
    return '"' + str(x).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _colour(data: dict[str, Any]) -> str:
    if data.get("won"):
        return "gold"
    return {"yes": "palegreen", "no": "lightgrey"}.get(data.get("winnable") or "", "white")


def to_dot(g: nx.DiGraph) -> str:
    """Graphviz DOT text of an ``exportable`` graph: won states gold, states a win is still
    reachable from green, lost ones grey, unknown white; the shortest win in red."""
    lines = [f"digraph {_dot_quote(g.graph.get('layout', 'states'))} {{",
             "  node [shape=circle, style=filled, fontsize=9];", "  edge [fontsize=7];"]
    for n, data in g.nodes(data=True):
        attrs = {"label": data.get("depth", ""), "fillcolor": _colour(data), "tooltip": data.get("key", "")}
        if data.get("shortest"):
            attrs.update(color="red", penwidth=2)
        lines.append(f"  {_dot_quote(n)} [{_dot_attrs(attrs)}];")
    for u, v, data in g.edges(data=True):
        attrs = {"label": _edge_label(data)}
        if data.get("kind") == "decision":
            attrs["style"] = "dashed"
        if data.get("shortest"):
            attrs.update(color="red", penwidth=2)
        lines.append(f"  {_dot_quote(u)} -> {_dot_quote(v)} [{_dot_attrs(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _edge_label(data: dict[str, Any]) -> str:
    moves = data.get("moves", 1)
    return data.get("label", "") + (f" (x{moves})" if moves > 1 else "")


def _dot_attrs(attrs: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_dot_quote(v)}" for k, v in attrs.items())


def draw_png(g: nx.DiGraph, path: str) -> None:
    """A picture: states in rows by depth, coloured as in ``to_dot``, the shortest win in red."""
    nx = _nx()
    n = g.number_of_nodes()
    if n > MAX_DRAWN:
        raise InputError(f"--out {path}: the graph has {n} states; pictures are drawn up to {MAX_DRAWN} "
                         "(write .graphml, .gexf or .dot instead, or lower --max-nodes or --max-ranks)")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    e = exportable(g)
    # Rows by steps from the deal (a decision is a step here, so that no row holds a state and the
    # result of its decision); every state was reached from the deal, so every state gets a row.
    steps = nx.single_source_shortest_path_length(e, e.graph["root"])
    nx.set_node_attributes(e, steps, "row")
    pos = nx.multipartite_layout(e, subset_key="row", align="horizontal")
    pos = {k: (x, -y) for k, (x, y) in pos.items()}  # the deal at the top
    rows = len(set(steps.values()))
    fig, ax = plt.subplots(figsize=(min(24, 4 + n ** 0.5 * 1.2), min(18, 3 + rows * 0.6)))
    edges_on = [(u, v) for u, v, d in e.edges(data=True) if d.get("shortest")]
    size = 300 if n <= 60 else max(20, 6000 // n)
    for kind, style in (("move", "solid"), ("decision", "dashed")):
        edges_off = [(u, v) for u, v, d in e.edges(data=True) if not d.get("shortest") and d.get("kind") == kind]
        nx.draw_networkx_edges(e, pos, edgelist=edges_off, ax=ax, edge_color="#999999", width=0.6,
                               arrowsize=6, node_size=size, style=style)
    nx.draw_networkx_edges(e, pos, edgelist=edges_on, ax=ax, edge_color="red", width=2.2, arrowsize=9,
                           node_size=size)
    for won in (False, True):  # won states as larger stars, on top
        part = [(k, d) for k, d in e.nodes(data=True) if bool(d.get("won")) == won]
        if part:
            nx.draw_networkx_nodes(e, pos, ax=ax, nodelist=[k for k, _ in part],
                                   node_color=[_colour(d) for _, d in part],
                                   node_size=size * (4 if won else 1), node_shape="*" if won else "o",
                                   edgecolors=["red" if d.get("shortest") else "#555555" for _, d in part],
                                   linewidths=[2.0 if d.get("shortest") else 0.5 for _, d in part])
    if n <= 60:
        nx.draw_networkx_labels(e, pos, labels={k: str(d["depth"]) for k, d in e.nodes(data=True)}, ax=ax,
                                font_size=7)
    if e.number_of_edges() <= 40:
        nx.draw_networkx_edge_labels(e, pos, ax=ax, font_size=6,
                                     edge_labels={(u, v): _edge_label(d) for u, v, d in e.edges(data=True)})
    f = figures(g)
    win = f"shortest win {f['shortest_win']} moves" if f["shortest_win"] is not None else "no win found"
    ax.set_title(f"{g.graph.get('layout', '')}: {f['states']} states, {f['moves']} moves, {win}\n"
                 "gold: won; green: still winnable; grey: lost; white: unknown; red: a shortest win; "
                 "dashed: a decision",
                 fontsize=9)
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
