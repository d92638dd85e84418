"""The cpsat engine, and the DFS and CP-SAT checking each other.

Every solve below goes through ``api.solve``, which replays each ``won`` with
the referee; ``engine="both"`` replays the wins of both engines and raises
``EngineDisagreement`` if one proves won and the other lost.  Reduced decks
(ranks A-5, A-7, A-8) keep the file fast; a few full deals cover the hole
family.
"""

from __future__ import annotations

import json

import pytest

from solver import api, cards
from solver import deal as deals
from solver.cli import main
from solver.engines import ENGINES, EngineRun
from solver.errors import EngineDisagreement, UnsupportedError
from solver.result import EXIT_DISAGREEMENT
from solver.search import Limits

LIMITS = Limits(timeout=60)


def solve(layout: str, seed: int, engine: str, max_rank: int | None = None, **options):
    lay = api.load_layout(layout, max_rank)
    return api.solve(lay, seed=seed, engine=engine, limits=LIMITS, workers=1, **options)


def assert_agree(layout: str, seed: int, max_rank: int | None = None):
    result = solve(layout, seed, "both", max_rank)
    dfs, cpsat = result.stats["dfs"]["verdict"], result.stats["cpsat"]["verdict"]
    assert dfs != "unknown" and cpsat != "unknown", (layout, seed, result.stats)
    assert dfs == cpsat == result.verdict
    return result


# --------------------------------------------------------- the two engines agree

REDUCED = [
    ("debutante", 5, range(1, 9)),
    ("debutante", 7, range(1, 3)),
    ("colorado", 5, range(1, 5)),
    ("colorado", 7, range(1, 3)),
    ("debutante-fifo", 5, range(1, 4)),
    ("debutante-unlimited", 5, range(1, 3)),
    ("debutante-1", 5, range(1, 3)),
    ("grandfather", 5, range(1, 3)),
    ("double-line", 5, range(1, 3)),
]


@pytest.mark.parametrize("layout,max_rank,seed",
                         [(lay, r, s) for lay, r, seeds in REDUCED for s in seeds])
def test_reduced_decks_agree(layout, max_rank, seed):
    assert_agree(layout, seed, max_rank)


@pytest.mark.parametrize("layout,seed", [("black-hole", 1), ("black-hole", 2), ("golf", 1), ("golf", 4)])
def test_full_hole_deals_agree(layout, seed):
    assert_agree(layout, seed)


# ---------------------------------------------------------------- lost deals


def black_hole_oracle(deal: dict[str, list[int]], wrap: bool = True) -> bool:
    """An exhaustive search written for this test only: can every fan be cleared?"""
    fans = [deal[f"tableau:{i}"] for i in range(17)]
    seen: set = set()

    def next_to(a: int, b: int) -> bool:
        d = abs(cards.rank(a) - cards.rank(b))
        return d == 1 or (wrap and d == 12)

    def clear(heights: tuple[int, ...], top: int) -> bool:
        if not any(heights):
            return True
        if (heights, cards.rank(top)) in seen:
            return False
        seen.add((heights, cards.rank(top)))
        for i, h in enumerate(heights):
            if h and next_to(fans[i][h - 1], top):
                if clear(heights[:i] + (h - 1,) + heights[i + 1:], fans[i][h - 1]):
                    return True
        return False

    return clear(tuple(len(f) for f in fans), deal["hole"][0])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_black_hole_matches_an_exhaustive_search(seed):
    lay = api.load_layout("black-hole")
    expected = "won" if black_hole_oracle(deals.from_seed(lay, seed)) else "lost"
    assert assert_agree("black-hole", seed).verdict == expected


def test_black_hole_1_is_lost():
    lay = api.load_layout("black-hole")
    assert not black_hole_oracle(deals.from_seed(lay, 1))
    assert solve("black-hole", 1, "cpsat").verdict == "lost"
    assert solve("black-hole", 1, "dfs").verdict == "lost"


@pytest.mark.parametrize("seed", [3, 5, 31])
def test_single_cell_debutante_losses_are_proved_by_both(seed):
    # debutante-1 on ranks A-8: seeds 3 and 31 need the DFS to search, seed 5 falls to its bound
    assert assert_agree("debutante-1", seed, 8).verdict == "lost"


# ------------------------------------------------------------ cpsat on its own


