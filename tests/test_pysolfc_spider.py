"""PySolFC's Spider games (issue #38): its game numbers and dealing, and its stock rule.

The layouts ``pysolfc-spider``, ``pysolfc-relaxed-spider``, ``pysolfc-spiderette``,
``pysolfc-will-o-the-wisp`` and ``pysolfc-simple-simon`` deal PySolFC's game N as seed N.  Their
dealing is checked three ways: against pysol-cards' own deal of PySolFC's Simple Simon, against
pysol-cards' own deal of Gypsy (a two-pack game PySolFC deals the same way: rows face down, then a
row of tops, the rest in the talon) given to the same dealer, and against each game's
``startGame`` (pysollib/games/spider.py) replayed card by card on PySolFC's shuffle.

Their stock deals no row while a column is empty (``stock.turn = "deal-row-no-spaces"``,
PySolFC's ``Spider.canDealCards``): the referee refuses such a row, the position offers none, and
on small games the engine agrees with the referee's plain search.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver import api, cards, moves, shuffles
from solver.describe import describe
from solver.engines.dfs import run_dfs
from solver.errors import LayoutError
from solver.families import brute
from solver.families.tableau.position import TableauPosition
from solver.families.tableau.referee import TableauGame, replay
from solver.layout import parse_text
from solver.limits import Limits

PYSOLFC_SPIDERS = {  # layout: (PySolFC's name, packs, columns)
    "pysolfc-spider": ("Spider", 2, 10),
    "pysolfc-spider-1-suit": ("Spider (1 Suit)", 2, 10),
    "pysolfc-spider-2-suits": ("Spider (2 Suits)", 2, 10),
    "pysolfc-relaxed-spider": ("Relaxed Spider", 2, 10),
    "pysolfc-spiderette": ("Spiderette", 1, 7),
    "pysolfc-will-o-the-wisp": ("Will o' the Wisp", 1, 7),
    "pysolfc-simple-simon": ("Simple Simon", 1, 10),
}
SEEDS = (1, 2, 3, 14934, 31999, 32000, 32001, 123456)  # both generators, and their boundary


def _start_game(name: str, columns: int) -> list[tuple[tuple[int, ...], bool]]:
    """Each ``startGame`` of pysollib/games/spider.py as its dealRow calls: (columns dealt to, in
    order; face up)."""
    every = tuple(range(columns))
    if name in ("Spider", "Relaxed Spider") or name.startswith("Spider ("):  # RelaxedSpider.startGame
        return [(every, False)] * 4 + [((0, 3, 6, 9), False), (every, True)]
    if name == "Spiderette":  # rows[i:] for i in 1..6, face down; then _startAndDealRow
        return [(every[i:], False) for i in range(1, columns)] + [(every, True)]
    if name == "Will o' the Wisp":
        return [(every, False)] * 2 + [(every, True)]
    if name == "Simple Simon":  # rows[:i] for i in 9..3, face up; then _startAndDealRow
        return [(every[:i], True) for i in (9, 8, 7, 6, 5, 4, 3)] + [(every, True)]
    raise AssertionError(name)


def _replayed(name: str, packs: int, columns: int, seed: int) -> tuple[list[list[str]], list[int], list[str]]:
    """PySolFC's deal of game ``seed`` of ``name``, made as PySolFC makes it: its cards in its
    order, shuffled (pysol-cards' shuffle with PySolFC's generator boundary), put into the talon
    in that order (its top the last), then ``startGame``'s rows, each taking the talon's top
    card for each column in turn.  The columns (bottom first), their face-down counts and the
    talon from its top."""
    from pysol_cards.cards import createCards

    # PySolFC's GameInfo(suits=...) in its suit numbers 0..3 = C S H D: a pack's four runs of 13
    suits = {"Spider (1 Suit)": "CCCC", "Spider (2 Suits)": "CCHH"}.get(name, "CSHD")
    talon = shuffles.pysolfc_shuffle(createCards(packs), seed)
    cols: list[list[str]] = [[] for _ in range(columns)]
    down = [0] * columns
    for rows, face_up in _start_game(name, columns):
        for r in rows:
            c = talon.pop()
            cols[r].append(cards.RANKS[c.rank - 1] + suits[c.suit])
            down[r] += not face_up
    return cols, down, [cards.RANKS[c.rank - 1] + suits[c.suit] for c in reversed(talon)]


@pytest.mark.parametrize("name", sorted(PYSOLFC_SPIDERS))
def test_each_layout_opens_and_deals_pysolfc_game_n(name):
    """The layout opens and says its rules and numbering; seed N is PySolFC's game N, dealt as
    its startGame deals it (columns, face-down cards, the talon in dealing order), the same on
    every call; different seeds deal differently."""
    game, packs, columns = PYSOLFC_SPIDERS[name]
    lay = api.load_layout(name)
    text = describe(lay)
    assert f"PySolFC's {game} game number N" in text
    assert lay.deal.pysolfc_game == game and lay.decks == packs and lay.tableau.count == columns
    for seed in SEEDS:
        deal = shuffles.from_seed(lay, seed)
        assert deal == shuffles.from_seed(lay, seed)
        cols, down, talon = _replayed(game, packs, columns, seed)
        assert [cards.names(deal.get(f"tableau:{i}", [])) for i in range(columns)] == cols, seed
        assert list(lay.tableau.face_down or [0] * columns) == down
        assert cards.names(deal.get("stock", [])) == talon, seed
    assert shuffles.from_seed(lay, 1) != shuffles.from_seed(lay, 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_simple_simon_is_pysol_cards_deal(seed):
    """pysol-cards deals PySolFC's Simple Simon itself ("simple_simon"): the layout's own dealing
    (rows under the tops, then the tops) makes the same columns."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.random_base import RandomBase

    lay = api.load_layout("pysolfc-simple-simon")
    game = shuffles._pysolfc_game_class()("simple_simon", seed, RandomBase.DEALS_PYSOLFC)
    theirs = [line.split() for line in game.calc_layout_string(CardRenderer(True)).splitlines() if line.strip()]
    deal = shuffles.from_seed(lay, seed)
    assert [cards.names(deal[f"tableau:{i}"]) for i in range(10)] == theirs


