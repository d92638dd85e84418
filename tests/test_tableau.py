"""The tableau family (FreeCell, Klondike, ...): engine, dominance, referee, deals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from walks import (
    TABLEAU_SOURCES,
    assert_push_then_pop_restores,
    engine_vs_brute_force,
    goal_reachable,
    interpreted,
    named,
    perft,
    verdicts_with_and_without_forced,
)

from solver import api, cards, moves, positions, shuffles
from solver import deal as deals
from solver.engines.dfs import dfs
from solver.families import start_position
from solver.families.tableau.codes import JOINED_BIT
from solver.families.tableau.position import TableauPosition
from solver.families.tableau.referee import replay
from solver.layout import DealSpec
from solver.limits import Limits

# The same source run interpreted: its methods may be overridden (compiled, the class is final).
Interpreted = interpreted("solver.families.core", *TABLEAU_SOURCES)[
    "solver.families.tableau.position"].TableauPosition
TURN, REDEAL = moves.code(moves.TURN), moves.code(moves.REDEAL)


def M(src: int, dst: int, n: int = 1, place: int = 0) -> int:
    """The code of n cards from stack ``src`` to ``dst`` (``place``: a waste card further in)."""
    return moves.code(moves.CARDS, src, dst, n, place)


def joined(pos: TableauPosition) -> list[list[int]]:
    """The legal lateral moves with their use, each as the primitive moves it plays."""
    return [pos.parts(m) for m in pos.legal_moves() if m & JOINED_BIT]


def with_foundations(lay, deal, heights: list[int]) -> positions.Snapshot:
    """The position at ``deal`` with foundation f holding its suit's cards up to ``heights[f]``."""
    at = positions.from_deal(lay, deal)
    found = {f"foundation:{f}": tuple(cards.make(r, f & 3) for r in range(1, h + 1)) for f, h in enumerate(heights)}
    return replace(at, stacks={**at.stacks, **found})


def stack(pos: TableauPosition, name: str) -> list[int]:
    """The cards of a stack of the position now (real cards), bottom first."""
    return list(pos.snapshot().stacks[name])

TABLEAU_LAYOUTS = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell", "bakers-dozen",
                   "forty-thieves", "klondike", "klondike-draw-1"]


def hand(name: str, columns: list[str], cells: list[str] | None = None, stock: str = "",
         face_down: list[int] | None = None, found: list[int] | None = None,
         **tableau) -> tuple[object, TableauPosition]:
    """A position built by hand on ``name``'s rules (cards not listed count as already home; with
    ``found``, the foundations hold their suits' cards up to those heights)."""
    lay = api.load_layout(name)
    t = replace(lay.tableau, count=len(columns), deal=tuple(len(c.split()) for c in columns),
                face_down=tuple(face_down or [0] * len(columns)), **tableau)
    lay = replace(lay, tableau=t, cells=replace(lay.cells, count=len(cells or []), deal=0))
    deal = {f"tableau:{i}": [cards.parse(c) for c in col.split()] for i, col in enumerate(columns)}
    for i, c in enumerate(cells or []):
        if c != "-":
            deal[f"cell:{i}"] = [cards.parse(c)]
    if stock:
        deal["stock"] = [cards.parse(c) for c in stock.split()]
    return lay, TableauPosition(lay, deal if found is None else with_foundations(lay, deal, found))


# ------------------------------------------------------------ hand-checked moves


def test_supermove_limits_from_cells_and_spaces():
    # One free cell and one space, the space being the target: (1 + 1) * 2 ** 0 = 2 cards.
    _, pos = hand("freecell", ["8C KS QH JC TD", "KD", "", "9S"], cells=["-"])
    moves = named(pos, pos.legal_moves())
    assert ("QH", "tableau:0", "tableau:1", 3) not in moves  # QH on KD: same colour
    assert ("JC", "tableau:0", "tableau:2", 2) in moves  # the longest group the space can take
    assert ("QH", "tableau:0", "tableau:2", 3) not in moves  # too many
    assert ("TD", "tableau:0", "tableau:2", 1) in moves  # single cards always
    assert ("9S", "tableau:3", "tableau:0", 1) in moves  # 9S on TD
    assert ("9S", "tableau:3", "cell:0", 1) in moves
    assert ("9S", "tableau:3", "tableau:2", 1) not in moves  # the whole column into a space
    assert ("KD", "tableau:1", "tableau:2", 1) not in moves
    assert len(moves) == 6


