/* adapt-isosurface's several isovalues, arrays and cell scalars (its
 * command line, run as a program) against vtkContourGrid: test_cli_values,
 * a test of test_isosurface. */
#include "mesh.h"
#include "vtk_convert.h"

#include <vtkCellData.h>
#include <vtkCellDataToPointData.h>
#include <vtkContourGrid.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkImageData.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkAppendPolyData.h>
#include <vtkCompositeDataIterator.h>
#include <vtkContourFilter.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkPoints.h>
#include <vtkRectilinearGrid.h>
#include <vtkStructuredGrid.h>
#include <vtkXMLMultiBlockDataWriter.h>
#include <vtkXMLPImageDataWriter.h>
#include <vtkXMLRectilinearGridWriter.h>
#include <vtkXMLStructuredGridWriter.h>

#include <array>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

#ifdef ISO_TEST_BIN

using namespace iso;

namespace {

std::string dir() { return scratch_dir("test_isosurface"); }

/* A 6x5x4 grid of tetrahedra, Hilbert-ordered (the CLI renumbers it back
 * with --reorder), scalars "s" (the sphere field), point arrays "temp"
 * (double), "vel" (float, 3), "ids" (int), cell arrays "cval" (double, a
 * smooth field: the cell scalars) and "region" (int). */
vtkSmartPointer<vtkUnstructuredGrid> grid() {
  Grid g;
  g.np[0] = 7, g.np[1] = 6, g.np[2] = 5;
  Mesh m;
  std::string err;
  assert_int_equal(tetrahedralize_grid(g, Split::Five, Order::Hilbert, 1, &m, &err), 0);
  m.array_name = "s";
  vtkSmartPointer<vtkUnstructuredGrid> ug = to_vtk(m);
  vtkNew<vtkDoubleArray> temp;
  vtkNew<vtkFloatArray> vel;
  vtkNew<vtkIntArray> ids;
  temp->SetName("temp");
  vel->SetName("vel");
  vel->SetNumberOfComponents(3);
  ids->SetName("ids");
  for (size_t p = 0; p < m.pts.size(); p++) {
    const Point &x = m.pts[p];
    temp->InsertNextValue(2 * x.x - x.y * x.z);
    vel->InsertNextTuple3(x.x, -x.y, 0.5 * x.z);
    ids->InsertNextValue((int)(7 * p) - 40);
  }
  vtkNew<vtkDoubleArray> cval;
  vtkNew<vtkIntArray> region;
  cval->SetName("cval");
  region->SetName("region");
  for (size_t c = 0; c < m.tets.size(); c++) {
    double z = 0, y = 0;
    for (uint32_t v : m.tets[c].v) z += m.pts[v].z / 4, y += m.pts[v].y / 4;
    cval->InsertNextValue(z + 0.3 * y);
    region->InsertNextValue((int)(c % 3));
  }
  for (vtkDataArray *a : {(vtkDataArray *)temp, (vtkDataArray *)vel, (vtkDataArray *)ids})
    ug->GetPointData()->AddArray(a);
  ug->GetCellData()->AddArray(cval);
  ug->GetCellData()->AddArray(region);
  return ug;
}

vtkSmartPointer<vtkPolyData> read_vtp(const std::string &path) {
  vtkNew<vtkXMLPolyDataReader> r;
  r->SetFileName(path.c_str());
  r->Update();
  return r->GetOutput();
}

/* vtkContourGrid of ds at values, point scalars `array`, ComputeScalars. */
vtkSmartPointer<vtkPolyData> contour(vtkDataSet *ds, const std::vector<double> &values,
                                     const char *array) {
  vtkNew<vtkContourGrid> f;
  f->SetInputData(ds);
  f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, array);
  f->SetNumberOfContours((int)values.size());
  for (size_t i = 0; i < values.size(); i++) f->SetValue((int)i, values[i]);
  f->ComputeScalarsOn();
  f->Update();
  return f->GetOutput();
}

using Key = std::array<long long, 3>;
Key key(const double *x) {
  return {std::llround(x[0] * 1e8), std::llround(x[1] * 1e8), std::llround(x[2] * 1e8)};
}

