"""``patience play``'s server, through HTTP: its answers, its refusals, and verdicts that always
belong to the position asked (``solver/play.py``, ``docs/play.md``).  The page itself, in a browser:
``tests/test_play_browser.py``."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from solver import api
from solver.cli import main
from solver.families import family_of
from solver.play import Server, Session, code_of, make_server
from solver.result import EngineRun


def _serve(session: Session) -> Server:
    server = make_server(session, 0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


@pytest.fixture
def klondike() -> Iterator[tuple[Server, Session]]:
    layout = api.load_layout("klondike-draw-1", 8)
    session = Session(layout, api.make_deal(layout, seed=4), seed=4, timeout=5)
    server = _serve(session)
    yield server, session
    server.shutdown()
    server.server_close()
    session.close()


def request(server: Server, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
            host: str | None = None) -> tuple[int, Any]:
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    sent = {"Host": host or f"127.0.0.1:{port}"}
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    conn.request(method, path, body=data, headers=sent)
    r = conn.getresponse()
    raw = r.read()
    conn.close()
    kind = r.getheader("Content-Type", "")
    return r.status, json.loads(raw) if kind.startswith("application/json") else raw.decode()


def test_the_page_and_a_position(klondike: tuple[Server, Session]) -> None:
    server, _ = klondike
    status, page = request(server, "GET", "/")
    assert status == 200 and 'id="verdict"' in page and "http" not in page.split("<body>")[1].replace(
        "http://www.w3.org", "")  # nothing loaded from elsewhere
    status, pos = request(server, "POST", "/api/position", {"moves": []})
    assert status == 200 and pos["moves"] == [] and pos["id"].startswith("0-")
    assert pos["verdict"]["id"] == pos["id"] and 'data-stack="tableau:0"' in pos["svg"]
    assert 'data-card="' in pos["svg"]


@pytest.mark.parametrize(("body", "status", "words"), [
    (b"{not json", 400, "not JSON"),
    ([1, 2], 400, "JSON object"),
    ({}, 400, "moves: missing"),
    ({"moves": "stock-nowhere"}, 400, "moves"),
    ({"moves": "stock-tableau*50"}, 400, "moves: move 1"),  # a row dealt in a game without one
    ({"moves": "tableau:0-foundation:0*x"}, 400, "FROM-TO*COUNT"),
    ({"moves": [{"card": "KS", "from": "tableau:0", "to": "foundation:0"}]}, 400, "moves[0]"),
    ({"moves": [{"from": 3}]}, 400, "moves[0]"),
    ({"moves": [], "click": {"from": "nowhere", "index": 0, "to": "waste"}}, 400, "click: from"),
    ({"moves": [], "click": {"from": "tableau:0", "index": 99, "to": "waste"}}, 400, "click: index"),
    ({"moves": [], "move": "AS"}, 400, "move"),
])
def test_bad_requests_get_a_4xx_with_a_reason(klondike: tuple[Server, Session], body: Any, status: int,
                                               words: str) -> None:
    server, _ = klondike
    path = "/api/move" if isinstance(body, dict) and ("click" in body or "move" in body) else "/api/position"
    got, answer = request(server, "POST", path, body)
    assert got == status and words in answer["error"] and "Traceback" not in answer["error"]


def test_other_requests_are_refused(klondike: tuple[Server, Session]) -> None:
    server, _ = klondike
    port = server.server_address[1]
    assert request(server, "GET", "/etc/passwd")[0] == 404
    assert request(server, "POST", "/api/nothing", {"moves": []})[0] == 404
    assert request(server, "PUT", "/api/position", {"moves": []})[0] == 405
    assert request(server, "POST", "/api/position", b"moves=[]", {"Content-Type": "text/plain"})[0] == 415
    assert request(server, "POST", "/api/save", {"moves": []})[0] == 404  # no --save: no file is written
    for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", "null"):
        status, answer = request(server, "POST", "/api/position", {"moves": []}, {"Origin": origin})
        assert status == 403 and "another origin" in answer["error"]
    status, answer = request(server, "GET", "/", host=f"evil.example:{port}")  # a name rebound to 127.0.0.1
    assert status == 403 and "Host" in answer["error"]
    assert request(server, "POST", "/api/position", {"moves": []}, {"Sec-Fetch-Site": "cross-site"})[0] == 403
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        assert request(server, "POST", "/api/position", {"moves": []}, {"Origin": origin})[0] == 200


def test_moves_undo_and_the_url(klondike: tuple[Server, Session]) -> None:
    server, _ = klondike
    status, answer = request(server, "POST", "/api/undo", {"moves": []})
    assert status == 409 and "nothing to undo" in answer["error"]
    status, r = request(server, "POST", "/api/move", {"moves": [], "click": {"from": "stock", "index": 0, "to": None}})
    assert status == 200 and r["ok"] and r["move"]["from"] == "stock" and r["move"]["to"] == "waste"
    played = r["position"]["moves"]
    assert played == [r["move"]] and r["position"]["code"] == "stock-waste"
    status, again = request(server, "POST", "/api/position", {"moves": r["position"]["code"]})
    assert status == 200 and again["moves"] == played and again["id"] == r["position"]["id"]
    status, back = request(server, "POST", "/api/undo", {"moves": played})
    assert status == 200 and back["undone"] == played[0] and back["position"]["moves"] == []
    # an illegal move: refused with the referee's reason, nothing played
    status, r = request(server, "POST", "/api/move", {"moves": [], "move": {"card": "7C", "from": "waste",
                                                                             "to": "tableau:0"}})
    assert status == 200 and r["ok"] is False and r["reason"]


def test_save_writes_the_file_named_and_analyse_reads_it(tmp_path: Any) -> None:
    layout = api.load_layout("freecell")
    deal = api.make_deal(layout, seed=1)
    line = (api.hint(layout, deal=deal).line or [])[:5]
    target = tmp_path / "game.json"
    session = Session(layout, deal, seed=1, timeout=5, save=str(target))
    server = _serve(session)
    try:
        status, answer = request(server, "POST", "/api/save", {"moves": line})
        assert status == 200 and str(target) in answer["saved"]
        assert api.read_moves(str(target)) == line
        assert main(["analyse", "freecell", "--seed", "1", "--moves", str(target)]) == 0
    finally:
        server.shutdown()
        server.server_close()
        session.close()


def _referee_moves(session: Session, played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves after ``played`` the referee accepts: the search position's, as the contract names them
    (some of which are several moves joined, which the referee refuses as one)."""
    layout = session.layout
    family = family_of(layout)
    at = family.position_after(layout, session.start, played)
    pos = family.start_position(layout, at)
    out = []
    for m in (pos.move_json(x) for x in pos.legal_moves()):
        if m is not None and family.referee(layout, at).play(m) is None:
            out.append(m)
    return out