def test_supermove_counts():
    # QH JC TD (3 cards) onto KS in a column: free cell 1, one space -> limit 4.
    _, pos = hand("freecell", ["8C QH JC TD", "KS", "", "2D"], cells=["-"])
    moves = named(pos, pos.legal_moves())
    assert ("QH", "tableau:0", "tableau:1", 3) in moves
    assert ("JC", "tableau:0", "tableau:2", 2) in moves  # into the space: at most (1 + 1) * 1 = 2
    assert ("QH", "tableau:0", "tableau:2", 3) not in moves
    # No cell free, no space: single cards only.
    _, pos = hand("freecell", ["8C QH JC TD", "KS", "2D"], cells=["3S"])
    moves = named(pos, pos.legal_moves())
    assert ("QH", "tableau:0", "tableau:1", 3) not in moves
    assert not any(m[3] > 1 for m in moves)


def test_suit_build_and_kings_only_spaces():
    _, pos = hand("seahaven-towers", ["5C 8H", "9H", "9S", "", "5C KD QD"], cells=["-"])
    moves = named(pos, pos.legal_moves())
    assert ("8H", "tableau:0", "tableau:1", 1) in moves
    assert ("8H", "tableau:0", "tableau:2", 1) not in moves  # 8H on 9S: other suit
    assert not any(m[2] == "tableau:3" and m[0] != "KD" for m in moves)  # only kings fill spaces
    assert ("KD", "tableau:4", "tableau:3", 2) in moves


def test_any_suit_single_moves_and_no_spaces():
    _, pos = hand("bakers-dozen", ["9C 8H", "9S", "", "7D 6C"])
    moves = named(pos, pos.legal_moves())
    assert ("8H", "tableau:0", "tableau:1", 1) in moves  # any suit
    assert not any(m[2] == "tableau:2" for m in moves)  # spaces are never filled
    assert not any(m[3] > 1 for m in moves)


def test_face_down_cards_do_not_move_and_turn_up():
    _, pos = hand("klondike", ["5D 9S 8H", "TD", "KS"], face_down=[2, 0, 0])
    moves = named(pos, pos.legal_moves())
    assert ("8H", "tableau:0", "tableau:1", 1) not in moves  # 8H on TD: wrong rank
    assert not any(m[0] in ("9S", "5D") for m in moves)
    _, pos = hand("klondike", ["5D 9S 8H", "9C", "TH"], face_down=[2, 0, 0])
    (mv,) = [m for m in pos.legal_moves() if pos.move_json(m)["card"] == "8H" and pos.move_json(m)["to"] == "tableau:1"]
    pos.push(mv)
    assert pos.snapshot().face_down["tableau:0"] == 1  # 9S turned face up
    assert any(pos.move_json(m)["card"] == "9S" for m in pos.legal_moves())
    pos.pop()
    assert pos.snapshot().face_down["tableau:0"] == 2


def test_sequences_move_whole_in_klondike():
    _, pos = hand("klondike", ["4C KH QS JD TC", "", "KC"], face_down=[1, 0, 0])
    moves = named(pos, pos.legal_moves())
    assert ("KH", "tableau:0", "tableau:1", 4) in moves  # a built group of any length
    assert ("KC", "tableau:2", "tableau:1", 1) not in moves  # the whole column into a space


def test_a_lateral_move_comes_with_a_use_and_never_goes_back():
    """8H leaves 9S (it is built on it) for 9C only with a use of 9S: 8D onto it.  The group
    going back onto 9S is no use (the position before), so it is not offered."""
    _, pos = hand("klondike", ["KC 9S 8H", "9C", "5C 8D"], face_down=[1, 0, 1])
    pairs = joined(pos)
    assert [M(0, 1), M(2, 0)] in pairs
    # nothing comes back from where the group went
    assert all(moves.decode(use).src != moves.decode(lateral).dst for lateral, use in pairs)
    assert M(0, 1) not in pos.legal_moves()  # not on its own


def test_waste_ring_draw_three():
    # Stock of 7 cards, draw 3: the waste tops reachable are the 3rd, 6th and 7th cards.
    lay, pos = hand("klondike", ["KS"], stock="2C 3C 4C 5C 6C 7C 8C")
    reach = pos.waste_places()
    assert reach == [3, 6, 7]
    pos.push(TURN)
    assert pos.waste_places() == [3, 6, 7]
    pos.push(TURN)
    pos.push(TURN)
    assert len(stack(pos, "waste")) == 7
    assert stack(pos, "waste")[-1] == cards.parse("8C")
    pos.pop()
    pos.pop()
    pos.pop()
    # A card further in is reached by turning; the history holds the turns.
    pos.push(M(pos.W, 0, 1, 6))  # 7C cannot really go on KS, but push only plays what it is told
    assert pos.history == [TURN, TURN, M(pos.W, 0)]
    pos.pop()
    assert pos.history == [] and stack(pos, "waste") == []
    # After the stock ran out, a redeal is needed for the 3rd card.
    for _ in range(3):
        pos.push(TURN)
    pos.push(M(pos.W, 0, 1, 3))
    assert pos.history[-3:] == [REDEAL, TURN, M(pos.W, 0)]


