/* apps/isosurface/core/vertex_merge.h: the chunked merge of the vertex keys
 * (extract()'s merge and merge_chunked, mt.h): the chunks, their steps and
 * the state they share. Internal to the extraction (vertex_merge.cpp,
 * vertex_merge_local.cpp, cell_phase.cpp, extract.cpp). No VTK here. */
#ifndef APPS_ISOSURFACE_CORE_VERTEX_MERGE_H
#define APPS_ISOSURFACE_CORE_VERTEX_MERGE_H

#include "arena.h"
#include "mesh.h"
#include "mt.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace iso {

/* Open-addressing table from packed key to a chunk-local id. A slot holds
 * only the id (4 bytes; the key is keys[id], in the chunk's own key list):
 * ISO_MERGE_CHUNK_TRIS triangles take 64 KiB, in L2. Fibonacci hashing,
 * linear probing, load at most 1/2. A view: the slots are the caller's. */
struct LocalMap {
  static constexpr uint32_t kEmpty = UINT32_MAX;
  uint32_t *slots = nullptr;
  const uint64_t *keys = nullptr;
  size_t mask = 0; /* slots - 1 */
  int shift = 64;
  /* View over n slots (a power of two); clear: fill them with kEmpty. */
  void init(uint32_t *mem, size_t n, const uint64_t *k, bool clear) {
    slots = mem;
    keys = k;
    mask = n - 1;
    shift = 64;
    for (size_t c = n; c > 1; c >>= 1) shift--;
    if (clear) std::fill(slots, slots + n, kEmpty);
  }
  size_t size() const { return mask + 1; }
  size_t slot_of(uint64_t key) const {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> shift) & mask;
  }
  /* Put id (keys[id] absent so far) in its slot. */
  void place(uint32_t id) {
    size_t h = slot_of(keys[id]);
    while (slots[h] != kEmpty) h = (h + 1) & mask;
    slots[h] = id;
  }
  /* Id of key, or -1. Read-only: safe concurrently with other readers. */
  int64_t find(uint64_t key) const {
    for (size_t h = slot_of(key);; h = (h + 1) & mask) {
      const uint32_t id = slots[h];
      if (id == kEmpty) return -1;
      if (keys[id] == key) return id;
    }
  }
};

/* The merge of packed keys with the sequential numbering, over C chunks:
 * contiguous pieces of the triangle sequence, each with its own keys
 * (KeyChunk::keys; the chunks of extract() are the buffers its cell phase
 * wrote, those of merge_chunked cut one array).
 * (1) local: each chunk numbers its keys in order of first appearance in a
 *     table of its own, rewrites its keys into these local ids, and lowers
 *     owner[a] to its position (coarsened, OwnerMap) for each key's smaller point a (owner[a]:
 *     the first chunk with a key starting at a). extract() runs it in the
 *     cell phase, on each chunk as soon as it is full (its keys still in
 *     cache), by the worker that wrote it.
 * (2) rank: a key (a, b) of chunk c is new unless an earlier chunk holds it;
 *     only chunks owner[a] .. c-1 can (on cell-ordered meshes: the chunk
 *     boundary, one lookup or two), and of those only the ones whose keys
 *     end at b or beyond (KeyChunk::bmax, kept by (1): on a numbering by
 *     first use along the cells, such as --reorder's, a point is absent
 *     from the chunks before its first use); the first one found is where
 *     it is new. New keys are ranked in order: one bit per key (new or
 *     not) and the count of new keys before each 64 of them (RankWord, a
 *     quarter of a byte per key: a key's rank is that count plus a
 *     popcount), and for each key found earlier its (chunk, id there), in
 *     id order.
 * (3) global, after a prefix sum of the new counts: a new key's id is
 *     offset[c] + rank, the others take the id of the chunk that has it new;
 *     positions of the new keys into xyz, the chunk's triangles as global
 *     ids into tri (both first touched there, by the worker of the chunk).
 * Exactly the first-appearance numbering of merge(). Each phase is one loop
 * over the chunks (adapt_for, or a plain loop for the sequential mode); a
 * phase reads only what earlier phases wrote. */
