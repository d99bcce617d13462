/* tests/isosurface: <adapt/iso.hpp>, the extraction as a library: every
 * input type against the core's own path (byte-identical), several
 * values, interpolated point arrays, cell arrays, normals, worker counts,
 * nested and concurrent calls, the library's unbound start of the
 * runtime; test_iso_api_cells.cpp: the split of linear
 * cells and the errors. Small meshes (the suite runs under TSan and ASan
 * too). */
#include <adapt/adapt.h>
#include <adapt/loop.h>

#include <sched.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "iso_api_test.h"

using namespace iso_api_test;

namespace {

void test_tetrahedra(void **) {
  const iso::Mesh &m = grid();
  const iso::Surface r = reference(m, kIso);
  assert_true(r.ntris() > 100);
  ai::surface s;
  run_ok(input_of(m), request_at({kIso}), &s);
  assert_same(s, r);
  assert_int_equal(s.num_values(), 1);
  assert_int_equal(s.first_triangle(1), r.ntris());
  assert_null(s.normals());
  assert_null(s.cell_ids());
  assert_null(s.scalars());
}

/* Arrays of every dtype, kept alive for the test's views. */
struct Store {
  std::vector<std::vector<unsigned char>> blobs;
  /* v converted to T, as a view of nc components. */
  template <class T>
  ai::array add(const std::vector<double> &v, int nc = 1) {
    blobs.emplace_back(v.size() * sizeof(T));
    T *p = reinterpret_cast<T *>(blobs.back().data());
    for (size_t i = 0; i < v.size(); i++) p[i] = (T)v[i];
    return ai::view(p, v.size() / (size_t)nc, nc);
  }
};

/* The scalars (shifted by `shift`, the value too: the crossings'
 * arithmetic is exact on these integers) as every dtype, with their value. */
std::vector<std::pair<ai::array, double>> all_scalars(const iso::Mesh &m, Store *st) {
  std::vector<double> v(m.scalars.begin(), m.scalars.end()), low;
  for (double x : v) low.push_back(x - 100);
  return {{st->add<int8_t>(low), kIso - 100}, {st->add<uint8_t>(v), kIso},
          {st->add<int16_t>(v), kIso},        {st->add<uint16_t>(v), kIso},
          {st->add<int32_t>(v), kIso},        {st->add<uint32_t>(v), kIso},
          {st->add<int64_t>(v), kIso},        {st->add<uint64_t>(v), kIso},
          {st->add<float>(v), kIso},          {st->add<double>(v), kIso}};
}

/* The cells as tetrahedra of every id dtype and as VTK cell arrays of
 * tetra cells with 32- and 64-bit offsets and ids: (connectivity,
 * offsets, types). */
std::vector<std::array<ai::array, 3>> all_cells(const iso::Mesh &m, Store *st) {
  std::vector<double> ids, off;
  for (const iso::Tet &t : m.tets) ids.insert(ids.end(), t.v, t.v + 4);
  for (size_t c = 0; c <= m.tets.size(); c++) off.push_back((double)(4 * c));
  const ai::array types = st->add<uint8_t>(std::vector<double>(m.tets.size(), ai::tetra));
  const ai::array none;
  std::vector<std::array<ai::array, 3>> all = {
      {st->add<int32_t>(ids), none, none},
      {st->add<uint32_t>(ids), none, none},
      {st->add<int64_t>(ids), none, none},
      {st->add<uint64_t>(ids), none, none},
      {st->add<int32_t>(ids), st->add<int32_t>(off), types},
      {st->add<int32_t>(ids), st->add<int64_t>(off), types},
      {st->add<int64_t>(ids), st->add<int32_t>(off), types},
      {st->add<int64_t>(ids), st->add<int64_t>(off), types}};
  return all;
}

/* Every combination of point, scalar and cell types: the surface of the
 * core's path on the same values, byte for byte. */
void test_types(void **) {
  const iso::Mesh &m = grid();
  /* float32 points: the reference is the mesh with its points rounded
   * (read back from memory: GCC folds a double rounded to float and back
   * into the double at -O2). */
  Store st;
  std::vector<double> scaled;
  for (const iso::Point &p : m.pts)
    scaled.insert(scaled.end(), {0.37 * p.x, 0.37 * p.y, 0.37 * p.z});
  const ai::array pf = st.add<float>(scaled, 3);
  iso::Mesh mf = m;
  const float *f = static_cast<const float *>(pf.data);
  for (size_t k = 0; k < mf.pts.size(); k++)
    mf.pts[k] = iso::Point{f[3 * k], f[3 * k + 1], f[3 * k + 2]};
  const iso::Surface r = reference(m, kIso), rf = reference(mf, kIso);
  const auto scalars = all_scalars(m, &st);
  const auto cells = all_cells(m, &st);
  ai::surface s;
  for (int fl = 0; fl < 2; fl++)
    for (const auto &sc : scalars)
      for (const auto &c : cells) {
        ai::input in = input_of(m);
        if (fl) in.points = pf;
        in.scalars = sc.first;
        in.connectivity = c[0];
        in.offsets = c[1];
        in.types = c[2];
        run_ok(in, request_at({sc.second}), &s);
        assert_same(s, fl ? rf : r);
      }
}

void test_values(void **) {
  const iso::Mesh &m = grid();
  const std::vector<double> vals = {120.5, 90.25, 100.5, 500};
  ai::surface s;
  ai::request req = request_at(vals);
  req.scalars = true;
  run_ok(input_of(m), req, &s);
  assert_int_equal(s.num_values(), vals.size());
  for (size_t i = 0; i < vals.size(); i++) {
    const iso::Surface r = reference(m, vals[i]);
    assert_int_equal(s.first_point(i + 1) - s.first_point(i), r.nverts());
    assert_int_equal(s.first_triangle(i + 1) - s.first_triangle(i), r.ntris());
    assert_part(s, s.first_point(i), s.first_triangle(i), r);
    for (size_t p = s.first_point(i); p < s.first_point(i + 1); p++)
      assert_true(s.scalars()[p] == vals[i]);
  }
  assert_int_equal(s.first_point(3), s.num_points()); /* 500: empty */
  /* No value: an empty surface. */
  run_ok(input_of(m), request_at({}), &s);
  assert_int_equal(s.num_points(), 0);
  assert_int_equal(s.num_values(), 0);
}

/* A linear function of the position (the grid's points are at integer
 * coordinates): interpolating it on an edge is exact up to rounding, so
 * its value at a surface point is the hand-computed expectation. */
double linear(const double *x, int k) { return 3 * x[0] + 5 * x[1] + 7 * x[2] + 11 * k - 40; }

/* A point array of T with nc components: linear() at each mesh point. */
/* dtype_of names each type's dtype by its size and signedness (the
 * platform's char and long included). */
static_assert(
    ai::dtype_of<signed char>() == ai::dtype::int8 &&
        ai::dtype_of<unsigned char>() == ai::dtype::uint8 &&
        ai::dtype_of<char>() == (static_cast<char>(-1) < 0 ? ai::dtype::int8 : ai::dtype::uint8) &&
        ai::dtype_of<short>() == ai::dtype::int16 &&
        ai::dtype_of<unsigned short>() == ai::dtype::uint16 &&
        ai::dtype_of<std::int32_t>() == ai::dtype::int32 &&
        ai::dtype_of<std::uint32_t>() == ai::dtype::uint32 &&
        ai::dtype_of<long>() == (sizeof(long) == 8 ? ai::dtype::int64 : ai::dtype::int32) &&
        ai::dtype_of<unsigned long long>() == ai::dtype::uint64 &&
        ai::dtype_of<float>() == ai::dtype::float32 && ai::dtype_of<double>() == ai::dtype::float64,
    "dtype_of");

template <class T>
std::vector<T> point_array(const iso::Mesh &m, int nc) {
  std::vector<T> a;
  for (const iso::Point &p : m.pts)
    for (int k = 0; k < nc; k++) a.push_back((T)linear(&p.x, k));
  return a;
}

/* s's interpolated array i (T, nc components) is linear() at its points:
 * within tol (integers: within half a unit, rounded as VTK does). */
template <class T>
void check_interpolated(const ai::surface &s, size_t i, int nc, double tol) {
  const ai::array a = s.point_data(i);
  assert_int_equal((int)a.type, (int)ai::dtype_of<T>());
  assert_int_equal(a.components, nc);
  assert_int_equal(a.count, s.num_points());
  const T *v = static_cast<const T *>(a.data);
  for (size_t p = 0; p < s.num_points(); p++)
    for (int k = 0; k < nc; k++) {
      const double want = linear(s.points() + 3 * p, k);
      const double got = (double)v[(size_t)nc * p + (size_t)k];
      if (std::is_integral<T>::value) {
        assert_true(std::fabs(got - want) <= 0.5 + 1e-9);
        assert_true(got == std::round(got));
      } else {
        assert_true(std::fabs(got - want) <= tol * (1 + std::fabs(want)));
      }
    }
}

void test_point_data(void **) {
  const iso::Mesh &m = grid();
  const std::vector<double> d1 = point_array<double>(m, 1);
  const std::vector<float> f3 = point_array<float>(m, 3);
  const std::vector<int32_t> i9 = point_array<int32_t>(m, 9);
  const std::vector<int16_t> s3 = point_array<int16_t>(m, 3);
  ai::request req = request_at({kIso, 95.5});
  req.point_data = {ai::view(d1.data(), m.pts.size(), 1), ai::view(f3.data(), m.pts.size(), 3),
                    ai::view(i9.data(), m.pts.size(), 9), ai::view(s3.data(), m.pts.size(), 3),
                    ai::view(m.scalars.data(), m.scalars.size())};
  ai::surface s;
  run_ok(input_of(m), req, &s);
  assert_int_equal(s.num_point_data(), 5);
  check_interpolated<double>(s, 0, 1, 1e-12);
  check_interpolated<float>(s, 1, 3, 1e-6);
  check_interpolated<int32_t>(s, 2, 9, 0);
  check_interpolated<int16_t>(s, 3, 3, 0);
  /* The contoured scalars themselves interpolate to each part's value. */
  const double *sc = static_cast<const double *>(s.point_data(4).data);
  for (size_t i = 0; i < 2; i++)
    for (size_t p = s.first_point(i); p < s.first_point(i + 1); p++)
      assert_true(std::fabs(sc[p] - req.values[i]) <= 1e-9);
}

/* Cell data, source cell ids, normals. */
void test_cell_data(void **) {
  const iso::Mesh &m = grid();
  std::vector<int64_t> c2;
  std::vector<float> c1;
  for (size_t c = 0; c < m.tets.size(); c++) {
    c2.insert(c2.end(), {(int64_t)c, -(int64_t)c});
    c1.push_back(0.5f * (float)c);
  }
  ai::request req = request_at({kIso, 110.5});
  req.cell_data = {ai::view(c2.data(), m.tets.size(), 2), ai::view(c1.data(), m.tets.size())};
  req.cell_ids = true;
  req.normals = true;
  ai::surface s;
  run_ok(input_of(m), req, &s);
  const int64_t *ids = s.cell_ids();
  assert_non_null(ids);
  const int64_t *d2 = static_cast<const int64_t *>(s.cell_data(0).data);
  const float *d1 = static_cast<const float *>(s.cell_data(1).data);
  assert_int_equal(s.cell_data(0).count, s.num_triangles());
  for (size_t f = 0; f < s.num_triangles(); f++) {
    assert_true(f == s.first_triangle(1) || f == 0 || ids[f] >= ids[f - 1]); /* cell order */
    assert_int_equal(d2[2 * f], ids[f]);
    assert_int_equal(d2[2 * f + 1], -ids[f]);
    assert_true(d1[f] == 0.5f * (float)ids[f]);
    /* Each vertex lies in the source cell's bounding box. */
    const iso::Tet &t = m.tets[(size_t)ids[f]];
    for (int k = 0; k < 3; k++)
      for (int c = 0; c < 3; c++) {
        const double x = s.points()[3 * s.triangles()[3 * f + (size_t)k] + (size_t)c];
        double lo = 1e300, hi = -1e300;
        for (int j = 0; j < 4; j++) {
          lo = std::min(lo, (&m.pts[t.v[j]].x)[c]);
          hi = std::max(hi, (&m.pts[t.v[j]].x)[c]);
        }
        assert_true(x >= lo && x <= hi);
      }
  }
  /* Normals: the normalised sum of the unit normals of each point's
   * triangles, computed here again. */
  std::vector<double> sum(3 * s.num_points(), 0.0);
  for (size_t f = 0; f < s.num_triangles(); f++) {
    const int64_t *t = s.triangles() + 3 * f;
    const double *a = s.points() + 3 * t[0], *b = s.points() + 3 * t[1], *c = s.points() + 3 * t[2];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
                 v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                         u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3 && len > 0; k++)
      for (int j = 0; j < 3; j++) sum[3 * (size_t)t[k] + (size_t)j] += n[j] / len;
  }
  const float *nr = s.normals();
  assert_non_null(nr);
  for (size_t p = 0; p < s.num_points(); p++) {
    const double *n = &sum[3 * p];
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int j = 0; j < 3; j++) assert_true(std::fabs(nr[3 * p + (size_t)j] - n[j] / len) < 1e-6);
  }
}

