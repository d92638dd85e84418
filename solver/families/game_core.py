"""The two-sided games' shared base: ``GameCore`` (``game_core.pxd``), one source.

A game of two sides on a known shuffle (Casino's, ``chance/casino.py``) derives from this class.
Compiled by Cython in pure-Python mode (``solver/families/README.md``, "One source"), it is the
``cdef class`` that ``game_core.pxd`` declares: the minimax (``solver.engines.minimax_core``)
calls the C methods a game implements (``c_side``, ``c_legal``, ``c_push``, ``c_pop``,
``c_score``, ``c_banked``, ``c_bounds``, ``c_key``, ``c_plies_left``).  Interpreted (no
compiler), it is a plain class with the same methods.

Either way this class gives a game the Python API that the Python search
(``solver.engines.minimax.Search``), the tests and the engine use, with int moves: ``side``,
``legal_moves``, ``push``, ``pop``, ``score``, ``banked``, ``bounds``, ``key``; the game adds
``history``, ``move_json`` and ``state``.
"""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from .shadow import cython

COMPILED = cython.compiled

if not cython.compiled:  # compiled, these are game_core.pxd's inline functions

    def popcount(x: int) -> int:
        """The number of bits set."""
        return bin(x).count("1")

    def ctz(x: int) -> int:
        """The index of the lowest bit set (``x`` not 0)."""
        return (x & -x).bit_length() - 1


@cython.cclass
class Moves:
    """A list of ``long long`` (moves, masks): ``data[:size]``, room for ``room``."""

    if cython.compiled:
        def __dealloc__(self) -> None:
            free(self.data)  # noqa: F821 (libc's, cimported by game_core.pxd)
    else:  # game_core.pxd's fields, in Python
        def __init__(self) -> None:
            self.data: list[int] = []
            self.size = 0
            self.room = 0

    def grow(self) -> cython.int:
        """Twice the room (at least 64), ``data[:size]`` kept."""
        room: cython.Py_ssize_t = max(64, 2 * self.room)
        if cython.compiled:
            grown: cython.p_longlong = cython.cast(cython.p_longlong, realloc(  # noqa: F821 (libc's)
                self.data, room * cython.sizeof(cython.longlong)))
            if grown == cython.NULL:
                raise MemoryError()
            self.data = grown
        else:
            self.data.extend([0] * (room - self.room))
        self.room = room
        return 0


if not cython.compiled:  # compiled, game_core.pxd's inline function

    def add(m: Moves, x: int) -> int:
        """Append ``x`` to ``m``."""
        if m.size == m.room:
            m.grow()
        m.data[m.size] = x
        m.size += 1
        return 0


@cython.cclass
class GameCore:
    """The base of every two-sided game with int move codes; not a game by itself."""

    integral = True  # scores are whole numbers

    def __init__(self) -> None:
        self.mv = Moves()

    # ------------------------------------------------ the C level (a game overrides)

    def c_side(self) -> cython.int:
        """+1: the seat moves, -1: the other side, 0: the game is over."""
        raise NotImplementedError(f"{type(self).__name__}.c_side")

    def c_legal(self) -> cython.int:
        """The legal moves, best first, put in ``mv`` (emptied first); their count."""
        raise NotImplementedError(f"{type(self).__name__}.c_legal")

    def c_push(self, move: cython.longlong) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_push")

    def c_pop(self) -> cython.longlong:
        raise NotImplementedError(f"{type(self).__name__}.c_pop")

    def c_score(self) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_score")

    def c_banked(self) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_banked")

    def c_bounds(self, lo: cython.p_int, hi: cython.p_int) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_bounds")

    def c_key(self, words: cython.p_ulonglong) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_key")

    def c_plies_left(self) -> cython.int:
        raise NotImplementedError(f"{type(self).__name__}.c_plies_left")

    # ------------------------------------------------ the Python level

    def side(self) -> int:
        return self.c_side()

    def legal_moves(self) -> list[int]:
        n: cython.int = self.c_legal()
        return [self.mv.data[i] for i in range(n)]

    def push(self, move: int) -> None:
        self.c_push(move)

    def pop(self) -> int:
        return self.c_pop()

    def score(self) -> int:
        return self.c_score()

    def banked(self) -> int:
        return self.c_banked()

    def bounds(self) -> tuple[int, int]:
        lo: cython.int[1]
        hi: cython.int[1]
        if not cython.compiled:
            lo, hi = [0], [0]
        self.c_bounds(lo, hi)
        return lo[0], hi[0]

    def key(self) -> int:
        """The two words of ``c_key`` as one int (equal exactly when the words are)."""
        w: cython.ulonglong[2]
        if not cython.compiled:
            w = [0, 0]
        self.c_key(w)
        high: Any = w[1]  # a Python int: no 64-bit shift in C
        return (high << 64) | w[0]

    def move_json(self, move: int) -> dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__}.move_json")
