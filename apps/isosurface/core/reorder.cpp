/* apps/isosurface/core: locality measure and space-filling-curve renumbering
 * (see reorder.h). */
#include "reorder.h"
#include "iso_config.h"

#include <adapt/loop.h>
#include <adapt/stl.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace iso {

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* adapt_for over [0, n) with a callable f(begin, end); 0 or the runtime's
 * negative errno with its message in *err. f must not throw. */
template <class F>
int par_for(size_t n, F f, const char *what, std::string *err) {
  auto body = [](size_t b, size_t e, void *ctx) { (*static_cast<F *>(ctx))(b, e); };
  const int rc = adapt_for(0, n, body, &f, nullptr);
  if (rc) *err = std::string(what) + ": " + adapt_last_error();
  return rc;
}

/* Most bits per axis of the curve keys (3 * 21 = 63 bits). */
constexpr int kMaxBits = 21;

/* Bits per axis for n cells: the curve's boxes ISO_REORDER_KEY_EXTRA_BITS
 * halvings finer than the mean cell spacing (n^(1/3) per axis), at most
 * kMaxBits. Cells in one box keep their previous relative order. */
int key_bits(size_t n) {
  int bits = 1;
  while (bits < kMaxBits && (double)(uint64_t(1) << bits) < std::cbrt((double)n)) bits++;
  return std::min(kMaxBits, bits + ISO_REORDER_KEY_EXTRA_BITS);
}

uint64_t morton_key(const uint64_t x[3], int) {
  return spread3(x[0]) | spread3(x[1]) << 1 | spread3(x[2]) << 2;
}

/* Hilbert index on the 2^bits cube: J. Skilling, "Programming the Hilbert
 * curve" (AxestoTranspose, the generator's cell order in mesh.cpp), without
 * branches (the bit tests are data-dependent: mispredicted half the time),
 * the transposed bits then interleaved. */
uint64_t hilbert_key(const uint64_t in[3], int bits) {
  uint64_t x[3] = {in[0], in[1], in[2]};
  const uint64_t m = uint64_t(1) << (bits - 1);
  for (uint64_t q = m; q > 1; q >>= 1) {
    const uint64_t p = q - 1;
    for (int a = 0; a < 3; a++) {
      const uint64_t set = uint64_t(0) - ((x[a] & q) != 0); /* all ones when bit q is set */
      const uint64_t t = (x[0] ^ x[a]) & p & ~set;          /* 0 for a == 0 */
      x[0] ^= (p & set) | t;
      x[a] ^= t;
    }
  }
  x[1] ^= x[0];
  x[2] ^= x[1];
  uint64_t t = 0;
  for (uint64_t q = m; q > 1; q >>= 1) t ^= (q - 1) & (uint64_t(0) - ((x[2] & q) != 0));
  for (int a = 0; a < 3; a++) x[a] ^= t;
  return spread3(x[0]) << 2 | spread3(x[1]) << 1 | spread3(x[2]);
}

/* Bounding box of the points: lo[3], hi[3]. Blocks of fixed size, combined
 * in block order. */
int bounding_box(const PointVec &pts, double lo[3], double hi[3], std::string *err) {
  const size_t n = pts.size(), bs = ISO_REORDER_BLOCK;
  const size_t nb = (n + bs - 1) / bs;
  std::vector<double> box(6 * nb);
  int rc = par_for(
      nb,
      [&](size_t b, size_t e) {
        for (size_t k = b; k < e; k++) {
          double l[3] = {INFINITY, INFINITY, INFINITY}, h[3] = {-INFINITY, -INFINITY, -INFINITY};
          for (size_t p = k * bs; p < std::min(n, (k + 1) * bs); p++) {
            const double c[3] = {pts[p].x, pts[p].y, pts[p].z};
            for (int a = 0; a < 3; a++) {
              l[a] = std::min(l[a], c[a]);
              h[a] = std::max(h[a], c[a]);
            }
          }
          for (int a = 0; a < 3; a++) {
            box[6 * k + a] = l[a];
            box[6 * k + 3 + a] = h[a];
          }
        }
      },
      "bounding box", err);
  if (rc) return rc;
  for (int a = 0; a < 3; a++) {
    lo[a] = INFINITY;
    hi[a] = -INFINITY;
  }
  for (size_t k = 0; k < nb; k++)
    for (int a = 0; a < 3; a++) {
      lo[a] = std::min(lo[a], box[6 * k + a]);
      hi[a] = std::max(hi[a], box[6 * k + 3 + a]);
    }
  return 0;
}

