/* vtkAdaptiveContourFilter's input side: the input block as the arrays of
 * <adapt/iso.hpp> (adaptContourInput.h). */
#include "adaptContourInput.h"

#include "vtkCellArray.h"
#include "vtkCellDataToPointData.h"
#include "vtkCellType.h"
#include "vtkDataObject.h"
#include "vtkDoubleArray.h"
#include "vtkHexahedron.h"
#include "vtkIdList.h"
#include "vtkImageData.h"
#include "vtkMatrix3x3.h"
#include "vtkNew.h"
#include "vtkPoints.h"
#include "vtkRectilinearGrid.h"
#include "vtkStructuredGrid.h"
#include "vtkUniformGrid.h"
#include "vtkUnstructuredGrid.h"
#include "vtkVoxel.h"

#include <adapt/adapt.h>
#include <adapt/loop.h>

#include <cerrno>
#include <cstdint>
#include <new>

namespace adapt_vtk {

namespace {

/* The 5 tetrahedra of cell's Triangulate(parity), as local vertex numbers
 * (0..7), 20 of them: the split vtkDataSetTriangleFilter makes. */
void LocalSplit(vtkCell *cell, int parity, vtkIdType local[20]) {
  for (vtkIdType v = 0; v < 8; v++) {
    cell->GetPointIds()->SetId(v, v);
    cell->GetPoints()->SetPoint(v, double(v & 1), double((v >> 1) & 1), double((v >> 2) & 1));
  }
  vtkNew<vtkIdList> ids;
  vtkNew<vtkPoints> pts;
  cell->Triangulate(parity, ids, pts);
  for (vtkIdType k = 0; k < 20; k++) local[k] = ids->GetId(k);
}

/* The point ids of cell (i, j, k) of a structured block of np points per
 * axis, in the vertex order of vtkVoxel (image, rectilinear) or
 * vtkHexahedron (structured grid). */
void CellPoints(const int np[3], int i, int j, int k, bool hexahedron, vtkIdType ids[8]) {
  const vtkIdType nx = np[0], nxy = vtkIdType(np[0]) * np[1];
  const vtkIdType o = i + j * nx + k * nxy;
  const vtkIdType voxel[8] = {o,       o + 1,       o + nx,       o + nx + 1,
                              o + nxy, o + nxy + 1, o + nxy + nx, o + nxy + nx + 1};
  static const int hexOrder[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  for (int v = 0; v < 8; v++) ids[v] = voxel[hexahedron ? hexOrder[v] : v];
}

/* Whether VTK 9.1's contour filters leave the blanked cells of a structured
 * block out: a vtkStructuredGrid's (vtkContourFilter's
 * vtkGridSynchronizedTemplates3D, and vtkDataSetTriangleFilter, whose GetCell
 * gives such a cell empty) and a vtkUniformGrid's (vtkContourFilter's
 * generic path, GetCell likewise) are left out; a plain vtkImageData's
 * (vtkFlyingEdges3D, vtkSynchronizedTemplates3D) and a vtkRectilinearGrid's
 * (vtkRectilinearSynchronizedTemplates) are contoured, blanked or not. */
bool SkipsBlanked(vtkDataSet *in) {
  return vtkStructuredGrid::SafeDownCast(in) != nullptr ||
         vtkUniformGrid::SafeDownCast(in) != nullptr;
}

/* Whether cell c of a block that SkipsBlanked is visible (not blanked). */
bool CellVisible(vtkDataSet *in, vtkIdType c) {
  if (auto *ug = vtkUniformGrid::SafeDownCast(in)) return ug->IsCellVisible(c) != 0;
  return static_cast<vtkStructuredGrid *>(in)->IsCellVisible(c) != 0;
}

/* The cells of a 3D structured block split into tetrahedra into *tets
 * (point ids of type T), cell (i, j, k) by Triangulate((i + j + k) mod 2)
 * as vtkDataSetTriangleFilter does, tetrahedra 5c .. 5c + 4 from cell c;
 * the rows of cells shared among the runtime's workers when parallel. */
template <class T>
int SplitAll(const int np[3], bool hexahedron, const vtkIdType local[2][20], bool parallel,
             std::vector<T> *tets) {
  const int nc[3] = {np[0] - 1, np[1] - 1, np[2] - 1};
  tets->resize(size_t(nc[0]) * size_t(nc[1]) * size_t(nc[2]) * 20);
  auto rows = [&](size_t b, size_t e) {
    for (size_t r = b; r < e; r++) {
      const int j = int(r % size_t(nc[1])), k = int(r / size_t(nc[1]));
      T *o = tets->data() + r * size_t(nc[0]) * 20;
      for (int i = 0; i < nc[0]; i++, o += 20) {
        vtkIdType ids[8];
        CellPoints(np, i, j, k, hexahedron, ids);
        const vtkIdType *l = local[(i + j + k) % 2];
        for (int t = 0; t < 20; t++) o[t] = T(ids[l[t]]);
      }
    }
  };
  const size_t nrows = size_t(nc[1]) * size_t(nc[2]);
  if (!parallel) {
    rows(0, nrows);
    return 0;
  }
  using Rows = decltype(rows);
  return adapt_for(
      0, nrows, [](size_t b, size_t e, void *ctx) { (*static_cast<Rows *>(ctx))(b, e); }, &rows,
      nullptr);
}

/* The same with blanked cells skipped (a block that SkipsBlanked),
 * tetrahedron t from cell (*tetCell)[t] (sequential). */
template <class T>
void SplitVisible(vtkDataSet *in, const int np[3], bool hexahedron, const vtkIdType local[2][20],
                  std::vector<T> *tets, std::vector<vtkIdType> *tetCell) {
  const int nc[3] = {np[0] - 1, np[1] - 1, np[2] - 1};
  tets->clear();
  tetCell->clear();
  vtkIdType c = 0;
  for (int k = 0; k < nc[2]; k++)
    for (int j = 0; j < nc[1]; j++)
      for (int i = 0; i < nc[0]; i++, c++) {
        if (!CellVisible(in, c)) continue;
        vtkIdType ids[8];
        CellPoints(np, i, j, k, hexahedron, ids);
        const vtkIdType *l = local[(i + j + k) % 2];
        for (int t = 0; t < 20; t++) tets->push_back(T(ids[l[t]]));
        tetCell->insert(tetCell->end(), 5, c);
      }
}

template <class T>
int Split(vtkDataSet *in, const int np[3], bool hexahedron, const vtkIdType local[2][20],
          bool parallel, std::vector<T> *tets, std::vector<vtkIdType> *tetCell) {
  if (!SkipsBlanked(in) || !in->HasAnyBlankCells())
    return SplitAll(np, hexahedron, local, parallel, tets);
  SplitVisible(in, np, hexahedron, local, tets, tetCell);
  return 0;
}

int SplitStructured(vtkDataSet *in, const int np[3], bool hexahedron, bool parallel, Input *out,
                    std::string *err) {
  vtkSmartPointer<vtkCell> cell;
  if (hexahedron)
    cell = vtkSmartPointer<vtkHexahedron>::New();
  else
    cell = vtkSmartPointer<vtkVoxel>::New();
  vtkIdType local[2][20];
  LocalSplit(cell, 0, local[0]);
  LocalSplit(cell, 1, local[1]);
  out->Structured = true;
  int rc;
  try {
    rc = out->NumberOfPoints <= INT32_MAX
             ? Split(in, np, hexahedron, local, parallel, &out->Tets32, &out->TetCell)
             : Split(in, np, hexahedron, local, parallel, &out->Tets64, &out->TetCell);
  } catch (const std::bad_alloc &) {
    *err = "out of memory splitting the cells into tetrahedra";
    return -ENOMEM;
  }
  if (rc != 0) *err = std::string("splitting the cells: ") + adapt_strerror(rc);
  return rc;
}

/* The points of an image (origin, spacing, direction) or a rectilinear grid
 * (its coordinate arrays), computed in double. */
vtkSmartPointer<vtkDataArray> ImplicitPoints(vtkDataSet *in, const int np[3]) {
  auto xyz = vtkSmartPointer<vtkDoubleArray>::New();
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples(in->GetNumberOfPoints());
  double *p = xyz->GetPointer(0);
  if (auto *img = vtkImageData::SafeDownCast(in)) {
    double o[3], s[3];
    img->GetOrigin(o);
    img->GetSpacing(s);
    const double *d = img->GetDirectionMatrix()->GetData();
    int ext[6];
    img->GetExtent(ext);
    for (int k = 0; k < np[2]; k++)
      for (int j = 0; j < np[1]; j++)
        for (int i = 0; i < np[0]; i++, p += 3) {
          const double u[3] = {(ext[0] + i) * s[0], (ext[2] + j) * s[1], (ext[4] + k) * s[2]};
          for (int a = 0; a < 3; a++)
            p[a] = o[a] + d[3 * a] * u[0] + d[3 * a + 1] * u[1] + d[3 * a + 2] * u[2];
        }
    return xyz;
  }
  auto *rg = vtkRectilinearGrid::SafeDownCast(in);
  vtkDataArray *c[3] = {rg->GetXCoordinates(), rg->GetYCoordinates(), rg->GetZCoordinates()};
  for (int k = 0; k < np[2]; k++)
    for (int j = 0; j < np[1]; j++)
      for (int i = 0; i < np[0]; i++, p += 3) {
        p[0] = c[0]->GetComponent(i, 0);
        p[1] = c[1]->GetComponent(j, 0);
        p[2] = c[2]->GetComponent(k, 0);
      }
  return xyz;
}

/* arr itself when its values are contiguous (AOS), else an AOS copy. */
vtkSmartPointer<vtkDataArray> Contiguous(vtkDataArray *arr) {
  if (arr->HasStandardMemoryLayout()) return arr;
  vtkSmartPointer<vtkDataArray> copy;
  copy.TakeReference(vtkDataArray::CreateDataArray(arr->GetDataType()));
  copy->DeepCopy(arr);
  return copy;
}

/* The points: the unstructured or structured grid's own array when float
 * or double, else a double copy; computed for image and rectilinear. */
int PreparePoints(vtkDataSet *in, const int np[3], Input *out, std::string *err) {
  auto *ps = vtkPointSet::SafeDownCast(in);
  if (!ps) {
    out->Points = ImplicitPoints(in, np);
    return 0;
  }
  if (!ps->GetPoints()) {
    *err = "the input has cells but no points";
    return -EINVAL;
  }
  vtkDataArray *xyz = ps->GetPoints()->GetData();
  if (xyz->GetDataType() == VTK_FLOAT || xyz->GetDataType() == VTK_DOUBLE) {
    out->Points = Contiguous(xyz);
  } else {
    auto d = vtkSmartPointer<vtkDoubleArray>::New();
    d->DeepCopy(xyz);
    out->Points = d;
  }
  return 0;
}

/* The cell scalars `scalars` made point data as vtkCellDataToPointData does
 * (that filter, on a shallow copy holding that array only). */
vtkSmartPointer<vtkDataArray> CellToPoint(vtkDataSet *in, vtkDataArray *scalars) {
  vtkSmartPointer<vtkDataSet> copy;
  copy.TakeReference(in->NewInstance());
  copy->CopyStructure(in);
  copy->GetCellData()->AddArray(scalars);
  vtkNew<vtkCellDataToPointData> c2p;
  c2p->SetInputData(copy);
  c2p->Update();
  vtkDataArray *pts = c2p->GetOutput()->GetPointData()->GetArray(scalars->GetName());
  return pts;
}

/* The scalars and the point arrays to interpolate. */
int PrepareScalars(vtkDataSet *in, vtkDataArray *scalars, int association, Input *out,
                   std::string *err) {
  if (scalars->GetNumberOfComponents() != 1) {
    *err = std::string("the scalars '") + (scalars->GetName() ? scalars->GetName() : "") +
           "' have " + std::to_string(scalars->GetNumberOfComponents()) +
           " components (one is contoured)";
    return -EINVAL;
  }
  out->PointData = vtkSmartPointer<vtkPointData>::New();
  out->PointData->ShallowCopy(in->GetPointData());
  vtkSmartPointer<vtkDataArray> point = scalars;
  if (association == vtkDataObject::FIELD_ASSOCIATION_CELLS) {
    if (scalars->GetNumberOfTuples() != in->GetNumberOfCells()) {
      *err = "the cell scalars have " + std::to_string(scalars->GetNumberOfTuples()) +
             " values for " + std::to_string(in->GetNumberOfCells()) + " cells";
      return -EINVAL;
    }
    point = CellToPoint(in, scalars);
    if (!point) {
      *err = "the cell scalars could not be converted to point data";
      return -EINVAL;
    }
  } else if (scalars->GetNumberOfTuples() != in->GetNumberOfPoints()) {
    *err = "the point scalars have " + std::to_string(scalars->GetNumberOfTuples()) +
           " values for " + std::to_string(in->GetNumberOfPoints()) + " points";
    return -EINVAL;
  }
  /* As vtkContourGrid: the scalars become the active scalars of the arrays
   * interpolated, the former active scalars stay as a plain array. */
  vtkAbstractArray *old = out->PointData->GetScalars();
  out->PointData->SetScalars(point);
  if (old && old != point.GetPointer()) out->PointData->AddArray(old);
  out->Scalars = Contiguous(point);
  return 0;
}

} // namespace

int PrepareInput(vtkDataSet *input, vtkDataArray *scalars, int association, bool parallel,
                 Input *out, std::string *err) {
  out->NumberOfPoints = input->GetNumberOfPoints();
  out->NumberOfCells = input->GetNumberOfCells();
  out->CellData = input->GetCellData();
  int np[3] = {0, 0, 0};
  if (auto *img = vtkImageData::SafeDownCast(input))
    img->GetDimensions(np);
  else if (auto *rg = vtkRectilinearGrid::SafeDownCast(input))
    rg->GetDimensions(np);
  else if (auto *sg = vtkStructuredGrid::SafeDownCast(input))
    sg->GetDimensions(np);
  else if (!vtkUnstructuredGrid::SafeDownCast(input)) {
    *err = std::string("input of type ") + input->GetClassName() +
           " not supported (vtkUnstructuredGrid, vtkImageData, vtkRectilinearGrid, "
           "vtkStructuredGrid, or composites of them)";
    return -EINVAL;
  }
  const bool structured = np[0] > 0;
  if (structured && (np[0] < 2 || np[1] < 2 || np[2] < 2)) {
    *err = std::string("the ") + input->GetClassName() + " has " + std::to_string(np[0]) + "x" +
           std::to_string(np[1]) + "x" + std::to_string(np[2]) +
           " points: its cells are not 3D (only linear 3D cells are contoured)";
    return -EINVAL;
  }
  int rc = PreparePoints(input, np, out, err);
  if (rc == 0) rc = PrepareScalars(input, scalars, association, out, err);
  if (rc != 0) return rc;
  if (!structured) {
    out->Ugrid = input;
    return 0;
  }
  return SplitStructured(input, np, vtkStructuredGrid::SafeDownCast(input) != nullptr, parallel,
                         out, err);
}

} // namespace adapt_vtk
