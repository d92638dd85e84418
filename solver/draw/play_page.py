"""The page of ``patience play``: one position drawn for the player's clicks, and the page around it.

The server (``solver.play``) sends the page once (``page_html``) and then, for every position,
the table drawn by ``board`` as SVG markup the page puts in place.  The table is drawn as the
pictures draw it (``table.plan`` places the stacks; the cards are the ``glyphs`` faces), with
what a page needs to be played:

- every stack is a group ``<g data-stack="tableau:3">``, with an invisible area over the whole
  stack so that a click or a drop anywhere on it names it (an empty column, a gap);
- every face-up card is ``<use class="card" data-card="QS" data-index="4">``, its index in the
  stack as the position lists it (bottom card first; the stock: the next card to turn first);
  a face-down card has no ``data-card`` (the page does not tell what the player cannot see);
- the stock is drawn with its next card on top; where that card is placed at once (the
  debutante family's ``stock.turn = "place"``) it lies face up, as the player holds it.

Everything is inline (CSS, script, the cards' faces): the page loads nothing from the network.
This module draws and never imports an engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from .. import cards
from . import glyphs, table
from .replay import Step, Table, is_spread

PAD = 8  # cards of room below each column's cards at the start, so the board keeps its size


@dataclass(frozen=True)
class Board:
    """One position drawn: the ``viewBox`` size and the markup (felt, labels, stacks, cards)."""

    width: float
    height: float
    markup: str

    @property
    def view_box(self) -> str:
        return f"0 0 {glyphs.num(self.width)} {glyphs.num(self.height)}"


def face_up_stock(layout: Any) -> bool:
    """Whether the stock's next card is shown face up: a card the player places at once."""
    return not is_spread(layout) and layout.stock.turn == "place"


def board(layout: Any, start: Table, step: Step, before: Table | None = None) -> Board:
    """The position of ``step`` drawn on a plan sized for the start's columns with room to grow;
    with ``before``, the cards of the move into it outlined and an arrow from where they came."""
    room = Table({name: cs + ["AS"] * PAD for name, cs in start.stacks.items()}, dict(start.face_down))
    p = table.plan(layout, [start, step.table, room])
    felt = (f'<rect width="{glyphs.num(p.width)}" height="{glyphs.num(p.height)}" rx="10" '
            f'fill="{table.FELT}" class="felt"/>')
    body = _stacks(layout, p, step)
    arrow = table._arrow(p, before, step) if before is not None and step.source and step.moved else ""
    return Board(p.width, p.height, felt + "".join(p.decor) + body + arrow)


def _stacks(layout: Any, p: table.Plan, step: Step) -> str:
    t = step.table
    moved = set(step.moved)
    out: list[str] = []
    for name, slot in p.slots.items():
        pile = t.stacks.get(name, [])
        down = t.face_down.get(name, 0)
        if name == "stock":
            down = len(pile) - (1 if face_up_stock(layout) and pile else 0)
        places = slot.places(len(pile), down)
        x1 = max([x for x, _ in places], default=slot.x) + glyphs.W
        y1 = max([y for _, y in places], default=slot.y) + glyphs.H
        out.append(f'<g data-stack="{escape(name)}" class="stack">'
                   f'<rect x="{glyphs.num(slot.x - 2)}" y="{glyphs.num(slot.y - 2)}" '
                   f'width="{glyphs.num(x1 - slot.x + 4)}" height="{glyphs.num(y1 - slot.y + 4)}" '
                   f'fill="#000" fill-opacity="0" class="area"/>')
        if not pile:
            out.append(table._empty(slot))
        order = range(len(pile))
        if name == "stock":  # the next card to turn on top: drawn last
            order = range(len(pile) - 1, -1, -1)
            places = [places[len(pile) - 1 - i] for i in range(len(pile))]  # the top place for card 0
        for i in order:
            cx, cy = places[i]
            shown = i >= down if name != "stock" else i < len(pile) - down
            if shown:
                out.append(f'<use href="#pc-{pile[i]}" x="{glyphs.num(cx)}" y="{glyphs.num(cy)}" class="card" '
                           f'data-card="{pile[i]}" data-index="{i}"/>')
            else:
                out.append(f'<use href="#pc-back" x="{glyphs.num(cx)}" y="{glyphs.num(cy)}" class="card down" '
                           f'data-index="{i}"/>')
            if (name, i) in moved:
                out.append(f'<rect x="{glyphs.num(cx - 1.5)}" y="{glyphs.num(cy - 1.5)}" width="{glyphs.W + 3}" '
                           f'height="{glyphs.H + 3}" rx="5" fill="none" stroke="{table.MARK}" stroke-width="3" '
                           f'class="moved"/>')
        if slot.count:
            out.append(glyphs.text(slot.x + glyphs.W / 2, slot.y + glyphs.H + 12, str(len(pile)), size=10.5,
                                   fill=table.INK, anchor="middle"))
        out.append("</g>")
    return "".join(out)


