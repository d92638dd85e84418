# cython: language_level=3
"""The DFS of ``solver.engines.dfs``, compiled, over a compiled position (``CorePosition``).

The same search node for node as the pure-Python ``dfs`` (read it first: this
module mirrors it line by line and keeps its names): forced moves after every
move, the bound check, the cut of keys on the current line (``on_line``), the
table of exhausted keys with eviction of the older half, restarts with Luby
budgets and the SAME ``random.Random`` calls for the shaken move order, node
counting and limits, the reason of a bound that cut the deal itself, the deepest
line and the cuts of each bound.  Tests check equal verdicts, node counts, moves,
table sizes, depths and cuts.

What is new is only the storage, in C:

* ``KeyTable``: the exhausted keys, EXACT: every key is stored whole in an arena
  (in insertion order, which is also the eviction order), and an open-addressing
  index of 64-bit slots (a 24-bit hash tag and the key's arena offset) finds it;
  a tag match is confirmed by comparing the bytes, so no verdict rests on a hash.
* the on-line index (``Search.line``): the keys of the positions on the current
  line, an open-addressing index into the frames' keys.  Frames are removed last in, first out, and the last key
  inserted into a linear-probing table can be removed by clearing its slot
  (no later key probed past it), so no tombstones are needed.
* the frames (moves still to try, pushes that lead here, the key) live in three
  growable arenas: frames, move codes, key bytes.
"""

cimport cython
from libc.stdint cimport uint64_t, uint32_t, int64_t
from libc.stdlib cimport free, malloc, realloc, calloc
from libc.string cimport memcmp, memcpy, memmove, memset

from cpython.exc cimport PyErr_CheckSignals

from solver.families.core cimport MAX_KEY, MAX_MOVES, CorePosition

import random
import time

# ------------------------------------------------------------------ hashing

