/* vtkAdaptiveContourFilter's request and output (adaptContourOutput.h). */
#include "adaptContourOutput.h"

#include "vtkCellArray.h"
#include "vtkDoubleArray.h"
#include "vtkFloatArray.h"
#include "vtkGradientFilter.h"
#include "vtkIdTypeArray.h"
#include "vtkIdList.h"
#include "vtkPoints.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>

namespace adapt_vtk {

namespace {

namespace iso = adapt::iso;

/* The dtype of a VTK type code, false for the types the core does not read
 * (bit, string, variant arrays). */
bool DtypeOf(int vtkType, iso::dtype *t) {
  switch (vtkType) {
  case VTK_CHAR: *t = iso::dtype_of<char>(); return true;
  case VTK_SIGNED_CHAR: *t = iso::dtype::int8; return true;
  case VTK_UNSIGNED_CHAR: *t = iso::dtype::uint8; return true;
  case VTK_SHORT: *t = iso::dtype::int16; return true;
  case VTK_UNSIGNED_SHORT: *t = iso::dtype::uint16; return true;
  case VTK_INT: *t = iso::dtype::int32; return true;
  case VTK_UNSIGNED_INT: *t = iso::dtype::uint32; return true;
  case VTK_LONG: *t = iso::dtype_of<long>(); return true;
  case VTK_UNSIGNED_LONG: *t = iso::dtype_of<unsigned long>(); return true;
  case VTK_ID_TYPE: *t = iso::dtype_of<vtkIdType>(); return true;
  case VTK_LONG_LONG: *t = iso::dtype::int64; return true;
  case VTK_UNSIGNED_LONG_LONG: *t = iso::dtype::uint64; return true;
  case VTK_FLOAT: *t = iso::dtype::float32; return true;
  case VTK_DOUBLE: *t = iso::dtype::float64; return true;
  default: return false;
  }
}

/* The view of a contiguous (AOS) numeric array. */
int View(vtkDataArray *a, iso::array *v) {
  iso::dtype t;
  if (!DtypeOf(a->GetDataType(), &t)) return -EINVAL;
  v->data = a->GetVoidPointer(0);
  v->type = t;
  v->count = size_t(a->GetNumberOfTuples());
  v->components = a->GetNumberOfComponents();
  return 0;
}

/* The cells: an unstructured grid's cell arrays (32- or 64-bit) and types,
 * or the tetrahedra of a structured block. */
void ViewCells(const Input &in, Call *call) {
  if (!in.Ugrid) {
    if (in.Tets64.empty())
      call->In.connectivity = iso::view(in.Tets32.data(), in.Tets32.size());
    else
      call->In.connectivity = iso::view(in.Tets64.data(), in.Tets64.size());
    return;
  }
  auto *ug = static_cast<vtkUnstructuredGrid *>(in.Ugrid);
  vtkCellArray *cells = ug->GetCells();
  vtkDataArray *off, *conn;
  if (cells->IsStorage64Bit()) {
    off = cells->GetOffsetsArray64();
    conn = cells->GetConnectivityArray64();
  } else {
    off = cells->GetOffsetsArray32();
    conn = cells->GetConnectivityArray32();
  }
  View(off, &call->In.offsets);
  View(conn, &call->In.connectivity);
  View(ug->GetCellTypesArray(), &call->In.types);
}

/* The surfaces whose buffers output arrays hold, by buffer: an entry per
 * adopted array, dropped by the array's free function (Released), on
 * whatever thread frees it. Never destroyed: arrays may outlive main. */
struct Held {
  std::mutex Lock;
  std::unordered_map<const void *, std::shared_ptr<const iso::surface>> By;
};
Held &HeldSurfaces() {
  static Held *h = new Held;
  return *h;
}

void Released(void *data) {
  std::shared_ptr<const iso::surface> drop; /* destroyed outside the lock */
  Held &h = HeldSurfaces();
  std::lock_guard<std::mutex> g(h.Lock);
  auto it = h.By.find(data);
  if (it == h.By.end()) return;
  drop = std::move(it->second);
  h.By.erase(it);
}

/* a (empty, its components set) made the view of `values` elements of s's
 * memory at data, holding s until VTK frees it. */
void Adopt(vtkDataArray *a, const void *data, vtkIdType values,
           const std::shared_ptr<iso::surface> &s) {
  if (values == 0 || !data) return;
  {
    Held &h = HeldSurfaces();
    std::lock_guard<std::mutex> g(h.Lock);
    h.By[data] = s;
  }
  a->SetVoidArray(const_cast<void *>(data), values, 0,
                  vtkAbstractArray::VTK_DATA_ARRAY_USER_DEFINED);
  a->SetArrayFreeFunction(Released);
}

/* The output array of the same type, name and components as `like`, the
 * view of the n tuples at data (s's memory, adopted). */
vtkSmartPointer<vtkDataArray> ArrayFrom(vtkDataArray *like, const void *data, vtkIdType n,
                                        const std::shared_ptr<iso::surface> &s) {
  vtkSmartPointer<vtkDataArray> a;
  a.TakeReference(vtkDataArray::CreateDataArray(like->GetDataType()));
  a->SetName(like->GetName());
  a->SetNumberOfComponents(like->GetNumberOfComponents());
  for (int c = 0; c < like->GetNumberOfComponents(); c++)
    if (like->GetComponentName(c)) a->SetComponentName(c, like->GetComponentName(c));
  Adopt(a, data, n * like->GetNumberOfComponents(), s);
  return a;
}

/* keep, when nothing but keep holds it, else a new array A, made `tuples`
 * tuples of `comps` (its memory reused when it is large enough). */
template <class A>
A *Kept(vtkSmartPointer<A> *keep, int comps, vtkIdType tuples) {
  if (!*keep || (*keep)->GetReferenceCount() > 1) *keep = vtkSmartPointer<A>::New();
  (*keep)->SetNumberOfComponents(comps);
  (*keep)->SetNumberOfTuples(tuples);
  return *keep;
}

void FillPoints(const std::shared_ptr<iso::surface> &s, bool floatPoints, Reuse *reuse,
                vtkPolyData *out) {
  const vtkIdType n = vtkIdType(s->num_points());
  vtkNew<vtkPoints> pts;
  const double *xyz = s->points();
  if (floatPoints) {
    vtkFloatArray *a = Kept(&reuse->FloatPoints, 3, n);
    float *f = a->GetPointer(0);
    for (vtkIdType i = 0; i < 3 * n; i++) f[i] = float(xyz[i]);
    pts->SetData(a);
  } else {
    vtkNew<vtkDoubleArray> a;
    a->SetNumberOfComponents(3);
    Adopt(a, xyz, 3 * n, s);
    pts->SetData(a);
  }
  out->SetPoints(pts);
}

void FillTriangles(const std::shared_ptr<iso::surface> &s, Reuse *reuse, vtkPolyData *out) {
  const vtkIdType n = vtkIdType(s->num_triangles());
  vtkTypeInt64Array *offsets = Kept(&reuse->Offsets, 1, n + 1);
  vtkTypeInt64 *o = offsets->GetPointer(0);
  for (vtkIdType t = 0; t <= n; t++) o[t] = 3 * t;
  vtkNew<vtkTypeInt64Array> conn;
  Adopt(conn, s->triangles(), 3 * n, s);
  vtkNew<vtkCellArray> polys;
  polys->SetData(offsets, conn);
  out->SetPolys(polys);
}

/* Every array of from but skip into to (its attributes kept), tuple i of
 * each the tuple ids[i] of from's. */
void CopyTuples(vtkDataSetAttributes *from, vtkIdList *ids, vtkAbstractArray *skip,
                vtkDataSetAttributes *to) {
  for (int a = 0; a < from->GetNumberOfArrays(); a++) {
    vtkAbstractArray *arr = from->GetAbstractArray(a);
    if (!arr || arr == skip) continue;
    vtkSmartPointer<vtkAbstractArray> o;
    o.TakeReference(arr->NewInstance());
    o->SetName(arr->GetName());
    o->SetNumberOfComponents(arr->GetNumberOfComponents());
    for (int c = 0; c < arr->GetNumberOfComponents(); c++)
      if (arr->GetComponentName(c)) o->SetComponentName(c, arr->GetComponentName(c));
    o->SetNumberOfTuples(ids->GetNumberOfIds());
    arr->GetTuples(ids, o);
    const int attr = from->IsArrayAnAttribute(a);
    auto *oda = vtkDataArray::SafeDownCast(o);
    if (attr >= 0 && oda)
      to->SetAttribute(oda, attr);
    else
      to->AddArray(o);
  }
}

/* The cell arrays, each triangle taking the tuple of its source cell (as
 * vtkContourGrid's CopyData; the active global ids are not copied). */
void FillCellData(const iso::surface &s, const Input &in, vtkPolyData *out) {
  const vtkIdType n = vtkIdType(s.num_triangles());
  if (!s.cell_ids()) return; /* no cell array to copy */
  vtkNew<vtkIdList> src;
  src->SetNumberOfIds(n);
  const std::int64_t *ids = s.cell_ids();
  for (vtkIdType t = 0; t < n; t++)
    src->SetId(t, !in.Structured       ? vtkIdType(ids[t])
                  : in.TetCell.empty() ? vtkIdType(ids[t] / 5)
                                       : in.TetCell[size_t(ids[t])]);
  CopyTuples(in.CellData, src, in.CellData->GetGlobalIds(), out->GetCellData());
}

} // namespace

int BuildCall(const Input &in, bool computeScalars, Call *call, std::string *err) {
  call->Keep.clear();
  call->PointArrays.clear();
  call->PointAttributes.clear();
  View(in.Points, &call->In.points);
  if (View(in.Scalars, &call->In.scalars) != 0) {
    *err = std::string("the scalars are of type ") + in.Scalars->GetDataTypeAsString() +
           ", not a numeric type";
    return -EINVAL;
  }
  ViewCells(in, call);
  vtkPointData *pd = in.PointData;
  vtkAbstractArray *skip[2] = {pd->GetGlobalIds(), pd->GetPedigreeIds()};
  call->Req.point_data.clear();
  for (int a = 0; a < pd->GetNumberOfArrays(); a++) {
    vtkDataArray *arr = pd->GetArray(a);
    iso::dtype t;
    if (!arr || arr == skip[0] || arr == skip[1] || !DtypeOf(arr->GetDataType(), &t)) continue;
    if (arr == pd->GetScalars() && !computeScalars) continue;
    if (arr->GetNumberOfTuples() != in.NumberOfPoints) {
      *err = std::string("the point array '") + (arr->GetName() ? arr->GetName() : "") + "' has " +
             std::to_string(arr->GetNumberOfTuples()) + " tuples for " +
             std::to_string(in.NumberOfPoints) + " points";
      return -EINVAL;
    }
    vtkSmartPointer<vtkDataArray> c = arr;
    if (!arr->HasStandardMemoryLayout()) {
      c.TakeReference(vtkDataArray::CreateDataArray(arr->GetDataType()));
      c->DeepCopy(arr);
      call->Keep.push_back(c);
    }
    iso::array v;
    View(c, &v);
    call->Req.point_data.push_back(v);
    call->PointArrays.push_back(arr);
    call->PointAttributes.push_back(pd->IsArrayAnAttribute(a));
  }
  vtkCellData *cd = in.CellData;
  bool cellArrays = false;
  for (int a = 0; a < cd->GetNumberOfArrays(); a++) {
    vtkAbstractArray *arr = cd->GetAbstractArray(a);
    if (arr && arr != cd->GetGlobalIds() && arr->GetNumberOfTuples() < in.NumberOfCells) {
      *err = std::string("the cell array '") + (arr->GetName() ? arr->GetName() : "") + "' has " +
             std::to_string(arr->GetNumberOfTuples()) + " tuples for " +
             std::to_string(in.NumberOfCells) + " cells";
      return -EINVAL;
    }
    cellArrays = cellArrays || (arr && arr != cd->GetGlobalIds());
  }
  call->Req.cell_ids = cellArrays; /* the source cells, to copy the cell arrays */
  call->Req.scalars = false;
  return 0;
}

int AddGradients(vtkDataSet *input, const Input &in, Call *call, std::string *err) {
  /* The scalars (perhaps converted from cell data) under a name of their
   * own on a shallow copy of the input, for vtkGradientFilter. */
  static const char *const kScalars = "adapt_vtk_gradient_scalars";
  vtkSmartPointer<vtkDataSet> copy;
  copy.TakeReference(input->NewInstance());
  copy->ShallowCopy(input);
  vtkSmartPointer<vtkDataArray> s;
  s.TakeReference(in.Scalars->NewInstance());
  s->ShallowCopy(in.Scalars);
  s->SetName(kScalars);
  copy->GetPointData()->AddArray(s);
  vtkNew<vtkGradientFilter> g;
  g->SetInputData(copy);
  g->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, kScalars);
  g->SetResultArrayName("Gradients");
  g->Update();
  auto *o = vtkDataSet::SafeDownCast(g->GetOutputDataObject(0));
  vtkDataArray *grad = o ? o->GetPointData()->GetArray("Gradients") : nullptr;
  if (!grad || grad->GetNumberOfTuples() != in.NumberOfPoints ||
      grad->GetNumberOfComponents() != 3) {
    *err = "ComputeGradients: vtkGradientFilter gave no point gradients of the scalars";
    return -EINVAL;
  }
  vtkNew<vtkFloatArray> f;
  f->DeepCopy(grad); /* float, as vtkSynchronizedTemplates3D's */
  f->SetName("Gradients");
  call->Keep.push_back(f.Get());
  iso::array v;
  View(f, &v);
  call->Req.point_data.push_back(v);
  call->PointArrays.push_back(f);
  call->PointAttributes.push_back(in.PointData->GetVectors() ? -1 : vtkDataSetAttributes::VECTORS);
  return 0;
}

