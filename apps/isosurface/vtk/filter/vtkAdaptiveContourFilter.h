/* vtkAdaptiveContourFilter: isosurfaces of linear 3D cells by marching
 * tetrahedra on libadapt's runtime (<adapt/iso.hpp>), a drop-in for
 * vtkContourGrid / vtkContourFilter in a pipeline (docs/isosurface.md, "The
 * VTK filter").
 *
 * Inputs (port 0):
 * - vtkUnstructuredGrid of linear 3D cells (tetrahedron, voxel, hexahedron,
 *   wedge, pyramid), the cells other than tetrahedra split into tetrahedra
 *   on the fly by the core (<adapt/iso.hpp>, input); its arrays are read in
 *   place (points float or double, 32- or 64-bit offsets/connectivity,
 *   scalars and point arrays of any numeric type).
 * - vtkImageData, vtkRectilinearGrid, vtkStructuredGrid with 3D cells: each
 *   cell (i, j, k) is split into the 5 tetrahedra of vtkVoxel /
 *   vtkHexahedron::Triangulate(p), p = (i + j + k) mod 2, exactly as
 *   vtkDataSetTriangleFilter splits it; the surface is that of
 *   vtkDataSetTriangleFilter + vtkContourGrid (not the marching cubes of
 *   vtkContourFilter / vtkFlyingEdges3D). Blanked cells (IsCellVisible
 *   false: HIDDENCELL or REFINEDCELL in vtkGhostType, or a hidden point) are
 *   skipped where VTK 9.1's contour filters skip them: a vtkStructuredGrid's
 *   and a vtkUniformGrid's; a plain vtkImageData's and a
 *   vtkRectilinearGrid's are contoured, as vtkContourFilter contours them.
 *   DUPLICATECELL ghosts are contoured, their triangles marked by the
 *   vtkGhostType cell array passed on, as vtkContourGrid marks them.
 * - vtkMultiBlockDataSet, vtkPartitionedDataSet(Collection): each block on
 *   its own, the output a composite of the same structure with a vtkPolyData
 *   per block (the composite pipeline's behaviour, as for vtkContourFilter).
 * Output: triangles, points merged (one per cut edge and isovalue; with a
 * Locator, as it says; float when the input's are, else double, unless
 * OutputPointsPrecision says), the triangles of isovalue i before
 * those of isovalue i + 1; the point data interpolated from every numeric
 * input point array as vtkContourGrid does (vtkDataArray::InterpolateTuple,
 * integers rounded to the nearest; not the global and pedigree ids), the
 * scalars among them when ComputeScalars is on; the cell data of each
 * triangle copied from its source cell (not the global ids); "Normals"
 * (float) when ComputeNormals is on: per point the normalised sum of its
 * triangles' unit normals. The triangles are vtkContourGrid's, wound as its
 * are on tetrahedra of positive determinant: towards smaller scalars, as
 * the normals point (docs/isosurface.md, "What the extraction guarantees");
 * "Gradients" (float, the active vectors unless the input has some) when
 * ComputeGradients is on;
 * on a tetrahedron of negative determinant vtkContourGrid's winding flips,
 * ours does not.
 * Scalars: SetInputArrayToProcess(0, 0, 0, association, name), point or
 * cell data (default: the active point scalars). Cell scalars are made point
 * scalars as vtkCellDataToPointData does (each point takes the mean of the
 * cells that use it); that point array then is the "scalars" of the output.
 * Errors (vtkErrorMacro, empty output, RequestData returns 1 so that the
 * pipeline goes on): no scalars, an array name not found, a scalars array of
 * more than one component or not numeric, a point array of another length
 * than the points or a cell array shorter than the cells, a cell that is
 * not linear 3D (2D, quadratic, polyhedron), a 2D structured input, another
 * dataset type, a mesh the core refuses (ids out of range), a worker count
 * other than the running runtime's, a runtime failure. An input of no cells
 * is an empty output without error (as vtkContourGrid).
 * Memory: the output's double points, triangles, interpolated arrays and
 * normals are the core's buffers, adopted without a copy (each array holds
 * its surface until VTK frees it); the next RequestData extracts into a
 * surface that no array of an earlier output holds, reusing its memory
 * (with a locator that merges points or gives each triangle its own, the
 * points, triangles and point arrays are copies).
 * Threads: one RequestData at a time per filter (as any vtkAlgorithm);
 * several filters may run at once on different threads. */
