/* apps/isosurface/io: VTK readers, writers and peers (see vtk_bridge.h). */
#include "vtk_bridge.h"
#include "vtk_arrays.h"
#include "file_checks.h"
#include "pieces.h"
#include "vtk_convert.h"
#include "vtk_datasets.h"
#include "vtk_quiet.h"

#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkCellTypes.h>
#include <vtkCommand.h>
#include <vtkContourFilter.h>
#include <vtkDataArray.h>
#include <vtkDataSetReader.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkImageData.h>
#include <vtkMetaImageReader.h>
#include <vtkNIFTIImageHeader.h>
#include <vtkNIFTIImageReader.h>
#include <vtkLogger.h>
#include <vtkMatrix3x3.h>
#include <vtkMatrix4x4.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkOutputWindow.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkVersion.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLMultiBlockDataReader.h>
#include <vtkXMLPImageDataReader.h>
#include <vtkXMLRectilinearGridReader.h>
#include <vtkXMLStructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sys/stat.h>
#include <vector>

namespace iso {

namespace {

/* Pick the point scalars of ds: by name, else the active scalars. */
int pick_array(vtkDataSet *ds, const std::string &name, vtkDataArray **out, std::string *err) {
  vtkPointData *pd = ds->GetPointData();
  vtkDataArray *a = name.empty() ? pd->GetScalars() : pd->GetArray(name.c_str());
  if (!a) {
    std::string avail;
    for (int i = 0; i < pd->GetNumberOfArrays(); i++) {
      const char *n = pd->GetArrayName(i);
      avail += std::string(avail.empty() ? "" : ", ") + (n ? n : "(unnamed)");
    }
    if (avail.empty()) avail = "none";
    *err =
        name.empty()
            ? "no active point scalars; choose an array with --array NAME (point arrays: " + avail +
                  ")"
            : "unknown point array '" + name + "' (point arrays: " + avail + ")";
    return -EINVAL;
  }
  if (a->GetNumberOfComponents() != 1) {
    *err = std::string("point array '") + (a->GetName() ? a->GetName() : "") + "' has " +
           std::to_string(a->GetNumberOfComponents()) +
           " components; a scalar (1 component) is needed";
    return -EINVAL;
  }
  *out = a;
  return 0;
}

std::string cell_type_name(int type) {
  const char *n = vtkCellTypes::GetClassNameFromTypeId(type);
  return std::string(n ? n : "unknown") + ", VTK cell type " + std::to_string(type);
}

/* The scalars array must have one value per point (VTK's readers accept
 * shorter attribute arrays). */
int check_tuples(vtkDataArray *arr, vtkIdType want, const char *what, std::string *err) {
  if (arr->GetNumberOfTuples() == want) return 0;
  *err = std::string("point array '") + (arr->GetName() ? arr->GetName() : "") + "' has " +
         std::to_string(arr->GetNumberOfTuples()) + " values for " + std::to_string(want) + " " +
         what;
  return -EINVAL;
}

/* What VTK's reader returned, checked before anything uses it: one cell
 * type per cell, every cell's point ids in range, the cells the options
 * refuse, a tetrahedron with 4 ids, a cell to split with its type's count. */
int check_cells(vtkUnstructuredGrid *grid, const ReadOptions &opt, std::string *err) {
  const vtkIdType np = grid->GetNumberOfPoints(), nc = grid->GetNumberOfCells();
  vtkCellArray *ca = grid->GetCells();
  vtkUnsignedCharArray *types = grid->GetCellTypesArray();
  if (nc > 0 && (!ca || !types || types->GetNumberOfTuples() != nc)) {
    *err = "the file has " + std::to_string(nc) + " cells but " +
           std::to_string(types ? types->GetNumberOfTuples() : 0) + " cell types";
    return -EINVAL;
  }
  /* The offsets: from 0, non-decreasing, up to the connectivity's size
   * (GetCellAtId trusts them). */
  if (nc > 0) {
    vtkDataArray *off = ca->GetOffsetsArray(), *conn = ca->GetConnectivityArray();
    const vtkIdType nconn = conn ? conn->GetNumberOfTuples() : 0;
    if (!off || off->GetNumberOfTuples() != nc + 1) {
      *err = "the cell array has " + std::to_string(off ? off->GetNumberOfTuples() : 0) +
             " offsets for " + std::to_string(nc) + " cells";
      return -EINVAL;
    }
    double prev = 0;
    for (vtkIdType c = 0; c <= nc; c++) {
      const double o = off->GetComponent(c, 0);
      if ((c == 0 && o != 0) || o < prev || o > (double)nconn || (c == nc && o != (double)nconn)) {
        *err = "cell offset " + std::to_string(c) + " is " + std::to_string((long long)o) +
               ": offsets go from 0 up to the connectivity size " + std::to_string(nconn);
        return -EINVAL;
      }
      prev = o;
    }
  }
  for (vtkIdType c = 0; c < nc; c++) {
    const int type = types->GetValue(c);
    vtkIdType n;
    const vtkIdType *ids;
    ca->GetCellAtId(c, n, ids);
    const std::string cell = "cell " + std::to_string(c) + " (" + cell_type_name(type) + ", " +
                             std::to_string(n) + " points)";
    const int need = type == VTK_TETRA ? 4 : opt.tetrahedralize ? linear_3d_points(type) : 0;
    if (need == 0) {
      const int dim = cell_dimension(type);
      if (dim < 0)
        *err = cell + " is not a tetrahedron: refused (unknown cell type)";
      else if (dim != 3)
        *err = cell + " is not a tetrahedron: refused (a " + std::to_string(dim) +
               "D cell: only 3D cells can be split into tetrahedra, --tetrahedralize refuses it "
               "too)";
      else if (opt.tetrahedralize)
        *err = cell + " is not a tetrahedron: refused (--tetrahedralize splits the linear 3D cells "
                      "only: voxels, hexahedra, wedges, pyramids, pentagonal and hexagonal prisms)";
      else
        *err = cell + " is not a tetrahedron: refused; rerun with --tetrahedralize to split 3D "
                      "cells into tetrahedra";
      return -EPROTO;
    }
    if (n != need) {
      *err = cell + ": expected " + std::to_string(need) + " points for this cell type";
      return -EINVAL;
    }
    for (vtkIdType k = 0; k < n; k++)
      if (ids[k] < 0 || ids[k] >= np) {
        *err = "cell " + std::to_string(c) + " refers to point " + std::to_string(ids[k]) +
               ", out of range [0, " + std::to_string(np) + ")";
        return -ERANGE;
      }
  }
  return 0;
}

int from_unstructured(vtkUnstructuredGrid *ug, const ReadOptions &opt, Mesh *mesh,
                      std::string *err) {
  vtkSmartPointer<vtkUnstructuredGrid> grid = ug;
  vtkDataArray *arr = nullptr;
  int rc = pick_array(grid, opt.array, &arr, err);
  if (rc || (rc = check_tuples(arr, grid->GetNumberOfPoints(), "points", err)) ||
      (rc = check_cells(grid, opt, err)))
    return rc;
  const vtkIdType nc = grid->GetNumberOfCells();
  bool all_tets = true;
  for (vtkIdType c = 0; c < nc && all_tets; c++) all_tets = grid->GetCellType(c) == VTK_TETRA;
  if (!all_tets) {
    vtkNew<vtkDataSetTriangleFilter> tf;
    tf->SetInputData(grid);
    tf->TetrahedraOnlyOn();
    tf->Update();
    grid = tf->GetOutput();
    if ((rc = pick_array(grid, opt.array, &arr, err)) ||
        (rc = check_tuples(arr, grid->GetNumberOfPoints(), "points", err)) ||
        (rc = check_cells(grid, opt, err)))
      return rc;
  }
  Mesh m;
  m.array_name = arr->GetName() ? arr->GetName() : "scalars";
  const vtkIdType np = grid->GetNumberOfPoints(), ncells = grid->GetNumberOfCells();
  if ((uint64_t)np >= kMaxMeshPoints) {
    *err = "too many points (" + std::to_string(np) + ", at most " +
           std::to_string(kMaxMeshPoints - 1) + ": point ids are 32-bit)";
    return -EOVERFLOW;
  }
  try {
    m.pts.resize((size_t)np);
    m.scalars.resize((size_t)np);
    for (vtkIdType p = 0; p < np; p++) {
      double x[3];
      grid->GetPoint(p, x);
      m.pts[(size_t)p] = Point{x[0], x[1], x[2]};
      m.scalars[(size_t)p] = arr->GetComponent(p, 0);
    }
    m.tets.resize((size_t)ncells);
    vtkCellArray *ca = grid->GetCells();
    for (vtkIdType c = 0; c < ncells; c++) {
      vtkIdType n;
      const vtkIdType *ids;
      ca->GetCellAtId(c, n, ids);
      /* In [0, np) (check_cells, or VTK's own triangle filter). */
      for (int a = 0; a < 4; a++) m.tets[(size_t)c].v[a] = (uint32_t)ids[a];
    }
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the mesh";
    return -ENOMEM;
  }
  if ((rc = take_blocks(grid, m.tets.size(), &m.tet_block, err)) ||
      (rc = copy_arrays(grid, opt, m.array_name, {}, true, &m, err)))
    return rc;
  *mesh = std::move(m);
  return 0;
}

/* The image's scalars s (extent ext, x fastest) are finite, else the
 * error names the first bad point as the file numbers it, index and ijk
 * (the mesh's numbering, validate's, follows --order). */
int check_image_scalars(const std::vector<double> &s, const int ext[6], const char *name,
                        std::string *err) {
  const size_t nx = (size_t)(ext[1] - ext[0] + 1), ny = (size_t)(ext[3] - ext[2] + 1);
  for (size_t i = 0; i < s.size(); i++) {
    if (std::isfinite(s[i])) continue;
    *err = "image point " + std::to_string(i) + " (i " +
           std::to_string(ext[0] + (int64_t)(i % nx)) + ", j " +
           std::to_string(ext[2] + (int64_t)(i / nx % ny)) + ", k " +
           std::to_string(ext[4] + (int64_t)(i / (nx * ny))) + ") has " +
           (std::isnan(s[i]) ? "a NaN" : "an infinite") + " scalar in array '" +
           (name ? name : "") + "'";
    return -EDOM;
  }
  return 0;
}

/* The points of an image's mesh, made at origin-free ijk * spacing, moved
 * to origin + D p (unless identity), then by the 4x4 affine w (row-major)
 * when w. */
void place_points(Mesh *m, const double origin[3], const double *d, bool identity,
                  const double *w) {
  if (identity && !w) return;
  for (Point &p : m->pts) {
    double x = p.x, y = p.y, z = p.z;
    if (!identity) {
      x = origin[0] + d[0] * p.x + d[1] * p.y + d[2] * p.z;
      y = origin[1] + d[3] * p.x + d[4] * p.y + d[5] * p.z;
      z = origin[2] + d[6] * p.x + d[7] * p.y + d[8] * p.z;
    }
    if (w) {
      p.x = w[0] * x + w[1] * y + w[2] * z + w[3];
      p.y = w[4] * x + w[5] * y + w[6] * z + w[7];
      p.z = w[8] * x + w[9] * y + w[10] * z + w[11];
    } else
      p = Point{x, y, z};
  }
}

/* An image volume: its points are origin + D (ijk * spacing), ijk over the
 * extent (which need not start at 0), D the direction matrix, then moved
 * by the affine `world` (4x4 row-major, a NIfTI file's placement) unless
 * null. */
int from_image(vtkImageData *img, const ReadOptions &opt, const double *world, Mesh *mesh,
               std::string *err) {
  vtkDataArray *arr = nullptr;
  int rc = pick_array(img, opt.array, &arr, err);
  if (rc) return rc;
  int ext[6];
  img->GetExtent(ext);
  int64_t dims[3];
  uint64_t n = 1;
  for (int a = 0; a < 3; a++) {
    dims[a] = (int64_t)ext[2 * a + 1] - ext[2 * a] + 1;
    if (dims[a] < 2) {
      *err = "image volume: extent " + std::to_string(ext[0]) + ".." + std::to_string(ext[1]) +
             " x " + std::to_string(ext[2]) + ".." + std::to_string(ext[3]) + " x " +
             std::to_string(ext[4]) + ".." + std::to_string(ext[5]) +
             ": at least 2 points per axis are needed";
      return -EINVAL;
    }
    if (__builtin_mul_overflow(n, (uint64_t)dims[a], &n) || n > (uint64_t)INT64_MAX) {
      *err = "image volume: extent too large";
      return -EOVERFLOW;
    }
  }
  if ((rc = check_tuples(arr, (vtkIdType)n, "image points", err))) return rc;
  const double *origin = img->GetOrigin(), *spacing = img->GetSpacing();
  const double *d = img->GetDirectionMatrix()->GetData();
  for (int a = 0; a < 3; a++)
    if (!std::isfinite(origin[a]) || !std::isfinite(spacing[a])) {
      *err = "image volume: origin or spacing is not finite";
      return -EDOM;
    }
  for (int k = 0; k < 9; k++)
    if (!std::isfinite(d[k])) {
      *err = "image volume: direction matrix is not finite";
      return -EDOM;
    }
  for (int k = 0; world && k < 16; k++)
    if (!std::isfinite(world[k])) {
      *err = "image volume: the NIfTI header's qform or sform is not finite";
      return -EDOM;
    }
  const bool identity = d[0] == 1 && d[1] == 0 && d[2] == 0 && d[3] == 0 && d[4] == 1 &&
                        d[5] == 0 && d[6] == 0 && d[7] == 0 && d[8] == 1;
  Mesh m;
  try {
    std::vector<double> s((size_t)n);
    for (size_t i = 0; i < n; i++) s[i] = arr->GetComponent((vtkIdType)i, 0);
    if ((rc = check_image_scalars(s, ext, arr->GetName(), err))) return rc;
    Grid g;
    for (int a = 0; a < 3; a++) {
      g.np[a] = dims[a];
      g.origin[a] = (identity ? origin[a] : 0.0) + ext[2 * a] * spacing[a];
      g.spacing[a] = spacing[a];
    }
    g.scalars = s.data();
    m.array_name = arr->GetName() ? arr->GetName() : "scalars";
    rc = tetrahedralize_grid(g, opt.split, opt.order, 1, &m, err);
    if (rc) {
      *err = "image volume: " + *err;
      return rc;
    }
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the image volume";
    return -ENOMEM;
  }
  place_points(&m, origin, d, identity, world);
  std::vector<int64_t> src;
  if (wants_point_arrays(img, opt, m.array_name) &&
      (rc = image_point_sources(dims, opt, &src, err)))
    return rc;
  if ((rc = copy_arrays(img, opt, m.array_name, src, false, &m, err))) return rc;
  *mesh = std::move(m);
  return 0;
}

/* Reader settings beyond the file name: the legacy reader reads every
 * scalar array, not only the first. */
void configure(vtkAlgorithm *) {}
void configure(vtkDataSetReader *r) { r->ReadAllScalarsOn(); }

/* A Reader of path, configured, its errors reported to catcher. */
template <class Reader>
vtkSmartPointer<vtkAlgorithm> make_reader(const std::string &path, ErrorCatcher *catcher) {
  auto r = vtkSmartPointer<Reader>::New();
  r->SetFileName(path.c_str());
  r->AddObserver(vtkCommand::ErrorEvent, catcher);
  configure(r.GetPointer());
  return r;
}

/* The reader of each format read_dataset takes; the legacy reader
 * (vtkDataSetReader) for any other. */
const struct {
  FileFormat format;
  vtkSmartPointer<vtkAlgorithm> (*make)(const std::string &, ErrorCatcher *);
} format_readers[] = {
    {FileFormat::Vtu, make_reader<vtkXMLUnstructuredGridReader>},
    {FileFormat::Vti, make_reader<vtkXMLImageDataReader>},
    {FileFormat::Vts, make_reader<vtkXMLStructuredGridReader>},
    {FileFormat::Vtr, make_reader<vtkXMLRectilinearGridReader>},
    {FileFormat::Pvti, make_reader<vtkXMLPImageDataReader>},
    {FileFormat::Vtm, make_reader<vtkXMLMultiBlockDataReader>},
    {FileFormat::MetaImage, make_reader<vtkMetaImageReader>},
    {FileFormat::Nifti, make_reader<vtkNIFTIImageReader>},
    {FileFormat::NiftiGz, make_reader<vtkNIFTIImageReader>},
};

/* The reader of a file of format at path, its errors reported to catcher. */
vtkSmartPointer<vtkAlgorithm> reader_for(FileFormat format, const std::string &path,
                                         ErrorCatcher *catcher) {
  for (const auto &f : format_readers)
    if (f.format == format) return f.make(path, catcher);
  return make_reader<vtkDataSetReader>(path, catcher);
}

/* Run reader r: its output (r kept alive in *keep), null if it threw (the
 * message in *thrown). */
vtkSmartPointer<vtkDataObject> run_reader(const vtkSmartPointer<vtkAlgorithm> &r,
                                          vtkSmartPointer<vtkAlgorithm> *keep,
                                          std::string *thrown) {
  *keep = r;
  try {
    r->Update();
  } catch (const std::exception &e) {
    *thrown = e.what();
    return nullptr;
  }
  return r->GetOutputDataObject(0);
}

} // namespace

namespace {

/* The file at path through VTK's reader of its format, after check_file:
 * 0 and *ds (the reader kept alive in *keep), or read_mesh's errors. */
int read_dataset(const std::string &path, vtkSmartPointer<vtkDataObject> *out,
                 vtkSmartPointer<vtkAlgorithm> *keep, std::string *err) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = "cannot read '" + path + "': " + std::strerror(errno);
    return -ENOENT;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = "cannot read '" + path + "': not a regular file";
    return -ENOENT;
  }
  const FileFormat format = file_format(path);
  if (format == FileFormat::Unknown || format == FileFormat::Pvtu || format == FileFormat::Vtp) {
    *err = "'" + path +
           "': unknown file type (expected .vtu, .vtk, .vti, .vts, .vtr, .pvti, .vtm, .mha, .mhd, "
           ".nii or .nii.gz)";
    return -ENOTSUP;
  }
  if (int rc = check_input(path, format, err)) return rc;
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkSmartPointer<vtkDataObject> ds;
  vtkSmartPointer<vtkAlgorithm> &reader = *keep;
  std::string thrown;
  ds = run_reader(reader_for(format, path, catcher), &reader, &thrown);
  if (catcher->failed || !ds || reader->GetErrorCode() != 0 || !quiet.text().empty()) {
    const std::string why = !catcher->message.empty() ? catcher->message
                            : !thrown.empty()         ? "exception: " + thrown
                                                      : quiet.text();
    *err = "VTK could not read '" + path + "'" + (why.empty() ? "" : ": " + message_line(why));
    return -EIO;
  }
  *out = ds;
  return 0;
}

} // namespace

