/* cmocka tests of apps/isosurface: marching tetrahedra against VTK's
 * vtkContourGrid, adaptive modes against the sequential reference for 1, 2,
 * 3 and 8 workers, isovalues at vertex values, flat fields, empty results,
 * orientation, vertex numbering, the chunked merge; main() of the program,
 * whose other tests are in test_iso_memory.cpp (the arena, reused output),
 * test_iso_files.cpp (input files), test_cli*.cpp (the command line) and
 * test_file_checks_cells.cpp. Small meshes only (the suite runs under TSan
 * and ASan too). */
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "vertex_merge.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
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
using namespace iso_suite;

namespace {

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

/* Normals point against the gradient (towards smaller scalars, VTK's
 * winding on cells of positive determinant): inwards on the sphere field. */
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
    assert_true(out < 0);
  }
}

/* The orientation from the case table and the sign of the cell's
 * determinant (mt.cpp, CaseTable) equals the gradient test it replaced:
 * normal . gradient < 0, on random cells of both orientations, slivers
 * included, wherever that test is not rounding noise (a non-degenerate
 * triangle in a cell that is not flat). */
void test_orientation_table(void **) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> u01(0.0, 1.0), sym(-1.0, 1.0);
  size_t checked = 0, negative = 0;
  for (int cell = 0; cell < 40000; cell++) {
    Point p[4];
    double s[4];
    /* Every fourth cell a sliver: one axis squeezed. */
    const double squeeze = cell % 4 == 3 ? 1e-3 : 1.0;
    for (int k = 0; k < 4; k++) {
      p[k] = Point{u01(rng), u01(rng), squeeze * u01(rng)};
      s[k] = sym(rng);
    }
    const double iso = 0.5 * sym(rng);
    const Tet t{{0, 1, 2, 3}};
    TriRec out[2];
    const size_t n = mt_cell(p, s, t, iso, out);
    double e[3][3], G[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
      e[k][0] = p[k + 1].x - p[0].x;
      e[k][1] = p[k + 1].y - p[0].y;
      e[k][2] = p[k + 1].z - p[0].z;
    }
    auto cross = [](const double *a, const double *b, double *r) {
      r[0] = a[1] * b[2] - a[2] * b[1];
      r[1] = a[2] * b[0] - a[0] * b[2];
      r[2] = a[0] * b[1] - a[1] * b[0];
    };
    double c[3];
    for (int k = 0; k < 3; k++) {
      cross(e[(k + 1) % 3], e[(k + 2) % 3], c);
      for (int a = 0; a < 3; a++) G[a] += (s[k + 1] - s[0]) * c[a];
    }
    cross(e[1], e[2], c);
    const double det = e[0][0] * c[0] + e[0][1] * c[1] + e[0][2] * c[2];
    for (size_t r = 0; r < n; r++) {
      double x[3][3];
      for (int k = 0; k < 3; k++) {
        const EdgeKey &ek = out[r].e[k];
        const bool a_lo = s[ek.b] - s[ek.a] > 0;
        const int64_t l = a_lo ? ek.a : ek.b, h = a_lo ? ek.b : ek.a;
        const Point &lo = p[l], &hi = p[h];
        const double f = ek.a == ek.b ? 0.0 : (iso - s[l]) / (s[h] - s[l]);
        x[k][0] = lo.x + f * (hi.x - lo.x);
        x[k][1] = lo.y + f * (hi.y - lo.y);
        x[k][2] = lo.z + f * (hi.z - lo.z);
      }
      double uu[3], vv[3], nrm[3];
      for (int a = 0; a < 3; a++) {
        uu[a] = x[1][a] - x[0][a];
        vv[a] = x[2][a] - x[0][a];
      }
      cross(uu, vv, nrm);
      const double d = nrm[0] * G[0] + nrm[1] * G[1] + nrm[2] * G[2];
      const double scale = std::sqrt((nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]) *
                                     (G[0] * G[0] + G[1] * G[1] + G[2] * G[2]));
      if (std::fabs(d) <= 1e-6 * scale || std::fabs(det) <= 1e-12) continue;
      assert_true(d * det < 0);
      checked++;
      negative += det < 0;
    }
  }
  /* Both orientations of cells, most triangles checked. */
  assert_true(checked > 20000);
  assert_true(negative > 5000 && checked - negative > 5000);
}

