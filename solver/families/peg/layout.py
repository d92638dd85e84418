"""Peg solitaire board layouts: the TOML reader and ``PegLayout``.

A board layout file (``layouts/english-33.toml`` is the model)::

    title = "English peg solitaire"
    description = "..."
    rules_version = 1

    [board]
    shape = ["  ooo  ", "  ooo  ", "ooooooo", "ooooooo", "ooooooo", "  ooo  ", "  ooo  "]

    [start]
    empty = ["d4"]      # the holes without a peg at the start; every other hole holds one

    [goal]
    pegs = 1            # how many pegs remain at the end (default 1)
    hole = "d4"         # where the last peg must stand; leave out for "anywhere"

``o`` in the shape is a hole, a space is no hole.  Holes are named by column
letter (``a`` at the left) and row number (``1`` at the top).  The layout has
no shuffle: its "deal" is the start position, the holes that hold a peg, and
the same with or without a seed.  A run can start elsewhere with ``--deal
FILE``: JSON ``{"pegs": [...]}`` or ``{"empty": [...]}``, or a picture in the
shape's format with ``o`` for a peg and ``.`` for an empty hole.

Moves in results are ``{"card": "peg", "from": "d2", "to": "d4"}``: the peg
that jumps, the hole it leaves and the hole it lands in (the jumped peg is the
one between).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from ...errors import DealError, InputError, LayoutError
from ...files import DEAL_LIMIT, json_text, parse_json, read_text, shown
from ...schema import Table, layout_name, toml_text
from .geometry import HOLE, MAX_COLUMNS, MAX_ROWS, Board
from .pagoda import Bounds, bounds_for, position_class
from .position import Goal, PegPosition, Tables

Deal = tuple[str, ...]  # the holes holding a peg, in board order

_KEEP: Any = object()


def _check_shape(t: Table) -> Board:
    def ok(v: Any) -> bool:
        return (isinstance(v, list) and 0 < len(v) <= MAX_ROWS
                and all(isinstance(x, str) and set(x) <= {HOLE, " "} and len(x) <= MAX_COLUMNS for x in v))

    shape = t.get("shape", None, f"a list of 1..{MAX_ROWS} strings of 'o' (a hole) and ' ' "
                  f"(no hole), at most {MAX_COLUMNS} characters each", ok)
    if shape is None:
        raise LayoutError(f"{t.where}: {t.key('shape')}: missing; expected the board as rows of "
                          "'o' (a hole) and ' ' (no hole)")
    if not any(HOLE in row for row in shape):
        raise t.fail("shape", "at least one hole 'o'")
    if HOLE not in shape[0] or HOLE not in shape[-1] or not any(row[:1] == HOLE for row in shape):
        raise t.fail("shape", "a picture trimmed to the board: a hole in the first and last rows "
                     "and in the first column")
    t.done()
    return Board.from_shape(shape)


def _hole(board: Board, t: Table, key: str, value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in board.index:
        raise LayoutError(f"{t.where}: {t.key(key)}: expected {what} (a hole of the board such as "
                          f"{board.names[0]!r}), got {toml_text(value)}")
    return board.index[value]


def parse_board_layout(data: dict[str, Any], where: str, name: str) -> PegLayout:
    """A peg board layout from parsed TOML ``data``; ``where`` names the file in messages."""
    top = Table(where, "", data)
    name = layout_name(top, name)
    title = top.str("title", name)
    description = top.str("description", "")
    rules_version = top.int("rules_version", 1, 1)
    board_t = top.sub("board")
    assert board_t is not None  # parse() sends only TOML with a [board] here
    board = _check_shape(board_t)

    start_t = top.sub("start")
    if start_t is None:
        raise LayoutError(f"{where}: start: missing; expected a [start] table with empty = [holes]")
    raw = start_t.get("empty", None, "a list of hole names such as ['d4']",
                      lambda v: isinstance(v, list) and len(v) > 0)
    if raw is None:
        raise start_t.fail("empty", "a list of hole names such as ['d4']")
    empty = tuple(_hole(board, start_t, "empty", h, "a hole name") for h in raw)
    if len(set(empty)) != len(empty):
        raise start_t.fail("empty", "each hole at most once")
    start_t.done()

    goal_t = top.sub("goal")
    goal = Goal()
    if goal_t is not None:
        pegs = goal_t.int("pegs", 1, 1, board.size)
        hole = goal_t.get("hole", None, "a hole name", lambda v: isinstance(v, str))
        if hole is not None:
            if pegs != 1:
                raise goal_t.fail("hole", "no hole unless goal.pegs = 1")
            goal = Goal(1, _hole(board, goal_t, "hole", hole, "a hole name"))
        else:
            goal = Goal(pegs, None)
        goal_t.done()
    top.done()
    if board.size - len(empty) < goal.pegs:
        raise LayoutError(f"{where}: goal.pegs: expected at most the {board.size - len(empty)} pegs "
                          f"of the start, got {goal.pegs}")
    return PegLayout(name=name, title=title, description=description, rules_version=rules_version,
                     board=board, start_empty=tuple(sorted(empty)), goal=goal, path=where)


@dataclass(frozen=True)
class PegLayout:
    """A peg solitaire board with its start and goal, seen by the rest of the program as a layout."""

    name: str
    title: str
    description: str
    rules_version: int
    board: Board
    start_empty: tuple[int, ...]
    goal: Goal
    path: str = ""

    family: ClassVar[str] = "peg"

    # -- variants

    def with_max_rank(self, max_rank: int) -> PegLayout:
        raise InputError(f"--max-ranks: layout {self.name!r} is a peg solitaire board; it has no cards")

    def variant(self, name: str, *, empty: list[str] | None = None, goal_hole: Any = _KEEP) -> PegLayout:
        """The same board with another start (the ``empty`` holes) or goal hole (None: anywhere)."""
        out = self
        if empty is not None:
            out = replace(out, start_empty=tuple(sorted(self._holes(empty, "start.empty"))))
        if goal_hole is not _KEEP:
            hole = None if goal_hole is None else self._holes([goal_hole], "goal.hole")[0]
            out = replace(out, goal=Goal(1, hole))
        return replace(out, name=name)

    def _holes(self, names: list[str], what: str) -> list[int]:
        bad = [h for h in names if h not in self.board.index]
        if bad:
            raise InputError(f"{what}: {bad[0]!r} is not a hole of {self.name!r}")
        return [self.board.index[h] for h in names]

    # -- deals (the start position)

    def deal_from_seed(self, seed: int | None = None) -> Deal:
        """The start position; a board has no shuffle, so ``seed`` changes nothing."""
        empty = set(self.start_empty)
        return tuple(n for i, n in enumerate(self.board.names) if i not in empty)

    def deal_to_json(self, deal: Deal) -> dict[str, list[str]]:
        pegs = set(deal)
        return {"pegs": list(deal), "empty": [n for n in self.board.names if n not in pegs]}

    def deal_to_text(self, deal: Deal) -> str:
        """The start as a picture of the board (``patience deal``)."""
        text = self.board.picture(self.peg_indices(deal))
        return text if text.endswith("\n") else text + "\n"

    def compact_picture(self, deal: Deal) -> str:
        """The board as ``read_deal`` reads a picture: ``o`` a peg, ``.`` an empty hole, a space
        where the board has none; one row a line."""
        pegs = self.peg_indices(deal)
        grid = [[" "] * self.board.cols for _ in range(self.board.rows)]
        for i, (r, c) in enumerate(self.board.cells):
            grid[r][c] = "o" if i in pegs else "."
        return "".join("".join(row).rstrip() + "\n" for row in grid)

    def deal_from_json(self, obj: Any, where: str = "deal") -> Deal:
        if not isinstance(obj, dict) or not obj or set(obj) - {"pegs", "empty"}:
            raise DealError(f"{where}: expected an object with 'pegs' and/or 'empty': lists of hole names")
        names = self.board.names
        sets = {}
        for k in ("pegs", "empty"):
            if k not in obj:
                continue
            v = obj[k]
            if not isinstance(v, list) or not all(isinstance(h, str) for h in v):
                raise DealError(f"{where}: {k}: expected a list of hole names, got {json_text(v)}")
            bad = [h for h in v if h not in self.board.index]
            if bad:
                raise DealError(f"{where}: {k}: {bad[0]!r} is not a hole of {self.name!r}")
            if len(set(v)) != len(v):
                raise DealError(f"{where}: {k}: a hole is named twice")
            sets[k] = set(v)
        pegs = sets.get("pegs", set(names) - sets.get("empty", set()))
        if "empty" in sets and pegs != set(names) - sets["empty"]:
            raise DealError(f"{where}: 'pegs' and 'empty' must together name every hole once")
        return tuple(n for n in names if n in pegs)

    def read_deal(self, path: str) -> Deal:
        """A start position from a file: JSON, or a picture with ``o`` a peg and ``.`` an empty hole."""
        text = read_text(path, DEAL_LIMIT, "deal file", "JSON, or a picture of the board", DealError)
        path = shown(path)
        if text.lstrip().startswith("{"):
            obj = parse_json(text, path, DealError)
            if isinstance(obj, dict) and isinstance(obj.get("deal"), dict):  # a whole result file
                obj = obj["deal"]
            return self.deal_from_json(obj, path)
        return self._deal_from_picture(text, path)

    def _deal_from_picture(self, text: str, where: str) -> Deal:
        lines = [x.rstrip() for x in text.splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        holes = {rc: i for i, rc in enumerate(self.board.cells)}
        pegs = set()
        seen = set()
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch == " ":
                    continue
                if (r, c) not in holes or ch not in "o.":
                    raise DealError(f"{where}:{r + 1}: column {c + 1}: expected 'o' (a peg) or '.' "
                                    f"(an empty hole) only where {self.name!r} has a hole, got {ch!r}")
                seen.add(holes[(r, c)])
                if ch == "o":
                    pegs.add(holes[(r, c)])
        if len(seen) != self.board.size:
            missing = self.board.names[min(set(range(self.board.size)) - seen)]
            raise DealError(f"{where}: hole {missing} is missing from the picture")
        return tuple(n for i, n in enumerate(self.board.names) if i in pegs)

    def peg_indices(self, deal: Deal) -> set[int]:
        return {self.board.index[h] for h in deal}

    # -- engines

    @cached_property
    def _tables(self) -> dict[Any, Tables]:
        return {}

    def tables_for(self, pegs: set[int]) -> Tables:
        """The search tables for a start; they depend on the start only through its position
        class (which goal holes it can reach)."""
        cls = position_class(self.board, pegs) if self.goal.pegs == 1 else None
        if cls not in self._tables:
            bounds = bounds_for(self.board, self.goal.pegs, self.goal.hole, pegs)
            self._tables[cls] = Tables(self.board, self.goal, bounds)
        return self._tables[cls]

    def bounds_for(self, deal: Deal) -> Bounds:
        return self.tables_for(self.peg_indices(deal)).bounds

    def start_position(self, deal: Deal) -> PegPosition:
        pegs = self.peg_indices(deal)
        return PegPosition(self.tables_for(pegs), pegs)

    # -- words and pictures

    def goal_words(self) -> str:
        pegs = "one peg" if self.goal.pegs == 1 else f"{self.goal.pegs} pegs"
        where = "anywhere" if self.goal.hole is None else f"in {self.board.names[self.goal.hole]}"
        return f"{pegs} left, {where}"

    def describe(self) -> str:
        b = self.board
        start = self.deal_from_seed()
        empty = ", ".join(b.names[i] for i in self.start_empty)
        jumps_needed = len(start) - self.goal.pegs
        same = len(b.stabilizer([self.goal.hole] if self.goal.hole is not None else []))
        cls = "" if self.reachable(start) else (
            " The start and the goal are in different position classes (a parity invariant), "
            "so this game cannot be won.")
        lines = [
            f"{self.title} ({self.name}, rules version {self.rules_version})", "",
            f"Board: {b.size} holes in {b.rows} rows and {b.cols} columns, named by column letter "
            f"(a at the left) and row number (1 at the top); {len(b.jumps)} jumps exist on it.",
            b.picture(self.peg_indices(start), indent="    "),
            f"Start: every hole holds a peg except {empty}.",
            "Moves: a peg jumps over a peg next to it, along a row or a column, into the empty hole "
            "just beyond; the jumped peg is removed. A move is written from-to, e.g. "
            f"{self._sample_jump()}.",
            f"Goal: {self.goal_words()}, after {jumps_needed} jumps.{cls}",
            f"Symmetries: {len(b.symmetries)} of the board, {same} of them keep the goal; "
            "the search treats mirror-image positions as one.",
        ]
        return "\n".join(lines) + "\n"

    def _sample_jump(self) -> str:
        frm, _, to = self.board.jumps[0]
        return f"{self.board.names[frm]}-{self.board.names[to]}"

    def format_solution(self, result: Any) -> str:
        """The jumps of a result in from-to notation, each with a picture of the board after it."""
        b = self.board
        pegs = self.peg_indices(self.deal_from_json(result.deal))
        out = [b.picture(pegs, indent="      ")]
        at = {rc: i for i, rc in enumerate(b.cells)}
        for k, move in enumerate(result.solution or [], 1):
            frm, to = b.index[move["from"]], b.index[move["to"]]
            (r1, c1), (r2, c2) = b.cells[frm], b.cells[to]
            over = at[((r1 + r2) // 2, (c1 + c2) // 2)]
            pegs -= {frm, over}
            pegs.add(to)
            out.append(f"{k:4}. {move['from']}-{move['to']}")
            out.append(b.picture(pegs, mark=to, indent="      "))
        return "\n".join(out)

    def reachable(self, deal: Deal) -> bool:
        """False if the position class of ``deal`` is that of no goal position."""
        if self.goal.pegs != 1:
            return True
        cls = position_class(self.board, self.peg_indices(deal))
        holes = [self.goal.hole] if self.goal.hole is not None else range(self.board.size)
        return any(position_class(self.board, [h]) == cls for h in holes)