namespace {

/* Where a NIfTI header places the image (reader a vtkNIFTIImageReader):
 * the sform when sform_code > 0, else the qform when qform_code > 0, as
 * VTK gives them (4x4 row-major, from VTK's data coordinates: ijk *
 * pixdim, the slices in VTK's order, reversed when qfac is -1); null for
 * another reader or neither code (pixdim scaling only, VTK's spacing). */
const double *nifti_placement(vtkAlgorithm *reader) {
  auto *r = vtkNIFTIImageReader::SafeDownCast(reader);
  vtkNIFTIImageHeader *h = r ? r->GetNIFTIHeader() : nullptr;
  vtkMatrix4x4 *m = !h                      ? nullptr
                    : h->GetSFormCode() > 0 ? r->GetSFormMatrix()
                    : h->GetQFormCode() > 0 ? r->GetQFormMatrix()
                                            : nullptr;
  return m ? m->GetData() : nullptr;
}

int read_mesh_checked(const std::string &path, const ReadOptions &opt, Mesh *mesh,
                      BlockTree *blocks, std::string *err) {
  vtkSmartPointer<vtkDataObject> data;
  vtkSmartPointer<vtkAlgorithm> reader;
  if (int rc = read_dataset(path, &data, &reader, err)) return rc;
  int rc = 0;
  ReadOptions o = opt;
  vtkSmartPointer<vtkDataSet> ds = vtkDataSet::SafeDownCast(data);
  if (auto *mb = vtkMultiBlockDataSet::SafeDownCast(data)) {
    if ((rc = append_blocks(mb, opt, &ds, &o.array, blocks, err))) return rc;
    o.cell_scalars = false; /* converted block by block */
  }
  if (!ds) {
    *err = "'" + path + "' holds a " + data->GetClassName() + ", not a dataset";
    return -ENOTSUP;
  }
  if (wants_cell_scalars(ds, o) && (rc = cell_scalars_to_points(&ds, o, &o.array, err))) return rc;
  if (!vtkImageData::SafeDownCast(ds) && (rc = structured_to_tets(&ds, err))) return rc;
  if (auto *ug = vtkUnstructuredGrid::SafeDownCast(ds))
    rc = from_unstructured(ug, o, mesh, err);
  else if (auto *img = vtkImageData::SafeDownCast(ds))
    rc = from_image(img, o, nifti_placement(reader), mesh, err);
  else {
    *err = "'" + path + "' holds a " + ds->GetClassName() +
           "; an unstructured, structured or rectilinear grid or an image volume is needed";
    return -ENOTSUP;
  }
  if (rc) return rc;
  if (mesh->tets.empty()) {
    *err = "'" + path + "' has no cells";
    return -EINVAL;
  }
  return validate(*mesh, err);
}

} // namespace

