"""Layouts: every built-in layout loads and describes itself; the schema's checks and messages."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import deal as deals
from solver import shuffles
from solver.cli import main
from solver.describe import describe
from solver.errors import InputError, LayoutError
from solver.families import load_layout, parse_layout_text
from solver.layout import Layout
from solver.schema import builtin_names

ROOT = Path(__file__).resolve().parents[1]
NAMES = builtin_names()
CARD_NAMES = [n for n in NAMES if isinstance(load_layout(n), Layout)]


def test_the_builtin_layouts_are_the_files_in_layouts() -> None:
    files = sorted(p.stem for p in (ROOT / "layouts").glob("*.toml"))
    assert NAMES == files
    for game in ("freecell", "black-hole", "golf", "debutante"):
        assert game in CARD_NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_layout_loads_and_shows_itself(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    lay = load_layout(name)
    assert lay.name == name
    assert lay.title and lay.description and lay.rules_version >= 1
    assert main(["show", name]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(f"{lay.title} ({name}, rules version {lay.rules_version})\n")
    assert len(out.splitlines()) >= 3


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_layout_description_matches_its_tables(name: str) -> None:
    lay = load_layout(name)
    text = describe(lay)
    counts = deals.expected_counts(lay)
    size = 4 * lay.max_rank  # a pack (thirty.toml: ranks A..8, max_rank = 8)
    assert sum(counts.values()) == size * lay.decks
    assert all(n > 0 for n in counts.values())
    assert (f"one pack of {size} cards" if lay.decks == 1 else f"2 packs of {size} cards") in text
    assert text.rstrip().endswith("hole." if lay.hole is not None else "foundations.")
    if lay.tableau.count:
        assert f"Tableau: {lay.tableau.count} columns." in text
    if lay.reserve.count:
        kind = "pile" if lay.tableau.count else "columns"  # with a tableau: Canfield's reserve pile
        assert f"Reserve: {lay.reserve.count} {kind}" in text
    if lay.cells.count:
        assert f"Cells: {lay.cells.count} free cell{'s' * (lay.cells.count > 1)}" in text
    assert len(lay.pack()) == size * lay.decks


@pytest.mark.parametrize("name", ["debutante", "twenty", "colorado"])
def test_reduced_deck_description(name: str) -> None:
    lay = load_layout(name).with_max_rank(6)
    text = describe(lay)
    assert "reduced to ranks A..6" in text
    assert "from the six built down" in text  # the king row starts at the highest rank in play
    assert sum(deals.expected_counts(lay).values()) == 2 * 24


def test_a_layout_file_by_path_is_the_builtin(tmp_path: Path) -> None:
    p = tmp_path / "my-freecell.toml"
    p.write_text((ROOT / "layouts" / "freecell.toml").read_text())
    mine, builtin = load_layout(str(p)), load_layout("freecell")
    assert mine.name == "my-freecell" and mine.path == str(p)
    assert mine.tableau == builtin.tableau and mine.cells == builtin.cells
    assert mine.foundations == builtin.foundations and mine.deal == builtin.deal


def test_unknown_layout_suggests_near_names() -> None:
    with pytest.raises(LayoutError, match=r"unknown layout 'fre'; did you mean freecell"):
        load_layout("fre")
    with pytest.raises(LayoutError, match=r"did you mean .*debutante"):
        load_layout("debutant")
    with pytest.raises(LayoutError, match=r"`patience layouts` lists them"):
        load_layout("zzzzzzzz")


# ---------------------------------------------------------------- the schema's messages

FREECELL = (ROOT / "layouts" / "freecell.toml").read_text()
COLORADO = (ROOT / "layouts" / "colorado.toml").read_text()


def _edit(old: str, new: str) -> str:
    assert old in FREECELL
    return FREECELL.replace(old, new)


BAD_LAYOUTS = {
    # case: (TOML text, regex the message must match)
    "malformed": ('title = "x"\ndecks = \n', r"bad\.toml: malformed TOML: .*line 2"),
    "unclosed-table": ("[tableau\ncount = 3\n", r"malformed TOML: .*line 1"),
    "unknown-key": (_edit('build = "alternate"', 'bild = "alternate"'),
                    r"bad\.toml: tableau\.bild: unknown key \(did you mean 'build'\?\); allowed: .*build"),
    "unknown-top-key": ("colour = 1\n" + FREECELL, r"bad\.toml: colour: unknown key; allowed: .*decks"),
    "bad-enum": (_edit('build = "alternate"', 'build = "diagonal"'),
                 r"tableau\.build: expected one of 'alternate', 'suit', 'any', 'none', got 'diagonal'"),
    "bad-nested-enum": (_edit('base = "A"', 'base = "Q"'),
                        r"foundations\.rows\[0\]\.base: expected one of 'A', 'K', 'deal', got 'Q'"),
    "bad-int": (_edit("count = 4", "count = 40"), r"cells\.count: expected an integer 0\.\.16, got 40"),
    "bool-is-not-int": (_edit("decks = 1", "decks = true"), r"decks: expected an integer 1\.\.2, got true$"),
    "bad-type": ("cells = 4\n" + _edit("[cells]\ncount = 4\n", ""),
                 r"bad\.toml: cells: expected a table, got 4"),
    "deal-length": (_edit("deal = [7, 7, 7, 7, 6, 6, 6, 6]", "deal = [7, 7]"),
                    r"tableau\.deal: expected a list of 8 column sizes"),
    "too-many-cards": (_edit("deal = [7, 7, 7, 7, 6, 6, 6, 6]", "deal = [7, 7, 7, 7, 7, 7, 7, 7]"),
                       r"the deal places 56 cards but the pack has 52"),
    "bad-hole-card": ('[hole]\nstart = "XZ"\n[tableau]\ncount = 1\ndeal = [3]\n',
                      r"hole\.start: expected a card name such as 'AS', or 'stock', got 'XZ'"),
    "no-goal": ("[tableau]\ncount = 1\ndeal = [3]\n", r"a layout needs somewhere to win"),
    "hole-card-not-dealt": ('[hole]\nstart = "stock"\n[tableau]\ncount = 1\ndeal = [3]\n[deal]\norder = ["tableau"]\n',
                            r"deal\.order: expected 'hole' in the list when the hole's first card comes from the deal"),
    "reserve-not-dealt": (_edit('order = ["tableau"]', 'order = ["tableau"]\n[reserve]\ncount = 1\naccepts = "none"')
                          .replace("deal = [7, 7, 7, 7, 6, 6, 6, 6]", "deal = [7, 7, 7, 7, 6, 6, 6, 5]"),
                          r"deal\.order: expected 'reserve' in the list when cards are dealt to the reserve"),
    "pysol-without-game": (_edit('generator = "ms-freecell"', 'generator = "pysol"'),
                           r"deal\.pysol_game: expected the PySol game name"),
    "bad-order": (_edit('order = ["tableau"]', 'order = ["talon"]'),
                  r"deal\.order: expected a list drawn from"),
    "unknown-pysol-game": (_edit('generator = "ms-freecell"', 'generator = "pysol"\npysol_game = "blackhole"'),
                           r"deal\.pysol_game: expected a game pysol-cards deals: .*black_hole.*got 'blackhole'"),
    "pysolfc-without-game": (_edit('generator = "ms-freecell"', 'generator = "pysolfc"').replace(
        'pysolfc_game = "FreeCell"\n', ""), r"deal\.pysolfc_game: expected the game's name in PySolFC"),
    "reverse-not-dealt": (_edit('order = ["tableau"]', 'order = ["tableau"]\nreverse = ["cells"]'),
                          r"deal\.reverse: expected a list of groups named in deal\.order, got \['cells'\]"),
    "preset-pack-range": (COLORADO.replace("preset_pack = 1", "preset_pack = 3"),
                          r"foundations\.preset_pack: expected an integer 1\.\.2, got 3"),
    "preset-pack-without-preset": (COLORADO.replace("preset = true", "preset = false"),
                                   r"foundations\.preset_pack: expected preset = true beside it"),
    "preset-pack-one-deck": (COLORADO.replace("decks = 2", "decks = 1").replace("count = 20", "count = 2")
                             .replace("preset_pack = 1", "preset_pack = 2"),
                             r"foundations\.preset_pack: expected 1\.\.1 \(decks = 1\), got 2"),
    "preset-bases-missing": (COLORADO.replace("decks = 2", "decks = 1").replace("count = 20", "count = 2")
                             .replace('base = "K", build = "down"', 'base = "A", build = "up"'),
                             r"foundations\.rows: with preset = true .* 2 rows start at A and the pack has 1 copy"),
    "preset-pack-patience-v1": (COLORADO.replace('generator = "pysolfc"', 'generator = "patience-v1"'),
                                r"foundations\.preset_pack: only the 'pysolfc' generator keeps each card's pack"),
    "deep-nesting": ("a = " + "[" * 5000, r"bad\.toml: malformed TOML"),
}


@pytest.mark.parametrize("case", BAD_LAYOUTS)
def test_schema_errors_name_the_file_and_key(case: str, tmp_path: Path) -> None:
    text, pattern = BAD_LAYOUTS[case]
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(LayoutError) as e:
        load_layout(str(p))
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(str(p)), message
    assert re.search(pattern, message), message


def test_unreadable_layout_files(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00 title")
    with pytest.raises(LayoutError, match=r"binary\.toml: expected a UTF-8 text file"):
        load_layout(str(binary))
    with pytest.raises(LayoutError, match=r"missing\.toml: cannot read layout file"):
        load_layout(str(tmp_path / "missing.toml"))
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(LayoutError, match=r"folder\.toml: cannot read layout file"):
        load_layout(str(folder))


def test_max_ranks_must_fit_the_deal() -> None:
    assert load_layout("debutante").with_max_rank(5).max_rank == 5  # 40 cards, 20 dealt
    for name, r in (("klondike", 6), ("forty-thieves", 3), ("golf", 8), ("debutante", 2), ("twenty", 3)):
        with pytest.raises(LayoutError, match=rf"--max-ranks {r}: {name} deals \d+ cards"):
            load_layout(name).with_max_rank(r)
    for r in (0, 14):
        with pytest.raises(LayoutError, match=r"--max-ranks: expected 1\.\.13"):
            load_layout("debutante").with_max_rank(r)


def test_max_ranks_must_hold_the_hole_card() -> None:
    lay = load_layout("black-hole")
    assert lay.with_max_rank(4).hole == lay.hole  # the ace of spades is in every reduced pack
    kings = dataclasses.replace(lay, hole=dataclasses.replace(lay.hole, start="KS"))
    with pytest.raises(LayoutError, match=r"--max-ranks 4: black-hole starts the hole with KS, which ranks A\.\.4"):
        kings.with_max_rank(4)  # dealing crashed (IndexError) before


def test_layout_errors_are_input_errors() -> None:
    assert issubclass(LayoutError, InputError)


# ---------------------------------------------------------------- fuzzing the schema

VALUES = st.sampled_from(['"A"', '"K"', '"up"', '"stock"', '"AS"', '"XZ"', '"pysol"', '"pysolfc"', '"diagonal"',
                          "true",
                          "0", "1", "-1", "7", "99", "1e3", "[]", "[1, 2]", "[7, 7]", '["tableau"]',
                          '[{ base = "A" }]', "{}", '"\\n"', "[[1]]", '"a\\nb"'])
KEYS = st.sampled_from(["count", "deal", "build", "base", "start", "rows", "preset", "capacity", "turn",
                        "decks", "generator", "order", "wrap", "moves", "bogus", '"new\\nline"',
                        "preset_pack", "reverse", "pysolfc_game"])


@st.composite
def _edited_layout(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(CARD_NAMES))
    lines = (ROOT / "layouts" / f"{name}.toml").read_text().splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        key, eq, _value = lines[i].partition(" = ")
        op = draw(st.sampled_from(["value", "key", "drop", "add", "raw"]))
        if op == "value" and eq:
            lines[i] = f"{key} = {draw(VALUES)}"
        elif op == "key" and eq:
            lines[i] = f"{draw(KEYS)} = {_value}"
        elif op == "drop":
            lines.pop(i)
        elif op == "add":
            lines.insert(i, f"{draw(KEYS)} = {draw(VALUES)}")
        else:
            lines[i] = draw(st.text(max_size=12))
    return "\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(text=_edited_layout())
def test_fuzz_layout_files_load_or_give_one_line(text: str) -> None:
    try:
        lay = parse_layout_text(text, "fuzz.toml", "fuzz")
    except LayoutError as e:
        assert len(str(e).splitlines()) == 1 and str(e).startswith("fuzz.toml: "), str(e)
        return
    describe(lay)
    counts = deals.expected_counts(lay)
    assert sum(counts.values()) == len(lay.pack()) and all(n > 0 for n in counts.values())


def test_a_whole_pack_tableau_deals_a_reduced_pack_round_robin():
    from solver import api

    lay = api.load_layout("freecell", 5)
    assert lay.tableau.deal == (3, 3, 3, 3, 2, 2, 2, 2)
    deal = shuffles.from_seed(lay, 3)
    assert sorted(c for cs in deal.values() for c in cs) == sorted(lay.pack())
    result = api.solve(lay, seed=3)
    assert result.verdict == "won" and api.verify(result.to_json()) is None
    assert api.load_layout("bakers-dozen", 4).tableau.deal == (2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    with pytest.raises(LayoutError):
        api.load_layout("klondike", 3)  # 28 cards to the tableau, 12 in the pack: still refused
