"""One self-contained HTML page that steps through a result: every position, the move list.

Everything is inline (SVG, CSS, a few lines of script) and nothing is loaded
from the network, so the page opens from a mail attachment.  Each position is
an SVG group (``<g class="frame">``) drawn in one frame of reference; the
script only shows one group at a time and keeps the counter, the slider and
the move list in step: the arrow keys, Home and End, the buttons, the slider,
or a click on a move.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..result import Result
from . import Drawing, caption, glyphs, steps

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
.red { color: #c8102e; } .black { color: #1b1b1b; }
.hint { color: #78867c; font-size: 13px; }
"""

SCRIPT = """
(function () {
  var frames = document.querySelectorAll("#board .frame");
  var items = document.querySelectorAll("#moves li");
  var n = frames.length - 1, k = 0;
  var slider = document.getElementById("slider"), counter = document.getElementById("counter");
  var now = document.getElementById("now");
  var buttons = {first: 0, prev: -1, next: 1, last: 0};
  function show(j) {
    j = Math.max(0, Math.min(n, j));
    frames[k].classList.remove("on"); items[k].classList.remove("on");
    k = j;
    frames[k].classList.add("on"); items[k].classList.add("on");
    items[k].scrollIntoView({block: "nearest"});
    slider.value = k;
    counter.textContent = k + " / " + n;
    now.innerHTML = k ? "Move " + k + ": " + items[k].querySelector(".m").innerHTML : "The deal";
    document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = k === n;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(k - 1); };
  document.getElementById("next").onclick = function () { show(k + 1); };
  document.getElementById("last").onclick = function () { show(n); };
  slider.oninput = function () { show(Number(slider.value)); };
  items.forEach(function (li, j) { li.onclick = function () { show(j); }; });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: n}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  show(0);
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
    all_steps = steps(layout, result.deal, solution)
    d = Drawing.of(layout, all_steps)
    frames = []
    for k, step in enumerate(all_steps):
        before = all_steps[k - 1].table if k else None
        frames.append(f'<g class="frame" id="frame-{k}">{d.draw(step, before)}</g>')
    felt = f'<rect width="{glyphs.num(d.width)}" height="{glyphs.num(d.height)}" rx="10" fill="#1d6a45"/>'
    board = (f'<svg id="board" viewBox="0 0 {glyphs.num(d.width)} {glyphs.num(d.height)}" '
             f'font-family="{glyphs.FONT}" role="img" aria-label="{escape(caption(result, layout))}">'
             f"{d.definitions}{felt}{d.under}{''.join(frames)}</svg>")
    start = "The deal"
    items = [f'<li data-k="0"><span class="k">0.</span>{start}</li>']
    items += [f'<li data-k="{k}"><span class="k">{k}.</span><span class="m">{move_html(m)}</span></li>'
              for k, m in enumerate(solution, 1)]
    title = escape(caption(result, layout))
    n = len(solution)
    hidden = "" if n else " hidden"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{STYLE}</style>
</head>
<body>
<header><h1>{title}</h1>{verdict_html(result)}</header>
<main>
<section class="board">
{board}
<div class="controls"{hidden}>
<button id="first" title="the deal (Home)">&laquo; first</button>
<button id="prev" title="back one move (&larr;)">&lsaquo; back</button>
<input type="range" id="slider" min="0" max="{n}" value="0" aria-label="move">
<button id="next" title="next move (&rarr;)">next &rsaquo;</button>
<button id="last" title="the last move (End)">last &raquo;</button>
<span id="counter">0 / {n}</span>
</div>
<p id="now"></p>
<p class="hint"{hidden}>Keys: &larr; &rarr; step, Home and End jump; click a move to go there.
The moved cards are outlined, with an arrow from where they came.</p>
</section>
<aside><ol id="moves">{''.join(items)}</ol></aside>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""
