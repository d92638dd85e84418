"""Deals: seed to deal (multisets, golden deals, published deals), the file formats, the parsers fuzzed."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver import cards, shuffles
from solver import deal as deals
from solver import layout as layouts
from solver.errors import DealError, SeedError
from solver.families import load_layout
from solver.schema import builtin_names

GOLDEN_FILE = Path(__file__).resolve().parent / "golden" / "deals.json"
CARD_NAMES = [n for n in builtin_names() if isinstance(load_layout(n), layouts.Layout)]
BOARD_NAMES = [n for n in CARD_NAMES if deals.covers_board_format(load_layout(n))]
LAYOUTS = {n: load_layout(n) for n in CARD_NAMES}


def check_deal(lay: layouts.Layout, deal: deals.Deal) -> None:
    """The deal holds exactly the layout's pack, in stacks of the sizes the layout deals."""
    assert {k: len(v) for k, v in deal.items()} == deals.expected_counts(lay)
    assert Counter(c for cs in deal.values() for c in cs) == Counter(lay.pack())


# ------------------------------------------------------------------ seed to deal


@pytest.mark.parametrize("name", CARD_NAMES)
def test_every_dealt_deal_has_the_layouts_pack(name: str) -> None:
    lay = LAYOUTS[name]
    lo, hi = shuffles.GENERATORS[shuffles.generator(lay)].seeds
    seen = set()
    for seed in [*range(lo, lo + 12), 32000, 32001, 10**6, hi]:
        deal = shuffles.from_seed(lay, seed)
        check_deal(lay, deal)
        seen.add(json.dumps(deals.to_json(deal)))
    assert len(seen) == 16  # different seeds, different deals


@pytest.mark.parametrize("name", ["debutante", "colorado", "grandfather", "twenty", "sly-fox", "black-hole"])
@pytest.mark.parametrize("max_rank", [3, 7, 12])
def test_reduced_decks_deal_the_reduced_pack(name: str, max_rank: int) -> None:
    try:
        lay = LAYOUTS[name].with_max_rank(max_rank)
    except layouts.LayoutError:
        assert name == "black-hole" or max_rank == 3  # too few cards for the deal
        return
    assert shuffles.generator(lay) == "patience-v1"
    for seed in (1, 2, 99):
        deal = shuffles.from_seed(lay, seed)
        check_deal(lay, deal)
        assert all(cards.rank(c) <= max_rank for cs in deal.values() for c in cs)


@pytest.mark.parametrize("name", [n for n in CARD_NAMES if LAYOUTS[n].foundations.preset])
def test_preset_foundations_hold_their_bases(name: str) -> None:
    lay = LAYOUTS[name]
    deal = shuffles.from_seed(lay, 7)
    for i in range(lay.foundations.count):
        assert deal[f"foundation:{i}"] == [deals.foundation_base(lay, i)]
    expected = [r + s for r in ("A" if row.base == 1 else "K" for row in lay.foundations.rows) for s in "CDHS"]
    assert [cards.name(deal[f"foundation:{i}"][0]) for i in range(lay.foundations.count)] == expected


def test_seed_to_deal_is_a_pure_function() -> None:
    for name in CARD_NAMES:
        assert shuffles.from_seed(LAYOUTS[name], 5) == shuffles.from_seed(load_layout(name), 5)


@pytest.mark.parametrize("name", CARD_NAMES)
def test_seed_range(name: str) -> None:
    lay = LAYOUTS[name]
    lo, hi = shuffles.GENERATORS[shuffles.generator(lay)].seeds
    for bad in (lo - 1, -1, hi + 1, 10**40):
        pattern = rf"seed {bad}: expected an integer {lo}\.\.{hi} for layout '{name}'"
        with pytest.raises(SeedError, match=pattern):
            shuffles.from_seed(lay, bad)


def test_a_layout_may_name_every_generator_and_no_other() -> None:
    assert set(layouts.GENERATOR_NAMES) == set(shuffles.GENERATORS)


# ------------------------------------------------------------------ golden deals

GOLDEN: dict[str, Any] = json.loads(GOLDEN_FILE.read_text())


def _golden_layout(key: str) -> layouts.Layout:
    """``NAME``, ``NAME --max-ranks R``, or ``NAME (GENERATOR)``: the layout dealt by a retired generator."""
    key, _, generator = key.removesuffix(")").partition(" (")
    name, _, rank = key.partition(" --max-ranks ")
    lay = load_layout(name)
    if generator:
        lay = replace(lay, deal=replace(lay.deal, generator=generator))
    return lay.with_max_rank(int(rank)) if rank else lay


