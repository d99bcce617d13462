/* apps/isosurface/core: the chunked merge of the vertex keys, steps (2) and (3)
 * and the phases that run them (vertex_merge.h); merge_chunked (mt.h). */
#include "vertex_merge.h"

#include "mt_geometry.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

namespace iso {

namespace {

void km_local(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  for (size_t c = b; c < e; c++) chunk_local(*km->arena, *km->tables, *km->chunks[c], km->owner);
}

/* Step (1) of the chunks that the cell phase's merges sealed without
 * running it (cells_merge), all but the last (km_rank runs its). */
void km_local_sealed(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  const size_t last = km->chunks.size() - 1;
  for (size_t c = b; c < e && c < last; c++)
    if (!km->chunks[c]->closed) chunk_local(*km->arena, *km->tables, *km->chunks[c], km->owner);
}

void km_rank(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    KeyChunk &ch = *km->chunks[c];
    if (!ch.closed) {
      /* The last chunk (merge_finish): no later chunk reads its table or
       * its owner[] values, so its step (1) runs here, in parallel with the
       * others' step (2), without lowering owner[]. */
      chunk_local(*km->arena, *km->tables, ch, OwnerMap(), false);
      if (ch.oom) continue;
    }
    uint64_t r = 0, bits = 0, before = 0;
    const OwnerMap own = km->owner; /* a local: the stores below may alias km */
    ch.foreign.clear();
    for (size_t l = 0; l < ch.nukeys; l++) {
      const uint64_t key = ch.ukeys[l];
      bool found = false;
      uint64_t at = 0;
      /* Relaxed: written by the local phases before the parallel call
       * running them returned (its join orders them before this loop). */
      const uint64_t o = own.v ? own.first(key >> 32) : ch.pos;
      const uint32_t kb = (uint32_t)key;
      if (o < ch.pos && kb <= km->bmax_before[c]) {
        size_t j = (size_t)(std::lower_bound(km->pos.begin(), km->pos.begin() + (ptrdiff_t)c, o) -
                            km->pos.begin());
        for (; j < c; j++) {
          /* bmax: written by j's step (1), before the join of its call
           * (j < c: never the last chunk, whose step (1) and bmax are
           * written in this phase). */
          if (kb > km->chunks[j]->bmax) continue;
          const int64_t lj = km->chunks[j]->map.find(key);
          if (lj >= 0) {
            at = (uint64_t)j << 32 | (uint64_t)lj;
            found = true;
            break;
          }
        }
      }
      if (found) {
        try {
          ch.foreign.push_back(at);
        } catch (const std::bad_alloc &) {
          ch.oom = true; /* merge_finish returns -ENOMEM */
          break;
        }
      } else {
        bits |= (uint64_t)1 << (l & 63);
        r++;
      }
      if ((l & 63) == 63 || l + 1 == ch.nukeys) {
        ch.rank[l >> 6] = RankWord{bits, before};
        bits = 0;
        before = r;
      }
    }
    ch.nnew = (size_t)r;
  }
}

/* Keys between a vertex's prefetch and its position (km_global). */
constexpr size_t kPosAhead = 16;

/* Is local id l of a ranked chunk new there; its rank among the new ones. */
inline bool is_new(const RankWord *rank, size_t l) { return (rank[l >> 6].bits >> (l & 63)) & 1; }
inline uint64_t rank_of(const RankWord *rank, size_t l) {
  const RankWord &w = rank[l >> 6];
  return w.before + (uint64_t)__builtin_popcountll(w.bits & (((uint64_t)1 << (l & 63)) - 1));
}

template <class P, class S>
void km_global(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  const P *pts = static_cast<const P *>(km->pts);
  const S *sc = static_cast<const S *>(km->sc);
  for (size_t i = b; i < e; i++) {
    const size_t c = km->order[i];
    KeyChunk &ch = *km->chunks[c];
    /* ukeys[l] becomes the global id of l once its position is made (only
     * this chunk reads its ukeys in this phase; the others read its rank;
     * the rank phase, the only other reader of its map, is over). */
    const RankWord *rank = ch.rank;
    uint64_t r = 0;
    size_t fi = 0;
    for (size_t l = 0; l < ch.nukeys; l++) {
      int64_t g;
      if (l + kPosAhead < ch.nukeys && is_new(rank, l + kPosAhead)) {
        /* The points of a vertex made kPosAhead keys later: they were read
         * in the cell phase, long out of cache by now. */
        const uint64_t ahead = ch.ukeys[l + kPosAhead];
        __builtin_prefetch(&pts[ahead >> 32]);
        __builtin_prefetch(&pts[ahead & 0xFFFFFFFFu]);
        __builtin_prefetch(&sc[ahead >> 32]);
        __builtin_prefetch(&sc[ahead & 0xFFFFFFFFu]);
      }
      if (is_new(rank, l)) {
        g = (int64_t)(km->offset[c] + r++);
        key_position(pts, sc, km->iso, ch.ukeys[l], km->xyz + 3 * g);
        if (km->keys) km->keys[g] = ch.ukeys[l];
      } else {
        const uint64_t at = ch.foreign[fi++];
        const size_t j = (size_t)(at >> 32), lj = (size_t)(at & 0xFFFFFFFFu);
        g = (int64_t)(km->offset[j] + rank_of(km->chunks[j]->rank, lj));
      }
      ch.ukeys[l] = (uint64_t)g;
    }
    std::vector<uint64_t>().swap(ch.foreign);
    /* Backwards: tri may be the chunk's own buffer (merge_chunked, the
     * gathered chunk), where tri[i] covers the local ids 2i and 2i + 1
     * (4i .. 4i + 3 when narrow), all read by then (i >= 1; i = 0 reads
     * its id first). */
    const char *lid = reinterpret_cast<const char *>(ch.keys);
    const uint64_t *ids = ch.ukeys;
    int64_t *tri = km->tri + 3 * ch.tri_off;
    if (ch.narrow) {
      for (size_t i = 3 * ch.ntri; i-- > 0;) {
        uint16_t id;
        std::memcpy(&id, lid + 2 * i, sizeof id);
        tri[i] = (int64_t)ids[id];
      }
    } else {
      for (size_t i = 3 * ch.ntri; i-- > 0;) {
        uint32_t id;
        std::memcpy(&id, lid + 4 * i, sizeof id);
        tri[i] = (int64_t)ids[id];
      }
    }
    ch.drop(); /* the other chunks read only rank */
  }
}

/* km.order (sized): the chunks grouped by slab (Arena::slab_of of their
 * buffer; a chunk not in a slab is a group of its own), the groups by their
 * first chunk in the sequence, each group's chunks in sequence order. The
 * global step then ends a slab's chunks one after the other (the slab is
 * unmapped after its last), and writes the output from front to back,
 * ahead by at most a slab's span of the sequence: the output's huge pages
 * are faulted in as the slabs go away, which keeps the peak RSS down. */
void global_order(KeyMerge &km) {
  const size_t n = km.chunks.size();
  std::vector<uintptr_t> group(n);
  for (size_t c = 0; c < n; c++) {
    const KeyChunk &ch = *km.chunks[c];
    const void *slab = ch.owned ? Arena::slab_of(ch.keys, ch.bytes) : nullptr;
    group[c] = slab ? (uintptr_t)slab : (uintptr_t)ch.keys;
    km.order[c] = c;
  }
  /* Each group's first chunk: the chunks are in sequence order. */
  std::vector<size_t> by_group(km.order);
  std::stable_sort(by_group.begin(), by_group.end(),
                   [&group](size_t x, size_t y) { return group[x] < group[y]; });
  std::vector<size_t> first(n);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && group[by_group[j]] == group[by_group[i]]) j++;
    for (size_t k = i; k < j; k++) first[by_group[k]] = by_group[i];
    i = j;
  }
  std::stable_sort(km.order.begin(), km.order.end(),
                   [&first](size_t x, size_t y) { return first[x] < first[y]; });
}