/* newid[p]: the number of point p by first use in the cells cell(0), ...,
 * cell(nc - 1) (cell by cell, each cell's points in order), unused points
 * after, in their order. In parallel: first[p] = the smallest slot 4 c + a
 * using p (an atomic minimum), then blocks of cells count their first uses,
 * and a prefix over the blocks numbers them. */
template <class Cell>
int first_use_ids(Cell cell, size_t nc, size_t npts, std::vector<int64_t> *newid,
                  std::string *err) {
  const int64_t none = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> first(npts);
  std::vector<int64_t> &ids = *newid;
  ids.assign(npts, -1);
  int rc = par_for(
      npts,
      [&](size_t b, size_t e) {
        std::fill(first.begin() + (ptrdiff_t)b, first.begin() + (ptrdiff_t)e, none);
      },
      "first use", err);
  if (rc) return rc;
  rc = par_for(
      nc,
      [&](size_t b, size_t e) {
        for (size_t c = b; c < e; c++)
          for (int a = 0; a < 4; a++) {
            int64_t *slot = &first[(size_t)cell(c).v[a]];
            const int64_t s = (int64_t)(4 * c) + a;
            /* Atomic minimum, relaxed: first[] is read only after this
             * loop's join (adapt_for's return), which orders these writes. */
            int64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
            while (s < cur && !__atomic_compare_exchange_n(slot, &cur, s, true, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED)) {}
          }
      },
      "first use", err);
  if (rc) return rc;
  const size_t bs = ISO_REORDER_BLOCK;
  const size_t nb = (nc + bs - 1) / bs;
  std::vector<int64_t> base(nb + 1, 0);
  auto count_block = [&](size_t k, bool assign) {
    int64_t id = assign ? base[k] : 0, count = 0; /* base[k] is being written when counting */
    for (size_t c = k * bs; c < std::min(nc, (k + 1) * bs); c++)
      for (int a = 0; a < 4; a++) {
        const size_t p = (size_t)cell(c).v[a];
        if (first[p] != (int64_t)(4 * c) + a) continue;
        if (assign) ids[p] = id++;
        count++;
      }
    return count;
  };
  rc = par_for(
      nb,
      [&](size_t b, size_t e) {
        for (size_t k = b; k < e; k++) base[k + 1] = count_block(k, false);
      },
      "first use", err);
  if (rc) return rc;
  for (size_t k = 0; k < nb; k++) base[k + 1] += base[k];
  rc = par_for(
      nb,
      [&](size_t b, size_t e) {
        for (size_t k = b; k < e; k++) count_block(k, true);
      },
      "first use", err);
  if (rc) return rc;
  int64_t next = base[nb];
  for (size_t p = 0; p < npts; p++)
    if (first[p] == none) ids[p] = next++;
  return 0;
}

/* m's points (positions and scalars) moved to the numbering newid into
 * *pts and *sc, in parallel or sequentially. */
int move_points(const Mesh &m, const std::vector<int64_t> &newid, bool parallel, PointVec *pts,
                ScalarVec *sc, std::string *err) {
  pts->resize(m.pts.size());
  sc->resize(m.pts.size());
  auto move = [&](size_t b, size_t e) {
    for (size_t p = b; p < e; p++) {
      (*pts)[(size_t)newid[p]] = m.pts[p];
      (*sc)[(size_t)newid[p]] = m.scalars[p];
    }
  };
  if (parallel) return par_for(m.pts.size(), move, "moving the points", err);
  move(0, m.pts.size());
  return 0;
}

