"""Seeds are PySolFC's game numbers: our deals against PySolFC's own (``tests/golden/pysolfc-deals.json``).

The golden file was made by running PySolFC's own dealing code (``tests/golden/README.md`` says how);
nothing of PySolFC is in this repository, only the deals it made.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solver import deal as deals
from solver import shuffles
from solver.describe import describe
from solver.families import load_layout
from solver.layout import Layout
from solver.schema import builtin_names

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
GOLDEN: dict[str, Any] = json.loads((GOLDEN_DIR / "pysolfc-deals.json").read_text())
RECORDED = GOLDEN["layouts"]
CARD_NAMES = [n for n in builtin_names() if isinstance(load_layout(n), Layout)]
LAYOUTS = {n: load_layout(n) for n in CARD_NAMES}
CASES = [(name, int(seed)) for name, e in sorted(RECORDED.items()) for seed in e["deals"]]
BOUNDARY = (31999, 32000, 32001)


def test_the_record_says_how_it_was_made() -> None:
    assert re.fullmatch(r"[0-9a-f]{40}", GOLDEN["pysolfc_commit"])
    readme = (GOLDEN_DIR / "README.md").read_text()
    assert GOLDEN["pysolfc_commit"] in readme and GOLDEN["pysol_cards_version"] in readme
    for name in RECORDED:
        assert f"`{name}`" in readme, f"tests/golden/README.md does not map {name}'s piles"


def test_every_layout_of_a_pysolfc_game_has_pysolfcs_deals() -> None:
    """Each built-in layout that names its PySolFC game is checked against PySolFC's own deals."""
    named = {n for n, lay in LAYOUTS.items() if lay.deal.pysolfc_game}
    assert named == set(RECORDED)
    for name in named:
        lay, entry = LAYOUTS[name], RECORDED[name]
        assert lay.deal.pysolfc_game == entry["pysolfc_game"], f"{name}: PySolFC calls it {entry['pysolfc_game']!r}"
        seeds = {int(s) for s in entry["deals"]}
        if lay.deal.generator == "pysolfc":
            assert set(BOUNDARY) <= seeds and max(seeds) > 10**9, name
        else:  # FreeCell: Microsoft's deal N, which is PySolFC's game N below 32000 only
            assert lay.deal.generator == "ms-freecell" and 31999 in seeds and max(seeds) < 32000
    # and every layout whose seeds are PySolFC's game numbers names the game
    assert all(lay.deal.pysolfc_game for lay in LAYOUTS.values() if lay.deal.generator == "pysolfc")


@pytest.mark.parametrize("name, seed", CASES, ids=[f"{n}#{s}" for n, s in CASES])
def test_seed_n_is_pysolfcs_game_number_n(name: str, seed: int) -> None:
    want = RECORDED[name]["deals"][str(seed)]
    assert deals.to_json(shuffles.from_seed(LAYOUTS[name], seed)) == want


def test_which_copy_is_preset() -> None:
    """PySolFC presets the first pack's aces and kings in Colorado and Sly Fox, the second pack's in
    Twenty; the other copies stay in the deal (Colorado #1: its ninth column holds the second AS)."""
    assert [LAYOUTS[n].foundations.preset_pack for n in ("colorado", "sly-fox", "twenty")] == [1, 1, 2]
    colorado_1 = deals.to_json(shuffles.from_seed(LAYOUTS["colorado"], 1))
    assert colorado_1["foundation:3"] == ["AS"] and colorado_1["reserve:8"] == ["AS"]
    assert colorado_1 == RECORDED["colorado"]["deals"]["1"]


def _pysol_cards_shuffle(seed: int) -> list[tuple[int, int]]:
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle
    from pysol_cards.random_base import RandomBase

    return [(c.rank, c.suit) for c in shuffle(createCards(1), seed, RandomBase.DEALS_PYSOLFC)]


def _pysolfc_shuffle(seed: int) -> list[tuple[int, int]]:
    from pysol_cards.cards import createCards

    return [(c.rank, c.suit) for c in shuffles.pysolfc_shuffle(createCards(1), seed)]


def test_the_generator_boundary_is_pysolfcs() -> None:
    """PySolFC deals game numbers below 32000 with Microsoft's generator and the rest with the Mersenne
    twister; pysol-cards' shuffle switches one game later, so only game 32000 differs."""
    for seed in (1, 31999, 32001, 10**12):
        assert _pysolfc_shuffle(seed) == _pysol_cards_shuffle(seed)
    assert _pysolfc_shuffle(32000) != _pysol_cards_shuffle(32000)


def test_the_old_generators_keep_pysol_cards_boundary() -> None:
    """``pysol`` and ``patience-v1`` never change: at 32000 they still deal Microsoft's shuffle."""
    from dataclasses import replace

    for name, old in (("black-hole", "pysol"), ("grandfather", "patience-v1")):
        lay = LAYOUTS[name]
        retired = replace(lay, deal=replace(lay.deal, generator=old))
        assert shuffles.from_seed(retired, 31999) == shuffles.from_seed(lay, 31999)
        assert shuffles.from_seed(retired, 32000) != shuffles.from_seed(lay, 32000)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_show_names_the_pysolfc_game(name: str) -> None:
    assert f"PySolFC's {RECORDED[name]['pysolfc_game']} game" in describe(LAYOUTS[name])