def test_waste_without_redeals_and_draw_one():
    lay, pos = hand("forty-thieves", ["KS"], stock="2C 3C 4C")
    assert pos.waste_places() == [1, 2, 3]
    pos.push(TURN)
    pos.push(TURN)
    assert pos.waste_places() == [2, 3]  # 1 is under 2 and no redeal is left


def test_removable_foundations():
    lay = api.load_layout("klondike")
    lay = replace(lay, foundations=replace(lay.foundations, removable=True))
    deal = {"tableau:0": [cards.parse("5C")], "tableau:1": [cards.parse("4D")]}
    pos = TableauPosition(lay, with_foundations(lay, deal, [0, 3, 4, 0]))  # AD 2D 3D and AH..4H home
    moves = named(pos, pos.legal_moves())
    assert ("4H", "foundation:2", "tableau:0", 1) in moves
    assert not any(m[1] == "foundation:1" for m in moves)  # 3D fits nowhere


@pytest.mark.parametrize("name, columns, fh, card, safe", [
    # alternate colours: both opposite-colour cards of rank - 1 home
    ("freecell", ["5H"], [4, 0, 4, 4], "5H", True),  # 4C 4S home
    ("freecell", ["5H"], [4, 0, 4, 3], "5H", False),  # 4S still out: it could go on 5H
    ("freecell", ["2H"], [0, 0, 1, 0], "2H", True),  # twos always
    # same suit: the card of its suit of rank - 1 is home as soon as it can go up at all
    ("bakers-game", ["5H"], [0, 0, 4, 0], "5H", True),
    # any suit: every card of rank - 1 home
    ("bakers-dozen", ["5H"], [4, 4, 4, 3], "5H", False),
    ("bakers-dozen", ["5H"], [4, 4, 4, 4], "5H", True),
])
def test_safe_foundation_rules(name, columns, fh, card, safe):
    _, pos = hand(name, columns, found=fh)
    assert pos.is_safe(cards.parse(card)) is safe
    assert (pos.forced_move() is not None) is safe


def test_two_packs_need_both_copies_home():
    lay = api.load_layout("forty-thieves")
    deal = {"tableau:0": [cards.parse("5H")]}
    pos = TableauPosition(lay, with_foundations(lay, deal, [0, 0, 4, 0, 0, 0, 3, 0]))  # one 4H home, one out
    assert not pos.is_safe(cards.parse("5H"))
    pos = TableauPosition(lay, with_foundations(lay, deal, [0, 0, 4, 0, 0, 0, 4, 0]))
    assert pos.is_safe(cards.parse("5H"))


@pytest.mark.parametrize("card, fh, safe", [
    # X for 5H: 4C 4S (they go on 5H), then 3D 3H, 2C 2S, ... and the lower cards of each suit
    ("5H", [4, 3, 4, 4], True),
    ("5H", [4, 2, 4, 4], False),  # 3D out: it could come back onto 4C or 4S, on 5H
    ("5H", [3, 3, 4, 4], False),  # 4C out
    ("3H", [2, 1, 2, 2], True),
    ("3H", [2, 0, 2, 2], False),
    ("2H", [0, 0, 1, 0], True),  # aces and twos always
])
def test_removable_foundations_autoplay_the_closure(card, fh, safe):
    """With foundations that give cards back, c goes home by itself only when every card that
    could come to lie on it, on those, and so on (with the cards under them on their
    foundations) is home (``TableauPosition.safe``)."""
    lay = api.load_layout("klondike")
    assert lay.foundations.removable
    deal = {"tableau:0": [cards.parse(card)]}
    pos = TableauPosition(lay, with_foundations(lay, deal, fh))
    assert pos.is_safe(cards.parse(card)) is safe
    assert (pos.forced_move() == M(0, pos.F + 2)) is safe


