/* cmocka tests of apps/isosurface: marching tetrahedra against VTK's
 * vtkContourGrid, adaptive modes against the sequential reference for 1, 2,
 * 3 and 8 workers, isovalues at vertex values, flat fields, empty results,
 * orientation, vertex numbering, and the rejection of invalid meshes. Small
 * meshes only (the suite runs under TSan and ASan too). */
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

/* extract() into a surface that already has buffers: reused when they hold
 * the new surface and are at most twice its size (same addresses), else
 * replaced; every element is written either way (the reused buffers are
 * filled with garbage first), for every mode, 1-3 workers, local and
 * random cell orders (the gathered chunk), and surfaces that grow and
 * shrink from one call to the next. */
void test_extract_reuses_output(void **) {
  Mesh lex = make_mesh(12, 11, 10, Field::Waves, Split::Five, Order::Lex);
  Mesh rnd = make_mesh(12, 11, 10, Field::Waves, Split::Five, Order::Random);
  const double isos[] = {0.05, 0.3, -0.2, 0.05, 0.9};
  /* The sequential surfaces, computed once per mesh and isovalue. */
  std::map<const Mesh *, std::vector<Surface>> wants;
  for (const Mesh *m : {&lex, &rnd})
    for (double iso : isos) wants[m].push_back(run(*m, iso, Mode::Seq));
  int reused = 0, replaced = 0;
  for (int w : {1, 2, 3}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    for (const Mesh *m : {&lex, &rnd})
      for (Mode mode : {Mode::Seq, Mode::NoWin, Mode::Static, Mode::Sliding}) {
        AdaptOptions opt;
        opt.chunk_tris = 100; /* many chunks on the local order */
        Surface r;
        for (size_t i = 0; i < sizeof isos / sizeof *isos; i++) {
          const double iso = isos[i];
          const Surface &want = wants[m][i];
          std::fill(r.xyz.begin(), r.xyz.end(), NAN);
          std::fill(r.tri.begin(), r.tri.end(), (int64_t)-7);
          const double *old_xyz = r.xyz.data();
          const bool xyz_fits =
              r.xyz.capacity() >= want.xyz.size() && r.xyz.capacity() / 2 <= want.xyz.size();
          std::string err;
          assert_int_equal(extract(*m, iso, mode, opt, &r, nullptr, &err), 0);
          assert_true(r == want);
          if (!want.xyz.empty() && old_xyz) {
            if (xyz_fits) {
              assert_ptr_equal(r.xyz.data(), old_xyz);
              reused++;
            } else {
              assert_ptr_not_equal(r.xyz.data(), old_xyz);
              replaced++;
            }
          }
        }
      }
  }
  adapt_finalize();
  assert_true(reused > 0 && replaced > 0); /* both cases were run */
  /* Buffers much larger than the surface are not kept: the result's
   * capacity is its own. */
  Surface big;
  big.xyz.assign(1u << 20, 1.0);
  big.tri.assign(1u << 20, 1);
  const Surface want = run(lex, 0.05, Mode::Seq);
  std::string err;
  assert_int_equal(extract(lex, 0.05, Mode::NoWin, AdaptOptions(), &big, nullptr, &err), 0);
  assert_true(big == want);
  assert_true(big.xyz.capacity() < (1u << 20) && big.tri.capacity() < (1u << 20));
}

/* Is the page at p mapped? msync fails with ENOMEM on unmapped memory. */
bool mapped(const void *p) {
  const uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;
  return msync((void *)page, 4096, MS_ASYNC) == 0;
}

/* The extraction's arena: alignment, in-place resize only at the end of
 * the caller's current slab, allocations of their own, and a slab unmapped
 * by the free of its last allocation once it is no longer current. */
