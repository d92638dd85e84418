"""Spaces filled from the waste, then the stock (``tableau.spaces = "waste-then-stock"``, Solvitaire's
``auto-waste-then-stock``; its preset ``fortunes-favor``): an emptied column is filled at once with
the waste's top card, or the stock's next card when the waste is empty.  Turning then matters by
itself, so a turn alone is a move.  The tableau position against the plain search over the
referee on small decks (Solvitaire's own small test game among them), the automatic moves against
searches without them, push and pop on random walks."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import assert_push_then_pop_restores, verdicts_with_and_without_forced

from solver import api, moves, shuffles
from solver.families import brute, start_position
from solver.limits import Limits
from solver.solvitaire import rules_to_layout

FF = {"tableau piles": {"count": 12, "build policy": "same-suit", "spaces policy": "auto-waste-then-stock"},
      "foundations": {"initial cards": "all"}, "stock": {"size": 36}}


def small(columns: int, stock: int, top: int, build: str = "same-suit") -> Any:
    rules = {**FF, "tableau piles": {**FF["tableau piles"], "count": columns, "build policy": build},
             "stock": {"size": stock}, "max rank": top}
    return rules_to_layout(rules, f"ff-{columns}-{stock}-{top}.json", f"ff-{columns}-{stock}-{top}")


SMALL = {"solvitaire-test": small(3, 3, 4),  # Solvitaire's own "-test-fortunes-favor"
         "red-black-5-ranks": small(3, 13, 5, "red-black")}


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_the_engine_agrees_with_the_plain_search_over_the_referee(variant: str) -> None:
    lay = SMALL[variant]
    seen = {"won": 0, "lost": 0}
    for seed in range(1, 41):
        deal = shuffles.from_seed(lay, seed)
        truth = brute.solve(lay, deal, max_states=100_000).verdict
        if truth not in seen:
            continue
        got = api.solve(lay, deal=deal, limits=Limits(max_nodes=300_000))  # a win is replayed by the referee
        assert got.verdict == truth, (variant, seed)
        seen[truth] += 1
    assert seen["won"] and sum(seen.values()) >= 35, seen
    assert seen["lost"] or variant != "solvitaire-test", seen


def test_the_automatic_moves_keep_every_verdict() -> None:
    verdicts = verdicts_with_and_without_forced(SMALL["solvitaire-test"], range(1, 41), 300_000)
    assert "won" in verdicts and "lost" in verdicts


def test_an_emptied_column_takes_the_waste_top_then_the_stock_and_a_turn_is_a_move() -> None:
    """On random walks of fortunes-favor: a bare turn is offered while the stock holds cards; a
    move that empties a column leaves it holding the waste's top card, or the stock's next."""
    lay = api.load_layout("fortunes-favor")
    rng = random.Random(5)
    turns = fills = 0
    for seed in range(1, 20):
        pos = start_position(lay, shuffles.from_seed(lay, seed))
        for _ in range(80):
            decisions = pos.legal_moves()
            if not decisions:
                break
            before = pos.snapshot().stacks
            if before["stock"]:
                assert moves.code(moves.TURN) in decisions
            move = rng.choice(decisions)
            first = pos.move_json(move)
            pos.push(move)
            after = pos.snapshot().stacks
            src = first["from"]
            if src.startswith("tableau:") and len(before[src]) == 1:  # it empties its column
                want = ((before["waste"][-1],) if before["waste"] else (before["stock"][0],) if before["stock"]
                        else ())
                assert after[src] == want, (first, before, after)
                fills += bool(want)
            turns += first["from"] == "stock"
    assert turns >= 5 and fills >= 5, (turns, fills)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_push_then_pop_restores(seed: int, picks: list[int]) -> None:
    lay = api.load_layout("fortunes-favor")
    assert_push_then_pop_restores(start_position(lay, shuffles.from_seed(lay, seed)), picks)