cdef inline uint64_t _mix(uint64_t h) noexcept:
    """A 64-bit finaliser (MurmurHash3's fmix64 constants)."""
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define DFS_LITTLE_ENDIAN 1
    #else
    #define DFS_LITTLE_ENDIAN 0
    #endif
    """
    bint DFS_LITTLE_ENDIAN

# Buffers holding keys keep this many bytes of room past every key, so that
# ``hash_key`` may read the last partial word whole.
cdef enum:
    SLACK = 8


cdef inline uint64_t hash_key(const unsigned char* key, int n) noexcept:
    """A hash of the key bytes: 8 bytes at a time, multiplied in, mixed at the end.
    Reads up to 7 bytes past the key (SLACK), masked off."""
    cdef uint64_t h = <uint64_t>n * 0x9E3779B97F4A7C15ULL, w
    cdef int i = 0, j
    while i + 8 <= n:
        memcpy(&w, key + i, 8)
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL
        h ^= h >> 29
        i += 8
    if i < n:
        if DFS_LITTLE_ENDIAN:
            memcpy(&w, key + i, 8)
            w &= (<uint64_t>0xFFFFFFFFFFFFFFFFULL) >> (8 * (8 - (n - i)))
        else:
            w = 0
            for j in range(n - i):
                w |= (<uint64_t>key[i + j]) << (8 * j)
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL
    return _mix(h)


cdef uint64_t hash_key_slack(bytes key) except? 0:
    """``hash_key`` of a Python bytes object, copied into a buffer with SLACK."""
    cdef bytes padded = key + bytes(SLACK)
    return hash_key(padded, len(key))


# ------------------------------------------------------------------ the noise

# The restarts shake the move order with ``random.Random`` draws (``random()`` and
# ``randrange(1, n)``, as ``dfs`` makes them).  A call into Python per node costs
# more than the node, so the same generator runs here: Mersenne Twister MT19937
# (Matsumoto and Nishimura, 1998), which ``random.Random`` is, started from the
# object's state (``getstate``) and handing its state back at the end
# (``setstate``), with ``random()`` and ``randrange`` made from its words as
# ``random.Random`` makes them.  ``TWISTER_OK`` checks at import that the draws
# are identical on this Python; if not, the search calls the object itself.

cdef enum:
    MT_N = 624
    MT_M = 397


cdef struct Twister:
    uint32_t mt[MT_N]
    int index


cdef inline uint32_t _twist(uint32_t a, uint32_t b, uint32_t c) noexcept:
    """The MT19937 recurrence: a word from the top bit of ``a``, the low bits of ``b``, and ``c``."""
    cdef uint32_t y = (a & <uint32_t>0x80000000) | (b & <uint32_t>0x7fffffff)
    return c ^ (y >> 1) ^ ((-(y & 1)) & <uint32_t>0x9908b0df)


cdef uint32_t twister_word(Twister* t) noexcept:
    """The next 32-bit output of MT19937."""
    cdef uint32_t y
    cdef int k
    if t.index >= MT_N:  # the next 624 words, each from three earlier ones (indices mod 624)
        for k in range(MT_N - MT_M):
            t.mt[k] = _twist(t.mt[k], t.mt[k + 1], t.mt[k + MT_M])
        for k in range(MT_N - MT_M, MT_N - 1):
            t.mt[k] = _twist(t.mt[k], t.mt[k + 1], t.mt[k + MT_M - MT_N])
        t.mt[MT_N - 1] = _twist(t.mt[MT_N - 1], t.mt[0], t.mt[MT_M - 1])
        t.index = 0
    y = t.mt[t.index]
    t.index += 1
    y ^= y >> 11
    y ^= (y << 7) & <uint32_t>0x9d2c5680
    y ^= (y << 15) & <uint32_t>0xefc60000
    y ^= y >> 18
    return y


cdef double twister_random(Twister* t) noexcept:
    """As ``random.Random.random``: 53 bits from two words."""
    cdef uint32_t a = twister_word(t) >> 5, b = twister_word(t) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef int twister_below(Twister* t, int n) noexcept:
    """As ``random.Random._randbelow(n)`` (0 < n < 2**31): ``getrandbits(k)`` with k the bit
    length of n, drawn again until below n."""
    cdef int k = 0, r
    while (n >> k) != 0:
        k += 1
    r = twister_word(t) >> (32 - k)
    while r >= n:
        r = twister_word(t) >> (32 - k)
    return r


cdef int twister_load(Twister* t, rng) except -1:
    version, internal, gauss = rng.getstate()
    for k in range(MT_N):
        t.mt[k] = internal[k]
    t.index = internal[MT_N]
    return 0


cdef int twister_store(Twister* t, rng) except -1:
    version, internal, gauss = rng.getstate()
    rng.setstate((version, tuple([t.mt[k] for k in range(MT_N)]) + (t.index,), gauss))
    return 0


def _twister_agrees() -> bool:
    """Whether the draws made here equal ``random.Random``'s on this Python."""
    cdef Twister t
    ref = random.Random(20240615)
    twister_load(&t, random.Random(20240615))
    for i in range(300):
        n = 2 + (i * 37) % 1000
        if twister_random(&t) != ref.random() or 1 + twister_below(&t, n - 1) != ref.randrange(1, n):
            return False
    return True


TWISTER_OK = _twister_agrees()


# ------------------------------------------------------------------ the table

# An index slot: 0 empty, else (tag << OFFSET_BITS) | (arena offset + 1).
cdef enum:
    OFFSET_BITS = 40
    MAX_REASONS = 64  # bounds a position may name (``DEAD_REASONS``); their cuts are counted in an array
cdef uint64_t OFFSET_MASK = (<uint64_t>1 << OFFSET_BITS) - 1


