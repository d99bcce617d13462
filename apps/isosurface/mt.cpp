/* apps/isosurface: marching tetrahedra (see mt.h). */
#include "mt.h"

#include "arena.h"

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
#include <adapt/seq.h>

namespace iso {

namespace {

inline void cross(const double a[3], const double b[3], double r[3]) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

inline double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Triangles of each of the 16 inside/outside cases, as pairs of local
 * vertices (the crossed edges). Built once from the rule: 1 or 3 inside: one
 * triangle around the lone vertex; 2 inside {a,b}, outside {c,d}: the quad
 * (a,c) (b,c) (b,d) (a,d) split along (a,c)-(b,d).
 *
 * Orientation: a triangle's normal points along the gradient of the cell's
 * linear field (towards the inside points). For corners x_k on the crossed
 * edges at parameters in (0, 1), the sign of dot(normal, gradient) is that
 * of orient3d(x_0, x_1, x_2, an inside vertex), which is the tetrahedron's
 * determinant times the determinant of the corners' barycentric
 * coordinates. The latter never vanishes while the parameters stay in
 * (0, 1) (the triangle is a non-degenerate piece of the section, the
 * inside vertex strictly on one side), so its sign depends on the case and
 * the triangle only: swap_pos, computed once on the unit tetrahedron with
 * the crossings at the edges' midpoints. A cell then needs the sign of its
 * determinant, not its gradient and each triangle's normal: 20% less time
 * in the cell phase on the meshes with large surfaces (docs/
 * benchmarks-isosurface.md, "Orientation from the case table"). The
 * gradient test it replaces agreed on every triangle of the eight
 * benchmark meshes; they differ only on degenerate triangles (zero area,
 * or a flat cell), where the gradient test's sign was rounding noise and
 * this one is fixed (no swap on a flat cell). */
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
      /* swap_pos on the unit tetrahedron (determinant 1), scalars 1 inside
       * and 0 outside, the crossings at the midpoints: the gradient is
       * (s1 - s0, s2 - s0, s3 - s0), every value exact. */
      static const double V[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      double sv[4];
      for (int v = 0; v < 4; v++) sv[v] = (idx >> v) & 1 ? 1.0 : 0.0;
      const double grad[3] = {sv[1] - sv[0], sv[2] - sv[0], sv[3] - sv[0]};
      for (int t = 0; t < 2; t++) {
        swap_pos[idx][t] = false;
        if (t >= ntri[idx]) continue;
        double x[3][3];
        for (int k = 0; k < 3; k++)
          for (int a = 0; a < 3; a++)
            x[k][a] = 0.5 * (V[edge[idx][t][k][0]][a] + V[edge[idx][t][k][1]][a]);
        double u[3], w[3], nrm[3];
        for (int a = 0; a < 3; a++) {
          u[a] = x[1][a] - x[0][a];
          w[a] = x[2][a] - x[0][a];
        }
        cross(u, w, nrm);
        swap_pos[idx][t] = dot(nrm, grad) < 0;
      }
    }
  }
  int nedge[16];
  int cedge[16][4][2];
  int tedge[16][2][3];
  /* In a cell of positive determinant, triangle t of case idx is written
   * with its last two corners swapped (see above). */
  bool swap_pos[16][2];
};
const CaseTable cases;

/* Whether triangle tr of case idx is written with its last two corners
 * swapped, in a cell of determinant det (none when det is 0 or NaN). */
inline bool swap_corners(int idx, int tr, double det) {
  return det > 0 ? cases.swap_pos[idx][tr] : det < 0 && !cases.swap_pos[idx][tr];
}

/* Where the isosurface crosses the edge (p, q), computed exactly as
 * vtkTetra::Contour does: from the end with the smaller scalar (lo), at
 * parameter t towards hi. The vertex is the point hi when t == 1, lo when
 * t == 0 (a point key, shared by every edge ending there), else on the
 * edge. */
struct Crossing {
  uint64_t lo, hi;
  double t;
};

inline Crossing crossing(const double *sc, uint64_t p, uint64_t q, double iso) {
  const double ps = sc[p], qs = sc[q];
  const bool p_lo = qs - ps > 0;
  const double lo_s = p_lo ? ps : qs, hi_s = p_lo ? qs : ps;
  return {p_lo ? p : q, p_lo ? q : p, (iso - lo_s) / (hi_s - lo_s)};
}

/* The vertex key of crossing c of the edge (p, q), packed as pack() does:
 * (a << 32) | b, a <= b (point ids below kMaxMeshPoints). */
inline uint64_t crossing_key(const Crossing &c, uint64_t p, uint64_t q) {
  if (c.t == 1.0) return c.hi << 32 | c.hi;
  if (c.t == 0.0) return c.lo << 32 | c.lo;
  return p < q ? p << 32 | q : q << 32 | p;
}

