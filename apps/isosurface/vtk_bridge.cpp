/* apps/isosurface: VTK readers, writers and peers (see vtk_bridge.h). */
#include "vtk_bridge.h"
#include "names.h"
#include "vtk_convert.h"

#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkContour3DLinearGrid.h>
#include <vtkContourGrid.h>
#include <vtkDataArray.h>
#include <vtkDataSetReader.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkImageData.h>
#include <vtkMetaImageReader.h>
#include <vtkNIFTIImageReader.h>
#include <vtkLogger.h>
#include <vtkNew.h>
#include <vtkOutputWindow.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSMPContourGrid.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <array>
#include <set>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sys/stat.h>
#include <vector>

namespace iso {

namespace {

/* Collects the error messages of a VTK object instead of printing them. */
class ErrorCatcher : public vtkCommand {
public:
  static ErrorCatcher *New() { return new ErrorCatcher; }
  void Execute(vtkObject *, unsigned long, void *data) override {
    if (data && message.empty()) message = static_cast<const char *>(data);
    failed = true;
  }
  std::string message;
  bool failed = false;
};

/* While alive, VTK's text output (errors of internal objects such as the XML
 * parser) is captured instead of printed. */
class QuietVtk {
public:
  class Window : public vtkOutputWindow {
  public:
    static Window *New() { return new Window; }
    void DisplayText(const char *t) override {
      if (t && text.empty()) text = t;
    }
    std::string text;
  };
  QuietVtk() : previous_(vtkOutputWindow::GetInstance()), window_(vtkSmartPointer<Window>::New()) {
    vtkOutputWindow::SetInstance(window_);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  }
  ~QuietVtk() {
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_WARNING);
    vtkOutputWindow::SetInstance(previous_);
  }
  const std::string &text() const { return window_->text; }

private:
  vtkSmartPointer<vtkOutputWindow> previous_;
  vtkSmartPointer<Window> window_;
};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return (char)std::tolower(c); });
  return s;
}

bool ends_with(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string first_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  size_t p = s.rfind('\n');
  return p == std::string::npos ? s : s.substr(p + 1);
}

/* Pick the point scalars of ds: by name, else the active scalars. */
int pick_array(vtkDataSet *ds, const std::string &name, vtkDataArray **out, std::string *err) {
  vtkPointData *pd = ds->GetPointData();
  vtkDataArray *a = name.empty() ? pd->GetScalars() : pd->GetArray(name.c_str());
  if (!a) {
    std::string avail;
    for (int i = 0; i < pd->GetNumberOfArrays(); i++) {
      const char *n = pd->GetArrayName(i);
      avail += std::string(avail.empty() ? "" : ", ") + (n ? n : "(unnamed)");
    }
    if (avail.empty()) avail = "none";
    *err =
        name.empty()
            ? "no active point scalars; choose an array with --array NAME (point arrays: " + avail +
                  ")"
            : "unknown point array '" + name + "' (point arrays: " + avail + ")";
    return -EINVAL;
  }
  if (a->GetNumberOfComponents() != 1) {
    *err = std::string("point array '") + (a->GetName() ? a->GetName() : "") + "' has " +
           std::to_string(a->GetNumberOfComponents()) +
           " components; a scalar (1 component) is needed";
    return -EINVAL;
  }
  *out = a;
  return 0;
}