void test_arena_slabs(void **) {
  adapt_finalize(); /* outside any region: worker 0's slot */
  iso::Arena a;
  const size_t big = iso::Arena::max_slab_alloc();
  char *p = static_cast<char *>(a.alloc(1000));
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 64, 0);
  assert_true(a.resize(p, 1000, 5000)); /* the last allocation: grows */
  std::memset(p, 1, 5000);
  char *q = static_cast<char *>(a.alloc(100));
  assert_non_null(q);
  assert_true(q >= p + 5000);             /* after the grown block */
  assert_false(a.resize(p, 5000, 6000));  /* no longer the last */
  assert_true(a.resize(q, 100, 40));      /* the last: shrinks */
  assert_false(a.resize(q, 40, big + 1)); /* not from a slab */
  for (int i = 0; i < 5000; i++) assert_int_equal(p[i], 1);
  char *own = static_cast<char *>(a.alloc(big + 1));
  assert_non_null(own);
  own[0] = own[big] = 7;
  a.free(own, big + 1);
  assert_false(mapped(own));
  /* The slab stays while current, goes with its last free once retired. */
  a.free(p, 5000);
  assert_true(mapped(q));
  a.retire_all();
  assert_true(mapped(q));
  a.free(q, 40);
  assert_false(mapped(p));
  /* Scratch: kept while the size asked for does not grow. */
  uint64_t *s = static_cast<uint64_t *>(a.scratch(0, 4096));
  assert_non_null(s);
  s[0] = 42;
  assert_ptr_equal(a.scratch(0, 100), s);
  assert_int_equal(s[0], 42);
  a.trim_scratch(0);
  assert_false(mapped(s));
  assert_null(a.scratch(iso::Arena::kScratch, 8));
}

/* The cache of mappings: exact size and alignment, kept only while giving,
 * the most recent first, stale entries unmapped by the end of the next
 * giving period, everything by release. */
void test_map_cache(void **) {
  const size_t mb = (size_t)1 << 20;
  auto map = [](size_t n) {
    void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    static_cast<char *>(p)[0] = 1;
    return p;
  };
  iso::MapCache c;
  void *a = map(mb);
  c.give(a, mb, 4096); /* not giving: unmapped */
  assert_false(mapped(a));
  assert_int_equal(c.bytes(), 0);
  c.begin_giving();
  a = map(mb);
  void *b = map(mb);
  void *d = map(2 * mb);
  c.give(a, mb, 4096);
  c.give(b, mb, 4096);
  c.give(d, 2 * mb, 4096);
  assert_int_equal(c.bytes(), 4 * mb);
  assert_true(mapped(a) && mapped(b) && mapped(d));
  assert_null(c.take(3 * mb, 4096));              /* no such size */
  assert_null(c.take(2 * mb, 2 * mb));            /* no such alignment */
  assert_ptr_equal(c.take(mb, 4096), b);          /* the last given first */
  assert_int_equal(static_cast<char *>(b)[0], 1); /* contents as left */
  assert_int_equal(c.hits(), 1);
  assert_int_equal(c.bytes(), 3 * mb);
  c.end_giving(); /* a and d were given in this period: kept */
  assert_true(mapped(a) && mapped(d));
  c.give(b, mb, 4096); /* not giving any more: unmapped */
  assert_false(mapped(b));
  c.begin_giving();
  assert_ptr_equal(c.take(mb, 4096), a);
  c.give(a, mb, 4096);
  c.end_giving(); /* d, from the period before and not taken, goes */
  assert_false(mapped(d));
  assert_true(mapped(a));
  assert_int_equal(c.bytes(), mb);
  c.release();
  assert_false(mapped(a));
  assert_int_equal(c.bytes(), 0);
  assert_int_equal(c.hits(), 2);
  /* No exact size: the smallest larger one of the same alignment, at most
   * twice as large, its tail unmapped (a per-call size that shrank). */
  c.begin_giving();
  void *big = map(2 * mb), *bigger = map(3 * mb), *aligned = map(2 * mb);
  static_cast<char *>(big)[mb] = 7;
  c.give(bigger, 3 * mb, 4096);
  c.give(big, 2 * mb, 4096);
  c.give(aligned, 2 * mb, 2 * mb);
  assert_null(c.take(mb - 4096, 4096));  /* more than twice as large: no */
  assert_null(c.take(mb + 1, 4096));     /* not whole pages: exact sizes only */
  assert_null(c.take(3 * mb / 2, 8192)); /* no other alignment */
  void *t = c.take(3 * mb / 2, 4096);    /* 2 MiB (smallest), not 3 */
  assert_ptr_equal(t, big);
  assert_int_equal(static_cast<char *>(t)[mb], 7); /* contents as left */
  assert_true(mapped(static_cast<char *>(t) + 3 * mb / 2 - 4096));
  assert_false(mapped(static_cast<char *>(t) + 3 * mb / 2)); /* the tail is gone */
  assert_int_equal(c.bytes(), 5 * mb);
  assert_int_equal(c.hits(), 3);
  c.give(t, 3 * mb / 2, 4096); /* given back at the size taken */
  assert_int_equal(c.bytes(), 5 * mb + 3 * mb / 2);
  c.end_giving();
  c.release();
  assert_false(mapped(t) || mapped(bigger) || mapped(aligned));
  assert_int_equal(c.bytes(), 0);
}

