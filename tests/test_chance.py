"""The games of chance (issue #25): --set, exact odds, the minimax engine against a plain search, the referees."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from walks import interpreted

from solver import api, cards
from solver.cli import main
from solver.engines.minimax import minimax
from solver.engines.minimax_core import TT_MIN, CoreSearch
from solver.families import family_of
from solver.families.chance.casino import CasinoGame
from solver.families.chance.odds import dealer_table, lansquenet_value
from solver.families.chance.referee import replay_casino, replay_twenty_one
from solver.families.chance.rules import Casino, Lansquenet, TwentyOne
from solver.families.chance.twentyone import DealerTerms, Odds
from solver.limits import Limits
from solver.schema import setting_value

BLACKJACK = TwentyOne(upcard=True, natural_pays="3:2", banker_natural_collects="1:1", double="any-two",
                      double_after_split=True, split_hands=4)


# ------------------------------------------------------------------ --set


def test_set_changes_a_patience_layout_and_is_checked(capsys):
    assert main(["solve", "debutante", "--seed", "2", "--set", "reserve.capacity=0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "won"
    assert main(["solve", "debutante", "--seed", "2", "--set", "reserve.capacity=x"]) == 2
    err = capsys.readouterr().err
    assert "--set reserve.capacity=x" in err and "expected an integer" in err and len(err.splitlines()) == 1
    assert main(["show", "blackjack", "--set", "hits_soft_17=maybe"]) == 2
    assert "hits_soft_17: expected true or false" in capsys.readouterr().err
    assert main(["show", "blackjack", "--set", "decks.x=1"]) == 2
    assert "decks is not a table" in capsys.readouterr().err


@given(st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.sampled_from(["first", "any-two", "3:2"])))
def test_setting_values_read_as_toml_or_as_plain_words(v):
    text = str(v).lower() if isinstance(v, bool) else str(v)
    assert setting_value(text) == v


def test_set_reaches_the_odds_command(capsys):
    assert main(["odds", "blackjack", "--set", "decks=1", "--set", "hits_soft_17=false", "--dealer", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["layout"], out["decks"]) == ("blackjack", 1)
    table = out["by_up_card"]
    assert list(table) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert set(table["A"]) == {"17", "18", "19", "20", "21", "natural", "bust"}


# ------------------------------------------------------------------ the banker's table


# Published: The Wizard of Odds, blackjack appendix 2B, 1 deck, dealer stands on soft 17 (before the peek).
WIZARD_1D_S17 = {"A": [0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.313726, 0.11654],
                 "2": [0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0, 0.352973],
                 "7": [0.372345, 0.138583, 0.0773344, 0.0788967, 0.072987, 0, 0.259854]}


def test_dealer_table_matches_the_published_one_deck_table():
    layout = api.load_layout("blackjack", None, ["decks=1"])
    table = dealer_table(layout)
    for up, row in WIZARD_1D_S17.items():
        ours = [table[up][k] for k in ("17", "18", "19", "20", "21", "natural", "bust")]
        assert all(abs(a - b) <= 1e-6 for a, b in zip(ours, row)), (up, ours)
        assert sum(ours) == pytest.approx(1)


def test_dealer_terms_sum_the_same_as_the_recursion():
    odds = Odds(BLACKJACK, 2)
    c = (8, 8, 7, 8, 8, 8, 8, 8, 8, 30)
    for b in [(2, False, 1), (1, True, 1), (10, False, 1), (0, False, 0)]:
        fast = DealerTerms(odds, b).final(c, False)
        slow = odds.dealer(b, c, False)
        assert fast.keys() == slow.keys()
        assert all(abs(fast[k] - slow[k]) < 1e-12 for k in fast)


# ------------------------------------------------------------------ exact odds


def test_infinite_shoe_matches_the_published_basic_strategy_figure():
    # The Wizard of Odds, blackjack appendix 1: infinite deck, S17, DAS, split to 4 hands (aces
    # once, one card each), 3:2, dealer peeks: -0.511734%.
    assert 100 * Odds(BLACKJACK, 0).expectation() == pytest.approx(-0.511734, abs=5e-7)


def _small(rules: TwentyOne, num) -> Odds:
    """The odds on a small pack: two cards of each value 1..6 (every path of the big pack's code)."""
    odds = Odds(rules, 1, num)
    odds.full = (2, 2, 2, 2, 2, 2, 0, 0, 0, 0)
    return odds


def test_floats_agree_with_fractions():
    for rules in (TwentyOne(target=11, ace="one", hand=1, naturals=False, ties="player", both_bust="draw",
                            banker_play="rule", stands_on=8),
                  TwentyOne(target=11, ace="one", hand=2, naturals=False, banker_play="best"),
                  TwentyOne(target=11, ace="one", upcard=True, naturals=False, double="any-two", split_hands=2,
                            stands_on=8)):
        exact = _small(rules, Fraction).expectation()
        assert isinstance(exact, Fraction)
        assert abs(_small(rules, float).expectation() - float(exact)) < 1e-12


def test_a_one_card_race_by_hand():
    # One card each from a pack of aces and twos (target 2, no draws worth taking): the player wins
    # on a higher card, ties push. P(player 2, banker 1) = 1/2 * 2/3 = 1/3 and the reverse 1/3: 0.
    rules = TwentyOne(target=2, ace="one", hand=1, naturals=False, banker_play="rule", stands_on=1)
    odds = Odds(rules, 1, Fraction)
    odds.full = (2, 2, 0, 0, 0, 0, 0, 0, 0, 0)
    assert odds.expectation() == 0


def test_lansquenet_fair_races_and_the_double_card():
    void = Lansquenet()
    value, stakes = lansquenet_value(void, 1)
    assert value == 0 and 0 < stakes < 1  # every stake is a race of 3 copies against 3
    assert lansquenet_value(void, 1, choose=True)[0] == 0
    played = Lansquenet(double_banker_card="play")
    assert lansquenet_value(played, 1)[0] < 0  # a doubled banker's card has 2 copies left against 3


# ------------------------------------------------------------------ known shuffles


def plain(pos) -> Fraction:
    """Minimax without pruning or table: the reference."""
    if pos.side() == 0:
        return pos.score()
    values = []
    for m in pos.legal_moves():
        pos.push(m)
        values.append(plain(pos))
        pos.pop()
    return max(values) if pos.side() > 0 else min(values)


@pytest.mark.parametrize("name", ["blackjack", "vingt-un", "dvadtsat-odin", "quinze", "lansquenet"])
def test_minimax_agrees_with_the_plain_search_and_the_referee(name):
    layout = api.load_layout(name)
    family = family_of(layout)
    for seed in range(1, 16):
        deal = family.deal_from_seed(layout, seed)
        for seat in family.seats(layout):
            pos = family.game_position(layout, deal, seat)
            verdict, _, value, line, _ = minimax(pos)
            assert value == plain(family.game_position(layout, deal, seat))
            result = api.solve(layout, seed=seed, seat=seat)  # replayed by the referee, or VerificationFailed
            assert result.score == str(value) and result.verdict == verdict
            assert family.replay_result(layout, deal, result) is None


def test_referee_refuses_a_wrong_line():
    layout = api.load_layout("blackjack")
    result = api.solve(layout, seed=3)
    assert result.solution  # a line to cut short
    bad = result.to_json()
    bad["score"] = str(Fraction(bad["score"]) + 1)
    assert f"not at the result's score {bad['score']}" in (api.verify(bad) or "")
    bad = result.to_json()
    bad["solution"] = bad["solution"][:-1]
    assert "the line ends before" in (api.verify(bad) or "")


def _random_line(pos, rng):
    moves = []
    while pos.side() != 0:
        m = rng.choice(pos.legal_moves())
        moves.append(m)
        pos.push(m)
    return moves


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 10**6), st.integers(0, 10**6))
def test_casino_random_games_push_pop_and_referee(seed, choice):
    layout = api.load_layout("casino")
    deal = family_of(layout).deal_from_seed(layout, seed)
    pos = CasinoGame(layout.rules, deal)
    key0 = pos.key()
    rng = random.Random(choice)
    moves = []
    line = []
    while pos.side() != 0:
        lo, hi = pos.bounds()
        m = rng.choice(pos.legal_moves())
        line.append(pos.move_json(m))
        moves.append(m)
        pos.push(m)
    final = pos.score()
    problem, score = replay_casino(layout.rules, [c for c in api.deal(layout, seed).to_json()["pack"]], "elder", line)
    assert problem is None and score == final
    for _ in moves:
        pos.pop()
    assert pos.key() == key0


