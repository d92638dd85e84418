"""The loop of the DFS (``solver.engines.dfs``, which describes the search), written once.

One source (``solver/families/README.md``, "One source"): compiled where a C compiler exists,
interpreted otherwise (``COMPILED`` says which), the same search node for node.  ``Search`` runs
over a position in one of two ways, chosen by ``core``:

* over any ``Position`` (``core`` False: ``dfs.dfs``): its Python methods (``legal_moves``,
  ``key``, ``is_dead``, ...), moves and keys as Python objects, the table a dict
  (``dfs._Table``);
* over a compiled position (``core`` True, compiled only: ``dfs.compiled_dfs``): its C methods
  (``solver/families/core.pxd``), move codes in an arena of ints, key bytes in an arena of
  bytes, the table ``_dfs.KeyTable`` (the kernel in C: exact keys, the older half evicted).

The loop, the frames, the restarts, the limits, the learning and the counts are the same code
for both; only the few steps that touch a move, a key or a table (``_won``, ``_find_key``,
``_stored``, ``_store``, ``_on_line``, ``_open``, ...) say ``if cython.compiled and self.core``
(``cython.compiled`` first: interpreted, and for mypy, the branch is never taken).  ``Search`` is
final and its steps ``inline``, so that compiled they are direct calls the C compiler folds into
the loop (measured: ``docs/compiled-core.md``, "The DFS").  Under ``PATIENCE_CORE=python``, or
where nothing is compiled, the module runs interpreted: the first way only.

A frame is a row of ``FW`` words in ``frames``: where its moves begin (``AT``), how many
(``COUNT``), the next to try (``NEXT``), the pushes that lead to it (the move and the forced
moves after it: ``PUSHED``), the horizons of its lost children (``H0``, ``H1``; ``NO_CHILD``
before the first), and, for ``core``, its key (``KEY_AT``, ``KEY_LEN``, ``HASH``) and its slot
in the on-line index.  The on-line index (``line``, ``core``) is open addressing into the
frames' keys: frames go last in, first out, and the last key into a linear-probing table can be
removed by clearing its slot (no later key probed past it), so it needs no tombstones.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeAlias

try:
    import cython
except ImportError:  # interpreted, without Cython installed
    from ..families.shadow import cython

if cython.compiled:
    from cython.cimports.cpython.exc import PyErr_CheckSignals
    from cython.cimports.libc.stdlib import calloc, free, malloc, realloc
    from cython.cimports.libc.string import memcmp
    from cython.cimports.solver.engines._dfs import (
        SLACK,
        KeyTable,
        Twister,
        hash_key,
        key_lookup,
        twister_below,
        twister_load,
        twister_random,
        twister_store,
    )
    from cython.cimports.solver.families.core import MAX_KEY, MAX_MOVES, CorePosition

    from ._dfs import TWISTER_OK
else:
    from ..families.core import CorePosition

    KeyTable: TypeAlias = Any  # compiled only
    Twister: TypeAlias = Any

COMPILED = cython.compiled

NO_CHILD = cython.declare(cython.int, 1 << 30)  # a frame's horizon before its first child is lost
PROBES = cython.declare(cython.int, 16)  # horizons probed per clock
CLOCKS = cython.declare(cython.int, 256)  # horizons are stored in a byte: learning stops at clocks from here up
MAX_REASONS = cython.declare(cython.int, 64)  # bounds a compiled position may name (``DEAD_REASONS``)
# a frame's words
FW = cython.declare(cython.int, 10)
AT = cython.declare(cython.int, 0)
COUNT = cython.declare(cython.int, 1)
NEXT = cython.declare(cython.int, 2)
PUSHED = cython.declare(cython.int, 3)
H0 = cython.declare(cython.int, 4)
H1 = cython.declare(cython.int, 5)
KEY_AT = cython.declare(cython.int, 6)
KEY_LEN = cython.declare(cython.int, 7)
HASH = cython.declare(cython.int, 8)
SLOT = cython.declare(cython.int, 9)


@cython.ccall
def luby(i: cython.long) -> cython.long:
    """The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ..."""
    b: cython.long
    while (i + 1) & i:  # i + 1 is not a power of two: the term repeats an earlier one
        b = 1
        while b * 2 <= i:
            b *= 2
        i -= b - 1
    return (i + 1) >> 1


@cython.final  # no subclass: its C methods are called directly (and inlined)
@cython.cclass
class Search:
    """One call of the DFS: its position, frames, tables and counters."""

    core: cython.bint  # over the compiled position's C methods (else its Python methods)
    pos: Any
    cpos: CorePosition  # ``pos``, typed (core)
    # the tables: a ``dfs._Table`` each, or (core) a ``KeyTable`` each
    table: Any
    learned: Any
    ktable: KeyTable
    klearned: KeyTable
    learns: cython.bint
    probes: cython.p_int  # probes[(kind * CLOCKS + clock) * PROBES + k]: horizons learned there
    nprobes: cython.p_int  # nprobes[kind * CLOCKS + clock]: how many
    on_learned: Any
    # the frames
    frames: cython.p_longlong
    nframes: cython.longlong
    frames_room: cython.longlong
    # core: the move codes and key bytes of the frames, the current key, the on-line index
    moves: cython.p_int
    moves_top: cython.longlong
    moves_room: cython.longlong
    keys: cython.p_uchar
    keys_top: cython.longlong
    keys_room: cython.longlong
    key_len: cython.int
    key_hash: cython.ulonglong
    line: cython.p_uint
    line_mask: cython.ulonglong
    lkey: cython.p_uchar  # one learned key: its kind and horizon bytes, then the position's
    # not core: the moves of the frames (one list), their keys, the keys on the line, the current key
    pymoves: list
    pykeys: list
    on_line: set
    key: Any
    # options and counters
    use_forced: cython.bint
    use_bounds: cython.bint
    nodes = cython.declare(cython.longlong, visibility="readonly")
    learned_cuts = cython.declare(cython.longlong, visibility="readonly")
    root_dead: Any  # the name of the first bound that cut the deal itself, or None
    reasons: tuple  # core: DEAD_REASONS
    cuts: cython.p_longlong  # core: cuts[k], positions the k-th bound cut (from 1)
    pycuts: dict  # not core: {bound's reason: positions it cut}
    depth0: cython.int  # the position's pushes when the search began
    max_depth: cython.int  # the most pushes from the start of any position entered
    deepest: cython.p_int  # core: the pushes that first reached it (``_note_deepest``)
    deepest_room: cython.int
    same: cython.int  # core: the pushes of the line on the position that ``deepest`` begins with
    pydeepest: list  # not core: the pushes that first reached ``max_depth``
    # the restarts' noise
    noise: cython.double
    rng: Any
    twister: cython.bint  # its draws made in C (``_dfs``), else by calling it
    twister_loaded: cython.bint
    tw: Twister  # compiled

    def __init__(self, pos: Any, core: bool, table: Any, learned: Any, use_forced: bool, use_bounds: bool,
                 rng: random.Random, on_learned: Callable[[Any], None] | None = None):
        """``table`` and ``learned``: the tables of exhausted and learned keys (``dfs._Table``, or
        ``_dfs.KeyTable`` for ``core``)."""
        self.core = core
        self.pos = pos
        self.table, self.learned = table, learned
        if core:
            if not cython.compiled:
                raise ValueError("the search over a compiled position's C methods needs dfs_core compiled")
            self.cpos, self.ktable, self.klearned = pos, table, learned
        self.learns = use_bounds and pos.learns
        self.use_forced, self.use_bounds = use_forced, use_bounds
        self.on_learned = on_learned
        self.rng = rng
        self.noise = 0.0
        self.nodes = self.learned_cuts = 0
        self.root_dead = None
        self.depth0 = self._ply()
        self.max_depth = self.same = 0
        self.nframes = self.moves_top = self.keys_top = 0
        self.frames_room = 64
        self.pymoves, self.pykeys, self.on_line, self.pycuts, self.pydeepest = [], [], set(), {}, []
        if cython.compiled:
            self.twister = TWISTER_OK and type(rng) is random.Random
            self.frames = cython.cast(cython.p_longlong, malloc(self.frames_room * FW * 8))
            self.probes = cython.cast(cython.p_int, calloc(2 * CLOCKS * PROBES, 4))
            self.nprobes = cython.cast(cython.p_int, calloc(2 * CLOCKS, 4))
            self.cuts = cython.cast(cython.p_longlong, calloc(MAX_REASONS, 8))
            if not (self.frames and self.probes and self.nprobes and self.cuts):
                raise MemoryError()
            if core:
                self.reasons = type(pos).DEAD_REASONS
                if len(self.reasons) >= MAX_REASONS:
                    raise ValueError(f"{type(pos).__name__}: more than {MAX_REASONS - 1} DEAD_REASONS")
                self.moves_room, self.keys_room = 4 * MAX_MOVES, 4 * MAX_KEY
                self.line_mask, self.deepest_room = 255, 256
                self.moves = cython.cast(cython.p_int, malloc(self.moves_room * 4))
                self.keys = cython.cast(cython.p_uchar, malloc(self.keys_room))
                self.line = cython.cast(cython.p_uint, calloc(self.line_mask + 1, 4))
                self.deepest = cython.cast(cython.p_int, malloc(self.deepest_room * 4))
                self.lkey = cython.cast(cython.p_uchar, malloc(MAX_KEY + 2 + SLACK))
                if not (self.moves and self.keys and self.line and self.deepest and self.lkey):
                    raise MemoryError()
        else:
            self.frames = [0] * (self.frames_room * FW)
            self.probes = [0] * (2 * CLOCKS * PROBES)
            self.nprobes = [0] * (2 * CLOCKS)

    if cython.compiled:
        def __dealloc__(self) -> None:
            free(self.frames)
            free(self.probes)
            free(self.nprobes)
            free(self.cuts)
            free(self.moves)
            free(self.keys)
            free(self.line)
            free(self.deepest)
            free(self.lkey)

    # -------------------------------------------------- what touches a move, a key or a table

    @cython.cfunc
    @cython.inline
    def _ply(self) -> cython.int:
        if cython.compiled and self.core:
            return self.cpos.ply
        return len(self.pos.history)

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _won(self) -> cython.int:
        if cython.compiled and self.core:
            return self.cpos.won()
        return 1 if self.pos.is_won() else 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _push(self, f: cython.longlong) -> cython.int:
        """Play the next move of frame ``f``."""
        i: cython.longlong = self.frames[f * FW + AT] + self.frames[f * FW + NEXT]
        self.frames[f * FW + NEXT] += 1
        if cython.compiled and self.core:
            self.cpos.push(self.moves[i])
        else:
            self.pos.push(self.pymoves[i])
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _unpush(self, pushed: cython.int) -> cython.int:
        if cython.compiled and self.core:
            while pushed:
                self.cpos.pop()
                pushed -= 1
            self.same = min(self.same, self.cpos.ply - self.depth0)
        else:
            while pushed:
                self.pos.pop()
                pushed -= 1
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _play_forced(self) -> cython.int:
        """Play the forced moves; how many."""
        n: cython.int = 0
        m: cython.int
        if self.use_forced:
            if cython.compiled and self.core:
                m = self.cpos.forced()
                while m >= 0:
                    self.cpos.push(m)
                    n += 1
                    m = self.cpos.forced()
            else:
                while (move := self.pos.forced_move()) is not None:
                    self.pos.push(move)
                    n += 1
        return n

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _note_deepest(self, depth: cython.int) -> cython.int:
        """The position is the deepest yet: note its line.  Compiled, only the pushes after the
        part ``deepest`` already holds are copied (``same``, lowered by every pop), so the copies
        cost no more than the pushes (a search that goes deeper and deeper, to tens of thousands
        of pushes in Spider, once copied the whole line at every new depth)."""
        i: cython.int
        if cython.compiled and self.core:
            if depth > self.deepest_room:
                grown: cython.p_void = realloc(self.deepest, 2 * depth * 4)
                if not grown:
                    raise MemoryError()
                self.deepest, self.deepest_room = cython.cast(cython.p_int, grown), 2 * depth
            for i in range(self.same, depth):
                self.deepest[i] = self.cpos.played.data[self.depth0 + i]
            self.same = depth
        else:
            self.pydeepest = self.pos.history[self.depth0:]
        self.max_depth = depth
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _find_key(self) -> cython.int:
        """The position's key: (core) written on top of the key arena, its length and hash noted."""
        if cython.compiled and self.core:
            self.key_len = self.cpos.write_key(self.keys + self.keys_top)
            self.key_hash = hash_key(self.keys + self.keys_top, self.key_len)
        else:
            self.key = self.pos.key()
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-2, check=False)
    def _stored(self) -> cython.int:
        """The horizons stored with the key in the table (``_lost_child`` packs them), or -1."""
        if cython.compiled and self.core:
            return key_lookup(self.ktable, self.keys + self.keys_top, self.key_len, self.key_hash)
        found = self.table.keys.get(self.key)
        return -1 if found is None else found

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _store(self, horizons: cython.int) -> cython.int:
        """The key joins the table."""
        if cython.compiled and self.core:
            self.ktable.add(self.keys + self.keys_top, self.key_len, self.key_hash, horizons)
        else:
            self.table.add(self.key, horizons)
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _on_line(self) -> cython.int:
        """Whether the key is on the current line."""
        if cython.compiled and self.core:
            i: cython.ulonglong = self.key_hash & self.line_mask
            f: cython.longlong
            while self.line[i]:
                f = (self.line[i] - 1) * FW
                if (self.frames[f + HASH] == self.key_hash and self.frames[f + KEY_LEN] == self.key_len
                        and memcmp(self.keys + self.frames[f + KEY_AT], self.keys + self.keys_top, self.key_len) == 0):
                    return 1
                i = (i + 1) & self.line_mask
            return 0
        return 1 if self.key in self.on_line else 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _bound(self) -> cython.int:
        """1 if a bound cuts the position (counted), else 0."""
        if cython.compiled and self.core:
            why: cython.int = self.cpos.dead()
            if not why:
                return 0
            if why < MAX_REASONS:
                self.cuts[why] += 1
            if self.nframes == 0 and self.root_dead is None:
                self.root_dead = self.reasons[why - 1]
            return 1
        name = self.pos.is_dead()
        if not name:
            return 0
        self.pycuts[name] = self.pycuts.get(name, 0) + 1
        if self.nframes == 0 and self.root_dead is None:
            self.root_dead = name
        return 1

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _bound_horizons(self) -> cython.int:
        """The horizons of the bound that cut the position, packed."""
        if cython.compiled and self.core:
            return self.cpos.horizons[0] | (self.cpos.horizons[1] << 8)
        return self.pos.horizons[0] | (self.pos.horizons[1] << 8)

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _clock(self) -> cython.int:
        return self.cpos.c_clock() if self.core else self.pos.clock()

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _stuck(self) -> cython.int:
        return self.cpos.c_stuck_horizon() if self.core else self.pos.stuck_horizon()

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _learned(self, kind: cython.int, horizon: cython.int, add: cython.bint) -> cython.int:
        """Whether the position's learned key of ``kind`` at ``horizon`` was learned; with ``add``,
        learn it."""
        if cython.compiled and self.core:
            self.lkey[0] = kind
            self.lkey[1] = horizon
            n: cython.int = 2 + self.cpos.write_learned_key(kind, horizon, self.lkey + 2)
            h: cython.ulonglong = hash_key(self.lkey, n)
            if key_lookup(self.klearned, self.lkey, n, h) >= 0:
                return 1
            if add:
                self.klearned.add(self.lkey, n, h, 0)
            return 0
        key = (kind, horizon, self.pos.learned_key(kind, horizon))
        if key in self.learned.keys:
            return 1
        if add:
            self.learned.add(key)
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _open(self, pushed: cython.int) -> cython.int:
        """A frame for the position: its key on the line, its legal moves (the first swapped with
        another at random, with probability ``noise``)."""
        f: cython.longlong = self.nframes * FW
        n: cython.int
        j: cython.int
        if cython.compiled and self.core:
            self.frames[f + AT] = self.moves_top
            self.frames[f + KEY_AT] = self.keys_top
            self.frames[f + KEY_LEN] = self.key_len
            self.frames[f + HASH] = self.key_hash
            i: cython.ulonglong = self.key_hash & self.line_mask
            while self.line[i]:
                i = (i + 1) & self.line_mask
            self.line[i] = self.nframes + 1
            self.frames[f + SLOT] = i
            n = self.cpos.legal(self.moves + self.moves_top)
            self.moves_top += n
            self.keys_top += self.key_len
        else:
            self.frames[f + AT] = len(self.pymoves)
            self.pykeys.append(self.key)
            self.on_line.add(self.key)
            moves = self.pos.legal_moves()
            n = len(moves)
            self.pymoves.extend(moves)
        self.frames[f + COUNT] = n
        self.frames[f + NEXT] = 0
        self.frames[f + PUSHED] = pushed
        self.frames[f + H0] = self.frames[f + H1] = NO_CHILD
        self.nframes += 1
        if self.noise and n > 1 and self._random() < self.noise:
            j = self._randrange(n)
            a: cython.longlong = self.frames[f + AT]
            if cython.compiled and self.core:
                self.moves[a], self.moves[a + j] = self.moves[a + j], self.moves[a]
            else:
                self.pymoves[a], self.pymoves[a + j] = self.pymoves[a + j], self.pymoves[a]
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _close(self) -> cython.int:
        """The top frame goes: its key off the line; (core) the key put back on top of the key
        arena (for ``_store``)."""
        self.nframes -= 1
        f: cython.longlong = self.nframes * FW
        if cython.compiled and self.core:
            self.line[self.frames[f + SLOT]] = 0  # the last key in: clearing its slot is a removal
            self.moves_top = self.frames[f + AT]
            self.keys_top = self.frames[f + KEY_AT]
            self.key_len = self.frames[f + KEY_LEN]
            self.key_hash = self.frames[f + HASH]
        else:
            self.key = self.pykeys.pop()
            self.on_line.discard(self.key)
            del self.pymoves[self.frames[f + AT]:]
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _room(self) -> cython.int:
        """Room for one more frame and (core) its moves and key."""
        grown: cython.p_void
        if self.nframes == self.frames_room:
            self.frames_room *= 2
            if cython.compiled:
                grown = realloc(self.frames, self.frames_room * FW * 8)
                if not grown:
                    raise MemoryError()
                self.frames = cython.cast(cython.p_longlong, grown)
            else:
                self.frames.extend([0] * (self.frames_room // 2 * FW))
        if cython.compiled and self.core:
            if self.moves_top + MAX_MOVES > self.moves_room:
                grown = realloc(self.moves, 2 * self.moves_room * 4)
                if not grown:
                    raise MemoryError()
                self.moves, self.moves_room = cython.cast(cython.p_int, grown), 2 * self.moves_room
            if self.keys_top + MAX_KEY + SLACK > self.keys_room:
                grown = realloc(self.keys, 2 * self.keys_room)
                if not grown:
                    raise MemoryError()
                self.keys, self.keys_room = cython.cast(cython.p_uchar, grown), 2 * self.keys_room
            if 2 * (self.nframes + 1) > self.line_mask:
                self._grow_line()
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _grow_line(self) -> cython.int:
        """A twice larger on-line index, the frames put back oldest first (which keeps the last-in,
        first-out removal valid)."""
        if cython.compiled:
            nslots: cython.ulonglong = 2 * (self.line_mask + 1)
            line: cython.p_uint = cython.cast(cython.p_uint, calloc(nslots, 4))
            if not line:
                raise MemoryError()
            free(self.line)
            self.line, self.line_mask = line, nslots - 1
            f: cython.longlong
            i: cython.ulonglong
            for f in range(self.nframes):
                i = self.frames[f * FW + HASH] & self.line_mask
                while self.line[i]:
                    i = (i + 1) & self.line_mask
                self.line[i] = f + 1
                self.frames[f * FW + SLOT] = i
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _clear(self) -> cython.int:
        """Drop every frame (a restart); the position is unwound by the caller."""
        while self.nframes:
            self._close()
        return 0

    # -------------------------------------------------- the noise

    @cython.cfunc
    @cython.exceptval(-1.0, check=False)
    def _random(self) -> cython.double:
        """``rng.random()``."""
        if cython.compiled and self.twister:
            if not self.twister_loaded:  # most searches never draw: load the state only when needed
                twister_load(cython.address(self.tw), self.rng)
                self.twister_loaded = True
            return twister_random(cython.address(self.tw))
        return self.rng.random()

    @cython.cfunc
    @cython.exceptval(-1, check=False)
    def _randrange(self, n: cython.int) -> cython.int:
        """``rng.randrange(1, n)`` (always after a ``_random``)."""
        if cython.compiled and self.twister:
            return 1 + twister_below(cython.address(self.tw), n - 1)
        return self.rng.randrange(1, n)

    # -------------------------------------------------- the steps of the search

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _lost_child(self, horizons: cython.int, pushed: cython.int) -> cython.int:
        """A child is lost with ``horizons`` (kind 0 in the low byte, kind 1 above): tell its
        parent, and go back to it."""
        if self.nframes:
            f: cython.longlong = (self.nframes - 1) * FW
            self.frames[f + H0] = min(self.frames[f + H0], horizons & 0xFF)
            self.frames[f + H1] = min(self.frames[f + H1], horizons >> 8)
        self._unpush(pushed)
        return 0

    @cython.cfunc
    @cython.exceptval(-2, check=False)
    def _learned_horizons(self) -> cython.int:
        """The horizons of a learned key this position has (packed as in ``_lost_child``), or -1."""
        clock: cython.int = self._clock()
        kind: cython.int
        k: cython.int
        horizon: cython.int
        if clock >= CLOCKS:
            return -1
        for kind in range(2):
            for k in range(self.nprobes[kind * CLOCKS + clock]):
                horizon = self.probes[(kind * CLOCKS + clock) * PROBES + k]
                if self._learned(kind, horizon, False):
                    return horizon | (horizon << 8) if kind == 0 else horizon << 8
        return -1

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _enter(self, pushed: cython.int) -> cython.int:
        """At a fresh position: 1 if it is won, else 0 (a new frame was pushed if it needs
        searching)."""
        depth: cython.int = self._ply() - self.depth0
        if depth > self.max_depth:
            self._note_deepest(depth)
        if self._won():
            return 1
        self._room()
        self._find_key()
        horizons: cython.int = self._stored()
        if horizons >= 0:
            self._lost_child(horizons, pushed)
            return 0
        if self._on_line():
            self._lost_child(0, pushed)
            return 0
        if self.use_bounds and self._bound():
            horizons = self._bound_horizons() if self.learns else 0
            self._store(horizons)  # dead is exhausted: never bound again
            self._lost_child(horizons, pushed)
            return 0
        if self.learns:
            horizons = self._learned_horizons()
            if horizons >= 0:
                self.learned_cuts += 1
                if self.on_learned is not None:
                    self.on_learned(self.pos)
                self._store(horizons)
                self._lost_child(horizons, pushed)
                return 0
        self._open(pushed)
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(-1, check=False)
    def _exhaust(self) -> cython.int:
        """The top frame has no move left: its key joins the table (and, learning, the learned keys
        its horizons prove); back to its parent."""
        f: cython.longlong = (self.nframes - 1) * FW
        pushed: cython.int = self.frames[f + PUSHED]
        h0: cython.int = 0
        h1: cython.int = 0
        clock: cython.int = CLOCKS
        kind: cython.int
        k: cython.int
        horizon: cython.int
        at: cython.int
        if self.learns:  # a claim about lines past the clock's own point would be no claim
            stuck: cython.int = self._stuck()
            h0, h1 = min(self.frames[f + H0], stuck), min(self.frames[f + H1], stuck)
            clock = self._clock()
        self._close()
        self._store(h0 | (h1 << 8))
        for kind in range(2):
            horizon = h0 if kind == 0 else h1
            if horizon and clock < CLOCKS:
                self._learned(kind, horizon, True)
                at = kind * CLOCKS + clock
                for k in range(self.nprobes[at]):
                    if self.probes[at * PROBES + k] == horizon:
                        break
                else:
                    if self.nprobes[at] < PROBES:
                        self.probes[at * PROBES + self.nprobes[at]] = horizon
                        self.nprobes[at] += 1
        self._lost_child(h0 | (h1 << 8), pushed)
        return 0

    def unwind(self) -> None:
        """Take back every push of the search (a push may count more than one in ``ply``)."""
        while self._ply() > self.depth0:
            self._unpush(1)

    def finish(self, verdict: str, reason: str | None, start: float) -> tuple[Any, ...]:
        """The moves of a win, the position unwound, the counts (as ``run`` returns them)."""
        if cython.compiled and self.twister_loaded:  # the rng left where its own draws would have
            twister_store(cython.address(self.tw), self.rng)
        moves = self.pos.history[self.depth0:] if verdict == "won" else []
        self.unwind()
        if cython.compiled and self.core:
            cuts = {self.reasons[k - 1]: self.cuts[k] for k in range(1, len(self.reasons) + 1) if self.cuts[k]}
            deepest = [self.deepest[i] for i in range(self.max_depth)]
            size, evictions, held = self.ktable.count, self.ktable.evictions, self.ktable.memory + self.klearned.memory
        else:
            cuts, deepest = dict(self.pycuts), list(self.pydeepest)
            size, evictions, held = len(self.table.keys), self.table.evictions, 0
        return (verdict, reason, moves, self.nodes, time.perf_counter() - start, size, evictions, held,
                self.max_depth, deepest, cuts, self.learned_cuts)

    def run(self, max_nodes: int | None, timeout: float | None, restarts: tuple[int, float] | None,
            progress: Callable[[dict[str, float | int]], None] | None, progress_every: float) -> tuple[Any, ...]:
        """The search (``dfs.dfs`` describes it); the position is restored afterwards, also when
        interrupted.  Returns (verdict, reason, moves, nodes, seconds, table size, evictions, table
        bytes (core), the deepest depth, the pushes that reached it, {bound reason: positions it
        cut}, learned cuts)."""
        try:
            return self._run(max_nodes, timeout, restarts, progress, progress_every)
        except BaseException:  # Ctrl-C, SIGTERM's handler, a failing progress callback: leave pos as it was
            self.unwind()
            raise

    def _run(self, max_nodes: int | None, timeout: float | None, restarts: tuple[int, float] | None,
             progress: Callable[[dict[str, float | int]], None] | None, progress_every: float) -> tuple[Any, ...]:
        run: cython.longlong = 0
        limit: cython.longlong = -1 if max_nodes is None else max_nodes
        budget: cython.longlong
        base: cython.longlong = 0 if restarts is None else restarts[0]
        restart_noise: cython.double = 0.0 if restarts is None else restarts[1]
        start: cython.double = time.perf_counter()
        now: cython.double
        next_report: cython.double = start + progress_every
        deadline: cython.double = 0.0 if timeout is None else start + timeout
        timed: cython.bint = timeout is not None
        reporting: cython.bint = progress is not None
        f: cython.longlong
        while True:
            run += 1
            budget = -1 if restarts is None else self.nodes + base * luby(run)
            self.noise = 0.0 if restarts is None or run == 1 else restart_noise
            if self._enter(self._play_forced()):
                return self.finish("won", None, start)
            while self.nframes:
                f = (self.nframes - 1) * FW
                if self.frames[f + NEXT] == self.frames[f + COUNT]:
                    self._exhaust()
                    continue
                self.nodes += 1
                if self.nodes & 1023 == 0:
                    if cython.compiled:
                        PyErr_CheckSignals()  # in C, Python's signal handlers (Ctrl-C) run only when asked
                    if timed or reporting:
                        now = time.perf_counter()
                        if timed and now > deadline:
                            return self.finish("unknown", f"timeout {timeout:g} s", start)
                        if progress is not None and now >= next_report:
                            next_report = now + progress_every
                            table = self.ktable.count if self.core else len(self.table.keys)
                            progress({"seconds": now - start, "nodes": self.nodes,
                                      "nodes_per_second": self.nodes / max(now - start, 1e-9),
                                      "depth": self._ply() - self.depth0, "table": table})
                if limit >= 0 and self.nodes > limit:
                    return self.finish("unknown", f"max-nodes {max_nodes}", start)
                if budget >= 0 and self.nodes >= budget:
                    break  # this run's budget is spent: restart from the root
                self._push(self.nframes - 1)
                if self._enter(1 + self._play_forced()):
                    return self.finish("won", None, start)
            else:
                return self.finish("lost", self.root_dead, start)
            self._clear()
            self.unwind()
            self.same = 0