STYLE = """
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.4 system-ui, "DejaVu Sans", Arial, sans-serif; background: #f3f1ea; color: #1d2b22; }
header { padding: 10px 20px 2px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 18px; }
h1 { font-size: 20px; margin: 0; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 6px 20px 20px; align-items: flex-start; }
.board { flex: 1 1 620px; min-width: 320px; }
#board { display: block; width: 100%; height: auto; max-height: calc(100vh - 150px); user-select: none;
  touch-action: none; }
.controls { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; margin: 6px 0; }
.controls button { font: inherit; padding: 4px 10px; border: 1px solid #9aa89f; border-radius: 6px; background: #fff;
  cursor: pointer; }
.controls button:disabled { opacity: 0.4; cursor: default; }
#counter { font-variant-numeric: tabular-nums; font-weight: 600; margin-left: 6px; }
#verdict { padding: 6px 10px; border-radius: 6px; background: #fff; border: 1px solid #d5d9d2; min-height: 1.4em; }
#verdict[data-verdict="won"] { border-left: 6px solid #2f9e5a; }
#verdict[data-verdict="lost"] { border-left: 6px solid #c8343c; background: #fdf0f0; }
#verdict[data-verdict="unknown"] { border-left: 6px solid #d19a1f; }
#verdict[data-verdict="searching"] { border-left: 6px solid #9aa89f; color: #55645a; }
#verdict button { font: inherit; margin-left: 8px; padding: 1px 8px; border-radius: 5px; border: 1px solid #c8343c;
  background: #fff; cursor: pointer; }
#message { min-height: 1.4em; margin: 4px 0 0; color: #a3171f; }
#hint-text { min-height: 1.4em; margin: 2px 0 0; color: #1f4f8a; }
aside { flex: 0 0 300px; font-size: 14px; max-height: calc(100vh - 110px); overflow-y: auto; background: #fff;
  border: 1px solid #d5d9d2; border-radius: 8px; }
aside ol { margin: 0; padding: 4px 4px 4px 3.2em; font-variant-numeric: tabular-nums; }
aside li.losing { background: #fde2e2; }
.red { color: #c8102e; } .black { color: #1b1b1b; }
.help { color: #78867c; font-size: 13px; }
#board .stack { cursor: pointer; }
#board use.card.sel { filter: drop-shadow(0 0 4px #ffcf3f) drop-shadow(0 0 2px #ffcf3f); }
#board use.card.hint { filter: drop-shadow(0 0 4px #3fb8ff) drop-shadow(0 0 2px #3fb8ff); }
#board .stack.hint-to .area { fill: #3fb8ff; fill-opacity: 0.28; }
#board .stack.drop .area { fill: #ffcf3f; fill-opacity: 0.25; }
#board use.card.drag { pointer-events: none; opacity: 0.92; }
#board .arrow, #board .moved, #board text { pointer-events: none; }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("config").textContent);
  var board = document.getElementById("board"), layer = document.getElementById("table");
  var verdictEl = document.getElementById("verdict"), messageEl = document.getElementById("message");
  var hintEl = document.getElementById("hint-text"), listEl = document.getElementById("moves");
  var counter = document.getElementById("counter");
  var S = {moves: [], redo: [], id: null, code: "", sel: null, verdict: null, won: false, wantHint: false,
           finishing: false, polling: null};
  var queue = Promise.resolve();

  function call(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body || {})}).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) { throw new Error(j.error || ("HTTP " + r.status)); }
        return j;
      });
    });
  }
  function later(fn) {  // actions run one after another, in the order the player made them
    queue = queue.then(fn).catch(function (e) { say(String(e.message || e)); });
    return queue;
  }
  function say(text) { messageEl.textContent = text || ""; }
  function sleep(ms) { return new Promise(function (ok) { setTimeout(ok, ms); }); }

  function cardHtml(c) {
    if (!c || c.length !== 2) { return esc(c || ""); }
    var suit = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"}[c[1]];
    var rank = c[0] === "T" ? "10" : c[0];
    return '<span class="' + ("DH".indexOf(c[1]) >= 0 ? "red" : "black") + '">' + rank + suit + "</span>";
  }
  function esc(t) { return String(t).replace(/[&<>"]/g, function (ch) {
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[ch]; }); }
  function moveHtml(m) {
    var n = m.count && m.count > 1 ? " (" + m.count + " cards)" : "";
    return cardHtml(m.card) + " " + esc(m.from) + " \u2192 " + esc(m.to) + n;
  }

  function show(pos) {
    layer.innerHTML = pos.svg;
    board.setAttribute("viewBox", pos.viewBox);
    S.moves = pos.moves; S.id = pos.id; S.code = pos.code; S.won = pos.won; S.sel = null;
    document.body.dataset.id = pos.id;
    document.body.dataset.moves = String(pos.moves.length);
    counter.textContent = "move " + pos.moves.length;
    history.replaceState(null, "", pos.code ? "?moves=" + pos.code : location.pathname);
    listEl.innerHTML = pos.moves.map(function (m, k) {
      return '<li data-k="' + (k + 1) + '">' + moveHtml(m) + "</li>"; }).join("");
    var last = listEl.lastElementChild; if (last) { last.scrollIntoView({block: "nearest"}); }
    hintEl.textContent = "";
    buttons();
    setVerdict(pos.verdict);
  }
  function buttons() {
    document.getElementById("undo").disabled = S.moves.length === 0;
    document.getElementById("redo").disabled = S.redo.length === 0;
    document.getElementById("restart").disabled = S.moves.length === 0;
  }

  var WORDS = {searching: "searching\u2026", won: "still winnable", lost: "no longer winnable",
               unknown: "undecided"};
  function setVerdict(v) {
    if (!v || v.id !== S.id) { return; }  // a verdict for another position is never shown
    S.verdict = v;
    verdictEl.dataset.verdict = v.verdict;
    verdictEl.dataset.id = v.id;
    var text = "<b>" + (S.won ? "won: the game is over" : WORDS[v.verdict]) + "</b>";
    if (v.verdict === "won" && v.line && v.line.length) {
      text += " (a win in " + v.line.length + " more move" + (v.line.length === 1 ? "" : "s") + ")";
    }
    if (v.verdict === "unknown" && v.reason) { text += " (" + esc(v.reason) + ")"; }
    if (v.verdict === "lost") {
      text += " (" + esc(v.reason || "a complete search finds no win") + ")";
      var l = v.losing;
      if (l && l.move) {
        text += ". The losing move: " + (l.index + 1) + ". " + moveHtml(l.move) +
          ' <button id="back" data-to="' + l.index + '">back to before it</button>';
      } else if (l && l.from_start) {
        text += ": lost from the start, no move could have saved it.";
      } else if (l && l.between) {
        text += ". The losing move is one of moves " + l.between[0] + "\u2013" + l.between[1] +
          " (the positions between stayed undecided).";
      } else if (l && l.searching) {
        text += ". Looking for the move that lost it\u2026";
      }
    }
    verdictEl.innerHTML = text;
    var back = document.getElementById("back");
    if (back) { back.onclick = function () { later(function () { return backTo(Number(back.dataset.to)); }); }; }
    listEl.querySelectorAll("li.losing").forEach(function (li) { li.classList.remove("losing"); });
    if (v.verdict === "lost" && v.losing && v.losing.move) {
      var li = listEl.querySelector('li[data-k="' + (v.losing.index + 1) + '"]');
      if (li) { li.classList.add("losing"); }
    }
    document.getElementById("finish").disabled = !(v.verdict === "won" && v.line && v.line.length);
    if (S.wantHint) { showHint(); }
    if (v.verdict === "searching" || (v.verdict === "lost" && v.losing && v.losing.searching)) { poll(v.id); }
  }
  function poll(id) {
    if (S.polling === id) { return; }
    S.polling = id;
    var moves = S.moves;
    call("/api/verdict", {moves: moves, wait: 2}).then(function (v) {
      if (S.polling === id) { S.polling = null; }
      if (v.id === S.id) { setVerdict(v); }
    }, function (e) { if (S.polling === id) { S.polling = null; } say(String(e.message || e)); });
  }

  function clearMarks() {
    layer.querySelectorAll(".sel, .hint").forEach(function (e) { e.classList.remove("sel", "hint"); });
    layer.querySelectorAll(".hint-to").forEach(function (e) { e.classList.remove("hint-to"); });
  }
  function stackEl(name) { return layer.querySelector('[data-stack="' + name + '"]'); }
  function cardsFrom(name, index) {
    var g = stackEl(name); if (!g) { return []; }
    return Array.prototype.filter.call(g.querySelectorAll("use.card"), function (u) {
      return name === "stock" ? Number(u.dataset.index) === index : Number(u.dataset.index) >= index; });
  }
  function select(name, index) {
    clearMarks();
    S.sel = {from: name, index: index};
    cardsFrom(name, index).forEach(function (u) { u.classList.add("sel"); });
  }
  function showHint() {
    var v = S.verdict;
    if (!v || v.id !== S.id) { return; }
    if (v.verdict === "searching") { hintEl.textContent = "the hint comes with the verdict\u2026"; return; }
    S.wantHint = false;
    if (v.verdict !== "won") { hintEl.textContent = "no hint: " + WORDS[v.verdict]; return; }
    if (!v.line || !v.line.length) { hintEl.textContent = "the game is won"; return; }
    var m = v.line[0];
    clearMarks();
    var g = stackEl(m.from);
    if (g) {
      var us = g.querySelectorAll("use.card"), n = us.length, count = m.count || 1;
      us.forEach(function (u) {
        var i = Number(u.dataset.index);
        if (m.from === "stock" ? i < count : i >= n - count) { u.classList.add("hint"); }
      });
    }
    var to = stackEl(m.to); if (to) { to.classList.add("hint-to"); }
    hintEl.innerHTML = "hint: " + moveHtml(m);
  }

  function play(body) {
    body.moves = S.moves;
    return call("/api/move", body).then(function (r) {
      if (!r.ok) { say(r.reason); if (S.sel) { clearMarks(); S.sel = null; } return false; }
      say("");
      var m = r.move, next = S.redo[S.redo.length - 1];
      if (next && next.from === m.from && next.to === m.to && next.card === m.card &&
          (next.count || 1) === (m.count || 1)) { S.redo.pop(); } else if (!body.keepRedo) { S.redo = []; }
      show(r.position);
      return true;
    });
  }
  function undo() {
    if (!S.moves.length) { say("nothing to undo: this is the start"); return Promise.resolve(); }
    return call("/api/undo", {moves: S.moves}).then(function (r) {
      S.redo.push(r.undone); say(""); show(r.position); });
  }
  function redo() {
    if (!S.redo.length) { return Promise.resolve(); }
    return play({move: S.redo[S.redo.length - 1], keepRedo: true});
  }
  function backTo(k) {
    if (k >= S.moves.length) { return Promise.resolve(); }
    var undone = S.moves.slice(k).reverse();
    return call("/api/position", {moves: S.moves.slice(0, k)}).then(function (pos) {
      S.redo = S.redo.concat(undone); say(""); show(pos); });
  }
  function redoAll() {
    function step() { if (!S.redo.length) { return Promise.resolve(); } return redo().then(step); }
    return step();
  }
  function finish() {
    var v = S.verdict;
    if (!v || v.verdict !== "won" || !v.line || !v.line.length) {
      say("no winning line to play: " + (v ? WORDS[v.verdict] : "no verdict yet")); return Promise.resolve();
    }
    var line = v.line.slice(), id = S.id;
    S.finishing = true;
    function step(i) {
      if (!S.finishing || i >= line.length) { S.finishing = false; return Promise.resolve(); }
      return play({move: line[i]}).then(function (ok) {
        if (!ok) { S.finishing = false; return; }
        return sleep(cfg.step_ms).then(function () { return step(i + 1); });
      });
    }
    return id === S.id ? step(0) : Promise.resolve();
  }
  function save() {
    if (cfg.save) {
      return call("/api/save", {moves: S.moves}).then(function (r) { say(""); hintEl.textContent = r.saved; });
    }
    var blob = new Blob([JSON.stringify(S.moves, null, 1) + "\n"], {type: "application/json"});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = cfg.file_name;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    hintEl.textContent = "saved as " + cfg.file_name + " (" + S.moves.length + " moves); " + cfg.analyse;
    return Promise.resolve();
  }

  // -- clicks, double clicks, drags
  var drag = null, suppress = false;
  function target(e) {
    var g = e.target.closest ? e.target.closest("[data-stack]") : null;
    if (!g) { return null; }
    var u = e.target.closest("use.card");
    return {stack: g.dataset.stack, index: u ? Number(u.dataset.index) : null, up: !!(u && u.dataset.card)};
  }
  function stockAction() { return play({click: {from: "stock", index: 0, to: null}}); }
  board.addEventListener("click", function (e) {
    if (suppress) { suppress = false; return; }
    S.finishing = false;
    var t = target(e);
    if (!t) { clearMarks(); S.sel = null; return; }
    if (S.sel) {
      var sel = S.sel;
      if (sel.from === t.stack) {
        clearMarks(); S.sel = null;
        if (t.index !== null && t.index !== sel.index && t.up) { select(t.stack, t.index); }
        else if (t.stack === "stock" && cfg.stock_action) { later(stockAction); }
        return;
      }
      clearMarks(); S.sel = null;
      later(function () { return play({click: {from: sel.from, index: sel.index, to: t.stack}}); });
      return;
    }
    if (t.stack === "stock" && cfg.stock_action) { later(stockAction); return; }
    if (t.index !== null && t.up) { select(t.stack, t.index); }
  });
  board.addEventListener("dblclick", function (e) {
    var t = target(e);
    if (!t || t.index === null || !t.up || t.stack === "stock") { return; }
    clearMarks(); S.sel = null;
    later(function () { return play({click: {from: t.stack, index: t.index, to: "auto"}}); });
  });
  board.addEventListener("pointerdown", function (e) {
    var t = target(e);
    if (!t || t.index === null || !(t.up || t.stack === "stock") || e.button !== 0) { return; }
    if (t.stack === "stock") { t.index = 0; }  // the stock's next card, dragged to a place of its own
    drag = {t: t, x: e.clientX, y: e.clientY, on: false, cards: cardsFrom(t.stack, t.index), over: null};
  });
  board.addEventListener("pointermove", function (e) {
    if (!drag) { return; }
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.on && dx * dx + dy * dy < 36) { return; }
    drag.on = true;
    var m = board.getScreenCTM(), k = m ? 1 / m.a : 1;
    drag.cards.forEach(function (u) {
      u.classList.add("drag");
      u.setAttribute("transform", "translate(" + dx * k + "," + dy * k + ")");
      u.parentNode.appendChild(u);
    });
    var under = document.elementFromPoint(e.clientX, e.clientY);
    var g = under && under.closest ? under.closest("[data-stack]") : null;
    if (drag.over && drag.over !== g) { drag.over.classList.remove("drop"); }
    drag.over = g; if (g) { g.classList.add("drop"); }
  });
  function endDrag(e, cancel) {
    if (!drag) { return; }
    var d = drag; drag = null;
    if (!d.on) { return; }
    suppress = true;
    setTimeout(function () { suppress = false; }, 0);
    d.cards.forEach(function (u) { u.classList.remove("drag"); u.removeAttribute("transform"); });
    if (d.over) { d.over.classList.remove("drop"); }
    if (cancel || !d.over || d.over.dataset.stack === d.t.stack) { return; }
    clearMarks(); S.sel = null;
    var to = d.over.dataset.stack;
    later(function () { return play({click: {from: d.t.stack, index: d.t.index, to: to}}); });
  }
  board.addEventListener("pointerup", function (e) { endDrag(e, false); });
  board.addEventListener("pointercancel", function (e) { endDrag(e, true); });

  function on(id, fn) {
    document.getElementById(id).onclick = function () { S.finishing = false; later(fn); };
  }
  on("undo", undo);
  on("redo", redo);
  on("restart", function () { return backTo(0); });
  on("hint", function () { S.wantHint = true; showHint(); });
  on("finish", finish);
  on("save", save);
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var act = {ArrowLeft: undo, ArrowRight: redo, Home: function () { return backTo(0); }, End: redoAll,
               h: function () { S.wantHint = true; showHint(); }, f: finish,
               Escape: function () { S.finishing = false; clearMarks(); S.sel = null; }}[e.key];
    if (!act) { return; }
    e.preventDefault();
    if (e.key !== "Escape") { S.finishing = false; }
    later(act);
  });

  var given = new URLSearchParams(location.search).get("moves") || "";
  later(function () {
    return call("/api/position", {moves: given}).then(show, function (e) {
      say(String(e.message || e) + " (the deal is shown from its start)");
      return call("/api/position", {moves: []}).then(show);
    });
  });
})();
"""


