/* apps/isosurface: marching tetrahedra (see mt.h). */
#include "mt.h"

#include "iso_config.h"
#include "names.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <utility>

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

namespace iso {

namespace {

/* Triangles of each of the 16 inside/outside cases, as pairs of local
 * vertices (the crossed edges). Built once from the rule: 1 or 3 inside: one
 * triangle around the lone vertex; 2 inside {a,b}, outside {c,d}: the quad
 * (a,c) (b,c) (b,d) (a,d) split along (a,c)-(b,d). */
struct CaseTable {
  int ntri[16];
  int edge[16][2][3][2];
  CaseTable() {
    for (int idx = 0; idx < 16; idx++) {
      int in[4], out[4], ni = 0, no = 0;
      for (int v = 0; v < 4; v++) {
        if (idx & (1 << v))
          in[ni++] = v;
        else
          out[no++] = v;
      }
      ntri[idx] = 0;
      if (ni == 1 || ni == 3) {
        int lone = ni == 1 ? in[0] : out[0];
        const int *others = ni == 1 ? out : in;
        for (int k = 0; k < 3; k++) {
          edge[idx][0][k][0] = lone;
          edge[idx][0][k][1] = others[k];
        }
        ntri[idx] = 1;
      } else if (ni == 2) {
        const int a = in[0], b = in[1], c = out[0], d = out[1];
        const int quad[4][2] = {{a, c}, {b, c}, {b, d}, {a, d}};
        const int split[2][3] = {{0, 1, 2}, {0, 2, 3}};
        for (int t = 0; t < 2; t++)
          for (int k = 0; k < 3; k++) {
            edge[idx][t][k][0] = quad[split[t][k]][0];
            edge[idx][t][k][1] = quad[split[t][k]][1];
          }
        ntri[idx] = 2;
      }
      /* The distinct crossed edges of the case, and each triangle's corners
       * as indices into them (each crossed edge is interpolated once). */
      nedge[idx] = 0;
      for (int t = 0; t < ntri[idx]; t++)
        for (int k = 0; k < 3; k++) {
          const int p = edge[idx][t][k][0], q = edge[idx][t][k][1];
          int e = 0;
          while (e < nedge[idx] && !((cedge[idx][e][0] == p && cedge[idx][e][1] == q) ||
                                     (cedge[idx][e][0] == q && cedge[idx][e][1] == p)))
            e++;
          if (e == nedge[idx]) {
            cedge[idx][e][0] = p;
            cedge[idx][e][1] = q;
            nedge[idx]++;
          }
          tedge[idx][t][k] = e;
        }
    }
  }
  int nedge[16];
  int cedge[16][4][2];
  int tedge[16][2][3];
};
const CaseTable cases;

/* Vertex on the edge (p, q) of a crossed edge: key and position, computed
 * exactly as vtkTetra::Contour does (from the smaller scalar). */
inline void edge_vertex(const Point *pts, int64_t p, int64_t q, double iso, EdgeKey *key,
                        double x[3]) {
  const Point &P = pts[p], &Q = pts[q];
  const bool p_lo = Q.s - P.s > 0;
  const Point &lo = p_lo ? P : Q, &hi = p_lo ? Q : P;
  const int64_t ilo = p_lo ? p : q, ihi = p_lo ? q : p;
  const double t = (iso - lo.s) / (hi.s - lo.s);
  if (t == 1.0) {
    key->a = key->b = ihi;
    x[0] = hi.x, x[1] = hi.y, x[2] = hi.z;
  } else if (t == 0.0) {
    key->a = key->b = ilo;
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z;
  } else {
    key->a = p < q ? p : q;
    key->b = p < q ? q : p;
    x[0] = lo.x + t * (hi.x - lo.x);
    x[1] = lo.y + t * (hi.y - lo.y);
    x[2] = lo.z + t * (hi.z - lo.z);
  }
}

inline void cross(const double a[3], const double b[3], double r[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

inline double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

inline bool same(const EdgeKey &u, const EdgeKey &v) { return u.a == v.a && u.b == v.b; }

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

size_t mt_cell(const Point *pts, const Tet &t, double iso, TriRec out[2]) {
  const Point &p0 = pts[t.v[0]], &p1 = pts[t.v[1]], &p2 = pts[t.v[2]], &p3 = pts[t.v[3]];
  const int idx = (p0.s >= iso) | (p1.s >= iso) << 1 | (p2.s >= iso) << 2 | (p3.s >= iso) << 3;
  const int nt = cases.ntri[idx];
  if (nt == 0) return 0;
  /* Gradient direction of the cell's linear field: g = G / det. */
  const Point *P[4] = {&p0, &p1, &p2, &p3};
  double e[3][3], G[3] = {0, 0, 0}, c[3];
  for (int k = 0; k < 3; k++) {
    e[k][0] = P[k + 1]->x - p0.x;
    e[k][1] = P[k + 1]->y - p0.y;
    e[k][2] = P[k + 1]->z - p0.z;
  }
  for (int k = 0; k < 3; k++) {
    cross(e[(k + 1) % 3], e[(k + 2) % 3], c);
    const double d = P[k + 1]->s - p0.s;
    for (int a = 0; a < 3; a++) G[a] += d * c[a];
  }
  cross(e[1], e[2], c);
  const double det = dot(e[0], c);
  size_t n = 0;
  for (int tr = 0; tr < nt; tr++) {
    TriRec &r = out[n];
    double x[3][3];
    for (int k = 0; k < 3; k++) {
      const int *ed = cases.edge[idx][tr][k];
      edge_vertex(pts, t.v[ed[0]], t.v[ed[1]], iso, &r.e[k], x[k]);
    }
    if (same(r.e[0], r.e[1]) || same(r.e[0], r.e[2]) || same(r.e[1], r.e[2])) continue;
    double u[3], v[3], nrm[3];
    for (int a = 0; a < 3; a++) {
      u[a] = x[1][a] - x[0][a];
      v[a] = x[2][a] - x[0][a];
    }
    cross(u, v, nrm);
    if (dot(nrm, G) * det < 0) {
      EdgeKey tmp = r.e[1];
      r.e[1] = r.e[2];
      r.e[2] = tmp;
    }
    n++;
  }
  return n;
}

double Surface::area() const {
  double sum = 0;
  for (size_t f = 0; f < ntris(); f++) {
    const double *a = &xyz[3 * (size_t)tri[3 * f]], *b = &xyz[3 * (size_t)tri[3 * f + 1]],
                 *c = &xyz[3 * (size_t)tri[3 * f + 2]];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
           v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, n[3];
    cross(u, v, n);
    sum += 0.5 * std::sqrt(dot(n, n));
  }
  return sum;
}

namespace {

/* Open-addressing hash table from EdgeKey to vertex id. */
class KeyMap {
public:
  explicit KeyMap(size_t expect) {
    size_t cap = 1024;
    while (cap < 2 * expect) cap <<= 1;
    slots_.assign(cap, Slot{-1, -1, -1});
    mask_ = cap - 1;
  }
  /* Id of key, inserting `fresh` if absent; *inserted tells which. */
  int64_t find_or_insert(const EdgeKey &k, int64_t fresh, bool *inserted) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    size_t h = hash(k) & mask_;
    for (;;) {
      Slot &s = slots_[h];
      if (s.a < 0) {
        s = Slot{k.a, k.b, fresh};
        used_++;
        *inserted = true;
        return fresh;
      }
      if (s.a == k.a && s.b == k.b) {
        *inserted = false;
        return s.id;
      }
      h = (h + 1) & mask_;
    }
  }

  /* Id of key, or -1 if absent. Read-only: safe concurrently with other
   * readers. */
  int64_t find(const EdgeKey &k) const {
    size_t h = hash(k) & mask_;
    for (;;) {
      const Slot &s = slots_[h];
      if (s.a < 0) return -1;
      if (s.a == k.a && s.b == k.b) return s.id;
      h = (h + 1) & mask_;
    }
  }

private:
  struct Slot {
    int64_t a, b, id;
  };
  /* Multiplicative mix of both ids. (A locality-preserving variant, 32
   * consecutive ids per 128-slot region, measured no faster in A/B runs.) */
  static size_t hash(const EdgeKey &k) {
    uint64_t h = (uint64_t)k.a * 0x9E3779B97F4A7C15ULL ^ (uint64_t)k.b * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ (h >> 29));
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{-1, -1, -1});
    mask_ = slots_.size() - 1;
    for (const Slot &s : old)
      if (s.a >= 0) {
        size_t h = hash(EdgeKey{s.a, s.b}) & mask_;
        while (slots_[h].a >= 0) h = (h + 1) & mask_;
        slots_[h] = s;
      }
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, used_ = 0;
};

} // namespace

int merge(const Point *pts, double iso, const TriRec *rec, size_t n, Surface *out) {
  try {
    Surface s;
    s.tri.resize(3 * n);
    s.xyz.reserve(3 * (n / 2 + 16));
    KeyMap map(n / 2 + 16);
    for (size_t f = 0; f < n; f++)
      for (int k = 0; k < 3; k++) {
        const EdgeKey &key = rec[f].e[k];
        bool fresh;
        const int64_t id = map.find_or_insert(key, (int64_t)s.nverts(), &fresh);
        if (fresh) {
          double x[3];
          EdgeKey again;
          if (key.a == key.b) {
            x[0] = pts[key.a].x, x[1] = pts[key.a].y, x[2] = pts[key.a].z;
          } else {
            edge_vertex(pts, key.a, key.b, iso, &again, x);
          }
          s.xyz.insert(s.xyz.end(), x, x + 3);
        }
        s.tri[3 * f + (size_t)k] = id;
      }
    *out = std::move(s);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  return 0;
}

namespace {

/* Ask for transparent huge pages on the 2 MiB-aligned part of [p, p +
 * bytes), before its first touch: a page fault costs microseconds in this
 * VM, and the output arrays are tens of MiB. A hint only: its failure (no
 * THP, "never") changes nothing but the time, and is ignored. */
void advise_huge(const void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = (uintptr_t)2 << 20;
  const uintptr_t b = ((uintptr_t)p + huge - 1) & ~(huge - 1),
                  e = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (e > b) (void)madvise((void *)b, e - b, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

/* v sized to n elements (zero), with huge pages asked for first. */
template <class T>
void resize_huge(std::vector<T> &v, size_t n) {
  v.reserve(n);
  advise_huge(v.data(), n * sizeof(T));
  v.resize(n);
}

/* A vertex key packed in 64 bits: (a << 32) | b, a <= b < 2^32 (the edge
 * (a, b), or the point a when a == b). extract() refuses meshes of 2^32 - 1
 * points or more, so no key is all ones (the empty slot below). */
constexpr uint64_t kNoKey = ~(uint64_t)0;
constexpr uint64_t kMaxPoints = 0xFFFFFFFFull;

inline uint64_t pack(const EdgeKey &k) { return (uint64_t)k.a << 32 | (uint64_t)k.b; }

/* Position of the vertex of a packed key (as merge() computes it). */
inline void key_position(const Point *pts, double iso, uint64_t key, double x[3]) {
  const int64_t a = (int64_t)(key >> 32), b = (int64_t)(key & 0xFFFFFFFFu);
  if (a == b) {
    x[0] = pts[a].x, x[1] = pts[a].y, x[2] = pts[a].z;
  } else {
    EdgeKey again;
    edge_vertex(pts, a, b, iso, &again, x);
  }
}

/* Open-addressing table from packed key to a chunk-local id, sized for one
 * chunk. A slot holds only the id (4 bytes; the key is keys[id], in the
 * chunk's own key list): ISO_MERGE_CHUNK_TRIS triangles take 64 KiB, in L2.
 * Fibonacci hashing, linear probing, load at most 1/2. */
class LocalMap {
public:
  LocalMap(size_t expect, const std::vector<uint64_t> *keys) : keys_(keys) {
    size_t cap = 64;
    while (cap < 2 * expect) cap <<= 1;
    resize(cap);
  }
  /* Id of key, inserting keys->size() (the caller appends key) if absent;
   * *inserted tells which. */
  uint32_t find_or_insert(uint64_t key, bool *inserted) {
    if (2 * (keys_->size() + 1) > slots_.size()) grow();
    for (size_t h = slot_of(key);; h = (h + 1) & mask_) {
      const uint32_t id = slots_[h];
      if (id == kEmpty) {
        slots_[h] = (uint32_t)keys_->size();
        *inserted = true;
        return slots_[h];
      }
      if ((*keys_)[id] == key) {
        *inserted = false;
        return id;
      }
    }
  }
  /* Id of key, or -1. Read-only: safe concurrently with other readers. */
  int64_t find(uint64_t key) const {
    for (size_t h = slot_of(key);; h = (h + 1) & mask_) {
      const uint32_t id = slots_[h];
      if (id == kEmpty) return -1;
      if ((*keys_)[id] == key) return id;
    }
  }
  void release() { std::vector<uint32_t>().swap(slots_); }

private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  size_t slot_of(uint64_t key) const {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> shift_) & mask_;
  }
  void resize(size_t cap) {
    slots_.assign(cap, kEmpty);
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) shift_--;
  }
  void grow() {
    resize(slots_.size() * 2);
    for (uint32_t id = 0; id < (uint32_t)keys_->size(); id++) {
      size_t h = slot_of((*keys_)[id]);
      while (slots_[h] != kEmpty) h = (h + 1) & mask_;
      slots_[h] = id;
    }
  }
  const std::vector<uint64_t> *keys_;
  std::vector<uint32_t> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
};

/* The merge of packed keys with the sequential numbering, in C contiguous
 * chunks of triangles (C = 1: the plain sequential merge).
 * (1) local: each chunk numbers its keys in order of first appearance in a
 *     table of its own, writes the local ids into tri, and lowers owner[a]
 *     to its index for each key's smaller point a (owner[a]: the first chunk
 *     with a key starting at a).
 * (2) rank: a key (a, b) of chunk c is new unless an earlier chunk holds it;
 *     only chunks owner[a] .. c-1 can (on cell-ordered meshes: the chunk
 *     boundary, one lookup or two), and the first one found is where it is
 *     new. New keys are ranked in order.
 * (3) global, after a prefix sum of the new counts: a new key's id is
 *     offset[c] + rank, the others take the id of the chunk that has it new;
 *     positions of the new keys, tri rewritten to global ids.
 * Exactly the first-appearance numbering of merge(). Each phase is one loop
 * over the chunks (adapt_for, or a plain loop for the sequential mode); a
 * phase reads only what earlier phases wrote. */
struct KeyChunk {
  size_t first = 0, last = 0; /* triangles [first, last) */
  std::unique_ptr<LocalMap> map;
  std::vector<uint64_t> keys; /* local id -> key */
  std::vector<int64_t> ref;   /* local id -> rank if new, else -1 - (j << 32 | id in j) */
  size_t nnew = 0;
  bool oom = false;
};

struct KeyMerge {
  const Point *pts = nullptr;
  double iso = 0;
  const uint64_t *keys = nullptr; /* 3n packed keys (may be tri itself) */
  int64_t *tri = nullptr;         /* 3n ids out */
  double *xyz = nullptr;
  std::vector<KeyChunk> chunks;
  std::unique_ptr<std::atomic<uint32_t>[]> owner; /* per point, C > 1 only */
  std::vector<size_t> offset;
};

void km_local(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    KeyChunk &ch = km->chunks[c];
    try {
      /* About one vertex per two triangles on smooth surfaces. */
      ch.map.reset(new LocalMap((ch.last - ch.first) / 2, &ch.keys));
      ch.keys.reserve((ch.last - ch.first) / 2 + 16);
      /* Locals: the stores to tri (int64_t) may alias size_t fields, which
       * would make the compiler reload these every iteration. */
      const uint64_t *keys = km->keys;
      int64_t *tri = km->tri;
      LocalMap &map = *ch.map;
      std::atomic<uint32_t> *owner = km->owner.get();
      for (size_t i = 3 * ch.first; i < 3 * ch.last; i++) {
        const uint64_t key = keys[i];
        bool fresh;
        const uint32_t id = map.find_or_insert(key, &fresh);
        if (fresh) {
          ch.keys.push_back(key);
          if (owner) {
            /* Lower owner[a] to c. Relaxed: the values are read in the
             * rank phase, after this adapt_for has returned (its join pairs
             * with these stores). */
            std::atomic<uint32_t> &o = owner[key >> 32];
            uint32_t cur = o.load(std::memory_order_relaxed);
            while (cur > (uint32_t)c &&
                   !o.compare_exchange_weak(cur, (uint32_t)c, std::memory_order_relaxed,
                                            std::memory_order_relaxed)) {}
          }
        }
        tri[i] = (int64_t)id;
      }
    } catch (const std::bad_alloc &) {
      ch.oom = true;
    }
  }
}

void km_rank(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    KeyChunk &ch = km->chunks[c];
    if (ch.oom) continue;
    try {
      ch.ref.resize(ch.keys.size());
    } catch (const std::bad_alloc &) {
      ch.oom = true;
      continue;
    }
    int64_t r = 0;
    for (size_t l = 0; l < ch.keys.size(); l++) {
      const uint64_t key = ch.keys[l];
      bool found = false;
      int64_t ref = 0;
      if (km->owner) {
        /* Relaxed: written by km_local before the previous adapt_for
         * returned (its join orders them before this loop). */
        for (size_t j = km->owner[key >> 32].load(std::memory_order_relaxed); j < c; j++) {
          const int64_t lj = km->chunks[j].map->find(key);
          if (lj >= 0) {
            ref = -1 - (int64_t)((uint64_t)j << 32 | (uint64_t)lj);
            found = true;
            break;
          }
        }
      }
      ch.ref[l] = found ? ref : r++;
    }
    ch.nnew = (size_t)r;
  }
}

void km_global(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    KeyChunk &ch = km->chunks[c];
    /* keys[l] becomes the global id of l once its position is made (only
     * this chunk reads its keys in this phase; the others read its ref). */
    for (size_t l = 0; l < ch.keys.size(); l++) {
      const int64_t ref = ch.ref[l];
      int64_t g;
      if (ref >= 0) {
        g = (int64_t)km->offset[c] + ref;
        key_position(km->pts, km->iso, ch.keys[l], km->xyz + 3 * g);
      } else {
        const uint64_t at = (uint64_t)(-1 - ref);
        const size_t j = (size_t)(at >> 32), lj = (size_t)(at & 0xFFFFFFFFu);
        g = (int64_t)km->offset[j] + km->chunks[j].ref[lj];
      }
      ch.keys[l] = (uint64_t)g;
    }
    for (size_t i = 3 * ch.first; i < 3 * ch.last; i++)
      km->tri[i] = (int64_t)ch.keys[(size_t)km->tri[i]];
  }
}

/* One phase over the chunks: adapt_for (one chunk per call) or a loop. */
int km_phase(KeyMerge &km, bool parallel, void (*phase)(size_t, size_t, void *)) {
  if (!parallel) {
    phase(0, km.chunks.size(), &km);
    return 0;
  }
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.grain = 1;
  return adapt_for(0, km.chunks.size(), phase, &km, &attr);
}

/* Merge the packed keys keys[0 .. 3n) into s->tri (3n entries, already
 * sized; may be the same memory as keys) and s->xyz, in nchunks >= 1 chunks.
 * release(keys) is called once the keys have been read (after the local
 * phase), if not NULL. 0, -ENOMEM, the runtime's errors. */
int merge_keys(const Point *pts, size_t npts, double iso, const uint64_t *keys, size_t n,
               size_t nchunks, bool parallel, void (*release)(const uint64_t *), Surface *s) {
  KeyMerge km;
  km.pts = pts;
  km.iso = iso;
  km.keys = keys;
  km.tri = s->tri.data();
  /* Local ids are 32-bit: a chunk holds fewer than 2^32 - 1 keys (3 per
   * triangle at most). */
  const size_t most = ((size_t)UINT32_MAX - 1) / 3;
  nchunks = std::max<size_t>({1, std::min(nchunks, n), (n + most - 1) / most});
  try {
    km.chunks.resize(nchunks);
    if (nchunks > 1) {
      km.owner.reset(new std::atomic<uint32_t>[npts]);
      advise_huge(km.owner.get(), npts * sizeof(std::atomic<uint32_t>));
      for (size_t p = 0; p < npts; p++)
        km.owner[p].store(UINT32_MAX, std::memory_order_relaxed); /* before the loops start */
    }
  } catch (const std::bad_alloc &) {
    if (release) release(keys);
    return -ENOMEM;
  }
  for (size_t c = 0; c < nchunks; c++) {
    km.chunks[c].first = n * c / nchunks;
    km.chunks[c].last = n * (c + 1) / nchunks;
  }
  int rc = km_phase(km, parallel, km_local);
  if (release) release(keys);
  km.keys = nullptr;
  if (!rc) rc = km_phase(km, parallel, km_rank);
  if (rc) return rc;
  size_t total = 0;
  km.offset.resize(nchunks);
  for (size_t c = 0; c < nchunks; c++) {
    if (km.chunks[c].oom) return -ENOMEM;
    km.chunks[c].map->release();
    km.offset[c] = total;
    total += km.chunks[c].nnew;
  }
  km.owner.reset();
  try {
    resize_huge(s->xyz, 3 * total);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  km.xyz = s->xyz.data();
  return km_phase(km, parallel, km_global);
}

/* Do the chunks hold mostly separate point id ranges (a local cell order)?
 * Estimated on a sample of the triangles' first keys: the summed ranges of
 * the chunks must not exceed ISO_PAR_MERGE_OVERLAP * nchunks times the whole
 * range (1 for disjoint ranges, nchunks when every chunk spans everything).
 * Otherwise (random orders) most keys would be looked up in most earlier
 * chunks, and one chunk (the sequential merge) is faster. */
bool chunks_local(const uint64_t *keys, size_t n, size_t nchunks) {
  int64_t lo = INT64_MAX, hi = -1;
  double summed = 0;
  for (size_t c = 0; c < nchunks; c++) {
    int64_t clo = INT64_MAX, chi = -1;
    for (size_t f = n * c / nchunks; f < n * (c + 1) / nchunks; f += 16) {
      const int64_t a = (int64_t)(keys[3 * f] >> 32);
      clo = std::min(clo, a);
      chi = std::max(chi, a);
    }
    if (chi < 0) continue;
    summed += (double)(chi - clo + 1);
    lo = std::min(lo, clo);
    hi = std::max(hi, chi);
  }
  return hi >= 0 && summed <= ISO_PAR_MERGE_OVERLAP * (double)nchunks * (double)(hi - lo + 1);
}

/* Chunks for n triangles on nw workers: one if the order is not local,
 * else enough for tables of at most ISO_MERGE_CHUNK_TRIS triangles and at
 * least ISO_PAR_MERGE_CHUNKS_PER_WORKER per worker. */
size_t merge_chunks(const uint64_t *keys, size_t n, size_t nw) {
  if (n < ISO_PAR_MERGE_MIN_TRIS) return 1;
  const size_t by_size = (n + ISO_MERGE_CHUNK_TRIS - 1) / ISO_MERGE_CHUNK_TRIS;
  const size_t c = std::max(by_size, nw > 1 ? nw * ISO_PAR_MERGE_CHUNKS_PER_WORKER : 1);
  return c > 1 && chunks_local(keys, n, std::min<size_t>(c, 64)) ? c : 1;
}

} // namespace

adapt_attr cell_phase_attr(const Mesh &m, Mode mode, const AdaptOptions &opt) {
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  /* Options are in cells; the elements of the call are blocks. */
  attr.grain = (opt.grain + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
  attr.window = mode == Mode::NoWin    ? ADAPT_WINDOW_NONE
                : mode == Mode::Static ? ADAPT_WINDOW_STATIC
                                       : ADAPT_WINDOW_SLIDING;
  attr.window_size = (opt.window_size + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
  attr.splitter = (adapt_window_splitter)opt.splitter;
  attr.sched = (adapt_sched)opt.sched;
  /* Bytes one cell brings into the cache: its four ids and its share of
   * the points (paper §4: m cells should fit in the shared cache). */
  attr.footprint =
      ISO_CELL_BLOCK *
      (sizeof(Tet) + (m.tets.empty() ? 0 : sizeof(Point) * m.pts.size() / m.tets.size()));
  return attr;
}

int merge_chunked(const Point *pts, double iso, const TriRec *rec, size_t n, size_t nchunks,
                  Surface *out) {
  if (nchunks == 0) return -EINVAL;
  Surface s;
  int64_t npts = 0;
  try {
    s.tri.resize(3 * n);
    for (size_t f = 0; f < n; f++)
      for (int k = 0; k < 3; k++) {
        const EdgeKey &e = rec[f].e[k];
        if (e.a < 0 || e.b < e.a || (uint64_t)e.b >= kMaxPoints) return -EOVERFLOW;
        s.tri[3 * f + (size_t)k] = (int64_t)pack(e);
        npts = std::max(npts, e.b + 1);
      }
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  const int rc =
      merge_keys(pts, (size_t)npts, iso, reinterpret_cast<const uint64_t *>(s.tri.data()), n,
                 nchunks, true, nullptr, &s);
  if (rc) return rc;
  *out = std::move(s);
  return 0;
}

namespace {

const Named<Mode> mode_names[] = {{"seq", Mode::Seq},
                                  {"nowin", Mode::NoWin},
                                  {"static", Mode::Static},
                                  {"sliding", Mode::Sliding}};

} // namespace

int parse_mode(const std::string &n, Mode *out) { return parse_named(mode_names, n, out); }
const char *mode_name(Mode m) { return name_of(mode_names, m); }

namespace {

/* Triangles of a cell of case idx (1 to 14: crossed) as packed keys, three
 * per triangle, into out; returns how many. The arithmetic of mt_cell, but
 * each crossed edge is interpolated once. */
inline size_t cell_keys(const Point *pts, const Tet &t, int idx, double iso, uint64_t out[6]) {
  const Point &p0 = pts[t.v[0]], &p1 = pts[t.v[1]], &p2 = pts[t.v[2]], &p3 = pts[t.v[3]];
  /* mt_cell's gradient and determinant, its loops unrolled (the same
   * operations in the same order: the same bits). */
  const double e[3][3] = {{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z},
                          {p2.x - p0.x, p2.y - p0.y, p2.z - p0.z},
                          {p3.x - p0.x, p3.y - p0.y, p3.z - p0.z}};
  double c0[3], c1[3], c2[3], G[3];
  cross(e[1], e[2], c0);
  cross(e[2], e[0], c1);
  cross(e[0], e[1], c2);
  const double d0 = p1.s - p0.s, d1 = p2.s - p0.s, d2 = p3.s - p0.s;
  for (int a = 0; a < 3; a++) G[a] = ((0.0 + d0 * c0[a]) + d1 * c1[a]) + d2 * c2[a];
  const double det = dot(e[0], c0);
  uint64_t key[4];
  double x[4][3];
  for (int k = 0; k < cases.nedge[idx]; k++) {
    EdgeKey ek;
    edge_vertex(pts, t.v[cases.cedge[idx][k][0]], t.v[cases.cedge[idx][k][1]], iso, &ek, x[k]);
    key[k] = pack(ek);
  }
  size_t n = 0;
  for (int tr = 0; tr < cases.ntri[idx]; tr++) {
    const int *te = cases.tedge[idx][tr];
    int i0 = te[0], i1 = te[1], i2 = te[2];
    if (key[i0] == key[i1] || key[i0] == key[i2] || key[i1] == key[i2]) continue;
    double u[3], v[3], nrm[3];
    for (int a = 0; a < 3; a++) {
      u[a] = x[i1][a] - x[i0][a];
      v[a] = x[i2][a] - x[i0][a];
    }
    cross(u, v, nrm);
    if (dot(nrm, G) * det < 0) std::swap(i1, i2);
    out[3 * n] = key[i0];
    out[3 * n + 1] = key[i1];
    out[3 * n + 2] = key[i2];
    n++;
  }
  return n;
}

/* Case of a cell from the points' inside bytes (1 if s >= iso): four byte
 * loads from an array of one byte per point (in L2 on meshes of up to about
 * a million points) instead of four 32-byte points, and no branch. */
inline int cell_case(const uint8_t *in, const Tet &t) {
  return in[t.v[0]] | in[t.v[1]] << 1 | in[t.v[2]] << 2 | in[t.v[3]] << 3;
}

inline bool crossed(int idx) { return (unsigned)(idx - 1) < 14u; }

/* Triangles of the cells first[0 .. n), n <= ISO_CELL_BLOCK, as packed keys
 * into out (at most 2n triangles); returns how many. Two passes: the cases
 * (a branch-free list of the crossed cells, whose points are prefetched:
 * empty cells never read their points, so a crossed cell's are cold), then
 * the triangles of the listed cells. */
inline size_t cells_block(const Point *pts, const uint8_t *in, const Tet *first, size_t n,
                          double iso, uint64_t *out) {
  uint8_t idx[ISO_CELL_BLOCK], at[ISO_CELL_BLOCK];
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    const int c = cell_case(in, first[i]);
    idx[nc] = (uint8_t)c;
    at[nc] = (uint8_t)i;
    nc += crossed(c);
  }
  for (size_t j = 0; j < nc; j++)
    for (int k = 0; k < 4; k++) __builtin_prefetch(&pts[first[at[j]].v[k]]);
  size_t k = 0;
  for (size_t j = 0; j < nc; j++) k += cell_keys(pts, first[at[j]], idx[j], iso, out + 3 * k);
  return k;
}

struct ClassifyCtx {
  const Point *pts;
  uint8_t *in;
  double iso;
};

void classify(size_t b, size_t e, void *ctx) {
  const ClassifyCtx *c = static_cast<const ClassifyCtx *>(ctx);
  for (size_t p = b; p < e; p++) c->in[p] = c->pts[p].s >= c->iso;
}

/* The adaptive modes hand adapt_transform_var blocks of ISO_CELL_BLOCK cells
 * (one element = one block) so that the indirect call per element is
 * amortised; the last block is shorter. An output element is one triangle,
 * three packed keys; outputs stay in cell order. */
struct CellCtx {
  const Point *pts;
  const Tet *tets;
  size_t ntets;
  double iso;
  const uint8_t *in;
};

size_t block_op(const void *in, void *out, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  const Tet *first = static_cast<const Tet *>(in);
  const size_t start = (size_t)(first - c->tets);
  const size_t n = c->ntets - start < ISO_CELL_BLOCK ? c->ntets - start : ISO_CELL_BLOCK;
  return cells_block(c->pts, c->in, first, n, c->iso, static_cast<uint64_t *>(out));
}

void free_keys(const uint64_t *keys) { free(const_cast<uint64_t *>(keys)); }

} // namespace

int extract(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err) {
  Timing tm;
  const Point *pts = m.pts.data();
  const size_t npts = m.pts.size();
  if ((uint64_t)npts >= kMaxPoints) {
    *err = "too many points for 32-bit vertex keys (" + std::to_string(npts) + ", at most " +
           std::to_string(kMaxPoints - 1) + ")";
    return -EOVERFLOW;
  }
  const double t0 = now();
  int rc = 0;
  Surface s;
  std::unique_ptr<uint8_t[]> inside(new (std::nothrow) uint8_t[npts + 1]);
  if (!inside) {
    *err = "out of memory";
    return -ENOMEM;
  }
  ClassifyCtx cc{pts, inside.get(), iso};
  if (mode == Mode::Seq) {
    classify(0, npts, &cc);
    try {
      /* Room for a triangle per 4 cells (virtual: only the pages used
       * become resident), so that the vector rarely moves. */
      const size_t room = 3 * (m.tets.size() / 4 + 16);
      s.tri.reserve(room);
      advise_huge(s.tri.data(), room * sizeof(int64_t));
      uint64_t buf[6 * ISO_CELL_BLOCK];
      for (size_t b = 0; b < m.tets.size(); b += ISO_CELL_BLOCK) {
        const size_t n = std::min<size_t>(ISO_CELL_BLOCK, m.tets.size() - b);
        const size_t k = cells_block(pts, inside.get(), &m.tets[b], n, iso, buf);
        s.tri.insert(s.tri.end(), reinterpret_cast<const int64_t *>(buf),
                     reinterpret_cast<const int64_t *>(buf) + 3 * k);
      }
    } catch (const std::bad_alloc &) {
      *err = "out of memory";
      return -ENOMEM;
    }
    inside.reset();
    const double t1 = now();
    const size_t n = s.ntris();
    const uint64_t *keys = reinterpret_cast<const uint64_t *>(s.tri.data());
    rc = merge_keys(pts, npts, iso, keys, n, merge_chunks(keys, n, 1), false, nullptr, &s);
    tm.cells = t1 - t0;
    tm.merge = now() - t1;
  } else {
    adapt_attr attr;
    std::memset(&attr, 0, sizeof attr);
    rc = adapt_for(0, npts, classify, &cc, &attr);
    if (rc) {
      *err = std::string("adapt_for: ") + adapt_strerror(rc);
      return rc;
    }
    attr = cell_phase_attr(m, mode, opt);
    CellCtx ctx{pts, m.tets.data(), m.tets.size(), iso, inside.get()};
    adapt_vec vec;
    std::memset(&vec, 0, sizeof vec);
    vec.elem_size = 3 * sizeof(uint64_t);
    const size_t nblocks = (m.tets.size() + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
    rc = adapt_transform_var(m.tets.data(), nblocks, ISO_CELL_BLOCK * sizeof(Tet), &vec,
                             2 * ISO_CELL_BLOCK, block_op, &ctx, &attr);
    inside.reset();
    if (rc) {
      free(vec.data);
      *err = std::string("adapt_transform_var: ") + adapt_strerror(rc);
      return rc;
    }
    const double t1 = now();
    const size_t n = vec.count;
    const uint64_t *keys = static_cast<const uint64_t *>(vec.data);
    try {
      resize_huge(s.tri, 3 * n);
    } catch (const std::bad_alloc &) {
      free(vec.data);
      *err = "out of memory";
      return -ENOMEM;
    }
    rc = merge_keys(pts, npts, iso, keys, n, merge_chunks(keys, n, (size_t)adapt_num_workers()),
                    true, free_keys, &s);
    tm.cells = t1 - t0;
    tm.merge = now() - t1;
  }
  if (rc) {
    *err = rc == -ENOMEM ? std::string("out of memory merging vertices")
                         : std::string("merging vertices: ") + adapt_strerror(rc);
    return rc;
  }
  *out = std::move(s);
  if (timing) *timing = tm;
  return 0;
}

} // namespace iso
