/* apps/isosurface/io: meshes in VTK's parallel XML format read, whole or a
 * range of their pieces (see pieces.h; pieces_write.cpp writes them,
 * pvtp_union.cpp reads a distributed run's surface). */
#include "pieces.h"
#include "file_checks.h"
#include "pieces_shared.h"
#include "pieces_xml.h"
#include "vtk_quiet.h"

#include <vtkAbstractArray.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDataSetAttributes.h>
#include <vtkNew.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <locale>
#include <unordered_map>
#include <vector>

namespace iso {

const char *const kGlobalPointIds = "GlobalPointIds";

namespace {

/* The global id of each mesh point read so far, 8 bytes each, in the
 * bytes of a MeshArray (kGlobalPointIds), so that the mesh can keep them
 * (PieceReadOptions::global_ids) without a copy. */
struct GidColumn {
  MeshArray a;
  GidColumn() {
    a.name = kGlobalPointIds;
    a.type = VTK_ID_TYPE;
    a.elem_size = sizeof(int64_t);
  }
  size_t size() const { return a.bytes.size() / sizeof(int64_t); }
  int64_t operator[](size_t i) const {
    int64_t g;
    std::memcpy(&g, a.bytes.data() + i * sizeof g, sizeof g);
    return g;
  }
  void push(int64_t g) {
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&g);
    a.bytes.insert(a.bytes.end(), b, b + sizeof g);
  }
};

/* Global point id -> mesh point, by open addressing (linear probing) at a
 * load of 3/4 at most: 4-byte slots (8-byte ones from 2^32 - 1 points on)
 * holding a mesh point, whose global id is in the column (8 bytes): 13 to
 * 19 bytes a point while the pieces are read. */
class GidTable {
public:
  void init(size_t npoints) {
    size_t cap = 16;
    while (cap < npoints + npoints / 3 + 2) cap <<= 1;
    wide_ = npoints >= UINT32_MAX;
    if (wide_)
      slots64_.assign(cap, UINT64_MAX);
    else
      slots32_.assign(cap, UINT32_MAX);
    mask_ = cap - 1;
  }
  /* The point of global id g, or `fresh` (the next point, == the points
   * added so far) after adding it (g pushed to col). */
  int64_t find_or_add(int64_t g, int64_t fresh, GidColumn *col) {
    uint64_t h = (uint64_t)g * 0x9e3779b97f4a7c15ull;
    for (size_t at = (size_t)(h ^ (h >> 29)) & mask_;; at = (at + 1) & mask_) {
      const uint64_t s = wide_                        ? slots64_[at]
                         : slots32_[at] == UINT32_MAX ? UINT64_MAX
                                                      : slots32_[at];
      if (s == UINT64_MAX) {
        if (wide_)
          slots64_[at] = (uint64_t)fresh;
        else
          slots32_[at] = (uint32_t)fresh;
        col->push(g);
        return fresh;
      }
      if ((*col)[s] == g) return (int64_t)s;
    }
  }

private:
  std::vector<uint32_t> slots32_;
  std::vector<uint64_t> slots64_;
  size_t mask_ = 0;
  bool wide_ = false;
};

/* Points of the pieces read so far, merged: by global id, else by exact
 * coordinates; their global ids in `gids` while every piece has them and
 * they are wanted (`keep_gids`: kept, or the split's order). */
struct PointMerger {
  bool by_gid = true;
  bool keep_gids = false;
  bool all_gids = true;    /* every point read so far came with its global id */
  bool ghosts_out = false; /* a DUPLICATECELL ghost cell was left out */
  GidTable gid;
  GidColumn gids;
  std::unordered_map<XyzKey, int64_t, XyzHash> xyz;
  bool has_gids(size_t npts) const { return all_gids && gids.size() == npts; }
};

/* Check piece file `path` (check_file) and read its point and cell counts
 * from its header (the data is not read). */
int piece_counts(const PvtuIndex &idx, const std::string &path, size_t *npts, size_t *ncells,
                 std::string *err) {
  if (!regular_file(path, err)) {
    *err = "piece '" + path + "' of '" + idx.path + "': " + *err;
    return -ENOENT;
  }
  if (int rc = check_file(path, FileFormat::Vtu, err)) {
    *err = "piece of '" + idx.path + "': " + *err;
    return rc;
  }
  CaughtReader<vtkXMLUnstructuredGridReader> in(path);
  in.r->UpdateInformation();
  if (in.catcher->failed || in.r->GetErrorCode() != 0) {
    *err = "VTK could not read piece '" + path + "'" + in.reason();
    return -EIO;
  }
  in.r->SetupUpdateExtent(0, 1, 0);
  *npts = (size_t)std::max<vtkIdType>(0, in.r->GetNumberOfPoints());
  *ncells = (size_t)std::max<vtkIdType>(0, in.r->GetNumberOfCells());
  return 0;
}

/* A piece file open for reading its arrays, a chunk at a time, through the
 * parser of VTK's reader (which parsed its XML and set up its byte order,
 * header type and compressor). */
struct PieceFile {
  const std::string &path;
  vtkXMLDataParser *parser;
  const ErrorCatcher &catcher;
  const QuietVtk &quiet;
  std::vector<unsigned char> raw; /* read buffer, one chunk */