def test_removable_foundations_break_the_other_colour_rule():
    """Why only aces and twos go home by themselves when foundation cards can come back.

    Black fours home, 5D alone in a column, 3H on 2H elsewhere, the red fives and black sixes
    face down.  The win takes 4S back onto 5D to carry 3H; with 5D played home because "both
    black fours are home" (the rule for foundations that keep their cards) no black four has a
    place and 3H blocks 2H for good.
    """
    lay = api.load_layout("klondike")
    assert lay.foundations.removable  # Blake and Gent's rules (Solvitaire's klondike preset)
    lay = replace(lay, max_rank=6, tableau=replace(lay.tableau, count=2, deal=(1, 10), face_down=(0, 8)))
    deal = {"tableau:0": [cards.parse("5D")],
            "tableau:1": [cards.parse(c) for c in "6S 6C 6D 6H 5S 5C 5H 4H 2H 3H".split()]}
    # clubs, diamonds and spades home to the four, hearts the ace
    pos = TableauPosition(lay, with_foundations(lay, deal, [4, 4, 1, 4]))
    assert pos.forced_move() is None
    assert dfs(pos, Limits(max_nodes=100_000)).verdict == "won"
    pos.push(M(0, pos.F + 1))  # 5D home
    assert dfs(pos, Limits(max_nodes=100_000), use_forced=False).verdict == "lost"


def test_draw_three_waste_is_not_autoplayed_with_redeals():
    _, pos = hand("klondike", ["KS"], stock="4C 5C 2C", found=[1, 0, 0, 0])
    pos.push(TURN)
    assert stack(pos, "waste")[-1] == cards.parse("2C")
    assert pos.is_safe(cards.parse("2C"))
    assert pos.forced_move() is None  # removing it would regroup later turns of three
    _, pos = hand("klondike-draw-1", ["KS"], stock="AC")
    pos.push(TURN)
    assert pos.forced_move() == M(pos.W, pos.F)


# ------------------------------------------------------------ perft


PERFT = [
    ("freecell", 1, (8, 70, 661)),
    ("freecell", 2, (9, 83, 793)),
    ("bakers-game", 1, (10, 96, 903)),
    ("bakers-game", 2, (11, 118, 1259)),
    ("eight-off", 1, (9, 82, 760)),
    ("eight-off", 2, (11, 121, 1348)),
    ("seahaven-towers", 1, (12, 146, 803)),
    ("seahaven-towers", 2, (13, 171, 1297)),
    ("forecell", 1, (0, 0, 0)),
    ("forecell", 2, (2, 11, 32)),
    ("bakers-dozen", 1, (11, 110, 1041)),
    ("bakers-dozen", 2, (14, 191, 2556)),
    ("forty-thieves", 1, (16, 147, 1072)),
    ("forty-thieves", 2, (21, 264, 2509)),
    ("klondike", 1, (4, 16, 74)),
    ("klondike", 2, (4, 17, 77)),
    ("klondike-draw-1", 1, (7, 52, 399)),
    ("klondike-draw-1", 2, (8, 63, 503)),
]


@pytest.mark.parametrize("name, seed, counts", PERFT, ids=[f"{n}#{s}" for n, s, _ in PERFT])
def test_perft(name, seed, counts):
    """Move-generation counts at depth 1, 2, 3 from the start of fixed deals (no automatic moves)."""
    lay = api.load_layout(name)
    pos = start_position(lay, shuffles.from_seed(lay, seed))
    before = pos.state()
    assert tuple(perft(pos, d) for d in (1, 2, 3)) == counts
    assert pos.state() == before


def test_forecell_1_has_no_move_at_all():
    """Checked by hand: cells 6S 9C 2H 6H full; tops 6D 8S 8D QS 6C 3D 8C TC fit nowhere."""
    lay = api.load_layout("forecell")
    assert api.solve(lay, seed=1).verdict == "lost"


# ------------------------------------------------------------ push then pop


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(TABLEAU_LAYOUTS), seed=st.integers(1, 500),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_push_then_pop_restores(name, seed, picks):
    lay = api.load_layout(name)
    pos = start_position(lay, shuffles.from_seed(lay, seed))
    assert_push_then_pop_restores(pos, picks)


# ------------------------------------------------------------ dominance vs. no dominance


def reduced(name: str, max_rank: int, deal: list[int], face_down: list[int] | None = None,
            cells: int | None = None, cells_deal: int = 0, spaces: str | None = None, moves: str | None = None,
            **foundations):
    lay = api.load_layout(name)
    t = replace(lay.tableau, count=len(deal), deal=tuple(deal), face_down=tuple(face_down or [0] * len(deal)),
                spaces=spaces or lay.tableau.spaces, moves=moves or lay.tableau.moves)
    c = replace(lay.cells, count=lay.cells.count if cells is None else cells, deal=cells_deal)
    return replace(lay, max_rank=max_rank, tableau=t, cells=c, deal=DealSpec(order=("tableau", "cells")),
                   foundations=replace(lay.foundations, **foundations), name=f"{name}-small")


