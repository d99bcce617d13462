/* apps/isosurface/core: the checks of <adapt/iso.hpp>'s input and the
 * mesh the extraction core reads from it (iso_internal.h): points,
 * scalars, tetrahedra or linear 3D cells split into tetrahedra. */
#include "iso_internal.h"

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

std::string num(size_t v) { return std::to_string(v); }

/* a's bytes fit in size_t, a.data is set when a has elements, a has
 * `components` components (0: any, at least 1). 0 or a negative errno
 * with the message (naming `what`) in *msg. */
int check_array(const array &a, const char *what, int components, std::string *msg) {
  const size_t es = dtype_size(a.type);
  if (es == 0) {
    *msg = std::string(what) + ": unknown dtype " + std::to_string((int)a.type);
    return -EINVAL;
  }
  if (components ? a.components != components : a.components < 1) {
    *msg = std::string(what) + ": " + std::to_string(a.components) + " components, expected " +
           (components ? std::to_string(components) : std::string("at least 1"));
    return -EINVAL;
  }
  if (a.count > SIZE_MAX / (size_t)a.components / es) {
    *msg = std::string(what) + ": " + num(a.count) + " tuples overflow size_t bytes";
    return -EOVERFLOW;
  }
  if (a.count && !a.data) {
    *msg = std::string(what) + ": NULL data for " + num(a.count) + " tuples";
    return -EINVAL;
  }
  return 0;
}

bool is_id_type(dtype t, bool unsigned_ok) {
  return t == dtype::int32 || t == dtype::int64 ||
         (unsigned_ok && (t == dtype::uint32 || t == dtype::uint64));
}

/* The points (float32 or float64) as the core's doubles. */
int convert_points(const array &a, ::iso::Mesh *m, std::string *msg) {
  if (a.type != dtype::float32 && a.type != dtype::float64) {
    *msg = "points: dtype must be float32 or float64";
    return -EINVAL;
  }
  m->pts.resize(a.count);
  if (a.type == dtype::float64) {
    if (a.count) std::memcpy(m->pts.data(), a.data, a.count * sizeof(::iso::Point));
  } else {
    const float *f = static_cast<const float *>(a.data);
    for (size_t p = 0; p < a.count; p++)
      m->pts[p] = ::iso::Point{f[3 * p], f[3 * p + 1], f[3 * p + 2]};
  }
  return 0;
}

void convert_scalars(const array &a, ::iso::Mesh *m) {
  m->scalars.resize(a.count);
  with_type(a.type, [&](auto z) {
    using T = decltype(z);
    const T *s = static_cast<const T *>(a.data);
    for (size_t p = 0; p < a.count; p++) m->scalars[p] = (double)s[p];
  });
}

/* Is id outside [0, n)? */
template <class I>
bool outside(I id, size_t n) {
  if constexpr (std::is_signed<I>::value)
    if (id < 0) return true;
  return (uint64_t)id >= n;
}

std::string id_message(size_t c, long long id, size_t npts) {
  return "cell " + num(c) + ": point id " + std::to_string(id) + " outside [0, " + num(npts) + ")";
}

/* The tetrahedra of a 4-ids-per-cell connectivity, range-checked. */
template <class I>
int copy_tets(const I *ids, size_t ntets, size_t npts, ::iso::Mesh *m, std::string *msg) {
  m->tets.resize(ntets);
  for (size_t c = 0; c < ntets; c++)
    for (int k = 0; k < 4; k++) {
      const I id = ids[4 * c + (size_t)k];
      if (outside(id, npts)) {
        *msg = id_message(c, (long long)id, npts);
        return -ERANGE;
      }
      m->tets[c].v[k] = (uint32_t)id;
    }
  return 0;
}

/* The faces of each linear 3D cell (VTK's vertex numbering): quads as
 * cyclic lists, triangles with -1 last. */
struct CellShape {
  int npoints, ntets, nfaces;
  int face[6][4];
};
const CellShape kTetra = {4, 1, 4, {{1, 2, 3, -1}, {0, 2, 3, -1}, {0, 1, 3, -1}, {0, 1, 2, -1}}};
const CellShape kVoxel = {
    8, 6, 6, {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {1, 3, 7, 5}, {3, 2, 6, 7}, {2, 0, 4, 6}}};