def test_casino_bounds_hold_and_the_end_game_matches_the_plain_search():
    layout = api.load_layout("casino")
    for seed in (1, 2):
        deal = family_of(layout).deal_from_seed(layout, seed)
        pos = CasinoGame(layout.rules, deal)
        for _ in range(38):
            pos.push(pos.legal_moves()[0])
        lo, hi = pos.bounds()
        value = minimax(pos, exact=True)[2]
        assert value == plain(pos)
        assert lo <= value - pos.banked() <= hi


# Small games for the plain search: packs of 6..14 cards drawn from aces, the casinos, low numbers,
# tens and kings (pairs, combinations and every kind of point), one or two cards a hand.
SMALL_UNIVERSE = [c for c in range(52) if cards.rank(c) in (1, 2, 3, 4, 5, 10, 13)]


@st.composite
def small_games(draw):
    hand = draw(st.sampled_from([1, 2]))
    table = draw(st.integers(0, 3))
    deals = draw(st.integers(1, 5 if hand == 1 else 2))
    n = table + 2 * hand * deals
    pack = tuple(draw(st.permutations(SMALL_UNIVERSE))[:n])
    rules = Casino(hand_size=hand, table_cards=table, court_combine=draw(st.booleans()),
                   sweeps=draw(st.booleans()), last_takes_rest=draw(st.booleans()),
                   cards_points=draw(st.sampled_from([0, 3])), spades_points=draw(st.sampled_from([0, 1, 2])))
    return rules, pack, draw(st.sampled_from(["elder", "dealer"]))


