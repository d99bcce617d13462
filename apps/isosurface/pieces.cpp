/* apps/isosurface: meshes and surfaces in VTK's parallel XML formats (see
 * pieces.h). */
#include "pieces.h"
#include "file_checks.h"
#include "vtk_convert.h"
#include "vtk_quiet.h"

#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkLogger.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkUnstructuredGrid.h>
#include <vtkUnstructuredGridAlgorithm.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPUnstructuredGridWriter.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <unordered_map>

namespace iso {

const char *const kGlobalPointIds = "GlobalPointIds";

namespace {

/* The last non-empty line of a VTK message (VTK prefixes the class and the
 * source line), or "". */
std::string last_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  const size_t p = s.rfind('\n');
  if (p != std::string::npos) s = s.substr(p + 1);
  /* "vtkXMLUnstructuredGridReader (0x55d0c8a0): why": the object's address
   * says nothing to the user. */
  const size_t open = s.find(" (0x"), close = s.find("): ");
  if (s.rfind("vtk", 0) == 0 && open != std::string::npos && close != std::string::npos &&
      open < close && close < 80)
    s = s.substr(0, open) + s.substr(close + 1);
  return printable(s);
}

/* ": why" from what VTK said, or "". */
std::string vtk_reason(const ErrorCatcher &c, const QuietVtk &q) {
  const std::string why = !c.message.empty() ? c.message : q.text();
  return why.empty() ? std::string() : ": " + last_line(why);
}

/* The cells [c0, c1) of a mesh as a VTK grid: their points in the order of
 * first use, the scalars, the input point ids as global ids. `local` maps
 * input point ids to the piece's (-1: not yet), left all -1 on return. */
vtkSmartPointer<vtkUnstructuredGrid> piece_grid(const Mesh &m, size_t c0, size_t c1,
                                                std::vector<int64_t> &local) {
  std::vector<int64_t> used;
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)(c1 - c0 + 1));
  conn->SetNumberOfTuples((vtkIdType)(4 * (c1 - c0)));
  vtkIdType *po = offsets->GetPointer(0), *pc = conn->GetPointer(0);
  for (size_t c = c0; c < c1; c++) {
    po[c - c0] = (vtkIdType)(4 * (c - c0));
    for (int k = 0; k < 4; k++) {
      const int64_t g = m.tets[c].v[k];
      if (local[(size_t)g] < 0) {
        local[(size_t)g] = (int64_t)used.size();
        used.push_back(g);
      }
      *pc++ = (vtkIdType)local[(size_t)g];
    }
  }
  po[c1 - c0] = (vtkIdType)(4 * (c1 - c0));
  vtkNew<vtkDoubleArray> xyz, s;
  vtkNew<vtkIdTypeArray> gids;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)used.size());
  s->SetName(m.array_name.c_str());
  s->SetNumberOfTuples((vtkIdType)used.size());
  gids->SetName(kGlobalPointIds);
  gids->SetNumberOfTuples((vtkIdType)used.size());
  for (size_t p = 0; p < used.size(); p++) {
    const Point &q = m.pts[(size_t)used[p]];
    xyz->SetTypedTuple((vtkIdType)p, &q.x);
    s->SetValue((vtkIdType)p, q.s);
    gids->SetValue((vtkIdType)p, (vtkIdType)used[p]);
    local[(size_t)used[p]] = -1;
  }
  auto ug = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  ug->SetPoints(points);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, conn);
  ug->SetCells(VTK_TETRA, cells);
  ug->GetPointData()->SetScalars(s);
  ug->GetPointData()->SetGlobalIds(gids);
  return ug;
}

/* A source of the pieces of one mesh: asked for piece i of N (the
 * pipeline's piece request, as vtkXMLPUnstructuredGridWriter asks for each
 * piece it writes), it produces the cells [i*T/N, (i+1)*T/N). */
