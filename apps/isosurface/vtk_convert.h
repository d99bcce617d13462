/* apps/isosurface: the app's meshes and surfaces as VTK data objects,
 * shared by vtk_bridge.cpp (writers, peers) and render.cpp (rendering).
 * VTK headers: include from those two files only (see vtk_bridge.h). */
#ifndef APPS_ISOSURFACE_VTK_CONVERT_H
#define APPS_ISOSURFACE_VTK_CONVERT_H

#include "mesh.h"
#include "mt.h"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

namespace iso {

/* The mesh as a grid of VTK_TETRA cells, points as doubles, the scalars
 * (named m.array_name) as the active point scalars. */
vtkSmartPointer<vtkUnstructuredGrid> to_vtk(const Mesh &m);

/* The surface as polydata of triangles. */
vtkSmartPointer<vtkPolyData> to_vtk(const Surface &s);

} // namespace iso

#endif /* APPS_ISOSURFACE_VTK_CONVERT_H */