/* True for the locators that merge exactly coincident points and nothing
 * else: vtkMergePoints, an incremental octree of tolerance 0. */
bool MergesExactly(vtkIncrementalPointLocator *locator) {
  return locator->IsA("vtkMergePoints") ||
         (locator->IsA("vtkIncrementalOctreePointLocator") && locator->GetTolerance() == 0.0);
}

/* The hash of a point's coordinates (-0 made +0: equal coordinates, equal
 * hashes). */
template <class T>
std::uint64_t HashPoint(const T *q) {
  std::uint64_t h = 0;
  for (int k = 0; k < 3; k++) {
    const double v = double(q[k]) + 0.0;
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    h = (h ^ bits) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  }
  return h;
}

/* MergeCoincident's loop on the coordinates x (n points). */
template <class T>
bool MergeCoincidentAt(const T *x, vtkIdType n, std::vector<vtkIdType> *map, vtkIdList *from) {
  std::size_t cap = 16;
  while (cap < 2 * std::size_t(n)) cap <<= 1;
  std::vector<vtkIdType> table(cap, -1); /* open addressing: an old point id, or -1 */
  bool same = true;
  for (vtkIdType p = 0; p < n; p++) {
    const T *q = x + 3 * p;
    std::size_t h = std::size_t(HashPoint(q)) & (cap - 1);
    vtkIdType id = -1;
    for (; table[h] >= 0; h = (h + 1) & (cap - 1)) {
      const T *o = x + 3 * table[h];
      if (o[0] == q[0] && o[1] == q[1] && o[2] == q[2]) {
        id = (*map)[std::size_t(table[h])];
        break;
      }
    }
    if (id < 0) {
      table[h] = p;
      id = from->GetNumberOfIds();
      from->InsertNextId(p);
    }
    (*map)[std::size_t(p)] = id;
    same = same && id == p;
  }
  return !same;
}

