"""Pictures: every layout draws its deal and every position of a solution; the SVG parses,
holds one glyph per card (or peg), is the same for the same input (golden files), and the
viewer page loads nothing from the network.  ``patience deal --svg`` and ``patience view``
from the command line, with their bad input.

Regenerate the golden pictures after a deliberate change of the drawing with
``PATIENCE_UPDATE_GOLDEN=1 python -m pytest tests/test_draw.py`` and look at them.
"""

from __future__ import annotations

import ast
import json
import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from solver import api, draw
from solver.cli import main
from solver.draw.replay import steps
from solver.draw.viewer import viewer_html
from solver.layout import Layout
from solver.limits import Limits
from solver.schema import builtin_names

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
SVG = "{http://www.w3.org/2000/svg}"

# (layout, seed, max_rank): every family, each solved in well under a second.
WON = [("debutante", 2, 5), ("debutante-fifo", 1, 5), ("colorado", 1, 5), ("twenty", 1, 5),
       ("grandfather", 1, 5), ("sly-fox", 1, 5), ("freecell", 1, 5), ("eight-off", 1, 5),
       ("klondike", 1, 8), ("klondike-draw-1", 1, 8), ("canfield", 1, 5), ("forty-thieves", 1, 5),
       ("bakers-dozen", 1, 5), ("black-hole", 2, None), ("golf", 4, None), ("english-33", None, None)]


def _solve(name: str, seed: int | None, max_rank: int | None) -> api.DrawableResult:
    return api.solve(api.load_layout(name, max_rank), seed=seed, limits=Limits(timeout=60))


def _cards(svg: str) -> tuple[Counter[str], int, dict[str, list[str]]]:
    """The faces drawn (by card name), the backs drawn, and each stack's faces in drawing order."""
    root = ET.fromstring(svg)
    faces: Counter[str] = Counter()
    backs = 0
    stacks: dict[str, list[str]] = {}
    for group in root.iter(f"{SVG}g"):
        if "data-stack" not in group.attrib:
            continue
        for use in group.iter(f"{SVG}use"):
            assert use.get("class") == "card"
            name = use.get("href", "")[len("#pc-"):]
            if name == "back":
                backs += 1
            else:
                faces[name] += 1
                stacks.setdefault(group.attrib["data-stack"], []).append(name)
    assert sum(1 for u in root.iter(f"{SVG}use") if u.get("class") == "card") == sum(faces.values()) + backs
    return faces, backs, stacks


def _deal_names(deal: dict[str, list[str]]) -> Counter[str]:
    return Counter(c for cs in deal.values() for c in cs)


@pytest.mark.parametrize("name", [n for n in builtin_names() if api.load_layout(n).family != "chance"])
def test_every_layout_draws_its_deal_with_one_glyph_per_card(name: str) -> None:
    layout = api.load_layout(name)
    d = api.deal(layout, seed=None if layout.family == "peg" else 3)
    svg = d._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and float(root.get("width", 0)) > 100 and float(root.get("height", 0)) > 100
    deal = d.to_json()
    if name.startswith(("english", "french")):
        pegs = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "peg"]
        assert sorted(c.get("data-hole") for c in pegs) == sorted(deal["pegs"])
        return
    faces, backs, stacks = _cards(svg)
    # The stock lies face down, and so do the columns' face-down cards; everything else face up.
    card_schema = isinstance(layout, Layout)  # else a family's own layout: Accordion's row, Gaps' grid
    hidden = len(deal.get("stock", [])) + (sum(layout.tableau.face_down) if card_schema else 0)
    assert backs == hidden
    assert sum(faces.values()) + backs == (len(layout.pack()) if card_schema else sum(map(len, deal.values())))
    assert not faces - _deal_names(deal)
    for stack, cards in deal.items():
        if stack.startswith(("reserve", "tableau")):
            fd = layout.tableau.face_down[int(stack.split(":")[1])] if stack.startswith("tableau") else 0
            assert stacks.get(stack, []) == cards[fd:], stack