def test_the_verdict_follows_the_search_and_names_the_losing_move(klondike: tuple[Server, Session]) -> None:
    server, session = klondike
    status, v = request(server, "POST", "/api/verdict", {"moves": [], "wait": 5})
    assert status == 200 and v["verdict"] == "won" and v["line"]
    line = v["line"]
    problem = family_of(session.layout).replay(session.layout, session.start, line)
    assert problem is None  # a won verdict's line wins from the position
    # the line's positions are known at once
    status, pos = request(server, "POST", "/api/position", {"moves": line[:3]})
    assert pos["verdict"]["verdict"] == "won" and pos["verdict"]["id"] == pos["id"]
    # a move that loses: find one among the legal moves after a few moves of the line
    for k in range(len(line)):
        for m in _referee_moves(session, line[:k]):
            hint = api.hint(session.layout, deal=session.start, moves=line[:k] + [m])
            if hint.verdict == "lost":
                played = line[:k] + [m]
                status, v = request(server, "POST", "/api/verdict", {"moves": played, "wait": 5})
                while v["verdict"] == "searching" or v.get("losing", {}).get("searching"):
                    status, v = request(server, "POST", "/api/verdict", {"moves": played, "wait": 5})
                assert v["verdict"] == "lost" and v["losing"] == {"index": k, "move": m}
                return
    pytest.skip("no losing move along this line")  # pragma: no cover


def test_a_deal_lost_from_the_start() -> None:
    layout = api.load_layout("black-hole")
    assert api.solve(layout, seed=1, engine="dfs").verdict == "lost"
    session = Session(layout, api.make_deal(layout, seed=1), seed=1, timeout=5)
    server = _serve(session)
    try:
        status, v = request(server, "POST", "/api/verdict", {"moves": [], "wait": 5})
        assert status == 200 and v["verdict"] == "lost" and v["losing"] == {"from_start": True}
    finally:
        server.shutdown()
        server.server_close()
        session.close()


