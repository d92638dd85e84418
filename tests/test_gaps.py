"""The gaps family (Gaps, one deal and basic variant): rules, referee, bound, deals, files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import Run, assert_push_then_pop_restores

from solver import api, cards, families
from solver.errors import LayoutError
from solver.families import brute
from solver.families.gaps.position import GAP, GapsPosition
from solver.families.gaps.referee import GapsGame
from solver.limits import Limits

ONE_DEAL = api.load_layout("gaps-one-deal")
BASIC = api.load_layout("gaps-basic-variant")


def grid(text: str) -> dict[str, list[int]]:
    """A deal from rows separated by '/', places by spaces, '--' a gap."""
    deal = {}
    for r, line in enumerate(text.split("/")):
        for c, word in enumerate(line.split()):
            if word not in ("--", "AS"):
                deal[f"grid:{r}:{c}"] = [cards.parse(word)]
    return deal


def verdict(layout, deal, **limits) -> str:
    return api.solve(layout, deal=deal, limits=Limits(**limits)).verdict


DONE3 = "2C 3C -- / 2D 3D -- / 2H 3H -- / 2S 3S --"


# ------------------------------------------------------------ rules, by hand


@pytest.mark.parametrize("layout, text, expected", [
    (ONE_DEAL, DONE3, "won"),  # already in order
    (ONE_DEAL, "2C -- 3C / 2D 3D -- / 2H 3H -- / 2S 3S --", "won"),  # 3C into the gap after 2C
    (ONE_DEAL, "3C 2C -- / 2D 3D -- / 2H 3H -- / 2S 3S --", "won"),  # 3C out, 2C to the left end, 3C back
    (ONE_DEAL, "2C 3D -- / 2D 3C -- / 2H 3H -- / 2S 3S --", "lost"),  # every gap is after a three
    (ONE_DEAL, "2D 3D -- / 2C 3C -- / 2H 3H -- / 2S 3S --", "won"),  # any suit in any row
    (BASIC, "2D 3D -- / 2C 3C -- / 2H 3H -- / 2S 3S --", "won"),  # the basic variant's win reads no row's suit
    (ONE_DEAL, "-- 3C 2D / 2C 3D -- / 2H 3H -- / 2S 3S --", "won"),  # 2D to the left end, then 3D follows it ...
    (BASIC, "-- 3C 2D / 2C 3D -- / 2H 3H -- / 2S 3S --", "lost"),  # ... but row 0 takes only 2C there
])
def test_hand_made_grids(layout, text, expected):
    layout = layout.with_max_rank(3)
    deal = grid(text)
    assert verdict(layout, deal) == expected
    result = brute.solve(layout, deal)
    assert result.verdict == expected
    if expected == "won":
        assert families.family_of(layout).replay(layout, deal, result.moves) is None


def test_a_move_nothing_can_disturb_is_forced():
    lay = BASIC.with_max_rank(4)
    # row 0 starts 2C 3C (its own two at its left end): the gap after 3C takes 4C, and 4C's place
    # (the last column) has nothing right of it
    pos = GapsPosition(lay, grid("2C 3C -- 2D / -- 3D 4D 4C / 2H 3H 4H -- / 2S 3S 4S --"))
    assert pos.move_json(pos.forced_move()) == {"card": "4C", "from": "grid:1:3", "to": "grid:0:2"}
    # one deal: a left end is still a gap, so a two could yet move and unsettle a row start
    assert GapsPosition(ONE_DEAL.with_max_rank(4),
                        grid("2C 3C -- 2D / -- 3D 4D 4C / 2H 3H 4H -- / 2S 3S 4S --")).forced_move() is None
    # row 0's left end takes 2C, whose place is followed by 3C: 3C can only lie there, so 2C is forced ...
    settled = GapsPosition(lay, grid("-- 2D 4C -- / 2H 3H 4H -- / 2S 3S 4S -- / 2C 3C 3D 4D"))
    assert settled.move_json(settled.forced_move()) == {"card": "2C", "from": "grid:3:0", "to": "grid:0:0"}
    # ... but not when 3D follows it (3D may move away, and 3C then follow 2C where it lies)
    assert GapsPosition(lay, grid("-- 2D 4C -- / 2H 3H 4H -- / 2S 3S 4S -- / 2C 3D 3C 4D")).forced_move() is None


# ------------------------------------------------------------ the referee


def test_referee_refuses_each_kind_of_illegal_move():
    lay = BASIC.with_max_rank(4)
    deal = grid("-- 3C 2D 4C / 2C 3D -- 4D / 2H 3H 4H -- / 2S 3S 4S --")
    game = GapsGame(lay, deal)
    for move, words in [
        ({"card": "2D", "from": "grid:0:2", "to": "grid:0:0"}, "takes only the two of C"),
        ({"card": "3C", "from": "grid:0:1", "to": "grid:0:0"}, "takes only a two"),
        ({"card": "4C", "from": "grid:0:3", "to": "grid:1:2"}, "4C does not follow 3D"),
        ({"card": "3C", "from": "grid:0:1", "to": "grid:1:1"}, "grid:1:1 is not a gap"),
        ({"card": "3C", "from": "grid:0:2", "to": "grid:0:0"}, "3C is not at grid:0:2"),
        ({"card": "3C", "from": "grid:0:1", "to": "grid:9:0"}, "expected two places grid:R:C"),
        ({"card": "3C", "from": "grid:0:1", "to": "grid:3:3", "count": 2}, "one at a time"),
        ({"card": "4H", "from": "grid:2:2", "to": "grid:2:3"}, "4H does not follow 4H"),
    ]:
        problem = game.play(move)
        assert problem is not None and words in problem, (move, problem)
    assert game.play({"card": "2C", "from": "grid:1:0", "to": "grid:0:0"}) is None
    assert game.play({"card": "2D", "from": "grid:0:2", "to": "grid:1:0"}) == \
        "move 2: grid:1:0 takes only the two of H, not 2D"
    assert game.unfinished() == "after move 1: row 0 does not read two up to the highest rank with its gap at the end"


def test_won_verdicts_replay_and_a_corrupted_move_is_refused():
    lay = ONE_DEAL.with_max_rank(5)
    deal = api.make_deal(lay, seed=3)
    result = api.solve(lay, deal=deal)
    assert result.verdict == "won" and api.verify(result, lay) is None  # Solvitaire: solved
    bad = [dict(m) for m in result.solution]
    bad[-1]["to"] = bad[-1]["from"]
    assert families.family_of(lay).replay(lay, deal, bad).startswith(f"move {len(bad)}: ")


# ------------------------------------------------------------ the search against the plain search


@st.composite
def small_grids(draw):
    """A random grid of ranks 2..3 (twelve places, four gaps) under one of the two rule sets."""
    base = draw(st.sampled_from([ONE_DEAL, BASIC, replace(ONE_DEAL, build="alternate")]))
    lay = base.with_max_rank(3)
    places = draw(st.permutations(lay.places()))
    return lay, {p: [c] for p, c in zip(places, lay.pack(), strict=False)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_grids())
def test_search_agrees_with_the_plain_search(case):
    layout, deal = case
    assert verdict(layout, deal) == brute.solve(layout, deal).verdict


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_grids(), st.data())
def test_forced_moves_keep_the_verdict(case, data):
    """Positions met along random play, not only deals: a forced move never turns a won position lost."""
    layout, deal = case
    pos = GapsPosition(layout, deal)
    for _ in range(data.draw(st.integers(0, 4))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(data.draw(st.sampled_from(moves)))
    forced = pos.forced_move()
    if forced is not None:
        assert forced in pos.legal_moves()

        def here() -> dict[str, list[int]]:
            return {f"grid:{p // pos.width}:{p % pos.width}": [c] for p, c in enumerate(pos.grid()) if c != GAP}

        before = brute.solve(layout, here()).verdict
        pos.push(forced)
        assert brute.solve(layout, here()).verdict == before


@settings(max_examples=30, deadline=None)
@given(small_grids(), st.data())
def test_push_then_pop_restores_the_position(case, data):
    layout, deal = case
    assert_push_then_pop_restores(GapsPosition(layout, deal), data.draw(st.lists(st.integers(0, 50), max_size=8)))


def test_interchangeable_rows_share_a_key():
    lay = ONE_DEAL.with_max_rank(3)
    a = GapsPosition(lay, grid("2C 3D -- / 2D 3C -- / 2H 3H -- / 2S 3S --"))
    b = GapsPosition(lay, grid("2D 3C -- / 2H 3H -- / 2C 3D -- / 2S 3S --"))
    assert a.key() == b.key()
    fixed = BASIC.with_max_rank(3)  # with row suits a row's place in the grid matters
    assert GapsPosition(fixed, grid("2C 3D -- / 2D 3C -- / 2H 3H -- / 2S 3S --")).key() != \
        GapsPosition(fixed, grid("2D 3C -- / 2C 3D -- / 2H 3H -- / 2S 3S --")).key()


# ------------------------------------------------------------ deals: Solvitaire's numbering and files

# Solvitaire 0.10.1's `--type gaps-one-deal --random N --deal-only` (built from its public source): its
# rows, a gap as AS (its placeholder).
SOLVITAIRE_GRIDS = {
    0: "8C KD 5S 5H 9S QH 8H AS AS 4C KS AS 5D / 8S JC 7S 3D 3H 8D 3S 2D 2S 10C 2H 3C 10D / "
       "9D 7H 7D 9H 4H 9C 7C 6D 4S KC 6S 2C 6H / JH 10S 4D AS QS 10H 6C QD 5C QC KH JD JS",
    7: "AS 6H JD QC 3H QD JC 2S 2C 8D 2D 7H 5D / 3D QH 4H KD AS 7S 7D 10C 6D KH 10H 9C 8S / "
       "10S 9H 6S AS 5C 7C AS 10D 3C 9S 4C 8H JS / 4D 6C 3S KC 5H 9D QS 4S JH 8C KS 2H 5S",
}


@pytest.mark.parametrize("seed", sorted(SOLVITAIRE_GRIDS))
def test_seed_n_is_solvitaires_random_n(seed):
    assert api.make_deal(ONE_DEAL, seed=seed) == grid(SOLVITAIRE_GRIDS[seed])
    assert api.make_deal(BASIC, seed=seed) == grid(SOLVITAIRE_GRIDS[seed])


def test_a_reduced_deck_is_solvitaires_max_rank():
    # Solvitaire's gaps-one-deal rules with "max rank": 5, --random 3
    assert api.make_deal(ONE_DEAL.with_max_rank(5), seed=3) == \
        grid("3D 2C 3S 5C 2S / AS 5S 4D 3H AS / 4C 2D 3C 5H AS / 4S 4H AS 2H 5D")
    with pytest.raises(LayoutError, match="Gaps needs ranks A..2 at least"):
        ONE_DEAL.with_max_rank(1)


def test_rules_there_and_back_and_the_deal_file():
    for layout in (ONE_DEAL, BASIC, BASIC.with_max_rank(6), replace(ONE_DEAL, build="any")):
        rules = families.family_of(layout).solvitaire_rules(layout)
        back = families.rules_to_layout(json.loads(json.dumps(rules)), f"{layout.name}.json", layout.name)
        assert replace(back, title=layout.title, description=layout.description, path=layout.path) == layout
        deal = api.make_deal(layout, seed=3)
        file = json.dumps(families.family_of(layout).solvitaire_deal(layout, deal))
        assert families.family_of(layout).deal_from_json(layout, json.loads(file), "x.json") == deal
    other_suits = replace(BASIC, row_suits=("S", "H", "D", "C"))
    assert families.family_of(other_suits).solvitaire_rules(other_suits) is None


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    deal = families.family_of(ONE_DEAL).deal_to_json(ONE_DEAL, api.make_deal(ONE_DEAL, seed=1))
    two = dict(deal)
    two["grid:0:1"] = ["AH"]
    cases = [
        ({**deal, "grid:4:0": ["AS"]}, "'grid:4:0': not a stack of 'gaps-one-deal'"),
        (two, "AH is not in the pack"),
        ({k: v for k, v in deal.items() if k != "grid:0:0"}, "6H is missing"),
        ({"sequences": [["AS"] * 13] * 3}, "[sequences]: expected 4 rows of 13 places"),
    ]
    for obj, words in cases:
        p = tmp_path / "deal.json"
        p.write_text(json.dumps(obj))
        done = Run(capsys, "solve", "gaps-one-deal", "--deal", str(p))
        assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, (obj, done.stderr)
    listing = tmp_path / "deal.txt"
    listing.write_text("row:0: 6H -- QS\n")
    done = Run(capsys, "solve", "gaps-one-deal", "--deal", str(listing))
    assert done.returncode == 2 and "deal.txt:1: expected 13 places" in done.stderr
    layout = tmp_path / "g.toml"
    layout.write_text('[gaps]\nrow_suits = ["C", "C", "S", "D"]\n')
    done = Run(capsys, "show", str(layout))
    assert done.returncode == 2 and "gaps.row_suits: expected [] or a list of 4 distinct suits" in done.stderr
    rules = tmp_path / "g.json"
    rules.write_text(json.dumps({"foundations": {"present": False}, "tableau piles": {"count": 0},
                                 "sequences": {"count": 4, "direction": "LR"}}))
    done = Run(capsys, "show", "--rules", str(rules))
    assert done.returncode == 2 and "[sequences][direction] = 'LR'" in done.stderr and done.stderr.count("\n") == 1


def test_the_command_line_deals_reads_and_solves(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    listing = Run(capsys, "deal", "gaps-basic-variant", "--seed", "2").stdout
    assert listing.startswith("row:0: ") and len(listing.splitlines()) == 4
    (tmp_path / "d.txt").write_text(listing)
    (tmp_path / "d.json").write_text(Run(capsys, "deal", "gaps-basic-variant", "--seed", "2", "--solvitaire").stdout)
    for path in ("d.txt", "d.json"):
        assert Run(capsys, "deal", "gaps-basic-variant", "--deal", str(tmp_path / path)).stdout == listing
    words = Run(capsys, "show", "gaps-basic-variant").stdout
    assert "a gap at the left end of a row takes only the two of its row's suit" in words


# ------------------------------------------------------------ compiled and interpreted, node for node


def test_the_compiled_position_searches_as_the_interpreted_one():
    """The one source compiled (driven by the compiled DFS over its C methods) and interpreted
    (the Python DFS over its Python methods): the same verdicts, node counts, moves and states,
    on reduced decks of both layouts and on full deals cut at a node limit."""
    import os

    from walks import interpreted

    from solver.engines.core import compiled_available
    from solver.engines.dfs import compiled_dfs, dfs
    from solver.families.gaps import position as compiled

    if not compiled_available() or not compiled.COMPILED:
        if os.environ.get("PATIENCE_REQUIRE_COMPILED") == "1":
            pytest.fail("PATIENCE_REQUIRE_COMPILED=1 but the gaps position is not compiled")
        pytest.skip("the compiled core is not built")
    Interpreted = interpreted("solver.families.core", "solver.families.gaps.position")[
        "solver.families.gaps.position"].GapsPosition
    seen = set()
    for lay in (ONE_DEAL.with_max_rank(5), BASIC.with_max_rank(6), ONE_DEAL, BASIC):
        for seed in range(1, 5):
            deal = api.make_deal(lay, seed)
            ref, core = Interpreted(lay, deal), compiled.GapsPosition(lay, deal)
            assert ref.key() == core.key() and ref.state() == core.state()
            want = dfs(ref, Limits(max_nodes=8_000))
            got = compiled_dfs(core, Limits(max_nodes=8_000))
            assert (got.verdict, got.nodes, got.moves, got.table_size) == \
                (want.verdict, want.nodes, want.moves, want.table_size), (lay.name, lay.max_rank, seed)
            assert core.state() == ref.state() == compiled.GapsPosition(lay, deal).state()
            seen.add(got.verdict)
    assert seen == {"won", "lost", "unknown"}, seen
