/* apps/isosurface: marching tetrahedra (see mt.h). */
#include "mt.h"

#include "iso_config.h"
#include "names.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

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
    }
  }
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

/* Parallel merge with the sequential numbering. The triangles are cut into
 * C contiguous chunks. (1) Each chunk numbers its keys locally, in order of
 * first appearance, writing local ids into the triangles. (2) A key of chunk
 * c is new if no earlier chunk has it; each chunk ranks its new keys. (3)
 * After a prefix sum of the new-key counts, a new key's global id is
 * offset[c] + its rank, and any other key takes the id of the earliest chunk
 * that has it (where it is new): exactly the first-appearance numbering of
 * the sequential merge. Phases are adapt_for loops over the chunks; a phase
 * only reads what the previous ones wrote. */
struct Chunk {
  size_t first = 0, last = 0;  /* triangles [first, last) */
  std::unique_ptr<KeyMap> map; /* key -> local id */
  std::vector<EdgeKey> keys;   /* local id -> key */
  std::vector<int64_t> rank;   /* local id -> rank among new keys, or -1 */
  std::vector<int64_t> global; /* local id -> global id */
  size_t nnew = 0;
  int64_t amin = INT64_MAX, amax = -1; /* range of the keys' smaller ids */
  bool oom = false;
  /* Can this chunk hold key? (cheap filter before the hash lookup: with a
   * local cell order, chunks hold nearly disjoint point id ranges) */
  bool may_hold(const EdgeKey &k) const { return k.a >= amin && k.a <= amax; }
};

struct ParMerge {
  const Point *pts;
  double iso;
  const TriRec *rec;
  int64_t *tri;
  double *xyz;
  std::vector<Chunk> *chunks;
  std::vector<size_t> offset;
};

void pm_local(size_t b, size_t e, void *ctx) {
  ParMerge *pm = static_cast<ParMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    Chunk &ch = (*pm->chunks)[c];
    try {
      ch.map.reset(new KeyMap((ch.last - ch.first) / 2 + 16));
      for (size_t f = ch.first; f < ch.last; f++)
        for (int k = 0; k < 3; k++) {
          bool fresh;
          const EdgeKey &key = pm->rec[f].e[k];
          const int64_t id = ch.map->find_or_insert(key, (int64_t)ch.keys.size(), &fresh);
          if (fresh) {
            ch.keys.push_back(key);
            ch.amin = std::min(ch.amin, key.a);
            ch.amax = std::max(ch.amax, key.a);
          }
          pm->tri[3 * f + (size_t)k] = id;
        }
    } catch (const std::bad_alloc &) {
      ch.oom = true;
    }
  }
}

void pm_rank(size_t b, size_t e, void *ctx) {
  ParMerge *pm = static_cast<ParMerge *>(ctx);
  for (size_t c = b; c < e; c++) {
    Chunk &ch = (*pm->chunks)[c];
    if (ch.oom) continue;
    try {
      ch.rank.assign(ch.keys.size(), -1);
      int64_t r = 0;
      for (size_t l = 0; l < ch.keys.size(); l++) {
        bool seen = false;
        for (size_t j = c; j-- > 0 && !seen;) {
          const Chunk &cj = (*pm->chunks)[j];
          seen = cj.may_hold(ch.keys[l]) && cj.map->find(ch.keys[l]) >= 0;
        }
        if (!seen) ch.rank[l] = r++;
      }
      ch.nnew = (size_t)r;
    } catch (const std::bad_alloc &) {
      ch.oom = true;
    }
  }
}

void pm_global(size_t b, size_t e, void *ctx) {
  ParMerge *pm = static_cast<ParMerge *>(ctx);
  std::vector<Chunk> &chunks = *pm->chunks;
  for (size_t c = b; c < e; c++) {
    Chunk &ch = chunks[c];
    try {
      ch.global.resize(ch.keys.size());
    } catch (const std::bad_alloc &) {
      ch.oom = true;
      continue;
    }
    for (size_t l = 0; l < ch.keys.size(); l++) {
      const EdgeKey &key = ch.keys[l];
      int64_t g;
      if (ch.rank[l] >= 0) {
        g = (int64_t)pm->offset[c] + ch.rank[l];
        double *x = pm->xyz + 3 * g;
        if (key.a == key.b) {
          x[0] = pm->pts[key.a].x, x[1] = pm->pts[key.a].y, x[2] = pm->pts[key.a].z;
        } else {
          EdgeKey again;
          edge_vertex(pm->pts, key.a, key.b, pm->iso, &again, x);
        }
      } else {
        g = -1;
        for (size_t j = 0; j < c && g < 0; j++) {
          if (!chunks[j].may_hold(key)) continue;
          const int64_t lj = chunks[j].map->find(key);
          if (lj >= 0) g = (int64_t)pm->offset[j] + chunks[j].rank[(size_t)lj];
        }
      }
      ch.global[l] = g;
    }
    for (size_t i = 3 * ch.first; i < 3 * ch.last; i++) pm->tri[i] = ch.global[(size_t)pm->tri[i]];
  }
}

/* Do the chunks hold mostly separate point id ranges (a local cell order)?
 * Estimated on a sample of the triangles: the summed ranges of the chunks
 * must not exceed ISO_PAR_MERGE_OVERLAP * nchunks times the whole range (1
 * for disjoint ranges, nchunks when every chunk spans everything). Otherwise
 * (random orders) every key is looked up in every earlier chunk and the
 * sequential merge is faster. */
