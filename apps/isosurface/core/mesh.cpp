/* apps/isosurface/core: mesh generation and checks (see mesh.h). */
#include "mesh.h"

#include "iso_config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <sys/mman.h>
#include <utility>

namespace iso {

namespace {

/* Ask for transparent huge pages on the 2 MiB-aligned part of [p, p +
 * bytes), before its first touch: a page fault costs microseconds in this
 * VM, and the mesh and output arrays are tens to hundreds of MiB. A hint only: its failure (no
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

} // namespace

double field_value(Field f, double x, double y, double z, double lx, double ly, double lz) {
  switch (f) {
  case Field::Sphere: {
    double r = 0.5 * std::max(lx, std::max(ly, lz));
    double dx = x - 0.5 * lx, dy = y - 0.5 * ly, dz = z - 0.5 * lz;
    return std::sqrt(dx * dx + dy * dy + dz * dz) / r;
  }
  case Field::Waves: {
    const double tau = 6.283185307179586;
    double u = x / lx, v = y / ly, w = z / lz;
    return std::sin(tau * 1.0 * u) * std::cos(tau * 1.5 * v) + 0.5 * std::sin(tau * 3.0 * (u + w)) +
           0.25 * std::cos(tau * 5.0 * (v - w) + 0.3);
  }
  case Field::Flat: return 1.0;
  case Field::Gyroid: {
    const double k = 6.283185307179586 / gyroid_period;
    /* Phases off the grid: no point sits exactly on the isosurface at iso 0
     * (where the tetrahedra's cases are degenerate). */
    const double X = k * x + 0.25, Y = k * y + 0.5, Z = k * z + 0.75;
    return std::sin(X) * std::cos(Y) + std::sin(Y) * std::cos(Z) + std::sin(Z) * std::cos(X);
  }
  }
  return 0.0;
}