/* Vertex on the edge (p, q) of a crossed edge: key and position. */
inline void edge_vertex(const Point *pts, const double *sc, int64_t p, int64_t q, double iso,
                        EdgeKey *key, double x[3]) {
  const Crossing c = crossing(sc, (uint64_t)p, (uint64_t)q, iso);
  const uint64_t k = crossing_key(c, (uint64_t)p, (uint64_t)q);
  key->a = (int64_t)(k >> 32);
  key->b = (int64_t)(k & 0xFFFFFFFFu);
  const Point &lo = pts[c.lo], &hi = pts[c.hi];
  if (c.t == 1.0) {
    x[0] = hi.x, x[1] = hi.y, x[2] = hi.z;
  } else if (c.t == 0.0) {
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z;
  } else {
    x[0] = lo.x + c.t * (hi.x - lo.x);
    x[1] = lo.y + c.t * (hi.y - lo.y);
    x[2] = lo.z + c.t * (hi.z - lo.z);
  }
}

/* A vertex key packed in 64 bits: (a << 32) | b, a <= b < 2^32 (the edge
 * (a, b), or the point a when a == b). extract() refuses meshes of
 * kMaxMeshPoints (2^32 - 1) points or more. */
inline uint64_t pack(const EdgeKey &k) { return (uint64_t)k.a << 32 | (uint64_t)k.b; }

/* Position of the vertex of a packed key: the point, or the crossing of
 * the edge (merge() and km_global alike). */
inline void key_position(const Point *pts, const double *sc, double iso, uint64_t key,
                         double x[3]) {
  const int64_t a = (int64_t)(key >> 32), b = (int64_t)(key & 0xFFFFFFFFu);
  if (a == b) {
    x[0] = pts[a].x, x[1] = pts[a].y, x[2] = pts[a].z;
  } else {
    EdgeKey again;
    edge_vertex(pts, sc, a, b, iso, &again, x);
  }
}

inline bool same(const EdgeKey &u, const EdgeKey &v) { return u.a == v.a && u.b == v.b; }

