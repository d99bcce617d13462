/* apps/isosurface/core: the attributes of <adapt/iso.hpp>'s surfaces
 * (iso_internal.h): interpolated point arrays, each triangle's source cell
 * and its cell arrays, point normals, scalars. Each is computed from the
 * core's output (its points' vertex keys, its triangles in cell order) by
 * loops whose result does not depend on the schedule. */
#include "iso_internal.h"

#include "mt_cases.h"
#include "iso_config.h"
#include "mt_geometry.h"

#include <adapt/loop.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

namespace adapt {
namespace iso {
namespace internal {

namespace {

/* The triangles of tetrahedron t at iso (0, 1 or 2), as the cell phase
 * counts them (degenerate ones dropped). */
template <class S>
int tet_triangles(const S *sc, const ::iso::Tet &t, double iso) {
  using ::iso::cases;
  const int idx = ((double)sc[t.v[0]] >= iso) | ((double)sc[t.v[1]] >= iso) << 1 |
                  ((double)sc[t.v[2]] >= iso) << 2 | ((double)sc[t.v[3]] >= iso) << 3;
  if (cases.ntri[idx] == 0) return 0;
  uint64_t key[4];
  for (int k = 0; k < cases.nedge[idx]; k++) {
    const uint32_t p = t.v[cases.cedge[idx][k][0]], q = t.v[cases.cedge[idx][k][1]];
    key[k] = ::iso::crossing_key(::iso::crossing(sc, p, q, iso), p, q);
  }
  int n = 0;
  for (int tr = 0; tr < cases.ntri[idx]; tr++) {
    const int *te = cases.tedge[idx][tr];
    n += !(key[te[0]] == key[te[1]] || key[te[0]] == key[te[2]] || key[te[1]] == key[te[2]]);
  }
  return n;
}

/* v converted to T, integers rounded half away from zero and clamped to
 * T's range (vtkDataArray's rounding of interpolated values). */
template <class T>
T to_type(double v) {
  if constexpr (std::is_floating_point<T>::value) {
    return (T)v;
  } else {
    const double lo = (double)std::numeric_limits<T>::min(),
                 hi = (double)std::numeric_limits<T>::max();
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return (T)(v >= 0 ? v + 0.5 : v - 0.5);
  }
}

/* Where each of the points of keys lies on its edge, from the scalars (S
 * their type): xs[v] for v in [b, e); a point on a mesh vertex (its key's
 * two ends equal) is {vertex, vertex, 0}, which no crossing is (its ends
 * differ). Once per block of points, whatever the arrays: the
 * interpolation below then takes the array's type alone (T), not each
 * (T, S) pair. */
template <class S>
void crossings(const uint64_t *keys, const S *sc, double iso, size_t b, size_t e,
               ::iso::Crossing *xs) {
  for (size_t v = b; v < e; v++) {
    const uint64_t a = keys[v] >> 32, z = keys[v] & 0xFFFFFFFFu;
    xs[v] = a == z ? ::iso::Crossing{a, a, 0.0} : ::iso::crossing(sc, a, z, iso);
  }
}

/* The tuples of `in` (nc components of T) at the points xs[b, e), into
 * out[b, e). */
template <class T>
void interpolate(const T *in, int nc, const ::iso::Crossing *xs, size_t b, size_t e, T *out) {
  const size_t c = (size_t)nc;
  for (size_t v = b; v < e; v++) {
    const ::iso::Crossing &x = xs[v];
    T *o = out + c * v;
    if (x.lo == x.hi) {
      std::memcpy(o, in + c * x.lo, c * sizeof(T));
      continue;
    }
    const T *lo = in + c * x.lo, *hi = in + c * x.hi;
    for (size_t k = 0; k < c; k++) {
      const double l = (double)lo[k], h = (double)hi[k];
      o[k] = to_type<T>((1 - x.t) * l + x.t * h);
    }
  }
}

/* Points per block of the interpolation: their crossings in a buffer on
 * the worker's stack (24 bytes each), then every array's tuples at them,
 * rather than the crossings of all the points first (24 bytes a point more
 * at the extraction's end, the peak RSS of a reused surface). */
constexpr size_t kCrossBlock = 256;

int point_data(const request &req, bool seq, surface::impl *s) {
  const ::iso::MeshView &v = s->prep.view;
  for (size_t i = 0; i < req.point_data.size(); i++) {
    const array &a = req.point_data[i];
    OutArray &o = s->pdata[i];
    o.type = a.type;
    o.components = a.components;
    o.count = s->npts;
    o.bytes.resize(s->npts * (size_t)a.components * dtype_size(a.type));
  }
  if (req.point_data.empty()) return 0;
  for (size_t p = 0; p < s->parts.size(); p++) {
    const ::iso::Surface &part = s->parts[p];
    int rc = 0;
    ::iso::with_mesh_types(false, v.st, [&](auto, auto sz) {
      using S = decltype(sz);
      const S *sc = static_cast<const S *>(v.sc);
      rc = loop(part.nverts(), seq, [&](size_t b, size_t e) {
        ::iso::Crossing xs[kCrossBlock];
        for (size_t b0 = b; b0 < e; b0 += kCrossBlock) {
          const size_t n = std::min(e - b0, kCrossBlock);
          crossings(part.keys.data() + b0, sc, req.values[p], 0, n, xs);
          for (size_t i = 0; i < req.point_data.size(); i++) {
            const array &a = req.point_data[i];
            unsigned char *dst = s->pdata[i].bytes.data() +
                                 (s->first_pt[p] + b0) * (size_t)a.components * dtype_size(a.type);
            with_type(a.type, [&](auto z) {
              using T = decltype(z);
              interpolate(static_cast<const T *>(a.data), a.components, xs, 0, n,
                          reinterpret_cast<T *>(dst));
            });
          }
        }
      });
    });
    if (rc) return rc;
  }
  return 0;
}

/* Blocks of the cell source per piece of the cell-id pass. */
constexpr size_t kIdBlocks = 64;

/* Triangles of the tetrahedra of blocks [b, e) at iso; ids (may be NULL):
 * their source cells, written from ids[0] on. */
template <class S>
size_t block_triangles(const ::iso::CellSource &src, const S *sc, double iso, size_t b, size_t e,
                       int64_t *ids) {
  ::iso::Tet tets[ISO_CELL_BLOCK];
  size_t cell_of[ISO_CELL_BLOCK];
  size_t n = 0;
  for (size_t blk = b; blk < e; blk++) {
    const size_t nt = ::iso::fill_block(src, blk, tets, cell_of);
    for (size_t k = 0; k < nt; k++) {
      const int t = tet_triangles(sc, tets[k], iso);
      if (ids)
        for (int j = 0; j < t; j++) ids[n + (size_t)j] = (int64_t)cell_of[k];
      n += (size_t)t;
    }
  }
  return n;
}

/* Each triangle's source cell (s->cell_ids): the triangles come in cell
 * order, so a count per piece of blocks, a prefix sum, then the ids. */
int cell_ids(const request &req, bool seq, surface::impl *s) {
  const ::iso::MeshView &v = s->prep.view;
  const size_t nblk = ::iso::source_blocks(v.cells), npieces = (nblk + kIdBlocks - 1) / kIdBlocks;
  std::vector<size_t> count(npieces + 1);
  s->cell_ids.resize(s->ntris);
  for (size_t p = 0; p < s->parts.size(); p++) {
    const double iso = req.values[p];
    int64_t *ids = s->cell_ids.data() + s->first_tri[p];
    int rc = 0;
    ::iso::with_mesh_types(false, v.st, [&](auto, auto sz) {
      using S = decltype(sz);
      const S *sc = static_cast<const S *>(v.sc);
      auto piece = [&](size_t k, int64_t *out) {
        return block_triangles(v.cells, sc, iso, k * kIdBlocks, std::min(nblk, (k + 1) * kIdBlocks),
                               out);
      };
      rc = loop(npieces, seq, [&](size_t b, size_t e) {
        for (size_t k = b; k < e; k++) count[k] = piece(k, nullptr);
      });
      size_t total = 0;
      for (size_t k = 0; k < npieces; k++) {
        const size_t n = count[k];
        count[k] = total;
        total += n;
      }
      if (!rc && total != s->parts[p].ntris()) {
        s->msg = "internal error: the source cells count " + std::to_string(total) +
                 " triangles, the surface has " + std::to_string(s->parts[p].ntris());
        rc = -EPROTO;
      }
      if (!rc)
        rc = loop(npieces, seq, [&](size_t b, size_t e) {
          for (size_t k = b; k < e; k++) piece(k, ids + count[k]);
        });
    });
    if (rc) return rc;
  }
  return 0;
}

int cell_data(const request &req, bool seq, surface::impl *s) {
  for (size_t i = 0; i < req.cell_data.size(); i++) {
    const array &a = req.cell_data[i];
    OutArray &o = s->cdata[i];
    const size_t tb = (size_t)a.components * dtype_size(a.type);
    o.type = a.type;
    o.components = a.components;
    o.count = s->ntris;
    o.bytes.resize(s->ntris * tb);
    const unsigned char *in = static_cast<const unsigned char *>(a.data);
    unsigned char *out = o.bytes.data();
    const int64_t *ids = s->cell_ids.data();
    const int rc = loop(s->ntris, seq, [&](size_t b, size_t e) {
      for (size_t f = b; f < e; f++) std::memcpy(out + f * tb, in + (size_t)ids[f] * tb, tb);
    });
    if (rc) return rc;
  }
  return 0;
}

/* Point normals: each triangle's unit normal added to its three points in
 * triangle order (sequential: the sums' rounding is the same at any worker
 * count), then normalised. */
void normals(surface::impl *s) {
  std::vector<double> sum(3 * s->npts, 0.0);
  for (size_t f = 0; f < s->ntris; f++) {
    const int64_t *t = s->tris + 3 * f;
    const double *a = s->pts + 3 * t[0], *b = s->pts + 3 * t[1], *c = s->pts + 3 * t[2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
           v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, n[3];
    ::iso::cross(u, v, n);
    const double len = std::sqrt(::iso::dot(n, n));
    if (len == 0) continue;
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) sum[3 * (size_t)t[k] + (size_t)j] += n[j] / len;
  }
  s->normals.resize(3 * s->npts);
  for (size_t p = 0; p < s->npts; p++) {
    const double *n = &sum[3 * p];
    const double len = std::sqrt(::iso::dot(n, n));
    for (int j = 0; j < 3; j++) s->normals[3 * p + (size_t)j] = len > 0 ? (float)(n[j] / len) : 0.f;
  }
}

} // namespace

int compute_attributes(const input &in, const request &req, bool seq, surface::impl *s) {
  try {
    s->pdata.resize(req.point_data.size());
    s->cdata.resize(req.cell_data.size());
    int rc = point_data(req, seq, s);
    if (!rc && (req.cell_ids || !req.cell_data.empty())) rc = cell_ids(req, seq, s);
    if (!rc) rc = cell_data(req, seq, s);
    if (rc) {
      if (s->msg.empty()) s->msg = std::string("the attributes: ") + adapt_strerror(rc);
      return rc;
    }
    s->has_ids = req.cell_ids;
    if (req.normals) normals(s);
    s->has_normals = req.normals;
    if (req.scalars) {
      s->scalars.resize(s->npts);
      for (size_t p = 0; p < s->parts.size(); p++)
        std::fill(s->scalars.begin() + (ptrdiff_t)s->first_pt[p],
                  s->scalars.begin() + (ptrdiff_t)s->first_pt[p + 1], req.values[p]);
    }
    s->has_scalars = req.scalars;
  } catch (const std::bad_alloc &) {
    s->msg = "out of memory computing the attributes";
    return -ENOMEM;
  }
  return 0;
}

} // namespace internal
} // namespace iso
} // namespace adapt