SMALL = {
    # build policy, spaces, moves, stock: each dominance rule meets its own rules
    "alternate-supermove": reduced("freecell", 5, [5, 5, 5, 5], cells=1),
    "suit-supermove": reduced("bakers-game", 5, [5, 5, 5, 5], cells=1),
    "suit-kings": reduced("seahaven-towers", 5, [4, 4, 4, 4, 2], cells=2, cells_deal=2),
    "alternate-kings": reduced("forecell", 5, [4, 4, 4, 4], cells=4, cells_deal=4),
    "any-no-spaces": reduced("bakers-dozen", 4, [4, 4, 4, 4]),
    "klondike-draw-3": reduced("klondike", 4, [1, 2, 3], [0, 1, 2]),
    "klondike-removable": reduced("klondike", 4, [1, 2, 3], [0, 1, 2], removable=True),
    "klondike-draw-1": reduced("klondike-draw-1", 4, [1, 2, 3], [0, 1, 2]),
    "two-packs-draw-1": reduced("forty-thieves", 3, [3, 3, 3, 3]),
    # foundations.preset (Beleaguered Castle, Alpha Star): the aces start home
    "preset-any": reduced("bakers-dozen", 5, [4, 4, 4, 4], spaces="any", preset=True),
    "preset-suit-sequence": reduced("bakers-game", 5, [4, 4, 4, 4], cells=0, moves="sequence", preset=True),
}


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_dominance_keeps_every_verdict(variant):
    """Complete searches with and without the automatic foundation moves agree, deal by deal."""
    verdicts = verdicts_with_and_without_forced(SMALL[variant], range(1, 41), 400_000)
    assert "won" in verdicts  # the test compares real searches, not empty ones


class AcesAndTwosOnly(Interpreted):
    """The position as it was before the closure rule: with removable foundations only
    aces and twos go home by themselves (to compare complete searches with and without)."""

    def safe(self, c: int) -> bool:
        return bool(self.always_safe[c]) or (not self.removable and super().safe(c))


class CountingSafe(Interpreted):
    """Counts the forced moves of cards above a two (where the closure rule fired)."""

    fired = 0

    def forced_move(self):
        m = super().forced_move()
        if m is not None and self.removable and self.F <= moves.decode(m).dst < self.R:
            CountingSafe.fired += cards.rank(cards.parse(self.move_json(m)["card"])) > 2
        return m


REMOVABLE = {  # every layout with removable foundations, on reduced decks
    "klondike-5": reduced("klondike", 5, [1, 2, 3, 4], [0, 1, 2, 3]),
    "klondike-6": reduced("klondike", 6, [1, 2, 3, 4, 5], [0, 1, 2, 3, 4]),
    "klondike-draw-1-5": reduced("klondike-draw-1", 5, [1, 2, 3, 4], [0, 1, 2, 3]),
    "klondike-draw-1-5-deeper": reduced("klondike-draw-1", 5, [2, 3, 4, 5], [1, 2, 3, 4]),
}


@pytest.mark.parametrize("variant", sorted(REMOVABLE))
def test_the_closure_rule_keeps_every_verdict(variant):
    """Complete searches with the closure rule (``safe``, removable foundations) and with
    aces and twos only agree deal by deal, and the rule fires."""
    lay = REMOVABLE[variant]
    assert lay.foundations.removable
    CountingSafe.fired = 0
    verdicts = []
    for seed in range(1, 61):
        deal = shuffles.from_seed(lay, seed)
        new = dfs(CountingSafe(lay, deal), Limits(max_nodes=300_000))
        old = dfs(AcesAndTwosOnly(lay, deal), Limits(max_nodes=300_000))
        assert "unknown" not in (new.verdict, old.verdict), seed
        assert new.verdict == old.verdict, seed
        verdicts.append(new.verdict)
    assert "won" in verdicts  # wins where the rule played cards home: a wrong prune would lose one
    assert CountingSafe.fired > 0


# ------------------------------------------------------------ whole deals


@pytest.mark.parametrize("name, seed", [("freecell", 1), ("freecell", 2), ("freecell", 1000),
                                        ("bakers-game", 1), ("eight-off", 1), ("seahaven-towers", 2),
                                        ("klondike", 1), ("klondike-draw-1", 1)])
def test_deals_won_and_verified(name, seed):
    lay = api.load_layout(name)
    result = api.solve(lay, seed=seed, limits=Limits(timeout=60))
    assert result.verdict == "won"
    assert api.verify(result.to_json(), lay) is None  # (api.solve checked it too)


