"""Solvitaire's preset names added for issue #41: its spellings of FreeCell and ForeCell
(``free-cell``, ``fore-cell``), Thirty (a deck of ranks A..8: the layout file's ``max_rank``),
East Haven, Klondike with a reserve (37 stacks: the move codes' 6-bit stack numbers) and Canfield with
spaces from the reserve then the waste, with whole-pile moves too (tests/test_reserve_then_waste.py).  Each
opens, deals its whole pack, and plays seeds 1..20, every win replayed by the referee; the
``max_rank`` key is checked like every other key of the schema."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import api, cards, shuffles
from solver.cli import main
from solver.errors import LayoutError
from solver.limits import Limits
from solver.schema import builtin_names

NEW = ["free-cell", "fore-cell", "thirty", "east-haven", "klondike-reserve", "canfield-auto-reserve-then-waste",
       "canfield-strict", "american-toad", "fortunes-favor"]
THIRTY = (Path(__file__).resolve().parents[1] / "layouts" / "thirty.toml").read_text()


@pytest.mark.parametrize("name", NEW)
def test_the_preset_opens_and_deals_its_whole_pack(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert name in builtin_names()
    assert main(["show", name]) == 0
    assert f"({name}, rules version 1)" in capsys.readouterr().out
    lay = api.load_layout(name)
    assert shuffles.generator(lay) == "solvitaire"  # seed N is Solvitaire's --random N
    for seed in (0, 1, 2):
        deal = shuffles.from_seed(lay, seed)
        assert Counter(c for cs in deal.values() for c in cs) == Counter(lay.pack())


# Nodes a deal may take here, and whether seeds 1..20 hold a win found within them: American Toad's
# searches decide none of its seeds 1..20 within 10 s, so only that it plays is checked.
BUDGET = {"american-toad": (5_000, False)}


@pytest.mark.parametrize("name", NEW)
def test_the_preset_plays_seeds_1_to_20_and_every_win_replays(name: str) -> None:
    nodes, wins = BUDGET.get(name, (300_000, True))
    verdicts: Counter[str] = Counter()
    for seed in range(1, 21):
        result = api.solve(name, seed=seed, limits=Limits(max_nodes=nodes))
        verdicts[result.verdict] += 1
        if result.verdict == "won":  # api.solve replayed it; so does verify, from the result's JSON
            assert result.solution and api.verify(result.to_json()) is None
    assert sum(verdicts.values()) == 20 and (verdicts["won"] >= 1 or not wins), verdicts


def test_thirty_deals_ranks_ace_to_eight() -> None:
    lay = api.load_layout("thirty")
    assert lay.max_rank == 8 and len(lay.pack()) == 32
    deal = shuffles.from_seed(lay, 5)
    assert max(cards.rank(c) for cs in deal.values() for c in cs) == 8
    assert shuffles.from_seed(lay, 5) == shuffles.solvitaire_deal(lay, 5)
    smaller = api.load_layout("thirty", 6)  # reduced below the file's own deck: our own numbering
    assert smaller.max_rank == 6 and shuffles.generator(smaller) == "patience-v1"
    with pytest.raises(LayoutError, match=r"--max-ranks: expected 1\.\.8 \(thirty's deck holds ranks A\.\.8\), got 9"):
        api.load_layout("thirty", 9)


@settings(max_examples=40, deadline=None)
@given(value=st.one_of(st.integers(-5, 20), st.booleans(), st.text(max_size=3), st.floats(allow_nan=False)))
def test_max_rank_key_is_read_or_named_in_one_line(value: object, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Any ``max_rank`` value: ranks 1..13 are read (and the deal must fit the smaller pack); any
    other value is one line naming the file and the key."""
    p = tmp_path_factory.mktemp("m") / "thirty-x.toml"
    p.write_text(THIRTY.replace("max_rank = 8", f"max_rank = {json.dumps(value)}"))
    try:
        lay = api.load_layout(str(p))
    except LayoutError as e:
        message = str(e)
        assert "\n" not in message and message.startswith(str(p))
        ok_int = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13
        if ok_int:  # read, but 4 * value cards hold fewer than the 32 the deal places
            assert value < 8 and re.search(rf"the deal places 32 cards but the pack has {4 * value}", message)
        else:
            assert "max_rank: expected an integer 1..13" in message or "malformed TOML" in message
        return
    assert isinstance(value, int) and 8 <= value <= 13 and lay.max_rank == value
    assert len(lay.pack()) == 4 * value


def test_max_rank_holds_the_hole_card(tmp_path: Path) -> None:
    p = tmp_path / "hole.toml"
    text = (Path(__file__).resolve().parents[1] / "layouts" / "black-hole.toml").read_text()
    assert 'start = "AS"' in text
    p.write_text(text.replace('start = "AS"', 'start = "KS"').replace("decks = 1", "decks = 1\nmax_rank = 9"))
    with pytest.raises(LayoutError, match=r"hole\.start: expected a card of ranks A\.\.9 \(max_rank = 9\), got 'KS'"):
        api.load_layout(str(p))
