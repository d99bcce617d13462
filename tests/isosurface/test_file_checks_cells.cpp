/* The checks of an XML file's cell sections (apps/isosurface/io/
 * file_checks_cells.cpp) on files made here, in every encoding VTK 9.1
 * reads: test_cell_offsets, a test of test_isosurface. */
#include "file_checks.h"
#include "mt.h"
#include "vtk_bridge.h"

#include <vtkCellArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

using namespace iso;

namespace {

/* How the cell arrays are written: inline ascii, inline base64, appended
 * raw, appended base64; zlib-compressed (in blocks of 16 bytes) or not;
 * header words of 4 or 8 bytes. */
enum class Enc { Ascii, Binary, Raw, Base64 };
struct Layout {
  Enc enc;
  bool zlib, u64;
};

std::string base64(const std::string &in) {
  static const char *abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    const size_t n = std::min<size_t>(3, in.size() - i);
    uint32_t w = 0;
    for (size_t k = 0; k < 3; k++) w = w << 8 | (k < n ? (unsigned char)in[i + k] : 0);
    for (size_t k = 0; k < 4; k++) out += k <= n ? abc[(w >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

/* v as `bytes` little-endian bytes. */
std::string le(uint64_t v, size_t bytes) {
  std::string out;
  for (size_t k = 0; k < bytes; k++) out += (char)(v >> (8 * k) & 0xff);
  return out;
}

/* The data of an array of Int64 values as VTK writes it: its header and its
 * bytes (as one base64 string, or header and blocks as two when
 * compressed). */
std::string binary(const std::vector<int64_t> &vals, const Layout &l) {
  std::string data;
  for (int64_t v : vals) data += le((uint64_t)v, 8);
  const size_t word = l.u64 ? 8 : 4, block = 16;
  if (!l.zlib) {
    const std::string all = le(data.size(), word) + data;
    return l.enc == Enc::Raw ? all : base64(all);
  }
  std::string head, body;
  std::vector<uint64_t> sizes;
  for (size_t i = 0; i < data.size(); i += block) {
    const std::string in = data.substr(i, block);
    uLongf n = compressBound(in.size());
    std::string out(n, '\0');
    assert_int_equal(compress((Bytef *)&out[0], &n, (const Bytef *)in.data(), in.size()), Z_OK);
    body += out.substr(0, n);
    sizes.push_back(n);
  }
  head = le(sizes.size(), word) + le(block, word) + le(data.size() % block, word);
  for (uint64_t s : sizes) head += le(s, word);
  return l.enc == Enc::Raw ? head + body : base64(head) + base64(body);
}

/* A .vtu of 8 points and tetrahedra, or a .vtp of triangles, whose cell
 * section (<Cells>, <Polys>) holds these connectivity and offsets
 * (encoded as l says) and declares `cells` cells. */
std::string cells_file(const std::string &name, const Layout &l, bool vtp, int64_t cells,
                       const std::vector<int64_t> &conn, const std::vector<int64_t> &offsets) {
  std::string appended, s = "<?xml version=\"1.0\"?>\n<VTKFile type=\"";
  s += std::string(vtp ? "PolyData" : "UnstructuredGrid") +
       "\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"" +
       (l.u64 ? "UInt64" : "UInt32") + "\"" +
       (l.zlib ? " compressor=\"vtkZLibDataCompressor\"" : "") + ">\n";
  auto array = [&](const char *arr_name, const std::vector<int64_t> &v) {
    std::string a = std::string("<DataArray type=\"Int64\" Name=\"") + arr_name + "\" format=\"";
    if (l.enc == Enc::Raw || l.enc == Enc::Base64) {
      a += "appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
      appended += binary(v, l);
      return a;
    }
    std::string text;
    for (int64_t x : v) text += std::to_string(x) + " ";
    return a + (l.enc == Enc::Ascii ? "ascii\">" + text : "binary\">" + binary(v, l)) +
           "</DataArray>\n";
  };
  const std::string n = std::to_string(cells);
  s += vtp ? "<PolyData>\n<Piece NumberOfPoints=\"8\" NumberOfPolys=\"" + n + "\">\n"
           : "<UnstructuredGrid>\n<Piece NumberOfPoints=\"8\" NumberOfCells=\"" + n + "\">\n";
  s += "<PointData Scalars=\"f\"><DataArray type=\"Float64\" Name=\"f\" format=\"ascii\">"
       "0 1 2 3 4 5 6 7</DataArray></PointData>\n<Points><DataArray type=\"Float32\" "
       "NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 "
       "1</DataArray></Points>\n";
  s += vtp ? "<Polys>\n" : "<Cells>\n";
  s += array("connectivity", conn) + array("offsets", offsets);
  if (!vtp) s += "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">10 10 10</DataArray>\n";
  s += vtp ? "</Polys>\n</Piece>\n</PolyData>\n" : "</Cells>\n</Piece>\n</UnstructuredGrid>\n";
  if (!appended.empty())
    s += std::string("<AppendedData encoding=\"") + (l.enc == Enc::Raw ? "raw" : "base64") +
         "\">\n_" + appended + "\n</AppendedData>\n";
  s += "</VTKFile>\n";
  const std::string path = scratch_dir("test_isosurface") + "/" + name;
  std::ofstream(path, std::ios::binary) << s;
  return path;
}

/* The file at path with every `from` replaced by `to`, as path + ".vtu". */
std::string replaced(const std::string &path, const std::string &from, const std::string &to) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t p = 0; (p = text.find(from, p)) != std::string::npos; p += to.size())
    text.replace(p, from.size(), to);
  std::ofstream(path + ".vtu", std::ios::binary) << text;
  return path + ".vtu";
}

/* check_file's error on path, and its message contains what. */
void refused(const std::string &path, const std::string &what) {
  std::string err;
  const int rc = check_file(path, file_format(path), &err);
  if (rc != -EINVAL || err.find(what) == std::string::npos)
    std::fprintf(stderr, "%s: %d '%s', expected '%s'\n", path.c_str(), rc, err.c_str(),
                 what.c_str());
  assert_int_equal(rc, -EINVAL);
  assert_true(err.find(what) != std::string::npos);
}

/* A tetrahedron (points 0-3 of a unit cube's corner) and a polyhedron of
 * the same shape, written by VTK 9.1's writer in every mode. */
void vtk_written_files_pass() {
  vtkNew<vtkUnstructuredGrid> g;
  vtkNew<vtkPoints> p;
  for (int i = 0; i < 4; i++) p->InsertNextPoint(i == 1, i == 2, i == 3);
  g->SetPoints(p);
  const vtkIdType tet[4] = {0, 1, 2, 3};
  for (int c = 0; c < 5; c++) g->InsertNextCell(VTK_TETRA, 4, tet);
  const vtkIdType faces[] = {3, 0, 1, 2, 3, 0, 1, 3, 3, 0, 2, 3, 3, 1, 2, 3};
  g->InsertNextCell(VTK_POLYHEDRON, 4, tet, 4, faces);
  for (int mode = 0; mode < 4; mode++)
    for (int zlib = 0; zlib < 2; zlib++)
      for (int u64 = 0; u64 < 2; u64++) {
        const std::string path = scratch_dir("test_isosurface") + "/vtk_cells_" +
                                 std::to_string(mode * 4 + zlib * 2 + u64) + ".vtu";
        vtkNew<vtkXMLUnstructuredGridWriter> w;
        w->SetInputData(g);
        w->SetFileName(path.c_str());
        w->SetDataMode(mode == 0   ? vtkXMLWriter::Ascii
                       : mode == 1 ? vtkXMLWriter::Binary
                                   : vtkXMLWriter::Appended);
        w->SetEncodeAppendedData(mode == 3);
        w->SetBlockSize(24); /* several blocks per array */
        if (zlib)
          w->SetCompressorTypeToZLib();
        else
          w->SetCompressorTypeToNone();
        w->SetHeaderType(u64 ? vtkXMLWriter::UInt64 : vtkXMLWriter::UInt32);
        assert_int_equal(w->Write(), 1);
        std::string err;
        const int rc = check_file(path, FileFormat::Vtu, &err);
        if (rc) std::fprintf(stderr, "%s: %s\n", path.c_str(), err.c_str());
        assert_int_equal(rc, 0);
      }
}

/* A .vtu of one polyhedron (a tetrahedron) with these faces and face
 * offset, ascii. */
std::string polyhedron_file(const std::string &name, const std::string &faces,
                            const std::string &faceoffsets) {
  const std::string path = scratch_dir("test_isosurface") + "/" + name;
  std::ofstream(path) << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" "
                         "version=\"0.1\" byte_order=\"LittleEndian\">\n<UnstructuredGrid>\n"
                         "<Piece NumberOfPoints=\"4\" NumberOfCells=\"1\">\n<Points><DataArray "
                         "type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0 "
                         "0 1 0 0 0 1</DataArray></Points>\n<Cells>\n"
                         "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">"
                         "0 1 2 3</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
                         "format=\"ascii\">4</DataArray>\n<DataArray type=\"UInt8\" "
                         "Name=\"types\" format=\"ascii\">42</DataArray>\n"
                         "<DataArray type=\"Int64\" Name=\"faces\" format=\"ascii\">"
                      << faces
                      << "</DataArray>\n<DataArray type=\"Int64\" Name=\"faceoffsets\" "
                         "format=\"ascii\">"
                      << faceoffsets
                      << "</DataArray>\n</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
  return path;
}

/* A polyhedron's faceoffsets past its faces (VTK 9.1 allocated them), or
 * face counts that lead VTK's walk of the faces past them (it read there:
 * a segfault). */
void polyhedra_refused() {
  const std::string faces = "4 3 0 1 2 3 0 1 3 3 0 2 3 3 1 2 3";
  std::string err;
  assert_int_equal(check_file(polyhedron_file("poly.vtu", faces, "17"), FileFormat::Vtu, &err), 0);
  refused(polyhedron_file("poly_past.vtu", faces, "1099511627776"),
          "Cells: faceoffsets: value 0 (1099511627776) is past the 17 values of its faces array");
  refused(polyhedron_file("poly_walk.vtu", "5 3 0 1 2 3 0 1 3 3 0 2 3 100000000 1 2 3", "17"),
          "Cells: faces: count 100000000 at value 13 is not a count");
  refused(polyhedron_file("poly_short.vtu", "4 3 0 1 2 3 0 1 3 3 0 2 3 4 1 2 3", "17"),
          "face lists of its 1 polyhedra run past value 17");
}

} // namespace

void test_cell_offsets(void **) {
  const std::vector<int64_t> tets = {0, 1, 2, 4, 1, 3, 2, 7}, tris = {0, 1, 2, 1, 3, 2};
  const std::string past = "is past the 8 values of its connectivity array";
  int k = 0;
  for (Enc enc : {Enc::Ascii, Enc::Binary, Enc::Raw, Enc::Base64})
    for (bool zlib : {false, true})
      for (bool u64 : {false, true}) {
        const Layout l{enc, zlib, u64};
        const std::string id = std::to_string(k++);
        Mesh m;
        Surface s;
        std::string err;
        ReadOptions ro;
        assert_int_equal(
            read_mesh(cells_file("ok" + id + ".vtu", l, false, 2, tets, {4, 8}), ro, &m, &err), 0);
        assert_int_equal(m.tets.size(), 2);
        assert_int_equal(
            read_vtp(cells_file("ok" + id + ".vtp", l, true, 2, tris, {3, 6}), &s, &err), 0);
        assert_int_equal(s.ntris(), 2);
        /* The fuzzers' finding: VTK 9.1 allocated 2^54 ids. */
        const std::string huge =
            cells_file("huge" + id + ".vtu", l, false, 2, tets, {4, 1LL << 54});
        refused(huge, "Cells: offsets: value 1 (18014398509481984) " + past);
        assert_int_equal(read_mesh(huge, ro, &m, &err), -EINVAL);
        refused(cells_file("huge" + id + ".vtp", l, true, 2, tris, {3, 1LL << 40}),
                "Polys: offsets: value 1 (1099511627776) is past the 6 values");
        refused(cells_file("dec" + id + ".vtu", l, false, 2, tets, {4, 3}),
                "value 1 (3) is less than the one before (4)");
        refused(cells_file("neg" + id + ".vtp", l, true, 2, tris, {-3, 6}),
                "Polys: offsets: value 0 (-3) is negative");
        refused(cells_file("short" + id + ".vtu", l, false, 3, tets, {4, 8}),
                "Cells: offsets holds 2 values, the piece declares 3 cells");
      }
  /* VTK 9.1 reads an array with an offset attribute as appended whatever
   * its format, one whose format is not "binary" as ascii, and ascii
   * values as its type. */
  const Layout raw{Enc::Raw, false, false}, ascii{Enc::Ascii, false, false};
  refused(replaced(cells_file("fmt_raw.vtu", raw, false, 2, tets, {4, 1LL << 54}),
                   "format=\"appended\"", "format=\"ascii\""),
          past);
  refused(replaced(cells_file("fmt_ascii.vtu", ascii, false, 2, tets, {4, 1LL << 54}),
                   "format=\"ascii\"", "format=\"x\""),
          past);
  refused(replaced(cells_file("u8.vtu", ascii, false, 2, tets, {4, 300}), "Int64\" Name=\"offsets",
                   "UInt8\" Name=\"offsets"),
          "'300' is not a value of its type");
  vtk_written_files_pass();
  polyhedra_refused();
}
