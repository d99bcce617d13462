/* cmocka tests of the renumbering (reorder.{h,cpp}, issue 15): it is a
 * permutation (every point and every cell exactly once, each cell with its
 * own points), the points come in first-use order, the result does not
 * depend on the worker count, the surface is unchanged (as VTK compares it
 * and as sets of triangles), --reorder auto leaves good numberings alone
 * and renumbers poor ones, bad inputs keep their handling, and the command
 * line. Small meshes (the suite runs under TSan and ASan too). */
#include "iso_config.h"
#include "mesh.h"
#include "mt.h"
#include "pieces.h"
#include "reorder.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>

#include <vtkCellData.h>
#include <vtkDataSetAttributes.h>
#include <vtkNew.h>
#include <vtkSMPTools.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
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

#include "test_util.h"

using namespace iso;

namespace {

Mesh make_mesh(int nx, int ny, int nz, Field f, Order o) {
  Grid g;
  g.np[0] = nx + 1;
  g.np[1] = ny + 1;
  g.np[2] = nz + 1;
  g.field = f;
  Mesh m;
  std::string err;
  assert_int_equal(tetrahedralize_grid(g, Split::Five, o, 7, &m, &err), 0);
  assert_int_equal(validate(m, &err), 0);
  return m;
}

/* A mesh with cells in random order and a random point numbering. */
Mesh shuffled_mesh(int nx, int ny, int nz, Field f) {
  Mesh m = make_mesh(nx, ny, nz, f, Order::Random);
  std::string err;
  assert_int_equal(shuffle_points(&m, 11, &err), 0);
  return m;
}

Mesh reordered(const Mesh &m, Reorder curve) {
  Mesh r = m;
  std::string err;
  ReorderTiming tm;
  const int rc = reorder_cells(&r, curve, &tm, &err);
  if (rc) std::fprintf(stderr, "reorder_cells: %s\n", err.c_str());
  assert_int_equal(rc, 0);
  assert_true(tm.keys >= 0 && tm.sort >= 0 && tm.apply >= 0 && tm.points >= 0);
  assert_int_equal(validate(r, &err), 0);
  return r;
}

using P4 = std::array<double, 4>;
/* Point p of m: position and scalar. */
P4 key(const Mesh &m, size_t p) { return {m.pts[p].x, m.pts[p].y, m.pts[p].z, m.scalars[p]}; }

void add_point(Mesh &m, double x, double y, double z, double s) {
  m.pts.push_back({x, y, z});
  m.scalars.push_back(s);
}

/* Every point and every cell of a exactly once in b: the points as a
 * multiset of (x, y, z, s), the cells as a multiset of their four points
 * (in the cell's own order), so a relabelling that moved a cell to other
 * points fails. */
void check_permutation(const Mesh &a, const Mesh &b) {
  assert_int_equal(a.pts.size(), b.pts.size());
  assert_int_equal(a.tets.size(), b.tets.size());
  std::vector<P4> pa, pb;
  for (size_t p = 0; p < a.pts.size(); p++) pa.push_back(key(a, p));
  for (size_t p = 0; p < b.pts.size(); p++) pb.push_back(key(b, p));
  std::sort(pa.begin(), pa.end());
  std::sort(pb.begin(), pb.end());
  assert_true(pa == pb);
  auto cells = [](const Mesh &m) {
    std::vector<std::array<P4, 4>> c(m.tets.size());
    for (size_t i = 0; i < m.tets.size(); i++)
      for (int k = 0; k < 4; k++) c[i][(size_t)k] = key(m, m.tets[i].v[k]);
    std::sort(c.begin(), c.end());
    return c;
  };
  assert_true(cells(a) == cells(b));
}

/* Points numbered by first use in the cell order, unused ones last. */
void check_first_use(const Mesh &m, size_t unused) {
  int64_t next = 0;
  for (const Tet &t : m.tets)
    for (int k = 0; k < 4; k++) {
      assert_true(t.v[k] <= next);
      if (t.v[k] == next) next++;
    }
  assert_int_equal((size_t)next + unused, m.pts.size());
}

bool same_mesh(const Mesh &a, const Mesh &b) {
  return a.pts.size() == b.pts.size() && a.tets.size() == b.tets.size() &&
         std::memcmp(a.pts.data(), b.pts.data(), a.pts.size() * sizeof(Point)) == 0 &&
         a.scalars == b.scalars &&
         std::memcmp(a.tets.data(), b.tets.data(), a.tets.size() * sizeof(Tet)) == 0;
}

/* The triangles as coordinate triples, each rotated to start at its
 * smallest vertex (winding kept), sorted: equal for the same surface
 * whatever the vertex numbering and triangle order. */
std::vector<std::array<double, 9>> canonical(const Surface &s) {
  std::vector<std::array<double, 9>> out(s.ntris());
  for (size_t f = 0; f < s.ntris(); f++) {
    std::array<std::array<double, 3>, 3> v;
    for (int k = 0; k < 3; k++)
      for (int c = 0; c < 3; c++)
        v[(size_t)k][(size_t)c] = s.xyz[3 * (size_t)s.tri[3 * f + (size_t)k] + (size_t)c];
    const size_t first = (size_t)(std::min_element(v.begin(), v.end()) - v.begin());
    for (size_t k = 0; k < 3; k++)
      for (size_t c = 0; c < 3; c++) out[f][3 * k + c] = v[(first + k) % 3][c];
  }
  std::sort(out.begin(), out.end());
  return out;
}

/* A permutation of points and cells, points in first-use order, for both
 * curves and several starting numberings; renumbering by first use again
 * changes nothing. */
void test_permutation(void **) {
  start_workers(2);
  const Mesh inputs[] = {make_mesh(9, 7, 6, Field::Waves, Order::Lex),
                         make_mesh(9, 7, 6, Field::Waves, Order::Hilbert),
                         shuffled_mesh(9, 7, 6, Field::Waves),
                         shuffled_mesh(1, 1, 1, Field::Sphere)};
  for (const Mesh &m : inputs)
    for (Reorder curve : {Reorder::Morton, Reorder::Hilbert}) {
      const Mesh r = reordered(m, curve);
      check_permutation(m, r);
      check_first_use(r, 0);
      Mesh again = r;
      std::string err;
      assert_int_equal(renumber_points_first_use(&again, &err), 0);
      assert_true(same_mesh(again, r));
    }
  /* The sequential point renumbering and the shuffle are permutations too. */
  Mesh m = shuffled_mesh(6, 5, 4, Field::Waves), f = m;
  std::string err;
  assert_int_equal(renumber_points_first_use(&f, &err), 0);
  check_permutation(m, f);
  check_first_use(f, 0);
  assert_true(f.tets.size() == m.tets.size());
}

/* The same renumbered mesh, byte for byte, whatever the worker count. */
void test_deterministic(void **) {
  const Mesh m = shuffled_mesh(12, 10, 9, Field::Waves);
  for (Reorder curve : {Reorder::Morton, Reorder::Hilbert}) {
    start_workers(1);
    const Mesh ref = reordered(m, curve);
    for (int w : {2, 3, 8}) {
      start_workers(w);
      assert_true(same_mesh(reordered(m, curve), ref));
    }
  }
  /* The two curves give different orders (the option is not ignored). */
  start_workers(2);
  assert_false(same_mesh(reordered(m, Reorder::Morton), reordered(m, Reorder::Hilbert)));
}

/* The surface is unchanged: the same triangles as coordinate triples, equal
 * to vtkContourGrid's, and every mode byte-identical on the renumbered
 * mesh with 1, 2 and 3 workers. */
void test_surface_unchanged(void **) {
  start_workers(2);
  const struct {
    Mesh m;
    double iso;
  } cases[] = {{shuffled_mesh(12, 10, 9, Field::Waves), 0.1},
               {shuffled_mesh(10, 10, 10, Field::Sphere), 0.6},
               {make_mesh(12, 10, 9, Field::Waves, Order::Lex), 0.0}};
  for (const auto &c : cases)
    for (Reorder curve : {Reorder::Morton, Reorder::Hilbert}) {
      const Mesh r = reordered(c.m, curve);
      const Surface before = run(c.m, c.iso, Mode::Seq), after = run(r, c.iso, Mode::Seq);
      assert_true(after.ntris() > 50);
      assert_int_equal(before.ntris(), after.ntris());
      assert_int_equal(before.nverts(), after.nverts());
      assert_true(std::fabs(before.area() - after.area()) <= ISO_AREA_RTOL * before.area());
      assert_true(canonical(before) == canonical(after));
      check_against_vtk(r, c.iso, after);
      for (int w : {1, 2, 3}) {
        start_workers(w);
        for (Mode mode : {Mode::NoWin, Mode::Static, Mode::Sliding})
          assert_true(run(r, c.iso, mode) == after);
      }
      start_workers(2);
    }
}

/* auto: the generated orders (lexicographic, Morton, Hilbert: also what
 * image volumes get) are good, random cells or random points are poor, a
 * renumbered mesh is good, and small meshes are never renumbered. */
void test_auto(void **) {
  start_workers(2);
  const int n = 32; /* 33^3 = 35937 points, over ISO_REORDER_MIN_POINTS */
  static_assert(33 * 33 * 33 >= ISO_REORDER_MIN_POINTS, "the test mesh must be large enough");
  for (Order o : {Order::Lex, Order::Morton, Order::Hilbert}) {
    const Mesh m = make_mesh(n, n, n, Field::Waves, o);
    const Numbering q = measure_numbering(m);
    assert_true(q.samples > 0 && q.pair_spread >= q.cell_spread);
    assert_false(reorder_needed(q, m.pts.size()));
  }
  /* A flat box (4 layers of cells) stays good too. */
  const Mesh flat = make_mesh(100, 90, 4, Field::Waves, Order::Lex);
  assert_false(reorder_needed(measure_numbering(flat), flat.pts.size()));
  Mesh cells_random = make_mesh(n, n, n, Field::Waves, Order::Random);
  assert_true(reorder_needed(measure_numbering(cells_random), cells_random.pts.size()));
  Mesh points_random = make_mesh(n, n, n, Field::Waves, Order::Lex);
  std::string err;
  assert_int_equal(shuffle_points(&points_random, 3, &err), 0);
  const Numbering pr = measure_numbering(points_random);
  assert_true(reorder_needed(pr, points_random.pts.size()));
  assert_true(pr.cell_spread > ISO_REORDER_POOR_SPREAD);
  const Mesh both = shuffled_mesh(n, n, n, Field::Waves);
  assert_true(reorder_needed(measure_numbering(both), both.pts.size()));
  for (const Mesh *m : {(const Mesh *)&cells_random, (const Mesh *)&points_random, &both}) {
    const Mesh r = reordered(*m, Reorder::Hilbert);
    const Numbering q = measure_numbering(r);
    assert_false(reorder_needed(q, r.pts.size()));
    assert_true(q.pair_spread < 0.1);
  }
  /* Small: a random numbering of 1331 points is left alone. */
  const Mesh small = shuffled_mesh(10, 10, 10, Field::Waves);
  assert_true(measure_numbering(small).pair_spread > ISO_REORDER_POOR_SPREAD);
  assert_false(reorder_needed(measure_numbering(small), small.pts.size()));
  /* Empty. */
  const Numbering e = measure_numbering(Mesh());
  assert_true(e.samples == 0 && e.pair_spread == 0);
}

/* Degenerate cells, unused points and duplicate points keep their handling:
 * the renumbering still succeeds, keeps them (unused points last), and the
 * surface is the same. Bad arguments are refused with a message. */
void test_bad_inputs(void **) {
  start_workers(2);
  Mesh m = make_mesh(5, 4, 3, Field::Waves, Order::Random);
  const size_t used = m.pts.size();
  /* Two unused points (one far away: the bounding box grows) and a
   * duplicate of point 0 used by a new cell. */
  add_point(m, 100, 100, 100, 0.5);
  add_point(m, 0.5, 0.5, 0.5, -0.25);
  add_point(m, m.pts[0].x, m.pts[0].y, m.pts[0].z, m.scalars[0]);
  const uint32_t dup = (uint32_t)m.pts.size() - 1;
  const Tet t0 = m.tets[0];
  m.tets.push_back({{dup, t0.v[1], t0.v[2], t0.v[3]}});
  /* A degenerate cell (a repeated point) and a flat one. */
  m.tets.push_back({{t0.v[0], t0.v[0], t0.v[1], t0.v[2]}});
  m.tets.push_back({{t0.v[1], t0.v[1], t0.v[1], t0.v[1]}});
  std::string err;
  assert_int_equal(validate(m, &err), 0);
  std::swap(m.tets[3], m.tets[m.tets.size() - 2]);
  for (Reorder curve : {Reorder::Morton, Reorder::Hilbert}) {
    const Mesh r = reordered(m, curve);
    check_permutation(m, r);
    check_first_use(r, 2);
    /* The unused points come last, in their previous order. */
    assert_true(key(r, r.pts.size() - 2) == key(m, used));
    assert_true(key(r, r.pts.size() - 1) == key(m, used + 1));
    size_t degenerate = 0;
    for (const Tet &t : r.tets) degenerate += t.v[0] == t.v[1];
    assert_int_equal(degenerate, 2);
    for (double iso : {0.0, 0.3}) {
      const Surface a = run(m, iso, Mode::Seq), b = run(r, iso, Mode::Seq);
      assert_int_equal(a.ntris(), b.ntris());
      assert_int_equal(a.nverts(), b.nverts());
      assert_true(canonical(a) == canonical(b));
    }
  }
  /* Not a curve: -EINVAL, a message, the mesh untouched. */
  Mesh keep = m;
  err.clear();
  assert_int_equal(reorder_cells(&keep, Reorder::Auto, nullptr, &err), -EINVAL);
  assert_false(err.empty());
  assert_true(same_mesh(keep, m));
  assert_int_equal(reorder_cells(&keep, Reorder::None, nullptr, &err), -EINVAL);
  /* Empty mesh, one point without cells, all points at one place. */
  Mesh empty;
  assert_int_equal(reorder_cells(&empty, Reorder::Hilbert, nullptr, &err), 0);
  Mesh lone;
  add_point(lone, 1, 2, 3, 4);
  assert_int_equal(reorder_cells(&lone, Reorder::Morton, nullptr, &err), 0);
  assert_int_equal(lone.pts.size(), 1);
  Mesh same;
  for (int k = 0; k < 4; k++) add_point(same, 1, 1, 1, (double)k);
  same.tets.push_back({{3, 2, 1, 0}});
  same.tets.push_back({{0, 1, 2, 3}});
  Mesh sr = reordered(same, Reorder::Hilbert);
  check_permutation(same, sr);
  /* Names. */
  Reorder rr;
  PointOrder po;
  assert_int_equal(parse_reorder("hilbert", &rr), 0);
  assert_true(rr == Reorder::Hilbert);
  assert_int_equal(parse_reorder("peano", &rr), -EINVAL);
  assert_int_equal(parse_point_order("first-use", &po), 0);
  assert_true(po == PointOrder::FirstUse);
  assert_int_equal(parse_point_order("sorted", &po), -EINVAL);
  /* Every value's name, in the enumerations' order (names.cpp lists them). */
  const char *const reorders[] = {"none", "morton", "hilbert", "auto"};
  for (int i = 0; i <= (int)Reorder::Auto; i++)
    assert_string_equal(reorder_name((Reorder)i), reorders[i]);
  const char *const point_orders[] = {"keep", "first-use", "random"};
  for (int i = 0; i <= (int)PointOrder::Random; i++)
    assert_string_equal(point_order_name((PointOrder)i), point_orders[i]);
  assert_string_equal(order_name(Order::Lex), "lex");
  assert_string_equal(order_name(Order::Morton), "morton");
  assert_string_equal(order_name(Order::Hilbert), "hilbert");
  assert_string_equal(order_name(Order::Random), "random");
  assert_string_equal(split_name(Split::Five), "5");
  assert_string_equal(split_name(Split::Six), "6");
  assert_string_equal(field_name(Field::Sphere), "sphere");
  assert_string_equal(field_name(Field::Waves), "waves");
  assert_string_equal(field_name(Field::Flat), "flat");
  assert_string_equal(field_name(Field::Gyroid), "gyroid");
  assert_string_equal(mode_name(Mode::Seq), "seq");
  assert_string_equal(mode_name(Mode::NoWin), "nowin");
  assert_string_equal(mode_name(Mode::Static), "static");
  assert_string_equal(mode_name(Mode::Sliding), "sliding");
}

#ifdef ISO_TEST_BIN
bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

std::string tmpdir() { return scratch_dir("test_reorder"); }

/* The command line: the mesh line's measure, auto on a poor and a good
 * numbering, the reorder line, a verified run of every mode on the
 * renumbered mesh, the CSV columns, --save-mesh writing the renumbered
 * mesh, bad values. */
void test_cli(void **) {
  std::string out;
  const std::string csv = tmpdir() + "/r.csv", vtu = tmpdir() + "/r.vtu";
  const std::string poor = "--generate 34x33x32 --order random --point-order random --seed 5 "
                           "--events none --reps 1 ";
  assert_int_equal(
      run_cli(poor + "--mode all --workers 2 --verify --csv " + csv + " --save-mesh " + vtu, &out),
      0);
  assert_true(contains(out, "points random") && contains(out, "pair spread") &&
              contains(out, ": poor"));
  assert_true(contains(out, "reorder: hilbert (auto), ") && contains(out, "ms on 2 worker(s)"));
  assert_true(contains(out, "vtkContourGrid") && contains(out, ": ok"));
  assert_false(contains(out, "FAILED"));
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  assert_true(contains(text, ",cell_spread,pair_spread,reorder,reorder_s"));
  assert_true(contains(text, ",hilbert,"));
  /* The CSV's spreads are those of the mesh extracted, after --reorder
   * (the mesh line's, before it, are poor). */
  for (const char *col : {"cell_spread", "pair_spread"}) {
    const std::map<std::string, double> spread = csv_column(csv, col);
    assert_true(spread.count("seq") && spread.at("seq") < 0.1);
  }
  /* The saved mesh is the renumbered one: good, left alone when read. */
  Mesh saved;
  std::string err;
  assert_int_equal(read_mesh(vtu, ReadOptions(), &saved, &err), 0);
  assert_false(reorder_needed(measure_numbering(saved), saved.pts.size()));
  assert_int_equal(run_cli("--input " + vtu + " --iso 0 --events none --reps 1", &out), 0);
  assert_true(contains(out, "reorder: none (auto: the numbering is not poor: pair spread "));
  /* A small mesh is left alone for its size, poor numbering or not. */
  assert_int_equal(run_cli("--generate 6 --order random --point-order random --events none "
                           "--reps 1",
                           &out),
                   0);
  assert_true(contains(out, ": poor\n") &&
              contains(out, "reorder: none (auto: 343 points, fewer than 32768: "));
  assert_false(contains(out, "not poor"));
  /* --reorder none keeps the poor numbering; morton is applied as asked. */
  assert_int_equal(run_cli(poor + "--reorder none", &out), 0);
  assert_true(contains(out, "reorder: none\n"));
  assert_int_equal(run_cli("--generate 8 --reorder morton --events none --reps 1", &out), 0);
  assert_true(contains(out, "reorder: morton, "));
  assert_int_equal(run_cli("--generate 8 --point-order first-use --events none", &out), 0);
  assert_true(contains(out, "points first-use"));
  /* Bad values: refused on one thread before the runtime starts (not
   * under TSan: tsan_single_threaded). */
  if (tsan_single_threaded()) return;
  assert_int_equal(run_cli("--generate 4 --reorder peano", &out), 1);
  assert_true(contains(out, "--reorder: expected none, morton, hilbert or auto, got 'peano'"));
  assert_int_equal(run_cli("--generate 4 --point-order sorted", &out), 1);
  assert_true(contains(out, "--point-order: unknown order 'sorted'"));
}
#endif

} // namespace