class PieceSource : public vtkUnstructuredGridAlgorithm {
public:
  static PieceSource *New();
  vtkTypeMacro(PieceSource, vtkUnstructuredGridAlgorithm);
  void set_mesh(const Mesh *m) {
    mesh_ = m;
    local_.assign(m->pts.size(), -1);
    Modified();
  }

protected:
  PieceSource() { SetNumberOfInputPorts(0); }
  int RequestInformation(vtkInformation *, vtkInformationVector **,
                         vtkInformationVector *out) override {
    out->GetInformationObject(0)->Set(vtkAlgorithm::CAN_HANDLE_PIECE_REQUEST(), 1);
    return 1;
  }
  int RequestData(vtkInformation *, vtkInformationVector **, vtkInformationVector *out) override {
    vtkInformation *info = out->GetInformationObject(0);
    const int piece = info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_PIECE_NUMBER());
    const int npieces = info->Get(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES());
    if (!mesh_ || npieces < 1 || piece < 0 || piece >= npieces) {
      vtkErrorMacro("piece " << piece << " of " << npieces << " requested");
      return 0;
    }
    const size_t t = mesh_->tets.size();
    const size_t c0 = (size_t)((unsigned __int128)t * (unsigned)piece / (unsigned)npieces);
    const size_t c1 = (size_t)((unsigned __int128)t * (unsigned)(piece + 1) / (unsigned)npieces);
    vtkUnstructuredGrid::GetData(out)->ShallowCopy(piece_grid(*mesh_, c0, c1, local_));
    return 1;
  }

private:
  const Mesh *mesh_ = nullptr;
  std::vector<int64_t> local_;
};
vtkStandardNewMacro(PieceSource);

/* The path without its extension ext (which it ends with). */
std::string strip(const std::string &path, const char *ext) {
  return path.substr(0, path.size() - std::strlen(ext));
}

/* The XML type name of an array's values, as VTK's XML writers spell it. */
std::string xml_type(vtkAbstractArray *a) {
  const std::string bits = std::to_string(8 * a->GetDataTypeSize());
  switch (a->GetDataType()) {
  case VTK_FLOAT:
  case VTK_DOUBLE: return "Float" + bits;
  case VTK_UNSIGNED_CHAR:
  case VTK_UNSIGNED_SHORT:
  case VTK_UNSIGNED_INT:
  case VTK_UNSIGNED_LONG:
  case VTK_UNSIGNED_LONG_LONG: return "UInt" + bits;
  case VTK_BIT: return "Bit";
  case VTK_STRING: return "String";
  default: return "Int" + bits;
  }
}

/* True if path is a regular file, else false and why in *why. */
bool regular_file(const std::string &path, std::string *why) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *why = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = "not a regular file";
    return false;
  }
  return true;
}

/* The directory part of path, with its slash ("" for none). */
std::string dir_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

/* The point arrays of a piece against those its index declares: "" if the
 * same (names, types, components), else what differs. */
std::string compare_arrays(vtkPointData *pd, const std::vector<ArrayDecl> &decl) {
  std::string diff;
  auto add = [&diff](const std::string &s) { diff += (diff.empty() ? "" : "; ") + s; };
  for (const ArrayDecl &d : decl) {
    vtkAbstractArray *a = pd->GetAbstractArray(d.name.c_str());
    if (!a) {
      add("array '" + d.name + "' missing");
      continue;
    }
    if (xml_type(a) != d.type) add("array '" + d.name + "' is " + xml_type(a) + ", not " + d.type);
    if (a->GetNumberOfComponents() != d.components)
      add("array '" + d.name + "' has " + std::to_string(a->GetNumberOfComponents()) +
          " components, not " + std::to_string(d.components));
  }
  for (int i = 0; i < pd->GetNumberOfArrays(); i++) {
    const char *n = pd->GetArrayName(i);
    const std::string name = n ? n : "";
    if (std::none_of(decl.begin(), decl.end(), [&](const ArrayDecl &d) { return d.name == name; }))
      add("array '" + name + "' not in the index");
  }
  return diff;
}