#ifndef APPS_ISOSURFACE_VTK_FILTER_VTKADAPTIVECONTOURFILTER_H
#define APPS_ISOSURFACE_VTK_FILTER_VTKADAPTIVECONTOURFILTER_H

#include "adaptVtkContourModule.h" // ADAPTVTKCONTOUR_EXPORT
#include "vtkContourValues.h"      // inline SetValue etc.
#include "vtkPolyDataAlgorithm.h"

class vtkIncrementalPointLocator;

class ADAPTVTKCONTOUR_EXPORT vtkAdaptiveContourFilter : public vtkPolyDataAlgorithm {
public:
  static vtkAdaptiveContourFilter *New();
  vtkTypeMacro(vtkAdaptiveContourFilter, vtkPolyDataAlgorithm);
  void PrintSelf(ostream &os, vtkIndent indent) override;

  /* How the cells are shared among the workers (docs/isosurface.md, "Modes"):
   * SEQUENTIAL runs on the calling thread alone; NONE, STATIC and
   * SLIDING_WINDOW run adaptively without a window, with a static window or
   * a sliding one of WindowSize cells. The surface is the same in every
   * mode. */
  enum Modes { SEQUENTIAL = 0, NONE = 1, STATIC = 2, SLIDING_WINDOW = 3 };

  /* The isovalues (vtkContourValues, as vtkContourGrid). */
  void SetValue(int i, double value) { this->ContourValues->SetValue(i, value); }
  double GetValue(int i) { return this->ContourValues->GetValue(i); }
  double *GetValues() { return this->ContourValues->GetValues(); }
  void GetValues(double *contourValues) { this->ContourValues->GetValues(contourValues); }
  void SetNumberOfContours(int number) { this->ContourValues->SetNumberOfContours(number); }
  vtkIdType GetNumberOfContours() { return this->ContourValues->GetNumberOfContours(); }
  void GenerateValues(int numContours, double range[2]) {
    this->ContourValues->GenerateValues(numContours, range);
  }
  void GenerateValues(int numContours, double rangeStart, double rangeEnd) {
    this->ContourValues->GenerateValues(numContours, rangeStart, rangeEnd);
  }

  /* The input's scalars interpolated onto the output points and made its
   * active scalars (default on, as vtkContourGrid). */
  vtkSetMacro(ComputeScalars, vtkTypeBool);
  vtkGetMacro(ComputeScalars, vtkTypeBool);
  vtkBooleanMacro(ComputeScalars, vtkTypeBool);

  /* Point normals "Normals" (default off, as vtkContourGrid). */
  vtkSetMacro(ComputeNormals, vtkTypeBool);
  vtkGetMacro(ComputeNormals, vtkTypeBool);
  vtkBooleanMacro(ComputeNormals, vtkTypeBool);

  /* Point gradients of the contoured scalars "Gradients" (default off, as
   * vtkContourFilter): the input's point gradients (vtkGradientFilter:
   * central differences on structured inputs, as vtkSynchronizedTemplates3D
   * does for vtkContourFilter's image data, cell-based on unstructured
   * grids) interpolated along the cut edges as the point arrays are; float,
   * 3 components. vtkContourGrid computes none on unstructured grids. */
  vtkSetMacro(ComputeGradients, vtkTypeBool);
  vtkGetMacro(ComputeGradients, vtkTypeBool);
  vtkBooleanMacro(ComputeGradients, vtkTypeBool);

  /* The output points' type: vtkAlgorithm::SINGLE_PRECISION (float),
   * DOUBLE_PRECISION (double) or DEFAULT_PRECISION (the default: float
   * when the input's points are float, else double), as vtkContourGrid. */
  vtkSetClampMacro(OutputPointsPrecision, int, SINGLE_PRECISION, DEFAULT_PRECISION);
  vtkGetMacro(OutputPointsPrecision, int);

