/* apps/isosurface/core: step (1) of the vertex merge, each chunk's keys numbered
 * in a table of its own (chunk_local, vertex_merge.h). */
#include "vertex_merge.h"

#include "iso_config.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace iso {

namespace {

constexpr size_t kLine = 64;
inline size_t line_round(size_t n) { return (n + kLine - 1) / kLine * kLine; }

/* The numbering of one chunk, in the worker's scratch buffers: the key
 * list (scratch 0), the table over it (scratch 1 and 2, alternately as it
 * grows: cur), and what the chunk keeps of it. */
struct KeyNumbering {
  uint64_t *uk = nullptr;
  LocalMap map;
  int cur = 1;
  uint32_t nk = 0, bmax = 0;
};

/* Twice the slots of nb's table, in the other scratch buffer (its load
 * went above 1/2); false when out of memory. */
bool double_table(Arena &arena, KeyNumbering &nb) {
  nb.cur = 3 - nb.cur;
  const size_t slots = 2 * (nb.map.mask + 1);
  uint32_t *more = static_cast<uint32_t *>(arena.scratch(nb.cur, slots * sizeof(uint32_t)));
  if (!more) return false;
  nb.map.init(more, slots, nb.uk, true);
  for (uint32_t j = 0; j < nb.nk; j++) nb.map.place(j);
  return true;
}

/* Lower owner[a] of a key's smaller point a to q (a position coarsened,
 * OwnerMap). Relaxed: the values are read in the rank phase, after the
 * parallel call running this one has returned (its join pairs with these
 * stores). */
inline void lower_owner(OwnerMap::Word &o, uint16_t q) {
  uint16_t c = o.load(std::memory_order_relaxed);
  while (c > q &&
         !o.compare_exchange_weak(c, q, std::memory_order_relaxed, std::memory_order_relaxed)) {}
}

/* Number ch's keys in order of first appearance into nb (see chunk_local),
 * each key replaced by its local id; false when out of memory. Ahead: the
 * table is beyond the caches (the gathered chunk of an order that is not
 * local): each key's first slot prefetched ISO_MERGE_PREFETCH_KEYS keys
 * ahead. Two instances, each called (a test in the loop, or both loops
 * inlined into chunk_local, cost the small tables 3 instructions a key). */
template <bool Ahead>
__attribute__((noinline)) bool number_keys(Arena &arena, KeyChunk &ch, OwnerMap owner,
                                           KeyNumbering &nb) {
  const size_t n = 3 * ch.ntri;
  /* Locals: the stores to keys may alias the fields (uint64_t vs size_t)
   * and the map, which would make the compiler reload them every
   * iteration. */
  const uint64_t *keys = ch.keys;
  char *lid = reinterpret_cast<char *>(ch.keys);
  uint64_t *const uk = nb.uk;
  OwnerMap::Word *const own = owner.v;
  const uint16_t q = (uint16_t)(ch.pos >> owner.shift);
  /* Ids below n: 16 bits suffice for chunks of up to 21,845 triangles. */
  const bool narrow = n <= 0xFFFF;
  uint32_t *slots = nb.map.slots;
  size_t mask = nb.map.mask;
  int shift = nb.map.shift;
  uint32_t nk = 0, bmax = 0;
  const size_t ahead = ISO_MERGE_PREFETCH_KEYS;
  for (size_t i = 0; i < n; i++) {
    const uint64_t key = keys[i];
    if (Ahead && i + ahead < n)
      __builtin_prefetch(
          &slots[(size_t)((keys[i + ahead] * 0x9E3779B97F4A7C15ULL) >> shift) & mask]);
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> shift) & mask;
    uint32_t id;
    for (;; h = (h + 1) & mask) {
      id = slots[h];
      if (id == LocalMap::kEmpty || uk[id] == key) break;
    }
    if (id == LocalMap::kEmpty) {
      id = nk++;
      uk[id] = key;
      slots[h] = id;
      bmax = std::max(bmax, (uint32_t)key);
      if (2 * (size_t)nk > mask + 1) {
        nb.nk = nk;
        if (!double_table(arena, nb)) return false;
        slots = nb.map.slots;
        mask = nb.map.mask;
        shift = nb.map.shift;
      }
      if (own) lower_owner(own[key >> 32], q);
    }
    if (narrow) {
      const uint16_t id16 = (uint16_t)id;
      std::memcpy(lid + 2 * i, &id16, sizeof id16);
    } else {
      std::memcpy(lid + 4 * i, &id, sizeof id);
    }
  }
  nb.nk = nk;
  nb.bmax = bmax;
  return true;
}

