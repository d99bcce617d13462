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

/* Ids per chunk of the ids' check. */
constexpr size_t kCheckIds = 65536;

/* The largest of p[0, n): four running maxima in named locals, which the
 * compiler keeps in registers (a compare and a conditional move per id; an
 * array of maxima stayed in memory at -O2: 10 instructions per id). */
template <class U>
U max_of(const U *p, size_t n) {
  U m0 = 0, m1 = 0, m2 = 0, m3 = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    m0 = p[i] > m0 ? p[i] : m0;
    m1 = p[i + 1] > m1 ? p[i + 1] : m1;
    m2 = p[i + 2] > m2 ? p[i + 2] : m2;
    m3 = p[i + 3] > m3 ? p[i + 3] : m3;
  }
  for (; i < n; i++) m0 = p[i] > m0 ? p[i] : m0;
  return std::max(std::max(m0, m1), std::max(m2, m3));
}

/* ids[0, n) in [0, npts): the largest of each chunk as unsigned (a
 * negative id is then larger than any count), a loop the compiler
 * vectorises; the first bad id found again in the first bad chunk. `per`:
 * ids per cell (its index in the message; 0: the message says "id"). */
template <class I>
int check_ids(const I *ids, size_t n, size_t npts, size_t per, bool seq, std::string *msg) {
  using U = typename std::make_unsigned<I>::type;
  const size_t nch = (n + kCheckIds - 1) / kCheckIds;
  std::vector<U> most(nch);
  const int rc = loop(nch, seq, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; k++)
      most[k] = max_of(reinterpret_cast<const U *>(ids) + k * kCheckIds,
                       std::min(n, (k + 1) * kCheckIds) - k * kCheckIds);
  });
  if (rc) {
    *msg = std::string("checking the ids: ") + adapt_strerror(rc);
    return rc;
  }
  for (size_t k = 0; k < nch; k++)
    if ((uint64_t)most[k] >= npts)
      for (size_t i = k * kCheckIds; i < std::min(n, (k + 1) * kCheckIds); i++)
        if ((uint64_t)(U)ids[i] >= npts) {
          *msg = per ? id_message(i / per, (long long)ids[i], npts)
                     : "connectivity[" + num(i) + "]: point id " +
                           std::to_string((long long)ids[i]) + " outside [0, " + num(npts) + ")";
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

/* Cell c of VTK's cell arrays: 0, or its error (message in *msg). */
template <class O>
int check_cell(const O *off, const uint8_t *types, size_t c, size_t nconn, std::string *msg) {
  const int np = ::iso::cell_points(types[c]);
  if (!np) {
    *msg = type_message(c, types[c]);
    return -ENOTSUP;
  }
  if (off[c + 1] < off[c] || (uint64_t)(off[c + 1] - off[c]) != (uint64_t)np ||
      (uint64_t)off[c + 1] > nconn) {
    *msg = "cell " + num(c) + ": offsets " + std::to_string((long long)off[c]) + " to " +
           std::to_string((long long)off[c + 1]) + " for type " + std::to_string(types[c]) + " (" +
           std::to_string(np) + " points, " + num(nconn) + " ids in all)";
    return -EINVAL;
  }
  return 0;
}

/* VTK's cell arrays checked: the first and last offsets, each cell's type
 * and offsets (in parallel unless seq; the first bad cell's error), then
 * the ids. */
template <class O, class I>
int check_cells(const O *off, const I *conn, const uint8_t *types, size_t ncells, size_t nconn,
                size_t npts, bool seq, std::string *msg) {
  if (off[0] != 0 || (uint64_t)off[ncells] != nconn) {
    *msg = "offsets: the first must be 0 and the last " + num(nconn) + " (connectivity count)";
    return -EINVAL;
  }
  auto bad = [&](size_t c) {
    const int np = ::iso::cell_points(types[c]);
    return !np || off[c + 1] < off[c] || (uint64_t)(off[c + 1] - off[c]) != (uint64_t)np ||
           (uint64_t)off[c + 1] > nconn;
  };
  int rc = 0;
  const size_t c = first_bad(ncells, kCheckIds, seq, bad, &rc);
  if (rc) {
    *msg = std::string("checking the cells: ") + adapt_strerror(rc);
    return rc;
  }
  if (c < ncells) return check_cell(off, types, c, nconn, msg);
  return check_ids(conn, nconn, npts, 0, seq, msg);
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

/* Does in give VTK's cell arrays (offsets, types), rather than tetrahedra? */
bool is_mixed(const input &in) {
  return in.offsets.data || in.types.data || in.offsets.count || in.types.count;
}

/* in's connectivity ids below npts (check_ids; the message names a cell
 * for tetrahedra, an index into the connectivity for VTK's cell arrays). */
int check_connectivity(const input &in, bool seq, std::string *msg) {
  const array &cn = in.connectivity;
  int rc = 0;
  with_type(cn.type, [&](auto z) {
    using I = decltype(z);
    if constexpr (std::is_integral<I>::value)
      rc = check_ids(static_cast<const I *>(cn.data), cn.count, in.points.count,
                     is_mixed(in) ? 0 : 4, seq, msg);
  });
  return rc;
}

int check_vtk_cells(const input &in, bool seq, std::string *msg);

/* in's ids, read as 4 a cell in place (src), checked by the cell phase
 * below src->id_bound: npts, or at most 2^31 for signed 32-bit ids (a
 * negative one, read as unsigned, is then 2^31 or more); with no points,
 * where every id is outside, checked now (the cells first on VTK's
 * arrays, as check_deferred). */
int defer_ids(const input &in, bool seq, ::iso::CellSource *src, std::string *msg) {
  const uint64_t most = in.connectivity.type == dtype::int32 ? (uint64_t)1 << 31 : UINT64_MAX;
  src->id_bound = std::min<uint64_t>(in.points.count, most);
  if (src->id_bound) return 0;
  return is_mixed(in) ? check_vtk_cells(in, seq, msg) : check_connectivity(in, seq, msg);
}

/* Tetrahedra, 4 ids each: read in place, their ids checked by the cell
 * phase (CellSource::id_bound; check_deferred for the message). */
int prepare_tets(const input &in, bool seq, ::iso::CellSource *src, std::string *msg) {
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
  return defer_ids(in, seq, src, msg);
}

/* Bits set in t[0, n) ^ 10 (0: every type is VTK_TETRA), 8 types a
 * 64-bit word at a time (a byte loop took 7 instructions a cell: the
 * compiler does not vectorise it at -O2). */
inline uint64_t other_types(const uint8_t *t, size_t n) {
  const uint64_t tetra = 0x0A0A0A0A0A0A0A0AULL;
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, t + i, sizeof w);
    acc |= w ^ tetra;
  }
  for (; i < n; i++) acc |= (uint64_t)(t[i] ^ 10);
  return acc;
}

