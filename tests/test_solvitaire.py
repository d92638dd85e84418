"""Solvitaire's files: rules mapped onto layouts (and back), its deal files, its seeds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import api, cli, families, shuffles, solvitaire
from solver import deal as deals
from solver.errors import DealError, LayoutError
from solver.families.card import DEAL_READERS
from solver.fingerprint import rules_fingerprint
from solver.layout import Layout, rule_values
from solver.schema import builtin_names

GOLDEN = Path(__file__).parent / "golden" / "solvitaire-deals.json"

# Solvitaire's presets whose rules are another's, key for key: Klondike draw 1 ("klondike-deal-1", and its
# "partial piles restricted" twin), Klondike and Canfield's twins.
KLONDIKE_1 = {
    "tableau piles": {"count": 7, "build policy": "red-black", "spaces policy": "kings",
                      "move built group": "partial-if-card-above-buildable", "diagonal deal": True,
                      "face up cards": "top"},
    "foundations": {"removable": True},
    "stock": {"size": 24, "deal count": 1, "redeal": True},
}
KLONDIKE_3 = {
    "tableau piles": {"count": 7, "build policy": "red-black", "spaces policy": "kings",
                      "move built group": "partial-if-card-above-buildable", "diagonal deal": True,
                      "face up cards": "top"},
    "foundations": {"removable": True},
    "stock": {"size": 24, "deal count": 3, "redeal": True},
}
CANFIELD = {
    "tableau piles": {"count": 4, "build policy": "red-black", "move built group": "partial-if-card-above-buildable",
                      "spaces policy": "auto-reserve-then-any"},
    "foundations": {"initial cards": "one", "base card": "random"},
    "stock": {"size": 34, "deal count": 3, "redeal": True},
    "reserve": {"size": 13, "stacked": True},
}

# Solvitaire's presets (the keys each sets beside its defaults), for the golden deals.
SUIT_GROUPS = {"move built group": "yes", "move built group policy": "same-suit"}  # the Spider family's
PRESETS = {
    "klondike-deal-1": KLONDIKE_1, "klondike-deal-1-partial-piles-restricted": KLONDIKE_1,
    "klondike-partial-piles-restricted": KLONDIKE_3, "canfield-partial-piles-restricted": CANFIELD,
    "free-cell": {"tableau piles": {"build policy": "red-black"}, "cells": {"count": 4}},
    "canfield": {"tableau piles": {"count": 4, "build policy": "red-black",
                                   "move built group": "partial-if-card-above-buildable",
                                   "spaces policy": "auto-reserve-then-any"},
                 "foundations": {"initial cards": "one", "base card": "random"},
                 "stock": {"size": 34, "deal count": 3, "redeal": True}, "reserve": {"size": 13, "stacked": True}},
    "beleaguered-castle": {"tableau piles": {"count": 8, "build policy": "any-suit"},
                           "foundations": {"initial cards": "all"}},
    "somerset": {"tableau piles": {"count": 10, "build policy": "red-black", "diagonal deal": True},
                 "foundations": {"removable": True}},
    "lucas": {"tableau piles": {"count": 13, "build policy": "same-suit"}, "stock": {"size": 61, "redeal": False},
              "foundations": {"initial cards": "all"}, "two decks": True},
    "black-hole": {"tableau piles": {"count": 17, "build policy": "no-build"}, "foundations": {"present": False},
                   "hole": {"present": True}},
    "golf": {"tableau piles": {"count": 7, "build policy": "no-build"}, "foundations": {"present": False},
             "stock": {"size": 16, "deal type": "hole"},
             "hole": {"present": True, "base card": "random", "build loops": False}},
    "eight-off": {"tableau piles": {"build policy": "same-suit", "spaces policy": "kings"},
                  "cells": {"count": 8, "pre-filled": 4}},
    "chameleon": {"tableau piles": {"count": 3, "build policy": "any-suit", "move built group": "yes"},
                  "reserve": {"size": 13, "stacked": True}, "stock": {"size": 36}},
    "fan": {"tableau piles": {"count": 18, "build policy": "same-suit", "spaces policy": "kings"},
            "foundations": {"removable": True}},
    "spiderette": {"tableau piles": {"count": 7, "build policy": "any-suit", **SUIT_GROUPS, "diagonal deal": True,
                                     "face up cards": "top"},
                   "foundations": {"only complete pile moves": True},
                   "stock": {"size": 24, "deal type": "tableau piles"}},
    "will-o-the-wisp": {"tableau piles": {"count": 7, "build policy": "any-suit", **SUIT_GROUPS},
                        "foundations": {"only complete pile moves": True},
                        "stock": {"size": 31, "deal type": "tableau piles"}},
    "simple-simon": {"tableau piles": {"count": 10, "diagonal deal": True, **SUIT_GROUPS},
                     "foundations": {"only complete pile moves": True}},
    "mrs-mop": {"tableau piles": {"count": 13, "build policy": "any-suit", **SUIT_GROUPS, "spaces policy": "any"},
                "foundations": {"only complete pile moves": True}, "two decks": True},
}
SPIDER = {"tableau piles": {"count": 10, "build policy": "any-suit", "move built group": "yes",
                            "move built group policy": "same-suit", "face up cards": "top"},
          "foundations": {"only complete pile moves": True}, "stock": {"size": 50, "deal type": "tableau piles"},
          "two decks": True}
PRESETS["spider"] = SPIDER
# A reserve of single cards (issue #33).
NORTHWEST = {"tableau piles": {"build policy": "red-black", "move built group": "partial-if-card-above-buildable",
                               "spaces policy": "kings", "diagonal deal": True, "face up cards": "top"},
             "foundations": {"removable": True}, "reserve": {"size": 16}}
PRESETS.update({
    "flower-garden": {"tableau piles": {"count": 6}, "reserve": {"size": 16}, "foundations": {"removable": True}},
    "king-albert": {"tableau piles": {"count": 9, "build policy": "red-black", "diagonal deal": True},
                    "foundations": {"removable": True}, "reserve": {"size": 7}},
    "raglan": {"tableau piles": {"count": 9, "build policy": "red-black", "diagonal deal": True},
               "reserve": {"size": 6}, "foundations": {"removable": True, "initial cards": "all"}},
    "northwest-territory": NORTHWEST, "northwest-territory-partial-piles-restricted": NORTHWEST,
    "duchess": {"tableau piles": {"count": 4, "build policy": "red-black", "move built group": "yes"},
                "foundations": {"initial cards": "all"}, "reserve": {"size": 12}, "stock": {"size": 36}},
})
# Issue #41: its spellings of FreeCell and ForeCell, Thirty's reduced deck, East Haven's stock dealt onto the columns.
PRESETS.update({
    "fore-cell": {"tableau piles": {"build policy": "red-black", "spaces policy": "kings"},
                  "cells": {"count": 4, "pre-filled": 4}},
    "thirty": {"tableau piles": {"count": 5, "build policy": "any-suit", "move built group": "yes",
                                 "spaces policy": "any", "diagonal deal": False},
               "reserve": {"size": 2}, "foundations": {"removable": False}, "max rank": 8},
    "east-haven": {"tableau piles": {"count": 7, "build policy": "red-black", "move built group": "yes",
                                     "face up cards": "top"},
                   "foundations": {"removable": True}, "stock": {"size": 31, "deal type": "tableau piles"}},
    "klondike-reserve": {"tableau piles": {"count": 7, "build policy": "red-black", "spaces policy": "kings",
                                           "move built group": "yes", "diagonal deal": True, "face up cards": "top"},
                         "foundations": {"removable": True}, "reserve": {"size": 24}},
    "canfield-auto-reserve-then-waste": {**CANFIELD, "tableau piles": {
        **CANFIELD["tableau piles"], "spaces policy": "auto-reserve-then-waste"}},
    "canfield-strict": {**CANFIELD, "tableau piles": {
        **CANFIELD["tableau piles"], "spaces policy": "auto-reserve-then-waste", "move built group": "whole-pile"}},
    "american-toad": {"tableau piles": {"count": 8, "build policy": "same-suit", "move built group": "whole-pile",
                                        "spaces policy": "auto-reserve-then-waste"},
                      "foundations": {"initial cards": "one", "base card": "random"},
                      "stock": {"size": 75, "deal count": 1, "redeal": False}, "reserve": {"size": 20, "stacked": True},
                      "two decks": True},
    "fortunes-favor": {"tableau piles": {"count": 12, "build policy": "same-suit",
                                         "spaces policy": "auto-waste-then-stock"},
                       "foundations": {"initial cards": "all"}, "stock": {"size": 36}},
})
# Rules no layout of ours says yet (three of them, named together in one line).
UNSAID = {"tableau piles": {"move built group": "maximal-group"}, "stock": {"size": 10, "deal type": "hole"},
          "foundations": {"base card": "random"}}


def preset(name: str):
    return solvitaire.rules_to_layout(PRESETS[name], f"{name}.json", name)


@pytest.mark.parametrize("name", [n for n in PRESETS if n in builtin_names()
                                  and api.load_layout(n).deal.generator == "solvitaire"])
def test_a_rules_file_deals_the_built_in_layouts_deals(name, tmp_path, capsys):
    """``--rules NAME.json --seed N`` is the built-in ``NAME --seed N``: the same rules (fingerprint)
    and the same deal, Solvitaire's ``--random N`` (the command line in process; its own process in
    ``test_the_command_line_reads_rules_and_deal_files``)."""
    lay, builtin = preset(name), api.load_layout(name)
    assert rules_fingerprint(lay) == rules_fingerprint(builtin)
    assert shuffles.from_seed(lay, 3) == shuffles.from_seed(builtin, 3)
    rules = tmp_path / f"{name}.json"
    rules.write_text(json.dumps(PRESETS[name]))
    by_rules = cli.main(["deal", "--rules", str(rules), "--seed", "3"]), capsys.readouterr().out
    by_name = cli.main(["deal", name, "--seed", "3"]), capsys.readouterr().out
    assert by_rules == by_name and by_rules[0] == 0 and by_rules[1]


@pytest.mark.parametrize("key", sorted(json.loads(GOLDEN.read_text())))
def test_seed_n_is_solvitaires_random_n(key):
    """Solvitaire's own ``--deal-only --random N`` output (tests/golden/README.md) is our deal of
    seed N under the ``solvitaire`` generator, card for card: every stack the same, the columns
    and the cells the same piles (its deal file lists them in another order than it deals them)."""
    name, seed = key.rsplit(" ", 1)
    lay = preset(name)
    theirs = deals.from_json(json.loads(GOLDEN.read_text())[key], lay, key, DEAL_READERS)
    ours = shuffles.from_seed(lay, int(seed))

    def split(deal):
        interchangeable = ("tableau:", "cell:")
        piles = sorted(v for k, v in deal.items() if k.startswith(interchangeable))
        return piles, {k: v for k, v in deal.items() if not k.startswith(interchangeable)}

    assert split(theirs) == split(ours)


def test_the_mersenne_twister_is_cs():
    """``std::mt19937`` seeded with 5489 (its default) gives 4123659995 as its 10000th number (C++11 §26.5.5)."""
    rng = shuffles._mt19937(5489)
    for _ in range(9999):
        rng.getrandbits(32)
    assert rng.getrandbits(32) == 4123659995


# the card-schema layouts Solvitaire plays (the accordion and gaps families: tests/test_accordion.py, test_gaps.py)
def solvitaire_rules(lay: Any) -> dict[str, Any] | None:
    return families.family_of(lay).solvitaire_rules(lay)


SOLVITAIRE_PLAYABLE = [n for n in builtin_names() if isinstance(api.load_layout(n), Layout)
                       and solvitaire_rules(api.load_layout(n)) is not None]


def test_solvitaire_plays_the_layouts_it_should():
    assert {"freecell", "klondike", "canfield", "black-hole", "golf", "fan", "beleaguered-castle", "lucas",
            "chameleon", "forty-thieves", "bakers-dozen"} <= set(SOLVITAIRE_PLAYABLE)
    for name in ("debutante", "colorado", "twenty"):  # the debutante family: no Solvitaire game
        assert solvitaire_rules(api.load_layout(name)) is None


@pytest.mark.parametrize("name", SOLVITAIRE_PLAYABLE)
def test_rules_there_and_back(name):
    """Our layout as Solvitaire's rules, read back: the same rules (a supermove is Solvitaire's
    single-card move: the same game, the supermove only a shortcut), and a deal written as
    Solvitaire's deal file reads back the same."""
    lay = api.load_layout(name)
    rules = families.family_of(lay).solvitaire_rules(lay)
    back = solvitaire.rules_to_layout(json.loads(json.dumps(rules)), "x.json", name)
    want = rule_values(lay)
    if want["tableau.moves"] == "supermove":
        want["tableau.moves"] = "single"
    got = rule_values(back)
    got["tableau.deal"], got["tableau.face_down"] = want["tableau.deal"], want["tableau.face_down"]  # sizes: ours
    assert got == want
    deal = shuffles.from_seed(lay, 3)
    if any(f"cell:{i}" in deal for i in range(lay.cells.count)) and lay.cells.deal < lay.cells.count:
        with pytest.raises(DealError, match="cannot hold"):
            solvitaire.deal_to_json(lay, deal)
        return
    text = json.dumps(solvitaire.deal_to_json(lay, deal))
    assert deals.parse_text(text, lay, "x.json", DEAL_READERS) == deal


