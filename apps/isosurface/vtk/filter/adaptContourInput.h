/* vtkAdaptiveContourFilter's input side (private to the module): the input
 * dataset seen as the arrays <adapt/iso.hpp> reads, without copying what
 * VTK already holds in the layout the core takes. */
#ifndef APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOURINPUT_H
#define APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOURINPUT_H

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDataSet.h"
#include "vtkPointData.h"
#include "vtkSmartPointer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace adapt_vtk {

/* The arrays of one input block. Points are the input's own array when it
 * is float or double (else a double copy; image and rectilinear grids: the
 * coordinates computed in double). Cells: an unstructured grid's offsets,
 * connectivity and types read in place (Ugrid set); a structured input's
 * cells split into tetrahedra (Structured set), 4 ids each in Tets32 (when
 * the ids fit in 32 bits) or Tets64, tetrahedron t from cell t / 5, or
 * TetCell[t] when some cells are blanked and skipped (a vtkStructuredGrid's
 * or a vtkUniformGrid's, as VTK 9.1's contour filters skip them; a plain
 * vtkImageData's or a vtkRectilinearGrid's are split, as VTK contours
 * them). Scalars: one component, standard memory layout,
 * point data (converted from cell data as vtkCellDataToPointData does).
 * PointData: the arrays to interpolate (the input's point arrays, the
 * converted scalars added), CellData: the input's. */
struct Input {
  vtkSmartPointer<vtkDataArray> Points;
  vtkIdType NumberOfPoints = 0;
  vtkIdType NumberOfCells = 0;
  vtkDataSet *Ugrid = nullptr;
  bool Structured = false;
  std::vector<std::int32_t> Tets32;
  std::vector<std::int64_t> Tets64;
  std::vector<vtkIdType> TetCell;
  vtkSmartPointer<vtkDataArray> Scalars;
  vtkSmartPointer<vtkPointData> PointData;
  vtkCellData *CellData = nullptr;
};

/* Fills *out from input and its array to process (scalars, of the
 * association given: vtkDataObject::FIELD_ASSOCIATION_POINTS or _CELLS).
 * Returns 0, or -EINVAL with *err set: a dataset type other than those of
 * vtkAdaptiveContourFilter.h, a structured input that is not 3D, a point
 * set without points, scalars of several components or of another length
 * than the points (cells for cell scalars). -ENOMEM on allocation failure.
 * The cells' types and ids are checked by the core (adapt::iso::extract).
 * parallel: a structured input's cells are split on the runtime's workers
 * (adapt_for; the runtime starts if it is not running), else on the calling
 * thread; the runtime's errors are returned with *err set. The input must outlive
 * *out (its arrays are referenced). Not thread-safe on one Input. */
int PrepareInput(vtkDataSet *input, vtkDataArray *scalars, int association, bool parallel,
                 Input *out, std::string *err);

} // namespace adapt_vtk

#endif
