"""``patience play``'s server: one deal on a local page, the referee judging each move and a search
beside the player.

The server keeps no game of its own: the page holds the moves played and sends them with every
request; the server replays them through the referee (an illegal one is a 400 naming it), so two
tabs, a reload or a URL with ``?moves=`` each show the game they name.  What the server keeps is
what the searches learned, by the referee's ``state`` of each position (so a position reached by
another order of moves is known too):

- ``won``: a position on a winning line a search found (the line replayed by the referee first),
  with the rest of the line: a move along the hint's line is decided at once;
- ``lost``: a position a search proved lost, or one after a lost position in a game played;
- ``unknown``: a search stopped by the time limit (searched again only by a restart).

After every move the page asks for the verdict of the new position; a search of it starts in a
background thread and supersedes the one running (which stops at its next progress report, a
few hundredths of a second later).  A verdict is answered for the moves asked, tagged with their
``id``, so the page never shows a verdict for another position.  On ``lost`` the same job finds
the first losing move of the game so far: from the verdicts known along the game (each position
before a won one is won, each after a lost one lost), the gap between the last won and the first
lost position is bisected by searches, as ``solver.analysis`` does.

Requests: ``GET /`` the page; ``POST /api/position``, ``/api/move``, ``/api/undo``,
``/api/verdict``, ``/api/save`` with a JSON object (``docs/play.md``).  Only requests whose Host is
``127.0.0.1:PORT`` or ``localhost:PORT`` and whose Origin (when sent) is the same are answered: a
page from elsewhere cannot drive the server, and a name rebound to 127.0.0.1 cannot read it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from . import api, moves
from .draw import play_page
from .draw.replay import Table, is_spread, play, start, steps
from .engines.dfs import run_dfs
from .errors import InputError, PatienceError, UnsupportedError, VerificationFailed
from .families import AnyLayout, family_of
from .files import json_text
from .limits import Limits

SEARCH_SECONDS = 10.0  # each search's time limit: past it the verdict is unknown
SEARCH_MEMORY = 512 << 20  # each search's table
PROGRESS_EVERY = 0.02  # seconds between a search's checks for a newer request
BODY_LIMIT = 1 << 20  # the largest request body read
MAX_MOVES = 20_000  # the most moves a request may name
MAX_WAIT = 5.0  # the longest a verdict request waits for a change
STEP_MS = 220  # the pause between the moves `finish` plays


class BadRequest(Exception):
    """A request the server refuses: its status and the reason, sent as JSON."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status


class _Superseded(Exception):
    """Raised in a search's progress report when a newer request replaced it."""


def check_playable(layout: AnyLayout) -> None:
    """Refuse, in one line, a layout the page cannot play: peg boards and the games of chance."""
    family = family_of(layout)
    if not family.drawn:
        raise UnsupportedError(f"layout {layout.name!r}: a game of chance has no table to play on; "
                               "`patience odds` decides its strategy")
    if family.picture == "pegs":
        raise UnsupportedError(f"layout {layout.name!r}: a peg board is not played on this page (it plays cards); "
                               "`patience solve` and `patience view` show its solution")


@dataclass
class Replayed:
    """The game a request names: its moves, the referee after them and the state of every
    position from the start on."""

    moves: list[dict[str, Any]]
    game: Any  # the referee after the moves
    states: list[Hashable]
    positions: list[Any]
    id: str

    @property
    def n(self) -> int:
        return len(self.moves)


@dataclass
class Known:
    """What the searches learned, by referee state."""

    won: dict[Hashable, list[dict[str, Any]]] = field(default_factory=dict)  # state -> the rest of a winning line
    lost: dict[Hashable, str | None] = field(default_factory=dict)  # state -> why (None: a complete search)
    unknown: dict[Hashable, str | None] = field(default_factory=dict)  # state -> the limit that stopped it
    seconds: dict[Hashable, float] = field(default_factory=dict)  # state -> the search's time