@cython.final  # no subclass: its methods are called directly (and inlined) by the search
cdef class KeyTable:
    """The keys of exhausted positions, stored whole; bounded by ``max_entries`` (-1: no bound).

    Arena records are ``[length: 2 bytes][value: 2 bytes][key bytes]``, oldest first (the value:
    the horizons a lost position was stored with, ``dfs``'s "Learning", kind 0 in the low byte).
    When an add
    makes the table hold more than ``max_entries`` keys, the older half is dropped
    (as the pure-Python ``_Table``: it keeps the newest ``len - len // 2``).
    """

    cdef unsigned char* arena
    cdef uint64_t used, room        # arena bytes used and allocated
    cdef uint64_t* slots
    cdef uint64_t mask              # slots - 1 (a power of two minus one)
    cdef readonly int64_t count
    cdef readonly int64_t evictions
    cdef int64_t max_entries
    cdef uint64_t hash_mask         # all ones; tests clear bits to make keys collide

    def __cinit__(self, int64_t max_entries=-1, uint64_t hash_mask=0xFFFFFFFFFFFFFFFFULL):
        self.max_entries = max_entries
        self.hash_mask = hash_mask
        self.room = 1 << 16
        self.arena = <unsigned char*>malloc(self.room)
        self.mask = (1 << 12) - 1
        self.slots = <uint64_t*>calloc(self.mask + 1, sizeof(uint64_t))
        if self.arena == NULL or self.slots == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.arena)
        free(self.slots)

    @property
    def memory(self) -> int:
        """Bytes held: the arena (as allocated) and the index."""
        return self.room + 8 * (self.mask + 1)

    @property
    def arena_bytes(self) -> int:
        return self.used

    # -- for tests
    def __len__(self):
        return self.count

    def __contains__(self, bytes key):
        return self.lookup(key, len(key), hash_key_slack(key)) >= 0

    def value(self, bytes key):
        """The value stored with ``key`` (None if it is absent)."""
        cdef int v = self.lookup(key, len(key), hash_key_slack(key))
        return None if v < 0 else v

    def insert(self, bytes key, int value=0):
        """Add a key that is not in the table."""
        self.add(key, len(key), hash_key_slack(key), value)

    # -- for the search

    cdef int lookup(self, const unsigned char* key, int n, uint64_t h) noexcept:
        """The value stored with the key, or -1 if it is absent."""
        h &= self.hash_mask
        cdef uint64_t i = h & self.mask, s, tag = h >> OFFSET_BITS, off
        while True:
            s = self.slots[i]
            if s == 0:
                return -1
            if s >> OFFSET_BITS == tag:
                off = (s & OFFSET_MASK) - 1
                if (self.arena[off] | (self.arena[off + 1] << 8)) == n \
                        and memcmp(self.arena + off + 4, key, n) == 0:
                    return self.arena[off + 2] | (self.arena[off + 3] << 8)
            i = (i + 1) & self.mask

    cdef int add(self, const unsigned char* key, int n, uint64_t h, int value) except -1:
        """Add a key known to be absent, with ``value`` (0..65535); evict the older half when over
        the bound."""
        h &= self.hash_mask
        if self.used + n + 4 + SLACK > self.room:
            self._grow_arena(self.used + n + 4 + SLACK)
        if <uint64_t>(4 * (self.count + 1)) > 3 * (self.mask + 1):
            self._reindex(2 * (self.mask + 1))
        cdef uint64_t off = self.used
        self.arena[off] = n & 0xFF
        self.arena[off + 1] = n >> 8
        self.arena[off + 2] = value & 0xFF
        self.arena[off + 3] = value >> 8
        memcpy(self.arena + off + 4, key, n)
        self.used += n + 4
        self._place(h, off)
        self.count += 1
        if self.max_entries >= 0 and self.count > self.max_entries:
            self._evict_older_half()
        return 0

    cdef void _place(self, uint64_t h, uint64_t off) noexcept:
        cdef uint64_t i = h & self.mask
        while self.slots[i]:
            i = (i + 1) & self.mask
        self.slots[i] = ((h >> OFFSET_BITS) << OFFSET_BITS) | (off + 1)

    cdef int _grow_arena(self, uint64_t need) except -1:
        cdef uint64_t room = self.room
        while room < need:
            room += room // 2
        if room > OFFSET_MASK:
            raise MemoryError("the transposition table's arena is full (2**40 bytes)")
        cdef unsigned char* grown = <unsigned char*>realloc(self.arena, room)
        if grown == NULL:
            raise MemoryError()
        self.arena = grown
        self.room = room
        return 0

    cdef int _reindex(self, uint64_t nslots) except -1:
        """A fresh index of ``nslots`` slots over the arena's records."""
        cdef uint64_t* slots = <uint64_t*>calloc(nslots, sizeof(uint64_t))
        if slots == NULL:
            raise MemoryError()
        free(self.slots)
        self.slots = slots
        self.mask = nslots - 1
        cdef uint64_t off = 0
        cdef int n
        while off < self.used:
            n = self.arena[off] | (self.arena[off + 1] << 8)
            self._place(hash_key(self.arena + off + 4, n) & self.hash_mask, off)
            off += n + 4
        return 0

    cdef int _evict_older_half(self) except -1:
        cdef int64_t drop = self.count // 2, i
        cdef uint64_t off = 0
        for i in range(drop):
            off += 4 + (self.arena[off] | (self.arena[off + 1] << 8))
        memmove(self.arena, self.arena + off, self.used - off)
        self.used -= off
        self.count -= drop
        self.evictions += 1
        self._reindex(self.mask + 1)
        return 0