@settings(max_examples=40, deadline=None)
@given(small_games())
def test_casino_bounds_and_key_hold_on_every_position_of_small_games(game):
    """Every position of the tree: the bounds hold the plain value of the rest, and equal keys have
    equal values of the rest (the key's clamps lose nothing); the search (sign and exact) agrees."""
    rules, pack, seat = game
    pos = CasinoGame(rules, pack, seat)
    rest: dict = {}

    def walk() -> int:
        if pos.side() == 0:
            return pos.score()
        lo, hi = pos.bounds()
        values = []
        for m in pos.legal_moves():
            pos.push(m)
            values.append(walk())
            pos.pop()
        v = max(values) if pos.side() > 0 else min(values)
        assert lo <= v - pos.banked() <= hi, (pos.history, lo, v - pos.banked(), hi)
        assert rest.setdefault(pos.key(), v - pos.banked()) == v - pos.banked(), pos.history
        return v

    value = walk()
    for tt_min in (0, 3, TT_MIN):  # every position through the table; only those 3 plies or more from the end
        search = partial(CoreSearch, tt_min=tt_min)
        verdict, _, exact, _, _ = minimax(CasinoGame(rules, pack, seat), exact=True, core=search)
        assert exact == value
        verdict, _, signed, line, _ = minimax(CasinoGame(rules, pack, seat), core=search)
        assert verdict == ("won" if value > 0 else "lost" if value < 0 else "drawn")
        assert signed == (0 if value == 0 else None)
    assert minimax(CasinoGame(rules, pack, seat), core=False)[:3] == (verdict, None, signed)  # --core python
    pos = CasinoGame(rules, pack, seat)
    moves = []
    for m in line:
        moves.append(pos.move_json(m))
        pos.push(m)
    problem, score = replay_casino(rules, cards.names(pack), seat, moves)
    assert problem is None and score == pos.score()
    assert (score > 0) == (value > 0) and (score < 0) == (value < 0) and (score == 0) == (value == 0)


def _casino_modules():
    """Casino's game and the minimax compiled (skips where they are not built), and the same
    sources interpreted."""
    from solver.engines import minimax_core
    from solver.families.chance import casino

    if not (casino.COMPILED and minimax_core.COMPILED):
        pytest.skip("the compiled Casino is not built")
    mods = interpreted("solver.families.game_core", "solver.families.chance.casino", "solver.engines.minimax_core")
    return casino, mods["solver.families.chance.casino"], mods["solver.engines.minimax_core"]


