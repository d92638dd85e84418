"""The generic search: restarts keep every verdict, repeat exactly, and restore the position."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver import api, shuffles
from solver.api import verify_solution
from solver.engines.dfs import Restarts, dfs, luby
from solver.families import solution_json, start_position
from solver.limits import Limits


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def small(name: str, ranks: int, columns: int | None = None):
    lay = api.load_layout(name)
    if columns is not None:
        lay = replace(lay, reserve=replace(lay.reserve, count=columns))
    return lay if ranks == 13 else lay.with_max_rank(ranks)


# Tiny budgets and heavy shaking: many restarts per search, so that the
# table shared across runs is exercised hard.
SHAKY = Restarts(base=3, noise=0.6, seed=7)
CASES = [("debutante", 4, 2), ("debutante", 5, 3), ("colorado", 3, 2), ("grandfather", 3, 2),
         ("black-hole", 13, None), ("golf", 10, None)]


@pytest.mark.parametrize("name,ranks,columns", CASES)
def test_restarts_keep_every_verdict(name, ranks, columns):
    lay = small(name, ranks, columns)
    verdicts = {"won": 0, "lost": 0}
    for seed in range(1, 26):
        deal = shuffles.from_seed(lay, seed)
        pos = start_position(lay, deal)
        plain = dfs(pos, Limits(max_nodes=100_000))
        if plain.verdict == "unknown":
            continue
        shaken = dfs(pos, Limits(max_nodes=400_000), restarts=SHAKY)
        assert shaken.verdict == plain.verdict, (name, seed)
        verdicts[plain.verdict] += 1
        if shaken.verdict == "won":
            assert verify_solution(lay, deal, solution_json(pos, shaken.moves)) is None
        assert not pos.history  # the search leaves the position as it found it
    assert verdicts["won"] + verdicts["lost"] >= 15, verdicts


def test_restarts_repeat_exactly_and_depend_on_the_seed():
    lay = small("colorado", 5, 4)
    deal = shuffles.from_seed(lay, 2)

    def run(seed: int):
        out = dfs(start_position(lay, deal), Limits(max_nodes=50_000), restarts=Restarts(base=5, seed=seed))
        return out.verdict, out.nodes, out.moves

    first = run(1)
    assert first[0] == "won" and run(1) == first
    assert len({run(s)[1:2] + (tuple(run(s)[2]),) for s in range(1, 6)}) > 1


def test_random_seed_option_reaches_the_search():
    a = api.solve("colorado", seed=2, limits=Limits(max_nodes=20_000), random_seed=3)
    b = api.solve("colorado", seed=2, limits=Limits(max_nodes=20_000), random_seed=3)
    assert a.verdict == b.verdict and a.solution == b.solution


def test_a_reduced_deck_result_verifies_from_its_json_alone(tmp_path):
    import json
    import subprocess
    import sys

    res = api.solve(api.load_layout("debutante", 5), seed=2)
    assert res.verdict == "won" and res.to_json()["max_rank"] == 5
    assert api.verify(res.to_json()) is None
    assert "max_rank" not in api.solve("colorado", seed=3, limits=Limits(max_nodes=20_000)).to_json()
    path = tmp_path / "r.json"
    path.write_text(json.dumps(res.to_json()))
    out = subprocess.run([sys.executable, "-m", "solver", "verify", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