def test_what_cannot_be_said_is_named_in_one_line():
    with pytest.raises(LayoutError) as e:
        solvitaire.rules_to_layout(UNSAID, "unsaid.json", "unsaid")
    message = str(e.value)
    assert "\n" not in message
    for key in ("[tableau piles][move built group]", "[stock][deal type] = 'hole'", "[foundations][base card]"):
        assert key in message
    with pytest.raises(LayoutError, match=r"x.json: \[tablaeu piles\]: not a key .*did you mean 'tableau piles'"):
        solvitaire.rules_to_layout({"tablaeu piles": {}}, "x.json", "x")
    with pytest.raises(LayoutError, match=r"\[cells\]\[count\]: expected an integer >= 0, got -1"):
        solvitaire.rules_to_layout({"cells": {"count": -1}}, "x.json", "x")
    with pytest.raises(LayoutError, match=r"x.json: .*\[tableau piles\]\[count\] = 8 beside \[sequences\].*"
                                          r"\[sequences\]\[count\] = 3 .*\[sequences\]\[direction\] = 'R'"):
        families.rules_to_layout({"foundations": {"present": False},
                                  "sequences": {"count": 3, "direction": "R"}}, "x.json", "x")


VALUES = st.one_of(st.integers(-2, 60), st.booleans(), st.sampled_from(
    ["any-suit", "red-black", "same-suit", "no-build", "kings", "any", "yes", "no", "all", "top", "one", "none",
     "random", "A", "AS", "waste", "hole", "tableau piles", "L", "whole-pile", "auto-reserve-then-any", ""]),
    st.lists(st.sampled_from(["L1", "R3", "L0", "X", "same-rank", "same-suit", 7]), max_size=3))