def test_freecell_11982_is_lost():
    """The one Microsoft deal of 1..32000 that cannot be won (a complete search, about 250k nodes)."""
    result = api.solve(api.load_layout("freecell"), seed=11982, limits=Limits(timeout=600))
    assert result.verdict == "lost"


def test_the_referee_names_the_illegal_move():
    lay = api.load_layout("freecell")
    deal = shuffles.from_seed(lay, 1)
    solution = api.solve(lay, deal=deal).solution
    assert replay(lay, deal, solution) is None
    bad = [dict(m) for m in solution]
    # Send a card to a foundation that does not take it.
    k = next(i for i, m in enumerate(bad) if m["to"].startswith("foundation") and m["card"][0] != "A")
    bad[k]["to"] = "foundation:" + str((int(bad[k]["to"].split(":")[1]) + 1) % 4)
    assert replay(lay, deal, bad).startswith(f"move {k + 1}: ")
    # Leave a move out: some later move becomes illegal, or the game is not won.
    assert replay(lay, deal, solution[:5] + solution[6:]) is not None
    assert "not on the foundations" in replay(lay, deal, solution[:-1])
    # A group too large for the cells and spaces.
    _, pos = hand("freecell", ["8C QH JC TD", "KS", "2D"], cells=["3S"])
    tiny = {"tableau:0": cards_of("8C QH JC TD"), "tableau:1": cards_of("KS"), "tableau:2": cards_of("2D"),
            "cell:0": cards_of("3S")}
    small = replace(lay, tableau=replace(lay.tableau, count=3, deal=(4, 1, 1), face_down=(0, 0, 0)),
                    cells=replace(lay.cells, count=1))
    msg = replay(small, tiny, [{"card": "QH", "from": "tableau:0", "to": "tableau:1", "count": 3}])
    assert msg.startswith("move 1: 3 cards move together but the cells and spaces carry only 1")


def cards_of(text: str) -> list[int]:
    return [cards.parse(c) for c in text.split()]


def test_the_referee_checks_klondike_turns_and_face_down_cards():
    lay = api.load_layout("klondike")
    deal = shuffles.from_seed(lay, 1)
    result = api.solve(lay, deal=deal, limits=Limits(timeout=60))
    sol = result.solution
    assert replay(lay, deal, sol) is None
    turns = [i for i, m in enumerate(sol) if m["from"] == "stock"]
    assert turns and all(sol[i].get("count", 1) in (1, 2, 3) for i in turns)
    bad = [dict(m) for m in sol]
    bad[turns[0]]["count"] = 1 if bad[turns[0]].get("count", 1) != 1 else 2
    assert replay(lay, deal, bad).startswith(f"move {turns[0] + 1}: turning gives")
    down_card = cards.name(deal["tableau:6"][0])  # the bottom card of the last column, face down
    msg = replay(lay, deal, [{"card": down_card, "from": "tableau:6", "to": "tableau:0", "count": 7}])
    assert msg.startswith("move 1:")