bool chunks_local(const TriRec *rec, size_t n, size_t nchunks) {
  int64_t lo = INT64_MAX, hi = -1;
  double summed = 0;
  for (size_t c = 0; c < nchunks; c++) {
    int64_t clo = INT64_MAX, chi = -1;
    for (size_t f = n * c / nchunks; f < n * (c + 1) / nchunks; f += 16) {
      clo = std::min(clo, rec[f].e[0].a);
      chi = std::max(chi, rec[f].e[0].a);
    }
    if (chi < 0) continue;
    summed += (double)(chi - clo + 1);
    lo = std::min(lo, clo);
    hi = std::max(hi, chi);
  }
  return hi >= 0 && summed <= ISO_PAR_MERGE_OVERLAP * (double)nchunks * (double)(hi - lo + 1);
}

} // namespace

int merge_chunked(const Point *pts, double iso, const TriRec *rec, size_t n, size_t nchunks,
                  Surface *out) {
  if (nchunks == 0) return -EINVAL;
  Surface s;
  std::vector<Chunk> chunks(nchunks);
  try {
    s.tri.resize(3 * n);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  for (size_t c = 0; c < nchunks; c++) {
    chunks[c].first = n * c / nchunks;
    chunks[c].last = n * (c + 1) / nchunks;
  }
  ParMerge pm{pts, iso, rec, s.tri.data(), nullptr, &chunks, {}};
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.grain = 1;
  int rc = adapt_for(0, nchunks, pm_local, &pm, &attr);
  if (!rc) rc = adapt_for(0, nchunks, pm_rank, &pm, &attr);
  if (rc) return rc;
  size_t total = 0;
  pm.offset.resize(nchunks);
  for (size_t c = 0; c < nchunks; c++) {
    if (chunks[c].oom) return -ENOMEM;
    pm.offset[c] = total;
    total += chunks[c].nnew;
  }
  try {
    s.xyz.resize(3 * total);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  pm.xyz = s.xyz.data();
  rc = adapt_for(0, nchunks, pm_global, &pm, &attr);
  if (rc) return rc;
  for (const Chunk &ch : chunks)
    if (ch.oom) return -ENOMEM;
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

/* The adaptive modes hand adapt_transform_var blocks of ISO_CELL_BLOCK cells
 * (one element = one block) so that the indirect call per element is
 * amortised; the last block is shorter. Outputs stay in cell order. */
struct CellCtx {
  const Point *pts;
  const Tet *tets;
  size_t ntets;
  double iso;
};

size_t block_op(const void *in, void *out, void *ctx) {
  const CellCtx *c = static_cast<const CellCtx *>(ctx);
  const Tet *first = static_cast<const Tet *>(in);
  const size_t start = (size_t)(first - c->tets);
  const size_t n = c->ntets - start < ISO_CELL_BLOCK ? c->ntets - start : ISO_CELL_BLOCK;
  TriRec *o = static_cast<TriRec *>(out);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += mt_cell(c->pts, first[i], c->iso, o + k);
  return k;
}

} // namespace

int extract(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt, Surface *out,
            Timing *timing, std::string *err) {
  Timing tm;
  const Point *pts = m.pts.data();
  const double t0 = now();
  int rc = 0;
  if (mode == Mode::Seq) {
    std::vector<TriRec> recs;
    try {
      recs.reserve(m.tets.size() / 64 + 16);
      TriRec buf[2];
      for (const Tet &t : m.tets) {
        const size_t k = mt_cell(pts, t, iso, buf);
        for (size_t i = 0; i < k; i++) recs.push_back(buf[i]);
      }
    } catch (const std::bad_alloc &) {
      *err = "out of memory";
      return -ENOMEM;
    }
    const double t1 = now();
    rc = merge(pts, iso, recs.data(), recs.size(), out);
    tm.cells = t1 - t0;
    tm.merge = now() - t1;
  } else {
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
    CellCtx ctx{pts, m.tets.data(), m.tets.size(), iso};
    adapt_vec vec;
    std::memset(&vec, 0, sizeof vec);
    vec.elem_size = sizeof(TriRec);
    const size_t nblocks = (m.tets.size() + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
    rc = adapt_transform_var(m.tets.data(), nblocks, ISO_CELL_BLOCK * sizeof(Tet), &vec,
                             2 * ISO_CELL_BLOCK, block_op, &ctx, &attr);
    if (rc) {
      free(vec.data);
      *err = std::string("adapt_transform_var: ") + adapt_strerror(rc);
      return rc;
    }
    const double t1 = now();
    const size_t nw = (size_t)adapt_num_workers();
    const TriRec *recs = static_cast<const TriRec *>(vec.data);
    if (nw > 1 && vec.count >= ISO_PAR_MERGE_MIN_TRIS &&
        chunks_local(recs, vec.count, nw * ISO_PAR_MERGE_CHUNKS_PER_WORKER))
      rc = merge_chunked(pts, iso, recs, vec.count, nw * ISO_PAR_MERGE_CHUNKS_PER_WORKER, out);
    else
      rc = merge(pts, iso, recs, vec.count, out);
    tm.cells = t1 - t0;
    tm.merge = now() - t1;
    free(vec.data);
  }
  if (rc) {
    *err = "out of memory merging vertices";
    return rc;
  }
  if (timing) *timing = tm;
  return 0;
}

} // namespace iso
