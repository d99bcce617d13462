/* Shared parts of test_vtk_filter (tests/isosurface/test_vtk_filter*.cpp):
 * the checks, the comparison with vtkContourGrid, the meshes and the two
 * filters run on them. */
#ifndef TESTS_ISOSURFACE_TEST_VTK_FILTER_H
#define TESTS_ISOSURFACE_TEST_VTK_FILTER_H

#include <vtkAdaptiveContourFilter.h>
#include <vtkCommand.h>
#include <vtkDataObject.h>
#include <vtkDataSet.h>
#include <vtkImageData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include <string>
#include <vector>

/* Prints "ok: what" or "FAIL: what" (counted); returns ok. */
bool Check(bool ok, const std::string &what);
int Failures();

/* ours (the filter's) against ref (vtkContourGrid's): triangle and merged
 * point counts, the points as a set (coordinates within 1e-9 of the
 * bounding box), every point array of ref in ours (type, components,
 * values within 1e-6), the area within 1e-9 relative, per tuple of each
 * cell array the count and area of its triangles, and every triangle of
 * ref in ours with the same winding (on tetrahedra of positive
 * determinant, as every test mesh's, the same triangles wound alike). */
void Compare(const std::string &name, vtkPolyData *ours, vtkPolyData *ref);

/* The same points, triangles and point and cell arrays, byte for byte. */
bool SameBytes(vtkPolyData *a, vtkPolyData *b);

/* Collects the error events of a filter (observed: not printed). */
class ErrorLog : public vtkCommand {
public:
  static ErrorLog *New() { return new ErrorLog; }
  void Execute(vtkObject *, unsigned long, void *data) override {
    Messages.push_back(data ? static_cast<const char *>(data) : "");
  }
  std::vector<std::string> Messages;
};

/* Point arrays "s" (double, a smooth field, the active scalars), "f1"
 * (float), "d3" (double, 3 components), "i9" (int, 9). */
void AddPointArrays(vtkDataSet *ds);
/* Cell arrays "cid" (vtkIdType, the cell's id), "c3" (float, 3). */
void AddCellArrays(vtkDataSet *ds);
/* An nx x ny x nz image with the point arrays. */
vtkSmartPointer<vtkImageData> Image(int nx, int ny, int nz);
/* vtkDataSetTriangleFilter's tetrahedra of the structured ds, with ds's
 * points: a structured grid's own, an image's or a rectilinear grid's in
 * double (the filter's points for these inputs). */
vtkSmartPointer<vtkUnstructuredGrid> Tetrahedra(vtkDataSet *ds);
/* vtkContourGrid of grid at values, the point array `array`. */
vtkSmartPointer<vtkPolyData> ContourGrid(vtkDataSet *grid, const std::vector<double> &values,
                                         const char *array);

struct Options {
  int assoc = vtkDataObject::FIELD_ASSOCIATION_POINTS;
  int workers = 0;
  int mode = vtkAdaptiveContourFilter::SLIDING_WINDOW;
  bool normals = false;
  bool scalars = true;
};

/* vtkAdaptiveContourFilter's output on data (a copy), its errors in *log. */
vtkSmartPointer<vtkDataObject> Adaptive(vtkDataObject *data, const std::vector<double> &values,
                                        const char *array, const Options &o = Options(),
                                        ErrorLog *log = nullptr);
inline vtkPolyData *Poly(vtkDataObject *d) { return vtkPolyData::SafeDownCast(d); }

/* test_vtk_filter_cases.cpp */
void TestComposites();
void TestOutputs();
void TestReuse();
void TestErrors();
void TestExample(const char *example);
void TestRankShare();

#endif