/* An arena with a cache takes its slabs, scratch buffers and allocations of
 * their own from it and gives them back to it. */
void test_arena_cache(void **) {
  adapt_finalize(); /* outside any region: worker 0's slot */
  const size_t big = iso::Arena::max_slab_alloc();
  iso::MapCache c;
  void *slab, *own, *scr;
  c.begin_giving();
  {
    iso::Arena a(&c);
    slab = a.alloc(1000);
    own = a.alloc(big + 1);
    scr = a.scratch(0, 100000);
    assert_true(slab && own && scr);
    a.free(own, big + 1);
    a.free(slab, 1000);
    assert_true(mapped(own)); /* kept */
  }
  c.end_giving();
  assert_true(mapped(slab) && mapped(scr));
  const size_t kept = c.bytes();
  assert_true(kept >= big + 1 + 100000 + 4 * big); /* own, scratch and the slab */
  c.begin_giving();
  {
    iso::Arena a(&c);
    void *own2 = a.alloc(big + 1);
    void *slab2 = a.alloc(64);
    void *scr2 = a.scratch(0, 100000);
    assert_ptr_equal(own2, own);
    assert_ptr_equal(scr2, scr);
    assert_ptr_equal(iso::Arena::slab_of(slab2, 64), iso::Arena::slab_of(slab, 1000));
    assert_int_equal(c.hits(), 3);
    assert_int_equal(c.bytes(), 0);
    a.free(own2, big + 1);
    a.free(slab2, 64);
    a.trim_scratch(0); /* a large scratch buffer is unmapped, not kept */
    assert_false(mapped(scr));
  }
  c.end_giving();
  assert_int_equal(c.bytes(), kept - 100000 - (100000 % 4096 ? 4096 - 100000 % 4096 : 0));
  c.release();
  /* release_scratch_all: every worker's scratch buffers go (to the cache
   * while it gives, else unmapped); the next scratch() maps again. */
  {
    iso::Arena a;
    void *s0 = a.scratch(0, 100000), *s2 = a.scratch(2, 5000);
    assert_true(s0 && s2 && mapped(s0) && mapped(s2));
    a.release_scratch_all();
    assert_false(mapped(s0) || mapped(s2));
    void *again = a.scratch(0, 100);
    assert_non_null(again);
    static_cast<char *>(again)[0] = 1;
  }
  c.begin_giving();
  {
    iso::Arena a(&c);
    void *s0 = a.scratch(1, 100000);
    assert_non_null(s0);
    a.release_scratch_all();
    assert_true(mapped(s0)); /* kept */
    assert_int_equal(c.bytes(), 100000 + (100000 % 4096 ? 4096 - 100000 % 4096 : 0));
  }
  c.end_giving();
  c.release();
}

/* extract() keeps its transient memory in a surface passed back, not in a
 * fresh one; the next extraction takes it (same output); what stays kept
 * is what the last call used; copies do not share it. */
