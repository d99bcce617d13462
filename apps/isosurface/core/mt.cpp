/* apps/isosurface/core: marching tetrahedra (see mt.h): one cell, the
 * sequential merge of merge(). The extraction is split
 * by what it holds: the case table (mt_cases.h), the geometry of a cell
 * (mt_geometry.h), the cell phase (cell_phase.h), the chunked merge
 * (vertex_merge.h), extract() itself (extract.cpp). */
#include "mt.h"

#include "mt_cases.h"
#include "mt_geometry.h"

#include <cerrno>
#include <cmath>
#include <new>
#include <utility>

namespace iso {

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

} // namespace iso
