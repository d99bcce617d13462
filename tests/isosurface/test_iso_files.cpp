/* The input files of apps/isosurface: invalid meshes and their messages,
 * image extents, the checks of file_checks.h, legacy metadata, NaN scalars
 * named as in the file, NIfTI placement, the fuzzers' regressions, round
 * trips through VTK's readers and writers; tests of test_isosurface. */
#include "arena.h"
#include "file_checks.h"
#include "fuzz_formats.h"
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "pieces.h"
#include "vertex_merge.h"
#include "vtk_bridge.h"
#include "vtk_convert.h"

#include <adapt/adapt.h>

#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkInformation.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataReader.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkUnstructuredGridWriter.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

using namespace iso;

namespace iso_suite {

void test_invalid_meshes(void **) {
  Mesh m;
  std::string err;
  ReadOptions ro;
  /* Missing file. */
  assert_int_equal(read_mesh(tmpdir() + "/nope.vtu", ro, &m, &err), -ENOENT);
  assert_true(contains(err, "nope.vtu"));
  /* Unknown extension. */
  assert_int_equal(read_mesh(write_file("x.txt", "hello"), ro, &m, &err), -ENOTSUP);
  /* Garbage in a .vtu. */
  assert_int_equal(read_mesh(write_file("bad.vtu", "not xml"), ro, &m, &err), -EIO);
  assert_true(contains(err, "could not read"));
  /* A valid legacy file of two tetrahedra. */
  const std::string tets = write_file(
      "tets.vtk", std::string(legacy_head) +
                      "CELLS 2 10\n4 0 1 2 4\n4 1 3 2 7\nCELL_TYPES 2\n10\n10\n" + legacy_scalars);
  ro.array = "f";
  assert_int_equal(read_mesh(tets, ro, &m, &err), 0);
  assert_int_equal(m.tets.size(), 2);
  assert_int_equal(m.pts.size(), 8);
  assert_true(m.scalars[7] == 7.0);
  /* Unknown array: the message lists the available ones. */
  ro.array = "pressure";
  assert_int_equal(read_mesh(tets, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "pressure") && contains(err, "f"));
  /* No array given: the active scalars. */
  ro.array = "";
  assert_int_equal(read_mesh(tets, ro, &m, &err), 0);
  assert_true(m.array_name == "f");
  /* Out-of-range point index. */
  const std::string oor = write_file(
      "oor.vtk", std::string(legacy_head) +
                     "CELLS 2 10\n4 0 1 2 4\n4 1 3 2 99\nCELL_TYPES 2\n10\n10\n" + legacy_scalars);
  assert_int_equal(read_mesh(oor, ro, &m, &err), -ERANGE);
  assert_true(contains(err, "cell 1") && contains(err, "99"));
  /* A hexahedron: refused, then split with --tetrahedralize. */
  const std::string hex = write_file(
      "hex.vtk", std::string(legacy_head) + "CELLS 1 9\n8 0 1 3 2 4 5 7 6\nCELL_TYPES 1\n12\n" +
                     legacy_scalars);
  assert_int_equal(read_mesh(hex, ro, &m, &err), -EPROTO);
  assert_true(contains(err, "not a tetrahedron") && contains(err, "--tetrahedralize"));
  ro.tetrahedralize = true;
  assert_int_equal(read_mesh(hex, ro, &m, &err), 0);
  assert_true(m.tets.size() >= 5);
  /* A triangle: refused, also with tetrahedralize (which split 3D cells only
   * and silently dropped it). */
  const std::string tri = write_file(
      "tri.vtk", std::string(legacy_head) + "CELLS 2 9\n4 0 1 2 4\n3 1 3 2\nCELL_TYPES 2\n10\n5\n" +
                     legacy_scalars);
  assert_int_equal(read_mesh(tri, ro, &m, &err), -EPROTO);
  assert_true(contains(err, "cell 1") && contains(err, "2D cell"));
  /* A hexahedron of 7 point ids, and a tetrahedron with an id out of range:
   * refused before vtkDataSetTriangleFilter reads them. */
  const std::string short_hex = write_file(
      "shorthex.vtk",
      std::string(legacy_head) + "CELLS 1 8\n7 0 1 3 2 4 5 7\nCELL_TYPES 1\n12\n" + legacy_scalars);
  assert_int_equal(read_mesh(short_hex, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "expected 8 points"));
  const std::string hex_oor = write_file(
      "hexoor.vtk", std::string(legacy_head) + "CELLS 1 9\n8 0 1 3 2 4 5 7 60\nCELL_TYPES 1\n12\n" +
                        legacy_scalars);
  assert_int_equal(read_mesh(hex_oor, ro, &m, &err), -ERANGE);
  assert_true(contains(err, "point 60"));
  ro.tetrahedralize = false;
  /* NaN scalars: caught by validate, also after a round trip through .vtu. */
  Mesh g = make_mesh(2, 2, 2, Field::Sphere, Split::Five, Order::Lex);
  g.scalars[5] = NAN;
  assert_int_equal(validate(g, &err), -EDOM);
  assert_true(contains(err, "point 5") && contains(err, "NaN"));
  const std::string nanfile = tmpdir() + "/nan.vtu";
  assert_int_equal(write_vtu(g, nanfile, &err), 0);
  assert_int_equal(read_mesh(nanfile, ro, &m, &err), -EDOM);
  assert_true(contains(err, "NaN"));
  g.scalars[5] = 0.5;
  g.tets[3].v[2] = (uint32_t)g.pts.size();
  assert_int_equal(validate(g, &err), -ERANGE);
  assert_true(contains(err, "cell 3") &&
              contains(err, "refers to point " + std::to_string(g.pts.size())));
  g.tets[3].v[2] = UINT32_MAX; /* what a 64-bit -1 would have become */
  assert_int_equal(validate(g, &err), -ERANGE);
  assert_true(contains(err, "refers to point 4294967295"));
  g.tets[3].v[2] = 0;
  /* A mesh made by hand with one scalar short: refused by validate and by
   * extract (which reads scalars by point id), the mesh untouched. */
  g.scalars.pop_back();
  assert_int_equal(validate(g, &err), -EINVAL);
  assert_true(contains(err, std::to_string(g.scalars.size()) + " scalars for " +
                                std::to_string(g.pts.size()) + " points"));
  for (Mode mode : {Mode::Seq, Mode::NoWin}) {
    Surface out;
    err.clear();
    assert_int_equal(extract(g, 0.5, mode, AdaptOptions(), &out, nullptr, &err), -EINVAL);
    assert_true(contains(err, "scalars for") && out.ntris() == 0);
  }
  assert_int_equal(g.scalars.size() + 1, g.pts.size());
  /* Point ids are 32-bit: a grid of 2^32 points is refused before
   * anything is allocated. */
  Grid huge;
  huge.np[0] = 2048;
  huge.np[1] = 2048;
  huge.np[2] = 1024;
  assert_int_equal(tetrahedralize_grid(huge, Split::Five, Order::Lex, 1, &m, &err), -EOVERFLOW);
  assert_true(contains(err, "4294967296 points") && contains(err, "32-bit"));
  /* Grids too small. */
  Grid tiny;
  tiny.np[2] = 1;
  assert_int_equal(tetrahedralize_grid(tiny, Split::Five, Order::Lex, 1, &m, &err), -EINVAL);
}

/* Surface bounds: lo[3], hi[3]. */
static void bounds(const Surface &s, double lo[3], double hi[3]) {
  for (int k = 0; k < 3; k++) {
    lo[k] = INFINITY;
    hi[k] = -INFINITY;
  }
  for (size_t v = 0; v < s.nverts(); v++)
    for (int k = 0; k < 3; k++) {
      lo[k] = std::min(lo[k], s.xyz[3 * v + (size_t)k]);
      hi[k] = std::max(hi[k], s.xyz[3 * v + (size_t)k]);
    }
}

/* An ASCII .vti of (2n+1)^3 points over the extent -n..n (plus shift on x),
 * scalars the distance to index space point c, with the given direction
 * matrix (row-major). */
static std::string image_vti(const std::string &name, int n, int shift, const double c[3],
                             const char *direction) {
  char head[512];
  std::snprintf(head, sizeof head,
                "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"0.1\" "
                "byte_order=\"LittleEndian\" header_type=\"UInt32\">\n<ImageData "
                "WholeExtent=\"%d %d %d %d %d %d\" Origin=\"0 0 0\" Spacing=\"1 1 1\" "
                "Direction=\"%s\">\n<Piece Extent=\"%d %d %d %d %d %d\">\n<PointData "
                "Scalars=\"d\">\n<DataArray type=\"Float64\" Name=\"d\" format=\"ascii\">\n",
                -n + shift, n + shift, -n, n, -n, n, direction, -n + shift, n + shift, -n, n, -n,
                n);
  std::string text = head;
  for (int k = -n; k <= n; k++)
    for (int j = -n; j <= n; j++)
      for (int i = -n + shift; i <= n + shift; i++) {
        const double dx = i - c[0], dy = j - c[1], dz = k - c[2];
        text += std::to_string(std::sqrt(dx * dx + dy * dy + dz * dz)) + " ";
      }
  text += "\n</DataArray>\n</PointData>\n<CellData>\n</CellData>\n</Piece>\n</ImageData>\n"
          "</VTKFile>\n";
  return write_file(name, text);
}

/* An image volume whose extent does not start at 0 is where VTK puts it:
 * VTK's own contour of the same file is the reference (bounds within 0.25
 * of a cell; the triangulations differ: cubes against tetrahedra). */
void test_image_extent(void **) {
  const char *identity = "1 0 0 0 1 0 0 0 1";
  for (int shift : {0, 7}) {
    const double c[3] = {shift + 0.0, 0, 0};
    const std::string vti =
        image_vti("ext" + std::to_string(shift) + ".vti", 8, shift, c, identity);
    ReadOptions ro;
    Mesh m;
    std::string err;
    assert_int_equal(read_mesh(vti, ro, &m, &err), 0);
    Surface ours = run(m, 5.5, Mode::Seq), ref;
    assert_int_equal(vtk_image_contour(vti, "", 5.5, &ref, &err), 0);
    assert_true(ours.ntris() > 100 && ref.ntris() > 100);
    double lo[3], hi[3], rlo[3], rhi[3];
    bounds(ours, lo, hi);
    bounds(ref, rlo, rhi);
    for (int k = 0; k < 3; k++) {
      if (std::fabs(lo[k] - rlo[k]) > 0.25 || std::fabs(hi[k] - rhi[k]) > 0.25)
        std::fprintf(stderr, "shift %d axis %d: ours %g..%g, VTK %g..%g\n", shift, k, lo[k], hi[k],
                     rlo[k], rhi[k]);
      assert_true(std::fabs(lo[k] - rlo[k]) <= 0.25 && std::fabs(hi[k] - rhi[k]) <= 0.25);
    }
    assert_true(std::fabs(0.5 * (lo[0] + hi[0]) - c[0]) < 0.1); /* the sphere's centre */
  }
  /* A direction matrix (a quarter turn about z) turns the sphere centred at
   * index (3, 0, 0) to (0, 3, 0). VTK 9.1's vtkContourFilter ignores the
   * direction (its vtkImageData::GetPoint does not): the reference is the
   * geometry. */
  const double c[3] = {3, 0, 0};
  const std::string turned = image_vti("turned.vti", 8, 0, c, "0 -1 0 1 0 0 0 0 1");
  ReadOptions ro;
  Mesh m;
  std::string err;
  assert_int_equal(read_mesh(turned, ro, &m, &err), 0);
  double lo[3], hi[3];
  bounds(run(m, 4.5, Mode::Seq), lo, hi);
  const double want[3] = {0, 3, 0};
  for (int k = 0; k < 3; k++) assert_true(std::fabs(0.5 * (lo[k] + hi[k]) - want[k]) < 0.1);
}

/* The checks of file_checks.h: counts the file cannot hold, before VTK
 * allocates them. */
void test_file_checks(void **) {
  std::string err;
  ReadOptions ro;
  Mesh m;
  const std::string huge =
      write_file("huge.vtk", "# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                             "POINTS 100000000000 float\n0 0 0\n");
  assert_int_equal(read_mesh(huge, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "POINTS") && contains(err, "more than the file can hold"));
  const std::string neg = write_file("neg.vtk", std::string(legacy_head) + "CELLS -2 10\n");
  assert_int_equal(read_mesh(neg, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "CELLS") && contains(err, "-2"));
  const std::string v51 = write_file("v51.vtk", "# vtk DataFile Version 5.1\nx\nASCII\n"
                                                "DATASET UNSTRUCTURED_GRID\nPOINTS 4 float\n"
                                                "0 0 0 1 0 0 0 1 0 0 0 1\nCELLS 2 4\n"
                                                "OFFSETS vtktypeint64\n0 4\nCELL_TYPES 1\n10\n");
  assert_int_equal(read_mesh(v51, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "CONNECTIVITY expected"));
  const std::string vti = write_file(
      "huge.vti", "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"0.1\">\n"
                  "<ImageData WholeExtent=\"0 100000 0 100000 0 100000\" Origin=\"0 0 0\" "
                  "Spacing=\"1 1 1\">\n</ImageData>\n</VTKFile>\n");
  assert_int_equal(read_mesh(vti, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "WholeExtent"));
  const std::string mha = write_file("huge.mha", "ObjectType = Image\nNDims = 3\n"
                                                 "DimSize = 1000 1000 1000\nElementType = "
                                                 "MET_FLOAT\nElementDataFile = LOCAL\n0000");
  assert_int_equal(read_mesh(mha, ro, &m, &err), -EINVAL);
  assert_true(contains(err, "4000000000 bytes"));
  assert_int_equal(check_file(mha, FileFormat::MetaImage, &err), -EINVAL);
  assert_true(printable("a\nb\tc", 400) == "a?b?c");
  assert_true(printable(std::string(500, 'x'), 10) == std::string(10, 'x') + "...");
}

/* Legacy files as VTK 9.1's vtkUnstructuredGridWriter writes them when
 * arrays carry component names or information keys: a METADATA block
 * (COMPONENT_NAMES, INFORMATION) after the array's values, the scalars',
 * the points' and every array of a FIELD block (several arrays, so that one
 * follows a block), ASCII and binary. They are read, as VTK reads them. */
void test_legacy_metadata(void **) {
  const Mesh g = make_mesh(2, 2, 1, Field::Waves, Split::Five, Order::Lex);
  vtkSmartPointer<vtkUnstructuredGrid> ug = to_vtk(g);
  const vtkIdType np = ug->GetNumberOfPoints();
  vtkDataArray *s = ug->GetPointData()->GetScalars();
  s->SetComponentName(0, "level");
  s->GetInformation()->Set(vtkDataArray::UNITS_LABEL(), "kelvin units");
  ug->GetPoints()->GetData()->SetComponentName(0, "east");
  for (const char *name : {"velocity", "vorticity"}) {
    vtkNew<vtkFloatArray> v;
    v->SetName(name);
    v->SetNumberOfComponents(3);
    v->SetNumberOfTuples(np);
    v->Fill(1.5);
    for (int c = 0; c < 3; c++) v->SetComponentName(c, std::string(1, "xyz"[c]).c_str());
    ug->GetPointData()->AddArray(v);
  }
  vtkNew<vtkDoubleArray> time;
  time->SetName("TimeValue");
  time->InsertNextValue(2.5);
  time->GetInformation()->Set(vtkDataArray::UNITS_LABEL(), "s");
  ug->GetFieldData()->AddArray(time);
  vtkNew<vtkIntArray> cycle;
  cycle->SetName("Cycle");
  cycle->InsertNextValue(3);
  ug->GetFieldData()->AddArray(cycle);
  for (bool binary : {false, true}) {
    const std::string path = tmpdir() + (binary ? "/meta_bin.vtk" : "/meta_ascii.vtk");
    vtkNew<vtkUnstructuredGridWriter> w;
    w->SetInputData(ug);
    w->SetFileName(path.c_str());
    if (binary)
      w->SetFileTypeToBinary();
    else
      w->SetFileTypeToASCII();
    assert_int_equal(w->Write(), 1);
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    assert_true(contains(text, "METADATA\nCOMPONENT_NAMES\nx\ny\nz\n\nvorticity"));
    assert_true(contains(text, "INFORMATION 1\nNAME UNITS_LABEL LOCATION vtkDataArray\n"));
    Mesh back;
    ReadOptions ro;
    std::string err;
    const int rc = read_mesh(path, ro, &back, &err);
    if (rc) std::fprintf(stderr, "%s: %s\n", path.c_str(), err.c_str());
    assert_int_equal(rc, 0);
    assert_int_equal(back.tets.size(), g.tets.size());
    for (size_t p = 0; p < g.scalars.size(); p++)
      assert_true(std::fabs(back.scalars[p] - g.scalars[p]) <= 1e-9);
  }
}

/* A NaN scalar is named as the file numbers its points, not as the mesh
 * does after its own numbering: an image's point by its index and ijk
 * whatever --order, a .pvtu's by its piece, its index there and its global
 * id. */
void test_nan_named_as_in_file(void **) {
  std::string img = "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"0.1\">\n"
                    "<ImageData WholeExtent=\"2 5 0 3 0 3\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n"
                    "<Piece Extent=\"2 5 0 3 0 3\">\n<PointData Scalars=\"f\">\n"
                    "<DataArray type=\"Float64\" Name=\"f\" format=\"ascii\">\n";
  for (int p = 0; p < 64; p++) img += p == 37 ? "nan " : std::to_string(p % 5) + " ";
  img += "\n</DataArray>\n</PointData>\n</Piece>\n</ImageData>\n</VTKFile>\n";
  const std::string vti = write_file("nan.vti", img);
  for (Order o : {Order::Lex, Order::Hilbert}) {
    ReadOptions ro;
    ro.order = o;
    Mesh m;
    std::string err;
    assert_int_equal(read_mesh(vti, ro, &m, &err), -EDOM);
    assert_true(contains(err, "image point 37 (i 3, j 1, k 2) has a NaN scalar in array 'f'"));
  }
  Mesh g = make_mesh(3, 3, 3, Field::Waves, Split::Five, Order::Hilbert);
  const size_t bad = g.pts.size() - 1; /* first used by the last cells: the second piece's */
  g.scalars[bad] = NAN;
  std::string err;
  const std::string pvtu = tmpdir() + "/nan.pvtu";
  assert_int_equal(write_pieces(g, pvtu, 2, &err), 0);
  Mesh m;
  assert_int_equal(read_mesh(pvtu, ReadOptions(), &m, &err), -EDOM);
  assert_true(contains(err, "piece '" + tmpdir() + "/nan_1.vtu': point ") &&
              contains(err, " (global id " + std::to_string(bad) + ") has a NaN scalar"));
}

/* A NIfTI-1 header's placement (the fields the test sets). */
namespace {
struct NiftiPlace {
  float pixdim[3] = {1.5f, 2.0f, 3.0f};
  float qfac = 1;
  short qform_code = 0, sform_code = 0;
  float quatern[3] = {0, 0, 0}, qoffset[3] = {0, 0, 0};
  float srow[3][4] = {};
};
} // namespace

/* A .nii of 4x5x6 float32 points, point (i, j, k) of the file holding
 * i + 10 j + 100 k, placed by h. */
static std::string write_nifti(const std::string &name, const NiftiPlace &h) {
  std::string b(352, '\0');
  auto put = [&b](size_t at, const void *v, size_t n) { std::memcpy(&b[at], v, n); };
  const int32_t hsize = 348;
  const int16_t dim[8] = {3, 4, 5, 6, 1, 1, 1, 1}, type = 16, bitpix = 32;
  const float pixdim[8] = {h.qfac, h.pixdim[0], h.pixdim[1], h.pixdim[2], 1, 1, 1, 1};
  const float vox_offset = 352;
  put(0, &hsize, 4);
  put(40, dim, sizeof dim);
  put(70, &type, 2);
  put(72, &bitpix, 2);
  put(76, pixdim, sizeof pixdim);
  put(108, &vox_offset, 4);
  put(252, &h.qform_code, 2);
  put(254, &h.sform_code, 2);
  put(256, h.quatern, 12);
  put(268, h.qoffset, 12);
  put(280, h.srow, sizeof h.srow);
  put(344, "n+1", 4);
  for (int k = 0; k < 6; k++)
    for (int j = 0; j < 5; j++)
      for (int i = 0; i < 4; i++) {
        const float v = (float)(i + 10 * j + 100 * k);
        b.append(reinterpret_cast<const char *>(&v), 4);
      }
  return write_file(name, b);
}

/* World coordinates of file point (i, j, k) by the NIfTI-1 rules: sform
 * when sform_code > 0, else qform (quaternion, qfac) when qform_code > 0,
 * else pixdim scaling. */
static void nifti_world(const NiftiPlace &h, int i, int j, int k, double w[3]) {
  const double ijk[3] = {(double)i, (double)j, (double)k};
  if (h.sform_code > 0) {
    for (int r = 0; r < 3; r++)
      w[r] = h.srow[r][0] * ijk[0] + h.srow[r][1] * ijk[1] + h.srow[r][2] * ijk[2] + h.srow[r][3];
    return;
  }
  const double p[3] = {ijk[0] * h.pixdim[0], ijk[1] * h.pixdim[1], ijk[2] * h.pixdim[2] * h.qfac};
  if (h.qform_code <= 0) {
    for (int r = 0; r < 3; r++) w[r] = p[r];
    return;
  }
  const double b = h.quatern[0], c = h.quatern[1], d = h.quatern[2];
  const double a = std::sqrt(std::max(0.0, 1 - b * b - c * c - d * d));
  const double R[3][3] = {
      {a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)},
      {2 * (b * c + a * d), a * a + c * c - b * b - d * d, 2 * (c * d - a * b)},
      {2 * (b * d - a * c), 2 * (c * d + a * b), a * a + d * d - c * c - b * b}};
  for (int r = 0; r < 3; r++)
    w[r] = R[r][0] * p[0] + R[r][1] * p[1] + R[r][2] * p[2] + h.qoffset[r];
}

/* A NIfTI volume is placed as its header says: every mesh point, known by
 * its scalar (i + 10 j + 100 k), at the world position of its file point,
 * for an sform (used over the qform beside it), a qform with qfac -1 (VTK
 * reverses the slices), and neither (pixdim). The surface follows. */
void test_nifti_placement(void **) {
  NiftiPlace sform, qform, plain;
  sform.sform_code = 2;
  sform.qform_code = 1;
  sform.quatern[2] = 0.70710678f;
  sform.qoffset[0] = sform.qoffset[1] = sform.qoffset[2] = 100;
  const float rows[3][4] = {{0, -2, 0, 5}, {1.5f, 0, 0, -3}, {0, 0, 3, 7}};
  std::memcpy(sform.srow, rows, sizeof rows);
  qform.qform_code = 1;
  qform.qfac = -1;
  qform.quatern[2] = 0.70710678f;
  qform.qoffset[0] = 10;
  qform.qoffset[1] = 20;
  qform.qoffset[2] = 30;
  const NiftiPlace *cases[] = {&sform, &qform, &plain};
  for (const NiftiPlace *h : cases) {
    const std::string nii = write_nifti("place" + std::to_string(h - &sform) + ".nii", *h);
    for (Order o : {Order::Lex, Order::Hilbert}) {
      ReadOptions ro;
      ro.order = o;
      Mesh m;
      std::string err;
      assert_int_equal(read_mesh(nii, ro, &m, &err), 0);
      assert_int_equal(m.pts.size(), 4 * 5 * 6);
      for (size_t p = 0; p < m.pts.size(); p++) {
        const int v = (int)m.scalars[p];
        double w[3];
        nifti_world(*h, v % 10, v / 10 % 10, v / 100, w);
        const double got[3] = {m.pts[p].x, m.pts[p].y, m.pts[p].z};
        for (int a = 0; a < 3; a++) {
          if (std::fabs(got[a] - w[a]) > 1e-5)
            std::fprintf(stderr, "%s: point of value %d axis %d at %g, expected %g\n", nii.c_str(),
                         v, a, got[a], w[a]);
          assert_true(std::fabs(got[a] - w[a]) <= 1e-5);
        }
      }
      assert_true(run(m, 255.5, Mode::Seq).ntris() > 0);
    }
  }
}

#ifdef ISO_FUZZ_DIR
/* The files of dir (sorted). */
static std::vector<std::string> list_dir(const std::string &dir) {
  std::vector<std::string> out;
  DIR *d = opendir(dir.c_str());
  assert_non_null(d);
  while (const dirent *e = readdir(d))
    if (e->d_name[0] != '.') out.push_back(dir + "/" + e->d_name);
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

/* What the fuzzer of format fmt checks (apps/isosurface/fuzz/fuzz_formats.h)
 * on the input file f: every reader of the format returns 0 and a valid
 * result, or an error with a one-line message, and prints nothing. Returns
 * the main reader's code (the last one). */
static int read_like_the_fuzzer(const std::string &fmt, const std::string &f) {
  std::ifstream in(f, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string ext = "." + fmt, dir = tmpdir() + "/fuzz_replay";
  mkdir(dir.c_str(), 0700);
  std::string path;
  assert_true(iso::fuzz::write_input(dir, ext, reinterpret_cast<const uint8_t *>(bytes.data()),
                                     bytes.size(), &path));
  int rc = 0;
  const std::string why = iso::fuzz::check_read(path, ext, &rc);
  if (!why.empty()) std::fprintf(stderr, "%s: %s\n", f.c_str(), why.c_str());
  assert_true(why.empty());
  iso::fuzz::remove_input(dir, ext);
  return rc;
}

/* The crashes and bad messages the fuzzers found (fuzz/regress/<format>/)
 * are clear errors, and the seeds (fuzz/seeds/<format>/) are read (but
 * mixed_*, which holds a triangle: refused). */
void test_fuzz_regressions(void **) {
  size_t n = 0;
  for (const char *fmt :
       {"vtu", "vtk", "vti", "vts", "vtr", "mha", "nii", "pvtu", "pvti", "vtm", "pvtp", "vtp"}) {
    const std::string regress = std::string(ISO_FUZZ_DIR) + "/regress/" + fmt;
    if (access(regress.c_str(), F_OK) == 0)
      for (const std::string &f : list_dir(regress)) {
        assert_true(read_like_the_fuzzer(fmt, f) < 0);
        n++;
      }
    for (const std::string &f : list_dir(std::string(ISO_FUZZ_DIR) + "/seeds/" + fmt)) {
      const int rc = read_like_the_fuzzer(fmt, f);
      if (f.find("/mixed_") != std::string::npos)
        assert_int_equal(rc, -EPROTO);
      else
        assert_int_equal(rc, 0);
    }
  }
  assert_true(n >= 5);
}
#endif

/* Round trips: mesh .vtu and image volumes (legacy structured points)
 * through VTK's readers; surface .vtp through the writer and reader. */
void test_round_trips(void **) {
  std::string err;
  Mesh g = make_mesh(5, 4, 3, Field::Waves, Split::Six, Order::Hilbert);
  const std::string vtu = tmpdir() + "/g.vtu";
  assert_int_equal(write_vtu(g, vtu, &err), 0);
  Mesh back;
  ReadOptions ro;
  assert_int_equal(read_mesh(vtu, ro, &back, &err), 0);
  assert_int_equal(back.tets.size(), g.tets.size());
  assert_int_equal(std::memcmp(back.tets.data(), g.tets.data(), g.tets.size() * sizeof(Tet)), 0);
  assert_int_equal(std::memcmp(back.pts.data(), g.pts.data(), g.pts.size() * sizeof(Point)), 0);
  Surface s = run(back, 0.0, Mode::Seq);
  const std::string vtp = tmpdir() + "/s.vtp";
  assert_int_equal(write_vtp(s, vtp, &err), 0);
  Surface s2;
  assert_int_equal(read_vtp(vtp, &s2, &err), 0);
  assert_true(s2 == s);
  /* An image volume: 3x3x3 points, tetrahedralized by the app. */
  std::string img =
      "# vtk DataFile Version 3.0\nimg\nASCII\nDATASET STRUCTURED_POINTS\nDIMENSIONS 3 3 3\n"
      "ORIGIN 0 0 0\nSPACING 1 1 1\nPOINT_DATA 27\nSCALARS density float 1\nLOOKUP_TABLE default\n";
  for (int i = 0; i < 27; i++) img += i == 13 ? "10 " : "0 ";
  Mesh im;
  assert_int_equal(read_mesh(write_file("img.vtk", img), ro, &im, &err), 0);
  assert_int_equal(im.tets.size(), 8 * 5);
  assert_true(im.array_name == "density");
  Surface blob = run(im, 5.0, Mode::Seq);
  assert_true(blob.ntris() > 0);
  check_against_vtk(im, 5.0, blob);
}

} // namespace iso_suite
