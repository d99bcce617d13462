/* vtkAdaptiveContourFilter's call into <adapt/iso.hpp> and its output side
 * (private to the module): the request built from the prepared input, the
 * surface copied into the vtkPolyData. */
#ifndef APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOUROUTPUT_H
#define APPS_ISOSURFACE_VTK_FILTER_ADAPTCONTOUROUTPUT_H

#include "adaptContourInput.h"

#include "vtkFloatArray.h"
#include "vtkIncrementalPointLocator.h"
#include "vtkPolyData.h"
#include "vtkTypeInt64Array.h"

#include <adapt/iso.hpp>

#include <memory>
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

/* Adds to *call the point gradients of in's scalars (vtkGradientFilter on
 * a shallow copy of input, converted to float), interpolated like the
 * other point arrays into "Gradients", the active vectors unless in has
 * some. Returns 0, or -EINVAL with *err set (the gradient filter's
 * failure). The array is kept alive by call->Keep. */
int AddGradients(vtkDataSet *input, const Input &in, Call *call, std::string *err);

/* Rebuilds out's points as locator says (vtkAdaptiveContourFilter.h,
 * SetLocator): a vtkNonMergingPointLocator gives each triangle corner a
 * point of its own; vtkMergePoints and an incremental octree of tolerance
 * 0 merge exactly equal points (done here, the locator not called);
 * another locator takes the points in order and merges those it finds
 * coincident. out's triangles are renumbered and its point arrays copied to
 * match; out is left as it is when nothing is merged. The points keep
 * their type. A locator that is called is initialised first and emptied
 * after. Returns 0 or -ENOMEM (out then emptied). */
int LocatePoints(vtkIncrementalPointLocator *locator, vtkPolyData *out);

/* The memory of a filter's outputs kept from one RequestData to the next.
 * The output arrays adopt the buffers of the core's surface (no copy):
 * each holds its surface (a shared reference, dropped by the array's free
 * function) until VTK frees it, so that a surface is extracted into again
 * only when no array of a previous output uses it, and the next extraction
 * reuses its memory (already faulted in: docs/benchmarks-vtk-filter.md).
 * The float points (a conversion of the core's doubles) and the offsets of
 * the triangles are arrays kept here, reused when nothing else holds them.
 * One per filter; not thread-safe (one RequestData at a time, as the
 * filter); the arrays may be freed on any thread. */
struct Reuse {
  /* The surfaces of previous outputs (a few: a composite input's blocks
   * each hold one); one that no array holds any more is reused. */
  std::vector<std::shared_ptr<adapt::iso::surface>> Pool;
  vtkSmartPointer<vtkFloatArray> FloatPoints;
  vtkSmartPointer<vtkTypeInt64Array> Offsets;
  /* A surface to extract into: one of Pool that no output array holds,
   * else a new one (added to Pool). */
  std::shared_ptr<adapt::iso::surface> Next();
};

/* The surface s of call into out: points (float when floatPoints, else
 * double), triangles, the interpolated point arrays (same names, types and
 * active attributes as the input's), the cell arrays of the source cells,
 * "Normals" when requested. The double points, the triangles, the point
 * arrays and the normals are s's own buffers, adopted (s is held until
 * the last of them is freed: s must not be extracted into while Next()
 * would not return it); the float points and the offsets are reuse's
 * arrays when nothing else holds them. Returns 0 or -ENOMEM. */
int FillOutput(const std::shared_ptr<adapt::iso::surface> &s, const Input &in, const Call &call,
               bool floatPoints, Reuse *reuse, vtkPolyData *out);

} // namespace adapt_vtk

#endif