GYPSY = """title = "Gypsy-shaped"
decks = 2
[foundations]
rows = [{ base = "A" }, { base = "A" }]
[tableau]
count = 8
deal = [3, 3, 3, 3, 3, 3, 3, 3]
face_down = [2, 2, 2, 2, 2, 2, 2, 2]
build = "alternate"
[stock]
turn = "deal-row"
[deal]
generator = "pysolfc"
pysolfc_game = "Gypsy"
tops_last = true
"""


@pytest.mark.parametrize("seed", (1, 2, 14934, 32000, 32001))
def test_two_packs_deal_as_pysol_cards_gypsy(seed):
    """pysol-cards deals PySolFC's Gypsy (two packs: two rows face down, a row of tops, the rest
    in the talon): the same dealer, given Gypsy's columns, makes pysol-cards' columns, face-down
    cards and talon (printed from its top)."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.random_base import RandomBase

    lay = parse_text(GYPSY, "gypsy.toml", "gypsy")
    game = shuffles._pysolfc_game_class()("gypsy", seed, RandomBase.DEALS_PYSOLFC)
    text = game.calc_layout_string(CardRenderer(True))
    lines = [line for line in text.splitlines() if line.strip()]
    talon = next(line for line in lines if line.startswith("Talon:")).split()[1:]
    theirs = [line.split() for line in lines if not line.startswith(("Talon:", "Foundations:"))]
    deal = shuffles.from_seed(lay, seed)
    ours = [[f"<{c}>" if k < 2 else c for k, c in enumerate(cards.names(deal[f"tableau:{i}"]))] for i in range(8)]
    assert ours == theirs
    assert cards.names(deal["stock"]) == talon


def test_tops_last_needs_a_layout_that_deals():
    with pytest.raises(LayoutError, match="deal.tops_last: expected false unless the layout deals the columns"):
        parse_text(GYPSY.replace('pysolfc_game = "Gypsy"', 'pysolfc_game = "Gypsy"\npysol_game = "gypsy"'),
                   "gypsy.toml", "gypsy")


# ------------------------------------------------------------ no row while a column is empty


def test_the_referee_refuses_a_row_onto_an_empty_column():
    """PySolFC's Spider: once a column is empty the stock may not deal; Relaxed Spider's may."""
    for name, refused in (("pysolfc-spider", True), ("pysolfc-relaxed-spider", False)):
        lay = api.load_layout(name)
        deal = shuffles.from_seed(lay, 1)
        deal = {k: list(v) for k, v in deal.items()}
        deal["stock"] = deal["tableau:4"] + deal["stock"]  # column 5 dealt empty, its cards first in the stock
        deal["tableau:4"] = []
        game = TableauGame(lay, deal)
        assert game.problem is None
        first, fifth = cards.name(deal["stock"][0]), cards.name(deal["stock"][4])
        said = game.play(moves.contract(first, "stock", "tableau", 10))
        if refused:
            assert said == "move 1: no row is dealt while a column is empty (tableau:4 is)"
            assert game.columns[4] == [] and game.stock[0] == first
        else:
            assert said is None and game.columns[4] == [fifth]


def test_the_position_deals_no_row_while_a_column_is_empty():
    lay = api.load_layout("pysolfc-spider")
    deal = shuffles.from_seed(lay, 1)
    rows = [m for m in TableauPosition(lay, deal).legal_moves() if moves.decode(m).kind is moves.ROW]
    assert len(rows) == 1  # no column is empty at the start
    deal = {k: list(v) for k, v in deal.items()}
    deal["stock"] = deal["tableau:4"] + deal["stock"]
    deal["tableau:4"] = []
    for name, offered in (("pysolfc-spider", False), ("pysolfc-relaxed-spider", True)):
        pos = TableauPosition(api.load_layout(name), deal)
        assert any(moves.decode(m).kind is moves.ROW for m in pos.legal_moves()) == offered


def small(max_rank: int, deal: list[int], down: list[int], turn: str, takes: str = "suit",
          suits: tuple[str, ...] = ("C", "D", "H", "S")):
    """PySolFC's Spider on a reduced deck and one pack (of ``suits``): ``deal`` columns, the rest
    in the stock."""
    lay = api.load_layout("pysolfc-spider")
    lay = replace(lay, tableau=replace(lay.tableau, count=len(deal), deal=tuple(deal), face_down=tuple(down)),
                  foundations=replace(lay.foundations, takes=takes, rows=lay.foundations.rows[:1]),
                  stock=replace(lay.stock, turn=turn), decks=1, suits=suits, name="pysolfc-spider-small")
    return api.load_layout(lay, max_rank)


CASES = [(3, [2, 2, 2], [1, 1, 0]), (3, [3, 2, 2], [1, 0, 0]), (4, [3, 3, 2], [1, 1, 0])]


@pytest.mark.parametrize("takes", ["suit", "card"])
def test_the_engine_agrees_with_the_plain_search(takes):
    """Deal by deal on small Spider games whose stock deals no row onto an empty column, the
    engine agrees with the referee's plain search, wins and losses both."""
    verdicts = []
    for case in CASES:
        lay = small(*case, "deal-row-no-spaces", takes)
        for seed in range(1, 11):  # (seed 11 of the last case: 2.1 s of the plain search)
            deal = shuffles.from_seed(lay, seed)
            truth = brute.solve(lay, deal, 20_000)
            if truth.verdict == "unknown":
                continue
            out = run_dfs(lay, deal, Limits(max_nodes=1_000_000))
            assert out.verdict == truth.verdict, (case, seed)
            if out.verdict == "won":
                assert replay(lay, deal, out.solution) is None
            verdicts.append(truth.verdict)
    assert len(verdicts) >= 12 and {"won", "lost"} <= set(verdicts)


