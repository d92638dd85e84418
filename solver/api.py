"""The Python API: load a layout, deal a seed, solve, verify, draw.

>>> from solver import api
>>> layout = api.load_layout("black-hole")
>>> result = api.solve(layout, seed=1)            # doctest: +SKIP
>>> result.verdict, len(result.solution)          # doctest: +SKIP

In a notebook the deal and the result draw themselves (``_repr_svg_``):
``api.deal("klondike", seed=1)`` shows the deal, ``api.solve(...)`` the deal
with its verdict; ``result.svg(move=k)`` is the position after k moves and
``result.html()`` the page that steps through them (``patience view``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import Any

from .engines import ENGINES
from .errors import InputError, VerificationFailed
from .families import AnyLayout, family_of
from .families import load_layout as _load
from .fingerprint import rules_fingerprint
from .limits import Limits
from .result import EXIT_CODES, EngineRun, Result

__all__ = ["AnyLayout", "DrawableDeal", "DrawableResult", "Limits", "Result", "VerificationFailed", "deal",
           "load_layout", "load_result", "make_deal", "reduced_rank", "solve", "verify", "verify_solution"]


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


def make_deal(layout: AnyLayout, seed: int | None = None, deal_file: str | None = None) -> Any:
    """The deal of ``seed``, or the deal read from ``deal_file``; a game with one start and no
    shuffle (peg boards) also deals with neither."""
    family = family_of(layout)
    if not family.shuffled:
        if seed is not None:
            raise InputError(f"--seed: layout {layout.name!r} has one start and no shuffle; leave out --seed "
                             "(or give a start position with --deal FILE)")
        if deal_file is None:
            return family.deal_from_seed(layout, None)
    if (seed is None) == (deal_file is None):
        raise InputError("give exactly one of --seed N or --deal FILE")
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
    """A deal with its layout, which draws itself in a notebook.  ``stacks`` is the deal as
    ``make_deal`` returns it (what ``solve(deal=...)`` takes; ``solve`` also takes this object)."""

    layout: AnyLayout
    stacks: Any
    seed: int | None = None

    def to_json(self) -> dict[str, list[str]]:
        """The result contract's form of the deal: stack names to card names (or peg holes)."""
        return family_of(self.layout).deal_to_json(self.layout, self.stacks)

    def svg(self) -> str:
        from . import draw

        where = f" #{self.seed}" if self.seed is not None else ""
        return draw.deal_svg(self.layout, self.to_json(), title=f"{self.layout.title}{where}")

    def _repr_svg_(self) -> str:
        return self.svg()


def deal(layout: str | AnyLayout, seed: int | None = None, deal_file: str | None = None,
         max_rank: int | None = None) -> DrawableDeal:
    """The deal of ``seed`` (or read from ``deal_file``) of a layout given by name, path or object."""
    lay = load_layout(layout, max_rank)
    return DrawableDeal(lay, make_deal(lay, seed, deal_file), seed)


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
        raise InputError(f"{where}: max_rank: expected a whole number 1..13, got {max_rank!r}")
    try:
        lay = load_layout(layout or obj["layout"], max_rank)
        family = family_of(lay)
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
        stats=stats if isinstance(stats, dict) else {}, deal=family.deal_to_json(lay, dealt),
        solution=solution if obj["verdict"] == "won" or checked.seat is not None else None, max_rank=max_rank,
        fingerprint=obj.get("fingerprint") if isinstance(obj.get("fingerprint"), str) else None,
        seat=checked.seat, score=checked.score)
    return DrawableResult.of(result, lay)


def solve(layout: str | AnyLayout, *, seed: int | None = None, deal: Any = None,
          deal_file: str | None = None, engine: str | None = None, limits: Limits | None = None,
          **options: Any) -> DrawableResult:
    """Decide one deal.  A ``won`` result's solution has been replayed by the referee;
    the result draws itself in a notebook (``DrawableResult``).  ``engine`` None: the family's
    default (dfs for the patiences, minimax for the games of chance, whose ``seat`` option names
    the side the verdict is for)."""
    layout = load_layout(layout)
    family = family_of(layout)
    engine = engine or family.default_engine
    deal = deal.stacks if isinstance(deal, DrawableDeal) else deal
    if deal is None:
        deal = make_deal(layout, seed, deal_file)
    if engine not in ENGINES:
        raise InputError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    limits = limits or Limits()
    t0 = time.perf_counter()
    run: EngineRun = ENGINES[engine](layout, deal, limits, **options)
    stats = {"nodes": run.nodes, "seconds": round(time.perf_counter() - t0, 4), **run.stats}
    keep = run.verdict == "won" or (run.seat is not None and run.verdict != "unknown")  # a line of best play
    result = DrawableResult(layout=layout.name, seed=seed, engine=engine, verdict=run.verdict,
                            reason=run.reason, stats=stats, deal=family.deal_to_json(layout, deal),
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
    deal = family.deal_from_json(lay, result.deal, "result deal")
    if result.seed is not None and family.shuffled:
        if family.deal_from_seed(lay, result.seed) != deal:
            return (f"the result's deal is not deal #{result.seed} of {lay.name!r} (`patience deal "
                    f"{lay.name} --seed {result.seed}` prints that one)")
    if result.verdict != "won" and result.seat is None:
        return None  # nothing to replay: the deal and the rules are what could be checked
    return family.replay_result(lay, deal, result)