/* Apply the point numbering newid to m (points moved, cells relabelled),
 * in parallel or sequentially; m is untouched on error. */
int apply_point_ids(Mesh *m, const std::vector<int64_t> &newid, bool parallel, std::string *err) {
  PointVec pts;
  ScalarVec sc;
  TetVec tets(m->tets);
  if (int rc = move_points(*m, newid, parallel, &pts, &sc, err)) return rc;
  auto relabel = [&](size_t b, size_t e) {
    for (size_t c = b; c < e; c++)
      for (int a = 0; a < 4; a++) tets[c].v[a] = newid[(size_t)tets[c].v[a]];
  };
  if (parallel) {
    if (int rc = par_for(tets.size(), relabel, "relabelling the cells", err)) return rc;
  } else {
    relabel(0, tets.size());
  }
  scatter_tuples(&m->point_data, newid);
  m->pts.swap(pts);
  m->scalars.swap(sc);
  m->tets.swap(tets);
  return 0;
}

/* The q-quantile (0 <= q <= 1) of v (reordered). */
double quantile(std::vector<double> &v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, (size_t)(q * (double)(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + (ptrdiff_t)k, v.end());
  return v[k];
}

} // namespace

Numbering measure_numbering(const Mesh &m) {
  Numbering loc;
  const size_t nc = m.tets.size();
  if (nc == 0 || m.pts.empty()) return loc;
  const size_t ns = std::min<size_t>(nc, ISO_NUMBERING_SAMPLES);
  const double np = (double)m.pts.size();
  std::vector<double> cell(ns), pair(ns);
  for (size_t k = 0; k < ns; k++) {
    const size_t c = ns == nc ? k : (size_t)((unsigned __int128)k * nc / ns);
    int64_t lo = m.tets[c].v[0], hi = lo;
    for (int a = 1; a < 4; a++) {
      lo = std::min<int64_t>(lo, m.tets[c].v[a]);
      hi = std::max<int64_t>(hi, m.tets[c].v[a]);
    }
    cell[k] = (double)(hi - lo) / np;
    if (c > 0)
      for (int a = 0; a < 4; a++) {
        lo = std::min<int64_t>(lo, m.tets[c - 1].v[a]);
        hi = std::max<int64_t>(hi, m.tets[c - 1].v[a]);
      }
    pair[k] = (double)(hi - lo) / np;
  }
  loc.samples = ns;
  loc.cell_spread = quantile(cell, 0.5);
  loc.pair_spread = quantile(pair, 0.5);
  loc.pair_p90 = quantile(pair, 0.9);
  return loc;
}

bool reorder_needed(const Numbering &loc, size_t npoints) {
  return npoints >= (size_t)ISO_REORDER_MIN_POINTS && loc.pair_spread > ISO_REORDER_POOR_SPREAD;
}