@settings(max_examples=30, deadline=None)
@given(small_games())
def test_compiled_casino_is_the_interpreted_one_on_every_position(game):
    """Every position of a small game's tree, compiled and interpreted (one source): the same side,
    moves (in order), bounds, banked points, keys, state and score."""
    compiled, interp, _ = _casino_modules()
    rules, pack, seat = game
    ref, core = interp.CasinoGame(rules, pack, seat), compiled.CasinoGame(rules, pack, seat)

    def walk() -> None:
        assert core.side() == ref.side() and core.key() == ref.key() and core.state() == ref.state()
        if ref.side() == 0:
            assert core.score() == ref.score()
            return
        moves = core.legal_moves()
        assert moves == ref.legal_moves()
        assert core.bounds() == ref.bounds() and core.banked() == ref.banked()
        for m in moves:
            ref.push(m)
            core.push(m)
            walk()
            assert core.pop() == ref.pop() == m

    walk()


@pytest.mark.parametrize("seed", [1, 2])
def test_compiled_search_is_the_interpreted_search_node_for_node(seed):
    """The last two deals of real games, both seats: the compiled search over the compiled game and
    the same sources interpreted give the same verdict, value, line and number of nodes; the
    Python search (``--core python``) the same verdict and value."""
    compiled, interp, interp_search = _casino_modules()
    layout = api.load_layout("casino")
    deal = family_of(layout).deal_from_seed(layout, seed)
    for seat in ("elder", "dealer"):
        ref, core = interp.CasinoGame(layout.rules, deal, seat), compiled.CasinoGame(layout.rules, deal, seat)
        for _ in range(32):
            m = core.legal_moves()[0]
            ref.push(m)
            core.push(m)
        small = Limits(max_memory=1 << 20)  # a table the interpreted search fills in a moment
        for exact in (True, False):
            a = minimax(ref, small, exact=exact, core=interp_search.CoreSearch)
            b = minimax(core, small, exact=exact)
            c = minimax(core, exact=exact, core=False)
            assert type(b[4].core).__module__ == "solver.engines.minimax_core"
            assert a[:4] == b[:4] and a[4].nodes == b[4].nodes > 0
            assert c[:3] == b[:3]


def test_compiled_and_python_cores_from_the_command_line(capsys):
    _casino_modules()
    for core in ("compiled", "python"):
        assert main(["solve", "casino", "--seed", "1", "--max-nodes", "3000", "--core", core, "--json"]) == 3
        out = json.loads(capsys.readouterr().out)
        assert out["verdict"] == "unknown" and out["stats"]["core"] == core and out["stats"]["nodes"] == 3001


# Random rule tables of the twenty-one games: every settling rule and its values (the checks of
# ``rules.read_rules`` refuse the combinations that cannot be played; those examples are dropped).
RATIOS = st.sampled_from(["1:1", "2:1", "3:2", "3:1", "6:5"])


def twenty_one_rules(decks: st.SearchStrategy[int]) -> st.SearchStrategy[dict]:
    """Every rule key but ``draw`` (doubled stakes: ``test_odds``), each present or not."""
    return st.fixed_dictionaries({"decks": decks}, optional={
        "target": st.sampled_from([15, 19, 21, 23, 25]), "ace": st.sampled_from(["one-or-eleven", "one"]),
        "hand": st.integers(1, 2), "upcard": st.booleans(), "naturals": st.booleans(), "peek": st.booleans(),
        "natural_pays": RATIOS, "banker_natural_collects": RATIOS, "natural_tie": st.sampled_from(["push", "banker"]),
        "target_pays": RATIOS, "target_collects": RATIOS, "ties": st.sampled_from(["push", "banker", "player"]),
        "target_tie": st.sampled_from(["as-ties", "push", "banker", "player"]),
        "both_bust": st.sampled_from(["player-loses", "draw"]),
        "banker_play": st.sampled_from(["rule", "best", "blind"]), "stands_on": st.integers(11, 17),
        "hits_soft_17": st.booleans(), "double": st.sampled_from(["none", "any-two", "9-11", "10-11"]),
        "double_after_split": st.booleans(), "split_hands": st.integers(1, 4), "resplit_aces": st.booleans(),
        "hit_split_aces": st.booleans()})


