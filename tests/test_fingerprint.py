"""The rules fingerprint: labels left out, every rule counted, stable across code changes."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from solver.families import load_layout
from solver.fingerprint import rules_fingerprint
from solver.schema import builtin_names

# Solvitaire's presets that differ from another in name only (its JSON the same, key for key), and
# are built in under both names so that every preset of Solvitaire has its own.
TWINS = {"klondike-deal-1-partial-piles-restricted": "klondike-deal-1",
         "northwest-territory-partial-piles-restricted": "northwest-territory"}


def test_every_built_in_layout_has_rules_of_its_own() -> None:
    prints = {name: rules_fingerprint(load_layout(name)) for name in builtin_names()}
    for twin, of in TWINS.items():
        assert prints.pop(twin) == prints[of]
    assert len(set(prints.values())) == len(prints)
    assert all(len(p) == 12 and int(p, 16) >= 0 for p in prints.values())


def test_pinned_fingerprints_do_not_move() -> None:
    """Stored databases and results carry these: a change here refuses every batch database made
    before it.  Change them only with the rules of the layout."""
    assert rules_fingerprint(load_layout("black-hole")) == "f7c1b90accb7"
    assert rules_fingerprint(load_layout("english-33")) == "3e590140bcfc"


@pytest.mark.parametrize("name", ["black-hole", "english-33", "debutante"])
def test_labels_are_not_rules_and_rules_are(name: str) -> None:
    lay = load_layout(name)
    relabelled = dataclasses.replace(lay, name="other", title="Other", description="x", path="/tmp/other.toml",
                                     rules_version=lay.rules_version + 1)
    assert rules_fingerprint(relabelled) == rules_fingerprint(lay)
    if lay.family == "peg":
        changed = lay.variant(lay.name, goal_hole=None)
    else:
        changed = lay.with_max_rank(9 if name != "debutante" else 12)
    assert rules_fingerprint(changed) != rules_fingerprint(lay)


def test_a_new_option_with_its_default_keeps_old_fingerprints() -> None:
    @dataclass(frozen=True)
    class Old:
        name: str
        count: int = 3
        sizes: tuple[int, ...] = ()

    @dataclass(frozen=True)
    class New:
        name: str
        count: int = 3
        sizes: tuple[int, ...] = ()
        wrap: bool = False  # added later; False keeps the old rules
        extra: list[int] = field(default_factory=list)

    assert rules_fingerprint(Old("a", 4, (1, 2))) == rules_fingerprint(New("b", 4, (1, 2)))
    assert rules_fingerprint(New("b", 4, (1, 2), wrap=True)) != rules_fingerprint(Old("a", 4, (1, 2)))
    with pytest.raises(TypeError):
        rules_fingerprint(Old)