SECTIONS = st.dictionaries(st.sampled_from(sorted(k for s in solvitaire.DEFAULTS.values() if isinstance(s, dict)
                                                  for k in s)), VALUES, max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([*solvitaire.DEFAULTS, "bogus"]), st.one_of(SECTIONS, VALUES), max_size=5))
def test_any_rules_object_is_a_layout_or_one_line_of_bad_input(obj):
    try:
        lay = families.rules_to_layout(obj, "r.json", "r")
    except LayoutError as e:
        assert "\n" not in str(e) and str(e).startswith("r.json")
        return
    if not isinstance(lay, Layout):  # Accordion, Gaps
        families.family_of(lay).deal_from_seed(lay, 1)
        return
    # seed N is Solvitaire's --random N, also on the reduced deck the rules name ("max rank"), a deal of the pack
    assert shuffles.generator(lay) == "solvitaire" and lay.max_rank == lay.deal.max_rank
    dealt = shuffles.from_seed(lay, 1)  # checked against the layout (deal.validate), or DealError
    assert sorted(c for stack in dealt.values() for c in stack) == sorted(lay.pack())


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True, cwd=cwd)


def test_the_command_line_reads_rules_and_deal_files(tmp_path):
    rules = tmp_path / "castle.json"
    rules.write_text(json.dumps(PRESETS["beleaguered-castle"]))
    done = run("solve", "--rules", str(rules), "--seed", "2", "--json")
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["layout"] == "castle"
    dealt = run("deal", "beleaguered-castle", "--seed", "2", "--solvitaire", "--out", str(tmp_path / "d.json"))
    assert dealt.returncode == 0, dealt.stderr
    # one repeatable search (the portfolio's first proof depends on the machine's speed)
    a = run("solve", "beleaguered-castle", "--deal", str(tmp_path / "d.json"), "--engine", "dfs", "--json")
    b = run("solve", "beleaguered-castle", "--seed", "2", "--engine", "dfs", "--json")
    assert json.loads(a.stdout)["verdict"] == json.loads(b.stdout)["verdict"]
    assert json.loads(a.stdout)["solution"] == json.loads(b.stdout)["solution"]
    (tmp_path / "unsaid.json").write_text(json.dumps(UNSAID))
    bad = run("show", "--rules", str(tmp_path / "unsaid.json"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "[stock][deal type] = 'hole'" in bad.stderr
    both = run("show", "freecell", "--rules", str(rules))
    assert both.returncode == 2 and "one of them" in both.stderr


def test_a_family_solvitaire_plays_no_game_of_is_refused_by_name():
    """The family answers (``GameFamily.peers``): the debutante family and the peg boards have no
    Solvitaire game, so ``deal --solvitaire`` refuses them in one line naming the family."""
    for layout, family in (("debutante", "reserve"), ("english-33", "peg")):
        done = run("deal", layout, "--seed", "1", "--solvitaire") if family != "peg" else run(
            "deal", layout, "--solvitaire")
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == f"patience: error: --solvitaire: Solvitaire plays no game of the {family} family"


def test_set_changes_the_layout_a_rules_file_maps_to():
    lay = solvitaire.rules_to_layout(PRESETS["free-cell"], "f.json", "f", ("cells.count=2",))
    assert lay.cells.count == 2 and solvitaire.rules_to_layout(PRESETS["free-cell"], "f.json", "f").cells.count == 4
    with pytest.raises(LayoutError, match=r"^f.json with --set cells.count=x: cells.count: expected an integer"):
        solvitaire.rules_to_layout(PRESETS["free-cell"], "f.json", "f", ("cells.count=x",))
