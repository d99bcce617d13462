/* test_vtk_filter's checks, comparison with vtkContourGrid, meshes and
 * filter runs (test_vtk_filter.h). */
#include "test_vtk_filter.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkContourGrid.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPointSet.h>
#include <vtkPoints.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace {

int failures = 0;

using Key = std::array<long long, 3>;

/* Coordinates quantized to q (the key of a point). */
Key KeyOf(const double x[3], double q) {
  return {std::llround(x[0] / q), std::llround(x[1] / q), std::llround(x[2] / q)};
}

/* Triangle t's point ids; false if the cell is not a triangle. */
bool Triangle(vtkPolyData *pd, vtkIdType t, vtkIdType ids[3]) {
  vtkIdType n;
  const vtkIdType *p;
  pd->GetPolys()->GetCellAtId(t, n, p);
  if (n != 3) return false;
  std::copy(p, p + 3, ids);
  return true;
}

double Area(vtkPolyData *pd, vtkIdType t) {
  vtkIdType ids[3];
  if (!Triangle(pd, t, ids)) return 0.0;
  double a[3], b[3], c[3], u[3], v[3];
  pd->GetPoint(ids[0], a);
  pd->GetPoint(ids[1], b);
  pd->GetPoint(ids[2], c);
  for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], v[k] = c[k] - a[k];
  const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                       u[0] * v[1] - u[1] * v[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

/* map[ref point] = ours, -1 for ref's unused points; false if a used point
 * of ref has no point of ours at its place. */
bool PointMap(vtkPolyData *ours, vtkPolyData *ref, std::vector<vtkIdType> *map, size_t *used) {
  double b[6];
  ref->GetBounds(b);
  const double diag = std::sqrt((b[1] - b[0]) * (b[1] - b[0]) + (b[3] - b[2]) * (b[3] - b[2]) +
                                (b[5] - b[4]) * (b[5] - b[4]));
  const double q = std::max(1e-300, 1e-9 * diag);
  std::map<Key, vtkIdType> at;
  for (vtkIdType i = 0; i < ours->GetNumberOfPoints(); i++) at[KeyOf(ours->GetPoint(i), q)] = i;
  map->assign(size_t(ref->GetNumberOfPoints()), -1);
  std::set<vtkIdType> seen;
  bool ok = true;
  for (vtkIdType t = 0; t < ref->GetNumberOfCells(); t++) {
    vtkIdType ids[3];
    if (!Triangle(ref, t, ids)) return false;
    for (vtkIdType id : ids) {
      if ((*map)[size_t(id)] >= 0) continue;
      auto it = at.find(KeyOf(ref->GetPoint(id), q));
      if (it == at.end())
        ok = false;
      else
        (*map)[size_t(id)] = it->second, seen.insert(it->second);
    }
  }
  *used = seen.size();
  return ok;
}

using Tri = std::array<vtkIdType, 3>;

/* t rotated so that its smallest id comes first (its winding kept). */
Tri Rotated(Tri t) {
  while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};
  return t;
}

/* The triangles of ref (through map, into ours' ids) found in ours with
 * the same winding, *reversed with the other, *other not at all (another
 * diagonal of a quadrilateral cut), as multisets. */
size_t SameWinding(vtkPolyData *ours, vtkPolyData *ref, const std::vector<vtkIdType> &map,
                   size_t *reversed, size_t *other) {
  std::map<Tri, int> have;
  vtkIdType ids[3];
  for (vtkIdType t = 0; t < ours->GetNumberOfCells(); t++)
    if (Triangle(ours, t, ids)) have[Rotated({ids[0], ids[1], ids[2]})]++;
  size_t same = 0;
  *reversed = *other = 0;
  for (vtkIdType t = 0; t < ref->GetNumberOfCells(); t++) {
    if (!Triangle(ref, t, ids)) continue;
    const Tri m = {map[size_t(ids[0])], map[size_t(ids[1])], map[size_t(ids[2])]};
    auto it = have.find(Rotated(m)), rit = have.find(Rotated({m[0], m[2], m[1]}));
    if (it != have.end() && it->second > 0)
      it->second--, same++;
    else if (rit != have.end() && rit->second > 0)
      rit->second--, (*reversed)++;
    else
      (*other)++;
  }
  return same;
}