double tri_area(vtkPolyData *pd, vtkIdType c) {
  vtkIdType n;
  const vtkIdType *ids;
  pd->GetCellPoints(c, n, ids);
  double a[3], b[3], d[3];
  pd->GetPoint(ids[0], a), pd->GetPoint(ids[1], b), pd->GetPoint(ids[2], d);
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
               v[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return 0.5 *
         std::sqrt(std::pow(u[1] * v[2] - u[2] * v[1], 2) + std::pow(u[2] * v[0] - u[0] * v[2], 2) +
                   std::pow(u[0] * v[1] - u[1] * v[0], 2));
}

/* Per tuple of cell array `name`: its triangles' count and area. */
std::map<std::vector<double>, std::pair<size_t, double>> by_tuple(vtkPolyData *pd,
                                                                  const char *name) {
  std::map<std::vector<double>, std::pair<size_t, double>> out;
  vtkDataArray *a = pd->GetCellData()->GetArray(name);
  assert_non_null(a);
  for (vtkIdType c = 0; c < pd->GetNumberOfCells(); c++) {
    std::vector<double> t((size_t)a->GetNumberOfComponents());
    for (int k = 0; k < a->GetNumberOfComponents(); k++) t[(size_t)k] = a->GetComponent(c, k);
    out[t].first++;
    out[t].second += tri_area(pd, c);
  }
  return out;
}

/* ours against ref (vtkContourGrid's): the triangle and point counts, the
 * points as a set, each point array of ref in ours of the same type within
 * 1e-6 at the same position, the area; per tuple of each cell array the
 * count and area of its triangles (a quadrilateral cut may be split by the
 * other diagonal: triangles are not compared one by one). */
void compare(vtkPolyData *ours, vtkPolyData *ref, const std::vector<std::string> &point_arrays,
             const std::vector<std::string> &cell_arrays) {
  assert_int_equal(ours->GetNumberOfCells(), ref->GetNumberOfCells());
  std::set<vtkIdType> used; /* VTK keeps the points of the degenerate triangles it drops */
  for (vtkIdType c = 0; c < ref->GetNumberOfCells(); c++) {
    vtkIdType n;
    const vtkIdType *ids;
    ref->GetCellPoints(c, n, ids);
    used.insert(ids, ids + n);
  }
  assert_int_equal(ours->GetNumberOfPoints(), used.size());
  assert_true(ref->GetNumberOfCells() > 100);
  std::map<Key, vtkIdType> at;
  for (vtkIdType p = 0; p < ref->GetNumberOfPoints(); p++) at[key(ref->GetPoint(p))] = p;
  assert_int_equal(at.size(), ref->GetNumberOfPoints());
  double area_o = 0, area_r = 0;
  for (vtkIdType c = 0; c < ref->GetNumberOfCells(); c++)
    area_o += tri_area(ours, c), area_r += tri_area(ref, c);
  if (!(std::fabs(area_o - area_r) <= 1e-9 * area_r))
    fail_msg("area ours %.17g, VTK %.17g", area_o, area_r);
  assert_int_equal(ours->GetPointData()->GetNumberOfArrays(), (int)point_arrays.size());
  for (const std::string &name : point_arrays) {
    vtkDataArray *a = ours->GetPointData()->GetArray(name.c_str());
    vtkDataArray *b = ref->GetPointData()->GetArray(name.c_str());
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->GetNumberOfComponents(), b->GetNumberOfComponents());
    if (name != "s" && name != "cval") assert_int_equal(a->GetDataType(), b->GetDataType());
    /* Integer arrays are rounded from (1 - t) a + t b: a value within an
     * ulp of a half may round either way, as t is computed from either end
     * of the edge (VTK takes the end its first cell saw). */
    const bool integral = a->GetDataType() != VTK_FLOAT && a->GetDataType() != VTK_DOUBLE;
    const double tol = integral ? 1.0 : 1e-6;
    for (vtkIdType p = 0; p < ours->GetNumberOfPoints(); p++) {
      auto it = at.find(key(ours->GetPoint(p)));
      assert_true(it != at.end());
      for (int k = 0; k < a->GetNumberOfComponents(); k++)
        if (!(std::fabs(a->GetComponent(p, k) - b->GetComponent(it->second, k)) <= tol))
          fail_msg("point array %s, point %lld (%g %g %g), component %d: ours %.17g, VTK's %.17g",
                   name.c_str(), (long long)p, ours->GetPoint(p)[0], ours->GetPoint(p)[1],
                   ours->GetPoint(p)[2], k, a->GetComponent(p, k), b->GetComponent(it->second, k));
    }
  }
  assert_int_equal(ours->GetCellData()->GetNumberOfArrays(), (int)cell_arrays.size());
  for (const std::string &name : cell_arrays) {
    const auto o = by_tuple(ours, name.c_str()), r = by_tuple(ref, name.c_str());
    assert_int_equal(o.size(), r.size());
    for (const auto &kv : r) {
      auto it = o.find(kv.first);
      assert_true(it != o.end());
      assert_int_equal(it->second.first, kv.second.first);
      assert_true(std::fabs(it->second.second - kv.second.second) <= 1e-9 * kv.second.second);
    }
  }
}

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/* The arrays of the structured inputs at point x: "s" (the distance to
 * (2.6 + dx, 2.1, 1.9) over `scale`), "temp" (double), and per cell "cval"
 * (int). */