/* The global ids read from pieces (PieceReadOptions::global_ids, for the
 * distributed run's vertex numbering): each mesh point's id is its index in
 * the mesh the pieces were written from, for merged pieces and for one
 * alone, and the renumberings move the ids with the points. */
void test_piece_global_ids(void **) {
  const Mesh g = make_mesh(4, 3, 3, Field::Waves, Order::Hilbert);
  const std::string pvtu = tmpdir() + "/gids.pvtu";
  std::string err;
  /* VTK's writer, on its SMP backend's threads, allocates what the main
   * thread frees (TBB, uninstrumented: ThreadSanitizer cannot see the
   * synchronisation): sequential for the write. */
  const std::string backend = vtkSMPTools::GetBackend();
  vtkSMPTools::SetBackend("Sequential");
  assert_int_equal(write_pieces(g, pvtu, 3, &err), 0);
  vtkSMPTools::SetBackend(backend.c_str());
  PvtuIndex idx;
  assert_int_equal(read_pvtu_index(pvtu, &idx, &err), 0);
  PieceReadOptions ro;
  ro.global_ids = true;
  /* Each point's id names the point of g at its place. */
  auto ids_match = [&g](const Mesh &m) {
    assert_int_equal(m.point_data.size(), 1);
    const MeshArray &a = m.point_data[0];
    assert_string_equal(a.name.c_str(), kGlobalPointIds);
    assert_int_equal(a.tuples(), m.pts.size());
    for (size_t p = 0; p < m.pts.size(); p++) {
      int64_t id;
      std::memcpy(&id, a.bytes.data() + 8 * p, sizeof id);
      assert_true(id >= 0 && (size_t)id < g.pts.size());
      const Point &q = g.pts[(size_t)id];
      assert_true(q.x == m.pts[p].x && q.y == m.pts[p].y && q.z == m.pts[p].z);
    }
  };
  for (size_t first : {0, 1}) {
    Mesh m;
    assert_int_equal(read_pieces(idx, first, first == 0 ? 3 : 2, ro, &m, &err), 0);
    assert_int_equal(m.tets.size() > 0, 1);
    ids_match(m);
    assert_int_equal(shuffle_points(&m, 3, &err), 0);
    ids_match(m);
    assert_int_equal(reorder_cells(&m, Reorder::Hilbert, nullptr, &err), 0);
    ids_match(m);
  }
  /* Without the option, no array. */
  Mesh m;
  assert_int_equal(read_pieces(idx, 0, 3, PieceReadOptions(), &m, &err), 0);
  assert_true(m.point_data.empty() && m.pts.size() == g.pts.size());
}