/* Determinant of the cell (p1 - p0, p2 - p0, p3 - p0). */
inline double cell_det(const Point &p0, const Point &p1, const Point &p2, const Point &p3) {
  const double e[3][3] = {{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z},
                          {p2.x - p0.x, p2.y - p0.y, p2.z - p0.z},
                          {p3.x - p0.x, p3.y - p0.y, p3.z - p0.z}};
  double c[3];
  cross(e[1], e[2], c);
  return dot(e[0], c);
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

size_t mt_cell(const Point *pts, const double *sc, const Tet &t, double iso, TriRec out[2]) {
  const int idx = (sc[t.v[0]] >= iso) | (sc[t.v[1]] >= iso) << 1 | (sc[t.v[2]] >= iso) << 2 |
                  (sc[t.v[3]] >= iso) << 3;
  const int nt = cases.ntri[idx];
  if (nt == 0) return 0;
  const Point &p0 = pts[t.v[0]], &p1 = pts[t.v[1]], &p2 = pts[t.v[2]], &p3 = pts[t.v[3]];
  /* The sign of the cell's determinant orients its triangles (CaseTable). */
  const double det = cell_det(p0, p1, p2, p3);
  size_t n = 0;
  for (int tr = 0; tr < nt; tr++) {
    TriRec &r = out[n];
    double x[3];
    for (int k = 0; k < 3; k++) {
      const int *ed = cases.edge[idx][tr][k];
      edge_vertex(pts, sc, t.v[ed[0]], t.v[ed[1]], iso, &r.e[k], x);
    }
    if (same(r.e[0], r.e[1]) || same(r.e[0], r.e[2]) || same(r.e[1], r.e[2])) continue;
    if (swap_corners(idx, tr, det)) std::swap(r.e[1], r.e[2]);
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

int merge(const Point *pts, const double *sc, double iso, const TriRec *rec, size_t n,
          Surface *out) {
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
          key_position(pts, sc, iso, pack(key), x);
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
 *     owner[a] to its position for each key's smaller point a (owner[a]:
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

constexpr size_t kLine = 64;
inline size_t line_round(size_t n) { return (n + kLine - 1) / kLine * kLine; }

/* Phase (1) on one chunk (see above); owner may be NULL (one chunk). The
 * local ids are written packed at the start of the keys' buffer, 16-bit
 * when the chunk has at most 65535 keys (the i-th over bytes [2i, 2i + 2)),
 * else 32-bit ([4i, 4i + 4)), within keys already read. The table and the
 * key list are built in the worker's scratch buffers (in cache, reused
 * chunk after chunk). Then the list goes after the ids, in the keys'
 * buffer (resized to fit when it is the last allocation of the worker's
 * slab), or into an allocation of its own when it does not fit or the
 * buffer is not the chunk's (the gathered chunk); the table into an
 * allocation of `tables`, freed after the rank phase. Sets ch.oom when out
 * of memory. */
void chunk_local(Arena &arena, Arena &tables, KeyChunk &ch, std::atomic<uint32_t> *owner) {
  ch.closed = true;
  ch.arena = &arena;
  const size_t n = 3 * ch.ntri;
  /* About one vertex per two triangles on smooth surfaces. */
  size_t cap = 64;
  while (cap < ch.ntri) cap <<= 1;
  /* Scratch 0: the key list; 1 and 2: the table, alternately as it grows. */
  int cur = 1;
  uint64_t *uk = static_cast<uint64_t *>(arena.scratch(0, n * sizeof(uint64_t)));
  uint32_t *tab = static_cast<uint32_t *>(arena.scratch(cur, cap * sizeof(uint32_t)));
  if (!uk || !tab) {
    ch.oom = true;
    return;
  }
  LocalMap map;
  map.init(tab, cap, uk, true);
  /* Locals: the stores to keys may alias the fields (uint64_t vs size_t)
   * and the map, which would make the compiler reload them every
   * iteration. */
  const uint64_t *keys = ch.keys;
  char *lid = reinterpret_cast<char *>(ch.keys);
  const uint32_t pos = ch.pos;
  /* Ids below n: 16 bits suffice for chunks of up to 21,845 triangles. */
  const bool narrow = n <= 0xFFFF;
  uint32_t *slots = map.slots;
  size_t mask = map.mask;
  int shift = map.shift;
  uint32_t nk = 0, bmax = 0;
  for (size_t i = 0; i < n; i++) {
    const uint64_t key = keys[i];
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
        /* Load above 1/2: twice the slots, in the other scratch table. */
        cur = 3 - cur;
        uint32_t *more =
            static_cast<uint32_t *>(arena.scratch(cur, 2 * (mask + 1) * sizeof(uint32_t)));
        if (!more) {
          ch.oom = true;
          return;
        }
        map.init(more, 2 * (mask + 1), uk, true);
        for (uint32_t j = 0; j < nk; j++) map.place(j);
        slots = map.slots;
        mask = map.mask;
        shift = map.shift;
      }
      if (owner) {
        /* Lower owner[a] to pos. Relaxed: the values are read in the rank
         * phase, after the parallel call running this one has returned
         * (its join pairs with these stores). */
        std::atomic<uint32_t> &o = owner[key >> 32];
        uint32_t c = o.load(std::memory_order_relaxed);
        while (c > pos && !o.compare_exchange_weak(c, pos, std::memory_order_relaxed,
                                                   std::memory_order_relaxed)) {}
      }
    }
    if (narrow) {
      const uint16_t id16 = (uint16_t)id;
      std::memcpy(lid + 2 * i, &id16, sizeof id16);
    } else {
      std::memcpy(lid + 4 * i, &id, sizeof id);
    }
  }
  /* The ids and the key list, on whole lines, in the keys' buffer when
   * they fit (resized to them when it can be); the slots in `tables` (all
   * freed once the rank phase is over: the global step does not need
   * them). */
  const size_t ids_b = line_round(n * (narrow ? sizeof(uint16_t) : sizeof(uint32_t))),
               uk_b = line_round(nk * sizeof(uint64_t)), tab_b = map.size() * sizeof(uint32_t);
  uint32_t *tab_mem = static_cast<uint32_t *>(tables.alloc(tab_b));
  if (!tab_mem) {
    ch.oom = true;
    return;
  }
  ch.tables = &tables;
  ch.tab_bytes = tab_b;
  std::memcpy(tab_mem, map.slots, tab_b);
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
      tables.free(tab_mem, tab_b);
      ch.tab_bytes = 0;
      ch.oom = true;
      return;
    }
    ch.aux = dst;
    ch.aux_bytes = uk_b;
  }
  std::memcpy(dst, uk, nk * sizeof(uint64_t));
  ch.ukeys = reinterpret_cast<uint64_t *>(dst);
  ch.nukeys = nk;
  ch.bmax = bmax;
  ch.map.init(tab_mem, map.size(), ch.ukeys, false);
  /* A chunk much larger than the default (the gathered chunk of a cell
   * order that is not local) leaves no large scratch behind. */
  if (n * sizeof(uint64_t) > Arena::max_slab_alloc()) arena.trim_scratch(Arena::max_slab_alloc());
}

