/* test_vtk_filter: composites, the output's arrays, the errors, the
 * docs' C++ example (test_vtk_filter.h) and the ranks' shares of a machine
 * (rank_share.h: the filter's workers under mpirun). */
#include "rank_share.h"
#include "test_vtk_filter.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCompositeDataIterator.h>
#include <vtkCompositeDataSet.h>
#include <vtkContourGrid.h>
#include <vtkDataArray.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkDoubleArray.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkPartitionedDataSet.h>
#include <vtkPartitionedDataSetCollection.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRTAnalyticSource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/* Block i of the output composite against the filter on block i alone. */
void CheckBlocks(const std::string &name, vtkDataObject *in, vtkDataObject *out,
                 vtkDataObject *const *blocks, int n) {
  if (!Check(out && std::string(out->GetClassName()) == in->GetClassName(),
             name + ": the output is a " + in->GetClassName()))
    return;
  auto *cd = vtkCompositeDataSet::SafeDownCast(out);
  vtkCompositeDataIterator *iter = cd->NewIterator();
  int k = 0, same = 0;
  for (iter->InitTraversal(); !iter->IsDoneWithTraversal(); iter->GoToNextItem(), k++) {
    if (k >= n) break;
    vtkSmartPointer<vtkDataObject> alone = Adaptive(blocks[k], {0.2}, "s");
    same += SameBytes(Poly(iter->GetCurrentDataObject()), Poly(alone)) ? 1 : 0;
  }
  iter->Delete();
  Check(k == n && same == n,
        name + ": " + std::to_string(n) + " blocks, each the filter's surface of that block alone");
}

} // namespace

void TestComposites() {
  vtkSmartPointer<vtkImageData> img = Image(9, 8, 7);
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(Image(8, 9, 10));
  vtkDataObject *blocks[2] = {img, grid};
  vtkNew<vtkMultiBlockDataSet> mb;
  mb->SetNumberOfBlocks(2);
  mb->SetBlock(0, img);
  mb->SetBlock(1, grid);
  mb->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "tets");
  vtkSmartPointer<vtkDataObject> mb_out = Adaptive(mb, {0.2}, "s");
  CheckBlocks("vtkMultiBlockDataSet", mb, mb_out, blocks, 2);
  auto *named = vtkMultiBlockDataSet::SafeDownCast(mb_out);
  Check(named && named->HasMetaData(1u) &&
            std::string(named->GetMetaData(1u)->Get(vtkCompositeDataSet::NAME())) == "tets",
        "vtkMultiBlockDataSet: the blocks' names kept");
  vtkNew<vtkPartitionedDataSet> pds;
  pds->SetPartition(0, img);
  pds->SetPartition(1, grid);
  CheckBlocks("vtkPartitionedDataSet", pds, Adaptive(pds, {0.2}, "s"), blocks, 2);
  vtkNew<vtkPartitionedDataSetCollection> pdc;
  vtkNew<vtkPartitionedDataSet> p0, p1;
  p0->SetPartition(0, img);
  p1->SetPartition(0, grid);
  pdc->SetPartitionedDataSet(0, p0);
  pdc->SetPartitionedDataSet(1, p1);
  CheckBlocks("vtkPartitionedDataSetCollection", pdc, Adaptive(pdc, {0.2}, "s"), blocks, 2);
}

/* Normals: unit, float, one per point, pointing as the triangles' windings
 * do, and vtkContourGrid's with ComputeNormals (vtkPolyDataNormals: the
 * same triangles wound alike, the same normals within 1e-6); ComputeScalars
 * off: no scalars array. */
void TestOutputs() {
  vtkSmartPointer<vtkImageData> img = Image(12, 11, 10);
  Options o;
  o.normals = true;
  vtkSmartPointer<vtkDataObject> out = Adaptive(img, {0.3}, "s", o);
  vtkPolyData *pd = Poly(out);
  vtkDataArray *n = pd ? pd->GetPointData()->GetNormals() : nullptr;
  if (Check(n && n->GetDataType() == VTK_FLOAT && n->GetNumberOfComponents() == 3 &&
                n->GetNumberOfTuples() == pd->GetNumberOfPoints() && pd->GetNumberOfCells() > 0,
            "normals: a float array of 3 components per point")) {
    int bad = 0;
    for (vtkIdType t = 0; t < pd->GetNumberOfCells(); t++) {
      vtkIdType np;
      const vtkIdType *ids;
      pd->GetPolys()->GetCellAtId(t, np, ids);
      double a[3], b[3], c[3], m[3];
      pd->GetPoint(ids[0], a);
      pd->GetPoint(ids[1], b);
      pd->GetPoint(ids[2], c);
      n->GetTuple(ids[0], m);
      const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const double f[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                           u[0] * v[1] - u[1] * v[0]};
      const double len = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
      if (std::fabs(len - 1.0) > 1e-6 || m[0] * f[0] + m[1] * f[1] + m[2] * f[2] < 0) bad++;
    }
    Check(bad == 0,
          "normals: unit, on the side of the triangles' winding (" + std::to_string(bad) + " not)");
    vtkNew<vtkContourGrid> cg;
    cg->SetInputData(Tetrahedra(img));
    cg->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
    cg->SetValue(0, 0.3);
    cg->ComputeNormalsOn();
    cg->Update();
    Compare("normals against vtkContourGrid's", pd, cg->GetOutput());
  }
  o.normals = false;
  o.scalars = false;
  vtkSmartPointer<vtkDataObject> plain = Adaptive(img, {0.3}, "s", o);
  vtkPolyData *ns = Poly(plain);
  Check(ns && ns->GetNumberOfCells() == pd->GetNumberOfCells() &&
            !ns->GetPointData()->GetArray("s") && ns->GetPointData()->GetArray("d3"),
        "ComputeScalars off: the other arrays, not the scalars");
}

