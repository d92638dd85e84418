"""What a game family is: the small interfaces between the families and the engines.

A *family* (``GameFamily``) is one kind of game that the engines can play: the
debutante family's reserve columns, the hole games, the tableau games, peg
boards.  It is a registered type, in the manner of python-chess's variants:
``solver.families.family_of(layout)`` finds it from the layout's ``family``
field, and it supplies everything the layers above need: its layout type, how
it deals and reads deals, the start ``Position`` the DFS searches, its referee,
and its CP-SAT model if it has one.  A ``LayoutReader`` reads one kind of
layout file (card layouts, shared by three families; peg boards).

A *position* is one mutable object with an undo stack, in the manner of
python-chess: ``push(move)`` plays a move, ``pop()`` takes the last one back.
Engines never look inside a position; they only use the methods below.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..errors import InputError, UnsupportedError
from ..limits import Limits
from ..result import Result, Verdict


class Position(Protocol):
    @property
    def history(self) -> list[Any]:
        """The moves played since the deal, oldest first."""

    @property
    def learns(self) -> bool:
        """Whether the DFS learns from its lost subtrees (``LearningPosition``)."""

    def legal_moves(self) -> list[Any]:
        """Every legal move here, best first (a list: the position will change)."""

    def forced_move(self) -> Any | None:
        """A move that is safe to play automatically (a proved dominance), or None."""

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def is_won(self) -> bool: ...

    def is_dead(self) -> str | None:
        """The name of a sound bound that proves no win is reachable from here, or None."""

    def key(self) -> Hashable:
        """The transposition key: equal for positions that are the same for play."""

    def move_json(self, move: Any) -> dict[str, Any] | None:
        """A move in the result contract's form: {"card", "from", "to"[, "count"]};
        None for a decision of the search that moves nothing."""


class GamePosition(Protocol):
    """A game of two sides over a known order (the games of chance, issue #25), for the minimax
    engine: the seat asked about maximises ``score``, the other side minimises it."""

    integral: bool  # scores are whole numbers (the engine then closes in on them by null windows)

    @property
    def history(self) -> list[Any]:
        """The moves played since the deal, oldest first."""

    def side(self) -> int:
        """+1: the seat chooses the next move; -1: the other side does; 0: the game is over."""

    def legal_moves(self) -> list[Any]: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def score(self) -> Any:
        """The seat's result once the game is over (a Fraction or an int)."""

    def banked(self) -> Any:
        """What the seat has earned for certain so far; ``key`` leaves it out (0 if nothing is)."""

    def bounds(self) -> tuple[Any, Any]:
        """Sound bounds on what is still to come (``score() - banked()`` at the end), proved in the
        position's docstring; ``(-inf, inf)`` where it knows none."""

    def key(self) -> Hashable:
        """Everything that decides the rest of the game (not what is banked)."""

    def move_json(self, move: Any) -> dict[str, Any]: ...


class LearningPosition(Position, Protocol):
    """A position whose lost subtrees the DFS can generalise (``solver.engines.dfs``, "Learning").

    A *horizon* is a point of the game's clock (in the debutante family, the stock's length) with
    a claim the family proves of the lines of play from the position; the family has two kinds of
    claim (in the debutante family: kind 0, no line gets past it; kind 1, none gets past it
    without first burying a card); 0 claims nothing.

    - ``horizons``: set by ``is_dead`` when it names a bound, the bound's horizon of each kind.
    - ``stuck_horizon()``: the horizon (of both kinds) of this position when it has no legal move.
    - ``clock()``: where the position stands on the clock (keys of different clocks never meet).
    - ``learned_key(kind, L)``: a key, equal for two positions exactly when the family's proof
      carries the claim of that kind at horizon ``L`` from one to the other.
    - ``strong_bounds``: the family's costly bounds are on (the engine's first search, without
      learning, turns them off with it; ``dfs.run_dfs``).
    """

    strong_bounds: bool

    @property
    def horizons(self) -> tuple[int, int]: ...

    def stuck_horizon(self) -> int: ...

    def clock(self) -> int: ...

    def learned_key(self, kind: int, horizon: int) -> Hashable: ...


def slack(pos: Any) -> int | None:
    """How many more cards the position's tightest bound could take before it proves the position
    lost, where the family can say (``pos.slack()``); else None.

    A position may define ``slack() -> int | None`` (optional; most do not): for a counting
    bound, the room left at its tightest turn.  The engines report it for a search cut short
    (``solver.engines.dfs.line_slack``), at the deal and along the deepest line, so that an
    unknown says how near its bounds came to deciding it.  It is never used to prune."""
    method = getattr(pos, "slack", None)
    return None if method is None else method()


def solution_json(pos: Position, moves: list[Any]) -> list[dict[str, Any]]:
    """The moves, played from ``pos``, in the result contract; ``pos`` is left as it was."""
    solution = []
    for m in moves:
        record = pos.move_json(m)
        if record is not None:  # None: a decision of the search, not a move of the game
            solution.append(record)
        pos.push(m)
    for _ in moves:
        pos.pop()
    return solution


# A rating of the win finder: a position's bucket and score (``Evaluation.rates``).
Rate = Callable[[Any], tuple[int, int]]


class Evaluation(Protocol):
    """What the win finder (``solver.engines.finder``) asks of a family, per position: a rating
    (``rates``) gives its bucket (positions of different buckets do not compete for the beam's places: say,
    rows left to deal) and its score (lower is more promising).  It only orders the beam, so it
    needs no proof: a bad one costs time, never a wrong answer (the finder reports only wins, and
    the referee replays them)."""

    WIDTH: int  # positions kept per bucket at the finder's first run

    def rates(self) -> Sequence[Rate]:
        """The ratings of the finder's runs, taken in turn (one where one serves)."""

    def focus(self, pos: Any, on: bool) -> None:
        """With ``on``, narrow the position's moves to those the finder tries (a subset of the
        legal moves, so its wins stay wins); ``False`` gives the position all its moves back."""


# What a model's solve gives: verdict, reason, the moves of a win, statistics.
Solved = tuple[Verdict, str | None, list[dict[str, Any]] | None, dict[str, Any]]


class Model(Protocol):
    """A CP-SAT model of one deal.  ``solve`` gives the verdict, the reason (the limit hit,
    for ``unknown``), the moves of a win in the result contract, and statistics, with
    ``branches`` the search's size."""

    AUTO_SHARE: ClassVar[float]  # the share of the ``auto`` portfolio's time CP-SAT gets

    def __init__(self, layout: Any, deal: Any, features: Any = None) -> None: ...

    def solve(self, limits: Limits, options: dict[str, Any]) -> Solved: ...


class Referee(Protocol):
    """The referee's game at one moment, stepped one move at a time (``GameFamily.referee``).

    Written from the rules in words on plain lists of card names; it shares nothing with the
    positions, the rule tables or the models.  ``replay`` is a loop over ``play``; the plain
    exhaustive search (``solver.families.brute``) steps it from a copy to another.
    """

    moves: int  # moves played so far
    problem: str | None  # what is wrong with the deal itself (then no move is legal), or None

    def play(self, move: dict[str, Any]) -> str | None:
        """Play ``move`` (in the result contract) if it is legal and return None; else what is
        wrong, naming the move; a refused move changes nothing."""

    def won(self) -> bool: ...

    def unfinished(self) -> str | None:
        """None when the game is won; else how it falls short, after the moves played so far."""

    def state(self) -> Hashable:
        """Everything that decides what may happen next (not the number of moves played)."""

    def copy(self) -> Referee: ...

    def stacks(self) -> dict[str, list[str]]:
        """Every stack by name, its cards bottom first and the card that leaves next last."""

    def position(self) -> Any:
        """The game now as a position its family reads (``GameFamily.position_to_json``), from
        which a referee and a search can start again."""


def replay_moves(game: Referee, solution: list[dict[str, Any]]) -> str | None:
    """A referee's verdict on a solution: None if every move is legal and the game ends won; else
    what is wrong with the deal, or the first illegal move, or how the end falls short."""
    if game.problem:
        return game.problem
    for move in solution:
        problem = game.play(move)
        if problem:
            return problem
    return game.unfinished()


def _claims_no_toml(data: dict[str, Any]) -> bool:
    return False


@dataclass(frozen=True)
class LayoutReader:
    """One kind of layout file, and how to read it: TOML that ``claims`` says is of this kind, read
    by ``parse`` (card layouts, shared by the card families; peg boards; games of chance), or a
    format of its own, told by the file name's ending (``suffix``) and read whole by ``read``
    (Solvitaire's rules, ``.json``, registered in ``solver.families``)."""

    claims: Callable[[dict[str, Any]], bool] = _claims_no_toml
    parse: Callable[[dict[str, Any], str, str], Any] | None = None  # (data, where, name) -> layout
    suffix: str = ""
    read: Callable[[str, tuple[str, ...]], Any] | None = None  # (path, settings) -> layout


class GameFamily(ABC):
    """One family of games: everything the engines and the services need from it.

    A family works on layouts of its own type (``layout_type``) and deals of its own
    form; the layers above pass them through without looking inside.
    """

    name: ClassVar[str]  # the value of ``layout.family`` that this family plays
    layout_type: ClassVar[type]
    # The engine `patience solve` runs when none is named: the patiences' depth-first search, or
    # (games of two sides) minimax; and the verdicts its results may carry.
    default_engine: ClassVar[str] = "dfs"
    drawn: ClassVar[bool] = True  # the pictures (deal --svg, view) draw its deals and positions
    verdicts: ClassVar[tuple[str, ...]] = ("won", "lost", "unknown")
    # How the pictures (``solver.draw``) lay out its table: "tableau" (foundations above the columns;
    # the hole over its fans), "reserve" (the debutante family's rows around the reserve), "row" (a row
    # of piles), "grid" (a grid of places), "pegs" (a board of holes, replayed as the holes filled).
    picture: ClassVar[str] = "tableau"
    # Its layouts name their own stacks (``layout.stack_names()``), and the pictures replay a move
    # onto them as it lies, with no space filled after it (Accordion's row, Gaps' grid).
    own_stacks: ClassVar[bool] = False
    # The peer solvers (``solver.bench.peers``: "fc-solve", "black-hole-solver", "solvitaire") that
    # play some games of this family; each peer's options say which of them, from the layout's rules.
    peers: ClassVar[tuple[str, ...]] = ()

    # -- layouts

    @abstractmethod
    def describe(self, layout: Any) -> str:
        """The rules of ``layout`` in words."""

    def with_max_rank(self, layout: Any, max_rank: int) -> Any:
        """The layout on a reduced deck of ranks A..``max_rank``."""
        return layout.with_max_rank(max_rank)

    def max_rank(self, layout: Any) -> int | None:
        """The top rank of a reduced deck, or None (the full deck, or no cards at all)."""
        return None

    # -- deals

    shuffled: ClassVar[bool] = True  # False: the game has one start and takes no seed

    def seed_range(self, layout: Any) -> tuple[int, int] | None:
        """The seeds the layout's deal generator accepts; None for a game with one start."""
        return None

    @abstractmethod
    def deal_from_seed(self, layout: Any, seed: int | None) -> Any: ...

    @abstractmethod
    def read_deal(self, layout: Any, path: str) -> Any:
        """A deal from a file (each family's formats)."""

    @abstractmethod
    def deal_from_json(self, layout: Any, obj: Any, where: str) -> Any:
        """The ``deal`` of a result JSON, checked against the layout."""

    @abstractmethod
    def deal_to_json(self, layout: Any, deal: Any) -> dict[str, list[str]]: ...

    @abstractmethod
    def deal_to_text(self, layout: Any, deal: Any) -> str:
        """The deal as ``patience deal`` prints it."""

    def deal_to_board(self, layout: Any, deal: Any) -> str:
        """The deal in fc-solve's board format, where the family has one."""
        raise UnsupportedError(f"layout {layout.name!r}: the board format does not cover this game; use --json")

    # -- engines

    @abstractmethod
    def start_position(self, layout: Any, deal: Any) -> Position:
        """The position the DFS searches from."""

    def compiled_position(self, layout: Any, deal: Any) -> Position:
        """The start position compiled (a ``solver.families.core.CorePosition``, issue #15): the
        same game as ``start_position`` node for node, with int moves.  ``UnsupportedError`` when
        the family has none or its extension module is not built."""
        raise UnsupportedError(f"layout {layout.name!r}: the {self.name} family has no compiled core; "
                               "use --core python")

    def cpsat_seat(self, layout: Any) -> bool:
        """Whether CP-SAT takes the portfolio's second seat on ``layout``, ahead of the shaken DFS
        (``engines/parallel.py``): only where the family's model is exact and measured to decide
        deals the DFS leaves open.  Answered without importing OR-Tools (the first part waits on it)."""
        return False

    def evaluation(self, layout: Any) -> Evaluation:
        """The win finder's evaluation for ``layout`` (``solver.engines.finder``): how promising a
        position of the family's start position class is; ``UnsupportedError`` where the family
        has none (the finder then does not play the layout)."""
        raise UnsupportedError(f"the {self.name} family has no evaluation for the win finder")

    def finder_seat(self, layout: Any) -> bool:
        """Whether the win finder takes a seat in the portfolio on ``layout`` by default
        (``engines/parallel.py``): only where the family's evaluation is measured to win deals
        the DFS leaves open."""
        return False

    def cpsat_model(self, layout: Any) -> type[Model]:
        """The CP-SAT model class for ``layout``; ``UnsupportedError`` if there is none, or if the
        model is not exact for the layout's rules (so that its ``lost`` is always a proof)."""
        raise UnsupportedError(f"layout {layout.name!r}: the cpsat engine has no model for this game; "
                               "use --engine dfs")

    def referee(self, layout: Any, deal: Any) -> Referee:
        """The referee's game at the start of ``deal``, to be played a move at a time."""
        raise UnsupportedError(f"layout {layout.name!r}: no step-by-step referee for this game")

    @abstractmethod
    def replay(self, layout: Any, deal: Any, solution: list[dict[str, Any]]) -> str | None:
        """The referee: None if ``solution`` is legal move by move and wins, else what is wrong.
        Written from the rules in words; it shares no code with the position or the model."""

    def seats(self, layout: Any) -> tuple[str, ...]:
        """A game of two sides: the seats a verdict may be asked for, the default first."""
        raise UnsupportedError(f"layout {layout.name!r}: a patience has one player and no seats")

    def game_position(self, layout: Any, deal: Any, seat: str) -> GamePosition:
        """A game of two sides: the minimax engine's position, for ``seat``."""
        raise UnsupportedError(f"layout {layout.name!r}: the minimax engine plays games of two sides; "
                               "a patience is decided by dfs or cpsat")

    def compiled_game(self, layout: Any, deal: Any, seat: str) -> GamePosition:
        """``game_position`` compiled (a ``solver.families.game_core.GameCore``): the same game node
        for node, with int moves.  ``UnsupportedError`` when the family has none for the layout or its
        extension module is not built."""
        raise UnsupportedError(f"layout {layout.name!r}: the {self.name} family has no compiled game; "
                               "use --core python")

    def replay_result(self, layout: Any, deal: Any, result: Result) -> str | None:
        """The referee's word on a result: None if its moves replay (a won patience: legal, and won);
        else what is wrong.  Games of two sides replay their line to its score."""
        if result.verdict != "won":
            return None
        return self.replay(layout, deal, result.solution or [])

    # -- positions (issue #27): a game part-way through.  A family whose deals are any start
    # (a peg board) has positions that are deals; the card families keep a ``solver.positions.
    # Snapshot`` (the stacks mid-game and the counters), of which a deal is the one at move 0.
    # ``start_position``, ``compiled_position``, ``referee`` and ``replay`` take either.

    def position_of_deal(self, layout: Any, deal: Any) -> Any:
        """The position at move 0 of ``deal``."""
        return deal

    def read_position(self, layout: Any, path: str) -> Any:
        """A position from a file (``-``: standard input), checked: one no deal could reach is
        bad input naming what is wrong."""
        return self.read_deal(layout, path)

    def position_from_json(self, layout: Any, obj: Any, where: str) -> Any:
        return self.deal_from_json(layout, obj, where)

    def position_to_json(self, layout: Any, position: Any) -> dict[str, Any]:
        return self.deal_to_json(layout, position)

    def position_to_text(self, layout: Any, position: Any, title: str | None = None) -> str:
        """The position as a person reads and edits it (``read_position`` reads it back)."""
        return self.deal_to_text(layout, position)

    def is_deal(self, layout: Any, start: Any) -> bool:
        """Whether ``start`` is a deal (else a position part-way through a game)."""
        return True

    def start_to_json(self, layout: Any, start: Any) -> dict[str, Any]:
        """A result's fields for the start it was searched from: ``deal`` (the result contract's),
        or for a position part-way through a game an empty ``deal`` and its ``position``."""
        if self.is_deal(layout, start):
            return {"deal": self.deal_to_json(layout, start)}
        return {"deal": {}, "position": self.position_to_json(layout, start)}

    def model_deal(self, layout: Any, start: Any) -> Any:
        """The deal a CP-SAT model starts from: ``start`` itself, or the deal whose move 0 the
        position ``start`` is; ``UnsupportedError`` for a position part-way through a game."""
        return start

    def shares_table(self, layout: Any) -> bool:
        """Whether searches from positions of one game may share their tables
        (``solver.engines.dfs.SharedTable``): no position of ``layout`` can come back after
        moves (so every key a search exhausts is lost), and a key means the same position from
        any start of one game.  False unless the family proves both."""
        return False

    def position_after(self, layout: Any, start: Any, moves: list[dict[str, Any]], where: str = "moves") -> Any:
        """The position after ``moves`` (the result contract's), played by the referee from
        ``start`` (a deal or a position); an illegal move is bad input naming its index."""
        game = self.referee(layout, start)
        if game.problem:
            raise InputError(f"{where}: {game.problem}")
        for i, move in enumerate(moves):
            problem = game.play(move)
            if problem:
                raise InputError(f"{where}[{i}]: {problem}")
        return game.position()

    # -- Solvitaire's files (``solver.solvitaire``), for the families it plays ("solvitaire" in ``peers``)

    def solvitaire_rules(self, layout: Any) -> dict[str, Any] | None:
        """Solvitaire's rules for ``layout``, or None when Solvitaire cannot play it."""
        return None

    def solvitaire_deal(self, layout: Any, deal: Any) -> dict[str, Any]:
        """Solvitaire's deal file for ``deal`` (``patience deal --solvitaire``)."""
        raise UnsupportedError(f"layout {layout.name!r}: Solvitaire plays no game of the {self.name} family")

    def format_solution(self, layout: Any, result: Result) -> str | None:
        """The moves of a won result drawn the family's own way, or None for the plain list."""
        return None