/* Everything s holds, as bytes (the comparison of two results). */
std::string bytes_of(const ai::surface &s) {
  std::string b((const char *)s.points(), 3 * s.num_points() * sizeof(double));
  b.append((const char *)s.triangles(), 3 * s.num_triangles() * sizeof(int64_t));
  for (size_t i = 0; i < s.num_point_data(); i++) {
    const ai::array a = s.point_data(i);
    b.append((const char *)a.data, a.count * (size_t)a.components * ai::dtype_size(a.type));
  }
  for (size_t i = 0; i < s.num_cell_data(); i++) {
    const ai::array a = s.cell_data(i);
    b.append((const char *)a.data, a.count * (size_t)a.components * ai::dtype_size(a.type));
  }
  if (s.normals()) b.append((const char *)s.normals(), 3 * s.num_points() * sizeof(float));
  if (s.cell_ids()) b.append((const char *)s.cell_ids(), s.num_triangles() * sizeof(int64_t));
  return b;
}

/* A request with every output, two values. */
ai::request full_request(const iso::Mesh &m, const std::vector<float> &pd,
                         const std::vector<int16_t> &cd) {
  ai::request req = request_at({kIso, 93.5});
  req.point_data = {ai::view(pd.data(), m.pts.size(), 3), ai::view(m.scalars.data(), m.pts.size())};
  req.cell_data = {ai::view(cd.data(), m.tets.size())};
  req.normals = req.cell_ids = req.scalars = true;
  return req;
}

