"""Canfield in the tableau family: a base rank from the deal, wrapping ranks, a reserve that fills spaces."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tableau import M, joined, stack
from walks import (
    assert_push_then_pop_restores,
    engine_vs_brute_force,
    goal_reachable,
    named,
    perft,
    verdicts_with_and_without_forced,
)

from solver import api, cards, shuffles
from solver import deal as deals
from solver.errors import LayoutError
from solver.families import start_position
from solver.families.tableau.position import TableauPosition
from solver.families.tableau.referee import replay
from solver.layout import parse_text as parse
from solver.limits import Limits


def cs(text: str) -> list[int]:
    return [cards.parse(c) for c in text.split()]


def hand_checked_deal(seed: int) -> deals.Deal:
    """The deal the hand-checked tests below were written for: canfield rules version 1's deal of
    ``seed`` (generator patience-v1, dealing reserve, base, columns).  Seeds are PySolFC's game
    numbers since rules version 2; the rules, which these tests check, did not change."""
    lay = api.load_layout("canfield")
    return shuffles.from_seed(replace(lay, deal=replace(lay.deal, generator="patience-v1",
                                                     order=("reserve", "base", "tableau"), reverse=())), seed)


def canfield(base: str, columns: list[str], reserve: str = "", stock: str = "", **tableau):
    """A Canfield position by hand (cards not listed count as already home)."""
    lay = api.load_layout("canfield")
    lay = replace(lay, tableau=replace(lay.tableau, count=len(columns), deal=(1,) * len(columns), **tableau))
    deal = {"base": cs(base), "reserve:0": cs(reserve), "stock": cs(stock)}
    deal.update({f"tableau:{i}": cs(col) for i, col in enumerate(columns)})
    return lay, TableauPosition(lay, {k: v for k, v in deal.items() if v})


def column(pos: TableauPosition, i: int) -> str:
    return " ".join(map(cards.name, stack(pos, f"tableau:{i}")))


# ------------------------------------------------------------ the layout and its deal


def test_the_layout_and_its_deal():
    lay = api.load_layout("canfield")
    assert lay.foundations.rows[0].base == 0 and lay.foundations.wrap
    assert lay.tableau.wrap == "from-base" and lay.tableau.spaces == "reserve-then-any"
    deal = shuffles.from_seed(lay, 1)
    assert {k: len(v) for k, v in deal.items()} == {"tableau:0": 1, "tableau:1": 1, "tableau:2": 1,
                                                   "tableau:3": 1, "reserve:0": 13, "base": 1, "stock": 34}
    assert shuffles.from_seed(lay, 1) == deal
    assert deals.parse_listing(deals.to_text(deal), lay, "x") == deal  # the listing names the base
    assert deals.from_json(deals.to_json(deal), lay, "x.json") == deal


CANFIELD_TOML = Path(__file__).resolve().parent.parent / "layouts" / "canfield.toml"


@pytest.mark.parametrize("old, new, message", [
    ("wrap = true\n", "", r"canfield\.toml: foundations\.wrap: expected true when the base comes from the deal"),
    ('order = ["base", "reserve", "tableau"]', 'order = ["reserve", "tableau"]',
     r"canfield\.toml: deal\.order: expected 'base' in the list"),
    ('[reserve]\ncount = 1\ndeal = 13\naccepts = "none"\n', "",
     r"canfield\.toml: tableau\.spaces: 'reserve-then-any' needs a \[reserve\]"),
    ('rows = [{ base = "deal", build = "up" }]', 'rows = [{ base = "deal" }, { base = "A" }]',
     r"canfield\.toml: foundations\.rows: expected the same base for every row"),
    ("[tableau]\ncount = 4\ndeal = [1, 1, 1, 1]\nbuild = \"alternate\"\nspaces = \"reserve-then-any\"\n"
     "moves = \"sequence\"\nwrap = \"from-base\"\n", "",
     r"canfield\.toml: reserve\.accepts: 'none' \(a pile that takes no cards"),
])
def test_bad_canfield_layouts_are_named(old, new, message):
    text = CANFIELD_TOML.read_text()
    assert old in text
    with pytest.raises(LayoutError, match=message):
        parse(text.replace(old, new), "canfield.toml", "canfield")


def test_a_base_from_the_deal_needs_the_tableau_engine():
    text = ('title = "x"\ndecks = 1\n[foundations]\nrows = [{ base = "deal" }]\nwrap = true\n'
            '[reserve]\ncount = 2\n[stock]\nturn = "place"\n[deal]\norder = ["reserve", "base"]\n')
    with pytest.raises(LayoutError, match=r"x\.toml: foundations\.rows: base = 'deal' is played by the tableau"):
        parse(text, "x.toml", "x")


# ------------------------------------------------------------ hand-checked moves


def test_the_base_rank_comes_from_the_deal():
    _, pos = canfield("5H", ["6H", "5C", "4S", "9D"], reserve="2D 3D")
    moves = named(pos, pos.legal_moves())
    assert ("6H", "tableau:0", "foundation:2", 1) in moves  # on the dealt 5H
    assert ("5C", "tableau:1", "foundation:0", 1) in moves  # a five starts the clubs
    assert not any(m[1] == "tableau:2" and m[2].startswith("foundation") for m in moves)  # 4S waits
    assert [len(stack(pos, f"foundation:{f}")) for f in range(4)] == [0, 0, 1, 0]


def test_columns_wrap_from_the_base():
    # base 5: the columns' order is 5 6 ... K A 2 3 4; an ace takes a king, a five takes nothing
    _, pos = canfield("5H", ["AH", "KS", "5D", "4C"], reserve="9D")
    moves = named(pos, pos.legal_moves())
    assert ("KS", "tableau:1", "tableau:0", 1) in moves
    assert ("4C", "tableau:3", "tableau:2", 1) not in moves
    # all the way round (PySolFC's rule): the four goes on the five too
    _, pos = canfield("5H", ["AH", "KS", "5D", "4C"], reserve="9D", wrap="cyclic")
    moves = named(pos, pos.legal_moves())
    assert {("KS", "tableau:1", "tableau:0", 1), ("4C", "tableau:3", "tableau:2", 1)} <= moves
    # from an ace base nothing wraps: the king is the highest card again
    _, pos = canfield("AD", ["AH", "KS", "5D", "4C"], reserve="9D")
    assert ("KS", "tableau:1", "tableau:0", 1) not in named(pos, pos.legal_moves())


def test_foundations_turn_the_corner():
    _, pos = canfield("QC", ["KC", "AC", "2C", "9H"], reserve="3D 4D")
    pos.push(M(0, pos.F + 0))  # KC home; the space takes 4D at once
    assert column(pos, 0) == "4D"
    moves = named(pos, pos.legal_moves())
    assert ("AC", "tableau:1", "foundation:0", 1) in moves  # the ace follows the king
    assert ("2C", "tableau:2", "foundation:0", 1) not in moves


def test_the_reserve_fills_a_space_at_once_and_comes_back_on_pop():
    _, pos = canfield("5H", ["8D", "7C", "JH", "3S"], reserve="2D 9S")
    before = pos.state()
    assert ("9S", "reserve:0", "tableau:0", 1) not in named(pos, pos.legal_moves())  # 9S on 8D: no
    pos.push(M(1, 0))  # 7C on 8D empties column 1: the reserve's 9S fills it
    assert column(pos, 0) == "8D 7C" and column(pos, 1) == "9S" and stack(pos, "reserve:0") == cs("2D")
    pos.pop()
    assert pos.state() == before


def test_once_the_reserve_is_empty_a_space_takes_any_card_or_group():
    _, pos = canfield("5H", ["9C", "8D 7S 6H", "KD"], reserve="QS")
    assert ("QS", "reserve:0", "tableau:2", 1) in named(pos, pos.legal_moves())  # the top card plays
    _, pos = canfield("5H", ["9C", "8D 7S 6H", "KD"])
    assert ("8D", "tableau:1", "tableau:0", 3) in named(pos, pos.legal_moves())
    pos.push(M(1, 0, 3))  # column 1 empties and stays empty: the reserve has nothing
    assert column(pos, 1) == ""
    moves = named(pos, pos.legal_moves())
    for n, card in ((1, "6H"), (2, "7S"), (3, "8D")):
        assert (card, "tableau:0", "tableau:1", n) in moves  # any group into the space
    assert ("KD", "tableau:2", "tableau:1", 1) not in moves  # a whole column: the same position


def test_a_lateral_move_may_make_room_for_the_reserve_card():
    # 9H leaves TC for the other black ten (a lateral move: it turns nothing up) only together
    # with a use of TC; the reserve's 9D going onto TC is one.
    _, pos = canfield("5H", ["TC 9H", "TS", "KD"], reserve="9D")
    (composite,) = [m for m in pos.legal_moves() if pos.parts(m) == [M(0, 1), M(pos.R, 0)]]
    assert [M(0, 1), M(pos.R, 0)] in joined(pos)
    pos.push(composite)
    assert column(pos, 0) == "TC 9D" and column(pos, 1) == "TS 9H" and stack(pos, "reserve:0") == []
    pos.pop()
    assert column(pos, 0) == "TC 9H" and len(stack(pos, "reserve:0")) == 1


def test_no_automatic_move_empties_a_column_while_the_reserve_fills_spaces():
    _, pos = canfield("5H", ["6H", "9S", "KD"], reserve="2C")
    assert pos.forced_move() is None  # 6H is safe, but playing it would fill its column from the reserve
    _, pos = canfield("5H", ["9S 6H", "9C", "KD"], reserve="2C")
    assert named(pos, [pos.forced_move()]) == {("6H", "tableau:0", "foundation:2", 1)}
    _, pos = canfield("5H", ["6H", "9S", "KD"])
    assert named(pos, [pos.forced_move()]) == {("6H", "tableau:0", "foundation:2", 1)}


def test_wrapped_columns_keep_base_cards_from_being_played_blindly():
    # With columns all the way round a five (the base) takes a four; playing 5C home is safe only
    # when both red fours are home.  Here 4D and 4H are still out: no automatic move.
    _, pos = canfield("5H", ["9S 5C", "4D", "KC"], wrap="cyclic")
    assert pos.forced_move() is None
    _, pos = canfield("5H", ["9S 5C", "4D", "KC"])  # from the base: a five takes nothing
    assert named(pos, [pos.forced_move()]) == {("5C", "tableau:0", "foundation:0", 1)}


# ------------------------------------------------------------ perft and push/pop


# (seed 2 had 59 at depth 3 while a lateral move still offered its group going back)
PERFT = [(1, (2, 4, 4)), (2, (4, 16, 56)), (4, (2, 6, 37))]


@pytest.mark.parametrize("seed, counts", PERFT)
def test_perft(seed, counts):
    """Move counts at depth 1, 2, 3 from the start of fixed deals (no automatic moves).

    Seed 1 at depth 1, by hand: columns KH 3H 2S KS, reserve top AD, base QC (columns run
    Q K A 2 ... J); 2S goes on 3H and AD on 2S; no waste card the turns reach (JS 3C TS AC 3S
    TH JH 8S 6C TC 2H 6H) goes anywhere."""
    lay = api.load_layout("canfield")
    pos = start_position(lay, hand_checked_deal(seed))
    before = pos.state()
    assert tuple(perft(pos, d) for d in (1, 2, 3)) == counts
    assert pos.state() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 500), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
       wrap=st.sampled_from(["from-base", "cyclic"]))
def test_push_then_pop_restores(seed, picks, wrap):
    lay = api.load_layout("canfield")
    lay = replace(lay, tableau=replace(lay.tableau, wrap=wrap))
    pos = start_position(lay, shuffles.from_seed(lay, seed))
    assert_push_then_pop_restores(pos, picks)


# ------------------------------------------------------------ whole deals and the referee


@pytest.mark.parametrize("seed", [1, 4, 10, 11])
def test_deals_won_and_verified(seed):
    lay = api.load_layout("canfield")
    result = api.solve(lay, seed=seed, limits=Limits(timeout=60))
    assert result.verdict == "won"
    assert api.verify(result.to_json(), lay) is None


def test_seed_3_has_no_move_at_all():
    """By hand: base 8S, columns 9C QD TC QH, reserve top QS.  Turning three at a time reaches
    6H AD JD 6D 6C 3C 7S 2C AH 5H 5S and the last card 5C, the same ones every pass; none of
    them, nor QS, goes on a column top (a red 8, a black J, a red 9, a black J) or a foundation
    (an 8, none reachable), and no column card moves, so nothing ever moves."""
    lay = api.load_layout("canfield")
    assert api.solve(lay, deal=hand_checked_deal(3)).verdict == "lost"


def test_the_referee_names_illegal_canfield_moves():
    lay = api.load_layout("canfield")
    deal = hand_checked_deal(1)  # KH 3H 2S KS; reserve ... 9S 5S AD; base QC
    solution = api.solve(lay, deal=deal).solution
    assert replay(lay, deal, solution) is None
    # the reserve's top card onto a column that does not take it (AD on 3H)
    assert replay(lay, deal, [{"card": "AD", "from": "reserve:0", "to": "tableau:1"}]).startswith("move 1: ")
    # a reserve card that is not the top one
    msg = replay(lay, deal, [{"card": "5S", "from": "reserve:0", "to": "tableau:0"}])
    assert msg.startswith("move 1: 5S is not the reserve's top card")
    # a foundation that does not start at the base rank
    msg = replay(lay, deal, [{"card": "KH", "from": "tableau:0", "to": "foundation:2"}])
    assert msg.startswith("move 1: foundation:2 takes QH")
    # the space left by 2S (moved onto 3H with AD) is filled at once by 5S: KS cannot go there
    moves = [{"card": "AD", "from": "reserve:0", "to": "tableau:2"},
             {"card": "2S", "from": "tableau:2", "to": "tableau:1", "count": 2},
             {"card": "KS", "from": "tableau:3", "to": "tableau:2"}]
    assert replay(lay, deal, moves).startswith("move 3: KS cannot go on 5S")
    # a card one rank below the base does not go on a base card (from-base), but does all the way round
    hand = {"base": cs("5H"), "tableau:0": cs("5D"), "tableau:1": cs("9C"), "reserve:0": cs("4C")}
    four = [{"card": "4C", "from": "reserve:0", "to": "tableau:0"}]
    two = replace(lay, tableau=replace(lay.tableau, count=2, deal=(1, 1)))
    assert replay(two, hand, four).startswith("move 1: 4C cannot go on 5D")
    cyclic = replace(two, tableau=replace(two.tableau, wrap="cyclic"))
    assert "cannot go on" not in replay(cyclic, hand, four)  # legal (the game is not won, though)


# ------------------------------------------------------------ small decks: dominance and a brute force


def small(max_rank: int, columns: int, reserve: int, deal_count: int = 3, wrap: str = "from-base",
          spaces: str = "reserve-then-any"):
    lay = api.load_layout("canfield")
    t = replace(lay.tableau, count=columns, deal=(1,) * columns, wrap=wrap, spaces=spaces)
    return replace(lay, max_rank=max_rank, tableau=t, reserve=replace(lay.reserve, deal=reserve),
                   stock=replace(lay.stock, deal_count=deal_count), name=f"canfield-{max_rank}-{wrap}")


SMALL = {
    "from-base-5-ranks-draw-3": small(5, 2, 5),
    "cyclic-5-ranks-draw-3": small(5, 2, 5, wrap="cyclic"),
    "cyclic-7-ranks-draw-3": small(7, 3, 7, wrap="cyclic"),
    "from-base-8-ranks-draw-3": small(8, 4, 8),
    "from-base-5-ranks-draw-1": small(5, 2, 5, deal_count=1),
    "from-base-spaces-wait": small(5, 2, 5, spaces="any"),
}


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_dominance_keeps_every_verdict(variant):
    """Complete searches with and without the automatic foundation moves agree, deal by deal (the
    8-rank deck on its first 25 deals: 2 lost, 23 won; its next 75 cost the suite some 20 s)."""
    seeds = range(1, 26) if variant == "from-base-8-ranks-draw-3" else range(1, 101)
    verdicts = verdicts_with_and_without_forced(SMALL[variant], seeds, 300_000)
    assert "won" in verdicts and "lost" in verdicts


def brute_force_winnable(lay, deal, cap: int = 300_000) -> bool | None:
    """Whether the deal can be won, trying every move of Canfield's rules in words from every
    reachable state (no pruning, no automatic moves, no code shared with the engine); None past
    ``cap`` states.  Cards are (rank, suit) pairs here."""
    top = lay.max_rank
    k = lay.stock.deal_count
    wrap = lay.tableau.wrap

    def card(c: int) -> tuple[int, int]:
        return (c // 4 + 1, c % 4)

    base = card(deal["base"][0])[0]

    def place(r: int) -> int:  # where a rank stands counting up from the base
        return (r - base) % top

    def builds(lower, upper) -> bool:
        if (lower[1] in (1, 2)) == (upper[1] in (1, 2)):  # D and H are red
            return False
        if wrap == "from-base":
            return place(lower[0]) == place(upper[0]) + 1
        if wrap == "cyclic":
            return (lower[0] - upper[0]) % top == 1
        return lower[0] == upper[0] + 1

    def next_home(found, c) -> bool:
        return found[c[1]] < top and place(c[0]) == found[c[1]]

    def settle(cols, heel):
        if lay.tableau.spaces != "reserve-then-any":  # spaces wait for the player's choice
            return cols, heel
        cols = list(cols)
        for i, col in enumerate(cols):
            if not col and heel:
                cols[i], heel = (heel[-1],), heel[:-1]
        return tuple(cols), heel

    found = [0, 0, 0, 0]
    found[card(deal["base"][0])[1]] = 1
    cols, heel = settle(tuple((card(c),) for c in (deal[f"tableau:{i}"][0] for i in range(lay.tableau.count))),
                        tuple(card(c) for c in deal.get("reserve:0", [])))
    start = (cols, tuple(found), heel, tuple(card(c) for c in deal.get("stock", [])), ())

    def successors(s):
        cols, found, heel, stock, waste = s
        sources = []  # (cards, state without them)
        for i, col in enumerate(cols):
            for n in range(1, len(col) + 1):
                g = col[len(col) - n:]
                if all(builds(a, b) for a, b in zip(g, g[1:])):
                    rest = cols[:i] + (col[:len(col) - n],) + cols[i + 1:]
                    sources.append((g, i, rest, heel, waste))
        if heel:
            sources.append(((heel[-1],), None, cols, heel[:-1], waste))
        if waste:
            sources.append(((waste[-1],), None, cols, heel, waste[:-1]))
        for g, src, rest, h, w in sources:
            for j in range(len(cols)):
                if j == src or (rest[j] and not builds(rest[j][-1], g[0])):
                    continue
                c2 = rest[:j] + (rest[j] + g,) + rest[j + 1:]
                c2, h2 = settle(c2, h)
                yield (c2, found, h2, stock, w)
            if len(g) == 1 and next_home(found, g[0]):
                f2 = list(found)
                f2[g[0][1]] += 1
                c2, h2 = settle(rest, h)
                yield (c2, tuple(f2), h2, stock, w)
        if stock:
            yield (cols, found, heel, stock[k:], waste + stock[:k])
        elif waste:
            yield (cols, found, heel, waste, ())

    return goal_reachable(start, successors, lambda s: sum(s[1]) == 4 * top, cap)


TINY = {
    "from-base-5-ranks": small(5, 2, 5),
    "cyclic-5-ranks": small(5, 2, 5, wrap="cyclic"),
    "unwrapped-columns-5-ranks": small(5, 2, 5, wrap="none"),
    "from-base-6-ranks-3-columns": small(6, 3, 5),
    "cyclic-spaces-wait": small(5, 2, 5, wrap="cyclic", spaces="any"),  # the reserve fills no space itself
}


@pytest.mark.parametrize("variant", sorted(TINY))
def test_engine_agrees_with_a_brute_force(variant):
    """The engine (pruned moves, automatic moves, canonical keys, renamed ranks) and a plain
    exhaustive search of the rules in words agree on every tiny deal both finish."""
    checked = engine_vs_brute_force(TINY[variant], range(1, 61), brute_force_winnable)
    assert checked[True] + checked[False] >= 40 and checked[True] and checked[False]
