"""The Python API: load a layout, deal a seed, solve, verify, draw.

>>> from solver import api
>>> layout = api.load_layout("black-hole")
>>> result = api.solve(layout, seed=1)            # doctest: +SKIP
>>> result.verdict, len(result.solution)          # doctest: +SKIP

A game part-way through is a position (``read_position``, ``position_after``,
``position_text``; ``docs/positions.md``), which ``solve`` takes like a deal;
``analyse`` finds the first losing move of a played game and ``hint`` the next
move of a winning line (``solver.analysis``).

In a notebook the deal and the result draw themselves (``_repr_svg_``):
``api.deal("klondike", seed=1)`` shows the deal, ``api.solve(...)`` the deal
with its verdict; ``result.svg(move=k)`` is the position after k moves and
``result.html()`` the page that steps through them (``patience view``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import Any

from . import cards
from .analysis import Hint
from .analysis import analyse as _analyse
from .analysis import hint as _hint
from .analysis_record import Analysis
from .engines import ENGINES
from .errors import InputError, VerificationFailed
from .families import AnyLayout, family_of
from .families import load_layout as _load
from .files import RESULT_LIMIT, json_text, parse_json, read_text, shown
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import EXIT_CODES, EngineRun, Result

__all__ = ["Analysis", "AnyLayout", "DrawableDeal", "DrawableResult", "Hint", "Limits", "Result", "VerificationFailed",
           "analyse", "deal", "hint", "load_analysis", "load_layout", "load_result", "make_deal", "moves_from_json",
           "position_after", "position_from_json", "position_json", "position_text", "read_moves", "read_position",
           "reduced_rank", "solve", "verify", "verify_solution"]


def load_layout(name_or_path: str | AnyLayout, max_rank: int | None = None,
                settings: tuple[str, ...] | list[str] = ()) -> AnyLayout:
    """A built-in layout by name, a layout file by path, or a layout passed through;
    with ``max_rank``, the same game on a reduced deck of ranks A..max_rank; ``settings``
    (``"KEY=VALUE"``, the command line's ``--set``) change keys of the file before it is read."""
    if settings and not isinstance(name_or_path, str):
        raise InputError("--set: give the layout by name or file, not as a loaded layout")
    lay = _load(name_or_path, tuple(settings)) if isinstance(name_or_path, str) else name_or_path
    if max_rank is not None and max_rank != family_of(lay).max_rank(lay):
        lay = family_of(lay).with_max_rank(lay, max_rank)
    return lay


def make_deal(layout: AnyLayout, seed: int | None = None, deal_file: str | None = None,
              position_file: str | None = None) -> Any:
    """The deal of ``seed``, the deal read from ``deal_file``, or the position read from
    ``position_file`` (a game part-way through: what the searches and the referee also start
    from); a game with one start and no shuffle (peg boards) also deals with none of them.
    A file ``-`` is standard input."""
    family = family_of(layout)
    given = sum(x is not None for x in (seed, deal_file, position_file))
    if not family.shuffled:
        if seed is not None:
            raise InputError(f"--seed: layout {layout.name!r} has one start and no shuffle; leave out --seed "
                             "(or give a start position with --deal FILE)")
        if not given:
            return family.deal_from_seed(layout, None)
    if given != 1:
        raise InputError("give exactly one of --seed N, --deal FILE or --position FILE")
    if position_file is not None:
        return family.read_position(layout, position_file)
    if deal_file is not None:
        return family.read_deal(layout, deal_file)
    return family.deal_from_seed(layout, seed)


def reduced_rank(layout: AnyLayout) -> int | None:
    """The top rank of a reduced deck, or None for the full deck (or a game without cards)."""
    return family_of(layout).max_rank(layout)


def verify_solution(layout: AnyLayout, deal: Any, solution: list[dict[str, Any]]) -> str | None:
    """None if ``solution`` is legal move by move and wins; else what is wrong, naming the move.
    The family's referee replays it from the rules in words, sharing no code with the engines."""
    return family_of(layout).replay(layout, deal, solution)


@dataclass(frozen=True)
class DrawableDeal:
    """A deal (or a position part-way through a game) with its layout, which draws itself in a
    notebook.  ``stacks`` is the deal or the position as ``make_deal`` returns it (what
    ``solve(deal=...)`` takes; ``solve`` also takes this object)."""

    layout: AnyLayout
    stacks: Any
    seed: int | None = None
    moves: int | None = None  # for a position reached from the deal of ``seed``: how many moves in

    @property
    def is_deal(self) -> bool:
        return family_of(self.layout).is_deal(self.layout, self.stacks)

    def to_json(self) -> dict[str, Any]:
        """The result contract's form: a deal maps stack names to card names (or lists peg holes);
        a position is ``solver.positions.to_json``'s object (``docs/positions.md``)."""
        family = family_of(self.layout)
        if self.is_deal:
            return family.deal_to_json(self.layout, self.stacks)
        return family.position_to_json(self.layout, self.stacks)

    def text(self) -> str:
        """As ``patience deal`` prints it: a deal's listing, or a position's."""
        family = family_of(self.layout)
        if self.is_deal:
            return family.deal_to_text(self.layout, self.stacks)
        return family.position_to_text(self.layout, self.stacks, self.title())

    def title(self) -> str:
        where = f" #{self.seed}" if self.seed is not None else ""
        after = f", after move {self.moves}" if self.moves else ""
        return f"{self.layout.title}{where}{after}"

    def svg(self) -> str:
        from . import draw

        return draw.deal_svg(self.layout, self.to_json(), title=self.title())

    def _repr_svg_(self) -> str:
        return self.svg()


def deal(layout: str | AnyLayout, seed: int | None = None, deal_file: str | None = None,
         max_rank: int | None = None, *, position_file: str | None = None,
         moves: list[dict[str, Any]] | str | None = None) -> DrawableDeal:
    """The deal of ``seed`` (or read from ``deal_file``, or the position read from
    ``position_file``) of a layout given by name, path or object; with ``moves`` (a list of
    moves in the result contract, or a file ``read_moves`` reads), the position after them."""
    lay = load_layout(layout, max_rank)
    start = make_deal(lay, seed, deal_file, position_file)
    if moves is None:
        return DrawableDeal(lay, start, seed)
    played = read_moves(moves) if isinstance(moves, str) else moves
    where = moves if isinstance(moves, str) else "moves"
    return DrawableDeal(lay, position_after(lay, start, played, where), seed, len(played))


class DrawableResult(Result):
    """A result that draws itself in a notebook: the deal with its verdict (``_repr_svg_``),
    any position of its solution (``svg(move=k)``) and the step-through page (``html()``).
    It is a ``Result`` in every other way; its layout is the one it was solved or loaded with."""

    drawn_layout: AnyLayout | None = None

    @classmethod
    def of(cls, result: Result, layout: AnyLayout) -> DrawableResult:
        out = cls(**{f.name: getattr(result, f.name) for f in fields(Result)})
        out.drawn_layout = layout
        return out

    def _layout(self) -> AnyLayout:
        return self.drawn_layout or load_layout(self.layout, self.max_rank)

    def svg(self, move: int = 0) -> str:
        """The position after ``move`` moves of the solution (0: the deal), as SVG."""
        from . import draw

        return draw.result_svg(self, self._layout(), move)

    def html(self) -> str:
        """The self-contained page that steps through the solution."""
        from .draw.viewer import viewer_html

        return viewer_html(self, self._layout())

    def _repr_svg_(self) -> str:
        return self.svg()


def load_result(source: Result | dict[str, Any], layout: str | AnyLayout | None = None,
                where: str = "result") -> DrawableResult:
    """A result (an object or its JSON) checked against its layout: the deal must fit it and a
    ``won`` solution must replay; else ``InputError`` naming ``where``."""
    obj = source.to_json() if isinstance(source, Result) else source
    if not isinstance(obj, dict) or obj.get("verdict") not in EXIT_CODES or not isinstance(obj.get("layout"), str):
        raise InputError(f"{where}: expected a result object with 'layout', 'verdict' (won, lost or unknown), "
                         "'deal' and 'solution'")
    max_rank = obj.get("max_rank")
    if max_rank is not None and (type(max_rank) is not int or not 1 <= max_rank <= 13):
        raise InputError(f"{where}: max_rank: expected a whole number 1..13, got {json_text(max_rank)}")
    try:
        lay = load_layout(layout or obj["layout"], max_rank)
        family = family_of(lay)
        if isinstance(obj.get("position"), dict):
            dealt = family.position_from_json(lay, obj["position"], f"{where}: position")
        else:
            dealt = family.deal_from_json(lay, obj.get("deal"), f"{where}: deal")
    except InputError as e:
        raise InputError(str(e) if str(e).startswith(where) else f"{where}: {e}") from None
    solution = obj.get("solution")
    checked = Result.from_json(obj, where)
    if obj["verdict"] == "won" or (checked.seat is not None and checked.verdict != "unknown"):
        if not isinstance(solution, list):
            raise InputError(f"{where}: solution: expected the list of moves of a {obj['verdict']} result")
        problem = family.replay_result(lay, dealt, checked)
        if problem is not None:
            raise InputError(f"{where}: {problem}")
    seed, stats, reason = obj.get("seed"), obj.get("stats"), obj.get("reason")
    result = Result(
        layout=obj["layout"], seed=seed if isinstance(seed, int) else None, engine=str(obj.get("engine", "?")),
        verdict=obj["verdict"], reason=reason if isinstance(reason, str) else None,
        stats=stats if isinstance(stats, dict) else {}, **family.start_to_json(lay, dealt),
        solution=solution if obj["verdict"] == "won" or checked.seat is not None else None, max_rank=max_rank,
        fingerprint=obj.get("fingerprint") if isinstance(obj.get("fingerprint"), str) else None,
        seat=checked.seat, score=checked.score)
    return DrawableResult.of(result, lay)


def solve(layout: str | AnyLayout, *, seed: int | None = None, deal: Any = None,
          deal_file: str | None = None, engine: str | None = None, limits: Limits | None = None,
          position_file: str | None = None, **options: Any) -> DrawableResult:
    """Decide one deal, or one position (``deal`` may be one; ``position_file`` reads one).  A
    ``won`` result's solution has been replayed by the referee; the result draws itself in a
    notebook (``DrawableResult``).  Only the ``dfs`` engine starts part-way through a game.
    ``engine`` None: the family's default (dfs for the patiences, minimax for the games of
    chance, whose ``seat`` option names the side the verdict is for)."""
    layout = load_layout(layout)
    family = family_of(layout)
    engine = engine or family.default_engine
    deal = deal.stacks if isinstance(deal, DrawableDeal) else deal
    if deal is None:
        deal = make_deal(layout, seed, deal_file, position_file)
    if engine not in ENGINES:
        raise InputError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    limits = limits or Limits()
    t0 = time.perf_counter()
    run: EngineRun = ENGINES[engine](layout, deal, limits, **options)
    stats = {"nodes": run.nodes, "seconds": round(time.perf_counter() - t0, 4), **run.stats}
    keep = run.verdict == "won" or (run.seat is not None and run.verdict != "unknown")  # a line of best play
    result = DrawableResult(layout=layout.name, seed=seed, engine=engine, verdict=run.verdict,
                            reason=run.reason, stats=stats, **family.start_to_json(layout, deal),
                            solution=run.solution if keep else None,
                            max_rank=family.max_rank(layout), fingerprint=rules_fingerprint(layout),
                            seat=run.seat, score=run.score)
    result.drawn_layout = layout
    if result.solution is not None:
        problem = family.replay_result(layout, deal, result)
        if problem is not None:
            raise VerificationFailed(f"engine {engine} claimed a win on {layout.name} "
                                     f"seed {seed} but the verifier says: {problem}")
    return result


def _start_of(family: Any, lay: AnyLayout, result: Result, where: str) -> Any:
    """The deal or the position a result starts from, checked against the layout."""
    if result.position is not None:
        return family.position_from_json(lay, result.position, f"{where} position")
    return family.deal_from_json(lay, result.deal, f"{where} deal")


def verify(result: Result | dict[str, Any], layout: str | AnyLayout | None = None) -> str | None:
    """Replay a result's solution; None if every move is legal and the game is won, else a
    one-line description of what is wrong: the first illegal move, a deal that is not the deal of
    the result's seed, or rules (the fingerprint) other than the layout's.  A result that is not
    ``won`` has no moves: only its deal and rules are checked."""
    if isinstance(result, dict):
        result = Result.from_json(result)
    lay = load_layout(layout or result.layout, result.max_rank if layout is None else None)
    family = family_of(lay)
    if result.fingerprint is not None and result.fingerprint != rules_fingerprint(lay):
        return (f"the result was made with rules fingerprint {result.fingerprint}, but layout {lay.name!r} "
                f"has rules fingerprint {rules_fingerprint(lay)} (an edited or another layout file? give it "
                "with --layout, or the same --set KEY=VALUE)")
    deal = _start_of(family, lay, result, "result")
    if result.seed is not None and family.shuffled and result.position is None:
        if family.deal_from_seed(lay, result.seed) != deal:
            return (f"the result's deal is not deal #{result.seed} of {lay.name!r} (`patience deal "
                    f"{lay.name} --seed {result.seed}` prints that one)")
    if result.verdict != "won" and result.seat is None:
        return None  # nothing to replay: the deal and the rules are what could be checked
    return family.replay_result(lay, deal, result)


# ---------------------------------------------------------------- positions and analysis (issue #27)


def read_position(layout: str | AnyLayout, path: str) -> Any:
    """A position read from a file (the text ``position_text`` writes, or JSON; ``-``: standard
    input), checked: one that no deal could reach is an ``InputError`` naming what is wrong."""
    lay = load_layout(layout)
    return family_of(lay).read_position(lay, path)


def position_text(layout: str | AnyLayout, position: Any, title: str | None = None) -> str:
    """A position (or a deal, as the position at move 0) as text a person reads and edits."""
    lay = load_layout(layout)
    family = family_of(lay)
    if family.is_deal(lay, position):
        position = family.position_of_deal(lay, position)
    return family.position_to_text(lay, position, title)


def position_json(layout: str | AnyLayout, position: Any) -> dict[str, Any]:
    """A position (or a deal, as the position at move 0) as JSON (``docs/positions.md``)."""
    lay = load_layout(layout)
    family = family_of(lay)
    if family.is_deal(lay, position):
        position = family.position_of_deal(lay, position)
    return family.position_to_json(lay, position)


def position_from_json(layout: str | AnyLayout, obj: Any, where: str = "position") -> Any:
    """A position from its JSON object, checked like ``read_position``."""
    lay = load_layout(layout)
    return family_of(lay).position_from_json(lay, obj, where)


def position_after(layout: str | AnyLayout, start: Any, moves: list[dict[str, Any]], where: str = "moves") -> Any:
    """The position after ``moves`` (the result contract's), played by the referee from ``start``
    (a deal or a position); an illegal move is an ``InputError`` naming ``where`` and its index."""
    lay = load_layout(layout)
    start = start.stacks if isinstance(start, DrawableDeal) else start
    return family_of(lay).position_after(lay, start, moves, where)


def read_moves(path: str) -> list[dict[str, Any]]:
    """The moves of a game from a file (``-``: standard input): a JSON list of moves in the result
    contract's shape, a result JSON (its ``solution``) or an analysis (its ``moves``).  Each move
    is checked for its shape; whether it is legal is the referee's to say."""
    return moves_from_json(_read_json(path), shown(path))


def _read_json(path: str) -> Any:
    text = read_text(path, RESULT_LIMIT, "moves file", "a JSON list of moves, or a result JSON with a solution")
    return parse_json(text, shown(path))


def moves_from_json(obj: Any, where: str = "moves") -> list[dict[str, Any]]:
    """``read_moves``'s reading of parsed JSON."""
    if isinstance(obj, dict) and obj.get("kind") == "analysis" and isinstance(obj.get("moves"), list):
        obj = [m.get("move") if isinstance(m, dict) else m for m in obj["moves"]]
        where = f"{where}: moves"
    elif isinstance(obj, dict) and "solution" in obj:
        obj = obj["solution"] if obj["solution"] is not None else []
        where = f"{where}: solution"
    if not isinstance(obj, list):
        raise InputError(f"{where}: expected a JSON list of moves such as "
                         '[{"card": "7S", "from": "stock", "to": "reserve:4"}], or a result JSON with a solution')
    for i, m in enumerate(obj):
        if not (isinstance(m, dict) and all(isinstance(m.get(k), str) for k in ("from", "to"))
                and isinstance(m.get("card", ""), str) and type(m.get("count", 1)) is int and m.get("count", 1) >= 1):
            raise InputError(f"{where}[{i}]: expected a move {{\"card\", \"from\", \"to\"[, \"count\"]}} "
                             f"(count a whole number >= 1), got {json_text(m, 80)}")
        if not cards.move_card_ok(m.get("card", "")):
            raise InputError(f"{where}[{i}]: card: expected {cards.MOVE_CARD}, got {json_text(m['card'])}")
    return obj


def start_of(layout: AnyLayout, seed: int | None = None, deal: Any = None, deal_file: str | None = None,
             position_file: str | None = None) -> Any:
    """The deal or position given: ``deal`` (a deal, a position or a ``DrawableDeal``), else
    ``make_deal``'s sources."""
    start = deal.stacks if isinstance(deal, DrawableDeal) else deal
    return make_deal(layout, seed, deal_file, position_file) if start is None else start


def analyse(layout: str | AnyLayout, moves: list[dict[str, Any]] | str, *, seed: int | None = None,
            deal: Any = None, deal_file: str | None = None, position_file: str | None = None,
            limits: Limits | None = None, budget: float | None = None, core: str = "auto",
            progress: Any = None) -> Analysis:
    """Analyse a played game: ``moves`` (a list in the result contract, or a file ``read_moves``
    reads) from the start given (a seed, a deal or a position; by default the start the file
    ``moves`` records, when it is a result or an analysis).  Returns the verdict of the start and
    of the position after each move, the first losing move and a winning line from just before it
    (``solver.analysis``); ``limits`` bound each search, ``budget`` (seconds) the whole analysis."""
    lay = load_layout(layout)
    where = "moves"
    if isinstance(moves, str):
        where = shown(moves)
        obj = _read_json(moves)
        if deal is None and seed is None and deal_file is None and position_file is None:
            deal, seed = _start_in(lay, obj, where)
        moves = moves_from_json(obj, where)
    start = start_of(lay, seed, deal, deal_file, position_file)
    return _analyse(lay, start, moves, seed=seed, limits=limits, budget=budget, core=core, progress=progress,
                    where=where)


def _start_in(layout: AnyLayout, obj: Any, where: str) -> tuple[Any, int | None]:
    """The start a result (or an analysis) records: its deal or its position, and its seed."""
    if not isinstance(obj, dict) or not (isinstance(obj.get("deal"), dict) or isinstance(obj.get("position"), dict)):
        raise InputError(f"{where}: no deal or position in it to start from: give --seed N, --deal FILE or "
                         "--position FILE")
    family = family_of(layout)
    seed = obj.get("seed") if type(obj.get("seed")) is int else None
    if isinstance(obj.get("position"), dict):
        return family.position_from_json(layout, obj["position"], f"{where}: position"), seed
    deal = family.deal_from_json(layout, obj["deal"], f"{where}: deal")
    if seed is not None and family.shuffled and family.deal_from_seed(layout, seed) != deal:
        raise InputError(f"{where}: its deal is not deal #{seed} of {layout.name!r}")
    return deal, seed


def hint(layout: str | AnyLayout, *, seed: int | None = None, deal: Any = None, deal_file: str | None = None,
         position_file: str | None = None, moves: list[dict[str, Any]] | str | None = None,
         limits: Limits | None = None, core: str = "auto", progress: Any = None) -> Hint:
    """The next move of a winning line from a position (a seed's deal, a deal, or a position,
    after ``moves`` if given), or the argument that proves it lost (``solver.analysis.hint``)."""
    lay = load_layout(layout)
    played = read_moves(moves) if isinstance(moves, str) else moves
    start = start_of(lay, seed, deal, deal_file, position_file)
    if played:
        start = position_after(lay, start, played, moves if isinstance(moves, str) else "moves")
    return _hint(lay, start, limits=limits, core=core, progress=progress)


def load_analysis(source: Analysis | dict[str, Any], layout: str | AnyLayout | None = None,
                  where: str = "analysis") -> tuple[Analysis, AnyLayout]:
    """An analysis (an object or its JSON) checked against its layout: the start must fit it, the
    moves must be legal (the first illegal one is named with its index), and the winning line
    must win from its position; else ``InputError`` naming ``where``.  With the layout it is for."""
    a = Analysis.from_json(source.to_json() if isinstance(source, Analysis) else source, where)
    try:
        lay = load_layout(layout or a.layout, a.max_rank)
    except InputError as e:
        raise InputError(f"{where}: {e}") from None
    family = family_of(lay)
    if isinstance(a.start.get("position"), dict):
        start = family.position_from_json(lay, a.start["position"], f"{where}: position")
    else:
        start = family.deal_from_json(lay, a.start.get("deal"), f"{where}: deal")
    if a.fingerprint is not None and a.fingerprint != rules_fingerprint(lay):
        raise InputError(f"{where}: made with rules fingerprint {a.fingerprint}, but layout {lay.name!r} has "
                         f"{rules_fingerprint(lay)} (an edited or another layout file?)")
    family.position_after(lay, start, a.moves, f"{where}: moves")
    if a.winning_line is not None and a.winning_line_from is not None:
        at = family.position_after(lay, start, a.moves[:a.winning_line_from], f"{where}: moves")
        problem = family.replay(lay, at, a.winning_line)
        if problem is not None:
            raise InputError(f"{where}: winning_line: {problem}")
    return a, lay
