# cython: language_level=3
"""The kernel of the DFS's transposition table, in C (declared in ``_dfs.pxd``, for the loop).

The DFS itself is ``solver.engines.dfs_core`` (one source); this module holds what it stores
and draws in C when compiled:

* ``KeyTable``: the exhausted keys, EXACT: every key is stored whole in an arena
  (in insertion order, which is also the eviction order), and an open-addressing
  index of 64-bit slots (a 24-bit hash tag and the key's arena offset) finds it;
  a tag match is confirmed by comparing the bytes, so no verdict rests on a hash.
  When full, the older half goes, as the pure-Python table (``dfs._Table``) drops it.
* ``hash_key`` (inline, in ``_dfs.pxd``): the keys' hash.
* the Mersenne Twister of ``random.Random``, for the restarts' shaken move order.
"""

cimport cython
from libc.stdint cimport uint64_t, uint32_t, int64_t
from libc.stdlib cimport free, malloc, realloc, calloc
from libc.string cimport memcpy, memmove

import random

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

cdef uint64_t OFFSET_MASK = (<uint64_t>1 << OFFSET_BITS) - 1


cdef class KeyTable:  # final (``_dfs.pxd``)
    """The keys of exhausted positions, stored whole; bounded by ``max_entries`` (-1: no bound).

    Arena records are ``[length: 2 bytes][value: 2 bytes][key bytes]``, oldest first (the value:
    the horizons a lost position was stored with, ``dfs``'s "Learning", kind 0 in the low byte).
    When an add
    makes the table hold more than ``max_entries`` keys, the older half is dropped
    (as the pure-Python ``_Table``: it keeps the newest ``len - len // 2``).
    """

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
        return key_lookup(self, key, len(key), hash_key_slack(key)) >= 0

    def value(self, bytes key):
        """The value stored with ``key`` (None if it is absent)."""
        cdef int v = key_lookup(self, key, len(key), hash_key_slack(key))
        return None if v < 0 else v

    def insert(self, bytes key, int value=0):
        """Add a key that is not in the table."""
        self.add(key, len(key), hash_key_slack(key), value)

    # -- for the search

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


def table_bytes_per_entry(int key_len) -> int:
    """What one table entry costs, for turning --max-memory into entries: the arena record
    (two length bytes, two value bytes and the key) and the index (8-byte slots kept at most 3/4 full and
    doubled when fuller, so 8/0.375 bytes per entry at worst), the arena's slack aside."""
    return key_len + 4 + 22
