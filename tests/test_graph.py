"""The state graph (solver/graph.py), ``patience graph`` and ``patience solve --shortest``."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest

from solver import api, cards, graph
from solver.api import verify_solution
from solver.cli import main
from solver.engines.dfs import dfs
from solver.families import parse_layout_text
from solver.limits import Limits

BLACK_HOLE = api.load_layout("black-hole")
GOLF = api.load_layout("golf")


def small(base, columns: int, max_rank: int = 13, per: int = 1):
    """``base`` with ``columns`` columns of ``per`` cards and ranks A..max_rank."""
    return replace(base, max_rank=max_rank, tableau=replace(base.tableau, count=columns, deal=(per,) * columns))


def hole_deal(hole: str, columns: list[str]) -> dict[str, list[int]]:
    """A deal from text: one column per string, bottom card first."""
    d = {"hole": [cards.parse(hole)]}
    for i, col in enumerate(columns):
        d[f"tableau:{i}"] = [cards.parse(c) for c in col.split()]
    return d


def board_toml(shape: list[str], empty: list[str], pegs: int = 1, goal_hole: str | None = None) -> str:
    rows = ", ".join(json.dumps(r) for r in shape)
    goal = f"pegs = {pegs}\n" + (f'hole = "{goal_hole}"\n' if goal_hole else "")
    return f'title = "test"\n[board]\nshape = [{rows}]\n[start]\nempty = {json.dumps(empty)}\n[goal]\n{goal}'


def peg_board(shape: list[str], empty: list[str], pegs: int = 1, goal_hole: str | None = None):
    return parse_layout_text(board_toml(shape, empty, pegs, goal_hole), "test board", "board")


# ------------------------------------------------------------ hand-counted graphs
#
# Black Hole rules (ranks wrap, no stock) on one-card columns, hole 5S.  A state is the hole's
# rank and the multiset of ranks left (columns of equal cards are interchangeable: the key merges
# them, and the move generator offers one of two equal one-card columns).  A move plays a card
# one rank above or below the hole.  Listing "hole rank {ranks left}":
#
# A: {4,5,5,6}.  S0 5{4,5,5,6} -> 4{5,5,6} | 6{4,5,5};  4{5,5,6} -> 5{5,6} -> 6{5} -> 5{} won;
#    6{4,5,5} -> 5{4,5} -> 4{5} -> 5{} won (the same won state: two parents).
#    8 states, 8 moves (2 + six single moves), 1 transposition, 1 won state, every state winnable,
#    shortest win 4 moves, no dead end.
# B: {4,5,6,6,7}.  S0 5{4,5,6,6,7} -> a 4{5,6,6,7} | b 6{4,5,6,7}
#    a -> c 5{6,6,7} -> f 6{6,7} -> j 7{6} -> W1 6{} won
#    b -> d 5{4,6,7} | e 7{4,5,6};  d -> g 4{6,7} (no move) | h 6{4,7} -> k 7{4} (no move)
#    e -> i 6{4,5} -> l 5{4} -> W2 4{} won
#    15 states, moves 2+1+2+1+2+1+1+0+1+1+1+0+1 = 14, no transposition, 2 won states, dead ends
#    g and k, not winnable d, g, h, k (4), winnable 11, shortest win 5.
# C: {4,5,5,6,7}.  S0 5{4,5,5,6,7} -> a 4{5,5,6,7} | b 6{4,5,5,7}
#    a -> c 5{5,6,7} -> f 6{5,7} -> h 5{7} | i 7{5}   (h, i: no move)
#    b -> d 5{4,5,7} | e 7{4,5,5} (no move);  d -> g 4{5,7} -> 5{7} = h (a transposition)
#    10 states, moves 2+1+2+1+1+0+2+1+0+0 = 10, 1 transposition, 3 dead ends, nothing winnable.
HAND = [
    # ranks, states, moves, transpositions, dead ends, won states, winnable, shortest
    (["4H", "5C", "5D", "6S"], 8, 8, 1, 0, 1, 8, 4),
    (["4H", "5C", "6D", "6S", "7C"], 15, 14, 0, 2, 2, 11, 5),
    (["4H", "5C", "6D", "5D", "7C"], 10, 10, 1, 3, 0, 0, None),
]


@pytest.mark.parametrize("columns, states, moves, transpositions, dead_ends, won, winnable, shortest", HAND)
def test_hand_counted_hole_graphs(columns, states, moves, transpositions, dead_ends, won, winnable, shortest):
    lay, deal = small(BLACK_HOLE, len(columns)), hole_deal("5S", columns)
    g = graph.state_graph(lay, deal)
    f = graph.figures(g)
    assert (f["states"], f["moves"], f["transpositions"], f["dead_ends"], f["won_states"], f["winnable"]) == \
        (states, moves, transpositions, dead_ends, won, winnable)
    assert f["complete"] and f["winnable_unknown"] == 0 and f["not_winnable"] == states - winnable
    assert f["shortest_win"] == shortest
    assert f["root_winnable"] is (shortest is not None)
    assert [d for _, d in g.nodes(data="depth")].count(0) == 1
    if shortest is not None:
        assert len(g.graph["solution"]) == shortest
        assert verify_solution(lay, deal, g.graph["solution"]) is None


def test_hand_counted_follow_forced():
    # Deal A with the forced moves followed.  The hole family forces a move only when it is the
    # single card that fits: at 4{5,5,6} two 5s fit, so nothing is forced there or at 6{4,5,5}.
    # S0 -> 4{5,5,6} -> (5, then forced 6, 5) won;  S0 -> 6{4,5,5} -> (5, then forced 4, 5) won.
    # 4 states, 4 moves; both last edges stand for 3 moves (weight 3, 2 forced).
    lay, deal = small(BLACK_HOLE, 4), hole_deal("5S", ["4H", "5C", "5D", "6S"])
    g = graph.state_graph(lay, deal, follow_forced=True)
    f = graph.figures(g)
    assert (f["states"], f["moves"], f["won_states"], f["shortest_win"]) == (4, 4, 1, 4)
    assert sorted(d["forced"] for _, _, d in g.edges(data=True)) == [0, 0, 2, 2]
    assert verify_solution(lay, deal, g.graph["solution"]) is None


@pytest.mark.parametrize("goal_pegs", [1, 2])
def test_hand_counted_peg_line(goal_pegs):
    # A row of 7 holes a..g, pegs on b c e f.  The board's mirror (a<->g, b<->f, c<->e) folds the
    # keys.  S0 has 4 jumps: b>d gives {d,e,f}, f>d gives its mirror {b,c,d}: one state reached by
    # 2 moves; c>a gives {a,e,f}, e>g its mirror {b,c,g}: another.  From X={a,e,f}: e>g {a,g},
    # f>d {a,d}.  From Y={d,e,f}: e>c {c,f}, e>g {d,g} = mirror of {a,d}: a transposition.  Two
    # pegs cannot jump.  6 states, 6 edges (8 moves), 1 transposition; with a goal of one peg the
    # three 2-peg states are dead ends and nothing is winnable; with a goal of two they are won.
    lay = peg_board(["ooooooo"], ["a1", "d1", "g1"], pegs=goal_pegs)
    deal = api.make_deal(lay)
    g = graph.state_graph(lay, deal)
    f = graph.figures(g)
    assert (f["states"], f["moves"], f["transpositions"]) == (6, 6, 1)
    assert sorted(d["moves"] for _, _, d in g.edges(data=True)) == [1, 1, 1, 1, 2, 2]
    if goal_pegs == 1:
        assert (f["dead_ends"], f["won_states"], f["winnable"], f["root_winnable"]) == (3, 0, 0, False)
    else:
        assert (f["dead_ends"], f["won_states"], f["winnable"], f["root_winnable"]) == (0, 3, 6, True)
        assert f["shortest_win"] == 2
        assert api.verify_solution(lay, deal, g.graph["solution"]) is None


def test_reserve_decisions_are_edges_of_their_own():
    lay = api.load_layout("colorado", max_rank=4)
    g = graph.state_graph(lay, api.make_deal(lay, 1), prune_dead=True)
    kinds = {d["kind"] for _, _, d in g.edges(data=True)}
    assert kinds == {"move", "decision"}
    for _, _, d in g.edges(data=True):
        assert (d["label"] == "decision") == (d["kind"] == "decision")
        assert d["weight"] == (0 if d["kind"] == "decision" else 1)
    # a decision moves no card, so it leaves the depth (in moves) as it was
    assert all(g.nodes[v]["depth"] <= g.nodes[u]["depth"] + d["weight"] for u, v, d in g.edges(data=True))


# ------------------------------------------------------------ against the engines


def reduced_deals():
    """(layout, deal, prune_dead) for small deals of every family, won and lost ones."""
    out = []
    mini_bh = small(BLACK_HOLE, 5, 4, 3)  # 5 fans of 3 and the hole: A..4 exactly
    out += [(mini_bh, api.make_deal(mini_bh, s), False) for s in range(1, 7)]
    mini_golf = small(GOLF, 4, 4, 3)
    out += [(mini_golf, api.make_deal(mini_golf, s), False) for s in range(1, 5)]
    golf5 = small(GOLF, 5, 5, 3)
    out += [(golf5, api.make_deal(golf5, s), False) for s in range(1, 5)]
    colorado = api.load_layout("colorado", max_rank=4)
    out += [(colorado, api.make_deal(colorado, s), True) for s in range(1, 4)]
    for shape, empty, goal in ((["ooo", "ooo", "ooo"], "a1", "a1"), (["ooo", "ooo", "ooo"], "b1", None),
                               (["  o  ", "  o  ", "ooooo", "  o  ", "  o  "], "c3", "c3"),
                               (["oooo", "oooo", "oooo"], "a1", None), (["oooo", "oooo", "oooo"], "b2", "b2")):
        lay = peg_board(shape, [empty], goal_hole=goal)
        out.append((lay, api.make_deal(lay), False))
    return out


def test_root_label_agrees_with_both_engines():
    verdicts = []
    for lay, deal, prune in reduced_deals():
        g = graph.state_graph(lay, deal, prune_dead=prune)
        assert g.graph["complete"], lay.name
        by_dfs = api.solve(lay, deal=deal, engine="dfs").verdict
        by_cpsat = api.solve(lay, deal=deal, engine="cpsat", limits=Limits(timeout=60)).verdict
        root = g.nodes[g.graph["root"]]["winnable"]
        assert {by_dfs, by_cpsat} == {"won" if root else "lost"}, (lay.name, deal, by_dfs, by_cpsat, root)
        verdicts.append(by_dfs)
    assert {"won", "lost"} <= set(verdicts)  # both kinds of deal were checked


def test_every_state_label_agrees_with_the_dfs():
    """Not only the root: from every state of a whole graph the DFS finds what the label says."""
    lay = small(GOLF, 4, 4, 3)
    for seed in (1, 2):
        ex, _ = graph.explore(lay, api.make_deal(lay, seed))
        g = ex.graph
        graph._label_winnable(g, prune_dead=False)
        labels = set()
        for node in g:
            ex.goto(node)
            assert ex.pos.key() == node
            out = dfs(ex.pos)
            assert (out.verdict == "won") is g.nodes[node]["winnable"], node
            labels.add(g.nodes[node]["winnable"])
        ex.rewind()
        assert labels == {True, False}


def test_shortest_win_no_longer_than_dfs_and_verified():
    shorter = 0
    cases = [(api.load_layout("debutante", max_rank=3), s) for s in (2, 5)]
    cases += [(api.load_layout("colorado", max_rank=4), s) for s in (1, 2, 4)]
    mini_bh = small(BLACK_HOLE, 5, 4, 3)
    cases += [(mini_bh, s) for s in (1, 2)]
    for lay, seed in cases:
        deal = api.make_deal(lay, seed)
        by_dfs = api.solve(lay, deal=deal)
        best = graph.shortest_win(lay, deal)
        assert by_dfs.verdict == "won" and best is not None
        assert len(best) <= len(by_dfs.solution)
        assert verify_solution(lay, deal, best) is None
        shorter += len(best) < len(by_dfs.solution)
        # the whole graph agrees on the length
        g = graph.state_graph(lay, deal, prune_dead=True)
        assert g.graph["shortest_win"] == len(best)
    assert shorter >= 2  # debutante 2 and 5, colorado 4: the DFS's first win has a detour


def test_tableau_family():
    """The same graph code serves the tableau family (FreeCell rules on 4 columns of 2, one cell, A..2)."""
    fc = api.load_layout("freecell")
    lay = replace(fc, max_rank=2, tableau=replace(fc.tableau, count=4, deal=(2,) * 4), cells=replace(fc.cells, count=1))
    for seed in (1, 5):
        deal = api.make_deal(lay, seed)
        g = graph.state_graph(lay, deal)
        by_dfs = api.solve(lay, deal=deal)
        assert g.graph["complete"] and (by_dfs.verdict == "won") is g.nodes[g.graph["root"]]["winnable"]
        assert g.graph["shortest_win"] <= len(by_dfs.solution)
        assert verify_solution(lay, deal, g.graph["solution"]) is None


def test_shortest_result_lost_and_limits():
    lay = api.load_layout("debutante", max_rank=3)
    deal = api.make_deal(lay, 2)
    res = graph.solve_shortest(lay, deal, 2)
    assert res.verdict == "won" and res.stats["shortest"] and res.stats["moves"] == len(res.solution) == 24
    assert api.verify(res.to_json(), lay) is None  # a reduced deck: the layout is passed
    cut = graph.solve_shortest(lay, deal, 2, Limits(max_nodes=50))
    assert cut.verdict == "unknown" and cut.reason.startswith("max-nodes 50") and cut.solution is None
    with pytest.raises(graph.GraphLimit, match="max-nodes 50"):
        graph.shortest_win(lay, deal, 50)
    lost_lay, lost = small(BLACK_HOLE, 5), hole_deal("5S", ["4H", "5C", "6D", "5D", "7C"])
    assert graph.shortest_win(lost_lay, lost) is None
    assert graph.solve_shortest(lost_lay, lost).verdict == "lost"


def test_cut_graph_labels_are_honest():
    lay = small(GOLF, 4, 4, 3)
    deal = api.make_deal(lay, 1)  # won in 15 moves; the whole graph has 464 states
    g = graph.state_graph(lay, deal, max_nodes=40)
    f = graph.figures(g)
    assert not f["complete"] and f["reason"] == "max-nodes 40" and f["states"] == 40
    assert f["root_winnable"] is None and f["winnable_unknown"] > 0
    whole = graph.state_graph(lay, deal)
    assert whole.nodes[g.graph["root"]]["winnable"] is True
    assert any(label is False for _, label in g.nodes(data="winnable"))  # some are known lost already
    for node, label in g.nodes(data="winnable"):  # a label given on the cut graph is the true one
        if label is not None:
            assert whole.nodes[node]["winnable"] is label


# ------------------------------------------------------------ files


def test_export_round_trip(tmp_path):
    lay = small(BLACK_HOLE, 5, 4, 3)
    g = graph.state_graph(lay, api.make_deal(lay, 1))
    n, m = g.number_of_nodes(), g.number_of_edges()
    graph.write_graph(g, str(tmp_path / "g.graphml"))
    back = nx.read_graphml(tmp_path / "g.graphml")
    assert (back.number_of_nodes(), back.number_of_edges()) == (n, m)
    assert back.nodes["s0"]["depth"] == 0 and back.graph["root"] == "s0"
    assert sum(d["won"] for _, d in back.nodes(data=True)) == graph.figures(g)["won_states"]
    assert {d["winnable"] for _, d in back.nodes(data=True)} == {"yes", "no"}
    assert sum(d["shortest"] for _, _, d in back.edges(data=True)) == g.graph["shortest_win"]
    graph.write_graph(g, str(tmp_path / "g.gexf"))
    back = nx.read_gexf(tmp_path / "g.gexf")
    assert (back.number_of_nodes(), back.number_of_edges()) == (n, m)
    graph.write_graph(g, str(tmp_path / "g.dot"))
    text = (tmp_path / "g.dot").read_text()
    assert text.startswith("digraph ") and text.count(" -> ") == m and text.rstrip().endswith("}")


def test_dot_quotes_what_it_must():
    g = nx.DiGraph(layout='say "hi"')
    g.add_node("a", depth=0, won=False, winnable="yes", key='x"y\\z')
    g.add_edge("a", "a", label='q"', kind="move")
    text = graph.to_dot(g)
    assert 'digraph "say \\"hi\\""' in text and 'tooltip="x\\"y\\\\z"' in text and 'label="q\\""' in text


def test_png_picture(tmp_path):
    pytest.importorskip("matplotlib")
    lay = peg_board(["ooooooo"], ["a1", "d1", "g1"], pegs=2)
    g = graph.state_graph(lay, api.make_deal(lay))
    graph.write_graph(g, str(tmp_path / "g.png"))
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------ the command line


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as e:  # argparse errors
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


MINI_BH_TOML = """title = "Mini Black Hole"
description = "Black Hole with 5 fans of 3"
rules_version = 1
decks = 1
[hole]
start = "AS"
wrap = true
[tableau]
count = 5
deal = [3, 3, 3, 3, 3]
build = "none"
spaces = "none"
[deal]
order = ["tableau"]
"""


def test_cli_graph(tmp_path, capsys):
    (tmp_path / "mini.toml").write_text(MINI_BH_TOML)
    out_file = tmp_path / "g.graphml"
    code, out, err = run(["graph", str(tmp_path / "mini.toml"), "--max-ranks", "4", "--seed", "1",
                          "--shortest", "--out", str(out_file)], capsys)
    assert code == 0, err
    assert "states             352" in out and "shortest win       15 moves" in out and "  15. " in out
    assert nx.read_graphml(out_file).number_of_nodes() == 352
    code, out, _ = run(["graph", "colorado", "--max-ranks", "4", "--seed", "1", "--prune-dead", "--json"], capsys)
    f = json.loads(out)["figures"]
    assert code == 0 and f["states"] == 282 and f["shortest_win"] == 24 and f["root_winnable"] is True
    code, out, _ = run(["graph", "english-33", "--max-nodes", "300"], capsys)
    assert code == 0 and "cut at max-nodes 300" in out and "not known" in out


def test_cli_solve_shortest(capsys):
    code, out, _ = run(["solve", "colorado", "--max-ranks", "4", "--seed", "4", "--shortest", "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["verdict"] == "won" and res["stats"]["shortest"] and len(res["solution"]) == 24
    assert api.verify(res, api.load_layout("colorado", max_rank=4)) is None
    code, out, _ = run(["solve", "colorado", "--max-ranks", "4", "--seed", "4", "--shortest", "--max-nodes", "20"],
                       capsys)
    assert code == 3 and "unknown (max-nodes 20" in out


@pytest.mark.parametrize("argv, words", [
    (["graph", "colorado", "--seed", "1", "--max-ranks", "4", "--out", "g.txt"], "--out g.txt"),
    (["graph", "colorado", "--seed", "1", "--max-ranks", "4", "--out", "g"], "no extension"),
    (["graph", "colorado", "--seed", "1", "--max-nodes", "0"], "--max-nodes"),
    (["graph", "colorado", "--seed", "1", "--max-ranks", "0"], "--max-ranks"),
    (["graph", "english-33", "--max-ranks", "3"], "no cards"),
    (["graph", "colorado", "--max-ranks", "4"], "--seed"),
    (["graph", "colorado", "--seed", "1", "--max-ranks", "4", "--max-nodes", "500", "--out", "big.png"],
     "more than 400 states"),
    (["solve", "colorado", "--seed", "1", "--max-ranks", "4", "--shortest", "--engine", "cpsat"], "--shortest"),
])
def test_cli_bad_input(argv, words, capsys, tmp_path, monkeypatch):
    if argv[-1] == "big.png":
        pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err
    assert not any(Path(tmp_path).iterdir())  # nothing half-written


def test_cli_png_without_matplotlib(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, _, err = run(["graph", "colorado", "--seed", "1", "--max-ranks", "4", "--out", str(tmp_path / "g.png")],
                       capsys)
    assert code == 2 and "matplotlib" in err and len(err.strip().splitlines()) == 1