int read_mesh(const std::string &path, const ReadOptions &opt, Mesh *mesh, std::string *err,
              BlockTree *blocks) {
  BlockTree tree;
  if (file_format(path) == FileFormat::Pvtu) {
    if (opt.cell_scalars || !opt.arrays.empty()) {
      *err = "'" + path + "': a .pvtu input gives point scalars only (no cell scalars, no arrays)";
      return -ENOTSUP;
    }
    PieceReadOptions po;
    po.array = opt.array;
    po.tetrahedralize = opt.tetrahedralize;
    const int rc = read_pvtu(path, po, mesh, err);
    if (!rc && blocks) *blocks = BlockTree();
    return rc;
  }
  Mesh m; /* *mesh untouched on error */
  const int rc = read_mesh_checked(path, opt, &m, &tree, err);
  if (rc) {
    *err = printable(*err); /* names and values from the file: one line */
    return rc;
  }
  *mesh = std::move(m);
  if (blocks) *blocks = std::move(tree);
  return 0;
}

int read_mesh(const std::string &path, const ReadOptions &opt, Mesh *mesh, std::string *err) {
  return read_mesh(path, opt, mesh, err, nullptr);
}

std::string vtk_version() { return vtkVersion::GetVTKVersion(); }

int vtk_image_contour(const std::string &path, const std::string &array, double iso, Surface *s,
                      std::string *err) {
  vtkSmartPointer<vtkDataObject> ds;
  vtkSmartPointer<vtkAlgorithm> reader;
  if (int rc = read_dataset(path, &ds, &reader, err)) {
    *err = printable(*err);
    return rc;
  }
  vtkImageData *img = vtkImageData::SafeDownCast(ds);
  if (!img) {
    *err = "'" + path + "' is not an image volume";
    return -ENOTSUP;
  }
  vtkDataArray *arr = nullptr;
  if (int rc = pick_array(img, array, &arr, err)) return rc;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkContourFilter> f;
  f->AddObserver(vtkCommand::ErrorEvent, catcher);
  f->SetInputData(img);
  f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, arr->GetName());
  f->SetValue(0, iso);
  f->GenerateTrianglesOn();
  f->ComputeNormalsOff();
  f->ComputeScalarsOff();
  f->Update();
  vtkPolyData *pd = f->GetOutput();
  if (catcher->failed || !pd) {
    *err = "vtkContourFilter failed" + caught_reason(*catcher);
    return -EIO;
  }
  *s = surface_of(pd);
  return 0;
}

} // namespace iso
