/* apps/isosurface/core: the cells as the extraction reads them from a
 * MeshView (mt.h, CellSource): blocks of tetrahedra, the split of the
 * linear 3D cells, their footprint. */
#include "iso_config.h"
#include "mt.h"

#include <algorithm>
#include <cstring>

namespace iso {

static_assert(ISO_CELL_BLOCK >= kMaxSplitTets, "a block holds one split cell");

MeshView view_of(const Mesh &m) {
  MeshView v;
  v.pts = m.pts.data();
  v.pts_float = false;
  v.sc = m.scalars.data();
  v.st = ScalarType::F64;
  v.npts = m.pts.size();
  v.cells.kind = CellSource::Kind::Tets;
  v.cells.tets = m.tets.data();
  v.cells.ncells = m.tets.size();
  return v;
}

namespace {

/* The faces of each linear 3D cell (VTK's local numbering): quads as
 * cyclic lists, triangles with -1 last. */
struct CellShape {
  int npoints, nfaces;
  int face[6][4];
};
const CellShape kVoxel = {
    8, 6, {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {1, 3, 7, 5}, {3, 2, 6, 7}, {2, 0, 4, 6}}};
const CellShape kHexa = {
    8, 6, {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
const CellShape kWedge = {
    6, 5, {{0, 1, 2, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}};
const CellShape kPyramid = {
    5, 5, {{0, 1, 2, 3}, {0, 1, 4, -1}, {1, 2, 4, -1}, {2, 3, 4, -1}, {3, 0, 4, -1}}};

const CellShape *shape_of(uint8_t type) {
  switch (type) {
  case 11: return &kVoxel;
  case 12: return &kHexa;
  case 13: return &kWedge;
  case 14: return &kPyramid;
  default: return nullptr;
  }
}

/* Cell c's ids of a Mixed source into p (their count returned). */
template <class O, class I>
int mixed_ids(const O *off, const I *conn, size_t c, uint32_t *p) {
  const size_t b = (size_t)off[c], n = (size_t)off[c + 1] - b;
  for (size_t k = 0; k < n; k++) p[k] = (uint32_t)conn[b + k];
  return (int)n;
}

/* Cells [c0, c1) of a Mixed source split into out. */
template <class O, class I>
size_t fill_mixed(const CellSource &s, size_t c0, size_t c1, Tet *out, size_t *cell_of) {
  const O *off = static_cast<const O *>(s.offsets);
  const I *conn = static_cast<const I *>(s.conn);
  size_t n = 0;
  for (size_t c = c0; c < c1; c++) {
    uint32_t p[8];
    mixed_ids(off, conn, c, p);
    const int k = split_cell(s.types[c], p, out + n);
    if (cell_of)
      for (int j = 0; j < k; j++) cell_of[n + (size_t)j] = c;
    n += (size_t)k;
  }
  return n;
}

} // namespace

int cell_points(uint8_t type) {
  if (type == 10) return 4;
  const CellShape *s = shape_of(type);
  return s ? s->npoints : 0;
}

int split_cell(uint8_t type, const uint32_t *p, Tet *out) {
  if (type == 10) {
    out[0] = Tet{{p[0], p[1], p[2], p[3]}};
    return 1;
  }
  const CellShape *s = shape_of(type);
  if (!s) return 0;
  int v = 0;
  for (int k = 1; k < s->npoints; k++)
    if (p[k] < p[v]) v = k;
  int n = 0;
  for (int f = 0; f < s->nfaces; f++) {
    const int *fc = s->face[f];
    const int nv = fc[3] < 0 ? 3 : 4;
    bool has_v = false;
    for (int k = 0; k < nv; k++) has_v |= fc[k] == v;
    if (has_v) continue;
    if (nv == 3) {
      out[n++] = Tet{{p[v], p[fc[0]], p[fc[1]], p[fc[2]]}};
      continue;
    }
    int m = 0;
    for (int k = 1; k < 4; k++)
      if (p[fc[k]] < p[fc[m]]) m = k;
    const uint32_t a = p[fc[m]], b = p[fc[(m + 1) & 3]], c = p[fc[(m + 2) & 3]],
                   d = p[fc[(m + 3) & 3]];
    out[n++] = Tet{{p[v], a, b, c}};
    out[n++] = Tet{{p[v], a, c, d}};
  }
  return n;
}

size_t cells_per_block(const CellSource &src) {
  return src.kind == CellSource::Kind::Mixed ? ISO_CELL_BLOCK / kMaxSplitTets : ISO_CELL_BLOCK;
}

size_t source_blocks(const CellSource &src) {
  const size_t per = cells_per_block(src);
  return (src.ncells + per - 1) / per;
}

size_t fill_block(const CellSource &src, size_t blk, Tet *out, size_t *cell_of) {
  const size_t per = cells_per_block(src), c0 = blk * per,
               c1 = std::min(src.ncells, (blk + 1) * per);
  switch (src.kind) {
  case CellSource::Kind::Tets:
    std::memcpy(static_cast<void *>(out), src.tets + c0, (c1 - c0) * sizeof(Tet));
    break;
  case CellSource::Kind::Tets64: {
    const uint64_t *ids = static_cast<const uint64_t *>(src.conn);
    for (size_t c = c0; c < c1; c++)
      for (int k = 0; k < 4; k++) out[c - c0].v[k] = (uint32_t)ids[4 * c + (size_t)k];
    break;
  }
  case CellSource::Kind::Mixed:
    if (src.off64 && src.conn64) return fill_mixed<int64_t, int64_t>(src, c0, c1, out, cell_of);
    if (src.off64) return fill_mixed<int64_t, int32_t>(src, c0, c1, out, cell_of);
    if (src.conn64) return fill_mixed<int32_t, int64_t>(src, c0, c1, out, cell_of);
    return fill_mixed<int32_t, int32_t>(src, c0, c1, out, cell_of);
  }
  if (cell_of)
    for (size_t c = c0; c < c1; c++) cell_of[c - c0] = c;
  return c1 - c0;
}

uint32_t cell_min_id(const CellSource &src, size_t c) {
  uint32_t p[8];
  int n = 4;
  switch (src.kind) {
  case CellSource::Kind::Tets: std::memcpy(p, src.tets[c].v, sizeof src.tets[c].v); break;
  case CellSource::Kind::Tets64:
    for (int k = 0; k < 4; k++)
      p[k] = (uint32_t) static_cast<const uint64_t *>(src.conn)[4 * c + (size_t)k];
    break;
  case CellSource::Kind::Mixed:
    if (src.off64 && src.conn64)
      n = mixed_ids((const int64_t *)src.offsets, (const int64_t *)src.conn, c, p);
    else if (src.off64)
      n = mixed_ids((const int64_t *)src.offsets, (const int32_t *)src.conn, c, p);
    else if (src.conn64)
      n = mixed_ids((const int32_t *)src.offsets, (const int64_t *)src.conn, c, p);
    else
      n = mixed_ids((const int32_t *)src.offsets, (const int32_t *)src.conn, c, p);
    break;
  }
  return *std::min_element(p, p + n);
}

} // namespace iso
