"""The accordion family (Accordion, Late-binding Solitaire): rules, referee, bound, deals, files."""

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
from solver.families.accordion.position import MATCH_DEAD, AccordionPosition
from solver.families.accordion.referee import AccordionGame
from solver.limits import Limits

ACCORDION = api.load_layout("accordion")
LATE = api.load_layout("late-binding-solitaire")


def row(text: str) -> dict[str, list[int]]:
    """A deal from a row of card names, one a pile."""
    return {f"pile:{i}": [cards.parse(c)] for i, c in enumerate(text.split())}


def small(n: int, moves: tuple[str, ...] = ("L1", "L3"), match: tuple[str, ...] = ("suit", "rank"),
          max_rank: int = 13):
    return replace(ACCORDION, piles=n, moves=moves, match=match, max_rank=max_rank)


def verdict(layout, deal, **limits) -> str:
    result = api.solve(layout, deal=deal, limits=Limits(**limits))
    return result.verdict


# ------------------------------------------------------------ rules, by hand


@pytest.mark.parametrize("text, moves, match, expected", [
    ("AS 2S", ("L1", "L3"), ("suit", "rank"), "won"),  # same suit, next to it
    ("AS 2H", ("L1", "L3"), ("suit", "rank"), "lost"),  # nothing matches
    ("AS 2H 3D AH", ("L1", "L3"), ("suit", "rank"), "lost"),  # AH onto AS (L3); 2H, 3D never meet it
    ("AS 2H 3D 4S", ("L1", "L3"), ("suit", "rank"), "lost"),  # 4S onto AS leaves 2H and 3D apart
    ("AS 2S 2H", ("L1",), ("suit", "rank"), "won"),  # 2H onto 2S, then onto AS
    ("AS 5D 2S", ("L1",), ("suit", "rank"), "lost"),  # 2S cannot jump over 5D without L2
    ("AS 5D 2S", ("L2",), ("suit", "rank"), "lost"),  # 2S onto AS, then 5D matches nothing
    ("AS 5S 2S", ("L2",), ("suit", "rank"), "lost"),  # 2S onto AS (two places); 5S is then next to it
    ("AS 5S 2S", ("L1", "L2"), ("suit", "rank"), "won"),  # ... and goes onto it
    ("AS 2H", ("L1",), ("alternate",), "won"),  # red on black
    ("AS 2C", ("L1",), ("alternate",), "lost"),
    ("AS 2H", ("R1",), ("any",), "won"),  # to the right
])
def test_hand_made_rows(text, moves, match, expected):
    deal = row(text)
    layout = small(len(deal), moves, match)
    assert verdict(layout, deal) == expected
    result = brute.solve(layout, deal)
    assert result.verdict == expected
    if expected == "won":
        assert families.family_of(layout).replay(layout, deal, result.moves) is None


def test_a_win_names_each_pile_by_its_bottom_card_and_size():
    layout = small(3, ("L1",))
    deal = row("AS 2S 3S")
    result = api.solve(layout, deal=deal)
    assert result.verdict == "won"
    assert result.solution[-1]["count"] == 2 or result.solution[0].get("count", 1) == 1
    assert api.verify(result, layout) is None


def test_the_match_bound_cuts_a_row_that_falls_apart():
    layout = small(4)
    assert AccordionPosition(layout, row("AS 2S 5H 6H")).is_dead() == MATCH_DEAD  # spades and hearts never meet
    assert AccordionPosition(layout, row("AS 2S 5H 5S")).is_dead() is None  # 5S links them
    assert AccordionPosition(small(2, match=("rank",)), row("AS AH")).is_dead() is None
    assert AccordionPosition(small(2, match=("rank",)), row("AS 2S")).is_dead() == MATCH_DEAD
    assert AccordionPosition(small(2, match=("any",)), row("AS 2H")).is_dead() is None


# ------------------------------------------------------------ the referee