/* Per tuple of the cell array a: its triangles' count and area. */
std::map<std::vector<double>, std::pair<int, double>> ByCellValue(vtkPolyData *pd,
                                                                  vtkDataArray *a) {
  std::map<std::vector<double>, std::pair<int, double>> g;
  std::vector<double> tuple(size_t(a->GetNumberOfComponents()));
  for (vtkIdType t = 0; t < pd->GetNumberOfCells(); t++) {
    a->GetTuple(t, tuple.data());
    auto &e = g[tuple];
    e.first++;
    e.second += Area(pd, t);
  }
  return g;
}

bool SameType(const std::string &what, vtkDataArray *o, vtkDataArray *r) {
  return Check(o && r && o->GetDataType() == r->GetDataType() &&
                   o->GetNumberOfComponents() == r->GetNumberOfComponents(),
               what + ": present, of the same type and components");
}

void ComparePointArrays(const std::string &name, vtkPolyData *ours, vtkPolyData *ref,
                        const std::vector<vtkIdType> &map) {
  for (int i = 0; i < ref->GetPointData()->GetNumberOfArrays(); i++) {
    vtkDataArray *r = ref->GetPointData()->GetArray(i);
    vtkDataArray *o = ours->GetPointData()->GetArray(r->GetName());
    const std::string what = name + ": point array " + r->GetName();
    if (!SameType(what, o, r)) continue;
    double worst = 0.0;
    for (size_t p = 0; p < map.size(); p++) {
      if (map[p] < 0) continue;
      for (int c = 0; c < r->GetNumberOfComponents(); c++) {
        const double vr = r->GetComponent(vtkIdType(p), c), vo = o->GetComponent(map[p], c);
        worst = std::max(worst, std::fabs(vo - vr) / std::max(1.0, std::fabs(vr)));
      }
    }
    Check(worst <= 1e-6, what + " within 1e-6 (max " + std::to_string(worst) + ")");
  }
}

void CompareCellArrays(const std::string &name, vtkPolyData *ours, vtkPolyData *ref) {
  for (int i = 0; i < ref->GetCellData()->GetNumberOfArrays(); i++) {
    vtkDataArray *r = ref->GetCellData()->GetArray(i);
    vtkDataArray *o = ours->GetCellData()->GetArray(r->GetName());
    const std::string what = name + ": cell array " + r->GetName();
    if (!SameType(what, o, r)) continue;
    auto go = ByCellValue(ours, o), gr = ByCellValue(ref, r);
    size_t bad = go.size() == gr.size() ? 0 : 1;
    for (auto &e : gr) {
      auto it = go.find(e.first);
      if (it == go.end() || it->second.first != e.second.first ||
          std::fabs(it->second.second - e.second.second) > 1e-9 * std::max(e.second.second, 1e-300))
        bad++;
    }
    Check(bad == 0, what + ": per value, the same triangle count and area (" +
                        std::to_string(gr.size()) + " values)");
  }
}

} // namespace

bool Check(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok) failures++;
  return ok;
}

int Failures() { return failures; }