def _cards(text: str) -> list[int]:
    return [cards.parse(c) for c in text.split()]


# Deals where the rule decides (on random small deals it seldom does: a space can nearly always be
# filled from another column): (foundations.takes, columns, stock, whether the rules' verdicts differ).
DECIDING = [
    # A suit home leaves two empty columns of three and nothing to fill them: only Relaxed
    # Spider's stock can deal again.
    ("suit", ["2C AC", "", ""], "2D AD 2H AH 2S AS", True),
    # The ace of clubs going home at once (safe by the plain rule: an ace takes nothing) would
    # empty its column and stop every row; the win keeps it there and deals both rows first.
    ("card", ["AC", "2D", "AD"], "2C 2H AH 2S AS", False),
]


@pytest.mark.parametrize(("takes", "columns", "stock", "differ"), DECIDING)
def test_the_rule_decides_and_the_engine_agrees(takes, columns, stock, differ):
    """On deals where a row onto an empty column decides the game or the way to win it, the
    engine agrees with the plain search under each rule (the second deal: the dominance of safe
    foundation moves, unproved under this rule, is off while rows are left; with it on, the
    engine calls this won deal lost)."""
    deal = {**{f"tableau:{i}": _cards(c) for i, c in enumerate(columns)}, "stock": _cards(stock)}
    verdicts = {}
    for turn in ("deal-row-no-spaces", "deal-row"):
        lay = small(2, [len(c.split()) for c in columns], [0] * len(columns), turn, takes)
        truth = brute.solve(lay, deal, 20_000).verdict
        out = run_dfs(lay, deal, Limits(max_nodes=100_000))
        assert out.verdict == truth != "unknown", turn
        if out.verdict == "won":
            assert replay(lay, deal, out.solution) is None
        verdicts[turn] = truth
    assert (verdicts["deal-row-no-spaces"] != verdicts["deal-row"]) == differ