void add_fields(vtkDataSet *ds, double dx = 0, double scale = 1) {
  vtkNew<vtkDoubleArray> sc, temp;
  vtkNew<vtkIntArray> cval;
  sc->SetName("s"), temp->SetName("temp"), cval->SetName("cval");
  for (vtkIdType p = 0; p < ds->GetNumberOfPoints(); p++) {
    double x[3];
    ds->GetPoint(p, x);
    const double cx = 2.6 + dx;
    sc->InsertNextValue(std::sqrt((x[0] - cx) * (x[0] - cx) + (x[1] - 2.1) * (x[1] - 2.1) +
                                  (x[2] - 1.9) * (x[2] - 1.9)) /
                        scale);
    temp->InsertNextValue(x[0] - 2 * x[1] * x[2]);
  }
  for (vtkIdType c = 0; c < ds->GetNumberOfCells(); c++) cval->InsertNextValue((int)(c % 5) - 2);
  ds->GetPointData()->AddArray(sc);
  ds->GetPointData()->SetActiveScalars("s");
  ds->GetPointData()->AddArray(temp);
  ds->GetCellData()->AddArray(cval);
}

/* A curvilinear 8x7x6 grid (sheared, z stretched), at x offset dx, its
 * fields add_fields(dx, scale). */
vtkSmartPointer<vtkStructuredGrid> structured(double dx, double scale) {
  auto sg = vtkSmartPointer<vtkStructuredGrid>::New();
  sg->SetDimensions(8, 7, 6);
  vtkNew<vtkPoints> pts;
  for (int k = 0; k < 6; k++)
    for (int j = 0; j < 7; j++)
      for (int i = 0; i < 8; i++)
        pts->InsertNextPoint(dx + 0.7 * i + 0.1 * j, 0.6 * j + 0.03 * i * k,
                             0.5 * k + 0.02 * k * k);
  sg->SetPoints(pts);
  add_fields(sg, dx, scale);
  return sg;
}

/* ds's cells split by vtkDataSetTriangleFilter, on ds's points (the
 * filter rounds them to float; the app keeps them). */
vtkSmartPointer<vtkUnstructuredGrid> split(vtkDataSet *ds) {
  vtkNew<vtkDataSetTriangleFilter> tf;
  tf->SetInputData(ds);
  tf->TetrahedraOnlyOn();
  tf->Update();
  vtkSmartPointer<vtkUnstructuredGrid> ug = tf->GetOutput();
  assert_int_equal(ug->GetNumberOfPoints(), ds->GetNumberOfPoints());
  vtkNew<vtkPoints> pts;
  pts->SetDataTypeToDouble();
  for (vtkIdType p = 0; p < ds->GetNumberOfPoints(); p++) pts->InsertNextPoint(ds->GetPoint(p));
  ug->SetPoints(pts);
  return ug;
}

/* VTK's reference of a structured input: split, contoured by
 * vtkContourGrid. */
vtkSmartPointer<vtkPolyData> split_contour(vtkDataSet *ds, double iso) {
  return contour(split(ds), {iso}, "s");
}

