"""The Spider family (Spider, Spiderette, Will o' the Wisp, Simple Simon, Mrs Mop): wins replayed
by the referee, and the narrowed first search (``set_narrow``) that only ever wins."""

from dataclasses import replace

import pytest
from test_solvitaire import PRESETS

from solver import api, shuffles, solvitaire
from solver.engines.core import compiled_available
from solver.engines.dfs import _narrowed, compiled_dfs, dfs, run_dfs
from solver.families import brute
from solver.families.tableau.position import TableauPosition
from solver.families.tableau.referee import replay
from solver.limits import Limits

SPIDER_FAMILY = ("spider", "spiderette", "will-o-the-wisp", "simple-simon", "mrs-mop")


def small_spider(max_rank: int, deal: list[int], down: list[int], decks: int = 1, takes: str = "column"):
    """Spider on a reduced deck: ``deal`` columns (``down`` of each face down), the rest in the stock."""
    lay = api.load_layout("spider")
    lay = replace(lay, tableau=replace(lay.tableau, count=len(deal), deal=tuple(deal), face_down=tuple(down)),
                  foundations=replace(lay.foundations, takes=takes, rows=lay.foundations.rows[:decks]),
                  decks=decks, name="spider-small")
    return api.load_layout(lay, max_rank)


@pytest.mark.parametrize("name", SPIDER_FAMILY)
def test_each_layout_is_solvitaires_preset(name):
    """Each layout plays Solvitaire's preset of its name: the preset's rules (tests/test_solvitaire.py's
    PRESETS, copied from Solvitaire's source) map onto the layout's rules and deal sizes."""
    lay = api.load_layout(name)
    assert lay.deal.generator == "solvitaire"
    theirs = solvitaire.rules_to_layout(PRESETS[name], f"{name}.json", name)
    assert (theirs.tableau, theirs.foundations, theirs.stock, theirs.decks, theirs.deal.reverse) == \
        (lay.tableau, lay.foundations, lay.stock, lay.decks, lay.deal.reverse)


WINS = [  # (layout, seed, max_rank or None, node limit): each won within its limit
    ("simple-simon", 1, None, 10_000),
    ("simple-simon", 2, None, 100_000),
    ("spiderette", 2, None, 400_000),
    ("will-o-the-wisp", 2, None, 400_000),
]


@pytest.mark.parametrize(("name", "seed", "max_rank", "nodes"), WINS)
def test_wins_replay(name, seed, max_rank, nodes):
    lay = api.load_layout(name, max_rank)
    deal = shuffles.from_seed(lay, seed)
    out = run_dfs(lay, deal, Limits(max_nodes=nodes))
    assert out.verdict == "won"
    assert replay(lay, deal, out.solution) is None


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_spider_deal_is_won_and_replayed(seed):
    """Four suits, two packs, rows dealt from the stock: each of seeds 1..5 is won (measured: each
    in under 0.1 s) and the referee replays the win."""
    lay = small_spider(7, [3] * 10, [2] * 10, decks=2)
    deal = shuffles.from_seed(lay, seed)
    out = run_dfs(lay, deal, Limits(max_nodes=200_000))
    assert out.verdict == "won", (out.verdict, out.reason)
    assert replay(lay, deal, out.solution) is None


CASES = [(3, [3, 3, 2], [1, 1, 0]), (4, [4, 4, 3], [2, 2, 1])]  # (max rank, deal, face down): small Spiders
# Won deals whose narrowed search alone ends without a win: (foundations.takes, case, seed).
NARROWED_MISSES = [("column", (4, [3, 3, 3, 3], [1, 1, 1, 1]), 4), ("suit", (3, [3, 3, 2], [1, 1, 0]), 3)]


@pytest.mark.parametrize("takes", ["column", "suit", "card"])
def test_the_engine_agrees_with_the_plain_search(takes):
    """Deal by deal on small Spider games, the engine (a narrowed search first, then the full
    one) agrees with the referee's plain search, wins and losses both."""
    verdicts = []
    for case in CASES:
        lay = small_spider(*case, takes=takes)
        for seed in range(1, 9):
            deal = shuffles.from_seed(lay, seed)
            truth = brute.solve(lay, deal, 5_000)
            if truth.verdict != "unknown":
                assert run_dfs(lay, deal, Limits(max_nodes=1_000_000)).verdict == truth.verdict, (case, seed)
                verdicts.append(truth.verdict)
    assert len(verdicts) >= 12 and {"won", "lost"} <= set(verdicts)


@pytest.mark.parametrize(("takes", "case", "seed"), NARROWED_MISSES)
def test_the_narrowed_search_only_wins(takes, case, seed):
    """A won deal the narrowed search alone exhausts without a win: its end is not a loss, and
    the engine goes on to win it."""
    lay = small_spider(*case, takes=takes)
    deal = shuffles.from_seed(lay, seed)
    assert brute.solve(lay, deal, 5_000).verdict == "won"
    pos = TableauPosition(lay, deal)
    assert pos.set_narrow(True)
    search = compiled_dfs if compiled_available() else dfs  # the engine's own choice of search
    first = _narrowed(search, pos, Limits(max_nodes=1_000_000), True, {})
    assert (first.verdict, first.reason) == ("unknown", "narrowed") and first.nodes < 1_000_000 // 2
    out = run_dfs(lay, deal, Limits(max_nodes=1_000_000))
    assert out.verdict == "won" and replay(lay, deal, out.solution) is None


def test_only_groups_of_one_suit_narrow():
    lay = api.load_layout("klondike")
    assert not TableauPosition(lay, shuffles.from_seed(lay, 1)).set_narrow(True)
