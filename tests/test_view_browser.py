"""The viewer page in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, pointed at that executable (Playwright's own browser download is never used).

A page written by ``patience view`` is opened from a file, stepped to the end with the
keyboard; the counter must read "n / n", the last position must show every card on the
foundations (or the board's last peg in its goal hole), the other controls must move the
counter, and the page must log no error.  Skipped, with the reason, where Chromium or
Playwright is missing (``.ci/run`` installs both: ``apt-get install chromium``, the
``browser`` extra).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver import api
from solver.cli import main
from solver.limits import Limits

CHROMIUM = os.environ.get("PATIENCE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if os.environ.get("CI"):  # CI installs both: there a missing one is a failure, not a skip
    from playwright import sync_api
    assert CHROMIUM is not None, "CI must install Debian's chromium (see .ci/run)"
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip install '.[browser]')")
    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium (apt-get install chromium)", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport={"width": 1200, "height": 850})
        yield context
        context.close()


def _page(browser: Any, tmp_path: Path, name: str, seed: int | None, max_rank: int | None) -> tuple[Any, list[str],
                                                                                                 api.DrawableResult]:
    """Solve, write the result and its page with the command line, open the page."""
    result = api.solve(api.load_layout(name, max_rank), seed=seed, limits=Limits(timeout=60))
    src, html = tmp_path / "result.json", tmp_path / "page.html"
    src.write_text(json.dumps(result.to_json()))
    return (*_open(browser, src, html), result)


def _open(browser: Any, src: Path, html: Path) -> tuple[Any, list[str]]:
    """Write the page of ``src`` with the command line and open it; the errors it logs."""
    assert main(["view", str(src), "--out", str(html)]) == 0
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html.as_uri())
    return page, errors


def _stacks_shown(page: Any) -> list[str]:
    """The stack of each card in the position on screen."""
    return page.eval_on_selector_all(".frame.on use.card", "us => us.map(u => u.parentElement.dataset.stack)")


@pytest.mark.parametrize(("name", "seed", "max_rank"), [("debutante", 3, 4), ("klondike", 1, 8)])
def test_step_to_the_end_with_the_keyboard(browser: Any, tmp_path: Path, name: str, seed: int,
                                           max_rank: int) -> None:
    page, errors, result = _page(browser, tmp_path, name, seed, max_rank)
    n = len(result.solution or [])
    pack = len(result.drawn_layout.pack())
    assert page.inner_text("#counter") == f"0 / {n}"
    assert len(_stacks_shown(page)) == pack and not any(s.startswith("foundation") for s in _stacks_shown(page))
    for _ in range(n + 1):  # one more than needed: the last position stays
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#counter") == f"{n} / {n}"
    shown = _stacks_shown(page)
    assert len(shown) == pack and all(s.startswith("foundation") for s in shown)
    assert page.locator(".frame.on").count() == 1 and page.locator("#moves li.on").get_attribute("data-k") == str(n)
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#counter") == f"{n - 1} / {n}"
    page.keyboard.press("Home")
    assert page.inner_text("#counter") == f"0 / {n}" and page.is_disabled("#prev")
    page.keyboard.press("End")
    assert page.inner_text("#counter") == f"{n} / {n}" and page.is_disabled("#next")
    page.click("#moves li[data-k='3']")
    assert page.inner_text("#counter") == f"3 / {n}" and page.inner_text("#now").startswith("Move 3:")
    assert page.locator(".frame.on .moved").count() >= 1
    page.click("#prev")
    assert page.inner_text("#counter") == f"2 / {n}"
    page.locator("#slider").fill(str(n // 2))
    assert page.inner_text("#counter") == f"{n // 2} / {n}"
    assert errors == []
    page.close()


def test_peg_board_ends_with_its_last_peg(browser: Any, tmp_path: Path) -> None:
    page, errors, result = _page(browser, tmp_path, "english-33", None, None)
    n = len(result.solution or [])
    assert page.locator(".frame.on circle.peg").count() == 32
    for _ in range(n):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#counter") == f"{n} / {n}"
    pegs = page.locator(".frame.on circle.peg")
    assert pegs.count() == 1 and pegs.get_attribute("data-hole") == "d4"
    assert errors == []
    page.close()


def test_a_lost_result_shows_the_deal_and_its_verdict(browser: Any, tmp_path: Path) -> None:
    page, errors, result = _page(browser, tmp_path, "golf", 1, None)
    assert result.verdict == "lost"
    assert page.inner_text(".verdict").startswith("lost")
    assert not page.is_visible(".controls") and page.locator(".frame.on use.card").count() == 52
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#counter") == "0 / 0"
    assert errors == []
    page.close()


def test_an_analysis_opens_on_its_first_losing_move_and_steps_through_the_winning_line(browser: Any,
                                                                                      tmp_path: Path) -> None:
    layout = api.load_layout("debutante", 5)
    deal = api.make_deal(layout, seed=4)
    line = api.solve(layout, deal=deal).solution or []
    # the solver's line, then a card put where it buries another: lost at once (see test_analysis)
    game = None
    for k in range(len(line)):
        at = api.position_after(layout, deal, line[:k])
        for stack in (f"reserve:{i}" for i in range(layout.reserve.count)):
            move = {**line[k], "to": stack}
            if line[k]["from"] != "stock" or move == line[k]:
                continue
            try:
                after = api.position_after(layout, at, [move])
            except Exception:
                continue
            if api.solve(layout, deal=after, limits=Limits(max_nodes=20_000)).verdict == "lost":
                game = [*line[:k], move]
                break
        if game:
            break
    assert game is not None
    (tmp_path / "game.json").write_text(json.dumps(game))
    src, html = tmp_path / "a.json", tmp_path / "a.html"
    assert main(["analyse", "debutante", "--max-ranks", "5", "--seed", "4", "--moves", str(tmp_path / "game.json"),
                 "--json", "--out", str(src)]) == 1
    analysis = json.loads(src.read_text())
    first, at = analysis["first_losing_move"], analysis["winning_line_from"]
    assert first == len(game) - 1 and at == first
    page, errors = _open(browser, src, html)
    n = len(game)
    assert page.inner_text("#counter") == f"{first + 1} / {n}"
    assert page.locator("#moves li.on").get_attribute("class") == "lost losing on"
    assert "can no longer be won" in page.inner_text("#now")
    page.click("#swap")
    m = len(analysis["winning_line"])
    assert page.is_visible("#line") and not page.is_visible("#moves")
    assert page.inner_text("#counter") == f"0 / {m}"
    assert page.inner_text("#now").startswith(f"The position after move {at}")
    page.keyboard.press("End")
    shown = _stacks_shown(page)
    assert page.inner_text("#counter") == f"{m} / {m}" and shown and all(s.startswith("foundation") for s in shown)
    page.click("#swap")
    assert page.is_visible("#moves") and page.inner_text("#counter") == f"{at} / {n}"
    assert errors == []
    page.close()
