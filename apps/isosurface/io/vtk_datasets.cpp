/* apps/isosurface/io: structured, rectilinear, parallel image and multiblock
 * inputs, and the VTK cell types (see vtk_datasets.h). */
#include "vtk_datasets.h"
#include "pieces_shared.h"
#include "pieces_xml.h"
#include "vtk_arrays.h"
#include "vtk_quiet.h"

#include <vtkAppendFilter.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkCompositeDataIterator.h>
#include <vtkDataArray.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkImageData.h>
#include <vtkPointSet.h>
#include <vtkPoints.h>
#include <vtkRectilinearGrid.h>
#include <vtkStructuredGrid.h>
#include <vtkUnsignedIntArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sys/stat.h>

namespace iso {

/* The point count of the linear 3D cell types --tetrahedralize splits, 0
 * for the others. */
int linear_3d_points(int type) {
  switch (type) {
  case VTK_TETRA: return 4;
  case VTK_VOXEL: return 8;
  case VTK_HEXAHEDRON: return 8;
  case VTK_WEDGE: return 6;
  case VTK_PYRAMID: return 5;
  case VTK_PENTAGONAL_PRISM: return 10;
  case VTK_HEXAGONAL_PRISM: return 12;
  default: return 0;
  }
}

/* The dimension of a cell type: 3, or 2 and below, -1 if unknown. */
int cell_dimension(int type) {
  switch (type) {
  case VTK_EMPTY_CELL:
  case VTK_VERTEX:
  case VTK_POLY_VERTEX: return 0;
  case VTK_LINE:
  case VTK_POLY_LINE:
  case VTK_QUADRATIC_EDGE:
  case VTK_CUBIC_LINE:
  case VTK_LAGRANGE_CURVE:
  case VTK_BEZIER_CURVE: return 1;
  case VTK_TRIANGLE:
  case VTK_TRIANGLE_STRIP:
  case VTK_POLYGON:
  case VTK_PIXEL:
  case VTK_QUAD:
  case VTK_QUADRATIC_TRIANGLE:
  case VTK_QUADRATIC_QUAD:
  case VTK_QUADRATIC_POLYGON:
  case VTK_BIQUADRATIC_QUAD:
  case VTK_QUADRATIC_LINEAR_QUAD:
  case VTK_BIQUADRATIC_TRIANGLE:
  case VTK_LAGRANGE_TRIANGLE:
  case VTK_LAGRANGE_QUADRILATERAL:
  case VTK_BEZIER_TRIANGLE:
  case VTK_BEZIER_QUADRILATERAL: return 2;
  case VTK_TETRA:
  case VTK_VOXEL:
  case VTK_HEXAHEDRON:
  case VTK_WEDGE:
  case VTK_PYRAMID:
  case VTK_PENTAGONAL_PRISM:
  case VTK_HEXAGONAL_PRISM:
  case VTK_QUADRATIC_TETRA:
  case VTK_QUADRATIC_HEXAHEDRON:
  case VTK_QUADRATIC_WEDGE:
  case VTK_QUADRATIC_PYRAMID:
  case VTK_TRIQUADRATIC_HEXAHEDRON:
  case VTK_QUADRATIC_LINEAR_WEDGE:
  case VTK_BIQUADRATIC_QUADRATIC_WEDGE:
  case VTK_BIQUADRATIC_QUADRATIC_HEXAHEDRON:
  case VTK_TRIQUADRATIC_PYRAMID:
  case VTK_CONVEX_POINT_SET:
  case VTK_POLYHEDRON:
  case VTK_LAGRANGE_TETRAHEDRON:
  case VTK_LAGRANGE_HEXAHEDRON:
  case VTK_LAGRANGE_WEDGE:
  case VTK_BEZIER_TETRAHEDRON:
  case VTK_BEZIER_HEXAHEDRON:
  case VTK_BEZIER_WEDGE: return 3;
  default: return -1;
  }
}

namespace {

/* Values per byte of compressed data at most (zlib's largest ratio, as
 * file_checks.h). */
constexpr uint64_t kCompressionRatio = 1032;

/* The root element of the index at path once parsed, of VTKFile type
 * `type`, and its child element of that name: 0, or -ENOENT, -EIO, -EPROTO. */
int parse_index(const std::string &path, const char *type, CaughtReader<vtkXMLDataParser> &in,
                vtkXMLDataElement **top, std::string *err) {
  if (int rc = need_regular_file(path, err)) return rc;
  if (!in.r->Parse() || in.catcher->failed || !in.r->GetRootElement()) {
    *err = "'" + path + "' is not a readable XML file" + in.reason();
    return -EIO;
  }
  vtkXMLDataElement *root = in.r->GetRootElement();
  const char *t = root->GetAttribute("type");
  *top = root->FindNestedElementWithName(type);
  if (std::strcmp(root->GetName(), "VTKFile") != 0 || !t || std::strcmp(t, type) != 0 || !*top) {
    *err = "'" + path + "' is not a VTKFile of type " + type;
    return -EPROTO;
  }
  return 0;
}

/* A file an index names (src, relative to the index's directory), checked
 * as its format says; *bytes its size. */
int check_named(const std::string &index, const char *src, const char *what, std::string *file,
                uint64_t *bytes, std::string *err) {
  *file = src[0] == '/' ? std::string(src) : dir_of(index) + src;
  struct stat st;
  if (stat(file->c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    *err = "'" + index + "': cannot read its " + what + " '" + *file + "'";
    return -ENOENT;
  }
  *bytes = (uint64_t)st.st_size;
  if (int rc = check_file(*file, file_format(*file), err)) {
    *err = std::string(what) + " of '" + index + "': " + *err;
    return rc;
  }
  return 0;
}

/* The points of extent e (6 values), false if it is not one. */
bool extent_points(const int e[6], uint64_t *n) {
  *n = 1;
  for (int a = 0; a < 3; a++) {
    if (e[2 * a + 1] < e[2 * a]) return false;
    if (__builtin_mul_overflow(*n, (uint64_t)((int64_t)e[2 * a + 1] - e[2 * a] + 1), n))
      return false;
  }
  return true;
}

int check_pvti(const std::string &path, std::string *err) {
  CaughtReader<vtkXMLDataParser> in(path);
  vtkXMLDataElement *img = nullptr;
  if (int rc = parse_index(path, "PImageData", in, &img, err)) return rc;
  int whole[6];
  uint64_t points = 0, capacity = 0, comps = 1;
  if (img->GetVectorAttribute("WholeExtent", 6, whole) != 6 || !extent_points(whole, &points)) {
    *err = "'" + path + "': PImageData without a valid WholeExtent";
    return -EPROTO;
  }
  for (int i = 0; i < img->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *e = img->GetNestedElement(i);
    if (std::strcmp(e->GetName(), "PPointData") == 0)
      for (int j = 0; j < e->GetNumberOfNestedElements(); j++) {
        int n = 1;
        e->GetNestedElement(j)->GetScalarAttribute("NumberOfComponents", n);
        if (n < 1) {
          *err = "'" + path + "': PPointData declares an array of " + std::to_string(n) +
                 " components";
          return -EPROTO;
        }
        comps = std::max<uint64_t>(comps, (uint64_t)n);
      }
    if (std::strcmp(e->GetName(), "Piece") != 0) continue;
    const char *src = e->GetAttribute("Source");
    int ext[6];
    uint64_t n, bytes;
    if (!src || !*src || e->GetVectorAttribute("Extent", 6, ext) != 6 || !extent_points(ext, &n)) {
      *err = "'" + path + "': a piece without Source or a valid Extent";
      return -EPROTO;
    }
    for (int a = 0; a < 3; a++)
      if (ext[2 * a] < whole[2 * a] || ext[2 * a + 1] > whole[2 * a + 1]) {
        *err = "'" + path + "': piece '" + printable(src, 80) + "' extends past the WholeExtent";
        return -EINVAL;
      }
    std::string file;
    if (int rc = check_named(path, src, "piece", &file, &bytes, err)) return rc;
    if (file_format(file) != FileFormat::Vti) {
      *err = "'" + path + "': piece '" + printable(file, 80) + "' is not a .vti";
      return -EPROTO;
    }
    if (int rc = check_piece_arrays(path, img, file, "ImageData", err)) return rc;
    capacity += std::min(n, bytes * kCompressionRatio);
  }
  uint64_t values;
  if (__builtin_mul_overflow(points, comps, &values) || values > capacity) {
    *err = "'" + path + "': WholeExtent declares " + std::to_string(points) + " points of up to " +
           std::to_string(comps) + " components, more than its pieces can hold";
    return -EINVAL;
  }
  return 0;
}

/* The block files under element e of a .vtm (depth: e's), checked; *n
 * counts them. */
int check_blocks(const std::string &path, vtkXMLDataElement *e, int depth, size_t *n,
                 std::string *err) {
  if (depth > 32) {
    *err = "'" + path + "': blocks nested more than 32 deep";
    return -EINVAL;
  }
  for (int i = 0; i < e->GetNumberOfNestedElements(); i++) {
    vtkXMLDataElement *b = e->GetNestedElement(i);
    const char *src = b->GetAttribute("file");
    if (src && *src) {
      const FileFormat f = file_format(src);
      if (f != FileFormat::Vtu && f != FileFormat::Vti && f != FileFormat::Vts &&
          f != FileFormat::Vtr) {
        *err = "'" + path + "': block file '" + printable(src, 80) +
               "' is not a .vtu, .vti, .vts or .vtr";
        return -ENOTSUP;
      }
      std::string file;
      uint64_t bytes;
      if (int rc = check_named(path, src, "block file", &file, &bytes, err)) return rc;
      ++*n;
    }
    if (int rc = check_blocks(path, b, depth + 1, n, err)) return rc;
  }
  return 0;
}

int check_vtm(const std::string &path, std::string *err) {
  CaughtReader<vtkXMLDataParser> in(path);
  vtkXMLDataElement *top = nullptr;
  if (int rc = parse_index(path, "vtkMultiBlockDataSet", in, &top, err)) return rc;
  size_t n = 0;
  if (int rc = check_blocks(path, top, 0, &n, err)) return rc;
  if (n == 0) {
    *err = "'" + path + "' names no block file";
    return -EINVAL;
  }
  return 0;
}

} // namespace

int check_input(const std::string &path, FileFormat f, std::string *err) {
  if (f == FileFormat::Pvti) return check_pvti(path, err);
  if (f == FileFormat::Vtm) return check_vtm(path, err);
  return check_file(path, f, err);
}

int structured_to_tets(vtkSmartPointer<vtkDataSet> *ds, std::string *err) {
  if (!vtkStructuredGrid::SafeDownCast(*ds) && !vtkRectilinearGrid::SafeDownCast(*ds) &&
      !vtkImageData::SafeDownCast(*ds))
    return 0;
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkDataSetTriangleFilter> tf;
  tf->AddObserver(vtkCommand::ErrorEvent, catcher);
  tf->SetInputData(*ds);
  tf->TetrahedraOnlyOn();
  tf->Update();
  if (catcher->failed || !tf->GetOutput()) {
    *err = std::string("vtkDataSetTriangleFilter failed on a ") + (*ds)->GetClassName() +
           caught_reason(*catcher);
    return -EIO;
  }
  vtkUnstructuredGrid *out = tf->GetOutput();
  /* VTK 9.1's split of a structured dataset keeps its points, in order,
   * but as floats: the input's are put back. */
  if (out->GetNumberOfPoints() == (*ds)->GetNumberOfPoints()) {
    if (auto *ps = vtkPointSet::SafeDownCast(*ds)) {
      out->SetPoints(ps->GetPoints());
    } else {
      vtkNew<vtkPoints> pts;
      pts->SetDataTypeToDouble();
      pts->SetNumberOfPoints((*ds)->GetNumberOfPoints());
      for (vtkIdType p = 0; p < (*ds)->GetNumberOfPoints(); p++)
        pts->SetPoint(p, (*ds)->GetPoint(p));
      out->SetPoints(pts);
    }
  }
  *ds = out;
  return 0;
}

size_t BlockTree::count() const { return impl ? impl->flat.size() : 0; }

int append_blocks(vtkMultiBlockDataSet *mb, const ReadOptions &opt,
                  vtkSmartPointer<vtkDataSet> *out, std::string *array, BlockTree *tree,
                  std::string *err) {
  auto impl = std::make_shared<BlockTree::Impl>();
  impl->tree = vtkSmartPointer<vtkMultiBlockDataSet>::New();
  impl->tree->CopyStructure(mb);
  vtkNew<vtkAppendFilter> app;
  app->MergePointsOff();
  vtkSmartPointer<vtkCompositeDataIterator> it;
  it.TakeReference(mb->NewIterator());
  it->SkipEmptyNodesOn();
  size_t blocks = 0;
  for (it->InitTraversal(); !it->IsDoneWithTraversal(); it->GoToNextItem()) {
    vtkSmartPointer<vtkDataSet> ds = vtkDataSet::SafeDownCast(it->GetCurrentDataObject());
    const bool volume =
        ds && (vtkUnstructuredGrid::SafeDownCast(ds) || vtkStructuredGrid::SafeDownCast(ds) ||
               vtkRectilinearGrid::SafeDownCast(ds) || vtkImageData::SafeDownCast(ds));
    if (!volume) {
      *err = std::string("block ") + std::to_string(it->GetCurrentFlatIndex()) + " is a " +
             it->GetCurrentDataObject()->GetClassName() + ", not a 3D dataset";
      return -ENOTSUP;
    }
    const auto b = (unsigned)impl->flat.size();
    impl->flat.push_back(it->GetCurrentFlatIndex());
    if (ds->GetNumberOfCells() == 0) continue;
    int rc;
    if (wants_cell_scalars(ds, opt) && (rc = cell_scalars_to_points(&ds, opt, array, err)))
      return rc;
    vtkSmartPointer<vtkDataSet> tagged;
    tagged.TakeReference(ds->NewInstance());
    tagged->ShallowCopy(ds);
    vtkNew<vtkUnsignedIntArray> id;
    id->SetName(kBlockArray);
    id->SetNumberOfTuples(ds->GetNumberOfCells());
    id->FillValue(b);
    tagged->GetCellData()->AddArray(id);
    if ((rc = structured_to_tets(&tagged, err))) return rc;
    app->AddInputData(tagged);
    blocks++;
  }
  if (blocks == 0) {
    *err = "no block has cells";
    return -EINVAL;
  }
  QuietVtk quiet;
  vtkNew<ErrorCatcher> catcher;
  app->AddObserver(vtkCommand::ErrorEvent, catcher);
  app->Update();
  if (catcher->failed || !app->GetOutput() ||
      !app->GetOutput()->GetCellData()->GetArray(kBlockArray)) {
    *err = "vtkAppendFilter failed on the blocks" + caught_reason(*catcher);
    return -EIO;
  }
  *out = app->GetOutput();
  if (tree) tree->impl = std::move(impl);
  return 0;
}

int take_blocks(vtkDataSet *ds, size_t ncells, std::vector<uint32_t> *tet_block, std::string *err) {
  vtkSmartPointer<vtkDataArray> id = ds->GetCellData()->GetArray(kBlockArray);
  if (!id) return 0;
  ds->GetCellData()->RemoveArray(kBlockArray);
  if ((size_t)id->GetNumberOfTuples() != ncells) {
    *err = "the blocks' numbers were lost splitting their cells";
    return -EIO;
  }
  try {
    tet_block->resize(ncells);
  } catch (const std::bad_alloc &) {
    *err = "out of memory reading the mesh";
    return -ENOMEM;
  }
  for (size_t c = 0; c < ncells; c++) (*tet_block)[c] = (uint32_t)id->GetComponent((vtkIdType)c, 0);
  return 0;
}

} // namespace iso