int from_unstructured(vtkUnstructuredGrid *ug, const ReadOptions &opt, Mesh *mesh,
                      std::string *err) {
  vtkSmartPointer<vtkUnstructuredGrid> grid = ug;
  const vtkIdType nc = grid->GetNumberOfCells();
  bool all_tets = true;
  for (vtkIdType c = 0; c < nc && all_tets; c++) all_tets = grid->GetCellType(c) == VTK_TETRA;
  if (!all_tets && opt.tetrahedralize) {
    vtkNew<vtkDataSetTriangleFilter> tf;
    tf->SetInputData(grid);
    tf->TetrahedraOnlyOn();
    tf->Update();
    grid = tf->GetOutput();
  }
  vtkDataArray *arr = nullptr;
  int rc = pick_array(grid, opt.array, &arr, err);
  if (rc) return rc;
  Mesh m;
  m.array_name = arr->GetName() ? arr->GetName() : "scalars";
  const vtkIdType np = grid->GetNumberOfPoints(), ncells = grid->GetNumberOfCells();
  try {
    m.pts.resize((size_t)np);
    for (vtkIdType p = 0; p < np; p++) {
      double x[3];
      grid->GetPoint(p, x);
      m.pts[(size_t)p] = Point{x[0], x[1], x[2], arr->GetComponent(p, 0)};
    }
    m.tets.resize((size_t)ncells);
    vtkCellArray *ca = grid->GetCells();
    for (vtkIdType c = 0; c < ncells; c++) {
      const int type = grid->GetCellType(c);
      vtkIdType n;
      const vtkIdType *ids;
      ca->GetCellAtId(c, n, ids);
      if (type != VTK_TETRA || n != 4) {
        *err = "cell " + std::to_string(c) + " is not a tetrahedron (VTK cell type " +
               std::to_string(type) + ", " + std::to_string(n) + " points): refused" +
               (opt.tetrahedralize
                    ? " (vtkDataSetTriangleFilter could not split it: not a 3D cell)"
                    : "; rerun with --tetrahedralize to split 3D cells into tetrahedra");
        return -EPROTO;
      }
      for (int a = 0; a < 4; a++) m.tets[(size_t)c].v[a] = (int64_t)ids[a];
    }
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the mesh";
    return -ENOMEM;
  }
  *mesh = std::move(m);
  return 0;
}

int from_image(vtkImageData *img, const ReadOptions &opt, Mesh *mesh, std::string *err) {
  vtkDataArray *arr = nullptr;
  int rc = pick_array(img, opt.array, &arr, err);
  if (rc) return rc;
  int dims[3];
  img->GetDimensions(dims);
  const size_t n = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
  std::vector<double> s(n);
  for (size_t i = 0; i < n; i++) s[i] = arr->GetComponent((vtkIdType)i, 0);
  Grid g;
  for (int a = 0; a < 3; a++) {
    g.np[a] = dims[a];
    g.origin[a] = img->GetOrigin()[a];
    g.spacing[a] = img->GetSpacing()[a];
  }
  g.scalars = s.data();
  Mesh m;
  m.array_name = arr->GetName() ? arr->GetName() : "scalars";
  rc = tetrahedralize_grid(g, opt.split, opt.order, 1, &m, err);
  if (rc) {
    *err = "image volume: " + *err;
    return rc;
  }
  *mesh = std::move(m);
  return 0;
}

template <class Reader>
vtkSmartPointer<Reader> make_reader(const std::string &path, ErrorCatcher *catcher) {
  auto r = vtkSmartPointer<Reader>::New();
  r->SetFileName(path.c_str());
  r->AddObserver(vtkCommand::ErrorEvent, catcher);
  return r;
}

/* Run reader r: its output (r kept alive in *keep). */
template <class Reader>
vtkSmartPointer<vtkDataSet> run_reader(const vtkSmartPointer<Reader> &r,
                                       vtkSmartPointer<vtkAlgorithm> *keep) {
  r->Update();
  *keep = r;
  return r->GetOutput();
}

/* Calls fn(ids) with the three point ids of each triangle of pd, in cell
 * order (other polygons are skipped). */
template <class Fn>
void for_each_triangle(vtkPolyData *pd, Fn fn) {
  vtkCellArray *polys = pd->GetPolys();
  for (vtkIdType c = 0; c < polys->GetNumberOfCells(); c++) {
    vtkIdType n;
    const vtkIdType *ids;
    polys->GetCellAtId(c, n, ids);
    if (n == 3) fn(ids);
  }
}

/* ": " and the first line of the message caught, or "" if none. */
std::string reason(const ErrorCatcher &c) {
  return c.message.empty() ? std::string() : ": " + first_line(c.message);
}

/* Write data to path through an XML writer (appended data). 0 or -EIO. */
template <class Writer>
int write_xml(vtkDataObject *data, const std::string &path, std::string *err) {
  vtkNew<Writer> w;
  vtkNew<ErrorCatcher> catcher;
  w->AddObserver(vtkCommand::ErrorEvent, catcher);
  w->SetFileName(path.c_str());
  w->SetInputData(data);
  w->SetDataModeToAppended();
  if (!w->Write() || catcher->failed) {
    *err = "cannot write '" + path + "'" + reason(*catcher);
    return -EIO;
  }
  return 0;
}

