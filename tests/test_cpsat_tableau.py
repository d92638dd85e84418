"""The CP-SAT tableau model (solver/families/tableau/model.py) against the DFS and the referee.

Reduced decks only (ranks A..2 to A..5, a few A..7 and A..9 for group moves).  The
FreeCell-family layouts never lose on such decks, so two small layouts written here
(four columns, one cell or none) supply lost deals with the same rules.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver import api, cards
from solver.api import verify_solution
from solver.engines.cpsat import build
from solver.errors import UnsupportedError
from solver.families.tableau.model import TableauModel, single_card_moves
from solver.limits import Limits

LIMITS = Limits(timeout=60)

SMALL = """title = "{name}"
rules_version = 1
decks = 1
[foundations]
rows = [{{ base = "A", build = "up" }}]
[tableau]
count = 4
deal = [13, 13, 13, 13]
build = "{build}"
spaces = "any"
moves = "{moves}"
[cells]
count = {cells}
"""
SMALL_LAYOUTS = {
    "small-freecell": dict(build="alternate", moves="supermove", cells=1),
    "small-bakers": dict(build="suit", moves="supermove", cells=0),
    "small-sequence": dict(build="alternate", moves="sequence", cells=1),
}


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("layouts")
    paths = {}
    for name, params in SMALL_LAYOUTS.items():
        path = root / f"{name}.toml"
        path.write_text(SMALL.format(name=name, **params))
        paths[name] = str(path)
    return paths


def layout_of(name: str, max_rank: int, small: dict[str, str]):
    return api.load_layout(small.get(name, name), max_rank)


def cpsat(lay, seed: int, **options):
    return api.solve(lay, seed=seed, engine="cpsat", limits=LIMITS, workers=1, **options)


def dfs(lay, seed: int):
    return api.solve(lay, seed=seed, engine="dfs", limits=Limits(timeout=20))


# ------------------------------------------------------------------ wins


@pytest.mark.parametrize("name,max_rank,seed", [
    ("freecell", 3, 1), ("freecell", 4, 2), ("bakers-game", 4, 1), ("bakers-dozen", 4, 2),
    ("bakers-dozen", 5, 1), ("eight-off", 4, 1), ("seahaven-towers", 4, 3), ("forecell", 4, 2),
])
def test_small_deals_are_won_and_the_referee_accepts_the_plan(name, max_rank, seed):
    lay = api.load_layout(name, max_rank)
    result = cpsat(lay, seed)  # api.solve has replayed the plan already
    assert result.verdict == "won", result.reason
    assert result.stats["model"] == "TableauModel"
    assert all(m.get("count", 1) == 1 for m in result.solution)
    assert api.verify(result.to_json()) is None
    deal = api.make_deal(lay, seed)
    broken = result.solution[:-1]
    assert verify_solution(lay, deal, broken) is not None  # the referee does look at the plan


def test_the_both_engine_agrees_on_a_reduced_freecell():
    lay = api.load_layout("freecell", 4)
    result = api.solve(lay, seed=1, engine="both", limits=LIMITS, workers=1)
    assert result.stats["dfs"]["verdict"] == result.stats["cpsat"]["verdict"] == "won"


# ------------------------------------------------- the two engines agree


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["freecell", "bakers-game", "bakers-dozen", "seahaven-towers",
                             "small-freecell", "small-bakers"]),
       max_rank=st.integers(2, 4), seed=st.integers(1, 300))
def test_both_engines_agree(small, name, max_rank, seed):
    """DFS won => CP-SAT finds a plan within the DFS's length in single-card moves;
    DFS lost => CP-SAT finds no plan even at four moves per card."""
    lay = layout_of(name, max_rank, small)
    by_dfs = dfs(lay, seed)
    deal = api.make_deal(lay, seed)
    if by_dfs.verdict == "won":
        horizon = len(single_card_moves(lay, deal, by_dfs.solution))
        by_cpsat = cpsat(lay, seed, horizon=horizon)
        assert by_cpsat.verdict == "won", (name, max_rank, seed, by_cpsat.reason)
        assert len(by_cpsat.solution) <= horizon
    elif by_dfs.verdict == "lost":
        assert cpsat(lay, seed).verdict in ("lost", "unknown")
        horizon = 4 * len(lay.pack())
        by_plan = cpsat(lay, seed, horizon=horizon, features="-relaxation")
        assert by_plan.verdict == "unknown", (name, max_rank, seed)
        assert by_plan.reason.startswith(f"horizon: no win within {horizon} single-card moves")
    assert by_dfs.verdict == "lost" or cpsat(lay, seed).verdict != "lost"


@pytest.mark.parametrize("name,max_rank,seeds", [("small-bakers", 4, [1, 2]), ("small-freecell", 5, [7, 11]),
                                                 ("bakers-dozen", 4, [1])])
def test_lost_deals_beyond_the_relaxation_give_unknown_naming_the_horizon(small, name, max_rank, seeds):
    lay = layout_of(name, max_rank, small)
    for seed in seeds:
        assert dfs(lay, seed).verdict == "lost"
        result = cpsat(lay, seed, features="-relaxation")  # the default horizons, in turn
        assert result.verdict == "unknown"
        assert result.reason.startswith("horizon: no win within") and "not a proof" in result.reason
        if name != "bakers-dozen":  # free cells or spaces: the relaxation proves nothing either
            assert cpsat(lay, seed).verdict == "unknown"


# ---------------------------------------------------- the order relaxation


@pytest.mark.parametrize("seed", [1, 10, 25, 34])
def test_the_order_relaxation_proves_what_the_dfs_proves(seed):
    lay = api.load_layout("bakers-dozen", 4)
    result = api.solve(lay, seed=seed, engine="both", limits=LIMITS, workers=1)
    assert result.verdict == "lost"
    assert result.stats["dfs"]["verdict"] == result.stats["cpsat"]["verdict"] == "lost"


def steps_of(model: TableauModel, plan: list[dict]) -> tuple[list[int], list[int]]:
    """Each card's first move and its move home, as steps of ``plan``."""
    index = {c: a for a, c in enumerate(model.card)}
    first: dict[int, int] = {}
    home: dict[int, int] = {}
    for t, move in enumerate(plan):
        a = index[cards.parse(move["card"])]
        first.setdefault(a, t)
        if move["to"].startswith("foundation"):
            home[a] = t
    return [first[a] for a in range(len(model.card))], [home[a] for a in range(len(model.card))]


