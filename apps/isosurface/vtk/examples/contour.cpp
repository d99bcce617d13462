/* vtkAdaptiveContourFilter in a C++ pipeline (docs/isosurface.md, "The VTK
 * filter"): two isosurfaces of VTK's wavelet source split into tetrahedra,
 * in place of vtkContourGrid.
 *
 *   c++ -std=c++17 contour.cpp -I/usr/local/include/adapt-vtk -I/usr/include/vtk-9.1 \
 *     -ladaptVtkContour -lvtkFiltersGeneral-9.1 -lvtkImagingCore-9.1 \
 *     -lvtkCommonExecutionModel-9.1 -lvtkCommonDataModel-9.1 -lvtkCommonCore-9.1
 * (or CMake: find_package(adapt-vtk) and target_link_libraries(... Adapt::Contour)). */
#include <vtkAdaptiveContourFilter.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkRTAnalyticSource.h>

#include <cstdio>

int main() {
  vtkNew<vtkRTAnalyticSource> wavelet; /* a 41^3 image, point scalars RTData */
  wavelet->SetWholeExtent(-20, 20, -20, 20, -20, 20);
  vtkNew<vtkDataSetTriangleFilter> tets; /* a vtkUnstructuredGrid of tetrahedra */
  tets->SetInputConnection(wavelet->GetOutputPort());

  vtkNew<vtkAdaptiveContourFilter> contour;
  contour->SetInputConnection(tets->GetOutputPort());
  contour->SetValue(0, 120.0);
  contour->SetValue(1, 200.0);
  contour->SetNumberOfWorkers(2); /* 0 (default): ADAPT_WORKERS, else one per core */
  contour->SetModeToSlidingWindow();
  contour->Update(); /* errors: vtkErrorMacro and an empty output */

  vtkPolyData *surface = contour->GetOutput();
  std::printf("contour: %lld triangles, %lld points, scalars %s\n",
              (long long)surface->GetNumberOfCells(), (long long)surface->GetNumberOfPoints(),
              surface->GetPointData()->GetScalars()
                  ? surface->GetPointData()->GetScalars()->GetName()
                  : "none");
  return surface->GetNumberOfCells() > 0 ? 0 : 1;
}