/* VTK's SMP tools on `backend` with `threads` threads: 0, or -ENOTSUP. */
int use_smp_backend(const char *backend, int threads, std::string *err) {
  if (!vtkSMPTools::SetBackend(backend)) {
    *err = std::string("VTK SMP backend ") + backend + " is not available in this VTK";
    return -ENOTSUP;
  }
  vtkSMPTools::Initialize(threads);
  return 0;
}

/* Seconds taken by f->Update(). */
double timed_update(vtkAlgorithm *f) {
  const auto t0 = std::chrono::steady_clock::now();
  f->Update();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int read_mesh(const std::string &path, const ReadOptions &opt, Mesh *mesh, std::string *err) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    *err = "cannot read '" + path + "': " + (errno ? std::strerror(errno) : "not a regular file");
    return -ENOENT;
  }
  const std::string l = lower(path);
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkSmartPointer<vtkDataSet> ds;
  vtkSmartPointer<vtkAlgorithm> reader;
  if (ends_with(l, ".vtu")) {
    ds = run_reader(make_reader<vtkXMLUnstructuredGridReader>(path, catcher), &reader);
  } else if (ends_with(l, ".vti")) {
    ds = run_reader(make_reader<vtkXMLImageDataReader>(path, catcher), &reader);
  } else if (ends_with(l, ".mha") || ends_with(l, ".mhd")) {
    ds = run_reader(make_reader<vtkMetaImageReader>(path, catcher), &reader);
  } else if (ends_with(l, ".nii") || ends_with(l, ".nii.gz")) {
    ds = run_reader(make_reader<vtkNIFTIImageReader>(path, catcher), &reader);
  } else if (ends_with(l, ".vtk")) {
    auto r = make_reader<vtkDataSetReader>(path, catcher);
    r->ReadAllScalarsOn();
    ds = run_reader(r, &reader);
  } else {
    *err = "'" + path +
           "': unknown file type (expected .vtu, .vtk, .vti, .mha, .mhd, .nii or .nii.gz)";
    return -ENOTSUP;
  }
  if (catcher->failed || !ds || reader->GetErrorCode() != 0 || !quiet.text().empty()) {
    const std::string why = !catcher->message.empty() ? catcher->message : quiet.text();
    *err = "VTK could not read '" + path + "'" + (why.empty() ? "" : ": " + first_line(why));
    return -EIO;
  }
  int rc;
  if (auto *ug = vtkUnstructuredGrid::SafeDownCast(ds))
    rc = from_unstructured(ug, opt, mesh, err);
  else if (auto *img = vtkImageData::SafeDownCast(ds))
    rc = from_image(img, opt, mesh, err);
  else {
    *err = "'" + path + "' holds a " + ds->GetClassName() +
           "; an unstructured grid or an image volume is needed";
    return -ENOTSUP;
  }
  if (rc) return rc;
  if (mesh->tets.empty()) {
    *err = "'" + path + "' has no cells";
    return -EINVAL;
  }
  return validate(*mesh, err);
}

vtkSmartPointer<vtkUnstructuredGrid> to_vtk(const Mesh &m) {
  auto ug = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)m.pts.size());
  vtkNew<vtkDoubleArray> s;
  s->SetName(m.array_name.c_str());
  s->SetNumberOfTuples((vtkIdType)m.pts.size());
  double *px = xyz->GetPointer(0), *ps = s->GetPointer(0);
  for (size_t p = 0; p < m.pts.size(); p++) {
    px[3 * p] = m.pts[p].x;
    px[3 * p + 1] = m.pts[p].y;
    px[3 * p + 2] = m.pts[p].z;
    ps[p] = m.pts[p].s;
  }
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  ug->SetPoints(points);
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)m.tets.size() + 1);
  conn->SetNumberOfTuples((vtkIdType)(4 * m.tets.size()));
  vtkIdType *po = offsets->GetPointer(0), *pc = conn->GetPointer(0);
  for (size_t c = 0; c <= m.tets.size(); c++) po[c] = (vtkIdType)(4 * c);
  static_assert(sizeof(vtkIdType) == sizeof(int64_t), "VTK built with 64-bit ids");
  if (!m.tets.empty()) std::memcpy(pc, m.tets.data(), m.tets.size() * sizeof(Tet));
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, conn);
  ug->SetCells(VTK_TETRA, cells);
  ug->GetPointData()->SetScalars(s);
  return ug;
}

