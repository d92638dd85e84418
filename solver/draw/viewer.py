"""One self-contained HTML page that steps through a result, or an analysis: every position, the move list.

Everything is inline (SVG, CSS, a few lines of script) and nothing is loaded
from the network, so the page opens from a mail attachment.  Each position is
an SVG group (``<g class="frame">``) drawn in one frame of reference; the
script only shows one group at a time and keeps the counter, the slider and
the move list in step: the arrow keys, Home and End, the buttons, the slider,
or a click on a move.

An analysis page (``analysis_html``) has two sequences of positions: the game as
played, each move marked with the verdict of the position after it and the
first losing move picked out (the page opens on it), and the winning line from
just before it; a button switches between them (``data-seq`` tells their
frames and move lists apart).
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..analysis_record import Analysis
from ..result import Result
from . import Drawing, caption, glyphs, steps
from .replay import Step, play

STYLE = """
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.4 system-ui, "DejaVu Sans", Arial, sans-serif; background: #f3f1ea; color: #1d2b22; }
header { padding: 12px 20px 4px; }
h1 { font-size: 20px; margin: 0 0 2px; }
.verdict { margin: 0; color: #44564a; }
.verdict b.won { color: #176b3a; } .verdict b.lost { color: #a3171f; } .verdict b.unknown { color: #8a5a00; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 8px 20px 20px; align-items: flex-start; }
.board { flex: 1 1 560px; min-width: 320px; }
.board svg { display: block; width: 100%; height: auto; max-height: calc(100vh - 170px); }
.frame { display: none; } .frame.on { display: inline; }
.controls { display: flex; align-items: center; gap: 6px; margin-top: 8px; flex-wrap: wrap; }
.controls button { font: inherit; padding: 4px 10px; border: 1px solid #9aa89f; border-radius: 6px; background: #fff;
  cursor: pointer; }
.controls button:disabled { opacity: 0.4; cursor: default; }
#slider { flex: 1 1 200px; }
#counter { font-variant-numeric: tabular-nums; min-width: 6em; text-align: right; font-weight: 600; }
#now { margin: 6px 0 0; min-height: 1.4em; }
aside { flex: 0 0 320px; font-size: 14px; max-height: calc(100vh - 110px); overflow-y: auto; background: #fff;
  border: 1px solid #d5d9d2; border-radius: 8px; }
aside ol { list-style: none; margin: 0; padding: 4px 0; }
aside li { padding: 2px 12px; cursor: pointer; font-variant-numeric: tabular-nums; white-space: nowrap; }
aside li:hover { background: #eef3ee; }
aside li.on { background: #ffe58a; font-weight: 600; }
aside li span.k { display: inline-block; min-width: 2.6em; color: #78867c; }
aside li.won { border-left: 4px solid #2f9e5a; } aside li.lost { border-left: 4px solid #c8343c; }
aside li.unknown { border-left: 4px solid #d19a1f; }
aside li.losing { background: #fde2e2; } aside li.losing.on { background: #ffc9a8; }
.badge { font-size: 11px; color: #fff; background: #a3171f; border-radius: 4px; padding: 0 4px; margin-left: 6px; }
.v.won { color: #176b3a; } .v.lost { color: #a3171f; } .v.unknown { color: #8a5a00; }
#swap { margin-left: 8px; font-weight: 600; }
.red { color: #c8102e; } .black { color: #1b1b1b; }
.hint { color: #78867c; font-size: 13px; }
"""

SCRIPT = """
(function () {
  var lists = document.querySelectorAll("ol.moves");
  var slider = document.getElementById("slider"), counter = document.getElementById("counter");
  var now = document.getElementById("now"), swap = document.getElementById("swap");
  var frames = [], items = [], n = 0, k = 0, list = null;
  function use(name, j) {
    if (frames.length) { frames[k].classList.remove("on"); items[k].classList.remove("on"); }
    lists.forEach(function (ol) { ol.hidden = ol.dataset.seq !== name; if (!ol.hidden) list = ol; });
    frames = document.querySelectorAll('#board .frame[data-seq="' + name + '"]');
    items = list.querySelectorAll("li");
    n = frames.length - 1; k = 0;
    slider.max = n;
    if (swap) swap.textContent = list.dataset.swap;
    frames[0].classList.add("on"); items[0].classList.add("on");
    show(j);
  }
  function show(j) {
    j = Math.max(0, Math.min(n, j));
    frames[k].classList.remove("on"); items[k].classList.remove("on");
    k = j;
    frames[k].classList.add("on"); items[k].classList.add("on");
    items[k].scrollIntoView({block: "nearest"});
    slider.value = k;
    counter.textContent = k + " / " + n;
    var m = items[k].querySelector(".m"), v = items[k].dataset.verdict;
    now.innerHTML = (k ? "Move " + items[k].dataset.move + ": " + m.innerHTML : items[0].dataset.start) +
      (v ? ' <span class="v ' + v + '">(' + items[k].dataset.words + ")</span>" : "");
    document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = k === n;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(k - 1); };
  document.getElementById("next").onclick = function () { show(k + 1); };
  document.getElementById("last").onclick = function () { show(n); };
  slider.oninput = function () { show(Number(slider.value)); };
  lists.forEach(function (ol) {
    ol.querySelectorAll("li").forEach(function (li, j) { li.onclick = function () { show(j); }; });
  });
  if (swap) swap.onclick = function () {
    var other = list.dataset.seq === "game" ? "line" : "game";
    use(other, other === "game" ? Number(swap.dataset.at) : 0);
  };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: n}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  use("game", Number(document.body.dataset.open || 0));
})();
"""


def card_html(card: str) -> str:
    """A card name for people, in its colour: ``<span class="red">10♥</span>``."""
    if len(card) != 2 or card[0] not in glyphs.RANKS or card[1] not in glyphs.SUITS:
        return escape(card)
    return f'<span class="{"red" if card[1] in "DH" else "black"}">{glyphs.label(card)}</span>'


def move_html(move: dict[str, Any]) -> str:
    """``7♠ stock → reserve:4``; a turn or a redeal says how many cards; a jump ``d2 → d4``."""
    card = str(move.get("card", ""))
    what = "" if card == "peg" else card_html(card) + " "
    count = move.get("count", 1)
    more = f" ({count} cards)" if isinstance(count, int) and count > 1 else ""
    return f"{what}{escape(str(move['from']))} \u2192 {escape(str(move['to']))}{more}"


def verdict_html(result: Result) -> str:
    """The verdict in words, its reason, the engine and its figures."""
    words = {
        "won": f" in {len(result.solution or [])} moves; every move was replayed by the referee",
        "lost": ": no sequence of moves wins this deal (a complete search or a sound bound)",
    }.get(result.verdict, ": the search stopped before it could decide")
    reason = f" ({escape(result.reason)})" if result.reason else ""
    stats = "".join(f", {escape(str(k))} {escape(str(v))}" for k, v in result.stats.items())
    return (f'<p class="verdict"><b class="{escape(result.verdict)}">{escape(result.verdict)}</b>{words}{reason}. '
            f'<span class="hint">engine {escape(result.engine)}{stats}</span></p>')


def viewer_html(result: Result, layout: Any) -> str:
    """The page for ``result`` (any verdict; a ``won`` result's solution must be legal)."""
    from . import check_drawn

    check_drawn(layout)
    solution = (result.solution or []) if result.verdict == "won" else []
    game = steps(layout, result.position or result.deal, solution)
    start = "The deal" if result.position is None else "The start"
    items = [f'<li data-k="0" data-start="{start}"><span class="k">0.</span>{start}</li>']
    items += [f'<li data-k="{k}" data-move="{k}"><span class="k">{k}.</span><span class="m">{move_html(m)}</span></li>'
              for k, m in enumerate(solution, 1)]
    return _page(layout, caption(result, layout), verdict_html(result), [("game", game, items, "")])


def analysis_html(analysis: Analysis, layout: Any) -> str:
    """The page for an analysis (its moves legal, its line winning: ``api.load_analysis``): the game
    with the verdict after each move and the first losing move marked, and the winning line from
    just before it, shown instead at the press of a button."""
    a = analysis
    start_json = a.start.get("position") or a.start.get("deal") or {}
    game = steps(layout, start_json, a.moves)
    first = a.first_losing_move
    words = {"won": "can still be won", "lost": "can no longer be won", "unknown": "undecided"}
    items = [f'<li data-k="0" data-start="The start" data-verdict="{a.verdicts[0]}" '
             f'data-words="{words[a.verdicts[0]]}" class="{a.verdicts[0]}"><span class="k">0.</span>The start</li>']
    for k, (m, v) in enumerate(zip(a.moves, a.verdicts[1:]), 1):
        losing = first is not None and k == first + 1
        mark = ' <b class="badge">first losing move</b>' if losing else ""
        items.append(f'<li data-k="{k}" data-move="{k}" data-verdict="{v}" data-words="{words[v]}" '
                     f'class="{v}{" losing" if losing else ""}"><span class="k">{k}.</span>'
                     f'<span class="m">{move_html(m)}</span>{mark}</li>')
    sequences: list[tuple[str, list[Step], list[str], str]] = [("game", game, items, "")]
    at = a.winning_line_from
    if a.winning_line and at is not None:
        line = [game[at]]
        for m in a.winning_line:
            line.append(play(layout, line[-1].table, m))
        line_items = [f'<li data-k="0" data-start="The position after move {at}"><span class="k">{at}.</span>'
                      f"Before the winning line</li>"]
        line_items += [f'<li data-k="{j}" data-move="{at + j}"><span class="k">{at + j}.</span>'
                       f'<span class="m">{move_html(m)}</span></li>' for j, m in enumerate(a.winning_line, 1)]
        label = (f"the winning line from just before move {at + 1}" if first is not None
                 else f"the winning line from move {at + 1}")
        sequences.append(("line", line, line_items, label))
    what = a.layout + (f" #{a.seed}" if a.seed is not None else "")
    title = f"{getattr(layout, 'title', a.layout)}{what[len(a.layout):]}: analysis of {len(a.moves)} moves"
    return _page(layout, title, analysis_summary_html(a), sequences, open_at=first + 1 if first is not None else 0,
                 swap_at=at)


def analysis_summary_html(a: Analysis) -> str:
    """The analysis in words: the start, the first losing move and why, the searches."""
    first = a.first_losing_move
    if first is not None:
        head = (f'<b class="lost">first losing move: {first + 1}</b> ({move_html(a.moves[first])}); after it the '
                f"game can no longer be won ({escape(a.lost_reason() or '')}).")
    elif a.lost_after == 0:
        head = f'<b class="lost">lost from the start</b> ({escape(a.lost_reason() or "")}).'
    elif a.lost_after is not None:
        head = (f'<b class="unknown">lost after move {a.lost_after}</b>, but some positions before it stayed '
                "undecided: the first losing move is among them.")
    elif a.verdicts[-1] == "won":
        head = '<b class="won">no losing move</b>: every position can be won.'
    else:
        head = '<b class="unknown">undecided</b>: the searches stopped before they could decide.'
    stats = ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in a.stats.items())
    return (f'<p class="verdict">{head} Each move in the list is marked with the verdict of the position after it. '
            f'<span class="hint">{stats}</span></p>')


def _page(layout: Any, title_text: str, summary: str, sequences: list[tuple[str, list[Step], list[str], str]],
          open_at: int = 0, swap_at: int | None = None) -> str:
    """A page of one or more sequences of positions (``(name, steps, list items, what the
    button that shows it says)``) drawn in one frame of reference; the first is shown first."""
    d = Drawing.of(layout, [st for _, seq, _, _ in sequences for st in seq])
    frames, lists = [], []
    for name, seq, items, _ in sequences:
        for k, step in enumerate(seq):
            before = seq[k - 1].table if k else None
            frames.append(f'<g class="frame" data-seq="{name}" id="{name}-{k}">{d.draw(step, before)}</g>')
        back = "Back to the game" if name != "game" else (f"Show {sequences[1][3]}" if len(sequences) > 1 else "")
        lists.append(f'<ol class="moves" id="{"moves" if name == "game" else name}" data-seq="{name}" '
                     f'data-swap="{escape(back)}"{" hidden" if name != "game" else ""}>{"".join(items)}</ol>')
    felt = f'<rect width="{glyphs.num(d.width)}" height="{glyphs.num(d.height)}" rx="10" fill="#1d6a45"/>'
    board = (f'<svg id="board" viewBox="0 0 {glyphs.num(d.width)} {glyphs.num(d.height)}" '
             f'font-family="{glyphs.FONT}" role="img" aria-label="{escape(title_text)}">'
             f"{d.definitions}{felt}{d.under}{''.join(frames)}</svg>")
    title = escape(title_text)
    n = len(sequences[0][1]) - 1
    hidden = "" if n else " hidden"
    swap = (f'<button id="swap" data-at="{swap_at}" title="switch between the game and the winning line"></button>'
            if len(sequences) > 1 else "")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body data-open="{open_at}">
<header><h1>{title}</h1>{summary}</header>
<main>
<section class="board">
{board}
<div class="controls"{hidden}>
<button id="first" title="the start (Home)">&laquo; first</button>
<button id="prev" title="back one move (&larr;)">&lsaquo; back</button>
<input type="range" id="slider" min="0" max="{n}" value="0" aria-label="move">
<button id="next" title="next move (&rarr;)">next &rsaquo;</button>
<button id="last" title="the last move (End)">last &raquo;</button>
<span id="counter">0 / {n}</span>
{swap}
</div>
<p id="now"></p>
<p class="hint"{hidden}>Keys: &larr; &rarr; step, Home and End jump; click a move to go there.
The moved cards are outlined, with an arrow from where they came.</p>
</section>
<aside>{''.join(lists)}</aside>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""
