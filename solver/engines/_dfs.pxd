# The transposition table's kernel (``_dfs.pyx``), declared for the DFS loop (``dfs_core.py``, one
cimport cython

# source, which cimports it compiled): the exact key table, the keys' hash, and the Mersenne
# Twister that makes ``random.Random``'s draws of the restarts in C.

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy

cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define DFS_LITTLE_ENDIAN 1
    #else
    #define DFS_LITTLE_ENDIAN 0
    #endif
    """
    bint DFS_LITTLE_ENDIAN

cdef enum:
    # Buffers holding keys keep this many bytes of room past every key, so that ``hash_key`` may
    # read the last partial word whole.
    SLACK = 8
    # An index slot of ``KeyTable``: 0 empty, else (tag << OFFSET_BITS) | (arena offset + 1).
    OFFSET_BITS = 40
    MT_N = 624
    MT_M = 397


cdef inline uint64_t hash_key(const unsigned char* key, int n) noexcept:
    """A hash of the key bytes: 8 bytes at a time, multiplied in, mixed at the end (MurmurHash3's
    fmix64 constants).  Reads up to 7 bytes past the key (SLACK), masked off."""
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
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


@cython.final
cdef class KeyTable:
    cdef unsigned char* arena
    cdef uint64_t used, room        # arena bytes used and allocated
    cdef uint64_t* slots
    cdef uint64_t mask              # slots - 1 (a power of two minus one)
    cdef readonly int64_t count
    cdef readonly int64_t evictions
    cdef int64_t max_entries
    cdef uint64_t hash_mask         # all ones; tests clear bits to make keys collide

    cdef int add(self, const unsigned char* key, int n, uint64_t h, int value) except -1
    cdef void _place(self, uint64_t h, uint64_t off) noexcept
    cdef int _grow_arena(self, uint64_t need) except -1
    cdef int _reindex(self, uint64_t nslots) except -1
    cdef int _evict_older_half(self) except -1


cdef inline int key_lookup(KeyTable t, const unsigned char* key, int n, uint64_t h) noexcept:
    """The value stored with the key in ``t``, or -1 if it is absent (inline: the search's probe)."""
    h &= t.hash_mask
    cdef uint64_t i = h & t.mask, s, tag = h >> OFFSET_BITS, off
    while True:
        s = t.slots[i]
        if s == 0:
            return -1
        if s >> OFFSET_BITS == tag:
            off = (s & ((<uint64_t>1 << OFFSET_BITS) - 1)) - 1
            if (t.arena[off] | (t.arena[off + 1] << 8)) == n and memcmp(t.arena + off + 4, key, n) == 0:
                return t.arena[off + 2] | (t.arena[off + 3] << 8)
        i = (i + 1) & t.mask


cdef struct Twister:
    uint32_t mt[MT_N]
    int index


cdef double twister_random(Twister* t) noexcept
cdef int twister_below(Twister* t, int n) noexcept
cdef int twister_load(Twister* t, rng) except -1
cdef int twister_store(Twister* t, rng) except -1