vtkSmartPointer<vtkPolyData> to_vtk(const Surface &s) {
  auto pd = vtkSmartPointer<vtkPolyData>::New();
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples((vtkIdType)s.nverts());
  if (!s.xyz.empty()) std::memcpy(xyz->GetPointer(0), s.xyz.data(), s.xyz.size() * sizeof(double));
  vtkNew<vtkPoints> pts;
  pts->SetData(xyz);
  pd->SetPoints(pts);
  vtkNew<vtkIdTypeArray> offsets, conn;
  offsets->SetNumberOfTuples((vtkIdType)s.ntris() + 1);
  conn->SetNumberOfTuples((vtkIdType)s.tri.size());
  for (size_t f = 0; f <= s.ntris(); f++) offsets->SetValue((vtkIdType)f, (vtkIdType)(3 * f));
  if (!s.tri.empty())
    std::memcpy(conn->GetPointer(0), s.tri.data(), s.tri.size() * sizeof(int64_t));
  vtkNew<vtkCellArray> polys;
  polys->SetData(offsets, conn);
  pd->SetPolys(polys);
  return pd;
}

int write_vtu(const Mesh &m, const std::string &path, std::string *err) {
  return write_xml<vtkXMLUnstructuredGridWriter>(to_vtk(m), path, err);
}

int write_vtp(const Surface &s, const std::string &path, std::string *err) {
  return write_xml<vtkXMLPolyDataWriter>(to_vtk(s), path, err);
}

int read_vtp(const std::string &path, Surface *s, std::string *err) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = "cannot read '" + path + "': " + std::strerror(errno);
    return -ENOENT;
  }
  vtkNew<ErrorCatcher> catcher;
  auto r = make_reader<vtkXMLPolyDataReader>(path, catcher);
  r->Update();
  vtkPolyData *pd = r->GetOutput();
  if (catcher->failed || !pd) {
    *err = "VTK could not read '" + path + "'" + reason(*catcher);
    return -EIO;
  }
  Surface out;
  out.xyz.resize(3 * (size_t)pd->GetNumberOfPoints());
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); p++) pd->GetPoint(p, &out.xyz[3 * (size_t)p]);
  for_each_triangle(pd, [&](const vtkIdType *ids) {
    for (int k = 0; k < 3; k++) out.tri.push_back((int64_t)ids[k]);
  });
  *s = std::move(out);
  return 0;
}

namespace {

const Named<Peer> peer_names[] = {{"vtkContourGrid", Peer::ContourGrid},
                                  {"vtkC3DLinearGrid/TBB", Peer::Linear3DTBB},
                                  {"vtkC3DLinearGrid/STDThread", Peer::Linear3DSTDThread}};

} // namespace

const char *peer_name(Peer p) { return name_of(peer_names, p); }

struct VtkGrid::Impl {
  vtkSmartPointer<vtkUnstructuredGrid> ug;
  std::string array;
  /* What every contour filter here shares: errors to catcher, the grid's
   * point scalars, the one isovalue, neither normals nor scalars output. */
  template <class Filter>
  void contour(Filter *f, double iso, ErrorCatcher *catcher) const {
    f->AddObserver(vtkCommand::ErrorEvent, catcher);
    f->SetInputData(ug);
    f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, array.c_str());
    f->SetValue(0, iso);
    f->ComputeNormalsOff();
    f->ComputeScalarsOff();
  }
};

VtkGrid::VtkGrid(const Mesh &m) : impl_(new Impl) {
  impl_->ug = to_vtk(m);
  impl_->array = m.array_name;
}

VtkGrid::~VtkGrid() = default;