/* Every adaptive mode equals the sequential reference byte for byte, for 1,
 * 2, 3 and 8 workers, with windows and grains small enough that the mesh is
 * split many times. */
void test_adaptive_equals_seq(void **) {
  /* Under ThreadSanitizer a smaller grid: still several windows of 64 and
   * 1000 cells and several merge chunks of 100 triangles (asserted). */
  const bool tsan = test_variant() == "tsan";
  const int nx = tsan ? 10 : 14, ny = tsan ? 9 : 12, nz = tsan ? 8 : 10;
  Mesh m = make_mesh(nx, ny, nz, Field::Waves, Split::Five, Order::Hilbert);
  Surface ref = run(m, 0.05, Mode::Seq);
  assert_true(ref.ntris() > 4 * 100); /* several merge chunks of 100 triangles */
  assert_true(m.tets.size() > 2 * 1000);
  Mesh rnd = make_mesh(nx, ny, nz, Field::Waves, Split::Six, Order::Random);
  Surface ref_rnd = run(rnd, 0.05, Mode::Seq);
  assert_true(ref_rnd.ntris() > 4 * 100);
  check_against_vtk(m, 0.05, ref);
  const double ref_area = ref.area();
  Mesh at_vertex = make_mesh(6, 6, 6, Field::Flat, Split::Six, Order::Random);
  for (size_t i = 0; i < at_vertex.pts.size(); i++) at_vertex.scalars[i] = (double)(i % 3);
  Surface ref2 = run(at_vertex, 1.0, Mode::Seq);
  for (int w : {1, 2, 3, 8}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    assert_int_equal(adapt_num_workers(), w);
    for (Mode mode : {Mode::NoWin, Mode::Static, Mode::Sliding})
      for (size_t window : {(size_t)64, (size_t)1000, (size_t)0}) {
        AdaptOptions opt;
        opt.window_size = window;
        opt.grain = window == 64 ? 32 : 0;
        /* Merge chunks of 7 and 100 triangles: many chunks, cut by steals
         * too; 0: the default (one chunk on these meshes). */
        opt.chunk_tris = window == 64 ? 7 : window == 1000 ? 100 : 0;
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

/* The triangles of every cell of m at iso (mt_cell), in cell order, and
 * their merged surface into *ref. */
std::vector<TriRec> cell_triangles(const Mesh &m, double iso, Surface *ref) {
  std::vector<TriRec> recs;
  TriRec buf[2];
  for (const Tet &t : m.tets) {
    const size_t k = mt_cell(m.pts.data(), m.scalars.data(), t, iso, buf);
    recs.insert(recs.end(), buf, buf + k);
  }
  assert_int_equal(merge(m.pts.data(), m.scalars.data(), iso, recs.data(), recs.size(), ref), 0);
  return recs;
}

/* merge_chunked equals merge for any chunk count, including chunks whose
 * keys overlap (random order) and more chunks than triangles. */
void test_merge_chunked(void **) {
  for (Order o : {Order::Lex, Order::Random}) {
    Mesh m = make_mesh(9, 8, 7, Field::Waves, Split::Five, o);
    Surface ref;
    const std::vector<TriRec> recs = cell_triangles(m, 0.1, &ref);
    for (int w : {1, 2, 3}) {
      if (tsan_skips(w)) continue;
      start_workers(w);
      for (size_t chunks : {(size_t)1, (size_t)2, (size_t)3, (size_t)8, recs.size() + 5}) {
        Surface s;
        assert_int_equal(merge_chunked(m.pts.data(), m.scalars.data(), 0.1, recs.data(),
                                       recs.size(), chunks, &s),
                         0);
        assert_true(s == ref);
      }
      Surface none;
      assert_int_equal(
          merge_chunked(m.pts.data(), m.scalars.data(), 0.1, recs.data(), recs.size(), 0, &none),
          -EINVAL);
    }
  }
  adapt_finalize();
}

/* owner[] holds positions coarsened to 16 bits (OwnerMap): the shift keeps
 * every position below kNone; merge_chunked with more chunks than 16 bits
 * number (one triangle each: shift 1 or more, several chunks per owner
 * value, each vertex looked up across several earlier chunks; fewer under
 * ThreadSanitizer) equals merge(). */
void test_owner_map_shift(void **) {
  assert_int_equal(OwnerMap::shift_for(0), 0);
  assert_int_equal(OwnerMap::shift_for(OwnerMap::kNone), 0);
  assert_int_equal(OwnerMap::shift_for((uint64_t)OwnerMap::kNone + 1), 1);
  assert_int_equal(OwnerMap::shift_for(2 * (uint64_t)OwnerMap::kNone), 1);
  assert_int_equal(OwnerMap::shift_for(2 * (uint64_t)OwnerMap::kNone + 1), 2);
  assert_int_equal(OwnerMap::shift_for(UINT32_MAX), 17);
  /* x-index parity on cells 2 wide: every tetrahedron crossed, a point's
   * keys within a few dozen triangles of each other. */
  const int nx = 2, ny = 2, nz = test_variant() == "tsan" ? 1700 : 3400;
  std::vector<double> sc((size_t)(nx + 1) * (ny + 1) * (nz + 1));
  for (size_t p = 0; p < sc.size(); p++) sc[p] = (double)((p % (nx + 1)) % 2);
  Mesh m = make_mesh(nx, ny, nz, Field::Flat, Split::Five, Order::Lex, sc.data());
  Surface ref;
  const std::vector<TriRec> recs = cell_triangles(m, 0.5, &ref);
  const size_t chunks = recs.size();
  if (test_variant() != "tsan") assert_true(OwnerMap::shift_for(chunks) >= 1);
  for (int w : {1, 2}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    Surface s;
    assert_int_equal(
        merge_chunked(m.pts.data(), m.scalars.data(), 0.5, recs.data(), recs.size(), chunks, &s),
        0);
    assert_true(s == ref);
  }
  adapt_finalize();
}

/* The reference pipeline: mt_cell over the cells in order, then merge(). */
Surface reference_surface(const Mesh &m, double iso) {
  Surface ref;
  cell_triangles(m, iso, &ref);
  return ref;
}

/* The fast cell phase and the chunked merge (issue 12) equal the reference
 * pipeline byte for byte, in every mode and for 1, 2 and 3 workers, on: a
 * local order (chunked merge), a random order (one chunk), every cell
 * crossed, isovalues at point values (point keys, degenerate triangles), an
 * empty surface; with the default merge chunks and with chunks of 1, 5
 * and 64 triangles (sealed within a block, cut by steals, gathered into one
 * on the random order). And merge_chunked with many small chunks (each
 * vertex resolved across several earlier chunks) equals merge(). */
void test_fast_path_equals_reference(void **) {
  struct Case {
    Mesh m;
    double iso;
    bool want_tris;
  };
  std::vector<Case> cases;
  /* Under ThreadSanitizer smaller grids: still several windows of 256
   * cells and several merge chunks of 64 triangles (asserted below). */
  const bool tsan = test_variant() == "tsan";
  cases.push_back({tsan ? make_mesh(10, 8, 7, Field::Waves, Split::Five, Order::Lex)
                        : make_mesh(16, 12, 10, Field::Waves, Split::Five, Order::Lex),
                   0.0, true});
  cases.push_back({tsan ? make_mesh(8, 7, 6, Field::Waves, Split::Six, Order::Random)
                        : make_mesh(12, 10, 9, Field::Waves, Split::Six, Order::Random),
                   0.1, true});
  {
    /* x-index parity: every (non-flat) tetrahedron has both parities. */
    const int nx = 9, ny = 7, nz = 6;
    std::vector<double> sc((size_t)(nx + 1) * (ny + 1) * (nz + 1));
    for (size_t p = 0; p < sc.size(); p++) sc[p] = (double)((p % (nx + 1)) % 2);
    Mesh parity = make_mesh(nx, ny, nz, Field::Flat, Split::Five, Order::Hilbert, sc.data());
    cases.push_back({parity, 0.5, true});
  }
  {
    Mesh at = make_mesh(10, 9, 8, Field::Flat, Split::Six, Order::Morton);
    for (size_t i = 0; i < at.pts.size(); i++) at.scalars[i] = (double)(i % 3);
    cases.push_back({at, 1.0, true});
  }
  cases.push_back({make_mesh(6, 6, 6, Field::Sphere, Split::Five, Order::Lex), 50.0, false});
  for (size_t c = 0; c < cases.size(); c++) {
    const Case &k = cases[c];
    const Surface ref = reference_surface(k.m, k.iso);
    assert_true(k.want_tris ? ref.ntris() > 0 : ref.ntris() == 0);
    if (c < 2) assert_true(ref.ntris() > 2 * 64 && k.m.tets.size() > 2 * 256);
    if (c == 2) {
      /* every cell crossed: one or two triangles per cell */
      assert_true(ref.ntris() >= k.m.tets.size());
    }
    const Surface seq = run(k.m, k.iso, Mode::Seq);
    assert_true(seq == ref);
    /* Merge chunks of 1, 5 and 64 triangles: every vertex of a chunk is
     * looked up in earlier ones, several chunks per block. */
    for (size_t chunk : {(size_t)1, (size_t)5, (size_t)64}) {
      AdaptOptions opt;
      opt.chunk_tris = chunk;
      assert_true(run(k.m, k.iso, Mode::Seq, opt) == ref);
    }
    for (int w : {1, 2, 3}) {
      if (tsan_skips(w)) continue;
      start_workers(w);
      for (Mode mode : {Mode::NoWin, Mode::Static, Mode::Sliding}) {
        AdaptOptions opt;
        opt.window_size = 256;
        opt.grain = 64;
        assert_true(run(k.m, k.iso, mode, opt) == ref);
        assert_true(run(k.m, k.iso, mode) == ref);
        for (size_t chunk : {(size_t)1, (size_t)5, (size_t)64}) {
          opt.chunk_tris = chunk;
          assert_true(run(k.m, k.iso, mode, opt) == ref);
        }
      }
    }
  }
  Mesh m = make_mesh(16, 14, 12, Field::Waves, Split::Five, Order::Lex);
  Surface ref;
  const std::vector<TriRec> recs = cell_triangles(m, 0.0, &ref);
  for (int w : {1, 2}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    for (size_t chunks : {recs.size() / 512, recs.size() / 64, recs.size() / 7}) {
      Surface s;
      assert_int_equal(
          merge_chunked(m.pts.data(), m.scalars.data(), 0.0, recs.data(), recs.size(), chunks, &s),
          0);
      assert_true(s == ref);
    }
  }
  adapt_finalize();
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seq_equals_vtk),
      cmocka_unit_test(test_orders_same_surface),
      cmocka_unit_test(test_smp_check_one_thread),
      cmocka_unit_test(test_iso_at_vertex_values),
      cmocka_unit_test(test_flat_and_empty),
      cmocka_unit_test(test_orientation),
      cmocka_unit_test(test_orientation_table),
      cmocka_unit_test(test_adaptive_equals_seq),
      cmocka_unit_test(test_merge_chunked),
      cmocka_unit_test(test_owner_map_shift),
      cmocka_unit_test(test_extract_reuses_output),
      cmocka_unit_test(test_arena_slabs),
      cmocka_unit_test(test_map_cache),
      cmocka_unit_test(test_arena_cache),
      cmocka_unit_test(test_extract_keeps_memory),
      cmocka_unit_test(test_arena_workers),
      cmocka_unit_test(test_fast_path_equals_reference),
      cmocka_unit_test(test_invalid_meshes),
      cmocka_unit_test(test_round_trips),
      cmocka_unit_test(test_image_extent),
      cmocka_unit_test(test_file_checks),
      cmocka_unit_test(test_cell_offsets),
      cmocka_unit_test(test_legacy_metadata),
      cmocka_unit_test(test_nan_named_as_in_file),
      cmocka_unit_test(test_nifti_placement),
#ifdef ISO_FUZZ_DIR
      cmocka_unit_test(test_fuzz_regressions),
#endif
#ifdef ISO_TEST_BIN
      cmocka_unit_test(test_cli),
      cmocka_unit_test(test_cli_refusals),
      cmocka_unit_test(test_cli_options),
      cmocka_unit_test(test_cli_render),
      cmocka_unit_test(test_cli_values),
      cmocka_unit_test(test_cli_readers),
      cmocka_unit_test(test_cli_blocks),
      cmocka_unit_test(test_cli_blanking),
#endif
  };
  if (const char *f = std::getenv("ADAPT_TEST_FILTER")) cmocka_set_test_filter(f);
  int rc = cmocka_run_group_tests(tests, nullptr, nullptr);
  std::string cmd = "rm -rf '" + tmpdir() + "'";
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "could not remove %s\n", tmpdir().c_str());
  return rc;
}