/* Exact coordinates as a hashable key. */
struct XyzKey {
  double v[3];
  bool operator==(const XyzKey &o) const { return std::memcmp(v, o.v, sizeof v) == 0; }
};
struct XyzHash {
  size_t operator()(const XyzKey &k) const {
    uint64_t h = 0x9e3779b97f4a7c15ull, b;
    for (double d : k.v) {
      std::memcpy(&b, &d, sizeof b);
      h ^= b + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return (size_t)(h ^ (h >> 33));
  }
};

/* Points of the pieces read so far, merged: by global id, else by exact
 * coordinates. */
/* Global point id -> mesh point, by open addressing (linear probing):
 * twice as many 8-byte slots as points, and the id of each point (8
 * bytes), about 24 bytes a point while the pieces are read. */
class GidTable {
public:
  void init(size_t npoints) {
    size_t cap = 16;
    while (cap < 2 * npoints + 2) cap <<= 1;
    slots_.assign(cap, -1);
    mask_ = cap - 1;
    gids_.clear();
    gids_.reserve(npoints);
  }
  /* The point of global id g, or `fresh` (the next point, == the points
   * added so far) after adding it. */
  int64_t find_or_add(int64_t g, int64_t fresh) {
    uint64_t h = (uint64_t)g * 0x9e3779b97f4a7c15ull;
    size_t at = (size_t)(h ^ (h >> 29)) & mask_;
    while (slots_[at] >= 0) {
      if (gids_[(size_t)slots_[at]] == g) return slots_[at];
      at = (at + 1) & mask_;
    }
    slots_[at] = fresh;
    gids_.push_back(g);
    return fresh;
  }

private:
  std::vector<int64_t> slots_, gids_;
  size_t mask_ = 0;
};

struct PointMerger {
  bool by_gid = true;
  GidTable gid;
  std::unordered_map<XyzKey, int64_t, XyzHash> xyz;
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
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLUnstructuredGridReader> r;
  r->AddObserver(vtkCommand::ErrorEvent, catcher);
  r->SetFileName(path.c_str());
  r->UpdateInformation();
  if (catcher->failed || r->GetErrorCode() != 0) {
    *err = "VTK could not read piece '" + path + "'" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  r->SetupUpdateExtent(0, 1, 0);
  *npts = (size_t)std::max<vtkIdType>(0, r->GetNumberOfPoints());
  *ncells = (size_t)std::max<vtkIdType>(0, r->GetNumberOfCells());
  return 0;
}

/* Read one piece file (checked by piece_counts) into *mesh (appended,
 * points merged through pm; the first piece decides whether global ids are
 * used). The piece's VTK arrays are released as soon as they are copied. */
int read_one_piece(const PvtuIndex &idx, const std::string &path, const std::string &scalars,
                   bool merge, PointMerger *pm, Mesh *mesh, std::string *err) {
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLUnstructuredGridReader> r;
  r->AddObserver(vtkCommand::ErrorEvent, catcher);
  r->SetFileName(path.c_str());
  try {
    r->Update();
  } catch (const std::exception &e) {
    *err = "VTK could not read piece '" + path + "': exception: " + printable(e.what());
    return -EIO;
  }
  vtkUnstructuredGrid *ug = r->GetOutput();
  if (catcher->failed || !ug || r->GetErrorCode() != 0 || !quiet.text().empty()) {
    *err = "VTK could not read piece '" + path + "'" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  vtkPointData *pd = ug->GetPointData();
  const std::string diff = compare_arrays(pd, idx.arrays);
  if (!diff.empty()) {
    *err = "piece '" + path + "': point arrays differ from the index '" + idx.path + "': " + diff;
    return -EPROTO;
  }
  vtkDataArray *s = pd->GetArray(scalars.c_str());
  if (!s || s->GetNumberOfComponents() != 1) {
    *err = "piece '" + path + "': array '" + scalars + "' is " +
           (s ? "not one scalar per point" : "missing");
    return -EINVAL;
  }
  vtkDataArray *g = pd->GetArray(kGlobalPointIds);
  if (!g) g = pd->GetGlobalIds();
  if (g && (g->GetNumberOfComponents() != 1 ||
            (g->GetDataType() == VTK_FLOAT || g->GetDataType() == VTK_DOUBLE))) {
    *err = "piece '" + path + "': global point ids '" + (g->GetName() ? g->GetName() : "") +
           "' are not one integer per point";
    return -EPROTO;
  }
  if (mesh->pts.empty() && mesh->tets.empty()) pm->by_gid = g != nullptr;
  if (merge && pm->by_gid && !g) {
    *err = "piece '" + path + "' has no global point ids ('" + kGlobalPointIds +
           "') while the previous pieces have";
    return -EPROTO;
  }
  const vtkIdType npts = ug->GetNumberOfPoints();
  std::vector<int64_t> to_mesh((size_t)npts);
  for (vtkIdType p = 0; p < npts; p++) {
    Point q;
    ug->GetPoint(p, &q.x);
    q.s = s->GetTuple1(p);
    int64_t id = (int64_t)mesh->pts.size();
    bool fresh = true;
    if (merge) {
      if (pm->by_gid) {
        const int64_t found = pm->gid.find_or_add((int64_t)g->GetTuple1(p), id);
        fresh = found == id;
        id = found;
      } else {
        auto xi = pm->xyz.emplace(XyzKey{{q.x, q.y, q.z}}, id);
        fresh = xi.second;
        id = xi.first->second;
      }
    }
    if (fresh) mesh->pts.push_back(q);
    to_mesh[(size_t)p] = id;
  }
  ug->GetPointData()->Initialize(); /* the points' arrays are copied: free them */
  ug->SetPoints(nullptr);
  vtkCellArray *cells = ug->GetCells();
  const vtkIdType ncells = ug->GetNumberOfCells();
  for (vtkIdType c = 0; c < ncells; c++) {
    if (ug->GetCellType(c) != VTK_TETRA) {
      *err = "piece '" + path + "': cell " + std::to_string(c) + " (VTK cell type " +
             std::to_string(ug->GetCellType(c)) + ") is not a tetrahedron";
      return -EPROTO;
    }
    vtkIdType n;
    const vtkIdType *ids;
    cells->GetCellAtId(c, n, ids);
    if (n != 4) {
      *err = "piece '" + path + "': cell " + std::to_string(c) + " has " + std::to_string(n) +
             " points, a tetrahedron has 4";
      return -EINVAL;
    }
    Tet t;
    for (int k = 0; k < 4; k++) {
      if (ids[k] < 0 || ids[k] >= npts) {
        *err = "piece '" + path + "': cell " + std::to_string(c) + " uses point " +
               std::to_string(ids[k]) + ", out of range [0, " + std::to_string(npts) + ")";
        return -ERANGE;
      }
      t.v[k] = to_mesh[(size_t)ids[k]];
    }
    mesh->tets.push_back(t);
  }
  return 0;
}

std::string list_arrays(const std::vector<ArrayDecl> &arrays) {
  std::string s;
  for (const ArrayDecl &a : arrays) s += (s.empty() ? "" : ", ") + a.name;
  return s.empty() ? "none" : s;
}

/* One undirected edge of a surface. */
struct EdgeUse {
  int count = 0;
  int forward = 0; /* uses from the lower to the higher vertex id */
};

} // namespace

bool has_extension(const std::string &path, const char *ext) {
  const size_t n = std::strlen(ext);
  if (path.size() <= n) return false;
  for (size_t i = 0; i < n; i++)
    if (std::tolower((unsigned char)path[path.size() - n + i]) !=
        std::tolower((unsigned char)ext[i]))
      return false;
  return true;
}

int write_pieces(const Mesh &m, const std::string &path, int npieces, std::string *err) {
  if (npieces < 1) {
    *err = "cannot write '" + path + "': at least one piece is needed";
    return -EINVAL;
  }
  if (!has_extension(path, ".pvtu")) {
    *err = "cannot write '" + path + "' in pieces: the index must be a .pvtu file";
    return -EINVAL;
  }
  QuietVtk quiet;
  vtkNew<PieceSource> src;
  src->set_mesh(&m);
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLPUnstructuredGridWriter> w;
  w->AddObserver(vtkCommand::ErrorEvent, catcher);
  src->AddObserver(vtkCommand::ErrorEvent, catcher);
  w->SetInputConnection(src->GetOutputPort());
  w->SetFileName(path.c_str());
  w->SetNumberOfPieces(npieces);
  w->SetStartPiece(0);
  w->SetEndPiece(npieces - 1);
  w->SetWriteSummaryFile(1);
  w->SetDataModeToAppended();
  if (!w->Write() || catcher->failed) {
    *err = "cannot write '" + path + "' (or its pieces '" + strip(path, ".pvtu") + "_<i>.vtu')" +
           vtk_reason(*catcher, quiet);
    return -EIO;
  }
  return 0;
}

int read_pvtu_index(const std::string &path, PvtuIndex *out, std::string *err) {
  if (!regular_file(path, err)) {
    *err = "cannot read '" + path + "': " + *err;
    return -ENOENT;
  }
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLDataParser> parser;
  parser->AddObserver(vtkCommand::ErrorEvent, catcher);
  parser->SetFileName(path.c_str());
  if (!parser->Parse() || catcher->failed || !parser->GetRootElement()) {
    *err = "'" + path + "' is not a readable XML file" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  vtkXMLDataElement *root = parser->GetRootElement();
  const char *type = root->GetAttribute("type");
  vtkXMLDataElement *grid = root->FindNestedElementWithName("PUnstructuredGrid");
  if (std::strcmp(root->GetName(), "VTKFile") != 0 || !type ||
      std::strcmp(type, "PUnstructuredGrid") != 0 || !grid) {
    *err = "'" + path + "' is not a .pvtu index (VTKFile of type PUnstructuredGrid)";
    return -EPROTO;
  }
  PvtuIndex idx;
  idx.path = path;
  const std::string dir = dir_of(path);
  for (int i = 0; i < grid->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *e = grid->GetNestedElement(i);
    if (std::strcmp(e->GetName(), "Piece") == 0) {
      const char *src = e->GetAttribute("Source");
      if (!src || !*src) {
        *err = "'" + path + "': piece " + std::to_string(idx.pieces.size()) + " has no Source";
        return -EPROTO;
      }
      idx.pieces.push_back(src[0] == '/' ? std::string(src) : dir + src);
    } else if (std::strcmp(e->GetName(), "PPointData") == 0) {
      if (const char *sc = e->GetAttribute("Scalars")) idx.scalars = sc;
      for (int j = 0; j < e->GetNumberOfNestedElements(); j++) {
        vtkXMLDataElement *a = e->GetNestedElement(j);
        const char *name = a->GetAttribute("Name"), *t = a->GetAttribute("type");
        if (std::strcmp(a->GetName(), "PDataArray") != 0 || !name || !t) {
          *err = "'" + path + "': point array " + std::to_string(j) + " has no Name or type";
          return -EPROTO;
        }
        ArrayDecl d;
        d.name = name;
        d.type = t;
        if (!a->GetScalarAttribute("NumberOfComponents", d.components)) d.components = 1;
        idx.arrays.push_back(d);
      }
    }
  }
  if (idx.pieces.empty()) {
    *err = "'" + path + "' lists no pieces";
    return -EINVAL;
  }
  *out = std::move(idx);
  return 0;
}

int read_pieces(const PvtuIndex &idx, size_t first, size_t last, const std::string &array,
                Mesh *mesh, std::string *err) {
  const std::string scalars = array.empty() ? idx.scalars : array;
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
  m.tets.reserve(ncells);
  PointMerger pm;
  const bool merge = last - first > 1;
  if (merge) pm.gid.init(npts);
  for (size_t i = first; i < last; i++)
    if (int rc = read_one_piece(idx, idx.pieces[i], scalars, merge, &pm, &m, err)) return rc;
  if (int rc = validate(m, err)) {
    *err = "pieces of '" + idx.path + "': " + *err;
    return rc;
  }
  *mesh = std::move(m);
  return 0;
}

int read_pvtu(const std::string &path, const std::string &array, Mesh *mesh, std::string *err) {
  PvtuIndex idx;
  if (int rc = read_pvtu_index(path, &idx, err)) return rc;
  Mesh m;
  if (int rc = read_pieces(idx, 0, idx.pieces.size(), array, &m, err)) return rc;
  if (m.tets.empty()) {
    *err = "'" + path + "' has no cells";
    return -EINVAL;
  }
  *mesh = std::move(m);
  return 0;
}

std::string pvtp_piece_path(const std::string &pvtp, int piece) {
  return strip(pvtp, ".pvtp") + "_" + std::to_string(piece) + ".vtp";
}

int read_pvtp_union(const std::string &path, UnionSurface *out, std::string *err) {
  if (!regular_file(path, err)) {
    *err = "cannot read '" + path + "': " + *err;
    return -ENOENT;
  }
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLPPolyDataReader> r;
  r->AddObserver(vtkCommand::ErrorEvent, catcher);
  r->SetFileName(path.c_str());
  r->Update();
  vtkPolyData *pd = r->GetOutput();
  if (catcher->failed || !pd || r->GetErrorCode() != 0 || !quiet.text().empty()) {
    *err = "VTK could not read '" + path + "'" + vtk_reason(*catcher, quiet);
    return -EIO;
  }
  UnionSurface u;
  u.pieces = (size_t)r->GetNumberOfPieces();
  u.points_read = (size_t)pd->GetNumberOfPoints();
  std::unordered_map<XyzKey, int64_t, XyzHash> ids;
  std::vector<int64_t> to_merged((size_t)pd->GetNumberOfPoints());
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); p++) {
    XyzKey k;
    pd->GetPoint(p, k.v);
    auto ins = ids.emplace(k, (int64_t)u.s.nverts());
    if (ins.second) u.s.xyz.insert(u.s.xyz.end(), k.v, k.v + 3);
    to_merged[(size_t)p] = ins.first->second;
  }
  vtkCellArray *polys = pd->GetPolys();
  for (vtkIdType c = 0; c < polys->GetNumberOfCells(); c++) {
    vtkIdType n;
    const vtkIdType *pid;
    polys->GetCellAtId(c, n, pid);
    if (n != 3) {
      *err = "'" + path + "': polygon " + std::to_string(c) + " has " + std::to_string(n) +
             " points, not a triangle";
      return -EPROTO;
    }
    for (int k = 0; k < 3; k++) u.s.tri.push_back(to_merged[(size_t)pid[k]]);
  }
  *out = std::move(u);
  return 0;
}

EdgeStats edge_stats(const Surface &s) {
  EdgeStats st;
  std::unordered_map<uint64_t, EdgeUse> edges;
  std::map<std::pair<int64_t, int64_t>, EdgeUse> wide; /* ids past 2^32 */
  edges.reserve(s.tri.size());
  for (size_t f = 0; f < s.ntris(); f++) {
    const int64_t *v = &s.tri[3 * f];
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
      st.degenerate++;
      continue;
    }
    for (int k = 0; k < 3; k++) {
      const int64_t a = v[k], b = v[(k + 1) % 3];
      const int64_t lo = std::min(a, b), hi = std::max(a, b);
      EdgeUse &e = (hi >> 32) ? wide[{lo, hi}] : edges[((uint64_t)lo << 32) | (uint64_t)hi];
      e.count++;
      e.forward += a < b;
    }
  }
  auto tally = [&st](const EdgeUse &e) {
    if (e.count == 1)
      st.border++;
    else if (e.count == 2) {
      st.inner++;
      st.misoriented += e.forward != 1;
    } else
      st.nonmanifold++;
  };
  for (const auto &e : edges) tally(e.second);
  for (const auto &e : wide) tally(e.second);
  return st;
}