namespace {

uint64_t morton_key(uint64_t i, uint64_t j, uint64_t k) {
  return spread3(i) | spread3(j) << 1 | spread3(k) << 2;
}

/* Hilbert index of (x[0], x[1], x[2]) on a 2^bits cube: J. Skilling,
 * "Programming the Hilbert curve" (AxestoTranspose), then the transposed
 * bits are interleaved. */
uint64_t hilbert_key(uint64_t i, uint64_t j, uint64_t k, int bits) {
  uint64_t x[3] = {i, j, k};
  uint64_t m = uint64_t(1) << (bits - 1);
  for (uint64_t q = m; q > 1; q >>= 1) { /* inverse undo */
    uint64_t p = q - 1;
    for (int a = 0; a < 3; a++) {
      if (x[a] & q)
        x[0] ^= p;
      else {
        uint64_t t = (x[0] ^ x[a]) & p;
        x[0] ^= t;
        x[a] ^= t;
      }
    }
  }
  for (int a = 1; a < 3; a++) x[a] ^= x[a - 1]; /* Gray encode */
  uint64_t t = 0;
  for (uint64_t q = m; q > 1; q >>= 1)
    if (x[2] & q) t ^= q - 1;
  for (int a = 0; a < 3; a++) x[a] ^= t;
  uint64_t key = 0;
  for (int b = bits - 1; b >= 0; b--)
    for (int a = 0; a < 3; a++) key = key << 1 | ((x[a] >> b) & 1);
  return key;
}

/* Corner c of a hexahedron: bit 0 x, bit 1 y, bit 2 z. */
const int five_even[5][4] = {{1, 0, 3, 5}, {2, 3, 0, 6}, {4, 5, 6, 0}, {7, 6, 5, 3}, {0, 3, 5, 6}};
const int five_odd[5][4] = {{0, 1, 2, 4}, {3, 2, 1, 7}, {5, 4, 7, 1}, {6, 7, 4, 2}, {1, 2, 4, 7}};
const int six[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7},
                       {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};

bool mul_ok(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }

/* The hexahedra of a grid of hx x hy x hz in the cell order `order` (not
 * Lex, the identity), into *hexes (nhex of them). May throw bad_alloc. */
void order_hexes(int64_t hx, int64_t hy, int64_t hz, Order order, uint64_t seed,
                 std::vector<int64_t> *hexes) {
  const int64_t nhex = (int64_t)hexes->size();
  std::iota(hexes->begin(), hexes->end(), int64_t(0));
  if (order == Order::Random) {
    std::mt19937_64 rng(seed);
    for (int64_t i = nhex - 1; i > 0; i--) {
      int64_t j = (int64_t)(rng() % (uint64_t)(i + 1));
      std::swap((*hexes)[(size_t)i], (*hexes)[(size_t)j]);
    }
    return;
  }
  int bits = 1;
  while ((int64_t(1) << bits) < std::max(hx, std::max(hy, hz))) bits++;
  std::vector<std::pair<uint64_t, int64_t>> keyed((size_t)nhex);
  for (int64_t h = 0; h < nhex; h++) {
    uint64_t i = (uint64_t)(h % hx), j = (uint64_t)((h / hx) % hy), k = (uint64_t)(h / (hx * hy));
    keyed[(size_t)h] = {order == Order::Morton ? morton_key(i, j, k) : hilbert_key(i, j, k, bits),
                        h};
  }
  std::sort(keyed.begin(), keyed.end());
  for (int64_t h = 0; h < nhex; h++) (*hexes)[(size_t)h] = keyed[(size_t)h].second;
}

/* The tetrahedra of the grid g's hexahedra, taken in the order hexes (the
 * identity when empty), `per` of each, into tets (sized); the points
 * numbered by first use: newid[grid point] (sized, -1) is its number,
 * grid_of[new id] the grid point. May throw bad_alloc. */
void split_hexes(const Grid &g, Split split, int per, const std::vector<int64_t> &hexes,
                 std::vector<int64_t> &newid, TetVec &tets, std::vector<int64_t> *grid_of) {
  const int64_t nx = g.np[0], ny = g.np[1], nz = g.np[2];
  const int64_t hx = nx - 1, hy = ny - 1, hz = nz - 1, nhex = hx * hy * hz;
  size_t tcount = 0;
  for (int64_t n = 0; n < nhex; n++) {
    const int64_t h = hexes.empty() ? n : hexes[(size_t)n];
    const int64_t i = h % hx, j = (h / hx) % hy, k = h / (hx * hy);
    int64_t corner[8];
    for (int c = 0; c < 8; c++)
      corner[c] = (i + (c & 1)) + nx * ((j + ((c >> 1) & 1)) + ny * (k + ((c >> 2) & 1)));
    const int(*tab)[4] = split == Split::Six ? six : (((i + j + k) & 1) ? five_odd : five_even);
    for (int q = 0; q < per; q++) {
      Tet &tt = tets[tcount++];
      for (int a = 0; a < 4; a++) {
        int64_t gp = corner[tab[q][a]];
        int64_t &id = newid[(size_t)gp];
        if (id < 0) {
          id = (int64_t)grid_of->size();
          grid_of->push_back(gp);
        }
        tt.v[a] = (uint32_t)id; /* < npts < kMaxMeshPoints */
      }
    }
  }
}

/* The positions and scalars of the points grid_of[0 ..) of the grid g
 * into pts and sc (sized). */
void place_points(const Grid &g, const std::vector<int64_t> &grid_of, PointVec &pts,
                  ScalarVec &sc) {
  const int64_t nx = g.np[0], ny = g.np[1];
  const int64_t hx = g.np[0] - 1, hy = g.np[1] - 1, hz = g.np[2] - 1;
  const double lx = g.spacing[0] * (double)hx, ly = g.spacing[1] * (double)hy,
               lz = g.spacing[2] * (double)hz;
  for (size_t p = 0; p < grid_of.size(); p++) {
    const int64_t gp = grid_of[p];
    const int64_t i = gp % nx, j = (gp / nx) % ny, k = gp / (nx * ny);
    Point &P = pts[p];
    P.x = g.origin[0] + (double)i * g.spacing[0];
    P.y = g.origin[1] + (double)j * g.spacing[1];
    P.z = g.origin[2] + (double)k * g.spacing[2];
    sc[p] = g.scalars ? g.scalars[gp]
                      : field_value(g.field, P.x - g.origin[0], P.y - g.origin[1],
                                    P.z - g.origin[2], lx, ly, lz);
  }
}

/* The counts of the grid g split `per` tetrahedra a hexahedron: 0, or
 * -EINVAL or -EOVERFLOW with the message in *err. */
int grid_counts(const Grid &g, int per, int64_t *npts, int64_t *nhex, int64_t *ntets,
                std::string *err) {
  const int64_t nx = g.np[0], ny = g.np[1], nz = g.np[2];
  if (nx < 2 || ny < 2 || nz < 2) {
    *err = "grid needs at least 2 points per axis (got " + std::to_string(nx) + "x" +
           std::to_string(ny) + "x" + std::to_string(nz) + ")";
    return -EINVAL;
  }
  int64_t t;
  if (!mul_ok(nx, ny, &t) || !mul_ok(t, nz, npts) || !mul_ok((nx - 1) * (ny - 1), nz - 1, nhex) ||
      !mul_ok(*nhex, per, ntets) || (uint64_t)*ntets > SIZE_MAX / sizeof(Tet) ||
      nx > (int64_t(1) << 21) || ny > (int64_t(1) << 21) || nz > (int64_t(1) << 21)) {
    *err = "grid too large";
    return -EOVERFLOW;
  }
  if ((uint64_t)*npts >= kMaxMeshPoints) {
    *err = "grid too large: " + std::to_string(*npts) + " points, at most " +
           std::to_string(kMaxMeshPoints - 1) + " (point ids are 32-bit)";
    return -EOVERFLOW;
  }
  return 0;
}

} // namespace