@pytest.mark.parametrize(("name", "seed", "max_rank"), WON)
def test_replay_follows_the_solution_to_the_end(name: str, seed: int | None, max_rank: int | None) -> None:
    """Every step keeps every card, moves the card the move names, and the last step has
    every card on the foundations (or the hole), or the board's goal pegs."""
    result = _solve(name, seed, max_rank)
    assert result.verdict == "won"
    layout = result.drawn_layout
    all_steps = steps(layout, result.deal, result.solution or [])
    assert len(all_steps) == len(result.solution or []) + 1
    if name.startswith("english"):
        assert [len(s.table) for s in all_steps] == list(range(32, 0, -1))
        for step, move in zip(all_steps[1:], result.solution or []):
            assert step.moved == ((move["to"], 0),) and move["to"] in step.table and move["from"] not in step.table
        return
    total = len(layout.pack())
    for step, move in zip(all_steps[1:], result.solution or []):
        assert step.table.cards() == total
        stack, index = step.moved[0]
        assert step.table.stacks[stack][index] == move["card"], move
    last = all_steps[-1].table.stacks
    assert sum(len(cs) for s, cs in last.items() if s.startswith("foundation") or s == "hole") == total


@pytest.mark.parametrize(("name", "seed", "max_rank"), WON[::3])
def test_every_position_draws_its_cards(name: str, seed: int | None, max_rank: int | None) -> None:
    result = _solve(name, seed, max_rank)
    layout = result.drawn_layout
    all_steps = steps(layout, result.deal, result.solution or [])
    for k in range(0, len(all_steps), 7):
        svg = result.svg(move=k)
        if name.startswith("english"):
            assert len(re.findall(r'class="peg"', svg)) == len(all_steps[k].table)
            continue
        faces, backs, _ = _cards(svg)
        assert sum(faces.values()) + backs == len(layout.pack())
        assert svg.count('class="moved"') == (len(all_steps[k].moved) if k else 0)
        assert ('class="arrow"' in svg) == (k > 0)


def test_golden_pictures_stay_the_same() -> None:
    """The same input draws the same bytes; two pictures are kept to catch unintended changes."""
    debutante = api.load_layout("debutante")
    english = api.load_layout("english-33")
    start = english.deal_to_json(english.deal_from_seed())
    jumps = [{"card": "peg", "from": "d2", "to": "d4"}, {"card": "peg", "from": "f3", "to": "d3"}]
    english_steps = steps(english, start, jumps)
    pictures = {
        "debutante-2.svg": draw.deal_svg(debutante, api.make_deal(debutante, 2), title="debutante #2"),
        "english-33-two-jumps.svg": draw.position_svg(english, english_steps[2], english_steps[1].table,
                                                      title="english-33 after d2-d4, f3-d3"),
    }
    for file, svg in pictures.items():
        path = GOLDEN / file
        if os.environ.get("PATIENCE_UPDATE_GOLDEN"):
            path.write_text(svg, encoding="utf-8")
        assert svg == path.read_text(encoding="utf-8"), f"{file} changed; see this module's docstring"
    assert pictures["debutante-2.svg"] == api.deal("debutante", seed=2).svg().replace(
        "The debutante patience #2", "debutante #2")


def test_viewer_page_is_self_contained_and_repeatable() -> None:
    result = _solve("klondike", 1, 8)
    page = result.html()
    assert page == viewer_html(result, result.drawn_layout)
    n = len(result.solution or [])
    assert page.count('class="frame"') == n + 1
    assert page.count("<li data-k=") == n + 1
    assert f'max="{n}"' in page and f"0 / {n}" in page
    # Nothing is fetched: no URL at all, no external script, style, image or font.
    assert not re.search(r"https?:|//[a-z]|\bsrc=|@import|url\((?!#)", page)


def test_viewer_page_of_a_lost_result_shows_the_deal_and_the_verdict() -> None:
    result = _solve("klondike", 2, 8)
    assert result.verdict == "lost"
    page = result.html()
    assert page.count('class="frame"') == 1 and "<b class=\"lost\">lost</b>" in page
    assert '<div class="controls" hidden>' in page