/* 64 local ids of a chunk after (2): which are new, and how many new ones
 * come before them in the chunk. */
struct RankWord {
  uint64_t bits;
  uint64_t before;
};

struct KeyChunk {
  uint64_t *keys = nullptr; /* 3 ntri packed keys; local ids after (1) */
  size_t ntri = 0;          /* triangles held */
  size_t cap = 0;           /* room, triangles (owned buffers) */
  size_t tri_off = 0;       /* first triangle in the output */
  uint32_t pos = 0;         /* owner's value: increasing along the sequence */
  bool owned = false;       /* keys: an arena allocation of `bytes` */
  bool sealed = false;      /* takes no more triangles */
  bool closed = false;      /* (1) done */
  bool oom = false;
  KeyChunk *next = nullptr; /* the chunk after it (the cell phase's lists) */
  Arena *arena = nullptr;
  size_t bytes = 0;          /* of the keys' allocation (owned) */
  LocalMap map;              /* after (1); until (3) begins */
  uint64_t *ukeys = nullptr; /* local id -> key; -> global id in (3) */
  uint32_t bmax = 0;         /* after (1): the largest b of its keys (a, b) */
  size_t nukeys = 0;
  void *aux = nullptr; /* ukeys when not after the ids */
  size_t aux_bytes = 0;
  bool narrow = false;     /* 16-bit local ids (else 32-bit) */
  Arena *tables = nullptr; /* the map's slots: an allocation there, freed after (2) */
  size_t tab_bytes = 0;
  /* (2): new or not per local id, a slice of KeyMerge::ranks (read by the
   * later chunks in (3)); the ids found in an earlier chunk j, as (j << 32 |
   * id in j), in id order (read by this chunk only). */
  RankWord *rank = nullptr;
  std::vector<uint64_t> foreign;
  size_t nnew = 0;
  KeyChunk() = default;
  KeyChunk(const KeyChunk &) = delete;
  KeyChunk &operator=(const KeyChunk &) = delete;
  ~KeyChunk() {
    drop_table();
    drop();
  }
  /* The map's slots, once the rank phase is over. */
  void drop_table() {
    if (map.slots && tables) tables->free(map.slots, tab_bytes);
    map.slots = nullptr;
    tab_bytes = 0;
  }
  /* Give the chunk's memory back to the arena (the global phase, which
   * writes tri and xyz as it drops the chunks, stays at about the output's
   * peak RSS). */
  void drop() {
    if (owned) arena->free(keys, bytes);
    if (aux) arena->free(aux, aux_bytes);
    keys = ukeys = nullptr;
    aux = nullptr;
    owned = false;
    bytes = aux_bytes = 0;
  }
};

/* owner[] of steps (1) and (2): per point a, the position (KeyChunk::pos)
 * of the first chunk with a key starting at a, coarsened to 16 bits (2
 * bytes a point): pos >> shift, shift the smallest that keeps every
 * position of the sequence below kNone (the value of a point that no chunk
 * has lowered). Step (2) searches from the first chunk whose position is
 * at least value << shift: never after the true one, so that the result is
 * the same; only chunks that begin within 2^shift positions of it are
 * looked in too. v NULL: no owner[] (one chunk). */
struct OwnerMap {
  using Word = std::atomic<uint16_t>;
  static constexpr uint16_t kNone = UINT16_MAX;
  Word *v = nullptr;
  unsigned shift = 0;
  /* The shift for the positions [0, positions). */
  static unsigned shift_for(uint64_t positions) {
    unsigned s = 0;
    while (positions > 0 && ((positions - 1) >> s) >= kNone) s++;
    return s;
  }
  /* The smallest position a point's value allows; for kNone, above every
   * position of the sequence (they are below kNone << shift). Relaxed:
   * read in step (2), after the join of the parallel calls of step (1)
   * that lowered the values (km_rank). */
  uint64_t first(size_t point) const {
    return (uint64_t)v[point].load(std::memory_order_relaxed) << shift;
  }
};