/* One phase over the chunks: a plain loop (sequential), else an adapt_for
 * on loop frames: over the chunks, one per call (the rank step), or, when
 * in_order, of one call per worker, each call claiming chunks one at a
 * time, in order, from a shared counter (the global step).
 * Loop frames, not the adaptive scheduler: a chunk is a call of 0.1 to
 * 1 ms, and an adaptive victim answers a request only between two calls,
 * so the second worker started one whole chunk late (0.67-0.89 ms of a
 * 3.5-4.5 ms global step on waves100). Claims in order for the global
 * step: the loop frame's halves had the two workers write the output at
 * two fronts in two arrays, which kept up to four partly written 2 MiB
 * pages, and the slabs of both halves, resident at the peak; in order,
 * the output is faulted in and the slabs unmapped in one sweep, in the
 * same time. Not for the rank step, which took 18-19.5 ms instead of
 * 15-16 on gyroid100 at 2 workers when claimed in order (its lookups into
 * the chunks before: docs/benchmarks-isosurface.md, "Loop frames for the
 * merge, the output's memory reused"). */
struct Claims {
  KeyMerge *km;
  void (*phase)(size_t, size_t, void *);
  size_t n;
  std::atomic<size_t> next{0};
};

void claim_chunks(size_t, size_t, void *ctx) {
  Claims *c = static_cast<Claims *>(ctx);
  for (;;) {
    /* Relaxed: the counter only hands out indices; what the phases read was
     * written before the adapt_for that runs this (its start orders it). */
    const size_t i = c->next.fetch_add(1, std::memory_order_relaxed);
    if (i >= c->n) return;
    c->phase(i, i + 1, c->km);
  }
}