@pytest.mark.parametrize("name", ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell"])
def test_freecell_family_boards_round_trip(name):
    lay = api.load_layout(name)
    for seed in (1, 617, 11982):
        deal = shuffles.from_seed(lay, seed)
        assert deals.parse_board(deals.to_board(deal, lay), lay, "x.board") == deal


# ------------------------------------------------------------ an independent brute force


def brute_force_winnable(lay, deal, cap: int = 200_000) -> bool | None:
    """Whether the deal can be won, by trying every legal move of the rules in words from every
    reachable state (no pruning, no automatic moves, no shared code); None past ``cap`` states."""
    t, top = lay.tableau, lay.max_rank
    nf = 4 * len(lay.foundations.rows)
    removable = lay.foundations.removable

    def rank(c):
        return c // 4 + 1

    def builds(lower, upper):
        if rank(lower) - rank(upper) != 1 or t.build == "none":
            return False
        if t.build == "alternate":
            return cards.is_red(lower) != cards.is_red(upper)
        return t.build == "any" or lower % 4 == upper % 4

    def space_takes(c):
        return t.spaces == "any" or (t.spaces == "kings" and rank(c) == top)

    cols = tuple(tuple(deal.get(f"tableau:{i}", [])) for i in range(t.count))
    down = tuple(min(t.face_down[i], max(0, len(c) - 1)) for i, c in enumerate(cols))
    cells = tuple(deal[f"cell:{i}"][0] if deal.get(f"cell:{i}") else None for i in range(lay.cells.count))
    redeals = lay.stock.redeals if lay.stock.redeals >= 0 else 99
    found0 = tuple(len(deal.get(f"foundation:{i}", [])) for i in range(nf))  # preset aces
    start = (cols, down, cells, found0, tuple(deal.get("stock", [])), (), redeals)

    def successors(s):
        cols, down, cells, found, stock, waste, rd = s

        def put(cols, down, i, group):
            cs = list(cols)
            cs[i] = cs[i] + tuple(group)
            return tuple(cs), down

        def take(cols, down, i, n):
            cs, ds = list(cols), list(down)
            cs[i] = cs[i][:len(cs[i]) - n]
            if cs[i] and len(cs[i]) == ds[i]:
                ds[i] -= 1
            return tuple(cs), tuple(ds)

        def to_found(found, c):
            for f in range(nf):
                if f % 4 == c % 4 and found[f] == rank(c) - 1:
                    fs = list(found)
                    fs[f] += 1
                    yield tuple(fs)

        # sources: (group, remove) pairs
        sources = []
        for i, col in enumerate(cols):
            for n in range(1, len(col) - down[i] + 1):
                g = col[len(col) - n:]
                if all(builds(a, b) for a, b in zip(g, g[1:])):
                    sources.append((g, ("col", i, n)))
        for j, c in enumerate(cells):
            if c is not None:
                sources.append(((c,), ("cell", j, 1)))
        if waste:
            sources.append(((waste[-1],), ("waste", 0, 1)))
        if removable:
            for f in range(nf):
                if found[f]:
                    sources.append(((cards.make(found[f], f % 4),), ("found", f, 1)))
        free = sum(c is None for c in cells)
        for g, (kind, a, n) in sources:
            c0 = g[0]
            # remove
            cs, ds, ce, fo, wa = cols, down, cells, found, waste
            if kind == "col":
                cs, ds = take(cols, down, a, n)
            elif kind == "cell":
                ce = cells[:a] + (None,) + cells[a + 1:]
            elif kind == "waste":
                wa = waste[:-1]
            else:
                fo = found[:a] + (found[a] - 1,) + found[a + 1:]
            # to columns
            for j in range(len(cols)):
                if kind == "col" and j == a:
                    continue
                target = cols[j]
                if target and not builds(target[-1], c0):
                    continue
                if not target and not space_takes(c0):
                    continue
                if n > 1:
                    if t.moves == "single":
                        continue
                    if t.moves == "supermove":
                        spaces = sum(1 for k, c in enumerate(cols) if not c and k != j) if t.spaces == "any" else 0
                        if n > (free + 1) * 2 ** spaces:
                            continue
                cs2, ds2 = put(cs, ds, j, g)
                yield (cs2, ds2, ce, fo, stock, wa, rd)
            if n == 1 and kind != "cell":
                for j, c in enumerate(ce):
                    if c is None:
                        yield (cs, ds, ce[:j] + (c0,) + ce[j + 1:], fo, stock, wa, rd)
                if kind != "found":
                    for fo2 in to_found(fo, c0):
                        yield (cs, ds, ce, fo2, stock, wa, rd)
            if n == 1 and kind == "cell":
                for fo2 in to_found(fo, c0):
                    yield (cs, ds, ce, fo2, stock, wa, rd)
        if stock:
            k = lay.stock.deal_count
            yield (cols, down, cells, found, stock[k:], waste + stock[:k], rd)
        elif waste and rd > 0:
            yield (cols, down, cells, found, waste, (), rd - 1 if lay.stock.redeals >= 0 else rd)

    return goal_reachable(start, successors, lambda s: sum(s[3]) == len(lay.pack()), cap)


TINY = {
    "alternate-supermove": reduced("freecell", 4, [4, 4, 4, 4], cells=1),
    "alternate-no-cells": reduced("freecell", 4, [4, 4, 4, 4], cells=0),
    "alternate-supermove-2cells": reduced("freecell", 4, [3, 3, 3, 3, 2, 2], cells=2),
    "suit-no-cells": reduced("bakers-game", 4, [4, 4, 4, 4], cells=0),
    "suit-kings": reduced("seahaven-towers", 4, [3, 3, 3, 3, 2], cells=2, cells_deal=2),
    "alternate-kings": reduced("forecell", 4, [4, 4, 3, 3], cells=2, cells_deal=2),
    "any-no-spaces": reduced("bakers-dozen", 4, [4, 4, 4, 4]),
    "klondike-draw-3": reduced("klondike", 4, [1, 2, 3], [0, 1, 2]),
    "klondike-draw-1": reduced("klondike-draw-1", 4, [1, 2, 3], [0, 1, 2]),
    "klondike-removable": reduced("klondike", 4, [1, 2, 3], [0, 1, 2], removable=True),
    "two-packs-draw-1": reduced("forty-thieves", 2, [2, 2, 2]),
    "preset-any": reduced("bakers-dozen", 4, [3, 3, 3, 3], spaces="any", preset=True),
    "preset-suit-sequence": reduced("bakers-game", 4, [3, 3, 3, 3], cells=0, moves="sequence", preset=True),
}


@pytest.mark.parametrize("variant", sorted(TINY))
def test_engine_agrees_with_a_brute_force(variant):
    """The engine (pruned moves, automatic moves, canonical keys) and a plain exhaustive search
    of the rules in words give the same verdict on every tiny deal both finish."""
    checked = engine_vs_brute_force(TINY[variant], range(1, 31), brute_force_winnable)
    assert checked[True] + checked[False] >= 20 and checked[True]


# ------------------------------------------------------------ the blocked bound


BLOCKED_VARIANTS = {  # every rule the blocked bound meets (it runs only without cells), on reduced decks
    "klondike-draw-3": reduced("klondike", 6, [2, 3, 4, 5], [1, 2, 3, 4]),
    "klondike-draw-1": REMOVABLE["klondike-draw-1-5-deeper"],
    "klondike-6": REMOVABLE["klondike-6"],
    "any-no-spaces": SMALL["any-no-spaces"],
    "two-packs-draw-1": SMALL["two-packs-draw-1"],
    "alternate-no-cells": TINY["alternate-no-cells"],
    "suit-no-cells": TINY["suit-no-cells"],
    "canfield-5": api.load_layout("canfield", max_rank=5),
    "canfield-6": api.load_layout("canfield", max_rank=6),
    "bakers-dozen-4": api.load_layout("bakers-dozen", max_rank=4),
    "preset-any": SMALL["preset-any"],
    "preset-suit-sequence": SMALL["preset-suit-sequence"],
}


class CountingDead(Interpreted):
    """Counts the positions the bound cuts."""

    fired = 0

    def is_dead(self):
        why = super().is_dead()
        CountingDead.fired += why is not None
        return why


@pytest.mark.parametrize("variant", sorted(BLOCKED_VARIANTS))
def test_the_blocked_bound_keeps_every_verdict(variant):
    """Complete searches with and without the bound agree deal by deal, and it cuts."""
    lay = BLOCKED_VARIANTS[variant]
    assert Interpreted(lay, shuffles.from_seed(lay, 1)).blocked_bound
    CountingDead.fired = 0
    verdicts = []
    for seed in range(1, 31):
        deal = shuffles.from_seed(lay, seed)
        with_bound = dfs(CountingDead(lay, deal), Limits(max_nodes=300_000))
        plain = dfs(TableauPosition(lay, deal), Limits(max_nodes=300_000), use_bounds=False)
        assert "unknown" not in (with_bound.verdict, plain.verdict), seed
        assert with_bound.verdict == plain.verdict, seed
        verdicts.append(with_bound.verdict)
    assert "won" in verdicts
    assert CountingDead.fired > 0 or variant in ("two-packs-draw-1",)  # spaces take anything there


@pytest.mark.parametrize("variant", sorted(BLOCKED_VARIANTS))
def test_every_position_the_bound_cuts_is_lost(variant):
    """Random walks through reduced deals: wherever the bound says dead, a complete search
    without it finds no win either (the bound is checked position by position, not only
    through the verdicts of whole deals)."""
    lay = BLOCKED_VARIANTS[variant]
    rng = random.Random(variant)
    cut = 0
    for seed in range(1, 21):
        deal = shuffles.from_seed(lay, seed)
        for _ in range(4):
            pos = TableauPosition(lay, deal)
            for _ in range(60):
                if pos.is_dead():
                    fresh = TableauPosition(lay, deal)
                    for m in pos.history:
                        fresh.push(m)
                    assert dfs(fresh, Limits(max_nodes=300_000), use_bounds=False).verdict == "lost", seed
                    cut += 1
                    break
                moves = pos.legal_moves()
                if (forced := pos.forced_move()) is not None:
                    moves.append(forced)
                if not moves:
                    break
                pos.push(rng.choice(moves))
    assert cut > 0 or variant in ("two-packs-draw-1",)


def test_klondike_29_is_blocked_at_the_deal():
    """Checked by hand: both black kings are face down, KC under QD and KS under 7H QH; QH can
    go home only after 6H, which lies under it, and QD only after 8D, under QH; so neither
    red queen ever leaves, and the cards under them never come free."""
    result = api.solve(api.load_layout("klondike"), seed=29, core="python")
    assert (result.verdict, result.stats["nodes"]) == ("lost", 0)
    assert result.reason is not None and result.reason.startswith("blocked")