namespace {

/* The filter on data reports an error naming `word`, its output empty. */
void ExpectError(const std::string &name, vtkDataObject *data, const char *array,
                 const std::string &word, const Options &o = Options()) {
  vtkNew<ErrorLog> log;
  vtkSmartPointer<vtkDataObject> out = Adaptive(data, {0.5}, array, o, log);
  vtkPolyData *pd = Poly(out);
  Check(pd && pd->GetNumberOfCells() == 0 && pd->GetNumberOfPoints() == 0,
        name + ": an empty output");
  const std::string msg = log->Messages.empty() ? "none" : log->Messages.back();
  Check(log->Messages.size() == 1 && msg.find(word) != std::string::npos,
        name + ": one error naming '" + word + "': " + msg);
}

vtkSmartPointer<vtkUnstructuredGrid> OneCell(int type, int npts) {
  auto g = vtkSmartPointer<vtkUnstructuredGrid>::New();
  vtkNew<vtkPoints> pts;
  std::vector<vtkIdType> ids;
  for (int i = 0; i < npts; i++) {
    pts->InsertNextPoint(i % 2, (i / 2) % 2, i / 4);
    ids.push_back(i);
  }
  g->SetPoints(pts);
  g->InsertNextCell(type, npts, ids.data());
  vtkNew<vtkDoubleArray> s;
  s->SetName("s");
  for (int i = 0; i < npts; i++) s->InsertNextValue(double(i) / npts);
  g->GetPointData()->SetScalars(s);
  return g;
}

} // namespace

/* The output arrays adopt the core's buffers: a second Update whose
 * previous output nobody holds reuses them; an output held (a shallow
 * copy) keeps its values through later Updates at another isovalue and
 * the filter's deletion. */
void TestReuse() {
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(Image(10, 9, 8));
  auto f = vtkSmartPointer<vtkAdaptiveContourFilter>::New();
  f->SetInputData(grid);
  f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
  f->SetValue(0, 0.3);
  f->Update();
  auto pointer = [](vtkPolyData *pd) { return pd->GetPoints()->GetData()->GetVoidPointer(0); };
  const void *first = pointer(f->GetOutput());
  f->SetValue(0, 0.31);
  f->Update();
  Check(pointer(f->GetOutput()) == first && f->GetOutput()->GetNumberOfCells() > 0,
        "reuse: a second Update writes into the first output's memory");
  vtkNew<vtkPolyData> held;
  held->ShallowCopy(f->GetOutput());
  auto bytes = [](vtkPolyData *pd) {
    std::vector<char> b;
    for (vtkDataArray *a : {pd->GetPoints()->GetData(), pd->GetPolys()->GetConnectivityArray(),
                            pd->GetPointData()->GetArray("d3")}) {
      const char *p = static_cast<const char *>(a->GetVoidPointer(0));
      b.insert(b.end(), p, p + a->GetNumberOfValues() * a->GetDataTypeSize());
    }
    return b;
  };
  const std::vector<char> before = bytes(held);
  f->SetValue(0, -0.2);
  f->Update();
  Check(pointer(f->GetOutput()) != pointer(held) && bytes(held) == before,
        "reuse: an output held keeps its values through the next Update");
  f = nullptr; /* the filter deleted: the held output's memory stays */
  Compare("reuse: the output held, after another Update and the filter's deletion", held,
          ContourGrid(grid, {0.31}, "s"));
}