class Session:
    """One deal, the searches' knowledge and the background search (thread-safe)."""

    def __init__(self, layout: AnyLayout, start_at: Any, *, seed: int | None = None, timeout: float = SEARCH_SECONDS,
                 core: str = "auto", save: str | None = None, start_args: str = "",
                 search: Callable[..., Any] = run_dfs, step_ms: int = STEP_MS):
        check_playable(layout)
        self.layout, self.start, self.seed = layout, start_at, seed
        self.family = family_of(layout)
        game = self.family.referee(layout, start_at)
        if game.problem:
            raise InputError(f"the start: {game.problem}")
        self.start_json = self.family.start_to_json(layout, start_at)
        self.shown: dict[str, Any] = self.start_json.get("position") or self.start_json["deal"]
        self.start_table: Table = start(layout, self.shown)
        self.timeout, self.core, self.save_path, self.start_args = timeout, core, save, start_args
        self.search_fn, self.step_ms = search, step_ms
        self.known = Known()
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.cache: OrderedDict[str, Replayed] = OrderedDict()
        self.job: Replayed | None = None  # the game whose last position is being searched
        self.generation = 0
        self.wake = threading.Event()
        self.closed = False
        self.worker = threading.Thread(target=self._work, name="patience-play-search", daemon=True)
        self.worker.start()
        self.nonce = secrets.token_urlsafe(16)

    # ---------------------------------------------------------------- games

    def replayed(self, raw: Any) -> Replayed:
        """The game of a request's ``moves``: a list of moves, or the compact text of a URL."""
        if isinstance(raw, str):
            return self._from_code(raw)
        if not isinstance(raw, list):
            raise BadRequest(400, "moves: expected a list of moves, or the text of a ?moves= URL")
        if len(raw) > MAX_MOVES:
            raise BadRequest(400, f"moves: at most {MAX_MOVES} moves, got {len(raw)}")
        try:
            checked = api.moves_from_json(raw, "moves")
        except InputError as e:
            raise BadRequest(400, str(e)) from None
        key = json.dumps(checked, sort_keys=True, separators=(",", ":"))
        with self.lock:
            hit = self.cache.get(key)
            if hit is not None:
                self.cache.move_to_end(key)
                return hit
        game = self.family.referee(self.layout, self.start)
        states, positions = [game.state()], [game.position()]
        for i, m in enumerate(checked):
            problem = game.play(m)
            if problem:
                raise BadRequest(400, f"moves[{i}]: {problem}")
            states.append(game.state())
            positions.append(game.position())
        digest = hashlib.sha1(key.encode()).hexdigest()[:12]
        found = Replayed([dict(m) for m in checked], game, states, positions, f"{len(checked)}-{digest}")
        with self.lock:
            self.cache[key] = found
            while len(self.cache) > 64:
                self.cache.popitem(last=False)
        return found

    def _from_code(self, code: str) -> Replayed:
        """The moves of a URL's ``?moves=``: ``FROM-TO`` or ``FROM-TO*COUNT``, comma-separated (the card
        is the one the position gives)."""
        if len(code) > 40 * MAX_MOVES:
            raise BadRequest(400, "moves: too long")
        played: list[dict[str, Any]] = []
        now = self.start_table
        game = self.family.referee(self.layout, self.start)
        for i, token in enumerate(t for t in code.split(",") if t):
            src, _, rest = token.partition("-")
            dst, _, count_text = rest.partition("*")
            if not src or not dst or (count_text and not (count_text.isdigit() and len(count_text) < 4)):
                raise BadRequest(400, f"moves: move {i + 1} {token[:40]!r}: expected FROM-TO or FROM-TO*COUNT")
            count = int(count_text) if count_text else 1
            move = contract_move(self.layout, now, src, dst, count)
            if move is None:
                raise BadRequest(400, f"moves: move {i + 1} {token[:40]!r}: no such stack or too few cards")
            problem = game.play(move)  # the referee first: the pictures' replay checks nothing
            if problem:
                raise BadRequest(400, f"moves: move {i + 1} {token[:40]!r}: {_plain(problem)}")
            played.append(move)
            now = play(self.layout, now, move).table
        return self.replayed(played)

    def position(self, r: Replayed) -> dict[str, Any]:
        """What the page draws: the table after the moves, marked with the last move."""
        walk = steps(self.layout, self.shown, r.moves)
        now, before = walk[-1], walk[-2].table if len(walk) > 1 else None
        drawn = play_page.board(self.layout, self.start_table, now, before)
        return {"id": r.id, "moves": r.moves, "code": code_of(r.moves), "won": r.game.won(), "svg": drawn.markup,
                "viewBox": drawn.view_box, "verdict": self.verdict(r, start_search=True)}

    # ---------------------------------------------------------------- moves

    def move(self, r: Replayed, body: dict[str, Any]) -> dict[str, Any]:
        """A move asked by the page: a move of the contract (``move``) or a click (``click``:
        ``from``, ``index``, ``to``, None for the stock's own action, ``"auto"`` for a foundation)."""
        if "move" in body:
            try:
                tried = api.moves_from_json([body["move"]], "move")
            except InputError as e:
                raise BadRequest(400, str(e).replace("move[0]", "move")) from None
        elif isinstance(body.get("click"), dict):
            tried = self._candidates(r, body["click"])
        else:
            raise BadRequest(400, "expected {\"moves\": [...], \"move\": {...}} or {\"moves\": [...], \"click\": "
                                  "{\"from\", \"index\", \"to\"}}")
        reason = "no move of those cards goes there"
        for k, m in enumerate(tried):
            game = r.game.copy()
            problem = game.play(m)
            if problem is None:
                after = self.replayed(r.moves + [m])
                return {"ok": True, "move": m, "position": self.position(after)}
            if k == 0:
                reason = problem
        return {"ok": False, "reason": _plain(reason)}

    def _candidates(self, r: Replayed, click: dict[str, Any]) -> list[dict[str, Any]]:
        """The moves a click may mean, the likeliest first: the clicked card and those above it
        onto the stack clicked; then the other foundations (or cells) for one of them."""
        src, dst, index = click.get("from"), click.get("to"), click.get("index", 0)
        table = steps(self.layout, self.shown, r.moves)[-1].table
        if not isinstance(src, str) or src not in table.stacks:
            raise BadRequest(400, f"click: from: expected a stack of the table, got {json_text(src, 40)}")
        if not (dst is None or isinstance(dst, str)) or (isinstance(dst, str) and dst not in table.stacks
                                                         and dst != "auto"):
            raise BadRequest(400, f"click: to: expected a stack of the table, \"auto\" or null, "
                                  f"got {json_text(dst, 40)}")
        if type(index) is not int or not 0 <= index < max(len(table.stacks[src]), 1):
            raise BadRequest(400, f"click: index: expected a card's place in {src}, got {json_text(index, 40)}")
        pile = table.stacks[src]
        if dst is None:
            return stock_moves(self.layout, table) if src == "stock" else []
        if not pile:
            return []
        picture = family_of(self.layout).picture  # how the family's table is drawn: its piles' shapes
        whole = picture == "row"  # a row of piles (Accordion): a pile moves whole
        fans = src.startswith("tableau:") or (src.startswith("reserve:") and picture == "reserve")
        count = len(pile) if whole else 1 if _front(self.layout, src) or not fans else len(pile) - index
        if dst == "auto":
            targets = [s for s in table.stacks if s.startswith("foundation:")] or \
                      [s for s in table.stacks if s == "hole"]
        else:
            targets = [dst]
            for kind in ("foundation:", "cell:"):
                if dst.startswith(kind):
                    targets += [s for s in table.stacks if s.startswith(kind) and s != dst]
        out = []
        for t in targets:
            m = contract_move(self.layout, table, src, t, count)
            if m is not None:
                out.append(m)
        return out

    def undo(self, r: Replayed) -> dict[str, Any]:
        if not r.moves:
            raise BadRequest(409, "nothing to undo: the game is at its start")
        before = self.replayed(r.moves[:-1])
        return {"undone": r.moves[-1], "position": self.position(before)}

    def save(self, r: Replayed) -> dict[str, Any]:
        if self.save_path is None:
            raise BadRequest(404, "no file to save to: start `patience play` with --save FILE, or use the download")
        try:
            Path(self.save_path).write_text(json.dumps(r.moves, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise BadRequest(500, f"cannot write {self.save_path}: {e.strerror or e}") from None
        return {"saved": f"{len(r.moves)} moves saved to {self.save_path}"}

    # ---------------------------------------------------------------- verdicts

    def verdict(self, r: Replayed, start_search: bool = False, wait: float = 0.0) -> dict[str, Any]:
        """The verdict of the position after ``r``'s moves, tagged with its ``id``: known, or
        ``searching`` (a search started when ``start_search``, else when no search runs); with
        ``wait``, up to that many seconds for it to change."""
        deadline = time.monotonic() + min(max(wait, 0.0), MAX_WAIT)
        with self.changed:
            while True:
                found = self._known(r)
                if found is not None and not (found["verdict"] == "lost" and found["losing"].get("searching")):
                    return found
                # still to decide, or its losing move to find: a move takes the search over at once;
                # a page asking again (another tab, say) waits for the search running to end
                if start_search or self.job is None:
                    self._ask(r)
                    start_search = False
                left = deadline - time.monotonic()
                if left <= 0:
                    return found or {"id": r.id, "moves": r.n, "verdict": "searching"}
                self.changed.wait(left)

    def _ask(self, r: Replayed) -> None:
        """Make ``r`` the job (the lock held): the search running stops at its next report."""
        if self.job is not None and self.job.id == r.id:
            return
        self.job = r
        self.generation += 1
        self.wake.set()

    def _known(self, r: Replayed) -> dict[str, Any] | None:
        """The verdict the knowledge gives (the lock held), or None."""
        k = self.known
        s = r.states[-1]
        out: dict[str, Any] = {"id": r.id, "moves": r.n}
        if r.game.won():
            return {**out, "verdict": "won", "line": [], "reason": None}
        if s in k.won:
            return {**out, "verdict": "won", "line": k.won[s], "reason": None, "seconds": k.seconds.get(s)}
        lost_at = next((i for i, st in enumerate(r.states) if st in k.lost), None)
        if lost_at is not None:
            reason = k.lost.get(s) if s in k.lost else "every move from a lost position leads to a lost one"
            if lost_at < r.n and s not in k.lost:
                k.lost[s] = reason
            return {**out, "verdict": "lost", "reason": reason, "losing": self._losing(r),
                    "seconds": k.seconds.get(s)}
        if s in k.unknown:
            return {**out, "verdict": "unknown", "reason": k.unknown[s], "seconds": k.seconds.get(s)}
        return None

    def _bounds(self, r: Replayed) -> tuple[int, int]:
        """The last position of the game known won (-1: none) and the first known lost."""
        k = self.known
        won = [i for i, st in enumerate(r.states) if st in k.won]
        lost = [i for i, st in enumerate(r.states) if st in k.lost]
        return (max(won) if won else -1), (min(lost) if lost else r.n + 1)

    def _losing(self, r: Replayed) -> dict[str, Any]:
        """Which move lost the game (the lock held): ``index`` and ``move`` once found."""
        lo, hi = self._bounds(r)
        if hi == 0:
            return {"from_start": True}
        if lo == hi - 1:
            return {"index": lo, "move": r.moves[lo]}
        inside = range(lo + 1, hi)
        if inside and all(r.states[i] in self.known.unknown for i in inside):
            return {"between": [lo + 2, hi]}  # move numbers, from 1
        return {"searching": True}

    # ---------------------------------------------------------------- the search thread

    def _work(self) -> None:
        while not self.closed:
            self.wake.wait()
            with self.lock:
                self.wake.clear()
                job, generation = self.job, self.generation
            if job is None or self.closed:
                continue
            try:
                self._run(job, generation)
            except _Superseded:
                pass
            except Exception as e:  # noqa: BLE001 - a failed search is told on the page, not a dead server
                with self.changed:
                    self.known.unknown[job.states[-1]] = f"the search failed: {type(e).__name__}: {e}"[:300]
            with self.changed:
                if self.generation == generation:
                    self.job = None
                self.changed.notify_all()

    def _run(self, job: Replayed, generation: int) -> None:
        """Decide the job's last position; if lost, find the move that lost the game."""
        with self.changed:
            known = self._known(job)
        if known is None:
            self._search(job, job.n, generation)
        while True:
            with self.changed:
                found = self._known(job)
                if found is None or found["verdict"] != "lost" or not found["losing"].get("searching"):
                    return
                lo, hi = self._bounds(job)
                left = [i for i in range(lo + 1, hi) if job.states[i] not in self.known.unknown]
            if not left:
                return
            self._search(job, left[len(left) // 2], generation)

    def _search(self, job: Replayed, k: int, generation: int) -> None:
        """Search the position after k moves of the job and record what it proves."""
        def check(_: dict[str, Any]) -> None:
            if self.generation != generation or self.closed:
                raise _Superseded

        t0 = time.perf_counter()
        position = job.positions[k]
        run = self.search_fn(self.layout, position, Limits(timeout=self.timeout, max_memory=SEARCH_MEMORY),
                             core=self.core, progress=check, progress_every=PROGRESS_EVERY)
        seconds = round(time.perf_counter() - t0, 3)
        if self.generation != generation:
            raise _Superseded
        state = job.states[k]
        if run.verdict == "won":
            line = list(run.solution or [])
            noted = self._line_states(position, line)  # replayed by the referee before it is believed
            with self.changed:
                for st, rest in noted:
                    self.known.won.setdefault(st, rest)
                self.known.won[state] = line
                for i in range(k):  # the positions before a won one in the game are won: the moves played lead to it
                    self.known.won.setdefault(job.states[i], job.moves[i:k] + line)
                self.known.seconds[state] = seconds
                self.changed.notify_all()
        elif run.verdict == "lost":
            with self.changed:
                self.known.lost[state] = run.reason
                self.known.seconds[state] = seconds
                self.changed.notify_all()
        else:
            with self.changed:
                self.known.unknown[state] = run.reason or f"timeout {self.timeout:g} s"
                self.known.seconds[state] = seconds
                self.changed.notify_all()

    def _line_states(self, position: Any, line: list[dict[str, Any]]) -> list[tuple[Hashable, list[dict[str, Any]]]]:
        game = self.family.referee(self.layout, position)
        out = []
        for j, m in enumerate(line):
            problem = game.play(m)
            if problem:
                raise VerificationFailed(f"a winning line does not replay: {problem}")
            out.append((game.state(), line[j + 1:]))
        if not game.won():
            raise VerificationFailed(f"a winning line does not win: {game.unfinished()}")
        return out

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.generation += 1
            self.wake.set()
            self.changed.notify_all()

    # ---------------------------------------------------------------- the page

    def page(self) -> str:
        name = self.layout.name + (f"-seed-{self.seed}" if self.seed is not None else "")
        config = {"layout": self.layout.name, "step_ms": self.step_ms, "save": self.save_path is not None,
                  "file_name": f"{name}-moves.json",
                  "analyse": f"`patience analyse {self.layout.name} {self.start_args} --moves {name}-moves.json` "
                             "finds its first losing move".replace("  ", " "),
                  "stock_action": _stock_acts(self.layout)}
        title = self.layout.title + (f" #{self.seed}" if self.seed is not None else "")
        return play_page.page_html(self.layout, title, config, self.nonce)


def _plain(reason: str) -> str:
    """A referee's reason without its ``move N:`` prefix (the page has one move in hand)."""
    head, sep, rest = reason.partition(": ")
    return rest if sep and head.startswith("move ") and head[5:].isdigit() else reason


def _front(layout: Any, src: str) -> bool:
    """Whether the card that leaves ``src`` is its first-listed one (the stock; a reserve column
    with ``reserve.access = "first"``)."""
    return src == "stock" or (src.startswith("reserve:") and not is_spread(layout)
                              and layout.reserve.access == "first")


def _stock_acts(layout: Any) -> bool:
    """Whether a click on the stock plays it (turns it, deals a row, turns a card onto the hole)
    rather than picking its next card up to place it."""
    return not is_spread(layout) and layout.stock.turn in ("waste", "deal-row", "hole")


def stock_moves(layout: Any, table: Table) -> list[dict[str, Any]]:
    """The moves a click on the stock may mean: turn, deal a row, turn onto the hole; an empty
    stock: the redeal."""
    stock, out = table.stacks.get("stock", []), []
    if stock:
        if "waste" in table.stacks:
            out.append(moves.contract(stock[0], "stock", "waste", min(layout.stock.deal_count, len(stock))))
        for kind in ("tableau", "reserve"):
            cols = sum(1 for s in table.stacks if s.startswith(kind + ":"))
            if cols and layout.stock.turn == "deal-row":
                out.append(moves.contract(stock[0], "stock", kind, min(cols, len(stock))))
        if "hole" in table.stacks:
            out.append(moves.contract(stock[0], "stock", "hole"))
    waste = table.stacks.get("waste", [])
    if waste and not stock:
        out.append(moves.contract(waste[0], "waste", "stock", len(waste)))
    return out


def contract_move(layout: Any, table: Table, src: str, dst: str, count: int) -> dict[str, Any] | None:
    """The move of the contract that takes ``count`` cards from ``src`` to ``dst`` on ``table``,
    its ``card`` the one the kind names; None if a stack is not on the table or too short."""
    if src not in table.stacks or count < 1 or not (dst in table.stacks or dst in ("tableau", "reserve")):
        return None
    pile = table.stacks[src]
    probe = {"from": src, "to": dst, "count": count}
    kind = moves.kind_of(probe)
    if kind.lands in ("turn", "row"):
        return moves.contract(pile[0], src, dst, count) if pile else None
    if kind.lands == "back":
        return moves.contract(pile[0], src, dst, len(pile)) if pile else None
    if count > len(pile):
        return None
    card = pile[0] if _front(layout, src) else pile[len(pile) - count]
    return moves.contract(card, src, dst, count)


def code_of(played: list[dict[str, Any]]) -> str:
    """The compact text of moves for a URL (``_from_code`` reads it back)."""
    return ",".join(f"{m['from']}-{m['to']}" + (f"*{m['count']}" if m.get("count", 1) != 1 else "") for m in played)


# -------------------------------------------------------------------- HTTP


class Server(ThreadingHTTPServer):
    daemon_threads = True
    session: Session

    def origins(self) -> tuple[set[str], set[str]]:
        port = self.server_address[1]
        hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        return hosts, {f"http://{h}" for h in hosts}


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "patience-play"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal shows the URL and nothing else

    # -- answers

    def _send(self, status: int, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json; charset=utf-8")

    def _refuse(self, status: int, reason: str) -> None:
        self._json(status, {"error": reason})

    def _allowed(self) -> bool:
        """Host must be this server's own name; Origin, when sent, this server's own origin."""
        hosts, origins = self.server.origins()
        host = self.headers.get("Host", "")
        if host not in hosts:
            self._refuse(403, f"refused: Host {host[:60]!r} is not this server (open http://127.0.0.1:"
                              f"{self.server.server_address[1]}/)")
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in origins:
            self._refuse(403, f"refused: a request from another origin ({origin[:60]!r})")
            return False
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            self._refuse(403, f"refused: a {site} request")
            return False
        return True

    # -- requests

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self._safely(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._safely(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._safely(self._post)

    def _other(self) -> None:
        self._refuse(405, f"method {self.command} not allowed: GET / and POST /api/... only")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _other  # noqa: N815

    def _safely(self, handle: Callable[[], None]) -> None:
        try:
            if self._allowed():
                handle()
        except BadRequest as e:
            self._refuse(e.status, str(e))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the tab was closed: nobody to answer
        except PatienceError as e:
            self._refuse(400, " ".join(str(e).splitlines()))
        except Exception as e:  # noqa: BLE001 - one line to the page, never a traceback
            try:
                self._refuse(500, f"internal error: {type(e).__name__}: {' '.join(str(e).splitlines())[:300]}")
            except OSError:
                pass

    def _get(self) -> None:
        path = self.path.split("?", 1)[0]
        if path != "/":
            raise BadRequest(404, f"no such page: {path[:60]} (the game is at /)")
        session = self.server.session
        csp = (f"default-src 'none'; script-src 'nonce-{session.nonce}'; style-src 'nonce-{session.nonce}'; "
               "img-src data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")
        self._send(200, session.page().encode(), "text/html; charset=utf-8", {"Content-Security-Policy": csp})

    def _post(self) -> None:
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise BadRequest(415, "expected a JSON body (Content-Type: application/json)")
        try:
            size = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise BadRequest(411, "expected a Content-Length") from None
        if not 0 <= size <= BODY_LIMIT:
            raise BadRequest(413, f"a body of at most {BODY_LIMIT} bytes")
        try:
            body = json.loads(self.rfile.read(size).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise BadRequest(400, f"the body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise BadRequest(400, "expected a JSON object")
        session = self.server.session
        route = self.path.split("?", 1)[0]
        if route not in ("/api/position", "/api/move", "/api/undo", "/api/verdict", "/api/save"):
            raise BadRequest(404, f"no such request: {route[:60]}")
        if "moves" not in body:
            raise BadRequest(400, "moves: missing (the moves played so far: a list, [] at the start)")
        r = session.replayed(body["moves"])
        if route == "/api/position":
            self._json(200, session.position(r))
        elif route == "/api/move":
            self._json(200, session.move(r, body))
        elif route == "/api/undo":
            self._json(200, session.undo(r))
        elif route == "/api/save":
            self._json(200, session.save(r))
        else:
            wait = body.get("wait", 0)
            if not isinstance(wait, (int, float)) or isinstance(wait, bool) or not 0 <= wait <= 60:
                raise BadRequest(400, f"wait: expected seconds 0..60, got {json_text(wait, 40)}")
            self._json(200, session.verdict(r, wait=float(wait)))


def make_server(session: Session, port: int = 0) -> Server:
    """The server on 127.0.0.1:``port`` (0: a free one), not yet serving."""
    try:
        server = Server(("127.0.0.1", port), Handler)
    except OSError as e:
        raise InputError(f"--port {port}: cannot listen on 127.0.0.1:{port}: {e.strerror or e}") from None
    server.session = session
    return server


def url_of(server: Server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/"