/* Phase (1) on one chunk (see above); owner.v may be NULL (one chunk). The
 * local ids are written packed at the start of the keys' buffer, 16-bit
 * when the chunk has at most 65535 keys (the i-th over bytes [2i, 2i + 2)),
 * else 32-bit ([4i, 4i + 4)), within keys already read. The table and the
 * key list are built in the worker's scratch buffers (in cache, reused
 * chunk after chunk). Then the list goes after the ids, in the keys'
 * buffer (resized to fit when it is the last allocation of the worker's
 * slab), or into an allocation of its own when it does not fit or the
 * buffer is not the chunk's (the gathered chunk); the table into an
 * allocation of `tables`, freed after the rank phase. Sets ch.oom when out
 * of memory. searched false (the last chunk: no later one looks its keys
 * up): the table is not kept (on the gathered chunk of an order that is
 * not local, 16 MiB of table not copied into fresh pages on bunny's 2.9 M
 * keys), ch.map stays empty. */
void chunk_local(Arena &arena, Arena &tables, KeyChunk &ch, OwnerMap owner, bool searched = true);

struct KeyMerge {
  const void *pts = nullptr; /* the points (Point or PointF) */
  const void *sc = nullptr;  /* their scalars */
  double iso = 0;
  /* Step (3) for the types of pts and sc (global_phase). */
  void (*global)(size_t b, size_t e, void *km) = nullptr;
  std::vector<KeyChunk *> chunks; /* in sequence order */
  std::vector<uint32_t> pos;      /* chunks[c]->pos */
  /* The largest bmax of the chunks before c (UINT32_MAX from an open one
   * on: no key skips the search): a key (a, b) with b above it is new. */
  std::vector<uint32_t> bmax_before;
  Arena *arena = nullptr;
  Arena *tables = nullptr; /* the chunks' maps */
  OwnerMap owner;
  ArenaArray<OwnerMap::Word> owner_mem; /* owner's memory, freed after (2) */
  /* Every chunk's rank words, one allocation (one free in the serial part),
   * a quarter of a byte per key: from the heap, not from a slab, which
   * would keep a whole 2 MiB huge page resident through the global step
   * (the extraction's peak) for these few KiB. */
  std::unique_ptr<RankWord[]> ranks;
  std::vector<size_t> offset; /* first global vertex id of each chunk's new ones */
  /* The chunks in the order of the global step (global_order; the steps of
   * the chunks are independent). */
  std::vector<size_t> order;
  int64_t *tri = nullptr;
  double *xyz = nullptr;
  bool want_keys = false;   /* fill Surface::keys */
  uint64_t *keys = nullptr; /* the output's keys (want_keys), else NULL */
};

/* Phase (1) of the chunks sealed without it (all but the last, whose (1)
 * km_rank runs), then phases (2) and (3) on km's chunks, their tri_off set
 * (consecutive), their pos increasing; km.owner.v set if there are several.
 * s->tri is sized to the chunks' triangles (left as it is when it already
 * has that size: the chunks may be its own memory) and s->xyz to the
 * vertices. reuse (may be NULL): a surface whose buffers s takes, once
 * every step that can fail with -ENOMEM is over, when they are reusable()
 * (xyz always, tri when s->tri is empty): their pages are already faulted
 * in, which saves the kernel's zeroing of fresh ones (the global step's
 * largest cost on this VM, docs/benchmarks-isosurface.md). 0, -ENOMEM, the
 * runtime's errors. */
int merge_finish(KeyMerge &km, bool parallel, Surface *s, Surface *reuse);

/* Step (3) of the chunks [b, e) of the KeyMerge km, for points of
 * PointF (pts_float) or Point and scalars of type st. */
using PhaseFn = void (*)(size_t b, size_t e, void *km);
PhaseFn global_phase(bool pts_float, ScalarType st);

/* Delete the chunk list that starts at ch (may be NULL). */
void free_list(KeyChunk *ch);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_VERTEX_MERGE_H */