def page_html(layout: Any, title: str, config: dict[str, Any], nonce: str) -> str:
    """The page: the card faces once, the controls, the script; the table comes from the server."""
    faces = glyphs.defs(cards.names(layout.pack()))
    conf = json.dumps(config).replace("<", "\\u003c")
    t = escape(title)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t} — patience play</title>
<style nonce="{nonce}">{STYLE}</style>
</head>
<body>
<header><h1>{t}</h1><span class="help">click a card, then where it goes (or drag it); double-click sends a card
to a foundation; keys: &larr; undo, &rarr; redo, Home the start, End redo all, h hint, f finish</span></header>
<main>
<section class="board">
<div id="verdict" data-verdict="searching" aria-live="polite">searching&hellip;</div>
<div class="controls">
<button id="undo" title="take back the last move (&larr;)">&lsaquo; undo</button>
<button id="redo" title="play the move taken back again (&rarr;)">redo &rsaquo;</button>
<button id="restart" title="back to the start (Home)">&laquo; start</button>
<button id="hint" title="the next move of a winning line (h)">hint</button>
<button id="finish" title="play a winning line to the end (f)">finish</button>
<button id="save" title="save the moves as a file `patience analyse --moves` reads">save moves</button>
<span id="counter">move 0</span>
</div>
<svg id="board" viewBox="0 0 100 100" font-family="{glyphs.FONT}" role="img" aria-label="{t}">{faces}
<g id="table"></g></svg>
<p id="message" role="status"></p>
<p id="hint-text"></p>
</section>
<aside><ol id="moves"></ol></aside>
</main>
<script type="application/json" id="config">{conf}</script>
<script nonce="{nonce}">{SCRIPT}</script>
</body>
</html>
"""