/* Workers 1 and 2, every mode, small grains: the same bytes; a call that
 * asks for other workers than the runtime runs is refused. */
void test_workers(void **) {
  const iso::Mesh &m = grid();
  const std::vector<float> pd = point_array<float>(m, 3);
  const std::vector<int16_t> cd(m.tets.size(), 7);
  ai::request req = full_request(m, pd, cd);
  start_workers(2);
  ai::surface s;
  req.policy = ai::policy().workers(1);
  run_ok(input_of(m), req, &s);
  const std::string one = bytes_of(s);
  for (ai::mode md : {ai::mode::sequential, ai::mode::none, ai::mode::static_, ai::mode::sliding})
    for (size_t grain : {0, 32}) {
      req.policy = ai::policy().window(md, 256).grain(grain);
      run_ok(input_of(m), req, &s);
      assert_true(bytes_of(s) == one);
    }
  req.policy = ai::policy().workers(2);
  run_ok(input_of(m), req, &s);
  assert_true(bytes_of(s) == one);
  /* Calls into the same surface reuse its memory. */
  assert_true(s.kept_bytes() > 0);
  /* The same tetrahedra as VTK cell arrays (read in place, 32- and 64-bit
   * ids): the same bytes at 1 and 2 workers. */
  Store st;
  for (const auto &c : all_cells(m, &st)) {
    if (!c[1].data) continue;
    ai::input in = input_of(m);
    in.connectivity = c[0];
    in.offsets = c[1];
    in.types = c[2];
    for (int w : {1, 2}) {
      req.policy = ai::policy().workers(w);
      run_ok(in, req, &s);
      assert_true(bytes_of(s) == one);
    }
  }
  req.policy = ai::policy().workers(3);
  assert_int_equal(ai::extract(input_of(m), req, &s), -EBUSY);
  assert_non_null(std::strstr(s.message(), "3 workers"));
  s.release();
  assert_int_equal(s.num_points(), 0);
  assert_int_equal(s.kept_bytes(), 0);
}