def test_referee_refuses_each_kind_of_illegal_move():
    layout = small(5)
    deal = row("AS 2H 3D 4S 5S")
    game = AccordionGame(layout, deal)
    for move, words in [
        ({"card": "5S", "from": "pile:4", "to": "pile:2"}, "2 place(s) to the left"),
        ({"card": "5S", "from": "pile:4", "to": "pile:9"}, "not a pile in the row"),
        ({"card": "4S", "from": "pile:4", "to": "pile:3"}, "not the bottom card of pile:4"),
        ({"card": "5S", "from": "pile:4", "to": "pile:3", "count": 2}, "holds 1 card(s)"),
        ({"card": "3D", "from": "pile:2", "to": "pile:1"}, "3D does not match 2H"),
        ({"card": "ZZ", "from": "pile:4", "to": "pile:3"}, "not a card name"),
        ("5S", "expected an object"),
    ]:
        problem = game.play(move)
        assert problem is not None and words in problem, (move, problem)
    assert game.play({"card": "5S", "from": "pile:4", "to": "pile:3"}) is None  # suit
    assert game.play({"card": "4S", "from": "pile:3", "to": "pile:0", "count": 2}) is None  # L3, suit
    assert game.play({"card": "4S", "from": "pile:3", "to": "pile:0"}) == "move 3: 'pile:3' is not a pile in the row"
    assert game.unfinished() == "after move 2: 3 piles are left, not one"
    assert game.stacks()["pile:0"] == ["AS", "4S", "5S"]


def test_won_verdicts_replay_and_a_corrupted_move_is_refused():
    result = api.solve(LATE, seed=1)
    assert result.verdict == "won" and api.verify(result, LATE) is None
    bad = [dict(m) for m in result.solution]
    bad[0]["to"] = bad[0]["from"]
    assert families.family_of(LATE).replay(LATE, api.make_deal(LATE, seed=1), bad).startswith("move 1: ")


# ------------------------------------------------------------ the search against the plain search


@st.composite
def small_rows(draw):
    """A row of 2..9 distinct cards of ranks A..4, with a random rule set."""
    pack = cards.pack(1, 4)
    chosen = draw(st.lists(st.sampled_from(pack), min_size=2, max_size=9, unique=True))
    moves = draw(st.sampled_from([("L1", "L3"), ("L1",), ("L1", "L2"), ("L3", "R1")]))
    match = draw(st.sampled_from([("suit", "rank"), ("suit",), ("rank",), ("alternate",), ("alternate", "rank")]))
    return small(len(chosen), moves, match, 4), {f"pile:{i}": [c] for i, c in enumerate(chosen)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_rows())
def test_search_agrees_with_the_plain_search(case):
    layout, deal = case
    assert verdict(layout, deal) == brute.solve(layout, deal).verdict


@settings(max_examples=60, deadline=None)
@given(small_rows())
def test_the_bound_cuts_only_lost_rows(case):
    layout, deal = case
    if AccordionPosition(layout, deal).is_dead():
        assert brute.solve(layout, deal).verdict == "lost"


@settings(max_examples=30, deadline=None)
@given(small_rows(), st.data())
def test_push_then_pop_restores_the_position(case, data):
    layout, deal = case
    assert_push_then_pop_restores(AccordionPosition(layout, deal), data.draw(st.lists(st.integers(0, 50), max_size=6)))


# ------------------------------------------------------------ deals: Solvitaire's numbering and files

# Solvitaire 0.10.1's `--type accordion --random N --deal-only` (built from its public source), its row.
SOLVITAIRE_ROWS = {
    0: "8C 8S 9D JH KD JC 7H 10S 5S 7S 7D 4D 5H 3D 9H AS 9S 3H 4H QS QH 8D 9C 10H 8H 3S 7C 6C AH 2D 6D QD AC 2S "
       "4S 5C 4C 10C KC QC KS 2H 6S KH AD 3C 2C JD 5D 10D 6H JS",
    7: "AD 3D 10S 4D 6H QH 9H 6C JD 4H 6S 3S QC KD AS KC 3H AC 5C 5H QD 7S 7C 9D JC 7D AH QS 2S 10C 10D 4S 2C 6D "
       "3C JH 8D KH 9S 8C 2D 10H 4C KS 7H 9C 8H 2H 5D 8S JS 5S",
}