/* What ch keeps of its numbering nb: the ids and the key list, on whole
 * lines, in the keys' buffer when they fit (resized to them when it can
 * be); the slots in `tables` when a later chunk may search them
 * (searched; all freed once the rank phase is over: the global step does
 * not need them). False when out of memory. */
bool keep_numbering(Arena &arena, Arena &tables, KeyChunk &ch, const KeyNumbering &nb,
                    bool searched) {
  const size_t n = 3 * ch.ntri;
  const bool narrow = n <= 0xFFFF;
  const size_t ids_b = line_round(n * (narrow ? sizeof(uint16_t) : sizeof(uint32_t))),
               uk_b = line_round(nb.nk * sizeof(uint64_t)),
               tab_b = searched ? nb.map.size() * sizeof(uint32_t) : 0;
  uint32_t *tab_mem = nullptr;
  if (searched) {
    tab_mem = static_cast<uint32_t *>(tables.alloc(tab_b));
    if (!tab_mem) return false;
    ch.tables = &tables;
    ch.tab_bytes = tab_b;
    std::memcpy(tab_mem, nb.map.slots, tab_b);
  }
  ch.narrow = narrow;
  char *dst;
  if (ch.owned && arena.resize(ch.keys, ch.bytes, ids_b + uk_b)) {
    ch.bytes = ids_b + uk_b;
    dst = reinterpret_cast<char *>(ch.keys) + ids_b;
  } else if (ch.owned && ids_b + uk_b <= ch.bytes) {
    /* Not the last allocation of this worker's slab (another worker's, or
     * this one has allocated since): the list goes after the ids, in the
     * keys already read; the rest of the buffer stays unused until its
     * slab goes. */
    dst = reinterpret_cast<char *>(ch.keys) + ids_b;
  } else {
    dst = static_cast<char *>(arena.alloc(uk_b));
    if (!dst) {
      if (tab_mem) tables.free(tab_mem, tab_b);
      ch.tab_bytes = 0;
      return false;
    }
    ch.aux = dst;
    ch.aux_bytes = uk_b;
  }
  std::memcpy(dst, nb.uk, nb.nk * sizeof(uint64_t));
  ch.ukeys = reinterpret_cast<uint64_t *>(dst);
  ch.nukeys = nb.nk;
  ch.bmax = nb.bmax;
  if (tab_mem) ch.map.init(tab_mem, nb.map.size(), ch.ukeys, false);
  return true;
}

} // namespace

void chunk_local(Arena &arena, Arena &tables, KeyChunk &ch, OwnerMap owner, bool searched) {
  ch.closed = true;
  ch.arena = &arena;
  const size_t n = 3 * ch.ntri;
  /* About one vertex per two triangles on smooth surfaces. */
  size_t cap = 64;
  while (cap < ch.ntri) cap <<= 1;
  KeyNumbering nb;
  nb.uk = static_cast<uint64_t *>(arena.scratch(0, n * sizeof(uint64_t)));
  uint32_t *tab = static_cast<uint32_t *>(arena.scratch(nb.cur, cap * sizeof(uint32_t)));
  if (!nb.uk || !tab) {
    ch.oom = true;
    return;
  }
  nb.map.init(tab, cap, nb.uk, true);
  const bool ahead = cap * sizeof(uint32_t) > ISO_MERGE_PREFETCH_TABLE;
  if (!(ahead ? number_keys<true>(arena, ch, owner, nb)
              : number_keys<false>(arena, ch, owner, nb)) ||
      !keep_numbering(arena, tables, ch, nb, searched)) {
    ch.oom = true;
    return;
  }
  /* A chunk much larger than the default (the gathered chunk of a cell
   * order that is not local) leaves no large scratch behind. */
  if (n * sizeof(uint64_t) > Arena::max_slab_alloc()) arena.trim_scratch(Arena::max_slab_alloc());
}

} // namespace iso