/* The exact merge of MergesExactly's locators, without them: the points of
 * equal coordinates made one (the first), in one pass of a hash table (the
 * same points as theirs, several times faster than vtkMergePoints' buckets).
 * *from and conn as Locate's; false when no two points coincide. */
bool MergeCoincident(vtkPoints *old, const vtkTypeInt64 *c, vtkIdType corners, vtkIdList *from,
                     vtkTypeInt64 *conn) {
  const vtkIdType n = old->GetNumberOfPoints();
  std::vector<vtkIdType> map(std::size_t(n), 0);
  from->Allocate(n);
  const void *x = old->GetData()->GetVoidPointer(0);
  const bool changed = old->GetDataType() == VTK_FLOAT
                           ? MergeCoincidentAt(static_cast<const float *>(x), n, &map, from)
                           : MergeCoincidentAt(static_cast<const double *>(x), n, &map, from);
  for (vtkIdType k = 0; changed && k < corners; k++) conn[k] = map[std::size_t(c[k])];
  return changed;
}

/* The ids of the points that locator keeps of out's points: *from, per new
 * point, the old point it copies; conn, the triangles renumbered. Returns
 * false when nothing changes (a merging locator that merged nothing). */
bool Locate(vtkIncrementalPointLocator *locator, vtkPoints *old, const vtkTypeInt64 *c,
            vtkIdType corners, vtkIdList *from, vtkTypeInt64 *conn) {
  const vtkIdType n = old->GetNumberOfPoints();
  double x[3];
  vtkIdType id;
  if (locator->IsA("vtkNonMergingPointLocator")) {
    from->SetNumberOfIds(corners);
    for (vtkIdType k = 0; k < corners; k++) {
      old->GetPoint(c[k], x);
      locator->InsertUniquePoint(x, id); /* always a new point */
      from->SetId(id, c[k]);
      conn[k] = id;
    }
    return true;
  }
  std::vector<vtkIdType> map(size_t(n), 0);
  bool same = true;
  for (vtkIdType p = 0; p < n; p++) {
    old->GetPoint(p, x);
    if (locator->InsertUniquePoint(x, id)) from->InsertNextId(p);
    map[size_t(p)] = id;
    same = same && id == p;
  }
  for (vtkIdType k = 0; !same && k < corners; k++) conn[k] = map[size_t(c[k])];
  return !same;
}