void test_extract_keeps_memory(void **) {
  const int g = test_variant() == "release" || test_variant().empty() ? 30 : 18;
  Mesh m = make_mesh(g, g, g, Field::Waves, Split::Five, Order::Hilbert);
  Mesh small = make_mesh(4, 4, 4, Field::Waves, Split::Five, Order::Hilbert);
  /* The sequential surfaces, computed once. */
  const Surface want = run(m, 0.05, Mode::Seq);
  const Surface want_small = run(small, 0.05, Mode::Seq);
  std::map<double, Surface> want_at;
  for (double iso : {0.3, 0.25, 0.2}) want_at[iso] = run(m, iso, Mode::Seq);
  for (int w : {1, 2}) {
    if (tsan_skips(w)) continue;
    start_workers(w);
    for (Mode mode : {Mode::Seq, Mode::NoWin, Mode::Sliding}) {
      Surface r;
      std::string err;
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_int_equal(r.kept.bytes(), 0); /* into an empty surface: nothing kept */
      assert_true(r == want);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      const size_t kept = r.kept.bytes();
      assert_true(kept > 0);
      const size_t hits = r.kept.hits();
      std::fill(r.xyz.begin(), r.xyz.end(), NAN);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      assert_true(r.kept.hits() > hits);
      assert_true(r.kept.bytes() > 0 && r.kept.bytes() <= 2 * kept);
      Surface copy = r;
      assert_true(copy == r);
      assert_int_equal(copy.kept.bytes(), 0);
      /* A much smaller surface next: the memory it does not take goes. */
      assert_int_equal(extract(small, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want_small);
      assert_true(r.kept.bytes() < kept);
      r.kept.release();
      assert_int_equal(r.kept.bytes(), 0);
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      assert_true(r == want);
      /* Another isovalue each call (a slider): the kept memory serves the
       * next call even when sizes change, and the output is a fresh
       * extraction's. */
      assert_int_equal(extract(m, 0.05, mode, AdaptOptions(), &r, nullptr, &err), 0);
      for (double iso : {0.3, 0.25, 0.2, 0.3}) {
        const size_t before = r.kept.hits();
        assert_int_equal(extract(m, iso, mode, AdaptOptions(), &r, nullptr, &err), 0);
        assert_true(r == want_at[iso]);
        assert_true(r.kept.hits() > before);
      }
    }
  }
  adapt_finalize();
}

struct ArenaLoop {
  iso::Arena *a;
  std::vector<std::pair<char *, size_t>> *blocks;
};

void arena_body(size_t b, size_t e, void *ctx) {
  const ArenaLoop *l = static_cast<const ArenaLoop *>(ctx);
  for (size_t i = b; i < e; i++) {
    const size_t n = 64 + (i * 7919) % 20000;
    char *p = static_cast<char *>(l->a->alloc(n));
    if (p) std::memset(p, (int)(i & 0x7F), n);
    (*l->blocks)[i] = {p, n};
  }
}

/* Every worker allocates from its own slabs in a parallel loop; the blocks
 * do not overlap (each keeps its pattern) and all are freed by the calling
 * thread, which unmaps every slab (TSan checks the counts' orders). */
void test_arena_workers(void **) {
  for (int w = 1; w <= 3; w++) {
    start_workers(w);
    const size_t n = 3000;
    std::vector<std::pair<char *, size_t>> blocks(n);
    {
      iso::Arena a;
      ArenaLoop l{&a, &blocks};
      adapt_attr attr;
      std::memset(&attr, 0, sizeof attr);
      attr.grain = 7;
      assert_int_equal(adapt_for(0, n, arena_body, &l, &attr), 0);
      for (size_t i = 0; i < n; i++) {
        assert_non_null(blocks[i].first);
        for (size_t k = 0; k < blocks[i].second; k += 97)
          assert_int_equal(blocks[i].first[k], (int)(i & 0x7F));
      }
      a.retire_all();
      for (size_t i = 0; i < n; i++) a.free(blocks[i].first, blocks[i].second);
      for (size_t i = 0; i < n; i++) assert_false(mapped(blocks[i].first));
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

/* ---- invalid input --------------------------------------------------- */

std::string tmpdir() { return scratch_dir("test_isosurface"); }

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
void bounds(const Surface &s, double lo[3], double hi[3]) {
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
std::string image_vti(const std::string &name, int n, int shift, const double c[3],
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
struct NiftiPlace {
  float pixdim[3] = {1.5f, 2.0f, 3.0f};
  float qfac = 1;
  short qform_code = 0, sform_code = 0;
  float quatern[3] = {0, 0, 0}, qoffset[3] = {0, 0, 0};
  float srow[3][4] = {};
};

/* A .nii of 4x5x6 float32 points, point (i, j, k) of the file holding
 * i + 10 j + 100 k, placed by h. */
std::string write_nifti(const std::string &name, const NiftiPlace &h) {
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
void nifti_world(const NiftiPlace &h, int i, int j, int k, double w[3]) {
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
std::vector<std::string> list_dir(const std::string &dir) {
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
int read_like_the_fuzzer(const std::string &fmt, const std::string &f) {
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

#ifdef ISO_TEST_BIN
/* The command line: exit codes and messages of bad input, a verified run. */
void test_cli(void **) {
  std::string out;
  assert_int_equal(run_cli("--input " + tmpdir() + "/missing.vtu --iso 1", &out), 2);
  assert_true(contains(out, "missing.vtu") && contains(out, "No such file"));
  assert_int_equal(run_cli("--generate 4 --mode turbo", &out), 1);
  assert_true(contains(out, "unknown mode 'turbo'"));
  /* 2^32 points and more: refused before anything is allocated. */
  assert_int_equal(run_cli("--generate 2048x2048x1024 --events none", &out), 2);
  assert_true(contains(out, "point ids are 32-bit"));
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
  /* --save-mesh of a file needs no --iso (nothing is extracted), unless a
   * surface is asked for too. */
  const std::string saved = tmpdir() + "/cli_saved.vtu";
  assert_int_equal(run_cli("--input " + tets + " --save-mesh " + saved, &out), 0);
  assert_true(contains(out, "mesh written to " + saved) && !contains(out, "isosurface at"));
  Mesh back;
  std::string err;
  assert_int_equal(read_mesh(saved, ReadOptions(), &back, &err), 0);
  assert_int_equal(back.tets.size(), 2);
  assert_int_equal(run_cli("--input " + tets + " --save-mesh " + saved + " --output x.vtp", &out),
                   1);
  assert_true(contains(out, "--iso VALUE is required to extract a surface"));
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

/* The command line of issue 11: option values, limits, output paths,
 * undefined columns, --version, the counters' warning. */
/* Under ThreadSanitizer the CLI's refusals and its renders of files are
 * not run: the options are refused on one thread before the runtime starts,
 * and a render reads a file and draws it with Mesa, whose calls TSan cannot
 * follow (suppressed below): nothing of ours runs concurrently there, each
 * start of the app under TSan costs about half a second, and the release
 * and asan+ubsan variants run them (tsan_single_threaded, test_util.h). */

void test_cli_refusals(void **) {
  if (tsan_single_threaded()) return;
  std::string out;
  /* A missing value is an error, not the next option. */
  assert_int_equal(run_cli("--generate 4 --array --iso 150", &out), 1);
  assert_true(contains(out, "--array needs a value") && contains(out, "'--iso'"));
  assert_int_equal(run_cli("--generate 4 --output", &out), 1);
  assert_true(contains(out, "--output needs a value"));
  /* Too many workers: libadapt's message, naming its limit. */
  assert_int_equal(run_cli("--generate 4 --workers 300 --events none", &out), 1);
  assert_true(contains(out, "--workers 300: ") && contains(out, "expected"));
  assert_false(out.find("invalid argument, attribute") != std::string::npos);
  /* Unwritable outputs: one line, before any extraction, no VTK dump. */
  const std::string nodir = tmpdir() + "/no-such-dir/s.vtp";
  assert_int_equal(run_cli("--generate 4 --events none --output " + nodir, &out), 1);
  assert_true(contains(out, "--output: cannot write '" + nodir + "'"));
  assert_false(out.find("isosurface at") != std::string::npos);
  assert_false(out.find('\033') != std::string::npos);
  assert_false(out.find("vtkExecutive") != std::string::npos);
  assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
  assert_int_equal(run_cli("--generate 4 --events none --csv " + tmpdir(), &out), 1);
  assert_true(contains(out, "--csv: cannot write") && contains(out, "is a directory"));
  /* The file type follows the extension, another one is refused before
   * any work: legacy .vtk for the surface and the mesh. */
  for (const char *bad : {"--output s.obj", "--save-mesh m.stl", "--png p.jpg"}) {
    assert_int_equal(run_cli(std::string("--generate 4 --events none ") + bad, &out), 1);
    assert_true(contains(out, "unknown file type of") && !contains(out, "mesh: generating"));
  }
}

void test_cli_render(void **) {
  if (tsan_single_threaded()) return;
  std::string out, err;
  const std::string lvtk = tmpdir() + "/r.vtk";
  assert_int_equal(run_cli("--generate 4 --events none --reps 1 --output " + lvtk, &out), 0);
  /* --png (and --render) without an X display that opens: said before any
   * work, not after the extraction (nor an abort in VTK's X window). */
  const std::string png = tmpdir() + "/p.png";
  for (const char *env : {"env -u DISPLAY", "env DISPLAY=:8123"}) {
    assert_int_equal(run_cli("--generate 4 --events none --png " + png, &out, env), 5);
    assert_true(contains(out, "--png: ") && contains(out, "xvfb-run -a") &&
                !contains(out, "mesh: generating"));
    assert_int_equal(run_cli("--render " + lvtk + " --png " + png, &out, env), 5);
    assert_true(contains(out, "--png: ") && !contains(out, "vtkXOpenGLRenderWindow"));
  }
  /* --render reads a .pvtp (its pieces appended); VTK's multi-line log of
   * a file it cannot parse is caught: one line. */
  const Mesh a = make_mesh(3, 3, 3, Field::Waves, Split::Five, Order::Lex);
  const Surface sa = run(a, 0.0, Mode::Seq), sb = run(a, 0.3, Mode::Seq);
  assert_int_equal(write_vtp(sa, tmpdir() + "/pa.vtp", &err), 0);
  assert_int_equal(write_vtp(sb, tmpdir() + "/pb.vtp", &err), 0);
  const std::string pvtp =
      write_file("p.pvtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"0.1\" "
                           "byte_order=\"LittleEndian\">\n<PPolyData GhostLevel=\"0\">\n<PPoints>"
                           "<PDataArray type=\"Float64\" NumberOfComponents=\"3\"/></PPoints>\n"
                           "<Piece Source=\"pa.vtp\"/>\n<Piece Source=\"pb.vtp\"/>\n</PPolyData>\n"
                           "</VTKFile>\n");
  Surface both;
  assert_int_equal(read_surface(pvtp, &both, &err), 0);
  assert_int_equal(both.ntris(), sa.ntris() + sb.ntris());
  assert_int_equal(both.nverts(), sa.nverts() + sb.nverts());
  assert_true(std::equal(sa.xyz.begin(), sa.xyz.end(), both.xyz.begin()));
  /* xvfb-run -a picks the first free display from 99 up: several test runs
   * at once race for it, so each starts from its own. */
  const std::string xvfb = "xvfb-run -a -n " + std::to_string(100 + getpid() % 20000);
  /* Under ASan: Mesa's GL driver, loaded and unloaded by VTK's window,
   * leaves allocations LeakSanitizer cannot attribute (an unknown module);
   * the app's own are checked by every other run. */
  /* Under TSan: Mesa's software rasteriser (uninstrumented) syncs its
   * threads in ways TSan cannot follow, and destroys their locks from the
   * render window's teardown: its calls are not checked (the app's are). */
  const std::string supp = write_file("gl.supp", "race:swrast_dri.so\nmutex:swrast_dri.so\n");
  const std::string gl = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
                         "TSAN_OPTIONS=\"${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=" +
                         supp + "\" ";
  assert_int_equal(run_cli("--render " + pvtp + " --png " + png, &out, gl + xvfb), 0);
  assert_true(contains(out, "rendered " + pvtp) && access(png.c_str(), R_OK) == 0);
  const std::string bad = write_file("bad.vtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"Poly");
  assert_int_equal(read_surface(bad, &both, &err), -EIO);
  assert_int_equal(run_cli("--render " + bad + " --png " + png, &out, xvfb), 2);
  assert_true(contains(out, "VTK could not read '" + bad + "'"));
  assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
  assert_false(contains(out, "\033") || contains(out, "vtkExecutive") || contains(out, "(0x"));
  /* An empty file, and a surface without points (as VTK writes one): one
   * line each, exit 2 and 3 (nothing to render). */
  const std::string none = write_file("none.vtp", ""), zero = tmpdir() + "/zero.vtp";
  const std::string nopoints = write_file(
      "nopoints.vtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\">\n"
                      "<PolyData><Piece NumberOfPoints=\"0\" NumberOfPolys=\"0\"><Points>"
                      "</Points></Piece></PolyData>\n</VTKFile>\n");
  assert_int_equal(write_vtp(Surface(), zero, &err), 0);
  for (const std::string &f : {zero, nopoints}) {
    assert_int_equal(read_surface(f, &both, &err), 0);
    assert_int_equal(both.ntris() + both.nverts(), 0);
  }
  for (const std::string &f : {none, zero, nopoints}) {
    assert_int_equal(run_cli("--render " + f + " --png " + png, &out, xvfb), f == none ? 2 : 3);
    assert_true(contains(out, "'" + f + "'"));
    assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
    assert_false(contains(out, "\033") || contains(out, "(0x"));
  }
}

void test_cli_options(void **) {
  std::string out;
  const std::string lvtk = tmpdir() + "/s.vtk", mvtk = tmpdir() + "/m.vtk";
  const std::string tcsv = tmpdir() + "/tris.csv";
  assert_int_equal(run_cli("--generate 4 --events none --reps 1 --output " + lvtk +
                               " --save-mesh " + mvtk + " --csv " + tcsv,
                           &out),
                   0);
  Mesh saved;
  std::string err;
  assert_int_equal(read_mesh(mvtk, ReadOptions(), &saved, &err), 0);
  assert_int_equal(saved.tets.size(), 4 * 4 * 4 * 5);
  vtkNew<vtkPolyDataReader> pr;
  pr->SetFileName(lvtk.c_str());
  pr->Update();
  assert_true(pr->IsFilePolyData() == 1 && pr->GetFileType() == VTK_BINARY);
  assert_true(pr->GetOutput()->GetNumberOfPolys() > 0);
  assert_true((double)pr->GetOutput()->GetNumberOfPolys() == csv_column(tcsv, "triangles")["seq"]);
  /* --positions records each mode's window (trace_plot.py prints it in the
   * titles of workers.png): the one given, 0 without one. */
  const std::string pos = tmpdir() + "/pos.csv";
  assert_int_equal(run_cli("--generate 8 --mode nowin,static --workers 2 --window 300 --reps 1 "
                           "--events none --positions " +
                               pos,
                           &out),
                   0);
  std::ifstream pin(pos);
  std::string line;
  assert_true(std::getline(pin, line) && line == "mode,worker,begin,end,t_ns,window");
  size_t nowin = 0, windowed = 0;
  while (std::getline(pin, line)) {
    const std::string last = line.substr(line.rfind(',') + 1);
    if (line.rfind("nowin,", 0) == 0 && last == "0") nowin++;
    if (line.rfind("static,", 0) == 0 && last == "300") windowed++;
  }
  assert_true(nowin > 0 && windowed > 0);
  /* No seq row: the speedup (table and CSV) is "-" / empty, never nan. */
  const std::string csv = tmpdir() + "/noseq.csv";
  assert_int_equal(
      run_cli("--generate 4 --mode static --workers 2 --reps 1 --events none --csv " + csv, &out),
      0);
  assert_false(out.find("nan") != std::string::npos);
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  assert_true(contains(text, "static,libadapt"));
  assert_false(text.find("nan") != std::string::npos);
  assert_true(contains(text, ",best_s,best_speedup,isovalues,iso_triangles\n") &&
              contains(out, "best ms"));
  /* --version: the app's and the library's versions. */
  assert_int_equal(run_cli("--version", &out), 0);
  assert_true(contains(out, "adapt-isosurface ") &&
              contains(out, std::string("libadapt ") + adapt_version_string()));
  /* Counters that cannot start: one warning, none with --quiet. */
  const std::string bogus = "--generate 4 --reps 2 --mode seq,static --events NOT_AN_EVENT";
  assert_int_equal(run_cli(bogus, &out), 0);
  size_t warnings = 0;
  for (size_t p = 0; (p = out.find("adapt-isosurface: ", p)) != std::string::npos; p++) warnings++;
  assert_int_equal(warnings, 1);
  assert_int_equal(run_cli(bogus + " --quiet", &out), 0);
  assert_false(out.find("adapt-isosurface: ") != std::string::npos);
  /* The first run's time apart (into fresh memory), and whether the later
   * runs reuse the previous surface; one run: no such line. */
  const std::string two = "--generate 6 --reps 2 --mode seq,nowin --workers 2 --events none";
  assert_int_equal(run_cli(two + " --verify", &out), 0);
  assert_true(contains(out, "first run (fresh output memory): seq ") && contains(out, ", nowin ") &&
              contains(out, "reuse the previous surface") &&
              contains(out, "(kept after the last run: seq "));
  assert_true(contains(out, "nowin    == seq byte for byte: ok"));
  assert_true(contains(out, "verify: nowin    1 run(s) into the previous surface's memory == its "
                            "first: ok"));
  assert_int_equal(run_cli(two + " --fresh-output", &out), 0);
  assert_true(contains(out, "every run into fresh memory (--fresh-output)") &&
              !contains(out, "kept after"));
  assert_int_equal(run_cli("--generate 6 --reps 1 --events none", &out), 0);
  assert_false(out.find("first run") != std::string::npos);
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
