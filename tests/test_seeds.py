"""Reference deal sets (``seeds/``): the format, the loader, and the sets themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver import api, seeds, shuffles
from solver.errors import InputError, UnsupportedError
from solver.families import load_layout
from solver.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
SETS = seeds.set_names()
ENTRIES = [(name, e) for name in SETS for e in seeds.load_set(name)]


def test_the_sets_are_the_files_in_seeds() -> None:
    assert seeds.SEEDS_DIR == ROOT / "seeds"
    assert SETS == sorted(p.stem for p in (ROOT / "seeds").glob("*.toml"))
    assert "freecell-unwinnable" in SETS


def test_freecell_unwinnable_is_deal_11982() -> None:
    entries = seeds.load_set("freecell-unwinnable")
    assert [(e.layout, e.seed, e.verdict) for e in entries] == [("freecell", 11982, "lost")]
    assert "solitairelaboratory.com/fcfaq.html" in entries[0].source
    assert seeds.load_set(str(ROOT / "seeds" / "freecell-unwinnable.toml")) == entries


def test_every_set_is_documented() -> None:
    readme = (ROOT / "seeds" / "README.md").read_text()
    for name in SETS:
        assert f"`{name}`" in readme, f"seeds/README.md does not describe the set {name!r}"


@pytest.mark.parametrize("name, entry", ENTRIES, ids=[f"{n}:{e.layout}#{e.seed}" for n, e in ENTRIES])
def test_every_entry_names_a_real_deal(name: str, entry: seeds.SeedEntry) -> None:
    lay = load_layout(entry.layout)
    assert entry.verdict in ("won", "lost")
    assert len(entry.source) > 20  # a citation, not a placeholder
    if hasattr(lay, "foundations"):
        deal = shuffles.from_seed(lay, entry.seed)
        assert sum(map(len, deal.values())) == len(lay.pack())


@pytest.mark.parametrize("name, entry", ENTRIES, ids=[f"{n}:{e.layout}#{e.seed}" for n, e in ENTRIES])
def test_a_short_search_never_contradicts_a_known_verdict(name: str, entry: seeds.SeedEntry) -> None:
    """Cut short, an engine may only say `unknown`; a verdict must be the known one."""
    try:
        result = api.solve(entry.layout, seed=entry.seed, engine="dfs", limits=Limits(max_nodes=2000))
    except UnsupportedError as e:
        pytest.skip(f"{entry.layout}: {e}")
    assert result.verdict in (entry.verdict, "unknown"), (
        f"{entry.layout} seed {entry.seed}: {name} says {entry.verdict}, dfs says {result.verdict}")


def test_defaults_and_overrides(tmp_path: Path) -> None:
    p = tmp_path / "mixed.toml"
    p.write_text('layout = "golf"\nsource = "a published catalogue, page 3"\n'
                 '[[deal]]\nseed = 5\nverdict = "won"\n'
                 '[[deal]]\nseed = 5\nverdict = "lost"\nlayout = "black-hole"\nsource = "a solver run"\n')
    assert seeds.load_set(str(p)) == [
        seeds.SeedEntry("golf", 5, "won", "a published catalogue, page 3"),
        seeds.SeedEntry("black-hole", 5, "lost", "a solver run"),
    ]


BAD_SETS = {
    "malformed": ('layout = "golf"\n[[deal]\nseed = 1\n', r"malformed TOML: .*line 2"),
    "unknown-top-key": ('layot = "golf"\nsource = "s"\n[[deal]]\nseed = 1\nverdict = "won"\n',
                        r": layot: unknown key; allowed: title, description, layout, source, deal"),
    "unknown-deal-key": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = 1\nverdict = "won"\nnote = "x"\n',
                         r": deal\[0\]\.note: unknown key"),
    "measured-not-a-table": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = 1\nverdict = "won"\nmeasured = 3\n',
                             r": deal\[0\]\.measured: expected a table"),
    "bad-verdict": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = 1\nverdict = "unknown"\n',
                    r": deal\[0\]\.verdict: expected one of 'won', 'lost', got 'unknown'"),
    "no-source": ('layout = "golf"\n[[deal]]\nseed = 1\nverdict = "won"\n', r": deal\[0\]\.source: missing"),
    "no-layout": ('source = "s"\n[[deal]]\nseed = 1\nverdict = "won"\n', r": deal\[0\]\.layout: missing"),
    "bad-seed": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = 0\nverdict = "won"\n',
                 r": deal\[0\]\.seed: expected an integer >= 1, got 0"),
    "string-seed": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = "7"\nverdict = "won"\n',
                    r": deal\[0\]\.seed: expected an integer >= 1, got '7'"),
    "twice": ('layout = "golf"\nsource = "s"\n[[deal]]\nseed = 7\nverdict = "won"\n'
              '[[deal]]\nseed = 7\nverdict = "won"\n', r": deal\[1\]\.seed: golf seed 7 is listed twice"),
    "no-deals": ('layout = "golf"\nsource = "s"\n', r": deal: expected one or more \[\[deal\]\] tables"),
    "empty-source": ('layout = "golf"\nsource = " "\n[[deal]]\nseed = 1\nverdict = "won"\n',
                     r": source: expected a non-empty string"),
}


@pytest.mark.parametrize("case", BAD_SETS)
def test_bad_sets_name_the_file_and_key(case: str, tmp_path: Path) -> None:
    text, pattern = BAD_SETS[case]
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        seeds.load_set(str(p))
    message = str(e.value)
    assert message.startswith(str(p)) and len(message.splitlines()) == 1, message
    assert re.search(pattern, message), message


def test_unknown_set_lists_the_sets() -> None:
    with pytest.raises(InputError, match=r"unknown seed set 'nope'; the sets in .*: .*freecell-unwinnable"):
        seeds.load_set("nope")
