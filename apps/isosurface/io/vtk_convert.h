/* apps/isosurface/io: the app's meshes and surfaces as VTK data objects
 * (defined in vtk_files.cpp), shared by vtk_files.cpp (writers, readers),
 * vtk_bridge.cpp, vtk_peers.cpp (peers), render.cpp (rendering), dist.cpp
 * and the pieces' files. Includes VTK's headers. */
#ifndef APPS_ISOSURFACE_IO_VTK_CONVERT_H
#define APPS_ISOSURFACE_IO_VTK_CONVERT_H

#include "mesh.h"
#include "mt.h"

#include <vtkCellArray.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

namespace iso {

/* The mesh as a grid of VTK_TETRA cells, points as doubles, the scalars
 * (named m.array_name) as the active point scalars. */
vtkSmartPointer<vtkUnstructuredGrid> to_vtk(const Mesh &m);

/* The surface as polydata of triangles. */
vtkSmartPointer<vtkPolyData> to_vtk(const Surface &s);

/* The points and triangles of a VTK surface (other polygons skipped). */
Surface surface_of(vtkPolyData *pd);

/* Calls fn(ids) with the three point ids of each triangle of pd, in cell
 * order (other polygons are skipped). */
template <class Fn>
inline void for_each_triangle(vtkPolyData *pd, Fn fn) {
  vtkCellArray *polys = pd->GetPolys();
  for (vtkIdType c = 0; c < polys->GetNumberOfCells(); c++) {
    vtkIdType n;
    const vtkIdType *ids;
    polys->GetCellAtId(c, n, ids);
    if (n == 3) fn(ids);
  }
}

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_VTK_CONVERT_H */