/* A box of n^3 hexahedra (VTK cell arrays, 32-bit ids) with the gyroid
 * field: a surface of several merge chunks, split on the fly. */
struct HexBox {
  std::vector<float> pts;
  std::vector<double> sc;
  std::vector<int32_t> conn, off{0};
  std::vector<uint8_t> types;
  explicit HexBox(int n) {
    auto id = [n](int i, int j, int k) { return (int32_t)(i + (n + 1) * (j + (n + 1) * k)); };
    for (int k = 0; k <= n; k++)
      for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
          pts.insert(pts.end(), {(float)i, (float)j, (float)k});
          sc.push_back(iso::field_value(iso::Field::Gyroid, i, j, k, n, n, n));
        }
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
          conn.insert(conn.end(), {id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k),
                                   id(i, j + 1, k), id(i, j, k + 1), id(i + 1, j, k + 1),
                                   id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)});
          off.push_back((int32_t)conn.size());
          types.push_back(ai::hexahedron);
        }
  }
  ai::input input() const { return cells_input(pts, sc, conn, off, types); }
};

/* Split cells, float points, a surface of several merge chunks: 1 and 2
 * workers, with and without a window, the same bytes. */
void test_workers_split(void **) {
  const HexBox box(27);
  ai::request req = request_at({0.0});
  req.point_data = {ai::view(box.sc.data(), box.sc.size())};
  req.cell_ids = req.normals = true;
  start_workers(2);
  ai::surface s;
  req.policy = ai::policy().workers(1);
  run_ok(box.input(), req, &s);
  assert_true(s.first_triangle(1) > 2 * 16384); /* several merge chunks */
  const std::string one = bytes_of(s);
  for (ai::mode md : {ai::mode::none, ai::mode::sliding}) {
    req.policy = ai::policy().window(md, 4096).grain(64);
    run_ok(box.input(), req, &s);
    assert_true(bytes_of(s) == one);
  }
}