/* Are VTK's cell arrays tetrahedra only (type 10, nconn = 4 ncells, the
 * first offset 0)? Then their offsets are 4c or the arrays are malformed
 * (a tetrahedron of another size: check_cells's error), which the cell
 * phase checks (CellSource::tet_offsets). The types in parallel unless
 * seq (other_types); false on an error of the loop (check_cells then
 * reports it). */
template <class O>
bool all_tets(const O *off, const uint8_t *types, size_t ncells, size_t nconn, bool seq) {
  if (nconn / 4 != ncells || nconn % 4 || off[0] != 0) return false;
  const size_t nch = (ncells + kCheckIds - 1) / kCheckIds;
  std::vector<uint64_t> other(nch);
  const int rc = loop(nch, seq, [&](size_t b, size_t e) {
    for (size_t k = b; k < e; k++)
      other[k] = other_types(types + k * kCheckIds, std::min(ncells - k * kCheckIds, kCheckIds));
  });
  return !rc && std::all_of(other.begin(), other.end(), [](uint64_t a) { return a == 0; });
}

/* check_cells on in's VTK cell arrays (check_mixed passed), each width. */
int check_vtk_cells(const input &in, bool seq, std::string *msg) {
  const array &cn = in.connectivity;
  const size_t n = in.types.count, npts = in.points.count;
  const void *off = in.offsets.data;
  const uint8_t *t = static_cast<const uint8_t *>(in.types.data);
  const bool off64 = in.offsets.type == dtype::int64, conn64 = cn.type == dtype::int64;
  if (off64 && conn64)
    return check_cells((const int64_t *)off, (const int64_t *)cn.data, t, n, cn.count, npts, seq,
                       msg);
  if (off64)
    return check_cells((const int64_t *)off, (const int32_t *)cn.data, t, n, cn.count, npts, seq,
                       msg);
  if (conn64)
    return check_cells((const int32_t *)off, (const int64_t *)cn.data, t, n, cn.count, npts, seq,
                       msg);
  return check_cells((const int32_t *)off, (const int32_t *)cn.data, t, n, cn.count, npts, seq,
                     msg);
}

/* VTK's cell arrays: checked, read in place and split block by block, or,
 * when they hold tetrahedra only (all_tets), read as 4 ids a cell (a
 * block copied as is, no split: the same tetrahedra in the same order),
 * their offsets and ids checked by the cell phase. */
int prepare_mixed(const input &in, bool seq, ::iso::CellSource *src, std::string *msg) {
  if (int rc = check_mixed(in, msg)) return rc;
  const array &cn = in.connectivity;
  src->kind = ::iso::CellSource::Kind::Mixed;
  src->ncells = in.types.count;
  src->conn = cn.data;
  src->offsets = in.offsets.data;
  src->types = static_cast<const uint8_t *>(in.types.data);
  src->off64 = in.offsets.type == dtype::int64;
  src->conn64 = cn.type == dtype::int64;
  const size_t n = src->ncells;
  const uint8_t *t = src->types;
  if (src->off64 ? all_tets((const int64_t *)src->offsets, t, n, cn.count, seq)
                 : all_tets((const int32_t *)src->offsets, t, n, cn.count, seq)) {
    src->kind = src->conn64 ? ::iso::CellSource::Kind::Tets64 : ::iso::CellSource::Kind::Tets;
    src->tets = src->conn64 ? nullptr : static_cast<const ::iso::Tet *>(cn.data);
    src->tet_offsets = src->offsets;
    return defer_ids(in, seq, src, msg);
  }
  return check_vtk_cells(in, seq, msg);
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

int prepare_input(const input &in, bool seq, Prepared *prep, std::string *msg) {
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
  return is_mixed(in) ? prepare_mixed(in, seq, &v.cells, msg)
                      : prepare_tets(in, seq, &v.cells, msg);
}

int check_deferred(const input &in, bool seq, std::string *msg) {
  return is_mixed(in) ? check_vtk_cells(in, seq, msg) : check_connectivity(in, seq, msg);
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