template <class Writer>
void write(vtkDataObject *d, const std::string &path) {
  vtkNew<Writer> w;
  w->SetFileName(path.c_str());
  w->SetInputData(d);
  assert_int_equal(w->Write(), 1);
}

} // namespace

/* .vts, .vtr, .pvti and .vtm inputs against VTK's contour of the same
 * cells; their indexes' checks. */
void test_cli_readers(void **) {
  const std::string out = dir() + "/readers.vtp", run = " --events none --reps 1 --output " + out;
  std::string log;
  /* A structured and a rectilinear grid: split as vtkDataSetTriangleFilter
   * splits them, every array carried. */
  vtkSmartPointer<vtkStructuredGrid> sg = structured(0, 1);
  write<vtkXMLStructuredGridWriter>(sg, dir() + "/g.vts");
  assert_int_equal(run_cli("--input " + dir() +
                               "/g.vts --iso 1.7 --reorder none --mode sliding --workers 2" + run,
                           &log),
                   0);
  compare(read_vtp(out), split_contour(sg, 1.7), {"s", "temp"}, {"cval"});
  vtkNew<vtkRectilinearGrid> rg;
  rg->SetDimensions(7, 8, 6);
  vtkNew<vtkDoubleArray> cx, cy, cz;
  for (int i = 0; i < 8; i++) {
    cx->InsertNextValue(0.8 * i + 0.02 * i * i);
    cy->InsertNextValue(0.5 * i + 0.04 * i * i);
    cz->InsertNextValue(0.6 * i);
  }
  cx->SetNumberOfTuples(7), cz->SetNumberOfTuples(6);
  rg->SetXCoordinates(cx), rg->SetYCoordinates(cy), rg->SetZCoordinates(cz);
  add_fields(rg);
  write<vtkXMLRectilinearGridWriter>(rg, dir() + "/g.vtr");
  assert_int_equal(run_cli("--input " + dir() + "/g.vtr --iso 1.9" + run, &log), 0);
  compare(read_vtp(out), split_contour(rg, 1.9), {"s", "temp"}, {"cval"});
  /* A .pvti in 3 pieces: the surface of the same image as a .vti. */
  vtkNew<vtkImageData> img;
  img->SetDimensions(9, 7, 6);
  img->SetOrigin(-1, 0.5, 2);
  img->SetSpacing(0.5, 0.75, 0.6);
  add_fields(img);
  write<vtkXMLImageDataWriter>(img, dir() + "/img.vti");
  {
    vtkNew<vtkXMLPImageDataWriter> w;
    w->SetFileName((dir() + "/img.pvti").c_str());
    w->SetInputData(img);
    w->SetNumberOfPieces(3), w->SetStartPiece(0), w->SetEndPiece(2);
    assert_int_equal(w->Write(), 1);
  }
  assert_int_equal(run_cli("--input " + dir() + "/img.vti --iso 1.4" + run, &log), 0);
  const std::string from_vti = slurp(out);
  assert_int_equal(run_cli("--input " + dir() + "/img.pvti --iso 1.4" + run, &log), 0);
  assert_true(slurp(out) == from_vti);
  assert_true(read_vtp(out)->GetNumberOfCells() > 100);
  /* A multiblock of a grid of tetrahedra and a structured grid beside it:
   * one surface, vtkContourFilter's blocks appended. */
  vtkSmartPointer<vtkUnstructuredGrid> ug = grid();
  vtkNew<vtkMultiBlockDataSet> mb, blocks_split;
  mb->SetBlock(0, ug), mb->SetBlock(1, structured(20, 3));
  blocks_split->SetBlock(0, ug),
      blocks_split->SetBlock(1, split(vtkDataSet::SafeDownCast(mb->GetBlock(1))));
  write<vtkXMLMultiBlockDataWriter>(mb, dir() + "/blocks.vtm");
  assert_int_equal(run_cli("--input " + dir() + "/blocks.vtm --iso 0.45 --arrays none" + run, &log),
                   0);
  vtkNew<vtkContourFilter> cf;
  cf->SetInputData(blocks_split);
  cf->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
  cf->SetValue(0, 0.45);
  cf->Update();
  vtkNew<vtkAppendPolyData> ap;
  vtkSmartPointer<vtkCompositeDataIterator> it;
  it.TakeReference(vtkMultiBlockDataSet::SafeDownCast(cf->GetOutputDataObject(0))->NewIterator());
  size_t blocks = 0;
  for (it->InitTraversal(); !it->IsDoneWithTraversal(); it->GoToNextItem(), blocks++) {
    vtkPolyData *pd = vtkPolyData::SafeDownCast(it->GetCurrentDataObject());
    assert_true(pd && pd->GetNumberOfCells() > 0);
    ap->AddInputData(pd);
  }
  assert_int_equal(blocks, 2);
  ap->Update();
  compare(read_vtp(out), ap->GetOutput(), {}, {});
  /* Bad indexes: refused before VTK reads them, the file named. */
  const std::pair<const char *, const char *> bad[] = {
      {"noblock.vtm", "<VTKFile type=\"vtkMultiBlockDataSet\" version=\"1.0\">"
                      "<vtkMultiBlockDataSet><DataSet index=\"0\" file=\"gone.vtu\"/>"
                      "</vtkMultiBlockDataSet></VTKFile>"},
      {"surface.vtm", "<VTKFile type=\"vtkMultiBlockDataSet\" version=\"1.0\">"
                      "<vtkMultiBlockDataSet><DataSet index=\"0\" file=\"readers.vtp\"/>"
                      "</vtkMultiBlockDataSet></VTKFile>"},
      {"huge.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                    "WholeExtent=\"0 9999 0 9999 0 9999\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                    "<PPointData><PDataArray type=\"Float64\" Name=\"s\"/></PPointData>"
                    "<Piece Extent=\"0 9999 0 9999 0 9999\" Source=\"img.vti\"/>"
                    "</PImageData></VTKFile>"},
      {"outside.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                       "WholeExtent=\"0 8 0 6 0 5\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                       "<Piece Extent=\"0 8 0 6 0 6\" Source=\"img.vti\"/>"
                       "</PImageData></VTKFile>"},
      {"nocomp.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                      "WholeExtent=\"0 8 0 6 0 5\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                      "<PPointData><PDataArray type=\"Float64\" Name=\"s\" "
                      "NumberOfComponents=\"0\"/></PPointData>"
                      "<Piece Extent=\"0 8 0 6 0 5\" Source=\"img.vti\"/>"
                      "</PImageData></VTKFile>"},
  };
  const char *why[] = {"cannot read its block file", "is not a .vtu, .vti, .vts or .vtr",
                       "more than its pieces can hold", "extends past the WholeExtent",
                       "an array of 0 components"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    std::ofstream(dir() + "/" + bad[i].first) << bad[i].second;
    assert_int_equal(run_cli("--input " + dir() + "/" + bad[i].first + " --iso 1" + run, &log), 2);
    if (!has(log, why[i]) || !has(log, bad[i].first)) fail_msg("%s: %s", bad[i].first, log.c_str());
  }
}