struct KeyMerge {
  const Point *pts = nullptr;
  const double *sc = nullptr; /* the points' scalars */
  double iso = 0;
  std::vector<KeyChunk *> chunks; /* in sequence order */
  std::vector<uint32_t> pos;      /* chunks[c]->pos */
  /* The largest bmax of the chunks before c (UINT32_MAX from an open one
   * on: no key skips the search): a key (a, b) with b above it is new. */
  std::vector<uint32_t> bmax_before;
  Arena *arena = nullptr;
  Arena *tables = nullptr; /* the chunks' maps */
  std::atomic<uint32_t> *owner = nullptr;
  ArenaArray<std::atomic<uint32_t>> owner_mem; /* owner's memory, freed after (2) */
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
};

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
      chunk_local(*km->arena, *km->tables, ch, nullptr);
      if (ch.oom) continue;
    }
    uint64_t r = 0, bits = 0, before = 0;
    ch.foreign.clear();
    for (size_t l = 0; l < ch.nukeys; l++) {
      const uint64_t key = ch.ukeys[l];
      bool found = false;
      uint64_t at = 0;
      /* Relaxed: written by the local phases before the parallel call
       * running them returned (its join orders them before this loop). */
      const uint32_t o = km->owner ? km->owner[key >> 32].load(std::memory_order_relaxed) : ch.pos;
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

void km_global(size_t b, size_t e, void *ctx) {
  KeyMerge *km = static_cast<KeyMerge *>(ctx);
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
        __builtin_prefetch(&km->pts[ahead >> 32]);
        __builtin_prefetch(&km->pts[ahead & 0xFFFFFFFFu]);
        __builtin_prefetch(&km->sc[ahead >> 32]);
        __builtin_prefetch(&km->sc[ahead & 0xFFFFFFFFu]);
      }
      if (is_new(rank, l)) {
        g = (int64_t)(km->offset[c] + r++);
        key_position(km->pts, km->sc, km->iso, ch.ukeys[l], km->xyz + 3 * g);
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

/* Phase (1) of the chunks sealed without it (all but the last, whose (1)
 * km_rank runs), then phases (2) and (3) on km's chunks, their tri_off set
 * (consecutive), their pos increasing; km.owner set if there are several.
 * s->tri is sized to the chunks' triangles (left as it is when it already
 * has that size: the chunks may be its own memory) and s->xyz to the
 * vertices. reuse (may be NULL): a surface whose buffers s takes, once
 * every step that can fail with -ENOMEM is over, when they are reusable()
 * (xyz always, tri when s->tri is empty): their pages are already faulted
 * in, which saves the kernel's zeroing of fresh ones (the global step's
 * largest cost on this VM, docs/benchmarks-isosurface.md). 0, -ENOMEM, the
 * runtime's errors. */
int merge_finish(KeyMerge &km, bool parallel, Surface *s, Surface *reuse) {
  bool sealed_only = false;
  for (size_t c = 0; c + 1 < km.chunks.size(); c++) sealed_only |= !km.chunks[c]->closed;
  if (sealed_only) {
    const int rc = km_phase(km, parallel, false, km_local_sealed);
    if (rc) return rc;
  }
  size_t ntri = 0, nwords = 0;
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
      ntri += ch.ntri;
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
  int rc = km_phase(km, parallel, false, km_rank);
  if (rc) return rc;
  /* km_rank's allocations (the last chunk's table and list) are done; the
   * tables are read no more, and no chunk is numbered any more (the
   * scratch buffers' use). */
  km.arena->retire_all();
  km.arena->release_scratch_all();
  for (KeyChunk *ch : km.chunks) ch->drop_table();
  km.tables->retire_all();
  for (const KeyChunk *ch : km.chunks)
    if (ch->oom) return -ENOMEM;
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
  km.owner = nullptr;
  km.owner_mem.reset();
  if (reuse && reuse != s) {
    if (reusable(reuse->xyz.capacity(), 3 * total)) s->xyz.swap(reuse->xyz);
    if (s->tri.empty() && reusable(reuse->tri.capacity(), 3 * ntri)) s->tri.swap(reuse->tri);
  }
  try {
    /* Uninitialised (OutAlloc): the global phase writes every element. */
    s->xyz.resize(3 * total);
    if (s->tri.size() != 3 * ntri) s->tri.resize(3 * ntri);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  km.xyz = s->xyz.data();
  km.tri = s->tri.data();
  const int rc3 = km_phase(km, parallel, true, km_global);
  /* Not expected (the runtime ran the previous steps): reuse's buffers may
   * be partly written, so it is emptied rather than left half old. */
  if (rc3 && reuse && reuse != s) {
    /* Its buffers only: its kept memory is in use by this call's arenas. */
    Surface empty;
    reuse->xyz.swap(empty.xyz);
    reuse->tri.swap(empty.tri);
  }
  return rc3;
}

/* Do the cells hold mostly separate point id ranges (a local cell order)?
 * Estimated on a sample of the cells: cut into ISO_LOCAL_SAMPLE_PARTS
 * parts, the summed ranges of the parts' smallest point ids must not
 * exceed ISO_PAR_MERGE_OVERLAP * parts times the whole range (1 for
 * disjoint ranges, parts when every part spans everything). Otherwise
 * (random orders) most vertices of a merge chunk would be looked up in
 * most earlier chunks, and one chunk (the sequential merge) is faster. */
bool cells_local(const Mesh &m) {
  const size_t n = m.tets.size(), parts = ISO_LOCAL_SAMPLE_PARTS;
  if (n < 2 * parts) return false;
  const size_t step = std::max<size_t>(1, n / (parts * ISO_LOCAL_SAMPLE_CELLS));
  int64_t lo = INT64_MAX, hi = -1;
  double summed = 0;
  for (size_t c = 0; c < parts; c++) {
    int64_t clo = INT64_MAX, chi = -1;
    for (size_t f = n * c / parts; f < n * (c + 1) / parts; f += step) {
      const Tet &t = m.tets[f];
      const int64_t a = std::min(std::min(t.v[0], t.v[1]), std::min(t.v[2], t.v[3]));
      clo = std::min(clo, a);
      chi = std::max(chi, a);
    }
    summed += (double)(chi - clo + 1);
    lo = std::min(lo, clo);
    hi = std::max(hi, chi);
  }
  return summed <= ISO_PAR_MERGE_OVERLAP * (double)parts * (double)(hi - lo + 1);
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
  attr.footprint = ISO_CELL_BLOCK * cell_bytes(m);
  return attr;
}

size_t default_window(const Mesh &m, uint64_t cache_bytes) {
  return (size_t)std::max<uint64_t>(1, cache_bytes / (cell_bytes(m) * ISO_WINDOW_CACHE_DIVISOR));
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
      km.owner = km.owner_mem.get();
      for (int64_t p = 0; p < npts; p++)
        km.owner[p].store(UINT32_MAX, std::memory_order_relaxed); /* before the loops */
    }
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  km.pts = pts;
  km.sc = sc;
  km.iso = iso;
  int rc = km_phase(km, true, false, km_local);
  if (!rc) rc = merge_finish(km, true, &s, nullptr);
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

/* Packed key of the vertex on the crossed edge (p, q), without its
 * position: km_global computes the positions of the merged vertices only. */
inline uint64_t edge_key(const double *sc, uint32_t p, uint32_t q, double iso) {
  return crossing_key(crossing(sc, p, q, iso), p, q);
}

/* Triangles of a cell of case idx (1 to 14: crossed) as packed keys, three
 * per triangle, into out; returns how many. mt_cell's, but each crossed
 * edge's key is computed once. */
inline size_t cell_keys(const Point *pts, const double *sc, const Tet &t, int idx, double iso,
                        uint64_t out[6]) {
  const double det = cell_det(pts[t.v[0]], pts[t.v[1]], pts[t.v[2]], pts[t.v[3]]);
  uint64_t key[4];
  for (int k = 0; k < cases.nedge[idx]; k++)
    key[k] = edge_key(sc, t.v[cases.cedge[idx][k][0]], t.v[cases.cedge[idx][k][1]], iso);
  size_t n = 0;
  for (int tr = 0; tr < cases.ntri[idx]; tr++) {
    const int *te = cases.tedge[idx][tr];
    int i0 = te[0], i1 = te[1], i2 = te[2];
    if (key[i0] == key[i1] || key[i0] == key[i2] || key[i1] == key[i2]) continue;
    if (swap_corners(idx, tr, det)) std::swap(i1, i2);
    out[3 * n] = key[i0];
    out[3 * n + 1] = key[i1];
    out[3 * n + 2] = key[i2];
    n++;
  }
  return n;
}

/* Case of a cell from the points' inside bytes (1 if s >= iso): four byte
 * loads from an array of one byte per point (in L2 on meshes of up to about
 * a million points) instead of four 8-byte scalars, and no branch. */
inline int cell_case(const uint8_t *in, const Tet &t) {
  return in[t.v[0]] | in[t.v[1]] << 1 | in[t.v[2]] << 2 | in[t.v[3]] << 3;
}

inline bool crossed(int idx) { return (unsigned)(idx - 1) < 14u; }

/* Triangles of the cells first[0 .. n), n <= ISO_CELL_BLOCK, as packed keys
 * into out (at most 2n triangles); returns how many. Two passes: the cases
 * (a branch-free list of the crossed cells, whose points are prefetched:
 * empty cells never read their points, so a crossed cell's are cold), then
 * the triangles of the listed cells. */
inline size_t cells_block(const Point *pts, const double *sc, const uint8_t *in, const Tet *first,
                          size_t n, double iso, uint64_t *out) {
  uint8_t idx[ISO_CELL_BLOCK], at[ISO_CELL_BLOCK];
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    const int c = cell_case(in, first[i]);
    idx[nc] = (uint8_t)c;
    at[nc] = (uint8_t)i;
    nc += crossed(c);
  }
  for (size_t j = 0; j < nc; j++)
    for (int k = 0; k < 4; k++) {
      __builtin_prefetch(&pts[first[at[j]].v[k]]);
      __builtin_prefetch(&sc[first[at[j]].v[k]]);
    }
  size_t k = 0;
  for (size_t j = 0; j < nc; j++) k += cell_keys(pts, sc, first[at[j]], idx[j], iso, out + 3 * k);
  return k;
}

/* The points' inside bytes, and owner[] initialised (when not NULL). */
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "owner[] is filled with memset");
struct ClassifyCtx {
  const double *sc;
  uint8_t *in;
  std::atomic<uint32_t> *owner;
  double iso;
};

void classify(size_t b, size_t e, void *ctx) {
  const ClassifyCtx *c = static_cast<const ClassifyCtx *>(ctx);
  /* Locals: in[] is bytes, which may alias *c, so that the compiler would
   * load c's fields again at every point. */
  const double *const sc = c->sc;
  uint8_t *const in = c->in;
  const double iso = c->iso;
  for (size_t p = b; p < e; p++) in[p] = sc[p] >= iso;
  /* owner[] to UINT32_MAX in one memset (glibc's wide stores), not an
   * atomic store per point, which the compiler does not vectorise. Nothing
   * else touches these entries until the cell phase, after this loop's
   * region (or plain loop) has returned, whose join orders the writes
   * before its atomic accesses. std::atomic<uint32_t> is a lock-free
   * 4-byte object (static_assert at ClassifyCtx). */
  if (c->owner) std::memset(static_cast<void *>(c->owner + b), 0xFF, (e - b) * sizeof(uint32_t));
}

/* The cell phase runs adapt_seq_run over blocks of ISO_CELL_BLOCK cells
 * (one unit = one block, so that the indirect call is amortised; the last
 * block is shorter), or the same kernel in a plain loop (Mode::Seq). A
 * piece's state is a list of chunks in cell order: the blocks' triangles
 * are appended to the last one as packed keys, straight into its buffer
 * (no copy, first touched by the worker that computes them); a chunk of
 * chunk_tris triangles or more is sealed and, on local orders, goes
 * through the merge's local phase at once. A thief's list is linked after
 * its victim's (or, when the thief made one unsealed chunk that fits, its
 * keys appended to the victim's last chunk, so that steals do not leave
 * many small chunks). */
struct CellCtx {
  const Point *pts;
  const double *sc;
  const Tet *tets;
  size_t ntets;
  double iso;
  const uint8_t *in;
  std::atomic<uint32_t> *owner; /* NULL: not local, one chunk in the end */
  Arena *arena;
  Arena *tables;
  size_t chunk_tris; /* a chunk is sealed at this many triangles */
  bool local;
};

struct PieceState {
  KeyChunk *head, *tail;
  int err; /* -ENOMEM: a chunk could not be allocated */
};
static_assert(sizeof(PieceState) <= ADAPT_SEQ_STATE_MAX, "a piece's state fits");

/* Room of a chunk beyond chunk_tris: one block's triangles at most. */
constexpr size_t kBlockTris = 2 * ISO_CELL_BLOCK;
/* A chunk's buffer grows in place by this many triangles at a time. */
constexpr size_t kGrowTris = 256;
/* A thief's single unsealed chunk is appended to its victim's last one
 * (instead of linked after it) when it holds at most chunk_tris / this. */
constexpr size_t kAppendDivisor = 16;
/* Most triangles of a chunk: its local ids are 32-bit (3 keys each). */
constexpr size_t kMaxChunkTris = ((size_t)UINT32_MAX - 1) / 3;

void free_list(KeyChunk *ch) {
  while (ch) {
    KeyChunk *next = ch->next;
    delete ch;
    ch = next;
  }
}

/* A new chunk with room for cap triangles (from the calling worker's
 * slab), or NULL. */
KeyChunk *new_chunk(Arena &arena, size_t cap, uint32_t pos) {
  KeyChunk *ch = new (std::nothrow) KeyChunk;
  if (!ch) return nullptr;
  const size_t bytes = 3 * cap * sizeof(uint64_t);
  void *p = arena.alloc(bytes);
  if (!p) {
    delete ch;
    return nullptr;
  }
  ch->arena = &arena;
  ch->keys = static_cast<uint64_t *>(p);
  ch->bytes = bytes;
  ch->owned = true;
  ch->cap = cap;
  ch->pos = pos;
  return ch;
}

/* Make room for need triangles in the unsealed chunk t, in place (its
 * buffer is the last allocation of the calling worker's slab), by steps of
 * kGrowTris up to chunk_tris + kBlockTris; false when it cannot. */
bool grow(const CellCtx *c, KeyChunk *t, size_t need) {
  if (need <= t->cap) return true;
  const size_t most = c->chunk_tris + kBlockTris;
  if (need > most) return false;
  const size_t cap = std::min(std::max(need, t->ntri + kGrowTris), most);
  if (!c->arena->resize(t->keys, t->bytes, 3 * cap * sizeof(uint64_t))) return false;
  t->cap = cap;
  t->bytes = 3 * cap * sizeof(uint64_t);
  return true;
}

/* Seal ch; on local orders run the merge's local phase on it. */
void seal(KeyChunk *ch, const CellCtx *c) {
  ch->sealed = true;
  if (c->local && !ch->closed) chunk_local(*c->arena, *c->tables, *ch, c->owner);
}

void cells_run(adapt_seq *s, void *state, size_t b, size_t e, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  PieceState *st = static_cast<PieceState *>(state);
  uint64_t buf[6 * ISO_CELL_BLOCK];
  for (size_t blk = b; blk < e; blk++) {
    const size_t first = blk * ISO_CELL_BLOCK;
    const size_t n = std::min<size_t>(ISO_CELL_BLOCK, c->ntets - first);
    KeyChunk *t = st->tail;
    /* A chunk that cannot take a block in place (full, or its buffer no
     * longer the last of this worker's slab: another worker's, or this one
     * has started a chunk since) is sealed; the next triangles start a new
     * one. */
    if (t && !t->sealed && !grow(c, t, t->ntri + kBlockTris)) seal(t, c);
    if (t && !t->sealed) {
      t->ntri +=
          cells_block(c->pts, c->sc, c->in, c->tets + first, n, c->iso, t->keys + 3 * t->ntri);
    } else {
      const size_t k = cells_block(c->pts, c->sc, c->in, c->tets + first, n, c->iso, buf);
      if (k == 0) continue;
      KeyChunk *nc =
          new_chunk(*c->arena, std::min(k + kGrowTris, c->chunk_tris + kBlockTris), (uint32_t)blk);
      if (!nc) {
        st->err = -ENOMEM;
        if (s) adapt_seq_stop(s, 0, -ENOMEM);
        return;
      }
      std::memcpy(nc->keys, buf, 3 * k * sizeof(uint64_t));
      nc->ntri = k;
      if (t)
        t->next = nc;
      else
        st->head = nc;
      st->tail = t = nc;
    }
    if (t->ntri >= c->chunk_tris) seal(t, c);
  }
}

void cells_merge(adapt_seq *, void *state, void *thief_state, size_t, size_t, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  PieceState *v = static_cast<PieceState *>(state), *t = static_cast<PieceState *>(thief_state);
  KeyChunk *th = t->head, *tt = t->tail;
  t->head = t->tail = nullptr;
  if (t->err) v->err = t->err;
  if (!th) return;
  KeyChunk *vt = v->tail;
  if (!vt) {
    v->head = th;
    v->tail = tt;
    return;
  }
  if (!vt->sealed && !th->sealed && th->ntri <= c->chunk_tris / kAppendDivisor &&
      grow(c, vt, vt->ntri + th->ntri)) {
    /* An unsealed chunk is the last of its list: th is the thief's only.
     * Only a small one is copied: its buffer stays dead in its slab until
     * the slab is unmapped. */
    std::memcpy(vt->keys + 3 * vt->ntri, th->keys, 3 * th->ntri * sizeof(uint64_t));
    vt->ntri += th->ntri;
    delete th;
    if (vt->ntri >= c->chunk_tris) vt->sealed = true; /* step (1): see below */
    return;
  }
  /* Sealed without its step (1), which merge_finish runs in parallel with
   * the other chunks sealed so (km_local_sealed): the thief waits for this
   * merge to end, and the step takes 0.2-0.5 ms. */
  vt->sealed = true;
  vt->next = th;
  v->tail = tt;
}

void cells_discard(adapt_seq *, void *thief_state, void *) {
  PieceState *t = static_cast<PieceState *>(thief_state);
  free_list(t->head);
  t->head = t->tail = nullptr;
}

/* Gives to cache (may be NULL) from construction to destruction: declared
 * before the arenas that give to it, so that it ends after their
 * destructors have given back their slabs and scratch buffers. */
struct Giving {
  MapCache *cache;
  explicit Giving(MapCache *c) : cache(c) {
    if (cache) cache->begin_giving();
  }
  ~Giving() {
    if (cache) cache->end_giving();
  }
  Giving(const Giving &) = delete;
  Giving &operator=(const Giving &) = delete;
};

/* Frees the chunk lists however extract() returns. */
struct ExtractState {
  PieceState st{nullptr, nullptr, 0};
  std::vector<std::unique_ptr<KeyChunk>> own;
  ~ExtractState() { free_list(st.head); }
};

} // namespace