@pytest.mark.parametrize("name,max_rank,seed", [
    ("bakers-dozen", 4, 2), ("bakers-dozen", 5, 1), ("bakers-dozen", 6, 1), ("bakers-dozen", 7, 2),
    ("freecell", 5, 1), ("small-bakers", 4, 11),
])
def test_every_dfs_win_satisfies_the_order_relaxation(small, name, max_rank, seed):
    lay = layout_of(name, max_rank, small)
    deal = api.make_deal(lay, seed)
    by_dfs = dfs(lay, seed)
    assert by_dfs.verdict == "won"
    model = build(lay, deal)
    relaxation = model.relaxation()
    first, home = steps_of(model, single_card_moves(lay, deal, by_dfs.solution))
    order = {t: i for i, t in enumerate(sorted(set(first + home)))}  # only the order of the steps counts
    for a in range(len(model.card)):
        relaxation.add(model.first[a] == order[first[a]])
        relaxation.add(model.home_step[a] == order[home[a]])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(relaxation) in (cp_model.OPTIMAL, cp_model.FEASIBLE), (name, max_rank, seed)


# --------------------------- every single-card win is a solution of the model
#
# The model is exact within its horizon when (a) every solution replays, which the
# referee checks on every win above, and (b) every winning game of single-card moves is
# a solution.  For (b) the DFS's wins, made card by card, are written into the model
# (each move fixed, destination included) and CP-SAT must accept them.  ``merge`` is off:
# it keeps some shortest win, not every win.


def fix_plan(model: TableauModel, plan: list[dict]) -> None:
    index = {c: a for a, c in enumerate(model.card)}
    cols = [[index[c] for c in model.deal.get(f"tableau:{i}", [])] for i in range(model.ncol)]
    cells = {j: index[model.deal[f"cell:{j}"][0]] for j in range(model.ncell) if model.deal.get(f"cell:{j}")}
    m = model.model
    for t, move in enumerate(plan):
        a = index[cards.parse(move["card"])]
        kind, i = move["from"].split(":")
        assert (cols[int(i)].pop() if kind == "tableau" else cells.pop(int(i))) == a
        m.add(model.mv[t][a] == 1)
        kind, i = move["to"].split(":")
        if kind == "foundation":
            m.add(model.home[t + 1][a] == 1)
        elif kind == "cell":
            cells[int(i)] = a
            m.add(model.cell[t + 1][a] == 1)
        else:
            col = cols[int(i)]
            m.add((model.on[t + 1][a][col[-1]] if col else model.root[t + 1][a]) == 1)
            col.append(a)