TWENTY_ONE_RULES = twenty_one_rules(st.integers(1, 3))


def settings_of(rules: dict) -> list[str]:
    return [f"{k}={json.dumps(v)}" for k, v in rules.items()]


def twenty_one_layout(name: str, rules: dict):
    from solver.errors import LayoutError

    try:
        return api.load_layout(name, None, settings_of(rules))
    except LayoutError:
        assume(False)


# Final hands of every kind: naturals, the target in three cards, totals, soft totals, over the target.
HANDS = [["AS", "KD"], ["TC", "AH"], ["7C", "7D", "7H"], ["KS", "QS"], ["9C", "TD"], ["AC", "6D"], ["8S"],
         ["5C", "4D"], ["AD", "AS", "9H"], ["KC", "QD", "5S"], ["9S", "8D", "7C"], ["2C", "3D"]]


def test_vingt_un_both_at_21_is_a_drawn_game_and_other_ties_the_bankers():
    """The English text: the dealer's Vingt-un takes double "from all who stand the game, except
    such other players, likewise having twenty-one, between whom it is thereby a drawn game";
    other equal totals go to the banker (the layout's reading of the cut-off text)."""
    from solver.families.chance.twentyone import settle

    r = api.load_layout("vingt-un").rules
    assert settle(r, 21, 21) == 0 and settle(r, 20, 20) == -1 and settle(r, 21, 20) == 2
    assert settle(api.load_layout("vingt-un", None, ["target_tie=\"as-ties\""]).rules, 21, 21) == -1
    assert settle(api.load_layout("dvadtsat-odin").rules, 21, 21) == -1  # its text says nothing of it


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["blackjack", "vingt-un", "quinze", "dvadtsat-odin"]), TWENTY_ONE_RULES)
def test_the_referee_settles_every_pair_of_hands_as_the_positions_do(name, rules):
    """Settling, exhaustively over kinds of final hands: the referee's ``_settle`` (written from the
    rules in words) and ``twentyone.settle`` (which the positions and the odds use) agree."""
    from solver.families.chance.position import TwentyOneRound
    from solver.families.chance.referee import _Hand, _settle
    from solver.families.chance.twentyone import settle

    r = twenty_one_layout(name, rules).rules
    pos = TwentyOneRound(r, tuple(cards.pack(1)))
    for split in (False, True):
        for mine in HANDS:
            for his in HANDS:
                got = settle(r, pos._outcome([*map(cards.parse, mine)], split),
                             pos._outcome([*map(cards.parse, his)]))
                want = _settle(r, _Hand(r, mine, after_split=split), _Hand(r, his))
                assert (got or 0) == want, (mine, his, split)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 10**6), st.integers(0, 10**6), st.sampled_from(["blackjack", "vingt-un", "quinze",
                                                                    "dvadtsat-odin"]), TWENTY_ONE_RULES,
       st.lists(st.sampled_from([1, 1, 10, 13, 2, 5, 7, 8, 9]), max_size=5))
def test_twenty_one_random_rounds_replay(seed, choice, name, rules, front):
    """The round's score (``twentyone.settle``) is the referee's, written apart from the rules in
    words, on random lines under random rule tables; ``front``: the ranks of the first cards dealt
    (aces and ten-cards often: naturals, pairs and the target on both sides)."""
    layout = twenty_one_layout(name, rules)
    deck = list(family_of(layout).deal_from_seed(layout, seed))
    for i, rank in enumerate(front):  # the first card of that rank from position i on comes to position i
        j = next((j for j in range(i, len(deck)) if cards.rank(deck[j]) == rank), i)
        deck[i], deck[j] = deck[j], deck[i]
    deal = tuple(deck)
    pos = family_of(layout).game_position(layout, deal, "player")
    key0 = pos.key()
    rng = random.Random(choice)
    line = []
    while pos.side() != 0:
        m = rng.choice(pos.legal_moves())
        line.append(pos.move_json(m))
        pos.push(m)
    problem, score = replay_twenty_one(layout.rules, cards.names(deal), "player", line)
    assert problem is None and score == pos.score()
    while pos.history:
        pos.pop()
    assert pos.key() == key0


# ------------------------------------------------------------------ the face