def test_the_retired_generators_keep_their_golden_deals() -> None:
    """patience-v1 and pysol deal no built-in layout of a PySolFC game now, but they stay to
    reproduce results recorded with them: golden entries under ``NAME (GENERATOR)`` keep them."""
    retired = {k.partition(" (")[2].rstrip(")") for k in GOLDEN if " (" in k}
    assert retired == {"patience-v1", "pysol"}


def test_every_card_layout_has_golden_deals() -> None:
    missing = [n for n in CARD_NAMES if n not in GOLDEN]
    assert not missing, f"no golden deals for {missing}: run python tests/golden/make_golden.py"


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_golden_deals_never_change(key: str) -> None:
    lay = _golden_layout(key)
    entry = GOLDEN[key]
    assert shuffles.generator(lay) == entry["generator"], (
        f"{key}: the layout's generator changed from {entry['generator']!r}; its deals are golden")
    assert set(entry["deals"]) == {"1", "2", "1000"}
    for seed, want in entry["deals"].items():
        got = shuffles.from_seed(lay, int(seed))
        assert deals.to_json(got) == want, f"{key} seed {seed}: the deal changed"
        check_deal(lay, got)
        assert list(want) == list(deals.to_json(got))  # and the stacks come in the same order


# ------------------------------------------------- published Microsoft FreeCell deals

# The deals as the published listings give them: rows across the 8 columns, dealt left to
# right, top row first. Deals 1 and 617 are the examples of Rosetta Code's "Deal cards for
# FreeCell" task (Jim Horne's published algorithm); 11982 is the famous unwinnable deal, as
# listed by independent implementations of that algorithm (and as pysol-cards deals it).
MICROSOFT_ROWS = {
    1: """JD 2D 9H JC 5D 7H 7C 5H
          KD KC 9S 5S AD QC KH 3H
          2S KS 9D QD JS AS AH 3C
          4C 5C TS QH 4H AC 4D 7S
          3S TD 4S TH 8H 2C JH 7D
          6D 8S 8D QS 6C 3D 8C TC
          6S 9C 2H 6H""",
    617: """7D AD 5C 3S 5S 8C 2D AH
            TD 7S QD AC 6D 8H AS KH
            TH QC 3H 9D 6S 8D 3D TC
            KD 5H 9S 3C 8S 7H 4D JS
            4C QS 9C 9H 7C 6H 2C 2S
            4S TS 2H 5D JC 6C JH QH
            JD KS KC 4H""",
    11982: """AH AS 4H AC 2D 6S TS JS
              3D 3H QS QC 8S 7H AD KS
              KD 6H 5S 4D 9H JH 9S 3C
              JC 5D 5C 8C 9D TD KH 7C
              6C 2C TH QH 6D TC 4S 7S
              JD 7D 8H 9C 2H QD 4C 5H
              KC 8D 2S 3S""",
}


def _columns(rows: str) -> dict[str, list[str]]:
    cols: dict[str, list[str]] = {}
    for row in rows.splitlines():
        for i, card in enumerate(row.split()):
            cols.setdefault(f"tableau:{i}", []).append(card)
    return cols


@pytest.mark.parametrize("seed", sorted(MICROSOFT_ROWS))
def test_freecell_seeds_are_the_microsoft_deals(seed: int) -> None:
    want = _columns(MICROSOFT_ROWS[seed])
    assert [len(c) for c in want.values()] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert deals.to_json(shuffles.from_seed(LAYOUTS["freecell"], seed)) == want


def test_the_microsoft_listing_is_pysol_cards_output() -> None:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    for seed, rows in MICROSOFT_ROWS.items():
        text = Game("freecell", seed, RandomBase.DEALS_MS).calc_layout_string(CardRenderer(True))
        cols = [line.split() for line in text.splitlines() if line.strip()]
        assert cols == list(_columns(rows).values())