int LocatePoints(vtkIncrementalPointLocator *locator, vtkPolyData *out) {
  vtkPoints *old = out->GetPoints();
  vtkCellArray *polys = out->GetPolys();
  if (!old || old->GetNumberOfPoints() == 0 || !polys || !polys->IsStorage64Bit()) return 0;
  try {
    vtkTypeInt64Array *conn = polys->GetConnectivityArray64();
    const vtkIdType corners = conn->GetNumberOfValues();
    vtkNew<vtkTypeInt64Array> nconn;
    nconn->SetNumberOfValues(corners);
    vtkNew<vtkIdList> from;
    vtkNew<vtkPoints> pts;
    pts->SetDataType(old->GetDataType());
    bool changed;
    if (MergesExactly(locator)) {
      changed = MergeCoincident(old, conn->GetPointer(0), corners, from, nconn->GetPointer(0));
      if (changed) {
        pts->SetNumberOfPoints(from->GetNumberOfIds());
        old->GetData()->GetTuples(from, pts->GetData());
      }
    } else {
      double bounds[6];
      old->GetBounds(bounds);
      locator->InitPointInsertion(pts, bounds, old->GetNumberOfPoints());
      changed = Locate(locator, old, conn->GetPointer(0), corners, from, nconn->GetPointer(0));
      locator->Initialize(); /* its memory freed, as vtkContourGrid does */
    }
    if (!changed) return 0;
    vtkNew<vtkPointData> pd;
    CopyTuples(out->GetPointData(), from, nullptr, pd);
    vtkNew<vtkCellArray> npolys;
    npolys->SetData(polys->GetOffsetsArray64(), nconn);
    out->SetPoints(pts);
    out->SetPolys(npolys);
    out->GetPointData()->ShallowCopy(pd);
  } catch (const std::bad_alloc &) {
    locator->Initialize();
    out->Initialize();
    return -ENOMEM;
  }
  return 0;
}