def test_cpsat_solutions_replay_and_use_the_contract():
    result = solve("debutante", 2, "cpsat", 5)
    assert result.verdict == "won" and result.engine == "cpsat"
    assert api.verify(result.to_json(), api.load_layout("debutante", 5)) is None
    sources = {m["from"].split(":")[0] for m in result.solution}
    assert sources <= {"stock", "reserve"}
    waste = solve("grandfather", 1, "cpsat", 5)
    assert waste.verdict == "won"
    assert any(m["to"] == "waste" for m in waste.solution)


@pytest.mark.parametrize("layout", ["twenty", "sly-fox", "freecell"])
def test_layouts_without_an_exact_model_are_refused(layout):
    lay = api.load_layout(layout, 5 if layout != "freecell" else None)
    seed = 1
    with pytest.raises(UnsupportedError, match="does not cover|no model"):
        api.solve(lay, seed=seed, engine="cpsat", limits=Limits(timeout=5))


def test_a_time_limit_gives_unknown_with_the_limit_named():
    lay = api.load_layout("colorado")
    result = api.solve(lay, seed=10, engine="cpsat", limits=Limits(timeout=0.05), workers=1)
    assert result.verdict == "unknown"
    assert result.reason.startswith("timeout")
    assert result.solution is None


def test_a_fixed_random_seed_repeats_the_run():
    runs = [solve("colorado", 3, "cpsat", 7, random_seed=7).solution for _ in range(2)]
    assert runs[0] == runs[1]
    lay = api.load_layout("colorado", 7)
    two = [api.solve(lay, seed=3, engine="cpsat", limits=LIMITS, workers=2, random_seed=7).solution
           for _ in range(2)]
    assert two[0] == two[1]


RESERVE_FEATURES = ["cumulative", "direct", "twin_columns", "siblings", "children_cumulative", "asap",
                    "light_search"]


@pytest.mark.parametrize("feature", RESERVE_FEATURES)
def test_reserve_model_features_keep_the_verdict(feature):
    for layout, seed in [("debutante", 3), ("debutante-1", 3)]:
        rank = 5 if layout == "debutante" else 8
        expected = solve(layout, seed, "cpsat", rank).verdict
        for switch in "+-":
            got = solve(layout, seed, "cpsat", rank, features=switch + feature).verdict
            assert got == expected, (layout, seed, switch + feature)


@pytest.mark.parametrize("feature", ["symmetry", "alldiff", "sequence", "light_presolve"])
def test_hole_model_features_keep_the_verdict(feature):
    for seed, expected in [(1, "lost"), (2, "won")]:
        for switch in "+-":
            assert solve("black-hole", seed, "cpsat", features=switch + feature).verdict == expected


# --------------------------------------------------------- both, auto and the CLI


def test_auto_decides_and_names_its_phases():
    result = solve("colorado", 2, "auto", 7)
    assert result.verdict == "won"
    assert result.stats["phases"][-1]["engine"] == result.stats["decided_by"]


def test_auto_falls_back_to_the_dfs_when_cpsat_has_no_model():
    lay = api.load_layout("twenty", 5)
    result = api.solve(lay, seed=1, engine="auto", limits=Limits(timeout=20))
    assert result.verdict in ("won", "lost")
    assert all(p["engine"] == "dfs" for p in result.stats["phases"])


def test_cli_both_exits_with_the_verdict(capsys):
    code = main(["solve", "debutante", "--max-ranks", "5", "--seed", "1", "--engine", "both", "--workers", "1",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verdict"] == "won" and out["engine"] == "both"


def test_cli_both_reports_a_disagreement_with_exit_code_4(capsys, monkeypatch):
    def wrong(layout, deal, limits, **options):
        return EngineRun("lost", None, None, 0, {})

    monkeypatch.setitem(ENGINES, "cpsat", wrong)
    code = main(["solve", "debutante", "--max-ranks", "5", "--seed", "1", "--engine", "both", "--json"])
    captured = capsys.readouterr()
    results = [json.loads(line) for line in captured.out.splitlines()]
    assert code == EXIT_DISAGREEMENT
    assert {(r["engine"], r["verdict"]) for r in results} == {("dfs", "won"), ("cpsat", "lost")}
    assert "disagree" in captured.err
    with pytest.raises(EngineDisagreement):
        solve("debutante", 1, "both", 5)
