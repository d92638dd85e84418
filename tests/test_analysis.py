"""Analysing a played game (issue #27): every verdict it reports, whether searched or derived
(winning lines, won before won, lost after lost, a table shared between searches), is the
verdict a search of that position alone gives; the first losing move crosses from won to lost
and its winning line replays; won results have no losing move; a lost deal is lost from the
start; ``hint``; the command line and the viewer."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import api
from solver.cli import main
from solver.engines.dfs import SharedTable, run_dfs
from solver.errors import InputError
from solver.families import family_of, load_layout
from solver.families.base import solution_json
from solver.limits import Limits

COMPLETE = Limits(max_nodes=2_000_000)  # almost every search on the small layouts below finishes within this


def small(name: str, columns: int, ranks: int, deal: tuple[int, ...] = (), face_down: tuple[int, ...] = ()) -> Any:
    """``name`` with fewer reserve columns (``columns``; 0: as many) or tableau columns dealt
    ``deal`` (``face_down`` of them face down), on ranks A..``ranks``."""
    base = load_layout(name)
    if columns:
        base = replace(base, reserve=replace(base.reserve, count=columns))
    if deal:
        base = replace(base, tableau=replace(base.tableau, count=len(deal), deal=deal,
                                             face_down=face_down or (0,) * len(deal)))
    return base.with_max_rank(ranks)


SMALL = {  # small layouts whose random games are decided by complete searches in milliseconds
    "debutante": lambda: small("debutante", 6, 5),
    "debutante-fifo": lambda: small("debutante-fifo", 6, 5),
    "grandfather": lambda: small("grandfather", 6, 5),
    "twenty": lambda: small("twenty", 6, 5),
    "golf": lambda: small("golf", 0, 6, (4, 4, 4, 4)),
    "freecell": lambda: small("freecell", 0, 4),
    "klondike": lambda: small("klondike", 0, 6, (1, 2, 3, 4), (0, 1, 2, 3)),
}


def random_game(layout: Any, deal: Any, rng: random.Random | None, most: int = 80) -> list[dict[str, Any]]:
    """A game of random legal moves (the search's, forced ones first; with no ``rng``, always its
    first choice: a greedy player), to a win, a dead end or ``most`` moves."""
    pos = family_of(layout).start_position(layout, deal)
    for _ in range(most):
        forced = pos.forced_move()
        moves = [forced] if forced is not None else pos.legal_moves()
        if not moves or pos.is_won():
            break
        pos.push(rng.choice(moves) if rng is not None else moves[0])
    played = list(pos.history)
    while pos.history:
        pos.pop()
    return solution_json(pos, played)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SMALL)), seed=st.integers(1, 300), pick=st.randoms(use_true_random=False))
def test_every_verdict_is_the_verdict_of_a_search_of_its_own(name: str, seed: int, pick: random.Random) -> None:
    layout = SMALL[name]()
    family = family_of(layout)
    deal = family.deal_from_seed(layout, seed)
    moves = random_game(layout, deal, pick)
    a = api.analyse(layout, moves, deal=deal, limits=COMPLETE)
    assert a.verdicts.count("unknown") <= len(a.verdicts) // 10  # rare positions outgrow COMPLETE
    game = family.referee(layout, deal)
    positions = [game.position()]
    for m in moves:
        assert game.play(m) is None
        positions.append(game.position())
    for k, pos in enumerate(positions):
        alone = api.solve(layout, deal=pos, limits=COMPLETE).verdict
        if "unknown" not in (a.verdicts[k], alone):  # where both searches decide, they agree
            assert a.verdicts[k] == alone, (name, seed, k, a.how[k])
    i = a.first_losing_move
    if i is not None:
        assert a.verdicts[i] == "won" and a.verdicts[i + 1] == "lost" and a.winning_line_from == i
        assert family.replay(layout, positions[i], a.winning_line or []) is None
    else:  # no move goes from a won position to a lost one: the start is lost, or no position is, or the
        # position before the first lost one stayed unknown
        k = a.lost_after
        assert k is None or k == 0 or a.verdicts[k - 1] == "unknown", (name, seed, a.verdicts)
    if a.verdicts[-1] == "won":
        assert family.replay(layout, positions[-1], a.winning_line or []) is None


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["debutante", "debutante-fifo", "grandfather"]), seed=st.integers(1, 300),
       pick=st.randoms(use_true_random=False), core=st.sampled_from(["python", "compiled"]))
def test_a_shared_table_keeps_every_verdict(name: str, seed: int, pick: random.Random, core: str) -> None:
    """Positions of one game searched one after another, in any order, with one table: the same
    verdicts as each searched alone (``ReserveFamily.shares_table``)."""
    from solver.engines.core import compiled_available

    if core == "compiled" and not compiled_available():
        pytest.skip("the compiled core is not built")
    layout = SMALL[name]()
    family = family_of(layout)
    assert family.shares_table(layout)
    deal = family.deal_from_seed(layout, seed)
    moves = random_game(layout, deal, pick)
    game = family.referee(layout, deal)
    positions = [game.position()]
    for m in moves:
        game.play(m)
        positions.append(game.position())
    order = list(range(len(positions)))
    pick.shuffle(order)
    order = order[:20]  # (a sample of the game's positions, in a random order: cheaper, as telling)
    shared = SharedTable()
    verdicts = set()
    for k in order:
        together = run_dfs(layout, positions[k], COMPLETE, core=core, shared=shared).verdict
        alone = run_dfs(layout, positions[k], COMPLETE, core=core).verdict
        assert together == alone, (name, seed, k)
        verdicts.add(alone)
    assert len(shared) > 0 or "lost" not in verdicts  # a lost search leaves what it exhausted


def test_families_with_cycles_share_no_table() -> None:
    assert not family_of(load_layout("freecell")).shares_table(load_layout("freecell"))
    assert not family_of(load_layout("twenty")).shares_table(load_layout("twenty"))  # gaps take column tops
    assert not family_of(load_layout("golf")).shares_table(load_layout("golf"))  # keys depend on the start
    assert family_of(load_layout("debutante")).shares_table(load_layout("debutante"))


# Layouts with a compiled core, and seeds whose deals are won quickly.
WON = [("debutante", 2), ("debutante", 6), ("colorado", 3), ("grandfather", 4), ("double-line", 5), ("twenty", 1),
       ("sly-fox", 1), ("golf", 2), ("black-hole", 2), ("freecell", 1), ("klondike", 3), ("canfield", 1)]


@pytest.mark.parametrize(("name", "seed"), WON)
def test_won_results_analysed_report_no_losing_move(name: str, seed: int) -> None:
    layout = load_layout(name)
    won = api.solve(layout, seed=seed, limits=Limits(timeout=30))
    assert won.verdict == "won"
    line = won.solution or []
    a = api.analyse(layout, line, seed=seed)
    assert a.first_losing_move is None and set(a.verdicts) == {"won"} and a.stats["searches"] == 0
    assert a.exit_code == 0 and a.winning_line == []
    # cut short, the game is still won: the search of its last position decides every one
    half = line[: len(line) // 2]
    b = api.analyse(layout, half, seed=seed, limits=Limits(timeout=30))
    assert b.first_losing_move is None and set(b.verdicts) == {"won"} and b.winning_line_from == len(half)
    family = family_of(layout)
    end = family.position_after(layout, family.deal_from_seed(layout, seed), half)
    assert family.replay(layout, end, b.winning_line or []) is None


def test_a_lost_deal_is_lost_from_the_start() -> None:
    layout = load_layout("debutante")
    assert api.solve(layout, seed=5).verdict == "lost"
    deal = api.make_deal(layout, seed=5)
    moves = random_game(layout, deal, random.Random(1), most=30)
    a = api.analyse(layout, moves, seed=5)
    assert set(a.verdicts) == {"lost"} and a.first_losing_move is None and a.lost_after == 0
    assert a.stats["searches"] == 1 and "counting bound" in (a.lost_reason() or "")
    assert a.exit_code == 1


def test_a_losing_move_is_found_with_a_winning_line_from_just_before_it() -> None:
    layout = load_layout("debutante")
    deal = api.make_deal(layout, seed=2)
    moves = random_game(layout, deal, None, most=200)  # the greedy player loses this deal
    a = api.analyse(layout, moves, seed=2)
    i = a.first_losing_move
    assert i is not None and a.verdicts[: i + 1] == ["won"] * (i + 1) and set(a.verdicts[i + 1:]) == {"lost"}
    family = family_of(layout)
    before = family.position_after(layout, deal, moves[:i])
    assert family.replay(layout, before, a.winning_line or []) is None
    assert api.solve(layout, deal=family.position_after(layout, deal, moves[: i + 1])).verdict == "lost"
    out = a.to_json()
    assert out["kind"] == "analysis" and out["first_losing_move"] == i and len(out["moves"]) == len(moves)
    assert out["moves"][i]["verdict"] == "lost" and out["deal"] == api.deal(layout, seed=2).to_json()


def test_an_illegal_move_is_named_with_its_index() -> None:
    layout = load_layout("debutante")
    won = api.solve(layout, seed=2)
    moves = [*(won.solution or [])[:5], {"card": "KS", "from": "stock", "to": "foundation:7"}]
    with pytest.raises(InputError, match=r"^moves\[5\]: move 6 "):
        api.analyse(layout, moves, seed=2)


def test_hint() -> None:
    layout = load_layout("debutante")
    won = api.solve(layout, seed=2)
    h = api.hint(layout, seed=2, moves=(won.solution or [])[:30])
    assert h.verdict == "won" and h.move == (h.line or [None])[0] and h.exit_code == 0
    pos = api.position_after(layout, api.make_deal(layout, seed=2), (won.solution or [])[:30])
    assert api.verify_solution(layout, pos, h.line or []) is None
    lost = api.hint(layout, seed=5)
    assert lost.verdict == "lost" and lost.move is None and "counting bound" in (lost.why() or "")
    assert lost.to_json()["reason"] == lost.why()
    done = api.hint(layout, seed=2, moves=won.solution or [])
    assert done.verdict == "won" and done.line == []


# ------------------------------------------------------------------ the command line


def run(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_commands(tmp_path: Any, capsys: Any) -> None:
    layout = load_layout("debutante")
    deal = api.make_deal(layout, seed=2)
    moves = random_game(layout, deal, None, most=200)
    (tmp_path / "game.json").write_text(json.dumps(moves))
    code, out, err = run(["analyse", "debutante", "--seed", "2", "--moves", str(tmp_path / "game.json")], capsys)
    assert code == 1 and err == ""
    assert "first losing move: " in out and "a winning line from just before it" in out
    code, out, _ = run(["analyse", "debutante", "--seed", "2", "--moves", str(tmp_path / "game.json"), "--json",
                        "--out", str(tmp_path / "a.json")], capsys)
    a = json.loads((tmp_path / "a.json").read_text())
    assert code == 1 and a["first_losing_move"] is not None and a["moves"][0]["move"] == moves[0]
    code, out, _ = run(["view", str(tmp_path / "a.json"), "--out", str(tmp_path / "a.html")], capsys)
    page = (tmp_path / "a.html").read_text()
    assert code == 0 and "first losing move" in page and 'id="line"' in page
    # the result of a solve carries its deal: analysed with no start given
    (tmp_path / "r.json").write_text(json.dumps(api.solve(layout, seed=2).to_json()))
    code, out, _ = run(["analyse", "debutante", "--moves", str(tmp_path / "r.json")], capsys)
    assert code == 0 and "no losing move: the game is won" in out
    code, out, _ = run(["hint", "debutante", "--seed", "2", "--moves", str(tmp_path / "game.json")], capsys)
    assert code == 1 and out.startswith("debutante #2: lost (")
    code, out, _ = run(["hint", "debutante", "--seed", "2", "--json"], capsys)
    hint = json.loads(out)
    assert code == 0 and hint["verdict"] == "won" and hint["move"] == hint["line"][0]
    assert family_of(layout).replay(layout, deal, hint["line"]) is None  # the hint starts a win the referee replays
    bad = [*moves[:3], {"card": "KS", "from": "stock", "to": "foundation:7"}]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    code, out, err = run(["analyse", "debutante", "--seed", "2", "--moves", str(tmp_path / "bad.json")], capsys)
    assert code == 2 and out == "" and "bad.json[3]: move 4" in err and err.count("\n") == 1
    code, _, err = run(["analyse", "debutante", "--moves", str(tmp_path / "game.json")], capsys)
    assert code == 2 and "no deal or position in it" in err


def test_an_analysis_file_is_checked_before_it_is_drawn(tmp_path: Any, capsys: Any) -> None:
    layout = api.load_layout("debutante", 6)
    moves = random_game(layout, api.make_deal(layout, seed=3), None)
    good = api.analyse(layout, moves, seed=3).to_json()
    assert api.load_analysis(good)[0].to_json() == good
    for key, value, words in [("first_losing_move", len(moves), "first_losing_move"),
                              ("winning_line", [{"card": "AS", "from": "stock", "to": "reserve:0"}], "winning_line"),
                              ("max_rank", 14, "max_rank"), ("moves", [{"move": 3}], "moves")]:
        bad = dict(good, **{key: value})
        if key == "winning_line":
            bad["winning_line_from"] = 0
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        code, out, err = run(["view", str(tmp_path / "bad.json"), "--out", str(tmp_path / "bad.html")], capsys)
        assert code == 2 and words in err and err.count("\n") == 1 and not (tmp_path / "bad.html").exists()


def test_an_analysis_whose_verdicts_contradict_each_other_is_refused(tmp_path: Any, capsys: Any) -> None:
    """A won position after a lost one, a first losing move that is not the crossing from won to
    lost, a winning line from a lost position: `patience view` refuses each, one line, exit 2."""
    layout = api.load_layout("debutante", 6)
    moves = random_game(layout, api.make_deal(layout, seed=13), None)  # the greedy player loses it
    good = api.analyse(layout, moves, seed=13, limits=COMPLETE).to_json()
    k = good["lost_after"]
    assert k is not None and k >= 2 and good["first_losing_move"] == k - 1  # a game lost on the way

    def edited(change: Any) -> dict[str, Any]:
        bad = json.loads(json.dumps(good))
        change(bad)
        return bad

    def won_after_lost(bad: dict[str, Any]) -> None:
        bad["moves"][-1]["verdict"] = "won"

    def wrong_move(bad: dict[str, Any]) -> None:
        bad["first_losing_move"] = 0

    def line_from_lost(bad: dict[str, Any]) -> None:
        bad["first_losing_move"] = None
        bad["moves"][k - 2]["verdict"] = "unknown"
        bad["winning_line_from"] = k

    for change, words in [(won_after_lost, f"the position after move {k} is lost but the position after move "
                                           f"{len(moves)} is won"),
                          (wrong_move, f"first_losing_move is move 1, but by the verdicts it is move {k}"),
                          (line_from_lost, f"the winning line starts from the position after move {k}, which is lost")]:
        (tmp_path / "bad.json").write_text(json.dumps(edited(change)))
        code, out, err = run(["view", str(tmp_path / "bad.json"), "--out", str(tmp_path / "bad.html")], capsys)
        assert code == 2 and err.count("\n") == 1 and not (tmp_path / "bad.html").exists(), err
        assert "the verdicts contradict each other" in err and words in err, err