def test_bad_input_is_one_line_exit_2(tmp_path, capsys):
    assert main(["solve", "vingt-un", "--seed", "1", "--seat", "croupier"]) == 2
    assert "has the seats player, banker" in capsys.readouterr().err
    deal = tmp_path / "d.json"
    deal.write_text(json.dumps({"pack": api.deal("vingt-un", seed=1).to_json()["pack"] * 2}))
    assert main(["solve", "vingt-un", "--deal", str(deal)]) == 2
    assert "expected 52 cards (1 pack of 52)" in capsys.readouterr().err
    assert main(["odds", "casino"]) == 2
    assert main(["odds", "debutante"]) == 2
    assert main(["batch", "quinze", "--seeds", "1-2"]) == 2
    assert main(["solve", "blackjack", "--set", "decks=0", "--seed", "1"]) == 2
    capsys.readouterr()
    assert main(["solve", "casino", "--set", "hand_size=5", "--seed", "1"]) == 2  # 48 cards: 10, 10, 10, 10, 8
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "hand_size" in err and "whole rounds of two hands" in err


def test_positions_and_analysis_refuse_a_game_of_chance(tmp_path, capsys):
    assert main(["solve", "quinze", "--seed", "3", "--json"]) in (0, 1, 5)
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "minimax"  # the family's own engine, not the patiences' portfolio
    moves = tmp_path / "r.json"
    moves.write_text(json.dumps(result))
    for args in (["hint", "quinze", "--seed", "3"], ["analyse", "quinze", "--moves", str(moves)],
                 ["solve", "quinze", "--position", str(moves)],
                 ["deal", "quinze", "--seed", "3", "--moves", str(moves)]):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "a game of chance is decided whole from its deal" in err, args
    assert main(["solve", "quinze", "--seed", "3", "--jobs", "2"]) == 2
    assert "--jobs: only --engine portfolio" in capsys.readouterr().err


def test_solve_prints_the_line_and_exit_codes(capsys):
    codes = {main(["solve", "lansquenet", "--seed", str(s)]) for s in range(1, 12)}
    assert codes <= {0, 1, 5} and 5 in codes  # a drawn game has its own exit code
    assert "with best play on both sides" in capsys.readouterr().out


def test_odds_text_json_svg_and_simulation(capsys, tmp_path):
    assert main(["odds", "blackjack", "--set", "decks=0", "--simulate", "2000", "--sim-seed", "3", "--timeout", "0",
                 "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["expectation"] == pytest.approx(-0.00511734, abs=1e-8)
    sim = rep["simulation"]
    assert sim["low"] < sim["mean"] < sim["high"] and sim["rounds"] == 2000
    out = tmp_path / "s.svg"
    assert main(["odds", "blackjack", "--set", "decks=0", "--svg", "--out", str(out), "--timeout", "0"]) == 0
    assert out.read_text().startswith("<svg") and "hard 16" in out.read_text()
    assert main(["odds", "lansquenet", "--timeout", "0"]) == 0
    assert "banker's edge per unit staked" in capsys.readouterr().out


CHANCE = ["blackjack", "vingt-un", "dvadtsat-odin", "quinze", "lansquenet", "casino"]
EDIT_VALUES = st.sampled_from(['"3:2"', '"0:1"', '"best"', '"any-two"', "true", "0", "1", "9", "99", "-1", "[]",
                               '"x"', "{}"])
EDIT_KEYS = st.sampled_from(["decks", "target", "hand", "stands_on", "split_hands", "natural_pays", "ties",
                             "banker_play", "stakes", "hand_size", "bogus", "game", "double"])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CHANCE), st.lists(st.tuples(EDIT_KEYS, EDIT_VALUES), min_size=1, max_size=3))
def test_edited_chance_layouts_load_or_give_one_line(name, edits):
    from solver.errors import LayoutError

    settings_ = [f"{k}={v}" for k, v in edits]
    try:
        layout = api.load_layout(name, None, settings_)
    except LayoutError as e:
        assert len(str(e).splitlines()) == 1 and "with --set" in str(e)
        return
    assert family_of(layout).describe(layout)


def test_pictures_refuse_a_game_of_chance(capsys):
    assert main(["deal", "blackjack", "--seed", "1", "--svg"]) == 2
    assert "no table to draw" in capsys.readouterr().err