void Compare(const std::string &name, vtkPolyData *ours, vtkPolyData *ref) {
  if (!Check(ours != nullptr, name + ": the filter's output is a vtkPolyData")) return;
  std::vector<vtkIdType> map;
  size_t used = 0;
  const bool placed = PointMap(ours, ref, &map, &used);
  char counts[160];
  std::snprintf(counts, sizeof counts, "%lld triangles %lld points, vtkContourGrid %lld, %zu",
                (long long)ours->GetNumberOfCells(), (long long)ours->GetNumberOfPoints(),
                (long long)ref->GetNumberOfCells(), used);
  if (!Check(ours->GetNumberOfCells() == ref->GetNumberOfCells() &&
                 ours->GetNumberOfPoints() == vtkIdType(used) && ours->GetNumberOfCells() > 0,
             name + ": " + counts) ||
      !Check(placed, name + ": every point of vtkContourGrid's at the same place"))
    return;
  double ao = 0.0, ar = 0.0;
  for (vtkIdType t = 0; t < ours->GetNumberOfCells(); t++) ao += Area(ours, t);
  for (vtkIdType t = 0; t < ref->GetNumberOfCells(); t++) ar += Area(ref, t);
  Check(std::fabs(ao - ar) <= 1e-9 * ar,
        name + ": area " + std::to_string(ao) + ", vtkContourGrid " + std::to_string(ar));
  size_t reversed, other;
  const size_t same = SameWinding(ours, ref, map, &reversed, &other);
  Check(reversed == 0 && other == 0, name + ": every triangle is vtkContourGrid's, wound alike (" +
                                         std::to_string(same) + "; " + std::to_string(reversed) +
                                         " reversed, " + std::to_string(other) +
                                         " on another diagonal)");
  ComparePointArrays(name, ours, ref, map);
  CompareCellArrays(name, ours, ref);
}

bool SameBytes(vtkPolyData *a, vtkPolyData *b) {
  if (!a || !b || a->GetNumberOfPoints() != b->GetNumberOfPoints() ||
      a->GetNumberOfCells() != b->GetNumberOfCells() || a->GetNumberOfCells() == 0)
    return false;
  auto same = [](vtkDataArray *x, vtkDataArray *y) {
    return x && y && x->GetDataType() == y->GetDataType() &&
           x->GetNumberOfValues() == y->GetNumberOfValues() &&
           std::memcmp(x->GetVoidPointer(0), y->GetVoidPointer(0),
                       size_t(x->GetNumberOfValues()) * size_t(x->GetDataTypeSize())) == 0;
  };
  bool ok = same(a->GetPoints()->GetData(), b->GetPoints()->GetData()) &&
            same(a->GetPolys()->GetConnectivityArray(), b->GetPolys()->GetConnectivityArray());
  for (vtkDataSetAttributes *d :
       {(vtkDataSetAttributes *)a->GetPointData(), (vtkDataSetAttributes *)a->GetCellData()}) {
    vtkDataSetAttributes *e = d == a->GetPointData() ? (vtkDataSetAttributes *)b->GetPointData()
                                                     : (vtkDataSetAttributes *)b->GetCellData();
    ok = ok && d->GetNumberOfArrays() == e->GetNumberOfArrays();
    for (int i = 0; ok && i < d->GetNumberOfArrays(); i++)
      ok = same(d->GetArray(i), e->GetArray(d->GetArrayName(i)));
  }
  return ok;
}
/* A smooth field on the points of ds, as the point array "s" (double),
 * with "f1" (float, 1), "d3" (double, 3), "i9" (int, 9). */
void AddPointArrays(vtkDataSet *ds) {
  const vtkIdType n = ds->GetNumberOfPoints();
  vtkNew<vtkDoubleArray> s, d3;
  vtkNew<vtkFloatArray> f1;
  vtkNew<vtkIntArray> i9;
  s->SetName("s");
  f1->SetName("f1");
  d3->SetName("d3");
  d3->SetNumberOfComponents(3);
  i9->SetName("i9");
  i9->SetNumberOfComponents(9);
  for (vtkIdType i = 0; i < n; i++) {
    double x[3];
    ds->GetPoint(i, x);
    s->InsertNextValue(std::sin(0.9 * x[0]) + std::cos(0.7 * x[1]) * std::sin(0.5 * x[2]) +
                       0.05 * x[0] * x[1]);
    f1->InsertNextValue(float(x[0] * x[2] - x[1]));
    d3->InsertNextTuple3(x[0] * x[0], std::exp(0.1 * x[1]), x[2] - x[0]);
    for (int c = 0; c < 9; c++) i9->InsertNextValue(int((i * 7919 + c * 104729) % 2001) - 1000);
  }
  ds->GetPointData()->AddArray(f1);
  ds->GetPointData()->AddArray(d3);
  ds->GetPointData()->AddArray(i9);
  ds->GetPointData()->SetScalars(s);
}