  /* Values [start, start + n) of a, converted to T; -EIO (message in
   * *err) if they cannot be read. */
  template <class T>
  int read(const XmlArray &a, uint64_t start, size_t n, std::vector<T> *out, std::string *err) {
    out->resize(n);
    if (read_values(parser, a, start, n, raw, out->data())) return 0;
    const std::string why = vtk_reason(catcher, quiet);
    *err = "VTK could not read piece '" + path + "': array '" + a.name + "'" +
           (why.empty() ? ": values " + std::to_string(start) + " to " + std::to_string(start + n) +
                              " missing or corrupt"
                        : why);
    return -EIO;
  }
};

/* The mesh points of a piece's points (to_mesh[p], or base + p when the
 * pieces are not merged). */
struct PointMap {
  bool merge = false;
  int64_t base = 0;
  std::vector<int64_t> to_mesh;
  int64_t operator()(int64_t p) const { return merge ? to_mesh[(size_t)p] : base + p; }
};

/* What a <Piece> holds, from its XML: its counts and the arrays read (the
 * pointers point into pd). */
struct PieceLayout {
  long long np = 0, nc = 0;
  std::vector<XmlArray> pd, xyz; /* point arrays, the Points' array */
  const XmlArray *s = nullptr;   /* the scalars */
  const XmlArray *g = nullptr;   /* the global point ids, or nullptr */
  PieceLayout() = default;
  PieceLayout(const PieceLayout &) = delete;
};

/* The layout of <Piece> element `piece` of file `path`, checked against the
 * index (the same point arrays) and the pieces read so far (global ids in
 * all or in none when they are merged). */
int piece_layout(const PvtuIndex &idx, const std::string &path, vtkXMLDataElement *piece,
                 const std::string &scalars, bool merge, PointMerger *pm, const Mesh &mesh,
                 PieceLayout *l, std::string *err) {
  if (!piece->GetScalarAttribute("NumberOfPoints", l->np)) l->np = 0;
  if (!piece->GetScalarAttribute("NumberOfCells", l->nc)) l->nc = 0;
  if (l->np < 0 || l->nc < 0) {
    *err = "piece '" + path + "': negative NumberOfPoints or NumberOfCells";
    return -EINVAL;
  }
  vtkXMLDataElement *epd = piece->FindNestedElementWithName("PointData");
  l->pd = xml_arrays(epd);
  const std::string diff = compare_arrays(l->pd, idx.arrays);
  if (!diff.empty()) {
    *err = "piece '" + path + "': point arrays differ from the index '" + idx.path + "': " + diff;
    return -EPROTO;
  }
  const XmlArray *s = l->s = find_array(l->pd, scalars);
  if (!s || s->components != 1 || !numeric_type(s->vtk_type)) {
    *err = "piece '" + path + "': array '" + scalars + "' is " +
           (s ? "not one scalar per point" : "missing");
    return -EINVAL;
  }
  const XmlArray *g = find_array(l->pd, kGlobalPointIds);
  if (!g && epd)
    if (const char *name = epd->GetAttribute("GlobalIds")) g = find_array(l->pd, name);
  if (g && (g->components != 1 || !integer_type(g->vtk_type))) {
    *err = "piece '" + path + "': global point ids '" + g->name + "' are not one integer per point";
    return -EPROTO;
  }
  l->g = g;
  if (mesh.pts.empty() && mesh.tets.empty()) pm->by_gid = g != nullptr;
  if (merge && pm->by_gid && !g) {
    *err = "piece '" + path + "' has no global point ids ('" + kGlobalPointIds +
           "') while the previous pieces have";
    return -EPROTO;
  }
  l->xyz = xml_arrays(piece->FindNestedElementWithName("Points"));
  const std::vector<XmlArray> &xyz = l->xyz;
  if (l->np > 0 && (xyz.size() != 1 || xyz[0].components != 3 || !numeric_type(xyz[0].vtk_type))) {
    *err = "VTK could not read piece '" + path + "': its Points are not one array of 3 numbers";
    return -EIO;
  }
  return 0;
}

/* A point of a piece with a NaN or infinite scalar (v) or coordinate: the
 * error, naming the point as the piece file numbers it (and its global
 * id when gid >= 0), not as the merged mesh does. */
int non_finite_point(const std::string &path, size_t p, int64_t gid, double v,
                     const std::string &array, std::string *err) {
  *err = "piece '" + path + "': point " + std::to_string(p) +
         (gid >= 0 ? " (global id " + std::to_string(gid) + ")" : std::string()) + " has " +
         (std::isfinite(v) ? std::string("a non-finite coordinate")
                           : std::string(std::isnan(v) ? "a NaN" : "an infinite") +
                                 " scalar in array '" + array + "'");
  return -EDOM;
}

/* The points of a piece into *mesh (appended, merged through pm when
 * `merge`), *map their mesh points. Inline ASCII arrays are parsed whole
 * by VTK at each read (and cached while the same array is read): one
 * chunk. */
int read_piece_points(PieceFile &f, const PieceLayout &l, bool merge, PointMerger *pm, Mesh *mesh,
                      PointMap *map, std::string *err) {
  const size_t npts = (size_t)l.np;
  const bool by_gid = merge && pm->by_gid;
  if (!l.g) pm->all_gids = false;
  const bool gids = by_gid || (pm->keep_gids && pm->all_gids);
  size_t chunk = ISO_PIECE_CHUNK;
  if (npts > 0 && (l.xyz[0].ascii || l.s->ascii || (gids && l.g->ascii))) chunk = npts;
  *map = PointMap{merge, (int64_t)mesh->pts.size(), {}};
  if (merge) map->to_mesh.resize(npts);
  std::vector<double> x, v;
  std::vector<int64_t> gv;
  for (size_t p0 = 0; p0 < npts; p0 += chunk) {
    const size_t n = std::min(chunk, npts - p0);
    if (int rc = f.read(l.xyz[0], 3 * p0, 3 * n, &x, err)) return rc;
    if (int rc = f.read(*l.s, p0, n, &v, err)) return rc;
    if (gids)
      if (int rc = f.read(*l.g, p0, n, &gv, err)) return rc;
    for (size_t i = 0; i < n; i++) {
      const Point q = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
      if (!std::isfinite(v[i]) || !std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
        return non_finite_point(f.path, p0 + i, gids ? gv[i] : -1, v[i], mesh->array_name, err);
      int64_t id = (int64_t)mesh->pts.size();
      bool fresh = true;
      if (merge) {
        if (by_gid) {
          const int64_t found = pm->gid.find_or_add(gv[i], id, &pm->gids);
          fresh = found == id;
          id = found;
        } else {
          auto xi = pm->xyz.emplace(XyzKey{{q.x, q.y, q.z}}, id);
          fresh = xi.second;
          id = xi.first->second;
        }
        map->to_mesh[p0 + i] = id;
      }
      if (fresh) {
        mesh->pts.push_back(q);
        mesh->scalars.push_back(v[i]);
        if (gids && !by_gid) pm->gids.push(gv[i]);
      }
    }
  }
  if ((uint64_t)mesh->pts.size() >= kMaxMeshPoints) {
    *err = "piece '" + f.path + "': the mesh reaches " + std::to_string(mesh->pts.size()) +
           " points, at most " + std::to_string(kMaxMeshPoints - 1) + " (point ids are 32-bit)";
    return -EOVERFLOW;
  }
  return 0;
}

/* The points a cell of type ty needs: 4 for a tetrahedron, the split's
 * for the cells split_cell splits when `split`, else 0 (refused). */
int cell_need(int ty, bool split) {
  if (ty == VTK_TETRA) return 4;
  return split && ty >= 0 && ty < 256 ? cell_points((uint8_t)ty) : 0;
}

/* Cell c of a chunk, the first refused (its type ty, or its point count
 * from offsets `from` to `to`): the error. */
int refuse_cell(const std::string &path, size_t c, int ty, int64_t from, int64_t to, bool split,
                std::string *err) {
  const std::string cell = "piece '" + path + "': cell " + std::to_string(c);
  const int need = cell_need(ty, split);
  if (need == 0) {
    *err = cell + " (VTK cell type " + std::to_string(ty) + ") is not a tetrahedron" +
           (split ? ": refused (--tetrahedralize splits voxels, hexahedra, wedges and pyramids)"
                  : "; rerun with --tetrahedralize to split 3D cells into tetrahedra");
    return -EPROTO;
  }
  *err = cell + " has " + std::to_string(to - from) + " points, " +
         (ty == VTK_TETRA ? std::string("a tetrahedron")
                          : "a cell of VTK type " + std::to_string(ty)) +
         " has " + std::to_string(need);
  return -EINVAL;
}

/* A cell of type ty (not a tetrahedron) of mesh points m[0..np) split into
 * tetrahedra appended to mesh->tets. split_cell decides by the order of the
 * ids it is given: it is given the rank of each point in the order of the
 * points' global ids (of their coordinates without global ids; the mesh
 * ids break ties), the same on every rank that reads a cell with that
 * face. */
void split_into(int ty, const uint32_t *m, int np, const PointMerger &pm, Mesh *mesh) {
  const bool by_gid = pm.has_gids(mesh->pts.size());
  const Point *pts = mesh->pts.data();
  auto before = [&](int a, int b) {
    if (by_gid && pm.gids[m[a]] != pm.gids[m[b]]) return pm.gids[m[a]] < pm.gids[m[b]];
    const Point &p = pts[m[a]], &q = pts[m[b]];
    if (!by_gid && (p.x != q.x || p.y != q.y || p.z != q.z))
      return p.x != q.x ? p.x < q.x : p.y != q.y ? p.y < q.y : p.z < q.z;
    return m[a] < m[b];
  };
  int order[8]; /* insertion sort: at most 8 points */
  for (int k = 0; k < np; k++) {
    int j = k;
    for (; j > 0 && before(k, order[j - 1]); j--) order[j] = order[j - 1];
    order[j] = k;
  }
  uint32_t rank[8];
  for (int r = 0; r < np; r++) rank[order[r]] = (uint32_t)r;
  Tet out[kMaxSplitTets];
  const int nt = split_cell((uint8_t)ty, rank, out);
  for (int t = 0; t < nt; t++) {
    for (uint32_t &v : out[t].v) v = m[order[v]]; /* the point of rank v */
    mesh->tets.push_back(out[t]);
  }
}

/* The piece's cell ghost array (vtkGhostType in its CellData) in *ghost,
 * null without one; -EPROTO if it is not one integer per cell. */
int piece_ghosts(const std::string &path, vtkXMLDataElement *piece, std::vector<XmlArray> *cd,
                 const XmlArray **ghost, std::string *err) {
  *cd = xml_arrays(piece->FindNestedElementWithName("CellData"));
  *ghost = find_array(*cd, vtkDataSetAttributes::GhostArrayName());
  if (*ghost && ((*ghost)->components != 1 || !integer_type((*ghost)->vtk_type))) {
    *err = "piece '" + path + "': its cell array '" + vtkDataSetAttributes::GhostArrayName() +
           "' is not one integer per cell";
    return -EPROTO;
  }
  return 0;
}

/* The cells of a piece into *mesh (appended, their points through map; the
 * cells split_cell splits split when `split`): in each chunk, the cells up
 * to the first refused have their points read and checked, then that cell
 * is refused: the errors come in the cells' order. A cell whose ghost value
 * has the DUPLICATECELL bit is checked alike but not kept (pm->ghosts_out
 * set): another piece owns it (pieces.h). */
int read_piece_cells(PieceFile &f, vtkXMLDataElement *piece, const PieceLayout &l,
                     const PointMap &map, bool split, PointMerger *pm, Mesh *mesh,
                     std::string *err) {
  const std::string &path = f.path;
  const std::vector<XmlArray> cells = xml_arrays(piece->FindNestedElementWithName("Cells"));
  const XmlArray *conn = find_array(cells, "connectivity"), *offs = find_array(cells, "offsets"),
                 *types = find_array(cells, "types");
  for (const XmlArray *a : {conn, offs, types})
    if (!a || a->components != 1 || !integer_type(a->vtk_type)) {
      *err = "VTK could not read piece '" + path +
             "': its Cells need integer arrays connectivity, offsets and types";
      return -EIO;
    }
  std::vector<XmlArray> cd;
  const XmlArray *ghost;
  if (int rc = piece_ghosts(path, piece, &cd, &ghost, err)) return rc;
  const size_t ncells = (size_t)l.nc;
  const size_t chunk = conn->ascii || offs->ascii || types->ascii || (ghost && ghost->ascii)
                           ? ncells
                           : (size_t)ISO_PIECE_CHUNK;
  std::vector<int64_t> off, ids;
  std::vector<int> ty, gh;
  int64_t end = 0; /* connectivity offset where the next cell starts */
  for (size_t c0 = 0; c0 < ncells; c0 += chunk) {
    const size_t n = std::min(chunk, ncells - c0);
    if (int rc = f.read(*offs, c0, n, &off, err)) return rc;
    if (int rc = f.read(*types, c0, n, &ty, err)) return rc;
    if (ghost)
      if (int rc = f.read(*ghost, c0, n, &gh, err)) return rc;
    size_t good = 0;
    int64_t at = end;
    for (; good < n && cell_need(ty[good], split) != 0 &&
           off[good] - at == cell_need(ty[good], split);
         good++)
      at = off[good];
    if (int rc = f.read(*conn, (uint64_t)end, (size_t)(at - end), &ids, err)) return rc;
    const int64_t *id = ids.data();
    for (size_t i = 0; i < good; i++) {
      const int np = ty[i] == VTK_TETRA ? 4 : cell_points((uint8_t)ty[i]);
      uint32_t m[8];
      for (int k = 0; k < np; k++) {
        if (id[k] < 0 || id[k] >= l.np) {
          *err = "piece '" + path + "': cell " + std::to_string(c0 + i) + " uses point " +
                 std::to_string(id[k]) + ", out of range [0, " + std::to_string(l.np) + ")";
          return -ERANGE;
        }
        m[k] = (uint32_t)map(id[k]); /* < mesh->pts.size() < kMaxMeshPoints */
      }
      id += np;
      if (ghost && (gh[i] & vtkDataSetAttributes::DUPLICATECELL)) {
        pm->ghosts_out = true;
        continue;
      }
      if (ty[i] == VTK_TETRA)
        mesh->tets.push_back(Tet{{m[0], m[1], m[2], m[3]}});
      else
        split_into(ty[i], m, np, *pm, mesh);
    }
    if (good < n)
      return refuse_cell(path, c0 + good, ty[good], good ? off[good - 1] : end, off[good], split,
                         err);
    end = off[n - 1];
  }
  return 0;
}

/* One <Piece> of a piece file into *mesh (appended, points merged through
 * pm), a chunk of ISO_PIECE_CHUNK points or cells at a time. */
int read_piece_element(const PvtuIndex &idx, PieceFile &f, vtkXMLDataElement *piece,
                       const std::string &scalars, bool split, bool merge, PointMerger *pm,
                       Mesh *mesh, std::string *err) {
  PieceLayout l;
  if (int rc = piece_layout(idx, f.path, piece, scalars, merge, pm, *mesh, &l, err)) return rc;
  PointMap map;
  if (int rc = read_piece_points(f, l, merge, pm, mesh, &map, err)) return rc;
  if (l.nc == 0) return 0;
  return read_piece_cells(f, piece, l, map, split, pm, mesh, err);
}

/* Read one piece file (checked by piece_counts) into *mesh (appended,
 * points merged through pm; the first piece decides whether global ids are
 * used). VTK's reader parses the file's XML; the arrays are then read a
 * chunk at a time through its parser and converted at once, so that what
 * is held beside the mesh is a chunk, not the piece (docs/distributed.md,
 * Memory). Only the scalars, the global ids, the points and the cells are
 * read. */
int read_one_piece(const PvtuIndex &idx, const std::string &path, const std::string &scalars,
                   bool split, bool merge, PointMerger *pm, Mesh *mesh, std::string *err) {
  CaughtReader<vtkXMLUnstructuredGridReader> in(path);
  in.r->UpdateInformation();
  vtkXMLDataParser *parser = in.r->GetXMLParser();
  vtkXMLDataElement *root = parser ? parser->GetRootElement() : nullptr;
  vtkXMLDataElement *grid = root ? root->FindNestedElementWithName("UnstructuredGrid") : nullptr;
  if (in.catcher->failed || in.r->GetErrorCode() != 0 || !grid || !in.quiet.text().empty()) {
    *err = "VTK could not read piece '" + path + "'" + in.reason();
    return -EIO;
  }
  std::ifstream stream(path, std::ios::in | std::ios::binary);
  if (!stream) {
    *err = "cannot read piece '" + path + "': " + std::strerror(errno);
    return -ENOENT;
  }
  stream.imbue(std::locale::classic());
  parser->AddObserver(vtkCommand::ErrorEvent, in.catcher);
  parser->SetStream(&stream);
  PieceFile f{path, parser, *in.catcher, in.quiet, {}};
  int rc = 0;
  for (int i = 0; rc == 0 && i < grid->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *e = grid->GetNestedElement(i);
    if (std::strcmp(e->GetName(), "Piece") == 0)
      rc = read_piece_element(idx, f, e, scalars, split, merge, pm, mesh, err);
  }
  parser->SetStream(nullptr);
  return rc;
}

/* The points of *mesh used by no cell (those of the ghost cells left out
 * only) removed, the others keeping their relative order: the cells, the
 * scalars and, when every point has one (`gids`), the global ids moved with
 * them, in place (4 bytes a point beside the mesh). Without gids the global
 * id column is freed. */
void drop_unused_points(Mesh *mesh, bool gids, GidColumn *col) {
  if (!gids) std::vector<unsigned char>().swap(col->a.bytes);
  const size_t npts = mesh->pts.size();
  std::vector<uint32_t> to(npts, UINT32_MAX); /* new index; npts < kMaxMeshPoints */
  for (const Tet &t : mesh->tets)
    for (uint32_t v : t.v) to[v] = 0;
  uint32_t n = 0;
  for (size_t p = 0; p < npts; p++) {
    if (to[p] == UINT32_MAX) continue;
    to[p] = n;
    mesh->pts[n] = mesh->pts[p]; /* n <= p: moved forward in place */
    mesh->scalars[n] = mesh->scalars[p];
    if (gids)
      std::memmove(col->a.bytes.data() + (size_t)n * sizeof(int64_t),
                   col->a.bytes.data() + p * sizeof(int64_t), sizeof(int64_t));
    n++;
  }
  if (n == npts) return;
  for (Tet &t : mesh->tets)
    for (uint32_t &v : t.v) v = to[v];
  mesh->pts.resize(n);
  mesh->scalars.resize(n);
  if (gids) col->a.bytes.resize((size_t)n * sizeof(int64_t));
}

std::string list_arrays(const std::vector<ArrayDecl> &arrays) {
  std::string s;
  for (const ArrayDecl &a : arrays) s += (s.empty() ? "" : ", ") + a.name;
  return s.empty() ? "none" : s;
}

/* read_pieces, its message as built (names and values from the files). */
int pieces_into_mesh(const PvtuIndex &idx, size_t first, size_t last, const PieceReadOptions &opt,
                     Mesh *mesh, std::string *err) {
  const std::string scalars = opt.array.empty() ? idx.scalars : opt.array;
  if (scalars.empty()) {
    *err = "'" + idx.path + "' has no active point scalars; choose an array with --array NAME " +
           "(point arrays: " + list_arrays(idx.arrays) + ")";
    return -EINVAL;
  }
  if (std::none_of(idx.arrays.begin(), idx.arrays.end(),
                   [&](const ArrayDecl &d) { return d.name == scalars; })) {
    *err = "unknown point array '" + scalars + "' in '" + idx.path +
           "' (point arrays: " + list_arrays(idx.arrays) + ")";
    return -EINVAL;
  }
  if (first > last || last > idx.pieces.size()) {
    *err = "'" + idx.path + "': pieces [" + std::to_string(first) + ", " + std::to_string(last) +
           ") asked, it has " + std::to_string(idx.pieces.size());
    return -EINVAL;
  }
  Mesh m;
  m.array_name = scalars;
  /* The counts first, so that the mesh is allocated once. */
  size_t npts = 0, ncells = 0;
  for (size_t i = first; i < last; i++) {
    size_t p, c;
    if (int rc = piece_counts(idx, idx.pieces[i], &p, &c, err)) return rc;
    npts += p;
    ncells += c;
  }
  m.pts.reserve(npts);
  m.scalars.reserve(npts);
  m.tets.reserve(ncells);
  PointMerger pm;
  const bool merge = last - first > 1;
  if (merge) pm.gid.init(npts);
  pm.keep_gids = opt.global_ids || opt.tetrahedralize;
  if (merge || pm.keep_gids) pm.gids.a.bytes.reserve(npts * sizeof(int64_t));
  for (size_t i = first; i < last; i++)
    if (int rc =
            read_one_piece(idx, idx.pieces[i], scalars, opt.tetrahedralize, merge, &pm, &m, err))
      return rc;
  pm.gid = GidTable();
  if (pm.ghosts_out) {
    const bool gids = pm.has_gids(m.pts.size());
    drop_unused_points(&m, gids, &pm.gids);
    pm.all_gids = gids;
  }
  if (int rc = validate(m, err)) {
    *err = "pieces of '" + idx.path + "': " + *err;
    return rc;
  }
  if (opt.global_ids && pm.has_gids(m.pts.size()) && !m.pts.empty())
    m.point_data.push_back(std::move(pm.gids.a));
  *mesh = std::move(m);
  return 0;
}

} // namespace

int read_pieces(const PvtuIndex &idx, size_t first, size_t last, const PieceReadOptions &opt,
                Mesh *mesh, std::string *err) {
  const int rc = pieces_into_mesh(idx, first, last, opt, mesh, err);
  if (rc) *err = printable(*err); /* names and values from the files: one line */
  return rc;
}

int read_pvtu(const std::string &path, const PieceReadOptions &opt, Mesh *mesh, std::string *err) {
  PvtuIndex idx;
  if (int rc = read_pvtu_index(path, &idx, err)) return rc;
  PieceReadOptions o = opt;
  o.global_ids = false;
  Mesh m;
  if (int rc = read_pieces(idx, 0, idx.pieces.size(), o, &m, err)) return rc;
  if (m.tets.empty()) {
    *err = "'" + path + "' has no cells";
    return -EINVAL;
  }
  *mesh = std::move(m);
  return 0;
}

} // namespace iso
