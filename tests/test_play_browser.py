"""``patience play``'s page in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, as ``tests/test_view_browser.py`` drives the viewer.

A small won deal is loaded, moved by clicks and by a drag, its verdict followed, a move taken back
and played again, a hint shown on the cards, a losing move played and its verdict read and
stepped back from, and the game finished to a won table; a deal lost from the start says so at
once.  Skipped, with the reason, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver import api
from solver.families import family_of
from solver.play import Server, Session, code_of, make_server, url_of

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

TIMEOUT = 20_000  # ms: the longest wait for a verdict (the deals are decided in milliseconds)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport={"width": 1300, "height": 900})
        yield context
        context.close()


def _served(name: str, seed: int, max_rank: int | None) -> tuple[Server, Session]:
    layout = api.load_layout(name, max_rank)
    session = Session(layout, api.make_deal(layout, seed=seed), seed=seed, timeout=10, step_ms=20)
    server = make_server(session, 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, session


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[tuple[Server, Session]]:
    server, session = _served(*request.param)
    yield server, session
    server.shutdown()
    server.server_close()
    session.close()


def _open(browser: Any, url: str) -> tuple[Any, list[str]]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def _decided(page: Any, moves: int) -> str:
    """Wait for the verdict of the position after ``moves`` moves; return it."""
    page.wait_for_function(
        "n => document.body.dataset.moves === String(n) && document.getElementById('verdict').dataset.id === "
        "document.body.dataset.id && document.getElementById('verdict').dataset.verdict !== 'searching'",
        arg=moves, timeout=TIMEOUT)
    return str(page.get_attribute("#verdict", "data-verdict"))


def _click_move(page: Any, move: dict[str, Any]) -> None:
    """Play ``move`` as a player does: its card (the lowest of those moved), then its stack."""
    if move["from"] == "stock":
        page.locator('[data-stack="stock"]').click(position={"x": 10, "y": 10})
        return
    page.locator(f'[data-stack="{move["from"]}"] use[data-card="{move["card"]}"]').click(position={"x": 8, "y": 6})
    page.locator(f'[data-stack="{move["to"]}"]').click(position={"x": 6, "y": 6})


def _legal(session: Session, played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    layout, family = session.layout, family_of(session.layout)
    at = family.position_after(layout, session.start, played)
    pos = family.start_position(layout, at)
    return [m for m in (pos.move_json(x) for x in pos.legal_moves())
            if m is not None and family.referee(layout, at).play(m) is None]


@pytest.mark.parametrize("served", [("klondike-draw-1", 4, 8)], indirect=True)
def test_play_a_game(browser: Any, served: tuple[Server, Session]) -> None:
    server, session = served
    page, errors = _open(browser, url_of(server))
    assert _decided(page, 0) == "won"
    assert page.locator("[data-stack] use[data-card]").count() > 0
    assert page.locator('[data-stack="tableau:0"]').count() == 1 and page.locator('[data-stack="foundation:0"]').count()
    line = api.hint(session.layout, deal=session.start).line or []
    # the hint: the next move of a winning line, marked on its cards and its stack
    page.click("#hint")
    page.wait_for_selector("#board use.card.hint", timeout=TIMEOUT)
    hinted = page.evaluate("() => { var u = document.querySelector('#board use.card.hint'); "
                           "return [u.parentNode.dataset.stack, u.dataset.card || ''] }")
    assert page.locator("#board .stack.hint-to").count() == 1 and "hint:" in page.inner_text("#hint-text")
    # play the first move of the line by clicks, then by the hint's own stack
    first = line[0]
    _click_move(page, first)
    assert _decided(page, 1) == "won"
    assert hinted[0] == first["from"] or hinted[0] == "stock"
    # an illegal move: refused with the referee's reason, nothing played
    family = family_of(session.layout)
    at = family.position_after(session.layout, session.start, [first])
    tops = {s: cs[-1] for s, cs in family.referee(session.layout, at).stacks().items()
            if s.startswith("tableau:") and cs}
    wrong, reason = next((m, r) for m in ({"card": c, "from": s, "to": t} for s, c in tops.items() for t in tops
                                          if t != s)
                         if (r := family.referee(session.layout, at).play(m)) is not None)
    _click_move(page, wrong)
    page.wait_for_function("() => document.getElementById('message').textContent !== ''", timeout=TIMEOUT)
    assert page.inner_text("#message") in reason and page.get_attribute("body", "data-moves") == "1"
    # undo and redo, by the buttons and the keys
    page.click("#undo")
    assert _decided(page, 0) == "won" and page.is_disabled("#undo")
    page.keyboard.press("ArrowLeft")  # past the start: nothing happens, no error
    page.keyboard.press("ArrowRight")
    assert _decided(page, 1) == "won"
    # a losing move, found by the search beside the test; the page names it and steps back before it
    played = [first]
    losing = None
    for k in range(1, min(len(line), 12)):
        for m in _legal(session, line[:k]):
            if m["from"] != "stock" and api.hint(session.layout, deal=session.start, moves=line[:k] + [m]).verdict \
                    == "lost":
                losing, played = m, line[:k]
                break
        if losing:
            break
    assert losing is not None, "no losing move found to play"
    for j, m in enumerate(played[1:], 2):
        _click_move(page, m)
        _decided(page, j)
    _click_move(page, losing)
    assert _decided(page, len(played) + 1) == "lost"
    page.wait_for_selector("#verdict #back", timeout=TIMEOUT)
    assert f"{len(played) + 1}." in page.inner_text("#verdict")
    page.click("#verdict #back")
    assert _decided(page, len(played)) == "won"
    # rapid keys: every press is played in order, and the verdict shown is the last position's
    for key in ["ArrowLeft"] * 3 + ["ArrowRight"] * 2 + ["ArrowLeft", "ArrowRight", "ArrowRight"]:
        page.keyboard.press(key)
    assert _decided(page, len(played)) == "won"
    # finish: the winning line played to the end, every card on a foundation
    page.click("#finish")
    page.wait_for_function("() => document.querySelectorAll('#board use.card').length > 0 && "
                           "Array.from(document.querySelectorAll('#board use.card')).every("
                           "u => u.parentNode.dataset.stack.startsWith('foundation'))", timeout=60_000)
    assert "won" in page.inner_text("#verdict")
    assert "?moves=" in page.url
    # the URL reopens the same game
    again, more_errors = _open(browser, page.url)
    n = int(page.evaluate("() => document.body.dataset.moves"))
    assert _decided(again, n) == "won"
    assert errors == [] and more_errors == []
    page.close()
    again.close()


@pytest.mark.parametrize("served", [("klondike-draw-1", 32005, None)], indirect=True)
def test_the_issues_scenario_on_klondike_32005(browser: Any, served: tuple[Server, Session]) -> None:
    """PySolFC's Klondike #32005 as a player meets it: after 107 moves (``tests/golden/``, the
    shortest line to a losing move that random play found) the page says won; the losing move,
    played by clicks, turns the verdict to lost with the move named; one click steps back before
    it, a hint shows the next move, and finish plays the game out to a won table."""
    server, session = served
    line = json.loads((Path(__file__).parent / "golden" / "klondike-draw-1-32005-losing.json").read_text())
    before, losing = line[:-1], line[-1]
    page, errors = _open(browser, url_of(server) + "?moves=" + code_of(before))
    assert _decided(page, len(before)) == "won"
    _click_move(page, losing)
    assert _decided(page, len(line)) == "lost"
    page.wait_for_selector("#verdict #back", timeout=TIMEOUT)
    assert f"{len(line)}." in page.inner_text("#verdict")
    page.click("#verdict #back")
    assert _decided(page, len(before)) == "won"
    page.click("#hint")
    page.wait_for_selector("#board use.card.hint", timeout=TIMEOUT)
    page.click("#finish")
    page.wait_for_function("() => document.querySelectorAll('#board use.card').length === 52 && "
                           "Array.from(document.querySelectorAll('#board use.card')).every("
                           "u => u.parentNode.dataset.stack.startsWith('foundation'))", timeout=60_000)
    assert "won" in page.inner_text("#verdict")
    assert errors == []
    page.close()


@pytest.mark.parametrize("served", [("freecell", 1, None)], indirect=True)
def test_drag_and_drop(browser: Any, served: tuple[Server, Session]) -> None:
    server, session = served
    page, errors = _open(browser, url_of(server))
    _decided(page, 0)
    move = next(m for m in _legal(session, []) if m["to"].startswith("cell:"))
    card = page.locator(f'[data-stack="{move["from"]}"] use[data-card="{move["card"]}"]').bounding_box()
    cell = page.locator(f'[data-stack="{move["to"]}"]').bounding_box()
    page.mouse.move(card["x"] + 10, card["y"] + 10)
    page.mouse.down()
    page.mouse.move(card["x"] + 40, card["y"] + 20, steps=4)
    page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2, steps=8)
    page.mouse.up()
    _decided(page, 1)
    assert page.locator(f'[data-stack="{move["to"]}"] use[data-card="{move["card"]}"]').count() == 1
    # a second tab on the same server plays its own game; the first keeps its own
    second, more_errors = _open(browser, url_of(server))
    assert _decided(second, 0) == "won"
    _click_move(second, move)
    _click_move(second, next(m for m in _legal(session, [move]) if m["to"].startswith("cell:")))
    assert _decided(second, 2) == "won"
    page.keyboard.press("ArrowLeft")
    assert _decided(page, 0) == "won" and second.get_attribute("body", "data-moves") == "2"
    assert errors == [] and more_errors == []
    second.close()
    page.close()


@pytest.mark.parametrize("served", [("black-hole", 1, None)], indirect=True)
def test_a_deal_lost_from_the_start_says_so_at_once(browser: Any, served: tuple[Server, Session]) -> None:
    server, _ = served
    page, errors = _open(browser, url_of(server))
    assert _decided(page, 0) == "lost"
    assert "lost from the start" in page.inner_text("#verdict")
    assert errors == []
    page.close()