# ------------------------------------------------------------------ the search

cdef struct Frame:
    int64_t moves_at    # this frame's moves: moves[moves_at + next .. moves_at + nmoves)
    int nmoves
    int next
    int pushed          # pushes that lead here: the move and the forced moves after it
    int horizon0        # the earliest horizons of its lost children, of each kind (NO_CHILD before)
    int horizon1
    int key_len
    int64_t key_at      # the key's bytes in the key stack
    uint64_t hash
    uint64_t line_slot  # its slot in the on-line index


cdef enum:
    NO_CHILD = 1 << 30  # as ``dfs.NO_CHILD``
    PROBES = 16         # as ``dfs.PROBES``
    CLOCKS = 256        # learning stops at clocks from here up


cpdef long luby(long i):
    """The i-th term (from 1) of the Luby sequence (as ``solver.engines.dfs.luby``)."""
    cdef long b
    while (i + 1) & i:
        b = 1
        while b * 2 <= i:
            b *= 2
        i -= b - 1
    return (i + 1) >> 1


@cython.final
cdef class Search:
    """One call of the DFS: its position, stacks, table and counters."""

    cdef CorePosition pos
    cdef KeyTable table
    # learning (``dfs``, "Learning"): the learned keys, prefixed with their kind and horizon bytes;
    # the horizons of each kind learned at each clock; a buffer for one learned key
    cdef bint learns
    cdef KeyTable learned
    cdef int probes[2][CLOCKS][PROBES]
    cdef int nprobes[2][CLOCKS]
    cdef unsigned char lkey[MAX_KEY + 2 + SLACK]
    cdef readonly int64_t learned_cuts
    # the frames and their arenas
    cdef Frame* frames
    cdef int64_t nframes, frames_room
    cdef int* moves
    cdef int64_t moves_top, moves_room
    cdef unsigned char* keys
    cdef int64_t keys_top, keys_room
    # the on-line index: slot values are frame number + 1, 0 empty
    cdef uint32_t* line
    cdef uint64_t line_mask
    # options and counters
    cdef bint use_forced, use_bounds
    cdef int64_t nodes
    cdef int root_dead      # the first bound that cut the deal itself (0: none)
    cdef int depth0         # the position's ply when the search began
    cdef int max_depth      # the most pushes from the start of any position entered
    cdef int* deepest       # the codes of the pushes that first reached it (``_note_deepest``)
    cdef int deepest_room   # ... its room
    cdef int same           # the pushes of the line on the position that ``deepest`` begins with
    cdef int nreasons       # len(DEAD_REASONS)
    cdef int64_t cuts[MAX_REASONS]  # cuts[k]: positions cut by the k-th bound (from 1)
    cdef double noise
    cdef object rng              # the restarts' random.Random
    cdef bint twister            # its draws made here (TWISTER_OK), else by calling it
    cdef bint twister_loaded     # the rng's state is in ``tw`` (loaded at the first draw)
    cdef Twister tw

    def __cinit__(self, CorePosition pos, int64_t max_entries, bint use_forced, bint use_bounds, rng,
                  KeyTable table=None):
        self.pos = pos
        self.learns = use_bounds and pos.learns
        if self.learns and max_entries >= 0:  # the learned keys share the memory
            max_entries = max(64, max_entries // 2)
        self.table = KeyTable(max_entries) if table is None else table  # given: kept from earlier searches
        self.learned = KeyTable(max_entries)
        self.use_forced = use_forced
        self.use_bounds = use_bounds
        self.rng = rng
        self.twister = TWISTER_OK and type(rng) is random.Random
        self.depth0 = pos.ply
        self.deepest_room = 256
        self.deepest = <int*>malloc(self.deepest_room * sizeof(int))
        memset(self.cuts, 0, sizeof(self.cuts))
        self.nreasons = len(type(pos).DEAD_REASONS)
        if self.nreasons >= MAX_REASONS:
            raise ValueError(f"{type(pos).__name__}: more than {MAX_REASONS - 1} DEAD_REASONS")
        self.frames_room = 64
        self.moves_room = 4 * MAX_MOVES
        self.keys_room = 4 * MAX_KEY
        self.line_mask = 255
        self.frames = <Frame*>malloc(self.frames_room * sizeof(Frame))
        self.moves = <int*>malloc(self.moves_room * sizeof(int))
        self.keys = <unsigned char*>malloc(self.keys_room)
        self.line = <uint32_t*>calloc(self.line_mask + 1, sizeof(uint32_t))
        if not (self.frames and self.moves and self.keys and self.line and self.deepest):
            raise MemoryError()

    def __dealloc__(self):
        free(self.frames)
        free(self.moves)
        free(self.keys)
        free(self.line)
        free(self.deepest)

    # -------------------------------------------------- room in the arenas

    cdef int _room(self) except -1:
        """Room for one more frame, MAX_MOVES move codes and MAX_KEY key bytes."""
        cdef void* p
        if self.nframes == self.frames_room:
            p = realloc(self.frames, 2 * self.frames_room * sizeof(Frame))
            if p == NULL:
                raise MemoryError()
            self.frames, self.frames_room = <Frame*>p, 2 * self.frames_room
        if self.moves_top + MAX_MOVES > self.moves_room:
            p = realloc(self.moves, 2 * self.moves_room * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.moves, self.moves_room = <int*>p, 2 * self.moves_room
        if self.keys_top + MAX_KEY + SLACK > self.keys_room:
            p = realloc(self.keys, 2 * self.keys_room)
            if p == NULL:
                raise MemoryError()
            self.keys, self.keys_room = <unsigned char*>p, 2 * self.keys_room
        if 2 * (self.nframes + 1) > <int64_t>self.line_mask:
            self._grow_line()
        return 0

    cdef int _grow_line(self) except -1:
        """A twice larger on-line index, the frames reinserted oldest first (which keeps
        the last-in, first-out removal valid)."""
        cdef uint64_t nslots = 2 * (self.line_mask + 1)
        cdef uint32_t* line = <uint32_t*>calloc(nslots, sizeof(uint32_t))
        if line == NULL:
            raise MemoryError()
        free(self.line)
        self.line = line
        self.line_mask = nslots - 1
        cdef int64_t f
        for f in range(self.nframes):
            self._line_add(f)
        return 0

    # -------------------------------------------------- the on-line keys

    cdef void _line_add(self, int64_t f) noexcept:
        cdef uint64_t i = self.frames[f].hash & self.line_mask
        while self.line[i]:
            i = (i + 1) & self.line_mask
        self.line[i] = <uint32_t>(f + 1)
        self.frames[f].line_slot = i

    cdef bint _on_line(self, const unsigned char* key, int n, uint64_t h) noexcept:
        cdef uint64_t i = h & self.line_mask
        cdef Frame* fr
        while self.line[i]:
            fr = &self.frames[self.line[i] - 1]
            if fr.hash == h and fr.key_len == n and memcmp(self.keys + fr.key_at, key, n) == 0:
                return True
            i = (i + 1) & self.line_mask
        return False

    # -------------------------------------------------- the noise

    cdef double _random(self) except? -1.0:
        """``rng.random()``."""
        if not self.twister:
            return self.rng.random()
        if not self.twister_loaded:  # most searches never draw: load the state only when needed
            twister_load(&self.tw, self.rng)
            self.twister_loaded = True
        return twister_random(&self.tw)

    cdef int _randrange(self, int n) except -1:
        """``rng.randrange(1, n)`` (always after a ``_random``, so the state is loaded)."""
        return 1 + twister_below(&self.tw, n - 1) if self.twister else self.rng.randrange(1, n)

    cdef int give_back_rng(self) except -1:
        """Leave the rng where the calls made here would have left it."""
        if self.twister_loaded:
            twister_store(&self.tw, self.rng)
        return 0

    # -------------------------------------------------- the steps of dfs()

    cdef int _unpush(self, int pushed) except -1:
        cdef int i
        for i in range(pushed):
            self.pos.pop()
        self.same = min(self.same, self.pos.ply - self.depth0)
        return 0

    cdef int play_forced(self) except -1:
        cdef int n = 0, m
        if self.use_forced:
            m = self.pos.forced()
            while m >= 0:
                self.pos.push(m)
                n += 1
                m = self.pos.forced()
        return n

    cdef int _lost_child(self, int horizons, int pushed) except -1:
        """A child is lost with ``horizons`` (kind 0 in the low byte, kind 1 above): tell its
        parent, and go back to it."""
        cdef Frame* parent
        if self.nframes:
            parent = &self.frames[self.nframes - 1]
            parent.horizon0 = min(parent.horizon0, horizons & 0xFF)
            parent.horizon1 = min(parent.horizon1, horizons >> 8)
        self._unpush(pushed)
        return 0

    cdef int _learned_key(self, int kind, int horizon) except -1:
        """The learned key of ``kind`` at ``horizon`` in ``lkey`` (after the kind and horizon
        bytes); its length."""
        self.lkey[0] = kind
        self.lkey[1] = horizon
        return 2 + self.pos.write_learned_key(kind, horizon, self.lkey + 2)

    cdef int _learned_horizons(self) except -2:
        """As ``learned_horizons`` in ``dfs``: the horizons of a learned key this position has
        (packed as in ``_lost_child``), or -1."""
        cdef int clock = self.pos.c_clock(), k, n, kind, horizon
        if clock >= CLOCKS:
            return -1
        for kind in range(2):
            for k in range(self.nprobes[kind][clock]):
                horizon = self.probes[kind][clock][k]
                n = self._learned_key(kind, horizon)
                if self.learned.lookup(self.lkey, n, hash_key(self.lkey, n)) >= 0:
                    return horizon | (horizon << 8) if kind == 0 else horizon << 8
        return -1

    cdef int _note_deepest(self) except -1:
        """The position is the deepest yet: note its line.  Only the pushes after the part
        ``deepest`` already holds are copied (``same``, lowered by every pop), so the copies
        cost no more than the pushes (a search that goes deeper and deeper, to tens of
        thousands of pushes in Spider, once copied the whole line at every new depth)."""
        cdef int i, depth = self.pos.ply - self.depth0
        cdef void* p
        if depth > self.deepest_room:
            p = realloc(self.deepest, 2 * depth * sizeof(int))
            if p == NULL:
                raise MemoryError()
            self.deepest, self.deepest_room = <int*>p, 2 * depth
        for i in range(self.same, depth):
            self.deepest[i] = self.pos.played.data[self.depth0 + i]
        self.max_depth = self.same = depth
        return 0

    cdef int enter(self, int pushed) except -1:
        """At a fresh position: 1 if it is won, else 0 (a new frame was pushed if it
        needs searching).  As ``enter`` in ``dfs``."""
        if self.pos.ply - self.depth0 > self.max_depth:
            self._note_deepest()
        if self.pos.won():
            return 1
        self._room()
        cdef unsigned char* key = self.keys + self.keys_top
        cdef int n = self.pos.write_key(key), why, count, j, horizons
        cdef uint64_t h = hash_key(key, n)
        horizons = self.table.lookup(key, n, h)
        if horizons >= 0:
            self._lost_child(horizons, pushed)
            return 0
        if self._on_line(key, n, h):
            self._lost_child(0, pushed)
            return 0
        if self.use_bounds:
            why = self.pos.dead()
            if why:
                horizons = self.pos.horizons[0] | (self.pos.horizons[1] << 8) if self.learns else 0
                self.table.add(key, n, h, horizons)  # dead is exhausted: never bound again
                if why <= self.nreasons:
                    self.cuts[why] += 1
                if self.nframes == 0 and self.root_dead == 0:
                    self.root_dead = why
                self._lost_child(horizons, pushed)
                return 0
        if self.learns:
            horizons = self._learned_horizons()
            if horizons >= 0:
                self.learned_cuts += 1
                self.table.add(key, n, h, horizons)
                self._lost_child(horizons, pushed)
                return 0
        cdef Frame* fr = &self.frames[self.nframes]
        fr.moves_at = self.moves_top
        fr.next = 0
        fr.horizon0 = fr.horizon1 = NO_CHILD
        fr.pushed = pushed
        fr.key_len = n
        fr.key_at = self.keys_top
        fr.hash = h
        self._line_add(self.nframes)
        count = self.pos.legal(self.moves + self.moves_top)
        fr.nmoves = count
        if self.noise and count > 1 and self._random() < self.noise:
            j = self._randrange(count)
            self.moves[fr.moves_at], self.moves[fr.moves_at + j] = \
                self.moves[fr.moves_at + j], self.moves[fr.moves_at]
        self.moves_top += count
        self.keys_top += n
        self.nframes += 1
        return 0

    cdef int exhaust(self) except -1:
        """The top frame has no move left: its key joins the table; back to its parent.
        As ``exhaust`` in ``dfs``."""
        self.nframes -= 1
        cdef Frame* fr = &self.frames[self.nframes]
        cdef int n, clock = CLOCKS, k, kind, stuck, horizon
        cdef int horizons[2]
        cdef uint64_t h
        self.line[fr.line_slot] = 0  # the last key in: clearing its slot is a removal
        horizons[0] = horizons[1] = 0
        if self.learns:  # no later than the position's own: see ``exhaust`` in ``dfs``
            stuck = self.pos.c_stuck_horizon()
            horizons[0] = min(fr.horizon0, stuck)
            horizons[1] = min(fr.horizon1, stuck)
            clock = self.pos.c_clock()
        self.table.add(self.keys + fr.key_at, fr.key_len, fr.hash, horizons[0] | (horizons[1] << 8))
        for kind in range(2):
            horizon = horizons[kind]
            if horizon and clock < CLOCKS:
                n = self._learned_key(kind, horizon)
                h = hash_key(self.lkey, n)
                if self.learned.lookup(self.lkey, n, h) < 0:
                    self.learned.add(self.lkey, n, h, 0)
                for k in range(self.nprobes[kind][clock]):
                    if self.probes[kind][clock][k] == horizon:
                        break
                else:
                    if self.nprobes[kind][clock] < PROBES:
                        self.probes[kind][clock][self.nprobes[kind][clock]] = horizon
                        self.nprobes[kind][clock] += 1
        self.moves_top = fr.moves_at
        self.keys_top = fr.key_at
        self._lost_child(horizons[0] | (horizons[1] << 8), fr.pushed)
        return 0

    cdef int clear(self) except -1:
        """Drop every frame (a restart); the position is unwound by the caller."""
        while self.nframes:
            self.nframes -= 1
            self.line[self.frames[self.nframes].line_slot] = 0
        self.moves_top = 0
        self.keys_top = 0
        return 0


cdef tuple _finish(Search s, int depth0, double start, verdict, reason=None):
    """As ``finish`` in ``dfs``: the moves of a win, the position unwound, the counts."""
    cdef int i
    s.give_back_rng()
    moves = s.pos.history[depth0:] if verdict == "won" else []
    while s.pos.ply > depth0:
        s.pos.pop()
    names = type(s.pos).DEAD_REASONS
    cuts = {names[k - 1]: s.cuts[k] for k in range(1, s.nreasons + 1) if s.cuts[k]}
    return (verdict, reason, moves, s.nodes, time.perf_counter() - start, s.table.count,
            s.table.evictions, s.table.memory + s.learned.memory, s.max_depth,
            [s.deepest[i] for i in range(s.max_depth)], cuts, s.learned_cuts)


def search(CorePosition pos, max_nodes, timeout, max_entries, bint use_forced, bint use_bounds,
           restarts, rng, progress, double progress_every=0.5, KeyTable table=None):
    """The DFS from ``pos`` (restored afterwards, also when interrupted).  Mirrors
    ``solver.engines.dfs.dfs``.

    ``max_nodes``, ``timeout``, ``max_entries`` may be None; ``restarts`` is None or
    ``(base, noise)``; ``rng`` the ``random.Random`` of the restarts; ``progress`` None or a
    callable given a dict about every ``progress_every`` seconds (the clock is read every 1024
    nodes), as ``dfs`` gives it.
    ``table``: a ``KeyTable`` to start from and add to (``max_entries`` is then its own), for
    searches that share what they exhausted (``solver.engines.dfs.SharedTable``); None: a new one.
    Returns (verdict, reason, moves, nodes, seconds, table size, evictions, table bytes, the
    deepest depth, the pushes that reached it, {bound reason: positions it cut}, learned cuts).
    """
    cdef Search s = Search(pos, -1 if max_entries is None else max_entries, use_forced, use_bounds, rng, table)
    cdef int depth0 = pos.ply
    try:
        return _search(s, depth0, max_nodes, timeout, restarts, progress, progress_every)
    except BaseException:  # Ctrl-C, SIGTERM's handler, a failing progress callback: leave pos as it was
        while pos.ply > depth0:
            pos.pop()
        raise


cdef tuple _search(Search s, int depth0, max_nodes, timeout, restarts, progress, double progress_every):
    """The loop of ``dfs``."""
    cdef CorePosition pos = s.pos
    cdef int64_t run = 0, limit = -1 if max_nodes is None else max_nodes, budget
    cdef int64_t base = 0 if restarts is None else restarts[0]
    cdef double restart_noise = 0.0 if restarts is None else restarts[1]
    cdef double start = time.perf_counter(), now
    cdef double next_report = start + progress_every
    cdef double deadline = 0.0 if timeout is None else start + timeout
    cdef bint timed = timeout is not None, reporting = progress is not None
    cdef Frame* fr
    cdef int move

    while True:
        run += 1
        budget = -1 if restarts is None else s.nodes + base * luby(run)
        s.noise = 0.0 if restarts is None or run == 1 else restart_noise
        if s.enter(s.play_forced()):
            return _finish(s, depth0, start, "won")
        while s.nframes:
            fr = &s.frames[s.nframes - 1]
            if fr.next == fr.nmoves:
                s.exhaust()
                continue
            s.nodes += 1
            if s.nodes & 1023 == 0:
                PyErr_CheckSignals()  # in C, Python's signal handlers (Ctrl-C) run only when asked
                if timed or reporting:
                    now = time.perf_counter()
                    if timed and now > deadline:
                        return _finish(s, depth0, start, "unknown", f"timeout {timeout:g} s")
                    if reporting and now >= next_report:
                        next_report = now + progress_every
                        progress({"seconds": now - start, "nodes": s.nodes,
                                  "nodes_per_second": s.nodes / max(now - start, 1e-9),
                                  "depth": pos.ply - depth0, "table": s.table.count})
            if limit >= 0 and s.nodes > limit:
                return _finish(s, depth0, start, "unknown", f"max-nodes {max_nodes}")
            if budget >= 0 and s.nodes >= budget:
                break  # this run's budget is spent: restart from the root
            move = s.moves[fr.moves_at + fr.next]
            fr.next += 1
            pos.push(move)
            if s.enter(1 + s.play_forced()):
                return _finish(s, depth0, start, "won")
        else:
            reason = None if s.root_dead == 0 else type(pos).DEAD_REASONS[s.root_dead - 1]
            return _finish(s, depth0, start, "lost", reason)
        s.clear()
        while pos.ply > depth0:
            pos.pop()
        s.same = 0


def table_bytes_per_entry(int key_len) -> int:
    """What one table entry costs, for turning --max-memory into entries: the arena record
    (two length bytes, two value bytes and the key) and the index (8-byte slots kept at most 3/4 full and
    doubled when fuller, so 8/0.375 bytes per entry at worst), the arena's slack aside."""
    return key_len + 4 + 22
