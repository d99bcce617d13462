/* apps/isosurface: helpers shared by the app's cmocka tests (include after
 * <cmocka.h>). */
#ifndef APPS_ISOSURFACE_TEST_UTIL_H
#define APPS_ISOSURFACE_TEST_UTIL_H

#include "iso_config.h"
#include "start_workers.h"
#include "mt.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

/* The variant's name (ADAPT_TEST_VARIANT, set by make test-run), "" when
 * run by hand. */
inline std::string test_variant() {
  const char *v = std::getenv("ADAPT_TEST_VARIANT");
  return v ? v : "";
}

/* Under ThreadSanitizer the loops over worker counts leave out one worker:
 * nothing runs concurrently there (release and asan check its results). */
inline bool tsan_skips(int workers) { return workers == 1 && test_variant() == "tsan"; }

/* A test whose code runs on one thread only returns at once under
 * ThreadSanitizer, which has nothing to check there: the release and
 * asan+ubsan variants run it. */
inline bool tsan_single_threaded() { return test_variant() == "tsan"; }

/* The surface of m at isovalue extracted in mode (extract() must succeed). */
inline iso::Surface run(const iso::Mesh &m, double isovalue, iso::Mode mode,
                        const iso::AdaptOptions &opt = iso::AdaptOptions()) {
  iso::Surface s;
  std::string err;
  const int rc = iso::extract(m, isovalue, mode, opt, &s, nullptr, &err);
  if (rc) std::fprintf(stderr, "extract(%s): %s\n", iso::mode_name(mode), err.c_str());
  assert_int_equal(rc, 0);
  return s;
}

/* s equals vtkContourGrid's surface of m at isovalue (triangles, referenced vertices,
 * area within ISO_AREA_RTOL). */
inline void check_against_vtk(const iso::Mesh &m, double isovalue, const iso::Surface &s) {
  iso::VtkGrid vg(m);
  iso::PeerResult pr;
  std::string err;
  assert_int_equal(vg.run(iso::Peer::ContourGrid, {isovalue}, 1, &pr, &err), 0);
  if (pr.ntris != s.ntris() || pr.npoints_used != s.nverts())
    std::fprintf(stderr, "iso %g: ours %zu tris %zu verts, VTK %zu tris %zu verts\n", isovalue,
                 s.ntris(), s.nverts(), pr.ntris, pr.npoints_used);
  assert_int_equal(pr.ntris, s.ntris());
  assert_int_equal(pr.npoints_used, s.nverts());
  const double a = s.area();
  if (pr.area == 0)
    assert_true(a == 0);
  else
    assert_true(std::fabs(a - pr.area) <= ISO_AREA_RTOL * pr.area);
}

/* The directory of a test's files, /tmp/PREFIX.XXXXXX, made at the first
 * call (one per test binary). */
inline const std::string &scratch_dir(const char *prefix) {
  static std::string d;
  if (d.empty()) {
    std::string tmpl = std::string("/tmp/") + prefix + ".XXXXXX";
    const char *p = mkdtemp(&tmpl[0]);
    assert_non_null(p);
    d = p;
  }
  return d;
}

/* name -> the column `col` of a CSV with a header (the app's --csv). */
inline std::map<std::string, double> csv_column(const std::string &path, const std::string &col) {
  std::ifstream in(path);
  std::string line;
  assert_true((bool)std::getline(in, line));
  std::vector<std::string> head;
  std::stringstream hs(line);
  for (std::string f; std::getline(hs, f, ',');) head.push_back(f);
  const size_t k = (size_t)(std::find(head.begin(), head.end(), col) - head.begin());
  assert_true(k < head.size());
  std::map<std::string, double> out;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    if (f.size() > k && !f[k].empty()) out[f[0]] = std::atof(f[k].c_str());
  }
  return out;
}

/* Run the tests, then stop the runtime they started; main's exit status. */
template <size_t N>
int run_tests_and_finalize(const CMUnitTest (&tests)[N]) {
  const int rc = cmocka_run_group_tests(tests, nullptr, nullptr);
  adapt_finalize();
  return rc;
}

/* What the files of test_isosurface share (test_isosurface.cpp,
 * test_iso_memory.cpp, test_iso_files.cpp, test_cli.cpp). */