int tetrahedralize_grid(const Grid &g, Split split, Order order, uint64_t seed, Mesh *mesh,
                        std::string *err) {
  const int per = split == Split::Five ? 5 : 6;
  int64_t npts, nhex, ntets;
  if (const int rc = grid_counts(g, per, &npts, &nhex, &ntets, err)) return rc;
  try {
    /* The hexahedra in cell order (empty: the identity, for Lex). */
    std::vector<int64_t> hexes;
    if (order != Order::Lex) {
      hexes.resize((size_t)nhex);
      order_hexes(g.np[0] - 1, g.np[1] - 1, g.np[2] - 1, order, seed, &hexes);
    }
    std::vector<int64_t> newid((size_t)npts, -1);
    TetVec tets((size_t)ntets);
    std::vector<int64_t> grid_of; /* new id -> grid point id */
    grid_of.reserve((size_t)npts);
    split_hexes(g, split, per, hexes, newid, tets, &grid_of);
    PointVec pts((size_t)npts);
    ScalarVec sc((size_t)npts);
    place_points(g, grid_of, pts, sc);
    mesh->pts.swap(pts);
    mesh->scalars.swap(sc);
    mesh->tets.swap(tets);
  } catch (const std::bad_alloc &) {
    *err = "out of memory generating " + std::to_string(ntets) + " tetrahedra";
    return -ENOMEM;
  }
  return 0;
}

void scatter_tuples(std::vector<MeshArray> *arrays, const std::vector<int64_t> &newid) {
  if (arrays->empty()) return;
  std::vector<int64_t> old(newid.size());
  for (size_t p = 0; p < newid.size(); p++) old[(size_t)newid[p]] = (int64_t)p;
  gather_tuples(arrays, [&](size_t i) { return (size_t)old[i]; });
}

int validate(const Mesh &m, std::string *err) {
  const int64_t n = (int64_t)m.pts.size();
  if (m.scalars.size() != m.pts.size()) {
    *err = "the mesh has " + std::to_string(m.scalars.size()) + " scalars for " +
           std::to_string(n) + " points";
    return -EINVAL;
  }
  if ((uint64_t)n >= kMaxMeshPoints) {
    *err = "too many points (" + std::to_string(n) + ", at most " +
           std::to_string(kMaxMeshPoints - 1) + ": point ids are 32-bit)";
    return -EOVERFLOW;
  }
  if (!m.tet_block.empty() && m.tet_block.size() != m.tets.size()) {
    *err = "the mesh has " + std::to_string(m.tet_block.size()) + " block numbers for " +
           std::to_string(m.tets.size()) + " cells";
    return -EINVAL;
  }
  for (size_t c = 0; c < m.tets.size(); c++)
    for (int a = 0; a < 4; a++) {
      const int64_t v = m.tets[c].v[a];
      if (v >= n) {
        *err = "cell " + std::to_string(c) + " refers to point " + std::to_string(v) +
               ", out of range [0, " + std::to_string(n) + ")";
        return -ERANGE;
      }
    }
  for (size_t p = 0; p < m.pts.size(); p++) {
    const Point &P = m.pts[p];
    const double s = m.scalars[p];
    if (std::isnan(s) || std::isinf(s)) {
      *err = "point " + std::to_string(p) + " has a " + (std::isnan(s) ? "NaN" : "infinite") +
             " scalar in array '" + m.array_name + "'";
      return -EDOM;
    }
    if (!std::isfinite(P.x) || !std::isfinite(P.y) || !std::isfinite(P.z)) {
      *err = "point " + std::to_string(p) + " has a non-finite coordinate";
      return -EDOM;
    }
  }
  return 0;
}

void *out_alloc_bytes(size_t bytes) {
  if (bytes < ISO_HUGE_MIN_BYTES) return std::malloc(bytes ? bytes : 1);
  const size_t huge = (size_t)2 << 20;
  void *p = nullptr;
  if (posix_memalign(&p, huge, bytes)) return nullptr;
  advise_huge(p, bytes);
  return p;
}

} // namespace iso
