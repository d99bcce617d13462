/* cmocka tests of apps/isosurface: marching tetrahedra against VTK's
 * vtkContourGrid, adaptive modes against the sequential reference for 1, 2,
 * 3 and 8 workers, isovalues at vertex values, flat fields, empty results,
 * orientation, vertex numbering, and the rejection of invalid meshes. Small
 * meshes only (the suite runs under TSan and ASan too). */
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

using namespace iso;

namespace {

Mesh make_mesh(int nx, int ny, int nz, Field f, Split sp, Order o,
               const double *scalars = nullptr) {
  Grid g;
  g.np[0] = nx + 1;
  g.np[1] = ny + 1;
  g.np[2] = nz + 1;
  g.field = f;
  g.scalars = scalars;
  Mesh m;
  std::string err;
  int rc = tetrahedralize_grid(g, sp, o, 7, &m, &err);
  assert_int_equal(rc, 0);
  assert_int_equal(validate(m, &err), 0);
  return m;
}

Surface run(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt = AdaptOptions()) {
  Surface s;
  std::string err;
  int rc = extract(m, iso, mode, opt, &s, nullptr, &err);
  if (rc) std::fprintf(stderr, "extract(%s): %s\n", mode_name(mode), err.c_str());
  assert_int_equal(rc, 0);
  return s;
}

/* (Re)start the runtime with w unbound workers. */
void start_workers(int w) {
  adapt_finalize();
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = w;
  cfg.bind = -1;
  assert_int_equal(adapt_init(&cfg), 0);
}

/* Our sequential surface equals vtkContourGrid's (triangles, referenced
 * vertices, area within 1e-6). */
void check_against_vtk(const Mesh &m, double iso, const Surface &s) {
  VtkGrid vg(m);
  PeerResult pr;
  std::string err;
  assert_int_equal(vg.run(Peer::ContourGrid, iso, 1, &pr, &err), 0);
  if (pr.ntris != s.ntris() || pr.npoints_used != s.nverts())
    std::fprintf(stderr, "iso %g: ours %zu tris %zu verts, VTK %zu tris %zu verts\n", iso,
                 s.ntris(), s.nverts(), pr.ntris, pr.npoints_used);
  assert_int_equal(pr.ntris, s.ntris());
  assert_int_equal(pr.npoints_used, s.nverts());
  const double a = s.area();
  if (pr.area == 0)
    assert_true(a == 0);
  else
    assert_true(std::fabs(a - pr.area) <= 1e-6 * pr.area);
}

/* No triangle repeats a vertex, no two vertices coincide, and vertex ids
 * first appear in increasing order. */
void check_structure(const Surface &s) {
  int64_t next = 0;
  for (size_t f = 0; f < s.ntris(); f++) {
    const int64_t *t = &s.tri[3 * f];
    assert_true(t[0] != t[1] && t[0] != t[2] && t[1] != t[2]);
    for (int k = 0; k < 3; k++) {
      assert_true(t[k] >= 0 && t[k] <= next);
      if (t[k] == next) next++;
    }
  }
  assert_int_equal((size_t)next, s.nverts());
  std::set<std::vector<double>> seen;
  for (size_t v = 0; v < s.nverts(); v++)
    assert_true(seen.insert({s.xyz[3 * v], s.xyz[3 * v + 1], s.xyz[3 * v + 2]}).second);
}

void test_seq_equals_vtk(void **) {
  for (Split sp : {Split::Five, Split::Six})
    for (Order o : {Order::Lex, Order::Morton, Order::Hilbert, Order::Random}) {
      Mesh m = make_mesh(7, 6, 5, Field::Waves, sp, o);
      Surface s = run(m, 0.1, Mode::Seq);
      assert_true(s.ntris() > 50);
      check_structure(s);
      check_against_vtk(m, 0.1, s);
      Mesh sph = make_mesh(8, 8, 8, Field::Sphere, sp, o);
      Surface t = run(sph, 0.6, Mode::Seq);
      assert_true(t.ntris() > 50);
      check_against_vtk(sph, 0.6, t);
    }
}

/* The vtkSMPContourGrid diagnostic finds no difference with one thread (its
 * multi-threaded corruption is measured by --smp-check, not here: TBB's
 * threads are not instrumented under TSan). */
void test_smp_check_one_thread(void **) {
  Mesh m = make_mesh(9, 8, 7, Field::Waves, Split::Five, Order::Lex);
  Surface s = run(m, 0.0, Mode::Seq);
  VtkGrid vg(m);
  size_t nt = 0, bad = 99;
  std::string err;
  assert_int_equal(vg.smp_contour_check(0.0, 1, &nt, &bad, &err), 0);
  assert_int_equal(nt, s.ntris());
  assert_int_equal(bad, 0);
}

/* The cell orders are permutations of the same tetrahedra: same area and
 * triangle count whatever the order. */
void test_orders_same_surface(void **) {
  Mesh lex = make_mesh(9, 7, 6, Field::Waves, Split::Five, Order::Lex);
  Surface ref = run(lex, -0.2, Mode::Seq);
  for (Order o : {Order::Morton, Order::Hilbert, Order::Random}) {
    Mesh m = make_mesh(9, 7, 6, Field::Waves, Split::Five, o);
    assert_int_equal(m.tets.size(), lex.tets.size());
    assert_int_equal(m.pts.size(), lex.pts.size());
    Surface s = run(m, -0.2, Mode::Seq);
    assert_int_equal(s.ntris(), ref.ntris());
    assert_int_equal(s.nverts(), ref.nverts());
    assert_true(std::fabs(s.area() - ref.area()) <= 1e-9 * ref.area());
  }
}

/* Isovalue equal to many vertex values: integer scalars, iso integer. */
void test_iso_at_vertex_values(void **) {
  const int n = 6;
  std::vector<double> sc((size_t)(n + 1) * (n + 1) * (n + 1));
  for (int k = 0; k <= n; k++)
    for (int j = 0; j <= n; j++)
      for (int i = 0; i <= n; i++)
        sc[(size_t)(i + (n + 1) * (j + (n + 1) * k))] = (double)((i + 2 * j + 3 * k) % 4);
  for (Split sp : {Split::Five, Split::Six}) {
    Mesh m = make_mesh(n, n, n, Field::Flat, sp, Order::Lex, sc.data());
    for (double iso : {0.0, 1.0, 2.0, 3.0, 1.5}) {
      Surface s = run(m, iso, Mode::Seq);
      check_structure(s);
      check_against_vtk(m, iso, s);
      if (iso > 0 && iso < 3)
        assert_true(s.ntris() > 0); /* 0, 3: min, max: nothing or only collapsed triangles */
    }
  }
}

void test_flat_and_empty(void **) {
  Mesh flat = make_mesh(4, 4, 4, Field::Flat, Split::Five, Order::Lex);
  for (double iso : {0.5, 1.0, 2.0}) {
    Surface s = run(flat, iso, Mode::Seq);
    assert_int_equal(s.ntris(), 0);
    assert_int_equal(s.nverts(), 0);
    check_against_vtk(flat, iso, s);
  }
  Mesh sph = make_mesh(5, 5, 5, Field::Sphere, Split::Six, Order::Hilbert);
  Surface e = run(sph, 100.0, Mode::Seq);
  assert_int_equal(e.ntris(), 0);
  check_against_vtk(sph, 100.0, e);
  e = run(sph, -1.0, Mode::Seq);
  assert_int_equal(e.ntris(), 0);
}

/* Normals point along the gradient: outwards on the sphere field. */
void test_orientation(void **) {
  Mesh m = make_mesh(10, 10, 10, Field::Sphere, Split::Five, Order::Morton);
  Surface s = run(m, 0.7, Mode::Seq);
  assert_true(s.ntris() > 100);
  for (size_t f = 0; f < s.ntris(); f++) {
    const double *a = &s.xyz[3 * (size_t)s.tri[3 * f]], *b = &s.xyz[3 * (size_t)s.tri[3 * f + 1]],
                 *c = &s.xyz[3 * (size_t)s.tri[3 * f + 2]];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
           v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double nrm[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                     u[0] * v[1] - u[1] * v[0]};
    double out = 0;
    for (int k = 0; k < 3; k++) out += nrm[k] * ((a[k] + b[k] + c[k]) / 3 - 5.0);
    assert_true(out > 0);
  }
}

/* Every adaptive mode equals the sequential reference byte for byte, for 1,
 * 2, 3 and 8 workers, with windows and grains small enough that the mesh is
 * split many times. */
void test_adaptive_equals_seq(void **) {
  Mesh m = make_mesh(14, 12, 10, Field::Waves, Split::Five, Order::Hilbert);
  Surface ref = run(m, 0.05, Mode::Seq);
  assert_true(ref.ntris() > 4 * ISO_PAR_MERGE_MIN_TRIS); /* the parallel merge runs */
  Mesh rnd = make_mesh(14, 12, 10, Field::Waves, Split::Six, Order::Random);
  Surface ref_rnd = run(rnd, 0.05, Mode::Seq);
  assert_true(ref_rnd.ntris() > 4 * ISO_PAR_MERGE_MIN_TRIS);
  check_against_vtk(m, 0.05, ref);
  const double ref_area = ref.area();
  Mesh at_vertex = make_mesh(6, 6, 6, Field::Flat, Split::Six, Order::Random);
  for (size_t i = 0; i < at_vertex.pts.size(); i++) at_vertex.pts[i].s = (double)(i % 3);
  Surface ref2 = run(at_vertex, 1.0, Mode::Seq);
  for (int w : {1, 2, 3, 8}) {
    start_workers(w);
    assert_int_equal(adapt_num_workers(), w);
    for (Mode mode : {Mode::NoWin, Mode::Static, Mode::Sliding})
      for (size_t window : {(size_t)64, (size_t)1000, (size_t)0}) {
        AdaptOptions opt;
        opt.window_size = window;
        opt.grain = window == 64 ? 32 : 0;
        Surface s = run(m, 0.05, mode, opt);
        if (!(s == ref))
          std::fprintf(stderr, "workers %d mode %s window %zu: %zu/%zu tris differ\n", w,
                       mode_name(mode), window, s.ntris(), ref.ntris());
        assert_true(s == ref);
        assert_true(s.area() == ref_area);
        Surface s2 = run(at_vertex, 1.0, mode, opt);
        assert_true(s2 == ref2);
        Surface s3 = run(rnd, 0.05, mode, opt); /* chunks' id ranges overlap */
        assert_true(s3 == ref_rnd);
      }
  }
  adapt_finalize();
}

/* merge_chunked equals merge for any chunk count, including chunks whose
 * keys overlap (random order) and more chunks than triangles. */
void test_merge_chunked(void **) {
  for (Order o : {Order::Lex, Order::Random}) {
    Mesh m = make_mesh(9, 8, 7, Field::Waves, Split::Five, o);
    std::vector<TriRec> recs;
    TriRec buf[2];
    for (const Tet &t : m.tets) {
      const size_t k = mt_cell(m.pts.data(), t, 0.1, buf);
      recs.insert(recs.end(), buf, buf + k);
    }
    Surface ref;
    assert_int_equal(merge(m.pts.data(), 0.1, recs.data(), recs.size(), &ref), 0);
    for (int w : {1, 2, 3}) {
      start_workers(w);
      for (size_t chunks : {(size_t)1, (size_t)2, (size_t)3, (size_t)8, recs.size() + 5}) {
        Surface s;
        assert_int_equal(merge_chunked(m.pts.data(), 0.1, recs.data(), recs.size(), chunks, &s), 0);
        assert_true(s == ref);
      }
      Surface none;
      assert_int_equal(merge_chunked(m.pts.data(), 0.1, recs.data(), recs.size(), 0, &none),
                       -EINVAL);
    }
  }
  adapt_finalize();
}

/* ---- invalid input --------------------------------------------------- */

std::string tmpdir() {
  static std::string d;
  if (d.empty()) {
    char tmpl[] = "/tmp/test_isosurface.XXXXXX";
    const char *p = mkdtemp(tmpl);
    assert_non_null(p);
    d = p;
  }
  return d;
}

std::string write_file(const std::string &name, const std::string &text) {
  std::string path = tmpdir() + "/" + name;
  std::ofstream f(path);
  f << text;
  return path;
}

const char legacy_head[] = "# vtk DataFile Version 3.0\ntest\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                           "POINTS 8 double\n0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 1\n";
const char legacy_scalars[] =
    "POINT_DATA 8\nSCALARS f double 1\nLOOKUP_TABLE default\n0 1 2 3 4 5 6 7\n";

bool contains(const std::string &s, const std::string &what) {
  if (s.find(what) != std::string::npos) return true;
  std::fprintf(stderr, "message '%s' lacks '%s'\n", s.c_str(), what.c_str());
  return false;
}

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
  assert_true(m.pts[7].s == 7.0);
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
  ro.tetrahedralize = false;
  /* NaN scalars: caught by validate, also after a round trip through .vtu. */
  Mesh g = make_mesh(2, 2, 2, Field::Sphere, Split::Five, Order::Lex);
  g.pts[5].s = NAN;
  assert_int_equal(validate(g, &err), -EDOM);
  assert_true(contains(err, "point 5") && contains(err, "NaN"));
  const std::string nanfile = tmpdir() + "/nan.vtu";
  assert_int_equal(write_vtu(g, nanfile, &err), 0);
  assert_int_equal(read_mesh(nanfile, ro, &m, &err), -EDOM);
  assert_true(contains(err, "NaN"));
  g.pts[5].s = 0.5;
  g.tets[3].v[2] = -1;
  assert_int_equal(validate(g, &err), -ERANGE);
  assert_true(contains(err, "cell 3"));
  /* Grids too small. */
  Grid tiny;
  tiny.np[2] = 1;
  assert_int_equal(tetrahedralize_grid(tiny, Split::Five, Order::Lex, 1, &m, &err), -EINVAL);
}

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