std::shared_ptr<iso::surface> Reuse::Next() {
  /* A pool entry referenced only here: no output array holds it (the
   * arrays' free functions drop their references; use_count only
   * decreases meanwhile: a stale count makes a new surface, never a reuse
   * of a held one). */
  for (const std::shared_ptr<iso::surface> &p : Pool)
    if (p.use_count() == 1) return p;
  constexpr size_t kMaxPool = 8;
  if (Pool.size() >= kMaxPool) Pool.erase(Pool.begin()); /* held by its arrays until freed */
  Pool.push_back(std::make_shared<iso::surface>());
  return Pool.back();
}

int FillOutput(const std::shared_ptr<iso::surface> &sp, const Input &in, const Call &call,
               bool floatPoints, Reuse *reuse, vtkPolyData *out) {
  const iso::surface &s = *sp;
  try {
    FillPoints(sp, floatPoints, reuse, out);
    FillTriangles(sp, reuse, out);
    vtkPointData *opd = out->GetPointData();
    for (size_t i = 0; i < call.PointArrays.size(); i++) {
      vtkDataArray *like = call.PointArrays[i];
      iso::array v = s.point_data(i);
      vtkSmartPointer<vtkDataArray> o = ArrayFrom(like, v.data, vtkIdType(s.num_points()), sp);
      if (call.PointAttributes[i] >= 0)
        opd->SetAttribute(o, call.PointAttributes[i]);
      else
        opd->AddArray(o);
    }
    if (call.Req.normals) {
      vtkNew<vtkFloatArray> normals;
      normals->SetName("Normals");
      normals->SetNumberOfComponents(3);
      Adopt(normals, s.normals(), 3 * vtkIdType(s.num_points()), sp);
      opd->SetNormals(normals);
    }
    FillCellData(s, in, out);
  } catch (const std::bad_alloc &) {
    out->Initialize();
    return -ENOMEM;
  }
  return 0;
}

} // namespace adapt_vtk