void TestErrors() {
  vtkNew<vtkUnstructuredGrid> empty;
  vtkNew<ErrorLog> log;
  vtkSmartPointer<vtkDataObject> out = Adaptive(empty, {0.5}, nullptr, Options(), log);
  vtkPolyData *e = Poly(out);
  Check(e && e->GetNumberOfCells() == 0 && log->Messages.empty(),
        "empty input: an empty output, no error (as vtkContourGrid)");
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(Image(5, 5, 5));
  vtkNew<vtkUnstructuredGrid> bare;
  bare->CopyStructure(grid);
  ExpectError("no scalars", bare, nullptr, "no scalars");
  ExpectError("a wrong array name", grid, "nonexistent", "nonexistent");
  vtkNew<vtkDoubleArray> two;
  two->SetName("two");
  two->SetNumberOfComponents(2);
  two->SetNumberOfTuples(grid->GetNumberOfPoints());
  two->Fill(0.5);
  grid->GetPointData()->AddArray(two);
  ExpectError("scalars of 2 components", grid, "two", "components");
  vtkNew<vtkDoubleArray> shortp, shortc;
  shortp->SetName("shortp");
  shortp->SetNumberOfTuples(grid->GetNumberOfPoints() - 1);
  shortp->Fill(0.0);
  shortc->SetName("shortc");
  shortc->SetNumberOfTuples(grid->GetNumberOfCells() - 1);
  shortc->Fill(0.0);
  grid->GetPointData()->AddArray(shortp);
  ExpectError("scalars of another length than the points", grid, "shortp", "values for");
  ExpectError("a point array of another length", grid, "s", "shortp");
  grid->GetPointData()->RemoveArray("shortp");
  grid->GetCellData()->AddArray(shortc);
  ExpectError("a cell array shorter than the cells", grid, "s", "shortc");
  grid->GetCellData()->RemoveArray("shortc");
  ExpectError("a triangle", OneCell(VTK_TRIANGLE, 3), "s", "cell 0");
  ExpectError("a quadratic tetrahedron", OneCell(VTK_QUADRATIC_TETRA, 10), "s", "cell 0");
  ExpectError("a 2D image", Image(6, 5, 1), "s", "not 3D");
  vtkNew<vtkPolyData> poly;
  poly->ShallowCopy(Poly(Adaptive(Image(12, 11, 10), {0.3}, "s")));
  Check(poly->GetNumberOfCells() > 0, "a vtkPolyData with cells to contour");
  ExpectError("a vtkPolyData input", poly, "s", "vtkPolyData");
  /* The runtime runs (the calls above started it): another worker count
   * is refused with the core's message. */
  Options o;
  o.workers = 61;
  ExpectError("61 workers while the runtime runs with 2", Image(6, 6, 6), "s", "worker", o);
}

/* The docs' example prints the counts vtkContourGrid gives on its pipeline. */
void TestExample(const char *example) {
  FILE *p = popen(example, "r");
  char line[256] = "";
  const bool read = p && std::fgets(line, sizeof line, p) != nullptr;
  const int rc = p ? pclose(p) : -1;
  long long tris = -1, pts = -1;
  std::sscanf(line, "contour: %lld triangles, %lld points", &tris, &pts);
  vtkNew<vtkRTAnalyticSource> w;
  w->SetWholeExtent(-20, 20, -20, 20, -20, 20);
  vtkNew<vtkDataSetTriangleFilter> t;
  t->SetInputConnection(w->GetOutputPort());
  vtkNew<vtkContourGrid> cg;
  cg->SetInputConnection(t->GetOutputPort());
  cg->SetValue(0, 120.0);
  cg->SetValue(1, 200.0);
  cg->Update();
  Check(read && rc == 0 && tris == cg->GetOutput()->GetNumberOfCells() &&
            pts == cg->GetOutput()->GetNumberOfPoints(),
        std::string("the docs' C++ example: ") + line);
}

/* rank_share on a synthetic machine of 4 cores of 2 PUs: the shares of 1,
 * 2, 3 and 8 ranks (contiguous cores; round robin, oversubscribed, past
 * 4), and the launcher's variables rank_share_workers reads. */
void TestRankShare() {
  hwloc_topology_t topo;
  bool ok = hwloc_topology_init(&topo) == 0;
  ok = ok && hwloc_topology_set_synthetic(topo, "core:4 pu:2") == 0 &&
       hwloc_topology_load(topo) == 0;
  if (!Check(ok, "a synthetic topology of 4 cores, 2 PUs each")) return;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char list[64];
  const struct {
    int rank, size, pus;
    const char *cpus;
    bool over;
  } cases[] = {{0, 1, 8, "0-7", false},
               {1, 2, 4, "4-7", false},
               {0, 3, 2, "0-1", false},
               {2, 3, 4, "4-7", false},
               {5, 8, 2, "2-3", true}};
  for (const auto &c : cases) {
    std::string note;
    const int pus = adapt_iso::rank_share(topo, c.rank, c.size, set, &note);
    hwloc_bitmap_list_snprintf(list, sizeof list, set);
    Check(pus == c.pus && std::string(list) == c.cpus && note.empty() != c.over,
          "rank " + std::to_string(c.rank) + " of " + std::to_string(c.size) + ": PUs " + list +
              " (" + std::to_string(pus) + "), note '" + note + "'");
  }
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
  int rank = -1, size = -1;
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "3", 1);
  Check(adapt_iso::launcher_local_rank(&rank, &size) && rank == 1 && size == 3,
        "Open MPI's local rank 1 of 3");
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  Check(!adapt_iso::launcher_local_rank(&rank, &size), "a local rank out of range: none");
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  unsetenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  Check(adapt_iso::rank_share_workers() == 0, "not under a launcher: no share");
}