#ifdef ISO_TEST_BIN
/* Run the installed binary's command line: output (stdout and stderr) and
 * exit status. */
int run_cli(const std::string &args, std::string *out) {
  const std::string cmd = std::string(ISO_TEST_BIN) + " " + args + " 2>&1";
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

/* The command line: exit codes and messages of bad input, a verified run. */
void test_cli(void **) {
  std::string out;
  assert_int_equal(run_cli("--input " + tmpdir() + "/missing.vtu --iso 1", &out), 2);
  assert_true(contains(out, "missing.vtu") && contains(out, "No such file"));
  assert_int_equal(run_cli("--generate 4 --mode turbo", &out), 1);
  assert_true(contains(out, "unknown mode 'turbo'"));
  assert_int_equal(run_cli("--generate 4", &out), 0);
  assert_int_equal(run_cli("--iso 1", &out), 1);
  assert_true(contains(out, "exactly one of --input"));
  const std::string tets = write_file(
      "cli.vtk", std::string(legacy_head) +
                     "CELLS 2 10\n4 0 1 2 4\n4 1 3 2 7\nCELL_TYPES 2\n10\n10\n" + legacy_scalars);
  assert_int_equal(run_cli("--input " + tets + " --array nope --iso 1 --events none", &out), 2);
  assert_true(contains(out, "unknown point array 'nope'"));
  assert_int_equal(run_cli("--input " + tets + " --iso 100 --events none", &out), 3);
  assert_true(contains(out, "empty surface"));
  const std::string hex = write_file(
      "clihex.vtk", std::string(legacy_head) + "CELLS 1 9\n8 0 1 3 2 4 5 7 6\nCELL_TYPES 1\n12\n" +
                        legacy_scalars);
  assert_int_equal(run_cli("--input " + hex + " --iso 3.5 --events none", &out), 2);
  assert_true(contains(out, "not a tetrahedron"));
  assert_int_equal(run_cli("--input " + hex + " --iso 3.5 --tetrahedralize --events none", &out),
                   0);
  const std::string vtp = tmpdir() + "/cli.vtp", csv = tmpdir() + "/cli.csv";
  const std::string modes = "all";
  assert_int_equal(run_cli("--generate 12x10x8 --order morton --mode " + modes +
                               " --workers 2 --verify --reps 2 --events none --output " + vtp +
                               " --csv " + csv,
                           &out),
                   0);
  assert_true(contains(out, "vtkContourGrid") && contains(out, ": ok"));
  assert_false(out.find("FAILED") != std::string::npos);
  assert_int_equal(access(vtp.c_str(), R_OK), 0);
  assert_int_equal(access(csv.c_str(), R_OK), 0);
}
#endif

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seq_equals_vtk),
      cmocka_unit_test(test_orders_same_surface),
      cmocka_unit_test(test_smp_check_one_thread),
      cmocka_unit_test(test_iso_at_vertex_values),
      cmocka_unit_test(test_flat_and_empty),
      cmocka_unit_test(test_orientation),
      cmocka_unit_test(test_adaptive_equals_seq),
      cmocka_unit_test(test_merge_chunked),
      cmocka_unit_test(test_invalid_meshes),
      cmocka_unit_test(test_round_trips),
#ifdef ISO_TEST_BIN
      cmocka_unit_test(test_cli),
#endif
  };
  int rc = cmocka_run_group_tests(tests, nullptr, nullptr);
  std::string cmd = "rm -rf '" + tmpdir() + "'";
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "could not remove %s\n", tmpdir().c_str());
  return rc;
}