/* Cell arrays "cid" (vtkIdType, the cell's id) and "c3" (float, 3). */
void AddCellArrays(vtkDataSet *ds) {
  vtkNew<vtkIdTypeArray> cid;
  vtkNew<vtkFloatArray> c3;
  cid->SetName("cid");
  c3->SetName("c3");
  c3->SetNumberOfComponents(3);
  for (vtkIdType c = 0; c < ds->GetNumberOfCells(); c++) {
    cid->InsertNextValue(c);
    c3->InsertNextTuple3(float(c % 17), float(c % 5) * 0.5f, -float(c));
  }
  ds->GetCellData()->AddArray(cid);
  ds->GetCellData()->AddArray(c3);
}

vtkSmartPointer<vtkImageData> Image(int nx, int ny, int nz) {
  auto img = vtkSmartPointer<vtkImageData>::New();
  img->SetDimensions(nx, ny, nz);
  img->SetOrigin(-2.0, -1.5, -1.0);
  img->SetSpacing(0.31, 0.27, 0.23);
  AddPointArrays(img);
  return img;
}

/* vtkDataSetTriangleFilter's tetrahedra of a structured ds, its points
 * replaced by ds's own, in double (the filter's points for these inputs). */
vtkSmartPointer<vtkUnstructuredGrid> Tetrahedra(vtkDataSet *ds) {
  vtkNew<vtkDataSetTriangleFilter> tf;
  tf->SetInputData(ds);
  tf->Update();
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->ShallowCopy(tf->GetOutput());
  if (auto *ps = vtkPointSet::SafeDownCast(ds)) {
    grid->SetPoints(ps->GetPoints()); /* a structured grid's own points */
    return grid;
  }
  vtkNew<vtkPoints> pts;
  pts->SetDataTypeToDouble();
  pts->SetNumberOfPoints(ds->GetNumberOfPoints());
  for (vtkIdType i = 0; i < ds->GetNumberOfPoints(); i++) pts->SetPoint(i, ds->GetPoint(i));
  grid->SetPoints(pts);
  return grid;
}

vtkSmartPointer<vtkPolyData> ContourGrid(vtkDataSet *grid, const std::vector<double> &values,
                                         const char *array) {
  vtkNew<vtkContourGrid> cg;
  cg->SetInputData(grid);
  cg->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, array);
  for (size_t i = 0; i < values.size(); i++) cg->SetValue(int(i), values[i]);
  cg->Update();
  auto out = vtkSmartPointer<vtkPolyData>::New();
  out->ShallowCopy(cg->GetOutput());
  return out;
}

vtkSmartPointer<vtkDataObject> Adaptive(vtkDataObject *data, const std::vector<double> &values,
                                        const char *array, const Options &o, ErrorLog *log) {
  vtkNew<vtkAdaptiveContourFilter> f;
  if (log) f->AddObserver(vtkCommand::ErrorEvent, log);
  f->SetInputData(data);
  if (array) f->SetInputArrayToProcess(0, 0, 0, o.assoc, array);
  for (size_t i = 0; i < values.size(); i++) f->SetValue(int(i), values[i]);
  f->SetNumberOfWorkers(o.workers);
  f->SetMode(o.mode);
  f->SetComputeNormals(o.normals);
  f->SetComputeScalars(o.scalars);
  f->Update();
  vtkSmartPointer<vtkDataObject> out;
  out.TakeReference(f->GetOutputDataObject(0)->NewInstance());
  out->ShallowCopy(f->GetOutputDataObject(0));
  return out;
}