  /* Accepted for vtkContourGrid's interface and kept (default on); the
   * output is triangles either way (vtkContourGrid with it off gives a
   * quadrilateral where a tetrahedron's cut has four corners, this filter
   * its two triangles). */
  vtkSetMacro(GenerateTriangles, vtkTypeBool);
  vtkGetMacro(GenerateTriangles, vtkTypeBool);
  vtkBooleanMacro(GenerateTriangles, vtkTypeBool);

  /* The point locator (default none). None: the points are merged by mesh
   * edge (one per cut edge and isovalue), in parallel, without one. A
   * vtkNonMergingPointLocator: no merging, each triangle has its own three
   * points (vtkContourGrid's output with that locator). Any other (e.g.
   * vtkMergePoints, vtkIncrementalOctreePointLocator): the edge-merged
   * points that it finds coincident (a point of a mesh whose pieces each
   * keep their own copy of a shared point: a seam) become one, as
   * vtkContourGrid's locator merges them; one sequential pass over the
   * points. vtkMergePoints and an octree of tolerance 0, which merge
   * exactly equal points, are not called: the filter merges those points
   * itself (a hash table, the same points); any other merging locator
   * takes the points in order (InsertUniquePoint). The filter holds a
   * reference; RequestData initialises the locator it calls and frees its
   * memory after use. */
  void SetLocator(vtkIncrementalPointLocator *locator);
  vtkGetObjectMacro(Locator, vtkIncrementalPointLocator);

  /* Workers of the adaptive runtime (0, the default: ADAPT_WORKERS, else,
   * in a process started by mpirun (Open MPI, MPICH), one per processing
   * unit of this rank's share of its machine, the distributed run's rule,
   * else the runtime's default, one per processing unit). The runtime is one per
   * process: a value other than the running runtime's worker count makes
   * RequestData report an error unless the runtime is not started yet. The
   * filter starts the runtime as <adapt/iso.hpp> does
   * (adapt::iso::start_runtime), unbound unless ADAPT_BIND is set: the
   * calling thread and the rest of the pipeline (VTK's TBB threads) keep
   * their CPUs. */
  vtkSetClampMacro(NumberOfWorkers, int, 0, 4096);
  vtkGetMacro(NumberOfWorkers, int);

  /* Modes above (default SLIDING_WINDOW). */
  vtkSetClampMacro(Mode, int, SEQUENTIAL, SLIDING_WINDOW);
  vtkGetMacro(Mode, int);
  void SetModeToSequential() { this->SetMode(SEQUENTIAL); }
  void SetModeToNone() { this->SetMode(NONE); }
  void SetModeToStatic() { this->SetMode(STATIC); }
  void SetModeToSlidingWindow() { this->SetMode(SLIDING_WINDOW); }
  static const char *GetModeAsString(int mode);

  /* Window size of STATIC and SLIDING_WINDOW in cells (0, the default:
   * ADAPT_WINDOW_SIZE, else from the shared cache's size). */
  vtkSetClampMacro(WindowSize, vtkIdType, 0, VTK_ID_MAX);
  vtkGetMacro(WindowSize, vtkIdType);

  /* Modified when the isovalues or the locator are. */
  vtkMTimeType GetMTime() override;

protected:
  vtkAdaptiveContourFilter();
  ~vtkAdaptiveContourFilter() override;

  int RequestData(vtkInformation *, vtkInformationVector **, vtkInformationVector *) override;
  int FillInputPortInformation(int port, vtkInformation *info) override;

  vtkContourValues *ContourValues;
  vtkTypeBool ComputeScalars;
  vtkTypeBool ComputeNormals;
  vtkTypeBool ComputeGradients;
  int OutputPointsPrecision;
  vtkTypeBool GenerateTriangles;
  vtkIncrementalPointLocator *Locator;
  int NumberOfWorkers;
  int Mode;
  vtkIdType WindowSize;

private:
  /* The core's surfaces, whose buffers the output arrays adopt and the
   * next RequestData reuses once no output array holds them. */
  struct Internals;
  Internals *Internal;

  vtkAdaptiveContourFilter(const vtkAdaptiveContourFilter &) = delete;
  void operator=(const vtkAdaptiveContourFilter &) = delete;
};

#endif