def test_ground_modules_never_import_the_pictures() -> None:
    for module in ("cards", "errors", "result", "layout", "deal", "limits", "schema"):
        tree = ast.parse((ROOT / "solver" / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert "draw" not in (node.module or "") and all("draw" not in a.name for a in node.names), module
            elif isinstance(node, ast.Import):
                assert all("draw" not in a.name for a in node.names), module


# ------------------------------------------------------------------ command line


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_svg_prints_or_writes_the_same_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["deal", "klondike", "--seed", "1", "--svg"], capsys)
    assert code == 0 and out.startswith("<svg")
    target = tmp_path / "k.svg"
    assert _run(["deal", "klondike", "--seed", "1", "--svg", "--out", str(target)], capsys)[:2] == (0, "")
    assert target.read_text() == out
    assert os.listdir(tmp_path) == ["k.svg"]  # no temporary file left behind
    code, out, _ = _run(["deal", "english-33", "--svg", "--max-ranks", "3"], capsys)
    assert code == 2


def test_view_writes_a_page_for_any_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, seed, rank in [("golf", 4, None), ("klondike", 2, 8), ("english-33", None, None)]:
        result = _solve(name, seed, rank)
        src = tmp_path / f"{name}.json"
        src.write_text(json.dumps(result.to_json()))
        out = tmp_path / f"{name}.html"
        assert _run(["view", str(src), "--out", str(out)], capsys) == (0, "", "")
        assert out.read_text().startswith("<!DOCTYPE html>")


def _bad_results(tmp_path: Path) -> dict[str, Any]:
    good = _solve("debutante", 2, 5).to_json()
    illegal = json.loads(json.dumps(good))
    illegal["solution"][3]["to"] = "reserve:99"
    return {
        "malformed.json": '{"layout": "debutante",',
        "not-a-result.json": json.dumps([1, 2]),
        "unknown-layout.json": json.dumps({**good, "layout": "no-such-game"}),
        "bad-verdict.json": json.dumps({**good, "verdict": "maybe"}),
        "bad-deal.json": json.dumps({**good, "deal": {"stock": ["ZZ"]}}),
        "wrong-rank.json": json.dumps({**good, "max_rank": "five"}),
        "illegal-move.json": json.dumps(illegal),
        "no-solution.json": json.dumps({**good, "solution": None}),
    }


def test_view_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    for file, text in _bad_results(tmp_path).items():
        src = tmp_path / file
        src.write_text(text)
        out = tmp_path / "page.html"
        code, stdout, err = _run(["view", str(src), "--out", str(out)], capsys)
        assert code == 2 and stdout == "", file
        assert err.count("\n") == 1 and str(src) in err and "Traceback" not in err, err
        assert not out.exists(), file
    code, _, err = _run(["view", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "missing.json" in err


def test_an_unwritable_out_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "r.json"
    src.write_text(json.dumps(_solve("freecell", 1, 5).to_json()))
    for out in (tmp_path / "no-such-folder" / "x.html", tmp_path):
        code, stdout, err = _run(["view", str(src), "--out", str(out)], capsys)
        assert code == 2 and stdout == "" and err.count("\n") == 1 and str(out) in err
    assert sorted(os.listdir(tmp_path)) == ["r.json"]


def test_results_draw_themselves_and_load_back_the_same() -> None:
    result = _solve("colorado", 1, 5)
    assert isinstance(result, api.Result) and result._repr_svg_().startswith("<svg")
    assert f"won in {len(result.solution or [])} moves" in result._repr_svg_()
    again = api.load_result(json.loads(json.dumps(result.to_json())))
    assert again.to_json() == result.to_json() and again.html() == result.html()
    assert again.svg(move=10) == result.svg(move=10) != result.svg(move=11)
    assert api.solve(result.drawn_layout, deal=api.deal(result.drawn_layout, seed=1)).to_json()["solution"] \
        == result.solution