/* Several values and a range, the arrays, cell scalars, bad arguments. */
void test_cli_values(void **) {
  const std::string in = dir() + "/values.vtu", out = dir() + "/values.vtp";
  vtkSmartPointer<vtkUnstructuredGrid> ug = grid();
  vtkNew<vtkXMLUnstructuredGridWriter> w;
  w->SetFileName(in.c_str());
  w->SetInputData(ug);
  assert_int_equal(w->Write(), 1);
  const std::string run = "--input " + in + " --events none --reps 1 --reorder hilbert ";
  const std::vector<std::string> all = {"s", "temp", "vel", "ids"}, cells = {"cval", "region"};
  std::string log;
  /* Several values (two workers, the peers verified with SetValue(i, v)). */
  assert_int_equal(run_cli(run +
                               "--array s --iso 0.3,0.5,0.7 --mode sliding --workers 2 "
                               "--verify --csv " +
                               dir() + "/values.csv --output " + out,
                           &log),
                   0);
  assert_true(has(log, "isovalues (sliding): 0.3: ") && has(log, "vtkContourGrid "));
  compare(read_vtp(out), contour(ug, {0.3, 0.5, 0.7}, "s"), all, cells);
  const std::string list_bytes = slurp(out);
  const auto counts = csv_column(dir() + "/values.csv", "triangles");
  std::ifstream csv(dir() + "/values.csv");
  std::string header, row;
  std::getline(csv, header), std::getline(csv, row);
  assert_true(has(header, ",best_speedup,isovalues,iso_triangles"));
  assert_true(has(row, ",0.3;0.5;0.7,"));
  size_t sum = 0;
  for (std::stringstream ss(row.substr(row.rfind(',') + 1)); std::getline(ss, header, ';');)
    sum += std::stoul(header);
  assert_int_equal(sum, (size_t)counts.at("sliding"));
  /* The range A:B:N gives the same values: the same file. */
  assert_int_equal(run_cli(run + "--array s --iso 0.3:0.7:3 --mode sliding --output " + out, &log),
                   0);
  assert_true(slurp(out) == list_bytes);
  /* Some arrays; none (one value: the surface as before, no arrays). */
  assert_int_equal(
      run_cli(run + "--array s --iso 0.45 --arrays vel,region --point-order random --output " + out,
              &log),
      0);
  compare(read_vtp(out), contour(ug, {0.45}, "s"), {"s", "vel"}, {"region"});
  assert_int_equal(run_cli(run + "--array s --iso 0.45 --arrays none --output " + out, &log), 0);
  vtkSmartPointer<vtkPolyData> bare = read_vtp(out);
  assert_int_equal(bare->GetPointData()->GetNumberOfArrays(), 0);
  assert_int_equal(bare->GetCellData()->GetNumberOfArrays(), 0);
  /* The default (all arrays): the same points and triangles, in order. */
  assert_int_equal(run_cli(run + "--array s --iso 0.45 --output " + out, &log), 0);
  vtkSmartPointer<vtkPolyData> full = read_vtp(out);
  assert_int_equal(full->GetPointData()->GetNumberOfArrays(), 4);
  assert_int_equal(full->GetNumberOfPoints(), bare->GetNumberOfPoints());
  assert_int_equal(full->GetNumberOfCells(), bare->GetNumberOfCells());
  for (vtkIdType p = 0; p < full->GetNumberOfPoints(); p++)
    for (int k = 0; k < 3; k++) assert_true(full->GetPoint(p)[k] == bare->GetPoint(p)[k]);
  for (vtkIdType c = 0; c < full->GetNumberOfCells(); c++) {
    vtkIdType n1, n2;
    const vtkIdType *a, *b;
    full->GetCellPoints(c, n1, a);
    bare->GetCellPoints(c, n2, b);
    assert_true(n1 == 3 && n2 == 3 && std::equal(a, a + 3, b));
  }
  /* Cell scalars, named or with --cell-scalars: vtkCellDataToPointData. */
  vtkNew<vtkCellDataToPointData> c2p;
  c2p->SetInputData(ug);
  c2p->ProcessAllArraysOff();
  c2p->AddCellDataArray("cval");
  c2p->PassCellDataOn();
  c2p->Update();
  vtkSmartPointer<vtkPolyData> ref = contour(c2p->GetOutput(), {2.13, 3.37}, "cval");
  for (const char *how : {"--array cval", "--cell-scalars --array cval"}) {
    assert_int_equal(run_cli(run + how + " --iso 2.13,3.37 --output " + out, &log), 0);
    compare(read_vtp(out), ref, {"cval", "s", "temp", "vel", "ids"}, cells);
  }
  /* An image volume (its points renumbered by the app's split, Morton
   * order): "lin", linear in the position, interpolates exactly; "copy",
   * the scalars again, gives the isovalue. */
  vtkNew<vtkImageData> img;
  img->SetDimensions(7, 6, 5);
  img->SetOrigin(1, 2, 3);
  img->SetSpacing(0.5, 1, 2);
  vtkNew<vtkDoubleArray> f, lin, copy;
  f->SetName("f"), lin->SetName("lin"), copy->SetName("copy");
  for (vtkIdType p = 0; p < img->GetNumberOfPoints(); p++) {
    double x[3];
    img->GetPoint(p, x);
    const double v = std::sin(x[0]) + std::cos(0.7 * x[1]) * x[2];
    f->InsertNextValue(v), copy->InsertNextValue(v);
    lin->InsertNextValue(x[0] + 2 * x[1] - 3 * x[2]);
  }
  img->GetPointData()->AddArray(f);
  img->GetPointData()->AddArray(lin);
  img->GetPointData()->AddArray(copy);
  vtkNew<vtkXMLImageDataWriter> iw;
  iw->SetFileName((dir() + "/img.vti").c_str());
  iw->SetInputData(img);
  assert_int_equal(iw->Write(), 1);
  assert_int_equal(run_cli("--input " + dir() + "/img.vti --array f --iso 0.5 --order morton " +
                               "--events none --reps 1 --output " + out,
                           &log),
                   0);
  vtkSmartPointer<vtkPolyData> surf = read_vtp(out);
  assert_true(surf->GetNumberOfPoints() > 50);
  vtkDataArray *sl = surf->GetPointData()->GetArray("lin");
  vtkDataArray *sc = surf->GetPointData()->GetArray("copy");
  assert_non_null(sl);
  assert_non_null(sc);
  for (vtkIdType p = 0; p < surf->GetNumberOfPoints(); p++) {
    double x[3];
    surf->GetPoint(p, x);
    assert_true(std::fabs(sl->GetComponent(p, 0) - (x[0] + 2 * x[1] - 3 * x[2])) <= 1e-9);
    assert_true(std::fabs(sc->GetComponent(p, 0) - 0.5) <= 1e-9);
  }
  /* The values of a range printed exactly (the CSV, the report): read back,
   * they are the values extracted, 0.8999999999999999 not 0.9. */
  assert_int_equal(run_cli(run + "--array s --iso 0.2:0.9:7 --mode seq --csv " + dir() +
                               "/range.csv --output " + out,
                           &log),
                   0);
  std::ifstream range_csv(dir() + "/range.csv");
  std::getline(range_csv, header), std::getline(range_csv, row);
  std::vector<std::string> fields;
  for (std::stringstream ss(row); std::getline(ss, header, ',');) fields.push_back(header);
  assert_true(fields.size() >= 2);
  std::stringstream printed(fields[fields.size() - 2]);
  std::string logged = log.substr(log.find("isovalues (seq):"));
  for (int i = 0; i < 7; i++) {
    const double v = 0.2 + (0.9 - 0.2) * i / 6.0;
    std::string text;
    assert_true((bool)std::getline(printed, text, ';'));
    if (std::strtod(text.c_str(), nullptr) != v)
      fail_msg("CSV isovalue %s, not %.17g", text.c_str(), v);
    const size_t at = logged.find(i ? ", " : ": ") + 2, colon = logged.find(':', at);
    assert_true(std::strtod(logged.substr(at, colon - at).c_str(), nullptr) == v);
    logged = logged.substr(colon);
  }
  assert_true(has(row, ";0.8999999999999999,"));
  /* Bad arguments. */
  for (const char *bad : {"--iso ,", "--iso 0.1,,0.2", "--iso 0:1:0", "--iso 0:1", "--iso 0:1:x",
                          "--iso 0.1 --arrays ,", "--iso 0.1 --arrays temp"}) {
    assert_int_equal(run_cli(run + "--array s " + bad, &log), 1);
    assert_true(has(log, "--iso") || has(log, "--arrays"));
  }
  assert_int_equal(run_cli(run + "--array s --iso 0.4 --arrays temp,nope --output " + out, &log),
                   2);
  assert_true(has(log, "unknown array 'nope'") &&
              has(log, "point arrays: s, temp, vel, ids; cell arrays: cval, region"));
  assert_int_equal(run_cli(run + "--cell-scalars --array nope --iso 0.4", &log), 2);
  assert_true(has(log, "unknown cell array 'nope'") && has(log, "cell arrays: cval, region"));
  assert_int_equal(
      run_cli("--input " + dir() + "/none.pvtu --iso 0,0.5 --output " + dir() + "/d.pvtp", &log),
      1);
  assert_true(has(log, "distributed run") && has(log, "one isovalue"));
  assert_int_equal(run_cli("--generate 4 --iso 0,0.5 --predict-misses", &log), 1);
}

#endif