int extract(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err) {
  Timing tm;
  const Point *pts = m.pts.data();
  const double *sc = m.scalars.data();
  const size_t npts = m.pts.size();
  if (m.scalars.size() != npts) {
    *err = "the mesh has " + std::to_string(m.scalars.size()) + " scalars for " +
           std::to_string(npts) + " points";
    return -EINVAL;
  }
  if ((uint64_t)npts >= kMaxMeshPoints) {
    *err = "too many points for 32-bit vertex keys (" + std::to_string(npts) + ", at most " +
           std::to_string(kMaxMeshPoints - 1) + ")";
    return -EOVERFLOW;
  }
  const size_t nblocks = (m.tets.size() + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
  if ((uint64_t)nblocks >= UINT32_MAX) {
    *err = "too many cells for 32-bit chunk positions (" + std::to_string(m.tets.size()) + ")";
    return -EOVERFLOW;
  }
  const double t0 = now();
  const bool parallel = mode != Mode::Seq;
  const bool local = cells_local(m);
  /* A previous surface passed back: this call's transient memory is kept
   * in it for the next one (see mt.h), and the memory the previous call
   * kept is taken first. */
  MapCache *const cache = out->xyz.capacity() || out->tri.capacity() ? out->kept.get() : nullptr;
  const Giving giving(cache);
  /* Declared first: it outlives every chunk, table and list of this call. */
  Arena arena(cache), tables(cache); /* the chunks' maps apart: freed after the rank step */
  ArenaArray<uint8_t> inside;
  /* Uninitialised here: classify stores every element, in parallel. */
  ArenaArray<std::atomic<uint32_t>> owner;
  /* Both freed before the output is written (the peak): whole huge pages. */
  if (!inside.allocate(&arena, npts + 1, true) || (local && !owner.allocate(&arena, npts, true))) {
    *err = "out of memory";
    return -ENOMEM;
  }
  ClassifyCtx cc{sc, inside.get(), owner.get(), iso};
  CellCtx ctx{pts,
              sc,
              m.tets.data(),
              m.tets.size(),
              iso,
              inside.get(),
              owner.get(),
              &arena,
              &tables,
              std::min(opt.chunk_tris ? opt.chunk_tris : (size_t)ISO_MERGE_CHUNK_TRIS,
                       kMaxChunkTris - kBlockTris),
              local};
  ExtractState xs;
  int rc = 0;
  if (!parallel) {
    classify(0, npts, &cc);
    cells_run(nullptr, &xs.st, 0, nblocks, &ctx);
  } else {
    adapt_attr attr;
    std::memset(&attr, 0, sizeof attr);
    /* Loop frames (as km_phase): the first chunk faults in the first huge
     * pages of inside and owner, and an adaptive victim would answer the
     * second worker only after it (0.3-0.4 ms late on a 1.3 ms loop). */
    attr.sched = ADAPT_SCHED_LOOPFRAME;
    rc = adapt_for(0, npts, classify, &cc, &attr);
    if (rc) {
      *err = std::string("adapt_for: ") + adapt_strerror(rc);
      return rc;
    }
    attr = cell_phase_attr(m, mode, opt);
    static const adapt_seq_kernel kernel = {cells_run, cells_merge, cells_discard,
                                            sizeof(PieceState), 0};
    rc = adapt_seq_run("extract", nblocks, ISO_CELL_BLOCK * sizeof(Tet), &kernel, &ctx, &xs.st,
                       &attr);
    if (rc) {
      *err = std::string("the cell phase: ") + adapt_strerror(rc);
      return rc;
    }
  }
  inside.reset();
  /* The chunks are all allocated (but the last one's table and list, in
   * km_rank): their slabs go back to the system as the global step ends
   * them, not at the end of the call. */
  arena.retire_all();
  Surface s;
  KeyMerge km;
  km.arena = &arena;
  km.tables = &tables;
  km.pts = pts;
  km.sc = sc;
  km.iso = iso;
  if (xs.st.err) rc = xs.st.err;
  try {
    /* The master's last chunk is left open: km_rank numbers it, in
     * parallel with the other chunks' ranks. */
    if (!rc && xs.st.tail) xs.st.tail->sealed = true;
    size_t ntri = 0;
    for (KeyChunk *ch = xs.st.head; ch; ch = ch->next) {
      if (ch->oom) rc = -ENOMEM;
      ch->tri_off = ntri;
      ntri += ch->ntri;
    }
    if (!rc && local) {
      for (KeyChunk *ch = xs.st.head; ch; ch = ch->next) km.chunks.push_back(ch);
      km.owner = owner.get();
      km.owner_mem = std::move(owner);
    } else if (!rc && ntri > kMaxChunkTris) {
      rc = -EOVERFLOW;
    } else if (!rc && xs.st.head) {
      /* Not local: one chunk, the keys gathered into tri (merged in place). */
      s.tri.resize(3 * ntri);
      for (KeyChunk *ch = xs.st.head; ch; ch = ch->next)
        std::memcpy(s.tri.data() + 3 * ch->tri_off, ch->keys, 3 * ch->ntri * sizeof(uint64_t));
      free_list(xs.st.head);
      xs.st.head = xs.st.tail = nullptr;
      xs.own.emplace_back(new KeyChunk);
      KeyChunk &one = *xs.own.back();
      one.keys = reinterpret_cast<uint64_t *>(s.tri.data());
      one.ntri = ntri;
      km.chunks.push_back(&one); /* numbered by km_rank */
    }
  } catch (const std::bad_alloc &) {
    rc = -ENOMEM;
  }
  const double t1 = now();
  if (!rc) rc = merge_finish(km, parallel, &s, out);
  tm.cells = t1 - t0;
  tm.merge = now() - t1;
  if (rc) {
    *err = rc == -ENOMEM      ? std::string("out of memory merging vertices")
           : rc == -EOVERFLOW ? std::string("too many triangles (2^32 / 3 or more) to merge on a "
                                            "cell order that is not local (--reorder renumbers it)")
                              : std::string("merging vertices: ") + adapt_strerror(rc);
    return rc;
  }
  KeptMemory kept = std::move(out->kept); /* the arenas still give to it */
  *out = std::move(s);
  out->kept = std::move(kept);
  if (timing) *timing = tm;
  return 0;
}

} // namespace iso