int km_phase(KeyMerge &km, bool parallel, bool in_order, void (*phase)(size_t, size_t, void *)) {
  if (!parallel || km.chunks.size() < 2) {
    phase(0, km.chunks.size(), &km);
    return 0;
  }
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.grain = 1;
  attr.sched = ADAPT_SCHED_LOOPFRAME;
  if (!in_order) return adapt_for(0, km.chunks.size(), phase, &km, &attr);
  Claims claims{&km, phase, km.chunks.size()};
  const size_t calls = std::min(km.chunks.size(), (size_t)adapt_num_workers());
  return adapt_for(0, calls, claim_chunks, &claims, &attr);
}

/* Whether a buffer of `cap` elements is reused for `need`: when it holds
 * them and is not more than twice as large (a surface much smaller than the
 * previous one does not keep the previous one's memory). */
inline bool reusable(size_t cap, size_t need) { return cap >= need && cap / 2 <= need; }

/* Before the rank step: km.pos, km.bmax_before, and each chunk's rank
 * words (one allocation, km.ranks); *ntri the chunks' triangles. 0 or
 * -ENOMEM. */
int prepare_ranks(KeyMerge &km, size_t *ntri) {
  size_t nwords = 0;
  try {
    km.pos.resize(km.chunks.size());
    km.bmax_before.resize(km.chunks.size());
    uint32_t most = 0;
    for (size_t c = 0; c < km.chunks.size(); c++) {
      const KeyChunk &ch = *km.chunks[c];
      if (ch.oom) return -ENOMEM;
      km.pos[c] = ch.pos;
      km.bmax_before[c] = most;
      most = ch.closed ? std::max(most, ch.bmax) : UINT32_MAX;
      *ntri += ch.ntri;
      /* An open chunk has at most 3 keys per triangle (virtual room). */
      nwords += ((ch.closed ? ch.nukeys : 3 * ch.ntri) + 63) / 64;
    }
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  /* Uninitialised: km_rank writes every word. */
  km.ranks.reset(new (std::nothrow) RankWord[nwords ? nwords : 1]);
  if (!km.ranks) return -ENOMEM;
  for (size_t c = 0, at = 0; c < km.chunks.size(); c++) {
    KeyChunk &ch = *km.chunks[c];
    ch.rank = km.ranks.get() + at;
    at += ((ch.closed ? ch.nukeys : 3 * ch.ntri) + 63) / 64;
  }
  return 0;
}

/* After the rank step: km_rank's allocations (the last chunk's table and
 * list) are done; the tables are read no more, and no chunk is numbered
 * any more (the scratch buffers' use). 0 or -ENOMEM (a chunk's). */
int end_ranks(KeyMerge &km) {
  km.arena->retire_all();
  km.arena->release_scratch_all();
  for (KeyChunk *ch : km.chunks) ch->drop_table();
  km.tables->retire_all();
  for (const KeyChunk *ch : km.chunks)
    if (ch->oom) return -ENOMEM;
  return 0;
}

/* Before the global step: km.order, km.offset, owner[] freed, and s sized
 * to the surface (see merge_finish for reuse). 0 or -ENOMEM. */
int prepare_output(KeyMerge &km, size_t ntri, Surface *s, Surface *reuse) {
  size_t total = 0;
  try {
    km.offset.resize(km.chunks.size());
    km.order.resize(km.chunks.size());
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  global_order(km);
  for (size_t c = 0; c < km.chunks.size(); c++) {
    km.offset[c] = total;
    total += km.chunks[c]->nnew;
  }
  km.owner = OwnerMap();
  km.owner_mem.reset();
  if (reuse && reuse != s) {
    if (reusable(reuse->xyz.capacity(), 3 * total)) s->xyz.swap(reuse->xyz);
    if (s->tri.empty() && reusable(reuse->tri.capacity(), 3 * ntri)) s->tri.swap(reuse->tri);
    if (km.want_keys && reusable(reuse->keys.capacity(), total)) s->keys.swap(reuse->keys);
  }
  try {
    /* Uninitialised (OutAlloc): the global phase writes every element. */
    s->xyz.resize(3 * total);
    if (s->tri.size() != 3 * ntri) s->tri.resize(3 * ntri);
    if (km.want_keys) s->keys.resize(total);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  km.xyz = s->xyz.data();
  km.tri = s->tri.data();
  km.keys = km.want_keys ? s->keys.data() : nullptr;
  return 0;
}

} // namespace

int merge_finish(KeyMerge &km, bool parallel, Surface *s, Surface *reuse) {
  bool sealed_only = false;
  for (size_t c = 0; c + 1 < km.chunks.size(); c++) sealed_only |= !km.chunks[c]->closed;
  if (sealed_only) {
    const int rc = km_phase(km, parallel, false, km_local_sealed);
    if (rc) return rc;
  }
  size_t ntri = 0;
  if (const int rc = prepare_ranks(km, &ntri)) return rc;
  if (const int rc = km_phase(km, parallel, false, km_rank)) return rc;
  if (const int rc = end_ranks(km)) return rc;
  if (const int rc = prepare_output(km, ntri, s, reuse)) return rc;
  const int rc3 = km_phase(km, parallel, true, km.global);
  /* Not expected (the runtime ran the previous steps): reuse's buffers may
   * be partly written, so it is emptied rather than left half old. */
  if (rc3 && reuse && reuse != s) {
    /* Its buffers only: its kept memory is in use by this call's arenas. */
    Surface empty;
    reuse->xyz.swap(empty.xyz);
    reuse->tri.swap(empty.tri);
    reuse->keys.swap(empty.keys);
  }
  return rc3;
}

PhaseFn global_phase(bool pts_float, ScalarType st) {
  PhaseFn f = nullptr;
  with_mesh_types(pts_float, st, [&](auto p, auto s) { f = km_global<decltype(p), decltype(s)>; });
  return f;
}

void free_list(KeyChunk *ch) {
  while (ch) {
    KeyChunk *next = ch->next;
    delete ch;
    ch = next;
  }
}

int merge_chunked(const Point *pts, const double *sc, double iso, const TriRec *rec, size_t n,
                  size_t nchunks, Surface *out) {
  if (nchunks == 0) return -EINVAL;
  /* Local ids are 32-bit: a chunk holds fewer than 2^32 - 1 keys (3 per
   * triangle at most); positions are chunk indices. */
  const size_t most = ((size_t)UINT32_MAX - 1) / 3;
  nchunks = std::max<size_t>({1, std::min(nchunks, n), (n + most - 1) / most});
  if (nchunks >= UINT32_MAX) return -EOVERFLOW;
  Surface s;
  int64_t npts = 0;
  Arena arena, tables; /* outlive the chunks and km */
  KeyMerge km;
  km.arena = &arena;
  km.tables = &tables;
  std::vector<std::unique_ptr<KeyChunk>> own;
  try {
    s.tri.resize(3 * n);
    for (size_t f = 0; f < n; f++)
      for (int k = 0; k < 3; k++) {
        const EdgeKey &e = rec[f].e[k];
        if (e.a < 0 || e.b < e.a || (uint64_t)e.b >= kMaxMeshPoints) return -EOVERFLOW;
        s.tri[3 * f + (size_t)k] = (int64_t)pack(e);
        npts = std::max(npts, e.b + 1);
      }
    for (size_t c = 0; c < nchunks; c++) {
      own.emplace_back(new KeyChunk);
      KeyChunk &ch = *own.back();
      const size_t first = n * c / nchunks, last = n * (c + 1) / nchunks;
      ch.keys = reinterpret_cast<uint64_t *>(s.tri.data()) + 3 * first;
      ch.ntri = last - first;
      ch.tri_off = first;
      ch.pos = (uint32_t)c;
      km.chunks.push_back(&ch);
    }
    if (nchunks > 1) {
      if (!km.owner_mem.allocate(&arena, (size_t)npts, true)) return -ENOMEM;
      km.owner.v = km.owner_mem.get();
      km.owner.shift = OwnerMap::shift_for(nchunks);
      for (int64_t p = 0; p < npts; p++)
        km.owner.v[p].store(OwnerMap::kNone, std::memory_order_relaxed); /* before the loops */
    }
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  km.pts = pts;
  km.sc = sc;
  km.iso = iso;
  km.global = global_phase(false, ScalarType::F64);
  int rc = km_phase(km, true, false, km_local);
  if (!rc) rc = merge_finish(km, true, &s, nullptr);
  if (rc) return rc;
  *out = std::move(s);
  return 0;
}

} // namespace iso