# ------------------------------------------------------------ packs of fewer suits


def test_a_pack_of_fewer_suits():
    """PySolFC's one- and two-suit Spider: the pack holds its suits only (eight runs of clubs;
    four each of clubs and hearts), the foundations take those suits, and the other families,
    the CP-SAT model and Solvitaire's files refuse it by name."""
    one, two = api.load_layout("pysolfc-spider-1-suit"), api.load_layout("pysolfc-spider-2-suits")
    assert sorted(set(cards.names(one.pack()))) == [r + "C" for r in sorted(cards.RANKS)]
    assert len(one.pack()) == 104 and {cards.name(c)[1] for c in two.pack()} == {"C", "H"}
    assert [one.foundation_suit(i) for i in range(8)] == [cards.SUITS.index("C")] * 8
    assert [cards.SUITS[two.foundation_suit(i)] for i in range(8)] == list("CCHHCCHH")
    assert "whose four suits are C C H H (clubs and hearts only)" in describe(two)
    from solver.families.tableau.model import READS as MODEL
    assert "suits = " in "; ".join(MODEL.problems(one))
    with pytest.raises(LayoutError, match="suits: expected all four suits unless the layout deals its pack"):
        parse_text('title = "x"\ndecks = 1\nsuits = ["C", "C", "C", "C"]\n[deal]\ngenerator = "solvitaire"\n',
                   "x.toml", "x")


@pytest.mark.parametrize("suits", [("C", "C", "C", "C"), ("C", "C", "H", "H")])
@pytest.mark.parametrize("takes", ["suit", "card"])
def test_fewer_suits_agree_with_the_plain_search(suits, takes):
    """On small games of one pack of one or two suits (four runs of clubs; two each of clubs and
    hearts), the engine agrees with the referee's plain search, wins and losses both, and its
    wins replay."""
    verdicts = []
    for case in CASES:
        lay = small(*case, "deal-row-no-spaces", takes, suits)
        for seed in range(1, 11):
            deal = shuffles.from_seed(lay, seed)
            truth = brute.solve(lay, deal, 20_000)
            if truth.verdict == "unknown":
                continue
            out = run_dfs(lay, deal, Limits(max_nodes=1_000_000))
            assert out.verdict == truth.verdict, (case, seed)
            if out.verdict == "won":
                assert replay(lay, deal, out.solution) is None
            verdicts.append(truth.verdict)
    assert len(verdicts) >= 10 and "won" in verdicts