# pysol-cards' deals of PySolFC game number 1 (`pysol_cards` Game(..., 1, DEALS_PYSOLFC)); below 32000 the
# pysolfc generator deals what pysol-cards deals (tests/test_pysolfc_deals.py: PySolFC's own deals).
PYSOL_BOARDS = {
    "black-hole": """Foundations: AS
        JD KS TH
        2D 9D 8H
        9H QD 2C
        JC JS JH
        5D AH 7D
        7H 3C 6D
        7C 4C 8S
        5H 5C 8D
        KD TS QS
        KC QH 6C
        9S 4H 3D
        5S AC 8C
        AD 4D TC
        QC 7S 6S
        KH 3S 9C
        3H TD 2H
        2S 4S 6H""",
    "golf": """Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
        Foundations: TH
        JD 5H KH AS 4H
        2D KD 3H AH AC
        9H KC 2S 3C 4D
        JC 9S KS 4C 7S
        5D 5S 9D 5C 3S
        7H AD QD TS TD
        7C QC JS QH 4S""",
}
PYSOL_GAMES = {"black-hole": "black_hole", "golf": "golf"}


@pytest.mark.parametrize("name", sorted(PYSOL_BOARDS))
def test_black_hole_and_golf_seed_1_are_pysols_game_1(name: str) -> None:
    lay = LAYOUTS[name]
    assert lay.deal.generator == "pysolfc" and lay.deal.pysol_game == PYSOL_GAMES[name]
    want: dict[str, list[str]] = {}
    columns = 0
    for line in PYSOL_BOARDS[name].splitlines():
        label, _, rest = line.strip().rpartition(":")
        if not label:
            want[f"tableau:{columns}"] = rest.split()
            columns += 1
        else:
            want[{"Foundations": "hole", "Talon": "stock"}[label]] = rest.split()
    assert deals.to_json(shuffles.from_seed(lay, 1)) == want