@pytest.mark.parametrize("seed", sorted(SOLVITAIRE_ROWS))
def test_seed_n_is_solvitaires_random_n(seed):
    assert api.make_deal(ACCORDION, seed=seed) == row(SOLVITAIRE_ROWS[seed])
    # Late-binding Solitaire deals the first 18 piles of the same row (`--type late-binding-solitaire`)
    assert api.make_deal(LATE, seed=seed) == row(" ".join(SOLVITAIRE_ROWS[seed].split()[:18]))


def test_a_reduced_deck_is_solvitaires_max_rank():
    # Solvitaire's rules {"accordion": {"size": 16, ...}, "max rank": 4}, --random 3
    assert api.make_deal(ACCORDION.with_max_rank(4), seed=3) == row("3C AH 3H 3S AD 4S 2H 4H 2D 3D 4D AC 2C 2S AS 4C")
    with pytest.raises(LayoutError, match="deals 18 cards in its row but ranks A..4 make only 16"):
        LATE.with_max_rank(4)


def test_rules_there_and_back_and_the_deal_file():
    for layout in (ACCORDION, LATE, ACCORDION.with_max_rank(5), small(6, ("L2", "R1"), ("alternate",))):
        rules = families.family_of(layout).solvitaire_rules(layout)
        back = families.rules_to_layout(json.loads(json.dumps(rules)), f"{layout.name}.json", layout.name)
        assert replace(back, title=layout.title, description=layout.description, path=layout.path) == layout
        deal = api.make_deal(layout, seed=3)
        file = json.dumps(families.family_of(layout).solvitaire_deal(layout, deal))
        assert families.family_of(layout).deal_from_json(layout, json.loads(file), "x.json") == deal


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    cases = [
        ({"pile:0": ["AS"], "pile:60": ["2S"]}, "'pile:60': not a stack of 'late-binding-solitaire'"),
        ({"pile:0": ["AS"]}, "holds 18 cards in its row"),
        ({"pile:0": ["XX"]}, "pile:0: expected a card name"),
        ({f"pile:{i}": ["AS"] for i in range(18)}, "AS is 18 times"),
        ({"accordion": [["AS"]] * 3}, "[accordion]: expected 18 piles, got 3"),
    ]
    for obj, words in cases:
        p = tmp_path / "deal.json"
        p.write_text(json.dumps(obj))
        done = Run(capsys, "solve", "late-binding-solitaire", "--deal", str(p))
        assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, (obj, done.stderr)
    layout = tmp_path / "acc.toml"
    layout.write_text('[accordion]\npiles = 5\nmoves = ["L0"]\n')
    done = Run(capsys, "show", str(layout))
    assert done.returncode == 2 and "accordion.moves: expected a list of distinct moves" in done.stderr
    rules = tmp_path / "acc.json"
    rules.write_text(json.dumps({"foundations": {"present": False}, "tableau piles": {"count": 0},
                                 "accordion": {"size": 10, "moves": ["X1"]}}))
    done = Run(capsys, "show", "--rules", str(rules))
    assert done.returncode == 2 and "[accordion][moves]: expected moves such as 'L1'" in done.stderr


def test_the_command_line_deals_reads_and_solves(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    listing = Run(capsys, "deal", "late-binding-solitaire", "--seed", "3").stdout
    assert listing.splitlines()[0] == f"pile:0: {cards.name(api.make_deal(LATE, seed=3)['pile:0'][0])}"
    (tmp_path / "d.txt").write_text(listing)
    theirs = Run(capsys, "deal", "late-binding-solitaire", "--seed", "3", "--solvitaire").stdout
    (tmp_path / "d.json").write_text(theirs)
    for path in ("d.txt", "d.json"):
        done = Run(capsys, "solve", "late-binding-solitaire", "--deal", str(tmp_path / path), "--json")
        assert done.returncode == 1 and json.loads(done.stdout)["verdict"] == "lost"  # Solvitaire: unsolvable
    assert "Won: every card in one pile." in Run(capsys, "show", "accordion").stdout
