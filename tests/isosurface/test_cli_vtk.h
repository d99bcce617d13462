/* tests/isosurface: what test_cli_values.cpp and test_cli_readers.cpp share
 * (tests of test_isosurface): adapt-isosurface's inputs made with VTK, its
 * surfaces read back and compared with VTK's contour of the same cells. */
#ifndef TESTS_ISOSURFACE_TEST_CLI_VTK_H
#define TESTS_ISOSURFACE_TEST_CLI_VTK_H

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

namespace iso {
namespace cli_test {

inline std::string dir() { return scratch_dir("test_isosurface"); }

/* A 6x5x4 grid of tetrahedra, Hilbert-ordered (the CLI renumbers it back
 * with --reorder), scalars "s" (the sphere field), point arrays "temp"
 * (double), "vel" (float, 3), "ids" (int), cell arrays "cval" (double, a
 * smooth field: the cell scalars) and "region" (int). */
inline vtkSmartPointer<vtkUnstructuredGrid> grid() {
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

inline vtkSmartPointer<vtkPolyData> read_vtp(const std::string &path) {
  vtkNew<vtkXMLPolyDataReader> r;
  r->SetFileName(path.c_str());
  r->Update();
  return r->GetOutput();
}

/* vtkContourGrid of ds at values, point scalars `array`, ComputeScalars. */
inline vtkSmartPointer<vtkPolyData> contour(vtkDataSet *ds, const std::vector<double> &values,
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
inline Key key(const double *x) {
  return {std::llround(x[0] * 1e8), std::llround(x[1] * 1e8), std::llround(x[2] * 1e8)};
}

inline double tri_area(vtkPolyData *pd, vtkIdType c) {
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
inline std::map<std::vector<double>, std::pair<size_t, double>> by_tuple(vtkPolyData *pd,
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
inline void compare(vtkPolyData *ours, vtkPolyData *ref,
                    const std::vector<std::string> &point_arrays,
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

inline std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

inline bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/* The arrays of the structured inputs at point x: "s" (the distance to
 * (2.6 + dx, 2.1, 1.9) over `scale`), "temp" (double), and per cell "cval"
 * (int). */
inline void add_fields(vtkDataSet *ds, double dx = 0, double scale = 1) {
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
inline vtkSmartPointer<vtkStructuredGrid> structured(double dx, double scale) {
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
inline vtkSmartPointer<vtkUnstructuredGrid> split(vtkDataSet *ds) {
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
inline vtkSmartPointer<vtkPolyData> split_contour(vtkDataSet *ds, double iso) {
  return contour(split(ds), {iso}, "s");
}

template <class Writer>
inline void write(vtkDataObject *d, const std::string &path) {
  vtkNew<Writer> w;
  w->SetFileName(path.c_str());
  w->SetInputData(d);
  assert_int_equal(w->Write(), 1);
}

} // namespace cli_test
} // namespace iso

#endif

#endif /* TESTS_ISOSURFACE_TEST_CLI_VTK_H */