namespace iso_suite {

/* The grid of nx x ny x nz cubes split into tetrahedra (split sp, cells in
 * order o), field f or the given point scalars; a valid mesh. */
inline iso::Mesh make_mesh(int nx, int ny, int nz, iso::Field f, iso::Split sp, iso::Order o,
                           const double *scalars = nullptr) {
  iso::Grid g;
  g.np[0] = nx + 1;
  g.np[1] = ny + 1;
  g.np[2] = nz + 1;
  g.field = f;
  g.scalars = scalars;
  iso::Mesh m;
  std::string err;
  int rc = iso::tetrahedralize_grid(g, sp, o, 7, &m, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(iso::validate(m, &err), 0);
  return m;
}

/* The program's scratch directory (removed by main at the end). */
inline std::string tmpdir() { return scratch_dir("test_isosurface"); }

/* text written to tmpdir()/name; its path. */
inline std::string write_file(const std::string &name, const std::string &text) {
  std::string path = tmpdir() + "/" + name;
  std::ofstream f(path);
  f << text;
  return path;
}

/* A legacy unstructured grid's header and 8 points, and its point scalars
 * (the cells go between them). */
inline constexpr char legacy_head[] =
    "# vtk DataFile Version 3.0\ntest\nASCII\nDATASET UNSTRUCTURED_GRID\n"
    "POINTS 8 double\n0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 1\n";
inline constexpr char legacy_scalars[] =
    "POINT_DATA 8\nSCALARS f double 1\nLOOKUP_TABLE default\n0 1 2 3 4 5 6 7\n";

/* Does s contain what? Says on stderr when it does not. */
inline bool contains(const std::string &s, const std::string &what) {
  if (s.find(what) != std::string::npos) return true;
  std::fprintf(stderr, "message '%s' lacks '%s'\n", s.c_str(), what.c_str());
  return false;
}

/* The tests in the files other than test_isosurface.cpp (main()). */
/* test_iso_memory.cpp: extract() into a surface that has buffers. */
void test_extract_reuses_output(void **state);
/* test_iso_memory.cpp: the arena's slabs, alignment and in-place resizes. */
void test_arena_slabs(void **state);
/* test_iso_memory.cpp: the cache of mappings. */
void test_map_cache(void **state);
/* test_iso_memory.cpp: an arena taking its memory from a cache. */
void test_arena_cache(void **state);
/* test_iso_memory.cpp: extract()'s transient memory kept in the surface. */
void test_extract_keeps_memory(void **state);
/* test_iso_memory.cpp: workers allocating from their own slabs. */
void test_arena_workers(void **state);
/* test_iso_files.cpp: invalid meshes and their messages. */
void test_invalid_meshes(void **state);
/* test_iso_files.cpp: an image's extent not starting at 0. */
void test_image_extent(void **state);
/* test_iso_files.cpp: the checks of file_checks.h. */
void test_file_checks(void **state);
/* test_iso_files.cpp: legacy files' metadata. */
void test_legacy_metadata(void **state);
/* test_iso_files.cpp: NaN scalars named as the file numbers its points. */
void test_nan_named_as_in_file(void **state);
/* test_iso_files.cpp: a NIfTI volume placed as its header says. */
void test_nifti_placement(void **state);
#ifdef ISO_FUZZ_DIR
/* test_iso_files.cpp: the fuzzers' regressions and seeds. */
void test_fuzz_regressions(void **state);
#endif
/* test_iso_files.cpp: meshes, images and surfaces through VTK's files. */
void test_round_trips(void **state);

} // namespace iso_suite

/* test_file_checks_cells.cpp: the cell offsets of XML files in every
 * encoding, checked before VTK reads them. */
void test_cell_offsets(void **state);

#ifdef ISO_TEST_BIN
/* Run the binary under test (this variant's adapt-isosurface) with args,
 * after the command prefix (e.g. "env -u DISPLAY"): its output (stdout and
 * stderr) into *out, its exit status returned. */
inline int run_cli(const std::string &args, std::string *out, const std::string &prefix = "") {
  const std::string cmd = prefix + " " + ISO_TEST_BIN + " " + args + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  assert_non_null(p);
  char buf[4096];
  size_t n;
  out->clear();
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  const int st = pclose(p);
  assert_true(WIFEXITED(st));
  return WEXITSTATUS(st);
}

namespace iso_suite {
/* test_cli.cpp: exit codes and messages of bad input, a verified run. */
void test_cli(void **state);
/* test_cli.cpp: refused option values. */
void test_cli_refusals(void **state);
/* test_cli.cpp: --render of files. */
void test_cli_render(void **state);
/* test_cli.cpp: option values, limits, output paths. */
void test_cli_options(void **state);
} // namespace iso_suite
/* test_cli_values.cpp: several isovalues, the arrays, cell scalars. */
void test_cli_values(void **state);
/* test_cli_readers.cpp: the structured, parallel image and multiblock inputs. */
void test_cli_readers(void **state);
/* test_cli_readers.cpp: --output FILE.vtm, a surface per block. */
void test_cli_blocks(void **state);
/* test_cli_readers.cpp: blanked cells of structured and unstructured grids. */
void test_cli_blanking(void **state);
#endif

#endif /* APPS_ISOSURFACE_TEST_UTIL_H */
