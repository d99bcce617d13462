/* apps/isosurface/cli: VTK's contour filters as peers of the app's extraction
 * (VtkGrid, see vtk_bridge.h): vtkContourGrid, vtkContour3DLinearGrid on
 * TBB and STDThread, and --smp-check's vtkSMPContourGrid. */
#include "names.h"
#include "vtk_bridge.h"
#include "vtk_convert.h"
#include "vtk_quiet.h"

#include <vtkCommand.h>
#include <vtkContour3DLinearGrid.h>
#include <vtkContourGrid.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkSMPContourGrid.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <tbb/global_control.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace iso {

namespace {

/* VTK's SMP tools on `backend` with `threads` threads while it lives
 * (start(): 0, or -ENOTSUP). VTK 9.1's Initialize(threads) bounds its For
 * loops (run in a TBB arena of that size) but not its Sort, which calls
 * tbb::parallel_sort outside the arena, on every core: vtkContour3DLinearGrid
 * "at 1 thread" sorted its edges on two. A TBB global_control bounds both. */
class SmpThreads {
public:
  int start(const char *backend, int threads, std::string *err) {
    if (!vtkSMPTools::SetBackend(backend)) {
      *err = std::string("VTK SMP backend ") + backend + " is not available in this VTK";
      return -ENOTSUP;
    }
    vtkSMPTools::Initialize(threads);
    limit_.reset(new tbb::global_control(tbb::global_control::max_allowed_parallelism,
                                         (size_t)std::max(threads, 1)));
    return 0;
  }

private:
  std::unique_ptr<tbb::global_control> limit_;
};

/* Seconds taken by f->Update(). */
double timed_update(vtkAlgorithm *f) {
  const auto t0 = std::chrono::steady_clock::now();
  f->Update();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

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
   * point scalars, the isovalues (SetValue(i, v)), neither normals nor
   * scalars output. */
  template <class Filter>
  void contour(Filter *f, const std::vector<double> &isos, ErrorCatcher *catcher) const {
    f->AddObserver(vtkCommand::ErrorEvent, catcher);
    f->SetInputData(ug);
    f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, array.c_str());
    f->SetNumberOfContours((int)isos.size());
    for (size_t i = 0; i < isos.size(); i++) f->SetValue((int)i, isos[i]);
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

int VtkGrid::run(Peer p, const std::vector<double> &isos, int threads, PeerResult *out,
                 std::string *err) {
  vtkNew<ErrorCatcher> catcher;
  vtkSmartPointer<vtkPolyData> pd;
  double seconds;
  if (p == Peer::ContourGrid) {
    vtkNew<vtkContourGrid> f;
    impl_->contour(f.Get(), isos, catcher);
    f->GenerateTrianglesOn();
    f->UseScalarTreeOff();
    seconds = timed_update(f);
    pd = f->GetOutput();
  } else {
    SmpThreads smp;
    int rc = smp.start(p == Peer::Linear3DTBB ? "TBB" : "STDThread", threads, err);
    if (rc) return rc;
    vtkNew<vtkContour3DLinearGrid> f;
    impl_->contour(f.Get(), isos, catcher);
    f->MergePointsOn();
    f->InterpolateAttributesOff();
    f->UseScalarTreeOff();
    f->SequentialProcessingOff();
    seconds = timed_update(f);
    pd = vtkPolyData::SafeDownCast(f->GetOutputDataObject(0));
  }
  if (catcher->failed || !pd) {
    *err = std::string(peer_name(p)) + " failed: " + message_line(catcher->message);
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
  impl_->contour(ref.Get(), {iso}, catcher);
  ref->Update();
  std::multiset<TriKey> want = triangle_keys(ref->GetOutput());
  SmpThreads threads_limit;
  if (int rc = threads_limit.start("TBB", threads, err)) return rc;
  vtkNew<vtkSMPContourGrid> smp;
  impl_->contour(smp.Get(), {iso}, catcher);
  smp->MergePiecesOn();
  smp->Update();
  vtkPolyData *pd = vtkPolyData::SafeDownCast(smp->GetOutputDataObject(0));
  if (catcher->failed || !pd) {
    *err = "vtkSMPContourGrid failed" + caught_reason(*catcher);
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