const CellShape kHexa = {
    8, 6, 6, {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
const CellShape kWedge = {
    6, 3, 5, {{0, 1, 2, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}};
const CellShape kPyramid = {
    5, 2, 5, {{0, 1, 2, 3}, {0, 1, 4, -1}, {1, 2, 4, -1}, {2, 3, 4, -1}, {3, 0, 4, -1}}};

const CellShape *shape_of(uint8_t type) {
  switch (type) {
  case tetra: return &kTetra;
  case voxel: return &kVoxel;
  case hexahedron: return &kHexa;
  case wedge: return &kWedge;
  case pyramid: return &kPyramid;
  default: return nullptr;
  }
}

/* Split one cell (its global ids p[0 .. npoints)) into tetrahedra at out:
 * the vertex of smallest id joined to the faces without it, each quad cut
 * by the diagonal through its vertex of smallest id. Returns how many. */
int split_cell(const CellShape &s, const uint32_t *p, ::iso::Tet *out) {
  if (s.npoints == 4) {
    out[0] = ::iso::Tet{{p[0], p[1], p[2], p[3]}};
    return 1;
  }
  int v = 0;
  for (int k = 1; k < s.npoints; k++)
    if (p[k] < p[v]) v = k;
  int n = 0;
  for (int f = 0; f < s.nfaces; f++) {
    const int *fc = s.face[f];
    const int nv = fc[3] < 0 ? 3 : 4;
    bool has_v = false;
    for (int k = 0; k < nv; k++) has_v |= fc[k] == v;
    if (has_v) continue;
    if (nv == 3) {
      out[n++] = ::iso::Tet{{p[v], p[fc[0]], p[fc[1]], p[fc[2]]}};
      continue;
    }
    int m = 0;
    for (int k = 1; k < 4; k++)
      if (p[fc[k]] < p[fc[m]]) m = k;
    const uint32_t a = p[fc[m]], b = p[fc[(m + 1) & 3]], c = p[fc[(m + 2) & 3]],
                   d = p[fc[(m + 3) & 3]];
    out[n++] = ::iso::Tet{{p[v], a, b, c}};
    out[n++] = ::iso::Tet{{p[v], a, c, d}};
  }
  return n;
}

std::string type_message(size_t c, unsigned type) {
  /* VTK's vertex, poly-vertex, line, poly-line, triangle, strip, polygon,
   * pixel, quad. */
  const bool flat = type >= 1 && type <= 9;
  return "cell " + num(c) + ": type " + std::to_string(type) +
         (flat ? " is not a 3D cell (the surface of a 2D or 1D cell is not defined)"
               : " is not a linear 3D cell (tetra 10, voxel 11, hexahedron 12, wedge 13, "
                 "pyramid 14)");
}

/* Offsets, types and ids of the cells checked; the number of tetrahedra
 * of their split into *ntets. */
template <class O>
int count_cells(const O *off, const uint8_t *types, size_t ncells, size_t nconn, size_t *ntets,
                std::string *msg) {
  if (off[0] != 0 || (uint64_t)off[ncells] != nconn) {
    *msg = "offsets: the first must be 0 and the last " + num(nconn) + " (connectivity count)";
    return -EINVAL;
  }
  size_t n = 0;
  for (size_t c = 0; c < ncells; c++) {
    const CellShape *s = shape_of(types[c]);
    if (!s) {
      *msg = type_message(c, types[c]);
      return -ENOTSUP;
    }
    if (off[c + 1] < off[c] || (uint64_t)(off[c + 1] - off[c]) != (uint64_t)s->npoints) {
      *msg = "cell " + num(c) + ": " + std::to_string((long long)(off[c + 1] - off[c])) +
             " points for type " + std::to_string(types[c]) + " (expected " +
             std::to_string(s->npoints) + ")";
      return -EINVAL;
    }
    n += (size_t)s->ntets;
  }
  *ntets = n;
  return 0;
}

template <class O, class I>
int split_cells(const O *off, const I *conn, const uint8_t *types, size_t ncells, size_t npts,
                Prepared *prep, std::string *msg) {
  size_t ntets = 0;
  if (const int rc = count_cells(off, types, ncells, (size_t)off[ncells], &ntets, msg)) return rc;
  prep->mesh.tets.resize(ntets);
  prep->parent.resize(ntets);
  size_t at = 0;
  for (size_t c = 0; c < ncells; c++) {
    const CellShape &s = *shape_of(types[c]);
    uint32_t p[8];
    for (int k = 0; k < s.npoints; k++) {
      const I id = conn[(size_t)off[c] + (size_t)k];
      if (outside(id, npts)) {
        *msg = id_message(c, (long long)id, npts);
        return -ERANGE;
      }
      p[k] = (uint32_t)id;
    }
    const int n = split_cell(s, p, prep->mesh.tets.data() + at);
    for (int k = 0; k < n; k++) prep->parent[at + (size_t)k] = (int64_t)c;
    at += (size_t)n;
  }
  return 0;
}

int check_mixed(const input &in, std::string *msg) {
  if (int rc = check_array(in.offsets, "offsets", 1, msg)) return rc;
  if (int rc = check_array(in.types, "types", 1, msg)) return rc;
  if (!is_id_type(in.offsets.type, false) || !is_id_type(in.connectivity.type, false)) {
    *msg = "offsets and connectivity: dtype must be int32 or int64";
    return -EINVAL;
  }
  if (in.types.type != dtype::uint8) {
    *msg = "types: dtype must be uint8";
    return -EINVAL;
  }
  if (in.offsets.count != in.types.count + 1) {
    *msg = "offsets: " + num(in.offsets.count) + " tuples for " + num(in.types.count) +
           " cells (expected cells + 1)";
    return -EINVAL;
  }
  return 0;
}

/* The cells of in into prep (tetrahedra copied, or cells split). */
int prepare_cells(const input &in, Prepared *prep, std::string *msg) {
  const size_t npts = in.points.count;
  const array &cn = in.connectivity;
  if (int rc = check_array(cn, "connectivity", 1, msg)) return rc;
  prep->split = in.offsets.data || in.types.data || in.offsets.count || in.types.count;
  if (!prep->split) {
    if (!is_id_type(cn.type, true) || cn.count % 4) {
      *msg = "connectivity: tetrahedra need int32, uint32, int64 or uint64 ids, 4 per cell (" +
             num(cn.count) + " ids)";
      return -EINVAL;
    }
    prep->ncells = cn.count / 4;
    int rc = 0;
    with_type(cn.type, [&](auto z) {
      using I = decltype(z);
      rc = copy_tets(static_cast<const I *>(cn.data), cn.count / 4, npts, &prep->mesh, msg);
    });
    return rc;
  }
  if (int rc = check_mixed(in, msg)) return rc;
  prep->ncells = in.types.count;
  const uint8_t *types = static_cast<const uint8_t *>(in.types.data);
  int rc = 0;
  const bool o64 = in.offsets.type == dtype::int64, c64 = cn.type == dtype::int64;
  if (o64 && c64)
    rc = split_cells((const int64_t *)in.offsets.data, (const int64_t *)cn.data, types,
                     prep->ncells, npts, prep, msg);
  else if (o64)
    rc = split_cells((const int64_t *)in.offsets.data, (const int32_t *)cn.data, types,
                     prep->ncells, npts, prep, msg);
  else if (c64)
    rc = split_cells((const int32_t *)in.offsets.data, (const int64_t *)cn.data, types,
                     prep->ncells, npts, prep, msg);
  else
    rc = split_cells((const int32_t *)in.offsets.data, (const int32_t *)cn.data, types,
                     prep->ncells, npts, prep, msg);
  return rc;
}

} // namespace

int prepare_input(const input &in, Prepared *prep, std::string *msg) {
  if (int rc = check_array(in.points, "points", 3, msg)) return rc;
  if (int rc = check_array(in.scalars, "scalars", 1, msg)) return rc;
  if (in.scalars.count != in.points.count) {
    *msg = "scalars: " + num(in.scalars.count) + " values for " + num(in.points.count) + " points";
    return -EINVAL;
  }
  if ((uint64_t)in.points.count >= ::iso::kMaxMeshPoints) {
    *msg = "too many points (" + num(in.points.count) + ", at most " +
           num(::iso::kMaxMeshPoints - 1) + ")";
    return -EOVERFLOW;
  }
  try {
    if (int rc = prepare_cells(in, prep, msg)) return rc;
    if (int rc = convert_points(in.points, &prep->mesh, msg)) return rc;
    convert_scalars(in.scalars, &prep->mesh);
  } catch (const std::bad_alloc &) {
    *msg = "out of memory converting the input";
    return -ENOMEM;
  }
  return 0;
}

int check_request(const input &in, const request &req, size_t ncells, std::string *msg) {
  for (size_t i = 0; i < req.values.size(); i++)
    if (!std::isfinite(req.values[i])) {
      *msg = "values[" + num(i) + "] is not finite";
      return -EINVAL;
    }
  for (size_t i = 0; i < req.point_data.size(); i++) {
    const std::string what = "point_data[" + num(i) + "]";
    if (int rc = check_array(req.point_data[i], what.c_str(), 0, msg)) return rc;
    if (req.point_data[i].count != in.points.count) {
      *msg = what + ": " + num(req.point_data[i].count) + " tuples for " + num(in.points.count) +
             " points";
      return -EINVAL;
    }
  }
  for (size_t i = 0; i < req.cell_data.size(); i++) {
    const std::string what = "cell_data[" + num(i) + "]";
    if (int rc = check_array(req.cell_data[i], what.c_str(), 0, msg)) return rc;
    if (req.cell_data[i].count != ncells) {
      *msg = what + ": " + num(req.cell_data[i].count) + " tuples for " + num(ncells) + " cells";
      return -EINVAL;
    }
  }
  return 0;
}

} // namespace internal

std::size_t dtype_size(dtype t) noexcept {
  size_t s = 0;
  internal::with_type(t, [&](auto z) { s = sizeof(z); });
  return s;
}

} // namespace iso
} // namespace adapt
