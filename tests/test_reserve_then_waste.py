"""Spaces filled from the reserve, then from the waste (``tableau.spaces = "reserve-then-waste"``,
Solvitaire's ``auto-reserve-then-waste`` as its solver plays it; its preset
``canfield-auto-reserve-then-waste``): the reserve's top card fills an emptied column at once, and
once the reserve is empty, while a column is empty, no card goes onto a column but the waste's top
card.  And whole-pile moves (``tableau.moves = "whole-pile"``, Solvitaire's ``canfield-strict`` and
``american-toad``): a column's cards go onto a column only all together.  The tableau position
against the plain search over the referee on small decks, the rule checked on random walks by both,
the automatic moves checked against searches without them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from test_canfield import small
from walks import verdicts_with_and_without_forced

from solver import api, shuffles
from solver.families import brute, start_position
from solver.families.base import solution_json
from solver.families.tableau.referee import TableauGame
from solver.limits import Limits


def whole(lay: Any) -> Any:
    return replace(lay, tableau=replace(lay.tableau, moves="whole-pile"))


SMALL = {
    "5-ranks-draw-3": small(5, 2, 5, 3, spaces="reserve-then-waste"),
    "whole-pile-5-ranks-draw-3": whole(small(5, 2, 5, 3, spaces="reserve-then-waste")),
    "whole-pile-spaces-any": whole(small(5, 2, 5, 3, spaces="any")),
    "6-ranks-3-columns-one-pass": replace(small(6, 3, 3, 1, spaces="reserve-then-waste"),
                                          stock=replace(small(6, 3, 3, 1).stock, redeals=0)),
}


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_the_engine_agrees_with_the_plain_search_over_the_referee(variant: str) -> None:
    lay = SMALL[variant]
    seen = {"won": 0, "lost": 0}
    for seed in range(1, 21):
        deal = shuffles.from_seed(lay, seed)
        truth = brute.solve(lay, deal, max_states=100_000).verdict
        if truth not in seen:
            continue
        got = api.solve(lay, deal=deal, limits=Limits(max_nodes=300_000))  # a win is replayed by the referee
        assert got.verdict == truth, (variant, seed)
        seen[truth] += 1
    assert seen["won"] and seen["lost"] and sum(seen.values()) >= 18, seen


def test_the_automatic_moves_keep_every_verdict() -> None:
    verdicts = verdicts_with_and_without_forced(SMALL["5-ranks-draw-3"], range(1, 41), 300_000)
    assert "won" in verdicts and "lost" in verdicts


def open_space(stacks: Any, columns: int) -> bool:
    return not stacks["reserve:0"] and any(not stacks[f"tableau:{i}"] for i in range(columns))


def test_while_a_space_is_open_only_the_waste_goes_onto_a_column() -> None:
    """Random walks through the full game: once the reserve is spent and a column is empty, every
    move the position offers onto a column comes from the waste, and the referee refuses a move
    from a column onto a card it builds on; every move offered, the referee plays."""
    lay = api.load_layout("canfield-auto-reserve-then-waste")
    rng = random.Random(7)
    open_seen = refused = 0
    for seed in range(1, 40):
        deal = shuffles.from_seed(lay, seed)
        pos = start_position(lay, deal)
        for _ in range(150):
            decisions = pos.legal_moves()
            if not decisions:
                break
            at = pos.snapshot()
            if open_space(at.stacks, lay.tableau.count):
                open_seen += 1
                for m in decisions:
                    first = pos.move_json(m)
                    assert not first["to"].startswith("tableau:") or first["from"] == "waste", first
                game = TableauGame(lay, at)
                for i in range(lay.tableau.count):
                    for j in range(lay.tableau.count):
                        col, dest = game.columns[i], game.columns[j]
                        if i != j and col and dest and game.builds_on(dest[-1], col[-1]):
                            problem = game.copy().play({"card": col[-1], "from": f"tableau:{i}", "to": f"tableau:{j}"})
                            assert problem is not None and "only the waste's top card" in problem
                            refused += 1
            pos.push(rng.choice(decisions))
        game = TableauGame(lay, deal)
        for move in solution_json(start_position(lay, deal), list(pos.history)):
            assert game.play(move) is None, move
    assert open_seen >= 10 and refused >= 1, (open_seen, refused)


def test_the_layout_needs_a_reserve_and_a_waste(tmp_path: Any) -> None:
    from pathlib import Path

    from solver.errors import LayoutError

    text = (Path(__file__).resolve().parents[1] / "layouts" / "canfield-auto-reserve-then-waste.toml").read_text()
    for old, new, message in (('turn = "waste"', 'turn = "none"', r"'reserve-then-waste' needs a waste"),
                              ("count = 1\ndeal = 13", "count = 0\ndeal = 13",
                               r"'reserve-then-waste' needs a \[reserve\]")):
        p = tmp_path / "bad.toml"
        p.write_text(text.replace(old, new))
        with pytest.raises(LayoutError, match=message) as e:
            api.load_layout(str(p))
        assert "\n" not in str(e.value) and str(e.value).startswith(str(p))


def test_whole_pile_moves_only_whole_columns() -> None:
    """On random walks of canfield-strict: every move the position offers from a column onto a column
    takes the whole column; the referee refuses a single card off a longer built column."""
    lay = api.load_layout("canfield-strict")
    rng = random.Random(3)
    whole_moves = refused = 0
    for seed in range(1, 30):
        pos = start_position(lay, shuffles.from_seed(lay, seed))
        for _ in range(120):
            decisions = pos.legal_moves()
            if not decisions:
                break
            at = pos.snapshot()
            for m in decisions:
                first = pos.move_json(m)
                if first["from"].startswith("tableau:") and first["to"].startswith("tableau:"):
                    assert first.get("count", 1) == len(at.stacks[first["from"]]), first
                    whole_moves += 1
            game = TableauGame(lay, at)
            for i, col in enumerate(game.columns):
                for j, dest in enumerate(game.columns):
                    if i != j and len(col) > 1 and dest and game.builds_on(dest[-1], col[-1]):
                        problem = game.copy().play({"card": col[-1], "from": f"tableau:{i}", "to": f"tableau:{j}"})
                        assert problem is not None and "only all together" in problem, problem
                        refused += 1
            pos.push(rng.choice(decisions))
    assert whole_moves >= 5 and refused >= 1, (whole_moves, refused)