/* A piece with DUPLICATECELL ghost cells (vtkGhostType): the read leaves
 * them out and the points only they use, the others in their order with
 * their scalars and global ids; alone and merged with a neighbour (whose
 * cells keep the points they share). Every point of the mesh is used, and
 * the mesh and its surface are those of the piece read without the ghost
 * array, the ghost cells taken out afterwards (their points kept). */
void test_piece_ghosts(void **) {
  const Mesh g = make_mesh(6, 4, 4, Field::Waves, Order::Lex);
  const std::string pvtu = tmpdir() + "/ghosts.pvtu";
  std::string err;
  const std::string backend = vtkSMPTools::GetBackend();
  vtkSMPTools::SetBackend("Sequential"); /* as in test_piece_global_ids */
  assert_int_equal(write_pieces(g, pvtu, 3, &err), 0);
  /* Piece 1 again with a ghost array: its first third of cells and every
   * 5th one after marked DUPLICATECELL, others HIDDENPOINT (not a ghost
   * for the read: kept). */
  PvtuIndex idx, gidx;
  assert_int_equal(read_pvtu_index(pvtu, &idx, &err), 0);
  gidx = idx;
  gidx.pieces[1] = tmpdir() + "/ghosts_1_dup.vtu";
  vtkNew<vtkXMLUnstructuredGridReader> rd;
  rd->SetFileName(idx.pieces[1].c_str());
  rd->Update();
  vtkUnstructuredGrid *ug = rd->GetOutput();
  const vtkIdType nc = ug->GetNumberOfCells();
  assert_true(nc > 30);
  std::vector<bool> ghost((size_t)nc);
  vtkNew<vtkUnsignedCharArray> gh;
  gh->SetName(vtkDataSetAttributes::GhostArrayName());
  gh->SetNumberOfTuples(nc);
  for (vtkIdType c = 0; c < nc; c++) {
    ghost[(size_t)c] = c < nc / 3 || c % 5 == 0;
    gh->SetValue(c, ghost[(size_t)c] ? vtkDataSetAttributes::DUPLICATECELL
                                     : (c % 5 == 1 ? vtkDataSetAttributes::HIDDENPOINT : 0));
  }
  ug->GetCellData()->AddArray(gh);
  vtkNew<vtkXMLUnstructuredGridWriter> wr;
  wr->SetInputData(ug);
  wr->SetFileName(gidx.pieces[1].c_str());
  assert_int_equal(wr->Write(), 1);
  vtkSMPTools::SetBackend(backend.c_str());
  PieceReadOptions ro;
  ro.global_ids = true;
  size_t smaller = 0;
  for (size_t first : {1, 0}) {
    Mesh full, m;
    assert_int_equal(read_pieces(idx, first, 2, ro, &full, &err), 0);
    assert_int_equal(read_pieces(gidx, first, 2, ro, &m, &err), 0);
    /* The reference: the cells read without the ghost array, the ghosts
     * taken out (piece 1's cells come last), every point kept. */
    Mesh ref = full;
    const size_t off = full.tets.size() - (size_t)nc;
    ref.tets.clear();
    for (size_t t = 0; t < full.tets.size(); t++)
      if (t < off || !ghost[t - off]) ref.tets.push_back(full.tets[t]);
    assert_int_equal(m.tets.size(), ref.tets.size());
    /* The points used by ref's cells, in their order, are m's points. */
    std::vector<int64_t> to(ref.pts.size(), -1);
    for (const Tet &t : ref.tets)
      for (uint32_t v : t.v) to[v] = 0;
    size_t n = 0;
    for (size_t p = 0; p < ref.pts.size(); p++)
      if (to[p] == 0) to[p] = (int64_t)n++;
    assert_int_equal(m.pts.size(), n);
    if (n < ref.pts.size()) smaller++;
    std::vector<bool> used(m.pts.size());
    for (size_t t = 0; t < m.tets.size(); t++)
      for (int k = 0; k < 4; k++) {
        const uint32_t v = m.tets[t].v[k], r = ref.tets[t].v[k];
        assert_int_equal(v, to[r]);
        used[v] = true;
      }
    assert_true(std::all_of(used.begin(), used.end(), [](bool u) { return u; }));
    assert_int_equal(m.point_data.size(), 1);
    assert_int_equal(m.point_data[0].tuples(), m.pts.size());
    for (size_t p = 0; p < ref.pts.size(); p++) {
      if (to[p] < 0) continue;
      const size_t q = (size_t)to[p];
      assert_true(std::memcmp(&m.pts[q], &ref.pts[p], sizeof(Point)) == 0);
      assert_true(m.scalars[q] == ref.scalars[p]);
      assert_true(std::memcmp(m.point_data[0].bytes.data() + 8 * q,
                              ref.point_data[0].bytes.data() + 8 * p, 8) == 0);
    }
    /* The same surface as before the points were left out. */
    const Surface before = run(ref, 0.1, Mode::Seq), after = run(m, 0.1, Mode::Seq);
    assert_true(after.ntris() > 10);
    assert_int_equal(before.ntris(), after.ntris());
    assert_int_equal(before.nverts(), after.nverts());
    assert_true(canonical(before) == canonical(after));
    check_against_vtk(m, 0.1, after);
  }
  /* The ghosts alone left points unused (piece 1 read alone). */
  assert_true(smaller >= 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_permutation),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_surface_unchanged),
      cmocka_unit_test(test_auto),
      cmocka_unit_test(test_bad_inputs),
      cmocka_unit_test(test_piece_global_ids),
      cmocka_unit_test(test_piece_ghosts),
#ifdef ISO_TEST_BIN
      cmocka_unit_test(test_cli),
#endif
  };
  return run_tests_and_finalize(tests);
}