bool verify_union(const std::string &path, const UnionReference &ref, double rtol) {
  UnionSurface u;
  std::string err;
  if (read_pvtp_union(path, &u, &err)) {
    std::printf("verify-union: %s: FAILED\n", err.c_str());
    return false;
  }
  const double area = u.s.area();
  const double rel = std::fabs(area - ref.area) / std::max(1e-300, std::fabs(ref.area));
  const bool tris = u.s.ntris() == ref.ntris, verts = u.s.nverts() == ref.nverts;
  const bool area_ok = rel <= rtol || (area == 0 && ref.area == 0);
  const EdgeStats es = edge_stats(u.s);
  std::printf("verify-union: %s: %zu pieces, %zu points read, %zu after merging coincident ones\n",
              path.c_str(), u.pieces, u.points_read, u.s.nverts());
  std::printf("verify-union: triangles %zu vs vtkContourGrid %zu: %s\n", u.s.ntris(), ref.ntris,
              tris ? "ok" : "FAILED");
  std::printf("verify-union: vertices %zu vs vtkContourGrid %zu: %s\n", u.s.nverts(), ref.nverts,
              verts ? "ok" : "FAILED");
  std::printf("verify-union: area %.10g vs vtkContourGrid %.10g, rel. diff %.2e: %s\n", area,
              ref.area, rel, area_ok ? "ok" : "FAILED");
  std::printf("verify-union: manifold: %zu inner edges, %zu border edges, %zu non-manifold, %zu "
              "misoriented, %zu degenerate triangles: %s\n",
              es.inner, es.border, es.nonmanifold, es.misoriented, es.degenerate,
              es.manifold() ? "ok" : "FAILED");
  return tris && verts && area_ok && es.manifold();
}

} // namespace iso
