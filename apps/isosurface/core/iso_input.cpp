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

/* The ids of ncells cells of `per` ids each in range. */
template <class I>
int check_tet_ids(const I *ids, size_t ncells, size_t npts, std::string *msg) {
  for (size_t i = 0; i < 4 * ncells; i++)
    if (outside(ids[i], npts)) {
      *msg = id_message(i / 4, (long long)ids[i], npts);
      return -ERANGE;
    }
  return 0;
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

/* Offsets, types and ids of VTK's cell arrays checked. */
template <class O, class I>
int check_cells(const O *off, const I *conn, const uint8_t *types, size_t ncells, size_t nconn,
                size_t npts, std::string *msg) {
  if (off[0] != 0 || (uint64_t)off[ncells] != nconn) {
    *msg = "offsets: the first must be 0 and the last " + num(nconn) + " (connectivity count)";
    return -EINVAL;
  }
  for (size_t c = 0; c < ncells; c++) {
    const int np = ::iso::cell_points(types[c]);
    if (!np) {
      *msg = type_message(c, types[c]);
      return -ENOTSUP;
    }
    if (off[c + 1] < off[c] || (uint64_t)(off[c + 1] - off[c]) != (uint64_t)np) {
      *msg = "cell " + num(c) + ": " + std::to_string((long long)(off[c + 1] - off[c])) +
             " points for type " + std::to_string(types[c]) + " (expected " + std::to_string(np) +
             ")";
      return -EINVAL;
    }
    for (size_t k = (size_t)off[c]; k < (size_t)off[c + 1]; k++)
      if (outside(conn[k], npts)) {
        *msg = id_message(c, (long long)conn[k], npts);
        return -ERANGE;
      }
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

/* Tetrahedra, 4 ids each: checked, read in place. */
int prepare_tets(const input &in, ::iso::CellSource *src, std::string *msg) {
  const array &cn = in.connectivity;
  if (!is_id_type(cn.type, true) || cn.count % 4) {
    *msg = "connectivity: tetrahedra need int32, uint32, int64 or uint64 ids, 4 per cell (" +
           num(cn.count) + " ids)";
    return -EINVAL;
  }
  src->ncells = cn.count / 4;
  const bool wide = dtype_size(cn.type) == 8;
  src->kind = wide ? ::iso::CellSource::Kind::Tets64 : ::iso::CellSource::Kind::Tets;
  src->tets = wide ? nullptr : static_cast<const ::iso::Tet *>(cn.data);
  src->conn = cn.data;
  int rc = 0;
  with_type(cn.type, [&](auto z) {
    using I = decltype(z);
    rc = check_tet_ids(static_cast<const I *>(cn.data), src->ncells, in.points.count, msg);
  });
  return rc;
}

/* VTK's cell arrays: checked, read in place and split block by block. */
int prepare_mixed(const input &in, ::iso::CellSource *src, std::string *msg) {
  if (int rc = check_mixed(in, msg)) return rc;
  const array &cn = in.connectivity;
  src->kind = ::iso::CellSource::Kind::Mixed;
  src->ncells = in.types.count;
  src->conn = cn.data;
  src->offsets = in.offsets.data;
  src->types = static_cast<const uint8_t *>(in.types.data);
  src->off64 = in.offsets.type == dtype::int64;
  src->conn64 = cn.type == dtype::int64;
  const size_t n = src->ncells, npts = in.points.count;
  const uint8_t *t = src->types;
  if (src->off64 && src->conn64)
    return check_cells((const int64_t *)src->offsets, (const int64_t *)cn.data, t, n, cn.count,
                       npts, msg);
  if (src->off64)
    return check_cells((const int64_t *)src->offsets, (const int32_t *)cn.data, t, n, cn.count,
                       npts, msg);
  if (src->conn64)
    return check_cells((const int32_t *)src->offsets, (const int64_t *)cn.data, t, n, cn.count,
                       npts, msg);
  return check_cells((const int32_t *)src->offsets, (const int32_t *)cn.data, t, n, cn.count, npts,
                     msg);
}

::iso::ScalarType scalar_type(dtype t) {
  switch (t) {
  case dtype::int8: return ::iso::ScalarType::I8;
  case dtype::uint8: return ::iso::ScalarType::U8;
  case dtype::int16: return ::iso::ScalarType::I16;
  case dtype::uint16: return ::iso::ScalarType::U16;
  case dtype::int32: return ::iso::ScalarType::I32;
  case dtype::uint32: return ::iso::ScalarType::U32;
  case dtype::int64: return ::iso::ScalarType::I64;
  case dtype::uint64: return ::iso::ScalarType::U64;
  case dtype::float32: return ::iso::ScalarType::F32;
  case dtype::float64: break;
  }
  return ::iso::ScalarType::F64;
}

} // namespace

int prepare_input(const input &in, Prepared *prep, std::string *msg) {
  if (int rc = check_array(in.points, "points", 3, msg)) return rc;
  if (in.points.type != dtype::float32 && in.points.type != dtype::float64) {
    *msg = "points: dtype must be float32 or float64";
    return -EINVAL;
  }
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
  if (int rc = check_array(in.connectivity, "connectivity", 1, msg)) return rc;
  ::iso::MeshView &v = prep->view;
  v = ::iso::MeshView();
  v.pts = in.points.data;
  v.pts_float = in.points.type == dtype::float32;
  v.sc = in.scalars.data;
  v.st = scalar_type(in.scalars.type);
  v.npts = in.points.count;
  const bool mixed = in.offsets.data || in.types.data || in.offsets.count || in.types.count;
  return mixed ? prepare_mixed(in, &v.cells, msg) : prepare_tets(in, &v.cells, msg);
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