class _Slow:
    """A search that reports progress until released, then answers by the position's move count."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started: list[int] = []
        self.stopped: list[int] = []

    def __call__(self, layout: Any, position: Any, limits: Any, **options: Any) -> EngineRun:
        n = position.moves if hasattr(position, "moves") else -1
        self.started.append(n)
        try:
            while not self.release.is_set():
                options["progress"]({"seconds": 0.0, "nodes": 0})
                time.sleep(0.01)
        except BaseException:
            self.stopped.append(n)
            raise
        return EngineRun("unknown", reason=f"searched the position after {len(self.started)} starts, n={n}")


def test_a_verdict_is_never_for_another_position() -> None:
    layout = api.load_layout("klondike-draw-1", 8)
    slow = _Slow()
    session = Session(layout, api.make_deal(layout, seed=4), seed=4, timeout=5, search=slow)
    server = _serve(session)
    try:
        _, first = request(server, "POST", "/api/position", {"moves": []})
        _, r = request(server, "POST", "/api/move", {"moves": [], "click": {"from": "stock", "index": 0, "to": None}})
        second = r["position"]
        assert first["verdict"]["verdict"] == second["verdict"]["verdict"] == "searching"
        deadline = time.monotonic() + 5
        while not slow.stopped and time.monotonic() < deadline:
            time.sleep(0.01)
        assert slow.stopped, "the search of the first position was not stopped by the move"
        slow.release.set()
        _, v2 = request(server, "POST", "/api/verdict", {"moves": second["moves"], "wait": 5})
        assert v2["id"] == second["id"] and v2["verdict"] == "unknown"
        _, v1 = request(server, "POST", "/api/verdict", {"moves": [], "wait": 5})  # searched again, not v2's
        assert v1["id"] == first["id"] and v1["verdict"] == "unknown" and v1["reason"] != v2["reason"]
    finally:
        server.shutdown()
        server.server_close()
        session.close()


def test_a_closed_tab_and_a_second_tab() -> None:
    """A verdict request whose tab closes while it waits costs the server nothing; a second tab's
    game gets its own verdict while the first's search runs, once that search ends."""
    layout = api.load_layout("klondike-draw-1", 8)
    slow = _Slow()
    session = Session(layout, api.make_deal(layout, seed=4), seed=4, timeout=5, search=slow)
    server = _serve(session)
    try:
        port = server.server_address[1]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/api/verdict", json.dumps({"moves": [], "wait": 3}),
                     {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
        conn.sock.close()  # the tab is closed while its request waits
        _, r = request(server, "POST", "/api/move", {"moves": [], "click": {"from": "stock", "index": 0, "to": None}})
        other = r["position"]
        _, waiting = request(server, "POST", "/api/verdict", {"moves": [], "wait": 0.2})  # the first tab asks again
        assert waiting["verdict"] == "searching" and waiting["id"] != other["id"]
        slow.release.set()
        _, v = request(server, "POST", "/api/verdict", {"moves": other["moves"], "wait": 5})
        assert v["id"] == other["id"] and v["verdict"] == "unknown"
        _, v = request(server, "POST", "/api/verdict", {"moves": [], "wait": 5})
        assert v["id"].startswith("0-") and v["verdict"] == "unknown"
    finally:
        server.shutdown()
        server.server_close()
        session.close()


def test_the_url_code_reads_back() -> None:
    layout = api.load_layout("freecell")
    deal = api.make_deal(layout, seed=1)
    line = api.hint(layout, deal=deal).line or []
    session = Session(layout, deal, seed=1, timeout=1)
    try:
        assert session.replayed(code_of(line)).moves == line
    finally:
        session.close()


@pytest.mark.parametrize("args", [["play", "english-33"], ["play", "blackjack", "--seed", "1"],
                                  ["play", "freecell", "--seed", "1", "--port", "70000"]])
def test_the_command_refuses_what_it_cannot_play(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code: object
    try:
        code = main(args + ["--no-browser"])
    except SystemExit as e:  # argparse's refusal of an option
        code = e.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("patience: error:") and "\n" not in err