struct Nested {
  const std::string *want;
  const ai::request *req;
  int ok[2];
};

/* Called from inside an adapt region: each body call extracts (nested). */
void nested_body(size_t b, size_t e, void *ctx) {
  Nested *n = static_cast<Nested *>(ctx);
  for (size_t i = b; i < e; i++) {
    ai::surface s;
    n->ok[i] = ai::extract(input_of(grid()), *n->req, &s) == 0 && bytes_of(s) == *n->want;
  }
}

void test_nested_and_threads(void **) {
  const iso::Mesh &m = grid();
  const std::vector<float> pd = point_array<float>(m, 3);
  const std::vector<int16_t> cd(m.tets.size(), 7);
  ai::request req = full_request(m, pd, cd);
  ai::surface s;
  run_ok(input_of(m), req, &s);
  const std::string want = bytes_of(s);
  start_workers(2);
  Nested n{&want, &req, {0, 0}};
  adapt_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.grain = 1;
  assert_int_equal(adapt_for(0, 2, nested_body, &n, &attr), 0);
  assert_true(n.ok[0] && n.ok[1]);
  /* Two threads of the caller's at once, three calls each. */
  int ok[2] = {0, 0};
  std::vector<std::thread> th;
  for (int t = 0; t < 2; t++)
    th.emplace_back([&, t] {
      ai::surface own;
      int good = 1;
      for (int k = 0; k < 3; k++)
        good &= ai::extract(input_of(m), req, &own) == 0 && bytes_of(own) == want;
      ok[t] = good;
    });
  for (std::thread &t : th) t.join();
  assert_true(ok[0] && ok[1]);
}

/* A start by the library (extract not sequential, on the default count
 * or 2 workers) leaves the calling thread's CPUs as they were (ADAPT_BIND
 * unset); a runtime already running bound is used as it is. */
void test_unbound_start(void **) {
  const iso::Mesh &m = grid();
  ai::request req = request_at({kIso});
  const char *env = std::getenv("ADAPT_BIND");
  const std::string saved = env ? env : "";
  unsetenv("ADAPT_BIND");
  cpu_set_t before, after;
  assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
  ai::surface s;
  for (int w : {0, 2}) {
    adapt_finalize();
    req.policy = ai::policy().workers(w);
    run_ok(input_of(m), req, &s);
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
  }
  adapt_finalize();
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = 2;
  cfg.bind = 1;
  assert_int_equal(adapt_init(&cfg), 0);
  for (int w : {0, 2}) {
    req.policy = ai::policy().workers(w);
    run_ok(input_of(m), req, &s);
  }
  assert_int_equal(ai::start_runtime(2), 0);
  assert_int_equal(ai::start_runtime(3), -EBUSY);
  assert_int_equal(ai::start_runtime(-1), -EINVAL);
  adapt_finalize();
  if (env) setenv("ADAPT_BIND", saved.c_str(), 1);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tetrahedra),     cmocka_unit_test(test_types),
      cmocka_unit_test(test_values),         cmocka_unit_test(test_point_data),
      cmocka_unit_test(test_cell_data),      cmocka_unit_test(test_split_one_cell),
      cmocka_unit_test(test_split_meshes),   cmocka_unit_test(test_input_errors),
      cmocka_unit_test(test_request_errors), cmocka_unit_test(test_workers),
      cmocka_unit_test(test_workers_split),  cmocka_unit_test(test_nested_and_threads),
      cmocka_unit_test(test_unbound_start),  cmocka_unit_test(test_deferred_checks),
  };
  const int rc = cmocka_run_group_tests(tests, nullptr, nullptr);
  adapt_finalize();
  return rc;
}