@pytest.mark.parametrize("name,max_rank,seed", [
    ("freecell", 4, 1), ("freecell", 7, 1), ("bakers-game", 5, 4), ("bakers-dozen", 5, 1),
    ("eight-off", 7, 3), ("forecell", 7, 3), ("small-freecell", 4, 3),
])
def test_every_dfs_win_made_card_by_card_is_a_solution(small, name, max_rank, seed):
    lay = layout_of(name, max_rank, small)
    deal = api.make_deal(lay, seed)
    by_dfs = dfs(lay, seed)
    assert by_dfs.verdict == "won"
    plan = single_card_moves(lay, deal, by_dfs.solution)
    assert verify_solution(lay, deal, plan) is None
    model = build(lay, deal, "-merge")
    model._build(len(plan))
    fix_plan(model, plan)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), (name, max_rank, seed)


@pytest.mark.parametrize("name,max_rank,seed", [("freecell", 9, 5), ("bakers-game", 9, 3), ("eight-off", 9, 3)])
def test_group_moves_are_carried_card_by_card(name, max_rank, seed):
    lay = api.load_layout(name, max_rank)
    deal = api.make_deal(lay, seed)
    solution = dfs(lay, seed).solution
    groups = [m["count"] for m in solution if m.get("count", 1) > 1]
    assert groups, "no group move to carry"
    plan = single_card_moves(lay, deal, solution)
    assert verify_solution(lay, deal, plan) is None
    assert len(plan) >= len(solution) + sum(groups)  # each extra card of a group moves at least twice


# ------------------------------------------------------------- refusals


@pytest.mark.parametrize("name,max_rank,what", [
    ("klondike", 8, "tableau.face_down = (0, 1, 2, 3, 4, 5, 6)"),
    ("forty-thieves", 7, "decks = 2"),
    ("small-sequence", 4, "tableau.moves = 'sequence'"),
])
def test_layouts_the_model_does_not_capture_are_refused_in_one_line(small, name, max_rank, what):
    lay = layout_of(name, max_rank, small)
    with pytest.raises(UnsupportedError, match="the CP-SAT tableau model does not play") as refused:
        cpsat(lay, 1)
    assert what in str(refused.value) and "\n" not in str(refused.value)


def test_a_time_limit_gives_unknown_with_the_limit_named():
    lay = api.load_layout("freecell")
    result = api.solve(lay, seed=1, engine="cpsat", limits=Limits(timeout=0.5), workers=1)
    assert result.verdict == "unknown" and result.reason == "timeout 0.5 s"


def test_a_fixed_horizon_too_short_for_any_win_is_named():
    lay = api.load_layout("freecell", 3)
    result = cpsat(lay, 1, horizon=len(lay.pack()) - 1)  # every card must move at least once
    assert result.verdict == "unknown"
    assert result.reason.startswith(f"horizon: no win within {len(lay.pack()) - 1} single-card moves")


@pytest.mark.parametrize("name, share", [("freecell", TableauModel.AUTO_SHARE), ("colorado", None)])
def test_auto_gives_each_model_its_share(monkeypatch, name, share):
    """``auto`` gives CP-SAT the model's AUTO_SHARE of the time left (the default for others)."""
    from solver.engines import portfolio
    from solver.result import EngineRun

    given: list[tuple[str, float]] = []

    def fake(engine, layout, deal, limits, options):
        given.append((engine, limits.timeout))
        return EngineRun("unknown", "fake", None, 0, {"seconds": 0.0})

    monkeypatch.setattr(portfolio, "_timed", fake)
    lay = api.load_layout(name)
    portfolio.run_auto(lay, api.make_deal(lay, 1), Limits(timeout=100.0))
    engines = [e for e, _ in given]
    assert engines == ["dfs", "cpsat", "dfs"]
    expected = share if share is not None else 0.7
    assert given[1][1] == pytest.approx(expected * 100.0, rel=0.01)  # the fake phases take no time


def test_canfield_goes_to_the_tableau_model_and_is_refused_for_its_stock():
    lay = api.load_layout("canfield")
    from solver.families import family_of

    assert family_of(lay).cpsat_model(lay) is TableauModel
    with pytest.raises(UnsupportedError, match="stock"):
        build(lay, api.make_deal(lay, 1))
