/* vtkAdaptiveContourFilter's call into <adapt/iso.hpp> and its output side
 * (private to the module): the request built from the prepared input, the
 * surface copied into the vtkPolyData. */
#ifndef APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOUROUTPUT_H
#define APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOUROUTPUT_H

#include "adaptContourInput.h"

#include "vtkPolyData.h"

#include <adapt/iso.hpp>

#include <string>
#include <vector>

namespace adapt_vtk {

/* The views of one extraction and the VTK arrays behind them (kept alive
 * while the call runs). PointArrays[i] is the input array of the surface's
 * point_data(i). */
struct Call {
  adapt::iso::input In;
  adapt::iso::request Req;
  std::vector<vtkDataArray *> PointArrays;
  std::vector<int> PointAttributes; /* vtkDataSetAttributes::AttributeTypes, or -1 */
  std::vector<vtkSmartPointer<vtkDataArray>> Keep;
};

/* Fills *call from in: the views of its points, cells and scalars, every
 * numeric point array to interpolate (the scalars only when
 * computeScalars; global and pedigree ids and non-numeric arrays left out,
 * as VTK does not interpolate them), cell ids requested (the cell arrays
 * are copied from them). values, policy and normals are the caller's to
 * set. Returns 0, or -EINVAL with *err set (scalars of a type the core
 * does not read, a point array of another length than the points, a cell
 * array shorter than the cells). The views point into in's arrays: in must outlive *call. */
int BuildCall(const Input &in, bool computeScalars, Call *call, std::string *err);

/* The surface s of call into out: points (float when floatPoints, else
 * double), triangles, the interpolated point arrays (same names, types and
 * active attributes as the input's), the cell arrays of the source cells,
 * "Normals" when requested. Returns 0 or -ENOMEM. */
int FillOutput(const adapt::iso::surface &s, const Input &in, const Call &call, bool floatPoints,
               vtkPolyData *out);

} // namespace adapt_vtk

#endif