@pytest.mark.parametrize("name", sorted(PYSOL_BOARDS))
def test_black_hole_and_golf_follow_pysol_cards(name: str) -> None:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    lay = LAYOUTS[name]
    for seed in (1, 2, 1000, 123456):
        text = Game(PYSOL_GAMES[name], seed, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
        assert shuffles.from_seed(lay, seed) == deals.parse_board(text, lay, "pysol-cards")


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("name", CARD_NAMES)
def test_json_round_trip(name: str) -> None:
    lay = LAYOUTS[name]
    for seed in (1, 2, 1000):
        deal = shuffles.from_seed(lay, seed)
        obj = json.loads(json.dumps(deals.to_json(deal)))
        assert deals.from_json(obj, lay, "x.json") == deal
        assert deals.from_json({"layout": name, "deal": obj}, lay, "x.json") == deal  # a whole result
        assert deals.parse_text(json.dumps(obj, indent=2), lay, "x.json") == deal


@pytest.mark.parametrize("name", CARD_NAMES)
def test_text_listing_round_trip(name: str) -> None:
    lay = LAYOUTS[name]
    for seed in (1, 2, 1000):
        deal = shuffles.from_seed(lay, seed)
        text = deals.to_text(deal)
        assert deals.is_listing(text)
        assert deals.parse_text(text, lay, "x.txt") == deal
        assert deals.parse_text("# a comment\n\n" + text.lower(), lay, "x.txt") == deal


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_board_round_trip(name: str) -> None:
    lay = LAYOUTS[name]
    for seed in (1, 2, 1000):
        deal = shuffles.from_seed(lay, seed)
        text = deals.to_board(deal, lay)
        assert not deals.is_listing(text)
        assert deals.parse_text(text, lay, "x.board") == deal
        assert deals.parse_board(re.sub(r"\bT([CDHS])\b", r"10\1", text), lay, "x.board") == deal


def test_board_format_covers_the_tableau_games() -> None:
    assert set(BOARD_NAMES) == {"freecell", "black-hole", "golf", "worm-hole", "bakers-game", "eight-off",
                                "seahaven-towers", "forecell", "bakers-dozen", "forty-thieves", "klondike",
                                "klondike-draw-1",
                                # Solvitaire's presets without a reserve or preset foundations
                                "alina", "american-canister", "british-canister", "castles-of-spain",
                                "eight-off-any-card-spaces", "fan", "fore-cell-same-suit", "free-cell-0-cell",
                                "free-cell-1-cell", "free-cell-2-cell", "free-cell-3-cell", "free-cell-4-pile",
                                "free-cell-5-pile", "free-cell-6-pile", "free-cell-7-pile", "gargantua",
                                "gargantua-redeal", "klondike-deal-1", "klondike-deal-1-partial-piles-restricted",
                                "klondike-partial-piles-restricted", "klondike-two-deck-9", "limited", "maria",
                                "rank-and-file",
                                "scotch-patience", "somerset", "spanish-patience", "streets", "streets-and-alleys",
                                "stronghold", "thirtysix", "trigon", "ultra-klondike-2-deck",
                                "free-cell", "fore-cell", "east-haven",
                                # ... and the Spider family's
                                "spider", "spiderette", "will-o-the-wisp", "simple-simon", "mrs-mop",
                                # ... and PySolFC's
                                "pysolfc-spider", "pysolfc-spider-1-suit", "pysolfc-spider-2-suits",
                                "pysolfc-relaxed-spider", "pysolfc-spiderette",
                                "pysolfc-will-o-the-wisp", "pysolfc-simple-simon"}
    with pytest.raises(DealError, match=r"the board format does not cover layout 'debutante'"):
        deals.to_board(shuffles.from_seed(LAYOUTS["debutante"], 1), LAYOUTS["debutante"])
    with pytest.raises(DealError, match=r"x: the board format does not cover layout 'debutante'"):
        deals.parse_board("AS\n", LAYOUTS["debutante"], "x")


def test_fc_solve_board_spellings() -> None:
    """fc-solve writes empty foundations as `S-0`-style words, empty cells as `-`, cards in `<>`."""
    lay = LAYOUTS["freecell"]
    deal = shuffles.from_seed(lay, 1)
    board = deals.to_board(deal, lay)
    text = "Foundations: - - - -\nFreecells: - - - -\n" + board.replace("JD", "<JD>")
    assert deals.parse_board(text, lay, "x") == deal


# ------------------------------------------------------------------ what a deal file may not do


def _freecell_board() -> list[str]:
    return deals.to_board(shuffles.from_seed(LAYOUTS["freecell"], 1), LAYOUTS["freecell"]).splitlines()


def test_board_errors_name_the_file_and_line() -> None:
    lay, rows = LAYOUTS["freecell"], _freecell_board()
    dup = rows.copy()
    dup[2] = dup[2].replace("9H", "JD", 1)  # JD is already the first card of line 1
    with pytest.raises(DealError, match=r"^f\.txt:3: card JD appears more than once$"):
        deals.parse_board("\n".join(dup), lay, "f.txt")
    short = rows.copy()
    short[3] = " ".join(short[3].split()[:-1])
    with pytest.raises(DealError, match=r"^f\.txt:4: tableau:3 holds 6 cards, expected 7$"):
        deals.parse_board("\n".join(short), lay, "f.txt")
    unknown = rows.copy()
    unknown[4] = unknown[4].replace("5D", "XZ")
    with pytest.raises(DealError, match=r"^f\.txt:5: expected a card name: .* got 'XZ'$"):
        deals.parse_board("\n".join(unknown), lay, "f.txt")
    with pytest.raises(DealError, match=r"^f\.txt: 9 columns, expected 8$"):
        deals.parse_board("\n".join(rows + ["AS"]), lay, "f.txt")
    with pytest.raises(DealError, match=r"^f\.txt: tableau:7: missing, expected 6 cards$"):
        deals.parse_board("\n".join(rows[:7]), lay, "f.txt")
    with pytest.raises(DealError, match=r"^f\.txt:1: stack 'cell:0' holds no cards at the start"):
        deals.parse_board("Freecells: AS\n" + "\n".join(rows), lay, "f.txt")
    with pytest.raises(DealError, match=r"^f\.txt:1: a deal starts with empty foundations$"):
        deals.parse_board("Foundations: AS\n" + "\n".join(rows), lay, "f.txt")


def test_json_errors_name_the_file_and_stack() -> None:
    lay = LAYOUTS["freecell"]
    good = deals.to_json(shuffles.from_seed(lay, 1))
    dup = json.loads(json.dumps(good))
    dup["tableau:2"][0] = dup["tableau:0"][0]
    with pytest.raises(DealError, match=r"^f\.json: tableau:2: card JD appears more than once$"):
        deals.from_json(dup, lay, "f.json")
    bad = json.loads(json.dumps(good))
    bad["tableau:5"][1] = "XZ"
    with pytest.raises(DealError, match=r"^f\.json: tableau:5\[1\]: expected a card name.*'XZ'$"):
        deals.from_json(bad, lay, "f.json")
    extra = {**good, "reserve:0": ["AS"]}
    with pytest.raises(DealError, match=r"^f\.json: reserve:0: stack 'reserve:0' holds no cards"):
        deals.from_json(extra, lay, "f.json")
    with pytest.raises(DealError, match=r"^f\.json: expected a JSON object"):
        deals.from_json([good], lay, "f.json")
    with pytest.raises(DealError, match=r"^f\.json: tableau:0: expected a list of card names"):
        deals.from_json({**good, "tableau:0": "JD KD"}, lay, "f.json")


def test_two_pack_layouts_allow_two_copies_and_no_more() -> None:
    lay = LAYOUTS["debutante"]
    good = deals.to_json(shuffles.from_seed(lay, 3))
    card = good["reserve:0"][0]
    others = [s for s, cs in good.items() if card in cs and s != "reserve:0"]
    assert others  # the second copy is somewhere
    three = json.loads(json.dumps(good))
    i = next(i for i, c in enumerate(three["stock"]) if c != card)
    three["stock"][i] = card
    with pytest.raises(DealError, match=rf"card {card} appears more than 2 times"):
        deals.from_json(three, lay, "f.json")


def test_reduced_deck_rejects_cards_above_its_top_rank() -> None:
    lay = LAYOUTS["debutante"].with_max_rank(5)
    good = deals.to_json(shuffles.from_seed(lay, 1))
    good["stock"][0] = "KS"
    with pytest.raises(DealError, match=r"card KS is not in this pack \(ranks A\.\.5\)"):
        deals.from_json(good, lay, "f.json")


def test_cards_placed_before_the_deal_are_checked() -> None:
    bh = LAYOUTS["black-hole"]
    good = deals.to_json(shuffles.from_seed(bh, 1))
    swapped = json.loads(json.dumps(good))
    swapped["hole"], swapped["tableau:0"][0] = [good["tableau:0"][0]], "AS"
    with pytest.raises(DealError, match=r"^f\.json: hole: hole must hold AS, placed there before the deal; "
                                        r"got JD$"):
        deals.from_json(swapped, bh, "f.json")
    board = deals.to_board(shuffles.from_seed(bh, 1), bh)
    board = board.replace("AS", "XX").replace("JD", "AS").replace("XX", "JD")
    with pytest.raises(DealError, match=r"^f\.txt:1: hole must hold AS"):
        deals.parse_board(board, bh, "f.txt")
    col = LAYOUTS["colorado"]
    good = deals.to_json(shuffles.from_seed(col, 1))
    swapped = json.loads(json.dumps(good))
    swapped["foundation:0"], swapped["reserve:0"] = good["reserve:0"], good["foundation:0"]
    with pytest.raises(DealError, match=r"f\.json: foundation:0: foundation:0 must hold AC, placed there"):
        deals.from_json(swapped, col, "f.json")


def test_listing_errors_name_the_file_and_line() -> None:
    lay = LAYOUTS["debutante"]
    lines = deals.to_text(shuffles.from_seed(lay, 1)).splitlines()
    with pytest.raises(DealError, match=r"^f\.txt:3: reserve:0 is listed twice \(also line 1\)$"):
        deals.parse_listing("\n".join([*lines[:2], lines[0], *lines[2:]]), lay, "f.txt")
    with pytest.raises(DealError, match=r"^f\.txt:2: expected a stack and its cards"):
        deals.parse_listing("\n".join([lines[0], "pile: AS", *lines[1:]]), lay, "f.txt")
    bad = lines.copy()
    bad[4] = bad[4].partition(": ")[0] + ": XZ"
    with pytest.raises(DealError, match=r"^f\.txt:5: expected a card name.*'XZ'$"):
        deals.parse_listing("\n".join(bad), lay, "f.txt")


def test_read_names_the_file(tmp_path: Path) -> None:
    lay = LAYOUTS["freecell"]
    cases = {
        "bad.json": ('{\n "tableau:0": ["JD",\n}', r"bad\.json:3: malformed JSON"),
        "deep.json": ("[" * 100_000, r"deep\.json: malformed JSON: nested too deeply"),
        "binary.txt": (b"\xff\xfe\x00", r"binary\.txt: expected a UTF-8 text file"),
    }
    for fname, (content, pattern) in cases.items():
        p = tmp_path / fname
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        with pytest.raises(DealError, match=pattern):
            deals.read(str(p), lay)
    with pytest.raises(DealError, match=r"nope\.json: cannot read deal file"):
        deals.read(str(tmp_path / "nope.json"), lay)


# ------------------------------------------------------------------ fuzzing the parsers

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARD_WORDS = st.sampled_from([cards.name(c) for c in range(52)] + ["10H", "XZ", "-", "<AS>", "S-A", "", "KS"])
STACKS = st.sampled_from(["stock", "hole", "waste", "tableau:0", "tableau:7", "tableau:8", "cell:0",
                          "reserve:0", "reserve:19", "foundation:0", "foundation:8", "deal", "layout", ""])
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=4) | CARD_WORDS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8) | STACKS, inner, max_size=4),
    max_leaves=20,
)


