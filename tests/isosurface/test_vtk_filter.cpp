/* vtkAdaptiveContourFilter (apps/isosurface/vtk) in C++ against
 * vtkContourGrid, run by `make test` in the release variant. A plain
 * program: prints one line per check, exits with the number of failures.
 * Meshes: a generated tetrahedral grid (points float and double, 32- and
 * 64-bit cell arrays; point arrays of 1, 3, 9 components, float, double,
 * int; cell arrays; several isovalues), a vtkStructuredGrid and a
 * vtkRectilinearGrid (against vtkDataSetTriangleFilter's tetrahedra),
 * hidden cells and points of each input type (skipped where VTK 9.1's
 * vtkContourFilter skips them, checked on it) and DUPLICATECELL ghosts, cell
 * scalars, composites (vtkMultiBlockDataSet, vtkPartitionedDataSet,
 * vtkPartitionedDataSetCollection), every mode on 1 and 2 workers (byte for
 * byte), normals, ComputeScalars, the output's memory reused across
 * Updates (and kept by an output held), and the errors (empty input, no scalars,
 * a wrong array name, several components, 2D and quadratic cells, a 2D
 * image, an unsupported dataset, a worker count other than the running
 * runtime's), the calling thread's CPUs untouched. Then the docs' C++ example (VTKF_EXAMPLE) is run against
 * vtkContourGrid. Compared with vtkContourGrid: triangle and merged point
 * counts, the points as a set, every point array within 1e-6, the area
 * within 1e-9 relative, per value of each cell array the triangles' count
 * and area, the triangles wound alike, the normals. */
#include "test_vtk_filter.h"

#include <vtkAdaptiveContourFilter.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellDataToPointData.h>
#include <vtkCommand.h>
#include <vtkContourFilter.h>
#include <vtkContourGrid.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkLogger.h>
#include <vtkOutputWindow.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkPartitionedDataSet.h>
#include <vtkPartitionedDataSetCollection.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRectilinearGrid.h>
#include <vtkStructuredGrid.h>
#include <vtkUniformGrid.h>
#include <vtkUnstructuredGrid.h>

#include <sched.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