namespace {

void summarize(vtkPolyData *pd, PeerResult *out) {
  out->npoints = (size_t)pd->GetNumberOfPoints();
  std::vector<char> used(out->npoints, 0);
  size_t ntris = 0;
  double area = 0;
  for_each_triangle(pd, [&](const vtkIdType *ids) {
    ntris++;
    double a[3], b[3], d[3];
    pd->GetPoint(ids[0], a);
    pd->GetPoint(ids[1], b);
    pd->GetPoint(ids[2], d);
    for (int k = 0; k < 3; k++) used[(size_t)ids[k]] = 1;
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
           v[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    double nx = u[1] * v[2] - u[2] * v[1], ny = u[2] * v[0] - u[0] * v[2],
           nz = u[0] * v[1] - u[1] * v[0];
    area += 0.5 * std::sqrt(nx * nx + ny * ny + nz * nz);
  });
  out->ntris = ntris;
  out->area = area;
  out->npoints_used = (size_t)std::count(used.begin(), used.end(), 1);
}

} // namespace

int VtkGrid::run(Peer p, double iso, int threads, PeerResult *out, std::string *err) {
  vtkNew<ErrorCatcher> catcher;
  vtkSmartPointer<vtkPolyData> pd;
  double seconds;
  if (p == Peer::ContourGrid) {
    vtkNew<vtkContourGrid> f;
    impl_->contour(f.Get(), iso, catcher);
    f->GenerateTrianglesOn();
    f->UseScalarTreeOff();
    seconds = timed_update(f);
    pd = f->GetOutput();
  } else {
    int rc = use_smp_backend(p == Peer::Linear3DTBB ? "TBB" : "STDThread", threads, err);
    if (rc) return rc;
    vtkNew<vtkContour3DLinearGrid> f;
    impl_->contour(f.Get(), iso, catcher);
    f->MergePointsOn();
    f->InterpolateAttributesOff();
    f->UseScalarTreeOff();
    f->SequentialProcessingOff();
    seconds = timed_update(f);
    pd = vtkPolyData::SafeDownCast(f->GetOutputDataObject(0));
  }
  if (catcher->failed || !pd) {
    *err = std::string(peer_name(p)) + " failed: " + first_line(catcher->message);
    return -EIO;
  }
  summarize(pd, out);
  out->seconds = seconds;
  return 0;
}

namespace {

using TriKey = std::array<double, 9>;

/* The triangles of pd as sorted triples of vertex positions. */
std::multiset<TriKey> triangle_keys(vtkPolyData *pd) {
  std::multiset<TriKey> keys;
  for_each_triangle(pd, [&](const vtkIdType *ids) {
    std::array<std::array<double, 3>, 3> v;
    for (int k = 0; k < 3; k++) pd->GetPoint(ids[k], v[(size_t)k].data());
    std::sort(v.begin(), v.end());
    TriKey key;
    for (int k = 0; k < 9; k++) key[(size_t)k] = v[(size_t)k / 3][(size_t)k % 3];
    keys.insert(key);
  });
  return keys;
}

} // namespace

int VtkGrid::smp_contour_check(double iso, int threads, size_t *ntris, size_t *unmatched,
                               std::string *err) {
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkContourGrid> ref;
  impl_->contour(ref.Get(), iso, catcher);
  ref->Update();
  std::multiset<TriKey> want = triangle_keys(ref->GetOutput());
  if (int rc = use_smp_backend("TBB", threads, err)) return rc;
  vtkNew<vtkSMPContourGrid> smp;
  impl_->contour(smp.Get(), iso, catcher);
  smp->MergePiecesOn();
  smp->Update();
  vtkPolyData *pd = vtkPolyData::SafeDownCast(smp->GetOutputDataObject(0));
  if (catcher->failed || !pd) {
    *err = "vtkSMPContourGrid failed" + reason(*catcher);
    return -EIO;
  }
  std::multiset<TriKey> got = triangle_keys(pd);
  *ntris = got.size();
  size_t bad = 0;
  for (const TriKey &k : got) {
    auto it = want.find(k);
    if (it == want.end())
      bad++;
    else
      want.erase(it);
  }
  *unmatched = bad;
  return 0;
}

} // namespace iso