def _only_deal_or_deal_error(fn: Any, lay: layouts.Layout) -> None:
    try:
        deal = fn()
    except DealError as e:
        assert len(str(e).splitlines()) == 1, str(e)
        return
    check_deal(lay, deal)


@FUZZ
@given(name=st.sampled_from(CARD_NAMES), text=st.text(max_size=200))
def test_fuzz_parse_text_on_any_text(name: str, text: str) -> None:
    lay = LAYOUTS[name]
    _only_deal_or_deal_error(lambda: deals.parse_text(text, lay, "fuzz"), lay)
    _only_deal_or_deal_error(lambda: deals.parse_listing(text, lay, "fuzz"), lay)
    if name in BOARD_NAMES:
        _only_deal_or_deal_error(lambda: deals.parse_board(text, lay, "fuzz"), lay)


@st.composite
def _edited(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few lines or words changed: deals that are almost right."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        words = lines[i].split(" ")
        op = draw(st.sampled_from(["word", "drop-word", "add-word", "drop-line", "dup-line", "swap"]))
        if op == "word":
            words[draw(st.integers(0, len(words) - 1))] = draw(CARD_WORDS | st.text(max_size=3))
        elif op == "drop-word" and len(words) > 1:
            words.pop(draw(st.integers(1, len(words) - 1)))
        elif op == "add-word":
            words.append(draw(CARD_WORDS))
        elif op == "drop-line" and len(lines) > 1:
            lines.pop(i)
            continue
        elif op == "dup-line":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        lines[i] = " ".join(words)
    return "\n".join(lines)


@FUZZ
@given(data=st.data(), name=st.sampled_from(CARD_NAMES), seed=st.integers(1, 5000),
       form=st.sampled_from(["board", "listing", "json"]))
def test_fuzz_edited_deal_files(data: st.DataObject, name: str, seed: int, form: str) -> None:
    lay = LAYOUTS[name]
    assume(form != "board" or name in BOARD_NAMES)
    deal = shuffles.from_seed(lay, seed)
    text = {"board": lambda: deals.to_board(deal, lay), "listing": lambda: deals.to_text(deal),
            "json": lambda: json.dumps(deals.to_json(deal), indent=0)}[form]()
    edited = data.draw(_edited(text))
    _only_deal_or_deal_error(lambda: deals.parse_text(edited, lay, "fuzz"), lay)


@FUZZ
@given(name=st.sampled_from(CARD_NAMES), obj=JSONISH)
def test_fuzz_from_json_on_any_object(name: str, obj: Any) -> None:
    lay = LAYOUTS[name]
    _only_deal_or_deal_error(lambda: deals.from_json(obj, lay, "fuzz"), lay)


@FUZZ
@given(data=st.data(), name=st.sampled_from(CARD_NAMES), seed=st.integers(1, 5000))
def test_fuzz_from_json_on_edited_deals(data: st.DataObject, name: str, seed: int) -> None:
    lay = LAYOUTS[name]
    obj = deals.to_json(shuffles.from_seed(lay, seed))
    for _ in range(data.draw(st.integers(1, 3))):
        stack = data.draw(st.sampled_from(sorted(obj)))
        op = data.draw(st.sampled_from(["card", "drop", "stack", "value", "move"]))
        if op == "card" and isinstance(obj[stack], list) and obj[stack]:
            obj[stack][data.draw(st.integers(0, len(obj[stack]) - 1))] = data.draw(JSONISH)
        elif op == "drop":
            obj.pop(stack)
        elif op == "stack":
            obj[data.draw(STACKS)] = data.draw(st.lists(CARD_WORDS, max_size=3))
        elif op == "value":
            obj[stack] = data.draw(JSONISH)
        elif op == "move" and isinstance(obj[stack], list) and obj[stack]:
            other = data.draw(st.sampled_from(sorted(obj)))
            if isinstance(obj[other], list):
                obj[other].append(obj[stack].pop())
        if not obj:
            break
    _only_deal_or_deal_error(lambda: deals.from_json(obj, lay, "fuzz"), lay)