namespace {

void TestTetrahedra() {
  vtkSmartPointer<vtkImageData> img = Image(13, 11, 9);
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(img);
  AddCellArrays(grid);
  const std::vector<double> one = {0.3}, three = {-0.8, 0.1, 0.9};
  Compare("tetrahedra, 64-bit cells, double points, at 0.3", Poly(Adaptive(grid, one, "s")),
          ContourGrid(grid, one, "s"));
  Compare("tetrahedra, 3 isovalues", Poly(Adaptive(grid, three, "s")),
          ContourGrid(grid, three, "s"));
  Compare("tetrahedra, scalars f1 (float)", Poly(Adaptive(grid, one, "f1")),
          ContourGrid(grid, one, "f1"));
  vtkNew<vtkUnstructuredGrid> g32;
  g32->DeepCopy(grid);
  g32->GetCells()->ConvertTo32BitStorage();
  vtkNew<vtkPoints> fpts;
  fpts->SetDataTypeToFloat();
  fpts->DeepCopy(grid->GetPoints());
  fpts->SetDataTypeToFloat();
  fpts->GetData()->DeepCopy(grid->GetPoints()->GetData());
  g32->SetPoints(fpts);
  Check(!g32->GetCells()->IsStorage64Bit() && g32->GetPoints()->GetDataType() == VTK_FLOAT,
        "the 32-bit grid has 32-bit cells and float points");
  Compare("tetrahedra, 32-bit cells, float points, 3 isovalues", Poly(Adaptive(g32, three, "s")),
          ContourGrid(g32, three, "s"));
}

/* Every mode on 1 and 2 workers: the same output, byte for byte. */
void TestModes() {
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(Image(15, 13, 11));
  AddCellArrays(grid);
  const std::vector<double> v = {-0.5, 0.4};
  Options o;
  o.mode = vtkAdaptiveContourFilter::SEQUENTIAL;
  vtkSmartPointer<vtkDataObject> ref = Adaptive(grid, v, "s", o);
  for (int mode = vtkAdaptiveContourFilter::NONE; mode <= vtkAdaptiveContourFilter::SLIDING_WINDOW;
       mode++)
    for (int w : {1, 2}) {
      o.mode = mode;
      o.workers = w;
      Check(SameBytes(Poly(ref), Poly(Adaptive(grid, v, "s", o))),
            std::string("mode ") + vtkAdaptiveContourFilter::GetModeAsString(mode) + " on " +
                std::to_string(w) + " worker(s): the sequential output, byte for byte");
    }
}

void TestStructured() {
  vtkSmartPointer<vtkImageData> img = Image(12, 10, 9);
  vtkNew<vtkStructuredGrid> sg;
  sg->SetDimensions(img->GetDimensions());
  vtkNew<vtkPoints> pts;
  for (vtkIdType i = 0; i < img->GetNumberOfPoints(); i++) {
    double x[3];
    img->GetPoint(i, x);
    pts->InsertNextPoint(x[0] + 0.05 * std::sin(3 * x[1]), x[1] + 0.04 * x[2] * x[0], x[2]);
  }
  sg->SetPoints(pts);
  AddPointArrays(sg);
  const std::vector<double> v = {-0.2, 0.6};
  Compare("vtkStructuredGrid (float points)", Poly(Adaptive(sg, v, "s")),
          ContourGrid(Tetrahedra(sg), v, "s"));
  vtkNew<vtkRectilinearGrid> rg;
  rg->SetDimensions(9, 8, 7);
  vtkNew<vtkDoubleArray> xc, yc, zc;
  for (int i = 0; i < 9; i++) xc->InsertNextValue(-2.0 + 0.4 * i + 0.03 * i * i);
  for (int i = 0; i < 8; i++) yc->InsertNextValue(-1.5 + 0.35 * i);
  for (int i = 0; i < 7; i++) zc->InsertNextValue(-1.0 + 0.3 * i + 0.02 * i * i);
  rg->SetXCoordinates(xc);
  rg->SetYCoordinates(yc);
  rg->SetZCoordinates(zc);
  AddPointArrays(rg);
  AddCellArrays(rg);
  Compare("vtkRectilinearGrid", Poly(Adaptive(rg, v, "s")), ContourGrid(Tetrahedra(rg), v, "s"));
  vtkSmartPointer<vtkImageData> im = Image(11, 9, 8);
  AddCellArrays(im);
  Compare("vtkImageData with cell arrays", Poly(Adaptive(im, v, "s")),
          ContourGrid(Tetrahedra(im), v, "s"));
}

/* Cell scalars: vtkCellDataToPointData's point data, then vtkContourGrid. */
void TestCellScalars() {
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(Image(10, 9, 8));
  vtkNew<vtkDoubleArray> cs;
  cs->SetName("cs");
  for (vtkIdType c = 0; c < grid->GetNumberOfCells(); c++) {
    double b[6];
    grid->GetCellBounds(c, b);
    cs->InsertNextValue(std::sin(b[0] + b[3]) + 0.5 * std::cos(b[2] * b[5]));
  }
  grid->GetCellData()->AddArray(cs);
  vtkNew<vtkCellDataToPointData> c2p;
  c2p->SetInputData(grid);
  c2p->ProcessAllArraysOff();
  c2p->AddCellDataArray("cs");
  c2p->PassCellDataOn();
  c2p->Update();
  Options o;
  o.assoc = vtkDataObject::FIELD_ASSOCIATION_CELLS;
  const std::vector<double> v = {0.1, 0.7};
  Compare("cell scalars", Poly(Adaptive(grid, v, "cs", o)), ContourGrid(c2p->GetOutput(), v, "cs"));
}

/* Every 7th cell of ds (from `first`) given the vtkGhostType bit `bit`,
 * and with `point` one point hidden (HIDDENPOINT). */
void Ghosts(vtkDataSet *ds, unsigned char bit, vtkIdType first, bool point) {
  ds->AllocateCellGhostArray();
  for (vtkIdType c = first; c < ds->GetNumberOfCells(); c += 7)
    ds->GetCellGhostArray()->SetValue(c, bit);
  if (point) {
    ds->AllocatePointGhostArray();
    ds->GetPointGhostArray()->SetValue(ds->GetNumberOfPoints() / 2,
                                       vtkDataSetAttributes::HIDDENPOINT);
  }
}

/* vtkContourFilter's triangles on ds at values (VTK's own choice of path
 * for the dataset type). */
vtkIdType ContourFilterTriangles(vtkDataSet *ds, const std::vector<double> &values) {
  vtkNew<vtkContourFilter> cf;
  cf->SetInputData(ds);
  cf->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
  for (size_t i = 0; i < values.size(); i++) cf->SetValue(int(i), values[i]);
  cf->Update();
  return cf->GetOutput()->GetNumberOfCells();
}

/* ds with ghosts (Ghosts) against VTK 9.1 on it: vtkContourFilter skips
 * the blanked cells (its output shrinks against ds unghosted, `plain`)
 * exactly when `skipped`; the filter's surface is then vtkContourGrid's on
 * vtkDataSetTriangleFilter's tetrahedra of ds (which leaves out the cells
 * VTK skips), its cells' vtkGhostType passed to the triangles alike. */
void CompareGhosted(const std::string &name, vtkDataSet *ds, vtkDataSet *plain, bool skipped) {
  const std::vector<double> v = {-0.1, 0.5};
  const vtkIdType with = ContourFilterTriangles(ds, v), without = ContourFilterTriangles(plain, v);
  Check((with < without) == skipped,
        name + ": vtkContourFilter " + (skipped ? "skips" : "contours") + " them (" +
            std::to_string(with) + " triangles, " + std::to_string(without) + " unghosted)");
  vtkSmartPointer<vtkUnstructuredGrid> tets = vtkUnstructuredGrid::SafeDownCast(ds);
  if (!tets) {
    tets = Tetrahedra(ds);
    Check((tets->GetNumberOfCells() < 5 * ds->GetNumberOfCells()) == skipped,
          name + ": vtkDataSetTriangleFilter " + (skipped ? "leaves them out" : "splits them"));
  }
  Compare(name, Poly(Adaptive(ds, v, "s")), ContourGrid(tets, v, "s"));
}

/* Blanked cells (HIDDENCELL, a hidden point) skipped or contoured per
 * input type as VTK 9.1 does, and DUPLICATECELL ghosts contoured. */
void TestBlanked() {
  auto image = [] {
    vtkSmartPointer<vtkImageData> img = Image(9, 8, 7);
    AddCellArrays(img);
    return img;
  };
  auto uniform = [] {
    auto ug = vtkSmartPointer<vtkUniformGrid>::New();
    ug->ShallowCopy(Image(9, 8, 7));
    return ug;
  };
  auto rectilinear = [] {
    auto rg = vtkSmartPointer<vtkRectilinearGrid>::New();
    rg->SetDimensions(9, 8, 7);
    vtkNew<vtkDoubleArray> c[3];
    for (int a = 0; a < 3; a++)
      for (int i = 0; i < 9 - a; i++) c[a]->InsertNextValue(-2.0 + 0.3 * i + 0.02 * i * i);
    rg->SetXCoordinates(c[0]);
    rg->SetYCoordinates(c[1]);
    rg->SetZCoordinates(c[2]);
    AddPointArrays(rg);
    return rg;
  };
  auto structured = [] {
    vtkSmartPointer<vtkImageData> img = Image(9, 8, 7);
    auto sg = vtkSmartPointer<vtkStructuredGrid>::New();
    sg->SetDimensions(img->GetDimensions());
    vtkNew<vtkPoints> pts;
    for (vtkIdType i = 0; i < img->GetNumberOfPoints(); i++) {
      double x[3];
      img->GetPoint(i, x);
      pts->InsertNextPoint(x[0] + 0.05 * std::sin(3 * x[1]), x[1], x[2] + 0.03 * x[0]);
    }
    sg->SetPoints(pts);
    AddPointArrays(sg);
    return sg;
  };
  const unsigned char hidden = vtkDataSetAttributes::HIDDENCELL;
  vtkSmartPointer<vtkImageData> img = image();
  Ghosts(img, hidden, 3, true);
  Check(img->HasAnyBlankCells() && !img->IsCellVisible(3), "an image with blanked cells");
  CompareGhosted("vtkImageData, hidden cells and point", img, image(), false);
  vtkSmartPointer<vtkUniformGrid> ug = uniform();
  Ghosts(ug, hidden, 3, true);
  CompareGhosted("vtkUniformGrid, hidden cells and point", ug, uniform(), true);
  vtkSmartPointer<vtkRectilinearGrid> rg = rectilinear();
  Ghosts(rg, hidden, 3, true);
  CompareGhosted("vtkRectilinearGrid, hidden cells and point", rg, rectilinear(), false);
  vtkSmartPointer<vtkStructuredGrid> sg = structured();
  Ghosts(sg, hidden, 3, true);
  CompareGhosted("vtkStructuredGrid, hidden cells and point", sg, structured(), true);
  vtkSmartPointer<vtkUnstructuredGrid> grid = Tetrahedra(image());
  Ghosts(grid, hidden, 2, false);
  CompareGhosted("vtkUnstructuredGrid, hidden cells", grid, Tetrahedra(image()), false);
  vtkSmartPointer<vtkStructuredGrid> dup = structured();
  Ghosts(dup, vtkDataSetAttributes::DUPLICATECELL, 3, false);
  CompareGhosted("vtkStructuredGrid, duplicate cells", dup, structured(), false);
}

} // namespace

int main() {
  /* The runtime's worker count (it starts at the first call): 2, as the
   * modes' checks ask for. */
  setenv("ADAPT_WORKERS", "2", 1);
  unsetenv("ADAPT_BIND");
  cpu_set_t before, after;
  CPU_ZERO(&before);
  CPU_ZERO(&after);
  Check(sched_getaffinity(0, sizeof before, &before) == 0, "the CPUs of the calling thread");
  vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF); /* the errors expected: checked */
  vtkOutputWindow::GetInstance()->SetDisplayModeToNever();
  TestTetrahedra();
  TestModes();
  TestStructured();
  TestCellScalars();
  TestBlanked();
  TestComposites();
  TestOutputs();
  TestReuse();
  TestErrors();
  TestExample(VTKF_EXAMPLE);
  TestRankShare();
  /* The filter started the runtime unbound: the calling thread (and the
   * TBB arena VTK's SMP filters would start from it) kept its CPUs. */
  Check(sched_getaffinity(0, sizeof after, &after) == 0 && CPU_EQUAL(&before, &after),
        "the calling thread keeps its CPUs after the filter ran on 2 workers");
  std::printf("test_vtk_filter: %d failed\n", Failures());
  return Failures() > 100 ? 100 : Failures();
}