namespace {

/* Each point of pts quantized once into the box [lo, lo + max_coord /
 * scale] per axis, its three coordinates packed in one word (kMaxBits
 * each): a cell then reads 8 bytes per point, not 32. */
int quantize_points(const PointVec &pts, const double lo[3], double scale, uint64_t max_coord,
                    std::vector<uint64_t> *packed, std::string *err) {
  packed->resize(pts.size());
  uint64_t *out = packed->data();
  return par_for(
      pts.size(),
      [&](size_t b, size_t e) {
        for (size_t p = b; p < e; p++) {
          const double c[3] = {pts[p].x, pts[p].y, pts[p].z};
          uint64_t w = 0;
          for (int a = 0; a < 3; a++) {
            const double v = (c[a] - lo[a]) * scale;
            w = w << kMaxBits | (v <= 0 ? 0 : v >= (double)max_coord ? max_coord : (uint64_t)v);
          }
          out[p] = w;
        }
      },
      "curve keys", err);
}

/* keys[c]: the curve key (bits per axis) of cell c's centroid, the mean of
 * its quantized corners (packed), above c (idx_bits). By sub-blocks: first
 * the centroids (random reads, independent, many in flight), then the keys
 * (arithmetic only). */
int centroid_keys(const TetVec &tets, const std::vector<uint64_t> &packed, bool hilbert, int bits,
                  int idx_bits, std::vector<uint64_t> *keys, std::string *err) {
  const uint64_t field = (uint64_t(1) << kMaxBits) - 1;
  return par_for(
      tets.size(),
      [&](size_t b, size_t e) {
        uint64_t q[ISO_REORDER_KEY_BATCH][3];
        for (size_t c0 = b; c0 < e; c0 += ISO_REORDER_KEY_BATCH) {
          const size_t c1 = std::min(e, c0 + ISO_REORDER_KEY_BATCH);
          for (size_t c = c0; c < c1; c++) {
            uint64_t s[3] = {0, 0, 0};
            for (int a = 0; a < 4; a++) {
              const uint64_t w = packed[(size_t)tets[c].v[a]];
              s[0] += w >> (2 * kMaxBits);
              s[1] += (w >> kMaxBits) & field;
              s[2] += w & field;
            }
            for (int a = 0; a < 3; a++) q[c - c0][a] = s[a] >> 2;
          }
          for (size_t c = c0; c < c1; c++) {
            const uint64_t key =
                hilbert ? hilbert_key(q[c - c0], bits) : morton_key(q[c - c0], bits);
            (*keys)[c] = key << idx_bits | (uint64_t)c;
          }
        }
      },
      "curve keys", err);
}

/* One 64-bit word per cell of m into *keys: its curve key above its index
 * (*idx_bits bits; the index breaks ties, so the order is total: the same
 * for any worker count). *packed: the quantized points (see
 * quantize_points), the caller's, so that it is freed with the keys. */
int curve_words(const Mesh &m, bool hilbert, std::vector<uint64_t> *keys,
                std::vector<uint64_t> *packed, int *idx_bits, std::string *err) {
  double lo[3], hi[3];
  if (int rc = bounding_box(m.pts, lo, hi, err)) return rc;
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 0.0});
  const size_t nc = m.tets.size();
  int ib = 1;
  while (ib < 63 && (uint64_t(1) << ib) < nc) ib++;
  *idx_bits = ib;
  const int bits = std::max(1, std::min(key_bits(nc), (64 - ib) / 3));
  const uint64_t max_coord = (uint64_t(1) << bits) - 1;
  /* The same scale on every axis keeps the curve's boxes cubes. */
  const double scale = extent > 0 ? (double)max_coord / extent : 0.0;
  keys->resize(nc);
  if (int rc = quantize_points(m.pts, lo, scale, max_coord, packed, err)) return rc;
  return centroid_keys(m.tets, *packed, hilbert, bits, ib, keys, err);
}

/* The points of m renumbered by first use in the cells new_tets, which are
 * relabelled in place; the points moved into *new_pts and *new_sc, newid
 * their new numbers. */
int renumber_by_first_use(const Mesh &m, TetVec &new_tets, PointVec *new_pts, ScalarVec *new_sc,
                          std::vector<int64_t> &newid, std::string *err) {
  const size_t nc = new_tets.size();
  auto cell = [&](size_t i) -> const Tet & { return new_tets[i]; };
  int rc = first_use_ids(cell, nc, m.pts.size(), &newid, err);
  if (!rc) rc = move_points(m, newid, true, new_pts, new_sc, err);
  if (rc) return rc;
  return par_for(
      nc,
      [&](size_t b, size_t e) {
        for (size_t i = b; i < e; i++)
          for (int a = 0; a < 4; a++) new_tets[i].v[a] = newid[(size_t)new_tets[i].v[a]];
      },
      "relabelling the cells", err);
}

} // namespace

int reorder_cells(Mesh *m, Reorder curve, ReorderTiming *timing, std::string *err) {
  if (curve != Reorder::Morton && curve != Reorder::Hilbert) {
    *err = std::string("reorder_cells: not a curve: ") + reorder_name(curve);
    return -EINVAL;
  }
  ReorderTiming tm;
  try {
    double t0 = now();
    std::vector<uint64_t> keys, packed;
    int idx_bits = 1;
    int rc = curve_words(*m, curve == Reorder::Hilbert, &keys, &packed, &idx_bits, err);
    if (rc) return rc;
    const uint64_t idx_mask = (uint64_t(1) << idx_bits) - 1;
    double t1 = now();
    tm.keys = t1 - t0;
    adapt::sort(keys.begin(), keys.end());
    double t2 = now();
    tm.sort = t2 - t1;
    /* The cells gathered in the new order (the one random pass over them),
     * then the points by first use, then the cells relabelled in place. */
    const TetVec &tets = m->tets;
    TetVec new_tets(tets.size());
    rc = par_for(
        tets.size(),
        [&](size_t b, size_t e) {
          for (size_t i = b; i < e; i++) new_tets[i] = tets[(size_t)(keys[i] & idx_mask)];
        },
        "moving the cells", err);
    if (rc) return rc;
    std::vector<MeshArray> cell_data = m->cell_data;
    gather_tuples(&cell_data, [&](size_t i) { return (size_t)(keys[i] & idx_mask); });
    std::vector<uint32_t> tet_block(m->tet_block.size());
    for (size_t i = 0; i < tet_block.size(); i++)
      tet_block[i] = m->tet_block[(size_t)(keys[i] & idx_mask)];
    std::vector<uint64_t>().swap(keys);
    double t3 = now();
    tm.apply = t3 - t2;
    PointVec new_pts;
    ScalarVec new_sc;
    std::vector<int64_t> newid;
    if ((rc = renumber_by_first_use(*m, new_tets, &new_pts, &new_sc, newid, err))) return rc;
    std::vector<MeshArray> point_data = m->point_data;
    scatter_tuples(&point_data, newid);
    tm.points = now() - t3;
    m->point_data.swap(point_data);
    m->cell_data.swap(cell_data);
    m->tet_block.swap(tet_block);
    m->pts.swap(new_pts);
    m->scalars.swap(new_sc);
    m->tets.swap(new_tets);
  } catch (const std::bad_alloc &) {
    *err = "out of memory renumbering " + std::to_string(m->tets.size()) + " cells";
    return -ENOMEM;
  } catch (const std::system_error &e) {
    *err = std::string("sorting the curve keys: ") + e.what();
    return -e.code().value();
  }
  if (timing) *timing = tm;
  return 0;
}

int renumber_points_first_use(Mesh *m, std::string *err) {
  try {
    std::vector<int64_t> newid(m->pts.size(), -1);
    int64_t next = 0;
    for (const Tet &t : m->tets)
      for (int a = 0; a < 4; a++)
        if (newid[(size_t)t.v[a]] < 0) newid[(size_t)t.v[a]] = next++;
    for (int64_t &id : newid)
      if (id < 0) id = next++;
    return apply_point_ids(m, newid, false, err);
  } catch (const std::bad_alloc &) {
    *err = "out of memory renumbering " + std::to_string(m->pts.size()) + " points";
    return -ENOMEM;
  }
}

int shuffle_points(Mesh *m, uint64_t seed, std::string *err) {
  try {
    std::vector<int64_t> newid(m->pts.size());
    std::iota(newid.begin(), newid.end(), int64_t(0));
    std::mt19937_64 rng(seed);
    for (size_t i = newid.size(); i > 1; i--) {
      const size_t j = (size_t)(rng() % (uint64_t)i);
      std::swap(newid[i - 1], newid[j]);
    }
    return apply_point_ids(m, newid, false, err);
  } catch (const std::bad_alloc &) {
    *err = "out of memory shuffling " + std::to_string(m->pts.size()) + " points";
    return -ENOMEM;
  }
}

} // namespace iso
